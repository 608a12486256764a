//! `hdl/src/arith/wide_mul.rs` against `nic_golden::arith::wide_mul`.

use crate::common::*;
use nic_golden::arith::wide_mul::{In, WideMul as Golden, LATENCY};
use nic_hdl::arith::WideMul;
use proptest::prelude::*;

fn stim() -> impl Strategy<Value = Vec<In>> {
    prop::collection::vec(
        (operand(32), operand(32), chance(80)).prop_map(|(a, b, v)| In {
            a: a as u32,
            b: b as u32,
            in_valid: v,
        }),
        1..120,
    )
}

proptest! {
    #![proptest_config(config(256))]
    #[test]
    fn wide_mul_matches_golden(s in stim()) {
        both::<WideMul, Golden>("wide_mul", &s)?;
    }
}

/// Every product of a long random stream, on Verilator, and II = 1 /
/// latency 4 checked directly.
#[test]
fn wide_mul_volume_verilator() {
    let mut rng = 0x1234_5678_9abc_def0u64;
    let mut next = || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let s: Vec<In> = (0..20_000)
        .map(|_| {
            let r = next();
            In {
                a: r as u32,
                b: (r >> 32) as u32,
                in_valid: true,
            }
        })
        .collect();
    let outs = verilator::<WideMul, Golden>("wide_mul_volume", &s).unwrap();
    for (t, o) in outs.iter().enumerate().skip(LATENCY) {
        let i = &s[t - LATENCY];
        assert!(o.out_valid);
        assert_eq!(o.p, i.a as u64 * i.b as u64);
    }
}
