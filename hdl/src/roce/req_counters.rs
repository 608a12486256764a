//! The requester's counters (`Requester`'s "Bad input"): one strobe
//! per counter, each counting where the requester's states say. A block
//! of [`Requester`](super::requester::Requester).
//!
//! # Ports (clock `clock`; no reset: the counters wrap)
//! - In, one bit each, high in a cycle the requester counts it:
//!   `posted` (a work request into its ring), `completed` (one completed
//!   OK by an acknowledgement or its responses), `err_opcode`, `err_len`,
//!   `err_flow`, `err_full` (a work request refused, completed with that
//!   status), `stale` (a PktSend of an older epoch, another seq or length
//!   0), `trims` (a PktSend cut), `timeouts`, `naks`, `ack_ahead`
//!   (feedback past every PSN sent), `bad_fb`, `remote_err` (a fatal
//!   NAK), `retry_exceeded`, `flushed` (a work request completed
//!   `Flushed`).
//! - Out: `m_stats` ([`ReqStatsSource`], 32-bit wrapping counters of the
//!   same names, each a flip-flop).
//!
//! # Timing
//! A count is on `m_stats` the cycle after its strobe; one 32-bit
//! increment per counter a cycle.
//!
//! # Bad input
//! None: a strobe counts as it comes.
//!
//! Golden twin: `nic_golden::roce::req_counters`.

use crate::roce::ReqStatsSource;
use rust_hdl::prelude::*;

#[derive(LogicBlock, Default)]
pub struct ReqCounters {
    pub clock: Signal<In, Clock>,
    pub posted: Signal<In, Bit>,
    pub completed: Signal<In, Bit>,
    pub err_opcode: Signal<In, Bit>,
    pub err_len: Signal<In, Bit>,
    pub err_flow: Signal<In, Bit>,
    pub err_full: Signal<In, Bit>,
    pub stale: Signal<In, Bit>,
    pub trims: Signal<In, Bit>,
    pub timeouts: Signal<In, Bit>,
    pub naks: Signal<In, Bit>,
    pub ack_ahead: Signal<In, Bit>,
    pub bad_fb: Signal<In, Bit>,
    pub remote_err: Signal<In, Bit>,
    pub retry_exceeded: Signal<In, Bit>,
    pub flushed: Signal<In, Bit>,
    pub m_stats: ReqStatsSource,
    c_posted: DFF<Bits<32>>,
    c_completed: DFF<Bits<32>>,
    c_err_opcode: DFF<Bits<32>>,
    c_err_len: DFF<Bits<32>>,
    c_err_flow: DFF<Bits<32>>,
    c_err_full: DFF<Bits<32>>,
    c_stale: DFF<Bits<32>>,
    c_trims: DFF<Bits<32>>,
    c_timeouts: DFF<Bits<32>>,
    c_naks: DFF<Bits<32>>,
    c_ack_ahead: DFF<Bits<32>>,
    c_bad_fb: DFF<Bits<32>>,
    c_remote_err: DFF<Bits<32>>,
    c_retry_exceeded: DFF<Bits<32>>,
    c_flushed: DFF<Bits<32>>,
}

impl Logic for ReqCounters {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            c_posted,
            c_completed,
            c_err_opcode,
            c_err_len,
            c_err_flow,
            c_err_full,
            c_stale,
            c_trims,
            c_timeouts,
            c_naks,
            c_ack_ahead,
            c_bad_fb,
            c_remote_err,
            c_retry_exceeded,
            c_flushed
        );
        if self.posted.val() {
            self.c_posted.d.next = (self.c_posted.q.val() + 1);
        }
        if self.completed.val() {
            self.c_completed.d.next = (self.c_completed.q.val() + 1);
        }
        if self.err_opcode.val() {
            self.c_err_opcode.d.next = (self.c_err_opcode.q.val() + 1);
        }
        if self.err_len.val() {
            self.c_err_len.d.next = (self.c_err_len.q.val() + 1);
        }
        if self.err_flow.val() {
            self.c_err_flow.d.next = (self.c_err_flow.q.val() + 1);
        }
        if self.err_full.val() {
            self.c_err_full.d.next = (self.c_err_full.q.val() + 1);
        }
        if self.stale.val() {
            self.c_stale.d.next = (self.c_stale.q.val() + 1);
        }
        if self.trims.val() {
            self.c_trims.d.next = (self.c_trims.q.val() + 1);
        }
        if self.timeouts.val() {
            self.c_timeouts.d.next = (self.c_timeouts.q.val() + 1);
        }
        if self.naks.val() {
            self.c_naks.d.next = (self.c_naks.q.val() + 1);
        }
        if self.ack_ahead.val() {
            self.c_ack_ahead.d.next = (self.c_ack_ahead.q.val() + 1);
        }
        if self.bad_fb.val() {
            self.c_bad_fb.d.next = (self.c_bad_fb.q.val() + 1);
        }
        if self.remote_err.val() {
            self.c_remote_err.d.next = (self.c_remote_err.q.val() + 1);
        }
        if self.retry_exceeded.val() {
            self.c_retry_exceeded.d.next = (self.c_retry_exceeded.q.val() + 1);
        }
        if self.flushed.val() {
            self.c_flushed.d.next = (self.c_flushed.q.val() + 1);
        }
        self.m_stats.posted.next = self.c_posted.q.val();
        self.m_stats.completed.next = self.c_completed.q.val();
        self.m_stats.err_opcode.next = self.c_err_opcode.q.val();
        self.m_stats.err_len.next = self.c_err_len.q.val();
        self.m_stats.err_flow.next = self.c_err_flow.q.val();
        self.m_stats.err_full.next = self.c_err_full.q.val();
        self.m_stats.stale.next = self.c_stale.q.val();
        self.m_stats.trims.next = self.c_trims.q.val();
        self.m_stats.timeouts.next = self.c_timeouts.q.val();
        self.m_stats.naks.next = self.c_naks.q.val();
        self.m_stats.ack_ahead.next = self.c_ack_ahead.q.val();
        self.m_stats.bad_fb.next = self.c_bad_fb.q.val();
        self.m_stats.remote_err.next = self.c_remote_err.q.val();
        self.m_stats.retry_exceeded.next = self.c_retry_exceeded.q.val();
        self.m_stats.flushed.next = self.c_flushed.q.val();
    }
}
