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
            rd_tdata: s_axis_rd.tdata, rd_tkeep: s_axis_rd.tkeep, rd_tlast: s_axis_rd.tlast,
            rd_tuser: s_axis_rd.tuser, rd_tvalid: s_axis_rd.tvalid,
            rdq_ready: m_rdq.ready, out_tready: m_axis_tx.tready
        }
        outputs {
            req_ready: s_req.ready, rd_tready: s_axis_rd.tready, rdq_valid: m_rdq.valid,
            out_tdata: m_axis_tx.tdata, out_tkeep: m_axis_tx.tkeep, out_tlast: m_axis_tx.tlast,
            out_tvalid: m_axis_tx.tvalid, out_tuser: m_axis_tx.tuser
        }
        records_in { ctx: s_ctx, req: s_req }
        records_out { rdq: m_rdq, stats: m_stats }
    }
}
