//! `HpccNic`: the whole NIC, the host interface joined to the NIC core:
//! the `hpcc_nic` top (`docs/architecture.md` §5d, `docs/driver.md`).
//!
//! ```text
//!   host (PCIe DMA IP)                 HostIf                      NicCore                MAC
//!  s_axil ───────────────────► registers, doorbells ── CfgWrite ─► s_cfg
//!  m_axis_read_desc ◄────────── send-queue fetches   ── WorkReq ──► s_wr
//!  s_axis_h2c ───────────────►  + payload reads    ◄─ HostReadReq ─ m_dma_rd
//!                                                   ── payload ───► s_axis_h2c     m_axis_tx ──►
//!  m_axis_write_desc ◄───────── completion queues  ◄─ WrCompletion ─ m_cmpl        s_axis_rx ◄──
//!  m_axis_c2h ◄──────────────   + received data    ◄─ HostWrite ─── m_dma_wr
//!  m_event ◄─────────────────── events              ◄─ counters ──── m_stats_*
//! ```
//!
//! Ports: `clk`, `rst` (synchronous, active high: the Rx and Tx
//! pipelines, the payload reads in flight, the AXI4-Lite slave and the
//! register decoder; queues, per-flow state and configuration are kept,
//! `docs/driver.md` §8; the soft reset, `CONTROL` bit 0, resets the same
//! but the register interface), the
//! host interface's (`s_axil`, `m_axis_read_desc`, `s_axis_h2c`,
//! `m_axis_write_desc`, `m_axis_c2h`, `m_event`) and the core's MAC side
//! (`m_axis_tx`, `s_axis_rx`: 64-bit AXI4-Stream without FCS,
//! `s_axis_rx.tuser` = bad frame), and `pause_req`, `pause_quanta`,
//! `pause_cev`: the core's PAUSE or PFC requests for the MAC (`NicCore`). Every counter is read
//! over AXI4-Lite.
//! Wiring only; latency, throughput and bad-input behaviour are the
//! blocks'.
//!
//! Golden twin: `nic_golden::nic::nic`.

use crate::hostif::{AxiLite, CqEventSource, DmaDescSource, HostIf};
use crate::nic::NicCore;
use crate::stream::{AxisSink, AxisSource};
use rust_hdl::prelude::*;

/// The NIC for 2^A flows with 2^Q work requests each (`AQ` = A + Q), a
/// 2^B-word receive buffer, 2^C completion queues (`N` = 2^C) and a
/// 2^W-entry WQE buffer.
#[derive(LogicBlock, Default)]
pub struct HpccNic<
    const A: usize,
    const Q: usize,
    const AQ: usize,
    const B: usize,
    const C: usize,
    const N: usize,
    const W: usize,
    const H: usize = 5,
> {
    pub clk: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    pub s_axil: AxiLite,
    pub m_axis_read_desc: DmaDescSource,
    pub s_axis_h2c: AxisSink<64, 8, 1>,
    pub m_axis_write_desc: DmaDescSource,
    pub m_axis_c2h: AxisSource<64, 8, 1>,
    pub m_event: CqEventSource,
    pub m_axis_tx: AxisSource<64, 8, 1>,
    pub s_axis_rx: AxisSink<64, 8, 1>,
    pub pause_req: Signal<Out, Bit>,
    pub pause_quanta: Signal<Out, Bits<16>>,
    pub pause_cev: Signal<Out, Bits<8>>,
    host: HostIf<A, Q, C, N, W, H>,
    core: NicCore<A, Q, AQ, B, H>,
}

impl<
        const A: usize,
        const Q: usize,
        const AQ: usize,
        const B: usize,
        const C: usize,
        const N: usize,
        const W: usize,
        const H: usize,
    > Logic for HpccNic<A, Q, AQ, B, C, N, W, H>
{
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clk, host, core);
        self.host.reset.next = self.rst.val();
        self.core.reset.next = (self.rst.val() || self.host.core_reset.val());
        // ---- Host side.
        AxiLite::link(&mut self.s_axil, &mut self.host.s_axil);
        DmaDescSource::link(&mut self.m_axis_read_desc, &mut self.host.m_axis_read_desc);
        AxisSink::<64, 8, 1>::link(&mut self.s_axis_h2c, &mut self.host.s_axis_h2c);
        DmaDescSource::link(
            &mut self.m_axis_write_desc,
            &mut self.host.m_axis_write_desc,
        );
        AxisSource::<64, 8, 1>::link(&mut self.m_axis_c2h, &mut self.host.m_axis_c2h);
        CqEventSource::link(&mut self.m_event, &mut self.host.m_event);
        // ---- Host interface ↔ core.
        crate::nic::CfgWriteSource::join(&mut self.host.m_cfg, &mut self.core.s_cfg);
        crate::roce::WorkReqSource::join(&mut self.host.m_wr, &mut self.core.s_wr);
        crate::roce::WrCompletionSource::join(&mut self.core.m_cmpl, &mut self.host.s_cmpl);
        crate::roce::HostReadReqSource::join(&mut self.core.m_dma_rd, &mut self.host.s_dma_rd);
        AxisSource::<64, 8, 1>::join(&mut self.host.m_axis_core_h2c, &mut self.core.s_axis_h2c);
        crate::roce::HostWriteSource::join(&mut self.core.m_dma_wr, &mut self.host.s_dma_wr);
        crate::roce::RxParseStatsSource::join(
            &mut self.core.m_stats_parse,
            &mut self.host.s_stats_parse,
        );
        crate::roce::RxDispatchStatsSource::join(
            &mut self.core.m_stats_dispatch,
            &mut self.host.s_stats_dispatch,
        );
        crate::roce::TxStatsSource::join(&mut self.core.m_stats_tx, &mut self.host.s_stats_tx);
        crate::sched::SchedStatsSource::join(
            &mut self.core.m_stats_sched,
            &mut self.host.s_stats_sched,
        );
        crate::cc::CcStatsSource::join(&mut self.core.m_stats_cc, &mut self.host.s_stats_cc);
        crate::roce::ReqStatsSource::join(&mut self.core.m_stats_req, &mut self.host.s_stats_req);
        crate::nic::CoreStatsSource::join(&mut self.core.m_stats_core, &mut self.host.s_stats_core);
        crate::cc::DcqcnStatsSource::join(
            &mut self.core.m_stats_dcqcn,
            &mut self.host.s_stats_dcqcn,
        );
        crate::cc::NpStatsSource::join(&mut self.core.m_stats_np, &mut self.host.s_stats_np);
        crate::roce::CnmStatsSource::join(&mut self.core.m_stats_cnm, &mut self.host.s_stats_cnm);
        // The CNM records are not forwarded to the host (counters only).
        self.core.m_cnm.ready.next = true;
        // ---- MAC side.
        AxisSource::<64, 8, 1>::link(&mut self.m_axis_tx, &mut self.core.m_axis_tx);
        AxisSink::<64, 8, 1>::link(&mut self.s_axis_rx, &mut self.core.s_axis_rx);
        self.pause_req.next = self.core.pause_req.val();
        self.pause_quanta.next = self.core.pause_quanta.val();
        self.pause_cev.next = self.core.pause_cev.val();
    }
}
