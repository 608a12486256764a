//! The network in motion: NIC cores with their hosts, switches, links,
//! stepped together one NIC cycle at a time.
//!
//! Each host is a [`CoreHost`] (configuration through the register map,
//! work requests from its [`FlowWork`], DMA served from host memory)
//! driving one NIC core ([`nic_for`]): the golden core, or for the
//! hosts of `rtl_hosts` the RTL `hpcc_nic_core` on Verilator with the
//! golden core in lockstep (any difference at any port stops the run),
//! or that core's twin alone on the golden engine.
//! A host keeps a QP per flow it sends or receives, or with `nic.qp =
//! "peer"` one per peer (`FIRST_QP` + k for its k-th, [`host_setup`]),
//! and its core is configured with a flow context per QP.
//!
//! A NIC's frames reach its switch `delay` cycles after their last beat
//! (the NIC sends 8 bytes a cycle: the host link's rate, see
//! [`scenario`](crate::net::scenario)); its next frame starts when the
//! wire time of the last (`nic_spec::mac::wire_bytes`: padding, FCS,
//! preamble and gap) is over (`CoreHost::pace_wire`). A switch port's
//! frames reach its peer `delay` cycles after their wire time at the
//! port's rate. A pause
//! from a switch reaches its upstream after the link's delay; a paused
//! NIC's MAC-side `tx_tready` is low.
//!
//! Every `sample` cycles the run records each switch port's queue and
//! bytes sent, each connection's bytes on the wire and its latest W and
//! R (the UPDATEs its sender's scheduler takes): [`NetResult`].

use crate::core_env::{
    config_script, CoreHost, FlowSpec, HostParams, RxPauseRegs, VariantPlan, FIRST_QP,
    SIM_RX_BUF_LOG2,
};
use crate::net::scenario::{Plan, QpMap};
use crate::net::switch::{PauseOut, PortCfg, PortStats, Switch, SwitchCfg};
use crate::net::topo::{host_ip, host_mac, host_of_ip, Peer};
use crate::net::work::{FlowPlan, FlowWork};
use nic_golden::cc::params::rate_code;
use nic_golden::nic::core::{In, NicCore, Out};
use nic_golden::sched::SchedEvent;
use nic_golden::Cycle;
use nic_spec::regs;
use nic_spec::roce::{carries_payload, BTH_OFF};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::collections::{BTreeMap, VecDeque};

/// Bytes of a WRITE work request at most.
pub const CHUNK: u32 = 64 * 1024;
/// Cycles for the hosts to write their configuration before flows start
/// (time 0 of the scenario).
pub const T0: u64 = 2000;

/// A NIC core as the network steps it.
pub trait NicModel {
    fn step(&mut self, i: &In) -> Out;
    /// The event the scheduler took this cycle (W and R of UPDATEs).
    fn sched_event(&self) -> Option<SchedEvent>;
    /// "golden" or the RTL engine's name.
    fn engine(&self) -> &'static str;
    /// The most words its receive buffer has held (the twin's).
    fn rx_buffer_peak(&self) -> u16;
}

impl<const A: usize, const Q: usize, const B: usize> NicModel for NicCore<A, Q, B> {
    fn step(&mut self, i: &In) -> Out {
        Cycle::step(self, i)
    }
    fn sched_event(&self) -> Option<SchedEvent> {
        NicCore::sched_event(self)
    }
    fn rx_buffer_peak(&self) -> u16 {
        NicCore::rx_buffer_peak(self)
    }
    fn engine(&self) -> &'static str {
        if B == SIM_RX_BUF_LOG2 {
            "golden hpcc_nic_core"
        } else {
            "golden"
        }
    }
}

impl<H, const A: usize, const Q: usize, const B: usize> NicModel
    for nic_engines::roce::pipes::Lockstep<H, NicCore<A, Q, B>>
