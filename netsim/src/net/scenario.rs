//! Scenario files (TOML) and their resolution into a run plan.
//!
//! A scenario names a topology, the switches, the CC, the NICs, the
//! workloads and the outputs; `hpccnic netsim` flags override some
//! fields ([`Overrides`]). Every field is checked before anything runs:
//! unknown fields, unknown kinds, values out of range and CDF files that
//! do not rise to 100 % are refused with the field's name. The reference
//! is `docs/netsim.md`; examples are in `examples/netsim/`.
//!
//! **Time.** The NIC core moves 8 bytes a cycle. The simulator runs its
//! clock at the host links' rate: one cycle is 64 / `link_gbps` ns (0.64
//! ns at 100G), the NICs' `NS_PER_CYCLE` says so, and every time in the
//! scenario (µs, ns) is in that time. Link rates are those with an ns-3
//! telemetry rate code (25, 50, 100, 200, 400 Gb/s): a 10G FPGA board's
//! rate has no code, and the CC takes B from the code (see
//! `docs/netsim.md` §Rate codes).

use crate::net::cdf::Cdf;
use crate::net::topo::{Links, Topology};
use nic_golden::cc::params::{rate_code, w_ai_rule_of_thumb, CcParams, CcRegs, Variant};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TopoKind {
    Incast,
    Dumbbell,
    LeafSpine,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TopologySec {
    pub kind: TopoKind,
    /// incast: senders (the receiver is host `senders`).
    pub senders: Option<usize>,
    /// dumbbell: hosts on each side.
    pub left: Option<usize>,
    pub right: Option<usize>,
    /// leaf-spine.
    pub leaves: Option<usize>,
    pub spines: Option<usize>,
    pub hosts_per_leaf: Option<usize>,
    /// Host links: the NICs' line rate.
    #[serde(default = "d_link_gbps")]
    pub link_gbps: f64,
    #[serde(default = "d_delay")]
    pub link_delay_ns: f64,
    /// Switch-to-switch links (default: as the host links).
    pub fabric_gbps: Option<f64>,
    pub fabric_delay_ns: Option<f64>,
}
fn d_link_gbps() -> f64 {
    100.0
}
fn d_delay() -> f64 {
    1000.0
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum BufferKind {
    #[default]
    Shared,
    PerPort,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Loss {
    #[default]
    Lossy,
    Lossless,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SwitchSec {
    pub buffer_kb: f64,
    pub buffer: BufferKind,
    pub mode: Loss,
    pub pfc_xoff_kb: f64,
    pub pfc_xon_kb: f64,
    /// RED marking (for DCQCN): kmin/kmax in KB; default 100/400 KB
    /// scaled by link_gbps/25 (the HPCC paper's setting).
    pub ecn: bool,
    pub ecn_kmin_kb: Option<f64>,
    pub ecn_kmax_kb: Option<f64>,
    pub ecn_pmax: f64,
}
impl Default for SwitchSec {
    fn default() -> Self {
        Self {
            buffer_kb: 16384.0,
            buffer: BufferKind::Shared,
            mode: Loss::Lossy,
            pfc_xoff_kb: 512.0,
            pfc_xon_kb: 256.0,
            ecn: true,
            ecn_kmin_kb: None,
            ecn_kmax_kb: None,
            ecn_pmax: 0.2,
        }
    }
}

/// The congestion control each NIC runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum CcAlgo {
    /// HPCC++ NewAck: the sender runs the algorithm on every ACK.
    #[default]
    HpccSender,
    /// HPCC++ NewINT: the receiver runs it and sends the window back.
    HpccReceiver,
    /// HPCC++ NewAck on telemetry from probes only (one per RTT): data
    /// and ACKs carry no telemetry area.
    HpccProbe,
    /// DCQCN: the switches' ECN marks (RED, `switch.ecn`) reach the
    /// receiver's notification point, which sends CNPs; the sender's
    /// reaction point sets the flow's rate (`docs/dcqcn.md`). Defaults of
    /// `DcqcnParams::for_line_rate`, a 50 µs CNP interval.
    Dcqcn,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct CcSec {
    pub algo: CcAlgo,
    pub eta: f64,
    pub max_stage: u32,
    /// W_ai, bytes (default: the draft's rule of thumb for `expected_flows`).
    pub w_ai_bytes: Option<f64>,
    pub expected_flows: u32,
    /// T, ns (default: the longest path's base RTT).
    pub base_rtt_ns: Option<f64>,
    pub mtu: u32,
    /// Probe interval, ns (default: T).
    pub probe_interval_ns: Option<f64>,
    pub rto_us: f64,
    /// DCQCN's parameters (`[cc.dcqcn]`, used when `algo = "dcqcn"`):
    /// each field left out keeps its `DcqcnParams::for_line_rate` default.
    pub dcqcn: DcqcnSec,
}

/// `[cc.dcqcn]`: DCQCN's registers in physical units (`docs/dcqcn.md`).
/// A field left out keeps the default of `DcqcnParams::for_line_rate` at
/// the host link's rate; the NP's CNP interval defaults to 50 µs.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct DcqcnSec {
    /// g = 2^-g_log2 (default 8: 1/256).
    pub g_log2: Option<u8>,
    /// The α update period, µs (default 1).
    pub alpha_period_us: Option<f64>,
    /// The rate-decrease period, µs (default 4).
    pub dec_period_us: Option<f64>,
    /// The rate-increase timer, µs (default 300).
    pub inc_period_us: Option<f64>,
    /// The byte counter, bytes per increase stage (default 0: off).
    pub byte_reset: Option<u32>,
    /// F, the fast-recovery stages (default 1).
    pub f: Option<u8>,
    /// R_ai, Mb/s (default 5 × link/25G).
    pub r_ai_mbps: Option<f64>,
    /// R_hai, Mb/s (default 50 × link/25G).
    pub r_hai_mbps: Option<f64>,
    /// The minimum rate, Mb/s (default 100).
    pub r_min_mbps: Option<f64>,
    /// Rc on the first CNP, Gb/s (default the line rate).
    pub r_first_cnp_gbps: Option<f64>,
    /// α on the first CNP (default 1).
    pub alpha_init: Option<f64>,
    /// The window the RP's updates carry, bytes (default none).
    pub window_bytes: Option<f64>,
    /// The NP's CNP interval per flow, µs (default 50).
    pub cnp_interval_us: Option<f64>,
}

impl DcqcnSec {
    /// The registers at `link_gbps` and `ns_per_cycle`, or the field
    /// that is out of range (named `cc.dcqcn.<field>`).
    pub fn regs(
        &self,
        link_gbps: f64,
        ns_per_cycle: f64,
    ) -> Result<crate::core_env::DcqcnRegs, String> {
        let mut p =
            nic_golden::cc::dcqcn_params::DcqcnParams::for_line_rate(link_gbps, ns_per_cycle);
        macro_rules! take {
            ($($f:ident),*) => { $( if let Some(v) = self.$f { p.$f = v; } )* };
        }
        take!(
            g_log2,
            alpha_period_us,
            dec_period_us,
            inc_period_us,
            byte_reset,
            f,
            r_ai_mbps,
            r_hai_mbps,
            r_min_mbps,
            r_first_cnp_gbps,
            alpha_init
        );
        if self.window_bytes.is_some() {
            p.window_bytes = self.window_bytes;
        }
        let rp = p.regs().map_err(|e| format!("cc.dcqcn.{e}"))?;
        let interval_us = self.cnp_interval_us.unwrap_or(50.0);
        let interval = (interval_us * 1000.0 / ns_per_cycle).round();
        if !(interval_us.is_finite() && (0.0..((1u32 << 24) as f64)).contains(&interval)) {
            return Err(format!(
                "cc.dcqcn.cnp_interval_us: {interval_us} µs is {interval} cycles at {ns_per_cycle} ns/cycle, outside 0..2^24"
            ));
        }
        Ok(crate::core_env::DcqcnRegs {
            rp,
            np_interval: interval as u32,
        })
    }
}

impl Default for CcSec {
    fn default() -> Self {
        Self {
            algo: CcAlgo::HpccSender,
            eta: 0.95,
            max_stage: 5,
            w_ai_bytes: None,
            expected_flows: 16,
            base_rtt_ns: None,
            mtu: 1024,
            probe_interval_ns: None,
            rto_us: 1000.0,
            dcqcn: DcqcnSec::default(),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum NicEngine {
    /// Every NIC is the golden core.
    #[default]
    Golden,
    /// The hosts of `rtl_hosts` run the RTL core on Verilator with the
    /// golden core in lockstep (every port, every cycle).
    Verilator,
}

/// How a host's flows map onto queue pairs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum QpMap {
    /// Every flow has a QP of its own on both hosts, as in the HPCC
    /// paper's ns-3 simulations: flows between the same two hosts run side
    /// by side (and take their own ECMP path, by their UDP source port).
    #[default]
    Flow,
    /// One QP per pair of hosts, shared by every flow between them in both
    /// directions: a QP is in order, so a flow waits behind an earlier one
    /// to the same peer (head-of-line blocking, as an application with one
    /// connection per peer sees it).
    Peer,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields, default)]
pub struct NicSec {
    pub engine: NicEngine,
    /// QP per flow (default) or per pair of hosts.
    pub qp: QpMap,
    /// The rate at which each host takes the NIC's DMA writes, Gb/s
    /// (default: the link's; a slower host back-pressures the NIC, which
    /// pauses its link when its receive buffer has room for the link's
    /// headroom, and otherwise drops what its buffer cannot hold).
    pub host_dma_gbps: Option<f64>,
    /// The golden hosts' receive buffer, KiB: 16 (default, the `hpcc_nic`
    /// top's), 32 or 64. The link pause needs room for the link's round
    /// trip above `RX_XOFF`: a 1 µs link at 100 Gb/s needs 64.
    pub rx_buffer_kb: Option<u32>,
    /// Each host's DMA read latency, ns: a read request to its first data
    /// beat (default: 8 NIC cycles).
    pub host_dma_latency_ns: Option<f64>,
    /// Hosts with the configuration of the emitted `hpcc_nic_core` (8
    /// flows, an 8 KiB receive buffer): on the RTL with `engine =
    /// "verilator"` (default hosts 0 and 1), its golden twin otherwise
    /// (default none).
    pub rtl_hosts: Option<Vec<usize>>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum WorkKind {
    /// Long flows from each of `src` to `dst`, from `start_us` (+ k ·
    /// `join_every_us` for the k-th) to `stop_us` (− (n−1−k) ·
    /// `leave_every_us`): they join one by one and leave one by one.
    Long,
    /// Every one of `src` sends `bytes` to `dst` at `start_us`, and again
    /// every `period_us`, `repeat` times.
    Incast,
    /// Flows arrive as a Poisson process between `start_us` and
    /// `stop_us`, from a random host of `src` to a random other, sizes
    /// from the `cdf` file (× `size_scale`), at `load` of the senders'
    /// line rate on average.
    Poisson,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WorkloadSec {
    pub kind: WorkKind,
    /// Senders (default: every host but `dst`; poisson: every host).
    pub src: Option<Vec<usize>>,
    /// Receiver (long, incast; default: the last host).
    pub dst: Option<usize>,
    #[serde(default)]
    pub start_us: f64,
    /// Default: the scenario's duration.
    pub stop_us: Option<f64>,
    #[serde(default)]
    pub join_every_us: f64,
    #[serde(default)]
    pub leave_every_us: f64,
    pub bytes: Option<u64>,
    #[serde(default = "one")]
    pub repeat: u32,
    #[serde(default)]
    pub period_us: f64,
    pub load: Option<f64>,
    /// Path of a CDF file (relative to the scenario file).
    pub cdf: Option<PathBuf>,
    #[serde(default = "onef")]
    pub size_scale: f64,
}
fn one() -> u32 {
    1
}
fn onef() -> f64 {
    1.0
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct OutputSec {
    /// Queue and rate sampling period, ns (default: T/16).
    pub sample_ns: Option<f64>,
    /// Hosts whose link goes into a pcap (`host<h>.pcap`).
    pub pcap_hosts: Vec<usize>,
    /// RTTs after the first flow starts that the steady-state figures
    /// (p99 queue, utilisation, drops and pauses "after the first RTT"
    /// excepted) leave out.
    pub warmup_rtts: f64,
}
impl Default for OutputSec {
    fn default() -> Self {
        Self {
            sample_ns: None,
            pcap_hosts: Vec::new(),
            warmup_rtts: 10.0,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    #[serde(default = "d_name")]
    pub name: String,
    #[serde(default = "one64")]
    pub seed: u64,
    /// Simulated time, µs (the run ends there, or earlier once every
    /// flow is done).
    pub duration_us: f64,
    pub topology: TopologySec,
    #[serde(default)]
    pub switch: SwitchSec,
    #[serde(default)]
    pub cc: CcSec,
    #[serde(default)]
    pub nic: NicSec,
    #[serde(default)]
    pub workload: Vec<WorkloadSec>,
    #[serde(default)]
    pub output: OutputSec,
}
fn d_name() -> String {
    "scenario".into()
}
fn one64() -> u64 {
    1
}

/// Flags that override the file.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Overrides {
    pub senders: Option<usize>,
    pub cc: Option<CcAlgo>,
    pub link_gbps: Option<f64>,
    pub seed: Option<u64>,
    pub engine: Option<NicEngine>,
    pub rtl_hosts: Option<Vec<usize>>,
    pub duration_us: Option<f64>,
    pub w_ai_bytes: Option<f64>,
    pub qp: Option<QpMap>,
    pub pcap_hosts: Option<Vec<usize>>,
}

/// One flow of the run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Flow {
    pub id: usize,
    pub src: usize,
    pub dst: usize,
    /// Bytes, or `None`: long (until `stop`).
    pub size: Option<u64>,
    /// Cycles.
    pub start: u64,
    pub stop: u64,
}

/// A scenario resolved: everything in cycles and registers.
#[derive(Clone, Debug)]
pub struct Plan {
    pub scenario: Scenario,
    pub topo: Topology,
    pub ns_per_cycle: f64,
    pub cycles: u64,
    pub base_rtt_ns: f64,
    pub cc: CcParams,
    pub cc_regs: CcRegs,
    pub tlm_data: bool,
    pub flows: Vec<Flow>,
    pub rtl_hosts: Vec<usize>,
    pub sample: u64,
    pub warmup: u64,
    pub probe_t: u32,
    pub rto: u32,
    /// The DCQCN registers when `cc.algo` is DCQCN.
    pub dcqcn: Option<crate::core_env::DcqcnRegs>,
    /// The share of cycles a host takes a DMA write in.
    pub dma_wr_share: f64,
    /// A host's DMA read latency, cycles.
    pub dma_latency: u64,
    /// log2 words of the golden hosts' receive buffer (11..=13).
    pub rx_buf_log2: u32,
}

const HOSTS_MAX: usize = 62;
/// QPs of a golden core at most (`FIRST_QP`..256: 2^8 flows).
pub const QPS_MAX: usize = 254;
/// QPs of an RTL host at most (the emitted core's 8 flows, QPs 2..7).
pub const RTL_QPS_MAX: usize = 6;

impl Scenario {
    /// Read and parse a scenario file.
    pub fn load(path: &Path) -> Result<Scenario, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let mut s: Scenario =
            toml::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        let base = path.parent().unwrap_or(Path::new("."));
        for w in &mut s.workload {
            if let Some(c) = &mut w.cdf {
                if c.is_relative() {
                    *c = base.join(&*c);
                }
            }
        }
        Ok(s)
    }

    pub fn apply(&mut self, o: &Overrides) -> Result<(), String> {
        if let Some(n) = o.senders {
            match self.topology.kind {
                TopoKind::Incast => self.topology.senders = Some(n),
                TopoKind::Dumbbell => self.topology.left = Some(n),
                TopoKind::LeafSpine => return Err(
                    "--senders: a leaf-spine's size is topology.leaves × topology.hosts_per_leaf"
                        .into(),
                ),
            }
        }
        if let Some(c) = o.cc {
            self.cc.algo = c;
        }
        if let Some(g) = o.link_gbps {
            self.topology.link_gbps = g;
        }
        if let Some(s) = o.seed {
            self.seed = s;
        }
        if let Some(e) = o.engine {
            self.nic.engine = e;
        }
        if let Some(r) = &o.rtl_hosts {
            self.nic.rtl_hosts = Some(r.clone());
        }
        if let Some(d) = o.duration_us {
            self.duration_us = d;
        }
        if let Some(w) = o.w_ai_bytes {
            self.cc.w_ai_bytes = Some(w);
        }
        if let Some(q) = o.qp {
            self.nic.qp = q;
        }
        if let Some(h) = &o.pcap_hosts {
            self.output.pcap_hosts = h.clone();
        }
        Ok(())
    }

    /// Check every field and resolve the scenario.
    pub fn plan(&self) -> Result<Plan, String> {
        let t = &self.topology;
        let need = |v: Option<usize>, f: &str| -> Result<usize, String> {
            match v {
                Some(n) if n >= 1 => Ok(n),
                Some(_) => Err(format!("topology.{f}: must be ≥ 1")),
                None => Err(format!("topology.{f}: needed by kind = {:?}", t.kind)),
            }
        };
        let gbps_ok = |g: f64, f: &str| -> Result<u8, String> {
            rate_code(g).ok_or(format!(
                "topology.{f}: {g} Gb/s has no telemetry rate code (25, 50, 100, 200, 400); \
                 the simulator runs the 64-bit NIC time-scaled to the host link rate (docs/netsim.md)"
            ))
        };
        gbps_ok(t.link_gbps, "link_gbps")?;
        let fabric_gbps = t.fabric_gbps.unwrap_or(t.link_gbps);
        gbps_ok(fabric_gbps, "fabric_gbps")?;
        let delay_ok = |d: f64, f: &str| {
            if d.is_finite() && (0.0..=1e6).contains(&d) {
                Ok(d)
            } else {
                Err(format!("topology.{f}: {d} ns is out of 0..=1e6"))
            }
        };
        let links = Links {
            host_gbps: t.link_gbps,
            host_delay_ns: delay_ok(t.link_delay_ns, "link_delay_ns")?,
            fabric_gbps,
            fabric_delay_ns: delay_ok(
                t.fabric_delay_ns.unwrap_or(t.link_delay_ns),
                "fabric_delay_ns",
            )?,
        };
        let topo = match t.kind {
            TopoKind::Incast => Topology::incast(need(t.senders, "senders")?, &links),
            TopoKind::Dumbbell => {
                Topology::dumbbell(need(t.left, "left")?, need(t.right, "right")?, &links)
            }
            TopoKind::LeafSpine => Topology::leaf_spine(
                need(t.leaves, "leaves")?,
                need(t.spines, "spines")?,
                need(t.hosts_per_leaf, "hosts_per_leaf")?,
                &links,
            ),
        };
        if topo.hosts > HOSTS_MAX + 1 || topo.hosts < 2 {
            return Err(format!(
                "topology: {} hosts; the simulator takes 2 to {} (a NIC core keeps at most {HOSTS_MAX} QPs)",
                topo.hosts,
                HOSTS_MAX + 1
            ));
        }
        if !(self.duration_us.is_finite() && self.duration_us > 0.0 && self.duration_us <= 1e5) {
            return Err(format!(
                "duration_us: {} must be in (0, 1e5]",
                self.duration_us
            ));
        }
        let ns_per_cycle = 64.0 / t.link_gbps;
        let cyc = |us: f64| (us * 1000.0 / ns_per_cycle).round() as u64;
        let cycles = cyc(self.duration_us);

        // The CC.
        let c = &self.cc;
        let dcqcn = if c.algo == CcAlgo::Dcqcn {
            if !self.switch.ecn {
                return Err(
                    "cc.algo: dcqcn needs switch.ecn = true (DCQCN reacts to ECN marks)".into(),
                );
            }
            Some(c.dcqcn.regs(t.link_gbps, ns_per_cycle)?)
        } else {
            None
        };
        if !(c.eta > 0.0 && c.eta <= 1.0) {
            return Err(format!("cc.eta: {} must be in (0, 1]", c.eta));
        }
        if c.max_stage > 7 {
            return Err(format!("cc.max_stage: {} must be ≤ 7", c.max_stage));
        }
        if ![256, 512, 1024].contains(&c.mtu) {
            return Err(format!("cc.mtu: {} must be 256, 512 or 1024", c.mtu));
        }
        let frame = c.mtu as f64 + 100.0;
        let base_rtt_ns = match c.base_rtt_ns {
            Some(b) if b.is_finite() && (64.0..16_000_000.0).contains(&b) => b,
            Some(b) => return Err(format!("cc.base_rtt_ns: {b} must be in [64, 1.6e7)")),
            None => {
                let mut worst = 0.0f64;
                for a in 0..topo.hosts {
                    for b in 0..topo.hosts {
                        if a != b {
                            let rtt: f64 = topo
                                .path(a, b)
                                .iter()
                                .map(|&(g, d)| 2.0 * d + (frame + 100.0) * 8.0 / g)
                                .sum();
                            worst = worst.max(rtt);
                        }
                    }
                }
                // The two NICs' pipelines, about 200 cycles in all.
                worst + 200.0 * ns_per_cycle
            }
        };
        let multi = (t.link_gbps / 25.0) as u32;
        let w_init = t.link_gbps / 8.0 * base_rtt_ns;
        let w_ai = match c.w_ai_bytes {
            Some(w) if w > 0.0 && w < w_init => w,
            Some(w) => {
                return Err(format!(
                    "cc.w_ai_bytes: {w} must be in (0, W_init = {w_init:.0})"
                ))
            }
            None => w_ai_rule_of_thumb(w_init, c.eta, c.expected_flows),
        };
        let variant = match c.algo {
            CcAlgo::HpccReceiver => Variant::Receiver,
            _ => Variant::Sender,
        };
        let cc = CcParams {
            variant,
            base_rtt_ns,
            eta: c.eta,
            max_stage: c.max_stage,
            w_ai_bytes: w_ai,
            // 1 % of line rate (HPCC's 1 Gb/s floor at 100G).
            w_min_bytes: (w_init / 100.0).max(64.0),
            line_rate_gbps: t.link_gbps,
            int_multi: multi,
            flows: 64,
        };
        let cc_regs = cc.regs().map_err(|e| format!("cc: {e}"))?;
        if !(c.rto_us > 0.0 && cyc(c.rto_us) < 1 << 31) {
            return Err(format!("cc.rto_us: {} is out of range", c.rto_us));
        }
        let probe_ns = c.probe_interval_ns.unwrap_or(base_rtt_ns);
        if !(probe_ns > 0.0 && cyc(probe_ns / 1000.0) < 1 << 31) {
            return Err(format!("cc.probe_interval_ns: {probe_ns} is out of range"));
        }

        // Switches.
        let s = &self.switch;
        if !(s.buffer_kb > 0.0 && s.buffer_kb <= 1e6) {
            return Err(format!(
                "switch.buffer_kb: {} must be in (0, 1e6]",
                s.buffer_kb
            ));
        }
        if s.mode == Loss::Lossless && !(0.0 < s.pfc_xon_kb && s.pfc_xon_kb < s.pfc_xoff_kb) {
            return Err("switch.pfc_xon_kb: need 0 < pfc_xon_kb < pfc_xoff_kb".into());
        }
        if !(0.0..=1.0).contains(&s.ecn_pmax) {
            return Err(format!("switch.ecn_pmax: {} must be in 0..=1", s.ecn_pmax));
        }
        let (kmin, kmax) = self.ecn_kb();
        if s.ecn && !(0.0 <= kmin && kmin < kmax) {
            return Err("switch.ecn_kmin_kb: need 0 ≤ ecn_kmin_kb < ecn_kmax_kb".into());
        }

        // NICs.
        let rtl_hosts = match (self.nic.engine, &self.nic.rtl_hosts) {
            (_, Some(r)) => r.clone(),
            (NicEngine::Golden, None) => Vec::new(),
            (NicEngine::Verilator, None) => vec![0, 1],
        };
        if self.nic.engine == NicEngine::Verilator && rtl_hosts.is_empty() {
            return Err("nic.rtl_hosts: engine = \"verilator\" needs at least one host".into());
        }
        for &h in &rtl_hosts {
            if h >= topo.hosts {
                return Err(format!(
                    "nic.rtl_hosts: host {h} does not exist ({} hosts)",
                    topo.hosts
                ));
            }
        }
        let n = &self.nic;
        let dma_wr_share = match n.host_dma_gbps {
            None => 1.0,
            Some(g) if g.is_finite() && g > 0.0 => (g / t.link_gbps).min(1.0),
            Some(g) => return Err(format!("nic.host_dma_gbps: {g} must be above 0")),
        };
        let rx_buf_log2 = match n.rx_buffer_kb {
            None | Some(16) => 11,
            Some(32) => 12,
            Some(64) => 13,
            Some(k) => return Err(format!("nic.rx_buffer_kb: {k} must be 16, 32 or 64")),
        };
        let dma_latency = match n.host_dma_latency_ns {
            None => 8,
            Some(l) if l.is_finite() && (0.0..=100_000.0).contains(&l) => {
                (l / ns_per_cycle).round() as u64
            }
            Some(l) => {
                return Err(format!(
                    "nic.host_dma_latency_ns: {l} must be in 0..=100000"
                ))
            }
        };
        let o = &self.output;
        for &h in &o.pcap_hosts {
            if h >= topo.hosts {
                return Err(format!(
                    "output.pcap_hosts: host {h} does not exist ({} hosts)",
                    topo.hosts
                ));
            }
        }
        let sample_ns = o.sample_ns.unwrap_or(base_rtt_ns / 16.0);
        if !(sample_ns.is_finite() && sample_ns >= ns_per_cycle) {
            return Err(format!(
                "output.sample_ns: {sample_ns} must be ≥ one cycle ({ns_per_cycle} ns)"
            ));
        }
        if !(o.warmup_rtts.is_finite() && o.warmup_rtts >= 0.0) {
            return Err(format!("output.warmup_rtts: {} must be ≥ 0", o.warmup_rtts));
        }

        // Workloads.
        if self.workload.is_empty() {
            return Err("workload: at least one [[workload]] is needed".into());
        }
        let mut rng = StdRng::seed_from_u64(self.seed ^ 0xF10E);
        let mut flows: Vec<Flow> = Vec::new();
        let hosts = topo.hosts;
        for (k, w) in self.workload.iter().enumerate() {
            let f = |name: &str| format!("workload[{k}].{name}");
            let host_ok = |h: usize, name: &str| {
                if h < hosts {
                    Ok(h)
                } else {
                    Err(format!(
                        "{}: host {h} does not exist ({hosts} hosts)",
                        f(name)
                    ))
                }
            };
            let stop_us = w.stop_us.unwrap_or(self.duration_us);
            if !(w.start_us >= 0.0 && w.start_us <= stop_us) {
                return Err(format!("{}: need 0 ≤ start_us ≤ stop_us", f("start_us")));
            }
            let dst = host_ok(w.dst.unwrap_or(hosts - 1), "dst")?;
            let src: Vec<usize> = match &w.src {
                Some(v) if v.is_empty() => return Err(format!("{}: empty", f("src"))),
                Some(v) => v
                    .iter()
                    .map(|&h| host_ok(h, "src"))
                    .collect::<Result<_, _>>()?,
                None if w.kind == WorkKind::Poisson => (0..hosts).collect(),
                None => (0..hosts).filter(|&h| h != dst).collect(),
            };
            if w.kind != WorkKind::Poisson && src.contains(&dst) {
                return Err(format!("{}: host {dst} is also the destination", f("src")));
            }
            let n = src.len();
            match w.kind {
                WorkKind::Long => {
                    for (i, &s) in src.iter().enumerate() {
                        let a = w.start_us + i as f64 * w.join_every_us;
                        let b = stop_us - (n - 1 - i) as f64 * w.leave_every_us;
                        if !(a < b) {
                            return Err(format!(
                                "{}: flow {i} would start at {a} µs and stop at {b} µs",
                                f("leave_every_us")
                            ));
                        }
                        flows.push(Flow {
                            id: 0,
                            src: s,
                            dst,
                            size: None,
                            start: cyc(a),
                            stop: cyc(b),
                        });
                    }
                }
                WorkKind::Incast => {
                    let bytes = match w.bytes {
                        Some(b) if b >= 1 && b < 1 << 40 => b,
                        _ => return Err(format!("{}: needed, 1 ≤ bytes < 2^40", f("bytes"))),
                    };
                    if w.repeat == 0 || (w.repeat > 1 && w.period_us <= 0.0) {
                        return Err(format!(
                            "{}: repeat ≥ 1, and period_us > 0 if repeat > 1",
                            f("repeat")
                        ));
                    }
                    for r in 0..w.repeat {
                        let at = cyc(w.start_us + r as f64 * w.period_us);
                        for &s in &src {
                            flows.push(Flow {
                                id: 0,
                                src: s,
                                dst,
                                size: Some(bytes),
                                start: at,
                                stop: at,
                            });
                        }
                    }
                }
                WorkKind::Poisson => {
                    let load = match w.load {
                        Some(l) if l > 0.0 && l <= 1.0 => l,
                        _ => return Err(format!("{}: needed, in (0, 1]", f("load"))),
                    };
                    let Some(path) = &w.cdf else {
                        return Err(format!("{}: needed by kind = poisson", f("cdf")));
                    };
                    let text = std::fs::read_to_string(path)
                        .map_err(|e| format!("{}: {}: {e}", f("cdf"), path.display()))?;
                    let cdf = Cdf::parse(&text)
                        .map_err(|e| format!("{}: {}: {e}", f("cdf"), path.display()))?;
                    if !(w.size_scale > 0.0 && w.size_scale <= 1.0) {
                        return Err(format!("{}: must be in (0, 1]", f("size_scale")));
                    }
                    if n < 2 {
                        return Err(format!("{}: poisson needs two hosts or more", f("src")));
                    }
                    // Flows a second over all senders: load · n · rate / mean.
                    let mean = (cdf.mean() * w.size_scale).max(1.0);
                    let per_ns = load * n as f64 * t.link_gbps / 8.0 / mean;
                    let mut at_ns = w.start_us * 1000.0;
                    loop {
                        let u: f64 = rng.gen_range(f64::MIN_POSITIVE..1.0);
                        at_ns += -u.ln() / per_ns;
                        if at_ns >= stop_us * 1000.0 {
                            break;
                        }
                        let a = src[rng.gen_range(0..n)];
                        let mut b = src[rng.gen_range(0..n - 1)];
                        if b == a {
                            b = src[n - 1];
                        }
                        let size =
                            ((cdf.sample(&mut rng) as f64 * w.size_scale).round() as u64).max(1);
                        let at = (at_ns / ns_per_cycle) as u64;
                        flows.push(Flow {
                            id: 0,
                            src: a,
                            dst: b,
                            size: Some(size),
                            start: at,
                            stop: at,
                        });
                        if flows.len() > 200_000 {
                            return Err(format!(
                                "{}: more than 200000 flows; lower load or duration",
                                f("load")
                            ));
                        }
                    }
                }
            }
        }
        for (i, fl) in flows.iter_mut().enumerate() {
            fl.id = i;
        }
        // QPs per host: one per flow or one per peer.
        let qps = qp_counts(hosts, &flows, self.nic.qp);
        for (h, &q) in qps.iter().enumerate() {
            let rtl = rtl_hosts.contains(&h);
            let max = if rtl { RTL_QPS_MAX } else { QPS_MAX };
            if q > max {
                return Err(format!(
                    "{}: host {h} needs {q} QPs ({}); its core keeps at most {max}{}",
                    if rtl { "nic.rtl_hosts" } else { "workload" },
                    match self.nic.qp {
                        QpMap::Flow => "one per flow it sends or receives",
                        QpMap::Peer => "one per peer",
                    },
                    if rtl {
                        " (the RTL core has 8 flows, QPs 2..7)"
                    } else if self.nic.qp == QpMap::Flow {
                        "; fewer flows, or nic.qp = \"peer\""
                    } else {
                        ""
                    }
                ));
            }
        }
        Ok(Plan {
            scenario: self.clone(),
            topo,
            ns_per_cycle,
            cycles,
            base_rtt_ns,
            cc,
            cc_regs,
            tlm_data: !matches!(c.algo, CcAlgo::HpccProbe | CcAlgo::Dcqcn),
            flows,
            rtl_hosts,
            sample: ((sample_ns / ns_per_cycle).round() as u64).max(1),
            warmup: (o.warmup_rtts * base_rtt_ns / ns_per_cycle) as u64,
            // DCQCN flows carry no telemetry: no probes either.
            probe_t: if dcqcn.is_some() {
                0
            } else {
                (probe_ns / ns_per_cycle).round().max(1.0) as u32
            },
            rto: cyc(c.rto_us) as u32,
            dcqcn,
            dma_wr_share,
            rx_buf_log2,
            dma_latency,
        })
    }

    /// RED thresholds, KB (defaults: 100/400 KB × link_gbps/25).
    pub fn ecn_kb(&self) -> (f64, f64) {
        let k = self.topology.link_gbps / 25.0;
        (
            self.switch.ecn_kmin_kb.unwrap_or(100.0 * k),
            self.switch.ecn_kmax_kb.unwrap_or(400.0 * k),
        )
    }
}

/// The QPs each host needs: one per flow it sends or receives, or one
/// per peer it talks to.
pub fn qp_counts(hosts: usize, flows: &[Flow], map: QpMap) -> Vec<usize> {
    let mut peers = vec![std::collections::BTreeSet::new(); hosts];
    let mut per_flow = vec![0; hosts];
    for fl in flows {
        peers[fl.src].insert(fl.dst);
        peers[fl.dst].insert(fl.src);
        per_flow[fl.src] += 1;
        per_flow[fl.dst] += 1;
    }
    match map {
        QpMap::Flow => per_flow,
        QpMap::Peer => peers.iter().map(|p| p.len()).collect(),
    }
}
