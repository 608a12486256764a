//! The UART register bridge (`docs/board.md`): a host without PCIe
//! reaches the NIC's AXI4-Lite registers over a serial line, with the
//! framing and CRC-8 of `nic_spec::uart`.
//!
//! - [`uart_rx`]: the serial receiver (8N1, a bit time of
//!   `cfg_clks_per_bit` cycles): bytes and framing errors;
//! - [`uart_tx`]: the serial transmitter;
//! - [`crc8`]: one byte into a running CRC-8 (combinational);
//! - [`uart_axil`]: `UartAxil`, requests → AXI4-Lite master accesses →
//!   responses, with its counters.

pub mod crc8;
pub mod uart_axil;
pub mod uart_rx;
pub mod uart_tx;

pub use crc8::Crc8Step;
pub use uart_axil::UartAxil;
pub use uart_rx::UartRx;
pub use uart_tx::UartTx;

use crate::hdl_record;
use rust_hdl::prelude::*;

nic_spec::uart_bridge_stats_record!(hdl_record! {});
