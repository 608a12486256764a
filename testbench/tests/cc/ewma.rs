//! `hdl/src/cc/ewma.rs` (pseudocode lines 8–9) against
//! `nic_golden::cc::ewma`: every port every cycle on both engines.

use super::regs;
use crate::common::*;
use nic_golden::cc::ewma::{ewma, tau_weight, Ewma as Golden, In, LATENCY, U_OLD_AT};
use nic_golden::cc::params::CcRegs;
use nic_hdl::cc::Ewma;
use proptest::prelude::*;

/// U-like values: around 1.0 (UQ8.24), small, or any.
fn uq() -> impl Strategy<Value = u32> {
    prop_oneof![
        3 => 0u32..(4 << 24),
        1 => operand(32).prop_map(|x| x as u32),
    ]
}

fn step(t: u32) -> impl Strategy<Value = In> {
    let t = t.max(1);
    (
        uq(),
        prop_oneof![
            2 => 0..=t,
            1 => Just(t),
            1 => operand(24).prop_map(|x| x as u32),
        ],
        uq(),
        chance(80),
    )
        .prop_map(|(u, tau, u_old, v)| In {
            in_valid: v,
            u,
            tau,
            u_old,
            ..Default::default()
        })
}

fn with_regs(r: &CcRegs, mut s: Vec<In>) -> Vec<In> {
    for i in &mut s {
        i.cfg_t = r.t;
        i.cfg_inv_t_m = r.inv_t_m;
        i.cfg_inv_t_s = r.inv_t_s;
    }
    s
}

fn stim(len: usize) -> impl Strategy<Value = Vec<In>> {
    regs().prop_flat_map(move |r| {
        prop::collection::vec(step(r.t & 0xFF_FFFF), 1..len).prop_map(move |s| with_regs(&r, s))
    })
}

proptest! {
    #![proptest_config(config(48))]
    /// Both engines, every port, every cycle.
    #[test]
    fn ewma_matches_golden(s in stim(80)) {
        both::<Ewma, Golden>("cc_ewma", &s)?;
    }
}

proptest! {
    #![proptest_config(config(16))]
    /// Long streams on Verilator alone.
    #[test]
    fn ewma_volume_verilator(s in stim(3000)) {
        verilator::<Ewma, Golden>("cc_ewma_volume", &s)?;
    }
}

/// Each valid (u, tau) with the U given U_OLD_AT cycles later comes out
/// LATENCY cycles later as `ewma(U, u, tau_weight(tau))`, the functions
/// `HpccFixed` calls.
#[test]
fn ewma_is_the_transaction_model() {
    let r = sample(regs());
    let s = with_regs(
        &r,
        sample(prop::collection::vec(
            step(r.t & 0xFF_FFFF).prop_map(|i| In {
                in_valid: true,
                ..i
            }),
            300,
        )),
    );
    let mut padded = s.clone();
    padded.extend(std::iter::repeat(In::default()).take(LATENCY));
    let padded = with_regs(&r, padded);
    let outs = both::<Ewma, Golden>("cc_ewma_model", &padded).unwrap();
    for (t, i) in s.iter().enumerate() {
        let u_old = padded[t + U_OLD_AT].u_old;
        let o = outs[t + LATENCY];
        assert!(o.out_valid);
        let regs = i.regs();
        assert_eq!(
            o.u_new,
            ewma(u_old, i.u, tau_weight(i.tau, &regs)),
            "{t}: {i:?}"
        );
        assert_eq!(o.u_prev, u_old);
    }
    assert_eq!(LATENCY, nic_hdl::cc::ewma::LATENCY);
    assert_eq!(U_OLD_AT, nic_hdl::cc::ewma::U_OLD_AT);
}
