//! Benchmarks behind `make bench`: engine speed, and the measured latency
//! and initiation interval of every arithmetic block.
//!
//! Every figure is a named number with its unit in the name, collected in
//! a flat map that `make bench` writes to `build/bench.json`.

pub mod roce;

use crate::cosim::{engine, EngineKind};
use crate::figures::{figures, Figures};
use crate::{Engine, Harness};
use nic_golden::arith;
use nic_golden::stream;
use nic_golden::stream::Axis;
use std::time::Instant;

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
    let mut f = figures();
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
                s: Axis {
                    tdata: r as u128,
                    tkeep: 0xff,
                    tlast: r & 1 == 0,
                    tuser: 0,
                    tvalid: r & 6 != 0,
                },
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
            s: Axis {
                tvalid: v,
                ..Default::default()
            },
            m_tready: true,
            ..Default::default()
        },
        |o| o.m.tvalid,
        &mut f,
    );
    latency_ii::<AxisFifo64>(
        "axis_fifo64",
        |v| stream::In {
            s: Axis {
                tvalid: v,
                ..Default::default()
            },
            m_tready: true,
            ..Default::default()
        },
        |o| o.m.tvalid,
        &mut f,
    );
    bench_cc(&mut f);
    bench_sched(&mut f);
    bench_dcqcn(&mut f);
    roce::bench_roce(&mut f);
    f
}

/// The CC module: latency, II (different flows / one flow), events per
/// second on each engine, and the fixed-point error against the f64
/// reference.
fn bench_cc(f: &mut Figures) {
    use crate::cc::{expand, scenario, GenCfg};
    use nic_golden::cc::hpcc::{op, status, CcEvent, HpccFixed};
    use nic_golden::cc::hpcc_ref::HpccRef;
    use nic_golden::cc::params::{w_ai_rule_of_thumb, CcParams, Variant, RATE_GBPS};
    use nic_hdl::top::HpccCc1024;
    type H = HpccCc1024;

    let p = CcParams::default();
    let regs = p.regs().unwrap();
    // Latency: one event into an idle module.
    let stim = expand::<10>(
        &regs,
        &[(
            0,
            CcEvent {
                op: op::CREATE,
                flow: 1,
                ..Default::default()
            },
        )],
    );
    let mut e = engine::<H>(EngineKind::Verilator, "bench_cc");
    let lat = stim.iter().position(|i| e.step(i).update_valid).unwrap();
    f.insert("hpcc_cc_latency_cycles".into(), lat as f64);
    // II: events offered back to back, 16 flows in turn, then one flow.
    for (name, flows) in [
        ("hpcc_cc_ii_cycles", 16u16),
        ("hpcc_cc_same_flow_ii_cycles", 1),
    ] {
        let ev: Vec<(u32, CcEvent)> = (0..4000u32)
            .map(|k| {
                (
                    0,
                    CcEvent {
                        op: op::CREATE,
                        flow: (k % flows as u32) as u16,
                        ..Default::default()
                    },
                )
            })
            .collect();
        let stim = expand::<10>(&regs, &ev);
        let first = stim.iter().position(|i| i.event_valid).unwrap();
        let last = stim.iter().rposition(|i| i.event_valid).unwrap();
        f.insert(
            name.into(),
            ((last - first + 1) as f64 / ev.len() as f64 * 100.0).round() / 100.0,
        );
    }
    // Engine speed on a telemetry scenario (results per second follow
    // from the II: about one per cycle here).
    let ev = scenario(
        11,
        &p,
        3000,
        GenCfg {
            flows: 64,
            burst_pct: 5,
            bad_pct: 1,
            gap_max: 0,
            max_hops: 5,
        },
    );
    let stim = expand::<10>(&regs, &ev);
    engine_speed::<H>("hpcc_cc", &stim, 3_000, 2_000_000, f);

    // Fixed point against f64 (same quantised parameters), random traces.
    let mut rng = Rng(0x5eed);
    let (mut max, mut sum, mut n) = (0.0f64, 0.0, 0usize);
    for seed in 0..200u64 {
        let r = rng.next();
        let line = RATE_GBPS[(r % 5) as usize];
        let t = [5000.0, 1000.0, 20000.0, 300.0][(r >> 8) as usize % 4];
        let eta = [0.95, 0.9, 0.99, 0.8][(r >> 16) as usize % 4];
        let w_init = line / 8.0 * t;
        let p = CcParams {
            variant: if r >> 24 & 1 == 0 {
                Variant::Sender
            } else {
                Variant::Receiver
            },
            base_rtt_ns: t,
            eta,
            max_stage: (r >> 32) as u32 % 8,
            w_ai_bytes: w_ai_rule_of_thumb(w_init, eta, 1 + (r >> 40) as u32 % 1000),
            w_min_bytes: (w_init / 100.0).max(64.0).min(w_init),
            line_rate_gbps: line,
            int_multi: 1 << ((r >> 48) % 5),
            flows: 1024,
        };
        let regs = p.regs().unwrap();
        let g = GenCfg {
            flows: 1 + (r >> 56) as u16 % 8,
            burst_pct: 30,
            bad_pct: 0,
            gap_max: 0,
            max_hops: 5,
        };
        let mut m_ref = HpccRef::new(&p.effective().unwrap());
        let mut m_fix = HpccFixed::new(10);
        for (_, e) in scenario(seed, &p, 2000, g) {
            let a = m_ref.process(&e);
            let b = m_fix.process(&e, &regs);
            if a.status == status::UPDATE {
                let err = ((b.w as f64 / 256.0 - a.w) / a.w).abs();
                max = max.max(err);
                sum += err;
                n += 1;
            }
        }
    }
    f.insert("hpcc_fixed_vs_f64_random_max_rel_err".into(), max);
    f.insert(
        "hpcc_fixed_vs_f64_random_mean_rel_err".into(),
        sum / n as f64,
    );
    f.insert("hpcc_fixed_vs_f64_random_events".into(), n as f64);
}

