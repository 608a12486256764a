//! `EvMerge`: the requester's scheduler events, merged per flow while the
//! scheduler holds them, so the requester never waits on the scheduler's
//! flow interlock.
//!
//! # Why
//! The scheduler blocks a flow for 11 cycles after each operation on it
//! (its read-modify-write pipeline). One flow of small messages makes a
//! DOORBELL and an ACK per message; with the requester waiting on each,
//! the two events kept the flow busy and the requester stalled, and one
//! flow of 64-byte WRITEs reached 0.763 of the wire's frame rate. Here a
//! held event takes in the flow's next ones instead.
//!
//! # What it does
//! - **`held`**: the event offered on `m_ev`. An event offered on `s_req`
//!   when `held` is empty, or is being taken, becomes `held` the next
//!   cycle.
//! - **Merging.** An event of the same flow as a `held` that is not being
//!   taken merges into it when both are DOORBELL, ACK or ACK_DB
//!   (`nic_spec::sched::OP_ACK_DB`): the newer ACK's snd_una wins (ACKs
//!   are cumulative), DOORBELL bytes add (32 bits, wrapping, as the
//!   scheduler's `end`); the result is a DOORBELL, an ACK or an ACK_DB
//!   (a = snd_una, b = bytes). A merged event's `b` is the newer one's
//!   when it is not an ACK_DB. Counted in `merged`.
//! - **`waiting`**: any other event (another flow, or INIT, REWIND, TRIM)
//!   waits here until `held` is taken, so every flow's events reach the
//!   scheduler in their order, and no event merges across an INIT,
//!   REWIND or TRIM. While it waits, `s_req.ready` is low.
//!
//! # Ports (clock `clock`)
//! - `s_req` (`SchedEvent`, valid/ready): from the requester.
//! - `m_ev` (`SchedEvent`, valid/ready): to `EvArb.s_req`.
//! - `merged`: events merged into a held one (32 bits, wrapping).
//!
//! # Timing
//! Every output is a register: `m_ev.valid` and its fields are `held`,
//! `s_req.ready` is `waiting` empty. An event offered in cycle t is on
//! `m_ev` from t + 1 when nothing waits. One event a cycle. The merge is
//! a 16-bit compare and a 32-bit add into `held`'s register.
//!
//! # Bad input
//! None is possible: every op and flow is passed on (the scheduler
//! refuses and counts what is out of range); only the three ops above
//! merge. A merged ACK_DB is checked by the scheduler as one event: if
//! either part fails, both are dropped and counted (`bad_ack`,
//! `bad_doorbell`).
//!
//! Golden twin: `nic_golden::nic::ev_merge`.

use crate::sched::{SchedEventSink, SchedEventSource};
use rust_hdl::prelude::*;
use smart_default::SmartDefault;

#[derive(LogicBlock, SmartDefault)]
pub struct EvMerge {
    pub clock: Signal<In, Clock>,
    pub s_req: SchedEventSink,
    pub m_ev: SchedEventSource,
    pub merged: Signal<Out, Bits<32>>,
    held_v: DFF<Bit>,
    held_op: DFF<Bits<3>>,
    held_flow: DFF<Bits<16>>,
    held_a: DFF<Bits<32>>,
    held_b: DFF<Bits<32>>,
    wait_v: DFF<Bit>,
    wait_op: DFF<Bits<3>>,
    wait_flow: DFF<Bits<16>>,
    wait_a: DFF<Bits<32>>,
    wait_b: DFF<Bits<32>>,
    n_merged: DFF<Bits<32>>,
    #[default(Constant::new(Bits::<3>::from(nic_spec::sched::OP_DOORBELL as u64)))]
    k_db: Constant<Bits<3>>,
    #[default(Constant::new(Bits::<3>::from(nic_spec::sched::OP_ACK as u64)))]
    k_ack: Constant<Bits<3>>,
    #[default(Constant::new(Bits::<3>::from(nic_spec::sched::OP_ACK_DB as u64)))]
    k_ack_db: Constant<Bits<3>>,
    taken: Signal<Local, Bit>,
    held_free: Signal<Local, Bit>,
    /// The held event's parts: an ACK (snd_una in `held_a`), DOORBELL
    /// bytes (`held_a` of a DOORBELL, `held_b` of an ACK_DB).
    h_ack: Signal<Local, Bit>,
    h_db: Signal<Local, Bit>,
    h_bytes: Signal<Local, Bits<32>>,
    /// The same for the offered event.
    n_ack: Signal<Local, Bit>,
    n_db: Signal<Local, Bit>,
    n_bytes: Signal<Local, Bits<32>>,
    mergeable: Signal<Local, Bit>,
    bytes_sum: Signal<Local, Bits<32>>,
}

