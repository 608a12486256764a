//! The cycle-level environment of the NIC core (`hpcc_nic_core`): a host
//! model per NIC and the lossy link between two cores.
//!
//! The host model drives every host-side port of the core and the MAC
//! side of its link:
//! - configuration: a script of `CfgWrite`s (the `nic_spec::regs` map:
//!   global registers, then each flow's staged context and its COMMIT);
//! - work requests, posted in order once the script is done, and their
//!   completions, each checked against what was planned (status, bytes;
//!   exactly once);
//! - DMA: read requests are served from host memory after
//!   `dma_latency` cycles on the h2c stream, writes land in host memory
//!   with their byte strobes;
//! - the MAC: received frames go into `s_axis_rx` back to back, the
//!   frames of `m_axis_tx` go onto the link.
//!
//! Every `ready` the host drives is low with probability `stall` (seeded),
//! so back-pressure reaches every port. Inputs never depend on this
//! cycle's outputs (a source's `valid` does not wait for `ready`), so a
//! run's inputs can be recorded and replayed on another engine.

use crate::bottleneck::Bottleneck;
use crate::host::HostMem;
use crate::link::{Link, LinkCfg};
use nic_golden::cc::params::{CcRegs, Variant};
use nic_golden::nic::core::{In, Out};
use nic_golden::nic::CfgWrite;
use nic_golden::roce::{WorkReq, WrCompletion};
use nic_spec::regs;
use nic_spec::roce::wr::{self, Status};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::collections::{BTreeMap, VecDeque};

/// The first QP (flow) the workloads use: QPs 0 and 1 are InfiniBand's
/// special QPs (SMI, GSI), whose packets Wireshark dissects as management
/// datagrams. A host's flow i is QP `FIRST_QP + i` on both NICs.
pub const FIRST_QP: u32 = 2;

/// Bytes the NIC core moves a cycle (its 64-bit stream): the line's rate
/// in the simulations (100 Gb/s at 0.64 ns, 10 Gb/s at 6.4 ns).
pub const WIRE_BYTES_PER_CYCLE: f64 = 8.0;

/// A frame as it went on the wire.
#[derive(Clone, Debug)]
pub struct WireFrame {
    /// Cycle its first byte left the sender.
    pub time: u64,
    /// Sending NIC (0 = A, 1 = B).
    pub from: usize,
    /// Lost on the link (never arrived).
    pub lost: bool,
    /// The frame as sent.
    pub frame: Vec<u8>,
    /// The frame as it arrived, if the link damaged it
    /// ([`crate::link::damage`]).
    pub damaged: Option<Vec<u8>>,
}

impl WireFrame {
    /// The frame as it arrived (if it was not lost).
    pub fn arrived(&self) -> &[u8] {
        self.damaged.as_deref().unwrap_or(&self.frame)
    }
}

/// The DCQCN registers a host writes when some of its flows run DCQCN:
/// the reaction point's ([`DcqcnParams::regs`](nic_golden::cc::dcqcn_params::DcqcnParams::regs))
/// and the notification point's CNP interval (cycles). A scenario's
/// `[cc.dcqcn]` gives them ([`DcqcnSec::regs`](crate::net::scenario::DcqcnSec::regs)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct DcqcnRegs {
    pub rp: nic_golden::cc::DcqcnCfg,
    pub np_interval: u32,
}

/// Which congestion control the host gives each flow: an HPCC++ variant
/// or DCQCN (`FLOW_CC_VARIANT`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum VariantPlan {
    /// Every flow the same HPCC++ variant.
    All(Variant),
    /// Every flow DCQCN, with these registers.
    Dcqcn(DcqcnRegs),
    /// NewAck on even flow ids, DCQCN on odd ones (both on one core).
    MixedDcqcn(DcqcnRegs),
    /// NewAck on even flow ids, NewINT on odd ones.
    #[default]
    Mixed,
    /// NewINT on even flow ids, NewAck on odd ones.
    MixedReversed,
}

impl VariantPlan {
    /// The HPCC++ variant of `flow` (NewAck for a DCQCN flow: unused).
    pub fn of(self, flow: u32) -> Variant {
        match self {
            VariantPlan::All(v) => v,
            VariantPlan::Dcqcn(_) | VariantPlan::MixedDcqcn(_) => Variant::Sender,
            VariantPlan::Mixed if flow % 2 == 1 => Variant::Receiver,
            VariantPlan::Mixed => Variant::Sender,
            VariantPlan::MixedReversed if flow % 2 == 1 => Variant::Sender,
            VariantPlan::MixedReversed => Variant::Receiver,
        }
    }

    /// `FLOW_CC_VARIANT` of `flow`: 0 NewAck, 1 NewINT, 2 DCQCN.
    pub fn reg(self, flow: u32) -> u64 {
        match self {
            VariantPlan::Dcqcn(_) => 2,
            VariantPlan::MixedDcqcn(_) if flow % 2 == 1 => 2,
            _ => (self.of(flow) == Variant::Receiver) as u64,
        }
    }

    /// The DCQCN registers, if some flow runs DCQCN.
    pub fn dcqcn(self) -> Option<DcqcnRegs> {
        match self {
            VariantPlan::Dcqcn(d) | VariantPlan::MixedDcqcn(d) => Some(d),
            _ => None,
        }
    }
}

/// log2 of the receive buffer's words in the small NIC the co-simulation
/// tests, `sim` and `netsim`'s RTL hosts run (8 flows × 8 work requests):
/// 1024 words (8 KiB), which takes MTUs up to 2 KiB
/// (`nic_spec::roce::rx_buf_max_mtu_log2`: two maximum frames and sixteen
/// minimum ones). 2 KiB (B = 8) held only a 256-byte MTU.
pub const SIM_RX_BUF_LOG2: usize = 10;

