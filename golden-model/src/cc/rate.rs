//! Twin of `hdl/src/cc/rate.rs`: the pacing rate, **pseudocode line 27**
//! (`R = W/T`).
//!
//! W UQ24.8 bytes; R UQ8.16 bytes/ns, saturated to 24 bits (100G = 12.5).

use super::fixed::shr;
use super::params::CcRegs;
use crate::{Cycle, Pipe};

/// Line 27: R = W/T = (W · inv_t_m) ≫ (s − 8), saturated to 24 bits.
pub fn rate(w: u32, r: &CcRegs) -> u32 {
    shr(w as u64 * r.inv_t_m as u64, r.inv_t_s.wrapping_sub(8)).min(0xFF_FFFF) as u32
}

/// Ports, one cycle. Configuration is quasi-static.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    pub in_valid: bool,
    pub w: u32,
    pub cfg_inv_t_m: u32,
    pub cfg_inv_t_s: u8,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub r: u32,
    pub out_valid: bool,
}

/// Cycles from W to R.
pub const LATENCY: usize = 5;

#[derive(Clone)]
pub struct Rate {
    pipe: Pipe<Out>,
}

impl Default for Rate {
    fn default() -> Self {
        Self {
            pipe: Pipe::new(LATENCY),
        }
    }
}

impl Cycle for Rate {
    type In = In;
    type Out = Out;
    fn step(&mut self, i: &In) -> Out {
        let regs = CcRegs {
            inv_t_m: i.cfg_inv_t_m,
            inv_t_s: i.cfg_inv_t_s,
            ..Default::default()
        };
        self.pipe.shift(Out {
            r: rate(i.w, &regs),
            out_valid: i.in_valid,
        })
    }
}
