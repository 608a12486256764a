//! Harness of `RoceRxParse` (`hdl/src/roce/rx_parse.rs`) against
//! `nic_golden::roce::rx_parse`.

use crate::harness;
use nic_golden::roce::rx_parse as golden;
use nic_hdl::roce::rx_parse::RoceRxParse;

harness! {
    impl<const B: usize> RoceRxParse<B> {
        type In = golden::In;
        type Out = golden::Out;
        clock = clock;
        inputs {
            reset: reset, in_tdata: s_axis_rx.tdata, in_tkeep: s_axis_rx.tkeep,
            in_tlast: s_axis_rx.tlast, in_tvalid: s_axis_rx.tvalid, in_tuser: s_axis_rx.tuser,
            meta_ready: meta_ready, pay_tready: m_axis_pay.tready
        }
        outputs {
            meta_valid: meta_valid, meta_opcode: meta_opcode, meta_qp: meta_qp,
            meta_psn: meta_psn, meta_ackreq: meta_ackreq, meta_len: meta_len,
            meta_va: meta_va, meta_rkey: meta_rkey, meta_dlen: meta_dlen,
            meta_aeth: meta_aeth, meta_tlm: meta_tlm, meta_tlm_hdr: meta_tlm_hdr,
            meta_tlm_hop0: meta_tlm_hop0, meta_tlm_hop1: meta_tlm_hop1,
            meta_tlm_hop2: meta_tlm_hop2, meta_tlm_hop3: meta_tlm_hop3,
            meta_tlm_hop4: meta_tlm_hop4,
            pay_tdata: m_axis_pay.tdata, pay_tkeep: m_axis_pay.tkeep,
            pay_tlast: m_axis_pay.tlast, pay_tvalid: m_axis_pay.tvalid,
            pay_tuser: m_axis_pay.tuser, in_tready: s_axis_rx.tready,
            cnt_ok: cnt_ok, cnt_bad_fcs: cnt_bad_fcs, cnt_trunc: cnt_trunc,
            cnt_bad_eth: cnt_bad_eth, cnt_bad_ip: cnt_bad_ip, cnt_bad_port: cnt_bad_port,
            cnt_bad_opcode: cnt_bad_opcode, cnt_bad_len: cnt_bad_len,
            cnt_bad_tlm: cnt_bad_tlm, cnt_bad_icrc: cnt_bad_icrc,
            cnt_drop_full: cnt_drop_full
        }
    }
}
