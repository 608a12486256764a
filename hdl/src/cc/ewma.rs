//! The EWMA of the normalised inflight bytes: **pseudocode lines 8–9**.
//!
//! ```text
//! 8:  tau = min(tau, T);
//! 9:  U = (1 − tau/T)·U + tau/T·u;
//! ```
//!
//! # Ports (clock `clock`)
//! In at stage 0: `in_valid`, `u` (the hop maximum, UQ8.24), `tau` (24
//! bits, ns). In at stage [`U_OLD_AT`]: `u_old`, the flow's U (UQ8.24),
//! from the U RAM read that `HpccCc` issues at stage 4. Configuration
//! (quasi-static): `cfg_t` (T, ns), `cfg_inv_t_m` (⌊2^s/T⌋),
//! `cfg_inv_t_s` (s).
//!
//! Out at stage [`LATENCY`], combinational from registers: `u_new` (line
//! 9's U, UQ8.24), `u_prev` (the `u_old` it came from), `out_valid`.
//!
//! # Arithmetic
//! - Line 8 and line 9's weight: f = min(tau, T)/T, UQ1.24: 1.0 if tau ≥
//!   T, else (tau · ⌊2^s/T⌋) ≫ (s − 24) (`WideMul`, stages 0–4).
//! - Line 9 as U + f·(u − U): |u − U| and its sign (stage 6), f·|u − U|
//!   (`WideMul`, stages 7–11), rounded to nearest ≫ 24 (stage 11), U ±
//!   that (stage 12). A truncation would bias U toward its old value.
//!
//! # Timing
//! Latency 12, II 1. In `HpccCc`: stages 43–55 (U read at 47, `u_old` at
//! 48; `HpccCc` registers its choice of U at 56 and writes it back).
//!
//! # Bad input
//! None: every input has its result; the sum wraps at 32 bits, which f ≤
//! 1.0 never reaches.
//!
//! Golden twin: `nic_golden::cc::ewma` (`tau_weight`, `ewma`).

use crate::arith::{Delay, WideMul};
use rust_hdl::prelude::*;

/// Cycles from `u`, `tau` to the outputs.
pub const LATENCY: usize = 12;
/// Cycles from `u`, `tau` to `u_old`.
pub const U_OLD_AT: usize = 5;

#[derive(LogicBlock, Default)]
pub struct Ewma {
    pub clock: Signal<In, Clock>,
    pub in_valid: Signal<In, Bit>,
    pub u: Signal<In, Bits<32>>,
    pub tau: Signal<In, Bits<24>>,
    pub u_old: Signal<In, Bits<32>>,
    pub cfg_t: Signal<In, Bits<24>>,
    pub cfg_inv_t_m: Signal<In, Bits<32>>,
    pub cfg_inv_t_s: Signal<In, Bits<8>>,
    pub u_new: Signal<Out, Bits<32>>,
    pub u_prev: Signal<Out, Bits<32>>,
    pub out_valid: Signal<Out, Bit>,
    // ---- stages 0..4: tau · (1/T); line 8's tau ≥ T
    tau_mul: WideMul,
    u_s4: Delay<32, 4>,
    tau_ge_t_s4: Delay<1, 4>,
    // ---- stage 4: f = min(tau, T)/T, UQ1.24
    /// s − 24, a register of the configuration (R4: a configuration
    /// change reaches it a cycle later, inside the quasi-static contract),
    /// so stage 4 is the shift alone.
    f_shift: DFF<Bits<8>>,
    f_full: Signal<Local, Bits<64>>,
    f_s5: DFF<Bits<32>>,
    u_s5: DFF<Bits<32>>,
    valid_s5: DFF<Bit>,
    // ---- stage 5: U arrives
    f_s6: DFF<Bits<32>>,
    u_s6: DFF<Bits<32>>,
    u_old_s6: DFF<Bits<32>>,
    valid_s6: DFF<Bit>,
    // ---- stage 6: u − U, U − u, u ≥ U
    f_s7: DFF<Bits<32>>,
    rise_s7: DFF<Bits<32>>,
    fall_s7: DFF<Bits<32>>,
    rising_s7: DFF<Bit>,
    valid_s7: DFF<Bit>,
    u_prev_s12: Delay<32, 6>,
    rising_s12: Delay<1, 6>,
    // ---- stages 7..11: f · |u − U|, rounded
    step_mul: WideMul,
    step_s12: DFF<Bits<32>>,
    valid_s12: DFF<Bit>,
}

