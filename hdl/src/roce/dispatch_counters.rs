//! The dispatcher's counters (docs/roce.md §8, `m_stats`): one per
//! decision the dispatcher makes, each packet counted once. A block of
//! [`RoceRxDispatch`](super::rx_dispatch::RoceRxDispatch), at its `Exec`.
//!
//! # Ports (clock `clock`)
//! - `reset` (synchronous): every counter 0.
//! - In, in the cycle of a decision: `count` (a decision is made), and
//!   its verdict, one flag per counter: `unknown_flow`, `oos`, `dup`,
//!   `bad_psn`, `accepted`, `bad_va`, `bad_op`, `refused`
//!   (`nic_spec::roce::RxDrop`'s dispatcher reasons, and accepted).
//! - Out: `m_stats` ([`RxDispatchStatsSource`], 32-bit wrapping
//!   counters, each a flip-flop): each counts the cycles with `count`
//!   and its flag, `reset` low.
//!
//! # Timing
//! A count is on `m_stats` two cycles after its decision: the strobes
//! (`count` and a flag) are registered, then added, so the decision
//! reaches one flip-flop per counter, not a 32-bit enable (R1); one
//! 32-bit increment per counter a cycle. A `reset` zeroes the counters
//! and drops the strobes of its own cycle; a strobe registered the cycle
//! before a `reset` is lost with the counters.
//!
//! # Bad input
//! Any flags count as stated: the dispatcher raises one a decision, but
//! two raised at once each count.
//!
//! Golden twin: `nic_golden::roce::dispatch_counters`.

use crate::roce::RxDispatchStatsSource;
use rust_hdl::prelude::*;
use smart_default::SmartDefault;

#[derive(LogicBlock, SmartDefault)]
pub struct DispatchCounters {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub count: Signal<In, Bit>,
    pub unknown_flow: Signal<In, Bit>,
    pub oos: Signal<In, Bit>,
    pub dup: Signal<In, Bit>,
    pub bad_psn: Signal<In, Bit>,
    pub accepted: Signal<In, Bit>,
    pub bad_va: Signal<In, Bit>,
    pub bad_op: Signal<In, Bit>,
    pub refused: Signal<In, Bit>,
    pub m_stats: RxDispatchStatsSource,
    c_unknown: DFF<Bits<32>>,
    c_oos: DFF<Bits<32>>,
    c_dup: DFF<Bits<32>>,
    c_bad_psn: DFF<Bits<32>>,
    c_accepted: DFF<Bits<32>>,
    c_bad_va: DFF<Bits<32>>,
    c_bad_op: DFF<Bits<32>>,
    c_refused: DFF<Bits<32>>,
    // The strobes, registered: each counter adds a flip-flop, so the
    // dispatcher's decision ends at these (R1), not at 32-bit enables.
    s_unknown: DFF<Bit>,
    s_oos: DFF<Bit>,
    s_dup: DFF<Bit>,
    s_bad_psn: DFF<Bit>,
    s_accepted: DFF<Bit>,
    s_bad_va: DFF<Bit>,
    s_bad_op: DFF<Bit>,
    s_refused: DFF<Bit>,
}

impl Logic for DispatchCounters {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, c_unknown, c_oos, c_dup, c_bad_psn, c_accepted, c_bad_va, c_bad_op,
            c_refused, s_unknown, s_oos, s_dup, s_bad_psn, s_accepted, s_bad_va, s_bad_op,
            s_refused
        );
        if self.reset.val() {
            self.c_unknown.d.next = 0.into();
            self.c_oos.d.next = 0.into();
            self.c_dup.d.next = 0.into();
            self.c_bad_psn.d.next = 0.into();
            self.c_accepted.d.next = 0.into();
            self.c_bad_va.d.next = 0.into();
            self.c_refused.d.next = 0.into();
            self.c_bad_op.d.next = 0.into();
        } else {
            if self.s_unknown.q.val() {
                self.c_unknown.d.next = (self.c_unknown.q.val() + 1);
            }
            if self.s_oos.q.val() {
                self.c_oos.d.next = (self.c_oos.q.val() + 1);
            }
            if self.s_dup.q.val() {
                self.c_dup.d.next = (self.c_dup.q.val() + 1);
            }
            if self.s_bad_psn.q.val() {
                self.c_bad_psn.d.next = (self.c_bad_psn.q.val() + 1);
            }
            if self.s_accepted.q.val() {
                self.c_accepted.d.next = (self.c_accepted.q.val() + 1);
            }
            if self.s_bad_va.q.val() {
                self.c_bad_va.d.next = (self.c_bad_va.q.val() + 1);
            }
            if self.s_bad_op.q.val() {
                self.c_bad_op.d.next = (self.c_bad_op.q.val() + 1);
            }
            if self.s_refused.q.val() {
                self.c_refused.d.next = (self.c_refused.q.val() + 1);
            }
        }
        // A decision in a reset cycle is not counted.
        self.s_unknown.d.next =
            ((!self.reset.val() && self.count.val()) && self.unknown_flow.val());
        self.s_oos.d.next = ((!self.reset.val() && self.count.val()) && self.oos.val());
        self.s_dup.d.next = ((!self.reset.val() && self.count.val()) && self.dup.val());
        self.s_bad_psn.d.next = ((!self.reset.val() && self.count.val()) && self.bad_psn.val());
        self.s_accepted.d.next = ((!self.reset.val() && self.count.val()) && self.accepted.val());
        self.s_bad_va.d.next = ((!self.reset.val() && self.count.val()) && self.bad_va.val());
        self.s_bad_op.d.next = ((!self.reset.val() && self.count.val()) && self.bad_op.val());
        self.s_refused.d.next = ((!self.reset.val() && self.count.val()) && self.refused.val());
        self.m_stats.unknown_flow.next = self.c_unknown.q.val();
        self.m_stats.oos.next = self.c_oos.q.val();
        self.m_stats.dup.next = self.c_dup.q.val();
        self.m_stats.bad_psn.next = self.c_bad_psn.q.val();
        self.m_stats.accepted.next = self.c_accepted.q.val();
        self.m_stats.bad_va.next = self.c_bad_va.q.val();
        self.m_stats.refused.next = self.c_refused.q.val();
        self.m_stats.bad_op.next = self.c_bad_op.q.val();
    }
}
