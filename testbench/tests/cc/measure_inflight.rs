//! `hdl/src/cc/measure_inflight.rs` (pseudocode lines 4–5, one hop)
//! against `nic_golden::cc::measure_inflight`: every port every cycle on
//! both engines, and the cycle twin against the transaction model's
//! `hop_term`.

use super::regs;
use crate::common::*;
use nic_golden::cc::measure_inflight::{hop_term, In, MeasureInflight as Golden, LATENCY};
use nic_golden::cc::params::CcRegs;
use nic_hdl::cc::MeasureInflight;
use proptest::prelude::*;

/// A new value `old + delta` (mod 2^bits) with the delta biased toward
/// the cases the block tests: 0, small, a wrap, a step back, any.
fn advance(bits: u32) -> impl Strategy<Value = (u32, u32)> {
    let m = (1u64 << bits) - 1;
    (
        operand(bits as usize),
        prop_oneof![
            1 => Just(0u64),
            4 => 1u64..5000,
            1 => (1u64 << (bits - 1))..=m,
            1 => 0..=m,
        ],
    )
        .prop_map(move |(old, d)| (old as u32, ((old + d) & m) as u32))
}

fn hop() -> impl Strategy<Value = In> {
    (
        (advance(24), advance(20), operand(17), operand(17)),
        (
            prop_oneof![6 => 0u8..5, 1 => 5u8..8],
            chance(85),
            chance(80),
        ),
    )
        .prop_map(
            |(
                ((old_ts, new_ts), (old_bytes, new_bytes), new_qlen, old_qlen),
                (code, active, v),
            )| {
                In {
                    in_valid: v,
                    new_ts,
                    new_bytes,
                    new_qlen: new_qlen as u32,
                    code,
                    old_ts,
                    old_bytes,
                    old_qlen: old_qlen as u32,
                    active,
                    ..Default::default()
                }
            },
        )
}

fn with_regs(r: &CcRegs, mut s: Vec<In>) -> Vec<In> {
    for i in &mut s {
        i.cfg_mlog = r.mlog;
        i.cfg_inv_t_s = r.inv_t_s;
        i.cfg_uq_m = r.uq_m;
    }
    s
}

fn stim(len: usize) -> impl Strategy<Value = Vec<In>> {
    (regs(), prop::collection::vec(hop(), 1..len)).prop_map(|(r, s)| with_regs(&r, s))
}

proptest! {
    #![proptest_config(config(32))]
    /// Both engines, every port, every cycle.
    #[test]
    fn measure_inflight_matches_golden(s in stim(120)) {
        both::<MeasureInflight, Golden>("cc_measure_inflight", &s)?;
    }
}

proptest! {
    #![proptest_config(config(16))]
    /// Long streams on Verilator alone.
    #[test]
    fn measure_inflight_volume_verilator(s in stim(3000)) {
        verilator::<MeasureInflight, Golden>("cc_measure_inflight_volume", &s)?;
    }
}

/// Every valid hop's u′ and tau, LATENCY cycles later, are the
/// transaction model's `hop_term` (the function `HpccFixed` calls): the
/// cycle twin and the RTL add timing only.
#[test]
fn measure_inflight_is_hop_term() {
    let r = sample(regs());
    let s = with_regs(
        &r,
        sample(prop::collection::vec(
            hop().prop_map(|h| In {
                in_valid: true,
                ..h
            }),
            400,
        )),
    );
    let mut padded = s.clone();
    padded.extend(std::iter::repeat(In::default()).take(LATENCY));
    let padded = with_regs(&r, padded);
    let outs = both::<MeasureInflight, Golden>("cc_measure_inflight_hop_term", &padded).unwrap();
    for (t, i) in s.iter().enumerate() {
        let (new, old) = i.hops();
        let want = hop_term(&new, &old, i.active, &i.regs());
        let o = outs[t + LATENCY];
        assert!(o.out_valid);
        assert_eq!(
            (o.u_prime, o.tau),
            (want.u_prime, want.tau),
            "hop {t}: {i:?}"
        );
        let f = outs[t + 1];
        assert_eq!((f.stale, f.back), (want.stale, want.back), "hop {t}");
    }
    assert_eq!(LATENCY, nic_hdl::cc::measure_inflight::LATENCY);
}
