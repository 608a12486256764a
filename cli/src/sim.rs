//! `hpccnic sim <scenario>`: two NICs exchanging RDMA WRITEs or READs over a
//! link with delay and loss (`docs/roce.md` §9), through the golden Tx/Rx
//! pipelines or the RTL ones on an engine; prints a summary, optionally
//! writes every frame on the wire as a pcap (timestamps: cycles at the
//! core clock, `--clock-mhz`), and exits 1 if the data did not arrive
//! byte-exact. Every option is checked before the run (ranges, the time
//! bound, a memory estimate, the output files): a bad one exits 2.

use crate::args;
use clap::{Args, ValueEnum};
use nic_netsim::sim::FIRST_QP;
use nic_netsim::{run_progress, run_with_progress, Progress, Scenario, SimConfig, SimResult};
use nic_testbench::roce::pipes::{RtlRx, RtlTx};
use nic_testbench::EngineKind;
use pcap_file::pcap::{PcapHeader, PcapPacket, PcapWriter};
use pcap_file::{DataLink, TsResolution};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SimEngine {
    /// The pure-Rust transaction-level models.
    Golden,
    /// The RTL Tx/Rx pipelines on Verilator (the emitted Verilog), with
    /// the golden twins in lockstep.
    Verilator,
    /// The RTL Tx/Rx pipelines on rust-hdl's simulator, with the golden
    /// twins in lockstep (slow: keep the scenario small).
    RustHdl,
}

/// The largest `--messages`.
pub const MAX_MESSAGES: u64 = 1 << 20;
/// The largest `--max-size`, bytes.
pub const MAX_SIZE: u32 = 1 << 30;
/// The largest `--delay`, cycles (6.4 s at 156.25 MHz).
pub const MAX_DELAY: u64 = 1_000_000_000;
/// Flows per NIC: QPs `FIRST_QP` .. 2^RTL_FLOW_BITS − 1.
pub const MAX_FLOWS: u32 = (1 << RTL_FLOW_BITS) - FIRST_QP;

fn scenario(s: &str) -> Result<Scenario, String> {
    Scenario::from_name(s).ok_or_else(|| {
        let names: Vec<_> = Scenario::ALL.iter().map(|s| s.name()).collect();
        format!("no scenario `{s}` (one of: {})", names.join(", "))
    })
}

fn mtu(s: &str) -> Result<u32, String> {
    match s.trim().parse::<u32>() {
        Ok(m @ (256 | 512 | 1024 | 2048 | 4096)) => Ok(m),
        _ => Err(format!("MTU {s} is not one of 256, 512, 1024, 2048, 4096")),
    }
}

