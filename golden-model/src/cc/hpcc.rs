//! Twin of `hdl/src/cc/hpcc.rs`: the HPCC++ CC module, bit-exact and
//! cycle-exact.
//!
//! [`HpccFixed`] is the transaction-level model: one call per event, the
//! fixed-point arithmetic of the RTL as plain integer Rust, step by step,
//! with the pseudocode line each step implements. The arithmetic itself
//! is in the pure functions of the blocks' twins (`measure_inflight`,
//! `hop_max`, `ewma`, `compute_wind`, `rate`), which their cycle twins
//! use too: it is written once. [`HpccCc`]
//! wraps it in the RTL's timing (the events' register slice, fixed
//! latency, the per-flow hazard interlock on the slice's head, the
//! counters) and implements [`Cycle`].
//!
//! Formats (`docs/architecture.md` §4): U, u, u′ UQ8.24; tau/T UQ1.24;
//! eta UQ0.16; eta/U UQ12.20; W, Wc, W_ai, W_min, W_init UQ24.8 bytes;
//! R UQ8.16 bytes/ns.

use super::int_ns3::{HopFields, QLEN_MAX};
use super::params::CcRegs;
use crate::Cycle;
use std::collections::VecDeque;

/// Hops of telemetry at most (the events' hop words; a module built to
/// track fewer, `HpccCc<A, H>`, drops events of more than H hops).
pub const HOPS: usize = 5;

/// Event operations (`in_op`).
pub mod op {
    /// A telemetry event (an ACK, or a data packet for the receiver).
    pub const EVENT: u8 = 0;
    /// Create (or re-initialise) a flow: W = Wc = W_init, U = 1.
    pub const CREATE: u8 = 1;
    /// Destroy a flow: later events for it are dropped.
    pub const DESTROY: u8 = 2;
}

/// Output status (`out_status`).
pub mod status {
    /// W, U (and on a commit Wc, incStage) updated.
    pub const UPDATE: u8 = 0;
    /// First telemetry of the flow, or a hop count that differs from the
    /// stored one: telemetry stored, lastUpdate set, W unchanged.
    pub const INIT: u8 = 1;
    pub const CREATED: u8 = 2;
    pub const DESTROYED: u8 = 3;
    /// Flow id ≥ flows, or a flow never created (or destroyed), or an
    /// unknown op: dropped, counted, no state touched.
    pub const DROP_FLOW: u8 = 4;
    /// Hop count 0 or above 5: dropped, counted, no state touched.
    pub const DROP_HOPS: u8 = 5;
    /// A hop (of the first `nhops`) with an unknown line-rate code:
    /// dropped, counted, no state touched.
    pub const DROP_RATE: u8 = 6;
    /// An EVENT whose `variant` is not the flow's (an ACK's telemetry for
    /// a NewINT flow, or a data packet's for a NewAck flow): dropped,
    /// counted, no state touched.
    pub const DROP_VARIANT: u8 = 7;

    pub fn name(s: u8) -> &'static str {
        match s {
            UPDATE => "update",
            INIT => "init",
            CREATED => "created",
            DESTROYED => "destroyed",
            DROP_FLOW => "drop_flow",
            DROP_HOPS => "drop_hops",
            DROP_RATE => "drop_rate",
            DROP_VARIANT => "drop_variant",
            _ => "?",
        }
    }
}

/// Per-event flags (`out_flags`), set on UPDATE events.
pub mod flag {
    /// A hop's timestamp did not advance, or went back (Δts mod 2^24 = 0
    /// or ≥ 2^23): that hop contributes its queue term only, with tau 0.
    pub const TS_STALE: u8 = 1;
    /// A hop's tx bytes went back (Δbytes mod 2^20 ≥ 2^19): its tx term
    /// is 0.
    pub const BYTES_BACK: u8 = 2;
    /// A hop's qlen is at its maximum (the switch saturated it): used as
    /// is, counted.
    pub const QLEN_SAT: u8 = 4;
}

