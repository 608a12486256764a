//! Harness of `RoceRxDispatch` (docs/roce.md §8).

use crate::harness;
use nic_golden as golden;
use nic_hdl::roce::rx_dispatch::RoceRxDispatch;

harness! {
    impl<const A: usize> RoceRxDispatch<A> {
        type In = golden::roce::rx_dispatch::In;
        type Out = golden::roce::rx_dispatch::Out;
        clock = clock;
        inputs {
            reset: reset, cfg_mtu_log2: cfg_mtu_log2, ctx_valid: s_ctx.valid,
            meta_valid: s_meta.valid,
            wr_ready: m_wr.ready, ack_ready: m_ack.ready, cc_ready: m_cc.ready,
            nak_ready: m_nak.ready, rdreq_ready: m_rdreq.ready, cnp_ready: m_cnp.ready
        }
        outputs {
            meta_ready: s_meta.ready, pay_tready: s_axis_pay.tready,
            wr_valid: m_wr.valid, ack_valid: m_ack.valid, cc_valid: m_cc.valid,
            nak_valid: m_nak.valid, rdreq_valid: m_rdreq.valid, cnp_valid: m_cnp.valid,
            ce_valid: m_ce.valid
        }
        records_in { ctx: s_ctx, meta: s_meta, pay: s_axis_pay }
        records_out { wr: m_wr, ack: m_ack, cc: m_cc, nak: m_nak, rdreq: m_rdreq, cnp: m_cnp, ce: m_ce, stats: m_stats }
    }
}
