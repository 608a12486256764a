//! DCQCN in the closed loop of [`crate::fluid`]: N flows through one
//! bottleneck that marks ECN (RED), a notification point at the receiver
//! that sends CNPs, and the reaction point (the cycle twin of
//! `hdl/src/cc/dcqcn.rs`, with the f64 reference shadowing it) at the
//! sender.
//!
//! - Each flow is paced at its rate (DCQCN has no window here), from line
//!   rate at the start.
//! - The switch is a FIFO served at the link rate. At dequeue (as ns-3's
//!   switch does) a packet is marked CE with RED's probability on the
//!   queue it leaves behind: 0 up to `kmin`, rising linearly to `pmax` at
//!   `kmax`, 1 above (seeded, so runs are reproducible).
//! - The receiver is `prop_ns/2` after the switch. Its notification point
//!   sends a CNP for a CE packet if the flow had none in the last
//!   `cnp_interval_ns`; the CNP reaches the sender `prop_ns/2` later.
//! - The sender's reaction point gets a CNP event per CNP and a SENT event
//!   per packet. It runs cycle by cycle at `ns_per_cycle`, between the
//!   loop's events, so its timers run as in the RTL.
//! - The rate a flow sends at is the fixed-point Rc ([`RateFrom::Fixed`]),
//!   or the f64 reference's Rc for the same operations
//!   ([`RateFrom::F64`]); in both, both are computed and every change is
//!   compared.
//!
//! Times are integer picoseconds.

use crate::fluid::FluidCfg;
use nic_golden::cc::dcqcn::{DcqcnRp, In, OP_CNP, OP_CREATE, OP_SENT};
use nic_golden::cc::dcqcn_params::{DcqcnParams, RATE_FRAC};
use nic_golden::cc::dcqcn_ref::DcqcnRef;
use nic_golden::cc::RpEvent;
use nic_golden::Cycle;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

/// Which model's rate the flows send at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RateFrom {
    Fixed,
    F64,
}

/// The bottleneck ([`FluidCfg`], the one HPCC++'s loop runs, so the two
/// compare on the same scenario) and what DCQCN adds to it.
#[derive(Clone, Debug)]
pub struct DcqcnFluidCfg {
    pub net: FluidCfg,
    /// RED: no mark below `kmin`, probability rising to `pmax` at `kmax`.
    pub kmin_bytes: u64,
    pub kmax_bytes: u64,
    pub pmax: f64,
    /// The notification point's interval per flow, ns.
    pub cnp_interval_ns: f64,
    pub seed: u64,
}

impl Default for DcqcnFluidCfg {
    /// [`FluidCfg`]'s default bottleneck (4 flows at 100 Gb/s, 4 µs RTT,
    /// 1000-byte packets, 2 ms); the HPCC paper's RED at 100G (100 KB /
    /// 400 KB / 0.2, ×4 for 100G); a CNP per flow per 50 µs at most.
    fn default() -> Self {
        Self {
            net: FluidCfg::default(),
            kmin_bytes: 400_000,
            kmax_bytes: 1_600_000,
            pmax: 0.2,
            cnp_interval_ns: 50_000.0,
            seed: 1,
        }
    }
}

/// What a run produced.
#[derive(Clone, Debug, Default)]
pub struct DcqcnFluidRun {
    /// (time ns, flow, rate Gb/s) at every rate change of the flow's
    /// sending model.
    pub trace: Vec<(f64, usize, f64)>,
    /// (time ns, queue bytes) at every enqueue.
    pub queue: Vec<(f64, u64)>,
    pub delivered: u64,
    /// Bytes delivered from `duration/2` on.
    pub delivered_second_half: u64,
    pub max_queue: u64,
    pub marks: u64,
    pub cnps: u64,
    /// |fixed − f64| / f64 of Rc after every operation that changed either.
    pub rc_err: Vec<f64>,
}

impl DcqcnFluidRun {
    /// The bottleneck's utilisation over the second half of the run.
    pub fn utilisation(&self, cfg: &DcqcnFluidCfg) -> f64 {
        self.delivered_second_half as f64 * 8.0 / (cfg.net.link_gbps * cfg.net.duration_ns / 2.0)
    }

