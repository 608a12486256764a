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
    /// The strobes registered (count, reset low, and each flag).
    s: In,
}

impl Cycle for DispatchCounters {
    type In = In;
    type Out = Out;

    fn step(&mut self, i: &In) -> Out {
        let out = Out { stats: self.c };
        let c = &mut self.c;
        let s = self.s;
        if i.reset {
            *c = RxDispatchStats::default();
        } else if s.count {
            bump(&mut c.unknown_flow, s.unknown_flow);
            bump(&mut c.oos, s.oos);
            bump(&mut c.dup, s.dup);
            bump(&mut c.bad_psn, s.bad_psn);
            bump(&mut c.accepted, s.accepted);
            bump(&mut c.bad_va, s.bad_va);
            bump(&mut c.bad_op, s.bad_op);
            bump(&mut c.refused, s.refused);
        }
        self.s = In {
            count: i.count && !i.reset,
            ..*i
        };
        out
    }
}
