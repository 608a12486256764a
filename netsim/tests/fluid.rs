//! The fixed-point CC model against the f64 reference in the closed loop
//! of [`nic_netsim::fluid`] (flows through one bottleneck): the f64 run's
//! events replayed into the fixed-point model ("shadow"), and the
//! fixed-point model driving its own loop.

use nic_engines::cc::w_errors;
use nic_golden::cc::hpcc::{op, CcEvent, HpccFixed};
use nic_golden::cc::hpcc_ref::HpccRef;
use nic_golden::cc::params::CcParams;
use nic_netsim::fluid::{run, Fixed, FluidCfg};

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
