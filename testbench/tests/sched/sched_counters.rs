//! `hdl/src/sched/sched_counters.rs` (the scheduler's counters) against
//! `nic_golden::sched::sched_counters`: every port every cycle on both
//! engines, on random flags and every op; and the counts a cycle after
//! the last flags against a plain tally of the flags by the table in the
//! block's docs.

use crate::common::*;
use nic_golden::sched::sched_counters::{In, SchedCounters as Golden};
use nic_golden::sched::SchedStats;
use nic_hdl::sched::sched_counters::SchedCounters;
use nic_spec::sched::{OP_ACK, OP_ACK_DB, OP_DOORBELL, OP_INIT, OP_REWIND, OP_TRIM, OP_UPDATE};
use proptest::prelude::*;

fn stim() -> impl Strategy<Value = Vec<In>> {
    let cycle = (any::<[bool; 7]>(), 0u8..8).prop_map(|(f, op)| In {
        ev: f[0],
        kill: f[1],
        rejected: f[2],
        op,
        ack_ok: f[3],
        db_ok: f[4],
        sent: f[5],
        probed: f[6],
    });
    prop::collection::vec(cycle, 1..150)
}

/// The counts the flags in `s` make, by the table.
fn tally(s: &[In]) -> SchedStats {
    let n = |f: &dyn Fn(&In) -> bool| s.iter().filter(|i| f(i)).count() as u32;
    let bad = |op: u8| n(&|i: &In| i.rejected && i.op == op);
    let bad_part =
        |part: &dyn Fn(&In) -> bool| n(&|i: &In| i.rejected && i.op == OP_ACK_DB && !part(i));
    SchedStats {
        events: n(&|i: &In| i.ev),
        sends: n(&|i: &In| i.sent),
        probes: n(&|i: &In| i.probed),
        bad_flow: n(&|i: &In| i.kill),
        bad_op: bad(OP_INIT) + bad(7),
        bad_update: bad(OP_UPDATE),
        bad_ack: bad(OP_ACK) + bad_part(&|i: &In| i.ack_ok),
        bad_rewind: bad(OP_REWIND),
        bad_doorbell: bad(OP_DOORBELL) + bad_part(&|i: &In| i.db_ok),
        bad_trim: bad(OP_TRIM),
    }
}

proptest! {
    #![proptest_config(config(24))]
    /// Both engines, every port, every cycle; and the counts against
    /// the tally of the flags.
    #[test]
    fn sched_counters_count_by_the_table(mut s in stim()) {
        s.push(In::default());
        let out = both::<SchedCounters, Golden>("sched_counters", &s)?;
        prop_assert_eq!(out.last().unwrap().stats, tally(&s));
    }
}
