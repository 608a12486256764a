//! Synchronous stream FIFO: block RAM storage with an [`AxisSkid`] on its
//! output.
//!
//! Ports (clock `clock`): `s_axis` ([`AxisSink`]), `m_axis`
//! ([`AxisSource`]), `level`: `Bits<16>`, beats held in the RAM (not
//! counting the output stage, at most 2^A).
//!
//! Parameters: D, K, U (the stream widths), W = D + K + 1 + U (the packed
//! beat: stable Rust cannot add const parameters in a type), A: the RAM
//! holds 2^A beats (A ≤ 15). Capacity: 2^A beats in RAM plus 1 in
//! `rd_oreg` and 2 in the output skid buffer (a beat being read from the
//! RAM always has a place).
//!
//! Timing: `s_axis.tready` = RAM not full (a register). A beat
//! written at cycle t is read from the RAM at t + 1, registered as it
//! leaves the RAM at t + 2 (`rd_oreg`, rule R3) and presented on `m_axis`
//! from t + 4 (latency 4). A read is issued only when `rd_oreg` will be
//! free or taken by the skid buffer when the data arrives (`ready_next`),
//! so throughput is one beat per cycle in both directions under any
//! back-pressure. `m_axis.*` are registers; `m_axis.tready` reaches the
//! RAM read enable through the skid buffer's `ready_next` (one LUT level).
//!
//! The RAM is [`Ram`] (one clock, synchronous read, `no_rw_check`: infers
//! block RAM on ECP5 and Xilinx with no collision-bypass logic after it, so
//! its output goes straight into `rd_oreg`). A word is read only in a
//! cycle after it was written, so the unchecked collision never happens;
//! only written locations are passed on, and every word starts at zero,
//! so no X reaches the outputs. Golden twin: `nic_golden::stream::axis_fifo`.

use super::{AxisSink, AxisSkid, AxisSource};
use crate::mem::Ram;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct AxisFifo<const D: usize, const K: usize, const U: usize, const W: usize, const A: usize>
{
    pub clock: Signal<In, Clock>,
    pub s_axis: AxisSink<D, K, U>,
    pub m_axis: AxisSource<D, K, U>,
    pub level: Signal<Out, Bits<16>>,
    ram: Ram<Bits<W>, A>,
    out: AxisSkid<D, K, U>,
    wptr: DFF<Bits<16>>,
    rptr: DFF<Bits<16>>,
    /// A read was issued last cycle: the RAM output is a beat now.
    pending: DFF<Bit>,
    /// The RAM's output, registered (rule R3; `Ram::with_output_register`:
    /// the ECP5 flow packs it into the DP16KD's output register), loaded
    /// only as a read arrives; `o_v`: it holds a beat the skid buffer has
    /// not taken.
    rd_oreg: DFF<Bits<W>>,
    o_v: DFF<Bit>,
    /// The skid buffer takes `rd_oreg` this cycle.
    moves: Signal<Local, Bit>,
    /// `o_v` after this cycle.
    o_v_next: Signal<Local, Bit>,
    depth: Constant<Bits<16>>,
    /// Beats in the RAM (= wptr − rptr), and whether that is 2^A or
    /// more than 0, kept as registers so that `tready` is a flip-flop and
    /// the pointers' increments (which yosys folds into the block RAM's
    /// address registers) follow one gate.
    count: DFF<Bits<16>>,
    full: DFF<Bit>,
    nonempty: DFF<Bit>,
    count_next: Signal<Local, Bits<16>>,
    /// `count`'s live bits (A + 1: it never exceeds 2^A): its next value
    /// is masked with it, so synthesis drops the bits above.
    k_count_mask: Constant<Bits<16>>,
    push: Signal<Local, Bit>,
    pop: Signal<Local, Bit>,
    word: Signal<Local, Bits<W>>,
    // Offsets of the fields in the packed word.
    off_keep: Constant<Bits<16>>,
    off_last: Constant<Bits<16>>,
    off_user: Constant<Bits<16>>,
}