#[derive(Args, Debug)]
pub struct SimArgs {
    /// The scenario: write, read or lossy-write.
    #[arg(value_parser = scenario)]
    scenario: Scenario,
    /// Per-frame loss probability on each direction, in [0, 1) (default:
    /// 0, and 0.05 for lossy-write).
    #[arg(long, allow_negative_numbers = true, value_parser = args::loss)]
    loss: Option<f64>,
    /// Seed of every random draw of the run (message sizes and flows,
    /// initial PSNs, memory contents, losses): a seed names one run. Any
    /// 64-bit number.
    #[arg(long, allow_negative_numbers = true, default_value_t = 1)]
    seed: u64,
    /// Work requests posted by each NIC, 1 ..= 1048576.
    #[arg(long, allow_negative_numbers = true, default_value_t = 32, value_parser = clap::value_parser!(u64).range(1..=MAX_MESSAGES))]
    messages: u64,
    /// Largest message, bytes, 0 ..= 2^30 (sizes are drawn in 0 ..= this).
    #[arg(long, allow_negative_numbers = true, default_value_t = 8192, value_parser = clap::value_parser!(u32).range(0..=MAX_SIZE as i64))]
    max_size: u32,
    /// MTU, bytes: 256, 512, 1024, 2048 or 4096.
    #[arg(long, default_value_t = 1024, value_parser = mtu)]
    mtu: u32,
    /// Flows (QPs) per NIC, 1 ..= 14 (QPs 2 ..= 15).
    #[arg(long, allow_negative_numbers = true, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=MAX_FLOWS as i64))]
    flows: u32,
    /// Link delay per direction, cycles, 0 ..= 10^9.
    #[arg(long, allow_negative_numbers = true, default_value_t = 500, value_parser = clap::value_parser!(u64).range(0..=MAX_DELAY))]
    delay: u64,
    /// What runs the Tx/Rx pipelines.
    #[arg(long, value_enum, default_value = "golden")]
    engine: SimEngine,
    /// The core clock, MHz, in [1, 1000]: pcap timestamps and VCD time are
    /// cycles at this clock (156.25 MHz: 6.4 ns a cycle).
    #[arg(long, allow_negative_numbers = true, env = "NIC_CLOCK_MHZ", default_value_t = args::DEFAULT_CLOCK_MHZ, value_parser = args::clock_mhz)]
    clock_mhz: f64,
    /// Write every frame on the wire (both directions, time order) here
    /// (default: none). The file is created before the run.
    #[arg(long)]
    pcap: Option<PathBuf>,
    /// Waveforms of an RTL engine: `dir/x.vcd` writes
    /// `dir/x.<nic>.<block>.vcd` (default: none; not with --engine golden).
    #[arg(long)]
    vcd: Option<PathBuf>,
    /// Refuse a run whose memory estimate is above this many MiB, ≥ 1.
    #[arg(long, allow_negative_numbers = true, default_value_t = args::DEFAULT_MEM_LIMIT_MIB, value_parser = clap::value_parser!(u64).range(1..))]
    mem_limit_mib: u64,
}

/// The memory a run is expected to take at its peak, bytes (message
/// sizes are drawn up to `max_size`, max_size/2 on average). Each NIC's
/// memory is a source and a destination region of `messages` messages
/// (each 8-aligned, 8 bytes apart); the run holds three arrays of that
/// size per NIC (initial contents, the NIC's memory, its write-count map)
/// and two more while checking one NIC. With a pcap every frame is kept
/// too: the data, in frames of at most one MTU with ~150 bytes of headers
/// and bookkeeping each, an ACK or probe per data frame, and resends of up
/// to a window (16 PSNs) per lost frame. Measured on `lossy-write --loss
/// 0.01 --messages 2000 --max-size 65536`: 1.05 GB estimated, 0.68 GB
/// peak resident; with `--pcap`, 1.29 GB and 0.82 GB.
pub fn memory_estimate(cfg: &SimConfig, pcap: bool) -> u64 {
    let m = cfg.messages as f64;
    let mean = cfg.max_size as f64 / 2.0;
    let region = m * (mean + 16.0);
    let nic_mem = 2.0 * region;
    let mem = (3.0 * 2.0 + 2.0) * nic_mem;
    let wire = if pcap {
        let frames_per_msg = (mean / cfg.mtu as f64).ceil().max(1.0);
        let per_nic = m * (mean + 2.0 * 150.0 * frames_per_msg);
        2.0 * per_nic * (1.0 + 16.0 * cfg.loss)
    } else {
        0.0
    };
    (mem + wire).min(u64::MAX as f64) as u64
}

