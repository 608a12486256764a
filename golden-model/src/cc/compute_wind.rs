//! Twin of `hdl/src/cc/compute_wind.rs`: ComputeWind, **pseudocode
//! lines 11–20**.
//!
//! ```text
//! 11: Function ComputeWind(U, updateWc)
//! 12:    if U >= eta or incStage >= maxStage then
//! 13:        W = Wc / (U/eta) + W_ai;
//! 14:        if updateWc then
//! 15:            incStage = 0; Wc = W;
//! 16:    else
//! 17:        W = Wc + W_ai;
//! 18:        if updateWc then
//! 19:            incStage++; Wc = W;
//! 20:    return W
//! ```
//!
//! Formats: U UQ8.24; eta UQ0.16; eta/U UQ12.20 (`Divider<32, 28>`);
//! W, Wc, W_ai, W_min, W_init UQ24.8 bytes; incStage, maxStage 3 bits.
//! W is clamped to [W_min, W_init] (W_init first).

use super::params::CcRegs;
use crate::arith::divider::{self, divide, Divider};
use crate::{Cycle, Pipe};

/// Line 13's eta/U, UQ12.20: `Divider<32, 28>` on eta (UQ0.16) and U
/// (UQ8.24); all ones when U = 0 or eta/U ≥ 4096.
pub fn eta_over_u(eta: u16, uu: u32) -> u32 {
    divide(32, 28, eta as u64, uu as u64).0 as u32
}

/// Line 12's first test: U ≥ eta (eta ≪ 8 in UQ8.24).
pub fn u_ge_eta(uu: u32, eta: u16) -> bool {
    uu >= (eta as u32) << 8
}

/// Line 12: the multiplicative branch (line 13) or the additive one
/// (line 17).
pub fn md_branch(u_ge_eta: bool, inc_stage: u8, max_stage: u8) -> bool {
    u_ge_eta || (inc_stage & 7) >= (max_stage & 7)
}

/// Line 13: Wc / (U/eta) + W_ai, unsaturated (< 2^44). eta/U (floored by
/// the divider, capped below 2048) gets half an LSB back, and the product
/// is rounded to nearest: round(Wc · (2r + 1) / 2^21). Without this,
/// every commit loses up to 1/256 byte and ~10^-6 of Wc, and the losses
/// compound along Wc's recurrence.
pub fn line13(wc: u32, eta_u: u32, w_ai: u32) -> u64 {
    let rr = eta_u.min(0x7FFF_FFFF) as u64;
    let p = wc as u64 * (2 * rr + 1);
    ((p + (1 << 20)) >> 21) + w_ai as u64
}

/// Line 17: Wc + W_ai (33 bits).
pub fn line17(wc: u32, w_ai: u32) -> u64 {
    wc as u64 + w_ai as u64
}

/// The clamp's comparisons on the unsaturated W: (above W_init, below
/// W_min).
pub fn clamp_flags(w: u64, w_min: u32, w_init: u32) -> (bool, bool) {
    (w > w_init as u64, w < w_min as u64)
}

/// The clamp's choice, from its comparisons and W's low 32 bits:
/// max(min(W, W_init), W_min).
pub fn clamp_select(above: bool, below: bool, w_low: u32, w_min: u32, w_init: u32) -> u32 {
    if above {
        w_init.max(w_min)
    } else if below {
        w_min
    } else {
        w_low
    }
}

/// Lines 12–13 / 17 with eta/U given (the divider's result): (W, MD
/// branch taken), clamped.
pub fn wind(eta_u: u32, u_ge_eta: bool, wc: u32, inc_stage: u8, r: &CcRegs) -> (u32, bool) {
    let md = md_branch(u_ge_eta, inc_stage, r.max_stage);
    let w = if md {
        line13(wc, eta_u, r.w_ai)
    } else {
        line17(wc, r.w_ai)
    };
    let (above, below) = clamp_flags(w, r.w_min, r.w_init);
    (clamp_select(above, below, w as u32, r.w_min, r.w_init), md)
}

/// Lines 12–13, 16–17: (W, MD branch taken), without the commit.
pub fn compute_wind(uu: u32, wc: u32, inc_stage: u8, r: &CcRegs) -> (u32, bool) {
    wind(eta_over_u(r.eta, uu), u_ge_eta(uu, r.eta), wc, inc_stage, r)
}

/// Lines 14–15 and 18–19: (Wc, incStage) after ComputeWind gave `w`.
pub fn update_wc(update: bool, w: u32, md: bool, wc: u32, inc_stage: u8) -> (u32, u8) {
    match (update, md) {
        (false, _) => (wc, inc_stage),
        (true, true) => (w, 0),
        (true, false) => (w, inc_stage.wrapping_add(1) & 7),
    }
}

// ---- The cycle twin -------------------------------------------------

