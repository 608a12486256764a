//! Closed-loop environment for the flow scheduler: a Tx side with
//! back-pressure (one 8-byte beat per cycle, the 64-bit datapath), a
//! network that acknowledges every data packet after a delay (and can
//! lose packets, answered by a go-back-N rewind), a host that rings
//! doorbells, a CC that sends updates, and a source of bad events.
//!
//! The environment is run against the golden model and, in lockstep, an
//! engine on the RTL; every output port is compared every cycle. Inputs
//! of cycle c depend only on outputs of cycles before c (and on the
//! combinational `ev_ready` of cycle c, which decides whether the offered
//! event was taken), so the loop is the same on every engine.
//!
//! A window monitor checks, at every PktSend, that the flow's bytes in
//! flight (from the PktSends and ACKs at the ports) plus the packet do not
//! exceed the window in force when the send was decided.

use crate::{Engine, Harness};
use nic_golden::sched::flow_sched::{
    FlowSched, In, Out, OP_ACK, OP_ACK_DB, OP_DOORBELL, OP_INIT, OP_REWIND, OP_TRIM, OP_UPDATE,
};
use nic_golden::sched::SchedEvent;
use nic_golden::Cycle;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::collections::VecDeque;

/// Bytes per cycle the Tx side takes (the 64-bit datapath).
pub const LINE_BYTES_PER_CYCLE: f64 = 8.0;

/// UQ8.24 bytes/cycle from a float.
pub fn rate_q(bytes_per_cycle: f64) -> u32 {
    (bytes_per_cycle * (1u64 << 24) as f64).round() as u32
}

/// The environment's knobs. Percentages are per cycle unless noted.
#[derive(Clone, Debug)]
pub struct EnvCfg {
    /// Flows in use: ids 0..flows.
    pub flows: usize,
    pub mtu: u32,
    pub cap: u32,
    pub probe_t: u32,
    /// Per-flow rate (bytes/cycle) and window (bytes) set at start.
    pub rates: Vec<f64>,
    pub window: u32,
    /// Bytes queued per flow at start (doorbell).
    pub backlog: u32,
    /// Cycles from a data PktSend to its ACK.
    pub ack_delay: u64,
    /// Percent of data packets lost (answered by a REWIND).
    pub loss_pct: u32,
    /// Tx ready probability (percent) when not busy.
    pub tx_ready_pct: u32,
    /// Tx is busy one cycle per 8 bytes after a PktSend (the line); if
    /// false, Tx takes a PktSend in every ready cycle (a command queue).
    pub tx_beats: bool,
    /// Random extra events per cycle, percent: doorbell, update, bad.
    pub doorbell_pct: u32,
    pub update_pct: u32,
    pub bad_pct: u32,
    /// ACK and REWIND arguments drawn at random in [una, sent] (percent of
    /// ACKs), instead of the network's exact ones.
    pub wild_ack_pct: u32,
    /// % of ACKs sent as an ACK_DB (`EvMerge`'s merged ACK and DOORBELL)
    /// with 1 to 64 more bytes.
    pub ack_db_pct: u32,
    /// Percent of data PktSends cut short by a TRIM (as the requester
    /// does at a message's end): the rest of it, and every PktSend of the
    /// flow decided before the TRIM took effect, is not sent.
    pub trim_pct: u32,
    pub seed: u64,
}

impl EnvCfg {
    pub fn new(flows: usize, rate_each: f64) -> Self {
        Self {
            flows,
            mtu: 1024,
            cap: 4096,
            probe_t: 0,
            rates: vec![rate_each; flows],
            window: (1 << 24) - 1,
            backlog: 1 << 30,
            ack_delay: 1000,
            loss_pct: 0,
            tx_ready_pct: 100,
            tx_beats: true,
            doorbell_pct: 0,
            update_pct: 0,
            bad_pct: 0,
            wild_ack_pct: 0,
            ack_db_pct: 0,
            trim_pct: 0,
            seed: 1,
        }
    }
}

