//! Twin of `hdl/src/sched/sched_counters.rs` (`SchedCounters`): the
//! scheduler's counters from S10's flags (see the RTL's docs for the
//! ports and which op counts where).

use crate::sched::SchedStats;
use crate::{bump, Cycle};
use nic_spec::sched::{OP_ACK, OP_ACK_DB, OP_DOORBELL, OP_REWIND, OP_TRIM, OP_UPDATE};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    pub ev: bool,
    pub kill: bool,
    pub rejected: bool,
    /// 3 bits.
    pub op: u8,
    pub ack_ok: bool,
    pub db_ok: bool,
    pub sent: bool,
    pub probed: bool,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub stats: SchedStats,
}

#[derive(Clone, Debug, Default)]
pub struct SchedCounters {
    c: SchedStats,
}

impl Cycle for SchedCounters {
    type In = In;
    type Out = Out;

    fn step(&mut self, i: &In) -> Out {
        let out = Out { stats: self.c };
        let c = &mut self.c;
        bump(&mut c.events, i.ev);
        bump(&mut c.bad_flow, i.kill);
        bump(&mut c.sends, i.sent);
        bump(&mut c.probes, i.probed);
        if i.rejected {
            match i.op & 7 {
                OP_DOORBELL => bump(&mut c.bad_doorbell, true),
                OP_UPDATE => bump(&mut c.bad_update, true),
                OP_ACK => bump(&mut c.bad_ack, true),
                OP_REWIND => bump(&mut c.bad_rewind, true),
                OP_TRIM => bump(&mut c.bad_trim, true),
                OP_ACK_DB => {
                    bump(&mut c.bad_ack, !i.ack_ok);
                    bump(&mut c.bad_doorbell, !i.db_ok);
                }
                _ => bump(&mut c.bad_op, true),
            }
        }
        out
    }
}