where
    H: nic_engines::Harness<In = In, Out = Out>,
{
    fn step(&mut self, i: &In) -> Out {
        nic_engines::roce::pipes::Lockstep::step(self, i)
    }
    fn sched_event(&self) -> Option<SchedEvent> {
        self.golden.sched_event()
    }
    fn rx_buffer_peak(&self) -> u16 {
        self.golden.rx_buffer_peak()
    }
    fn engine(&self) -> &'static str {
        "verilator+golden"
    }
}

/// The RTL NIC core the RTL hosts run (`hpcc_nic_core`, 8 flows).
pub type RtlCore = nic_hdl::nic::NicCore<3, 3, 6, SIM_RX_BUF_LOG2>;

/// The NIC of a host: for the hosts of `rtl_hosts`, the configuration
/// of the emitted `hpcc_nic_core` (8 flows, an 8 KiB receive buffer): on
/// Verilator with its golden twin in lockstep if `verilator`, else the
/// twin alone. Other hosts get the golden core with the receive buffer of
/// the `hpcc_nic` top (16 KiB) and 8, 64 or 256 flows (as their QPs
/// need; the plan refuses more than `scenario::QPS_MAX`).
pub fn nic_for(rtl_host: bool, verilator: bool, qps: usize, rx_buf_log2: u32) -> Box<dyn NicModel> {
    let flows = qps + FIRST_QP as usize;
    /// A golden core of 2^A flows and the buffer of `rx_buf_log2`.
    macro_rules! golden {
        ($a:literal) => {
            match rx_buf_log2 {
                11 => Box::new(NicCore::<$a, 3, 11>::default()),
                12 => Box::new(NicCore::<$a, 3, 12>::default()),
                13 => Box::new(NicCore::<$a, 3, 13>::default()),
                b => panic!("no golden host with a 2^{b}-word buffer (the plan allows 11..=13)"),
            }
        };
    }
    match (rtl_host, verilator) {
        (true, true) => Box::new(nic_engines::roce::pipes::Lockstep::new(
            nic_engines::roce::pipes::engine_for::<RtlCore>(
                nic_engines::EngineKind::Verilator,
                None,
            ),
            NicCore::<3, 3, SIM_RX_BUF_LOG2>::default(),
            "hpcc_nic_core",
        )),
        (true, false) => Box::new(NicCore::<3, 3, SIM_RX_BUF_LOG2>::default()),
        _ if flows <= 1 << 3 => golden!(3),
        _ if flows <= 1 << 6 => golden!(6),
        _ => golden!(8),
    }
}

/// A sender → receiver pair of hosts that has flows, and the QP of its
/// first flow at the sender (with a QP per flow, its other flows have
/// QPs of their own; the pair's figures add them all up).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Conn {
    pub src: usize,
    pub dst: usize,
    pub qp: u32,
}

/// A frame at a host's link, for pcaps.
#[derive(Clone, Debug)]
pub struct HostFrame {
    pub cycle: u64,
    /// Sent by the host (else received).
    pub out: bool,
    pub frame: Vec<u8>,
}

#[derive(Debug, Default)]
pub struct NetResult {
    /// Cycles run (from cycle 0; the scenario's time 0 is [`T0`]).
    pub cycles: u64,
    /// Every flow done before the duration ran out.
    pub finished: bool,
    pub ports: Vec<String>,
    /// Bytes a cycle of each port.
    pub port_rate: Vec<f64>,
    pub port_stats: Vec<PortStats>,
    /// Cycle of each sample.
    pub samples: Vec<u64>,
    /// `queue[port][sample]`, bytes.
    pub queue: Vec<Vec<u32>>,
    /// `port_tx[port][sample]`: bytes sent so far.
    pub port_tx: Vec<Vec<u64>>,
    pub conns: Vec<Conn>,
    /// `conn_tx[conn][sample]`: bytes its sender put on the wire so far.
    pub conn_tx: Vec<Vec<u64>>,
    /// W (bytes) and R (Gb/s) of each connection at each sample (0 before
    /// its first UPDATE).
    pub conn_w: Vec<Vec<f32>>,
    pub conn_r: Vec<Vec<f32>>,
    /// Per flow: (cycle of its first work request, cycle of its last
    /// completion).
    pub flow_times: Vec<(Option<u64>, Option<u64>)>,
    /// Drops and pauses sent by all switches so far, at each sample.
    pub drops_t: Vec<u64>,
    pub pauses_t: Vec<u64>,
    /// Cycles each host's Tx was paused.
    pub host_paused: Vec<u64>,
    pub unroutable: u64,
    /// Frames the switch ports sent (packets simulated).
    pub frames: u64,
    /// Frames the NICs sent.
    pub nic_frames: u64,
    pub errors: Vec<String>,
    pub pcap: BTreeMap<usize, Vec<HostFrame>>,
    /// What each host ran.
    pub engines: Vec<&'static str>,
    /// Each NIC's outputs in the last cycle (its counters).
    pub last: Vec<Out>,
    /// The most words each NIC's receive buffer held.
    pub rx_peak: Vec<u16>,
    /// Each NIC's link pause: its registers (`None`: off, its buffer has
    /// no room for its link's headroom) and the PAUSE frames it sent.
    pub rx_pause: Vec<Option<RxPauseRegs>>,
    pub pauses_sent: Vec<u64>,
}

