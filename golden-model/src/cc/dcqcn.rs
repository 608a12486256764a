//! Twin of `hdl/src/cc/dcqcn.rs`: the DCQCN reaction point (RP) for 2^A
//! flows, bit-exact and cycle-exact at the ports.
//!
//! The RTL is one read-modify-write pipeline over the per-flow state, as
//! the flow scheduler is: one operation issues per cycle (S0), reads the
//! state (S1) and writes it back at S8. An operation is an event from
//! `s_event` (CNP, SENT, CREATE, DESTROY), a timer visit of the flow at
//! the head of the timer list, or a Kill (an event for a flow id ≥ 2^A).
//! A flow with an operation in S1..S8 is not issued again (the
//! interlock), so each operation sees the state its predecessors left, in
//! issue order, and this model applies an operation's whole effect at S8
//! from the state and the timer epochs at its issue.
//!
//! The arithmetic is in the pure functions [`alpha_step`], [`cut`],
//! [`inc_add`] and [`increase`]; `dcqcn_ref` is the same algorithm in f64.
//!
//! Formats: Rc, Rt and the rate registers are UQ8.24 bytes/ns; α is UQ1.20
//! (21 bits, at most 1.0); the update's `r` is Rc in UQ8.16 bytes/ns (as
//! HPCC++'s R), `u` is α (UQ1.20), `w` the configured window.

use crate::cc::dcqcn_params::{DcqcnCfg, ALPHA_ONE};
use crate::cc::period_epoch::PeriodEpoch;
use crate::cc::{CcUpdate, DcqcnStats, RpEvent};
use crate::mem::fifo::{self, Fifo};
use crate::Cycle;
use std::collections::VecDeque;

pub use nic_spec::dcqcn::{status, OP_CNP, OP_CREATE, OP_DESTROY, OP_NAMES, OP_SENT};

/// Stages after issue; an operation's effects happen in the last one.
pub const STAGES: usize = 8;
/// Cycles from the acceptance of the event at the register slice's head
/// ([`DcqcnRp::taken`]) to its update at the ports: the issue, the stages.
pub const HEAD_LATENCY: usize = STAGES + 1;
/// Cycles from an event's acceptance at `s_event` to its update at the
/// ports, when it does not wait at the slice's head: one in the slice,
/// then [`HEAD_LATENCY`].
pub const UPDATE_LATENCY: usize = HEAD_LATENCY + 1;
/// The stage counters saturate here (4 bits).
pub const STAGE_MAX: u8 = 15;

/// `CcUpdate.flags` of the RP's updates.
pub mod flag {
    /// The flow's first CNP (since it was created or last recovered):
    /// α = α_init, Rc = min(Rc, R_first), the flow joins the timer list.
    pub const FIRST_CNP: u8 = 1;
    /// Rc is back at line rate with no cut pending: the flow leaves the
    /// timer list.
    pub const RECOVERED: u8 = 2;
    /// The visit found more than one α or increase period passed since the
    /// flow's last step, and applied one step (`timer_late`).
    pub const LATE: u8 = 4;
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    pub cfg: DcqcnCfg,
    pub ev_valid: bool,
    pub ev: RpEvent,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub ev_ready: bool,
    pub update_valid: bool,
    pub update: CcUpdate,
    pub stats: DcqcnStats,
}

/// The three global timer epochs: each counts periods of its timer (16
/// bits, wrapping).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Epochs {
    /// α update period.
    pub a: u16,
    /// Rate-decrease period.
    pub d: u16,
    /// Rate-increase timer.
    pub i: u16,
}

/// One flow's state (the RTL's three state RAM words).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RpState {
    /// Current rate Rc, UQ8.24 bytes/ns.
    pub rc: u32,
    /// Target rate Rt, UQ8.24 bytes/ns.
    pub rt: u32,
    /// α, UQ1.20.
    pub alpha: u32,
    /// Bytes sent since the last byte-counter stage.
    pub bcount: u32,
    pub created: bool,
    /// In the timer list (or being visited).
    pub queued: bool,
    /// Reacting: a CNP came and Rc has not recovered to line rate.
    pub armed: bool,
    /// A CNP came in the current α period.
    pub cnp_a: bool,
    /// A CNP's cut waits for the next decrease period.
    pub cnp_d: bool,
    /// Increase stages by the timer and by the byte counter (saturating).
    pub t_stage: u8,
    pub b_stage: u8,
    /// Epochs of the flow's last α step, last cut and last increase step.
    pub ep: Epochs,
}

