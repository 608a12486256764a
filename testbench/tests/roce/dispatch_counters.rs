//! `hdl/src/roce/dispatch_counters.rs` (the dispatcher's counters)
//! against `nic_golden::roce::dispatch_counters`: every port every cycle
//! on both engines; and, for one verdict a decision, the counts against
//! the transaction model's tally (`DispatchCounters::count`).

use crate::common::*;
use nic_golden::roce::dispatch_counters::{DispatchCounters as Golden, In};
use nic_golden::roce::txn::dispatch::DispatchCounters as Tally;
use nic_hdl::roce::dispatch_counters::DispatchCounters;
use nic_spec::roce::RxDrop;
use proptest::prelude::*;

/// Any flags at all, and a reset now and then.
fn any_in() -> impl Strategy<Value = In> {
    (chance(5), any::<bool>(), any::<[bool; 8]>()).prop_map(|(reset, count, f)| In {
        reset,
        count,
        unknown_flow: f[0],
        oos: f[1],
        dup: f[2],
        bad_psn: f[3],
        accepted: f[4],
        bad_va: f[5],
        bad_op: f[6],
        refused: f[7],
    })
}

/// A cycle: no decision, or a decision with its verdict (`None`:
/// accepted), as the dispatcher raises it.
fn verdict_in(v: Option<Option<RxDrop>>) -> In {
    let d = v.flatten();
    In {
        reset: false,
        count: v.is_some(),
        unknown_flow: d == Some(RxDrop::UnknownFlow),
        oos: d == Some(RxDrop::Oos),
        dup: d == Some(RxDrop::Dup),
        bad_psn: d == Some(RxDrop::BadPsn),
        accepted: v == Some(None),
        bad_va: d == Some(RxDrop::BadVa),
        bad_op: d == Some(RxDrop::BadOp),
        refused: d == Some(RxDrop::Refused),
    }
}

fn any_verdict() -> impl Strategy<Value = Option<Option<RxDrop>>> {
    prop_oneof![
        1 => Just(None),
        1 => Just(Some(None)),
        3 => prop::sample::select(RxDrop::DISPATCH.to_vec()).prop_map(|d| Some(Some(d))),
    ]
}

proptest! {
    #![proptest_config(config(24))]
    /// Both engines, every port, every cycle.
    #[test]
    fn dispatch_counters_matches_golden(s in prop::collection::vec(any_in(), 1..80)) {
        both::<DispatchCounters, Golden>("roce_dispatch_counters", &s)?;
    }

    /// Each cycle's counts are the transaction model's tally of the
    /// verdicts up to two cycles before it (the strobes are registered,
    /// then added): each decision counted once, under its reason.
    #[test]
    fn dispatch_counters_tally_the_verdicts(v in prop::collection::vec(any_verdict(), 1..80)) {
        let s: Vec<In> = v.iter().map(|&x| verdict_in(x)).collect();
        let outs = both::<DispatchCounters, Golden>("roce_dispatch_counters_tally", &s)?;
        let mut t = Tally::default();
        let mut shown = Tally::default();
        for (k, x) in v.iter().enumerate() {
            let o = outs[k].stats;
            let got = [o.unknown_flow, o.oos, o.dup, o.bad_psn, o.accepted, o.bad_va, o.bad_op, o.refused];
            let u = shown;
            let want = [u.unknown_flow, u.oos, u.dup, u.bad_psn, u.accepted, u.bad_va, u.bad_op, u.refused]
                .map(|c| c as u32);
            prop_assert_eq!(got, want, "cycle {}", k);
            shown = t;
            if let Some(d) = *x {
                t.count(d);
            }
        }
    }
}
