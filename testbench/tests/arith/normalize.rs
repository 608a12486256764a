//! `hdl/src/arith/normalize.rs` against `nic_golden::arith::normalize`.

use crate::common::*;
use nic_golden::arith::normalize::{In, Normalize as Golden};
use nic_hdl::arith::Normalize;
use proptest::prelude::*;

proptest! {
    #![proptest_config(config(256))]
    #[test]
    fn normalize32_matches_golden(s in prop::collection::vec(
        (operand(32), chance(80)).prop_map(|(x, v)| In { x, in_valid: v }),
        1..150)) {
        let outs = both::<Normalize<32, 6>, Golden<32>>("normalize32", &s)?;
        for (t, o) in outs.iter().enumerate().skip(2) {
            let x = s[t - 2].x;
            prop_assert_eq!(o.zero, x == 0);
            prop_assert_eq!(o.lz as u32, (x as u32).leading_zeros());
            if x != 0 {
                prop_assert!(o.norm >> 31 == 1);
                prop_assert_eq!(o.norm >> o.lz, x);
            }
        }
    }

    #[test]
    fn normalize20_matches_golden(s in prop::collection::vec(
        (operand(20), chance(80)).prop_map(|(x, v)| In { x, in_valid: v }),
        1..100)) {
        both::<Normalize<20, 5>, Golden<20>>("normalize20", &s)?;
    }
}