/// One event (an `in_*` transfer).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CcEvent {
    pub op: u8,
    /// CREATE: the flow's variant; EVENT: the variant the event is for
    /// (false NewAck, true NewINT).
    pub variant: bool,
    pub flow: u16,
    /// Sender: the ACK's sequence number (mod 2^32).
    pub seq: u32,
    /// Sender: snd_nxt when the ACK arrives (mod 2^32).
    pub snd_nxt: u32,
    /// Receiver: local time, ns mod 2^32.
    pub now: u32,
    /// Hop count, 4 bits (values above 5 are dropped).
    pub nhops: u8,
    /// Per-hop words in the ns-3 format (`int_ns3`).
    pub hops: [u64; HOPS],
}

/// One result: the `CcUpdate` record (`nic_spec::records`), the struct
/// the cycle twin's `m_update` port carries.
pub use crate::cc::CcUpdate;

/// One flow's state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FlowState {
    pub created: bool,
    /// The flow's variant (false NewAck, true NewINT), set on CREATE.
    pub variant: bool,
    /// Hop count of the stored telemetry; 0 = none stored.
    pub nhops: u8,
    /// lastUpdateSeq (sender) or lastUpdateTime (receiver).
    pub last: u32,
    /// L: the stored telemetry, raw words.
    pub hops: [u64; HOPS],
    pub u: u32,
    pub w: u32,
    pub wc: u32,
    pub inc_stage: u8,
}

/// Drop and anomaly counters, 32-bit, wrapping: the `CcStats` record
/// (`events`: UPDATE and INIT events; `ts_stale`, `bytes_back`,
/// `qlen_sat`: UPDATE events with that flag set).
pub type Counters = crate::cc::CcStats;

impl crate::cc::CcStats {
    pub fn count(&mut self, u: &CcUpdate) {
        let c = match u.status {
            status::UPDATE | status::INIT => &mut self.events,
            status::DROP_FLOW => &mut self.drop_flow,
            status::DROP_HOPS => &mut self.drop_hops,
            status::DROP_RATE => &mut self.drop_rate,
            status::DROP_VARIANT => &mut self.drop_variant,
            _ => return,
        };
        *c = c.wrapping_add(1);
        if u.flags & flag::TS_STALE != 0 {
            self.ts_stale = self.ts_stale.wrapping_add(1);
        }
        if u.flags & flag::BYTES_BACK != 0 {
            self.bytes_back = self.bytes_back.wrapping_add(1);
        }
        if u.flags & flag::QLEN_SAT != 0 {
            self.qlen_sat = self.qlen_sat.wrapping_add(1);
        }
    }
}

// ---- The arithmetic -------------------------------------------------
//
// Each block of the RTL has its pure functions in its own module, the
// same ones its cycle twin uses (the pseudocode lines they implement in
// brackets): `measure_inflight` (4–5), `hop_max` (2, 6–7), `ewma` (8–9),
// `compute_wind` (11–20), `rate` (27). The commit decisions (lines 22,
// 29) are here.

pub use super::compute_wind::{compute_wind, eta_over_u, update_wc};
pub use super::ewma::{ewma, tau_weight, U_ONE};
pub use super::fixed::{sat32, shl32, shr};
pub use super::hop_max::hop_max;
pub use super::measure_inflight::{hop_deltas, hop_term, u_q, u_tx};
pub use super::rate::rate;

/// Serial-number comparison a > b (mod 2^32).
pub fn serial_gt(a: u32, b: u32) -> bool {
    (a.wrapping_sub(b) as i32) > 0
}

/// Line 22 (NewAck): ack.seq > lastUpdateSeq, in serial 32-bit arithmetic.
pub fn sender_commit(seq: u32, last_update_seq: u32) -> bool {
    serial_gt(seq, last_update_seq)
}

/// Line 29 (NewINT): now > lastUpdateTime + T, i.e. now − lastUpdateTime
/// > T in signed 32-bit ns.
pub fn receiver_commit(now: u32, last_update_time: u32, t: u32) -> bool {
    (now.wrapping_sub(last_update_time) as i32) > t as i32
}