impl Logic for EvMerge {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, held_v, held_op, held_flow, held_a, held_b, wait_v, wait_op, wait_flow,
            wait_a, wait_b, n_merged
        );
        self.taken.next = (self.held_v.q.val() && self.m_ev.ready.val());
        self.held_free.next = (!self.held_v.q.val() || self.taken.val());
        // ---- The parts of the held and the offered event.
        self.h_ack.next = ((self.held_op.q.val() == self.k_ack.val())
            || (self.held_op.q.val() == self.k_ack_db.val()));
        self.h_db.next = ((self.held_op.q.val() == self.k_db.val())
            || (self.held_op.q.val() == self.k_ack_db.val()));
        self.h_bytes.next = 0.into();
        if (self.held_op.q.val() == self.k_db.val()) {
            self.h_bytes.next = self.held_a.q.val();
        } else if (self.held_op.q.val() == self.k_ack_db.val()) {
            self.h_bytes.next = self.held_b.q.val();
        }
        self.n_ack.next = ((self.s_req.op.val() == self.k_ack.val())
            || (self.s_req.op.val() == self.k_ack_db.val()));
        self.n_db.next = ((self.s_req.op.val() == self.k_db.val())
            || (self.s_req.op.val() == self.k_ack_db.val()));
        self.n_bytes.next = 0.into();
        if (self.s_req.op.val() == self.k_db.val()) {
            self.n_bytes.next = self.s_req.a.val();
        } else if (self.s_req.op.val() == self.k_ack_db.val()) {
            self.n_bytes.next = self.s_req.b.val();
        }
        self.mergeable.next = ((self.s_req.flow.val() == self.held_flow.q.val())
            && (self.h_ack.val() || self.h_db.val())
            && (self.n_ack.val() || self.n_db.val()));
        self.bytes_sum.next = (self.h_bytes.val() + self.n_bytes.val());
        // ---- Next state.
        if self.wait_v.q.val() {
            if self.held_free.val() {
                self.held_v.d.next = true;
                self.held_op.d.next = self.wait_op.q.val();
                self.held_flow.d.next = self.wait_flow.q.val();
                self.held_a.d.next = self.wait_a.q.val();
                self.held_b.d.next = self.wait_b.q.val();
                self.wait_v.d.next = false;
            }
        } else {
            if self.taken.val() {
                self.held_v.d.next = false;
            }
            if self.s_req.valid.val() {
                if self.held_free.val() {
                    self.held_v.d.next = true;
                    self.held_op.d.next = self.s_req.op.val();
                    self.held_flow.d.next = self.s_req.flow.val();
                    self.held_a.d.next = self.s_req.a.val();
                    self.held_b.d.next = self.s_req.b.val();
                } else if self.mergeable.val() {
                    self.n_merged.d.next = (self.n_merged.q.val() + 1);
                    if (self.h_db.val() || self.n_db.val()) {
                        if (self.h_ack.val() || self.n_ack.val()) {
                            self.held_op.d.next = self.k_ack_db.val();
                            self.held_b.d.next = self.bytes_sum.val();
                            if self.n_ack.val() {
                                self.held_a.d.next = self.s_req.a.val();
                            }
                        } else {
                            self.held_op.d.next = self.k_db.val();
                            self.held_a.d.next = self.bytes_sum.val();
                            self.held_b.d.next = self.s_req.b.val();
                        }
                    } else {
                        self.held_op.d.next = self.k_ack.val();
                        self.held_a.d.next = self.s_req.a.val();
                        self.held_b.d.next = self.s_req.b.val();
                    }
                } else {
                    self.wait_v.d.next = true;
                    self.wait_op.d.next = self.s_req.op.val();
                    self.wait_flow.d.next = self.s_req.flow.val();
                    self.wait_a.d.next = self.s_req.a.val();
                    self.wait_b.d.next = self.s_req.b.val();
                }
            }
        }
        // ---- Outputs: registers.
        self.s_req.ready.next = !self.wait_v.q.val();
        self.m_ev.valid.next = self.held_v.q.val();
        self.m_ev.op.next = self.held_op.q.val();
        self.m_ev.flow.next = self.held_flow.q.val();
        self.m_ev.a.next = self.held_a.q.val();
        self.m_ev.b.next = self.held_b.q.val();
        self.merged.next = self.n_merged.q.val();
    }
}
