//! Twin of `hdl/src/mem/ram.rs`: synchronous-read RAM, read-old on a
//! same-cycle collision (the simulation semantics; undefined on the FPGA).

use crate::Cycle;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    pub read_address: u32,
    pub write_address: u32,
    pub write_data: u128,
    pub write_enable: bool,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub read_data: u128,
}

/// 2^N words of D bits.
#[derive(Clone, Debug)]
pub struct Ram<const D: usize, const N: usize> {
    mem: Vec<u128>,
    out: u128,
}

impl<const D: usize, const N: usize> Default for Ram<D, N> {
    fn default() -> Self {
        Self {
            mem: vec![0; 1 << N],
            out: 0,
        }
    }
}

impl<const D: usize, const N: usize> Ram<D, N> {
    /// The read port's register this cycle (what `read_data` shows).
    pub fn read_data(&self) -> u128 {
        self.out
    }
}

impl<const D: usize, const N: usize> Cycle for Ram<D, N> {
    type In = In;
    type Out = Out;
    fn step(&mut self, i: &In) -> Out {
        let o = Out {
            read_data: self.out,
        };
        let m = (1usize << N) - 1;
        self.out = self.mem[i.read_address as usize & m];
        if i.write_enable {
            self.mem[i.write_address as usize & m] = i.write_data & crate::mask(D);
        }
        o
    }
}
