//! Twin of `hdl/src/sched/flow_sched.rs`: the credit-based flow scheduler,
//! cycle-exact at the ports.
//!
//! The RTL is a single read-modify-write pipeline over the per-flow state:
//! one operation issues per cycle (stage S0), reads the state (S1), and
//! writes it back at stage S10. An operation is an event from the event port
//! (INIT, DOORBELL, UPDATE, ACK, REWIND), a visit of the flow at the head
//! of the active list (SCHED), or a probe timer that expired (PROBE).
//! A flow with an operation in S1..S10 is not issued again (the interlock),
//! so each operation sees the state its predecessors left, in issue order.
//! This model therefore applies an operation's whole effect at S10, from
//! the state and the cycle number (`now`) at its issue.
//!
//! Units and formats:
//! - sequence numbers are bytes of the flow's stream, 32-bit, serial
//!   arithmetic; invariant una ≤ nxt ≤ end with end − una < 2^31;
//! - R: bytes per cycle, UQ8.24 (`ev_a` of UPDATE);
//! - W: bytes (`ev_b` of UPDATE is UQ24.8 as the CC module emits it; the
//!   fraction is dropped);
//! - credit: bytes, UQ20.24, capped at max(cfg_cap, cfg_mtu) bytes.
//!
//! Lazy credit accrual: every operation first does
//! credit ← min(cap, credit + R · (now − last)), last ← now. Because the
//! product is exact and the cap is a min, accruing at any set of instants
//! gives the same credit as accruing once.

use crate::mem::fifo::{self, Fifo};
use crate::sched::{PktSend, SchedEvent, SchedStats};
use crate::Cycle;
use std::collections::VecDeque;

/// Event opcodes (`ev_op`), from `nic_spec::sched`.
pub use nic_spec::sched::{OP_ACK, OP_ACK_DB, OP_DOORBELL, OP_INIT, OP_REWIND, OP_TRIM, OP_UPDATE};

/// Stages after issue; an operation's effects happen in the last one.
pub const STAGES: usize = 10;
/// Cycles from an operation's issue to its PktSend at the ports, when the
/// PktSend queue is empty: S10 plus the queue's three.
pub const SEND_LATENCY: usize = STAGES + 3;
/// log2 of the PktSend queue's RAM words; `OUT_CAP` slots are reserved
/// by issued visits, so the queue never overflows.
pub const OUT_A: usize = 5;
pub const OUT_CAP: u32 = 1 << OUT_A;
/// Credit fraction bits.
pub const CREDIT_FRAC: u32 = 24;
const CREDIT_MAX: u64 = (1 << 44) - 1;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    /// Packet size, bytes. 0: nothing is ever sent.
    pub cfg_mtu: u32,
    /// Credit cap, bytes (20 bits); the effective cap is max(cap, mtu).
    pub cfg_cap: u32,
    /// Probe interval (base RTT) in cycles (24 bits); 0: no probes.
    pub cfg_probe_t: u32,
    pub ev_valid: bool,
    pub ev: SchedEvent,
    pub send_ready: bool,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub ev_ready: bool,
    pub send_valid: bool,
    pub send: PktSend,
    pub stats: SchedStats,
}

/// One flow's state (the RTL's three state RAM words).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FlowState {
    /// Rate, UQ8.24 bytes/cycle.
    pub r: u32,
    /// Window, bytes (24 bits).
    pub w: u32,
    pub una: u32,
    pub nxt: u32,
    pub end: u32,
    /// UQ20.24 bytes.
    pub credit: u64,
    pub last: u32,
    /// In the active list (or being visited).
    pub queued: bool,
    /// In the probe list (or being probed).
    pub probing: bool,
    /// Set by INIT, REWIND and TRIM (their `b`); carried by each PktSend.
    pub epoch: u8,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Event,
    Sched,
    Probe,
    /// An event for a flow id out of range: counted, no state.
    Kill,
}

#[derive(Clone, Copy, Debug)]
struct Op {
    kind: Kind,
    flow: u32,
    op: u8,
    a: u32,
    b: u32,
    now: u32,
}

/// Pack a PktSend for the queue: epoch [71:64], probe [63], flow [62:48],
/// len [47:32], seq [31:0].
pub fn pack_send(flow: u32, seq: u32, len: u32, probe: bool, epoch: u8) -> u128 {
    ((epoch as u128) << 64)
        | ((probe as u128) << 63)
        | ((flow as u128 & 0x7fff) << 48)
        | ((len as u128 & 0xffff) << 32)
        | seq as u128
}

