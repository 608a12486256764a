//! Twin of `hdl/src/mem/fifo.rs`: a block-RAM FIFO with a first-word-
//! fall-through head, cycle-exact.
//!
//! 2^A words in the RAM, plus the head register `h` and a skid register
//! `s`. A word pushed in cycle t is at the head from cycle t + 3 (RAM
//! write, RAM read, head register) when the FIFO was empty; a pop every
//! cycle is sustained. A push while the RAM holds 2^A words is ignored
//! (the users keep their own bound, so it never happens in the NIC).

use crate::Cycle;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    pub push: bool,
    pub push_data: u128,
    pub pop: bool,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub head_valid: bool,
    pub head_data: u128,
}

/// D-bit words, 2^A of them in the RAM.
#[derive(Clone, Debug, Default)]
pub struct Fifo<const D: usize, const A: usize> {
    q: FifoOf<u128, A>,
}

impl<const D: usize, const A: usize> Fifo<D, A> {
    /// The head, as the ports show it this cycle.
    pub fn head(&self) -> Option<u128> {
        self.q.head()
    }
    /// Words held (RAM, read in flight, skid, head).
    pub fn len(&self) -> usize {
        self.q.len()
    }
    pub fn is_empty(&self) -> bool {
        self.q.is_empty()
    }
}

impl<const D: usize, const A: usize> Cycle for Fifo<D, A> {
    type In = In;
    type Out = Out;
    fn step(&mut self, i: &In) -> Out {
        let head = self
            .q
            .step(i.push.then_some(i.push_data & crate::mask(D)), i.pop);
        Out {
            head_valid: head.is_some(),
            head_data: head.unwrap_or(0),
        }
    }
}

/// The same FIFO for words of any type (the RTL's `Fifo<D, A>` with a
/// word wider than 128 bits: the WQE unpacker's entries), with the same
/// timing.
#[derive(Clone, Debug)]
pub struct FifoOf<T: Copy + Default, const A: usize> {
    mem: Vec<T>,
    wr: u32,
    rd: u32,
    /// The RAM's read register, and whether a read was issued last cycle.
    ram_out: T,
    rv: bool,
    h: Option<T>,
    s: Option<T>,
}

impl<T: Copy + Default, const A: usize> Default for FifoOf<T, A> {
    fn default() -> Self {
        Self {
            mem: vec![T::default(); 1 << A],
            wr: 0,
            rd: 0,
            ram_out: T::default(),
            rv: false,
            h: None,
            s: None,
        }
    }
}

impl<T: Copy + Default, const A: usize> FifoOf<T, A> {
    /// The head, as the ports show it this cycle.
    pub fn head(&self) -> Option<T> {
        self.h
    }
    /// Words held (RAM, read in flight, skid, head).
    pub fn len(&self) -> usize {
        (self.wr.wrapping_sub(self.rd) & 0xffff) as usize
            + self.rv as usize
            + self.s.is_some() as usize
            + self.h.is_some() as usize
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// One cycle: `push` a word (if any), `pop` the head (if any);
    /// returns the head as the ports show it this cycle.
    pub fn step(&mut self, push: Option<T>, pop: bool) -> Option<T> {
        let o = self.h;
        let m = (1u32 << A) - 1;
        // Oldest first: the head (unless popped), the skid, the RAM output.
        let consume = pop && self.h.is_some();
        let mut q: Vec<T> = Vec::with_capacity(3);
        if !consume {
            q.extend(self.h);
        }
        q.extend(self.s);
        if self.rv {
            q.push(self.ram_out);
        }
        debug_assert!(q.len() <= 2);
        // A read lands next cycle; issue it only if h and s can take it.
        let used = (self.wr.wrapping_sub(self.rd) & 0xffff) as usize;
        let issue = used != 0 && q.len() <= 1;
        self.h = q.first().copied();
        self.s = q.get(1).copied();
        // The RAM reads its read address every cycle (read-old on a
        // collision, which `issue` never uses).
        self.ram_out = self.mem[(self.rd & m) as usize];
        self.rv = issue;
        if issue {
            self.rd = self.rd.wrapping_add(1) & 0xffff;
        }
        if let Some(w) = push {
            if used < (1usize << A) {
                self.mem[(self.wr & m) as usize] = w;
                self.wr = self.wr.wrapping_add(1) & 0xffff;
            }
        }
        o
    }
}
