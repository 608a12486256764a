//! The fixed-point model (bit-exact with the RTL, see `hpcc.rs`) against
//! the f64 reference, given the same quantised parameters
//! (`CcParams::effective`), so only the arithmetic differs.
//!
//! Random traces: the scenarios of the co-simulation tests (no bad input),
//! every UPDATE event compared. The closed-loop comparison is in
//! `netsim/tests/fluid.rs` (the loop is an environment).

use super::params;
use nic_golden::cc::hpcc::CcEvent;
use nic_testbench::cc::{scenario, w_errors, GenCfg};
use proptest::prelude::*;

proptest! {
    #![proptest_config(crate::common::config(64))]
    /// Random traces: every W within 0.1 % of the f64 reference (`make
    /// bench` measures the worst case over 400 k events: about 0.01 %).
    #[test]
    fn fixed_tracks_f64_on_random_traces(seed in any::<u64>(), p in params(), flows in 1u16..8) {
        let ev: Vec<CcEvent> = scenario(seed, &p, 2000, GenCfg { flows, burst_pct: 30, bad_pct: 0, gap_max: 0, max_hops: 5 })
            .into_iter().map(|(_, e)| e).collect();
        let err = w_errors(&p, &ev);
        let max = err.iter().cloned().fold(0.0, f64::max);
        prop_assert!(max < 1e-3, "max relative W error {max:.3e}");
    }
}

/// Known gap (`docs/status.md`): an exact tie in the hop maximum
/// (line 6, `u' > u`). Here hops 3 and 4 of event 510 have
/// u' = 16640/14625 = 1024/900 exactly; exact arithmetic (and the f64
/// reference) keeps hop 3 (tau 39 ns), the fixed-point model's truncated
/// terms make hop 4 larger (tau 36 ns), so line 9's EWMA weight differs by
/// 3/585 and U by 1.2e-3, and W by up to 0.2 % over the next RTT. Found by
/// `fixed_tracks_f64_on_random_traces`; ignored until the tie rule is
/// settled (see `docs/status.md`).
#[test]
#[ignore = "known gap: hop-maximum ties resolved differently by fixed-point truncation"]
fn hop_max_exact_tie_tracks_f64() {
    use nic_golden::cc::params::{CcParams, Variant};
    let p = CcParams {
        variant: Variant::Sender,
        base_rtt_ns: 585.0,
        eta: 0.8469026844850633,
        max_stage: 0,
        w_ai_bytes: 746.3494131353162,
        w_min_bytes: 146.25,
        line_rate_gbps: 200.0,
        int_multi: 8,
        flows: 1024,
    };
    let cfg = GenCfg {
        flows: 3,
        burst_pct: 30,
        bad_pct: 0,
        gap_max: 0,
        max_hops: 5,
    };
    let ev: Vec<CcEvent> = scenario(14417574204469804579, &p, 2000, cfg)
        .into_iter()
        .map(|(_, e)| e)
        .collect();
    let max = w_errors(&p, &ev).into_iter().fold(0.0, f64::max);
    assert!(max < 1e-3, "max relative W error {max:.3e}");
}