/// log2 words of host `h`'s receive buffer: the plan's for golden hosts
/// (`nic.rx_buffer_kb`), [`SIM_RX_BUF_LOG2`]'s for RTL hosts.
pub fn rx_buf_log2(plan: &Plan, h: usize) -> u32 {
    if plan.rtl_hosts.contains(&h) {
        SIM_RX_BUF_LOG2 as u32
    } else {
        plan.rx_buf_log2
    }
}

/// Flow contexts, QP tables and work of every host.
pub struct HostSetup {
    /// Each host's QPs: local QP → (peer, the peer's QP).
    pub qps: Vec<BTreeMap<u32, (usize, u32)>>,
    /// Each flow's QP at its sender (by flow id).
    pub flow_qp: Vec<u32>,
    pub specs: Vec<Vec<FlowSpec>>,
    pub work: Vec<FlowWork>,
}

/// QPs by `plan.scenario.nic.qp`: a QP pair per flow, or per pair of
/// hosts (both directions on it), numbered `FIRST_QP` + k on each host in
/// flow order; each QP's send PSN drawn from the scenario's seed.
pub fn host_setup(plan: &Plan) -> HostSetup {
    let n = plan.topo.hosts;
    let mut qps: Vec<BTreeMap<u32, (usize, u32)>> = vec![BTreeMap::new(); n];
    // (host, peer) → its QP for that peer (per-peer QPs only).
    let mut of_peer: BTreeMap<(usize, usize), u32> = BTreeMap::new();
    let mut flow_qp = vec![0; plan.flows.len()];
    for f in &plan.flows {
        let (a, b) = (f.src, f.dst);
        let shared = plan.scenario.nic.qp == QpMap::Peer;
        flow_qp[f.id] = match of_peer.get(&(a, b)) {
            Some(&q) if shared => q,
            _ => {
                let qa = FIRST_QP + qps[a].len() as u32;
                let qb = FIRST_QP + qps[b].len() as u32;
                qps[a].insert(qa, (b, qb));
                qps[b].insert(qb, (a, qa));
                of_peer.insert((a, b), qa);
                of_peer.insert((b, a), qb);
                qa
            }
        };
    }
    let mut rng = StdRng::seed_from_u64(plan.scenario.seed ^ 0x95);
    // Send PSN of each (host, QP).
    let mut psn: BTreeMap<(usize, u32), u32> = BTreeMap::new();
    for (a, local) in qps.iter().enumerate() {
        for &q in local.keys() {
            psn.insert((a, q), rng.gen_range(0..1 << 24));
        }
    }
    let specs = (0..n)
        .map(|a| {
            qps[a]
                .iter()
                .map(|(&q, &(b, qb))| FlowSpec {
                    flow: q,
                    dmac: host_mac(b),
                    smac: host_mac(a),
                    sip: host_ip(a),
                    dip: host_ip(b),
                    sport: 0xC000
                        | ((a as u16).wrapping_mul(0x9E3).wrapping_add(q as u16) & 0x3FFF),
                    dqp: qb,
                    send_psn: psn[&(a, q)],
                    recv_psn: psn[&(b, qb)],
                    pd: 0,
                    region: None,
                })
                .collect()
        })
        .collect();
    let work = (0..n)
        .map(|a| {
            let plans = plan
                .flows
                .iter()
                .filter(|f| f.src == a)
                .map(|f| FlowPlan {
                    id: f.id,
                    qp: flow_qp[f.id],
                    size: f.size,
                    start: T0 + f.start,
                    stop: T0 + f.stop,
                })
                .collect();
            FlowWork::new(plans, CHUNK, 8)
        })
        .collect();
    HostSetup {
        qps,
        flow_qp,
        specs,
        work,
    }
}