/// The measurement scenarios, shared by the tests and `make bench`.
impl EnvCfg {
    /// Rate accuracy: `n` backlogged flows at random rates summing to
    /// `frac` of line rate; cap 4 MTU.
    pub fn rate_scenario(n: usize, frac: f64, mtu: u32, seed: u64) -> Self {
        let mut c = Self::new(n, 0.0);
        c.rates = random_rates(n, frac, seed);
        c.mtu = mtu;
        c.cap = 4 * mtu;
        c.ack_delay = 2000;
        c.seed = seed;
        c
    }

    /// The rates as programmed (quantised to UQ8.24), bytes/cycle.
    pub fn programmed_rates(&self) -> Vec<f64> {
        self.rates
            .iter()
            .map(|&r| rate_q(r) as f64 / (1u64 << 24) as f64)
            .collect()
    }

    /// Throughput: 32 flows with ample rate and window, 64-byte packets, a
    /// Tx that takes one PktSend per ready cycle (ready `ready_pct` %), and
    /// no ACKs during the run (they would share the issue slot).
    pub fn throughput_scenario(ready_pct: u32) -> Self {
        let mut c = Self::new(32, 100.0);
        c.mtu = 64;
        c.cap = 1 << 19;
        c.tx_beats = false;
        c.tx_ready_pct = ready_pct;
        c.ack_delay = 1 << 40;
        c.seed = ready_pct as u64;
        c
    }

    /// Fairness: 64 equal-rate flows asking `total` × line rate.
    pub fn fairness_scenario(total: f64) -> Self {
        let mut c = Self::new(64, total * LINE_BYTES_PER_CYCLE / 64.0);
        c.mtu = 512;
        c.cap = 2048;
        c
    }
}

/// One PktSend taken by Tx.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sent {
    /// Cycle taken by Tx, and cycle the scheduler decided it (issue).
    pub cycle: u64,
    pub issue: u64,
    pub flow: u32,
    pub seq: u32,
    pub len: u32,
    pub probe: bool,
    /// Its epoch is the flow's latest (not decided before a REWIND or
    /// TRIM the environment sent), and the bytes it sent (`len`, or up to
    /// the environment's TRIM).
    pub current: bool,
    pub sent_len: u32,
}

#[derive(Clone, Debug, Default)]
struct EnvFlow {
    /// Highest seq + len sent, and cumulative ACK point (the network's view).
    sent: u32,
    acked: u32,
    /// (accept cycle, value) of valid UPDATE windows and ACK points.
    w_hist: Vec<(u64, u32)>,
    una_hist: Vec<(u64, u32)>,
    /// A loss is pending: ACKs stop until the rewind is taken.
    lost_at: Option<u32>,
    /// The epoch of the last INIT, REWIND or TRIM queued: PktSends of
    /// another epoch were decided before it took effect and are not sent.
    epoch: u8,
}

/// Measurements of a run.
#[derive(Clone, Debug, Default)]
pub struct RunStats {
    pub cycles: u64,
    pub sent: Vec<Sent>,
    /// Tx ready, per cycle.
    pub ready: Vec<bool>,
    pub last_out: Out,
    /// Window checks done by the monitor.
    pub window_checks: u64,
}

impl RunStats {
    /// Worst flow's |achieved − programmed| / programmed, `programmed` in
    /// bytes/cycle per flow. A flow's achieved rate is the bytes of its
    /// packets after the first over the time from its first to its last
    /// send decision. Also returns the fewest packets any flow sent.
    pub fn worst_rate_error(&self, programmed: &[f64]) -> (f64, usize) {
        let mut worst = 0.0f64;
        let mut min_pkts = usize::MAX;
        for (k, &r) in programmed.iter().enumerate() {
            let s: Vec<&Sent> = self
                .sent
                .iter()
                .filter(|s| !s.probe && s.flow as usize == k)
                .collect();
            assert!(s.len() >= 3, "flow {k}: {} packets", s.len());
            min_pkts = min_pkts.min(s.len());
            let bytes: u64 = s[1..].iter().map(|x| x.len as u64).sum();
            let span = (s[s.len() - 1].issue - s[0].issue) as f64;
            worst = worst.max((bytes as f64 / span - r).abs() / r);
        }
        (worst, min_pkts)
    }

