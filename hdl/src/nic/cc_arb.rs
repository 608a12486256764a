//! The CC module's event port, shared by flow creation, the requester's
//! ACK telemetry and the receiver's data-packet telemetry.
//!
//! # Ports (clock `clock`; no reset)
//! - `s_ctl` (`CcEvent`, ready): CREATE / DESTROY from the configuration
//!   registers; goes first (one per flow commit).
//! - `s_ack` (`CcEvent`, ready): the requester's events (an ACK's seq,
//!   snd_nxt and hops; `variant` 0, NewAck).
//! - `s_int` (`CcEvent`, ready): the receiver's events (`IntTap`: a data
//!   packet's hops and the time; `variant` 1, NewINT).
//! - `s_ack` and `s_int` alternate when both wait (round robin), so
//!   neither starves. Both go to the CC module whatever the flow's
//!   variant: it keeps each flow's variant and drops (and counts,
//!   `drop_variant`) the events of the other one.
//! - `m_event` (`CcEvent`, ready) to the CC module.
//!
//! # Structure and timing (the timing rules R1 and R2,
//! `docs/architecture.md` §5i)
//! Each source has a holding register of its own (`CcEvent::Hold`): its
//! `ready` is that register's being empty (a flop), never the other
//! sources' `valid` or `m_event.ready`. `m_event` is the select of the
//! held events (`valid` their OR, the select from the registers' flags
//! and the turn): every path to `m_event` starts at a flip-flop, and the
//! CC module's own register slice (`CcEvent::Slice`) is the register on
//! its far side, so the 439-bit record is not registered a third time.
//! An event is on `m_event` the cycle after its handshake; each source
//! passes one event every 2 cycles (an ACK or a data packet takes at
//! least 8 cycles on the wire). State: the three registers, the turn.
//!
//! # Bad input
//! None: the fields pass unchanged; the CC module checks them.
//!
//! Golden twin: `nic_golden::nic::cc_arb`.

use crate::cc::{CcEvent, CcEventSink, CcEventSource};
use rust_hdl::prelude::*;

#[derive(LogicBlock, Default)]
pub struct CcArb {
    pub clock: Signal<In, Clock>,
    pub s_ctl: CcEventSink,
    pub s_ack: CcEventSink,
    pub s_int: CcEventSink,
    pub m_event: CcEventSource,
    /// The holding registers, one per source, and their flags.
    held_ctl: CcEvent::Hold,
    held_ack: CcEvent::Hold,
    held_int: CcEvent::Hold,
    ctl_v: DFF<Bit>,
    ack_v: DFF<Bit>,
    int_v: DFF<Bit>,
    /// 1: the receiver's events go first when both wait.
    turn_int: DFF<Bit>,
    pick_int: Signal<Local, Bit>,
    pick_ack: Signal<Local, Bit>,
    /// `m_event`'s handshake.
    taken: Signal<Local, Bit>,
}

