//! Twin of `hdl/src/arith/delay.rs`: `q` is `d` from L cycles ago.

use crate::{Cycle, Pipe};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    pub d: u128,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub q: u128,
}

pub struct Delay<const W: usize, const L: usize> {
    pipe: Pipe<u128>,
}

impl<const W: usize, const L: usize> Default for Delay<W, L> {
    fn default() -> Self {
        Self { pipe: Pipe::new(L) }
    }
}

impl<const W: usize, const L: usize> Cycle for Delay<W, L> {
    type In = In;
    type Out = Out;
    fn step(&mut self, i: &In) -> Out {
        // The output is the oldest register, before this edge.
        let q = self.pipe.shift(i.d & crate::mask(W));
        Out { q }
    }
}
