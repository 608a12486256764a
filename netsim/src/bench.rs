//! The figures of `make bench` that need the environment: the CC module's
//! fixed-point model against the f64 reference in a closed loop
//! ([`crate::fluid`]). The block figures are `nic_testbench::bench`; `nic-bench` (`testbench/src/bin/nic-bench.rs`) runs both.

use crate::core_env::SIM_RX_BUF_LOG2;
use crate::fluid::{run, Fixed, FluidCfg, FluidRun};
pub use nic_engines::figures::Figures;
use nic_golden::cc::hpcc::{op, CcEvent, HpccFixed};
use nic_golden::cc::hpcc_ref::HpccRef;
use nic_golden::cc::params::CcParams;

/// The groups of this crate's figures, by name (`hpccnic bench --group`).
pub const GROUPS: [(&str, fn(&mut Figures)); 7] = [
    ("cc-loop", bench_cc_closed_loop),
    ("dcqcn-loop", bench_dcqcn_closed_loop),
    ("core", bench_core),
    ("core-engines", bench_core_engines),
    ("nic", bench_nic),
    ("nic-engines", bench_nic_engines),
    ("line-rate", bench_line_rate),
];

/// Every figure of this crate.
pub fn run_all() -> Figures {
    let mut f = nic_engines::figures::figures();
    for (_, g) in GROUPS {
        g(&mut f);
    }
    f
}

/// The figures of the groups named (of [`GROUPS`]); an unknown name is
/// an error that lists them.
pub fn run_groups(names: &[String]) -> Result<Figures, String> {
    let mut f = nic_engines::figures::figures();
    for n in names {
        let Some((_, g)) = GROUPS.iter().find(|(k, _)| k == n) else {
            let known: Vec<_> = GROUPS.iter().map(|(k, _)| *k).collect();
            return Err(format!(
                "unknown group {n}; the groups: {}",
                known.join(", ")
            ));
        };
        g(&mut f);
    }
    Ok(f)
}