    /// The queue's p-th percentile (0..=100) over enqueues.
    pub fn queue_pct(&self, p: f64) -> u64 {
        queue_pct(&self.queue, p)
    }
}

/// The p-th percentile (0..=100) of a queue trace's values (0 if empty).
pub fn queue_pct(queue: &[(f64, u64)], p: f64) -> u64 {
    let mut q: Vec<u64> = queue.iter().map(|x| x.1).collect();
    if q.is_empty() {
        return 0;
    }
    q.sort_unstable();
    q[((q.len() - 1) as f64 * p / 100.0).round() as usize]
}

#[derive(PartialEq, Eq, PartialOrd, Ord, Clone, Copy)]
enum Ev {
    Send(usize),
    Arrive(usize),
    Depart,
    Recv(usize, bool),
    Cnp(usize),
}

/// The reaction point: the cycle twin, its f64 shadow, and the events
/// waiting for the twin's `s_event`.
struct Rp {
    twin: DcqcnRp<10>,
    shadow: DcqcnRef,
    cfg: nic_golden::cc::DcqcnCfg,
    cycle: u64,
    pending: VecDeque<RpEvent>,
    /// Each flow's fixed-point Rc after its last operation.
    fixed_seen: Vec<Option<u32>>,
}

impl Rp {
    /// Run the twin up to `to` (a cycle); `changed(flow, fixed, f64)` for
    /// every operation that changed a flow's Rc in either model (bytes/ns).
    fn advance(&mut self, to: u64, changed: &mut dyn FnMut(usize, f64, f64)) {
        let one = (1u64 << RATE_FRAC) as f64;
        while self.cycle < to {
            let ev = self.pending.front().copied();
            let o = self.twin.step(&In {
                cfg: self.cfg,
                ev_valid: ev.is_some(),
                ev: ev.unwrap_or_default(),
            });
            if ev.is_some() && o.ev_ready {
                self.pending.pop_front();
            }
            if let Some(a) = self.twin.applied() {
                let f = a.flow as usize;
                let before = self.shadow.flows.get(f).map(|s| s.rc);
                let fixed_before = self.fixed_seen[f];
                if let Some(x) = self.shadow.apply(&a) {
                    let fixed = a.after.rc as f64 / one;
                    if before != Some(x) || fixed_before != Some(a.after.rc) {
                        changed(f, fixed, x);
                    }
                }
                self.fixed_seen[f] = Some(a.after.rc);
            }
            self.cycle += 1;
        }
    }
}

struct Flow {
    rate: f64, // bytes per ns
    next_send: u64,
    last_cnp: Option<u64>,
}

