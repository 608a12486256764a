//! `HostIf`: the host interface, its blocks joined (`docs/driver.md`,
//! `docs/architecture.md` §5d).
//!
//! ```text
//!  s_axil ─► AxilSlave ─► Csr ─┬─ CfgWrite ───────────────────────────────► m_cfg (core)
//!                              ├─ SqCommit, doorbells ─► SqEngine ─ WqeFetch ─► DmaRdMux ─► m_axis_read_desc
//!                              └─ CQ registers ─► CqEngine   ▲  │            │  ▲
//!                                    ▲    │ CqeWrite         │  │ CqeReq     │  └─ s_dma_rd (core's payload reads)
//!  s_cmpl (core) ─► CmplQueue ───────┼────┼─────────────────►┘  ▼            ▼
//!                                    │    │            CqEngine  s_axis_h2c ─► m_axis_core_h2c (core)
//!                                    │    ▼                               └─► WqeUnpack ─► m_wr (core)
//!  s_dma_wr (core) ──────────────► DmaWrPack ─► m_axis_write_desc, m_axis_c2h      └─ DMA_ERR ─► SqEngine
//!                                    └─ entry sent ─► CqEngine ─► m_event
//! ```
//!
//! Ports (clock `clock`): `reset` (synchronous: the AXI4-Lite slave, the
//! register decoder, and the DMA read mux's payload reads, which become
//! stale with the core's Tx builder; the queues' state is kept,
//! `docs/driver.md`);
//! host side: `s_axil` (AXI4-Lite), `m_axis_read_desc` + `s_axis_h2c`,
//! `m_axis_write_desc` + `m_axis_c2h` (verilog-axi `axi_dma` style
//! descriptors, 64-bit streams), `m_event` (`CqEvent`: a completion
//! queue's event); core side: `m_cfg` (`CfgWrite`), `m_wr` (`WorkReq`),
//! `s_cmpl` (`WrCompletion`), `s_dma_rd` (`HostReadReq`) with its data on
//! `m_axis_core_h2c`, `s_dma_wr` (`HostWrite`), and the core's counter
//! records `s_stats_*`, read over AXI4-Lite with the host interface's own
//! (`HostIfStats`); `core_reset`: the soft reset (`CONTROL` bit 0,
//! `SOFT_RESET_CYCLES` cycles), which also resets the DMA read mux's
//! payload reads here.
//!
//! Formats, latency and bad-input behaviour are the blocks' (each one's
//! doc comment). Golden twin: `nic_golden::hostif::host_if`.

use crate::cc::{CcStatsSink, DcqcnStatsSink, NpStatsSink};
use crate::hostif::axil_slave::AxilSlave;
use crate::hostif::cmpl_queue::CmplQueue;
use crate::hostif::cq_engine::CqEngine;
use crate::hostif::csr::Csr;
use crate::hostif::dma_rd_mux::DmaRdMux;
use crate::hostif::dma_wr_pack::DmaWrPack;
use crate::hostif::sq_engine::SqEngine;
use crate::hostif::wqe_unpack::WqeUnpack;
use crate::hostif::*;
use crate::record::host_core::{CfgWriteSource, CoreStatsSink};
use crate::roce::{
    CnmStatsSink, HostReadReqSink, HostWriteSink, ReqStatsSink, RxDispatchStatsSink,
    RxParseStatsSink, TxStatsSink, WorkReqSource, WrCompletionSink, WrCompletionSource,
};
use crate::sched::SchedStatsSink;
use crate::stream::{AxisSink, AxisSource};
use rust_hdl::prelude::*;

/// The host interface for 2^A flows with 2^Q work requests each at the
/// requester, 2^C completion queues (`N` = 2^C) and a WQE buffer of 2^W
/// entries; `H`, the hops of telemetry the core's CC module tracks, is
/// reported in `CAPS` (bits 19:16).
#[derive(LogicBlock, Default)]
pub struct HostIf<
    const A: usize,
    const Q: usize,
    const C: usize,
    const N: usize,
    const W: usize,
    const H: usize = 5,
> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub s_axil: AxiLite,
    pub m_axis_read_desc: DmaDescSource,
    pub s_axis_h2c: AxisSink<64, 8, 1>,
    pub m_axis_write_desc: DmaDescSource,
    pub m_axis_c2h: AxisSource<64, 8, 1>,
    pub m_event: CqEventSource,
    pub m_cfg: CfgWriteSource,
    pub m_wr: WorkReqSource,
    pub s_cmpl: WrCompletionSink,
    pub s_dma_rd: HostReadReqSink,
    pub m_axis_core_h2c: AxisSource<64, 8, 1>,
    pub s_dma_wr: HostWriteSink,
    pub s_stats_parse: RxParseStatsSink,
    pub s_stats_dispatch: RxDispatchStatsSink,
    pub s_stats_tx: TxStatsSink,
    pub s_stats_sched: SchedStatsSink,
    pub s_stats_cc: CcStatsSink,
    pub s_stats_req: ReqStatsSink,
    pub s_stats_core: CoreStatsSink,
    pub s_stats_dcqcn: DcqcnStatsSink,
    pub s_stats_np: NpStatsSink,
    pub s_stats_cnm: CnmStatsSink,
    /// The soft reset (`CONTROL` bit 0) for the core's pipelines.
    pub core_reset: Signal<Out, Bit>,
    axil: AxilSlave,
    csr: Csr<A, Q, C, H>,
    sq: SqEngine<A, Q, W>,
    cmpl_q: CmplQueue<{ nic_spec::hostif::CMPL_QUEUE_LOG2 }>,
    unpack: WqeUnpack<W>,
    cq: CqEngine<C, N>,
    rd: DmaRdMux,
    wr: DmaWrPack,
}