/// What the host configures and how it behaves.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HostParams {
    pub mtu_log2: u8,
    /// Retransmission timeout, cycles.
    pub rto: u32,
    /// Probe interval, cycles.
    pub probe_t: u32,
    /// Scheduler credit cap, bytes.
    pub sched_cap: u32,
    /// The core clock's period, UQ8.16 ns.
    pub ns_per_cycle: u32,
    pub cc: CcRegs,
    /// The congestion control of each flow (`FLOW_CC_VARIANT`).
    pub cc_variant: VariantPlan,
    /// Telemetry in every data packet (else in probes only).
    pub tlm_data: bool,
    /// Cycles from a DMA read request to its first data beat.
    pub dma_latency: u64,
    /// Probability that a ready the host drives is low in a cycle.
    pub stall: f64,
    /// Work requests outstanding per flow at most (the core's ring,
    /// 2^Q): the host holds the next one of a full flow back.
    pub ring: u32,
    /// No work request is posted before this cycle.
    pub post_from: u64,
    /// The link pause on host back-pressure (`RX_XOFF`, `RX_XON`,
    /// `RX_PAUSE_QUANTA`); `None` leaves it off.
    pub rx_pause: Option<RxPauseRegs>,
    /// `TX_CTL_SHARE`: while data waits, control frames take at most
    /// 2^-s of the line (0: no limit, control always first).
    pub tx_ctl_share: u8,
}

/// The link pause's registers: the receive buffer's words at which the
/// NIC sends XOFF and XON, the quanta an XOFF asks for, and the PFC
/// class-enable vector (`RX_PFC_CEV`: 0 sends 802.3x PAUSE frames).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RxPauseRegs {
    pub xoff: u16,
    pub xon: u16,
    pub quanta: u16,
    pub pfc_cev: u8,
}

impl RxPauseRegs {
    /// For a 2^`b`-word buffer, MTU 2^`mtu_log2` and a link whose two
    /// delays carry `link_rtt_words` words (8 bytes): XOFF with the
    /// headroom of `nic_spec::roce::rx_pause_headroom_words`, XON half
    /// way down, and quanta for a pause of twice the round trip (at least
    /// 64). `None` if the buffer has no room for that headroom.
    pub fn for_link(b: u32, mtu_log2: u8, link_rtt_words: u64) -> Option<Self> {
        let rtt = link_rtt_words.min(u16::MAX as u64) as u32;
        let xoff = nic_spec::roce::rx_xoff_max(b, mtu_log2 as u32, rtt);
        (xoff > 0).then(|| Self {
            xoff: xoff as u16,
            xon: (xoff / 2) as u16,
            // A quantum is 8 cycles (64 bytes) at 8 bytes a cycle.
            quanta: (2 * rtt / 8).clamp(64, u16::MAX as u32) as u16,
            pfc_cev: 0,
        })
    }
}

/// A memory region a host registers (`MR_*`, `nic_spec::mr`): table
/// entry, the bytes [base, base + len) it grants, its R_Key, protection
/// domain and rights (`nic_spec::mr::right`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RegionSpec {
    pub index: u32,
    pub base: u64,
    pub len: u64,
    pub rkey: u32,
    pub pd: u16,
    pub rights: u8,
}

impl RegionSpec {
    /// Entry 0: all of memory but its last byte, R_Key 0, domain 0,
    /// remote write and read (the host models whose flows name no region
    /// of their own).
    pub const ALL_MEMORY: RegionSpec = RegionSpec {
        index: 0,
        base: 0,
        len: u64::MAX,
        rkey: nic_spec::mr::rkey(0, 0),
        pd: 0,
        rights: nic_spec::mr::right::REMOTE_WRITE | nic_spec::mr::right::REMOTE_READ,
    };

    /// The region's writes (`MR_BASE` .. `MR_COMMIT`, active).
    pub fn script(&self) -> [(u16, u64); 5] {
        [
            (regs::MR_BASE, self.base),
            (regs::MR_LEN, self.len),
            (regs::MR_RKEY, self.rkey as u64),
            (
                regs::MR_ATTR,
                self.pd as u64 | (self.rights as u64) << nic_spec::mr::ATTR_RIGHTS_SHIFT,
            ),
            (regs::MR_COMMIT, self.index as u64 | 1 << 32),
        ]
    }

    /// The write that revokes table entry `index` (`MR_COMMIT`, inactive).
    pub fn revoke(index: u32) -> CfgWrite {
        CfgWrite {
            addr: regs::MR_COMMIT,
            data: index as u64,
        }
    }
}

/// One flow's context as the host writes it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FlowSpec {
    pub flow: u32,
    pub dmac: u64,
    pub smac: u64,
    pub sip: u32,
    pub dip: u32,
    pub sport: u16,
    pub dqp: u32,
    pub send_psn: u32,
    pub recv_psn: u32,
    /// The flow's protection domain (`FLOW_PD`).
    pub pd: u16,
    /// The region this host registers for its peer's requests on this
    /// flow (in the flow's domain). With none on any flow, the host
    /// registers [`RegionSpec::ALL_MEMORY`].
    pub region: Option<RegionSpec>,
}

