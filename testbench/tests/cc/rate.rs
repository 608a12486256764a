//! `hdl/src/cc/rate.rs` (pseudocode line 27, R = W/T) against
//! `nic_golden::cc::rate`: every port every cycle on both engines.

use super::regs;
use crate::common::*;
use nic_golden::cc::rate::{rate, In, Rate as Golden, LATENCY};
use nic_hdl::cc::Rate;
use proptest::prelude::*;

fn stim(len: usize) -> impl Strategy<Value = Vec<In>> {
    (
        regs(),
        prop::collection::vec((operand(32), chance(80)), 1..len),
    )
        .prop_map(|(r, s)| {
            s.into_iter()
                .map(|(w, v)| In {
                    in_valid: v,
                    w: w as u32,
                    cfg_inv_t_m: r.inv_t_m,
                    cfg_inv_t_s: r.inv_t_s,
                })
                .collect()
        })
}

proptest! {
    #![proptest_config(config(64))]
    /// Both engines, every port, every cycle; each R is `rate(W)`.
    #[test]
    fn rate_matches_golden(s in stim(60)) {
        let outs = both::<Rate, Golden>("cc_rate", &s)?;
        for (t, i) in s.iter().enumerate().filter(|(t, i)| i.in_valid && t + LATENCY < s.len()) {
            let regs = nic_golden::cc::params::CcRegs {
                inv_t_m: i.cfg_inv_t_m,
                inv_t_s: i.cfg_inv_t_s,
                ..Default::default()
            };
            prop_assert_eq!(outs[t + LATENCY].r, rate(i.w, &regs));
        }
    }
}

#[test]
fn rate_latency() {
    assert_eq!(LATENCY, nic_hdl::cc::rate::LATENCY);
}