/// The scheduler for 2^A flows.
#[derive(Clone)]
pub struct FlowSched<const A: usize> {
    pub flows: Vec<FlowState>,
    /// The input register: `ev_ready` is "empty"; S0 sees its event.
    ev_in: Option<SchedEvent>,
    pipe: VecDeque<Option<Op>>,
    active: Fifo<16, A>,
    probes: Fifo<48, A>,
    out: Fifo<72, OUT_A>,
    /// Issue cycle of each queued PktSend (for monitors; not a port).
    out_issue: VecDeque<u64>,
    used: u32,
    /// The probe head was `cfg_probe_t` old last cycle (registered).
    p_exp: bool,
    /// The active list's head lost the issue slot to an event: it goes
    /// at its next chance, the input register held that cycle (registered).
    visit_yield: bool,
    now: u32,
    cycle: u64,
    cnt: SchedStats,
}

impl<const A: usize> Default for FlowSched<A> {
    fn default() -> Self {
        Self {
            flows: vec![FlowState::default(); 1 << A],
            ev_in: None,
            pipe: std::iter::repeat(None).take(STAGES).collect(),
            active: Fifo::default(),
            probes: Fifo::default(),
            out: Fifo::default(),
            out_issue: VecDeque::new(),
            used: 0,
            p_exp: false,
            visit_yield: false,
            now: 0,
            cycle: 0,
            cnt: SchedStats::default(),
        }
    }
}

/// What an operation at S10 does besides writing the state.
#[derive(Default)]
struct Effects {
    active_push: Option<u32>,
    probe_push: Option<(u32, u32)>,
    send: Option<u128>,
    release: bool,
}

/// min(mtu, pending), 16 bits.
fn pkt_len(mtu: u32, pending: u32) -> u32 {
    mtu.min(pending) & 0xffff
}

/// The window admits a packet of `len` with `inflight` bytes in flight:
/// it fits, or nothing is in flight (one packet always goes, so a window
/// under one packet cannot stall a flow for good).
fn window_fits(inflight: u32, len: u32, w: u32) -> bool {
    inflight == 0 || inflight as u64 + len as u64 <= w as u64
}

/// Has data, a rate, and window room for its next packet.
fn is_active(s: &FlowState, mtu: u32) -> bool {
    let len = pkt_len(mtu, s.end.wrapping_sub(s.nxt));
    s.r != 0 && len != 0 && window_fits(s.nxt.wrapping_sub(s.una), len, s.w)
}

impl<const A: usize> FlowSched<A> {
    fn in_range(flow: u32) -> bool {
        flow >> A == 0
    }

    /// A flow has an operation in S1..S10.
    fn busy(&self, flow: u32) -> bool {
        self.pipe
            .iter()
            .flatten()
            .any(|o| o.kind != Kind::Kill && o.flow == flow)
    }

    /// The cycle counter (`now` of an operation issued this cycle).
    pub fn now(&self) -> u32 {
        self.now
    }

    /// Issue cycle of the PktSend at the head of the queue.
    pub fn head_issue_cycle(&self) -> Option<u64> {
        self.out_issue.front().copied()
    }

