//! `hdl/src/arith/delay.rs` (`Delay` and `DelayRam`) against
//! `nic_golden::arith::delay`.

use crate::common::*;
use nic_golden::arith::delay::{Delay as Golden, In};
use nic_hdl::arith::{Delay, DelayRam};
use proptest::prelude::*;
use rust_hdl::prelude::Bits;

proptest! {
    #![proptest_config(config(32))]
    #[test]
    fn delay_matches_golden(d in prop::collection::vec(operand(40), 1..80)) {
        let s: Vec<In> = d.into_iter().map(|d| In { d: d as u128 }).collect();
        both::<Delay<40, 7>, Golden<40, 7>>("delay40x7", &s)?;
        both::<Delay<3, 1>, Golden<3, 1>>("delay3x1", &s)?;
    }

    /// The RAM delay line at its bounds (L = 3, L = 2^A + 1) and in between,
    /// over runs longer than its RAM so the pointer wraps.
    #[test]
    fn delay_ram_matches_golden(d in prop::collection::vec(operand(40), 1..160)) {
        let s: Vec<In> = d.into_iter().map(|d| In { d: d as u128 }).collect();
        both::<DelayRam<Bits<40>, 3, 1>, Golden<40, 3>>("delay_ram40x3a1", &s)?;
        both::<DelayRam<Bits<40>, 30, 5>, Golden<40, 30>>("delay_ram40x30a5", &s)?;
        both::<DelayRam<Bits<40>, 32, 5>, Golden<40, 32>>("delay_ram40x32a5", &s)?;
        both::<DelayRam<Bits<40>, 33, 5>, Golden<40, 33>>("delay_ram40x33a5", &s)?;
        both::<DelayRam<Bits<40>, 36, 6>, Golden<40, 36>>("delay_ram40x36a6", &s)?;
    }
}

/// Four-state: the RAM delay line shows no X, neither before its first
/// word comes round (its RAM is zero at configuration) nor after.
#[test]
fn delay_ram_no_x_in_four_state_simulation() {
    let s = sample(prop::collection::vec(operand(40), 100..101))
        .into_iter()
        .map(|d| In { d: d as u128 })
        .collect::<Vec<_>>();
    four_state::<DelayRam<Bits<40>, 36, 6>, Golden<40, 36>>("delay_ram40x36a6", &s);
}
