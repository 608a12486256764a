//! `hdl/src/cc/period_epoch.rs` (one of the DCQCN reaction point's three
//! timers) against `nic_golden::cc::period_epoch`: every port every cycle
//! on both engines.

use crate::common::*;
use nic_golden::cc::period_epoch::{In, PeriodEpoch as Golden};
use nic_hdl::cc::PeriodEpoch;
use proptest::prelude::*;

/// Periods of 0 (stopped), 1, small, or any 24-bit value, each held for a
/// run of cycles; values above 24 bits are driven too (the port takes
/// the low 24).
fn stim() -> impl Strategy<Value = Vec<In>> {
    let period = prop_oneof![
        1 => Just(0u32),
        1 => Just(1u32),
        4 => 2u32..12,
        1 => operand(24).prop_map(|x| x as u32),
        1 => any::<u32>(),
    ];
    prop::collection::vec((period, 1usize..40), 1..12).prop_map(|runs| {
        runs.into_iter()
            .flat_map(|(p, n)| std::iter::repeat_n(In { period: p }, n))
            .collect()
    })
}

proptest! {
    #![proptest_config(config(32))]
    /// Both engines, every port, every cycle.
    #[test]
    fn period_epoch_matches_golden(s in stim()) {
        both::<PeriodEpoch, Golden>("cc_period_epoch", &s)?;
    }
}

/// The epoch at the ports steps every `period` cycles.
#[test]
fn period_epoch_counts_periods() {
    let s = vec![In { period: 5 }; 51];
    let out = both::<PeriodEpoch, Golden>("cc_period_epoch_counts", &s).unwrap();
    for (c, o) in out.iter().enumerate() {
        assert_eq!(o.epoch as usize, c / 5, "cycle {c}");
    }
}
