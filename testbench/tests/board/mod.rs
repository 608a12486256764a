mod lock_reset;
