//! Twin of `hdl/src/mem/fifo.rs`: a block-RAM FIFO with a first-word-
//! fall-through head, cycle-exact.
//!
//! 2^A words in the RAM, plus the head register `h` and two skid
//! registers `s`. A read is issued when at most two words are held
//! outside the RAM (head, skids, read in flight), whatever the pop does.
//! A word pushed in cycle t is at the head from cycle t + 3 (RAM write,
//! RAM read, head register) when the FIFO was empty; a pop every cycle is
//! sustained. A push while the RAM holds 2^A words is ignored (the users
//! keep their own bound, so it never happens in the NIC).

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
    /// Skid 1 and skid 2, filled in order.
    s: [Option<T>; 2],
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
            s: [None, None],
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
            + self.s.iter().flatten().count()
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
        let used = (self.wr.wrapping_sub(self.rd) & 0xffff) as usize;
        // A read lands next cycle; issue it while at most two words are
        // held outside the RAM, whatever the pop does.
        let held = self.h.is_some() as usize + self.s.iter().flatten().count() + self.rv as usize;
        debug_assert!(held <= 3);
        let issue = used != 0 && held <= 2;
        // Oldest first: the head (unless popped), the skids, the RAM output.
        let consume = pop && self.h.is_some();
        let mut q: Vec<T> = Vec::with_capacity(3);
        if !consume {
            q.extend(self.h);
        }
        q.extend(self.s.iter().flatten());
        if self.rv {
            q.push(self.ram_out);
        }
        debug_assert!(q.len() <= 3);
        self.h = q.first().copied();
        self.s = [q.get(1).copied(), q.get(2).copied()];
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