/// The flow scheduler at 1024 flows, on Verilator, compared with the
/// golden model in lockstep on every cycle of every run (a mismatch
/// aborts the benchmark): rate accuracy, throughput, fairness, reaction,
/// and engine speed.
pub fn bench_sched(f: &mut Figures) {
    use crate::sched::{reaction_stimulus, run, Env, EnvCfg, Recorder, RunStats};
    use nic_golden::sched::flow_sched as fs;
    use nic_hdl::top::FlowSched1024;
    type H = FlowSched1024;
    let go = |cfg: EnvCfg, cycles: u64| -> RunStats {
        let mut env = Env::new(cfg);
        let mut e = engine::<H>(EngineKind::Verilator, "bench_sched");
        run::<10, H>(&mut env, Some(e.as_mut()), cycles)
            .expect("RTL != golden")
            .1
    };
    // Rate accuracy: N backlogged flows at random rates summing to 95 % of
    // line rate.
    for (n, mtu, cycles) in [
        (4usize, 1024u32, 1_000_000u64),
        (64, 1024, 2_000_000),
        (1024, 256, 6_000_000),
    ] {
        let cfg = EnvCfg::rate_scenario(n, 0.95, mtu, n as u64);
        let programmed = cfg.programmed_rates();
        let (worst, min_pkts) = go(cfg, cycles).worst_rate_error(&programmed);
        f.insert(format!("sched_rate_worst_rel_err_{n}flows"), worst);
        f.insert(
            format!("sched_rate_min_packets_per_flow_{n}flows"),
            min_pkts as f64,
        );
    }
    // Throughput, after start-up (cycle 2000).
    for ready in [100u32, 50] {
        let st = go(EnvCfg::throughput_scenario(ready), 100_000);
        let (sends, ready_cycles) = st.sends_and_ready_from(2000);
        f.insert(
            format!("sched_sends_per_cycle_tx_ready_{ready}pct"),
            sends as f64 / 98_000.0,
        );
        f.insert(
            format!("sched_sends_per_ready_cycle_tx_ready_{ready}pct"),
            (sends as f64 / ready_cycles as f64 * 1e4).round() / 1e4,
        );
    }
    // Fairness: 64 equal-rate flows asking twice the line rate.
    let st = go(EnvCfg::fairness_scenario(2.0), 1_000_000);
    f.insert(
        "sched_jain_64flows_oversubscribed".into(),
        (st.jain(64, 100_000, 1_000_000) * 1e5).round() / 1e5,
    );
    // Reaction: an UPDATE that opens a parked flow's window, to its first
    // PktSend (idle scheduler).
    let (s, t) = reaction_stimulus();
    let mut e = engine::<H>(EngineKind::Verilator, "bench_sched_reaction");
    let first = s
        .iter()
        .enumerate()
        .position(|(k, i)| e.step(i).send_valid && k >= t)
        .unwrap();
    f.insert("sched_update_to_pktsend_cycles".into(), (first - t) as f64);
    f.insert(
        "sched_visit_to_pktsend_cycles".into(),
        fs::SEND_LATENCY as f64,
    );
    // Engine speed on a recorded closed-loop stimulus (64 flows).
    let mut cfg = EnvCfg::new(64, 0.1);
    cfg.mtu = 512;
    cfg.ack_delay = 500;
    cfg.tx_ready_pct = 80;
    let mut env = Env::new(cfg);
    let mut rec = Recorder::<10>::default();
    run::<10, H>(&mut env, Some(&mut rec), 20_000).unwrap();
    engine_speed::<H>("flow_sched", &rec.inputs, 5_000, 2_000_000, f);
}

