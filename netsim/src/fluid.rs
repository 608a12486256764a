//! A closed-loop scenario for studying the algorithm: N flows through one
//! bottleneck switch, packet by packet, with the telemetry a switch would
//! write (ns-3 format, one hop) echoed in every ACK.
//!
//! - Each flow is paced at R = W/T and limited by its window W (bytes in
//!   flight ≤ W); both come from the CC model under study.
//! - The switch is a FIFO served at the link rate; at dequeue it stamps
//!   the packet with the time, the port's tx bytes (before this packet)
//!   and the queue behind it.
//! - A packet reaches the switch `prop_ns/2` after it is sent; its ACK
//!   reaches the sender `prop_ns/2` after it leaves the switch.
//!
//! Times are integer picoseconds, so runs are exactly reproducible.

use nic_golden::cc::hpcc::{op, CcEvent, HpccFixed, HOPS};
use nic_golden::cc::hpcc_ref::HpccRef;
use nic_golden::cc::int_ns3::HopFields;
use nic_golden::cc::params::{rate_code, CcParams, CcRegs};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

/// A CC model the scenario drives: returns W in bytes for an event.
pub trait CcModel {
    fn event(&mut self, ev: &CcEvent) -> f64;
}

impl CcModel for HpccRef {
    fn event(&mut self, ev: &CcEvent) -> f64 {
        self.process(ev).w
    }
}

/// The fixed-point model with its registers.
pub struct Fixed(pub HpccFixed, pub CcRegs);

impl CcModel for Fixed {
    fn event(&mut self, ev: &CcEvent) -> f64 {
        self.0.process(ev, &self.1).w as f64 / 256.0
    }
}

#[derive(Clone, Debug)]
pub struct FluidCfg {
    pub flows: usize,
    /// Bottleneck rate (must be one of the telemetry rate codes).
    pub link_gbps: f64,
    /// Round-trip propagation delay, ns.
    pub prop_ns: f64,
    pub pkt_bytes: u64,
    pub duration_ns: f64,
    /// Flow k starts at k · stagger_ns.
    pub stagger_ns: f64,
}

impl Default for FluidCfg {
    fn default() -> Self {
        Self {
            flows: 4,
            link_gbps: 100.0,
            prop_ns: 4000.0,
            pkt_bytes: 1000,
            duration_ns: 2.0e6,
            stagger_ns: 0.0,
        }
    }
}

/// What a run produced.
#[derive(Clone, Debug, Default)]
pub struct FluidRun {
    /// (time ns, flow, W bytes) on every ACK.
    pub trace: Vec<(f64, usize, f64)>,
    /// The events the CC model saw, in order.
    pub events: Vec<CcEvent>,
    /// Bytes delivered by the bottleneck.
    pub delivered: u64,
    /// Largest queue seen, bytes.
    pub max_queue: u64,
    /// (time ns, queue bytes) at every enqueue.
    pub queue: Vec<(f64, u64)>,
}

impl FluidRun {
    /// Mean W of each flow over ACKs at or after `from_ns`.
    pub fn mean_w(&self, flows: usize, from_ns: f64) -> Vec<f64> {
        let mut s = vec![(0.0, 0usize); flows];
        for &(t, f, w) in &self.trace {
            if t >= from_ns {
                s[f].0 += w;
                s[f].1 += 1;
            }
        }
        s.iter().map(|(a, n)| a / (*n).max(1) as f64).collect()
    }
}

#[derive(PartialEq, Eq, PartialOrd, Ord, Clone, Copy)]
enum Ev {
    Send(usize),
    Arrive(usize, u64),
    Depart,
    Ack(usize, u64, u64, u64, u64),
}

struct Flow {
    w: f64,
    snd_nxt: u64,
    acked: u64,
    next_send: u64,
    blocked: bool,
}

