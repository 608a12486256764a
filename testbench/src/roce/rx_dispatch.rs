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
            reset: reset, cfg_mtu_log2: cfg_mtu_log2, cfg_we: cfg_we, cfg_flow: cfg_flow,
            cfg_valid: cfg_valid, cfg_epsn: cfg_epsn, cfg_rd_addr: cfg_rd_addr,
            cfg_rd_psn: cfg_rd_psn, cfg_rd_only: cfg_rd_only,
            meta_valid: meta_valid, meta_opcode: meta_opcode, meta_qp: meta_qp,
            meta_psn: meta_psn, meta_ackreq: meta_ackreq, meta_len: meta_len, meta_va: meta_va,
            meta_rkey: meta_rkey, meta_dlen: meta_dlen, meta_aeth: meta_aeth,
            meta_tlm: meta_tlm, meta_tlm_hdr: meta_tlm_hdr, meta_tlm_hop0: meta_tlm_hop0,
            meta_tlm_hop1: meta_tlm_hop1, meta_tlm_hop2: meta_tlm_hop2,
            meta_tlm_hop3: meta_tlm_hop3, meta_tlm_hop4: meta_tlm_hop4,
            pay_tdata: s_axis_pay.tdata, pay_tkeep: s_axis_pay.tkeep,
            pay_tlast: s_axis_pay.tlast, pay_tvalid: s_axis_pay.tvalid,
            pay_tuser: s_axis_pay.tuser,
            wr_ready: wr_ready, ack_ready: ack_ready, cc_ready: cc_ready,
            nak_ready: nak_ready, rdreq_ready: rdreq_ready
        }
        outputs {
            meta_ready: meta_ready, pay_tready: s_axis_pay.tready,
            wr_valid: wr_valid, wr_addr: wr_addr, wr_data: wr_data, wr_strb: wr_strb,
            ack_valid: ack_valid, ack_flow: ack_flow, ack_psn: ack_psn, ack_aeth: ack_aeth,
            ack_tlm: ack_tlm, ack_tlm_hdr: ack_tlm_hdr, ack_tlm_hop0: ack_tlm_hop0,
            ack_tlm_hop1: ack_tlm_hop1, ack_tlm_hop2: ack_tlm_hop2,
            ack_tlm_hop3: ack_tlm_hop3, ack_tlm_hop4: ack_tlm_hop4,
            cc_valid: cc_valid, cc_flow: cc_flow, cc_psn: cc_psn, cc_aeth: cc_aeth,
            cc_opcode: cc_opcode, cc_tlm: cc_tlm, cc_tlm_hdr: cc_tlm_hdr,
            cc_tlm_hop0: cc_tlm_hop0, cc_tlm_hop1: cc_tlm_hop1, cc_tlm_hop2: cc_tlm_hop2,
            cc_tlm_hop3: cc_tlm_hop3, cc_tlm_hop4: cc_tlm_hop4,
            nak_valid: nak_valid, nak_flow: nak_flow, nak_psn: nak_psn,
            rdreq_valid: rdreq_valid, rdreq_flow: rdreq_flow, rdreq_psn: rdreq_psn,
            rdreq_va: rdreq_va, rdreq_rkey: rdreq_rkey, rdreq_len: rdreq_len, rdreq_msn: rdreq_msn,
            cnt_unknown_flow: cnt_unknown_flow, cnt_oos: cnt_oos, cnt_dup: cnt_dup,
            cnt_bad_psn: cnt_bad_psn, cnt_accepted: cnt_accepted, cnt_bad_va: cnt_bad_va,
            cnt_bad_op: cnt_bad_op
        }
    }
}
