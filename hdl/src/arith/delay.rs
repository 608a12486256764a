//! Fixed delay lines: `q` is `d` from L cycles ago.
//!
//! - [`Delay`]: L registers (L ≥ 1). For short delays.
//! - [`DelayRam`]: a circular buffer in a block RAM (2 ≤ L ≤ 2^A), for
//!   the long delays that carry operands alongside the divider pipelines
//!   of the CC module (30 to 45 cycles). On the ECP5, which has no shift-
//!   register LUTs, a 36-cycle, 24-bit `Delay` is 864 flip-flops; a
//!   `DelayRam` is one DP16KD and A + 1 flip-flops.
//!
//! Both behave identically cycle by cycle: q = 0 for the first L cycles
//! after configuration, then d(t − L). Neither has a reset (the pipelines
//! they sit beside qualify them with their own valid bits). Latency L,
//! II 1. Golden twin of both: `nic_golden::arith::delay`.

use crate::mem::Ram;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct Delay<const W: usize, const L: usize> {
    pub clock: Signal<In, Clock>,
    pub d: Signal<In, Bits<W>>,
    pub q: Signal<Out, Bits<W>>,
    r: [DFF<Bits<W>>; L],
}

impl<const W: usize, const L: usize> Default for Delay<W, L> {
    fn default() -> Self {
        assert!(L >= 1, "Delay needs L >= 1");
        Self {
            clock: Default::default(),
            d: Default::default(),
            q: Default::default(),
            r: std::array::from_fn(|_| Default::default()),
        }
    }
}

impl<const W: usize, const L: usize> Logic for Delay<W, L> {
    #[hdl_gen]
    fn update(&mut self) {
        for i in 0..L {
            self.r[i].clock.next = self.clock.val();
        }
        self.r[0].d.next = self.d.val();
        for i in 1..L {
            self.r[i].d.next = self.r[i - 1].q.val();
        }
        for i in (L - 1)..L {
            self.q.next = self.r[i].q.val();
        }
    }
}

/// Delay line in block RAM: `q` is `d` from L cycles ago (2 ≤ L ≤ 2^A).
///
/// Ports (clock `clock`): in `d`: `D`; out `q`: `D` (the RAM's read
/// register). Latency L, II 1.
///
/// Structure: a 2^A-word [`Ram::block`] and a write pointer that counts
/// cycles mod 2^A. Cycle t writes d(t) at t and reads address
/// t − (L − 1), written in cycle t + 1 − L, so the read register holds
/// d(t + 1 − L) in cycle t + 1. A read never meets the write of the same
/// cycle (L ≥ 2), and a word is read before it is overwritten (L ≤ 2^A).
/// Every word is zero at configuration ([`Ram`]), so `q` is 0 for the
/// first L cycles, like [`Delay`]'s registers, with no X in a four-state
/// simulation.
#[derive(LogicBlock)]
pub struct DelayRam<D: Synth, const L: usize, const A: usize> {
    pub clock: Signal<In, Clock>,
    pub d: Signal<In, D>,
    pub q: Signal<Out, D>,
    ram: Ram<D, A>,
    /// The cycle count mod 2^A: where d is written this cycle.
    wr_ptr: DFF<Bits<A>>,
    /// L − 1: the read address is wr_ptr − (L − 1).
    k_read_behind: Constant<Bits<A>>,
    k_one: Constant<Bits<A>>,
}

impl<D: Synth, const L: usize, const A: usize> Default for DelayRam<D, L, A> {
    fn default() -> Self {
        assert!(
            L >= 2 && A < 16 && L <= (1 << A),
            "DelayRam needs 2 <= L <= 2^A"
        );
        Self {
            clock: Default::default(),
            d: Default::default(),
            q: Default::default(),
            ram: Ram::block(),
            wr_ptr: Default::default(),
            k_read_behind: Constant::new(((L - 1) as u64).into()),
            k_one: Constant::new(1u64.into()),
        }
    }
}

impl<D: Synth, const L: usize, const A: usize> Logic for DelayRam<D, L, A> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, wr_ptr);
        clock!(self, clock, ram);
        self.wr_ptr.d.next = (self.wr_ptr.q.val() + self.k_one.val());
        self.ram.write_address.next = self.wr_ptr.q.val();
        self.ram.write_data.next = self.d.val();
        self.ram.write_enable.next = true;
        self.ram.read_address.next = (self.wr_ptr.q.val() - self.k_read_behind.val());
        self.q.next = self.ram.read_data.val();
    }
}