pub fn main(a: SimArgs) -> i32 {
    let scenario = a.scenario;
    let rtl = match a.engine {
        SimEngine::Golden => None,
        SimEngine::Verilator => Some(EngineKind::Verilator),
        SimEngine::RustHdl => Some(EngineKind::RustHdl),
    };
    if rtl.is_none() && a.vcd.is_some() {
        eprintln!("error: --vcd needs an RTL engine; the golden engine has no waveforms");
        return 2;
    }
    let cfg = SimConfig {
        seed: a.seed,
        loss: a.loss.unwrap_or(scenario.default_loss()),
        messages: a.messages as usize,
        max_size: a.max_size,
        mtu: a.mtu,
        flows: a.flows,
        delay: a.delay,
        record: a.pcap.is_some(),
        ..SimConfig::new(scenario)
    };
    if let Err(e) = cfg.validate() {
        eprintln!("error: {e}");
        return 2;
    }
    if let Err(e) = args::check_memory(
        memory_estimate(&cfg, a.pcap.is_some()),
        a.mem_limit_mib,
        &format!(
            "--messages {} with --max-size {}{}",
            cfg.messages,
            cfg.max_size,
            if a.pcap.is_some() { " and --pcap" } else { "" }
        ),
    ) {
        eprintln!("error: {e}");
        return 2;
    }
    // The clock: the RTL engines read it from NIC_CLOCK_MHZ for their
    // VCD time axis; the pcap uses the same period.
    std::env::set_var("NIC_CLOCK_MHZ", a.clock_mhz.to_string());
    let period_ps = nic_testbench::clock_period_ps();
    // Output files before the run.
    let pcap = match &a.pcap {
        Some(p) => match open_pcap(p) {
            Ok(w) => Some(w),
            Err(e) => {
                eprintln!("error: --pcap {}: {e}", p.display());
                return 2;
            }
        },
        None => None,
    };
    if let Some(v) = &a.vcd {
        if let Err(e) = prepare_vcd(v) {
            eprintln!("error: --vcd {}: {e}", v.display());
            return 2;
        }
    }
    let total_wrs = 2 * cfg.messages as u64;
    let pb = args::progress(
        Some(total_wrs),
        "{spinner} sim [{elapsed_precise}] {bar:24} {pos}/{len} work requests, {msg}",
    );
    let mut progress = |p: &Progress| {
        pb.set_position(p.wrs_done);
        pb.set_message(format!("{} frames", p.frames));
    };
    let r = match rtl {
        None => run_progress(&cfg, &mut progress),
        Some(kind) => run_rtl(&cfg, kind, a.vcd.as_deref(), &mut progress),
    };
    pb.finish_and_clear();
    summary(&cfg, a.engine, &r, a.clock_mhz, period_ps);
    if let (Some(w), Some(p)) = (pcap, &a.pcap) {
        if let Err(e) = write_frames(w, &r, period_ps) {
            eprintln!("error: writing {}: {e}", p.display());
            return 2;
        }
        println!("pcap: {} ({} frames)", p.display(), r.wire.len());
    }
    if r.ok() {
        0
    } else {
        for e in &r.errors {
            eprintln!("check failed: {e}");
        }
        1
    }
}

/// Flow-id bits of the RTL pipelines the sim instantiates (the sim's
/// default `flow_bits`).
const RTL_FLOW_BITS: usize = 4;
/// Frame-buffer address bits of the RTL parser (as the `roce_rx_parse` top).
const RTL_RX_BUF: usize = 11;
/// The NICs and blocks that write waveforms.
const VCD_NICS: [&str; 2] = ["a", "b"];
const VCD_BLOCKS: [&str; 3] = ["tx", "rx_parse", "rx_dispatch"];

/// `dir/name.vcd` → `dir/name.<nic>.<block>.vcd`.
fn vcd_name(p: &Path, nic: usize, block: &str) -> PathBuf {
    let stem = p.file_stem().and_then(|s| s.to_str()).unwrap_or("sim");
    p.with_file_name(format!("{stem}.{}.{block}.vcd", VCD_NICS[nic]))
}

/// The VCD directory and files, created (empty) before the run, so that
/// a path that cannot be written fails before any work.
fn prepare_vcd(p: &Path) -> std::io::Result<()> {
    if let Some(dir) = p.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    for nic in 0..VCD_NICS.len() {
        for block in VCD_BLOCKS {
            File::create(vcd_name(p, nic, block))?;
        }
    }
    Ok(())
}

