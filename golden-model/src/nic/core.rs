//! Twin of `hdl/src/nic/core.rs`: the NIC core, joined from its blocks'
//! twins exactly as the RTL joins the blocks.
//!
//! The blocks are Mealy machines (some `ready`s and the arbiters' outputs
//! are combinational from their inputs), so one cycle is solved as a
//! fixed point: every block is evaluated on a copy of its state with the
//! inputs the wiring gives from the other blocks' outputs, until the
//! inputs stop changing (the RTL has no combinational loop, so this
//! takes as many passes as the longest combinational chain), then each
//! block is stepped once with its final inputs.

use crate::cc::dcqcn::{self, DcqcnRp};
use crate::cc::dcqcn_np::{self, DcqcnNp};
use crate::cc::hpcc::{self, HpccCc};
use crate::cc::{CcStats, DcqcnStats, NpStats};
use crate::nic::{
    ack_coalesce, cc_arb, cfg_regs, desc_queue, ev_arb, ev_merge, fb_queue, int_tap, notify_rx,
    notify_tx, read_queue, read_resp, rp_arb, rx_ctx_mux, rx_pause, sent_tap, tx_arb, CfgWrite,
    CoreStats,
};
use crate::roce::requester::{self, Requester};
use crate::roce::{cnm_rx, mr_check, rx_dispatch, rx_parse, tx};
use crate::roce::{
    CnmInfo, CnmStats, HostReadReq, HostWrite, ReqStats, RxDispatchStats, RxParseStats, TxStats,
    WorkReq, WrCompletion,
};
use crate::sched::flow_sched::{self, FlowSched};
use crate::sched::SchedStats;
use crate::solve::Node;
use crate::stream::Axis;
use crate::Cycle;

/// log2 of the requester's descriptor queue.
const DESC_L: usize = nic_spec::sched::REQ_DESC_QUEUE_LOG2;
/// log2 of the READ requests queued for the READ responder.
const READ_L: usize = nic_spec::roce::READ_QUEUE_LOG2;
/// log2 of the feedback records queued for the requester.
const FB_L: usize = nic_spec::roce::FB_QUEUE_LOG2;
const MR_L: usize = nic_spec::mr::MR_LOG2;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    pub reset: bool,
    pub cfg_valid: bool,
    pub cfg: CfgWrite,
    pub wr_valid: bool,
    pub wr: WorkReq,
    pub cmpl_ready: bool,
    pub dma_rd_ready: bool,
    pub h2c: Axis,
    pub dma_wr_ready: bool,
    pub rx: Axis,
    pub tx_tready: bool,
    pub cnm_ready: bool,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub cfg_ready: bool,
    pub wr_ready: bool,
    pub cmpl_valid: bool,
    pub cmpl: WrCompletion,
    pub dma_rd_valid: bool,
    pub dma_rd: HostReadReq,
    pub h2c_tready: bool,
    pub dma_wr_valid: bool,
    pub dma_wr: HostWrite,
    pub rx_tready: bool,
    pub tx: Axis,
    pub stats_parse: RxParseStats,
    pub stats_dispatch: RxDispatchStats,
    pub stats_tx: TxStats,
    pub stats_sched: SchedStats,
    pub stats_cc: CcStats,
    pub stats_req: ReqStats,
    pub stats_core: CoreStats,
    pub stats_dcqcn: DcqcnStats,
    pub stats_np: NpStats,
    pub cnm_valid: bool,
    pub cnm: CnmInfo,
    pub stats_cnm: CnmStats,
    pub pause_req: bool,
    pub pause_quanta: u16,
    /// `RX_PFC_CEV`: 0 = the pause is an 802.3x PAUSE, else PFC.
    pub pause_cev: u8,
}

