//! `hpccnic sim-core <scenario>`: two `hpcc_nic_core`s over a lossy link,
//! each with a host model (`nic_netsim::core_env`: configuration through
//! the register map, work requests, completions checked, DMA served with
//! latency). `--engine golden` runs the core's twin; `verilator` and
//! `rust-hdl` run the RTL with the twin in lockstep, every port compared
//! every cycle. Prints a summary, writes a pcap if asked, exits 1 if a
//! work request did not complete as planned or the data is not
//! byte-exact, 2 on a bad option.

use crate::args;
use crate::sim::{cycle_ns, SimEngine};
use clap::{Args, ValueEnum};
use nic_golden::nic::core::{In, NicCore};
use nic_golden::Cycle;
use nic_netsim::core_env::{run_core_sim, CoreFn, CoreSimCfg};
use nic_testbench::roce::pipes::{engine_for, Lockstep};
use nic_testbench::EngineKind;
use pcap_file::pcap::{PcapHeader, PcapPacket, PcapWriter};
use pcap_file::{DataLink, TsResolution};
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

/// The core `sim-core` runs: 8 flows × 8 work requests, a 256-word
/// receive buffer (the co-simulation tests' size).
type Rtl = nic_hdl::nic::NicCore<3, 3, 6, 8>;
type Twin = NicCore<3, 3, 8>;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CoreScenario {
    /// WRITEs only.
    Write,
    /// READs only.
    Read,
    /// 30 % READs, and bad work requests of every error status.
    Mixed,
}

#[derive(Args, Debug)]
pub struct SimCoreArgs {
    #[arg(value_enum)]
    scenario: CoreScenario,
    /// Per-frame loss probability on each direction, in [0, 1).
    #[arg(long, allow_negative_numbers = true, default_value_t = 0.0, value_parser = args::loss)]
    loss: f64,
    /// Seed of every random draw (sizes, flows, PSNs, memory, losses).
    #[arg(long, allow_negative_numbers = true, default_value_t = 1)]
    seed: u64,
    /// Work requests posted by each NIC, 1 ..= 4096.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u64).range(1..=4096))]
    messages: u64,
    /// Largest message, bytes, 1 ..= 2^20.
    #[arg(long, default_value_t = 4096, value_parser = clap::value_parser!(u32).range(1..=1 << 20))]
    max_size: u32,
    /// MTU, bytes: 256, 512 or 1024 (the core's receive buffer holds 2 KiB).
    #[arg(long, default_value_t = 1024, value_parser = clap::value_parser!(u32).range(256..=1024))]
    mtu: u32,
    /// Flows per NIC, 1 ..= 6 (QPs 2 ..= 7 of the core's 8).
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=6))]
    flows: u32,
    /// Link delay per direction, cycles, 0 ..= 100000.
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u64).range(0..=100_000))]
    delay: u64,
    /// Telemetry in probes only (`FLOW_TLM_DATA` = 0), not in every data
    /// packet.
    #[arg(long)]
    probe_only: bool,
    /// What runs the cores.
    #[arg(long, value_enum, default_value = "golden")]
    engine: SimEngine,
    /// The core clock, MHz: pcap timestamps are cycles at this clock.
    #[arg(long, allow_negative_numbers = true, env = "NIC_CLOCK_MHZ", default_value_t = args::DEFAULT_CLOCK_MHZ, value_parser = args::clock_mhz)]
    clock_mhz: f64,
    /// Write every frame on the wire here (created before the run).
    #[arg(long)]
    pcap: Option<PathBuf>,
}

