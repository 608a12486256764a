//! `hpccnic`: the command-line front end of the HPCC++ SmartNIC project.
//!
//! `cargo run --release -- <command>` from the repository root.

use clap::error::ErrorKind;
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

mod args;
mod board_setup;
mod c_header;
mod cc_compare;
mod cc_loop;
mod cc_replay;
mod dcqcn_replay;
mod netsim;
mod netsim_compare;
mod rx_fuzz;
mod rx_replay;
mod sim;
mod wireshark;
use std::path::PathBuf;

#[derive(Parser)]
#[command(
    name = "hpccnic",
    version,
    about = "HPCC++ FPGA SmartNIC: Verilog, simulation, benchmarks",
    after_help = "Examples:
  hpccnic tops
  hpccnic verilog --top hpcc_nic --out-dir build/verilog
  hpccnic sim write --pcap build/write.pcap
  hpccnic netsim --scenario examples/netsim/incast16.toml --out build/netsim/incast16
  hpccnic cc-replay examples/cc-replay/two-hops.jsonl
  hpccnic rx-replay --pcap examples/captures/write_read.pcap --flows examples/captures/write_read.a.toml

`hpccnic <command> --help` gives each command's examples; docs/index.md is the book."
)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// List the synthesisable tops.
    Tops,
    /// Write the Verilog of one top (or all) to a directory.
    Verilog {
        /// Top name (see `tops`); all tops when omitted.
        #[arg(long)]
        top: Option<String>,
        /// Output directory: one `<top>.v` per top.
        #[arg(long, default_value = "build/verilog")]
        out_dir: PathBuf,
        /// A top to leave out (repeatable; each must name a top). Default:
        /// none. `make test` leaves out the big variant tops, which
        /// `make verilog` emits.
        #[arg(long, value_name = "TOP")]
        skip: Vec<String>,
    },
    /// Replay telemetry events (JSON Lines from FILE or stdin) through an
    /// HPCC++ model, or CNPs and sent packets through the DCQCN reaction
    /// point (`--algo dcqcn`); one JSON line per event on stdout.
    CcReplay(cc_replay::ReplayArgs),
    /// DCQCN and HPCC++ side by side on one bottleneck (N flows into a
    /// 100G port): queue and rate plots, summary.json.
    CcCompare(cc_compare::CompareArgs),
    /// Two NICs (`hpcc_nic` through its host interface, or `--top core`)
    /// exchanging RDMA WRITEs / READs over a lossy link, with host models:
    /// the golden NIC, or the RTL on an engine with the golden NIC in
    /// lockstep; prints a summary, optionally writes a pcap and waveforms;
    /// exit status 1 if a work request did not complete as planned, the
    /// data is not byte-exact or a register access got the wrong answer,
    /// 2 on a bad option.
    #[command(alias = "sim-core")]
    #[command(after_help = "Examples:
  hpccnic sim write                                   two golden NICs exchange WRITEs
  hpccnic sim mixed --loss 0.01 --pcap build/m.pcap   READs and bad work requests at 1 % loss, a capture
  hpccnic sim read --engine verilator --vcd build/r.vcd --messages 50
                                                      the RTL on Verilator, the twin in lockstep, waveforms
  hpccnic sim write --messages 200 --revoke-at 20000 --recover
                                                      a region revoked mid-traffic, the flow recovered
  hpccnic sim write --top core --rx-log build/w       the core alone; the receive paths' logs for rx-replay")]
    Sim(sim::SimArgs),
    /// Every frame of a capture (pcap or pcapng) through the NIC's receive
    /// path: the golden model, or the RTL parser and dispatcher on an
    /// engine with their twins in lockstep; one JSON line per frame (its
    /// verdict, accepted or the drop reason, and the events it caused),
    /// then the totals; exit status 1 if the totals do not account for
    /// every frame once or `--expect` differs, 2 on a bad option.
    #[command(after_help = "Examples:
  hpccnic rx-replay --pcap examples/captures/write_read.pcap --flows examples/captures/write_read.a.toml
  hpccnic rx-replay --pcap examples/captures/write_read.pcap --flows examples/captures/write_read.a.toml --expect examples/captures/write_read.a.jsonl --engine verilator")]
    RxReplay(rx_replay::RxReplayArgs),
    /// The structure-aware fuzzer of the receive path: valid frames of
    /// every opcode, mutated, into the RTL parser and dispatcher with the
    /// golden models in lockstep; checks that every frame is accounted
    /// once, that a dropped frame changes no flow, that a good frame after
    /// each is accepted in bounded time; exit status 1 on a failure (its
    /// frames in a pcap).
    RxFuzz(rx_fuzz::RxFuzzArgs),
    /// The CC in the loop on the NIC core: one flow through a bottleneck
    /// that stamps telemetry; prints utilisation and queue, draws W, R and
    /// the queue over time (SVG).
    CcLoop(cc_loop::CcLoopArgs),
    /// The network simulator: switches that stamp telemetry, incast,
    /// dumbbell and leaf-spine topologies, long, incast and Poisson
    /// workloads, golden or RTL NIC cores per host; writes summary.json,
    /// CSV series, plots and pcaps (`docs/netsim.md`).
    #[command(after_help = "Examples:
  hpccnic netsim --scenario examples/netsim/incast16.toml --out build/netsim/incast16
  hpccnic netsim --scenario examples/netsim/incast16.toml --cc dcqcn --duration-us 300
  hpccnic netsim --scenario examples/netsim/leaf_spine_websearch.toml --compare hpcc-sender,dcqcn
  hpccnic netsim --scenario examples/netsim/rtl_incast.toml --engine verilator --rtl-hosts 0,4 --pcap-hosts 0,4")]
    Netsim(netsim::NetsimArgs),
    /// The wire constants of the Wireshark dissector
    /// (`tools/wireshark/hpcc.lua`), from the spec: print them, or check
    /// or rewrite the dissector's generated block.
    WiresharkConstants(wireshark::Args),
    /// The C header of the driver contract (`include/hpcc_nic.h`,
    /// `docs/driver.md`) from the spec: print it, write it, or check a
    /// file against it.
    CHeader(c_header::Args),
    /// A board NIC's bring-up as JSON: the register accesses of
    /// `docs/driver.md` §3 and the host memory layout, for
    /// `boards/ecpix5/hpcc_uart.py setup` and the board co-simulation.
    BoardSetup(board_setup::Args),
}

