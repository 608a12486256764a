//! Twin of `hdl/src/nic/cc_arb.rs`: the CC module's event port, shared by
//! flow creation (first) and the requester's events.

use crate::cc::CcEvent;
use crate::Cycle;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    pub ctl_valid: bool,
    pub ctl: CcEvent,
    pub ack_valid: bool,
    pub ack: CcEvent,
    pub event_ready: bool,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub ctl_ready: bool,
    pub ack_ready: bool,
    pub event_valid: bool,
    pub event: CcEvent,
}

#[derive(Clone, Debug, Default)]
pub struct CcArb;

impl Cycle for CcArb {
    type In = In;
    type Out = Out;
    fn step(&mut self, i: &In) -> Out {
        Out {
            ctl_ready: i.event_ready,
            ack_ready: i.event_ready && !i.ctl_valid,
            event_valid: i.ctl_valid || i.ack_valid,
            event: if i.ctl_valid { i.ctl } else { i.ack },
        }
    }
}
