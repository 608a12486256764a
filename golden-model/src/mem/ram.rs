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

/// Twin of `LutRam` (`hdl/src/mem/ram.rs`): 2^N words of D bits, the
/// read combinational (this cycle's address, the words before this
/// cycle's write), the write at the edge.
#[derive(Clone, Debug)]
pub struct LutRam<const D: usize, const N: usize> {
    mem: Vec<u128>,
}

impl<const D: usize, const N: usize> Default for LutRam<D, N> {
    fn default() -> Self {
        Self {
            mem: vec![0; 1 << N],
        }
    }
}

impl<const D: usize, const N: usize> LutRam<D, N> {
    /// The word at `address` now (what `read_data` shows for it).
    pub fn read(&self, address: u32) -> u128 {
        self.mem[address as usize & ((1usize << N) - 1)]
    }
}

impl<const D: usize, const N: usize> Cycle for LutRam<D, N> {
    type In = In;
    type Out = Out;
    fn step(&mut self, i: &In) -> Out {
        let o = Out {
            read_data: self.read(i.read_address),
        };
        if i.write_enable {
            let m = (1usize << N) - 1;
            self.mem[i.write_address as usize & m] = i.write_data & crate::mask(D);
        }
        o
    }
}

/// Twin of `RamBe` (`hdl/src/mem/ram.rs`): 2^N words of 64 bits, a
/// write enable per byte lane.
#[derive(Clone, Debug)]
pub struct RamBe<const N: usize> {
    mem: Vec<u64>,
    out: u64,
}

/// `RamBe`'s inputs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct InBe {
    pub read_address: u32,
    pub write_address: u32,
    pub write_data: u64,
    pub write_enable: u8,
}

impl<const N: usize> Default for RamBe<N> {
    fn default() -> Self {
        Self {
            mem: vec![0; 1 << N],
            out: 0,
        }
    }
}

impl<const N: usize> RamBe<N> {
    /// The read port's register this cycle (what `read_data` shows).
    pub fn read_data(&self) -> u64 {
        self.out
    }
    /// Word `a` as the memory holds it now (for checks, not a port).
    pub fn peek(&self, a: usize) -> u64 {
        self.mem[a & ((1 << N) - 1)]
    }
    /// One clock edge; returns the read data shown before it.
    pub fn step(&mut self, i: &InBe) -> u64 {
        let o = self.out;
        let m = (1usize << N) - 1;
        self.out = self.mem[i.read_address as usize & m];
        let w = &mut self.mem[i.write_address as usize & m];
        for k in 0..8 {
            if i.write_enable >> k & 1 == 1 {
                let lane = 0xFFu64 << (8 * k);
                *w = (*w & !lane) | (i.write_data & lane);
            }
        }
        o
    }
}

/// Twin of a group of `Ram`s at one address (a block's storage of one
/// entry per flow or per slot, a field per RAM): 2^N entries of `E`, the
/// read registered (what [`Bank::read_data`] shows is the entry at the
/// address of the cycle before), read-old on a same-cycle collision.
#[derive(Clone, Debug)]
pub struct Bank<E> {
    mem: Vec<E>,
    out: E,
    mask: usize,
}

impl<E: Copy + Default> Bank<E> {
    /// 2^`n_log2` entries, all `E::default()`.
    pub fn new(n_log2: usize) -> Self {
        Self {
            mem: vec![E::default(); 1 << n_log2],
            out: E::default(),
            mask: (1 << n_log2) - 1,
        }
    }

    /// The read register this cycle.
    pub fn read_data(&self) -> E {
        self.out
    }

    /// One clock edge: read `read_address`, then write `entry` at
    /// `write_address` if `write_enable` (address bits above N ignored).
    pub fn step(&mut self, read_address: u32, write_address: u32, write_enable: bool, entry: E) {
        self.out = self.mem[read_address as usize & self.mask];
        if write_enable {
            self.mem[write_address as usize & self.mask] = entry;
        }
    }
}