pub fn main(a: SimCoreArgs) -> i32 {
    if !a.mtu.is_power_of_two() {
        eprintln!("error: --mtu {}: 256, 512 or 1024", a.mtu);
        return 2;
    }
    let pcap = match &a.pcap {
        Some(p) => match std::fs::File::create(p) {
            Ok(f) => Some(f),
            Err(e) => {
                eprintln!("error: --pcap {}: {e}", p.display());
                return 2;
            }
        },
        None => None,
    };
    let c = CoreSimCfg {
        seed: a.seed,
        flows: a.flows,
        messages: a.messages as usize,
        max_size: a.max_size,
        read_pct: match a.scenario {
            CoreScenario::Write => 0,
            CoreScenario::Read => 100,
            CoreScenario::Mixed => 30,
        },
        bad: if a.scenario == CoreScenario::Mixed {
            4
        } else {
            0
        },
        mtu_log2: a.mtu.trailing_zeros() as u8,
        loss: a.loss,
        delay: a.delay,
        tlm_data: !a.probe_only,
    };
    let budget = 20_000_000 + 400 * a.messages * a.max_size as u64 / 64;
    let r = match a.engine {
        SimEngine::Golden => {
            let mut t = [Twin::default(), Twin::default()];
            let [t0, t1] = &mut t;
            let cores: [CoreFn<'_>; 2] =
                [Box::new(|i: &In| t0.step(i)), Box::new(|i: &In| t1.step(i))];
            run_core_sim(&c, cores, budget)
        }
        SimEngine::Verilator | SimEngine::RustHdl => {
            let kind = if a.engine == SimEngine::Verilator {
                EngineKind::Verilator
            } else {
                EngineKind::RustHdl
            };
            let mut l0 = Lockstep::new(
                engine_for::<Rtl>(kind, None),
                Twin::default(),
                "hpcc_nic_core 0",
            );
            let mut l1 = Lockstep::new(
                engine_for::<Rtl>(kind, None),
                Twin::default(),
                "hpcc_nic_core 1",
            );
            let cores: [CoreFn<'_>; 2] = [
                Box::new(move |i: &In| l0.step(i)),
                Box::new(move |i: &In| l1.step(i)),
            ];
            run_core_sim(&c, cores, budget)
        }
    };
    let period_ps = (1e6 / a.clock_mhz).round() as u64;
    let probes = r
        .wire
        .iter()
        .filter(|f| f.frame.get(nic_spec::roce::BTH_OFF) == Some(&nic_spec::roce::op::PROBE))
        .count();
    let lost = r.wire.iter().filter(|f| f.lost).count();
    println!(
        "sim-core {}: engine {}, seed {}, loss {}, {} messages per NIC, max size {}, MTU {}, {} flows, delay {}, telemetry {}",
        a.scenario.to_possible_value().unwrap().get_name(),
        a.engine.to_possible_value().unwrap().get_name(),
        a.seed,
        a.loss,
        a.messages,
        a.max_size,
        a.mtu,
        a.flows,
        a.delay,
        if a.probe_only { "in probes only" } else { "in every data packet" }
    );
    println!(
        "frames {} (A->B {}, B->A {}), lost {lost}, probes {probes}, cycles {} ({:.3} us at {} MHz)",
        r.wire.len(),
        r.wire.iter().filter(|f| f.from == 0).count(),
        r.wire.iter().filter(|f| f.from == 1).count(),
        r.cycles,
        cycle_ns(r.cycles, period_ps) as f64 / 1000.0,
        a.clock_mhz
    );
    println!("work requests completed {}/{}", r.completed, r.planned);
    println!("byte-exact: {}", if r.byte_exact { "yes" } else { "NO" });
    for e in r.errors.iter().take(20) {
        println!("error: {e}");
    }
    if let (Some(f), Some(p)) = (pcap, &a.pcap) {
        let header = PcapHeader {
            datalink: DataLink::ETHERNET,
            ts_resolution: TsResolution::NanoSecond,
            ..Default::default()
        };
        let res = (|| -> Result<(), Box<dyn std::error::Error>> {
            let mut w = PcapWriter::with_header(std::io::BufWriter::new(f), header)?;
            for fr in &r.wire {
                let ts = Duration::from_nanos(cycle_ns(fr.time, period_ps));
                w.write_packet(&PcapPacket::new(ts, fr.frame.len() as u32, &fr.frame))?;
            }
            w.into_writer().flush()?;
            Ok(())
        })();
        if let Err(e) = res {
            eprintln!("error: --pcap {}: {e}", p.display());
            return 2;
        }
        println!("pcap: {} ({} frames)", p.display(), r.wire.len());
    }
    if r.finished && r.byte_exact && r.errors.is_empty() && r.completed == r.planned {
        0
    } else {
        1
    }
}
