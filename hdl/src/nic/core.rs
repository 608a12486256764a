//! `NicCore`: the NIC of draft -00 §7.2 (Figure 4) as one module, the
//! `hpcc_nic_core` top (`docs/architecture.md` §5c).
//!
//! ```text
//!  s_cfg ─► CfgRegs ─┬─ TxFlowCtx ───────────────────────────────► RoceTx ─► m_axis_tx
//!                    ├─ RxFlowCtx ─► RxCtxMux ─► RoceRxDispatch      ▲  │
//!                    ├─ ReqFlowCtx ─► Requester                      │  └─► m_dma_rd / s_axis_h2c
//!                    └─ CREATE/DESTROY ─► CcArb ─► HpccCc            │
//!  s_wr ─► Requester ─ TxDesc ─────────────────────────────► TxArb ─┘
//!            │  ▲ PktSend                                     ▲   ▲
//!            │  └── FlowSched ◄─ EvArb ◄─ CcUpdate ◄─ HpccCc  │   └─ ReadResp ◄─ ReadQueue ◄─ ReadReq ─┐
//!            ├─ SchedEvent ─► EvMerge ─► EvArb  AckCoalesce ──┘◄─ IntTap ◄─ AckInfo ◄────────────────┤
//!            ├─ CcEvent ─► CcArb ─► HpccCc                                                          │
//!            └─► m_cmpl      s_axis_rx ─► RoceRxParse ─► MrCheck ─► RoceRxDispatch ─ CcFeedback ─► FbQueue ─► NotifyRx ─► Requester
//!                                                                      ├─ NakReq ─► Requester
//!                                                                      ├─ HostWrite ─► m_dma_wr
//!   DCQCN (flows with FLOW_CC_VARIANT 2):                              ├─ CNP (RpEvent) ─► RpArb ─► DcqcnRp ─ CcUpdate ─► EvArb
//!                                                                      └─ CeMark ─► DcqcnNp ─ CnpReq ─► TxArb
//!   CfgRegs ─ CREATE/DESTROY (RpEvent) ─► RpArb;  CfgRegs.m_dcqcn ─► DcqcnRp.cfg;  np_interval ─► DcqcnNp
//!   CfgRegs ─ MrWrite (MR_COMMIT, MR_CLEAR), FlowPd (COMMIT) ─► MrCheck (the region table)
//!   Requester ─ TxDesc taken by TxArb (observed) ─► SentTap ─ SENT (RpEvent) ─► RpArb (byte counter; on while byte_reset ≠ 0)
//!   s_axis_rx (every beat the parser takes) ─► CnmRx (QCN CNM tap) ─► m_cnm, m_stats_cnm
//!   RoceRxParse buf_fill, meta_fill ─► RxPause (RX_XOFF, RX_XON, RX_PAUSE_QUANTA) ─► pause_req, pause_quanta
//! ```
//!
//! Ports (clock `clock`, `reset` for the Rx and Tx pipelines):
//! - host side: `s_cfg` (`CfgWrite`, the `nic_spec::regs` map), `s_wr`
//!   (`WorkReq`), `m_cmpl` (`WrCompletion`), `m_dma_rd` (`HostReadReq`:
//!   payload the Tx needs) with its data on `s_axis_h2c`, `m_dma_wr`
//!   (`HostWrite`: received WRITE and READ RESPONSE payload, 8 bytes a
//!   beat with byte strobes);
//! - MAC side: `m_axis_tx`, `s_axis_rx` (64-bit AXI4-Stream, FCS not
//!   included, `s_axis_rx.tuser` = bad frame);
//! - counters: `m_stats_parse`, `m_stats_dispatch`, `m_stats_tx`,
//!   `m_stats_sched`, `m_stats_cc`, `m_stats_req`, `m_stats_core`,
//!   `m_stats_dcqcn` (the reaction point), `m_stats_np` (the notification
//!   point), `m_stats_cnm` (the CNM tap);
//! - `pause_req` (one cycle), `pause_quanta: 16`: an 802.3x PAUSE the
//!   MAC should send (`TxPause`'s `tx_pause_req`, `tx_pause_quanta`):
//!   XOFF when the receive buffer fills past `RX_XOFF` while the host
//!   holds writes back, refreshed while it stays full, XON (0 quanta)
//!   at `RX_XON` ([`RxPause`]); `pause_cev: 8` (`RX_PFC_CEV`, a
//!   register): 0 asks for an 802.3x PAUSE, else for a PFC frame for
//!   those priorities (`TxPause`'s `tx_pause_cev`);
//! - `m_cnm` (`CnmInfo`, valid/ready): each good QCN CNM (IEEE 802.1Qau,
//!   EtherType 0x22E7) the Rx saw, from [`CnmRx`], a tap on the beats the
//!   parser takes (the parser drops the frame: `trunc` or `bad_eth`). A CNM drives no
//!   flow's rate (`docs/roce.md` §11); a record offered while the slot is
//!   full is dropped and counted (`CnmStats.dropped`). `hpcc_nic` holds
//!   `ready` high: the host sees the counters only.
//!
//! Formats, latency, throughput and bad-input behaviour are the blocks'
//! (each one's doc comment); the glue adds no state except the update
//! queue of [`EvArb`], the ACK slots of [`AckCoalesce`], the round-robin bits, the READ responder's job
//! and the configuration registers.
//!
//! Golden twin: `nic_golden::nic::core` (the blocks' twins, joined the
//! same way).