/// The configuration script: global registers, the regions, then each
/// flow.
pub fn config_script(p: &HostParams, flows: &[FlowSpec]) -> Vec<CfgWrite> {
    let c = &p.cc;
    let mut v: Vec<(u16, u64)> = vec![
        (regs::MTU_LOG2, p.mtu_log2 as u64),
        (regs::RTO, p.rto as u64),
        (regs::PROBE_T, p.probe_t as u64),
        (regs::SCHED_CAP, p.sched_cap as u64),
        (regs::NS_PER_CYCLE, p.ns_per_cycle as u64),
        (regs::TX_CTL_SHARE, p.tx_ctl_share as u64),
        (regs::CC_T, c.t as u64),
        (regs::CC_INV_T_M, c.inv_t_m as u64),
        (regs::CC_INV_T_S, c.inv_t_s as u64),
        (regs::CC_UQ_M, c.uq_m as u64),
        (regs::CC_ETA, c.eta as u64),
        (regs::CC_MAX_STAGE, c.max_stage as u64),
        (regs::CC_W_AI, c.w_ai as u64),
        (regs::CC_W_MIN, c.w_min as u64),
        (regs::CC_W_INIT, c.w_init as u64),
        (regs::CC_MLOG, c.mlog as u64),
    ];
    // The host's memory regions (nic_spec::mr): each flow's own, or one
    // for all (R_Key 0, domain 0: the key and domain of the work
    // requests and flows of host models that name none).
    let regions: Vec<RegionSpec> = flows.iter().filter_map(|f| f.region).collect();
    if regions.is_empty() {
        v.extend(RegionSpec::ALL_MEMORY.script());
    }
    for r in &regions {
        v.extend(r.script());
    }
    if let Some(r) = p.rx_pause {
        v.extend([
            (regs::RX_XOFF, r.xoff as u64),
            (regs::RX_XON, r.xon as u64),
            (regs::RX_PAUSE_QUANTA, r.quanta as u64),
            (regs::RX_PFC_CEV, r.pfc_cev as u64),
        ]);
    }
    if let Some(d) = p.cc_variant.dcqcn() {
        let r = &d.rp;
        v.extend([
            (regs::DCQCN_G_LOG2, r.g_log2 as u64),
            (regs::DCQCN_ALPHA_PERIOD, r.alpha_period as u64),
            (regs::DCQCN_DEC_PERIOD, r.dec_period as u64),
            (regs::DCQCN_INC_PERIOD, r.inc_period as u64),
            (regs::DCQCN_BYTE_RESET, r.byte_reset as u64),
            (regs::DCQCN_F, r.f as u64),
            (regs::DCQCN_R_AI, r.r_ai as u64),
            (regs::DCQCN_R_HAI, r.r_hai as u64),
            (regs::DCQCN_R_MIN, r.r_min as u64),
            (regs::DCQCN_R_LINE, r.r_line as u64),
            (regs::DCQCN_R_FIRST, r.r_first as u64),
            (regs::DCQCN_ALPHA_INIT, r.alpha_init as u64),
            (regs::DCQCN_WINDOW, r.window as u64),
            (regs::NP_INTERVAL, d.np_interval as u64),
        ]);
    }
    for f in flows {
        v.extend([
            (regs::FLOW_DMAC, f.dmac),
            (regs::FLOW_SMAC, f.smac),
            (regs::FLOW_SIP, f.sip as u64),
            (regs::FLOW_DIP, f.dip as u64),
            (regs::FLOW_SPORT, f.sport as u64),
            (regs::FLOW_DQP, f.dqp as u64),
            (regs::FLOW_PKEY, 0xFFFF),
            // ECN-capable transport (ECT(0)) for DCQCN flows, so a
            // marking link or switch can mark them.
            (
                regs::FLOW_TOS,
                if p.cc_variant.reg(f.flow) == 2 { 2 } else { 0 },
            ),
            (regs::FLOW_SEND_PSN, f.send_psn as u64),
            (regs::FLOW_RECV_PSN, f.recv_psn as u64),
            (regs::FLOW_TLM_DATA, p.tlm_data as u64),
            (regs::FLOW_CC_VARIANT, p.cc_variant.reg(f.flow)),
            (regs::FLOW_PD, f.pd as u64),
            // Seven go-backs in a row without progress, then the work
            // request completes `RetryExceeded` and the flow errs.
            (regs::FLOW_RETRY, nic_spec::roce::wr::RETRY_LIMIT_MAX as u64),
            (regs::COMMIT, f.flow as u64 | 1 << 32),
        ]);
    }
    v.into_iter()
        .map(|(addr, data)| CfgWrite { addr, data })
        .collect()
}

/// A work request and the completion it must get.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlannedWr {
    pub wr: WorkReq,
    pub status: Status,
}

/// The host side of one NIC core.
pub struct CoreHost {
    pub p: HostParams,
    pub mem: HostMem,
    cfg_q: VecDeque<CfgWrite>,
    wr_q: VecDeque<WorkReq>,
    /// tag → what its completion must say.
    expect: BTreeMap<u32, PlannedWr>,
    /// tag → cycle of its completion.
    pub done: BTreeMap<u32, u64>,
    /// (first beat due, address, words).
    rd_q: VecDeque<(u64, u64, u64)>,
    rx_q: VecDeque<Vec<u8>>,
    rx_pos: usize,
    tx_buf: Vec<u8>,
    rng: StdRng,
    pub errors: Vec<String>,
    /// Frames the core aborted (`m_axis_tx.tuser`).
    pub tx_aborts: u64,
    /// Cycle of the first work request accepted and of each frame out.
    pub first_wr_at: Option<u64>,
    pub frames_out: u64,
    /// Cycle of the first beat of every frame sent.
    pub tx_starts: Vec<u64>,
    /// Cycle of the last beat of every frame received.
    pub rx_ends: Vec<u64>,
    /// The configuration is done: the script is written and `s_cfg.ready`
    /// was seen high after the last write (its COMMIT went through).
    configured: bool,
    /// Good work requests posted and not completed, per flow.
    in_ring: BTreeMap<u32, u32>,
    /// Work made while the run goes (the network simulator's flows):
    /// when set, it replaces the planned work requests and their checks.
    pub work: Option<crate::net::work::FlowWork>,
    /// The MAC side's Tx is paused (PFC from the switch): `tx_tready` low.
    pub paused: bool,
    /// Pace the transmitter as a MAC does: a frame starts only when the
    /// last one's wire time is over (`nic_spec::mac::wire_bytes` at 8
    /// bytes a cycle: its padding, FCS, preamble and gap), `tx_tready`
    /// low until then. The fraction of a cycle carries to the next frame,
    /// as the 10G MAC's deficit idle count keeps the gap's average.
    pub pace_wire: bool,
    /// Cycle the wire is free for the next frame (fractional).
    wire_free: f64,
    /// The core's PAUSE request not yet on the wire (the newest wins); it
    /// goes at the next frame boundary, as `TxPause` sends it.
    pause_pending: Option<u16>,
    /// PAUSE frames sent: (cycle their last byte leaves, quanta).
    pub pause_out: VecDeque<(u64, u16)>,
    /// A PAUSE from the peer holds new frames until this cycle (a frame
    /// already started goes on).
    pub paused_until: u64,
    /// PAUSE frames (XOFF and XON) this host's MAC sent.
    pub pauses_sent: u64,
    /// The share of cycles the host takes a DMA write in (a host slower
    /// than the line: 0.5 takes every other one), on top of `stall`.
    pub dma_wr_share: f64,
    dma_wr_credit: f64,
}

