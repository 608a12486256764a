//! `hpccnic netsim --scenario FILE.toml`: the network simulator.
//!
//! Reads a scenario (`docs/netsim.md`, examples in `examples/netsim/`),
//! applies the flags over it, checks it (a bad field is refused with its
//! name and nothing runs: exit 2), runs it (`nic_netsim::net::run`) with a
//! progress bar, and writes into `--out DIR`:
//! - `summary.json` (`nic_netsim::net::results::Summary`);
//! - `queue.csv`, `flows.csv`, `fct.csv`;
//! - `queue.svg` (the bottleneck's and the busiest ports' queues),
//!   `rate.svg` (each connection's throughput), `fct.svg` (FCT slowdown
//!   by size, when there are sized flows);
//! - `host<h>.pcap` for the hosts of `output.pcap_hosts` (timestamps in
//!   the simulation's ns).
//!
//! Prints the headline figures. Exit 1 if a work request completed
//! wrongly (or an RTL host differed from its golden twin: that panics
//! with the cycle and both outputs).

use crate::args;
use clap::Args;
use nic_netsim::net::results::{conn_rates, fct_csv, flows_csv, queue_csv, Summary, BUCKETS};
use nic_netsim::net::run::{run, NetResult, T0};
use nic_netsim::net::scenario::{CcAlgo, NicEngine, Overrides, Plan, QpMap, Scenario};
use pcap_file::pcap::{PcapHeader, PcapPacket, PcapWriter};
use pcap_file::{DataLink, TsResolution};
use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

#[derive(Args, Debug, Clone)]
pub struct NetsimArgs {
    /// The scenario file (TOML).
    #[arg(long)]
    pub scenario: PathBuf,
    /// Senders: `topology.senders` (incast) or `topology.left` (dumbbell)
    /// (default: the scenario's).
    #[arg(long)]
    pub senders: Option<usize>,
    /// The CC every NIC runs (default: the scenario's `cc.algo`, else
    /// hpcc-sender).
    #[arg(long, value_enum)]
    pub cc: Option<CcAlgo>,
    /// Host link rate, Gb/s: 25, 50, 100, 200 or 400 (default: the
    /// scenario's `topology.link_gbps`).
    #[arg(long)]
    pub link_gbps: Option<f64>,
    /// Seed of every random draw of the run (flow sizes, pairs and start
    /// times, the switches' ECMP and RED draws, initial PSNs, memory): a seed names one run.
    /// Any 64-bit number (default: the scenario's `seed`, else 1).
    #[arg(long)]
    pub seed: Option<u64>,
    /// `golden`: every NIC the golden core; `verilator`: the hosts of
    /// `--rtl-hosts` on the RTL core, golden in lockstep (default: the
    /// scenario's `nic.engine`, else golden).
    #[arg(long, value_enum)]
    pub engine: Option<NicEngine>,
    /// Hosts with the configuration of the emitted `hpcc_nic_core` (8
    /// flows, an 8 KiB receive buffer), e.g. `0,3`: with `--engine
    /// verilator` the RTL on Verilator, its golden twin in lockstep; with
    /// the golden engine the twin alone, which gives the same frames
    /// cycle for cycle without Verilator (default: the scenario's
    /// `nic.rtl_hosts`, else 0,1 with verilator and none with golden).
    #[arg(long, value_delimiter = ',')]
    pub rtl_hosts: Option<Vec<usize>>,
    /// Simulated time, µs (default: the scenario's `duration_us`). A run
    /// shorter than the warm-up (`output.warmup_rtts` base RTTs after the
    /// last long flow starts) has no steady window: it is warned about.
    #[arg(long)]
    pub duration_us: Option<f64>,
    /// W_ai, bytes (default: the scenario's `cc.w_ai_bytes`, else the
    /// draft's rule of thumb for `cc.expected_flows`).
    #[arg(long)]
    pub w_ai_bytes: Option<f64>,
    /// A QP per flow, or one per pair of hosts (default: the scenario's
    /// `nic.qp`, else flow).
    #[arg(long, value_enum)]
    pub qp: Option<QpMap>,
    /// Output directory, created if missing.
    #[arg(long, default_value = "build/netsim")]
    pub out: PathBuf,
    /// Hosts whose frames (both directions) go into `DIR/host<h>.pcap`,
    /// e.g. `0,16` (default: the scenario's `output.pcap_hosts`, else
    /// none).
    #[arg(long, value_delimiter = ',')]
    pub pcap_hosts: Option<Vec<usize>>,
    /// Check the scenario and print its plan, run nothing (default: off).
    #[arg(long)]
    pub check: bool,
    /// Run the scenario once per CC listed (e.g. `hpcc-sender,dcqcn`), the
    /// runs in parallel (a thread each),
    /// into `--out DIR/<cc>/`, and write the side-by-side `compare.svg`,
    /// `compare.md` and `compare.json` into `DIR` (default: one run).
    #[arg(long, value_enum, value_delimiter = ',', conflicts_with = "cc")]
    pub compare: Option<Vec<CcAlgo>>,
}

