//! `hdl/src/cc/rp_counters.rs` (the DCQCN reaction point's counters)
//! against `nic_golden::cc::rp_counters`: every port every cycle on both
//! engines, on random flags; and the counts a cycle after the last flags
//! against a plain tally of the flags by the table in the block's docs.

use crate::common::*;
use nic_golden::cc::rp_counters::{In, RpCounters as Golden};
use nic_golden::cc::DcqcnStats;
use nic_hdl::cc::rp_counters::RpCounters;
use proptest::prelude::*;

fn stim() -> impl Strategy<Value = Vec<In>> {
    let cycle = any::<[bool; 11]>().prop_map(|f| In {
        ev: f[0],
        coalesced: f[1],
        cnp: f[2],
        sent: f[3],
        visit: f[4],
        cut: f[5],
        increase: f[6],
        held: f[7],
        recovered: f[8],
        drop_flow: f[9],
        late: f[10],
    });
    prop::collection::vec(cycle, 1..150)
}

/// The counts the flags in `s` make, by the table.
fn tally(s: &[In]) -> DcqcnStats {
    let n = |f: &dyn Fn(&In) -> bool| s.iter().filter(|i| f(i)).count() as u32;
    DcqcnStats {
        events: n(&|i: &In| i.ev) + n(&|i: &In| i.coalesced),
        cnps: n(&|i: &In| i.cnp),
        sents: n(&|i: &In| i.sent),
        visits: n(&|i: &In| i.visit),
        cuts: n(&|i: &In| i.cut),
        increases: n(&|i: &In| i.increase),
        held: n(&|i: &In| i.held),
        recovered: n(&|i: &In| i.recovered),
        coalesced: n(&|i: &In| i.coalesced),
        drop_flow: n(&|i: &In| i.drop_flow),
        timer_late: n(&|i: &In| i.late),
    }
}

proptest! {
    #![proptest_config(config(24))]
    /// Both engines, every port, every cycle; and the counts against
    /// the tally of the flags.
    #[test]
    fn rp_counters_count_by_the_table(mut s in stim()) {
        s.push(In::default());
        let out = both::<RpCounters, Golden>("rp_counters", &s)?;
        prop_assert_eq!(out.last().unwrap().stats, tally(&s));
    }
}
