//! The fixed-point model (bit-exact with the RTL, see `hpcc.rs`) against
//! the f64 reference, given the same quantised parameters
//! (`CcParams::effective`), so only the arithmetic differs.
//!
//! - Random traces: the scenarios of the co-simulation tests (no bad
//!   input), every UPDATE event compared.
//! - Closed loop: the `fluid` scenario (flows through one bottleneck), the
//!   f64 run's events replayed into the fixed-point model ("shadow"), and
//!   the fixed-point model driving its own closed loop.

use super::params;
use nic_golden::cc::fluid::{run, Fixed, FluidCfg};
use nic_golden::cc::hpcc::{op, status, CcEvent, HpccFixed};
use nic_golden::cc::hpcc_ref::HpccRef;
use nic_golden::cc::params::CcParams;
use nic_testbench::cc::{scenario, GenCfg};
use proptest::prelude::*;

/// Relative error of W, per UPDATE event, over an event list.
fn w_errors(p: &CcParams, events: &[CcEvent]) -> Vec<f64> {
    let regs = p.regs().unwrap();
    let mut r = HpccRef::new(&p.effective().unwrap());
    let mut f = HpccFixed::new(p.flows_log2().unwrap());
    events
        .iter()
        .filter_map(|e| {
            let a = r.process(e);
            let b = f.process(e, &regs);
            assert_eq!(a.status, b.status);
            (a.status == status::UPDATE).then(|| ((b.w as f64 / 256.0 - a.w) / a.w).abs())
        })
        .collect()
}

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

/// Closed loop, one flow and four, the draft's defaults at 100G: the
/// shadowed fixed-point W stays within 0.01 % of the f64 reference on
/// every ACK, and with one flow the fixed-point model's own closed loop
/// settles to the same mean window within 0.01 %.
#[test]
fn fixed_tracks_f64_closed_loop() {
    let p = CcParams::default();
    for flows in [1usize, 4] {
        let cfg = FluidCfg {
            flows,
            duration_ns: 2.0e6,
            ..Default::default()
        };
        let mut r = HpccRef::new(&p.effective().unwrap());
        let ref_run = run(&p, &cfg, &mut r);
        let mut ev: Vec<CcEvent> = (0..flows)
            .map(|k| CcEvent {
                op: op::CREATE,
                flow: k as u16,
                ..Default::default()
            })
            .collect();
        ev.extend(ref_run.events.iter().cloned());
        let err = w_errors(&p, &ev);
        let max = err.iter().cloned().fold(0.0, f64::max);
        assert!(err.len() > 10_000);
        assert!(
            max < 1e-4,
            "{flows} flows: shadow max relative W error {max:.3e}"
        );
        if flows == 1 {
            let mut fx = Fixed(HpccFixed::new(10), p.regs().unwrap());
            let fix_run = run(&p, &cfg, &mut fx);
            let a = ref_run.mean_w(1, 1.0e6)[0];
            let b = fix_run.mean_w(1, 1.0e6)[0];
            assert!(((b - a) / a).abs() < 1e-4, "closed-loop mean W {a} vs {b}");
        }
    }
}
