//! `hpccnic rx-replay`: every frame of a capture through the NIC's
//! receive path (the RoCEv2 parser and dispatcher), one JSON line per
//! frame (its verdict and the events it caused), then the totals
//! (`docs/rx-replay.md`; the logic is `nic_netsim::rx_log`).

use clap::{Args, ValueEnum};
use nic_engines::roce::pipes::RtlRx;
use nic_engines::EngineKind;
use nic_golden::roce::txn::{GoldenRx, RxPipe};
use nic_netsim::rx_log::{self, ReplayCfg};
use pcap_file::pcap::PcapReader;
use pcap_file::pcapng::{Block, PcapNgReader};
use pcap_file::DataLink;
use serde_json::{json, Value};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The receive path replayed: the `roce_rx_parse` top (2048-word frame
/// buffer) and the `roce_rx_dispatch` top (QPs 0 ..= 1023).
const FLOW_BITS: u32 = 10;
type Rtl = RtlRx<11, 10>;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Engine {
    /// The golden transaction model (`decode` + the dispatch rules).
    Golden,
    /// The emitted Verilog of the parser and the dispatcher on Verilator,
    /// each with its cycle twin in lockstep, and the transaction model
    /// checked on every frame.
    Verilator,
    /// The same on rust-hdl's simulator (slow).
    RustHdl,
}

#[derive(Args)]
pub struct RxReplayArgs {
    /// The capture: pcap or pcapng, Ethernet frames.
    #[arg(long)]
    pcap: PathBuf,
    /// The receive path's set-up (TOML: `mtu`, `dst_mac`, `skip`,
    /// `[[flow]]`s); `hpccnic sim --rx-log` writes one. Default: every QP
    /// of the capture accepted from its first WRITE or READ REQUEST's PSN.
    #[arg(long)]
    flows: Option<PathBuf>,
    /// What runs the receive path.
    #[arg(long, value_enum, default_value_t = Engine::Golden)]
    engine: Engine,
    /// The MTU when no `--flows` gives one: 256, 512, 1024, 2048 or 4096.
    #[arg(long, default_value_t = 1024)]
    mtu: u32,
    /// Feed only frames to this MAC (`aa:bb:cc:dd:ee:ff`); overrides the
    /// set-up's `dst_mac`.
    #[arg(long)]
    dst_mac: Option<String>,
    /// The capture's frames end with their FCS: it is checked (a bad one
    /// is `bad_fcs`) and removed.
    #[arg(long)]
    fcs: bool,
    /// Write the set-up used (the default one, if no `--flows`) to this
    /// TOML file, to edit and pass back with `--flows`.
    #[arg(long)]
    write_setup: Option<PathBuf>,
    /// Write the lines here instead of stdout.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Compare the frames' lines with this file (`sim --rx-log`'s
    /// `.jsonl`): exit status 1 at the first difference.
    #[arg(long)]
    expect: Option<PathBuf>,
}

/// The capture's frames, numbered from 1.
fn read_capture(p: &Path) -> Result<Vec<(u64, Vec<u8>)>, String> {
    let bytes = std::fs::read(p).map_err(|e| e.to_string())?;
    let mut frames = Vec::new();
    if bytes.starts_with(&[0x0a, 0x0d, 0x0d, 0x0a]) {
        let mut r = PcapNgReader::new(&bytes[..]).map_err(|e| e.to_string())?;
        let mut linktypes = Vec::new();
        while let Some(b) = r.next_block() {
            match b.map_err(|e| e.to_string())? {
                Block::InterfaceDescription(i) => linktypes.push(i.linktype),
                Block::EnhancedPacket(e) => {
                    if linktypes.get(e.interface_id as usize) != Some(&DataLink::ETHERNET) {
                        return Err(format!(
                            "frame {}: not an Ethernet interface",
                            frames.len() + 1
                        ));
                    }
                    frames.push((frames.len() as u64 + 1, e.data.into_owned()));
                }
                Block::SimplePacket(s) => {
                    frames.push((frames.len() as u64 + 1, s.data.into_owned()))
                }
                _ => {}
            }
        }
    } else {
        let mut r = PcapReader::new(&bytes[..]).map_err(|e| e.to_string())?;
        if r.header().datalink != DataLink::ETHERNET {
            return Err(format!(
                "link type {:?}: Ethernet captures only",
                r.header().datalink
            ));
        }
        while let Some(pk) = r.next_packet() {
            let pk = pk.map_err(|e| e.to_string())?;
            frames.push((frames.len() as u64 + 1, pk.data.into_owned()));
        }
    }
    Ok(frames)
}

pub fn main(a: RxReplayArgs) -> i32 {
    let frames = match read_capture(&a.pcap) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("error: --pcap {}: {e}", a.pcap.display());
            return 2;
        }
    };
    let mut cfg = match &a.flows {
        Some(p) => match std::fs::read_to_string(p)
            .map_err(|e| e.to_string())
            .and_then(|s| toml::from_str::<ReplayCfg>(&s).map_err(|e| e.to_string()))
        {
            Ok(c) => c,
            Err(e) => {
                eprintln!("error: --flows {}: {}", p.display(), e.trim());
                return 2;
            }
        },
        None => match ReplayCfg::accept_all(&frames, a.mtu, FLOW_BITS, a.dst_mac.as_deref()) {
            Ok(c) => c,
            Err(e) => {
                eprintln!("error: --dst-mac: {e}");
                return 2;
            }
        },
    };
    if let Some(p) = &a.write_setup {
        if let Err(e) = std::fs::write(p, toml::to_string(&cfg).expect("a set-up serialises")) {
            eprintln!("error: --write-setup {}: {e}", p.display());
            return 2;
        }
    }
    if a.dst_mac.is_some() {
        cfg.dst_mac = a.dst_mac.clone();
    }
    if let Err(e) = cfg.check(FLOW_BITS) {
        eprintln!(
            "error: {}: {e}",
            if a.flows.is_some() {
                "--flows"
            } else {
                "--mtu/--dst-mac"
            }
        );
        return 2;
    }
    let expect = match &a.expect {
        Some(p) => match std::fs::read_to_string(p) {
            Ok(s) => Some(s.lines().map(str::to_string).collect::<Vec<_>>()),
            Err(e) => {
                eprintln!("error: --expect {}: {e}", p.display());
                return 2;
            }
        },
        None => None,
    };
    let mut out: Box<dyn Write> = match &a.out {
        Some(p) => match std::fs::File::create(p) {
            Ok(f) => Box::new(std::io::BufWriter::new(f)),
            Err(e) => {
                eprintln!("error: --out {}: {e}", p.display());
                return 2;
            }
        },
        None => Box::new(std::io::BufWriter::new(std::io::stdout())),
    };
    let mtu_log2 = cfg.mtu.trailing_zeros();
    let start = std::time::Instant::now();
    let mut pipe: Box<dyn RxPipe> = match a.engine {
        Engine::Golden => Box::new(GoldenRx::new(FLOW_BITS, mtu_log2)),
        Engine::Verilator => Box::new(Rtl::new(EngineKind::Verilator, mtu_log2, None)),
        Engine::RustHdl => Box::new(Rtl::new(EngineKind::RustHdl, mtu_log2, None)),
    };
    let reports = rx_log::replay(&cfg, &frames, a.fcs, pipe.as_mut());
    let counters = pipe.counters();
    let t = rx_log::tally(&reports);
    // The set-up's `full` frames are reported, not fed.
    let mut fed = t.clone();
    if let Some(n) = fed.get_mut("drop_full") {
        *n -= cfg.full.len() as u64;
    }
    fed.retain(|_, n| *n > 0);
    let bad = rx_log::accounting(&fed, &counters);
    let mut code = 0;
    for r in &reports {
        if writeln!(out, "{r}").is_err() {
            return 1;
        }
    }
    let totals = json!({
        "totals": {
            "frames_in_capture": frames.len(),
            "frames_fed": reports.len() - cfg.full.len(),
            "frames_full_in_setup": cfg.full.len(),
            "verdicts": t,
            "counters": counters.iter().map(|(k, v)| (k.to_string(), json!(v))).collect::<serde_json::Map<String, Value>>(),
            "accounted": bad.is_empty(),
            "engine": a.engine.to_possible_value().unwrap().get_name(),
            "seconds": start.elapsed().as_secs_f64(),
        }
    });
    let _ = writeln!(out, "{totals}");
    let _ = out.flush();
    for b in &bad {
        eprintln!("error: accounting: {b}");
        code = 1;
    }
    if let Some(want) = expect {
        let got: Vec<String> = reports.iter().map(|r| r.to_string()).collect();
        match got.iter().zip(&want).position(|(g, w)| g != w) {
            Some(k) => {
                eprintln!(
                    "error: --expect: line {} differs\n  expected: {}\n  replayed: {}",
                    k + 1,
                    want[k],
                    got[k]
                );
                code = 1;
            }
            None if got.len() != want.len() => {
                eprintln!(
                    "error: --expect: {} lines expected, {} replayed",
                    want.len(),
                    got.len()
                );
                code = 1;
            }
            None => eprintln!("expect: all {} frames match", got.len()),
        }
    }
    code
}
