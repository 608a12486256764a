//! Unsigned minimum and maximum.
//!
//! Ports (clock `clock`):
//! - in: `a`, `b`: `Bits<N>` unsigned; `in_valid`.
//! - out: `min`, `max`: `Bits<N>`; `out_valid`.
//!
//! Latency 1 (registered outputs), II 1. Every input is in domain.
//! Golden twin: `nic_golden::arith::min_max`.

use rust_hdl::prelude::*;

#[derive(LogicBlock, Default)]
pub struct MinMax<const N: usize> {
    pub clock: Signal<In, Clock>,
    pub a: Signal<In, Bits<N>>,
    pub b: Signal<In, Bits<N>>,
    pub in_valid: Signal<In, Bit>,
    pub min: Signal<Out, Bits<N>>,
    pub max: Signal<Out, Bits<N>>,
    pub out_valid: Signal<Out, Bit>,
    min_r: DFF<Bits<N>>,
    max_r: DFF<Bits<N>>,
    valid_r: DFF<Bit>,
}

impl<const N: usize> Logic for MinMax<N> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, min_r, max_r, valid_r);
        if (self.a.val() < self.b.val()) {
            self.min_r.d.next = self.a.val();
            self.max_r.d.next = self.b.val();
        } else {
            self.min_r.d.next = self.b.val();
            self.max_r.d.next = self.a.val();
        }
        self.valid_r.d.next = self.in_valid.val();
        self.min.next = self.min_r.q.val();
        self.max.next = self.max_r.q.val();
        self.out_valid.next = self.valid_r.q.val();
    }
}
