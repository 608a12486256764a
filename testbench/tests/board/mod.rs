mod lock_reset;
mod reset_sync;
