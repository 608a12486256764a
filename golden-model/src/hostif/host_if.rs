//! Twin of `hdl/src/hostif/host_if.rs`: the host interface, joined from
//! its blocks' twins exactly as the RTL joins the blocks (a fixed-point
//! solve per cycle, `crate::solve`).

use crate::cc::{CcStats, DcqcnStats, NpStats};
use crate::hostif::{
    axil_slave, cmpl_queue, cq_engine, csr, dma_rd_mux, dma_wr_pack, sq_engine, wqe_unpack, AxilIn,
    AxilOut, CqEvent, DmaDesc, HostIfStats,
};
use crate::nic::{CfgWrite, CoreStats};
use crate::roce::{
    CnmStats, HostReadReq, HostWrite, ReqStats, RxDispatchStats, RxParseStats, TxStats, WorkReq,
    WrCompletion,
};
use crate::sched::SchedStats;
use crate::solve::{fixed_point, Node};
use crate::stream::Axis;
use crate::Cycle;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    pub reset: bool,
    pub axil: AxilIn,
    pub read_desc_ready: bool,
    pub h2c: Axis,
    pub write_desc_ready: bool,
    pub c2h_tready: bool,
    pub cfg_ready: bool,
    pub wr_ready: bool,
    pub cmpl_valid: bool,
    pub cmpl: WrCompletion,
    pub dma_rd_valid: bool,
    pub dma_rd: HostReadReq,
    pub core_h2c_tready: bool,
    pub dma_wr_valid: bool,
    pub dma_wr: HostWrite,
    pub stats_parse: RxParseStats,
    pub stats_dispatch: RxDispatchStats,
    pub stats_tx: TxStats,
    pub stats_sched: SchedStats,
    pub stats_cc: CcStats,
    pub stats_req: ReqStats,
    pub stats_core: CoreStats,
    pub stats_dcqcn: DcqcnStats,
    pub stats_np: NpStats,
    pub stats_cnm: CnmStats,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub axil: AxilOut,
    pub read_desc_valid: bool,
    pub read_desc: DmaDesc,
    pub h2c_tready: bool,
    pub write_desc_valid: bool,
    pub write_desc: DmaDesc,
    pub c2h: Axis,
    pub event_valid: bool,
    pub event: CqEvent,
    pub cfg_valid: bool,
    pub cfg: CfgWrite,
    pub wr_valid: bool,
    pub wr: WorkReq,
    pub cmpl_ready: bool,
    pub dma_rd_ready: bool,
    pub core_h2c: Axis,
    pub dma_wr_ready: bool,
    /// The soft reset (`CONTROL` bit 0) for the core.
    pub core_reset: bool,
}

#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Ins {
    axil: axil_slave::In,
    csr: csr::In,
    sq: sq_engine::In,
    cmpl_q: cmpl_queue::In,
    unpack: wqe_unpack::In,
    cq: cq_engine::In,
    rd: dma_rd_mux::In,
    wr: dma_wr_pack::In,
}

#[derive(Clone, Copy, Debug, Default)]
struct Outs {
    axil: axil_slave::Out,
    csr: csr::Out,
    sq: sq_engine::Out,
    cmpl_q: cmpl_queue::Out,
    unpack: wqe_unpack::Out,
    cq: cq_engine::Out,
    rd: dma_rd_mux::Out,
    wr: dma_wr_pack::Out,
}