/// The host parameters of every NIC.
pub fn host_params(plan: &Plan) -> HostParams {
    HostParams {
        mtu_log2: plan.scenario.cc.mtu.trailing_zeros() as u8,
        rto: plan.rto,
        probe_t: plan.probe_t,
        sched_cap: 4096,
        ns_per_cycle: (plan.ns_per_cycle * 65536.0).round() as u32,
        cc: plan.cc_regs,
        cc_variant: match plan.dcqcn {
            Some(d) => VariantPlan::Dcqcn(d),
            None => VariantPlan::All(plan.cc.variant),
        },
        tlm_data: plan.tlm_data,
        dma_latency: plan.dma_latency,
        stall: 0.0,
        ring: 8,
        post_from: 0,
        rx_pause: None,
        tx_ctl_share: nic_spec::roce::TX_CTL_SHARE_DEFAULT as u8,
    }
}

/// Run `plan`; `progress(cycle, of, flows done, flows)` every 2^14 cycles.
pub fn run(plan: &Plan, progress: &mut dyn FnMut(u64, u64, usize, usize)) -> NetResult {
    let topo = &plan.topo;
    let sc = &plan.scenario;
    let n = topo.hosts;
    let setup = host_setup(plan);
    let p = host_params(plan);
    let cyc = |ns: f64| (ns / plan.ns_per_cycle).round() as u64;
    let mut mem_rng = StdRng::seed_from_u64(sc.seed ^ 0x3E3);
    let mem: Vec<u8> = (0..CHUNK as usize + 8).map(|_| mem_rng.gen()).collect();
    let ecn = sc.switch.ecn;
    // Each host's link pause: on when its receive buffer has room for the
    // headroom of its link (`nic_spec::roce::rx_pause_headroom_words`).
    let rx_pause: Vec<Option<RxPauseRegs>> = (0..n)
        .map(|h| {
            let (s, k) = topo.uplink[h];
            let l = &topo.switches[s][k];
            let words_per_cycle = l.gbps / 64.0 * plan.ns_per_cycle;
            let rtt_words = (2.0 * cyc(l.delay_ns) as f64 * words_per_cycle).ceil() as u64;
            RxPauseRegs::for_link(rx_buf_log2(plan, h), p.mtu_log2, rtt_words)
        })
        .collect();
    let mut hosts: Vec<CoreHost> = (0..n)
        .map(|h| {
            let p = HostParams {
                rx_pause: rx_pause[h],
                ..p
            };
            let mut cfg = config_script(&p, &setup.specs[h]);
            if ecn {
                // ECN-capable transport (ECT(0)), so switches can mark.
                for w in cfg.iter_mut().filter(|w| w.addr == regs::FLOW_TOS) {
                    w.data = 2;
                }
            }
            let mut host = CoreHost::with_work(
                p,
                mem.clone(),
                cfg,
                setup.work[h].clone(),
                sc.seed ^ h as u64,
            );
            host.pace_wire = true;
            host.dma_wr_share = plan.dma_wr_share;
            host
        })
        .collect();
    let mut nics: Vec<Box<dyn NicModel>> = (0..n)
        .map(|h| {
            nic_for(
                plan.rtl_hosts.contains(&h),
                plan.scenario.nic.engine == crate::net::scenario::NicEngine::Verilator,
                setup.qps[h].len(),
                rx_buf_log2(plan, h),
            )
        })
        .collect();
    let (kmin, kmax) = sc.ecn_kb();
    let scfg = SwitchCfg {
        buffer: (sc.switch.buffer_kb * 1024.0) as u64,
        per_port: sc.switch.buffer == crate::net::scenario::BufferKind::PerPort,
        ecn: ecn.then_some(crate::net::switch::Ecn {
            kmin: (kmin * 1024.0) as u64,
            kmax: (kmax * 1024.0) as u64,
            pmax: sc.switch.ecn_pmax,
        }),
        pfc: (sc.switch.mode == crate::net::scenario::Loss::Lossless).then_some(
            crate::net::switch::Pfc {
                xoff: (sc.switch.pfc_xoff_kb * 1024.0) as u64,
                xon: (sc.switch.pfc_xon_kb * 1024.0) as u64,
            },
        ),
        int_multi: plan.cc.int_multi,
        ns_per_cycle: plan.ns_per_cycle,
    };
    let mut switches: Vec<Switch> = topo
        .switches
        .iter()
        .enumerate()
        .map(|(s, ports)| {
            let pc = ports
                .iter()
                .map(|l| PortCfg {
                    bytes_per_cycle: l.gbps / 8.0 * plan.ns_per_cycle,
                    delay: cyc(l.delay_ns),
                    rate_code: rate_code(l.gbps).expect("checked by the plan"),
                })
                .collect();
            Switch::new(
                scfg,
                pc,
                topo.routes[s].clone(),
                sc.seed ^ (s as u64 + 1) * 0x51,
            )
        })
        .collect();
    // Port index: (switch, port) → flat.
    let mut flat: Vec<Vec<usize>> = Vec::new();
    let mut names = Vec::new();
    let mut rates = Vec::new();
    for (s, ports) in topo.switches.iter().enumerate() {
        flat.push((names.len()..names.len() + ports.len()).collect());
        for (k, l) in ports.iter().enumerate() {
            names.push(topo.port_name(s, k));
            rates.push(l.gbps / 8.0 * plan.ns_per_cycle);
        }
    }
    let mut conns: Vec<Conn> = Vec::new();
    let mut conn_of: BTreeMap<(usize, usize), usize> = BTreeMap::new();
    // (host, local QP) → connection, for the W and R of its UPDATEs.
    let mut conn_of_qp: BTreeMap<(usize, u32), usize> = BTreeMap::new();
    for f in &plan.flows {
        let c = *conn_of.entry((f.src, f.dst)).or_insert_with(|| {
            conns.push(Conn {
                src: f.src,
                dst: f.dst,
                qp: setup.flow_qp[f.id],
            });
            conns.len() - 1
        });
        conn_of_qp.insert((f.src, setup.flow_qp[f.id]), c);
    }
    let mut r = NetResult {
        ports: names,
        port_rate: rates,
        conns: conns.clone(),
        queue: vec![Vec::new(); flat.iter().map(Vec::len).sum()],
        port_tx: vec![Vec::new(); flat.iter().map(Vec::len).sum()],
        conn_tx: vec![Vec::new(); conns.len()],
        conn_w: vec![Vec::new(); conns.len()],
        conn_r: vec![Vec::new(); conns.len()],
        host_paused: vec![0; n],
        engines: nics.iter().map(|m| m.engine()).collect(),
        last: vec![Out::default(); n],
        ..Default::default()
    };
    for &h in &sc.output.pcap_hosts {
        r.pcap.insert(h, Vec::new());
    }
    let mut conn_bytes = vec![0u64; conns.len()];
    let mut conn_wr = vec![(0f32, 0f32); conns.len()];
    let host_delay: Vec<u64> = (0..n)
        .map(|h| {
            let (s, p) = topo.uplink[h];
            cyc(topo.switches[s][p].delay_ns)
        })
        .collect();
    let mut host_wire: Vec<VecDeque<(u64, Vec<u8>)>> = vec![VecDeque::new(); n];
    // The NICs' PAUSE frames on their way to their switch ports (arrival,
    // quanta), and when each port's pause runs out.
    let mut nic_pause_line: Vec<VecDeque<(u64, u16)>> = vec![VecDeque::new(); n];
    let mut nic_pause_end: Vec<Option<u64>> = vec![None; n];
    let mut lines = PauseLines {
        host: vec![VecDeque::new(); n],
        port: topo
            .switches
            .iter()
            .map(|p| vec![VecDeque::new(); p.len()])
            .collect(),
    };
    let mut pauses: Vec<PauseOut> = Vec::new();
    let end = T0 + plan.cycles;
    let nflows = plan.flows.len();
    let mut now = 0u64;
    let gbps_per_byte_cycle = 8.0 / plan.ns_per_cycle;
    loop {
        // Frames and pauses that arrive now.
        for s in 0..switches.len() {
            for k in 0..switches[s].ports.len() {
                while let Some(f) = switches[s].pop_arrived(k, now) {
                    r.frames += 1;
                    match topo.switches[s][k].peer {
                        Peer::Host(h) => {
                            if let Some(v) = r.pcap.get_mut(&h) {
                                v.push(HostFrame {
                                    cycle: now,
                                    out: false,
                                    frame: f.clone(),
                                });
                            }
                            hosts[h].receive(f);
                        }
                        Peer::Switch(t, q) => {
                            switches[t].receive(q, f, &mut pauses);
                            lines.send(t, &mut pauses, topo, &switches[t], now);
                        }
                    }
                }
                while lines.port[s][k].front().is_some_and(|e| e.0 <= now) {
                    let (_, on) = lines.port[s][k].pop_front().unwrap();
                    switches[s].ports[k].paused = on;
                }
            }
        }
        for h in 0..n {
            let (s, k) = topo.uplink[h];
            while host_wire[h].front().is_some_and(|e| e.0 <= now) {
                let (_, f) = host_wire[h].pop_front().unwrap();
                switches[s].receive(k, f, &mut pauses);
            }
            lines.send(s, &mut pauses, topo, &switches[s], now);
            // A NIC's PAUSE holds the switch port toward it for its quanta
            // (512 bit times each at the port's rate), or until an XON.
            while nic_pause_line[h].front().is_some_and(|e| e.0 <= now) {
                let (_, q) = nic_pause_line[h].pop_front().unwrap();
                let port = &mut switches[s].ports[k];
                port.paused = q > 0;
                nic_pause_end[h] = (q > 0)
                    .then(|| now + (q as f64 * 64.0 / port.cfg.bytes_per_cycle).ceil() as u64);
            }
            if nic_pause_end[h].is_some_and(|e| e <= now) {
                switches[s].ports[k].paused = false;
                nic_pause_end[h] = None;
            }
            while lines.host[h].front().is_some_and(|e| e.0 <= now) {
                hosts[h].paused = lines.host[h].pop_front().unwrap().1;
            }
        }
        for s in 0..switches.len() {
            switches[s].serve(now, &mut pauses);
            lines.send(s, &mut pauses, topo, &switches[s], now);
        }
        // The NICs.
        for h in 0..n {
            if hosts[h].paused {
                r.host_paused[h] += 1;
            }
            let i = hosts[h].inputs(now);
            let o = nics[h].step(&i);
            r.last[h] = o;
            if let Some(e) = nics[h].sched_event() {
                if e.op == nic_spec::sched::OP_UPDATE {
                    if let Some(&c) = conn_of_qp.get(&(h, e.flow)) {
                        conn_wr[c] = (
                            e.b as f32 / 256.0,
                            (e.a as f64 / (1u64 << 24) as f64 * gbps_per_byte_cycle) as f32,
                        );
                    }
                }
            }
            if let Some(f) = hosts[h].take(now, &i, &o) {
                r.nic_frames += 1;
                // A connection's bytes: its data frames (not the ACKs
                // and READ requests of the other direction).
                let dst = if f.len() > BTH_OFF && carries_payload(f[BTH_OFF]) {
                    host_of_ip(u32::from_be_bytes(f[30..34].try_into().unwrap()))
                } else {
                    None
                };
                if let Some(&c) = dst.and_then(|d| conn_of.get(&(h, d))) {
                    conn_bytes[c] += f.len() as u64;
                }
                if let Some(v) = r.pcap.get_mut(&h) {
                    v.push(HostFrame {
                        cycle: now,
                        out: true,
                        frame: f.clone(),
                    });
                }
                host_wire[h].push_back((now + 1 + host_delay[h], f));
            }
            while let Some((end, q)) = hosts[h].pause_out.pop_front() {
                nic_pause_line[h].push_back((end + host_delay[h], q));
            }
        }
        if now % plan.sample == 0 && now >= T0 {
            r.samples.push(now);
            let mut k = 0;
            let (mut drops, mut pauses_sent) = (0, 0);
            for sw in &switches {
                for port in &sw.ports {
                    drops += port.stats.drops;
                    pauses_sent += port.stats.pauses_sent;
                    r.queue[k].push(port.queued.min(u32::MAX as u64) as u32);
                    r.port_tx[k].push(port.stats.tx_bytes);
                    k += 1;
                }
            }
            r.drops_t.push(drops);
            r.pauses_t.push(pauses_sent);
            for c in 0..conns.len() {
                r.conn_tx[c].push(conn_bytes[c]);
                r.conn_w[c].push(conn_wr[c].0);
                r.conn_r[c].push(conn_wr[c].1);
            }
            for h in hosts.iter_mut() {
                if let Some(w) = &mut h.work {
                    w.close_long(now);
                }
            }
        }
        now += 1;
        if now % (1 << 14) == 0 {
            let done = hosts
                .iter()
                .filter_map(|h| h.work.as_ref())
                .map(|w| w.state.iter().filter(|s| s.done_at.is_some()).count())
                .sum();
            progress(now.saturating_sub(T0), plan.cycles, done, nflows);
        }
        if now >= end {
            break;
        }
        if now > T0 && now % plan.sample == 1 && hosts.iter().all(|h| h.finished()) {
            r.finished = true;
            break;
        }
    }
    r.cycles = now;
    r.rx_peak = nics.iter().map(|m| m.rx_buffer_peak()).collect();
    r.rx_pause = rx_pause;
    r.pauses_sent = hosts.iter().map(|h| h.pauses_sent).collect();
    r.flow_times = vec![(None, None); nflows];
    for (h, host) in hosts.iter().enumerate() {
        r.errors
            .extend(host.errors.iter().map(|e| format!("host {h}: {e}")));
        if let Some(w) = &host.work {
            for (f, s) in w.flows.iter().zip(&w.state) {
                r.flow_times[f.id] = (s.first_post, s.done_at);
            }
        }
    }
    r.port_stats = switches
        .iter()
        .flat_map(|s| s.ports.iter().map(|p| p.stats))
        .collect();
    r.unroutable = switches.iter().map(|s| s.unroutable).sum();
    r
}

/// Pauses and resumes on their way to a switch's upstreams: (arrival
/// cycle, pause) per host and per switch port, in order (a link's delay is
/// fixed).
struct PauseLines {
    host: Vec<VecDeque<(u64, bool)>>,
    port: Vec<Vec<VecDeque<(u64, bool)>>>,
}

impl PauseLines {
    /// Send the pauses switch `s` made to the peers of their ports.
    fn send(
        &mut self,
        s: usize,
        pauses: &mut Vec<PauseOut>,
        topo: &crate::net::topo::Topology,
        sw: &Switch,
        now: u64,
    ) {
        for p in pauses.drain(..) {
            let at = now + sw.ports[p.port].cfg.delay;
            match topo.switches[s][p.port].peer {
                Peer::Host(h) => self.host[h].push_back((at, p.pause)),
                Peer::Switch(t, q) => self.port[t][q].push_back((at, p.pause)),
            }
        }
    }
}
