//! Twin of `hdl/src/roce/req_timer.rs` (`ReqTimer`): the requester's
//! retransmission timer, a wrapping 32-bit cycle count and a FIFO of
//! (flow, generation, deadline) entries with the head's expiry,
//! cycle-exact at the ports. See the RTL's docs for the ports.

use crate::mem::fifo::{self, Fifo};
use crate::Cycle;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    pub push: bool,
    /// 16 bits.
    pub flow: u32,
    pub gen: u8,
    pub cfg_rto: u32,
    pub pop: bool,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    /// flow << 40 | gen << 32 | deadline; 0 while no entry.
    pub head: u64,
    pub expired: bool,
}

#[derive(Clone, Debug, Default)]
pub struct ReqTimer<const A: usize> {
    fifo: Fifo<56, A>,
    /// Cycles since configuration, wrapping.
    now: u32,
}

/// The entry a push at `now` queues.
pub fn entry(flow: u32, gen: u8, now: u32, rto: u32) -> u64 {
    (((flow & 0xFFFF) as u64) << 40) | ((gen as u64) << 32) | now.wrapping_add(rto) as u64
}

/// Whether the head with `deadline` has expired at `now`: `now` has
/// reached it in serial order (their difference's top bit clear).
pub fn expired(now: u32, deadline: u32) -> bool {
    now.wrapping_sub(deadline) >> 31 == 0
}

impl<const A: usize> ReqTimer<A> {
    /// The head as the ports show it this cycle (`None`: no entry), and
    /// whether it has expired: for a caller that decides on it before
    /// its own step (the golden requester).
    pub fn peek(&self) -> (Option<u64>, bool) {
        let h = self.fifo.head().map(|h| h as u64);
        (h, h.is_some_and(|h| expired(self.now, h as u32)))
    }
}

impl<const A: usize> Cycle for ReqTimer<A> {
    type In = In;
    type Out = Out;
    fn step(&mut self, i: &In) -> Out {
        let h = self.fifo.step(&fifo::In {
            push: i.push,
            push_data: entry(i.flow, i.gen, self.now, i.cfg_rto) as u128,
            pop: i.pop,
        });
        let out = Out {
            head: h.head_data as u64,
            expired: h.head_valid && expired(self.now, h.head_data as u32),
        };
        self.now = self.now.wrapping_add(1);
        out
    }
}
