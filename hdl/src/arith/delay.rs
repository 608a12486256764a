//! Fixed delay lines: `q` is `d` from L cycles ago.
//!
//! - [`Delay`]: L registers (L ≥ 1). For short delays.
//! - [`DelayRam`]: a circular buffer in a block RAM (3 ≤ L ≤ 2^A + 1), for
//!   the long delays that carry operands alongside the divider pipelines
//!   of the CC module (30 to 45 cycles). On the ECP5, which has no shift-
//!   register LUTs, a 36-cycle, 24-bit `Delay` is 864 flip-flops; a
//!   `DelayRam` is one DP16KD, 2A flip-flops and an output register.
//!
//! Both behave identically cycle by cycle: q = 0 for the first L cycles
//! after configuration, then d(t − L). Neither has a reset (the pipelines
//! they sit beside qualify them with their own valid bits). Latency L,
//! II 1. Golden twin of both: `nic_golden::arith::delay`.

use crate::mem::Ram;
use rust_hdl::prelude::*;
use smart_default::SmartDefault;

#[derive(LogicBlock, SmartDefault)]
pub struct Delay<const W: usize, const L: usize> {
    // The parameter check, when the block is built.
    #[default({
        assert!(L >= 1, "Delay needs L >= 1");
        Default::default()
    })]
    pub clock: Signal<In, Clock>,
    pub d: Signal<In, Bits<W>>,
    pub q: Signal<Out, Bits<W>>,
    #[default(std::array::from_fn(|_| Default::default()))]
    r: [DFF<Bits<W>>; L],
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

/// Delay line in block RAM: `q` is `d` from L cycles ago (3 ≤ L ≤ 2^A + 1).
///
/// Ports (clock `clock`): in `d`: `D`; out `q`: `D` (a register after
/// the RAM's read register). Latency L, II 1.
///
/// Structure: a 2^A-word [`Ram::block`], a write pointer that counts
/// cycles mod 2^A, a read pointer L − 2 behind it, and an output register
/// (`q_reg`). Cycle t writes d(t) at t and reads address t − (L − 2),
/// written in cycle t + 2 − L; the RAM's read register holds
/// d(t + 2 − L) in cycle t + 1 and `q_reg` in cycle t + 2: d(t' − L) in
/// cycle t'. The output register is the timing rule R3 (`docs/
/// architecture.md` § Timing rules): the DP16KD's clock-to-out (4.26 ns
/// on the ECP5-85F, speed 8) ends at a flip-flop, not in the logic `q`
/// feeds. The read pointer is its own register, so no subtractor sits
/// before the RAM's address (R4). A read never meets the write of the
/// same cycle (L ≥ 3), and a word is read before it is overwritten
/// (L − 2 < 2^A). Every word is zero at configuration ([`Ram`]) and so
/// is `q_reg`, so `q` is 0 for the first L cycles, like [`Delay`]'s
/// registers, with no X in a four-state simulation.
#[derive(LogicBlock, SmartDefault)]
pub struct DelayRam<D: Synth, const L: usize, const A: usize> {
    // The parameter check, when the block is built.
    #[default({
        assert!(L >= 3 && A < 16 && L - 2 < (1 << A), "DelayRam needs 3 <= L <= 2^A + 1");
        Default::default()
    })]
    pub clock: Signal<In, Clock>,
    pub d: Signal<In, D>,
    pub q: Signal<Out, D>,
    #[default(Ram::block())]
    ram: Ram<D, A>,
    /// The cycle count mod 2^A: where d is written this cycle.
    wr_ptr: DFF<Bits<A>>,
    /// wr_ptr − (L − 2) mod 2^A: the word read this cycle.
    #[default(DFFWithInit::new((((1u64 << A) - (L as u64 - 2)) % (1u64 << A)).into()))]
    rd_ptr: DFFWithInit<Bits<A>>,
    /// The RAM's read register, registered again.
    q_reg: DFF<D>,
    #[default(Constant::new(1u64.into()))]
    k_one: Constant<Bits<A>>,
}

impl<D: Synth, const L: usize, const A: usize> Logic for DelayRam<D, L, A> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, wr_ptr, rd_ptr, q_reg);
        clock!(self, clock, ram);
        self.wr_ptr.d.next = (self.wr_ptr.q.val() + self.k_one.val());
        self.rd_ptr.d.next = (self.rd_ptr.q.val() + self.k_one.val());
        self.ram.write_address.next = self.wr_ptr.q.val();
        self.ram.write_data.next = self.d.val();
        self.ram.write_enable.next = true;
        self.ram.read_address.next = self.rd_ptr.q.val();
        self.q_reg.d.next = self.ram.read_data.val();
        self.q.next = self.q_reg.q.val();
    }
}