impl<const D: usize, const K: usize, const U: usize, const W: usize, const A: usize> Default
    for AxisFifo<D, K, U, W, A>
{
    fn default() -> Self {
        assert_eq!(W, D + K + 1 + U, "W must be D + K + 1 + U");
        assert!(A <= 15, "A must be at most 15");
        Self {
            clock: Default::default(),
            s_axis: Default::default(),
            m_axis: Default::default(),
            level: Default::default(),
            ram: Ram::default().with_output_register(),
            out: Default::default(),
            wptr: Default::default(),
            rptr: Default::default(),
            pending: Default::default(),
            rd_oreg: Default::default(),
            o_v: Default::default(),
            moves: Default::default(),
            o_v_next: Default::default(),
            depth: Constant::new((1u64 << A).to_bits()),
            count: Default::default(),
            full: Default::default(),
            nonempty: Default::default(),
            count_next: Default::default(),
            k_count_mask: Constant::new(((2u64 << A) - 1).to_bits()),
            push: Default::default(),
            pop: Default::default(),
            word: Default::default(),
            off_keep: Constant::new((D as u64).to_bits()),
            off_last: Constant::new(((D + K) as u64).to_bits()),
            off_user: Constant::new(((D + K + 1) as u64).to_bits()),
        }
    }
}

impl<const D: usize, const K: usize, const U: usize, const W: usize, const A: usize> Logic
    for AxisFifo<D, K, U, W, A>
{
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, wptr, rptr, pending, rd_oreg, o_v, count, full, nonempty);
        clock!(self, clock, out);
        self.ram.clock.next = self.clock.val();
        // Write side.
        self.s_axis.tready.next = !self.full.q.val();
        self.push.next = (self.s_axis.tvalid.val() && !self.full.q.val());
        self.word.next = ((bit_cast::<W, D>(self.s_axis.tdata.val())
            | (bit_cast::<W, K>(self.s_axis.tkeep.val()) << self.off_keep.val()))
            | (bit_cast::<W, U>(self.s_axis.tuser.val()) << self.off_user.val()));
        self.word.next = self
            .word
            .val()
            .replace_bit(self.off_last.val().index(), self.s_axis.tlast.val());
        self.ram.write_enable.next = self.push.val();
        self.ram.write_address.next = bit_cast::<A, 16>(self.wptr.q.val());
        self.ram.write_data.next = self.word.val();
        if self.push.val() {
            self.wptr.d.next = (self.wptr.q.val() + 1);
        }
        // Read side: the RAM's output lands in `rd_oreg` the cycle after
        // its read, which the skid buffer takes when its (registered)
        // tready is high. A read is issued when a beat is stored and
        // `rd_oreg` will be free or taken next cycle, so it never holds
        // a beat when a read arrives.
        self.moves.next = (self.o_v.q.val() && self.out.s_axis.tready.val());
        self.o_v_next.next = (self.pending.q.val() || (self.o_v.q.val() && !self.moves.val()));
        self.o_v.d.next = self.o_v_next.val();
        if self.pending.q.val() {
            self.rd_oreg.d.next = self.ram.read_data.val();
        }
        self.pop.next =
            (self.nonempty.q.val() && (!self.o_v_next.val() || self.out.ready_next.val()));
        self.ram.read_address.next = bit_cast::<A, 16>(self.rptr.q.val());
        if self.pop.val() {
            self.rptr.d.next = (self.rptr.q.val() + 1);
        }
        self.pending.d.next = self.pop.val();
        self.out.s_axis.tvalid.next = self.o_v.q.val();
        self.out.s_axis.tdata.next = self.rd_oreg.q.val().get_bits::<D>(0);
        self.out.s_axis.tkeep.next = self
            .rd_oreg
            .q
            .val()
            .get_bits::<K>(self.off_keep.val().index());
        self.out.s_axis.tlast.next = self.rd_oreg.q.val().get_bit(self.off_last.val().index());
        self.out.s_axis.tuser.next = self
            .rd_oreg
            .q
            .val()
            .get_bits::<U>(self.off_user.val().index());
        AxisSource::<D, K, U>::link(&mut self.m_axis, &mut self.out.m_axis);
        self.count_next.next = self.count.q.val();
        if (self.push.val() && !self.pop.val()) {
            self.count_next.next = (self.count.q.val() + 1);
        }
        if (!self.push.val() && self.pop.val()) {
            self.count_next.next = (self.count.q.val() - 1);
        }
        self.count_next.next = (self.count_next.val() & self.k_count_mask.val());
        self.count.d.next = self.count_next.val();
        self.full.d.next = (self.count_next.val() == self.depth.val());
        self.nonempty.d.next = self.count_next.val().any();
        self.level.next = self.count.q.val();
    }
}
