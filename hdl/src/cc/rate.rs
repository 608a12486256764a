//! The pacing rate: **pseudocode line 27**, `R = W/T`.
//!
//! # Ports (clock `clock`)
//! In at stage 0: `in_valid`, `w` (W, UQ24.8 bytes). Configuration
//! (quasi-static): `cfg_inv_t_m` (⌊2^s/T⌋), `cfg_inv_t_s` (s = 31 +
//! ⌊log2 T⌋).
//! Out at stage [`LATENCY`], combinational from a register: `r` (R,
//! UQ8.16 bytes/ns, 24 bits: 100G = 12.5), `out_valid`.
//!
//! # Arithmetic
//! R = (W · ⌊2^s/T⌋) ≫ (s − 8): `WideMul` (stages 0–4), the shift at
//! stage 4 (by s − 8, a register of the configuration), saturated to 24
//! bits at stage 5.
//!
//! # Timing
//! Latency 5, II 1. In `HpccCc`: stages 96–101 (the output register at
//! 102).
//!
//! # Bad input
//! None: R saturates at 2^24 − 1 (255.99 bytes/ns).
//!
//! Golden twin: `nic_golden::cc::rate` (`rate`).

use crate::arith::WideMul;
use rust_hdl::prelude::*;

/// Cycles from `w` to `r`.
pub const LATENCY: usize = 5;

#[derive(LogicBlock, Default)]
pub struct Rate {
    pub clock: Signal<In, Clock>,
    pub in_valid: Signal<In, Bit>,
    pub w: Signal<In, Bits<32>>,
    pub cfg_inv_t_m: Signal<In, Bits<32>>,
    pub cfg_inv_t_s: Signal<In, Bits<8>>,
    pub r: Signal<Out, Bits<24>>,
    pub out_valid: Signal<Out, Bit>,
    r_mul: WideMul,
    /// s − 8, a register of the configuration (R4: a configuration
    /// change reaches it a cycle later, well inside the quasi-static
    /// contract), so stage 4 is the shift alone, not a subtraction first.
    r_shift: DFF<Bits<8>>,
    r_full_s5: DFF<Bits<64>>,
    valid_s5: DFF<Bit>,
}

impl Logic for Rate {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, r_shift, r_full_s5, valid_s5);
        clock!(self, clock, r_mul);

        // ---- stage 0: W · ⌊2^s/T⌋ (line 27)
        self.r_mul.a.next = self.w.val();
        self.r_mul.b.next = self.cfg_inv_t_m.val();
        self.r_mul.in_valid.next = self.in_valid.val();

        // ---- stage 4: ≫ (s − 8)
        self.r_shift.d.next = (self.cfg_inv_t_s.val() - 8);
        self.r_full_s5.d.next = (self.r_mul.p.val() >> self.r_shift.q.val());
        self.valid_s5.d.next = self.r_mul.out_valid.val();

        // ---- stage 5: saturated to 24 bits
        self.r.next = bit_cast::<24, 64>(self.r_full_s5.q.val());
        if (self.r_full_s5.q.val() >> 24).any() {
            self.r.next = 0xFF_FFFF.into();
        }
        self.out_valid.next = self.valid_s5.q.val();
    }
}