use crate::cc::{CcStatsSource, DcqcnNp, DcqcnRp, DcqcnStatsSource, HpccCc, NpStatsSource};
use crate::nic::ack_coalesce::AckCoalesce;
use crate::nic::cc_arb::CcArb;
use crate::nic::cfg_regs::CfgRegs;
use crate::nic::desc_queue::DescQueue;
use crate::nic::ev_arb::EvArb;
use crate::nic::ev_merge::EvMerge;
use crate::nic::fb_queue::FbQueue;
use crate::nic::int_tap::IntTap;
use crate::nic::notify_rx::NotifyRx;
use crate::nic::notify_tx::NotifyTx;
use crate::nic::read_queue::ReadQueue;
use crate::nic::read_resp::ReadResp;
use crate::nic::rp_arb::RpArb;
use crate::nic::rx_ctx_mux::RxCtxMux;
use crate::nic::rx_pause::RxPause;
use crate::nic::sent_tap::SentTap;
use crate::nic::tx_arb::TxArb;
use crate::nic::{CfgWriteSink, CoreStatsSource};
use crate::roce::cnm_rx::CnmRx;
use crate::roce::mr_check::MrCheck;
use crate::roce::requester::Requester;
use crate::roce::rx_dispatch::RoceRxDispatch;
use crate::roce::rx_parse::RoceRxParse;
use crate::roce::tx::RoceTx;
use crate::roce::*;
use crate::sched::{FlowSched, SchedStatsSource};
use crate::stream::{AxisSink, AxisSource};
use rust_hdl::prelude::*;

/// log2 of the requester's descriptor queue ([`DescQueue`]).
pub const DESC_L: usize = nic_spec::sched::REQ_DESC_QUEUE_LOG2;
/// log2 of the READ requests queued for the READ responder ([`ReadQueue`]).
pub const READ_L: usize = nic_spec::roce::READ_QUEUE_LOG2;
/// log2 of the feedback records queued for the requester ([`FbQueue`]).
pub const FB_L: usize = nic_spec::roce::FB_QUEUE_LOG2;
/// log2 of the memory regions ([`MrCheck`]).
pub const MR_L: usize = nic_spec::mr::MR_LOG2;

/// The NIC core for 2^A flows with 2^Q work requests each (`AQ` = A + Q)
/// and a 2^B-word receive frame buffer.
#[derive(LogicBlock, Default)]
pub struct NicCore<
    const A: usize,
    const Q: usize,
    const AQ: usize,
    const B: usize,
    const H: usize = 5,
> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub s_cfg: CfgWriteSink,
    pub s_wr: WorkReqSink,
    pub m_cmpl: WrCompletionSource,
    pub m_dma_rd: HostReadReqSource,
    pub s_axis_h2c: AxisSink<64, 8, 1>,
    pub m_dma_wr: HostWriteSource,
    pub s_axis_rx: AxisSink<64, 8, 1>,
    pub m_axis_tx: AxisSource<64, 8, 1>,
    pub m_stats_parse: RxParseStatsSource,
    pub m_stats_dispatch: RxDispatchStatsSource,
    pub m_stats_tx: TxStatsSource,
    pub m_stats_sched: SchedStatsSource,
    pub m_stats_cc: CcStatsSource,
    pub m_stats_req: ReqStatsSource,
    pub m_stats_core: CoreStatsSource,
    pub m_stats_dcqcn: DcqcnStatsSource,
    pub m_stats_np: NpStatsSource,
    pub m_cnm: CnmInfoSource,
    pub m_stats_cnm: CnmStatsSource,
    pub pause_req: Signal<Out, Bit>,
    pub pause_quanta: Signal<Out, Bits<16>>,
    pub pause_cev: Signal<Out, Bits<8>>,
    cfg: CfgRegs<A, B>,
    parse: RoceRxParse<B>,
    mr_check: MrCheck<A, MR_L>,
    dispatch: RoceRxDispatch<A>,
    rx_ctx: RxCtxMux<A>,
    requester: Requester<A, Q, AQ>,
    sched: FlowSched<A>,
    ev_arb: EvArb,
    cc_arb: CcArb,
    cc: HpccCc<A, H>,
    read_q: ReadQueue<A, READ_L>,
    fb_q: FbQueue<A, FB_L>,
    read_resp: ReadResp<A>,
    int_tap: IntTap<A>,
    ack_slots: AckCoalesce<A>,
    desc_q: DescQueue<A, DESC_L>,
    ev_merge: EvMerge,
    notify_tx: NotifyTx<A>,
    notify_rx: NotifyRx<A>,
    tx_arb: TxArb<A>,
    tx: RoceTx<A>,
    rp_arb: RpArb,
    rp: DcqcnRp<A>,
    np: DcqcnNp<A>,
    sent: SentTap<A>,
    cnm: CnmRx,
    rx_pause: RxPause,
}

