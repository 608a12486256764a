//! Twin of `hdl/src/cc/measure_inflight.rs`: one hop's term of
//! MeasureInflight, **pseudocode lines 4–5** (and line 7's tau
//! candidate).
//!
//! ```text
//! 4:  txRate = (ack.L[i].txBytes − L[i].txBytes) / (ack.L[i].ts − L[i].ts)
//! 5:  u'     = min(ack.L[i].qlen, L[i].qlen) / (ack.L[i].B·T) + txRate / ack.L[i].B
//! 7:  tau    = ack.L[i].ts − L[i].ts          (the candidate; line 6 picks one)
//! ```
//!
//! The arithmetic is written once, here, as pure functions; the
//! transaction model `hpcc::HpccFixed` calls [`hop_term`], the cycle twin
//! [`MeasureInflight`] calls [`hop_prep`] and the divider.
//!
//! Formats: Δts UQ24.0 ns (mod 2^24); Δbytes 20 bits of 128·multi bytes
//! (mod 2^20); u′ and both terms UQ8.24, saturating.

use super::fixed::{sat32, shl32, shr};
use super::int_ns3::HopFields;
use super::params::CcRegs;
use crate::arith::divider::{self, divide, Divider};
use crate::{Cycle, Pipe};

/// Line 4's deltas for one hop: (Δts mod 2^24, Δbytes mod 2^20, stale,
/// back). `stale`: the timestamp did not advance or went back (Δts = 0
/// or ≥ 2^23); `back`: the byte counter went back (Δbytes ≥ 2^19).
pub fn hop_deltas(new: &HopFields, old: &HopFields) -> (u32, u32, bool, bool) {
    let dts = new.ts.wrapping_sub(old.ts) & 0xFF_FFFF;
    let db = new.bytes.wrapping_sub(old.bytes) & 0xF_FFFF;
    (dts, db, dts == 0 || dts >= 1 << 23, db >= 1 << 19)
}

/// Line 4 and the second term of line 5, the divider's operands:
/// txRate/B = Δbytes·128·multi / (3.125·2^code · Δts)
///          = Δbytes · 2^(mlog − code + 4) · 2^30 / (25 · Δts) in UQ8.24,
/// so a = Δbytes ≪ (mlog − code + 4) < 2^27 and d = 25·Δts < 2^29 for a
/// `Divider<32, 30>`. A killed hop (stale, bytes back, unused) divides
/// 0 by 1.
pub fn tx_operands(db: u32, dts: u32, code: u8, mlog: u8, kill: bool) -> (u64, u64) {
    if kill {
        (0, 1)
    } else {
        let sh = (mlog & 7).wrapping_add(4).wrapping_sub(code);
        (shl32(db as u64, sh), 25 * (dts & 0xFF_FFFF) as u64)
    }
}

/// txRate / B (lines 4–5), UQ8.24, saturating; 0 for a stale hop or
/// bytes going back.
pub fn u_tx(db: u32, dts: u32, code: u8, mlog: u8, stale: bool, back: bool) -> u32 {
    let (a, d) = tx_operands(db, dts, code, mlog, stale || back);
    divide(32, 30, a, d).0 as u32
}

/// The queue term's shift: s − 29 − mlog + code (mod 2^8).
pub fn q_shift(code: u8, r: &CcRegs) -> u8 {
    r.inv_t_s
        .wrapping_sub(29)
        .wrapping_sub(r.mlog & 7)
        .wrapping_add(code)
}

/// First term of line 5: min(qlen) / (B·T), UQ8.24, saturating.
/// = qmin · 25.6 · 2^(mlog − code) / T = (qmin · uq_m) ≫ (s − 29 − mlog + code).
pub fn u_q(qmin: u32, code: u8, r: &CcRegs) -> u32 {
    sat32(shr(qmin as u64 * r.uq_m as u64, q_shift(code, r)))
}

/// One hop's term before the divider: what the RTL computes in its first
/// stages.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HopPrep {
    /// The divider's operands (line 4).
    pub a: u64,
    pub d: u64,
    /// The queue term (line 5), UQ8.24.
    pub u_q: u32,
    /// Line 7's tau candidate: Δts, or 0 for a stale or unused hop.
    pub tau: u32,
    /// The hop is used and its timestamp is stale / its bytes went back.
    pub stale: bool,
    pub back: bool,
}