/// The run with both NICs' Tx and Rx pipelines on an RTL engine. With
/// `vcd` = `dir/name.vcd`, the waveforms go to `dir/name.<nic>.<block>.vcd`
/// (nic `a` or `b`; block `tx`, `rx_parse`, `rx_dispatch`).
fn run_rtl(
    cfg: &SimConfig,
    kind: EngineKind,
    vcd: Option<&Path>,
    progress: &mut dyn FnMut(&Progress),
) -> SimResult {
    assert_eq!(
        cfg.flow_bits as usize, RTL_FLOW_BITS,
        "the RTL sim is built for 16 flows"
    );
    let name = |nic: usize, block: &str| vcd.map(|p| vcd_name(p, nic, block));
    let mtu_log2 = cfg.mtu.trailing_zeros();
    run_with_progress(
        cfg,
        |nic| {
            Box::new(RtlTx::<RTL_FLOW_BITS>::new(
                kind,
                name(nic, "tx").as_deref(),
            ))
        },
        |nic| {
            let (p, d) = (name(nic, "rx_parse"), name(nic, "rx_dispatch"));
            let v = p.as_deref().zip(d.as_deref());
            Box::new(RtlRx::<RTL_RX_BUF, RTL_FLOW_BITS>::new(kind, mtu_log2, v))
        },
        progress,
    )
}

fn summary(cfg: &SimConfig, engine: SimEngine, r: &SimResult, mhz: f64, period_ps: u64) {
    let [a, b] = &r.nic;
    println!(
        "sim {}: engine {}, seed {}, loss {}, {} messages per NIC, max size {}, MTU {}, {} flows, delay {}",
        cfg.scenario.name(),
        engine.to_possible_value().unwrap().get_name(),
        cfg.seed,
        cfg.loss,
        cfg.messages,
        cfg.max_size,
        cfg.mtu,
        cfg.flows,
        cfg.delay
    );
    println!(
        "frames {} (A->B {}, B->A {}), bytes {}, lost {}, cycles {} ({:.3} us at {mhz} MHz)",
        a.frames + b.frames,
        a.frames,
        b.frames,
        a.bytes + b.bytes,
        a.lost + b.lost,
        r.cycles,
        cycle_ns(r.cycles, period_ps) as f64 / 1000.0,
    );
    println!(
        "retransmissions {}, timeouts {}, naks {}, probes {}, acks {}, read responses {}",
        a.retransmissions + b.retransmissions,
        a.timeouts + b.timeouts,
        a.naks_received + b.naks_received,
        a.probes + b.probes,
        a.acks_sent + b.acks_sent,
        a.read_responses + b.read_responses
    );
    let drops: Vec<String> = a
        .rx_counters
        .iter()
        .zip(&b.rx_counters)
        .filter(|(x, _)| !matches!(x.0, "ok" | "accepted"))
        .map(|(x, y)| format!("{} {}", x.0, x.1 + y.1))
        .collect();
    println!("rx drops: {}", drops.join(", "));
    println!(
        "work requests completed {}/{}",
        a.wrs_done + b.wrs_done,
        a.wrs_posted + b.wrs_posted
    );
    println!("byte-exact: {}", if r.ok() { "yes" } else { "no" });
}

/// The start of cycle `cycle`, ns (truncated), at `period_ps` a cycle:
/// the time of the VCDs' cycle, so pcap and waveforms share one axis.
pub fn cycle_ns(cycle: u64, period_ps: u64) -> u64 {
    (cycle as u128 * period_ps as u128 / 1000).min(u64::MAX as u128) as u64
}

type Pcap = PcapWriter<BufWriter<File>>;

fn open_pcap(path: &Path) -> Result<Pcap, Box<dyn std::error::Error>> {
    let file = BufWriter::new(File::create(path)?);
    let header = PcapHeader {
        datalink: DataLink::ETHERNET,
        ts_resolution: TsResolution::NanoSecond,
        ..Default::default()
    };
    Ok(PcapWriter::with_header(file, header)?)
}

/// Every frame of the run, stamped with the start of the cycle its first
/// byte left the sender.
fn write_frames(
    mut w: Pcap,
    r: &SimResult,
    period_ps: u64,
) -> Result<(), Box<dyn std::error::Error>> {
    for f in &r.wire {
        let ts = Duration::from_nanos(cycle_ns(f.time, period_ps));
        w.write_packet(&PcapPacket::new(ts, f.frame.len() as u32, &f.frame))?;
    }
    w.into_writer().flush()?;
    Ok(())
}
