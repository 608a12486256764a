//! Twin of `hdl/src/board/lock_reset.rs`: the reset a PLL's lock gives a
//! board.

use crate::Cycle;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    pub pll_lock: bool,
    pub button: bool,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub rst: bool,
    pub locked: bool,
    pub lock_losses: u32,
}

/// 2^N cycles of hold after lock.
#[derive(Clone, Debug)]
pub struct LockReset<const N: usize> {
    lock_meta: bool,
    lock_sync: bool,
    button_meta: bool,
    button_sync: bool,
    held: u32,
    rst: bool,
    losses: u32,
}

impl<const N: usize> Default for LockReset<N> {
    fn default() -> Self {
        Self {
            lock_meta: false,
            lock_sync: false,
            button_meta: false,
            button_sync: false,
            held: 0,
            // In reset from configuration.
            rst: true,
            losses: 0,
        }
    }
}

impl<const N: usize> Cycle for LockReset<N> {
    type In = In;
    type Out = Out;
    fn step(&mut self, i: &In) -> Out {
        let s = self.clone();
        let out = Out {
            rst: s.rst,
            locked: s.lock_sync,
            lock_losses: s.losses,
        };
        self.lock_meta = i.pll_lock;
        self.lock_sync = s.lock_meta;
        self.button_meta = i.button;
        self.button_sync = s.button_meta;
        if !s.lock_sync || s.button_sync {
            self.held = 0;
            self.rst = true;
        } else if s.held != 1 << N {
            self.held = s.held + 1;
            self.rst = true;
        } else {
            self.rst = false;
        }
        if s.lock_sync && !s.lock_meta {
            self.losses = s.losses.wrapping_add(1);
        }
        out
    }
}
