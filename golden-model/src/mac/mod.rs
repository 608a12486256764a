//! Twins of the MAC blocks (`hdl/src/mac/`): the 10G XGMII and 1G GMII
//! transmitters and receivers, the transmit side's pause control, and the byte-level XGMII and GMII references they
//! are checked against ([`xgmii`], [`gmii`]).

pub mod axis_async_fifo;
pub mod axis_pad;
pub mod gmii;
pub mod gmii_rx;
pub mod gmii_tx;
pub mod mac_10g;
pub mod mac_1g;
pub mod req_sync;
pub mod tx_pause;
pub mod vendor_mac;
pub mod xgmii;
pub mod xgmii_rx;
pub mod xgmii_tx;

use crate::golden_record;
nic_spec::mac_tx_stats_record!(golden_record! {});
nic_spec::mac_rx_stats_record!(golden_record! {});
nic_spec::mac_pause_stats_record!(golden_record! {});
nic_spec::async_fifo_stats_record!(golden_record! {});
nic_spec::tx_pad_stats_record!(golden_record! {});
