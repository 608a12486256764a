//! Harness of `Requester` (`docs/architecture.md` §5b).

use crate::harness;
use nic_golden as golden;
use nic_hdl::roce::requester::Requester;

harness! {
    impl<const A: usize, const Q: usize, const AQ: usize> Requester<A, Q, AQ> {
        type In = golden::roce::requester::In;
        type Out = golden::roce::requester::Out;
        clock = clock;
        inputs {
            cfg_mtu_log2: cfg_mtu_log2, cfg_rto: cfg_rto,
            ctx_valid: s_ctx.valid, wr_valid: s_wr.valid, send_valid: s_send.valid,
            fb_valid: s_fb.valid, nak_valid: s_nak.valid,
            ev_ready: m_ev.ready, desc_ready: m_desc.ready, cmpl_ready: m_cmpl.ready,
            cc_ready: m_cc.ready, desc_full: desc_full
        }
        outputs {
            ctx_ready: s_ctx.ready, wr_ready: s_wr.ready, send_ready: s_send.ready,
            fb_ready: s_fb.ready, nak_ready: s_nak.ready,
            ev_valid: m_ev.valid, desc_valid: m_desc.valid, rd_valid: m_rd.valid,
            cmpl_valid: m_cmpl.valid, cc_valid: m_cc.valid
        }
        records_in { ctx: s_ctx, wr: s_wr, send: s_send, fb: s_fb, nak: s_nak }
        records_out {
            ev: m_ev, desc: m_desc, rd: m_rd, cmpl: m_cmpl, cc: m_cc, stats: m_stats
        }
    }
}