    /// PktSends taken and Tx-ready cycles from cycle `from` on.
    pub fn sends_and_ready_from(&self, from: u64) -> (usize, usize) {
        let sends = self.sent.iter().filter(|s| s.cycle >= from).count();
        let ready = self.ready[from as usize..].iter().filter(|&&r| r).count();
        (sends, ready)
    }

    /// Jain's index of the data bytes of flows 0..flows in [from, to).
    pub fn jain(&self, flows: usize, from: u64, to: u64) -> f64 {
        let b: Vec<f64> = self
            .bytes_per_flow(flows, from, to)
            .iter()
            .map(|&x| x as f64)
            .collect();
        jain(&b)
    }

    /// Data bytes per flow taken by Tx in cycles [from, to).
    pub fn bytes_per_flow(&self, flows: usize, from: u64, to: u64) -> Vec<u64> {
        let mut b = vec![0u64; flows];
        for s in &self.sent {
            if !s.probe && s.cycle >= from && s.cycle < to && (s.flow as usize) < flows {
                b[s.flow as usize] += s.len as u64;
            }
        }
        b
    }
}

pub struct Env {
    pub cfg: EnvCfg,
    rng: SmallRng,
    flows: Vec<EnvFlow>,
    evq: VecDeque<(u8, u32, u32, u32, bool)>,
    /// (due cycle, flow, seq, NAK).
    acks: VecDeque<(u64, u32, u32, bool)>,
    tx_busy: u32,
    /// Check the window at every send (valid only without wild ACKs,
    /// rewinds or random updates).
    pub monitor: bool,
}

impl Env {
    pub fn new(cfg: EnvCfg) -> Self {
        let mut e = Self {
            rng: SmallRng::seed_from_u64(cfg.seed),
            flows: vec![EnvFlow::default(); cfg.flows],
            evq: VecDeque::new(),
            acks: VecDeque::new(),
            tx_busy: 0,
            monitor: false,
            cfg,
        };
        for f in 0..e.cfg.flows as u32 {
            let base = e.rng.gen::<u32>();
            e.flows[f as usize].sent = base;
            e.flows[f as usize].acked = base;
            e.flows[f as usize].una_hist.push((0, base));
            e.evq.push_back((OP_INIT, f, base, 0, true));
            let r = rate_q(e.cfg.rates[f as usize]);
            e.evq.push_back((OP_UPDATE, f, r, e.cfg.window << 8, true));
            e.evq.push_back((OP_DOORBELL, f, e.cfg.backlog, 0, true));
        }
        e
    }

    /// Queue an event (taken in order, one per cycle at most).
    pub fn push_event(&mut self, op: u8, flow: u32, a: u32, b: u32) {
        self.evq.push_back((op, flow, a, b, false));
    }

