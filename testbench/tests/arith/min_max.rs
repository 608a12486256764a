//! `hdl/src/arith/min_max.rs` against `nic_golden::arith::min_max`.

use crate::common::*;
use nic_golden::arith::min_max::{In, MinMax as Golden};
use nic_hdl::arith::MinMax;
use proptest::prelude::*;

proptest! {
    #![proptest_config(config(256))]
    #[test]
    fn min_max32_matches_golden(s in prop::collection::vec(
        (operand(32), operand(32), chance(80)).prop_map(|(a, b, v)| In { a, b, in_valid: v }),
        1..150)) {
        let outs = both::<MinMax<32>, Golden<32>>("min_max32", &s)?;
        for (t, o) in outs.iter().enumerate().skip(1) {
            let i = &s[t - 1];
            prop_assert_eq!((o.min, o.max), (i.a.min(i.b), i.a.max(i.b)));
        }
    }
}
