//! `hpccnic sim <scenario>`: two NICs over a lossy link.
//!
//! `--top nic` (the default) runs two `hpcc_nic` (the host interface and
//! the core), each driven by `nic_netsim::driver`: registers over
//! AXI4-Lite, send queues and doorbells, completion queues reaped on
//! events, a DMA engine; the counters are read over AXI4-Lite at the end.
//! `--top core` runs two `hpcc_nic_core` with the core's host model
//! (`nic_netsim::core_env`: work requests on a stream). `--engine golden`
//! runs the twin; `verilator` and `rust-hdl` run the RTL with the twin in
//! lockstep, every port compared every cycle (the frames on the wire are
//! the RTL's). Prints a summary, writes a pcap (timestamps: cycles at the
//! core clock, `--clock-mhz`) and waveforms if asked, exits 1 if a work
//! request did not complete as planned, the data is not byte-exact or an
//! access got another answer than it must, 2 on a bad option.

use crate::args;
use clap::{Args, ValueEnum};
use nic_golden::cc::params::Variant;
use nic_golden::nic::core::{NicCore, RxView};
use nic_golden::Cycle;
use nic_netsim::core_env::SIM_RX_BUF_LOG2;
use nic_netsim::core_env::{run_core_sim, CoreFn, CoreSimCfg, NicFn, VariantPlan};
use nic_netsim::driver::{nic_sim_params, run_nic_sim, NicSimCfg, ResetDone};
use nic_netsim::driver_10g::run_nic_10g_sim;
use nic_netsim::rx_log::{self, RxMonitor};
use nic_testbench::roce::pipes::{engine_for, Lockstep};
use nic_testbench::EngineKind;
use pcap_file::pcap::{PcapHeader, PcapPacket, PcapWriter};
use pcap_file::{DataLink, TsResolution};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SimEngine {
    /// The golden NIC core alone (the blocks' twins joined as the RTL).
    Golden,
    /// The RTL core on Verilator (the emitted Verilog), the golden core
    /// in lockstep.
    Verilator,
    /// The RTL core on rust-hdl's simulator, the golden core in lockstep
    /// (slow: keep the scenario small).
    RustHdl,
}

/// Where the telemetry area goes (`FLOW_TLM_DATA`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Telemetry {
    /// In every data packet (and its acknowledgement's echo).
    Data,
    /// In probes only (one per RTT): every WRITE, READ and ACK is plain
    /// RoCEv2 whose standard ICRC verifies.
    Probe,
}

/// The start of cycle `cycle`, ns (truncated), at `period_ps` a cycle:
/// the time of the VCDs' cycle, so pcap and waveforms share one axis.
pub fn cycle_ns(cycle: u64, period_ps: u64) -> u64 {
    (cycle as u128 * period_ps as u128 / 1000).min(u64::MAX as u128) as u64
}

/// The core `sim` runs: 8 flows × 8 work requests, a 1024-word receive
/// buffer (the co-simulation tests' size, `SIM_RX_BUF_LOG2`).
type Rtl = nic_hdl::nic::NicCore<3, 3, 6, SIM_RX_BUF_LOG2>;
type Twin = NicCore<3, 3, SIM_RX_BUF_LOG2>;
/// The NIC `sim --top nic` runs: that core, 4 completion queues, a
/// 16-entry WQE buffer.
type NicRtl = nic_hdl::nic::HpccNic<3, 3, 6, SIM_RX_BUF_LOG2, 2, 4, 4>;
type NicTwin = nic_golden::nic::nic::HpccNic<3, 3, SIM_RX_BUF_LOG2, 2, 4, 4>;
/// The NIC `sim --top nic-10g` runs: that NIC on the 10G MAC.
type Nic10gRtl = nic_hdl::nic::HpccNic10g<3, 3, 6, SIM_RX_BUF_LOG2, 2, 4, 4>;
type Nic10gTwin = nic_golden::nic::nic_10g::HpccNic10g<3, 3, SIM_RX_BUF_LOG2, 2, 4, 4>;

/// How `--reset-at` resets NIC B.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SimResetKind {
    /// The `rst` pin, 16 cycles; the driver holds its register accesses
    /// around it.
    Pin,
    /// A write of `CONTROL` bit 0 (soft reset, 8 cycles).
    Soft,
    /// A write of `CONTROL` bit 1 (full reset) to both NICs; each driver
    /// brings its NIC up again and posts again every work request not
    /// complete.
    Full,
    /// A full reset of NIC B alone, which then stays down (a peer that
    /// died): NIC A's work requests end `retry_exceeded`, then `flushed`,
    /// each within the bound its RTO and retry limit give.
    Peer,
}

/// What `sim` runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SimTop {
    /// `hpcc_nic`: the host interface and the core, driven over AXI4-Lite
    /// and DMA by the driver.
    Nic,
    /// `hpcc_nic_core`: the core alone, work requests on a stream.
    Core,
    /// `hpcc_nic_10g`: `hpcc_nic` on the 10G MAC, driven as `nic`; the
    /// link carries XGMII words (a lost frame arrives with a bit flipped:
    /// the receiving MAC finds a bad FCS), and a monitor checks every
    /// frame on it (preamble, FCS, size).
    #[value(name = "nic-10g")]
    Nic10g,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CoreScenario {
    /// WRITEs only.
    Write,
    /// READs only.
    Read,
    /// 30 % READs, and bad work requests of every error status.
    Mixed,
}