/// α ← (1 − g)·α + g·[a CNP came], g = 2^−g_log2, in UQ1.20:
/// α − round(α / 2^g_log2) + (CNP ? 2^(20 − g_log2) : 0), the division
/// rounded half up (truncating it biases α upward by up to 1/g ulps, and
/// in a closed loop that bias compounds over the cuts: 4.9e-3 of Rc
/// against 5.9e-4 rounded, `make bench`). Stays within [0, 1].
pub fn alpha_step(alpha: u32, cnp: bool, g_log2: u8) -> u32 {
    let g = g_log2 as u32 & 0xf;
    let dec = if g == 0 {
        alpha
    } else {
        (alpha + (1 << (g - 1))) >> g
    };
    alpha - dec + if cnp { ALPHA_ONE >> g } else { 0 }
}

/// The cut: max(R_min, Rc − ⌊Rc·α / 2⌋) (α UQ1.20, so the product's
/// shift is 21).
pub fn cut(rc: u32, alpha: u32, r_min: u32) -> u32 {
    let d = ((rc as u64 * alpha as u64) >> 21) as u32;
    (rc - d).max(r_min)
}

/// The increase step's addition to Rt: 0 in fast recovery, R_ai in
/// additive increase, R_hai in hyper increase. With the byte counter off
/// the timer's stage decides (below F, at F, above F); with it on, fast
/// recovery while both stages are below F, hyper increase once both are
/// above, additive otherwise (the DCQCN paper).
pub fn inc_add(t_stage: u8, b_stage: u8, bc_on: bool, cfg: &DcqcnCfg) -> u32 {
    let (hi, lo) = if bc_on {
        (t_stage.max(b_stage), t_stage.min(b_stage))
    } else {
        (t_stage, t_stage)
    };
    let f = cfg.f & 7;
    if hi < f {
        0
    } else if lo > f {
        cfg.r_hai
    } else {
        cfg.r_ai
    }
}

/// The increase step: Rt ← min(Rt + add, R_line), Rc ← ⌈(Rc + Rt) / 2⌉
/// (rounded up, so Rc reaches Rt). Returns (Rc, Rt).
pub fn increase(rc: u32, rt: u32, add: u32, r_line: u32) -> (u32, u32) {
    let rt2 = (rt as u64 + add as u64).min(r_line as u64);
    let rc2 = (rc as u64 + rt2 + 1) >> 1;
    (rc2 as u32, rt2 as u32)
}

/// What an operation is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Event,
    Visit,
    /// An event for a flow id out of range: counted, no state.
    Kill,
}

/// An operation as it took effect at S8 (for the f64 reference and for
/// monitors): what it was, the epochs at its issue, and the decisions
/// that hinge on a fixed-point equality.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Applied {
    pub kind: Kind,
    pub flow: u32,
    pub op: u8,
    pub bytes: u32,
    pub ep: Epochs,
    /// The visit found Rc at line rate and the flow left the timer list.
    pub recovered: bool,
    /// The state after the operation.
    pub after: RpState,
}

#[derive(Clone, Copy, Debug)]
struct Op {
    kind: Kind,
    flow: u32,
    op: u8,
    bytes: u32,
    ep: Epochs,
}

/// The reaction point for 2^A flows.
#[derive(Clone)]
pub struct DcqcnRp<const A: usize> {
    pub flows: Vec<RpState>,
    /// The events' register slice: the interlock decides on its head.
    slice: crate::record::Slice<RpEvent>,
    pipe: VecDeque<Option<Op>>,
    timers: Fifo<16, A>,
    /// The three timers (α, decrease, increase).
    epochs: [PeriodEpoch; 3],
    upd: Option<CcUpdate>,
    cnt: DcqcnStats,
    applied: Option<Applied>,
    /// The slice's head was accepted in the last cycle (issued or merged).
    taken: bool,
}

impl<const A: usize> Default for DcqcnRp<A> {
    fn default() -> Self {
        Self {
            flows: vec![RpState::default(); 1 << A],
            slice: Default::default(),
            pipe: std::iter::repeat_n(None, STAGES).collect(),
            timers: Fifo::default(),
            epochs: Default::default(),
            upd: None,
            cnt: DcqcnStats::default(),
            applied: None,
            taken: false,
        }
    }
}

fn inc(c: &mut u32) {
    *c = c.wrapping_add(1);
}