/// Every block's inputs for one cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Ins {
    cfg: cfg_regs::In,
    parse: rx_parse::In,
    mr_check: mr_check::In,
    dispatch: rx_dispatch::In,
    rx_ctx: rx_ctx_mux::In,
    req: requester::In,
    sched: flow_sched::In,
    ev_arb: ev_arb::In,
    cc_arb: cc_arb::In,
    cc: hpcc::In,
    read_q: read_queue::In,
    fb_q: fb_queue::In,
    read_resp: read_resp::In,
    int_tap: int_tap::In,
    ack_slots: ack_coalesce::In,
    desc_q: desc_queue::In,
    ev_merge: ev_merge::In,
    notify_tx: notify_tx::In,
    notify_rx: notify_rx::In,
    tx_arb: tx_arb::In,
    tx: tx::In,
    rp_arb: rp_arb::In,
    rp: dcqcn::In,
    np: dcqcn_np::In,
    sent: sent_tap::In,
    cnm: cnm_rx::In,
    rx_pause: rx_pause::In,
}

/// Every block's outputs for one cycle.
#[derive(Clone, Copy, Debug, Default)]
struct Outs {
    cfg: cfg_regs::Out,
    parse: rx_parse::Out,
    mr_check: mr_check::Out,
    dispatch: rx_dispatch::Out,
    rx_ctx: rx_ctx_mux::Out,
    req: requester::Out,
    sched: flow_sched::Out,
    ev_arb: ev_arb::Out,
    cc_arb: cc_arb::Out,
    cc: hpcc::Out,
    read_q: read_queue::Out,
    fb_q: fb_queue::Out,
    read_resp: read_resp::Out,
    int_tap: int_tap::Out,
    ack_slots: ack_coalesce::Out,
    desc_q: desc_queue::Out,
    ev_merge: ev_merge::Out,
    notify_tx: notify_tx::Out,
    notify_rx: notify_rx::Out,
    tx_arb: tx_arb::Out,
    tx: tx::Out,
    rp_arb: rp_arb::Out,
    rp: dcqcn::Out,
    np: dcqcn_np::Out,
    sent: sent_tap::Out,
    cnm: cnm_rx::Out,
    rx_pause: rx_pause::Out,
}

/// The NIC core for 2^A flows with 2^Q work requests each and a 2^B-word
/// receive frame buffer.
#[derive(Clone)]
pub struct NicCore<const A: usize, const Q: usize, const B: usize, const H: usize = 5> {
    cfg: Node<cfg_regs::CfgRegs<A, B>>,
    parse: Node<rx_parse::RoceRxParse<B>>,
    mr_check: Node<mr_check::MrCheck<A, MR_L>>,
    dispatch: Node<rx_dispatch::RoceRxDispatch<A>>,
    rx_ctx: Node<rx_ctx_mux::RxCtxMux<A>>,
    req: Node<Requester<A, Q>>,
    sched: Node<FlowSched<A>>,
    ev_arb: Node<ev_arb::EvArb>,
    cc_arb: Node<cc_arb::CcArb>,
    cc: Node<HpccCc<A, H>>,
    read_q: Node<read_queue::ReadQueue<A, READ_L>>,
    fb_q: Node<fb_queue::FbQueue<A, FB_L>>,
    read_resp: Node<read_resp::ReadResp<A>>,
    int_tap: Node<int_tap::IntTap<A>>,
    ack_slots: Node<ack_coalesce::AckCoalesce<A>>,
    desc_q: Node<desc_queue::DescQueue<A, DESC_L>>,
    ev_merge: Node<ev_merge::EvMerge>,
    notify_tx: Node<notify_tx::NotifyTx<A>>,
    notify_rx: Node<notify_rx::NotifyRx<A>>,
    tx_arb: Node<tx_arb::TxArb<A>>,
    tx: Node<tx::RoceTx<A>>,
    rp_arb: Node<rp_arb::RpArb>,
    rp: Node<DcqcnRp<A>>,
    np: Node<DcqcnNp<A>>,
    sent: Node<sent_tap::SentTap<A>>,
    cnm: Node<cnm_rx::CnmRx>,
    rx_pause: Node<rx_pause::RxPause>,
    ins: Ins,
    /// Every block's outputs in the last cycle.
    outs: Outs,
    /// Passes of the last cycle's solve (for the tests of the solver).
    pub passes: usize,
}

