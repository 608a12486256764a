//! Twins of `hdl/src/board/`: board glue.

pub mod lock_reset;
pub mod reset_sync;
