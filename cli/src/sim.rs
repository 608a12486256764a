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
use std::path::{Path, PathBuf};

mod check;
mod report;
mod run;

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
    /// core` and `nic`.
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
    /// 16384 cycles; 0: off)
    #[arg(long, allow_negative_numbers = true, default_value_t = 0)]
    wr_timeout: u64,
    /// `--top nic`, `nic-10g`: the watchdog's bound on a stall, cycles
    /// the NIC leaves a beat of `s_axis_rx` or `s_axis_h2c` offered and
    /// not taken (0: off)
    #[arg(long, allow_negative_numbers = true, default_value_t = 0)]
    stall_timeout: u64,
    /// `--top nic`, `nic-10g`: reset NIC B in mid-traffic at this cycle
    /// (or as soon after as its bring-up is over); NIC A is its peer and
    /// every work request of both must still complete, byte-exact
    /// (`docs/driver.md` §8; default: none)
    #[arg(long, allow_negative_numbers = true)]
    reset_at: Option<u64>,
    /// How `--reset-at` resets NIC B (`full` resets both NICs, which
    /// start again; `peer` resets B, which stays down)
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
    /// The options given on the command line or through the environment
    /// (`args::given`), not defaulted.
    #[arg(skip)]
    pub given: Vec<String>,
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
/// parse (clap) → check → plan → run → report.
pub fn main(a: SimArgs) -> i32 {
    let out = match check::check(&a) {
        Ok(o) => o,
        Err(code) => return code,
    };
    // The clock: the RTL engines read it from NIC_CLOCK_MHZ for their
    // waveforms' time.
    std::env::set_var("NIC_CLOCK_MHZ", a.clock_mhz.to_string());
    let plan = run::plan(&a);
    let started = std::time::Instant::now();
    let r = run::run(&a, &plan);
    report::report(&a, r, out, started.elapsed().as_secs_f64())
}
