//! `hdl/src/arith/sat_add_sub.rs` against `nic_golden::arith::sat_add_sub`.

use crate::common::*;
use nic_golden::arith::sat_add_sub::{In, SatAddSub as Golden};
use nic_hdl::arith::SatAddSub;
use proptest::prelude::*;

fn stim(n: usize) -> impl Strategy<Value = Vec<In>> {
    prop::collection::vec(
        (operand(n), operand(n), any::<bool>(), chance(80)).prop_map(|(a, b, sub, v)| In {
            a,
            b,
            sub,
            in_valid: v,
        }),
        1..150,
    )
}

proptest! {
    #![proptest_config(config(256))]
    #[test]
    fn sat_add_sub32_matches_golden(s in stim(32)) {
        let outs = both::<SatAddSub<32>, Golden<32>>("sat_add_sub32", &s)?;
        // Independent of the golden model: the exact result, clamped.
        for (t, o) in outs.iter().enumerate().skip(1) {
            let i = &s[t - 1];
            let exact = if i.sub { i.a as i128 - i.b as i128 } else { i.a as i128 + i.b as i128 };
            let clamped = exact.clamp(0, u32::MAX as i128);
            prop_assert_eq!(o.y as i128, clamped);
            prop_assert_eq!(o.sat, exact != clamped);
        }
    }

    #[test]
    fn sat_add_sub48_matches_golden(s in stim(48)) {
        both::<SatAddSub<48>, Golden<48>>("sat_add_sub48", &s)?;
    }
}
