//! Two NIC cores sending WRITEs to each other at once, each transmitter
//! paced as a MAC paces it: the line-rate contract of `make bench`
//! (issue 50), with every ready realistic.
//!
//! Each NIC (NIC 0 alone if `one_way`) posts `messages` WRITEs round
//! robin over `flows` flows, their sizes cycling through `sizes` (a size up to the MTU is one frame; a
//! larger one is several). Telemetry rides in every data packet and every
//! packet asks for an ACK (HPCC++ sender-based, as `sim` and `netsim`
//! configure it), so each transmitter carries its own data and the other
//! direction's ACKs. The link is a [`Link`](crate::link::Link) of
//! `link_delay` cycles; each host's transmitter is paced by the wire
//! (`CoreHost::pace_wire`: padding, FCS, preamble and gap), and its DMA
//! writes may be slower than the line (`dma_wr_share`).
//!
//! No switch stamps telemetry here, so the CC keeps each flow at its
//! initial window (the line's BDP): what is measured is the NIC's
//! datapath, not the algorithm.
//!
//! Figures per direction ([`Direction`]), over the span from its first
//! data frame's start to its last data frame's end:
//! - `wire_fill`: the share of the line its frames (data and control)
//!   take, by their wire size; `data_fill`: its data frames' share (with
//!   messages of one frame size, the share of the wire's frame rate it
//!   reaches). A frame may start within a cycle of its slot (the pacing's
//!   deficit), so a full line reads up to 1.0001;
//! - `drop_full`: frames the receiving NIC dropped with a full buffer;
//! - `goodput`: data frames the messages need / data frames sent (below 1
//!   when frames were sent again);
//! - timeouts and NAKs of the sender.

use crate::core_env::{
    config_script, plan, CoreHost, CorePair, HostParams, PlannedWr, RxPauseRegs, VariantPlan,
    WireFrame, FIRST_QP,
};
use crate::link::LinkCfg;
use nic_golden::cc::params::CcParams;
use nic_golden::nic::core::{In, NicCore};
use nic_golden::roce::WorkReq;
use nic_golden::Cycle;
use nic_spec::mac::wire_bytes;
use nic_spec::roce::wr::{self, Status};
use nic_spec::roce::{carries_payload, BTH_OFF};

/// One run's set-up.
#[derive(Clone, Debug, PartialEq)]
pub struct LineRateCfg {
    pub flows: u32,
    /// Message sizes, bytes, used in turn.
    pub sizes: Vec<u32>,
    /// WRITEs each NIC posts.
    pub messages: u32,
    pub link_delay: u64,
    /// The share of cycles each host takes a DMA write in.
    pub dma_wr_share: f64,
    /// Only NIC 0 posts WRITEs (NIC 1 sends their ACKs): the message rate
    /// of one direction.
    pub one_way: bool,
    /// The link pause on host back-pressure: each NIC's `RX_XOFF`,
    /// `RX_XON` and `RX_PAUSE_QUANTA` from its buffer, the MTU and the
    /// link ([`RxPauseRegs::for_link`]), and each honours the other's
    /// PAUSE frames.
    pub pause: bool,
}

/// What one direction (NIC n's transmitter, the other's receiver) did.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
pub struct Direction {
    /// Cycles from its first data frame's start to its last's end.
    pub span: u64,
    pub frames: u64,
    pub data_frames: u64,
    pub wire_fill: f64,
    pub data_fill: f64,
    pub drop_full: u32,
    /// PAUSE frames the receiving NIC sent (XOFF, refreshes and XON) and
    /// the cycles its pause was in force.
    pub pauses: u64,
    pub pause_cycles: u32,
    pub goodput: f64,
    pub timeouts: u32,
    pub naks: u32,
}

/// A run: both directions, and whether every WRITE completed.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct LineRate {
    pub finished: bool,
    pub cycles: u64,
    pub dir: [Direction; 2],
}

/// The MTU of the runs (log2 bytes).
pub const MTU_LOG2: u8 = 10;

