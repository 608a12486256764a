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
            reset: reset, meta_ready: m_meta.ready, pay_tready: m_axis_pay.tready
        }
        outputs {
            meta_valid: m_meta.valid,
            rx_tready: s_axis_rx.tready,
            buf_fill: buf_fill, meta_fill: meta_fill
        }
        records_in { rx: s_axis_rx }
        records_out { meta: m_meta, stats: m_stats, pay: m_axis_pay }
    }
}