    fn apply(&mut self, o: &Op, i: &In) -> Effects {
        let mut e = Effects::default();
        let c = &mut self.cnt;
        if o.kind == Kind::Kill {
            c.events = c.events.wrapping_add(1);
            c.bad_flow = c.bad_flow.wrapping_add(1);
            return e;
        }
        let cap = ((i.cfg_cap & 0xfffff).max(i.cfg_mtu & 0xffff) as u64) << CREDIT_FRAC;
        let mtu = i.cfg_mtu & 0xffff;
        let s0 = self.flows[o.flow as usize];
        let mut s = s0;
        // Lazy accrual.
        let p = s.r as u64 * o.now.wrapping_sub(s.last) as u64;
        s.credit = cap.min(s.credit + p.min(CREDIT_MAX));
        s.last = o.now;
        let inflight = s.nxt.wrapping_sub(s.una);
        match o.kind {
            Kind::Event => {
                c.events = c.events.wrapping_add(1);
                let ok = match o.op {
                    OP_INIT => {
                        s = FlowState {
                            una: o.a,
                            nxt: o.a,
                            end: o.a,
                            last: o.now,
                            queued: s.queued,
                            probing: s.probing,
                            epoch: o.b as u8,
                            ..FlowState::default()
                        };
                        true
                    }
                    OP_DOORBELL => {
                        let tot = s.end.wrapping_sub(s.una) as u64 + o.a as u64;
                        if tot >= 1 << 31 {
                            c.bad_doorbell = c.bad_doorbell.wrapping_add(1);
                            false
                        } else {
                            s.end = s.end.wrapping_add(o.a);
                            true
                        }
                    }
                    OP_ACK_DB => {
                        // Both parts checked against the state before the
                        // event; applied whole or not at all.
                        let ack_ok = o.a.wrapping_sub(s.una) <= inflight;
                        let tot = s.end.wrapping_sub(s.una) as u64 + o.b as u64;
                        let db_ok = tot < 1 << 31;
                        if !ack_ok {
                            c.bad_ack = c.bad_ack.wrapping_add(1);
                        }
                        if !db_ok {
                            c.bad_doorbell = c.bad_doorbell.wrapping_add(1);
                        }
                        if ack_ok && db_ok {
                            s.una = o.a;
                            s.end = s.end.wrapping_add(o.b);
                        }
                        ack_ok && db_ok
                    }
                    OP_UPDATE => {
                        let w = o.b >> 8;
                        if o.a == 0 || w == 0 {
                            c.bad_update = c.bad_update.wrapping_add(1);
                            false
                        } else {
                            s.r = o.a;
                            s.w = w;
                            true
                        }
                    }
                    OP_ACK | OP_REWIND | OP_TRIM => {
                        // REWIND may also skip forward, up to end (an ACK
                        // past nxt after a go-back).
                        let bound = if o.op == OP_REWIND {
                            s.end.wrapping_sub(s.una)
                        } else {
                            inflight
                        };
                        if o.a.wrapping_sub(s.una) > bound {
                            let n = match o.op {
                                OP_ACK => &mut c.bad_ack,
                                OP_REWIND => &mut c.bad_rewind,
                                _ => &mut c.bad_trim,
                            };
                            *n = n.wrapping_add(1);
                            false
                        } else if o.op == OP_TRIM {
                            // Bytes decided but not sent go back to the
                            // credit, saturated at the cap.
                            let refund = (s.nxt.wrapping_sub(o.a) as u64) << CREDIT_FRAC;
                            s.credit = cap.min(s.credit + refund);
                            s.nxt = o.a;
                            s.epoch = o.b as u8;
                            true
                        } else {
                            s.una = o.a;
                            if o.op == OP_REWIND {
                                s.nxt = o.a;
                                s.epoch = o.b as u8;
                            }
                            true
                        }
                    }
                    _ => {
                        c.bad_op = c.bad_op.wrapping_add(1);
                        false
                    }
                };
                if !ok {
                    // Dropped: the state is not written.
                    return e;
                }
                if !s.queued && is_active(&s, mtu) {
                    s.queued = true;
                    e.active_push = Some(o.flow);
                }
            }
            Kind::Sched => {
                let len = pkt_len(mtu, s.end.wrapping_sub(s.nxt));
                let fit = window_fits(inflight, len, s.w);
                let need = (len as u64) << CREDIT_FRAC;
                if len != 0 && fit && s.credit >= need {
                    e.send = Some(pack_send(o.flow, s.nxt, len, false, s.epoch));
                    s.nxt = s.nxt.wrapping_add(len);
                    s.credit -= need;
                    c.sends = c.sends.wrapping_add(1);
                    if i.cfg_probe_t & 0xffffff != 0 && !s.probing {
                        s.probing = true;
                        e.probe_push = Some((o.flow, o.now));
                    }
                } else {
                    e.release = true;
                }
                if is_active(&s, mtu) {
                    e.active_push = Some(o.flow);
                } else {
                    s.queued = false;
                }
            }
            Kind::Probe => {
                if inflight != 0 {
                    e.send = Some(pack_send(o.flow, s.nxt, 0, true, s.epoch));
                    e.probe_push = Some((o.flow, o.now));
                    c.probes = c.probes.wrapping_add(1);
                } else {
                    s.probing = false;
                    e.release = true;
                }
            }
            Kind::Kill => unreachable!(),
        }
        self.flows[o.flow as usize] = s;
        e
    }
}