/// The update of a flow's state.
fn update_of(flow: u32, st: u8, flags: u8, s: &RpState, cfg: &DcqcnCfg) -> CcUpdate {
    CcUpdate {
        flow: flow as u16,
        status: st,
        flags,
        w: cfg.window,
        r: (s.rc >> 8) & 0xff_ffff,
        u: s.alpha,
        inc_stage: s.t_stage.max(s.b_stage).min(7),
        updated_wc: false,
        variant: false,
    }
}

/// An update that carries only its flow and status (drops, DESTROYED).
fn bare(flow: u32, st: u8) -> CcUpdate {
    CcUpdate {
        flow: flow as u16,
        status: st,
        ..CcUpdate::default()
    }
}

impl<const A: usize> DcqcnRp<A> {
    fn in_range(flow: u32) -> bool {
        flow >> A == 0
    }

    /// The operation in S1..S8 on `flow` (at most one, by the interlock).
    fn busy(&self, flow: u32) -> Option<&Op> {
        self.pipe
            .iter()
            .flatten()
            .find(|o| o.kind != Kind::Kill && o.flow == flow)
    }

    /// The epochs an operation issued this cycle sees.
    pub fn epochs(&self) -> Epochs {
        Epochs {
            a: self.epochs[0].epoch(),
            d: self.epochs[1].epoch(),
            i: self.epochs[2].epoch(),
        }
    }

    /// The operation that took effect in the last cycle.
    pub fn applied(&self) -> Option<Applied> {
        self.applied
    }

    /// The event at the register slice's head was accepted in the last
    /// cycle (issued, or merged into a CNP in flight): an event's wait at
    /// the head is not visible at the ports, so monitors that tie updates
    /// to events (`hpccnic cc-replay --algo dcqcn`) read it here.
    pub fn taken(&self) -> bool {
        self.taken
    }

    /// Flows in the timer list.
    pub fn timer_len(&self) -> usize {
        self.timers.len()
    }

