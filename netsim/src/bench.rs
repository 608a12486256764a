//! The figures of `make bench` that need the environment: the CC module's
//! fixed-point model against the f64 reference in a closed loop
//! ([`crate::fluid`]). The block figures are `nic_testbench::bench`.

use crate::fluid::{run, Fixed, FluidCfg, FluidRun};
use nic_golden::cc::hpcc::{op, CcEvent, HpccFixed};
use nic_golden::cc::hpcc_ref::HpccRef;
use nic_golden::cc::params::CcParams;
pub use nic_testbench::bench::Figures;

/// Every figure of this crate.
pub fn run_all() -> Figures {
    let mut f = Figures::new();
    bench_cc_closed_loop(&mut f);
    f
}

/// Closed loop (the draft's defaults, 100G, one bottleneck), 1, 4 and 16
/// flows: the f64 run's ACKs replayed into the fixed model (shadow), each
/// model driving its own loop (mean total W, utilisation), and the loop's
/// own sensitivity (f64 against f64 with eta moved by 10^-6).
pub fn bench_cc_closed_loop(f: &mut Figures) {
    let p = CcParams::default();
    let regs = p.regs().unwrap();
    // Closed loop (the draft's defaults, 100G, one bottleneck).
    for flows in [1usize, 4, 16] {
        let cfg = FluidCfg {
            flows,
            duration_ns: 4.0e6,
            ..Default::default()
        };
        let mut m_ref = HpccRef::new(&p.effective().unwrap());
        let ref_run = run(&p, &cfg, &mut m_ref);
        let mut shadow_ref = HpccRef::new(&p.effective().unwrap());
        let mut shadow_fix = HpccFixed::new(10);
        for k in 0..flows {
            let c = CcEvent {
                op: op::CREATE,
                flow: k as u16,
                ..Default::default()
            };
            shadow_ref.process(&c);
            shadow_fix.process(&c, &regs);
        }
        let mut max = 0.0f64;
        for e in &ref_run.events {
            let a = shadow_ref.process(e).w;
            let b = shadow_fix.process(e, &regs).w as f64 / 256.0;
            max = max.max(((b - a) / a).abs());
        }
        f.insert(
            format!("hpcc_closed_loop_{flows}flows_shadow_max_rel_err"),
            max,
        );
        let mut fx = Fixed(HpccFixed::new(10), regs);
        let fix_run = run(&p, &cfg, &mut fx);
        let total = |r: &FluidRun| r.mean_w(flows, 2.0e6).iter().sum::<f64>();
        let (a, b) = (total(&ref_run), total(&fix_run));
        f.insert(
            format!("hpcc_closed_loop_{flows}flows_mean_total_w_rel_err"),
            (b - a) / a,
        );
        let util = |r: &FluidRun| {
            (r.delivered as f64 / (cfg.link_gbps / 8.0 * cfg.duration_ns) * 1e4).round() / 1e4
        };
        f.insert(
            format!("hpcc_closed_loop_{flows}flows_utilisation_f64"),
            util(&ref_run),
        );
        f.insert(
            format!("hpcc_closed_loop_{flows}flows_utilisation_fixed"),
            util(&fix_run),
        );
        // The same f64 model with eta changed by 1 part in 10^6 (the size
        // of one fixed-point rounding): how far the loop's own dynamics
        // move the mean (the noise floor of the comparison above).
        let mut p2 = p.effective().unwrap();
        p2.eta *= 1.0 + 1e-6;
        let mut m2 = HpccRef::new(&p2);
        let pert = run(&p, &cfg, &mut m2);
        f.insert(
            format!("hpcc_closed_loop_{flows}flows_f64_perturbed_rel_diff"),
            (total(&pert) - a) / a,
        );
    }
}