/// The HPCC++ variant of each flow (`FLOW_CC_VARIANT`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum VariantArg {
    /// NewAck everywhere (sender-based).
    Newack,
    /// NewINT everywhere (receiver-based: the receiver's W in NOTIFYs).
    Newint,
    /// NewAck on even flow ids, NewINT on odd ones.
    Mixed,
}

#[derive(Args, Debug)]
pub struct SimArgs {
    #[arg(value_enum)]
    scenario: CoreScenario,
    /// Per-frame loss probability on each direction, in [0, 1).
    #[arg(long, allow_negative_numbers = true, default_value_t = 0.0, value_parser = args::loss)]
    loss: f64,
    /// Probability that a frame not lost arrives damaged, in [0, 1): one
    /// bit of its ICRC or of its BTH flipped, or cut short. Each must be
    /// dropped by the receiver; the sender recovers it as a loss. `--top
    /// core` and `nic` (default: 0)
    #[arg(long, allow_negative_numbers = true, default_value_t = 0.0, value_parser = args::loss)]
    corrupt: f64,
    /// Seed of every random draw of the run (message sizes and flows,
    /// initial PSNs, memory contents, losses): a seed names one run. Any
    /// 64-bit number.
    #[arg(long, allow_negative_numbers = true, default_value_t = 1)]
    seed: u64,
    /// Work requests posted by each NIC, 1 ..= 65536 (`make soak` posts
    /// tens of thousands).
    #[arg(long, allow_negative_numbers = true, default_value_t = 16, value_parser = clap::value_parser!(u64).range(1..=65536))]
    messages: u64,
    /// Largest message, bytes, 1 ..= 2^20.
    #[arg(long, allow_negative_numbers = true, default_value_t = 4096, value_parser = clap::value_parser!(u32).range(1..=1 << 20))]
    max_size: u32,
    /// MTU, bytes: 256, 512 or 1024 (the core's receive buffer holds 8 KiB: two
    /// maximum frames and sixteen small ones).
    #[arg(long, allow_negative_numbers = true, default_value_t = 1024, value_parser = clap::value_parser!(u32).range(256..=1024))]
    mtu: u32,
    /// Flows per NIC, 1 ..= 6 (QPs 2 ..= 7 of the core's 8).
    #[arg(long, allow_negative_numbers = true, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=6))]
    flows: u32,
    /// Link delay per direction, cycles, 0 ..= 100000.
    #[arg(long, allow_negative_numbers = true, default_value_t = 200, value_parser = clap::value_parser!(u64).range(0..=100_000))]
    delay: u64,
    /// Where the telemetry area goes: `data` (every data packet) or
    /// `probe` (probes only; standard RoCEv2 otherwise).
    #[arg(long, value_enum, default_value = "data")]
    telemetry: Telemetry,
    /// The HPCC++ variant of each flow.
    #[arg(long, value_enum, default_value = "mixed")]
    variant: VariantArg,
    /// What runs the NICs.
    #[arg(long, value_enum, default_value = "golden")]
    engine: SimEngine,
    /// `nic`: the whole NIC through its host interface; `core`: the core;
    /// `nic-10g`: the whole NIC on the 10G MAC, XGMII on the link.
    #[arg(long, value_enum, default_value = "nic")]
    top: SimTop,
    /// `--top nic`: log2 of each flow's send-queue entries, 0 ..= 10 (small
    /// rings wrap often).
    #[arg(long, allow_negative_numbers = true, default_value_t = 2, value_parser = clap::value_parser!(u8).range(0..=10))]
    sq_log: u8,
    /// `--top nic`: log2 of each completion queue's entries, 0 ..= 10.
    #[arg(long, allow_negative_numbers = true, default_value_t = 3, value_parser = clap::value_parser!(u8).range(0..=10))]
    cq_log: u8,
    /// `--top nic`: completion queues used per NIC, 1 ..= 4 (flow f
    /// completes into CQ f mod this).
    #[arg(long, allow_negative_numbers = true, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=4))]
    cqs: u32,
    /// `--top nic`: work requests per doorbell at most, 1 ..= 64.
    #[arg(long, allow_negative_numbers = true, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=64))]
    batch: u32,
    /// `--top nic`: event moderation, completions per event, 0 ..= 65535
    /// (0 counts as 1).
    #[arg(long, allow_negative_numbers = true, default_value_t = 4, value_parser = clap::value_parser!(u16))]
    mod_count: u16,
    /// `--top nic`: event moderation, cycles after the first waiting
    /// completion, 0 ..= 2^24 − 1.
    #[arg(long, allow_negative_numbers = true, default_value_t = 200, value_parser = clap::value_parser!(u32).range(0..1 << 24))]
    mod_time: u32,
    /// `--top nic`: probability that a DMA read comes back with a flagged
    /// beat (h2c `tuser`), in [0, 1): a flagged send-queue entry completes
    /// DMA_ERR (the driver posts it again), a flagged payload aborts its
    /// frame (sent again by the recovery).
    #[arg(long, allow_negative_numbers = true, default_value_t = 0.0, value_parser = args::loss)]
    dma_err: f64,
    /// The core clock, MHz, in [1, 1000]: pcap timestamps and VCD time are
    /// cycles at this clock (156.25 MHz: 6.4 ns a cycle).
    #[arg(long, allow_negative_numbers = true, env = "NIC_CLOCK_MHZ", default_value_t = args::DEFAULT_CLOCK_MHZ, value_parser = args::clock_mhz)]
    clock_mhz: f64,
    /// Write every frame on the wire (both directions, time order) here
    /// (default: none). The file is created before the run.
    #[arg(long)]
    pcap: Option<PathBuf>,
    /// Waveforms of an RTL engine: `dir/x.vcd` writes `dir/x.a.vcd` and
    /// `dir/x.b.vcd`, one per NIC (default: none; not with --engine
    /// golden).
    #[arg(long)]
    vcd: Option<PathBuf>,
    /// The receive path's report of every frame each NIC received, and
    /// the set-up that replays it (`hpccnic rx-replay`): `dir/x` writes
    /// `dir/x.a.jsonl` and `dir/x.a.toml` for NIC A, `dir/x.b.*` for B
    /// (`docs/rx-replay.md`; `--top core` and `nic`; with an RTL engine,
    /// from the golden core in lockstep with it) (default: none)
    #[arg(long)]
    rx_log: Option<PathBuf>,
    /// `--top nic`, `nic-10g`: the watchdog's bound on a work request,
    /// cycles from its entry written into its send queue to its
    /// completion read; the run fails when one is older (checked every
    /// 16384 cycles; default: 0, off)
    #[arg(long, allow_negative_numbers = true, default_value_t = 0)]
    wr_timeout: u64,
    /// `--top nic`, `nic-10g`: the watchdog's bound on a stall, cycles
    /// the NIC leaves a beat of `s_axis_rx` or `s_axis_h2c` offered and
    /// not taken (default: 0, off)
    #[arg(long, allow_negative_numbers = true, default_value_t = 0)]
    stall_timeout: u64,
    /// `--top nic`, `nic-10g`: reset NIC B in mid-traffic at this cycle
    /// (or as soon after as its bring-up is over); NIC A is its peer and
    /// every work request of both must still complete, byte-exact
    /// (`docs/driver.md` §8; default: none)
    #[arg(long, allow_negative_numbers = true)]
    reset_at: Option<u64>,
    /// How `--reset-at` resets NIC B (default: pin; `full` resets both
    /// NICs, which start again; `peer` resets B, which stays down)
    #[arg(long, value_enum, default_value_t = SimResetKind::Pin)]
    reset_kind: SimResetKind,
    /// `--top nic`, `nic-10g`: NIC B revokes the memory region of the
    /// first flow (QP 2) at this cycle (or as soon after as its bring-up
    /// is over): NIC A's work requests of that flow that need it end
    /// `remote_access`, its later ones `flushed`; every other flow
    /// completes byte-exact (default: none)
    #[arg(long, allow_negative_numbers = true)]
    revoke_at: Option<u64>,
    /// `--top nic`, `nic-10g`: the drivers recover a flow in error: they
    /// agree new PSNs out of band, the peer registers the flow's region
    /// again under a new R_Key, both commit the flow again, and the work
    /// requests that ended in error or flushed are posted again; every
    /// work request then completes ok, byte-exact (`docs/driver.md` §5a;
    /// not with `--reset-kind peer`: a dead peer does not reconnect;
    /// default: off, flows in error stay so)
    #[arg(long)]
    recover: bool,
    /// Refuse a run whose memory estimate is above this many MiB, ≥ 1.
    #[arg(long, allow_negative_numbers = true, default_value_t = args::DEFAULT_MEM_LIMIT_MIB, value_parser = clap::value_parser!(u64).range(1..))]
    mem_limit_mib: u64,
}

