//! Board glue shared by the board tops (`boards/<board>/`,
//! `docs/board.md`): what sits between a board's clock, reset button and
//! PLL and the NIC.
//!
//! - [`lock_reset`]: `LockReset`, the reset of everything clocked by a
//!   PLL, held until the PLL has locked (and for a while after), with a
//!   count of lock losses.

pub mod lock_reset;

pub use lock_reset::LockReset;