    fn random_events(&mut self, cycle: u64) {
        let n = self.cfg.flows as u32;
        let c = &self.cfg;
        if self.rng.gen_range(0..100) < c.doorbell_pct {
            let f = self.rng.gen_range(0..n);
            let bytes = match self.rng.gen_range(0..4) {
                0 => self.rng.gen_range(1..=64),
                1 => self.rng.gen_range(1..=4 * c.mtu.max(1)),
                2 => 0,
                _ => self.rng.gen_range(1..100_000),
            };
            self.evq.push_back((OP_DOORBELL, f, bytes, 0, false));
        }
        if self.rng.gen_range(0..100) < c.update_pct {
            let f = self.rng.gen_range(0..n);
            let r = rate_q(self.rng.gen_range(0.01..4.0));
            let w = match self.rng.gen_range(0..3) {
                0 => self.rng.gen_range(1..4 * c.mtu.max(1)),
                1 => self.rng.gen_range(1..200_000),
                _ => c.window,
            };
            self.evq.push_back((OP_UPDATE, f, r, w << 8, false));
        }
        if self.rng.gen_range(0..100) < c.bad_pct {
            let f = self.rng.gen_range(0..n);
            let fl = &self.flows[f as usize];
            let (sent, acked) = (fl.sent, fl.acked);
            let ev = match self.rng.gen_range(0..8) {
                0 => (OP_DOORBELL, 1024 + self.rng.gen_range(0..30000), 100, 0),
                1 => (OP_DOORBELL, 0xffff, 100, 0),
                2 => (OP_UPDATE, f, 0, 5000 << 8),
                3 => (OP_UPDATE, f, rate_q(1.0), self.rng.gen_range(0..256)),
                4 => (
                    OP_ACK,
                    f,
                    sent.wrapping_add(self.rng.gen_range(1..1 << 20)),
                    0,
                ),
                5 => (
                    OP_ACK,
                    f,
                    acked.wrapping_sub(self.rng.gen_range(1..1 << 20)),
                    0,
                ),
                // Behind una (past nxt is valid up to end: a skip).
                6 => (
                    OP_REWIND,
                    f,
                    acked.wrapping_sub(self.rng.gen_range(1..1 << 20)),
                    0,
                ),
                _ => (self.rng.gen_range(5..8), f, 0, 0),
            };
            self.evq.push_back((ev.0, ev.1, ev.2, ev.3, false));
        }
        // Doorbell overflow attempts now and then.
        if c.bad_pct > 0 && cycle % 997 == 0 {
            let f = self.rng.gen_range(0..n);
            self.evq.push_back((OP_DOORBELL, f, 0x8000_0000, 0, false));
        }
    }

    /// The inputs of the next cycle.
    fn inputs(&mut self, cycle: u64) -> In {
        // Due ACKs go first into the event queue.
        while let Some(&(due, f, seq, nak)) = self.acks.front() {
            if due > cycle {
                break;
            }
            self.acks.pop_front();
            if nak {
                let fl = &mut self.flows[f as usize];
                fl.epoch = fl.epoch.wrapping_add(1);
                self.evq
                    .push_back((OP_REWIND, f, seq, fl.epoch as u32, false));
                continue;
            }
            let fl = &mut self.flows[f as usize];
            if fl.lost_at.is_some() {
                continue;
            }
            let wild =
                self.cfg.wild_ack_pct > 0 && self.rng.gen_range(0..100) < self.cfg.wild_ack_pct;
            let a = if wild {
                let span = fl.sent.wrapping_sub(fl.acked);
                fl.acked.wrapping_add(self.rng.gen_range(0..=span))
            } else {
                seq
            };
            if self.cfg.ack_db_pct > 0 && self.rng.gen_range(0..100) < self.cfg.ack_db_pct {
                let bytes = self.rng.gen_range(1..=64);
                self.evq.push_back((OP_ACK_DB, f, a, bytes, false));
            } else {
                self.evq.push_back((OP_ACK, f, a, 0, false));
            }
        }
        self.random_events(cycle);
        let ready = self.tx_busy == 0 && self.rng.gen_range(0..100) < self.cfg.tx_ready_pct;
        let mut i = In {
            cfg_mtu: self.cfg.mtu,
            cfg_cap: self.cfg.cap,
            cfg_probe_t: self.cfg.probe_t,
            send_ready: ready,
            ..In::default()
        };
        if let Some(&(op, f, a, b, _)) = self.evq.front() {
            i.ev_valid = true;
            i.ev.op = op;
            i.ev.flow = f;
            i.ev.a = a;
            i.ev.b = b;
        }
        i
    }