impl CoreHost {
    pub fn new(
        p: HostParams,
        mem: Vec<u8>,
        cfg: Vec<CfgWrite>,
        wrs: &[PlannedWr],
        seed: u64,
    ) -> Self {
        let mut expect = BTreeMap::new();
        for w in wrs {
            assert!(expect.insert(w.wr.tag, *w).is_none(), "tags are unique");
        }
        Self {
            p,
            mem: HostMem::new(mem),
            cfg_q: cfg.into(),
            wr_q: wrs.iter().map(|w| w.wr).collect(),
            expect,
            done: BTreeMap::new(),
            rd_q: VecDeque::new(),
            rx_q: VecDeque::new(),
            rx_pos: 0,
            tx_buf: Vec::new(),
            rng: StdRng::seed_from_u64(seed),
            errors: Vec::new(),
            tx_aborts: 0,
            first_wr_at: None,
            frames_out: 0,
            tx_starts: Vec::new(),
            rx_ends: Vec::new(),
            configured: false,
            in_ring: BTreeMap::new(),
            work: None,
            paused: false,
            pace_wire: false,
            wire_free: 0.0,
            pause_pending: None,
            pause_out: VecDeque::new(),
            paused_until: 0,
            pauses_sent: 0,
            dma_wr_share: 1.0,
            dma_wr_credit: 0.0,
        }
    }

    /// A host whose work requests come from `work` as the run goes.
    pub fn with_work(
        p: HostParams,
        mem: Vec<u8>,
        cfg: Vec<CfgWrite>,
        work: crate::net::work::FlowWork,
        seed: u64,
    ) -> Self {
        let mut h = Self::new(p, mem, cfg, &[], seed);
        h.work = Some(work);
        h
    }

    /// The configuration script is written and taken.
    pub fn configured(&self) -> bool {
        self.configured
    }

    /// A frame from the link.
    pub fn receive(&mut self, frame: Vec<u8>) {
        self.rx_q.push_back(frame);
    }

    /// Every work request completed and no frame waiting to go in.
    pub fn finished(&self) -> bool {
        match &self.work {
            Some(w) => w.finished(),
            None => self.wr_q.is_empty() && self.done.len() == self.expect.len(),
        }
    }

    /// Work requests not completed yet.
    pub fn outstanding(&self) -> Vec<u32> {
        self.expect
            .keys()
            .copied()
            .filter(|t| !self.done.contains_key(t))
            .collect()
    }

    fn ready(&mut self) -> bool {
        !(self.p.stall > 0.0 && self.rng.gen_bool(self.p.stall))
    }

    /// This cycle's inputs (from the host's state only).
    pub fn inputs(&mut self, now: u64) -> In {
        let mut i = In {
            cmpl_ready: self.ready(),
            dma_rd_ready: self.ready(),
            dma_wr_ready: self.ready() && self.dma_wr_credit + self.dma_wr_share >= 1.0,
            tx_tready: self.ready()
                && !self.paused
                && !(self.tx_buf.is_empty() && now < self.paused_until)
                && !(self.pace_wire && (now as f64) < self.wire_free.floor()),
            cnm_ready: true,
            ..Default::default()
        };
        if let Some(c) = self.cfg_q.front() {
            i.cfg_valid = true;
            i.cfg = *c;
        } else if let Some(work) = &mut self.work {
            if let Some(w) = work.next(now).filter(|_| self.configured) {
                i.wr_valid = true;
                i.wr = w;
            }
        } else if let (true, Some(w)) = (
            self.configured && now >= self.p.post_from,
            self.wr_q.front(),
        ) {
            let full = self.in_ring.get(&w.flow).copied().unwrap_or(0) >= self.p.ring;
            if !full {
                i.wr_valid = true;
                i.wr = *w;
            }
        }
        if let Some(&(due, addr, words)) = self.rd_q.front() {
            if due <= now && words > 0 {
                let w = self.mem.read(addr, 8);
                i.h2c.tvalid = true;
                i.h2c.tdata = u64::from_le_bytes(w.try_into().unwrap());
                i.h2c.tkeep = 0xFF;
                i.h2c.tlast = words == 1;
            }
        }
        if let Some(f) = self.rx_q.front() {
            let end = (self.rx_pos + 8).min(f.len());
            let mut w = [0u8; 8];
            w[..end - self.rx_pos].copy_from_slice(&f[self.rx_pos..end]);
            i.rx.tvalid = true;
            i.rx.tdata = u64::from_le_bytes(w);
            i.rx.tkeep = ((1u16 << (end - self.rx_pos)) - 1) as u8;
            i.rx.tlast = end == f.len();
        }
        i
    }

