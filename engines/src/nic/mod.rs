//! Harnesses of the NIC core and its glue blocks (`hdl/src/nic/`).

use crate::harness;
use nic_golden::nic as golden;
use nic_hdl::nic::ack_coalesce::AckCoalesce;
use nic_hdl::nic::cc_arb::CcArb;
use nic_hdl::nic::cfg_regs::CfgRegs;
use nic_hdl::nic::desc_queue::DescQueue;
use nic_hdl::nic::ev_arb::EvArb;
use nic_hdl::nic::ev_merge::EvMerge;
use nic_hdl::nic::fb_queue::FbQueue;
use nic_hdl::nic::int_tap::IntTap;
use nic_hdl::nic::notify_rx::NotifyRx;
use nic_hdl::nic::notify_tx::NotifyTx;
use nic_hdl::nic::read_queue::ReadQueue;
use nic_hdl::nic::read_resp::ReadResp;
use nic_hdl::nic::rp_arb::RpArb;
use nic_hdl::nic::rx_ctx_mux::RxCtxMux;
use nic_hdl::nic::rx_pause::RxPause;
use nic_hdl::nic::sent_tap::SentTap;
use nic_hdl::nic::tx_arb::TxArb;
use nic_hdl::nic::NicCore;

harness! {
    impl<const A: usize, const B: usize> CfgRegs<A, B> {
        type In = golden::cfg_regs::In;
        type Out = golden::cfg_regs::Out;
        clock = clock;
        inputs {
            cfg_valid: s_cfg.valid, rx_busy: rx_busy, req_ctx_ready: m_req_ctx.ready,
            cc_ctl_ready: m_cc_ctl.ready, rp_ctl_ready: m_rp_ctl.ready
        }
        outputs {
            cfg_ready: s_cfg.ready, tx_ctx_valid: m_tx_ctx.valid, rx_ctx_valid: m_rx_ctx.valid,
            req_ctx_valid: m_req_ctx.valid, cc_ctl_valid: m_cc_ctl.valid,
            mtu_log2: mtu_log2, mtu_bytes: mtu_bytes, rto: rto, probe_t: probe_t,
            sched_cap: sched_cap, ns_per_cycle: ns_per_cycle, rx_xoff: rx_xoff, rx_xon: rx_xon,
            rx_pause_quanta: rx_pause_quanta, tx_ctl_share: tx_ctl_share, rx_pfc_cev: rx_pfc_cev,
            cc_t: cc_t, cc_inv_t_m: cc_inv_t_m, cc_inv_t_s: cc_inv_t_s, cc_uq_m: cc_uq_m,
            cc_eta: cc_eta, cc_max_stage: cc_max_stage, cc_w_ai: cc_w_ai, cc_w_min: cc_w_min,
            cc_w_init: cc_w_init, cc_mlog: cc_mlog, bad_cfg: bad_cfg, commits: commits,
            rp_ctl_valid: m_rp_ctl.valid, np_interval: np_interval,
            mr_valid: m_mr.valid, pd_valid: m_pd.valid
        }
        records_in { cfg: s_cfg }
        records_out {
            tx_ctx: m_tx_ctx, rx_ctx: m_rx_ctx, req_ctx: m_req_ctx, cc_ctl: m_cc_ctl,
            rp_ctl: m_rp_ctl, dcqcn: m_dcqcn, mr: m_mr, pd: m_pd
        }
    }
}

harness! {
    impl<> EvArb {
        type In = golden::ev_arb::In;
        type Out = golden::ev_arb::Out;
        clock = clock;
        inputs {
            cfg_ns_per_cycle: cfg_ns_per_cycle,
            req_valid: s_req.valid, update_valid: s_update.valid,
            notify_valid: s_notify.valid, dcqcn_valid: s_dcqcn.valid, ev_ready: m_ev.ready
        }
        outputs {
            req_ready: s_req.ready, ev_valid: m_ev.valid, updates: updates,
            update_drops: update_drops
        }
        records_in { req: s_req, update: s_update, notify: s_notify, dcqcn: s_dcqcn }
        records_out { ev: m_ev }
    }
}

harness! {
    impl<> CcArb {
        type In = golden::cc_arb::In;
        type Out = golden::cc_arb::Out;
        clock = clock;
        inputs {
            ctl_valid: s_ctl.valid, ack_valid: s_ack.valid,
            int_valid: s_int.valid, event_ready: m_event.ready
        }
        outputs {
            ctl_ready: s_ctl.ready, ack_ready: s_ack.ready, int_ready: s_int.ready,
            event_valid: m_event.valid
        }
        records_in { ctl: s_ctl, ack: s_ack, int: s_int }
        records_out { event: m_event }
    }
}