/// The hosts' parameters: MTU 1 KiB, DMA latency 4 cycles, no stalls,
/// HPCC++ sender-based with telemetry in data, T = 2 µs at 100 Gb/s
/// (0.64 ns a cycle), 32 work requests per flow (the NIC's default).
pub fn host_params() -> HostParams {
    let cc = CcParams {
        base_rtt_ns: 2000.0,
        line_rate_gbps: 100.0,
        flows: 128,
        ..CcParams::default()
    };
    HostParams {
        mtu_log2: MTU_LOG2,
        rto: 1_000_000,
        probe_t: 1_000_000,
        sched_cap: 4096,
        ns_per_cycle: (0.64 * 65536.0) as u32,
        cc: cc.regs().unwrap(),
        tlm_data: true,
        cc_variant: VariantPlan::All(nic_golden::cc::params::Variant::Sender),
        dma_latency: 4,
        stall: 0.0,
        ring: 32,
        post_from: 400,
        rx_pause: None,
        tx_ctl_share: nic_spec::roce::TX_CTL_SHARE_DEFAULT as u8,
    }
}

/// Run `cfg` on two golden cores of 128 flows, 32 work requests each and
/// the `hpcc_nic` top's 16 KiB receive buffer (the NIC's default size,
/// `nic_hdl::top::HpccNic128`).
pub fn run(cfg: &LineRateCfg) -> LineRate {
    let mut t0 = NicCore::<7, 5, 11>::default();
    let mut t1 = NicCore::<7, 5, 11>::default();
    run_on(
        cfg,
        32,
        11,
        [Box::new(|i: &In| t0.step(i)), Box::new(|i: &In| t1.step(i))],
    )
}

/// Run `cfg` (at most 6 flows) on two RTL cores as `netsim`'s RTL hosts
/// run them (`hpcc_nic_core`: 8 flows × 8 work requests, an 8 KiB
/// receive buffer) on Verilator, each with its golden twin in lockstep:
/// any difference at any port on any cycle panics.
pub fn run_rtl(cfg: &LineRateCfg) -> LineRate {
    use crate::core_env::SIM_RX_BUF_LOG2;
    use crate::net::run::RtlCore;
    use nic_engines::roce::pipes::{engine_for, Lockstep};
    assert!(cfg.flows <= 6, "the RTL core keeps QPs 2..7");
    let mut nics = [0, 1].map(|_| {
        Lockstep::new(
            engine_for::<RtlCore>(nic_engines::EngineKind::Verilator, None),
            NicCore::<3, 3, SIM_RX_BUF_LOG2>::default(),
            "hpcc_nic_core",
        )
    });
    let [n0, n1] = &mut nics;
    run_on(
        cfg,
        8,
        SIM_RX_BUF_LOG2 as u32,
        [Box::new(|i: &In| n0.step(i)), Box::new(|i: &In| n1.step(i))],
    )
}

