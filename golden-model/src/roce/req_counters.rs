//! Twin of `hdl/src/roce/req_counters.rs` (`ReqCounters`): the
//! requester's counters, one strobe each (see the RTL's docs).

use crate::roce::ReqStats;
use crate::{bump, Cycle};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    pub posted: bool,
    pub completed: bool,
    pub err_opcode: bool,
    pub err_len: bool,
    pub err_flow: bool,
    pub err_full: bool,
    pub stale: bool,
    pub trims: bool,
    pub timeouts: bool,
    pub naks: bool,
    pub ack_ahead: bool,
    pub bad_fb: bool,
    pub remote_err: bool,
    pub retry_exceeded: bool,
    pub flushed: bool,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub stats: ReqStats,
}

#[derive(Clone, Debug, Default)]
pub struct ReqCounters {
    c: ReqStats,
}

impl Cycle for ReqCounters {
    type In = In;
    type Out = Out;

    fn step(&mut self, i: &In) -> Out {
        let out = Out { stats: self.c };
        let c = &mut self.c;
        bump(&mut c.posted, i.posted);
        bump(&mut c.completed, i.completed);
        bump(&mut c.err_opcode, i.err_opcode);
        bump(&mut c.err_len, i.err_len);
        bump(&mut c.err_flow, i.err_flow);
        bump(&mut c.err_full, i.err_full);
        bump(&mut c.stale, i.stale);
        bump(&mut c.trims, i.trims);
        bump(&mut c.timeouts, i.timeouts);
        bump(&mut c.naks, i.naks);
        bump(&mut c.ack_ahead, i.ack_ahead);
        bump(&mut c.bad_fb, i.bad_fb);
        bump(&mut c.remote_err, i.remote_err);
        bump(&mut c.retry_exceeded, i.retry_exceeded);
        bump(&mut c.flushed, i.flushed);
        out
    }
}
