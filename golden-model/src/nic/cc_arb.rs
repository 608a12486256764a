//! Twin of `hdl/src/nic/cc_arb.rs`: the CC module's event port, shared by
//! flow creation (first), the requester's NewAck events and the
//! receiver's NewINT events (in turn). Each source has a holding register
//! (its `ready` is that register's being empty); `m_event` selects the
//! held events.

use crate::cc::CcEvent;
use crate::Cycle;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    pub ctl_valid: bool,
    pub ctl: CcEvent,
    pub ack_valid: bool,
    pub ack: CcEvent,
    pub int_valid: bool,
    pub int: CcEvent,
    pub event_ready: bool,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub ctl_ready: bool,
    pub ack_ready: bool,
    pub int_ready: bool,
    pub event_valid: bool,
    pub event: CcEvent,
}

/// A source's holding register: the event (zero after configuration, the
/// last one taken after) and whether it is full.
#[derive(Clone, Copy, Debug, Default)]
struct Held {
    full: bool,
    ev: CcEvent,
}

impl Held {
    /// Take `ev` if offered.
    fn offer(&mut self, valid: bool, ev: &CcEvent) {
        if valid {
            self.full = true;
            self.ev = *ev;
        }
    }
}

#[derive(Clone, Debug, Default)]
pub struct CcArb {
    ctl: Held,
    ack: Held,
    int: Held,
    /// The receiver's events go first when both wait.
    turn_int: bool,
}

impl Cycle for CcArb {
    type In = In;
    type Out = Out;
    fn step(&mut self, i: &In) -> Out {
        let (ctl, ack, int) = (self.ctl, self.ack, self.int);
        let pick_int = !ctl.full && int.full && (!ack.full || self.turn_int);
        let pick_ack = !ctl.full && !pick_int && ack.full;
        let out = Out {
            ctl_ready: !ctl.full,
            ack_ready: !ack.full,
            int_ready: !int.full,
            event_valid: ctl.full || ack.full || int.full,
            event: if ctl.full {
                ctl.ev
            } else if pick_int {
                int.ev
            } else {
                ack.ev
            },
        };
        if out.event_valid && i.event_ready {
            if ctl.full {
                self.ctl.full = false;
            } else if pick_int {
                self.int.full = false;
            } else {
                self.ack.full = false;
            }
            if pick_int || pick_ack {
                self.turn_int = pick_ack;
            }
        }
        // A register empty at the cycle's start (its `ready` high) takes
        // its source's event; one emptied above waits a cycle.
        self.ctl.offer(i.ctl_valid && !ctl.full, &i.ctl);
        self.ack.offer(i.ack_valid && !ack.full, &i.ack);
        self.int.offer(i.int_valid && !int.full, &i.int);
        out
    }
}