/// Ports, one cycle. `u` comes with `in_valid`; the flow's stored W, Wc,
/// incStage (`w_old`, `wc_old`, `inc_old`, from the W RAM)
/// [`STATE_AT`] cycles later; `update_wc` [`LATENCY`] cycles later, with
/// the outputs. Configuration is quasi-static.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    pub in_valid: bool,
    pub u: u32,
    pub w_old: u32,
    pub wc_old: u32,
    pub inc_old: u8,
    pub update_wc: bool,
    pub cfg_eta: u16,
    pub cfg_max_stage: u8,
    pub cfg_w_ai: u32,
    pub cfg_w_min: u32,
    pub cfg_w_init: u32,
}

impl In {
    pub fn regs(&self) -> CcRegs {
        CcRegs {
            eta: self.cfg_eta,
            max_stage: self.cfg_max_stage & 7,
            w_ai: self.cfg_w_ai,
            w_min: self.cfg_w_min,
            w_init: self.cfg_w_init,
            ..Default::default()
        }
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    /// The new W (line 13 or 17, clamped).
    pub w: u32,
    /// Wc and incStage after lines 14–15 / 18–19.
    pub wc: u32,
    pub inc_stage: u8,
    /// The stored W and incStage the event read (`w_old`, `inc_old`).
    pub w_prev: u32,
    pub inc_prev: u8,
    pub out_valid: bool,
}

/// Cycles from `u` to the outputs (and to `update_wc`).
pub const LATENCY: usize = 40;
/// Cycles from `u` to the stored state (`w_old`, `wc_old`, `inc_old`).
pub const STATE_AT: usize = 32;
/// The divider's latency (`Divider<32, 28>`: 33): line 12's decision.
const DECIDE: usize = 33;

/// Line 12's decision onward, one stage.
#[derive(Clone, Copy, Debug, Default)]
struct Mid {
    /// Line 13 or 17, unsaturated.
    w: u64,
    md: bool,
    w_prev: u32,
    wc_prev: u32,
    inc_prev: u8,
    valid: bool,
}

/// The clamp's registered comparisons, and what goes along.
#[derive(Clone, Copy, Debug, Default)]
struct Clamp {
    above: bool,
    below: bool,
    w_low: u32,
    md: bool,
    w_prev: u32,
    wc_prev: u32,
    inc_prev: u8,
    valid: bool,
}

pub struct ComputeWind {
    div: Divider<32, 28>,
    u_ge: Pipe<bool>,
    state: Pipe<(u32, u32, u8)>,
    mid: Pipe<Mid>,
    clamp: Clamp,
}

impl Default for ComputeWind {
    fn default() -> Self {
        Self {
            div: Divider::default(),
            u_ge: Pipe::new(DECIDE),
            state: Pipe::new(1),
            mid: Pipe::new(LATENCY - DECIDE - 1),
            clamp: Clamp::default(),
        }
    }
}

impl Cycle for ComputeWind {
    type In = In;
    type Out = Out;
    fn step(&mut self, i: &In) -> Out {
        let r = i.regs();
        // The outputs: the clamp's choice and the commit, from registers
        // and this cycle's `update_wc`.
        let c = self.clamp;
        let w = clamp_select(c.above, c.below, c.w_low, r.w_min, r.w_init);
        let (wc, inc_stage) = update_wc(i.update_wc, w, c.md, c.wc_prev, c.inc_prev);
        let out = Out {
            w,
            wc,
            inc_stage,
            w_prev: c.w_prev,
            inc_prev: c.inc_prev,
            out_valid: c.valid,
        };
        // Line 12's decision and lines 13 / 17, DECIDE cycles after U.
        let q = self.div.step(&divider::In {
            a: i.cfg_eta as u64,
            d: i.u as u64,
            in_valid: i.in_valid,
        });
        let u_ge = self.u_ge.shift(u_ge_eta(i.u, i.cfg_eta));
        let (w_old, wc_old, inc_old) = self.state.shift((i.w_old, i.wc_old, i.inc_old & 7));
        let md = md_branch(u_ge, inc_old, r.max_stage);
        let m = self.mid.shift(Mid {
            w: if md {
                line13(wc_old, q.q as u32, r.w_ai)
            } else {
                line17(wc_old, r.w_ai)
            },
            md,
            w_prev: w_old,
            wc_prev: wc_old,
            inc_prev: inc_old,
            valid: q.out_valid,
        });
        let (above, below) = clamp_flags(m.w, r.w_min, r.w_init);
        self.clamp = Clamp {
            above,
            below,
            w_low: m.w as u32,
            md: m.md,
            w_prev: m.w_prev,
            wc_prev: m.wc_prev,
            inc_prev: m.inc_prev,
            valid: m.valid,
        };
        out
    }
}
