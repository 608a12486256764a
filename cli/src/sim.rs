//! `hpccnic sim <scenario>`: two NICs exchanging RDMA WRITEs or READs over a
//! link with delay and loss (`docs/roce.md` §9), through the golden Tx/Rx
//! pipelines; prints a summary, optionally writes every frame on the wire
//! as a pcap, and exits non-zero if the data did not arrive byte-exact.

use clap::{Args, ValueEnum};
use nic_netsim::{run, run_with, Scenario, SimConfig, SimResult};
use nic_testbench::roce::pipes::{RtlRx, RtlTx};
use nic_testbench::EngineKind;
use pcap_file::pcap::{PcapHeader, PcapPacket, PcapWriter};
use pcap_file::{DataLink, TsResolution};
use std::path::PathBuf;
use std::time::Duration;

/// Nanoseconds per cycle in pcap timestamps (a 250 MHz core clock).
pub const NS_PER_CYCLE: u64 = 4;

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

#[derive(Args, Debug)]
pub struct SimArgs {
    /// write | read | lossy-write
    scenario: String,
    /// Per-frame loss probability on each direction (default: 0, 0.05 for
    /// lossy-write).
    #[arg(long)]
    loss: Option<f64>,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Work requests posted by each NIC.
    #[arg(long, default_value_t = 32)]
    messages: usize,
    /// Largest message, bytes.
    #[arg(long, default_value_t = 8192)]
    max_size: u32,
    /// 256, 512, 1024, 2048 or 4096.
    #[arg(long, default_value_t = 1024)]
    mtu: u32,
    /// Flows (QPs) per NIC (at most 14: QPs 2..=15).
    #[arg(long, default_value_t = 4)]
    flows: u32,
    /// Link delay per direction, cycles.
    #[arg(long, default_value_t = 500)]
    delay: u64,
    #[arg(long, value_enum, default_value = "golden")]
    engine: SimEngine,
    /// Write every frame on the wire (both directions, time order) here.
    #[arg(long)]
    pcap: Option<PathBuf>,
    /// Waveforms of an RTL engine.
    #[arg(long)]
    vcd: Option<PathBuf>,
}

pub fn main(a: SimArgs) -> i32 {
    let Some(scenario) = Scenario::from_name(&a.scenario) else {
        let names: Vec<_> = Scenario::ALL.iter().map(|s| s.name()).collect();
        eprintln!(
            "error: no scenario `{}` (one of: {})",
            a.scenario,
            names.join(", ")
        );
        return 2;
    };
    match a.engine {
        SimEngine::Golden => {
            if a.vcd.is_some() {
                eprintln!("error: --vcd needs an RTL engine; the golden engine has no waveforms");
                return 2;
            }
        }
        SimEngine::Verilator | SimEngine::RustHdl => {}
    }
    let cfg = SimConfig {
        seed: a.seed,
        loss: a.loss.unwrap_or(scenario.default_loss()),
        messages: a.messages,
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
    let r = match a.engine {
        SimEngine::Golden => run(&cfg),
        SimEngine::Verilator => run_rtl(&cfg, EngineKind::Verilator, a.vcd.as_deref()),
        SimEngine::RustHdl => run_rtl(&cfg, EngineKind::RustHdl, a.vcd.as_deref()),
    };
    summary(&cfg, a.engine, &r);
    if let Some(p) = &a.pcap {
        if let Err(e) = write_pcap(p, &r) {
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

/// The run with both NICs' Tx and Rx pipelines on an RTL engine. With
/// `vcd` = `dir/name.vcd`, the waveforms go to `dir/name.<nic>.<block>.vcd`
/// (nic `a` or `b`; block `tx`, `rx_parse`, `rx_dispatch`).
fn run_rtl(cfg: &SimConfig, kind: EngineKind, vcd: Option<&std::path::Path>) -> SimResult {
    assert_eq!(
        cfg.flow_bits as usize, RTL_FLOW_BITS,
        "the RTL sim is built for 16 flows"
    );
    let name = |nic: usize, block: &str| {
        vcd.map(|p| {
            let stem = p.file_stem().and_then(|s| s.to_str()).unwrap_or("sim");
            p.with_file_name(format!("{stem}.{}.{block}.vcd", ["a", "b"][nic]))
        })
    };
    if let Some(dir) = vcd
        .and_then(|p| p.parent())
        .filter(|d| !d.as_os_str().is_empty())
    {
        std::fs::create_dir_all(dir).expect("create the VCD directory");
    }
    let mtu_log2 = cfg.mtu.trailing_zeros();
    run_with(
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
    )
}

fn summary(cfg: &SimConfig, engine: SimEngine, r: &SimResult) {
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
        "frames {} (A->B {}, B->A {}), bytes {}, lost {}, cycles {}",
        a.frames + b.frames,
        a.frames,
        b.frames,
        a.bytes + b.bytes,
        a.lost + b.lost,
        r.cycles
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

fn write_pcap(path: &PathBuf, r: &SimResult) -> Result<(), Box<dyn std::error::Error>> {
    let file = std::io::BufWriter::new(std::fs::File::create(path)?);
    let header = PcapHeader {
        datalink: DataLink::ETHERNET,
        ts_resolution: TsResolution::NanoSecond,
        ..Default::default()
    };
    let mut w = PcapWriter::with_header(file, header)?;
    for f in &r.wire {
        let ts = Duration::from_nanos(f.time * NS_PER_CYCLE);
        w.write_packet(&PcapPacket::new(ts, f.frame.len() as u32, &f.frame))?;
    }
    Ok(())
}
