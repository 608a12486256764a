//! Twin of `hdl/src/cc/ewma.rs`: **pseudocode lines 8–9**.
//!
//! ```text
//! 8:  tau = min(tau, T);
//! 9:  U = (1 − tau/T)·U + tau/T·u;
//! ```
//!
//! Line 9 is computed as U + f·(u − U) with f = min(tau, T)/T (UQ1.24),
//! the product f·|u − U| rounded to nearest (a truncation would bias U
//! toward its old value). U, u UQ8.24.

use super::fixed::shr;
use super::params::CcRegs;
use crate::{Cycle, Pipe};

/// 1.0 in UQ8.24 (and in UQ1.24).
pub const U_ONE: u32 = 1 << 24;

/// Line 8 and line 9's weight: f = min(tau, T)/T, UQ1.24 (1.0 exactly
/// when tau ≥ T) = (tau · inv_t_m) ≫ (s − 24), truncated to 32 bits.
pub fn tau_weight(tau: u32, r: &CcRegs) -> u32 {
    if tau >= r.t {
        U_ONE
    } else {
        shr(tau as u64 * r.inv_t_m as u64, r.inv_t_s.wrapping_sub(24)) as u32
    }
}

/// Line 9: U + f·(u − U) = U ± round(f·|u − U| / 2^24), 32-bit wrapping
/// as the RTL adds (it cannot wrap for f ≤ 1.0).
pub fn ewma(uu: u32, u: u32, f: u32) -> u32 {
    let mag = |d: u32| ((f as u64 * d as u64 + (1 << 23)) >> 24) as u32;
    if u >= uu {
        uu.wrapping_add(mag(u.wrapping_sub(uu)))
    } else {
        uu.wrapping_sub(mag(uu.wrapping_sub(u)))
    }
}

/// Ports, one cycle. `u`, `tau` (24 bits) come with `in_valid`; `u_old`,
/// the flow's U from the U RAM, [`U_OLD_AT`] cycles later.
/// Configuration is quasi-static (sampled with `u`, `tau`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    pub in_valid: bool,
    pub u: u32,
    pub tau: u32,
    pub u_old: u32,
    pub cfg_t: u32,
    pub cfg_inv_t_m: u32,
    pub cfg_inv_t_s: u8,
}

impl In {
    pub fn regs(&self) -> CcRegs {
        CcRegs {
            t: self.cfg_t & 0xFF_FFFF,
            inv_t_m: self.cfg_inv_t_m,
            inv_t_s: self.cfg_inv_t_s,
            ..Default::default()
        }
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    /// Line 9's new U.
    pub u_new: u32,
    /// The `u_old` it was computed from.
    pub u_prev: u32,
    pub out_valid: bool,
}

/// Cycles from `u`, `tau` to the outputs.
pub const LATENCY: usize = 12;
/// Cycles from `u`, `tau` to `u_old`.
pub const U_OLD_AT: usize = 5;

pub struct Ewma {
    /// (u, f, valid) until U arrives.
    early: Pipe<(u32, u32, bool)>,
    late: Pipe<Out>,
}

impl Default for Ewma {
    fn default() -> Self {
        Self {
            early: Pipe::new(U_OLD_AT),
            late: Pipe::new(LATENCY - U_OLD_AT),
        }
    }
}

impl Cycle for Ewma {
    type In = In;
    type Out = Out;
    fn step(&mut self, i: &In) -> Out {
        let f = tau_weight(i.tau & 0xFF_FFFF, &i.regs());
        let (u, f, v) = self.early.shift((i.u, f, i.in_valid));
        self.late.shift(Out {
            u_new: ewma(i.u_old, u, f),
            u_prev: i.u_old,
            out_valid: v,
        })
    }
}