/// The memory a run takes at its peak, bytes, about: message sizes are
/// drawn up to `max_size` (half on average); each NIC holds a source and a
/// destination region of `messages` messages in three copies (initial,
/// the host's memory, the expected memory) and the plan; with a pcap,
/// every frame too (the data, in frames of at most 1 KiB with ~200 bytes
/// of headers, the ACKs and probes).
pub fn memory_estimate(messages: u64, max_size: u32, pcap: bool) -> u64 {
    let region = messages as f64 * (max_size as f64 / 2.0 + 16.0);
    let per_nic = 2.0 * 3.0 * region + messages as f64 * 256.0;
    let frames = if pcap { 2.0 * region * 1.4 } else { 0.0 };
    (2.0 * per_nic + frames) as u64
}

/// `dir/name.vcd` → `dir/name.<nic>.vcd`.
fn vcd_name(p: &Path, nic: usize) -> PathBuf {
    let stem = p.file_stem().map(|s| s.to_string_lossy().into_owned());
    p.with_file_name(format!(
        "{}.{}.vcd",
        stem.unwrap_or_default(),
        ["a", "b"][nic]
    ))
}

pub fn main(a: SimArgs) -> i32 {
    if a.engine == SimEngine::Golden && a.vcd.is_some() {
        eprintln!("error: --vcd needs an RTL engine; the golden engine has no waveforms");
        return 2;
    }
    if let Some(v) = &a.vcd {
        let made = v
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
            .map_or(Ok(()), std::fs::create_dir_all)
            .and_then(|_| (0..2).try_for_each(|n| std::fs::File::create(vcd_name(v, n)).map(drop)));
        if let Err(e) = made {
            eprintln!("error: --vcd {}: {e}", v.display());
            return 2;
        }
    }
    // The clock: the RTL engines read it from NIC_CLOCK_MHZ for their
    // waveforms' time.
    std::env::set_var("NIC_CLOCK_MHZ", a.clock_mhz.to_string());
    if a.rx_log.is_some() && a.top == SimTop::Nic10g {
        eprintln!("error: --rx-log: with --top core or nic (the 10G MAC drops frames of its own before the receive path)");
        return 2;
    }
    if a.corrupt > 0.0 && a.top == SimTop::Nic10g {
        eprintln!("error: --corrupt: with --top core or nic (on the 10G link, --loss already damages frames: the MAC finds a bad FCS)");
        return 2;
    }
    if (a.wr_timeout > 0 || a.stall_timeout > 0) && a.top == SimTop::Core {
        eprintln!("error: --wr-timeout, --stall-timeout: with --top nic or nic-10g (the driver's watchdog)");
        return 2;
    }
    if a.recover && a.top == SimTop::Core {
        eprintln!("error: --recover: with --top nic or nic-10g (the drivers recover)");
        return 2;
    }
    if a.recover && a.reset_at.is_some() && a.reset_kind == SimResetKind::Peer {
        eprintln!("error: --recover: not with --reset-kind peer (a dead peer does not reconnect)");
        return 2;
    }
    if a.revoke_at.is_some() && a.top == SimTop::Core {
        eprintln!("error: --revoke-at: with --top nic or nic-10g (NIC B's driver revokes)");
        return 2;
    }
    if a.reset_at.is_some() && a.top == SimTop::Core {
        eprintln!("error: --reset-at: with --top nic or nic-10g (the driver resets NIC B)");
        return 2;
    }
    if !a.mtu.is_power_of_two() {
        eprintln!("error: --mtu {}: the MTU is 256, 512 or 1024", a.mtu);
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
        corrupt: a.corrupt,
        delay: a.delay,
        tlm_data: a.telemetry == Telemetry::Data,
        cc_variant: match a.variant {
            VariantArg::Newack => VariantPlan::All(Variant::Sender),
            VariantArg::Newint => VariantPlan::All(Variant::Receiver),
            VariantArg::Mixed => VariantPlan::Mixed,
        },
    };
    let budget = 20_000_000 + 400 * a.messages * a.max_size as u64 / 64;
    let estimate = memory_estimate(a.messages, a.max_size, a.pcap.is_some());
    if let Err(e) = args::check_memory(
        estimate,
        a.mem_limit_mib,
        &format!("--messages {} with --max-size {}", a.messages, a.max_size),
    ) {
        eprintln!("error: {e}");
        return 2;
    }
    let started = std::time::Instant::now();
    let bar = args::progress(None, "{spinner} sim [{elapsed_precise}] {msg}");
    let mut progress = |cycles: u64, done: usize, planned: usize| {
        bar.set_message(format!("cycle {cycles}, {done}/{planned} work requests"));
        bar.tick();
    };
    let kind = match a.engine {
        SimEngine::Golden => None,
        SimEngine::Verilator => Some(EngineKind::Verilator),
        SimEngine::RustHdl => Some(EngineKind::RustHdl),
    };
    let vcd = |n| a.vcd.as_deref().map(|v| vcd_name(v, n));
    // The receive paths' monitors (`--rx-log`).
    let mut monitors = [0, 1].map(|_| a.rx_log.is_some().then(RxMonitor::new));
    let [m0, m1] = &mut monitors;
    let r = match a.top {
        SimTop::Core => {
            let r = match kind {
                None => {
                    let mut t = [Twin::default(), Twin::default()];
                    let [t0, t1] = &mut t;
                    let cores: [CoreFn<'_>; 2] = [
                        watched(t0, Twin::step, Twin::rx_view, m0),
                        watched(t1, Twin::step, Twin::rx_view, m1),
                    ];
                    run_core_sim(&c, cores, budget, &mut progress)
                }
                Some(kind) => {
                    let mut l = [0, 1].map(|n| {
                        Lockstep::new(
                            engine_for::<Rtl>(kind, vcd(n).as_deref()),
                            Twin::default(),
                            ["hpcc_nic_core 0", "hpcc_nic_core 1"][n],
                        )
                    });
                    let [l0, l1] = &mut l;
                    let view = |l: &Lockstep<Rtl, Twin>| l.golden.rx_view();
                    let cores: [CoreFn<'_>; 2] = [
                        watched(l0, Lockstep::step, view, m0),
                        watched(l1, Lockstep::step, view, m1),
                    ];
                    run_core_sim(&c, cores, budget, &mut progress)
                }
            };
            Outcome {
                mac: None,
                counters: r.last.iter().map(core_counters).collect(),
                hosts: None,
                cycles: r.cycles,
                finished: r.finished,
                completed: r.completed,
                planned: r.planned,
                abandoned: 0,
                byte_exact: r.byte_exact,
                errors: r.errors,
                wire: r.wire,
                watchdog: Vec::new(),
                bytes: None,
            }
        }
        SimTop::Nic | SimTop::Nic10g => {
            let nc = NicSimCfg {
                core: c.clone(),
                sq_log: a.sq_log,
                cq_log: a.cq_log,
                cqs: a.cqs,
                mod_count: a.mod_count,
                mod_time: a.mod_time,
                batch: a.batch,
                axil_pause: 0.2,
                dma_err: a.dma_err,
                bad_input: a.scenario == CoreScenario::Mixed,
                stall: 0.0,
                dma_latency: 16,
                watchdog: nic_netsim::driver::Watchdog {
                    wr_cycles: a.wr_timeout,
                    stall_cycles: a.stall_timeout,
                },
                reset: a.reset_at.map(|at| nic_netsim::driver::ResetPlan {
                    at,
                    kind: match a.reset_kind {
                        SimResetKind::Pin => nic_netsim::driver::ResetKind::Pin,
                        SimResetKind::Soft => nic_netsim::driver::ResetKind::Soft,
                        SimResetKind::Full => nic_netsim::driver::ResetKind::Full,
                        SimResetKind::Peer => nic_netsim::driver::ResetKind::Peer,
                    },
                }),
                revoke: a.revoke_at.map(|at| nic_netsim::driver::RevokePlan {
                    at,
                    index: nic_netsim::core_env::FIRST_QP,
                }),
                recover: a.recover,
            };
            let p = nic_sim_params(&nc, 3, 3);
            use nic_golden::nic::nic::In as NicIn;
            use nic_golden::nic::nic_10g::In as Nic10gIn;
            let mut mac = None;
            let r = if a.top == SimTop::Nic10g {
                let r = match kind {
                    None => {
                        let mut t = [Nic10gTwin::default(), Nic10gTwin::default()];
                        let [t0, t1] = &mut t;
                        let nics: [NicFn<'_, Nic10gIn, _>; 2] = [
                            Box::new(|i: &Nic10gIn| t0.step(i)),
                            Box::new(|i: &Nic10gIn| t1.step(i)),
                        ];
                        run_nic_10g_sim(&nc, &p, nics, budget, false, &mut progress)
                    }
                    Some(kind) => {
                        let mut l = [0, 1].map(|n| {
                            Lockstep::new(
                                engine_for::<Nic10gRtl>(kind, vcd(n).as_deref()),
                                Nic10gTwin::default(),
                                ["hpcc_nic_10g 0", "hpcc_nic_10g 1"][n],
                            )
                        });
                        let [l0, l1] = &mut l;
                        let nics: [NicFn<'_, Nic10gIn, _>; 2] = [
                            Box::new(|i: &Nic10gIn| l0.step(i)),
                            Box::new(|i: &Nic10gIn| l1.step(i)),
                        ];
                        run_nic_10g_sim(&nc, &p, nics, budget, false, &mut progress)
                    }
                };
                mac = Some((r.lost, r.aborted, r.cut, r.mac));
                r.sim
            } else {
                match kind {
                    None => {
                        let mut t = [NicTwin::default(), NicTwin::default()];
                        let [t0, t1] = &mut t;
                        let view = |t: &NicTwin| t.core().rx_view();
                        let nics: [NicFn<'_, NicIn, _>; 2] = [
                            watched(t0, NicTwin::step, view, m0),
                            watched(t1, NicTwin::step, view, m1),
                        ];
                        run_nic_sim(&nc, &p, nics, budget, &mut progress)
                    }
                    Some(kind) => {
                        let mut l = [0, 1].map(|n| {
                            Lockstep::new(
                                engine_for::<NicRtl>(kind, vcd(n).as_deref()),
                                NicTwin::default(),
                                ["hpcc_nic 0", "hpcc_nic 1"][n],
                            )
                        });
                        let [l0, l1] = &mut l;
                        let view = |l: &Lockstep<NicRtl, NicTwin>| l.golden.core().rx_view();
                        let nics: [NicFn<'_, NicIn, _>; 2] = [
                            watched(l0, Lockstep::step, view, m0),
                            watched(l1, Lockstep::step, view, m1),
                        ];
                        run_nic_sim(&nc, &p, nics, budget, &mut progress)
                    }
                }
            };
            Outcome {
                mac,
                counters: r.hosts.iter().map(|h| h.counters.clone()).collect(),
                hosts: Some(r.hosts),
                cycles: r.cycles,
                finished: r.finished,
                completed: r.completed,
                planned: r.planned,
                abandoned: r.abandoned,
                byte_exact: r.byte_exact,
                errors: r.errors,
                wire: r.wire,
                watchdog: r.watchdog,
                bytes: Some((r.bytes_moved, r.bytes_compared)),
            }
        }
    };
    bar.finish_and_clear();
    let period_ps = (1e6 / a.clock_mhz).round() as u64;
    let probes = r
        .wire
        .iter()
        .filter(|f| f.frame.get(nic_spec::roce::BTH_OFF) == Some(&nic_spec::roce::op::PROBE))
        .count();
    let lost = r.wire.iter().filter(|f| f.lost).count();
    println!(
        "sim {}: top {}, engine {}, seed {}, loss {}, {} messages per NIC, max size {}, MTU {}, {} flows, delay {}, variant {}, telemetry {}",
        a.scenario.to_possible_value().unwrap().get_name(),
        a.top.to_possible_value().unwrap().get_name(),
        a.engine.to_possible_value().unwrap().get_name(),
        a.seed,
        a.loss,
        a.messages,
        a.max_size,
        a.mtu,
        a.flows,
        a.delay,
        a.variant.to_possible_value().unwrap().get_name(),
        match a.telemetry {
            Telemetry::Data => "in every data packet",
            Telemetry::Probe => "in probes only",
        }
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
    let mut revoke_ok = true;
    if r.abandoned > 0 {
        println!(
            "work requests completed {}/{} (NIC B died with {} not complete)",
            r.completed, r.planned, r.abandoned
        );
    } else {
        println!("work requests completed {}/{}", r.completed, r.planned);
    }
    if let Some(h) = &r.hosts {
        for (n, h) in h.iter().enumerate() {
            let st: Vec<String> = h
                .by_status
                .iter()
                .map(|(s, k)| format!("{s} {k}"))
                .collect();
            let errs: Vec<String> = h
                .flow_err
                .iter()
                .map(|(f, t, s)| format!("flow {f} {} at cycle {t}", s.name()))
                .collect();
            println!(
                "completions {}: {}{}",
                ["A", "B"][n],
                st.join(", "),
                if errs.is_empty() {
                    String::new()
                } else {
                    format!("; in error: {}", errs.join(", "))
                }
            );
            for x in &h.reconnected {
                println!(
                    "recovered {}: flow {} ({} at cycle {}) reconnected and posted again at cycle {}, {} work requests posted again",
                    ["A", "B"][n],
                    x.flow,
                    x.status.name(),
                    x.err_at,
                    x.resumed_at,
                    x.reposted
                );
            }
        }
        match (a.revoke_at, h.get(1).and_then(|h| h.revoked_at)) {
            (Some(at), Some(made)) => println!(
                "revoke: NIC B revoked the region of flow {} at cycle {made} (asked for cycle {at})",
                nic_netsim::core_env::FIRST_QP
            ),
            (Some(at), None) => {
                println!(
                    "revoke: NOT made (asked for cycle {at}; the run ended at cycle {})",
                    r.cycles
                );
                revoke_ok = false;
            }
            _ => {}
        }
    }
    // Both NICs' counter (read over AXI4-Lite with `--top nic`).
    let sum = |page: &str, field: &str| -> u64 {
        r.counters
            .iter()
            .flat_map(|c| c.iter())
            .filter(|(p, f, _)| *p == page && *f == field)
            .map(|x| x.2 as u64)
            .sum()
    };
    println!(
        "recoveries {} (timeouts {}, NAKs {}), retransmissions {}, frames aborted {}",
        sum("ReqStats", "timeouts") + sum("ReqStats", "naks"),
        sum("ReqStats", "timeouts"),
        sum("ReqStats", "naks"),
        retransmissions(&r.wire),
        sum("TxStats", "aborted")
    );
    println!(
        "rx: accepted {}, dropped for a full receive buffer {}, bad ICRC {}",
        sum("RxParseStats", "ok"),
        sum("RxParseStats", "drop_full"),
        sum("RxParseStats", "bad_icrc")
    );
    println!(
        "cc: events {}, of the other variant {}, updates to the scheduler {}; NOTIFYs sent {}, applied {}",
        sum("CcStats", "events"),
        sum("CcStats", "drop_variant"),
        sum("CoreStats", "updates"),
        sum("CoreStats", "notifies"),
        sum("CoreStats", "notifies_applied")
    );
    if let Some(h) = &r.hosts {
        let hs =
            |f: &dyn Fn(&nic_netsim::driver::HostSummary) -> u64| -> u64 { h.iter().map(f).sum() };
        println!(
            "host: register accesses {} (OKAY {}, SLVERR {}, DECERR {}), doorbells {} (refused {}), send-queue fetches {}, completions {} in {} events, posted again after DMA_ERR {}",
            hs(&|h| h.reg_ops),
            hs(&|h| h.answers[0]),
            hs(&|h| h.answers[2]),
            hs(&|h| h.answers[3]),
            sum("HostIfStats", "db_rings"),
            sum("HostIfStats", "db_refused"),
            sum("HostIfStats", "wqe_fetches"),
            hs(&|h| h.cqes),
            hs(&|h| h.events),
            hs(&|h| h.reposts)
        );
        println!(
            "rings: send queues went round {} times at most, completion queues {}",
            h.iter().map(|h| h.sq_passes).max().unwrap_or(0),
            h.iter().map(|h| h.cq_passes).max().unwrap_or(0)
        );
        println!(
            "dma: read descriptors {}, write descriptors {}, h2c beats flagged {}, reads of the wrong length {}",
            sum("HostIfStats", "rd_descs"),
            sum("HostIfStats", "wr_descs"),
            sum("HostIfStats", "h2c_err"),
            sum("HostIfStats", "h2c_len_err")
        );
    }
    if let Some((lost, aborted, cut, m)) = &r.mac {
        for n in 0..2 {
            let (tx, rx, _) = &m[n];
            println!(
                "mac {}: tx frames {} bytes {} aborted {} (on the wire {}, cut by a reset {}); rx frames {} bytes {}, bad FCS {} (made bad on the link {}), errors {}, runts {}, oversize {}, bad preamble {}, pause {}",
                ["A", "B"][n],
                tx.frames,
                tx.bytes,
                tx.aborts,
                aborted[n],
                cut[n],
                rx.frames,
                rx.bytes,
                rx.bad_fcs,
                lost[1 - n],
                rx.errors,
                rx.runts,
                rx.oversize,
                rx.bad_preamble,
                rx.pause
            );
        }
    }
    // The damaged frames: each must be dropped by its receiver, as bad
    // (any parser reason but drop_full) or for a full buffer.
    let mut damage_ok = true;
    // (The counters are read at the end of a finished run only.)
    if a.corrupt > 0.0 && r.finished {
        let damaged: Vec<_> = r.wire.iter().filter(|f| f.damaged.is_some()).collect();
        let cut = damaged
            .iter()
            .filter(|f| f.arrived().len() < f.frame.len())
            .count();
        let icrc = damaged
            .iter()
            .filter(|f| {
                let (s, d) = (&f.frame, f.arrived());
                s.len() == d.len() && s[s.len() - 4..] != d[d.len() - 4..]
            })
            .count();
        let bad: u64 = nic_spec::records::all()
            .iter()
            .find(|x| x.name == "RxParseStats")
            .map(|x| {
                x.fields
                    .iter()
                    .filter(|f| f.name != "ok" && f.name != "drop_full")
                    .map(|f| sum("RxParseStats", f.name))
                    .sum()
            })
            .unwrap_or(0);
        let n = damaged.len() as u64;
        damage_ok = bad <= n && n <= bad + sum("RxParseStats", "drop_full");
        println!(
            "bad frames injected {n} (ICRC bit {icrc}, BTH bit {}, cut {cut}); the receivers dropped {bad} as bad, {} for a full buffer: {}",
            n as usize - icrc - cut,
            sum("RxParseStats", "drop_full"),
            if damage_ok {
                "every damaged frame dropped"
            } else {
                "MISMATCH"
            }
        );
    }
    if let Some(h) = &r.hosts {
        let streams = nic_netsim::driver::WATCHED_STREAMS
            .iter()
            .enumerate()
            .map(|(k, s)| {
                format!(
                    "{s} {}",
                    h.iter().map(|h| h.stall_max[k]).max().unwrap_or(0)
                )
            })
            .collect::<Vec<_>>()
            .join(", ");
        let bound = |b: u64| {
            if b == 0 {
                "off".to_string()
            } else {
                format!("{b}")
            }
        };
        println!(
            "watchdog: longest work request {} cycles (bound {}), longest stall {streams} cycles (bound {}); {}",
            h.iter().map(|h| h.wr_cycles_max).max().unwrap_or(0),
            bound(a.wr_timeout),
            bound(a.stall_timeout),
            if r.watchdog.is_empty() {
                "deadlocks 0".to_string()
            } else {
                format!("FIRED: {}", r.watchdog.join("; "))
            }
        );
    }
    let mut reset_ok = true;
    if let (Some(at), Some(h), SimResetKind::Full) = (a.reset_at, &r.hosts, a.reset_kind) {
        for (n, name) in ["A", "B"].iter().enumerate() {
            match h.get(n).and_then(|h| h.reset) {
                Some(ResetDone {
                    at: made,
                    outstanding,
                    answered_at: Some(done),
                }) => println!(
                    "reset: NIC {name} at cycle {made} (CONTROL full reset, answered after {} cycles; asked for cycle {at}), its work requests outstanding then {outstanding}, posted again",
                    done - made
                ),
                d => {
                    println!(
                        "reset: NIC {name}: full reset NOT {} (asked for cycle {at}; the run ended at cycle {})",
                        if d.is_some() { "answered" } else { "made" },
                        r.cycles
                    );
                    reset_ok = false;
                }
            }
        }
    } else if let (Some(at), Some(h)) = (a.reset_at, &r.hosts) {
        match h.get(1).and_then(|h| h.reset) {
            Some(d) => println!(
                "reset: NIC B at cycle {} ({}; asked for cycle {at}), its work requests outstanding then {}",
                d.at,
                match a.reset_kind {
                    SimResetKind::Pin => format!(
                        "rst pin, {} cycles",
                        nic_netsim::driver::RESET_PIN_CYCLES
                    ),
                    SimResetKind::Soft => format!(
                        "CONTROL soft reset, {} cycles",
                        nic_spec::hostif::SOFT_RESET_CYCLES
                    ),
                    SimResetKind::Full => unreachable!("printed above"),
                    SimResetKind::Peer => "CONTROL full reset; NIC B stays down".to_string(),
                },
                d.outstanding
            ),
            None => {
                println!("reset: NOT made (asked for cycle {at}; the run ended at cycle {})", r.cycles);
                reset_ok = false;
            }
        }
    }
    match r.bytes {
        Some((moved, compared)) => println!(
            "byte-exact: {} ({moved} bytes moved by the completed work requests; {compared} bytes of host memory compared)",
            if r.byte_exact { "yes" } else { "NO" }
        ),
        None => println!("byte-exact: {}", if r.byte_exact { "yes" } else { "NO" }),
    }
    let wall = started.elapsed().as_secs_f64();
    println!(
        "wall time {wall:.1} s ({:.0} cycles/s of the pair, engine {})",
        r.cycles as f64 / wall.max(1e-9),
        a.engine.to_possible_value().unwrap().get_name()
    );
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
                let b = fr.arrived();
                w.write_packet(&PcapPacket::new(ts, b.len() as u32, b))?;
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
    let mut log_ok = true;
    if let Some(prefix) = &a.rx_log {
        for (n, m) in monitors.into_iter().enumerate() {
            let m = m.expect("a monitor per NIC with --rx-log");
            match write_rx_log(prefix, n, m, &r.wire) {
                Ok(line) => println!("{line}"),
                Err(e) => {
                    eprintln!("error: --rx-log {}: {e}", prefix.display());
                    log_ok = false;
                }
            }
        }
    }
    if r.finished
        && r.byte_exact
        && r.errors.is_empty()
        && r.watchdog.is_empty()
        && damage_ok
        && reset_ok
        && r.completed + r.abandoned == r.planned
        && revoke_ok
        && log_ok
    {
        0
    } else {
        1
    }
}

/// A NIC as a pair steps it, its receive path watched by `m` (if any)
/// after every step.
fn watched<'a, S, I: 'a, O: 'a>(
    s: &'a mut S,
    step: fn(&mut S, &I) -> O,
    view: impl Fn(&S) -> RxView + 'a,
    m: &'a mut Option<RxMonitor>,
) -> NicFn<'a, I, O> {
    Box::new(move |i: &I| {
        let o = step(s, i);
        if let Some(m) = m.as_mut() {
            m.observe(&view(s));
        }
        o
    })
}

