//! Board glue shared by the board tops (`boards/<board>/`,
//! `docs/board.md`): what sits between a board's clock, reset button and
//! PLL and the NIC, and the board cores the tops instantiate.
//!
//! - [`lock_reset`]: `LockReset`, the reset of everything clocked by a
//!   PLL, held until the PLL has locked (and for a while after), with a
//!   count of lock losses;
//! - [`reset_sync`]: `ResetSync`, that reset taken into one clock domain;
//! - [`stats_cross`]: `StatsCross`, a counter read across clocks (the
//!   bridge's `STATS` index out, the answer back);
//! - [`nic_board_1g`]: `NicBoard1g`, the NIC with its 1G RGMII MAC, the
//!   UART register bridge and block RAM as host memory (the ECPIX-5's
//!   board core);
//! - [`nic_board_vendor`]: `NicBoardVendor`, the NIC behind a vendor MAC
//!   that owns the FCS (the Alveo U250's board core, for Vivado).

pub mod lock_reset;
pub mod nic_board_1g;
pub mod nic_board_vendor;
pub mod reset_sync;
pub mod stats_cross;

use crate::hdl_record;
use rust_hdl::prelude::*;

nic_spec::board_stats_record!(hdl_record! {});

pub use lock_reset::LockReset;
pub use nic_board_1g::NicBoard1g;
pub use nic_board_vendor::NicBoardVendor;
pub use reset_sync::ResetSync;
pub use stats_cross::StatsCross;