impl<const A: usize, const Q: usize, const AQ: usize, const B: usize, const H: usize> Logic
    for NicCore<A, Q, AQ, B, H>
{
    #[hdl_gen]
    fn update(&mut self) {
        clock!(
            self, clock, cfg, parse, mr_check, dispatch, rx_ctx, requester, sched, ev_arb, cc_arb,
            cc, read_q, fb_q, read_resp, int_tap, ack_slots, desc_q, ev_merge, notify_tx,
            notify_rx, tx_arb, tx, rp_arb, rp, np, sent, cnm, rx_pause
        );
        self.parse.reset.next = self.reset.val();
        self.rx_pause.reset.next = self.reset.val();
        self.mr_check.reset.next = self.reset.val();
        self.dispatch.reset.next = self.reset.val();
        self.tx.reset.next = self.reset.val();

        // ---- Configuration.
        CfgWriteSink::link(&mut self.s_cfg, &mut self.cfg.s_cfg);
        self.cfg.rx_busy.next = self.rx_ctx.rx_busy.val();
        TxFlowCtxSource::<A>::join(&mut self.cfg.m_tx_ctx, &mut self.tx.s_ctx);
        RxFlowCtxSource::<A>::join(&mut self.cfg.m_rx_ctx, &mut self.rx_ctx.s_cfg);
        ReqFlowCtxSource::<A>::join(&mut self.cfg.m_req_ctx, &mut self.requester.s_ctx);
        crate::cc::CcEventSource::join(&mut self.cfg.m_cc_ctl, &mut self.cc_arb.s_ctl);
        MrWriteSource::join(&mut self.cfg.m_mr, &mut self.mr_check.s_mr);
        FlowPdSource::<A>::join(&mut self.cfg.m_pd, &mut self.mr_check.s_pd);
        self.dispatch.cfg_mtu_log2.next = self.cfg.mtu_log2.val();
        self.requester.cfg_mtu_log2.next = self.cfg.mtu_log2.val();
        self.requester.cfg_rto.next = self.cfg.rto.val();
        self.read_resp.cfg_mtu_log2.next = self.cfg.mtu_log2.val();
        self.sched.cfg_mtu.next = self.cfg.mtu_bytes.val();
        self.sched.cfg_cap.next = self.cfg.sched_cap.val();
        self.sched.cfg_probe_t.next = self.cfg.probe_t.val();
        self.ev_arb.cfg_ns_per_cycle.next = self.cfg.ns_per_cycle.val();
        self.int_tap.cfg_ns_per_cycle.next = self.cfg.ns_per_cycle.val();
        self.notify_rx.cfg_inv_t_m.next = self.cfg.cc_inv_t_m.val();
        self.notify_rx.cfg_inv_t_s.next = self.cfg.cc_inv_t_s.val();
        self.cc.cfg_t.next = self.cfg.cc_t.val();
        self.cc.cfg_inv_t_m.next = self.cfg.cc_inv_t_m.val();
        self.cc.cfg_inv_t_s.next = self.cfg.cc_inv_t_s.val();
        self.cc.cfg_uq_m.next = self.cfg.cc_uq_m.val();
        self.cc.cfg_eta.next = self.cfg.cc_eta.val();
        self.cc.cfg_max_stage.next = self.cfg.cc_max_stage.val();
        self.cc.cfg_w_ai.next = self.cfg.cc_w_ai.val();
        self.cc.cfg_w_min.next = self.cfg.cc_w_min.val();
        self.cc.cfg_w_init.next = self.cfg.cc_w_init.val();
        self.cc.cfg_mlog.next = self.cfg.cc_mlog.val();
        crate::cc::DcqcnCfgSource::join(&mut self.cfg.m_dcqcn, &mut self.rp.cfg);
        self.np.cfg_interval.next = self.cfg.np_interval.val();

        // ---- Receive: parser → dispatcher → responder, requester, host.
        AxisSink::<64, 8, 1>::link(&mut self.s_axis_rx, &mut self.parse.s_axis_rx);
        // The CNM tap sees every beat the parser takes. (The parser's
        // `tready` is read at the core's port: a linked child port has no
        // net of its own in the emitted Verilog.)
        self.cnm.s_axis_rx.tdata.next = self.s_axis_rx.tdata.val();
        self.cnm.s_axis_rx.tkeep.next = self.s_axis_rx.tkeep.val();
        self.cnm.s_axis_rx.tlast.next = self.s_axis_rx.tlast.val();
        self.cnm.s_axis_rx.tuser.next = self.s_axis_rx.tuser.val();
        self.cnm.s_axis_rx.tvalid.next =
            (self.s_axis_rx.tvalid.val() && self.s_axis_rx.tready.val());
        CnmInfoSource::link(&mut self.m_cnm, &mut self.cnm.m_cnm);
        // Every WRITE FIRST/ONLY and READ REQUEST gets the region check's
        // verdict before the dispatcher moves a byte of it.
        RxMetaSource::join(&mut self.parse.m_meta, &mut self.mr_check.s_meta);
        RxMetaSource::join(&mut self.mr_check.m_meta, &mut self.dispatch.s_meta);
        AxisSource::<64, 8, 1>::join(&mut self.parse.m_axis_pay, &mut self.dispatch.s_axis_pay);
        RxFlowCtxSource::<A>::join(&mut self.rx_ctx.m_ctx, &mut self.dispatch.s_ctx);
        HostWriteSource::link(&mut self.m_dma_wr, &mut self.dispatch.m_wr);
        AckInfoSource::<A>::join(&mut self.dispatch.m_ack, &mut self.int_tap.s_ack);
        AckInfoSource::<A>::join(&mut self.int_tap.m_ack, &mut self.ack_slots.s_ack);
        AckInfoSource::<A>::join(&mut self.ack_slots.m_ack, &mut self.tx_arb.s_ack);
        crate::cc::CcEventSource::join(&mut self.int_tap.m_event, &mut self.cc_arb.s_int);
        CcFeedbackSource::<A>::join(&mut self.dispatch.m_cc, &mut self.fb_q.s_fb);
        CcFeedbackSource::<A>::join(&mut self.fb_q.m_fb, &mut self.notify_rx.s_fb);
        CcFeedbackSource::<A>::join(&mut self.notify_rx.m_fb, &mut self.requester.s_fb);
        crate::cc::CcUpdateSource::join(&mut self.notify_rx.m_update, &mut self.ev_arb.s_notify);
        NakReqSource::<A>::join(&mut self.dispatch.m_nak, &mut self.requester.s_nak);
        ReadReqSource::<A>::join(&mut self.dispatch.m_rdreq, &mut self.read_q.s_rdreq);
        ReadReqSource::<A>::join(&mut self.read_q.m_rdreq, &mut self.read_resp.s_rdreq);
        // Host back-pressure fills the receive buffer: a link pause.
        self.rx_pause.buf_fill.next = self.parse.buf_fill.val();
        self.rx_pause.meta_fill.next = self.parse.meta_fill.val();
        self.rx_pause.cfg_xoff.next = self.cfg.rx_xoff.val();
        self.rx_pause.cfg_xon.next = self.cfg.rx_xon.val();
        self.rx_pause.cfg_quanta.next = self.cfg.rx_pause_quanta.val();
        self.pause_req.next = self.rx_pause.pause_req.val();
        self.pause_quanta.next = self.rx_pause.pause_quanta.val();
        self.pause_cev.next = self.cfg.rx_pfc_cev.val();

        // ---- DCQCN: CNPs received → reaction point → scheduler; CE marks →
        // notification point → CNPs sent.
        crate::cc::RpEventSource::join(&mut self.cfg.m_rp_ctl, &mut self.rp_arb.s_ctl);
        crate::cc::RpEventSource::join(&mut self.dispatch.m_cnp, &mut self.rp_arb.s_cnp);
        crate::cc::RpEventSource::join(&mut self.rp_arb.m_event, &mut self.rp.s_event);
        crate::cc::CcUpdateSink::join(&mut self.ev_arb.s_dcqcn, &mut self.rp.m_update);
        crate::cc::CeMarkSource::join(&mut self.dispatch.m_ce, &mut self.np.s_ce);
        crate::cc::CnpReqSource::join(&mut self.np.m_cnp, &mut self.tx_arb.s_cnp);
        // The byte counter's SENTs: the commits the reaction point takes and
        // the requester's descriptors the Tx arbiter takes, observed.
        crate::cc::RpEventSource::join(&mut self.sent.m_sent, &mut self.rp_arb.s_sent);
        self.sent.cfg_on.next = self.cfg.m_dcqcn.byte_reset.val().any();
        self.sent.ctl_taken.next = (self.cfg.m_rp_ctl.valid.val() && self.rp_arb.s_ctl.ready.val());
        self.sent.ctl_op.next = self.cfg.m_rp_ctl.op.val();
        self.sent.ctl_flow.next = self.cfg.m_rp_ctl.flow.val().get_bits::<A>(0);
        self.sent.desc_taken.next =
            (self.desc_q.m_desc.valid.val() && self.tx_arb.s_req.ready.val());
        self.sent.desc_flow.next = self.desc_q.m_desc.flow.val();
        self.sent.desc_len.next = self.desc_q.m_desc.len.val();

        // ---- Requester, scheduler, CC.
        WorkReqSink::link(&mut self.s_wr, &mut self.requester.s_wr);
        WrCompletionSource::link(&mut self.m_cmpl, &mut self.requester.m_cmpl);
        crate::sched::PktSendSource::join(&mut self.sched.m_send, &mut self.requester.s_send);
        crate::sched::SchedEventSource::join(&mut self.requester.m_ev, &mut self.ev_merge.s_req);
        crate::sched::SchedEventSource::join(&mut self.ev_merge.m_ev, &mut self.ev_arb.s_req);
        crate::sched::SchedEventSource::join(&mut self.ev_arb.m_ev, &mut self.sched.s_ev);
        RxFlowCtxSource::<A>::join(&mut self.requester.m_rd, &mut self.rx_ctx.s_req);
        crate::cc::CcEventSource::join(&mut self.requester.m_cc, &mut self.cc_arb.s_ack);
        crate::cc::CcEventSource::join(&mut self.cc_arb.m_event, &mut self.cc.s_event);
        crate::cc::CcUpdateSink::join(&mut self.ev_arb.s_update, &mut self.cc.m_update);
        crate::cc::CcUpdateSink::join(&mut self.notify_tx.s_update, &mut self.cc.m_update);

        // ---- Transmit: ACKs, READ responses, requester → Tx builder.
        TxDescSource::<A>::join(&mut self.read_resp.m_desc, &mut self.tx_arb.s_rresp);
        TxDescSource::<A>::join(&mut self.notify_tx.m_desc, &mut self.tx_arb.s_notify);
        TxDescSource::<A>::join(&mut self.requester.m_desc, &mut self.desc_q.s_desc);
        self.requester.desc_full.next = self.desc_q.desc_full.val();
        TxDescSource::<A>::join(&mut self.desc_q.m_desc, &mut self.tx_arb.s_req);
        TxDescSource::<A>::join(&mut self.tx_arb.m_desc, &mut self.tx.s_req);
        self.tx_arb.cfg_ctl_share.next = self.cfg.tx_ctl_share.val();
        self.ack_slots.open.next = self.tx_arb.ctl_open.val();
        AxisSink::<64, 8, 1>::link(&mut self.s_axis_h2c, &mut self.tx.s_axis_rd);
        HostReadReqSource::link(&mut self.m_dma_rd, &mut self.tx.m_rdq);
        AxisSource::<64, 8, 1>::link(&mut self.m_axis_tx, &mut self.tx.m_axis_tx);

        // ---- Counters.
        RxParseStatsSource::link(&mut self.m_stats_parse, &mut self.parse.m_stats);
        RxDispatchStatsSource::link(&mut self.m_stats_dispatch, &mut self.dispatch.m_stats);
        TxStatsSource::link(&mut self.m_stats_tx, &mut self.tx.m_stats);
        SchedStatsSource::link(&mut self.m_stats_sched, &mut self.sched.m_stats);
        CcStatsSource::link(&mut self.m_stats_cc, &mut self.cc.m_stats);
        ReqStatsSource::link(&mut self.m_stats_req, &mut self.requester.m_stats);
        DcqcnStatsSource::link(&mut self.m_stats_dcqcn, &mut self.rp.m_stats);
        NpStatsSource::link(&mut self.m_stats_np, &mut self.np.m_stats);
        CnmStatsSource::link(&mut self.m_stats_cnm, &mut self.cnm.m_stats);
        self.m_stats_core.bad_cfg.next = self.cfg.bad_cfg.val();
        self.m_stats_core.commits.next = self.cfg.commits.val();
        self.m_stats_core.updates.next = self.ev_arb.updates.val();
        self.m_stats_core.update_drops.next = self.ev_arb.update_drops.val();
        self.m_stats_core.acks.next = self.tx_arb.acks.val();
        self.m_stats_core.reads.next = self.read_resp.reads.val();
        self.m_stats_core.read_resps.next = self.read_resp.resps.val();
        self.m_stats_core.int_events.next = self.int_tap.events.val();
        self.m_stats_core.int_lost.next = self.int_tap.lost.val();
        self.m_stats_core.notifies.next = self.notify_tx.notifies.val();
        self.m_stats_core.notify_drops.next = self.notify_tx.drops.val();
        self.m_stats_core.notifies_applied.next = self.notify_rx.applied.val();
        self.m_stats_core.notifies_bad.next = self.notify_rx.bad.val();
        self.m_stats_core.sent_pkts.next = self.sent.sent_pkts.val();
        self.m_stats_core.sent_drops.next = self.sent.sent_drops.val();
        self.m_stats_core.ack_coalesced.next = self.ack_slots.coalesced.val();
        self.m_stats_core.pause_xoff.next = self.rx_pause.xoffs.val();
        self.m_stats_core.pause_xon.next = self.rx_pause.xons.val();
        self.m_stats_core.pause_cycles.next = self.rx_pause.cycles.val();
        self.m_stats_core.ev_merged.next = self.ev_merge.merged.val();
        self.m_stats_core.mr_granted.next = self.mr_check.m_stats.granted.val();
        self.m_stats_core.mr_bad_len.next = self.mr_check.m_stats.bad_len.val();
        self.m_stats_core.mr_bad_key.next = self.mr_check.m_stats.bad_key.val();
        self.m_stats_core.mr_bad_pd.next = self.mr_check.m_stats.bad_pd.val();
        self.m_stats_core.mr_bad_right.next = self.mr_check.m_stats.bad_right.val();
        self.m_stats_core.mr_bad_range.next = self.mr_check.m_stats.bad_range.val();
        self.m_stats_core.mr_bad_table.next = self.mr_check.m_stats.bad_mr.val();
        self.m_stats_core.ctl_held.next = self.tx_arb.ctl_held.val();
    }
}
