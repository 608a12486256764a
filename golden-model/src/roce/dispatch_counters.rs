//! Twin of `hdl/src/roce/dispatch_counters.rs` (`DispatchCounters`): the
//! dispatcher's counters from its decision's flags (see the RTL's docs).

use crate::roce::RxDispatchStats;
use crate::{bump, Cycle};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    pub reset: bool,
    pub count: bool,
    pub unknown_flow: bool,
    pub oos: bool,
    pub dup: bool,
    pub bad_psn: bool,
    pub accepted: bool,
    pub bad_va: bool,
    pub bad_op: bool,
    pub refused: bool,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub stats: RxDispatchStats,
}

#[derive(Clone, Debug, Default)]
pub struct DispatchCounters {
    c: RxDispatchStats,
}

impl Cycle for DispatchCounters {
    type In = In;
    type Out = Out;

    fn step(&mut self, i: &In) -> Out {
        let out = Out { stats: self.c };
        let c = &mut self.c;
        if i.reset {
            *c = RxDispatchStats::default();
        } else if i.count {
            bump(&mut c.unknown_flow, i.unknown_flow);
            bump(&mut c.oos, i.oos);
            bump(&mut c.dup, i.dup);
            bump(&mut c.bad_psn, i.bad_psn);
            bump(&mut c.accepted, i.accepted);
            bump(&mut c.bad_va, i.bad_va);
            bump(&mut c.bad_op, i.bad_op);
            bump(&mut c.refused, i.refused);
        }
        out
    }
}