/// Load, override and check a scenario.
pub fn plan_of(a: &NetsimArgs) -> Result<Plan, String> {
    let mut s = Scenario::load(&a.scenario)?;
    s.apply(&Overrides {
        senders: a.senders,
        cc: a.cc,
        link_gbps: a.link_gbps,
        seed: a.seed,
        engine: a.engine,
        rtl_hosts: a.rtl_hosts.clone(),
        duration_us: a.duration_us,
        w_ai_bytes: a.w_ai_bytes,
        qp: a.qp,
        pcap_hosts: a.pcap_hosts.clone(),
    })?;
    s.plan()
        .map_err(|e| format!("{}: {e}", a.scenario.display()))
}

/// One run (`--compare` is `crate::netsim_compare`'s, which builds on
/// this module).
pub fn main(a: NetsimArgs) -> i32 {
    match run_one(&a) {
        Ok(None) => 0,
        Ok(Some(done)) => done.exit_code(),
        Err(code) => code,
    }
}

/// One finished run: its plan, result and summary.
pub struct Done {
    pub plan: Plan,
    pub result: NetResult,
    pub summary: Summary,
    pub wall_s: f64,
}

impl Done {
    /// 0, or 1 (with the first errors printed) if a work request
    /// completed wrongly.
    pub fn exit_code(&self) -> i32 {
        if self.summary.errors.is_empty() {
            0
        } else {
            for e in self.summary.errors.iter().take(10) {
                eprintln!("error: {e}");
            }
            1
        }
    }
}

/// Plan, run and write one scenario into `a.out`, printing the headline
/// figures. `Ok(None)` for `--check`; `Err(2)` for a bad scenario, flag
/// or output directory (printed).
pub fn run_one(a: &NetsimArgs) -> Result<Option<Done>, i32> {
    let plan = match plan_of(a) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: {e}");
            return Err(2);
        }
    };
    println!(
        "scenario {}: {} with {} hosts, {} Gb/s host links, {:?}, base RTT {:.0} ns, {} flows, {:.0} µs ({} cycles of {} ns)",
        plan.scenario.name,
        plan.topo.kind,
        plan.topo.hosts,
        plan.scenario.topology.link_gbps,
        plan.scenario.cc.algo,
        plan.base_rtt_ns,
        plan.flows.len(),
        plan.scenario.duration_us,
        plan.cycles,
        plan.ns_per_cycle
    );
    if !plan.rtl_hosts.is_empty() {
        match plan.scenario.nic.engine {
            NicEngine::Verilator => println!(
                "RTL hosts (Verilator, golden in lockstep): {:?}",
                plan.rtl_hosts
            ),
            NicEngine::Golden => println!(
                "hosts with the RTL core's configuration (its golden twin alone; --engine verilator runs the RTL): {:?}",
                plan.rtl_hosts
            ),
        }
    }
    if a.check {
        return Ok(None);
    }
    if let Err(e) = std::fs::create_dir_all(&a.out) {
        eprintln!("error: --out {}: {e}", a.out.display());
        return Err(2);
    }
    let bar = args::progress(
        Some(plan.cycles),
        "{spinner} netsim [{elapsed_precise}] [{bar:30}] {percent}% {msg}",
    );
    let t = Instant::now();
    let r = run(&plan, &mut |now, _of, done, flows| {
        bar.set_position(now);
        bar.set_message(format!("{done}/{flows} flows done"));
    });
    bar.finish_and_clear();
    let wall = t.elapsed().as_secs_f64();
    let s = Summary::of(&plan, &r);
    let nics = plan.topo.hosts as f64;
    let mut json = serde_json::to_value(&s).expect("summary serialises");
    json["speed"] = serde_json::json!({
        "wall_s": wall,
        "cycles": r.cycles,
        "cycles_per_s": r.cycles as f64 / wall,
        "nic_cycles_per_s": r.cycles as f64 * nics / wall,
        "packets_per_s": r.frames as f64 / wall,
    });
    let out = |name: &str| a.out.join(name);
    let written = (|| -> Result<(), Box<dyn std::error::Error>> {
        std::fs::write(
            out("summary.json"),
            serde_json::to_string_pretty(&json)? + "\n",
        )?;
        std::fs::write(out("queue.csv"), queue_csv(&plan, &r))?;
        std::fs::write(out("flows.csv"), flows_csv(&plan, &r))?;
        std::fs::write(out("fct.csv"), fct_csv(&plan, &r))?;
        plot_queue(&out("queue.svg"), &plan, &r, &s)?;
        plot_rates(&out("rate.svg"), &plan, &r)?;
        if !s.fct.is_empty() {
            plot_fct(&out("fct.svg"), &s)?;
        }
        for (h, frames) in &r.pcap {
            write_pcap(&out(&format!("host{h}.pcap")), &plan, frames)?;
        }
        Ok(())
    })();
    if let Err(e) = written {
        eprintln!("error: --out {}: {e}", a.out.display());
        return Err(2);
    }
    print_summary(&s, wall, &r);
    println!("results: {}", a.out.display());
    Ok(Some(Done {
        plan,
        result: r,
        summary: s,
        wall_s: wall,
    }))
}