    /// Apply this cycle's handshakes; returns a complete frame sent.
    pub fn take(&mut self, now: u64, i: &In, o: &Out) -> Option<Vec<u8>> {
        if i.cfg_valid && o.cfg_ready {
            self.cfg_q.pop_front();
        }
        if self.cfg_q.is_empty() && !i.cfg_valid && o.cfg_ready {
            self.configured = true;
        }
        if let (true, Some(work)) = (i.wr_valid && o.wr_ready, &mut self.work) {
            work.taken(now, &i.wr);
            self.first_wr_at.get_or_insert(now);
        } else if i.wr_valid && o.wr_ready {
            self.wr_q.pop_front();
            self.first_wr_at.get_or_insert(now);
            if self.expect[&i.wr.tag].status == Status::Ok {
                *self.in_ring.entry(i.wr.flow).or_insert(0) += 1;
            }
        }
        if o.cmpl_valid && i.cmpl_ready {
            self.complete(now, &o.cmpl);
        }
        if o.dma_rd_valid && i.dma_rd_ready {
            let words = (o.dma_rd.len as u64).div_ceil(8);
            if words > 0 {
                self.rd_q
                    .push_back((now + self.p.dma_latency, o.dma_rd.addr, words));
            }
        }
        if i.h2c.tvalid && o.h2c_tready {
            let r = self.rd_q.front_mut().unwrap();
            r.1 += 8;
            r.2 -= 1;
            if r.2 == 0 {
                self.rd_q.pop_front();
            }
        }
        // The DMA-write share accrues every cycle and a write spends one.
        self.dma_wr_credit = (self.dma_wr_credit + self.dma_wr_share).min(1.0);
        if o.dma_wr_valid && i.dma_wr_ready {
            self.dma_wr_credit -= 1.0;
            let w = &o.dma_wr;
            for b in 0..8 {
                if w.strb >> b & 1 == 1 {
                    self.mem.write(w.addr + b, &[(w.data >> (8 * b)) as u8]);
                }
            }
        }
        if i.rx.tvalid && o.rx_tready {
            self.rx_pos += 8;
            if i.rx.tlast {
                self.rx_ends.push(now);
                self.rx_q.pop_front();
                self.rx_pos = 0;
            }
        }
        let mut sent = None;
        if o.tx.tvalid && i.tx_tready {
            if self.tx_buf.is_empty() {
                self.tx_starts.push(now);
            }
            let n = o.tx.tkeep.count_ones() as usize;
            self.tx_buf
                .extend_from_slice(&o.tx.tdata.to_le_bytes()[..n]);
            if o.tx.tlast {
                let f = std::mem::take(&mut self.tx_buf);
                let start = *self.tx_starts.last().expect("a frame has a start") as f64;
                self.wire_free = self.wire_free.max(start)
                    + nic_spec::mac::wire_bytes(f.len()) as f64 / WIRE_BYTES_PER_CYCLE;
                if o.tx.tuser {
                    self.tx_aborts += 1;
                } else {
                    self.frames_out += 1;
                    sent = Some(f);
                }
            }
        }
        // The core's PAUSE: a 60-byte MAC control frame at the next frame
        // boundary, on the wire like any frame (the next frame waits for
        // it when the transmitter is paced).
        if o.pause_req {
            self.pause_pending = Some(o.pause_quanta);
        }
        if let (true, Some(q)) = (self.tx_buf.is_empty(), self.pause_pending) {
            self.pause_pending = None;
            let end = self.wire_free.max(now as f64 + 1.0)
                + nic_spec::mac::wire_bytes(60) as f64 / WIRE_BYTES_PER_CYCLE;
            self.wire_free = end;
            self.pause_out.push_back((end.ceil() as u64, q));
            self.pauses_sent += 1;
        }
        sent
    }

    /// A PAUSE of `quanta` from the peer arrived at `now`: no new frame
    /// for `quanta` × 512 bit times (8 cycles at 8 bytes a cycle); 0
    /// releases at once.
    pub fn pause_in(&mut self, now: u64, quanta: u16) {
        self.paused_until = now + quanta as u64 * 8;
    }

    fn complete(&mut self, now: u64, c: &WrCompletion) {
        if let Some(work) = &mut self.work {
            if let Err(e) = work.completed(now, c) {
                self.errors.push(format!("cycle {now}: {e}"));
            }
            return;
        }
        let Some(w) = self.expect.get(&c.tag) else {
            self.errors
                .push(format!("cycle {now}: completion of unknown tag {c:?}"));
            return;
        };
        if w.status == Status::Ok {
            if let Some(k) = self.in_ring.get_mut(&w.wr.flow) {
                *k = k.saturating_sub(1);
            }
        }
        if self.done.insert(c.tag, now).is_some() {
            self.errors
                .push(format!("cycle {now}: second completion {c:?}"));
        }
        let bytes = if w.status == Status::Ok { w.wr.len } else { 0 };
        if c.flow != w.wr.flow
            || c.status != w.status as u8
            || (w.status == Status::Ok && c.bytes != bytes)
        {
            self.errors.push(format!(
                "cycle {now}: completion {c:?}, expected status {:?} for {:?}",
                w.status, w.wr
            ));
        }
    }
}

/// One direction of the network between two cores: a [`Link`] or a
/// [`Bottleneck`].
pub trait Wire {
    /// Put a frame on it at `now`; returns whether it was lost.
    fn send(&mut self, now: u64, frame: Vec<u8>) -> bool;
    /// The next frame that has arrived by `now`.
    fn pop_arrived(&mut self, now: u64) -> Option<Vec<u8>>;
    /// Frames lost so far.
    fn lost(&self) -> u64;
    /// The frame of the last `send` as it will arrive, if the wire
    /// damaged it.
    fn take_damaged(&mut self) -> Option<Vec<u8>> {
        None
    }
    /// The bottleneck, if it is one (for its traces).
    fn bottleneck(&self) -> Option<&Bottleneck> {
        None
    }
    /// Cycles from a frame's last byte to its arrival.
    fn delay(&self) -> u64;
}

impl Wire for Link {
    fn send(&mut self, now: u64, frame: Vec<u8>) -> bool {
        Link::send(self, now, frame)
    }
    fn pop_arrived(&mut self, now: u64) -> Option<Vec<u8>> {
        Link::pop_arrived(self, now)
    }
    fn lost(&self) -> u64 {
        self.lost
    }
    fn take_damaged(&mut self) -> Option<Vec<u8>> {
        Link::take_damaged(self)
    }
    fn delay(&self) -> u64 {
        self.cfg.delay
    }
}

impl Wire for Bottleneck {
    fn send(&mut self, now: u64, frame: Vec<u8>) -> bool {
        Bottleneck::send(self, now, frame)
    }
    fn pop_arrived(&mut self, now: u64) -> Option<Vec<u8>> {
        Bottleneck::pop_arrived(self, now)
    }
    fn lost(&self) -> u64 {
        self.lost
    }
    fn bottleneck(&self) -> Option<&Bottleneck> {
        Some(self)
    }
    fn delay(&self) -> u64 {
        self.cfg.delay
    }
}