/// Run the loop.
pub fn run(p: &DcqcnParams, cfg: &DcqcnFluidCfg, from: RateFrom) -> DcqcnFluidRun {
    assert!(cfg.net.flows <= 1024, "the twin is built for 1024 flows");
    let ps = |ns: f64| (ns * 1000.0).round() as u64;
    let regs = p.regs().expect("DCQCN parameters");
    let cyc_ps = ps(p.ns_per_cycle).max(1);
    let mut rp = Rp {
        twin: DcqcnRp::default(),
        shadow: DcqcnRef::new(p.clone(), 1024),
        cfg: regs,
        cycle: 0,
        pending: VecDeque::new(),
        fixed_seen: vec![None; 1024],
    };
    let line = p.line_rate_gbps / 8.0;
    let link_bpps = cfg.net.link_gbps / 8.0 / 1000.0;
    let mut rng = SmallRng::seed_from_u64(cfg.seed);
    let mut heap: BinaryHeap<Reverse<(u64, u64, Ev)>> = BinaryHeap::new();
    let mut n = 0u64;
    let mut push = |heap: &mut BinaryHeap<Reverse<(u64, u64, Ev)>>, at: u64, e: Ev| {
        n += 1;
        heap.push(Reverse((at, n, e)));
    };
    let mut run = DcqcnFluidRun::default();
    let mut flows: Vec<Flow> = (0..cfg.net.flows)
        .map(|k| Flow {
            rate: line,
            next_send: ps(k as f64 * cfg.net.stagger_ns),
            last_cnp: None,
        })
        .collect();
    for (k, f) in flows.iter().enumerate() {
        rp.pending.push_back(RpEvent {
            op: OP_CREATE,
            flow: k as u16,
            bytes: 0,
        });
        push(&mut heap, f.next_send, Ev::Send(k));
    }
    let mut fifo: VecDeque<usize> = VecDeque::new();
    let mut queued = 0u64;
    let end = ps(cfg.net.duration_ns);
    let half_t = end / 2;
    let half = ps(cfg.net.prop_ns / 2.0);
    let pkt = cfg.net.pkt_bytes;
    while let Some(Reverse((now, _, e))) = heap.pop() {
        if now > end {
            break;
        }
        // The reaction point catches up to now; rate changes take effect
        // on each flow's next packet.
        {
            let flows = &mut flows;
            let run = &mut run;
            let heap_now = now;
            let mut resched = Vec::new();
            rp.advance(heap_now / cyc_ps, &mut |f, fixed, x| {
                run.rc_err.push((fixed - x).abs() / x);
                let r = if from == RateFrom::Fixed { fixed } else { x };
                if f < flows.len() && r != flows[f].rate {
                    flows[f].rate = r;
                    run.trace.push((heap_now as f64 / 1000.0, f, r * 8.0));
                    resched.push(f);
                }
            });
            for f in resched {
                let gap = ps(pkt as f64 / flows[f].rate);
                if flows[f].next_send > now + gap {
                    flows[f].next_send = now + gap;
                    let nx = flows[f].next_send;
                    push(&mut heap, nx, Ev::Send(f));
                }
            }
        }
        match e {
            Ev::Send(k) => {
                let f = &mut flows[k];
                if f.next_send != now {
                    continue; // rescheduled
                }
                f.next_send = now + ps(pkt as f64 / f.rate).max(1);
                let nx = f.next_send;
                push(&mut heap, now + half, Ev::Arrive(k));
                push(&mut heap, nx, Ev::Send(k));
                rp.pending.push_back(RpEvent {
                    op: OP_SENT,
                    flow: k as u16,
                    bytes: pkt.min(0xffff) as u32,
                });
            }
            Ev::Arrive(k) => {
                fifo.push_back(k);
                queued += pkt;
                run.max_queue = run.max_queue.max(queued);
                run.queue.push((now as f64 / 1000.0, queued));
                if fifo.len() == 1 {
                    push(&mut heap, now + (pkt as f64 / link_bpps) as u64, Ev::Depart);
                }
            }
            Ev::Depart => {
                let k = fifo.pop_front().expect("a packet is in service");
                queued -= pkt;
                // RED on the queue left behind, at dequeue (as ns-3's
                // switch marks).
                let q = queued;
                let prob = if q <= cfg.kmin_bytes {
                    0.0
                } else if q >= cfg.kmax_bytes {
                    1.0
                } else {
                    cfg.pmax * (q - cfg.kmin_bytes) as f64
                        / (cfg.kmax_bytes - cfg.kmin_bytes) as f64
                };
                let ce = prob > 0.0 && rng.gen_bool(prob.min(1.0));
                run.marks += ce as u64;
                run.delivered += pkt;
                if now >= half_t {
                    run.delivered_second_half += pkt;
                }
                push(&mut heap, now + half, Ev::Recv(k, ce));
                if !fifo.is_empty() {
                    push(&mut heap, now + (pkt as f64 / link_bpps) as u64, Ev::Depart);
                }
            }
            Ev::Recv(k, ce) => {
                let f = &mut flows[k];
                if ce
                    && f.last_cnp
                        .is_none_or(|l| now - l >= ps(cfg.cnp_interval_ns))
                {
                    f.last_cnp = Some(now);
                    run.cnps += 1;
                    push(&mut heap, now + half, Ev::Cnp(k));
                }
            }
            Ev::Cnp(k) => rp.pending.push_back(RpEvent {
                op: OP_CNP,
                flow: k as u16,
                bytes: 0,
            }),
        }
    }
    run
}