impl<const A: usize, const Q: usize, const B: usize, const H: usize> Default
    for NicCore<A, Q, B, H>
{
    fn default() -> Self {
        Self {
            cfg: Node::new(Default::default()),
            parse: Node::new(Default::default()),
            mr_check: Node::new(Default::default()),
            dispatch: Node::new(Default::default()),
            rx_ctx: Node::new(Default::default()),
            req: Node::new(Default::default()),
            sched: Node::new(Default::default()),
            ev_arb: Node::new(Default::default()),
            cc_arb: Node::new(Default::default()),
            cc: Node::new(Default::default()),
            read_q: Node::new(Default::default()),
            fb_q: Node::new(Default::default()),
            read_resp: Node::new(Default::default()),
            int_tap: Node::new(Default::default()),
            ack_slots: Node::new(Default::default()),
            desc_q: Node::new(Default::default()),
            ev_merge: Node::new(Default::default()),
            notify_tx: Node::new(Default::default()),
            notify_rx: Node::new(Default::default()),
            tx_arb: Node::new(Default::default()),
            tx: Node::new(Default::default()),
            rp_arb: Node::new(Default::default()),
            rp: Node::new(Default::default()),
            np: Node::new(Default::default()),
            sent: Node::new(Default::default()),
            cnm: Node::new(Default::default()),
            rx_pause: Node::new(Default::default()),
            ins: Ins::default(),
            outs: Outs::default(),
            passes: 0,
        }
    }
}