harness! {
    impl<> RpArb {
        type In = golden::rp_arb::In;
        type Out = golden::rp_arb::Out;
        clock = clock;
        inputs {
            ctl_valid: s_ctl.valid, cnp_valid: s_cnp.valid, sent_valid: s_sent.valid,
            event_ready: m_event.ready
        }
        outputs {
            ctl_ready: s_ctl.ready, cnp_ready: s_cnp.ready, sent_ready: s_sent.ready,
            event_valid: m_event.valid
        }
        records_in { ctl: s_ctl, cnp: s_cnp, sent: s_sent }
        records_out { event: m_event }
    }
}

harness! {
    impl<> EvMerge {
        type In = golden::ev_merge::In;
        type Out = golden::ev_merge::Out;
        clock = clock;
        inputs { req_valid: s_req.valid, ev_ready: m_ev.ready }
        outputs { req_ready: s_req.ready, ev_valid: m_ev.valid, merged: merged }
        records_in { req: s_req }
        records_out { ev: m_ev }
    }
}

harness! {
    impl<const A: usize> SentTap<A> {
        type In = golden::sent_tap::In;
        type Out = golden::sent_tap::Out;
        clock = clock;
        inputs {
            cfg_on: cfg_on, ctl_taken: ctl_taken, ctl_op: ctl_op, ctl_flow: ctl_flow,
            desc_taken: desc_taken, desc_flow: desc_flow, desc_len: desc_len,
            sent_ready: m_sent.ready
        }
        outputs { sent_valid: m_sent.valid, sent_pkts: sent_pkts, sent_drops: sent_drops }
        records_out { sent: m_sent }
    }
}

harness! {
    impl<const A: usize> RxCtxMux<A> {
        type In = golden::rx_ctx_mux::In;
        type Out = golden::rx_ctx_mux::Out;
        clock = clock;
        inputs { cfg_valid: s_cfg.valid, req_valid: s_req.valid }
        outputs { ctx_valid: m_ctx.valid, rx_busy: rx_busy }
        records_in { cfg: s_cfg, req: s_req }
        records_out { ctx: m_ctx }
    }
}

harness! {
    impl<const A: usize> AckCoalesce<A> {
        type In = golden::ack_coalesce::In;
        type Out = golden::ack_coalesce::Out;
        clock = clock;
        inputs { ack_valid: s_ack.valid, out_ready: m_ack.ready, open: open }
        outputs { ack_ready: s_ack.ready, out_valid: m_ack.valid, coalesced: coalesced }
        records_in { ack: s_ack }
        records_out { out: m_ack }
    }
}

harness! {
    impl<const A: usize, const L: usize> DescQueue<A, L> {
        type In = golden::desc_queue::In;
        type Out = golden::desc_queue::Out;
        clock = clock;
        inputs { desc_valid: s_desc.valid, out_ready: m_desc.ready }
        outputs { desc_ready: s_desc.ready, out_valid: m_desc.valid, desc_full: desc_full }
        records_in { desc: s_desc }
        records_out { out: m_desc }
    }
}

harness! {
    impl<const A: usize, const L: usize> ReadQueue<A, L> {
        type In = golden::read_queue::In;
        type Out = golden::read_queue::Out;
        clock = clock;
        inputs { rdreq_valid: s_rdreq.valid, out_ready: m_rdreq.ready }
        outputs { rdreq_ready: s_rdreq.ready, out_valid: m_rdreq.valid }
        records_in { rdreq: s_rdreq }
        records_out { out: m_rdreq }
    }
}

harness! {
    impl<const A: usize, const L: usize> FbQueue<A, L> {
        type In = golden::fb_queue::In;
        type Out = golden::fb_queue::Out;
        clock = clock;
        inputs { fb_valid: s_fb.valid, out_ready: m_fb.ready }
        outputs { fb_ready: s_fb.ready, out_valid: m_fb.valid, high_water: high_water }
        records_in { fb: s_fb }
        records_out { out: m_fb }
    }
}

harness! {
    impl<const A: usize> TxArb<A> {
        type In = golden::tx_arb::In;
        type Out = golden::tx_arb::Out;
        clock = clock;
        inputs {
            cfg_ctl_share: cfg_ctl_share,
            ack_valid: s_ack.valid, cnp_valid: s_cnp.valid, notify_valid: s_notify.valid,
            rresp_valid: s_rresp.valid, req_valid: s_req.valid, desc_ready: m_desc.ready
        }
        outputs {
            ack_ready: s_ack.ready, cnp_ready: s_cnp.ready, notify_ready: s_notify.ready, rresp_ready: s_rresp.ready, req_ready: s_req.ready,
            desc_valid: m_desc.valid, acks: acks, ctl_held: ctl_held, ctl_open: ctl_open
        }
        records_in { ack: s_ack, cnp: s_cnp, notify: s_notify, rresp: s_rresp, req: s_req }
        records_out { desc: m_desc }
    }
}

