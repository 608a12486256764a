//! Twin of `hdl/src/cc/rp_counters.rs` (`RpCounters`): the DCQCN
//! reaction point's counters from S8's flags (see the RTL's docs for the
//! ports and what counts where).

use crate::cc::DcqcnStats;
use crate::{bump, Cycle};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    pub ev: bool,
    pub coalesced: bool,
    pub cnp: bool,
    pub sent: bool,
    pub visit: bool,
    pub cut: bool,
    pub increase: bool,
    pub held: bool,
    pub recovered: bool,
    pub drop_flow: bool,
    pub late: bool,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub stats: DcqcnStats,
}

#[derive(Clone, Debug, Default)]
pub struct RpCounters {
    c: DcqcnStats,
}

impl Cycle for RpCounters {
    type In = In;
    type Out = Out;

    fn step(&mut self, i: &In) -> Out {
        let out = Out { stats: self.c };
        let c = &mut self.c;
        bump(&mut c.events, i.ev);
        bump(&mut c.events, i.coalesced);
        bump(&mut c.coalesced, i.coalesced);
        bump(&mut c.cnps, i.cnp);
        bump(&mut c.sents, i.sent);
        bump(&mut c.visits, i.visit);
        bump(&mut c.cuts, i.cut);
        bump(&mut c.increases, i.increase);
        bump(&mut c.held, i.held);
        bump(&mut c.recovered, i.recovered);
        bump(&mut c.drop_flow, i.drop_flow);
        bump(&mut c.timer_late, i.late);
        out
    }
}