/// The DCQCN reaction point at 1024 flows, on Verilator, checked against
/// its twin on every cycle (a mismatch aborts the benchmark): CNP to
/// UPDATE latency, events per cycle (CNPs for distinct flows, and a CNP
/// flood on one flow), the fixed point's error against f64, engine speed.
pub fn bench_dcqcn(f: &mut Figures) {
    use crate::dcqcn::{fast_params, max_mean, rc_errors, stimulus, RpGen};
    use nic_golden::cc::dcqcn::{DcqcnRp as G, In, OP_CNP, OP_CREATE};
    use nic_golden::cc::RpEvent;
    use nic_hdl::top::DcqcnRp1024 as H;
    let cfg = fast_params(156, 625, 46_875).regs().unwrap();
    let ev = |op, flow| In {
        cfg,
        ev_valid: true,
        ev: RpEvent { op, flow, bytes: 0 },
    };
    let run = |s: &[In]| {
        crate::check::<H, G<10>>("bench_dcqcn", EngineKind::Verilator, G::default(), s)
            .expect("RTL != golden")
    };
    // Create 1024 flows, then a CNP for each, one per cycle.
    let mut s: Vec<In> = (0..1024).map(|k| ev(OP_CREATE, k)).collect();
    let t0 = s.len();
    s.extend((0..1024).map(|k| ev(OP_CNP, k)));
    s.extend((0..64).map(|_| In {
        ev_valid: false,
        ..ev(0, 0)
    }));
    let o = run(&s);
    let taken = o[t0..t0 + 1024].iter().filter(|o| o.ev_ready).count();
    let first_up = (t0..s.len())
        .find(|&c| o[c].update_valid && o[c].update.flow == 0)
        .unwrap();
    f.insert("dcqcn_cnp_to_update_cycles".into(), (first_up - t0) as f64);
    f.insert(
        "dcqcn_cnps_per_cycle_distinct_flows".into(),
        taken as f64 / 1024.0,
    );
    // A CNP flood on one flow: the port takes them all (merged).
    let mut s: Vec<In> = vec![ev(OP_CREATE, 5)];
    s.extend((0..10).map(|_| In {
        ev_valid: false,
        ..ev(0, 0)
    }));
    let t0 = s.len();
    s.extend((0..10_000).map(|_| ev(OP_CNP, 5)));
    let o = run(&s);
    let taken = o[t0..].iter().filter(|o| o.ev_ready).count();
    f.insert(
        "dcqcn_cnps_per_cycle_flood_one_flow".into(),
        taken as f64 / 10_000.0,
    );
    // Fixed point against f64: 64 flows, 2 M cycles, the defaults at 100G
    // with the increase timer at 10 µs (so flows cut and recover).
    let mut p = fast_params(156, 625, 1562);
    p.byte_reset = 0;
    let g = RpGen {
        flows: 64,
        w_cnp: 2,
        w_sent: 98,
        w_create: 0,
        w_destroy: 0,
        load_pct: 20,
        ..RpGen::default()
    };
    let st = stimulus(1, p.regs().unwrap(), &g, 10, 2_000_000);
    let (max, mean) = max_mean(&rc_errors::<10>(&p, &st));
    f.insert("dcqcn_fixed_vs_f64_rc_max_rel_err".into(), max);
    f.insert("dcqcn_fixed_vs_f64_rc_mean_rel_err".into(), mean);
    let st = stimulus(
        2,
        cfg,
        &RpGen {
            flows: 64,
            ..RpGen::default()
        },
        10,
        20_000,
    );
    engine_speed::<H>("dcqcn_rp", &st, 5_000, 2_000_000, f);
}

#[cfg(test)]
mod tests {
    /// `cargo test --release -p nic-testbench --lib -- --ignored
    /// bench_dcqcn_figures --nocapture`: the RP's figures alone.
    #[test]
    #[ignore = "a benchmark (make bench runs it)"]
    fn bench_dcqcn_figures() {
        let mut f = super::figures();
        super::bench_dcqcn(&mut f);
        for (k, v) in &f {
            println!("{k} {v}");
        }
    }
}
