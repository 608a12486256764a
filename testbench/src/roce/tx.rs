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
            reset: reset,
            ctx_we: ctx_we, ctx_flow: ctx_flow, ctx_dmac: ctx_dmac, ctx_smac: ctx_smac,
            ctx_sip: ctx_sip, ctx_dip: ctx_dip, ctx_sport: ctx_sport, ctx_dqp: ctx_dqp,
            ctx_pkey: ctx_pkey, ctx_tos: ctx_tos,
            req_valid: req_valid, req_flow: req_flow, req_opcode: req_opcode,
            req_psn: req_psn, req_ackreq: req_ackreq, req_len: req_len, req_addr: req_addr,
            req_va: req_va, req_rkey: req_rkey, req_dlen: req_dlen, req_aeth: req_aeth,
            req_tlm: req_tlm, req_tlm_hdr: req_tlm_hdr, req_tlm_hop0: req_tlm_hop0,
            req_tlm_hop1: req_tlm_hop1, req_tlm_hop2: req_tlm_hop2,
            req_tlm_hop3: req_tlm_hop3, req_tlm_hop4: req_tlm_hop4,
            rd_tdata: s_axis_rd.tdata, rd_tkeep: s_axis_rd.tkeep, rd_tlast: s_axis_rd.tlast,
            rd_tuser: s_axis_rd.tuser, rd_tvalid: s_axis_rd.tvalid,
            rdq_ready: rdq_ready, out_tready: m_axis_tx.tready
        }
        outputs {
            req_ready: req_ready, rd_tready: s_axis_rd.tready, rdq_valid: rdq_valid,
            rdq_addr: rdq_addr, rdq_len: rdq_len, out_tdata: m_axis_tx.tdata,
            out_tkeep: m_axis_tx.tkeep, out_tlast: m_axis_tx.tlast, out_tvalid: m_axis_tx.tvalid,
            out_tuser: m_axis_tx.tuser,
            cnt_frames: cnt_frames, cnt_bad_req: cnt_bad_req
        }
    }
}
