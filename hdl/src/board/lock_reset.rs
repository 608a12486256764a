//! The reset that a PLL's lock gives a board: `rst` is high from
//! configuration until the PLL reports lock and the reset button is
//! released, and for 2^N cycles after; it rises again (within 3 cycles)
//! whenever the lock is lost or the button pressed. Lock losses are
//! counted.
//!
//! It runs on the board's reference clock (the oscillator, which runs
//! whether or not the PLL locks), so a PLL that never locks leaves `rst`
//! high and `locked` low, visibly (an LED), instead of clocking the NIC
//! from an unstable clock. Each domain the PLL clocks takes `rst` through
//! its own two-flip-flop synchroniser in the board top.
//!
//! Ports (clock `clock`, the reference):
//! - `pll_lock` (asynchronous: two flip-flops synchronise it), `button`
//!   (asynchronous, active high: the board top inverts an active-low
//!   button; synchronised the same way);
//! - `rst` (registered, 1 at configuration), `locked` (the synchronised
//!   lock), `lock_losses` (`Bits<32>`, wrapping: falls of the
//!   synchronised lock; a PLL that never locks counts none).
//!
//! Timing: the lock (with the button released) in cycle t → `rst` low in
//! t + 3 + 2^N; a lock loss or a press in cycle t → `rst` high in t + 3.
//!
//! Bad input: a lock that chatters restarts the hold each time it falls
//! (each fall counted); a pulse shorter than a cycle may be missed, a
//! longer one is not.
//!
//! Golden twin: `nic_golden::board::lock_reset`.

use rust_hdl::prelude::*;
use smart_default::SmartDefault;

#[derive(LogicBlock, SmartDefault)]
pub struct LockReset<const N: usize> {
    // The parameter check, when the block is built.
    #[default({
        assert!(N < 24, "LockReset: N < 24");
        Default::default()
    })]
    pub clock: Signal<In, Clock>,
    pub pll_lock: Signal<In, Bit>,
    pub button: Signal<In, Bit>,
    pub rst: Signal<Out, Bit>,
    pub locked: Signal<Out, Bit>,
    pub lock_losses: Signal<Out, Bits<32>>,
    lock_meta: DFF<Bit>,
    lock_sync: DFF<Bit>,
    button_meta: DFF<Bit>,
    button_sync: DFF<Bit>,
    /// Cycles held since lock and release, saturating at 2^N.
    held: DFF<Bits<24>>,
    #[default(DFFWithInit::new(true))]
    rst_q: DFFWithInit<Bit>,
    losses: DFF<Bits<32>>,
    #[default(Constant::new(Bits::<24>::from(1u64 << N)))]
    k_hold: Constant<Bits<24>>,
}

impl<const N: usize> Logic for LockReset<N> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            lock_meta,
            lock_sync,
            button_meta,
            button_sync,
            held,
            rst_q,
            losses
        );
        self.lock_meta.d.next = self.pll_lock.val();
        self.lock_sync.d.next = self.lock_meta.q.val();
        self.button_meta.d.next = self.button.val();
        self.button_sync.d.next = self.button_meta.q.val();
        if (!self.lock_sync.q.val() || self.button_sync.q.val()) {
            self.held.d.next = 0.into();
            self.rst_q.d.next = true;
        } else if (self.held.q.val() != self.k_hold.val()) {
            self.held.d.next = (self.held.q.val() + 1);
            self.rst_q.d.next = true;
        } else {
            self.rst_q.d.next = false;
        }
        if (self.lock_sync.q.val() && !self.lock_meta.q.val()) {
            self.losses.d.next = (self.losses.q.val() + 1);
        }
        self.rst.next = self.rst_q.q.val();
        self.locked.next = self.lock_sync.q.val();
        self.lock_losses.next = self.losses.q.val();
    }
}
