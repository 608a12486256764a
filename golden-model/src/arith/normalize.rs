//! Twin of `hdl/src/arith/normalize.rs`: leading-zero count and
//! normalisation.
//!
//! For an unsigned N-bit `x`: `lz` = number of leading zeros (N when
//! x = 0), `norm` = x << lz (MSB set unless x = 0), `zero` = (x == 0).
//! Read `norm` as UQ1.(N−1) in [1, 2): x = norm · 2^(N−1−lz).
//! Latency 2 (count, then shift), II 1.

use crate::{mask, Cycle, Pipe};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    pub x: u64,
    pub in_valid: bool,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub norm: u64,
    pub lz: u8,
    pub zero: bool,
    pub out_valid: bool,
}

pub const LATENCY: usize = 2;

/// The combinational function: (norm, lz).
pub fn normalize(n: usize, x: u64) -> (u64, u8) {
    let x = x & mask(n) as u64;
    if x == 0 {
        return (0, n as u8);
    }
    let lz = (x.leading_zeros() as usize - (64 - n)) as u8;
    ((x << lz) & mask(n) as u64, lz)
}

pub struct Normalize<const N: usize> {
    pipe: Pipe<Out>,
}

impl<const N: usize> Default for Normalize<N> {
    fn default() -> Self {
        Self {
            pipe: Pipe::new(LATENCY),
        }
    }
}

impl<const N: usize> Cycle for Normalize<N> {
    type In = In;
    type Out = Out;
    fn step(&mut self, i: &In) -> Out {
        let (norm, lz) = normalize(N, i.x);
        self.pipe.shift(Out {
            norm,
            lz,
            zero: i.x & mask(N) as u64 == 0,
            out_valid: i.in_valid,
        })
    }
}
