//! Twin of `hdl/src/nic/cc_arb.rs`: the CC module's event port, shared by
//! flow creation (first), the requester's NewAck events and the
//! receiver's NewINT events (in turn).

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

#[derive(Clone, Debug, Default)]
pub struct CcArb {
    /// The receiver's events go first when both wait.
    turn_int: bool,
}

impl Cycle for CcArb {
    type In = In;
    type Out = Out;
    fn step(&mut self, i: &In) -> Out {
        let pick_int = !i.ctl_valid && i.int_valid && (!i.ack_valid || self.turn_int);
        let pick_ack = !i.ctl_valid && !pick_int && i.ack_valid;
        if i.event_ready && (pick_int || pick_ack) {
            self.turn_int = pick_ack;
        }
        Out {
            ctl_ready: i.event_ready,
            ack_ready: i.event_ready && pick_ack,
            int_ready: i.event_ready && pick_int,
            event_valid: i.ctl_valid || i.ack_valid || i.int_valid,
            event: if i.ctl_valid {
                i.ctl
            } else if pick_int {
                i.int
            } else {
                i.ack
            },
        }
    }
}