/// What an event is, before any arithmetic: the checks of the RTL's
/// stage 2, shared by the fixed-point and the f64 models.
pub enum Gate {
    Create,
    Destroy,
    /// Dropped with this status.
    Drop(u8),
    /// A telemetry event: its first `nhops` hops, decoded.
    Telemetry(Vec<HopFields>),
}

/// Classify `ev` for a module of `flows` flows tracking `hops` hops (1..=
/// [`HOPS`]); `variant` gives the event's flow's variant if it exists,
/// `None` if not (only asked for a flow id in range).
pub fn gate(ev: &CcEvent, flows: usize, hops: usize, variant: impl Fn() -> Option<bool>) -> Gate {
    if ev.flow as usize >= flows {
        return Gate::Drop(status::DROP_FLOW);
    }
    match ev.op {
        op::CREATE => return Gate::Create,
        op::DESTROY => return Gate::Destroy,
        op::EVENT => match variant() {
            None => return Gate::Drop(status::DROP_FLOW),
            Some(v) if v != ev.variant => return Gate::Drop(status::DROP_VARIANT),
            Some(_) => {}
        },
        _ => return Gate::Drop(status::DROP_FLOW),
    }
    let n = ev.nhops as usize;
    if n == 0 || n > hops.min(HOPS) {
        return Gate::Drop(status::DROP_HOPS);
    }
    let new: Vec<HopFields> = ev.hops[..n].iter().map(|&w| HopFields::decode(w)).collect();
    if new.iter().any(|h| !h.rate_ok()) {
        return Gate::Drop(status::DROP_RATE);
    }
    Gate::Telemetry(new)
}

/// The transaction-level model: all flows' state, one event at a time.
#[derive(Clone, Debug)]
pub struct HpccFixed {
    pub flows: usize,
    /// Hops tracked: an event of more is `DROP_HOPS`.
    pub hops: usize,
    pub state: Vec<FlowState>,
}

impl HpccFixed {
    /// `flows_log2`: the module holds 2^flows_log2 flows.
    pub fn new(flows_log2: u32) -> Self {
        Self::with_hops(flows_log2, HOPS)
    }

    /// A module of 2^flows_log2 flows that tracks `hops` hops (1..=
    /// [`HOPS`]): the RTL's `HpccCc<A, H>`.
    pub fn with_hops(flows_log2: u32, hops: usize) -> Self {
        assert!((1..=HOPS).contains(&hops), "1 <= hops <= {HOPS}");
        let flows = 1usize << flows_log2;
        Self {
            flows,
            hops,
            state: vec![FlowState::default(); flows],
        }
    }