fn print_summary(s: &Summary, wall: f64, r: &NetResult) {
    println!(
        "simulated {:.1} µs in {wall:.1} s ({:.0} cycles/s, {:.0} packets/s){}",
        s.simulated_us,
        r.cycles as f64 / wall,
        r.frames as f64 / wall,
        if s.finished { ", every flow done" } else { "" }
    );
    for w in &s.warnings {
        eprintln!("warning: {w}");
    }
    if let Some(b) = &s.bottleneck {
        println!(
            "bottleneck {}: utilisation {:.3} (eta {}), queue peak {} B at RTT {:.1}, drained at RTT {}, then p99 {} B ({:.1} packets), mean {:.0} B; utilisation converged after {}",
            b.port,
            b.utilisation,
            b.eta,
            b.peak_queue_bytes,
            b.peak_at_rtt,
            b.drained_at_rtt.map_or("never".into(), |x| format!("{x:.1}")),
            b.p99_queue_bytes,
            b.p99_queue_packets,
            b.mean_queue_bytes,
            b.converge_rtts.map_or("never".into(), |n| format!("{n} RTTs"))
        );
    }
    println!(
        "drops {} ({} after the first RTT), pauses {} ({} after the first RTT), unroutable {}",
        s.drops, s.drops_after_first_rtt, s.pauses, s.pauses_after_first_rtt, s.unroutable
    );
    println!(
        "NICs: {} frames in, {} dropped with a full receive buffer (peak {} words held), {} bad; {} timeouts, {} NAKs",
        s.nic.rx_ok, s.nic.rx_drop_full, s.nic.rx_buffer_peak_words, s.nic.rx_bad, s.nic.timeouts, s.nic.naks
    );
    println!(
        "NIC pauses: {} PAUSE frames sent, in force {} cycles{}",
        s.nic.pauses_sent,
        s.nic.pause_cycles,
        if s.nic.pause_off_hosts.is_empty() {
            String::new()
        } else {
            format!(
                "; off on hosts {:?} (the receive buffer has no room for the link's headroom)",
                s.nic.pause_off_hosts
            )
        }
    );
    if s.nic.ce_marks + s.nic.cnps_received > 0 {
        println!(
            "DCQCN: {} CE marks taken, {} CNPs sent, {} received, {} rate cuts, {} increases; \
             byte counter: {} SENTs, {} packets' bytes dropped",
            s.nic.ce_marks,
            s.nic.cnps_sent,
            s.nic.cnps_received,
            s.nic.rate_cuts,
            s.nic.rate_increases,
            s.nic.sents,
            s.nic.sent_drops
        );
    }
    if let Some(j) = s.jain_index {
        println!(
            "Jain's index {j:.4} over {:?} µs",
            s.jain_window_us.unwrap()
        );
    }
    if !s.fct.is_empty() {
        println!(
            "FCT slowdown ({}/{} flows done):",
            s.flows_completed, s.flows
        );
        for b in &s.fct {
            println!(
                "  {:>11}: {:>5} flows, p50 {:.2}, p95 {:.2}, p99 {:.2}",
                b.sizes, b.flows, b.slowdown_p50, b.slowdown_p95, b.slowdown_p99
            );
        }
    }
}