/// Both NIC cores sending to each other at once ([`crate::line_rate`]):
/// 64-byte, 256-byte and MTU (1 KiB) WRITEs, and a mix (64 B, 1 KiB,
/// 256 B, 16 KiB in turn), on 1, 8 and 64 flows; 64-byte WRITEs one way
/// on 1 and 64 flows (`data_fill`: the share of the wire's frame rate);
/// the mix on 8 flows with each host taking DMA writes in half the
/// cycles; and the mix on 6 flows on the RTL cores (Verilator, twins in
/// lockstep: `_6flows_rtl`); 64-byte WRITEs on one flow with 16 work
/// requests a flow (`_ring16`, the default before 32), one way and both
/// ways; and the whole NIC
/// (`line_rate_nic_*`: `hpcc_nic` through its host interface, the driver
/// posting in send queues and reading completions), 64 B on 64 flows and
/// the mix on 8 flows on the 128-flow twins, the mix on 6 flows on the
/// emitted NIC on Verilator in lockstep with its twin. Figures
/// `line_rate_<size>_<flows>flows_<figure>` for NIC 0's direction (the
/// run is symmetric; the other direction is within a frame of it).
pub fn bench_line_rate(f: &mut Figures) {
    use crate::line_rate::{run, LineRateCfg};
    let mix = vec![64, 1024, 256, 16384];
    let mut runs: Vec<(String, LineRateCfg)> = Vec::new();
    for (name, sizes, messages) in [
        ("64B", vec![64], 3000),
        ("256B", vec![256], 2000),
        ("1KB", vec![1024], 1000),
        ("mix", mix.clone(), 400),
    ] {
        for flows in [1u32, 8, 64] {
            runs.push((
                format!("line_rate_{name}_{flows}flows"),
                LineRateCfg {
                    flows,
                    sizes: sizes.clone(),
                    messages,
                    link_delay: 100,
                    dma_wr_share: 1.0,
                    one_way: false,
                    pause: false,
                },
            ));
        }
    }
    // The message rate of one direction: 64-byte WRITEs from NIC 0 only.
    for flows in [1u32, 64] {
        runs.push((
            format!("line_rate_64B_oneway_{flows}flows"),
            LineRateCfg {
                flows,
                sizes: vec![64],
                messages: 3000,
                link_delay: 100,
                dma_wr_share: 1.0,
                one_way: true,
                pause: false,
            },
        ));
    }
    runs.push((
        "line_rate_mix_8flows_host_half".into(),
        LineRateCfg {
            flows: 8,
            sizes: mix.clone(),
            messages: 400,
            link_delay: 100,
            dma_wr_share: 0.5,
            one_way: false,
            pause: false,
        },
    ));
    // The same with the link pause: the receiver sends XOFF and XON on
    // its buffer's fill, the sender honours them.
    runs.push((
        "line_rate_mix_8flows_host_half_pause".into(),
        LineRateCfg {
            flows: 8,
            sizes: mix.clone(),
            messages: 400,
            link_delay: 100,
            dma_wr_share: 0.5,
            one_way: false,
            pause: true,
        },
    ));
    // The RTL cores on Verilator, twins in lockstep (6 flows: the
    // emitted core's QPs 2..7).
    runs.push((
        "line_rate_mix_6flows_rtl".into(),
        LineRateCfg {
            flows: 6,
            sizes: vec![64, 1024, 256, 16384],
            messages: 200,
            link_delay: 100,
            dma_wr_share: 1.0,
            one_way: false,
            pause: false,
        },
    ));
    // One flow's 64-byte rate with the earlier default of 16 work
    // requests a flow (2^Q = 16), one way and both ways at once: the ring
    // is the flow's window, shorter than its loop.
    for one_way in [true, false] {
        runs.push((
            format!(
                "line_rate_64B_{}1flows_ring16",
                if one_way { "oneway_" } else { "" }
            ),
            LineRateCfg {
                flows: 1,
                sizes: vec![64],
                messages: 3000,
                link_delay: 100,
                dma_wr_share: 1.0,
                one_way,
                pause: false,
            },
        ));
    }
    // The whole NIC (`hpcc_nic`, through its host interface): the
    // 128-flow twins, and the emitted NIC on Verilator in lockstep.
    for (key, flows, sizes, messages) in [
        ("line_rate_nic_64B_64flows", 64, vec![64], 3000),
        ("line_rate_nic_mix_8flows", 8, mix.clone(), 400),
        ("line_rate_nic_mix_6flows_rtl", 6, mix.clone(), 200),
    ] {
        runs.push((
            key.into(),
            LineRateCfg {
                flows,
                sizes,
                messages,
                link_delay: 100,
                dma_wr_share: 1.0,
                one_way: false,
                pause: false,
            },
        ));
    }
    for (key, cfg) in runs {
        let r = if key.starts_with("line_rate_nic_") {
            crate::line_rate::run_nic(&cfg, key.ends_with("_rtl"))
        } else if key.ends_with("_rtl") {
            crate::line_rate::run_rtl(&cfg)
        } else if key.ends_with("_ring16") {
            let mut t0 = NicCore::<7, 4, 11>::default();
            let mut t1 = NicCore::<7, 4, 11>::default();
            crate::line_rate::run_on(
                &cfg,
                16,
                11,
                [Box::new(|i: &In| t0.step(i)), Box::new(|i: &In| t1.step(i))],
            )
        } else {
            run(&cfg)
        };
        let d = &r.dir[0];
        let round = |x: f64| (x * 1e4).round() / 1e4;
        f.insert(format!("{key}_finished"), r.finished as u8 as f64);
        f.insert(format!("{key}_wire_fill"), round(d.wire_fill));
        f.insert(format!("{key}_data_fill"), round(d.data_fill));
        f.insert(format!("{key}_drop_full"), d.drop_full as f64);
        f.insert(format!("{key}_pauses"), d.pauses as f64);
        f.insert(format!("{key}_goodput"), round(d.goodput));
        f.insert(format!("{key}_timeouts_naks"), (d.timeouts + d.naks) as f64);
    }
}