    /// Observe cycle `cycle`'s outputs for inputs `i`; `issue` is the
    /// golden model's issue cycle of the PktSend at the head (monitor).
    fn observe(
        &mut self,
        cycle: u64,
        i: &In,
        o: &Out,
        issue: Option<u64>,
        st: &mut RunStats,
    ) -> Result<(), String> {
        if self.tx_busy > 0 {
            self.tx_busy -= 1;
        }
        if i.ev_valid && o.ev_ready {
            let (op, f, a, b, _) = self.evq.pop_front().unwrap();
            if (f as usize) < self.flows.len() {
                let fl = &mut self.flows[f as usize];
                match op {
                    OP_UPDATE if a != 0 && b >> 8 != 0 => fl.w_hist.push((cycle, b >> 8)),
                    // An ACK_DB's DOORBELL part (at most 64 bytes) never
                    // takes end − una to 2^31 here, so its ACK part
                    // decides it.
                    OP_ACK | OP_ACK_DB
                        if a.wrapping_sub(fl.acked) <= fl.sent.wrapping_sub(fl.acked) =>
                    {
                        fl.acked = a;
                        fl.una_hist.push((cycle, a));
                    }
                    OP_REWIND => {
                        fl.lost_at = None;
                    }
                    _ => {}
                }
            }
        }
        st.ready.push(i.send_ready);
        if o.send_valid && i.send_ready {
            let s = Sent {
                cycle,
                issue: issue.unwrap_or(0),
                flow: o.send.flow,
                seq: o.send.seq,
                len: o.send.len,
                probe: o.send.probe,
                current: false,
                sent_len: 0,
            };
            let at = st.sent.len();
            st.sent.push(s);
            let current = (s.flow as usize) < self.flows.len()
                && o.send.epoch == self.flows[s.flow as usize].epoch;
            // A stale PktSend is dropped by the requester: no line time.
            if self.cfg.tx_beats && (current || s.probe) {
                self.tx_busy = if s.probe { 8 } else { s.len.div_ceil(8).max(1) } - 1;
            }
            if !s.probe && current {
                let fl = &mut self.flows[s.flow as usize];
                let mut end = s.seq.wrapping_add(s.len);
                if fl.lost_at.is_none()
                    && s.len > 1
                    && self.cfg.trim_pct > 0
                    && self.rng.gen_range(0..100) < self.cfg.trim_pct
                {
                    // Cut inside the packet: the bytes from the cut on go
                    // back to the scheduler.
                    end = s.seq.wrapping_add(self.rng.gen_range(1..s.len));
                    fl.epoch = fl.epoch.wrapping_add(1);
                    self.evq
                        .push_back((OP_TRIM, s.flow, end, fl.epoch as u32, false));
                }
                if self.monitor {
                    let tau = issue.ok_or("monitor: no issue cycle")?;
                    let w = last_before(&fl.w_hist, tau).ok_or("monitor: no window")?;
                    let una = last_before(&fl.una_hist, tau).unwrap();
                    let inflight = end.wrapping_sub(una) as u64;
                    // One packet always goes when nothing is in flight.
                    if inflight > w as u64 && s.seq != una {
                        return Err(format!(
                            "window exceeded: cycle {cycle}, flow {}, seq {} len {}: {inflight} bytes in flight > W {w} (decided at {tau})",
                            s.flow, s.seq, s.len
                        ));
                    }
                    st.window_checks += 1;
                }
                st.sent[at].current = true;
                st.sent[at].sent_len = end.wrapping_sub(s.seq);
                if end.wrapping_sub(fl.acked) > fl.sent.wrapping_sub(fl.acked) {
                    fl.sent = end;
                }
                if fl.lost_at.is_none()
                    && self.cfg.loss_pct > 0
                    && self.rng.gen_range(0..100) < self.cfg.loss_pct
                {
                    // Lost: the receiver NAKs it after the ACK delay.
                    // Lost: the receiver drops what follows and NAKs it
                    // after the ACK delay (go-back-N).
                    fl.lost_at = Some(s.seq);
                    self.acks
                        .push_back((cycle + self.cfg.ack_delay, s.flow, s.seq, true));
                } else if fl.lost_at.is_none() {
                    self.acks
                        .push_back((cycle + self.cfg.ack_delay, s.flow, end, false));
                }
            }
        }
        Ok(())
    }
}

fn last_before(h: &[(u64, u32)], tau: u64) -> Option<u32> {
    h.iter().rev().find(|&&(c, _)| c < tau).map(|&(_, v)| v)
}