    /// Process one event with registers `r`; returns the module's output.
    pub fn process(&mut self, ev: &CcEvent, r: &CcRegs) -> CcUpdate {
        let mut out = CcUpdate {
            flow: ev.flow,
            variant: ev.variant,
            ..Default::default()
        };
        let fi = ev.flow as usize;
        let new = match gate(ev, self.flows, self.hops, || {
            let s = &self.state[fi];
            s.created.then_some(s.variant)
        }) {
            Gate::Drop(st) => {
                out.status = st;
                return out;
            }
            Gate::Create => {
                let st = &mut self.state[fi];
                *st = FlowState {
                    created: true,
                    variant: ev.variant,
                    u: U_ONE,
                    w: r.w_init,
                    wc: r.w_init,
                    ..Default::default()
                };
                out.status = status::CREATED;
                out.w = st.w;
                out.r = rate(st.w, r);
                out.u = st.u;
                return out;
            }
            Gate::Destroy => {
                self.state[fi].created = false;
                out.status = status::DESTROYED;
                return out;
            }
            Gate::Telemetry(new) => new,
        };
        let n = new.len();
        let st = &mut self.state[fi];
        let stamp = if st.variant { ev.now } else { ev.snd_nxt };
        if st.nhops as usize != n {
            // First telemetry (or a new path length): store L, set
            // lastUpdate, change nothing else.
            st.nhops = n as u8;
            st.hops = ev.hops;
            st.last = stamp;
            out.status = status::INIT;
            out.w = st.w;
            out.r = rate(st.w, r);
            out.u = st.u;
            out.inc_stage = st.inc_stage;
            return out;
        }
        // Line 22 / 29: commit Wc this time?
        let commit = if st.variant {
            receiver_commit(ev.now, st.last, r.t)
        } else {
            sender_commit(ev.seq, st.last)
        };
        // Lines 1–7: MeasureInflight, per hop (lines 4–5), then the
        // maximum over the hops (lines 6–7).
        let mut flags = 0u8;
        let mut terms = [(0u32, 0u32); HOPS];
        for i in 0..n {
            let old = HopFields::decode(st.hops[i]);
            let h = new[i];
            let t = hop_term(&h, &old, true, r);
            if t.stale {
                flags |= flag::TS_STALE;
            }
            if t.back {
                flags |= flag::BYTES_BACK;
            }
            if h.qlen == QLEN_MAX {
                flags |= flag::QLEN_SAT;
            }
            terms[i] = (t.u_prime, t.tau);
        }
        let (u, tau) = hop_max(&terms[..n]);
        // Lines 8–9.
        st.u = ewma(st.u, u, tau_weight(tau, r));
        // Lines 11–20 (ComputeWind); lines 23 / 26 and 30 / 34 call it
        // with updateWc = commit.
        let (w, md) = compute_wind(st.u, st.wc, st.inc_stage, r);
        st.w = w;
        (st.wc, st.inc_stage) = update_wc(commit, w, md, st.wc, st.inc_stage);
        if commit {
            // Line 24 / 32: lastUpdateSeq = snd_nxt, lastUpdateTime = now.
            st.last = stamp;
        }
        // Line 27: L = ack.L.
        st.hops = ev.hops;
        out.status = status::UPDATE;
        out.flags = flags;
        out.w = w;
        out.r = rate(w, r);
        out.u = st.u;
        out.inc_stage = st.inc_stage;
        out.updated_wc = commit;
        out
    }
}

// ---- The cycle twin -------------------------------------------------

/// Ports of the CC module, one cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    // Configuration registers (quasi-static: change them only while no
    // event is in flight).
    pub cfg_t: u32,
    pub cfg_inv_t_m: u32,
    pub cfg_inv_t_s: u8,
    pub cfg_uq_m: u32,
    pub cfg_eta: u16,
    pub cfg_max_stage: u8,
    pub cfg_w_ai: u32,
    pub cfg_w_min: u32,
    pub cfg_w_init: u32,
    pub cfg_mlog: u8,
    // The event stream.
    pub event_valid: bool,
    pub event: crate::cc::CcEvent,
}

impl In {
    pub fn with_regs(r: &CcRegs) -> Self {
        Self {
            cfg_t: r.t,
            cfg_inv_t_m: r.inv_t_m,
            cfg_inv_t_s: r.inv_t_s,
            cfg_uq_m: r.uq_m,
            cfg_eta: r.eta,
            cfg_max_stage: r.max_stage,
            cfg_w_ai: r.w_ai,
            cfg_w_min: r.w_min,
            cfg_w_init: r.w_init,
            cfg_mlog: r.mlog,
            ..Default::default()
        }
    }

    pub fn regs(&self) -> CcRegs {
        CcRegs {
            t: self.cfg_t & 0xFF_FFFF,
            inv_t_m: self.cfg_inv_t_m,
            inv_t_s: self.cfg_inv_t_s,
            uq_m: self.cfg_uq_m,
            eta: self.cfg_eta,
            max_stage: self.cfg_max_stage & 7,
            w_ai: self.cfg_w_ai,
            w_min: self.cfg_w_min,
            w_init: self.cfg_w_init,
            mlog: self.cfg_mlog & 7,
        }
    }

