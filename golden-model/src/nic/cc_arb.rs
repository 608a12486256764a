//! Twin of `hdl/src/nic/cc_arb.rs`: the CC module's event port, shared by
//! flow creation (first) and the requester's events.

use crate::cc::CcEvent;
use crate::Cycle;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    pub ctl_valid: bool,
    pub ctl: CcEvent,
    pub cfg_variant: bool,
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
pub struct CcArb;

impl Cycle for CcArb {
    type In = In;
    type Out = Out;
    fn step(&mut self, i: &In) -> Out {
        let (ev_valid, ev) = if i.cfg_variant {
            (i.int_valid, i.int)
        } else {
            (i.ack_valid, i.ack)
        };
        Out {
            ctl_ready: i.event_ready,
            ack_ready: i.cfg_variant || (i.event_ready && !i.ctl_valid),
            int_ready: !i.cfg_variant || (i.event_ready && !i.ctl_valid),
            event_valid: i.ctl_valid || ev_valid,
            event: if i.ctl_valid { i.ctl } else { ev },
        }
    }
}
