//! Twins of `hdl/src/board/`: board glue.

pub mod lock_reset;
pub mod reset_sync;
pub mod stats_cross;