impl Logic for Ewma {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, f_shift, f_s5, u_s5, valid_s5, f_s6, u_s6, u_old_s6, valid_s6, f_s7,
            rise_s7, fall_s7, rising_s7, valid_s7, step_s12, valid_s12
        );
        clock!(
            self,
            clock,
            tau_mul,
            u_s4,
            tau_ge_t_s4,
            u_prev_s12,
            rising_s12,
            step_mul
        );

        // ---- stage 0: tau · ⌊2^s/T⌋; line 8's test tau ≥ T
        self.tau_mul.a.next = bit_cast::<32, 24>(self.tau.val());
        self.tau_mul.b.next = self.cfg_inv_t_m.val();
        self.tau_mul.in_valid.next = self.in_valid.val();
        self.u_s4.d.next = self.u.val();
        self.tau_ge_t_s4.d.next = (self.tau.val() >= self.cfg_t.val()).into();

        // ---- stage 4: f = min(tau, T)/T (line 8): 1.0 if tau ≥ T
        self.f_shift.d.next = (self.cfg_inv_t_s.val() - 24);
        self.f_full.next = (self.tau_mul.p.val() >> self.f_shift.q.val());
        self.f_s5.d.next = bit_cast::<32, 64>(self.f_full.val());
        if self.tau_ge_t_s4.q.val().any() {
            self.f_s5.d.next = 0x100_0000.into();
        }
        self.u_s5.d.next = self.u_s4.q.val();
        self.valid_s5.d.next = self.tau_mul.out_valid.val();

        // ---- stage 5: register U (the RAM's read data)
        self.f_s6.d.next = self.f_s5.q.val();
        self.u_s6.d.next = self.u_s5.q.val();
        self.u_old_s6.d.next = self.u_old.val();
        self.valid_s6.d.next = self.valid_s5.q.val();

        // ---- stage 6: |u − U| both ways and its sign, in parallel; the
        // choice is made next stage, in front of the multiplier
        self.f_s7.d.next = self.f_s6.q.val();
        self.rise_s7.d.next = (self.u_s6.q.val() - self.u_old_s6.q.val());
        self.fall_s7.d.next = (self.u_old_s6.q.val() - self.u_s6.q.val());
        self.rising_s7.d.next = (self.u_s6.q.val() >= self.u_old_s6.q.val());
        self.valid_s7.d.next = self.valid_s6.q.val();
        self.u_prev_s12.d.next = self.u_old_s6.q.val();
        self.rising_s12.d.next = (self.u_s6.q.val() >= self.u_old_s6.q.val()).into();

        // ---- stage 7: f · |u − U|
        self.step_mul.a.next = self.f_s7.q.val();
        self.step_mul.b.next = self.fall_s7.q.val();
        if self.rising_s7.q.val() {
            self.step_mul.b.next = self.rise_s7.q.val();
        }
        self.step_mul.in_valid.next = self.valid_s7.q.val();

        // ---- stage 11: round(f · |u − U| / 2^24)
        self.step_s12.d.next = bit_cast::<32, 64>((self.step_mul.p.val() + 0x80_0000) >> 24);
        self.valid_s12.d.next = self.step_mul.out_valid.val();

        // ---- stage 12: line 9, U ± the step
        self.u_new.next = (self.u_prev_s12.q.val() - self.step_s12.q.val());
        if self.rising_s12.q.val().any() {
            self.u_new.next = (self.u_prev_s12.q.val() + self.step_s12.q.val());
        }
        self.u_prev.next = self.u_prev_s12.q.val();
        self.out_valid.next = self.valid_s12.q.val();
    }
}
