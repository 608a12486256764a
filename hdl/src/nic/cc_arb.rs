//! The CC module's event port, shared by flow creation and the
//! requester's ACK telemetry.
//!
//! - `s_ctl` (`CcEvent`, ready): CREATE / DESTROY from the configuration
//!   registers; goes first (one per flow commit).
//! - `s_ack` (`CcEvent`, ready): the requester's events (an ACK's seq,
//!   snd_nxt and hops).
//! - `m_event` (`CcEvent`) to the CC module, combinational from the
//!   inputs (`valid` from the sources' `valid` only).
//!
//! No state, no latency. Golden twin: `nic_golden::nic::cc_arb`.

use crate::cc::{CcEventSink, CcEventSource};
use rust_hdl::prelude::*;

#[derive(LogicBlock, Default)]
pub struct CcArb {
    pub clock: Signal<In, Clock>,
    pub s_ctl: CcEventSink,
    pub s_ack: CcEventSink,
    pub m_event: CcEventSource,
}

impl Logic for CcArb {
    #[hdl_gen]
    fn update(&mut self) {
        self.m_event.valid.next = (self.s_ctl.valid.val() || self.s_ack.valid.val());
        self.s_ctl.ready.next = self.m_event.ready.val();
        self.s_ack.ready.next = (self.m_event.ready.val() && !self.s_ctl.valid.val());
        if self.s_ctl.valid.val() {
            self.m_event.op.next = self.s_ctl.op.val();
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
        } else {
            self.m_event.op.next = self.s_ack.op.val();
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
