//! One timer of the DCQCN reaction point ([`DcqcnRp`](super::DcqcnRp)):
//! a prescaler that counts `period` cycles into a 16-bit epoch.
//!
//! The reaction point keeps three (the α, rate-decrease and rate-increase
//! periods) and stores in each flow the epoch of its last step, so a visit
//! finds a period passed by comparing epochs, without a scan of the flows
//! (`dcqcn.rs`, "Timers without a scan").
//!
//! # Ports (clock `clock`; no reset: both registers start at 0)
//! - `period` (24 bits, cycles): the period. 0 stops the timer: the
//!   prescaler is held at 0 and the epoch keeps its value.
//! - `epoch` (16 bits, a register): periods counted, wrapping at 2^16. It
//!   steps in the cycle after the one where the prescaler reached
//!   `period` − 1: every `period` cycles while `period` holds.
//!
//! # Timing
//! One 25-bit increment and one compare a cycle (rule R4); the output is
//! the epoch's flip-flop (R1). No combinational path from `period` to
//! `epoch`.
//!
//! # Bad input
//! None. A `period` lowered below the prescaler's count ends the current
//! period at the next cycle (the compare is ≥); any change takes effect at
//! once.
//!
//! Golden twin: `nic_golden::cc::period_epoch`.

use rust_hdl::prelude::*;

#[derive(LogicBlock, Default)]
pub struct PeriodEpoch {
    pub clock: Signal<In, Clock>,
    pub period: Signal<In, Bits<24>>,
    pub epoch: Signal<Out, Bits<16>>,
    /// Cycles of the current period so far.
    count: DFF<Bits<24>>,
    count_p1: Signal<Local, Bits<25>>,
    epoch_q: DFF<Bits<16>>,
}

impl Logic for PeriodEpoch {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, count, epoch_q);
        self.epoch.next = self.epoch_q.q.val();
        self.count_p1.next = (bit_cast::<25, 24>(self.count.q.val()) + 1);
        if !self.period.val().any() {
            self.count.d.next = 0.into();
        } else if (self.count_p1.val() >= bit_cast::<25, 24>(self.period.val())) {
            self.count.d.next = 0.into();
            self.epoch_q.d.next = (self.epoch_q.q.val() + 1);
        } else {
            self.count.d.next = self.count_p1.val().get_bits::<24>(0);
        }
    }
}
