//! Tests of the congestion-control blocks (`hdl/src/cc`).

mod compute_wind;
mod dcqcn;
mod dcqcn_np;
mod ewma;
mod hop_max;
mod hpcc;
mod hpcc_accuracy;
mod increase_step;
mod int_ns3;
mod measure_inflight;
mod period_epoch;
mod rate;
mod rp_counters;
mod rp_new_state;

use crate::common::operand;
use nic_golden::cc::params::{w_ai_rule_of_thumb, CcParams, CcRegs, Variant, RATE_GBPS};
use proptest::prelude::*;

/// Random HPCC++ parameters over the ranges a deployment uses.
pub fn params() -> impl Strategy<Value = CcParams> {
    (
        any::<bool>(),
        prop_oneof![Just(5000.0), 1000.0..100_000.0f64, 64.0..1000.0f64],
        prop_oneof![Just(0.95), 0.5..0.999f64],
        0u32..=7,
        0usize..5,
        0u32..5,
        1u32..1000,
    )
        .prop_map(|(rx, t, eta, max_stage, rate, mlog, n)| {
            let line = RATE_GBPS[rate];
            let t = t.round();
            let w_init = line / 8.0 * t;
            CcParams {
                variant: if rx {
                    Variant::Receiver
                } else {
                    Variant::Sender
                },
                base_rtt_ns: t,
                eta,
                max_stage,
                w_ai_bytes: w_ai_rule_of_thumb(w_init, eta, n),
                // At least a minimum-size packet: W has 1/256-byte
                // resolution, 0.1 % of W only from 4 bytes up.
                w_min_bytes: (w_init / 100.0).max(64.0).min(w_init),
                line_rate_gbps: line,
                int_multi: 1 << mlog,
                flows: 1024,
            }
        })
}

/// Configuration registers for the blocks' tests: mostly those of random
/// deployments ([`params`]), sometimes any bit pattern (outside the
/// driver's ranges: the blocks must still match their twins).
pub fn regs() -> impl Strategy<Value = CcRegs> {
    let any_regs = (
        (operand(24), operand(32), any::<u8>(), operand(32)),
        (
            operand(16),
            0u8..8,
            operand(32),
            operand(32),
            operand(32),
            0u8..8,
        ),
    )
        .prop_map(
            |((t, inv_t_m, inv_t_s, uq_m), (eta, max_stage, w_ai, w_min, w_init, mlog))| CcRegs {
                t: t as u32,
                inv_t_m: inv_t_m as u32,
                inv_t_s,
                uq_m: uq_m as u32,
                eta: eta as u16,
                max_stage,
                w_ai: w_ai as u32,
                w_min: w_min as u32,
                w_init: w_init as u32,
                mlog,
            },
        );
    prop_oneof![
        3 => params().prop_map(|p| p.regs().unwrap()),
        1 => any_regs,
    ]
}
