//! The DCQCN reaction point's event port, shared by flow creation and
//! removal (`CfgRegs.m_rp_ctl`, first) and the CNPs the dispatcher
//! received (`RoceRxDispatch.m_cnp`), then the bytes DCQCN flows sent
//! (`SentTap.m_sent`).
//!
//! # Ports (clock `clock`; no reset)
//! - `s_ctl` (`RpEvent`, ready): CREATE or DESTROY of a flow (one per
//!   commit); it always goes first: commits are rare and the host waits
//!   for them.
//! - `s_cnp` (`RpEvent`, ready): a CNP for a flow (op CNP).
//! - `s_sent` (`RpEvent`, ready): a DCQCN flow's bytes sent (op SENT,
//!   from `SentTap`), last.
//! - `m_event` (`RpEvent`, ready) to `DcqcnRp.s_event`.
//!
//! # Structure and timing (the timing rules R1 and R2,
//! `docs/architecture.md` §5i)
//! Each source has a holding register of its own: its `ready` is that
//! register's being empty (a flop), never the other sources' `valid` or
//! `m_event.ready`. The output is a register too: it loads the first
//! held event of `ctl`, `cnp`, `sent` when it is empty or taken. An event
//! is on `m_event` 2 cycles after its handshake; each source passes one
//! event every 2 cycles (a CNP comes at most once per flow per CNP
//! interval, a SENT once per frame of at least 8 cycles).
//!
//! The reaction point's `ready` may be low for a flow whose operation is
//! in flight (its interlock): the event waits in the output register, a
//! CNP behind it in `cnp`'s, and only a third holds the dispatcher, at
//! most 8 cycles per CNP (the reaction point merges a CNP flood of one
//! flow without an issue slot). A CNP flood of one flow can hold `s_sent`
//! back; `SentTap` then merges or drops (and counts) the bytes, never
//! stalling the Tx.
//!
//! # Bad input
//! None: the fields pass unchanged; the reaction point checks them.
//!
//! Golden twin: `nic_golden::nic::rp_arb`.

use crate::cc::{RpEventSink, RpEventSource};
use rust_hdl::prelude::*;

#[derive(LogicBlock, Default)]
pub struct RpArb {
    pub clock: Signal<In, Clock>,
    pub s_ctl: RpEventSink,
    pub s_cnp: RpEventSink,
    pub s_sent: RpEventSink,
    pub m_event: RpEventSource,
    ctl_v: DFF<Bit>,
    ctl_op: DFF<Bits<2>>,
    ctl_flow: DFF<Bits<16>>,
    ctl_bytes: DFF<Bits<16>>,
    cnp_v: DFF<Bit>,
    cnp_op: DFF<Bits<2>>,
    cnp_flow: DFF<Bits<16>>,
    cnp_bytes: DFF<Bits<16>>,
    sent_v: DFF<Bit>,
    sent_op: DFF<Bits<2>>,
    sent_flow: DFF<Bits<16>>,
    sent_bytes: DFF<Bits<16>>,
    out_v: DFF<Bit>,
    out_op: DFF<Bits<2>>,
    out_flow: DFF<Bits<16>>,
    out_bytes: DFF<Bits<16>>,
    /// The output register takes a held event this cycle.
    load: Signal<Local, Bit>,
}

impl Logic for RpArb {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, ctl_v, ctl_op, ctl_flow, ctl_bytes, cnp_v, cnp_op, cnp_flow, cnp_bytes,
            sent_v, sent_op, sent_flow, sent_bytes, out_v, out_op, out_flow, out_bytes
        );
        // Ports: every ready and the output are flops.
        self.s_ctl.ready.next = !self.ctl_v.q.val();
        self.s_cnp.ready.next = !self.cnp_v.q.val();
        self.s_sent.ready.next = !self.sent_v.q.val();
        self.m_event.valid.next = self.out_v.q.val();
        self.m_event.op.next = self.out_op.q.val();
        self.m_event.flow.next = self.out_flow.q.val();
        self.m_event.bytes.next = self.out_bytes.q.val();
        // The output register: emptied by its handshake, loaded with the
        // first held event when empty or emptied.
        self.load.next = (!self.out_v.q.val() || self.m_event.ready.val());
        if (self.out_v.q.val() && self.m_event.ready.val()) {
            self.out_v.d.next = false;
        }
        if self.load.val() {
            if self.ctl_v.q.val() {
                self.out_v.d.next = true;
                self.out_op.d.next = self.ctl_op.q.val();
                self.out_flow.d.next = self.ctl_flow.q.val();
                self.out_bytes.d.next = self.ctl_bytes.q.val();
                self.ctl_v.d.next = false;
            } else if self.cnp_v.q.val() {
                self.out_v.d.next = true;
                self.out_op.d.next = self.cnp_op.q.val();
                self.out_flow.d.next = self.cnp_flow.q.val();
                self.out_bytes.d.next = self.cnp_bytes.q.val();
                self.cnp_v.d.next = false;
            } else if self.sent_v.q.val() {
                self.out_v.d.next = true;
                self.out_op.d.next = self.sent_op.q.val();
                self.out_flow.d.next = self.sent_flow.q.val();
                self.out_bytes.d.next = self.sent_bytes.q.val();
                self.sent_v.d.next = false;
            }
        }
        // The holding registers take an event when empty.
        if (self.s_ctl.valid.val() && !self.ctl_v.q.val()) {
            self.ctl_v.d.next = true;
            self.ctl_op.d.next = self.s_ctl.op.val();
            self.ctl_flow.d.next = self.s_ctl.flow.val();
            self.ctl_bytes.d.next = self.s_ctl.bytes.val();
        }
        if (self.s_cnp.valid.val() && !self.cnp_v.q.val()) {
            self.cnp_v.d.next = true;
            self.cnp_op.d.next = self.s_cnp.op.val();
            self.cnp_flow.d.next = self.s_cnp.flow.val();
            self.cnp_bytes.d.next = self.s_cnp.bytes.val();
        }
        if (self.s_sent.valid.val() && !self.sent_v.q.val()) {
            self.sent_v.d.next = true;
            self.sent_op.d.next = self.s_sent.op.val();
            self.sent_flow.d.next = self.s_sent.flow.val();
            self.sent_bytes.d.next = self.s_sent.bytes.val();
        }
    }
}