/// `--rx-log`: NIC `n`'s reports (`<prefix>.<a|b>.jsonl`) and replay
/// set-up (`<prefix>.<a|b>.toml`). The NIC received the frames of the
/// other NIC that were not lost, in the order they were sent; a frame's
/// number is its place in the pcap (the wire's order).
fn write_rx_log(
    prefix: &std::path::Path,
    n: usize,
    m: RxMonitor,
    wire: &[nic_netsim::WireFrame],
) -> Result<String, Box<dyn std::error::Error>> {
    let delivered: Vec<(u64, usize)> = wire
        .iter()
        .enumerate()
        .filter(|(_, f)| f.from == 1 - n && !f.lost)
        .map(|(k, f)| (k as u64 + 1, f.arrived().len()))
        .collect();
    let (reports, mut cfg) = m.finish(&delivered)?;
    cfg.dst_mac = wire
        .iter()
        .find(|f| f.from == 1 - n)
        .map(|f| rx_log::mac_string(&f.frame[..6]));
    cfg.skip = wire
        .iter()
        .enumerate()
        .filter(|(_, f)| f.from == 1 - n && f.lost)
        .map(|(k, _)| k as u64 + 1)
        .collect();
    cfg.full = reports
        .iter()
        .filter(|r| r["verdict"] == "drop_full")
        .filter_map(|r| r["frame"].as_u64())
        .collect();
    // Frames still in the receive path at the end: the log has no line
    // for them, so a replay does not feed them.
    cfg.pending = delivered[reports.len()..].iter().map(|d| d.0).collect();
    let side = ["a", "b"][n];
    let name = |ext: &str| {
        let mut p = prefix.as_os_str().to_owned();
        p.push(format!(".{side}.{ext}"));
        PathBuf::from(p)
    };
    if let Some(d) = prefix.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(d)?;
    }
    let mut jsonl = String::new();
    for r in &reports {
        jsonl.push_str(&serde_json::to_string(r)?);
        jsonl.push('\n');
    }
    std::fs::write(name("jsonl"), jsonl)?;
    let head = format!(
        "# The receive-path set-up of NIC {} in this sim run. Replay the run's pcap\n# through the receive path and compare with the run's log:\n#   hpccnic rx-replay --pcap <the pcap> --flows <this file> --expect <the .{side}.jsonl beside it>\n",
        side.to_uppercase(),
    );
    std::fs::write(name("toml"), head + &toml::to_string(&cfg)?)?;
    let t = rx_log::tally(&reports);
    Ok(format!(
        "rx-log {}: {} frames ({}), {} context writes: {}",
        side.to_uppercase(),
        reports.len(),
        t.iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect::<Vec<_>>()
            .join(", "),
        cfg.flows.len(),
        name("jsonl").display()
    ))
}