/// The joins of `hdl/src/hostif/host_if.rs`.
fn wire(e: &In, o: &Outs) -> Ins {
    Ins {
        axil: axil_slave::In {
            reset: e.reset,
            axil: e.axil,
            req_ready: o.csr.req_ready,
            resp_valid: o.csr.resp_valid,
            resp: o.csr.resp,
        },
        csr: csr::In {
            reset: e.reset,
            req_valid: o.axil.req_valid,
            req: o.axil.req,
            cfg_ready: e.cfg_ready,
            sq_ready: o.sq.reg_ready,
            sq_resp_valid: o.sq.resp_valid,
            sq_resp: o.sq.resp,
            cq_ready: o.cq.reg_ready,
            cq_resp_valid: o.cq.resp_valid,
            cq_resp: o.cq.resp,
            stats_parse: e.stats_parse,
            stats_dispatch: e.stats_dispatch,
            stats_tx: e.stats_tx,
            stats_sched: e.stats_sched,
            stats_cc: e.stats_cc,
            stats_req: e.stats_req,
            stats_core: e.stats_core,
            stats_dcqcn: e.stats_dcqcn,
            stats_np: e.stats_np,
            stats_cnm: e.stats_cnm,
            stats_host: HostIfStats {
                reads: o.csr.reads,
                writes: o.csr.writes,
                slverr: o.csr.slverr,
                decerr: o.csr.decerr,
                ro_writes: o.csr.ro_writes,
                db_rings: o.sq.db_rings,
                db_refused: o.sq.db_refused,
                wqe_fetches: o.sq.wqe_fetches,
                wqes: o.unpack.wqes,
                wqe_dma_err: o.unpack.wqe_dma_err,
                h2c_err: o.rd.h2c_err,
                h2c_len_err: o.rd.h2c_len_err,
                cqes: o.cq.cqes,
                cqe_drops: o.cq.cqe_drops,
                events: o.cq.events,
                ci_refused: o.cq.ci_refused,
                rd_descs: o.rd.rd_descs,
                wr_descs: o.wr.wr_descs,
            },
        },
        sq: sq_engine::In {
            reg_valid: o.csr.sq_valid,
            reg: o.csr.sq,
            commit_valid: o.csr.commit_valid,
            commit: o.csr.commit,
            cmpl_valid: o.cmpl_q.out_valid,
            cmpl: o.cmpl_q.out,
            err_valid: o.unpack.err_valid,
            err: o.unpack.err,
            wqe_freed: o.unpack.wqe_freed,
            fetch_ready: o.rd.fetch_ready,
            cqe_ready: o.cq.cqe_ready,
        },
        cmpl_q: cmpl_queue::In {
            cmpl_valid: e.cmpl_valid,
            cmpl: e.cmpl,
            out_ready: o.sq.cmpl_ready,
        },
        unpack: wqe_unpack::In {
            beat_valid: o.rd.beat_valid,
            beat: o.rd.beat,
            wr_ready: e.wr_ready,
            err_ready: o.sq.err_ready,
        },
        cq: cq_engine::In {
            reg_valid: o.csr.cq_valid,
            reg: o.csr.cq,
            cqe_valid: o.sq.cqe_valid,
            cqe: o.sq.cqe,
            write_ready: o.wr.cqe_ready,
            done_valid: o.wr.done_valid,
            done: o.wr.done,
        },
        rd: dma_rd_mux::In {
            reset: e.reset || o.csr.soft_reset,
            core_valid: e.dma_rd_valid,
            core: e.dma_rd,
            fetch_valid: o.sq.fetch_valid,
            fetch: o.sq.fetch,
            desc_ready: e.read_desc_ready,
            h2c: e.h2c,
            core_tready: e.core_h2c_tready,
            beat_ready: o.unpack.beat_ready,
        },
        wr: dma_wr_pack::In {
            core_valid: e.dma_wr_valid,
            core: e.dma_wr,
            cqe_valid: o.cq.write_valid,
            cqe: o.cq.write,
            desc_ready: e.write_desc_ready,
            c2h_tready: e.c2h_tready,
        },
    }
}

