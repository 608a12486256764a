//! ComputeWind: **pseudocode lines 11–20**.
//!
//! ```text
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
//! # Ports (clock `clock`)
//! In at stage 0: `in_valid`, `u` (U, UQ8.24). In at stage [`STATE_AT`]:
//! the flow's stored `w_old`, `wc_old` (UQ24.8 bytes) and `inc_old`
//! (3 bits), from the W RAM read that `HpccCc` issues at stage 31. In at
//! stage [`LATENCY`]: `update_wc` (lines 14, 18: commit Wc this time).
//! Configuration (quasi-static): `cfg_eta` (UQ0.16), `cfg_max_stage`
//! (3 bits), `cfg_w_ai`, `cfg_w_min`, `cfg_w_init` (UQ24.8 bytes).
//!
//! Out at stage [`LATENCY`], combinational from registers and
//! `update_wc`: `w` (the new W, UQ24.8), `wc`, `inc_stage` (Wc and
//! incStage after lines 14–15 / 18–19), `w_prev`, `inc_prev` (the stored
//! W and incStage, for an event that keeps them), `out_valid`.
//!
//! # Arithmetic
//! - Line 13's eta/U, UQ12.20: `Divider<32, 28>` (stages 0–33); all ones
//!   if U = 0 or eta/U ≥ 4096. Line 12's U ≥ eta: U ≥ eta ≪ 8, stage 0.
//! - Line 13: round(Wc · (2r + 1) / 2^21) + W_ai with r = min(eta/U, 2^31
//!   − 1) (`WideMul`, stages 33–37; the +1 returns the divider's mean
//!   half-LSB loss, without it Wc drifts down by ~10^-6 per commit).
//!   Line 17: Wc + W_ai. No saturation: up to 44 bits, then the clamp.
//! - W clamped to [W_min, W_init], W_init first: the comparisons at stage
//!   39, the choice at 40.
//!
//! # Timing
//! Latency 40, II 1. In `HpccCc`: stages 56–96 (W read at 87, the state at
//! 88, the write at 96).
//!
//! # Bad input
//! U = 0 or tiny: eta/U saturates, W = Wc·(2^32 − 1)/2^21 + W_ai, clamped
//! to W_init. Any W_min, W_init: the clamp gives max(min(W, W_init),
//! W_min). incStage wraps at 8 (never reached: it only grows below
//! maxStage ≤ 7). Between valid events the divider holds its last valid
//! result.
//!
//! Golden twin: `nic_golden::cc::compute_wind` (`compute_wind`,
//! `update_wc`).

use crate::arith::{Delay, Divider, WideMul};
use rust_hdl::prelude::*;

/// Cycles from `u` to the outputs (and to `update_wc`).
pub const LATENCY: usize = 40;
/// Cycles from `u` to `w_old`, `wc_old`, `inc_old`.
pub const STATE_AT: usize = 32;

#[derive(LogicBlock, Default)]
pub struct ComputeWind {
    pub clock: Signal<In, Clock>,
    pub in_valid: Signal<In, Bit>,
    pub u: Signal<In, Bits<32>>,
    pub w_old: Signal<In, Bits<32>>,
    pub wc_old: Signal<In, Bits<32>>,
    pub inc_old: Signal<In, Bits<3>>,
    pub update_wc: Signal<In, Bit>,
    pub cfg_eta: Signal<In, Bits<16>>,
    pub cfg_max_stage: Signal<In, Bits<3>>,
    pub cfg_w_ai: Signal<In, Bits<32>>,
    pub cfg_w_min: Signal<In, Bits<32>>,
    pub cfg_w_init: Signal<In, Bits<32>>,
    pub w: Signal<Out, Bits<32>>,
    pub wc: Signal<Out, Bits<32>>,
    pub inc_stage: Signal<Out, Bits<3>>,
    pub w_prev: Signal<Out, Bits<32>>,
    pub inc_prev: Signal<Out, Bits<3>>,
    pub out_valid: Signal<Out, Bit>,
    // ---- stage 0: eta/U; U ≥ eta
    /// eta in UQ8.24.
    eta_q24: Signal<Local, Bits<32>>,
    eta_div: Divider<32, 28>,
    u_ge_eta_s33: Delay<1, 33>,
    // ---- stage 32: the stored state, registered
    w_old_s33: DFF<Bits<32>>,
    wc_old_s33: DFF<Bits<32>>,
    inc_old_s33: DFF<Bits<3>>,
    // ---- stage 33: line 12's test; line 13's product; line 17
    md: Signal<Local, Bit>,
    eta_u: Signal<Local, Bits<32>>,
    wc_plus_ai: Signal<Local, Bits<33>>,
    w_mul: WideMul,
    md_s38: Delay<1, 5>,
    md_s40: Delay<1, 2>,
    w17_s38: Delay<33, 5>,
    w_prev_s40: Delay<32, 7>,
    wc_prev_s40: Delay<32, 7>,
    inc_prev_s40: Delay<3, 7>,
    // ---- stage 37: line 13's product rounded; 38: + W_ai, the branch
    w13_s38: DFF<Bits<43>>,
    w_sel_s39: DFF<Bits<44>>,
    valid_s38: DFF<Bit>,
    valid_s39: DFF<Bit>,
    // ---- stage 39: the clamp's comparisons
    above_s40: DFF<Bit>,
    below_s40: DFF<Bit>,
    w_low_s40: DFF<Bits<32>>,
    valid_s40: DFF<Bit>,
    // ---- stage 40: the clamp's choice; lines 14–15, 18–19
    w_cap: Signal<Local, Bits<32>>,
    w_new: Signal<Local, Bits<32>>,
}

