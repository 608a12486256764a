//! Twins of the UART register bridge's blocks (`hdl/src/uart/`): the
//! serial receiver and transmitter, the CRC-8 step, and `UartAxil`.

pub mod crc8;
pub mod uart_axil;
pub mod uart_rx;
pub mod uart_tx;

use crate::golden_record;
nic_spec::uart_bridge_stats_record!(golden_record! {});