/// DCQCN in the closed loop of [`crate::fluid_dcqcn`] (ns-3's DCQCN and
/// RED at 100G, 20 ms) beside HPCC++ in [`crate::fluid`] (the draft's
/// defaults, f64) on the same bottleneck, 4 and 16 flows starting at line
/// rate: utilisation over the run, peak and p99 queue, and the
/// fixed-point reaction point against its f64 shadow.
pub fn bench_dcqcn_closed_loop(f: &mut Figures) {
    use crate::fluid_dcqcn::{run as run_dcqcn, DcqcnFluidCfg, RateFrom};
    use nic_golden::cc::dcqcn_params::DcqcnParams;
    let p = DcqcnParams::default();
    for flows in [4usize, 16] {
        let c = DcqcnFluidCfg {
            net: FluidCfg {
                flows,
                duration_ns: 20.0e6,
                ..Default::default()
            },
            ..Default::default()
        };
        let d = run_dcqcn(&p, &c, RateFrom::Fixed);
        let line_bytes = c.net.link_gbps / 8.0 * c.net.duration_ns;
        f.insert(
            format!("dcqcn_vs_hpcc_{flows}flows_dcqcn_utilisation"),
            d.delivered as f64 / line_bytes,
        );
        f.insert(
            format!("dcqcn_vs_hpcc_{flows}flows_dcqcn_utilisation_2nd_half"),
            d.utilisation(&c),
        );
        f.insert(
            format!("dcqcn_vs_hpcc_{flows}flows_dcqcn_max_queue_bytes"),
            d.max_queue as f64,
        );
        f.insert(
            format!("dcqcn_vs_hpcc_{flows}flows_dcqcn_p99_queue_bytes"),
            d.queue_pct(99.0) as f64,
        );
        f.insert(
            format!("dcqcn_vs_hpcc_{flows}flows_dcqcn_cnps"),
            d.cnps as f64,
        );
        let (max, mean) = nic_engines::dcqcn::max_mean(&d.rc_err);
        f.insert(
            format!("dcqcn_closed_loop_{flows}flows_rc_max_rel_err"),
            max,
        );
        f.insert(
            format!("dcqcn_closed_loop_{flows}flows_rc_mean_rel_err"),
            mean,
        );
        let hp = CcParams::default();
        let mut m = HpccRef::new(&hp.effective().unwrap());
        let h = run(&hp, &c.net, &mut m);
        f.insert(
            format!("dcqcn_vs_hpcc_{flows}flows_hpcc_utilisation"),
            h.delivered as f64 / line_bytes,
        );
        f.insert(
            format!("dcqcn_vs_hpcc_{flows}flows_hpcc_max_queue_bytes"),
            h.max_queue as f64,
        );
    }
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

// ---- The NIC core (`hpcc_nic_core`) --------------------------------------

use crate::core_env::{config_script, plan, CoreHost, CorePair, HostParams, PlannedWr};
use crate::link::LinkCfg;
use nic_golden::nic::core::{In, NicCore};
use nic_golden::roce::WorkReq;
use nic_golden::Cycle;
use nic_spec::roce::wr::{self, Status};

/// The host parameters of the core benchmarks, those of the line-rate
/// runs ([`crate::line_rate::host_params`]: MTU 1024, no stalls, DMA
/// latency 4 cycles, T = 2 µs at 100 Gb/s) with 2^`q` work requests a
/// flow.
fn bench_params(q: usize) -> HostParams {
    HostParams {
        ring: 1 << q,
        ..crate::line_rate::host_params()
    }
}

/// `n` WRITEs of `len` bytes from NIC 0, round robin over `flows` flows,
/// on two twin cores of 128 flows × 32 work requests, link delay `delay`;
/// returns NIC 0's host after the run.
fn core_writes(flows: u32, n: u32, len: u32, delay: u64) -> (CoreHost, u64) {
    const A: usize = 7;
    const Q: usize = 5;
    let p = bench_params(Q);
    let w = plan(5, flows, 0, 8, 0, 0, 1024);
    let size = (n * 64) as usize + 64;
    let wrs: Vec<PlannedWr> = (0..n)
        .map(|k| PlannedWr {
            wr: WorkReq {
                flow: crate::core_env::FIRST_QP + k % flows,
                opcode: wr::WRITE,
                laddr: k as u64 * 64,
                va: k as u64 * 64,
                rkey: 0,
                len,
                tag: k,
            },
            status: Status::Ok,
        })
        .collect();
    let hosts = [
        CoreHost::new(p, vec![7; size], config_script(&p, &w.flows[0]), &wrs, 1),
        CoreHost::new(p, vec![0; size], config_script(&p, &w.flows[1]), &[], 2),
    ];
    let mut t0 = NicCore::<A, Q, 9>::default();
    let mut t1 = NicCore::<A, Q, 9>::default();
    let mut pair = CorePair::new(
        hosts,
        [Box::new(|i: &In| t0.step(i)), Box::new(|i: &In| t1.step(i))],
        LinkCfg {
            delay,
            loss: 0.0,
            ce: 0.0,
            corrupt: 0.0,
        },
        9,
    );
    assert!(pair.run(10_000_000), "core bench: not finished");
    assert!(
        pair.hosts[0].errors.is_empty(),
        "{:?}",
        pair.hosts[0].errors
    );
    let now = pair.now;
    let [h0, _] = pair.hosts;
    (h0, now)
}

/// The NIC core's cycle figures (on its twin, which the co-simulation
/// tests hold cycle-exact to the RTL: `testbench/tests/nic/core.rs`):
/// - one 64-byte WRITE on an idle core: work request accepted → first
///   beat of its frame on `m_axis_tx`; last beat of the ACK in on
///   `s_axis_rx` → its completion on `m_cmpl`;
/// - back-to-back 64-byte WRITEs (1024 of them) on 1 flow and spread
///   over 64 flows, link delay 10 cycles: work requests completed per
///   cycle, and per second at 156.25 MHz.
pub fn bench_core(f: &mut Figures) {
    let (h, _) = core_writes(1, 1, 64, 10);
    let wr_at = h.first_wr_at.unwrap();
    f.insert(
        "core_wr_to_first_frame_cycles".into(),
        (h.tx_starts[0] - wr_at) as f64,
    );
    let cmpl_at = h.done[&0];
    let ack_in = *h.rx_ends.iter().filter(|&&c| c <= cmpl_at).last().unwrap();
    f.insert(
        "core_last_frame_in_to_completion_cycles".into(),
        (cmpl_at - ack_in) as f64,
    );
    for flows in [1u32, 64] {
        let n = 1024;
        let (h, _) = core_writes(flows, n, 64, 10);
        let first = h.first_wr_at.unwrap();
        let last = h.done.values().copied().max().unwrap();
        insert_rate(
            f,
            &format!("core_64B_write_rate_{flows}flows"),
            n as f64 / (last - first) as f64,
        );
    }
}

/// A rate per cycle as `<key>_per_cycle` (4 decimals) and
/// `<key>_mmsg_per_s_at_156mhz` (millions a second at 156.25 MHz).
fn insert_rate(f: &mut Figures, key: &str, per_cycle: f64) {
    f.insert(format!("{key}_per_cycle"), (per_cycle * 1e4).round() / 1e4);
    f.insert(
        format!("{key}_mmsg_per_s_at_156mhz"),
        (per_cycle * 156.25 * 100.0).round() / 100.0,
    );
}

/// Cycles per second of the NIC core (8 flows × 8 work requests, the
/// co-simulation tests' size) on its twin, on Verilator and on rust-hdl's
/// simulator, over 3000 cycles of a two-NIC run with WRITEs and READs.
pub fn bench_core_engines(f: &mut Figures) {
    type Rtl = nic_hdl::nic::NicCore<3, 3, 6, SIM_RX_BUF_LOG2>;
    let p = HostParams {
        ring: 8,
        post_from: 0,
        ..bench_params(3)
    };
    let w = plan(11, 4, 16, 3000, 30, 4, 1024);
    // (flows 2..=5 of the 8)
    let hosts = [0, 1].map(|n| {
        CoreHost::new(
            p,
            w.mem[n].clone(),
            config_script(&p, &w.flows[n]),
            &w.wrs[n],
            n as u64,
        )
    });
    let mut t0 = NicCore::<3, 3, SIM_RX_BUF_LOG2>::default();
    let mut t1 = NicCore::<3, 3, SIM_RX_BUF_LOG2>::default();
    engine_speeds::<_, Rtl>(
        f,
        "core",
        hosts,
        [Box::new(|i: &In| t0.step(i)), Box::new(|i: &In| t1.step(i))],
    );
}

/// Cycles per second of one NIC design (RTL `Rtl`, twins in `twins`) on
/// its twin, on Verilator and on rust-hdl's simulator: 3000 cycles of a
/// two-NIC run on the twins, NIC 0's inputs recorded and replayed on each
/// engine (300 cycles on rust-hdl). Figures
/// `<prefix>_{twin,verilator,rusthdl}_cycles_per_s`.
fn engine_speeds<'a, H: crate::core_env::Host, Rtl>(
    f: &mut Figures,
    prefix: &str,
    hosts: [H; 2],
    twins: [crate::core_env::NicFn<'a, H::In, H::Out>; 2],
) where
    Rtl: nic_engines::Harness<In = H::In> + Default + 'static,
{
    use nic_engines::cosim::EngineKind;
    use nic_engines::roce::pipes::engine_for;
    let mut pair = crate::core_env::Pair::new(
        hosts,
        twins,
        LinkCfg {
            delay: 50,
            loss: 0.0,
            ce: 0.0,
            corrupt: 0.0,
        },
        3,
    );
    pair.record = Some([Vec::new(), Vec::new()]);
    let t = std::time::Instant::now();
    for _ in 0..3000 {
        pair.step();
    }
    let twin_s = t.elapsed().as_secs_f64() / 2.0;
    let rec = pair.record.take().unwrap()[0].clone();
    drop(pair);
    f.insert(
        format!("{prefix}_twin_cycles_per_s"),
        (rec.len() as f64 / twin_s).round(),
    );
    for (kind, name, n) in [
        (EngineKind::Verilator, "verilator", 3000usize),
        (EngineKind::RustHdl, "rusthdl", 300),
    ] {
        let mut e = engine_for::<Rtl>(kind, None);
        e.step(&rec[0]);
        let t = std::time::Instant::now();
        for i in &rec[1..n] {
            e.step(i);
        }
        let s = t.elapsed().as_secs_f64();
        f.insert(
            format!("{prefix}_{name}_cycles_per_s"),
            ((n - 1) as f64 / s).round(),
        );
    }
}

// ---- The whole NIC (`hpcc_nic`) through its host interface -----------------

use crate::core_env::Pair;
use crate::driver::{DriverParams, NicHost};

/// The driver's parameters of the NIC benchmarks: the core's of
/// `bench_params`, send queues of 1024 entries, doorbells of 16 entries,
/// one CQ with an event per entry (MOD_COUNT 1, MOD_TIME 0), no pauses,
/// DMA latency 4 cycles.
fn nic_bench_params(batch: u32) -> DriverParams {
    DriverParams {
        core: bench_params(5),
        flows_log: 7,
        sq_log: 10,
        cq_log: 12,
        cqs: 1,
        mod_count: 1,
        mod_time: 0,
        batch,
        axil_pause: 0.0,
        dma_err: 0.0,
        bad_input: false,
        watchdog: Default::default(),
    }
}

/// `n` WRITEs of `len` bytes from NIC 0 through its host interface, round
/// robin over `flows` flows, on two twin NICs of 128 flows × 32 work
/// requests; returns NIC 0's host.
fn nic_writes(flows: u32, n: u32, len: u32, batch: u32) -> NicHost {
    nic_ops(flows, n, len, batch, wr::WRITE, 10)
}

/// [`nic_writes`] with the opcode (`wr::WRITE` or `wr::READ`: NIC 0 reads
/// NIC 1's memory) and the link's one-way delay in cycles.
fn nic_ops(flows: u32, n: u32, len: u32, batch: u32, opcode: u8, delay: u64) -> NicHost {
    type Twin = nic_golden::nic::nic::HpccNic<7, 5, 9, 0, 1, 4>;
    use nic_golden::nic::nic::In as NicIn;
    let p = nic_bench_params(batch);
    let w = plan(5, flows, 0, 8, 0, 0, 1024);
    let size = (n * len.max(64)) as usize + 64;
    // Flow by flow (a doorbell covers one flow's run of entries).
    let mut wrs: Vec<PlannedWr> = (0..n)
        .map(|k| PlannedWr {
            wr: WorkReq {
                flow: crate::core_env::FIRST_QP + k % flows,
                opcode,
                laddr: k as u64 * len.max(64) as u64,
                va: k as u64 * len.max(64) as u64,
                rkey: 0,
                len,
                tag: k,
            },
            status: Status::Ok,
        })
        .collect();
    wrs.sort_by_key(|w| (w.wr.tag / (batch * flows), w.wr.flow, w.wr.tag));
    let hosts = [
        NicHost::new(p, vec![7; size], &w.flows[0], &wrs, 1),
        NicHost::new(p, vec![9; size], &w.flows[1], &[], 2),
    ];
    let mut t0 = Twin::default();
    let mut t1 = Twin::default();
    let mut pair: Pair<'_, NicHost> = Pair::new(
        hosts,
        [
            Box::new(|i: &NicIn| t0.step(i)),
            Box::new(|i: &NicIn| t1.step(i)),
        ],
        LinkCfg {
            delay,
            loss: 0.0,
            ce: 0.0,
            corrupt: 0.0,
        },
        9,
    );
    assert!(pair.run(20_000_000), "nic bench: not finished");
    assert!(
        pair.hosts[0].errors.is_empty(),
        "{:?}",
        pair.hosts[0].errors
    );
    let [h0, _] = pair.hosts;
    h0
}

