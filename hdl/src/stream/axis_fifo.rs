//! Synchronous stream FIFO: block RAM storage with an [`AxisSkid`] on its
//! output.
//!
//! Ports (clock `clock`): `s_axis` ([`AxisSink`]), `m_axis`
//! ([`AxisSource`]), `level`: `Bits<16>`, beats held in the RAM (not
//! counting the output stage, at most 2^A).
//!
//! Parameters: D, K, U (the stream widths), W = D + K + 1 + U (the packed
//! beat: stable Rust cannot add const parameters in a type), A: the RAM
//! holds 2^A beats (A ≤ 15). Capacity: 2^A beats in RAM plus 2 in the
//! output skid buffer (a beat being read from the RAM always has a place
//! there).
//!
//! Timing: `s_axis.tready` = RAM not full (a register). A beat written at
//! cycle t is read from the RAM at t + 1 and presented on `m_axis` from
//! t + 3 (latency 3). A read is issued only when the skid buffer will be
//! able to take the data the next cycle (`ready_next`), so throughput is
//! one beat per cycle in both directions under any back-pressure.
//! `m_axis.*` are registers; `m_axis.tready` reaches the RAM read enable
//! through the skid buffer's `ready_next` (one LUT level).
//!
//! The RAM is rust-hdl's `RAM` widget (synchronous read: infers block RAM
//! on ECP5 and Xilinx). Only written locations are ever passed on, so no X
//! reaches the outputs. Golden twin: `nic_golden::stream::axis_fifo`.

use super::{AxisSink, AxisSkid, AxisSource};
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct AxisFifo<const D: usize, const K: usize, const U: usize, const W: usize, const A: usize>
{
    pub clock: Signal<In, Clock>,
    pub s_axis: AxisSink<D, K, U>,
    pub m_axis: AxisSource<D, K, U>,
    pub level: Signal<Out, Bits<16>>,
    ram: RAM<Bits<W>, A>,
    out: AxisSkid<D, K, U>,
    wptr: DFF<Bits<16>>,
    rptr: DFF<Bits<16>>,
    /// A read was issued last cycle: the RAM output is a beat now.
    pending: DFF<Bit>,
    depth: Constant<Bits<16>>,
    fill: Signal<Local, Bits<16>>,
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
            ram: Default::default(),
            out: Default::default(),
            wptr: Default::default(),
            rptr: Default::default(),
            pending: Default::default(),
            depth: Constant::new((1u64 << A).to_bits()),
            fill: Default::default(),
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
        dff_setup!(self, clock, wptr, rptr, pending);
        clock!(self, clock, out);
        self.ram.write_clock.next = self.clock.val();
        self.ram.read_clock.next = self.clock.val();
        self.fill.next = (self.wptr.q.val() - self.rptr.q.val());
        // Write side.
        self.s_axis.tready.next = (self.fill.val() != self.depth.val());
        self.push.next = (self.s_axis.tvalid.val() && (self.fill.val() != self.depth.val()));
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
        // Read side: issue a read when a beat is stored and the skid
        // buffer will take it next cycle.
        self.pop.next = (self.fill.val().any() && self.out.ready_next.val());
        self.ram.read_address.next = bit_cast::<A, 16>(self.rptr.q.val());
        if self.pop.val() {
            self.rptr.d.next = (self.rptr.q.val() + 1);
        }
        self.pending.d.next = self.pop.val();
        self.out.s_axis.tvalid.next = self.pending.q.val();
        self.out.s_axis.tdata.next = self.ram.read_data.val().get_bits::<D>(0);
        self.out.s_axis.tkeep.next = self
            .ram
            .read_data
            .val()
            .get_bits::<K>(self.off_keep.val().index());
        self.out.s_axis.tlast.next = self
            .ram
            .read_data
            .val()
            .get_bit(self.off_last.val().index());
        self.out.s_axis.tuser.next = self
            .ram
            .read_data
            .val()
            .get_bits::<U>(self.off_user.val().index());
        AxisSource::<D, K, U>::link(&mut self.m_axis, &mut self.out.m_axis);
        self.level.next = self.fill.val();
    }
}
