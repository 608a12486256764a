//! Twin of `hdl/src/arith/sat_add_sub.rs`: saturating unsigned add/subtract.
//!
//! Format: unsigned N-bit integers (any UQm.n, the same for `a`, `b` and
//! `y`). `sub = 0`: y = min(a + b, 2^N − 1); `sub = 1`: y = max(a − b, 0).
//! `sat` flags a clamped result. Latency 1, II 1.

use crate::{mask, Cycle, Pipe};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    pub a: u64,
    pub b: u64,
    pub sub: bool,
    pub in_valid: bool,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub y: u64,
    pub sat: bool,
    pub out_valid: bool,
}

pub const LATENCY: usize = 1;

/// The combinational function: (y, sat).
pub fn sat_add_sub(n: usize, a: u64, b: u64, sub: bool) -> (u64, bool) {
    let m = mask(n) as u64;
    let (a, b) = (a & m, b & m);
    if sub {
        if a < b {
            (0, true)
        } else {
            (a - b, false)
        }
    } else {
        let s = a as u128 + b as u128;
        if s > m as u128 {
            (m, true)
        } else {
            (s as u64, false)
        }
    }
}

pub struct SatAddSub<const N: usize> {
    pipe: Pipe<Out>,
}

impl<const N: usize> Default for SatAddSub<N> {
    fn default() -> Self {
        Self {
            pipe: Pipe::new(LATENCY),
        }
    }
}

impl<const N: usize> Cycle for SatAddSub<N> {
    type In = In;
    type Out = Out;
    fn step(&mut self, i: &In) -> Out {
        let (y, sat) = sat_add_sub(N, i.a, i.b, i.sub);
        self.pipe.shift(Out {
            y,
            sat,
            out_valid: i.in_valid,
        })
    }
}