/// The joins of `hdl/src/nic/core.rs`: every block's inputs from the
/// core's inputs and the blocks' outputs.
fn wire(e: &In, o: &Outs) -> Ins {
    let g = &o.cfg;
    let cc_regs = hpcc::In {
        cfg_t: g.cc_t,
        cfg_inv_t_m: g.cc_inv_t_m,
        cfg_inv_t_s: g.cc_inv_t_s,
        cfg_uq_m: g.cc_uq_m,
        cfg_eta: g.cc_eta,
        cfg_max_stage: g.cc_max_stage,
        cfg_w_ai: g.cc_w_ai,
        cfg_w_min: g.cc_w_min,
        cfg_w_init: g.cc_w_init,
        cfg_mlog: g.cc_mlog,
        event_valid: o.cc_arb.event_valid,
        event: o.cc_arb.event,
    };
    Ins {
        cfg: cfg_regs::In {
            cfg_valid: e.cfg_valid,
            cfg: e.cfg,
            rx_busy: o.rx_ctx.rx_busy,
            req_ctx_ready: o.req.ctx_ready,
            cc_ctl_ready: o.cc_arb.ctl_ready,
            rp_ctl_ready: o.rp_arb.ctl_ready,
        },
        parse: rx_parse::In {
            reset: e.reset,
            rx: e.rx,
            meta_ready: o.mr_check.meta_ready,
            pay_tready: o.dispatch.pay_tready,
        },
        mr_check: mr_check::In {
            reset: e.reset,
            mr_valid: o.cfg.mr_valid,
            mr: o.cfg.mr,
            pd_valid: o.cfg.pd_valid,
            pd: o.cfg.pd,
            meta_valid: o.parse.meta_valid,
            meta: o.parse.meta,
            out_ready: o.dispatch.meta_ready,
        },
        dispatch: rx_dispatch::In {
            reset: e.reset,
            cfg_mtu_log2: g.mtu_log2,
            ctx_valid: o.rx_ctx.ctx_valid,
            ctx: o.rx_ctx.ctx,
            meta_valid: o.mr_check.out_valid,
            meta: o.mr_check.out,
            pay: o.parse.pay,
            wr_ready: e.dma_wr_ready,
            ack_ready: o.int_tap.ack_ready,
            cc_ready: o.fb_q.fb_ready,
            nak_ready: o.req.nak_ready,
            rdreq_ready: o.read_q.rdreq_ready,
            cnp_ready: o.rp_arb.cnp_ready,
        },
        rx_ctx: rx_ctx_mux::In {
            cfg_valid: o.cfg.rx_ctx_valid,
            cfg: o.cfg.rx_ctx,
            req_valid: o.req.rd_valid,
            req: o.req.rd,
        },
        req: requester::In {
            cfg_mtu_log2: g.mtu_log2,
            cfg_rto: g.rto,
            ctx_valid: o.cfg.req_ctx_valid,
            ctx: o.cfg.req_ctx,
            wr_valid: e.wr_valid,
            wr: e.wr,
            send_valid: o.sched.send_valid,
            send: o.sched.send,
            fb_valid: o.notify_rx.out_valid,
            fb: o.notify_rx.out,
            nak_valid: o.dispatch.nak_valid,
            nak: o.dispatch.nak,
            ev_ready: o.ev_merge.req_ready,
            desc_ready: o.desc_q.desc_ready,
            cmpl_ready: e.cmpl_ready,
            cc_ready: o.cc_arb.ack_ready,
            desc_full: o.desc_q.desc_full,
        },
        ev_merge: ev_merge::In {
            req_valid: o.req.ev_valid,
            req: o.req.ev,
            ev_ready: o.ev_arb.req_ready,
        },
        desc_q: desc_queue::In {
            desc_valid: o.req.desc_valid,
            desc: o.req.desc,
            out_ready: o.tx_arb.req_ready,
        },
        sched: flow_sched::In {
            cfg_mtu: g.mtu_bytes as u32,
            cfg_cap: g.sched_cap,
            cfg_probe_t: g.probe_t,
            ev_valid: o.ev_arb.ev_valid,
            ev: o.ev_arb.ev,
            send_ready: o.req.send_ready,
        },
        ev_arb: ev_arb::In {
            cfg_ns_per_cycle: g.ns_per_cycle,
            req_valid: o.ev_merge.ev_valid,
            req: o.ev_merge.ev,
            update_valid: o.cc.update_valid,
            update: o.cc.update,
            notify_valid: o.notify_rx.update_valid,
            notify: o.notify_rx.update,
            dcqcn_valid: o.rp.update_valid,
            dcqcn: o.rp.update,
            ev_ready: o.sched.ev_ready,
        },
        cc_arb: cc_arb::In {
            ctl_valid: o.cfg.cc_ctl_valid,
            ctl: o.cfg.cc_ctl,
            ack_valid: o.req.cc_valid,
            ack: o.req.cc,
            int_valid: o.int_tap.event_valid,
            int: o.int_tap.event,
            event_ready: o.cc.event_ready,
        },
        cc: cc_regs,
        read_q: read_queue::In {
            rdreq_valid: o.dispatch.rdreq_valid,
            rdreq: o.dispatch.rdreq,
            out_ready: o.read_resp.rdreq_ready,
        },
        read_resp: read_resp::In {
            cfg_mtu_log2: g.mtu_log2,
            rdreq_valid: o.read_q.out_valid,
            rdreq: o.read_q.out,
            desc_ready: o.tx_arb.rresp_ready,
        },
        int_tap: int_tap::In {
            cfg_ns_per_cycle: g.ns_per_cycle,
            ack_valid: o.dispatch.ack_valid,
            ack: o.dispatch.ack,
            out_ready: o.ack_slots.ack_ready,
            event_ready: o.cc_arb.int_ready,
        },
        ack_slots: ack_coalesce::In {
            open: o.tx_arb.ctl_open,
            ack_valid: o.int_tap.out_valid,
            ack: o.int_tap.out,
            out_ready: o.tx_arb.ack_ready,
        },
        notify_tx: notify_tx::In {
            update_valid: o.cc.update_valid,
            update: o.cc.update,
            desc_ready: o.tx_arb.notify_ready,
        },
        fb_q: fb_queue::In {
            fb_valid: o.dispatch.cc_valid,
            fb: o.dispatch.cc,
            out_ready: o.notify_rx.fb_ready,
        },
        notify_rx: notify_rx::In {
            cfg_inv_t_m: g.cc_inv_t_m,
            cfg_inv_t_s: g.cc_inv_t_s,
            fb_valid: o.fb_q.out_valid,
            fb: o.fb_q.out,
            out_ready: o.req.fb_ready,
        },
        tx_arb: tx_arb::In {
            cfg_ctl_share: o.cfg.tx_ctl_share,
            ack_valid: o.ack_slots.out_valid,
            ack: o.ack_slots.out,
            cnp_valid: o.np.cnp_valid,
            cnp: o.np.cnp,
            notify_valid: o.notify_tx.desc_valid,
            notify: o.notify_tx.desc,
            rresp_valid: o.read_resp.desc_valid,
            rresp: o.read_resp.desc,
            req_valid: o.desc_q.out_valid,
            req: o.desc_q.out,
            desc_ready: o.tx.req_ready,
        },
        tx: tx::In {
            reset: e.reset,
            ctx_valid: o.cfg.tx_ctx_valid,
            ctx: o.cfg.tx_ctx,
            req_valid: o.tx_arb.desc_valid,
            req: o.tx_arb.desc,
            rd: e.h2c,
            rdq_ready: e.dma_rd_ready,
            out_tready: e.tx_tready,
        },
        rp_arb: rp_arb::In {
            ctl_valid: o.cfg.rp_ctl_valid,
            ctl: o.cfg.rp_ctl,
            cnp_valid: o.dispatch.cnp_valid,
            cnp: o.dispatch.cnp,
            sent_valid: o.sent.sent_valid,
            sent: o.sent.sent,
            event_ready: o.rp.ev_ready,
        },
        rp: dcqcn::In {
            cfg: g.dcqcn,
            ev_valid: o.rp_arb.event_valid,
            ev: o.rp_arb.event,
        },
        np: dcqcn_np::In {
            cfg_interval: g.np_interval,
            ce_valid: o.dispatch.ce_valid,
            ce: o.dispatch.ce,
            cnp_ready: o.tx_arb.cnp_ready,
        },
        sent: sent_tap::In {
            cfg_on: g.dcqcn.byte_reset != 0,
            ctl_taken: o.cfg.rp_ctl_valid && o.rp_arb.ctl_ready,
            ctl_op: o.cfg.rp_ctl.op,
            ctl_flow: o.cfg.rp_ctl.flow as u32,
            desc_taken: o.desc_q.out_valid && o.tx_arb.req_ready,
            desc_flow: o.desc_q.out.flow,
            desc_len: o.desc_q.out.len,
            sent_ready: o.rp_arb.sent_ready,
        },
        cnm: cnm_rx::In {
            rx: Axis {
                tdata: e.rx.tdata,
                tkeep: e.rx.tkeep,
                tlast: e.rx.tlast,
                tuser: e.rx.tuser,
                tvalid: e.rx.tvalid && o.parse.rx_tready,
            },
            cnm_ready: e.cnm_ready,
        },
        rx_pause: rx_pause::In {
            reset: e.reset,
            buf_fill: o.parse.buf_fill,
            meta_fill: o.parse.meta_fill,
            cfg_xoff: o.cfg.rx_xoff,
            cfg_xon: o.cfg.rx_xon,
            cfg_quanta: o.cfg.rx_pause_quanta,
        },
    }
}