/// What a run of either top gives.
struct Outcome {
    /// Per NIC: every counter (page, field, value).
    counters: Vec<Vec<(&'static str, &'static str, u32)>>,
    hosts: Option<Vec<nic_netsim::driver::HostSummary>>,
    cycles: u64,
    finished: bool,
    completed: usize,
    planned: usize,
    /// Work requests of a NIC that died (`--reset-kind peer`).
    abandoned: usize,
    byte_exact: bool,
    errors: Vec<String>,
    wire: Vec<nic_netsim::WireFrame>,
    /// `--top nic-10g`: per direction, frames made bad on the link and
    /// frames the NIC aborted; each NIC's MAC counters.
    /// Per direction: frames made bad on the link, aborted by the MAC, cut
    /// by a reset of the sender; each MAC's counters.
    mac: Option<([u64; 2], [u64; 2], [u64; 2], [MacCounters; 2])>,
    /// What the watchdog found (`--top nic`, `nic-10g`).
    watchdog: Vec<String>,
    /// `--top nic`, `nic-10g`: bytes the completed work requests moved,
    /// bytes of host memory compared.
    bytes: Option<(u64, u64)>,
}

type MacCounters = (
    nic_golden::mac::MacTxStats,
    nic_golden::mac::MacRxStats,
    nic_golden::mac::MacPauseStats,
);

