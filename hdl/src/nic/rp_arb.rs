//! The DCQCN reaction point's event port, shared by flow creation and
//! removal (`CfgRegs.m_rp_ctl`, first) and the CNPs the dispatcher
//! received (`RoceRxDispatch.m_cnp`), then the bytes DCQCN flows sent
//! (`SentTap.m_sent`).
//!
//! - `s_ctl` (`RpEvent`, ready): CREATE or DESTROY of a flow (one per
//!   commit); it always goes first: commits are rare and the host waits
//!   for them.
//! - `s_cnp` (`RpEvent`, ready): a CNP for a flow (op CNP).
//! - `s_sent` (`RpEvent`, ready): a DCQCN flow's bytes sent (op SENT,
//!   from `SentTap`), last.
//! - `m_event` (`RpEvent`, ready) to `DcqcnRp.s_event`: `s_ctl` if valid,
//!   else `s_cnp` if valid, else `s_sent`. Combinational (`valid` from
//!   the sources' `valid` only, never from `m_event.ready`); no state,
//!   latency 0.
//!
//! The reaction point's `ready` may be low for a flow whose operation is
//! in flight (its interlock), so a CNP waits in the dispatcher's event
//! register, which holds the Rx behind it at most 8 cycles per CNP (the
//! reaction point merges a CNP flood of one flow without an issue slot).
//!
//! A CNP flood of one flow can hold `s_sent` back; `SentTap` then merges
//! or drops (and counts) the bytes, never stalling the Tx.
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
}

impl Logic for RpArb {
    #[hdl_gen]
    fn update(&mut self) {
        self.m_event.valid.next =
            (self.s_ctl.valid.val() || self.s_cnp.valid.val() || self.s_sent.valid.val());
        self.s_ctl.ready.next = self.m_event.ready.val();
        self.s_cnp.ready.next = (self.m_event.ready.val() && !self.s_ctl.valid.val());
        self.s_sent.ready.next =
            (self.m_event.ready.val() && !self.s_ctl.valid.val() && !self.s_cnp.valid.val());
        if self.s_ctl.valid.val() {
            self.m_event.op.next = self.s_ctl.op.val();
            self.m_event.flow.next = self.s_ctl.flow.val();
            self.m_event.bytes.next = self.s_ctl.bytes.val();
        } else if self.s_cnp.valid.val() {
            self.m_event.op.next = self.s_cnp.op.val();
            self.m_event.flow.next = self.s_cnp.flow.val();
            self.m_event.bytes.next = self.s_cnp.bytes.val();
        } else {
            self.m_event.op.next = self.s_sent.op.val();
            self.m_event.flow.next = self.s_sent.flow.val();
            self.m_event.bytes.next = self.s_sent.bytes.val();
        }
    }
}
