mod lock_reset;
mod reset_sync;
mod stats_cross;
