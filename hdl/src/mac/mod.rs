//! The MAC glue (`docs/mac.md`): the 10G XGMII transmitter and receiver
//! and `Mac10g`, the top that drops in where verilog-ethernet's
//! `eth_mac_10g` sits; the 1G GMII transmitter and receiver and `Mac1g`
//! (with the 64 <-> 8 converters of `crate::stream`), and [`RgmiiPhy`],
//! the RGMII adapter on the ECP5's DDR registers (`Mac1gRgmii`).
//!
//! The pause path: [`TxPause`] (the pause timer and the PAUSE inserter)
//! and [`ReqSync`] (a received pause crossing from `rx_clk` to `tx_clk`).
//!
//! The clock crossing to the core: [`AxisAsyncFifo`] (a frame FIFO between
//! two clocks).
//!
//! The vendor-MAC adapter: [`VendorMacAdapter`] ([`AxisPad`] and two
//! [`AxisAsyncFifo`]s), for a MAC that owns the FCS and takes
//! AXI4-Stream (Xilinx's 10G/25G subsystem).
//!
//! The NIC on the 10G MAC (one clock) is `crate::nic::HpccNic10g`
//! (`hpcc_nic_10g`).

pub mod axis_async_fifo;
pub mod axis_pad;
pub mod gmii_rx;
pub mod gmii_tx;
pub mod mac_10g;
pub mod mac_1g;
pub mod req_sync;
pub mod rgmii;
pub mod tx_pause;
pub mod vendor_mac;
pub mod xgmii_rx;
pub mod xgmii_tx;

pub use axis_async_fifo::AxisAsyncFifo;
pub use axis_pad::AxisPad;
pub use gmii_rx::GmiiRx;
pub use gmii_tx::GmiiTx;
pub use mac_10g::{EthMac10g, Mac10g};
pub use mac_1g::{Mac1g, Mac1gRgmii};
pub use req_sync::ReqSync;
pub use rgmii::RgmiiPhy;
pub use tx_pause::TxPause;
pub use vendor_mac::VendorMacAdapter;
pub use xgmii_rx::XgmiiRx;
pub use xgmii_tx::XgmiiTx;

use crate::hdl_record;
use rust_hdl::prelude::*;
nic_spec::mac_tx_stats_record!(hdl_record! {});
nic_spec::mac_rx_stats_record!(hdl_record! {});
nic_spec::mac_pause_stats_record!(hdl_record! {});
nic_spec::async_fifo_stats_record!(hdl_record! {});
nic_spec::tx_pad_stats_record!(hdl_record! {});