/// The core's outputs from its blocks' outputs.
fn outputs(o: &Outs) -> Out {
    Out {
        cfg_ready: o.cfg.cfg_ready,
        wr_ready: o.req.wr_ready,
        cmpl_valid: o.req.cmpl_valid,
        cmpl: o.req.cmpl,
        dma_rd_valid: o.tx.rdq_valid,
        dma_rd: o.tx.rdq,
        h2c_tready: o.tx.rd_tready,
        dma_wr_valid: o.dispatch.wr_valid,
        dma_wr: o.dispatch.wr,
        rx_tready: o.parse.rx_tready,
        tx: o.tx.out,
        stats_parse: o.parse.stats,
        stats_dispatch: o.dispatch.stats,
        stats_tx: o.tx.stats,
        stats_sched: o.sched.stats,
        stats_cc: o.cc.stats,
        stats_req: o.req.stats,
        stats_core: CoreStats {
            bad_cfg: o.cfg.bad_cfg,
            commits: o.cfg.commits,
            updates: o.ev_arb.updates,
            update_drops: o.ev_arb.update_drops,
            acks: o.tx_arb.acks,
            reads: o.read_resp.reads,
            read_resps: o.read_resp.resps,
            int_events: o.int_tap.events,
            int_lost: o.int_tap.lost,
            notifies: o.notify_tx.notifies,
            notify_drops: o.notify_tx.drops,
            notifies_applied: o.notify_rx.applied,
            notifies_bad: o.notify_rx.bad,
            sent_pkts: o.sent.sent_pkts,
            sent_drops: o.sent.sent_drops,
            ack_coalesced: o.ack_slots.coalesced,
            pause_xoff: o.rx_pause.xoffs,
            pause_xon: o.rx_pause.xons,
            pause_cycles: o.rx_pause.cycles,
            ev_merged: o.ev_merge.merged,
            mr_granted: o.mr_check.stats.granted,
            mr_bad_len: o.mr_check.stats.bad_len,
            mr_bad_key: o.mr_check.stats.bad_key,
            mr_bad_pd: o.mr_check.stats.bad_pd,
            mr_bad_right: o.mr_check.stats.bad_right,
            mr_bad_range: o.mr_check.stats.bad_range,
            mr_bad_table: o.mr_check.stats.bad_mr,
            ctl_held: o.tx_arb.ctl_held,
        },
        stats_dcqcn: o.rp.stats,
        stats_np: o.np.stats,
        cnm_valid: o.cnm.cnm_valid,
        cnm: o.cnm.cnm,
        stats_cnm: o.cnm.stats,
        pause_req: o.rx_pause.pause_req,
        pause_quanta: o.rx_pause.pause_quanta,
        pause_cev: o.cfg.rx_pfc_cev,
    }
}

