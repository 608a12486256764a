//! The f64 reference of HPCC++: the draft's pseudocode (lines 1–34) line
//! for line, in real arithmetic, with no RTL twin. It is what the
//! fixed-point model ([`super::hpcc::HpccFixed`]) is measured against.
//!
//! It reads the same quantised telemetry as the RTL (the fields a switch
//! wrote, decoded to ns and bytes, deltas corrected for one wrap) and
//! follows the same conventions, so the difference between the two is the
//! fixed-point arithmetic alone:
//! - a new flow starts with W = Wc = W_init = line rate × T, U = 1,
//!   incStage = 0, no stored telemetry, lastUpdate = 0;
//! - the first event (or one whose hop count differs from the stored one)
//!   only stores its telemetry and sets lastUpdate;
//! - a hop whose timestamp did not advance (or went back) contributes its
//!   queue term only, with tau = 0; tx bytes going back count as 0;
//! - W is clamped to [W_min, W_init]; R = W/T.
//! Bad events (unknown flow, hop count, rate code) are dropped with the
//! same statuses as the RTL.

use super::hpcc::{flag, gate, hop_deltas, status, CcEvent, Gate, HOPS};
use super::int_ns3::{HopFields, QLEN_MAX};
use super::params::{rate_bytes_per_ns, CcParams};

/// One flow's state, real-valued.
#[derive(Clone, Copy, Debug, Default)]
pub struct RefFlow {
    pub created: bool,
    /// The flow's variant (true NewINT), from its CREATE.
    pub receiver: bool,
    pub nhops: u8,
    pub last: u32,
    pub hops: [u64; HOPS],
    pub u: f64,
    pub w: f64,
    pub wc: f64,
    pub inc_stage: u32,
}

/// The reference's result for one event.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RefUpdate {
    pub flow: u16,
    pub status: u8,
    pub flags: u8,
    /// W, bytes.
    pub w: f64,
    /// R = W/T, bytes per ns.
    pub r: f64,
    pub u: f64,
    pub inc_stage: u32,
    pub updated_wc: bool,
}

#[derive(Clone, Debug)]
pub struct HpccRef {
    pub p: CcParams,
    pub state: Vec<RefFlow>,
    t: f64,
    eta: f64,
    w_ai: f64,
    w_min: f64,
    w_init: f64,
    multi: f64,
}

impl HpccRef {
    pub fn new(p: &CcParams) -> Self {
        Self {
            state: vec![RefFlow::default(); p.flows as usize],
            t: p.base_rtt_ns.round(),
            eta: p.eta,
            w_ai: p.w_ai_bytes,
            w_min: p.w_min_bytes,
            w_init: p.w_init_bytes(),
            multi: p.int_multi as f64,
            p: p.clone(),
        }
    }

    /// Function MeasureInflight(ack), lines 1–10.
    fn measure_inflight(&self, st: &RefFlow, new: &[HopFields], flags: &mut u8) -> f64 {
        let t = self.t;
        let mut u = 0.0; // line 2
        let mut tau = 0.0;
        for (i, h) in new.iter().enumerate() {
            // line 3
            let old = HopFields::decode(st.hops[i]);
            let (dts, db, stale, back) = hop_deltas(h, &old);
            *flags |= ((stale as u8) * flag::TS_STALE) | ((back as u8) * flag::BYTES_BACK);
            if h.qlen == QLEN_MAX {
                *flags |= flag::QLEN_SAT;
            }
            let b = rate_bytes_per_ns(h.rate);
            let dbytes = if back {
                0.0
            } else {
                db as f64 * 128.0 * self.multi
            };
            let dt = if stale { 0.0 } else { dts as f64 };
            // line 4
            let tx_rate = if stale { 0.0 } else { dbytes / dt };
            // line 5
            let qmin = h.qlen.min(old.qlen) as f64 * 80.0 * self.multi;
            // u' saturates where the hardware's UQ8.24 does
            // (docs/architecture.md §4), so anomalous telemetry (a huge
            // tx rate over a tiny dt) compares like with like.
            let up = (qmin / (b * t) + tx_rate / b).min(256.0 - 1.0 / 16_777_216.0);
            if up > u {
                // lines 6–7
                u = up;
                tau = dt;
            }
        }
        let tau = tau.min(t); // line 8
        (1.0 - tau / t) * st.u + tau / t * u // line 9
    }

    /// Function ComputeWind(U, updateWc), lines 11–20.
    fn compute_wind(&self, st: &mut RefFlow, uu: f64, update_wc: bool) -> f64 {
        let mut w;
        if uu >= self.eta || st.inc_stage >= self.p.max_stage {
            // line 12
            w = st.wc / (uu / self.eta) + self.w_ai; // line 13
            w = w.clamp(self.w_min, self.w_init);
            if update_wc {
                st.inc_stage = 0; // line 15
                st.wc = w;
            }
        } else {
            w = st.wc + self.w_ai; // line 17
            w = w.clamp(self.w_min, self.w_init);
            if update_wc {
                st.inc_stage += 1; // line 19
                st.wc = w;
            }
        }
        w
    }

    /// Procedure NewAck (lines 21–27) or NewINT (lines 28–34).
    pub fn process(&mut self, ev: &CcEvent) -> RefUpdate {
        let mut out = RefUpdate {
            flow: ev.flow,
            ..Default::default()
        };
        let fi = ev.flow as usize;
        let new = match gate(ev, self.state.len(), HOPS, || {
            let s = &self.state[fi];
            s.created.then_some(s.receiver)
        }) {
            Gate::Drop(st) => {
                out.status = st;
                return out;
            }
            Gate::Create => {
                let st = RefFlow {
                    created: true,
                    receiver: ev.variant,
                    u: 1.0,
                    w: self.w_init,
                    wc: self.w_init,
                    ..Default::default()
                };
                self.state[fi] = st;
                out.status = status::CREATED;
                out.w = st.w;
                out.r = st.w / self.t;
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
        let mut st = self.state[fi];
        let receiver = st.receiver;
        let stamp = if receiver { ev.now } else { ev.snd_nxt };
        if st.nhops as usize != n {
            st.nhops = n as u8;
            st.hops = ev.hops;
            st.last = stamp;
            self.state[fi] = st;
            out.status = status::INIT;
            out.w = st.w;
            out.r = st.w / self.t;
            out.u = st.u;
            out.inc_stage = st.inc_stage;
            return out;
        }
        let mut flags = 0;
        let uu = self.measure_inflight(&st, &new, &mut flags);
        st.u = uu;
        let commit = if receiver {
            // line 29: now > lastUpdateTime + T
            (ev.now.wrapping_sub(st.last) as i32) > self.t as i32
        } else {
            // line 22: ack.seq > lastUpdateSeq
            (ev.seq.wrapping_sub(st.last) as i32) > 0
        };
        let w = self.compute_wind(&mut st, uu, commit); // lines 23/26, 30/34
        if commit {
            st.last = stamp; // line 24 / 32
        }
        st.w = w;
        st.hops = ev.hops; // line 27: L = ack.L
        self.state[fi] = st;
        out.status = status::UPDATE;
        out.flags = flags;
        out.w = w;
        out.r = w / self.t; // line 27: R = W/T
        out.u = uu;
        out.inc_stage = st.inc_stage;
        out.updated_wc = commit;
        out
    }
}
