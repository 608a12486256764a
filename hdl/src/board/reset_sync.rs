//! `ResetSync`: a reset taken into a clock domain. `rst_in` (from
//! another domain, e.g. [`LockReset`](super::LockReset)'s on the
//! oscillator) passes two flip-flops of `clock`, both 1 at
//! configuration, to `rst`.
//!
//! Ports: `clock` (the destination domain), `rst_in` (asynchronous to
//! `clock`, active high), `rst` (registered, synchronous to `clock`).
//!
//! Timing: `rst_in` in cycle t → `rst` in t + 2, rising and falling.
//! From configuration `rst` is high until two edges of `clock` have seen
//! `rst_in` low, so a domain whose clock starts late (an RGMII PHY's
//! receive clock, which runs only once the link is up) leaves reset only
//! after its clock has run, never from the flip-flops' power-up values.
//!
//! Bad input: none; a pulse of `rst_in` shorter than a cycle of `clock`
//! may be missed (the sources here hold it for 2^16 oscillator cycles).
//!
//! Golden twin: `nic_golden::board::reset_sync`.

use rust_hdl::prelude::*;
use smart_default::SmartDefault;

#[derive(LogicBlock, SmartDefault)]
pub struct ResetSync {
    pub clock: Signal<In, Clock>,
    pub rst_in: Signal<In, Bit>,
    pub rst: Signal<Out, Bit>,
    #[default(DFFWithInit::new(true))]
    meta: DFFWithInit<Bit>,
    #[default(DFFWithInit::new(true))]
    sync: DFFWithInit<Bit>,
}

impl Logic for ResetSync {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, meta, sync);
        self.meta.d.next = self.rst_in.val();
        self.sync.d.next = self.meta.q.val();
        self.rst.next = self.sync.q.val();
    }
}