/// Everything of one hop's term but the division. `active`: the hop is
/// one of the event's `nhops` (an unused hop gives u′ = 0, tau = 0).
pub fn hop_prep(new: &HopFields, old: &HopFields, active: bool, r: &CcRegs) -> HopPrep {
    let (dts, db, stale, back) = hop_deltas(new, old);
    let (a, d) = tx_operands(db, dts, new.rate, r.mlog, stale || back || !active);
    // Line 5: min(ack.L[i].qlen, L[i].qlen).
    let qmin = if active { new.qlen.min(old.qlen) } else { 0 };
    HopPrep {
        a,
        d,
        u_q: u_q(qmin, new.rate, r),
        tau: if stale || !active { 0 } else { dts },
        stale: active && stale,
        back: active && back,
    }
}

/// One hop's result.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HopTerm {
    /// Line 5's u′, UQ8.24, saturating.
    pub u_prime: u32,
    /// Line 7's tau candidate (UQ24.0 ns).
    pub tau: u32,
    pub stale: bool,
    pub back: bool,
}

/// Lines 4–5 for one hop: the ack's hop `new` against the stored `old`.
pub fn hop_term(new: &HopFields, old: &HopFields, active: bool, r: &CcRegs) -> HopTerm {
    let p = hop_prep(new, old, active, r);
    HopTerm {
        u_prime: sat32(divide(32, 30, p.a, p.d).0 + p.u_q as u64),
        tau: p.tau,
        stale: p.stale,
        back: p.back,
    }
}

// ---- The cycle twin -------------------------------------------------

/// Ports, one cycle. Configuration is quasi-static: the twin samples it
/// with the hop (the RTL reads `cfg_mlog`, `cfg_inv_t_s` 2 cycles later
/// and `cfg_uq_m` 32 cycles later).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    pub in_valid: bool,
    pub new_ts: u32,
    pub new_bytes: u32,
    pub new_qlen: u32,
    pub code: u8,
    pub old_ts: u32,
    pub old_bytes: u32,
    pub old_qlen: u32,
    pub active: bool,
    pub cfg_mlog: u8,
    pub cfg_inv_t_s: u8,
    pub cfg_uq_m: u32,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    /// [`FLAG_LATENCY`] after the hop.
    pub stale: bool,
    pub back: bool,
    /// [`LATENCY`] after the hop.
    pub u_prime: u32,
    pub tau: u32,
    pub out_valid: bool,
}

/// Cycles from the hop to `u_prime`, `tau`, `out_valid`.
pub const LATENCY: usize = 38;
/// Cycles from the hop to `stale`, `back`.
pub const FLAG_LATENCY: usize = 1;
/// The divider's latency (`Divider<32, 30>`: 33).
const DIV: usize = 33;

impl In {
    pub fn hops(&self) -> (HopFields, HopFields) {
        (
            HopFields {
                rate: self.code & 7,
                ts: self.new_ts & 0xFF_FFFF,
                bytes: self.new_bytes & 0xF_FFFF,
                qlen: self.new_qlen & 0x1_FFFF,
            },
            HopFields {
                rate: 0,
                ts: self.old_ts & 0xFF_FFFF,
                bytes: self.old_bytes & 0xF_FFFF,
                qlen: self.old_qlen & 0x1_FFFF,
            },
        )
    }
    pub fn regs(&self) -> CcRegs {
        CcRegs {
            mlog: self.cfg_mlog & 7,
            inv_t_s: self.cfg_inv_t_s,
            uq_m: self.cfg_uq_m,
            ..Default::default()
        }
    }
}

/// The RTL's timing around [`hop_prep`]: the divider's result (held
/// between valid results, as the divider holds it) plus the queue term.
pub struct MeasureInflight {
    flags: Pipe<(bool, bool)>,
    div: Divider<32, 30>,
    /// Queue term and tau, alongside the divider.
    side: Pipe<(u32, u32)>,
    /// u′ = the sum, saturated, and its two registers.
    out: Pipe<(u32, u32, bool)>,
}

impl Default for MeasureInflight {
    fn default() -> Self {
        Self {
            flags: Pipe::new(FLAG_LATENCY),
            div: Divider::default(),
            side: Pipe::new(DIV),
            out: Pipe::new(LATENCY - DIV),
        }
    }
}

impl Cycle for MeasureInflight {
    type In = In;
    type Out = Out;
    fn step(&mut self, i: &In) -> Out {
        let (new, old) = i.hops();
        let p = hop_prep(&new, &old, i.active, &i.regs());
        let (stale, back) = self.flags.shift((p.stale, p.back));
        let q = self.div.step(&divider::In {
            a: p.a,
            d: p.d,
            in_valid: i.in_valid,
        });
        let (uq, tau) = self.side.shift((p.u_q, p.tau));
        let (u_prime, tau, out_valid) = self.out.shift((sat32(q.q + uq as u64), tau, q.out_valid));
        Out {
            stale,
            back,
            u_prime,
            tau,
            out_valid,
        }
    }
}
