//! The CC module's event port, shared by flow creation, the requester's
//! ACK telemetry and the receiver's data-packet telemetry.
//!
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
//! - `m_event` (`CcEvent`) to the CC module, combinational from the
//!   inputs (`valid` from the sources' `valid` only).
//!
//! State: the turn (one bit). No latency. Golden twin:
//! `nic_golden::nic::cc_arb`.

use crate::cc::{CcEventSink, CcEventSource};
use rust_hdl::prelude::*;

#[derive(LogicBlock, Default)]
pub struct CcArb {
    pub clock: Signal<In, Clock>,
    pub s_ctl: CcEventSink,
    pub s_ack: CcEventSink,
    pub s_int: CcEventSink,
    pub m_event: CcEventSource,
    /// 1: the receiver's events go first when both wait.
    turn_int: DFF<Bit>,
    pick_int: Signal<Local, Bit>,
    pick_ack: Signal<Local, Bit>,
}

impl Logic for CcArb {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, turn_int);
        self.pick_int.next = (!self.s_ctl.valid.val()
            && self.s_int.valid.val()
            && (!self.s_ack.valid.val() || self.turn_int.q.val()));
        self.pick_ack.next =
            (!self.s_ctl.valid.val() && !self.pick_int.val() && self.s_ack.valid.val());
        if (self.m_event.ready.val() && (self.pick_int.val() || self.pick_ack.val())) {
            self.turn_int.d.next = self.pick_ack.val();
        }
        self.m_event.valid.next =
            (self.s_ctl.valid.val() || (self.s_ack.valid.val() || self.s_int.valid.val()));
        self.s_ctl.ready.next = self.m_event.ready.val();
        self.s_ack.ready.next = (self.m_event.ready.val() && self.pick_ack.val());
        self.s_int.ready.next = (self.m_event.ready.val() && self.pick_int.val());
        if self.s_ctl.valid.val() {
            self.m_event.op.next = self.s_ctl.op.val();
            self.m_event.variant.next = self.s_ctl.variant.val();
            self.m_event.flow.next = self.s_ctl.flow.val();
            self.m_event.seq.next = self.s_ctl.seq.val();
            self.m_event.snd_nxt.next = self.s_ctl.snd_nxt.val();
            self.m_event.now.next = self.s_ctl.now.val();
            self.m_event.nhops.next = self.s_ctl.nhops.val();
            self.m_event.hop0.next = self.s_ctl.hop0.val();
            self.m_event.hop1.next = self.s_ctl.hop1.val();
            self.m_event.hop2.next = self.s_ctl.hop2.val();
            self.m_event.hop3.next = self.s_ctl.hop3.val();
            self.m_event.hop4.next = self.s_ctl.hop4.val();
        } else if self.pick_int.val() {
            self.m_event.op.next = self.s_int.op.val();
            self.m_event.variant.next = self.s_int.variant.val();
            self.m_event.flow.next = self.s_int.flow.val();
            self.m_event.seq.next = self.s_int.seq.val();
            self.m_event.snd_nxt.next = self.s_int.snd_nxt.val();
            self.m_event.now.next = self.s_int.now.val();
            self.m_event.nhops.next = self.s_int.nhops.val();
            self.m_event.hop0.next = self.s_int.hop0.val();
            self.m_event.hop1.next = self.s_int.hop1.val();
            self.m_event.hop2.next = self.s_int.hop2.val();
            self.m_event.hop3.next = self.s_int.hop3.val();
            self.m_event.hop4.next = self.s_int.hop4.val();
        } else {
            self.m_event.op.next = self.s_ack.op.val();
            self.m_event.variant.next = self.s_ack.variant.val();
            self.m_event.flow.next = self.s_ack.flow.val();
            self.m_event.seq.next = self.s_ack.seq.val();
            self.m_event.snd_nxt.next = self.s_ack.snd_nxt.val();
            self.m_event.now.next = self.s_ack.now.val();
            self.m_event.nhops.next = self.s_ack.nhops.val();
            self.m_event.hop0.next = self.s_ack.hop0.val();
            self.m_event.hop1.next = self.s_ack.hop1.val();
            self.m_event.hop2.next = self.s_ack.hop2.val();
            self.m_event.hop3.next = self.s_ack.hop3.val();
            self.m_event.hop4.next = self.s_ack.hop4.val();
        }
    }
}
