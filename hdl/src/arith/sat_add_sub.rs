//! Saturating unsigned add / subtract.
//!
//! Ports (clock `clock`):
//! - in: `a`, `b`: `Bits<N>` unsigned (any UQm.n, the same for both);
//!   `sub`: 0 = add, 1 = subtract; `in_valid`.
//! - out: `y`: `Bits<N>`, a + b clamped to 2^N − 1, or a − b clamped to 0;
//!   `sat`: the result was clamped; `out_valid`.
//!
//! Latency 1 (registered outputs), II 1. No input is out of domain:
//! overflow and underflow saturate and raise `sat`.
//! Golden twin: `nic_golden::arith::sat_add_sub`.

use rust_hdl::prelude::*;
use smart_default::SmartDefault;

#[derive(LogicBlock, SmartDefault)]
pub struct SatAddSub<const N: usize> {
    pub clock: Signal<In, Clock>,
    pub a: Signal<In, Bits<N>>,
    pub b: Signal<In, Bits<N>>,
    pub sub: Signal<In, Bit>,
    pub in_valid: Signal<In, Bit>,
    pub y: Signal<Out, Bits<N>>,
    pub sat: Signal<Out, Bit>,
    pub out_valid: Signal<Out, Bit>,
    #[default(Constant::new(!Bits::<N>::default()))]
    ones: Constant<Bits<N>>,
    sum: Signal<Local, Bits<N>>,
    diff: Signal<Local, Bits<N>>,
    y_r: DFF<Bits<N>>,
    sat_r: DFF<Bit>,
    valid_r: DFF<Bit>,
}

impl<const N: usize> Logic for SatAddSub<N> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, y_r, sat_r, valid_r);
        // N-bit wrapping results; the carry / borrow is recovered by
        // comparison, so no N+1-bit intermediate is needed.
        self.sum.next = (self.a.val() + self.b.val());
        self.diff.next = (self.a.val() - self.b.val());
        if self.sub.val() {
            if (self.a.val() < self.b.val()) {
                self.y_r.d.next = 0.into();
                self.sat_r.d.next = true;
            } else {
                self.y_r.d.next = self.diff.val();
                self.sat_r.d.next = false;
            }
        } else if (self.sum.val() < self.a.val()) {
            self.y_r.d.next = self.ones.val();
            self.sat_r.d.next = true;
        } else {
            self.y_r.d.next = self.sum.val();
            self.sat_r.d.next = false;
        }
        self.valid_r.d.next = self.in_valid.val();
        self.y.next = self.y_r.q.val();
        self.sat.next = self.sat_r.q.val();
        self.out_valid.next = self.valid_r.q.val();
    }
}