/// Run `cfg` on the cores `nics` (golden, RTL, or both in lockstep),
/// whose flows keep `ring` work requests each.
pub fn run_on(
    cfg: &LineRateCfg,
    ring: u32,
    rx_buf_log2: u32,
    nics: [crate::core_env::CoreFn<'_>; 2],
) -> LineRate {
    assert!(cfg.flows >= 1 && !cfg.sizes.is_empty() && cfg.messages >= 1);
    let rx_pause = cfg.pause.then(|| {
        RxPauseRegs::for_link(rx_buf_log2, MTU_LOG2, 2 * cfg.link_delay)
            .expect("the buffer has room for the link's pause headroom")
    });
    let p = HostParams {
        ring,
        rx_pause,
        ..host_params()
    };
    let w = plan(5, cfg.flows, 0, 8, 0, 0, 1 << MTU_LOG2);
    let max = *cfg.sizes.iter().max().unwrap();
    let wrs: Vec<PlannedWr> = (0..cfg.messages)
        .map(|k| PlannedWr {
            wr: WorkReq {
                flow: FIRST_QP + k % cfg.flows,
                opcode: wr::WRITE,
                laddr: 0,
                va: 0,
                rkey: 0,
                len: cfg.sizes[k as usize % cfg.sizes.len()],
                tag: k,
            },
            status: Status::Ok,
        })
        .collect();
    let hosts = [0, 1].map(|n| {
        let mut h = CoreHost::new(
            p,
            vec![n as u8 + 1; max as usize + 64],
            config_script(&p, &w.flows[n]),
            if n == 1 && cfg.one_way { &[] } else { &wrs },
            n as u64 + 1,
        );
        h.pace_wire = true;
        h.dma_wr_share = cfg.dma_wr_share;
        h
    });
    let mut pair = CorePair::new(
        hosts,
        nics,
        LinkCfg {
            delay: cfg.link_delay,
            loss: 0.0,
            ce: 0.0,
            corrupt: 0.0,
        },
        9,
    );
    pair.wire = Some(Vec::new());
    let finished = pair.run(200_000_000);
    let wire = pair.wire.take().unwrap();
    let dir = [0, 1].map(|n| {
        let o = &pair.last[n];
        let mut d = direction(&wire, n, frames_needed(&wrs));
        d.drop_full = pair.last[1 - n].stats_parse.drop_full;
        d.pauses = pair.hosts[1 - n].pauses_sent;
        d.pause_cycles = pair.last[1 - n].stats_core.pause_cycles;
        d.timeouts = o.stats_req.timeouts;
        d.naks = o.stats_req.naks;
        d
    });
    for h in &pair.hosts {
        assert!(h.errors.is_empty(), "line-rate run: {:?}", h.errors);
    }
    LineRate {
        finished,
        cycles: pair.now,
        dir,
    }
}

/// The data frames `wrs` need (a message up to the MTU is one frame).
fn frames_needed(wrs: &[PlannedWr]) -> u64 {
    wrs.iter()
        .map(|w| (w.wr.len as u64).div_ceil(1 << MTU_LOG2).max(1))
        .sum()
}

/// NIC `n`'s direction as its frames on the wire show it (the fills, the
/// frame counts, the goodput); the counters are the caller's.
fn direction(wire: &[WireFrame], n: usize, frames_needed: u64) -> Direction {
    let mine: Vec<_> = wire.iter().filter(|f| f.from == n).collect();
    let is_data = |f: &Vec<u8>| f.len() > BTH_OFF && carries_payload(f[BTH_OFF]);
    let data: Vec<_> = mine.iter().filter(|f| is_data(&f.frame)).collect();
    let (Some(first), Some(last)) = (data.first(), data.last()) else {
        return Direction::default();
    };
    let end = last.time as f64 + wire_bytes(last.frame.len()) as f64 / 8.0;
    let span = end - first.time as f64;
    let in_span: Vec<_> = mine
        .iter()
        .filter(|f| f.time >= first.time && (f.time as f64) < end)
        .collect();
    let fill = |fs: &mut dyn Iterator<Item = &Vec<u8>>| {
        fs.map(|f| wire_bytes(f.len()) as f64 / 8.0).sum::<f64>() / span
    };
    Direction {
        span: span.ceil() as u64,
        frames: in_span.len() as u64,
        data_frames: data.len() as u64,
        wire_fill: fill(&mut in_span.iter().map(|f| &f.frame)),
        data_fill: fill(&mut data.iter().map(|f| &f.frame)),
        goodput: frames_needed as f64 / data.len() as f64,
        ..Direction::default()
    }
}

/// The whole NIC (`hpcc_nic`: the host interface and the core) as the
/// twin of 128 flows × 32 work requests with `hpcc_nic`'s 16 KiB buffer.
pub type NicTwin = nic_golden::nic::nic::HpccNic<7, 5, 11, 0, 1, 4>;
/// The emitted `hpcc_nic` of the co-simulation tests (8 flows × 8 work
/// requests, an 8 KiB buffer, 4 CQs) and its twin.
pub type NicRtlSmall =
    nic_hdl::nic::HpccNic<3, 3, 6, { crate::core_env::SIM_RX_BUF_LOG2 }, 2, 4, 4>;
pub type NicTwinSmall =
    nic_golden::nic::nic::HpccNic<3, 3, { crate::core_env::SIM_RX_BUF_LOG2 }, 2, 4, 4>;

/// [`run`] on two whole NICs, through their host interfaces: each
/// driver writes its WRITEs into send queues in host memory, rings
/// doorbells over AXI4-Lite (16 entries a doorbell), serves the NIC's DMA
/// and reads the completions. The MAC side is paced by the wire as in
/// [`run`]; the host takes every DMA write at once (no `dma_wr_share`, no
/// pause). `rtl`: the emitted `hpcc_nic` on Verilator with its twin in
/// lockstep (any difference at any port on any cycle panics), at most 6
/// flows; otherwise the 128-flow twins.
pub fn run_nic(cfg: &LineRateCfg, rtl: bool) -> LineRate {
    use nic_golden::nic::nic::In as NicIn;
    assert!(
        !cfg.pause && cfg.dma_wr_share == 1.0,
        "run_nic: the host is always ready"
    );
    if rtl {
        use nic_engines::roce::pipes::{engine_for, Lockstep};
        assert!(cfg.flows <= 6, "the RTL NIC keeps QPs 2..7");
        let mut nics = [0, 1].map(|n| {
            Lockstep::new(
                engine_for::<NicRtlSmall>(nic_engines::EngineKind::Verilator, None),
                NicTwinSmall::default(),
                ["hpcc_nic 0", "hpcc_nic 1"][n],
            )
        });
        let [n0, n1] = &mut nics;
        let r = run_nic_on(
            cfg,
            (3, 3, 4, 8, 4, 4),
            [
                Box::new(|i: &NicIn| n0.step(i)),
                Box::new(|i: &NicIn| n1.step(i)),
            ],
        );
        let core = |n: usize| nics[n].golden.core();
        r.counted(core(0), core(1))
    } else {
        let mut t = [NicTwin::default(), NicTwin::default()];
        let [t0, t1] = &mut t;
        let r = run_nic_on(
            cfg,
            (7, 10, 12, 32, 1, 16),
            [
                Box::new(|i: &NicIn| t0.step(i)),
                Box::new(|i: &NicIn| t1.step(i)),
            ],
        );
        r.counted(t[0].core(), t[1].core())
    }
}

/// A whole-NIC run before its counters are read from the twins' cores.
struct NicRun {
    r: LineRate,
}

impl NicRun {
    fn counted<const A: usize, const Q: usize, const B: usize, const H: usize>(
        mut self,
        c0: &NicCore<A, Q, B, H>,
        c1: &NicCore<A, Q, B, H>,
    ) -> LineRate {
        let cores = [c0, c1];
        for n in 0..2 {
            let d = &mut self.r.dir[n];
            d.drop_full = cores[1 - n].rx_view().parse.stats.drop_full;
            let s = cores[n].requester().stats();
            d.timeouts = s.timeouts;
            d.naks = s.naks;
        }
        self.r
    }
}

/// [`run_nic`] on `nics`, whose drivers have (log2 flows, log2 send-queue
/// entries, log2 completion-queue entries, work requests per flow in the
/// core, completion queues, work requests per doorbell).
fn run_nic_on(
    cfg: &LineRateCfg,
    (flows_log, sq_log, cq_log, ring, cqs, batch): (u32, u8, u8, u32, u32, u32),
    nics: [crate::core_env::NicFn<'_, nic_golden::nic::nic::In, nic_golden::nic::nic::Out>; 2],
) -> NicRun {
    use crate::core_env::Pair;
    use crate::driver::{DriverParams, NicHost};
    assert!(cfg.flows >= 1 && !cfg.sizes.is_empty() && cfg.messages >= 1);
    let p = DriverParams {
        core: HostParams {
            ring,
            ..host_params()
        },
        flows_log,
        sq_log,
        cq_log,
        cqs,
        mod_count: 1,
        mod_time: 0,
        batch,
        axil_pause: 0.0,
        dma_err: 0.0,
        bad_input: false,
        watchdog: Default::default(),
    };
    let w = plan(5, cfg.flows, 0, 8, 0, 0, 1 << MTU_LOG2);
    let max = *cfg.sizes.iter().max().unwrap() as u64;
    // Each message reads and lands in one of 16 buffers of the largest
    // size, round robin.
    let wrs: Vec<PlannedWr> = (0..cfg.messages)
        .map(|k| PlannedWr {
            wr: WorkReq {
                flow: FIRST_QP + k % cfg.flows,
                opcode: wr::WRITE,
                laddr: (k as u64 % 16) * max,
                va: (k as u64 % 16) * max,
                rkey: 0,
                len: cfg.sizes[k as usize % cfg.sizes.len()],
                tag: k,
            },
            status: Status::Ok,
        })
        .collect();
    let hosts = [0, 1].map(|n| {
        let mine: &[PlannedWr] = if n == 1 && cfg.one_way { &[] } else { &wrs };
        let mut h = NicHost::new(
            p,
            vec![n as u8 + 1; 16 * max as usize + 64],
            &w.flows[n],
            mine,
            n as u64 + 1,
        );
        h.pace_wire = true;
        h
    });
    let mut pair: Pair<'_, NicHost> = Pair::new(
        hosts,
        nics,
        LinkCfg {
            delay: cfg.link_delay,
            loss: 0.0,
            ce: 0.0,
            corrupt: 0.0,
        },
        9,
    );
    pair.wire = Some(Vec::new());
    let finished = pair.run(200_000_000);
    let wire = pair.wire.take().unwrap();
    let dir = [0, 1].map(|n| direction(&wire, n, frames_needed(&wrs)));
    for h in &pair.hosts {
        assert!(h.errors.is_empty(), "line-rate run: {:?}", h.errors);
    }
    NicRun {
        r: LineRate {
            finished,
            cycles: pair.now,
            dir,
        },
    }
}