impl<const A: usize, const Q: usize, const B: usize, const H: usize> NicCore<A, Q, B, H> {
    fn eval(&mut self, i: &Ins) -> Outs {
        Outs {
            cfg: self.cfg.eval(&i.cfg),
            parse: self.parse.eval(&i.parse),
            mr_check: self.mr_check.eval(&i.mr_check),
            dispatch: self.dispatch.eval(&i.dispatch),
            rx_ctx: self.rx_ctx.eval(&i.rx_ctx),
            req: self.req.eval(&i.req),
            sched: self.sched.eval(&i.sched),
            ev_arb: self.ev_arb.eval(&i.ev_arb),
            cc_arb: self.cc_arb.eval(&i.cc_arb),
            cc: self.cc.eval(&i.cc),
            read_q: self.read_q.eval(&i.read_q),
            fb_q: self.fb_q.eval(&i.fb_q),
            read_resp: self.read_resp.eval(&i.read_resp),
            int_tap: self.int_tap.eval(&i.int_tap),
            ack_slots: self.ack_slots.eval(&i.ack_slots),
            desc_q: self.desc_q.eval(&i.desc_q),
            ev_merge: self.ev_merge.eval(&i.ev_merge),
            notify_tx: self.notify_tx.eval(&i.notify_tx),
            notify_rx: self.notify_rx.eval(&i.notify_rx),
            tx_arb: self.tx_arb.eval(&i.tx_arb),
            tx: self.tx.eval(&i.tx),
            rp_arb: self.rp_arb.eval(&i.rp_arb),
            rp: self.rp.eval(&i.rp),
            np: self.np.eval(&i.np),
            sent: self.sent.eval(&i.sent),
            cnm: self.cnm.eval(&i.cnm),
            rx_pause: self.rx_pause.eval(&i.rx_pause),
        }
    }

    fn commit(&mut self, i: &Ins) -> Outs {
        Outs {
            cfg: self.cfg.commit(&i.cfg),
            parse: self.parse.commit(&i.parse),
            mr_check: self.mr_check.commit(&i.mr_check),
            dispatch: self.dispatch.commit(&i.dispatch),
            rx_ctx: self.rx_ctx.commit(&i.rx_ctx),
            req: self.req.commit(&i.req),
            sched: self.sched.commit(&i.sched),
            ev_arb: self.ev_arb.commit(&i.ev_arb),
            cc_arb: self.cc_arb.commit(&i.cc_arb),
            cc: self.cc.commit(&i.cc),
            read_q: self.read_q.commit(&i.read_q),
            fb_q: self.fb_q.commit(&i.fb_q),
            read_resp: self.read_resp.commit(&i.read_resp),
            int_tap: self.int_tap.commit(&i.int_tap),
            ack_slots: self.ack_slots.commit(&i.ack_slots),
            desc_q: self.desc_q.commit(&i.desc_q),
            ev_merge: self.ev_merge.commit(&i.ev_merge),
            notify_tx: self.notify_tx.commit(&i.notify_tx),
            notify_rx: self.notify_rx.commit(&i.notify_rx),
            tx_arb: self.tx_arb.commit(&i.tx_arb),
            tx: self.tx.commit(&i.tx),
            rp_arb: self.rp_arb.commit(&i.rp_arb),
            rp: self.rp.commit(&i.rp),
            np: self.np.commit(&i.np),
            sent: self.sent.commit(&i.sent),
            cnm: self.cnm.commit(&i.cnm),
            rx_pause: self.rx_pause.commit(&i.rx_pause),
        }
    }