/// One NIC's host side, as a [`Pair`] drives it: this cycle's inputs
/// of the NIC from the host's state alone (so a run's inputs can be
/// recorded and replayed), what the host takes from the NIC's outputs,
/// and the frames of its MAC side.
pub trait Host {
    type In: Copy;
    type Out: Copy + Default;
    /// This cycle's inputs (from the host's state only).
    fn inputs(&mut self, now: u64) -> Self::In;
    /// Apply this cycle's handshakes; returns a complete frame sent.
    fn take(&mut self, now: u64, i: &Self::In, o: &Self::Out) -> Option<Vec<u8>>;
    /// A frame from the link.
    fn receive(&mut self, frame: Vec<u8>);
    /// Every work request completed.
    fn finished(&self) -> bool;
    /// Cycle of the first beat of the last frame sent.
    fn last_tx_start(&self) -> u64;
    /// The next PAUSE frame the MAC sent: (cycle its last byte left,
    /// quanta).
    fn take_pause(&mut self) -> Option<(u64, u16)> {
        None
    }
    /// A PAUSE from the peer arrived at `now`.
    fn pause_in(&mut self, _now: u64, _quanta: u16) {}
}

impl Host for CoreHost {
    type In = In;
    type Out = Out;
    fn inputs(&mut self, now: u64) -> In {
        CoreHost::inputs(self, now)
    }
    fn take(&mut self, now: u64, i: &In, o: &Out) -> Option<Vec<u8>> {
        CoreHost::take(self, now, i, o)
    }
    fn receive(&mut self, frame: Vec<u8>) {
        CoreHost::receive(self, frame)
    }
    fn finished(&self) -> bool {
        CoreHost::finished(self)
    }
    fn last_tx_start(&self) -> u64 {
        self.tx_starts.last().copied().unwrap_or(0)
    }
    fn take_pause(&mut self) -> Option<(u64, u16)> {
        self.pause_out.pop_front()
    }
    fn pause_in(&mut self, now: u64, quanta: u16) {
        CoreHost::pause_in(self, now, quanta)
    }
}

/// One NIC as a pair drives it: this cycle's outputs for its inputs (the
/// golden twin, an RTL engine, or both in lockstep).
pub type NicFn<'a, I, O> = Box<dyn FnMut(&I) -> O + 'a>;

/// A NIC core as [`CorePair`] drives it.
pub type CoreFn<'a> = NicFn<'a, In, Out>;

/// Two NICs, their hosts and the two directions of the link.
pub struct Pair<'a, H: Host> {
    pub hosts: [H; 2],
    pub cores: [NicFn<'a, H::In, H::Out>; 2],
    /// `links[n]` carries NIC n's frames to the other NIC.
    pub links: [Box<dyn Wire>; 2],
    pub now: u64,
    /// Every input of each NIC, if recording.
    pub record: Option<[Vec<H::In>; 2]>,
    /// Every frame put on the wire, if recording (for a pcap).
    pub wire: Option<Vec<WireFrame>>,
    /// Each NIC's outputs in the last cycle.
    pub last: [H::Out; 2],
    /// PAUSE frames on their way to NIC n: (arrival cycle, quanta).
    pause_line: [VecDeque<(u64, u16)>; 2],
}

/// Two NIC cores with their host models (`hpcc_nic_core`).
pub type CorePair<'a> = Pair<'a, CoreHost>;

