//! Stimulus for the DCQCN reaction point (`hdl/src/cc/dcqcn.rs`) and the
//! fixed-point-against-f64 measurement, shared by its tests, `make bench`
//! and `hpccnic cc-replay --algo dcqcn`.
//!
//! The stimulus is open loop: each cycle an event may be offered; one the
//! RP does not accept that cycle (interlock) is not offered again, which
//! both the twin and the RTL see alike.

use nic_golden::cc::dcqcn::{Applied, DcqcnRp, In, OP_CNP, OP_CREATE, OP_DESTROY, OP_SENT};
use nic_golden::cc::dcqcn_params::{DcqcnCfg, DcqcnParams, RATE_FRAC};
use nic_golden::cc::dcqcn_ref::DcqcnRef;
use nic_golden::cc::RpEvent;
use nic_golden::Cycle;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// What a random event stream holds.
#[derive(Clone, Copy, Debug)]
pub struct RpGen {
    /// Flows 0..flows are used (CREATEd at the start).
    pub flows: u16,
    /// An event offered in this percentage of cycles.
    pub load_pct: u32,
    /// Of the events: CNPs, SENTs, CREATEs, DESTROYs (relative weights).
    pub w_cnp: u32,
    pub w_sent: u32,
    pub w_create: u32,
    pub w_destroy: u32,
    /// Events for a flow id out of range (≥ 2^A) or never created, %.
    pub bad_pct: u32,
    /// A CNP for this flow every cycle in [from, to) (a CNP flood).
    pub flood: Option<(u16, usize, usize)>,
}

impl Default for RpGen {
    fn default() -> Self {
        Self {
            flows: 8,
            load_pct: 30,
            w_cnp: 30,
            w_sent: 60,
            w_create: 3,
            w_destroy: 1,
            bad_pct: 0,
            flood: None,
        }
    }
}

/// `cycles` inputs: the flows' CREATEs first (one per cycle, offered
/// until taken is not needed: nothing is in flight yet), then random
/// events under `g`, all with the registers `cfg`.
pub fn stimulus(seed: u64, cfg: DcqcnCfg, g: &RpGen, a: usize, cycles: usize) -> Vec<In> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let idle = In {
        cfg,
        ev_valid: false,
        ev: RpEvent::default(),
    };
    let mut v = Vec::with_capacity(cycles);
    for f in 0..g.flows {
        v.push(In {
            ev_valid: true,
            ev: RpEvent {
                op: OP_CREATE,
                flow: f,
                bytes: 0,
            },
            ..idle
        });
    }
    let wsum = (g.w_cnp + g.w_sent + g.w_create + g.w_destroy).max(1);
    while v.len() < cycles {
        let c = v.len();
        if let Some((f, from, to)) = g.flood {
            if (from..to).contains(&c) {
                v.push(In {
                    ev_valid: true,
                    ev: RpEvent {
                        op: OP_CNP,
                        flow: f,
                        bytes: 0,
                    },
                    ..idle
                });
                continue;
            }
        }
        if rng.gen_range(0..100) >= g.load_pct {
            v.push(idle);
            continue;
        }
        let k = rng.gen_range(0..wsum);
        let op = if k < g.w_cnp {
            OP_CNP
        } else if k < g.w_cnp + g.w_sent {
            OP_SENT
        } else if k < g.w_cnp + g.w_sent + g.w_create {
            OP_CREATE
        } else {
            OP_DESTROY
        };
        let flow = if rng.gen_range(0..100) < g.bad_pct {
            if rng.gen_bool(0.5) {
                // Out of range (or, at A = 16, never created).
                rng.gen_range((1u32 << a).min(0xffff) as u16..=0xffff)
            } else {
                // In range, never created by this stream.
                rng.gen_range(g.flows.min(((1u32 << a) - 1) as u16)..=((1u32 << a) - 1) as u16)
            }
        } else {
            rng.gen_range(0..g.flows.max(1))
        };
        let bytes = match rng.gen_range(0..4) {
            0 => 64,
            1 => 1024,
            2 => 4096,
            _ => rng.gen_range(0..=0xffff),
        };
        v.push(In {
            ev_valid: true,
            ev: RpEvent { op, flow, bytes },
            ..idle
        });
    }
    v
}

/// Registers for simulation tests: the defaults at 100G with the periods
/// shortened so that thousands of cycles see many α, decrease and
/// increase periods.
pub fn fast_params(alpha_cycles: u32, dec_cycles: u32, inc_cycles: u32) -> DcqcnParams {
    let p = DcqcnParams::default();
    let us = |c: u32| c as f64 * p.ns_per_cycle / 1000.0;
    DcqcnParams {
        alpha_period_us: us(alpha_cycles),
        dec_period_us: us(dec_cycles),
        inc_period_us: us(inc_cycles),
        ..p
    }
}

/// The relative error of the fixed-point Rc against the f64 reference
/// after every operation that changed a flow's rate, for the RP twin run
/// on `stimulus` with the registers of `p`. The f64 reference takes the
/// physical `p` (not its quantised registers).
pub fn rc_errors<const A: usize>(p: &DcqcnParams, stimulus: &[In]) -> Vec<f64> {
    let mut rp = DcqcnRp::<A>::default();
    let mut r = DcqcnRef::new(p.clone(), 1 << A);
    let one = (1u64 << RATE_FRAC) as f64;
    let mut err = Vec::new();
    let mut run = |a: Applied, rp_rc: u32| {
        let before = r.flows.get(a.flow as usize).map(|f| f.rc);
        if let Some(x) = r.apply(&a) {
            let fixed = rp_rc as f64 / one;
            if before != Some(x) && x > 0.0 {
                err.push((fixed - x).abs() / x);
            }
        }
    };
    for i in stimulus {
        rp.step(i);
        if let Some(a) = rp.applied() {
            run(a, a.after.rc);
        }
    }
    // Drain the pipeline.
    let idle = In {
        ev_valid: false,
        ..stimulus.last().copied().unwrap_or_default()
    };
    for _ in 0..16 {
        rp.step(&idle);
        if let Some(a) = rp.applied() {
            run(a, a.after.rc);
        }
    }
    err
}

/// Max and mean of a list of errors.
pub fn max_mean(e: &[f64]) -> (f64, f64) {
    let max = e.iter().cloned().fold(0.0, f64::max);
    let mean = if e.is_empty() {
        0.0
    } else {
        e.iter().sum::<f64>() / e.len() as f64
    };
    (max, mean)
}