impl Logic for ComputeWind {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            w_old_s33,
            wc_old_s33,
            inc_old_s33,
            w13_s38,
            w_sel_s39,
            valid_s38,
            valid_s39,
            above_s40,
            below_s40,
            w_low_s40,
            valid_s40
        );
        clock!(
            self,
            clock,
            eta_div,
            u_ge_eta_s33,
            w_mul,
            md_s38,
            md_s40,
            w17_s38,
            w_prev_s40,
            wc_prev_s40,
            inc_prev_s40
        );

        // ---- stage 0: eta/U (line 13), out at 33; U ≥ eta (line 12)
        self.eta_q24.next = (bit_cast::<32, 16>(self.cfg_eta.val()) << 8);
        self.eta_div.a.next = bit_cast::<32, 16>(self.cfg_eta.val());
        self.eta_div.d.next = self.u.val();
        self.eta_div.in_valid.next = self.in_valid.val();
        self.u_ge_eta_s33.d.next = (self.u.val() >= self.eta_q24.val()).into();

        // ---- stage 32: register the stored W, Wc, incStage
        self.w_old_s33.d.next = self.w_old.val();
        self.wc_old_s33.d.next = self.wc_old.val();
        self.inc_old_s33.d.next = self.inc_old.val();

        // ---- stage 33: line 12's test; Wc · eta/U (line 13); Wc + W_ai
        // (line 17)
        self.md.next = (self.u_ge_eta_s33.q.val().any()
            || (self.inc_old_s33.q.val() >= self.cfg_max_stage.val()));
        // b = 2·min(eta/U, 2^31 − 1) + 1: half an LSB back for the
        // divider's floor.
        self.eta_u.next = self.eta_div.q.val();
        if self.eta_div.q.val().get_bit(31) {
            self.eta_u.next = 0x7FFF_FFFF.into();
        }
        self.w_mul.a.next = self.wc_old_s33.q.val();
        self.w_mul.b.next = ((self.eta_u.val() << 1) | 1);
        self.w_mul.in_valid.next = self.eta_div.out_valid.val();
        self.wc_plus_ai.next =
            (bit_cast::<33, 32>(self.wc_old_s33.q.val()) + bit_cast::<33, 32>(self.cfg_w_ai.val()));
        self.md_s38.d.next = self.md.val().into();
        self.md_s40.d.next = self.md_s38.q.val();
        self.w17_s38.d.next = self.wc_plus_ai.val();
        self.w_prev_s40.d.next = self.w_old_s33.q.val();
        self.wc_prev_s40.d.next = self.wc_old_s33.q.val();
        self.inc_prev_s40.d.next = self.inc_old_s33.q.val();

        // ---- stage 37: Wc·(2r + 1) / 2^21 rounded (line 13), 43 bits. No
        // saturation here or below: the clamp to W_init < 2^32 gives the
        // same result as saturating first, and wide values save the muxes.
        self.w13_s38.d.next = bit_cast::<43, 64>((self.w_mul.p.val() + 0x10_0000) >> 21);
        self.valid_s38.d.next = self.w_mul.out_valid.val();

        // ---- stage 38: + W_ai (44 bits); line 12 picks line 13 or 17
        self.w_sel_s39.d.next = bit_cast::<44, 33>(self.w17_s38.q.val());
        if self.md_s38.q.val().any() {
            self.w_sel_s39.d.next = (bit_cast::<44, 43>(self.w13_s38.q.val())
                + bit_cast::<44, 32>(self.cfg_w_ai.val()));
        }
        self.valid_s39.d.next = self.valid_s38.q.val();

        // ---- stage 39: the clamp's two comparisons, registered
        self.above_s40.d.next =
            (self.w_sel_s39.q.val() > bit_cast::<44, 32>(self.cfg_w_init.val()));
        self.below_s40.d.next = (self.w_sel_s39.q.val() < bit_cast::<44, 32>(self.cfg_w_min.val()));
        self.w_low_s40.d.next = bit_cast::<32, 44>(self.w_sel_s39.q.val());
        self.valid_s40.d.next = self.valid_s39.q.val();

        // ---- stage 40: max(min(W, W_init), W_min)
        self.w_cap.next = self.cfg_w_init.val();
        if (self.cfg_w_init.val() < self.cfg_w_min.val()) {
            self.w_cap.next = self.cfg_w_min.val();
        }
        self.w_new.next = self.w_low_s40.q.val();
        if self.below_s40.q.val() {
            self.w_new.next = self.cfg_w_min.val();
        }
        if self.above_s40.q.val() {
            self.w_new.next = self.w_cap.val();
        }
        self.w.next = self.w_new.val();
        // Lines 14–15 and 18–19: on updateWc, Wc = W and incStage = 0
        // (line 13's branch) or incStage + 1 (line 17's).
        self.wc.next = self.wc_prev_s40.q.val();
        self.inc_stage.next = self.inc_prev_s40.q.val();
        if self.update_wc.val() {
            self.wc.next = self.w_new.val();
            self.inc_stage.next = (self.inc_prev_s40.q.val() + 1);
            if self.md_s40.q.val().any() {
                self.inc_stage.next = 0.into();
            }
        }
        self.w_prev.next = self.w_prev_s40.q.val();
        self.inc_prev.next = self.inc_prev_s40.q.val();
        self.out_valid.next = self.valid_s40.q.val();
    }
}