/// Run `cycles` cycles of the closed loop on the golden model and, if
/// given, an engine in lockstep (every output compared every cycle).
pub fn run<const A: usize, H: Harness<In = In, Out = Out>>(
    env: &mut Env,
    mut engine: Option<&mut dyn Engine<H>>,
    cycles: u64,
) -> Result<(FlowSched<A>, RunStats), String> {
    let mut g = FlowSched::<A>::default();
    let mut st = RunStats::default();
    for c in 0..cycles {
        let i = env.inputs(c);
        let issue = g.head_issue_cycle();
        let o = g.step(&i);
        if let Some(e) = engine.as_deref_mut() {
            let got = e.step(&i);
            if got != o {
                return Err(format!(
                    "{} != golden at cycle {c}\n  input:  {i:?}\n  golden: {o:?}\n  rtl:    {got:?}",
                    e.name()
                ));
            }
        }
        env.observe(c, &i, &o, issue, &mut st)?;
        st.last_out = o;
    }
    st.cycles = cycles;
    Ok((g, st))
}

/// Jain's fairness index of `x`.
pub fn jain(x: &[f64]) -> f64 {
    let s: f64 = x.iter().sum();
    let s2: f64 = x.iter().map(|v| v * v).sum();
    if s2 == 0.0 {
        return 1.0;
    }
    s * s / (x.len() as f64 * s2)
}

/// Random rates for `n` flows summing to `frac` of line rate (weights
/// uniform in [0.5, 1.5]).
pub fn random_rates(n: usize, frac: f64, seed: u64) -> Vec<f64> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let w: Vec<f64> = (0..n).map(|_| rng.gen_range(0.5..1.5)).collect();
    let s: f64 = w.iter().sum();
    w.iter()
        .map(|x| x / s * frac * LINE_BYTES_PER_CYCLE)
        .collect()
}

/// Directed stimulus for the reaction figure: flow 3 gets data and a rate
/// but a window under one packet: it sends one packet (nothing was in
/// flight) and is then parked, its in-flight over the window; then an
/// UPDATE opens the window. Returns the stimulus and the index of that UPDATE. Events of
/// the flow are 12 cycles apart (the interlock would hold them).
pub fn reaction_stimulus() -> (Vec<In>, usize) {
    let base = In {
        cfg_mtu: 256,
        cfg_cap: 4096,
        send_ready: true,
        ..In::default()
    };
    let ev = |op, a, b| In {
        ev_valid: true,
        ev: SchedEvent {
            op: op,
            flow: 3,
            a: a,
            b: b,
        },
        ..base
    };
    let mut s = Vec::new();
    for e in [
        ev(OP_INIT, 100, 0),
        ev(OP_DOORBELL, 10_000, 0),
        ev(OP_UPDATE, rate_q(8.0), 100 << 8),
    ] {
        s.push(e);
        s.extend(std::iter::repeat(base).take(11));
    }
    s.extend(std::iter::repeat(base).take(2000));
    let t = s.len();
    s.push(ev(OP_UPDATE, rate_q(8.0), 5000 << 8));
    s.extend(std::iter::repeat(base).take(100));
    (s, t)
}

/// An "engine" that records a closed loop's inputs and answers with the
/// golden model: a fixed stimulus for the four-state run and the speed
/// benchmark.
pub struct Recorder<const A: usize> {
    pub inputs: Vec<In>,
    g: FlowSched<A>,
}

impl<const A: usize> Default for Recorder<A> {
    fn default() -> Self {
        Self {
            inputs: Vec::new(),
            g: FlowSched::default(),
        }
    }
}

impl<const A: usize, H: Harness<In = In, Out = Out>> Engine<H> for Recorder<A> {
    fn step(&mut self, i: &In) -> Out {
        self.inputs.push(*i);
        self.g.step(i)
    }
    fn cycles(&self) -> u64 {
        self.inputs.len() as u64
    }
    fn name(&self) -> &'static str {
        "recorder"
    }
}
