//! Harness of [`RoceTx`] (`hdl/src/roce/tx.rs`) against
//! `nic_golden::roce::tx`.

use crate::harness;
use nic_golden as golden;
use nic_hdl::roce::tx::RoceTx;

harness! {
    impl<const A: usize> RoceTx<A> {
        type In = golden::roce::tx::In;
        type Out = golden::roce::tx::Out;
        clock = clock;
        inputs {
            reset: reset, ctx_valid: s_ctx.valid, req_valid: s_req.valid,
            rdq_ready: m_rdq.ready, out_tready: m_axis_tx.tready
        }
        outputs {
            req_ready: s_req.ready, rd_tready: s_axis_rd.tready, rdq_valid: m_rdq.valid
        }
        records_in { ctx: s_ctx, req: s_req, rd: s_axis_rd }
        records_out { rdq: m_rdq, stats: m_stats, out: m_axis_tx }
    }
}
