//! Twin of `hdl/src/nic/rp_arb.rs`: the DCQCN reaction point's event
//! port, shared by flow creation and removal (first), received CNPs and
//! the bytes DCQCN flows sent (last).

use crate::cc::RpEvent;
use crate::Cycle;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    pub ctl_valid: bool,
    pub ctl: RpEvent,
    pub cnp_valid: bool,
    pub cnp: RpEvent,
    pub sent_valid: bool,
    pub sent: RpEvent,
    pub event_ready: bool,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub ctl_ready: bool,
    pub cnp_ready: bool,
    pub sent_ready: bool,
    pub event_valid: bool,
    pub event: RpEvent,
}

#[derive(Clone, Debug, Default)]
pub struct RpArb;

impl Cycle for RpArb {
    type In = In;
    type Out = Out;
    fn step(&mut self, i: &In) -> Out {
        Out {
            ctl_ready: i.event_ready,
            cnp_ready: i.event_ready && !i.ctl_valid,
            sent_ready: i.event_ready && !i.ctl_valid && !i.cnp_valid,
            event_valid: i.ctl_valid || i.cnp_valid || i.sent_valid,
            event: if i.ctl_valid {
                i.ctl
            } else if i.cnp_valid {
                i.cnp
            } else {
                i.sent
            },
        }
    }
}