impl Logic for CcArb {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, ctl_v, ack_v, int_v, turn_int);
        self.held_ctl.clock.next = self.clock.val();
        self.held_ack.clock.next = self.clock.val();
        self.held_int.clock.next = self.clock.val();
        // Ports: every ready is a flop, and m_event selects flops.
        self.s_ctl.ready.next = !self.ctl_v.q.val();
        self.s_ack.ready.next = !self.ack_v.q.val();
        self.s_int.ready.next = !self.int_v.q.val();
        self.pick_int.next = (!self.ctl_v.q.val()
            && self.int_v.q.val()
            && (!self.ack_v.q.val() || self.turn_int.q.val()));
        self.pick_ack.next = (!self.ctl_v.q.val() && !self.pick_int.val() && self.ack_v.q.val());
        self.m_event.valid.next =
            (self.ctl_v.q.val() || (self.ack_v.q.val() || self.int_v.q.val()));
        if self.ctl_v.q.val() {
            self.m_event.op.next = self.held_ctl.q.op.val();
            self.m_event.variant.next = self.held_ctl.q.variant.val();
            self.m_event.flow.next = self.held_ctl.q.flow.val();
            self.m_event.seq.next = self.held_ctl.q.seq.val();
            self.m_event.snd_nxt.next = self.held_ctl.q.snd_nxt.val();
            self.m_event.now.next = self.held_ctl.q.now.val();
            self.m_event.nhops.next = self.held_ctl.q.nhops.val();
            self.m_event.hop0.next = self.held_ctl.q.hop0.val();
            self.m_event.hop1.next = self.held_ctl.q.hop1.val();
            self.m_event.hop2.next = self.held_ctl.q.hop2.val();
            self.m_event.hop3.next = self.held_ctl.q.hop3.val();
            self.m_event.hop4.next = self.held_ctl.q.hop4.val();
        } else if self.pick_int.val() {
            self.m_event.op.next = self.held_int.q.op.val();
            self.m_event.variant.next = self.held_int.q.variant.val();
            self.m_event.flow.next = self.held_int.q.flow.val();
            self.m_event.seq.next = self.held_int.q.seq.val();
            self.m_event.snd_nxt.next = self.held_int.q.snd_nxt.val();
            self.m_event.now.next = self.held_int.q.now.val();
            self.m_event.nhops.next = self.held_int.q.nhops.val();
            self.m_event.hop0.next = self.held_int.q.hop0.val();
            self.m_event.hop1.next = self.held_int.q.hop1.val();
            self.m_event.hop2.next = self.held_int.q.hop2.val();
            self.m_event.hop3.next = self.held_int.q.hop3.val();
            self.m_event.hop4.next = self.held_int.q.hop4.val();
        } else {
            self.m_event.op.next = self.held_ack.q.op.val();
            self.m_event.variant.next = self.held_ack.q.variant.val();
            self.m_event.flow.next = self.held_ack.q.flow.val();
            self.m_event.seq.next = self.held_ack.q.seq.val();
            self.m_event.snd_nxt.next = self.held_ack.q.snd_nxt.val();
            self.m_event.now.next = self.held_ack.q.now.val();
            self.m_event.nhops.next = self.held_ack.q.nhops.val();
            self.m_event.hop0.next = self.held_ack.q.hop0.val();
            self.m_event.hop1.next = self.held_ack.q.hop1.val();
            self.m_event.hop2.next = self.held_ack.q.hop2.val();
            self.m_event.hop3.next = self.held_ack.q.hop3.val();
            self.m_event.hop4.next = self.held_ack.q.hop4.val();
        }
        // The handshake empties the register it took.
        self.taken.next = (self.m_event.valid.val() && self.m_event.ready.val());
        if self.taken.val() {
            if self.ctl_v.q.val() {
                self.ctl_v.d.next = false;
            } else if self.pick_int.val() {
                self.int_v.d.next = false;
            } else {
                self.ack_v.d.next = false;
            }
            if (self.pick_int.val() || self.pick_ack.val()) {
                self.turn_int.d.next = self.pick_ack.val();
            }
        }
        // A register takes its source's event when empty.
        self.held_ctl.load.next = (self.s_ctl.valid.val() && !self.ctl_v.q.val());
        self.held_ack.load.next = (self.s_ack.valid.val() && !self.ack_v.q.val());
        self.held_int.load.next = (self.s_int.valid.val() && !self.int_v.q.val());
        if self.held_ctl.load.val() {
            self.ctl_v.d.next = true;
        }
        if self.held_ack.load.val() {
            self.ack_v.d.next = true;
        }
        if self.held_int.load.val() {
            self.int_v.d.next = true;
        }
        self.held_ctl.d.op.next = self.s_ctl.op.val();
        self.held_ctl.d.variant.next = self.s_ctl.variant.val();
        self.held_ctl.d.flow.next = self.s_ctl.flow.val();
        self.held_ctl.d.seq.next = self.s_ctl.seq.val();
        self.held_ctl.d.snd_nxt.next = self.s_ctl.snd_nxt.val();
        self.held_ctl.d.now.next = self.s_ctl.now.val();
        self.held_ctl.d.nhops.next = self.s_ctl.nhops.val();
        self.held_ctl.d.hop0.next = self.s_ctl.hop0.val();
        self.held_ctl.d.hop1.next = self.s_ctl.hop1.val();
        self.held_ctl.d.hop2.next = self.s_ctl.hop2.val();
        self.held_ctl.d.hop3.next = self.s_ctl.hop3.val();
        self.held_ctl.d.hop4.next = self.s_ctl.hop4.val();
        self.held_ack.d.op.next = self.s_ack.op.val();
        self.held_ack.d.variant.next = self.s_ack.variant.val();
        self.held_ack.d.flow.next = self.s_ack.flow.val();
        self.held_ack.d.seq.next = self.s_ack.seq.val();
        self.held_ack.d.snd_nxt.next = self.s_ack.snd_nxt.val();
        self.held_ack.d.now.next = self.s_ack.now.val();
        self.held_ack.d.nhops.next = self.s_ack.nhops.val();
        self.held_ack.d.hop0.next = self.s_ack.hop0.val();
        self.held_ack.d.hop1.next = self.s_ack.hop1.val();
        self.held_ack.d.hop2.next = self.s_ack.hop2.val();
        self.held_ack.d.hop3.next = self.s_ack.hop3.val();
        self.held_ack.d.hop4.next = self.s_ack.hop4.val();
        self.held_int.d.op.next = self.s_int.op.val();
        self.held_int.d.variant.next = self.s_int.variant.val();
        self.held_int.d.flow.next = self.s_int.flow.val();
        self.held_int.d.seq.next = self.s_int.seq.val();
        self.held_int.d.snd_nxt.next = self.s_int.snd_nxt.val();
        self.held_int.d.now.next = self.s_int.now.val();
        self.held_int.d.nhops.next = self.s_int.nhops.val();
        self.held_int.d.hop0.next = self.s_int.hop0.val();
        self.held_int.d.hop1.next = self.s_int.hop1.val();
        self.held_int.d.hop2.next = self.s_int.hop2.val();
        self.held_int.d.hop3.next = self.s_int.hop3.val();
        self.held_int.d.hop4.next = self.s_int.hop4.val();
    }
}