fn outputs(o: &Outs) -> Out {
    Out {
        axil: o.axil.axil,
        read_desc_valid: o.rd.desc_valid,
        read_desc: o.rd.desc,
        h2c_tready: o.rd.h2c_tready,
        write_desc_valid: o.wr.desc_valid,
        write_desc: o.wr.desc,
        c2h: o.wr.c2h,
        event_valid: o.cq.event_valid,
        event: o.cq.event,
        cfg_valid: o.csr.cfg_valid,
        cfg: o.csr.cfg,
        wr_valid: o.unpack.wr_valid,
        wr: o.unpack.wr,
        cmpl_ready: o.cmpl_q.cmpl_ready,
        dma_rd_ready: o.rd.core_ready,
        core_h2c: o.rd.core,
        dma_wr_ready: o.wr.core_ready,
        core_reset: o.csr.soft_reset,
    }
}

/// The host interface for 2^A flows, 2^Q work requests each, 2^C
/// completion queues (`N` = 2^C), a 2^W-entry WQE buffer, a CC module
/// of `H` hops (reported in `CAPS`).
#[derive(Clone)]
pub struct HostIf<
    const A: usize,
    const Q: usize,
    const C: usize,
    const N: usize,
    const W: usize,
    const H: usize = 5,
> {
    axil: Node<axil_slave::AxilSlave>,
    csr: Node<csr::Csr<A, Q, C, H>>,
    sq: Node<sq_engine::SqEngine<A, Q, W>>,
    cmpl_q: Node<cmpl_queue::CmplQueue<{ nic_spec::hostif::CMPL_QUEUE_LOG2 }>>,
    unpack: Node<wqe_unpack::WqeUnpack<W>>,
    cq: Node<cq_engine::CqEngine<C, N>>,
    rd: Node<dma_rd_mux::DmaRdMux>,
    wr: Node<dma_wr_pack::DmaWrPack>,
    ins: Ins,
}

impl<
        const A: usize,
        const Q: usize,
        const C: usize,
        const N: usize,
        const W: usize,
        const H: usize,
    > Default for HostIf<A, Q, C, N, W, H>
{
    fn default() -> Self {
        Self {
            axil: Node::new(Default::default()),
            csr: Node::new(Default::default()),
            sq: Node::new(Default::default()),
            cmpl_q: Node::new(Default::default()),
            unpack: Node::new(Default::default()),
            cq: Node::new(Default::default()),
            rd: Node::new(Default::default()),
            wr: Node::new(Default::default()),
            ins: Ins::default(),
        }
    }
}

impl<
        const A: usize,
        const Q: usize,
        const C: usize,
        const N: usize,
        const W: usize,
        const H: usize,
    > HostIf<A, Q, C, N, W, H>
{
    fn eval(&mut self, i: &Ins) -> Outs {
        Outs {
            axil: self.axil.eval(&i.axil),
            csr: self.csr.eval(&i.csr),
            sq: self.sq.eval(&i.sq),
            cmpl_q: self.cmpl_q.eval(&i.cmpl_q),
            unpack: self.unpack.eval(&i.unpack),
            cq: self.cq.eval(&i.cq),
            rd: self.rd.eval(&i.rd),
            wr: self.wr.eval(&i.wr),
        }
    }

    /// Completion queue `c`'s registers (for monitors).
    pub fn cq(&self, c: usize) -> &cq_engine::Queue {
        self.cq.m.queue(c)
    }
}

impl<
        const A: usize,
        const Q: usize,
        const C: usize,
        const N: usize,
        const W: usize,
        const H: usize,
    > Cycle for HostIf<A, Q, C, N, W, H>
{
    type In = In;
    type Out = Out;
    fn step(&mut self, e: &In) -> Out {
        let (ins, _) = fixed_point(self.ins, |i| self.eval(i), |o| wire(e, o));
        self.ins = ins;
        let o = Outs {
            axil: self.axil.commit(&ins.axil),
            csr: self.csr.commit(&ins.csr),
            sq: self.sq.commit(&ins.sq),
            cmpl_q: self.cmpl_q.commit(&ins.cmpl_q),
            unpack: self.unpack.commit(&ins.unpack),
            cq: self.cq.commit(&ins.cq),
            rd: self.rd.commit(&ins.rd),
            wr: self.wr.commit(&ins.wr),
        };
        outputs(&o)
    }
}