/// A core's counters as (page, field, value), the pages of
/// `nic_spec::hostif::STATS_PAGES` it has.
fn core_counters(o: &nic_golden::nic::core::Out) -> Vec<(&'static str, &'static str, u32)> {
    let recs = nic_spec::records::all();
    let pages: [(&str, Vec<u64>); 10] = [
        ("RxParseStats", o.stats_parse.field_values()),
        ("RxDispatchStats", o.stats_dispatch.field_values()),
        ("TxStats", o.stats_tx.field_values()),
        ("SchedStats", o.stats_sched.field_values()),
        ("CcStats", o.stats_cc.field_values()),
        ("ReqStats", o.stats_req.field_values()),
        ("CoreStats", o.stats_core.field_values()),
        ("DcqcnStats", o.stats_dcqcn.field_values()),
        ("NpStats", o.stats_np.field_values()),
        ("CnmStats", o.stats_cnm.field_values()),
    ];
    let mut v = Vec::new();
    for (page, values) in pages {
        let r = recs
            .iter()
            .find(|r| r.name == page)
            .expect("a counter record");
        for (f, x) in r.fields.iter().zip(values) {
            v.push((r.name, f.name, x as u32));
        }
    }
    v
}

/// Data packets (WRITE, READ REQUEST, READ RESPONSE) sent again: a
/// (sender, QP, PSN, opcode) seen before on the wire.
fn retransmissions(wire: &[nic_netsim::WireFrame]) -> usize {
    use nic_spec::roce::{is_read_resp, is_write, op, BTH_OFF};
    let mut seen = std::collections::HashSet::new();
    wire.iter()
        .filter(|f| {
            let b = &f.frame;
            let Some(&opc) = b.get(BTH_OFF) else {
                return false;
            };
            if b.len() < BTH_OFF + 12
                || !(is_write(opc) || is_read_resp(opc) || opc == op::READ_REQ)
            {
                return false;
            }
            !seen.insert((
                f.from,
                b[BTH_OFF + 5..BTH_OFF + 8].to_vec(),
                b[BTH_OFF + 9..BTH_OFF + 12].to_vec(),
                opc,
            ))
        })
        .count()
}
