//! Twin of `hdl/src/arith/wide_mul.rs`: 32 × 32 → 64-bit unsigned
//! multiplier.
//!
//! Format: UQa.b × UQc.d → UQ(a+c).(b+d), exact (no rounding, no
//! overflow). Latency 4, II 1.

use crate::{Cycle, Pipe};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    pub a: u32,
    pub b: u32,
    pub in_valid: bool,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub p: u64,
    pub out_valid: bool,
}

pub const LATENCY: usize = 4;

pub struct WideMul {
    pipe: Pipe<Out>,
}

impl Default for WideMul {
    fn default() -> Self {
        Self {
            pipe: Pipe::new(LATENCY),
        }
    }
}

impl Cycle for WideMul {
    type In = In;
    type Out = Out;
    fn step(&mut self, i: &In) -> Out {
        self.pipe.shift(Out {
            p: i.a as u64 * i.b as u64,
            out_valid: i.in_valid,
        })
    }
}