/// The whole NIC's cycle figures, through the host interface (on its
/// twin, which `testbench/tests/nic/nic.rs` holds cycle-exact to the RTL):
/// - one 64-byte WRITE on an idle NIC: its doorbell write put on AXI4-Lite
///   → first beat of its frame on `m_axis_tx` (the fetch of the entry by
///   DMA, 4 cycles of DMA latency, and the core's own payload read
///   included); the last beat of its ACK in → the completion's event;
/// - 1024 back-to-back 64-byte WRITEs posted 16 per doorbell, on 1 flow
///   and over 64 flows: completions read from the completion queue per
///   cycle, from the first doorbell to the last completion;
/// - READs on 1 flow, 16 per doorbell, over a link of 1000 cycles each way
///   (6.4 µs at 156.25 MHz): 256 of 64 bytes (completions per cycle) and
///   64 of 4 KiB (goodput in bytes per cycle and Gb/s at 156.25 MHz),
///   which up to `READS_IN_FLIGHT` READs in flight carry.
pub fn bench_nic(f: &mut Figures) {
    let h = nic_writes(1, 1, 64, 1);
    let db = h.doorbells_issued[0];
    f.insert(
        "nic_doorbell_to_first_frame_cycles".into(),
        (h.tx_starts[0] - db) as f64,
    );
    let ev = *h.event_cycles.first().unwrap();
    let ack_in = *h.rx_ends.iter().filter(|&&c| c <= ev).last().unwrap();
    f.insert(
        "nic_last_frame_in_to_event_cycles".into(),
        (ev - ack_in) as f64,
    );
    for flows in [1u32, 64] {
        let n = 1024;
        let h = nic_writes(flows, n, 64, 16);
        let first = h.doorbells_issued[0];
        let last = h.done.values().copied().max().unwrap();
        insert_rate(
            f,
            &format!("nic_64B_write_completions_{flows}flows"),
            n as f64 / (last - first) as f64,
        );
    }
    for (len, n) in [(64u32, 256u32), (4096, 64)] {
        let h = nic_ops(1, n, len, 16, wr::READ, 1000);
        let first = h.doorbells_issued[0];
        let last = h.done.values().copied().max().unwrap();
        let cycles = (last - first) as f64;
        if len == 64 {
            insert_rate(
                f,
                "nic_64B_read_completions_1flow_delay1000",
                n as f64 / cycles,
            );
        } else {
            let bpc = (n * len) as f64 / cycles;
            f.insert(
                "nic_4KiB_read_bytes_per_cycle_1flow_delay1000".into(),
                (bpc * 100.0).round() / 100.0,
            );
            f.insert(
                "nic_4KiB_read_gbps_at_156mhz_1flow_delay1000".into(),
                (bpc * 8.0 * 0.15625 * 100.0).round() / 100.0,
            );
        }
    }
}

