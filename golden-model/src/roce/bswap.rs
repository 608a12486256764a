//! Twin of `hdl/src/roce/bswap.rs`: the 8 bytes of a word in reverse order
//! (combinational, no state).

use crate::Cycle;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    pub x: u64,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub y: u64,
}

#[derive(Clone, Debug, Default)]
pub struct Bswap64;

impl Cycle for Bswap64 {
    type In = In;
    type Out = Out;
    fn step(&mut self, i: &In) -> Out {
        Out {
            y: i.x.swap_bytes(),
        }
    }
}