    /// Apply an operation at S8: the state write, the timer-list push and
    /// the update.
    fn apply(&mut self, o: &Op, cfg: &DcqcnCfg) -> (Option<CcUpdate>, bool) {
        let c = &mut self.cnt;
        if o.kind == Kind::Kill {
            inc(&mut c.events);
            inc(&mut c.drop_flow);
            self.applied = Some(Applied {
                kind: o.kind,
                flow: o.flow,
                op: o.op,
                bytes: o.bytes,
                ep: o.ep,
                recovered: false,
                after: RpState::default(),
            });
            return (Some(bare(o.flow, status::DROP_FLOW)), false);
        }
        let alpha_init = cfg.alpha_init.min(ALPHA_ONE);
        let bc_on = cfg.byte_reset != 0;
        let s0 = self.flows[o.flow as usize];
        let mut s = s0;
        let mut push = false;
        let mut upd = None;
        let mut flags = 0u8;
        let mut recovered = false;
        // The cut, in a CNP or a visit.
        let do_cut = |s: &mut RpState, c: &mut DcqcnStats| {
            s.rt = s.rc;
            s.rc = cut(s.rc, s.alpha, cfg.r_min);
            s.t_stage = 0;
            s.b_stage = 0;
            s.bcount = 0;
            s.ep.i = o.ep.i;
            s.ep.d = o.ep.d;
            s.cnp_d = false;
            inc(&mut c.cuts);
        };
        match o.kind {
            Kind::Event => {
                inc(&mut c.events);
                match o.op {
                    OP_CREATE => {
                        s = RpState {
                            rc: cfg.r_line,
                            rt: cfg.r_line,
                            alpha: alpha_init,
                            created: true,
                            queued: s.queued,
                            ep: o.ep,
                            ..RpState::default()
                        };
                        upd = Some(update_of(o.flow, status::CREATED, 0, &s, cfg));
                    }
                    OP_DESTROY => {
                        s = RpState {
                            queued: s.queued,
                            ..RpState::default()
                        };
                        upd = Some(bare(o.flow, status::DESTROYED));
                    }
                    _ if !s.created => {
                        inc(&mut c.drop_flow);
                        upd = Some(bare(o.flow, status::DROP_FLOW));
                    }
                    OP_CNP => {
                        inc(&mut c.cnps);
                        let first = !s.armed;
                        if first {
                            s.alpha = alpha_init;
                            s.rc = s.rc.min(cfg.r_first);
                            s.rt = s.rc;
                            s.armed = true;
                            s.cnp_a = false;
                            s.ep.a = o.ep.a;
                            s.ep.i = o.ep.i;
                            s.t_stage = 0;
                            s.b_stage = 0;
                            s.bcount = 0;
                            if !s.queued {
                                s.queued = true;
                                push = true;
                            }
                            flags |= flag::FIRST_CNP;
                        } else {
                            s.cnp_a = true;
                        }
                        let st = if first || cfg.dec_period & 0xff_ffff == 0 || s.ep.d != o.ep.d {
                            do_cut(&mut s, c);
                            status::UPDATE
                        } else {
                            s.cnp_d = true;
                            inc(&mut c.held);
                            status::HELD
                        };
                        upd = Some(update_of(o.flow, st, flags, &s, cfg));
                    }
                    _ => {
                        // SENT
                        inc(&mut c.sents);
                        if s.armed && bc_on {
                            let bc = s.bcount as u64 + (o.bytes & 0xffff) as u64;
                            if bc >= cfg.byte_reset as u64 {
                                let add = inc_add(s.t_stage, s.b_stage, true, cfg);
                                (s.rc, s.rt) = increase(s.rc, s.rt, add, cfg.r_line);
                                s.bcount = 0;
                                s.b_stage = (s.b_stage + 1).min(STAGE_MAX);
                                inc(&mut c.increases);
                            } else {
                                s.bcount = bc as u32;
                            }
                        }
                        if s.rc != s0.rc {
                            upd = Some(update_of(o.flow, status::UPDATE, 0, &s, cfg));
                        }
                    }
                }
            }
            Kind::Visit => {
                inc(&mut c.visits);
                if !(s.created && s.armed) {
                    s.queued = false;
                } else {
                    let mut late = false;
                    if s.ep.a != o.ep.a {
                        late |= o.ep.a.wrapping_sub(s.ep.a) > 1;
                        s.alpha = alpha_step(s.alpha, s.cnp_a, cfg.g_log2);
                        s.cnp_a = false;
                        s.ep.a = o.ep.a;
                    }
                    if s.cnp_d && (cfg.dec_period & 0xff_ffff == 0 || s.ep.d != o.ep.d) {
                        do_cut(&mut s, c);
                    } else if s.ep.i != o.ep.i {
                        late |= o.ep.i.wrapping_sub(s.ep.i) > 1;
                        let add = inc_add(s.t_stage, s.b_stage, bc_on, cfg);
                        (s.rc, s.rt) = increase(s.rc, s.rt, add, cfg.r_line);
                        s.t_stage = (s.t_stage + 1).min(STAGE_MAX);
                        s.ep.i = o.ep.i;
                        inc(&mut c.increases);
                    }
                    if s.rc >= cfg.r_line && !s.cnp_d {
                        s.armed = false;
                        s.queued = false;
                        recovered = true;
                        flags |= flag::RECOVERED;
                        inc(&mut c.recovered);
                    } else {
                        push = true;
                    }
                    if late {
                        flags |= flag::LATE;
                        inc(&mut c.timer_late);
                    }
                    if s.rc != s0.rc || recovered {
                        upd = Some(update_of(o.flow, status::UPDATE, flags, &s, cfg));
                    }
                }
            }
            Kind::Kill => unreachable!(),
        }
        self.flows[o.flow as usize] = s;
        self.applied = Some(Applied {
            kind: o.kind,
            flow: o.flow,
            op: o.op,
            bytes: o.bytes,
            ep: o.ep,
            recovered,
            after: s,
        });
        (upd, push)
    }
}

