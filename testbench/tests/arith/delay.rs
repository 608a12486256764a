//! `hdl/src/arith/delay.rs` against `nic_golden::arith::delay`.

use crate::common::*;
use nic_golden::arith::delay::{Delay as Golden, In};
use nic_hdl::arith::Delay;
use proptest::prelude::*;

proptest! {
    #![proptest_config(config(32))]
    #[test]
    fn delay_matches_golden(d in prop::collection::vec(operand(40), 1..80)) {
        let s: Vec<In> = d.into_iter().map(|d| In { d: d as u128 }).collect();
        both::<Delay<40, 7>, Golden<40, 7>>("delay40x7", &s)?;
        both::<Delay<3, 1>, Golden<3, 1>>("delay3x1", &s)?;
    }
}
