//! The requester's work-request checks: what `Decide` needs to accept
//! or refuse a work request, decided into registers a cycle before it
//! reads them (timing rule R4: no carry chain of these lies in front of
//! `Decide`'s decision). A block of
//! [`Requester`](super::requester::Requester) for 2^Q work requests a
//! flow.
//!
//! # Ports (clock `clock`; no reset: the registers start at zero)
//! - In: the latched work request's `opcode` (8) and `len` (32); `mlog`
//!   (4, log2 of the MTU, already clamped); the flow's words as `Flow`
//!   takes them: `tail`, `head` (ring indices, Q + 1 bits in 9), and
//!   `seq_tail`, `una` (32, bytes of the flow's stream).
//! - Out, flip-flops, each from the inputs of the cycle before:
//!   - `is_read`: the opcode is `wr::READ`;
//!   - `bad_opcode`: neither `wr::WRITE` nor `wr::READ`;
//!   - `bad_len`: the length is 0 or ≥ 2^31;
//!   - `ext` (32): the work request's extent in the stream, a READ's 1
//!     byte or a WRITE's length;
//!   - `n` (32): its packets, ⌈len / MTU⌉, 1 for a length of 0;
//!   - `is_full`: the ring holds 2^Q work requests (tail − head mod
//!     2^(Q+1) = 2^Q), or the stream window would reach 2^31: seq_tail −
//!     una + `ext` (of the cycle before: `ext` is itself a register) has
//!     bit 31 or bit 32 set.
//!
//! # Timing
//! Latency 1 (`is_full`: 2 from `opcode` and `len`), a result every
//! cycle. The requester latches a work request in `Idle` and reads these
//! in `Decide`, two cycles later.
//!
//! # Bad input
//! None of its own: any opcode and length give the values above; the
//! requester refuses what they condemn (completed with the status).
//!
//! Golden twin: `nic_golden::roce::wr_check`.

use nic_spec::roce::wr;
use rust_hdl::prelude::*;
use smart_default::SmartDefault;

#[derive(LogicBlock, SmartDefault)]
pub struct WrCheck<const Q: usize> {
    pub clock: Signal<In, Clock>,
    pub opcode: Signal<In, Bits<8>>,
    pub len: Signal<In, Bits<32>>,
    pub mlog: Signal<In, Bits<4>>,
    pub tail: Signal<In, Bits<9>>,
    pub head: Signal<In, Bits<9>>,
    pub seq_tail: Signal<In, Bits<32>>,
    pub una: Signal<In, Bits<32>>,
    pub is_read: Signal<Out, Bit>,
    pub bad_opcode: Signal<Out, Bit>,
    pub bad_len: Signal<Out, Bit>,
    pub ext: Signal<Out, Bits<32>>,
    pub n: Signal<Out, Bits<32>>,
    pub is_full: Signal<Out, Bit>,
    r_is_read: DFF<Bit>,
    r_bad_opcode: DFF<Bit>,
    r_bad_len: DFF<Bit>,
    r_ext: DFF<Bits<32>>,
    r_n: DFF<Bits<32>>,
    r_is_full: DFF<Bit>,
    used: Signal<Local, Bits<9>>,
    /// seq_tail − una, mod 2^32.
    window: Signal<Local, Bits<32>>,
    out: Signal<Local, Bits<33>>,
    #[default(Constant::new(Bits::<8>::from(wr::WRITE as u64)))]
    k_wr_write: Constant<Bits<8>>,
    #[default(Constant::new(Bits::<8>::from(wr::READ as u64)))]
    k_wr_read: Constant<Bits<8>>,
    #[default(Constant::new(Bits::<9>::from((2u64 << Q) - 1)))]
    k_ix: Constant<Bits<9>>,
    #[default(Constant::new(Bits::<9>::from(1u64 << Q)))]
    k_full: Constant<Bits<9>>,
}

impl<const Q: usize> Logic for WrCheck<Q> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            r_is_read,
            r_bad_opcode,
            r_bad_len,
            r_ext,
            r_n,
            r_is_full
        );
        self.r_is_read.d.next = (self.opcode.val() == self.k_wr_read.val());
        self.r_bad_opcode.d.next = ((self.opcode.val() != self.k_wr_write.val())
            && (self.opcode.val() != self.k_wr_read.val()));
        self.r_bad_len.d.next = (!self.len.val().any() || self.len.val().get_bit(31));
        if (self.opcode.val() == self.k_wr_read.val()) {
            self.r_ext.d.next = 1.into();
        } else {
            self.r_ext.d.next = self.len.val();
        }
        if self.len.val().any() {
            self.r_n.d.next = (((self.len.val() - 1) >> self.mlog.val()) + 1);
        } else {
            self.r_n.d.next = 1.into();
        }
        // The room check: its two chains end in a register.
        self.used.next = ((self.tail.val() - self.head.val()) & self.k_ix.val());
        // The difference in a signal of its own width first: inside the
        // widening cast, Verilog would take it at 33 bits, its borrow in
        // bit 32 (docs/architecture.md §6, the width traps).
        self.window.next = (self.seq_tail.val() - self.una.val());
        self.out.next =
            (bit_cast::<33, 32>(self.window.val()) + bit_cast::<33, 32>(self.r_ext.q.val()));
        self.r_is_full.d.next = ((self.used.val() == self.k_full.val())
            || self.out.val().get_bit(31)
            || self.out.val().get_bit(32));
        self.is_read.next = self.r_is_read.q.val();
        self.bad_opcode.next = self.r_bad_opcode.q.val();
        self.bad_len.next = self.r_bad_len.q.val();
        self.ext.next = self.r_ext.q.val();
        self.n.next = self.r_n.q.val();
        self.is_full.next = self.r_is_full.q.val();
    }
}