impl<'a, H: Host> Pair<'a, H> {
    /// Two NICs joined by two [`Link`]s of `link`.
    pub fn new(
        hosts: [H; 2],
        cores: [NicFn<'a, H::In, H::Out>; 2],
        link: LinkCfg,
        seed: u64,
    ) -> Self {
        Self::with_wires(
            hosts,
            cores,
            [
                Box::new(Link::new(link, seed ^ 0x11)),
                Box::new(Link::new(link, seed ^ 0x22)),
            ],
        )
    }

    /// Two NICs joined by `links`.
    pub fn with_wires(
        hosts: [H; 2],
        cores: [NicFn<'a, H::In, H::Out>; 2],
        links: [Box<dyn Wire>; 2],
    ) -> Self {
        Self {
            hosts,
            cores,
            links,
            now: 0,
            record: None,
            wire: None,
            last: Default::default(),
            pause_line: Default::default(),
        }
    }

    /// One cycle of both NICs.
    pub fn step(&mut self) {
        let now = self.now;
        for n in 0..2 {
            while let Some(f) = self.links[1 - n].pop_arrived(now) {
                self.hosts[n].receive(f);
            }
            while self.pause_line[n].front().is_some_and(|p| p.0 <= now) {
                let (_, q) = self.pause_line[n].pop_front().unwrap();
                self.hosts[n].pause_in(now, q);
            }
        }
        for n in 0..2 {
            let i = self.hosts[n].inputs(now);
            let o = (self.cores[n])(&i);
            if let Some(r) = &mut self.record {
                r[n].push(i);
            }
            let sent = self.hosts[n].take(now, &i, &o);
            self.last[n] = o;
            while let Some((end, q)) = self.hosts[n].take_pause() {
                let at = end + self.links[n].delay();
                self.pause_line[1 - n].push_back((at, q));
            }
            if let Some(f) = sent {
                let start = self.hosts[n].last_tx_start();
                let copy = self.wire.is_some().then(|| f.clone());
                let lost = self.links[n].send(now, f);
                let damaged = self.links[n].take_damaged();
                if let (Some(w), Some(frame)) = (&mut self.wire, copy) {
                    w.push(WireFrame {
                        time: start,
                        from: n,
                        lost,
                        frame,
                        damaged,
                    });
                }
            }
        }
        self.now += 1;
    }

    /// Run until both hosts are finished or `max_cycles`; returns whether
    /// they finished.
    pub fn run(&mut self, max_cycles: u64) -> bool {
        while self.now < max_cycles {
            self.step();
            if self.hosts.iter().all(|h| h.finished()) {
                return true;
            }
        }
        false
    }
}

/// A workload for two cores: flows, memories, work requests (good ones of
/// both kinds and sizes, and bad ones of every status), and the memory
/// each host must end with.
pub struct Workload {
    pub flows: [Vec<FlowSpec>; 2],
    pub mem: [Vec<u8>; 2],
    pub wrs: [Vec<PlannedWr>; 2],
    pub expected_mem: [Vec<u8>; 2],
}

/// Plan `messages` work requests per NIC over `flows` flows (each flow
/// connects QP f of NIC 0 with QP f of NIC 1; f = `FIRST_QP` (2) ..:
/// Wireshark dissects QPs 0 and 1 as management datagrams), sizes up to `max_len`,
/// `read_pct` percent READs, plus `bad` bad work requests per NIC.
pub fn plan(
    seed: u64,
    flows: u32,
    messages: usize,
    max_len: u32,
    read_pct: u32,
    bad: usize,
    mtu: u32,
) -> Workload {
    let mut rng = StdRng::seed_from_u64(seed);
    let psn: [Vec<u32>; 2] =
        [0, 1].map(|_| (0..flows).map(|_| rng.gen_range(0..1 << 24)).collect());
    let spec = |n: usize| -> Vec<FlowSpec> {
        (FIRST_QP..FIRST_QP + flows)
            .map(|f| FlowSpec {
                flow: f,
                dmac: 0x02_00_00_00_00_01 + (1 - n) as u64,
                smac: 0x02_00_00_00_00_01 + n as u64,
                sip: 0x0A00_0001 + n as u32,
                dip: 0x0A00_0001 + (1 - n) as u32,
                sport: 0xC000 + f as u16,
                dqp: f,
                send_psn: psn[n][(f - FIRST_QP) as usize],
                recv_psn: psn[1 - n][(f - FIRST_QP) as usize],
                pd: 0,
                region: None,
            })
            .collect()
    };
    let align8 = |x: u64| (x + 7) & !7;
    // Each NIC: [0, src) source bytes, [src, src + dst) landing areas.
    let mut sizes: [Vec<(u32, u32, bool)>; 2] = [Vec::new(), Vec::new()];
    for s in sizes.iter_mut() {
        for _ in 0..messages {
            let len = match rng.gen_range(0..4) {
                0 => rng.gen_range(1..=64),
                1 => rng.gen_range(1..=mtu),
                2 => mtu * rng.gen_range(1..=3),
                _ => rng.gen_range(1..=max_len),
            }
            .min(max_len);
            s.push((
                FIRST_QP + rng.gen_range(0..flows),
                len,
                rng.gen_range(0..100) < read_pct,
            ));
        }
    }
    let mut src = [0u64; 2];
    let mut dst = [0u64; 2];
    let mut places: [Vec<(u64, bool, u64, bool)>; 2] = [Vec::new(), Vec::new()];
    for n in 0..2 {
        let peer = 1 - n;
        for &(_, len, read) in &sizes[n] {
            let sz = align8(len as u64) + 8;
            // (local, local in dst, remote, remote in dst)
            let p = if read {
                let l = dst[n];
                dst[n] += sz;
                let r = src[peer];
                src[peer] += sz;
                (l, true, r, false)
            } else {
                let l = src[n];
                src[n] += sz;
                let r = dst[peer];
                dst[peer] += sz;
                (l, false, r, true)
            };
            places[n].push(p);
        }
    }
    let src_size = src.map(|s| align8(s) + 8);
    let mem: [Vec<u8>; 2] =
        [0, 1].map(|n| (0..src_size[n] + dst[n] + 8).map(|_| rng.gen()).collect());
    let mut expected_mem = mem.clone();
    let mut wrs: [Vec<PlannedWr>; 2] = [Vec::new(), Vec::new()];
    for n in 0..2 {
        let peer = 1 - n;
        let base = |m: usize, in_dst: bool, a: u64| if in_dst { src_size[m] + a } else { a };
        let mut tag = 0u32;
        for (k, &(flow, len, read)) in sizes[n].iter().enumerate() {
            let (l, ld, r, rd) = places[n][k];
            let (la, ra) = (base(n, ld, l), base(peer, rd, r));
            let (from, from_a, to, to_a) = if read {
                (peer, ra, n, la)
            } else {
                (n, la, peer, ra)
            };
            let bytes = mem[from][from_a as usize..(from_a + len as u64) as usize].to_vec();
            expected_mem[to][to_a as usize..(to_a + len as u64) as usize].copy_from_slice(&bytes);
            wrs[n].push(PlannedWr {
                wr: WorkReq {
                    flow,
                    opcode: if read { wr::READ } else { wr::WRITE },
                    laddr: la,
                    va: ra,
                    rkey: 0,
                    len,
                    tag,
                },
                status: Status::Ok,
            });
            tag += 1;
        }
        // Bad ones, spread among the good ones: each completes at once
        // with its status and sends nothing.
        for b in 0..bad {
            let (wr, status) = match b % 4 {
                0 => (
                    WorkReq {
                        flow: FIRST_QP,
                        opcode: wr::WRITE,
                        len: 0,
                        ..Default::default()
                    },
                    Status::BadLen,
                ),
                1 => (
                    WorkReq {
                        flow: FIRST_QP,
                        opcode: wr::READ,
                        len: 1 << 31,
                        ..Default::default()
                    },
                    Status::BadLen,
                ),
                2 => (
                    WorkReq {
                        // Unconfigured: QP 0 or 1, or past the flows.
                        flow: [0, 1, FIRST_QP + flows + rng.gen_range(0..1000)]
                            [rng.gen_range(0..3)],
                        opcode: wr::WRITE,
                        len: 8,
                        ..Default::default()
                    },
                    Status::BadFlow,
                ),
                _ => (
                    WorkReq {
                        flow: FIRST_QP,
                        opcode: rng.gen_range(2..=255),
                        len: 8,
                        ..Default::default()
                    },
                    Status::BadOpcode,
                ),
            };
            let at = rng.gen_range(0..=wrs[n].len());
            wrs[n].insert(
                at,
                PlannedWr {
                    wr: WorkReq { tag, ..wr },
                    status,
                },
            );
            tag += 1;
        }
    }
    Workload {
        flows: [spec(0), spec(1)],
        mem,
        wrs,
        expected_mem,
    }
}

impl Workload {
    /// Give each flow a region of its own at each NIC (as a driver on a
    /// shared network registers its buffers): entry f, domain f, the hull
    /// of the bytes the peer's work requests of the flow touch in this
    /// NIC's memory, remote write and read; the peer's work requests carry
    /// its R_Key (tag 0xA0 | f). Without it, both NICs register all of
    /// memory in domain 0 ([`RegionSpec::ALL_MEMORY`]).
    pub fn own_regions(mut self) -> Workload {
        let Workload {
            ref mut flows,
            ref mut wrs,
            ..
        } = self;
        own_regions(flows, wrs);
        self
    }
}

fn own_regions(flows: &mut [Vec<FlowSpec>; 2], wrs: &mut [Vec<PlannedWr>; 2]) {
    for (n, fl) in flows.iter_mut().enumerate() {
        for fs in fl.iter_mut() {
            let f = fs.flow;
            let (lo, hi) = wrs[1 - n]
                .iter()
                .filter(|x| x.status == Status::Ok && x.wr.flow == f)
                .fold((u64::MAX, 0), |(lo, hi), x| {
                    (lo.min(x.wr.va), hi.max(x.wr.va + x.wr.len as u64))
                });
            let (base, len) = if lo < hi { (lo, hi - lo) } else { (0, 0) };
            fs.pd = f as u16;
            fs.region = Some(RegionSpec {
                index: f,
                base,
                len,
                rkey: nic_spec::mr::rkey(f, 0xA0 | f as u8),
                pd: f as u16,
                rights: nic_spec::mr::right::REMOTE_WRITE | nic_spec::mr::right::REMOTE_READ,
            });
        }
    }
    for n in 0..2 {
        for x in wrs[n].iter_mut().filter(|x| x.status == Status::Ok) {
            if let Some(r) = flows[1 - n]
                .iter()
                .find(|fs| fs.flow == x.wr.flow)
                .and_then(|fs| fs.region)
            {
                x.wr.rkey = r.rkey;
            }
        }
    }
}

/// A two-core run as `hpccnic sim-core` makes it.
#[derive(Clone, Debug, PartialEq)]
pub struct CoreSimCfg {
    pub seed: u64,
    pub flows: u32,
    pub messages: usize,
    pub max_size: u32,
    /// Percent of READs among the work requests.
    pub read_pct: u32,
    /// Bad work requests per NIC (every error status in turn).
    pub bad: usize,
    pub mtu_log2: u8,
    pub loss: f64,
    /// Probability that a frame not lost arrives damaged
    /// ([`crate::link::damage`]): bad frames the receiver must drop.
    pub corrupt: f64,
    pub delay: u64,
    /// Telemetry in every data packet (else in probes only).
    pub tlm_data: bool,
    /// The HPCC++ variant of each flow.
    pub cc_variant: VariantPlan,
}

/// What a run gives.
#[derive(Debug, Default)]
pub struct CoreSimResult {
    pub cycles: u64,
    pub finished: bool,
    /// Completions seen and work requests planned, both NICs.
    pub completed: usize,
    pub planned: usize,
    pub byte_exact: bool,
    pub errors: Vec<String>,
    pub wire: Vec<WireFrame>,
    /// Each core's outputs in the last cycle (its counters).
    pub last: [Out; 2],
}

/// The host parameters of `sim` (the core of the co-simulation
/// tests: 8 flows × 8 work requests).
pub fn core_sim_params(c: &CoreSimCfg) -> HostParams {
    let cc = nic_golden::cc::params::CcParams {
        base_rtt_ns: 2000.0,
        line_rate_gbps: 10.0,
        flows: 8,
        ..Default::default()
    };
    HostParams {
        mtu_log2: c.mtu_log2,
        rto: 20_000.max(4 * c.delay as u32 + 4000),
        probe_t: 2000.max(2 * c.delay as u32 + 500),
        sched_cap: 4096,
        ns_per_cycle: (6.4f64 * 65536.0) as u32,
        cc: cc.regs().expect("valid CC parameters"),
        tlm_data: c.tlm_data,
        cc_variant: c.cc_variant,
        dma_latency: 8,
        stall: 0.0,
        ring: 8,
        post_from: 0,
        rx_pause: None,
        tx_ctl_share: nic_spec::roce::TX_CTL_SHARE_DEFAULT as u8,
    }
}

/// The two hosts of workload `w`, each configured with its flows and
/// holding its memory and work requests (host seeds derived from `seed`).
pub fn hosts_for(p: &HostParams, w: &Workload, seed: u64) -> [CoreHost; 2] {
    [0, 1].map(|n| {
        CoreHost::new(
            *p,
            w.mem[n].clone(),
            config_script(p, &w.flows[n]),
            &w.wrs[n],
            seed ^ (n as u64 + 1) * 0x9E37,
        )
    })
}

/// Run two cores (`cores`: the golden twin, or an RTL engine with the twin
/// in lockstep) on the planned work until done or `max_cycles`;
/// `progress(cycles, completed, planned)` is called every 2^14 cycles.
pub fn run_core_sim(
    c: &CoreSimCfg,
    cores: [CoreFn<'_>; 2],
    max_cycles: u64,
    progress: &mut dyn FnMut(u64, usize, usize),
) -> CoreSimResult {
    let p = core_sim_params(c);
    let w = plan(
        c.seed,
        c.flows,
        c.messages,
        c.max_size,
        c.read_pct,
        c.bad,
        1 << c.mtu_log2,
    )
    .own_regions();
    let hosts = hosts_for(&p, &w, c.seed);
    let mut pair = CorePair::new(
        hosts,
        cores,
        LinkCfg {
            delay: c.delay,
            loss: c.loss,
            ce: 0.0,
            corrupt: c.corrupt,
        },
        c.seed,
    );
    pair.wire = Some(Vec::new());
    let planned = w.wrs[0].len() + w.wrs[1].len();
    let mut finished = false;
    while !finished && pair.now < max_cycles {
        let to = (pair.now + (1 << 14)).min(max_cycles);
        finished = pair.run(to);
        progress(
            pair.now,
            pair.hosts.iter().map(|h| h.done.len()).sum(),
            planned,
        );
    }
    let mut r = CoreSimResult {
        cycles: pair.now,
        finished,
        planned: w.wrs[0].len() + w.wrs[1].len(),
        completed: pair.hosts.iter().map(|h| h.done.len()).sum(),
        byte_exact: true,
        ..Default::default()
    };
    for (n, h) in pair.hosts.iter().enumerate() {
        r.errors
            .extend(h.errors.iter().map(|e| format!("NIC {n}: {e}")));
        if h.mem.bytes != w.expected_mem[n] {
            r.byte_exact = false;
        }
    }
    r.wire = pair.wire.take().unwrap_or_default();
    r.last = pair.last;
    r
}