    /// Drive `ev` (with `event_valid`).
    pub fn set_event(&mut self, ev: &CcEvent) {
        self.event_valid = true;
        self.event = (*ev).into();
    }

    /// The event on the port, masked to the port widths.
    pub fn event(&self) -> CcEvent {
        masked(&self.event)
    }
}

/// A port record as the transaction-level event, masked to the port widths.
fn masked(e: &crate::cc::CcEvent) -> CcEvent {
    CcEvent {
        op: e.op & 3,
        variant: e.variant,
        flow: e.flow,
        seq: e.seq,
        snd_nxt: e.snd_nxt,
        now: e.now,
        nhops: e.nhops & 15,
        hops: [e.hop0, e.hop1, e.hop2, e.hop3, e.hop4],
    }
}

impl From<CcEvent> for crate::cc::CcEvent {
    /// The transaction-level event (hops as an array) as the port record.
    fn from(ev: CcEvent) -> Self {
        let [hop0, hop1, hop2, hop3, hop4] = ev.hops;
        Self {
            op: ev.op,
            variant: ev.variant,
            flow: ev.flow,
            seq: ev.seq,
            snd_nxt: ev.snd_nxt,
            now: ev.now,
            nhops: ev.nhops,
            hop0,
            hop1,
            hop2,
            hop3,
            hop4,
        }
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub event_ready: bool,
    pub update_valid: bool,
    pub update: CcUpdate,
    pub stats: Counters,
}

/// Cycles from an event's handshake at `s_event` (not held at the
/// register slice's head) to its `update_valid`: one in the slice, 102 in
/// the pipeline.
pub const LATENCY: usize = 103;
/// An event waits at the register slice's head (and `event_ready` falls
/// once the slice holds two) while an event of the same flow accepted in
/// the last `HAZARD_WINDOW` cycles is still updating that flow's state:
/// back-to-back events of one flow are spaced `HAZARD_WINDOW + 1`
/// cycles, events of different flows go one a cycle.
pub const HAZARD_WINDOW: usize = 9;

/// The cycle twin. `A`: the module holds 2^A flows; `H`: it tracks H
/// hops (an event of more is `DROP_HOPS`).
#[derive(Clone)]
pub struct HpccCc<const A: usize, const H: usize = HOPS> {
    pub model: HpccFixed,
    /// The events' register slice: the interlock decides on its head.
    slice: crate::record::Slice<crate::cc::CcEvent>,
    pipe: VecDeque<Option<CcUpdate>>,
    window: VecDeque<Option<u16>>,
    counters: Counters,
}

impl<const A: usize, const H: usize> Default for HpccCc<A, H> {
    fn default() -> Self {
        Self {
            model: HpccFixed::with_hops(A as u32, H),
            slice: Default::default(),
            pipe: std::iter::repeat(None).take(LATENCY - 1).collect(),
            window: std::iter::repeat(None).take(HAZARD_WINDOW).collect(),
            counters: Counters::default(),
        }
    }
}

impl<const A: usize, const H: usize> Cycle for HpccCc<A, H> {
    type In = In;
    type Out = Out;
    fn step(&mut self, i: &In) -> Out {
        // The event at the slice's head.
        let head = self.slice.main;
        let head_ready = !self.window.iter().any(|w| *w == Some(head.flow));
        let accept = self.slice.main_v && head_ready;
        let event_ready = self.slice.s_tready();
        let res = accept.then(|| self.model.process(&masked(&head), &i.regs()));
        self.window.push_back(accept.then_some(head.flow));
        self.window.pop_front();
        self.pipe.push_back(res);
        let leaving = self.pipe.pop_front().unwrap();
        let c = self.counters;
        let mut o = Out {
            event_ready,
            stats: c,
            ..Default::default()
        };
        if let Some(u) = leaving {
            self.counters.count(&u);
            o.update_valid = true;
            o.update = u;
        }
        self.slice
            .step(i.event_valid.then_some(i.event), head_ready);
        o
    }
}