/// Run the scenario with `model` (flows are created first).
pub fn run(p: &CcParams, cfg: &FluidCfg, model: &mut dyn CcModel) -> FluidRun {
    let ps = |ns: f64| (ns * 1000.0).round() as u64;
    let t = p.base_rtt_ns;
    let code = rate_code(cfg.link_gbps).expect("link rate must have a telemetry code");
    let link_bpps = cfg.link_gbps / 8.0 / 1000.0; // bytes per ps
    let mut heap: BinaryHeap<Reverse<(u64, u64, Ev)>> = BinaryHeap::new();
    let mut n = 0u64;
    let mut push = |heap: &mut BinaryHeap<Reverse<(u64, u64, Ev)>>, at: u64, e: Ev| {
        n += 1;
        heap.push(Reverse((at, n, e)));
    };
    let mut run = FluidRun::default();
    let mut flows: Vec<Flow> = (0..cfg.flows)
        .map(|k| {
            let w = model.event(&CcEvent {
                op: op::CREATE,
                flow: k as u16,
                ..Default::default()
            });
            Flow {
                w,
                snd_nxt: 0,
                acked: 0,
                next_send: ps(k as f64 * cfg.stagger_ns),
                blocked: false,
            }
        })
        .collect();
    for (k, f) in flows.iter().enumerate() {
        push(&mut heap, f.next_send, Ev::Send(k));
    }
    let mut fifo: VecDeque<(usize, u64)> = VecDeque::new();
    let (mut queued, mut tx) = (0u64, 0u64);
    let end = ps(cfg.duration_ns);
    let half = ps(cfg.prop_ns / 2.0);
    while let Some(Reverse((now, _, e))) = heap.pop() {
        if now > end {
            break;
        }
        match e {
            Ev::Send(k) => {
                let f = &mut flows[k];
                if f.next_send != now {
                    continue; // rescheduled
                }
                if (f.snd_nxt - f.acked) as f64 + cfg.pkt_bytes as f64 > f.w {
                    f.blocked = true;
                    continue;
                }
                f.snd_nxt += cfg.pkt_bytes;
                let gap = ps(cfg.pkt_bytes as f64 / (f.w / t));
                f.next_send = now + gap.max(1);
                let (s, nx) = (f.snd_nxt, f.next_send);
                push(&mut heap, now + half, Ev::Arrive(k, s));
                push(&mut heap, nx, Ev::Send(k));
            }
            Ev::Arrive(k, seq) => {
                fifo.push_back((k, seq));
                queued += cfg.pkt_bytes;
                run.max_queue = run.max_queue.max(queued);
                run.queue.push((now as f64 / 1000.0, queued));
                if fifo.len() == 1 {
                    push(
                        &mut heap,
                        now + (cfg.pkt_bytes as f64 / link_bpps) as u64,
                        Ev::Depart,
                    );
                }
            }
            Ev::Depart => {
                let (k, seq) = fifo.pop_front().expect("a packet is in service");
                queued -= cfg.pkt_bytes;
                let tel = (now / 1000, tx, queued);
                tx += cfg.pkt_bytes;
                run.delivered += cfg.pkt_bytes;
                push(&mut heap, now + half, Ev::Ack(k, seq, tel.0, tel.1, tel.2));
                if !fifo.is_empty() {
                    push(
                        &mut heap,
                        now + (cfg.pkt_bytes as f64 / link_bpps) as u64,
                        Ev::Depart,
                    );
                }
            }
            Ev::Ack(k, seq, ts, txb, q) => {
                let f = &mut flows[k];
                f.acked = f.acked.max(seq);
                let mut hops = [0u64; HOPS];
                hops[0] = HopFields::quantise(code, ts, txb, q, p.int_multi).encode();
                let ev = CcEvent {
                    op: op::EVENT,
                    variant: false,
                    flow: k as u16,
                    seq: seq as u32,
                    snd_nxt: f.snd_nxt as u32,
                    now: (now / 1000) as u32,
                    nhops: 1,
                    hops,
                };
                f.w = model.event(&ev);
                run.events.push(ev);
                run.trace.push((now as f64 / 1000.0, k, f.w));
                // The new rate takes effect on the next packet.
                let gap = ps(cfg.pkt_bytes as f64 / (f.w / t));
                if f.blocked || f.next_send > now + gap {
                    f.blocked = false;
                    f.next_send = now.max(f.next_send.min(now + gap));
                    let nx = f.next_send;
                    push(&mut heap, nx, Ev::Send(k));
                }
            }
        }
    }
    run
}
