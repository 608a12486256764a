//! The requester's retransmission timer: a free-running cycle count
//! (`now`) and a FIFO of (flow, generation, deadline) entries, with the
//! head's expiry. A block of
//! [`Requester`](super::requester::Requester) (docs: its **Timer**).
//!
//! # What it does
//! - `push` queues `flow << 40 | gen << 32 | deadline`, the deadline
//!   being `now + cfg_rto` (32 bits, wrapping) in the cycle of the push.
//!   The requester pushes at most one entry per flow (its `armed` bit),
//!   so the FIFO (2^A words and its head registers) never fills.
//! - `head` is the oldest entry (0 while none), `expired` is high while
//!   there is one and `now` has reached its deadline: `now − deadline`,
//!   taken at 32 bits, has its top bit clear (serial order, so the count
//!   wraps after 2^32 cycles, about 27 s at 156.25 MHz, without a false
//!   expiry while an RTO is below 2^31 cycles).
//! - `pop` takes the head (the requester pops the entry it takes as its
//!   timer operation; a pop with no head is ignored).
//!
//! # Ports (clock `clock`; no reset: `now` and the FIFO start at zero)
//! - In: `push`, `flow: 16`, `gen: 8`, `cfg_rto: 32` (cycles), `pop`.
//! - Out: `head: 56`, `expired` (from flip-flops: the FIFO's head
//!   registers and `now`, through one 32-bit subtract).
//!
//! # Timing
//! An entry pushed in cycle t is at the head at t + 3 (the [`Fifo`]'s
//! latency); a push and a pop every cycle are sustained. No input
//! reaches an output in the same cycle.
//!
//! # Bad input
//! A push while the FIFO holds 2^A + 3 entries is lost (the `Fifo`'s
//! rule; the requester never makes one). Any `cfg_rto` is taken as
//! given: one of 2^31 or more expires at once.
//!
//! Golden twin: `nic_golden::roce::req_timer`.

use crate::mem::Fifo;
use rust_hdl::prelude::*;
use smart_default::SmartDefault;

#[derive(LogicBlock, SmartDefault)]
pub struct ReqTimer<const A: usize> {
    pub clock: Signal<In, Clock>,
    pub push: Signal<In, Bit>,
    pub flow: Signal<In, Bits<16>>,
    pub gen: Signal<In, Bits<8>>,
    pub cfg_rto: Signal<In, Bits<32>>,
    pub pop: Signal<In, Bit>,
    pub head: Signal<Out, Bits<56>>,
    pub expired: Signal<Out, Bit>,
    /// The entries: flow << 40 | gen << 32 | deadline.
    fifo: Fifo<56, A>,
    /// Cycles since configuration, wrapping.
    now: DFF<Bits<32>>,
    /// now + RTO (32 bits), the entry's deadline: in a signal of its own
    /// width first, since inside the widening cast Verilog would take the
    /// sum at 56 bits, its carry in the generation's bit 0
    /// (`docs/architecture.md` §6, the width traps).
    deadline: Signal<Local, Bits<32>>,
    /// now − the head's deadline (32 bits): expired while its top bit is 0.
    since: Signal<Local, Bits<32>>,
}

impl<const A: usize> Logic for ReqTimer<A> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, now);
        clock!(self, clock, fifo);
        self.now.d.next = (self.now.q.val() + 1);
        self.deadline.next = (self.now.q.val() + self.cfg_rto.val());
        self.fifo.push.next = self.push.val();
        self.fifo.push_data.next = ((bit_cast::<56, 16>(self.flow.val()) << 40)
            | (bit_cast::<56, 8>(self.gen.val()) << 32)
            | bit_cast::<56, 32>(self.deadline.val()));
        self.fifo.pop.next = self.pop.val();
        self.since.next = (self.now.q.val() - self.fifo.head_data.val().get_bits::<32>(0));
        self.head.next = self.fifo.head_data.val();
        self.expired.next = (self.fifo.head_valid.val() && !self.since.val().get_bit(31));
    }
}
