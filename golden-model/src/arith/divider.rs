//! Twin of `hdl/src/arith/divider.rs`: pipelined unsigned fixed-point
//! divider.
//!
//! `q = floor(a · 2^F / d)`, truncated (rounded toward zero), with `a`, `d`
//! and `q` N-bit unsigned. If `a` has y fraction bits and `d` has v, `q`
//! has y − v + F: the caller picks F for the fraction bits it needs.
//! A reciprocal is `a = 2^k`.
//!
//! Outside the domain the result saturates: if `d = 0`, or the quotient
//! does not fit in N bits, `q = 2^N − 1` and `sat = 1`.
//!
//! `q` and `sat` hold the last valid result between results.
//! Latency N + 1, II 1. Requires 1 ≤ F < N ≤ 64.

use crate::{mask, Cycle, Pipe};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    pub a: u64,
    pub d: u64,
    pub in_valid: bool,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub q: u64,
    pub sat: bool,
    pub out_valid: bool,
}

/// The combinational function: (q, sat).
pub fn divide(n: usize, f: usize, a: u64, d: u64) -> (u64, bool) {
    let m = mask(n);
    let (a, d) = (a as u128 & m, d as u128 & m);
    if d == 0 {
        return (m as u64, true);
    }
    let q = (a << f) / d;
    if q > m {
        (m as u64, true)
    } else {
        (q as u64, false)
    }
}

pub struct Divider<const N: usize, const F: usize> {
    pipe: Pipe<Option<(u64, bool)>>,
    /// The output register: the last valid result.
    last: (u64, bool),
}

impl<const N: usize, const F: usize> Divider<N, F> {
    pub const LATENCY: usize = N + 1;
}

impl<const N: usize, const F: usize> Default for Divider<N, F> {
    fn default() -> Self {
        assert!(1 <= F && F < N && N <= 64);
        Self {
            pipe: Pipe::new(N + 1),
            last: (0, false),
        }
    }
}

impl<const N: usize, const F: usize> Cycle for Divider<N, F> {
    type In = In;
    type Out = Out;
    fn step(&mut self, i: &In) -> Out {
        // Results move through the pipeline only in valid slots; the
        // output register keeps the last one.
        let r = i.in_valid.then(|| divide(N, F, i.a, i.d));
        let leaving = self.pipe.shift(r);
        if let Some(r) = leaving {
            self.last = r;
        }
        Out {
            q: self.last.0,
            sat: self.last.1,
            out_valid: leaving.is_some(),
        }
    }
}
