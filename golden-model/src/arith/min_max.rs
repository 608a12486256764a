//! Twin of `hdl/src/arith/min_max.rs`: unsigned minimum and maximum.
//!
//! Format: unsigned N-bit integers. Latency 1, II 1.

use crate::{mask, Cycle, Pipe};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    pub a: u64,
    pub b: u64,
    pub in_valid: bool,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub min: u64,
    pub max: u64,
    pub out_valid: bool,
}

pub const LATENCY: usize = 1;

pub struct MinMax<const N: usize> {
    pipe: Pipe<Out>,
}

impl<const N: usize> Default for MinMax<N> {
    fn default() -> Self {
        Self {
            pipe: Pipe::new(LATENCY),
        }
    }
}

impl<const N: usize> Cycle for MinMax<N> {
    type In = In;
    type Out = Out;
    fn step(&mut self, i: &In) -> Out {
        let m = mask(N) as u64;
        let (a, b) = (i.a & m, i.b & m);
        self.pipe.shift(Out {
            min: a.min(b),
            max: a.max(b),
            out_valid: i.in_valid,
        })
    }
}