harness! {
    impl<const A: usize> ReadResp<A> {
        type In = golden::read_resp::In;
        type Out = golden::read_resp::Out;
        clock = clock;
        inputs { cfg_mtu_log2: cfg_mtu_log2, rdreq_valid: s_rdreq.valid, desc_ready: m_desc.ready }
        outputs { rdreq_ready: s_rdreq.ready, desc_valid: m_desc.valid, reads: reads, resps: resps }
        records_in { rdreq: s_rdreq }
        records_out { desc: m_desc }
    }
}

harness! {
    impl<const A: usize> IntTap<A> {
        type In = golden::int_tap::In;
        type Out = golden::int_tap::Out;
        clock = clock;
        inputs {
            cfg_ns_per_cycle: cfg_ns_per_cycle,
            ack_valid: s_ack.valid, out_ready: m_ack.ready, event_ready: m_event.ready
        }
        outputs {
            ack_ready: s_ack.ready, out_valid: m_ack.valid, event_valid: m_event.valid,
            events: events, lost: lost
        }
        records_in { ack: s_ack }
        records_out { out: m_ack, event: m_event }
    }
}

harness! {
    impl<const A: usize> NotifyTx<A> {
        type In = golden::notify_tx::In;
        type Out = golden::notify_tx::Out;
        clock = clock;
        inputs { update_valid: s_update.valid, desc_ready: m_desc.ready }
        outputs { desc_valid: m_desc.valid, notifies: notifies, drops: drops }
        records_in { update: s_update }
        records_out { desc: m_desc }
    }
}

harness! {
    impl<const A: usize> NotifyRx<A> {
        type In = golden::notify_rx::In;
        type Out = golden::notify_rx::Out;
        clock = clock;
        inputs {
            cfg_inv_t_m: cfg_inv_t_m, cfg_inv_t_s: cfg_inv_t_s, fb_valid: s_fb.valid,
            out_ready: m_fb.ready
        }
        outputs {
            fb_ready: s_fb.ready, out_valid: m_fb.valid, update_valid: m_update.valid,
            applied: applied, bad: bad
        }
        records_in { fb: s_fb }
        records_out { out: m_fb, update: m_update }
    }
}

harness! {
    impl<const A: usize, const Q: usize, const AQ: usize, const B: usize> NicCore<A, Q, AQ, B> {
        type In = golden::core::In;
        type Out = golden::core::Out;
        clock = clock;
        inputs {
            reset: reset, cfg_valid: s_cfg.valid, wr_valid: s_wr.valid, cmpl_ready: m_cmpl.ready,
            dma_rd_ready: m_dma_rd.ready,
            dma_wr_ready: m_dma_wr.ready,
            tx_tready: m_axis_tx.tready, cnm_ready: m_cnm.ready
        }
        outputs {
            cfg_ready: s_cfg.ready, wr_ready: s_wr.ready, cmpl_valid: m_cmpl.valid,
            dma_rd_valid: m_dma_rd.valid, h2c_tready: s_axis_h2c.tready,
            dma_wr_valid: m_dma_wr.valid, rx_tready: s_axis_rx.tready,
            cnm_valid: m_cnm.valid,
            pause_req: pause_req, pause_quanta: pause_quanta, pause_cev: pause_cev
        }
        records_in { cfg: s_cfg, wr: s_wr, h2c: s_axis_h2c, rx: s_axis_rx }
        records_out {
            cmpl: m_cmpl, dma_rd: m_dma_rd, dma_wr: m_dma_wr,
            stats_parse: m_stats_parse, stats_dispatch: m_stats_dispatch, stats_tx: m_stats_tx,
            stats_sched: m_stats_sched, stats_cc: m_stats_cc, stats_req: m_stats_req,
            stats_core: m_stats_core, stats_dcqcn: m_stats_dcqcn, stats_np: m_stats_np,
            cnm: m_cnm, stats_cnm: m_stats_cnm, tx: m_axis_tx }
    }
}

harness! {
    impl<> RxPause {
        type In = golden::rx_pause::In;
        type Out = golden::rx_pause::Out;
        clock = clock;
        inputs {
            reset: reset, buf_fill: buf_fill, meta_fill: meta_fill, cfg_xoff: cfg_xoff,
            cfg_xon: cfg_xon, cfg_quanta: cfg_quanta
        }
        outputs {
            pause_req: pause_req, pause_quanta: pause_quanta, paused: paused, xoffs: xoffs,
            xons: xons, cycles: cycles
        }
    }
}
