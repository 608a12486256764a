//! `hpccnic rx-fuzz`: the structure-aware fuzzer of the receive path
//! (`nic_netsim::rx_fuzz`; `make fuzz` runs 10^6 frames).

use crate::args;
use clap::{Args, ValueEnum};
use nic_engines::EngineKind;
use nic_netsim::rx_fuzz::{self, FuzzCfg};
use pcap_file::pcap::{PcapPacket, PcapWriter};
use std::path::PathBuf;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Engine {
    /// The emitted Verilog on Verilator.
    Verilator,
    /// rust-hdl's simulator (slow: keep --frames small).
    RustHdl,
}

#[derive(Args)]
pub struct RxFuzzArgs {
    /// Fuzzed frames (floods included), ≥ 1.
    #[arg(long, default_value_t = 100_000, value_parser = clap::value_parser!(u64).range(1..))]
    frames: u64,
    /// Seed of every random draw: a seed names one run.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// What runs the RTL (the golden models run in lockstep with it).
    #[arg(long, value_enum, default_value_t = Engine::Verilator)]
    engine: Engine,
    /// A flood (48 frames of one flow back to back) every this many
    /// frames; 0: none.
    #[arg(long, default_value_t = 1000)]
    flood_every: u64,
    /// Write the figures here (JSON).
    #[arg(long)]
    json: Option<PathBuf>,
    /// On a failure, write the frames that caused it here.
    #[arg(long, default_value = "build/fuzz/failure.pcap")]
    failure_pcap: PathBuf,
}

pub fn main(a: RxFuzzArgs) -> i32 {
    let cfg = FuzzCfg {
        frames: a.frames,
        seed: a.seed,
        flood_every: a.flood_every,
        engine: match a.engine {
            Engine::Verilator => EngineKind::Verilator,
            Engine::RustHdl => EngineKind::RustHdl,
        },
    };
    let bar = args::progress(
        Some(a.frames),
        "{bar:40} {pos}/{len} frames [{elapsed_precise}, {eta} left]",
    );
    let r = rx_fuzz::run(&cfg, &mut |n| bar.set_position(n));
    bar.finish_and_clear();
    let (stats, code) = match r {
        Ok(s) => (s, 0),
        Err(f) => {
            eprintln!("error: rx-fuzz: {}", f.message);
            let written = (|| -> Result<(), Box<dyn std::error::Error>> {
                if let Some(d) = a
                    .failure_pcap
                    .parent()
                    .filter(|d| !d.as_os_str().is_empty())
                {
                    std::fs::create_dir_all(d)?;
                }
                let mut w = PcapWriter::new(std::fs::File::create(&a.failure_pcap)?)?;
                for (k, fr) in f.frames.iter().enumerate() {
                    let ts = std::time::Duration::from_micros(k as u64);
                    w.write_packet(&PcapPacket::new(ts, fr.len() as u32, fr))?;
                }
                Ok(())
            })();
            match written {
                Ok(()) => eprintln!(
                    "the frames of the failing step: {} (replay with `hpccnic rx-replay --engine verilator --pcap {0}`)",
                    a.failure_pcap.display()
                ),
                Err(e) => eprintln!("error: --failure-pcap {}: {e}", a.failure_pcap.display()),
            }
            (f.stats, 1)
        }
    };
    println!(
        "rx-fuzz: engine {}, seed {}: frames {} (floods {} of {}, unmutated {}, repaired {}), control frames {}",
        stats.engine,
        stats.seed,
        stats.frames,
        stats.floods,
        rx_fuzz::FLOOD,
        stats.unmutated,
        stats.repaired,
        stats.control_frames
    );
    println!(
        "verdicts: {}",
        stats
            .verdicts
            .iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    println!(
        "regions: host writes of WRITEs checked {}, READ requests checked {}, outside a region that grants them {}",
        stats.host_writes_checked, stats.read_reqs_checked, stats.outside_a_region
    );
    println!(
        "mismatches {}, stalls {}, control frame at most {} cycles (bound there {}); {} cycles, {:.1} s, {:.0} frames/s",
        stats.mismatches,
        stats.stalls,
        stats.max_control_cycles,
        stats.control_bound_at_max,
        stats.cycles,
        stats.seconds,
        stats.frames_per_second
    );
    if let Some(p) = &a.json {
        let res = p
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
            .map_or(Ok(()), std::fs::create_dir_all)
            .and_then(|_| std::fs::write(p, serde_json::to_string_pretty(&stats).unwrap() + "\n"));
        if let Err(e) = res {
            eprintln!("error: --json {}: {e}", p.display());
            return 2;
        }
    }
    code
}
