//! `hdl/src/arith/divider.rs` against `nic_golden::arith::divider`.

use crate::common::*;
use nic_golden::arith::divider::{divide, Divider as Golden, In};
use nic_hdl::arith::Divider;
use proptest::prelude::*;

type Div32 = Divider<32, 16>;
type Gold32 = Golden<32, 16>;
type Div12 = Divider<12, 5>;
type Gold12 = Golden<12, 5>;

fn stim(n: usize, len: usize) -> impl Strategy<Value = Vec<In>> {
    prop::collection::vec(
        (operand(n), operand(n), chance(85)).prop_map(|(a, d, v)| In { a, d, in_valid: v }),
        1..len,
    )
}

proptest! {
    #![proptest_config(config(128))]
    #[test]
    fn divider32_matches_golden(s in stim(32, 100)) {
        both::<Div32, Gold32>("divider32", &s)?;
    }

    /// A second configuration, to exercise the width parameters.
    #[test]
    fn divider12_matches_golden(s in stim(12, 60)) {
        both::<Div12, Gold12>("divider12", &s)?;
    }
}

proptest! {
    #![proptest_config(config(48))]
    /// Long streams on Verilator alone.
    #[test]
    fn divider32_volume_verilator(s in stim(32, 4000)) {
        verilator::<Div32, Gold32>("divider32_volume", &s)?;
    }
}

/// Outside the domain: divide by zero and overflow saturate, on both
/// engines, and the golden function agrees with exact arithmetic.
#[test]
fn divider_bad_input_saturates() {
    let cases = [
        (0u64, 0u64),
        (5, 0),
        (u32::MAX as u64, 0),
        (1 << 16, 1), // quotient 2^32: one past the top
        (u32::MAX as u64, 1),
        ((1 << 16) - 1, 1), // the largest that fits: 2^32 − 2^16
        (1, u32::MAX as u64),
    ];
    let mut s = vec![];
    for (a, d) in cases {
        s.push(In {
            a,
            d,
            in_valid: true,
        });
    }
    s.extend(std::iter::repeat(In::default()).take(40));
    let outs = both::<Div32, Gold32>("divider_bad_input", &s).unwrap();
    let lat = Gold32::LATENCY;
    for (k, (a, d)) in cases.iter().enumerate() {
        let o = outs[k + lat];
        assert!(o.out_valid);
        let exact = ((*a as u128) << 16).checked_div(*d as u128);
        match exact {
            Some(q) if q <= u32::MAX as u128 => {
                assert_eq!((o.q, o.sat), (q as u64, false), "{a}/{d}")
            }
            _ => assert_eq!((o.q, o.sat), (u32::MAX as u64, true), "{a}/{d}"),
        }
        assert_eq!((o.q, o.sat), divide(32, 16, *a, *d));
    }
}
