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
            meta_ready: m_meta.ready, pay_tready: m_axis_pay.tready
        }
        outputs {
            meta_valid: m_meta.valid,
            pay_tdata: m_axis_pay.tdata, pay_tkeep: m_axis_pay.tkeep,
            pay_tlast: m_axis_pay.tlast, pay_tvalid: m_axis_pay.tvalid,
            pay_tuser: m_axis_pay.tuser, in_tready: s_axis_rx.tready,
            buf_fill: buf_fill, meta_fill: meta_fill
        }
        records_out { meta: m_meta, stats: m_stats }
    }
}
