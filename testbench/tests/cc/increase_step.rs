//! `hdl/src/cc/increase_step.rs` (the DCQCN reaction point's increase
//! step, its S4–S6) against `nic_golden::cc::increase_step`: every port
//! every cycle on both engines, and the staged result against
//! `nic_golden::cc::dcqcn::increase`.

use crate::common::*;
use nic_golden::cc::dcqcn::increase;
use nic_golden::cc::increase_step::{In, IncreaseStep as Golden};
use nic_hdl::cc::IncreaseStep;
use proptest::prelude::*;

/// A rate: 0, the largest, near R_line's usual values, or any.
fn rate() -> impl Strategy<Value = u32> {
    prop_oneof![
        1 => Just(0u32),
        1 => Just(u32::MAX),
        2 => 0u32..1 << 20,
        4 => any::<u32>(),
    ]
}

fn stim() -> impl Strategy<Value = Vec<In>> {
    prop::collection::vec(
        (rate(), rate(), rate(), rate()).prop_map(|(rt, add, r_line, rc)| In {
            rt,
            add,
            r_line,
            rc,
        }),
        1..200,
    )
}

proptest! {
    #![proptest_config(config(32))]
    /// Both engines, every port, every cycle, any input every cycle.
    #[test]
    fn increase_step_matches_golden(s in stim()) {
        both::<IncreaseStep, Golden>("cc_increase_step", &s)?;
    }

    /// Operations staged as `DcqcnRp` stages them (Rt and add, then
    /// R_line, then Rc, one a cycle overlapped): each result on both
    /// engines, three cycles after its Rt, is `increase`'s.
    #[test]
    fn increase_step_staged_is_increase(ops in prop::collection::vec((rate(), rate(), rate(), rate()), 1..40)) {
        let n = ops.len();
        let s: Vec<In> = (0..n + 3)
            .map(|c| In {
                rt: ops.get(c).map_or(0, |o| o.1),
                add: ops.get(c).map_or(0, |o| o.2),
                r_line: c.checked_sub(1).and_then(|k| ops.get(k)).map_or(0, |o| o.3),
                rc: c.checked_sub(2).and_then(|k| ops.get(k)).map_or(0, |o| o.0),
            })
            .collect();
        let out = both::<IncreaseStep, Golden>("cc_increase_step_staged", &s)?;
        for (k, &(rc, rt, add, r_line)) in ops.iter().enumerate() {
            let o = out[k + 3];
            prop_assert_eq!((o.rc_new, o.rt_new), increase(rc, rt, add, r_line), "operation {}", k);
        }
    }
}