fn main() {
    // A closed stdout (`hpccnic ... | head`) ends the process quietly, as
    // for any Unix filter, instead of a panic in `println!`.
    #[cfg(unix)]
    // SAFETY: restores the default action of one signal before any thread
    // is started; no handler is installed.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let parsed = Cli::command()
        .try_get_matches()
        .and_then(|m| Cli::from_arg_matches(&m).map(|c| (c, m)));
    let cli = match parsed {
        Ok((mut c, m)) => {
            // `sim` warns about options that do not apply to its top: it
            // needs to know which were given rather than defaulted.
            if let (Cmd::Sim(a), Some(sm)) = (&mut c.cmd, m.subcommand_matches("sim")) {
                a.given = args::given(sm);
            }
            c
        }
        Err(e) => match e.kind() {
            ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => e.exit(),
            _ => {
                eprintln!("{}", args::one_line(&e));
                std::process::exit(2);
            }
        },
    };
    let code = std::panic::catch_unwind(|| nic_engines::on_large_stack(move || run(cli)));
    std::process::exit(code.unwrap_or(101));
}

fn run(cli: Cli) -> i32 {
    match cli.cmd {
        Cmd::CcReplay(a) => return cc_replay::main(a),
        Cmd::CcCompare(a) => return cc_compare::main(a),
        Cmd::CcLoop(a) => return cc_loop::main(a),
        Cmd::Netsim(a) => {
            return match a.compare.clone() {
                Some(algos) => netsim_compare::main(&a, &algos),
                None => netsim::main(a),
            }
        }
        Cmd::Sim(a) => return sim::main(a),
        Cmd::RxReplay(a) => return rx_replay::main(a),
        Cmd::RxFuzz(a) => return rx_fuzz::main(a),
        Cmd::WiresharkConstants(a) => return wireshark::main(a),
        Cmd::CHeader(a) => return c_header::main(a),
        Cmd::BoardSetup(a) => return board_setup::main(a),
        Cmd::Tops => {
            for t in nic_hdl::top::tops() {
                println!("{:16} {}", t.name, t.about);
            }
        }
        Cmd::Verilog { top, out_dir, skip } => {
            let tops = nic_hdl::top::tops();
            if let Some(n) = skip
                .iter()
                .find(|n| !tops.iter().any(|t| t.name == n.as_str()))
            {
                eprintln!("error: --skip: no top named `{n}` (see `hpccnic tops`)");
                return 2;
            }
            let chosen: Vec<_> = match &top {
                Some(n) => tops.into_iter().filter(|t| t.name == n).collect(),
                None => tops,
            };
            if chosen.is_empty() {
                eprintln!(
                    "error: --top: no top named `{}` (see `hpccnic tops`)",
                    top.unwrap()
                );
                return 2;
            }
            let chosen: Vec<_> = chosen
                .into_iter()
                .filter(|t| !skip.iter().any(|n| n == t.name))
                .collect();
            if chosen.is_empty() {
                eprintln!("error: --skip leaves no top to write");
                return 2;
            }
            if let Err(e) = std::fs::create_dir_all(&out_dir) {
                eprintln!("error: --out-dir {}: {e}", out_dir.display());
                return 2;
            }
            // One top per worker at a time, a worker per core (rust-hdl's
            // emission is single-threaded: all the tops take about 6
            // minutes on one core); the paths are printed in the tops'
            // order once every file is written.
            let next = std::sync::atomic::AtomicUsize::new(0);
            let workers = std::thread::available_parallelism()
                .map_or(1, |n| n.get())
                .min(chosen.len());
            let written: Vec<Result<std::path::PathBuf, String>> = std::thread::scope(|s| {
                let handles: Vec<_> = (0..workers)
                    .map(|_| {
                        std::thread::Builder::new()
                            .stack_size(nic_engines::LARGE_STACK)
                            .spawn_scoped(s, || {
                                let mut done = Vec::new();
                                loop {
                                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                                    let Some(t) = chosen.get(i) else { break done };
                                    let path = out_dir.join(format!("{}.v", t.name));
                                    let r = std::fs::write(&path, t.verilog_flat())
                                        .map(|_| path.clone())
                                        .map_err(|e| format!("writing {}: {e}", path.display()));
                                    done.push((i, r));
                                }
                            })
                            .expect("spawning an emission thread")
                    })
                    .collect();
                let mut all: Vec<_> = handles
                    .into_iter()
                    .flat_map(|h| h.join().expect("an emission thread panicked"))
                    .collect();
                all.sort_by_key(|(i, _)| *i);
                all.into_iter().map(|(_, r)| r).collect()
            });
            let mut failed = false;
            for r in written {
                match r {
                    Ok(path) => println!("{}", path.display()),
                    Err(e) => {
                        eprintln!("error: {e}");
                        failed = true;
                    }
                }
            }
            if failed {
                return 2;
            }
        }
    }
    0
}