/// Cycles per second of `hpcc_nic` (8 flows, the co-simulation tests'
/// size) on its twin, on Verilator and on rust-hdl's simulator, over 3000
/// cycles of a two-NIC run (bring-up, WRITEs and READs).
pub fn bench_nic_engines(f: &mut Figures) {
    use nic_golden::nic::nic::In as NicIn;
    type Rtl = nic_hdl::nic::HpccNic<3, 3, 6, SIM_RX_BUF_LOG2, 2, 4, 3>;
    type Twin = nic_golden::nic::nic::HpccNic<3, 3, SIM_RX_BUF_LOG2, 2, 4, 3>;
    let p = DriverParams {
        core: HostParams {
            ring: 8,
            post_from: 0,
            ..bench_params(3)
        },
        flows_log: 3,
        sq_log: 3,
        cq_log: 4,
        cqs: 2,
        mod_count: 2,
        mod_time: 50,
        batch: 4,
        axil_pause: 0.0,
        dma_err: 0.0,
        bad_input: false,
        watchdog: Default::default(),
    };
    let w = plan(11, 4, 16, 3000, 30, 4, 1024);
    let hosts = [0, 1].map(|n| NicHost::new(p, w.mem[n].clone(), &w.flows[n], &w.wrs[n], n as u64));
    let mut t0 = Twin::default();
    let mut t1 = Twin::default();
    engine_speeds::<_, Rtl>(
        f,
        "nic",
        hosts,
        [
            Box::new(|i: &NicIn| t0.step(i)),
            Box::new(|i: &NicIn| t1.step(i)),
        ],
    );
}

#[cfg(test)]
mod tests {
    /// The NIC's figures alone: `cargo test --release -p nic-netsim
    /// nic_figures -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn nic_figures() {
        let mut f = nic_engines::figures::figures();
        super::bench_nic(&mut f);
        super::bench_nic_engines(&mut f);
        for (k, v) in &f {
            println!("{k:56} {v}");
        }
    }

    /// The core's figures alone: `cargo test --release -p nic-netsim
    /// core_figures -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn core_figures() {
        let mut f = nic_engines::figures::figures();
        super::bench_core(&mut f);
        super::bench_core_engines(&mut f);
        for (k, v) in &f {
            println!("{k:48} {v}");
        }
    }
}

#[cfg(test)]
mod dcqcn_tests {
    /// `cargo test --release -p nic-netsim --lib -- --ignored
    /// dcqcn_closed_loop_figures --nocapture`: these figures alone.
    #[test]
    #[ignore = "a benchmark (make bench runs it)"]
    fn dcqcn_closed_loop_figures() {
        let mut f = nic_engines::figures::figures();
        super::bench_dcqcn_closed_loop(&mut f);
        for (k, v) in &f {
            println!("{k} {v}");
        }
    }
}
