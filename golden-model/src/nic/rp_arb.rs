//! Twin of `hdl/src/nic/rp_arb.rs`: the DCQCN reaction point's event
//! port, shared by flow creation and removal (first), received CNPs and
//! the bytes DCQCN flows sent (last); a holding register per source and
//! an output register.

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

/// The registers: `held` = ctl, cnp, sent; `out` = the output.
#[derive(Clone, Debug, Default)]
pub struct RpArb {
    held: [Option<RpEvent>; 3],
    out: Option<RpEvent>,
    /// The last event of each register (the RTL keeps its fields when
    /// it empties).
    fields: [RpEvent; 4],
}

/// The event at the record's widths (op 2 bits, bytes 16).
fn masked(e: &RpEvent) -> RpEvent {
    RpEvent {
        op: e.op & 3,
        flow: e.flow,
        bytes: e.bytes & 0xFFFF,
    }
}

impl Cycle for RpArb {
    type In = In;
    type Out = Out;
    fn step(&mut self, i: &In) -> Out {
        let o = Out {
            ctl_ready: self.held[0].is_none(),
            cnp_ready: self.held[1].is_none(),
            sent_ready: self.held[2].is_none(),
            event_valid: self.out.is_some(),
            event: self.fields[3],
        };
        let load = self.out.is_none() || i.event_ready;
        if self.out.is_some() && i.event_ready {
            self.out = None;
        }
        if load {
            if let Some(k) = (0..3).find(|&k| self.held[k].is_some()) {
                self.out = self.held[k].take();
                self.fields[3] = self.fields[k];
            }
        }
        let offered = [
            (i.ctl_valid, i.ctl),
            (i.cnp_valid, i.cnp),
            (i.sent_valid, i.sent),
        ];
        for (k, (valid, e)) in offered.into_iter().enumerate() {
            // `ready` was the register's being empty at the cycle's start.
            let was_empty = match k {
                0 => o.ctl_ready,
                1 => o.cnp_ready,
                _ => o.sent_ready,
            };
            if valid && was_empty {
                self.held[k] = Some(masked(&e));
                self.fields[k] = masked(&e);
            }
        }
        o
    }
}
