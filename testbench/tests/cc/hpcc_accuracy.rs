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
