//! Harnesses of the board glue (`hdl/src/board/`) against its twins
//! (`nic_golden::board`).

use nic_golden::board as golden;
use nic_hdl::board::{LockReset, ResetSync};

crate::harness! {
    impl<const N: usize> LockReset<N> {
        type In = golden::lock_reset::In;
        type Out = golden::lock_reset::Out;
        clock = clock;
        inputs { pll_lock: pll_lock, button: button }
        outputs { rst: rst, locked: locked, lock_losses: lock_losses }
    }
}

crate::harness! {
    impl<> ResetSync {
        type In = golden::reset_sync::In;
        type Out = golden::reset_sync::Out;
        clock = clock;
        inputs { rst_in: rst_in }
        outputs { rst: rst }
    }
}
