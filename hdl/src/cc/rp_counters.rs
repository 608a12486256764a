//! The DCQCN reaction point's counters: what each retired operation
//! counts (`DcqcnRp`'s "Bad input" and `m_stats`). A block of
//! [`DcqcnRp`](super::dcqcn::DcqcnRp), at its stage S8.
//!
//! # Ports (clock `clock`; no reset: the counters wrap)
//! - In, one cycle per retired operation (S8), and `coalesced` at the
//!   slice's head: `ev` (an event retired, its flow in range or not),
//!   `coalesced` (a CNP merged into one of its flow in S1..S8 this
//!   cycle), `cnp`, `sent`, `visit` (a CNP, a SENT of a created flow, a
//!   visit retired), `cut` (a CNP's or a visit's cut), `increase` (an
//!   increase step), `held` (a CNP whose cut waits), `recovered`,
//!   `drop_flow` (a flow out of range or not created), `late`.
//! - Out: `m_stats` ([`DcqcnStatsSource`], 32-bit wrapping counters,
//!   each a flip-flop): `events` counts `ev` and `coalesced` (both in a
//!   cycle: 2), `coalesced` counts `coalesced`, and each other counter
//!   its flag: `cnps`, `sents`, `visits`, `cuts`, `increases`, `held`,
//!   `recovered`, `drop_flow`, `timer_late` (`late`).
//!
//! # Timing
//! A count is on `m_stats` the cycle after its flags; one 32-bit
//! increment per counter a cycle.
//!
//! # Bad input
//! Any flags count as stated: they are the parent's verdicts, taken as
//! they come.
//!
//! Golden twin: `nic_golden::cc::rp_counters`.

use crate::cc::DcqcnStatsSource;
use rust_hdl::prelude::*;
use smart_default::SmartDefault;

#[derive(LogicBlock, SmartDefault)]
pub struct RpCounters {
    pub clock: Signal<In, Clock>,
    pub ev: Signal<In, Bit>,
    pub coalesced: Signal<In, Bit>,
    pub cnp: Signal<In, Bit>,
    pub sent: Signal<In, Bit>,
    pub visit: Signal<In, Bit>,
    pub cut: Signal<In, Bit>,
    pub increase: Signal<In, Bit>,
    pub held: Signal<In, Bit>,
    pub recovered: Signal<In, Bit>,
    pub drop_flow: Signal<In, Bit>,
    pub late: Signal<In, Bit>,
    pub m_stats: DcqcnStatsSource,
    c_events: DFF<Bits<32>>,
    c_cnps: DFF<Bits<32>>,
    c_sents: DFF<Bits<32>>,
    c_visits: DFF<Bits<32>>,
    c_cuts: DFF<Bits<32>>,
    c_increases: DFF<Bits<32>>,
    c_held: DFF<Bits<32>>,
    c_recovered: DFF<Bits<32>>,
    c_coalesced: DFF<Bits<32>>,
    c_drop_flow: DFF<Bits<32>>,
    c_timer_late: DFF<Bits<32>>,
}

impl Logic for RpCounters {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            c_events,
            c_cnps,
            c_sents,
            c_visits,
            c_cuts,
            c_increases,
            c_held,
            c_recovered,
            c_coalesced,
            c_drop_flow,
            c_timer_late
        );
        self.m_stats.events.next = self.c_events.q.val();
        self.m_stats.cnps.next = self.c_cnps.q.val();
        self.m_stats.sents.next = self.c_sents.q.val();
        self.m_stats.visits.next = self.c_visits.q.val();
        self.m_stats.cuts.next = self.c_cuts.q.val();
        self.m_stats.increases.next = self.c_increases.q.val();
        self.m_stats.held.next = self.c_held.q.val();
        self.m_stats.recovered.next = self.c_recovered.q.val();
        self.m_stats.coalesced.next = self.c_coalesced.q.val();
        self.m_stats.drop_flow.next = self.c_drop_flow.q.val();
        self.m_stats.timer_late.next = self.c_timer_late.q.val();
        if (self.ev.val() && self.coalesced.val()) {
            self.c_events.d.next = (self.c_events.q.val() + 2);
        } else if (self.ev.val() || self.coalesced.val()) {
            self.c_events.d.next = (self.c_events.q.val() + 1);
        }
        if self.coalesced.val() {
            self.c_coalesced.d.next = (self.c_coalesced.q.val() + 1);
        }
        if self.cnp.val() {
            self.c_cnps.d.next = (self.c_cnps.q.val() + 1);
        }
        if self.sent.val() {
            self.c_sents.d.next = (self.c_sents.q.val() + 1);
        }
        if self.visit.val() {
            self.c_visits.d.next = (self.c_visits.q.val() + 1);
        }
        if self.cut.val() {
            self.c_cuts.d.next = (self.c_cuts.q.val() + 1);
        }
        if self.increase.val() {
            self.c_increases.d.next = (self.c_increases.q.val() + 1);
        }
        if self.held.val() {
            self.c_held.d.next = (self.c_held.q.val() + 1);
        }
        if self.recovered.val() {
            self.c_recovered.d.next = (self.c_recovered.q.val() + 1);
        }
        if self.drop_flow.val() {
            self.c_drop_flow.d.next = (self.c_drop_flow.q.val() + 1);
        }
        if self.late.val() {
            self.c_timer_late.d.next = (self.c_timer_late.q.val() + 1);
        }
    }
}