impl<const A: usize> Cycle for FlowSched<A> {
    type In = In;
    type Out = Out;
    fn step(&mut self, i: &In) -> Out {
        // S0 takes its event from the input register.
        let ev = self.ev_in.unwrap_or_default();
        let ev_in_range = Self::in_range(ev.flow);
        let room = self.used < OUT_CAP;
        // The active list's head could issue this cycle (room, and its
        // flow not in S1..S10).
        let visit_can = room
            && self
                .active
                .head()
                .is_some_and(|h| !self.busy(h as u32 & 0xffff));
        let ev_go = self.ev_in.is_some()
            && !(ev_in_range && self.busy(ev.flow))
            && !(self.visit_yield && visit_can);
        let head = self.out.head();
        let c = self.cnt;
        let o = Out {
            ev_ready: self.ev_in.is_none(),
            send_valid: head.is_some(),
            send: PktSend {
                flow: head.map_or(0, |h| (h >> 48) as u32 & 0x7fff),
                seq: head.map_or(0, |h| h as u32),
                len: head.map_or(0, |h| (h >> 32) as u32 & 0xffff),
                probe: head.is_some_and(|h| (h >> 63) & 1 != 0),
                epoch: head.map_or(0, |h| (h >> 64) as u8),
            },
            stats: c,
        };

        // ---- S0: issue one operation. Events first, then an expired
        // probe timer, then the active list's head; but a head that lost
        // the slot to an event goes at its next chance (`visit_yield`).
        let now = self.now;
        let accept = ev_go;
        let probe_t = i.cfg_probe_t & 0xffffff;
        let probe_go = !accept
            && !(self.visit_yield && visit_can)
            && room
            && probe_t != 0
            && self.p_exp
            && !self.busy((self.probes.head().unwrap() >> 32) as u32 & 0xffff);
        self.p_exp = !probe_go
            && self
                .probes
                .head()
                .is_some_and(|h| now.wrapping_sub(h as u32) >= probe_t);
        let sched_go = !accept && !probe_go && visit_can;
        self.visit_yield = !sched_go && (self.visit_yield || (accept && visit_can));
        let issued = if accept {
            Some(Op {
                kind: if ev_in_range { Kind::Event } else { Kind::Kill },
                flow: ev.flow,
                op: ev.op,
                a: ev.a,
                b: ev.b,
                now,
            })
        } else if probe_go {
            let h = self.probes.head().unwrap();
            Some(Op {
                kind: Kind::Probe,
                flow: (h >> 32) as u32 & 0xffff,
                op: 0,
                a: 0,
                b: 0,
                now,
            })
        } else if sched_go {
            let h = self.active.head().unwrap();
            Some(Op {
                kind: Kind::Sched,
                flow: h as u32 & 0xffff,
                op: 0,
                a: 0,
                b: 0,
                now,
            })
        } else {
            None
        };

        // ---- S10: the oldest operation takes effect.
        let last = self.pipe.pop_back().flatten();
        let e = match last {
            Some(op) => self.apply(&op, i),
            None => Effects::default(),
        };
        self.pipe.push_front(issued);

        let handshake = head.is_some() && i.send_ready;
        if handshake {
            self.out_issue.pop_front();
        }
        if e.send.is_some() {
            self.out_issue.push_back(self.cycle - STAGES as u64);
        }
        self.used = self.used + (probe_go || sched_go) as u32 - e.release as u32 - handshake as u32;

        self.active.step(&fifo::In {
            push: e.active_push.is_some(),
            push_data: e.active_push.unwrap_or(0) as u128,
            pop: sched_go,
        });
        self.probes.step(&fifo::In {
            push: e.probe_push.is_some(),
            push_data: e
                .probe_push
                .map_or(0, |(f, t)| ((f as u128) << 32) | t as u128),
            pop: probe_go,
        });
        self.out.step(&fifo::In {
            push: e.send.is_some(),
            push_data: e.send.unwrap_or(0),
            pop: i.send_ready,
        });
        // The input register: takes an event when empty, empties when
        // its event issues.
        if self.ev_in.is_none() {
            self.ev_in = i.ev_valid.then(|| SchedEvent {
                op: i.ev.op & 7,
                flow: i.ev.flow & 0xffff,
                a: i.ev.a,
                b: i.ev.b,
            });
        } else if accept {
            self.ev_in = None;
        }
        self.now = self.now.wrapping_add(1);
        self.cycle += 1;
        o
    }
}
