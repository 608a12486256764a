//! DCQCN's rate increase step ([`DcqcnRp`](super::DcqcnRp), stages S4–S6):
//! Rt' = min(Rt + add, R_line), then Rc' = ⌈(Rc + Rt') / 2⌉, rounded up so
//! that Rc reaches Rt (L3QCN/DCQCN draft; `nic_golden::cc::dcqcn::increase`).
//!
//! # Ports (clock `clock`; no reset: the registers hold a value only while
//! an operation is in them, and the parent reads them only then)
//! - `rt`, `add` (32 bits, stage 0, the parent's S4): the target rate and
//!   the step to add to it (0, `R_AI` or `R_HAI`, chosen by the parent).
//! - `r_line` (32 bits, stage 1): the line rate, the cap on Rt'.
//! - `rc` (32 bits, stage 2, the parent's S6): the current rate of the
//!   same operation, two cycles after its `rt`.
//! - `rt_new`, `rc_new` (32 bits, stage 3, the parent's S7; flip-flops):
//!   Rt' and Rc' of the operation whose `rt` entered three cycles before.
//!
//! # Timing
//! Three stages, one 33-bit carry chain each (R4): the sum, the compare
//! against `r_line`, the halved sum. Every output is a flip-flop (R1).
//! Throughput one operation a cycle; latency 3 cycles from `rt`, 1 from
//! `rc`.
//!
//! # Bad input
//! None: every 32-bit value is a rate. A sum past 2^32 is kept in 33 bits
//! and capped by `r_line`; Rc + Rt' + 1 fits 33 bits.
//!
//! Golden twin: `nic_golden::cc::increase_step`.

use rust_hdl::prelude::*;

#[derive(LogicBlock, Default)]
pub struct IncreaseStep {
    pub clock: Signal<In, Clock>,
    pub rt: Signal<In, Bits<32>>,
    pub add: Signal<In, Bits<32>>,
    pub r_line: Signal<In, Bits<32>>,
    pub rc: Signal<In, Bits<32>>,
    pub rt_new: Signal<Out, Bits<32>>,
    pub rc_new: Signal<Out, Bits<32>>,
    /// Stage 1: Rt + add, 33 bits.
    rt_plus_add: DFF<Bits<33>>,
    /// Stage 2: Rt' = min(Rt + add, R_line).
    rt_capped: DFF<Bits<32>>,
    /// Stage 3: Rt', and Rc' = ⌈(Rc + Rt') / 2⌉.
    rt_out: DFF<Bits<32>>,
    rc_out: DFF<Bits<32>>,
    rc_sum: Signal<Local, Bits<33>>,
}

impl Logic for IncreaseStep {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, rt_plus_add, rt_capped, rt_out, rc_out);
        self.rt_new.next = self.rt_out.q.val();
        self.rc_new.next = self.rc_out.q.val();
        // Stage 0 → 1: Rt + add.
        self.rt_plus_add.d.next =
            (bit_cast::<33, 32>(self.rt.val()) + bit_cast::<33, 32>(self.add.val()));
        // Stage 1 → 2: the cap.
        if (self.rt_plus_add.q.val() > bit_cast::<33, 32>(self.r_line.val())) {
            self.rt_capped.d.next = self.r_line.val();
        } else {
            self.rt_capped.d.next = self.rt_plus_add.q.val().get_bits::<32>(0);
        }
        // Stage 2 → 3: Rc' = ⌈(Rc + Rt') / 2⌉, and Rt' along.
        self.rc_sum.next =
            ((bit_cast::<33, 32>(self.rc.val()) + bit_cast::<33, 32>(self.rt_capped.q.val())) + 1);
        self.rc_out.d.next = self.rc_sum.val().get_bits::<32>(1);
        self.rt_out.d.next = self.rt_capped.q.val();
    }
}