fn us(plan: &Plan, c: u64) -> f64 {
    c.saturating_sub(T0) as f64 * plan.ns_per_cycle / 1000.0
}

/// The plots' line colours (also `cc-compare`'s).
pub(crate) const COLORS: [RGBColor; 8] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
];

/// A white chart over simulated time (µs) on `root`, titled with the
/// scenario and its CC.
fn time_chart<'a, 'b>(
    root: &'a DrawingArea<SVGBackend<'b>, Shift>,
    plan: &Plan,
    what: &str,
    t_end: f64,
    y_max: f64,
    y_desc: &str,
) -> Result<
    ChartContext<'a, SVGBackend<'b>, Cartesian2d<RangedCoordf64, RangedCoordf64>>,
    Box<dyn std::error::Error>,
> {
    root.fill(&WHITE)?;
    let mut ch = ChartBuilder::on(root)
        .caption(
            format!(
                "{}: {what} ({:?})",
                plan.scenario.name, plan.scenario.cc.algo
            ),
            ("sans-serif", 16),
        )
        .margin(8)
        .x_label_area_size(30)
        .y_label_area_size(60)
        .build_cartesian_2d(0f64..t_end, 0f64..y_max)?;
    ch.configure_mesh()
        .x_desc("time (us)")
        .y_desc(y_desc)
        .draw()?;
    Ok(ch)
}

/// The queues of the (at most 6) ports with the highest peaks.
fn plot_queue(
    path: &Path,
    plan: &Plan,
    r: &NetResult,
    s: &Summary,
) -> Result<(), Box<dyn std::error::Error>> {
    let mut ports: Vec<usize> = (0..r.ports.len())
        .filter(|&k| s.ports[k].peak_queue_bytes > 0)
        .collect();
    ports.sort_by_key(|&k| std::cmp::Reverse(s.ports[k].peak_queue_bytes));
    ports.truncate(6);
    let t_end = r.samples.last().map_or(1.0, |&c| us(plan, c)).max(1e-3);
    let y_max = ports
        .iter()
        .map(|&k| s.ports[k].peak_queue_bytes as f64 / 1000.0)
        .fold(1.0, f64::max)
        * 1.1;
    let root = SVGBackend::new(path, (900, 420)).into_drawing_area();
    let mut ch = time_chart(&root, plan, "switch queues", t_end, y_max, "queue (KB)")?;
    for (n, &k) in ports.iter().enumerate() {
        let c = COLORS[n % COLORS.len()];
        ch.draw_series(LineSeries::new(
            r.samples
                .iter()
                .zip(&r.queue[k])
                .map(|(&t, &q)| (us(plan, t), q as f64 / 1000.0)),
            c,
        ))?
        .label(r.ports[k].clone())
        .legend(move |(x, y)| PathElement::new([(x, y), (x + 16, y)], c));
    }
    if !ports.is_empty() {
        ch.configure_series_labels()
            .border_style(BLACK)
            .background_style(WHITE)
            .draw()?;
    }
    root.present()?;
    Ok(())
}