impl<
        const A: usize,
        const Q: usize,
        const C: usize,
        const N: usize,
        const W: usize,
        const H: usize,
    > Logic for HostIf<A, Q, C, N, W, H>
{
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clock, axil, csr, sq, cmpl_q, unpack, cq, rd, wr);
        self.axil.reset.next = self.reset.val();
        self.csr.reset.next = self.reset.val();
        self.rd.reset.next = (self.reset.val() || self.csr.soft_reset.val());
        self.core_reset.next = self.csr.soft_reset.val();
        // ---- Registers.
        AxiLite::link(&mut self.s_axil, &mut self.axil.s_axil);
        RegReqSource::join(&mut self.axil.m_req, &mut self.csr.s_req);
        RegRespSource::join(&mut self.csr.m_resp, &mut self.axil.s_resp);
        CfgWriteSource::link(&mut self.m_cfg, &mut self.csr.m_cfg);
        SqCommitSource::join(&mut self.csr.m_commit, &mut self.sq.s_commit);
        RegReqSource::join(&mut self.csr.m_sq, &mut self.sq.s_reg);
        RegRespSource::join(&mut self.sq.m_reg, &mut self.csr.s_sq);
        RegReqSource::join(&mut self.csr.m_cq, &mut self.cq.s_reg);
        RegRespSource::join(&mut self.cq.m_reg, &mut self.csr.s_cq);
        // ---- Send queues: fetches, entries, completions.
        WqeFetchSource::join(&mut self.sq.m_fetch, &mut self.rd.s_fetch);
        HostReadReqSink::link(&mut self.s_dma_rd, &mut self.rd.s_core);
        DmaDescSource::link(&mut self.m_axis_read_desc, &mut self.rd.m_axis_read_desc);
        AxisSink::<64, 8, 1>::link(&mut self.s_axis_h2c, &mut self.rd.s_axis_h2c);
        AxisSource::<64, 8, 1>::link(&mut self.m_axis_core_h2c, &mut self.rd.m_axis_core);
        WqeBeatSource::join(&mut self.rd.m_beat, &mut self.unpack.s_beat);
        WorkReqSource::link(&mut self.m_wr, &mut self.unpack.m_wr);
        WrCompletionSource::join(&mut self.unpack.m_err, &mut self.sq.s_err);
        self.sq.wqe_freed.next = self.unpack.wqe_freed.val();
        WrCompletionSink::link(&mut self.s_cmpl, &mut self.cmpl_q.s_cmpl);
        WrCompletionSource::join(&mut self.cmpl_q.m_cmpl, &mut self.sq.s_cmpl);
        // ---- Completion queues and host writes.
        CqeReqSource::join(&mut self.sq.m_cqe, &mut self.cq.s_cqe);
        CqeWriteSource::join(&mut self.cq.m_write, &mut self.wr.s_cqe);
        CqEventSource::join(&mut self.wr.m_done, &mut self.cq.s_done);
        CqEventSource::link(&mut self.m_event, &mut self.cq.m_event);
        HostWriteSink::link(&mut self.s_dma_wr, &mut self.wr.s_core);
        DmaDescSource::link(&mut self.m_axis_write_desc, &mut self.wr.m_axis_write_desc);
        AxisSource::<64, 8, 1>::link(&mut self.m_axis_c2h, &mut self.wr.m_axis_c2h);
        // ---- Counters: the core's, and the host interface's own.
        RxParseStatsSink::link(&mut self.s_stats_parse, &mut self.csr.s_stats_parse);
        RxDispatchStatsSink::link(&mut self.s_stats_dispatch, &mut self.csr.s_stats_dispatch);
        TxStatsSink::link(&mut self.s_stats_tx, &mut self.csr.s_stats_tx);
        SchedStatsSink::link(&mut self.s_stats_sched, &mut self.csr.s_stats_sched);
        CcStatsSink::link(&mut self.s_stats_cc, &mut self.csr.s_stats_cc);
        ReqStatsSink::link(&mut self.s_stats_req, &mut self.csr.s_stats_req);
        CoreStatsSink::link(&mut self.s_stats_core, &mut self.csr.s_stats_core);
        DcqcnStatsSink::link(&mut self.s_stats_dcqcn, &mut self.csr.s_stats_dcqcn);
        NpStatsSink::link(&mut self.s_stats_np, &mut self.csr.s_stats_np);
        CnmStatsSink::link(&mut self.s_stats_cnm, &mut self.csr.s_stats_cnm);
        self.csr.s_stats_host.reads.next = self.csr.reads.val();
        self.csr.s_stats_host.writes.next = self.csr.writes.val();
        self.csr.s_stats_host.slverr.next = self.csr.slverr.val();
        self.csr.s_stats_host.decerr.next = self.csr.decerr.val();
        self.csr.s_stats_host.ro_writes.next = self.csr.ro_writes.val();
        self.csr.s_stats_host.db_rings.next = self.sq.db_rings.val();
        self.csr.s_stats_host.db_refused.next = self.sq.db_refused.val();
        self.csr.s_stats_host.wqe_fetches.next = self.sq.wqe_fetches.val();
        self.csr.s_stats_host.wqes.next = self.unpack.wqes.val();
        self.csr.s_stats_host.wqe_dma_err.next = self.unpack.wqe_dma_err.val();
        self.csr.s_stats_host.h2c_err.next = self.rd.h2c_err.val();
        self.csr.s_stats_host.h2c_len_err.next = self.rd.h2c_len_err.val();
        self.csr.s_stats_host.cqes.next = self.cq.cqes.val();
        self.csr.s_stats_host.cqe_drops.next = self.cq.cqe_drops.val();
        self.csr.s_stats_host.events.next = self.cq.events.val();
        self.csr.s_stats_host.ci_refused.next = self.cq.ci_refused.val();
        self.csr.s_stats_host.rd_descs.next = self.rd.rd_descs.val();
        self.csr.s_stats_host.wr_descs.next = self.wr.wr_descs.val();
    }
}
