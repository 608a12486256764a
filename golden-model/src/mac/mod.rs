//! Twins of the MAC blocks (`hdl/src/mac/`): the 10G XGMII transmitter
//! and receiver, the transmit side's pause control, and the byte-level XGMII reference they are checked
//! against ([`xgmii`]).

pub mod axis_async_fifo;
pub mod req_sync;
pub mod tx_pause;
pub mod xgmii;
pub mod xgmii_rx;
pub mod xgmii_tx;

use crate::golden_record;
nic_spec::mac_tx_stats_record!(golden_record! {});
nic_spec::mac_rx_stats_record!(golden_record! {});
nic_spec::mac_pause_stats_record!(golden_record! {});
nic_spec::async_fifo_stats_record!(golden_record! {});