/// Each connection's throughput (at most 32 drawn).
fn plot_rates(path: &Path, plan: &Plan, r: &NetResult) -> Result<(), Box<dyn std::error::Error>> {
    let t_end = r.samples.last().map_or(1.0, |&c| us(plan, c)).max(1e-3);
    let y_max = plan.scenario.topology.link_gbps * 1.05;
    let root = SVGBackend::new(path, (900, 420)).into_drawing_area();
    let mut ch = time_chart(
        &root,
        plan,
        "per-connection throughput",
        t_end,
        y_max,
        "Gb/s",
    )?;
    let n = r.conns.len().min(32);
    for c in 0..n {
        let col = COLORS[c % COLORS.len()];
        // Smooth over about one base RTT.
        let rates = conn_rates(plan, r, c);
        let win = ((plan.base_rtt_ns / plan.ns_per_cycle) / plan.sample as f64)
            .round()
            .max(1.0) as usize;
        let pts: Vec<(f64, f64)> = (0..rates.len())
            .map(|i| {
                let a = i.saturating_sub(win - 1);
                let m = rates[a..=i].iter().sum::<f64>() / (i + 1 - a) as f64;
                (us(plan, r.samples[i]), m)
            })
            .collect();
        let s = ch.draw_series(LineSeries::new(pts, col))?;
        if n <= 8 {
            let x = r.conns[c];
            s.label(format!("h{} > h{}", x.src, x.dst))
                .legend(move |(x, y)| PathElement::new([(x, y), (x + 16, y)], col));
        }
    }
    if n <= 8 && n > 0 {
        ch.configure_series_labels()
            .border_style(BLACK)
            .background_style(WHITE)
            .draw()?;
    }
    root.present()?;
    Ok(())
}

/// The FCT charts' x axis: size bucket k of `BUCKETS` at x = k.
pub(crate) fn bucket_x(name: &str) -> f64 {
    BUCKETS.iter().position(|b| b.0 == name).unwrap_or(0) as f64
}

/// The label of the size bucket at x (empty between buckets' ticks).
pub(crate) fn bucket_label(v: &f64) -> String {
    BUCKETS
        .get(v.round() as usize)
        .map_or(String::new(), |b| b.0.to_string())
}

/// The FCT charts' x range: every size bucket, half a step either side.
pub(crate) fn bucket_range() -> std::ops::Range<f64> {
    -0.5..(BUCKETS.len() as f64 - 0.5)
}

/// p50 / p95 / p99 FCT slowdown per size bucket.
fn plot_fct(path: &Path, s: &Summary) -> Result<(), Box<dyn std::error::Error>> {
    let x = bucket_x;
    let y_max = s.fct.iter().map(|b| b.slowdown_p99).fold(1.0, f64::max) * 1.1;
    let root = SVGBackend::new(path, (900, 420)).into_drawing_area();
    root.fill(&WHITE)?;
    let mut ch = ChartBuilder::on(&root)
        .caption(
            format!("{}: FCT slowdown by flow size ({})", s.scenario, s.cc),
            ("sans-serif", 16),
        )
        .margin(8)
        .x_label_area_size(30)
        .y_label_area_size(60)
        .build_cartesian_2d(bucket_range(), 0f64..y_max)?;
    ch.configure_mesh()
        .x_desc("flow size")
        .y_desc("FCT slowdown")
        .x_labels(BUCKETS.len())
        .x_label_formatter(&bucket_label)
        .draw()?;
    for (n, (name, f)) in [
        (
            "p50",
            (|b: &nic_netsim::net::results::FctBucket| b.slowdown_p50) as fn(&_) -> f64,
        ),
        ("p95", |b| b.slowdown_p95),
        ("p99", |b| b.slowdown_p99),
    ]
    .into_iter()
    .enumerate()
    {
        let c = COLORS[n];
        ch.draw_series(LineSeries::new(
            s.fct.iter().map(|b| (x(&b.sizes), f(b))),
            c,
        ))?
        .label(name)
        .legend(move |(x, y)| PathElement::new([(x, y), (x + 16, y)], c));
        ch.draw_series(
            s.fct
                .iter()
                .map(|b| Circle::new((x(&b.sizes), f(b)), 3, c.filled())),
        )?;
    }
    ch.configure_series_labels()
        .border_style(BLACK)
        .background_style(WHITE)
        .draw()?;
    root.present()?;
    Ok(())
}

fn write_pcap(
    path: &Path,
    plan: &Plan,
    frames: &[nic_netsim::net::run::HostFrame],
) -> Result<(), Box<dyn std::error::Error>> {
    let header = PcapHeader {
        datalink: DataLink::ETHERNET,
        ts_resolution: TsResolution::NanoSecond,
        ..Default::default()
    };
    let f = std::fs::File::create(path)?;
    let mut w = PcapWriter::with_header(std::io::BufWriter::new(f), header)?;
    for fr in frames {
        let ts = Duration::from_nanos((fr.cycle as f64 * plan.ns_per_cycle) as u64);
        w.write_packet(&PcapPacket::new(ts, fr.frame.len() as u32, &fr.frame))?;
    }
    w.into_writer().flush()?;
    Ok(())
}