    /// `pause_req`, `pause_quanta` and `pause_cev` this cycle (registers:
    /// known before the cycle's inputs, as a MAC stepped first needs them).
    pub fn pause_request(&self) -> (bool, u16, u8) {
        let (req, quanta) = self.rx_pause.m.request();
        (req, quanta, self.cfg.m.pfc_cev())
    }

    /// The most feedback records `FbQueue` has held (for monitors).
    pub fn fb_queue_peak(&self) -> u32 {
        self.fb_q.m.high_water()
    }

    /// The most words the receive buffer has held (for monitors).
    pub fn rx_buffer_peak(&self) -> u16 {
        self.parse.m.buffer_peak()
    }

    /// The requester's twin (for monitors).
    pub fn requester(&self) -> &Requester<A, Q> {
        &self.req.m
    }

    /// The CC module's update in the last cycle, if any (for monitors:
    /// W, R and U over time).
    pub fn cc_update(&self) -> Option<crate::cc::CcUpdate> {
        self.outs.cc.update_valid.then_some(self.outs.cc.update)
    }

    /// The DCQCN reaction point's update in the last cycle, if any (for
    /// monitors: a DCQCN flow's rate over time).
    pub fn dcqcn_update(&self) -> Option<crate::cc::CcUpdate> {
        self.outs.rp.update_valid.then_some(self.outs.rp.update)
    }

    /// The scheduler event the core issued in the last cycle, if taken.
    pub fn sched_event(&self) -> Option<crate::sched::SchedEvent> {
        (self.outs.ev_arb.ev_valid && self.outs.sched.ev_ready).then_some(self.outs.ev_arb.ev)
    }

    /// The scheduler's twin (for monitors).
    pub fn scheduler(&self) -> &FlowSched<A> {
        &self.sched.m
    }

    /// The receive path in the last cycle (for monitors: `sim --rx-log`
    /// turns it into one verdict and the events of every received frame).
    pub fn rx_view(&self) -> RxView {
        RxView {
            parse: self.outs.parse,
            check_in: self.ins.mr_check,
            dispatch_in: self.ins.dispatch,
            dispatch: self.outs.dispatch,
        }
    }
}

/// The receive path's ports in one cycle ([`NicCore::rx_view`]): the
/// parser's outputs, the region check's inputs (its table and domain
/// writes), and the dispatcher's inputs (its context writes, its event
/// readies) and outputs.
#[derive(Clone, Copy, Debug, Default)]
pub struct RxView {
    pub parse: rx_parse::Out,
    pub check_in: mr_check::In,
    pub dispatch_in: rx_dispatch::In,
    pub dispatch: rx_dispatch::Out,
}

impl<const A: usize, const Q: usize, const B: usize, const H: usize> Cycle for NicCore<A, Q, B, H> {
    type In = In;
    type Out = Out;
    fn step(&mut self, e: &In) -> Out {
        let mut ins = self.ins;
        let mut passes = 0;
        loop {
            let outs = self.eval(&ins);
            let next = wire(e, &outs);
            passes += 1;
            if next == ins {
                break;
            }
            assert!(
                passes < crate::solve::MAX_PASSES,
                "NicCore twin: no fixed point (a combinational loop)"
            );
            ins = next;
        }
        self.passes = passes;
        self.ins = ins;
        let outs = self.commit(&ins);
        self.outs = outs;
        outputs(&outs)
    }
}
