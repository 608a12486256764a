//! Benchmarks behind `make bench`: engine speed, and the measured latency
//! and initiation interval of every arithmetic block.
//!
//! Every figure is a named number with its unit in the name, collected in
//! a flat map that `make bench` writes to `build/bench.json`.

use crate::cosim::{engine, EngineKind};
use crate::{Engine, Harness};
use nic_golden::arith;
use nic_golden::stream;
use std::collections::BTreeMap;
use std::time::Instant;

pub type Figures = BTreeMap<String, f64>;

/// xorshift64: deterministic operands without a dependency.
pub struct Rng(pub u64);
impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// Cycles per second of `kind` running `stim` (looped to `cycles`).
fn speed<H: Harness + Default + 'static>(kind: EngineKind, stim: &[H::In], cycles: usize) -> f64 {
    let mut e: Box<dyn Engine<H>> = engine::<H>(kind, "bench");
    // Warm up (and, for Verilator, build or load the model) outside the timing.
    for i in stim.iter().take(16) {
        e.step(i);
    }
    let t0 = Instant::now();
    for k in 0..cycles {
        std::hint::black_box(e.step(&stim[k % stim.len()]));
    }
    cycles as f64 / t0.elapsed().as_secs_f64()
}

/// Engine speed on one design: both engines, same stimulus, and the ratio.
fn engine_speed<H: Harness + Default + 'static>(
    name: &str,
    stim: &[H::In],
    rusthdl_cycles: usize,
    verilator_cycles: usize,
    f: &mut Figures,
) {
    let r = speed::<H>(EngineKind::RustHdl, stim, rusthdl_cycles);
    let v = speed::<H>(EngineKind::Verilator, stim, verilator_cycles);
    f.insert(format!("{name}_rusthdl_cycles_per_s"), r.round());
    f.insert(format!("{name}_verilator_cycles_per_s"), v.round());
    f.insert(
        format!("{name}_verilator_speedup_ratio"),
        (v / r * 10.0).round() / 10.0,
    );
}

/// Latency (cycles from `in_valid` to `out_valid`) and initiation interval
/// (cycles between results with an operation offered every cycle),
/// measured on Verilator.
fn latency_ii<H: Harness + Default + 'static>(
    name: &str,
    op: impl Fn(bool) -> H::In,
    valid: impl Fn(&H::Out) -> bool,
    f: &mut Figures,
) {
    let mut e = engine::<H>(EngineKind::Verilator, "bench_latency");
    let mut lat = None;
    for t in 0..200 {
        let o = e.step(&op(t == 0));
        if valid(&o) {
            lat = Some(t);
            break;
        }
    }
    let lat = lat.expect("no result within 200 cycles");
    let mut e = engine::<H>(EngineKind::Verilator, "bench_ii");
    let n = 1000;
    let results = (0..n + lat).filter(|&t| valid(&e.step(&op(t < n)))).count();
    f.insert(format!("{name}_latency_cycles"), lat as f64);
    f.insert(format!("{name}_ii_cycles"), n as f64 / results as f64);
}

/// Run every benchmark.
pub fn run_all() -> Figures {
    use nic_hdl::arith::*;
    use nic_hdl::top::*;
    let mut f = Figures::new();
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);

    let mul: Vec<_> = (0..4096)
        .map(|_| {
            let r = rng.next();
            arith::wide_mul::In {
                a: r as u32,
                b: (r >> 32) as u32,
                in_valid: true,
            }
        })
        .collect();
    engine_speed::<WideMul>("wide_mul", &mul, 20_000, 5_000_000, &mut f);

    let div: Vec<_> = (0..4096)
        .map(|_| arith::divider::In {
            a: rng.next() & 0xffff_ffff,
            d: rng.next() & 0xffff,
            in_valid: true,
        })
        .collect();
    engine_speed::<Divider32>("divider32", &div, 3_000, 2_000_000, &mut f);

    let st: Vec<_> = (0..4096)
        .map(|_| {
            let r = rng.next();
            stream::In {
                s_tdata: r as u128,
                s_tkeep: 0xff,
                s_tlast: r & 1 == 0,
                s_tuser: 0,
                s_tvalid: r & 6 != 0,
                m_tready: r & 24 != 0,
            }
        })
        .collect();
    engine_speed::<AxisFifo64>("axis_fifo64", &st, 10_000, 5_000_000, &mut f);

    latency_ii::<WideMul>(
        "wide_mul",
        |v| arith::wide_mul::In {
            a: 3,
            b: 5,
            in_valid: v,
        },
        |o| o.out_valid,
        &mut f,
    );
    latency_ii::<Divider32>(
        "divider32",
        |v| arith::divider::In {
            a: 7,
            d: 3,
            in_valid: v,
        },
        |o| o.out_valid,
        &mut f,
    );
    latency_ii::<Normalize32>(
        "normalize32",
        |v| arith::normalize::In { x: 9, in_valid: v },
        |o| o.out_valid,
        &mut f,
    );
    latency_ii::<SatAddSub32>(
        "sat_add_sub32",
        |v| arith::sat_add_sub::In {
            a: 1,
            b: 2,
            sub: false,
            in_valid: v,
        },
        |o| o.out_valid,
        &mut f,
    );
    latency_ii::<MinMax32>(
        "min_max32",
        |v| arith::min_max::In {
            a: 1,
            b: 2,
            in_valid: v,
        },
        |o| o.out_valid,
        &mut f,
    );
    latency_ii::<AxisSkid64>(
        "axis_skid64",
        |v| stream::In {
            s_tvalid: v,
            m_tready: true,
            ..Default::default()
        },
        |o| o.m_tvalid,
        &mut f,
    );
    latency_ii::<AxisFifo64>(
        "axis_fifo64",
        |v| stream::In {
            s_tvalid: v,
            m_tready: true,
            ..Default::default()
        },
        |o| o.m_tvalid,
        &mut f,
    );
    f
}
