//! Harnesses of the UART register bridge's blocks (`hdl/src/uart/`)
//! against their twins (`nic_golden::uart`).

use nic_golden::uart as golden;
use nic_hdl::uart::{UartAxil, UartRx, UartTx};

crate::harness! {
    impl<> UartRx {
        type In = golden::uart_rx::In;
        type Out = golden::uart_rx::Out;
        clock = clock;
        inputs { reset: reset, rx: rx, cfg_clks_per_bit: cfg_clks_per_bit }
        outputs { data_valid: data_valid, data: data, frame_err: frame_err }
    }
}

crate::harness! {
    impl<> UartTx {
        type In = golden::uart_tx::In;
        type Out = golden::uart_tx::Out;
        clock = clock;
        inputs {
            reset: reset, cfg_clks_per_bit: cfg_clks_per_bit
        }
        outputs { s_tready: s_axis.tready, tx: tx }
        records_in { s: s_axis }
    }
}

crate::harness! {
    impl<> UartAxil {
        type In = golden::uart_axil::In;
        type Out = golden::uart_axil::Out;
        clock = clock;
        inputs {
            reset: reset, uart_rx: uart_rx, cfg_clks_per_bit: cfg_clks_per_bit,
            cfg_timeout: cfg_timeout, ext_stat_data: ext_stat_data, ext_stat_hit: ext_stat_hit
        }
        outputs { uart_tx: uart_tx, ext_stat_index: ext_stat_index }
        records_in { axil: m_axil }
        records_out { axil: m_axil, stats: m_stats }
    }
}