impl<const A: usize> Cycle for DcqcnRp<A> {
    type In = In;
    type Out = Out;
    fn step(&mut self, i: &In) -> Out {
        let cfg = i.cfg.masked();
        // The event at the slice's head.
        let ev = self.slice.main;
        let ev_v = self.slice.main_v;
        let flow = ev.flow as u32;
        let op = ev.op & 3;
        let in_range = Self::in_range(flow);
        let busy = self.busy(flow).copied();
        let coalesce = in_range
            && op == OP_CNP
            && busy.is_some_and(|b| b.kind == Kind::Event && b.op == OP_CNP);
        let ev_ready = !(in_range && busy.is_some()) || coalesce;
        let o = Out {
            ev_ready: self.slice.s_tready(),
            update_valid: self.upd.is_some(),
            update: self.upd.unwrap_or_default(),
            stats: self.cnt,
        };

        // ---- S0: issue one operation: an event, else the timer list's
        // head. A coalesced CNP is accepted without an issue slot.
        let accept = ev_v && ev_ready;
        self.taken = accept;
        let issue_ev = accept && !coalesce;
        let head = self.timers.head().map(|h| h as u32 & 0xffff);
        let visit_go = !issue_ev && head.is_some_and(|h| self.busy(h).is_none());
        let issued = if issue_ev {
            Some(Op {
                kind: if in_range { Kind::Event } else { Kind::Kill },
                flow,
                op,
                bytes: ev.bytes & 0xffff,
                ep: self.epochs(),
            })
        } else if visit_go {
            Some(Op {
                kind: Kind::Visit,
                flow: head.unwrap(),
                op: 0,
                bytes: 0,
                ep: self.epochs(),
            })
        } else {
            None
        };

        // ---- S8: the oldest operation takes effect.
        self.applied = None;
        let (upd, push, pushed) = match self.pipe.pop_back().flatten() {
            Some(op) => {
                let (u, p) = self.apply(&op, &cfg);
                (u, p, op.flow)
            }
            None => (None, false, 0),
        };
        self.pipe.push_front(issued);
        if accept && coalesce {
            inc(&mut self.cnt.events);
            inc(&mut self.cnt.coalesced);
        }
        self.upd = upd;
        self.timers.step(&fifo::In {
            push,
            push_data: pushed as u128,
            pop: visit_go,
        });
        self.epochs[0].tick(cfg.alpha_period);
        self.epochs[1].tick(cfg.dec_period);
        self.epochs[2].tick(cfg.inc_period);
        self.slice.step(i.ev_valid.then_some(i.ev), ev_ready);
        o
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cc::dcqcn_params::DcqcnParams;

    fn ev(op: u8, flow: u16, bytes: u32) -> In {
        In {
            cfg: DcqcnParams::default().regs().unwrap(),
            ev_valid: true,
            ev: RpEvent { op, flow, bytes },
        }
    }

    fn idle() -> In {
        In {
            ev_valid: false,
            ..ev(0, 0, 0)
        }
    }

    #[test]
    fn arithmetic() {
        // α stays in [0, 1] and moves toward 1 on CNPs.
        assert_eq!(alpha_step(ALPHA_ONE, true, 8), ALPHA_ONE);
        assert_eq!(
            alpha_step(ALPHA_ONE, false, 8),
            ALPHA_ONE - (ALPHA_ONE >> 8)
        );
        let mut a = 0;
        for _ in 0..5000 {
            a = alpha_step(a, true, 4);
            assert!(a <= ALPHA_ONE);
        }
        assert!(a > ALPHA_ONE - 64, "{a}");
        // α = 1 halves the rate.
        assert_eq!(cut(1000 << 8, ALPHA_ONE, 1), 500 << 8);
        assert_eq!(cut(1000, ALPHA_ONE, 900), 900);
        // Rounding up reaches the target.
        assert_eq!(increase(99, 100, 0, 200), (100, 100));
        assert_eq!(increase(50, 100, 150, 200), (125, 200));
    }

    #[test]
    fn first_cnp_cuts_and_a_flood_coalesces() {
        let mut rp = DcqcnRp::<4>::default();
        let mut outs = vec![rp.step(&ev(OP_CREATE, 3, 0))];
        for _ in 0..12 {
            outs.push(rp.step(&idle()));
        }
        for _ in 0..40 {
            outs.push(rp.step(&ev(OP_CNP, 3, 0)));
        }
        let ups: Vec<CcUpdate> = outs
            .iter()
            .filter(|o| o.update_valid)
            .map(|o| o.update)
            .collect();
        assert_eq!(ups[0].status, status::CREATED);
        assert_eq!(ups[1].status, status::UPDATE);
        assert_eq!(ups[1].flags & flag::FIRST_CNP, flag::FIRST_CNP);
        // α = 1: Rc halves (line 12.5 B/ns = 25<<23 → r = 25<<14).
        assert_eq!(ups[1].r, 25 << 14);
        // The rest are held within the same decrease period.
        assert!(ups[2..]
            .iter()
            .all(|u| u.status == status::HELD || u.flow == 3));
        let st = outs.last().unwrap().stats;
        assert!(st.coalesced > 30, "{st:?}");
        assert!(outs.iter().all(|o| o.ev_ready));
    }
}
