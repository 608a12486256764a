//! `hdl/src/cc/compute_wind.rs` (pseudocode lines 11–20) against
//! `nic_golden::cc::compute_wind`: every port every cycle on both
//! engines.

use super::regs;
use crate::common::*;
use nic_golden::cc::compute_wind::{
    compute_wind, update_wc, ComputeWind as Golden, In, LATENCY, STATE_AT,
};
use nic_golden::cc::params::CcRegs;
use nic_hdl::cc::ComputeWind;
use proptest::prelude::*;

fn step(w_init: u32) -> impl Strategy<Value = In> {
    let w = prop_oneof![
        3 => 0..=w_init.max(1),
        1 => operand(32).prop_map(|x| x as u32),
    ];
    (
        prop_oneof![
            3 => 0u32..(4 << 24),
            1 => operand(32).prop_map(|x| x as u32),
        ],
        (w.clone(), w),
        (0u8..8, any::<bool>(), chance(80)),
    )
        .prop_map(|(u, (w_old, wc_old), (inc_old, update_wc, v))| In {
            in_valid: v,
            u,
            w_old,
            wc_old,
            inc_old,
            update_wc,
            ..Default::default()
        })
}

fn with_regs(r: &CcRegs, mut s: Vec<In>) -> Vec<In> {
    for i in &mut s {
        i.cfg_eta = r.eta;
        i.cfg_max_stage = r.max_stage;
        i.cfg_w_ai = r.w_ai;
        i.cfg_w_min = r.w_min;
        i.cfg_w_init = r.w_init;
    }
    s
}

fn stim(len: usize) -> impl Strategy<Value = Vec<In>> {
    regs().prop_flat_map(move |r| {
        prop::collection::vec(step(r.w_init), 1..len).prop_map(move |s| with_regs(&r, s))
    })
}

proptest! {
    #![proptest_config(config(32))]
    /// Both engines, every port, every cycle.
    #[test]
    fn compute_wind_matches_golden(s in stim(120)) {
        both::<ComputeWind, Golden>("cc_compute_wind", &s)?;
    }
}

proptest! {
    #![proptest_config(config(16))]
    /// Long streams on Verilator alone.
    #[test]
    fn compute_wind_volume_verilator(s in stim(3000)) {
        verilator::<ComputeWind, Golden>("cc_compute_wind_volume", &s)?;
    }
}

/// Each valid U, with the state given STATE_AT and `update_wc` LATENCY
/// cycles later, gives the transaction model's `compute_wind` and
/// `update_wc` (the functions `HpccFixed` calls).
#[test]
fn compute_wind_is_the_transaction_model() {
    let r = sample(regs());
    let s = with_regs(
        &r,
        sample(prop::collection::vec(
            step(r.w_init).prop_map(|i| In {
                in_valid: true,
                ..i
            }),
            300,
        )),
    );
    let mut padded = s.clone();
    padded.extend(std::iter::repeat(In::default()).take(LATENCY));
    let padded = with_regs(&r, padded);
    let outs = both::<ComputeWind, Golden>("cc_compute_wind_model", &padded).unwrap();
    let regs = s[0].regs();
    for (t, i) in s.iter().enumerate() {
        let st = padded[t + STATE_AT];
        let upd = padded[t + LATENCY].update_wc;
        let (w, md) = compute_wind(i.u, st.wc_old, st.inc_old, &regs);
        let (wc, inc) = update_wc(upd, w, md, st.wc_old, st.inc_old);
        let o = outs[t + LATENCY];
        assert!(o.out_valid);
        assert_eq!((o.w, o.wc, o.inc_stage), (w, wc, inc), "{t}: {i:?}");
        assert_eq!((o.w_prev, o.inc_prev), (st.w_old, st.inc_old));
    }
    assert_eq!(LATENCY, nic_hdl::cc::compute_wind::LATENCY);
    assert_eq!(STATE_AT, nic_hdl::cc::compute_wind::STATE_AT);
}
