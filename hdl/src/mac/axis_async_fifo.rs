//! `AxisAsyncFifo<A, DROP>`: a frame FIFO between two clocks (store and
//! forward), joining a MAC's clock to the core's.
//!
//! What it does: beats from `s_axis` (clock `s_clk`) are written into a
//! 2^`A`-word block RAM; a frame becomes visible to the read side
//! (`m_axis`, clock `m_clk`) only when its last beat is written, so
//! `m_axis` never runs dry inside a frame (the transmitter after it would
//! abort the frame) and a frame that cannot be stored whole is dropped
//! whole.
//!
//! - `DROP` = 1 (receive direction: a MAC cannot be stalled):
//!   `s_axis.tready` is high out of reset; a frame that finds no room is
//!   dropped, counted in `dropped`.
//! - `DROP` = 0 (transmit direction): `s_axis.tready` falls while the RAM
//!   is full; only a frame longer than 2^`A` words is dropped (it could
//!   never be stored), counted in `dropped`.
//!
//! Ports:
//! - `s_clk`, `s_rst`, `s_axis` (`AxisSink<64, 8, 1>`), `m_stats`
//!   (`AsyncFifoStats`: `frames` stored, `dropped`), all on `s_clk`;
//! - `m_clk`, `m_rst`, `m_axis` (`AxisSource<64, 8, 1>`: registered,
//!   zero while `tvalid` is low), on `m_clk`.
//!
//! How it crosses: the read pointer goes to the write side in Gray code
//! (one bit changes per step) through two registers, then a register
//! after its decode to binary; the commit pointer
//! (where the last whole frame ends) jumps by a frame at a time, so it
//! goes the other way through a [`ReqSync`] (toggle handshake, newest
//! value wins; the pointer is absolute, so a value overtaken by a newer
//! one loses nothing).
//!
//! Timing: a frame's last beat written in `s_clk` cycle t can be on
//! `m_axis` after the 5th `m_clk` edge that follows, or the 6th when the
//! commit toggle just misses an edge (crossing, RAM read, head
//! register); then one beat per `m_clk` cycle (II 1). Capacity: 2^`A`
//! words in the RAM, plus up to 3 in the read pipeline.
//!
//! Resets (synchronous, active high, either side alone, any length):
//! - a reset of either side is held there as a request until the other
//!   side is seen in reset too (two synchroniser registers each way), so
//!   both sides are reset whatever the pulse length and clock ratio; the
//!   write side then stays in reset until the read side is out of reset
//!   and its end of the commit crossing has settled (4 `m_clk` cycles).
//!   No commit pointer from before the reset can reach the read side
//!   after it. The FIFO is then empty on both sides and the counters are
//!   zero; frames not yet read are lost;
//! - a frame cut in the middle on `s_axis` by a reset of the read side
//!   alone (the source, on `s_rst`, goes on with it) is discarded to its
//!   last beat, not counted;
//! - a frame cut in the middle on `m_axis` by a reset of the write side
//!   alone (the consumer of `m_axis`, on `m_rst`, is not reset) is closed
//!   by one beat with `tlast`, `tuser` = 1 (bad) and one zero byte, so the
//!   consumer drops it and never joins it to the next frame;
//! - `s_axis.tready` is low while the write side is in reset.
//!
//! Bad input: a frame longer than the FIFO, or (`DROP` = 1) one without
//! room, is dropped whole; `tuser` passes through (a bad frame stays
//! bad). Nothing can stall it: the read side waits only for `tready`.
//!
//! Golden twin: `nic_golden::mac::axis_async_fifo` (one step per edge of
//! each clock).

use super::{AsyncFifoStatsSource, ReqSync};
use crate::stream::{AxisSink, AxisSource};
use rust_hdl::prelude::*;
use smart_default::SmartDefault;

/// Gray to binary, 16 bits (combinational).
#[derive(LogicBlock, Default)]
pub struct GrayToBin {
    pub gray: Signal<In, Bits<16>>,
    pub bin: Signal<Out, Bits<16>>,
}

impl Logic for GrayToBin {
    fn update(&mut self) {
        let mut b = self.gray.val().to_u64() as u16;
        b ^= b >> 1;
        b ^= b >> 2;
        b ^= b >> 4;
        b ^= b >> 8;
        self.bin.next = Bits::<16>::from(b as u64);
    }
    fn connect(&mut self) {
        self.bin.connect();
    }
    fn hdl(&self) -> Verilog {
        Verilog::Custom(
            "integer i;\nalways @(*) begin\n  bin[15] = gray[15];\n  for (i = 14; i >= 0; i = i - 1)\n    bin[i] = bin[i + 1] ^ gray[i];\nend\n"
                .into(),
        )
    }
}

/// Cycles the read side stays flagged in reset after its reset ends.
const HOLD: u64 = 4;

#[derive(LogicBlock, SmartDefault)]
pub struct AxisAsyncFifo<const A: usize, const DROP: usize> {
    // The parameter check, when the block is built.
    #[default({
        assert!((2..=15).contains(&A), "AxisAsyncFifo: 2 <= A <= 15");
        assert!(DROP <= 1, "AxisAsyncFifo: DROP is 0 or 1");
        Default::default()
    })]
    pub s_clk: Signal<In, Clock>,
    pub s_rst: Signal<In, Bit>,
    pub s_axis: AxisSink<64, 8, 1>,
    pub m_stats: AsyncFifoStatsSource,
    pub m_clk: Signal<In, Clock>,
    pub m_rst: Signal<In, Bit>,
    pub m_axis: AxisSource<64, 8, 1>,
    ram: RAM<Bits<74>, A>,
    sync: ReqSync<16>,
    rd_bin: GrayToBin,
    // ---- s_clk
    wr: DFF<Bits<16>>,
    commit: DFF<Bits<16>>,
    dropping: DFF<Bit>,
    s_open: DFF<Bit>,
    rd_s0: DFF<Bits<16>>,
    rd_s1: DFF<Bits<16>>,
    rd_w: DFF<Bits<16>>,
    s_req: DFF<Bit>,
    s_in_rst: DFF<Bit>,
    m_in_rst_s0: DFF<Bit>,
    m_in_rst_s1: DFF<Bit>,
    n_frames: DFF<Bits<32>>,
    n_dropped: DFF<Bits<32>>,
    // ---- m_clk
    rd: DFF<Bits<16>>,
    rd_gray: DFF<Bits<16>>,
    rv: DFF<Bit>,
    h_v: DFF<Bit>,
    h_d: DFF<Bits<74>>,
    s_v: DFF<Bit>,
    s_d: DFF<Bits<74>>,
    m_open: DFF<Bit>,
    term: DFF<Bit>,
    m_hold: DFF<Bits<3>>,
    m_in_rst: DFF<Bit>,
    m_req: DFF<Bit>,
    s_req_m0: DFF<Bit>,
    s_req_m1: DFF<Bit>,
    s_in_rst_m0: DFF<Bit>,
    s_in_rst_m1: DFF<Bit>,
    #[default(Constant::new(Bits::<16>::from(1u64 << A)))]
    k_cap: Constant<Bits<16>>,
    #[default(Constant::new(DROP == 1))]
    k_drop: Constant<Bit>,
    #[default(Constant::new(Bits::<3>::from(HOLD)))]
    k_hold: Constant<Bits<3>>,
    // ---- locals
    rst_s: Signal<Local, Bit>,
    room: Signal<Local, Bit>,
    ready: Signal<Local, Bit>,
    beat: Signal<Local, Bits<74>>,
    wr_next: Signal<Local, Bits<16>>,
    rst_m: Signal<Local, Bit>,
    shown_v: Signal<Local, Bit>,
    shown_last: Signal<Local, Bit>,
    open_n: Signal<Local, Bit>,
    term_n: Signal<Local, Bit>,
    consume: Signal<Local, Bit>,
    keep: Signal<Local, Bit>,
    issue: Signal<Local, Bit>,
    rd_next: Signal<Local, Bits<16>>,
    head: Signal<Local, Bits<74>>,
}

impl<const A: usize, const DROP: usize> Logic for AxisAsyncFifo<A, DROP> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            s_clk,
            wr,
            commit,
            dropping,
            s_open,
            rd_s0,
            rd_s1,
            rd_w,
            s_req,
            s_in_rst,
            m_in_rst_s0,
            m_in_rst_s1,
            n_frames,
            n_dropped
        );
        dff_setup!(
            self,
            m_clk,
            rd,
            rd_gray,
            rv,
            h_v,
            h_d,
            s_v,
            s_d,
            m_open,
            term,
            m_hold,
            m_in_rst,
            m_req,
            s_req_m0,
            s_req_m1,
            s_in_rst_m0,
            s_in_rst_m1
        );
        self.ram.write_clock.next = self.s_clk.val();
        self.ram.read_clock.next = self.m_clk.val();
        self.sync.clock_in.next = self.s_clk.val();
        self.sync.clock_out.next = self.m_clk.val();

        // ---- The write side (s_clk) ---------------------------------------
        self.rst_s.next = (self.s_rst.val() || self.s_req.q.val() || self.m_in_rst_s1.q.val());
        self.s_req.d.next = (self.s_rst.val() || (self.s_req.q.val() && !self.m_in_rst_s1.q.val()));
        self.s_in_rst.d.next = self.rst_s.val();
        self.m_in_rst_s0.d.next = self.m_in_rst.q.val();
        self.m_in_rst_s1.d.next = self.m_in_rst_s0.q.val();
        self.rd_s0.d.next = self.rd_gray.q.val();
        self.rd_s1.d.next = self.rd_s0.q.val();
        // The read pointer in binary, registered after the decode (one
        // cycle later than it could be: conservative, and off the tready
        // path).
        self.rd_bin.gray.next = self.rd_s1.q.val();
        self.rd_w.d.next = self.rd_bin.bin.val();
        self.room.next = ((self.wr.q.val() - self.rd_w.q.val()) != self.k_cap.val());
        self.ready.next = (!self.rst_s.val()
            && (self.k_drop.val()
                || self.room.val()
                || self.dropping.q.val()
                || (self.commit.q.val() == self.rd_w.q.val())));
        self.s_axis.tready.next = self.ready.val();
        self.beat.next = (bit_cast::<74, 64>(self.s_axis.tdata.val())
            | (bit_cast::<74, 8>(self.s_axis.tkeep.val()) << 64)
            | (bit_cast::<74, 1>(self.s_axis.tlast.val().into()) << 72)
            | (bit_cast::<74, 1>(self.s_axis.tuser.val()) << 73));
        self.wr_next.next = (self.wr.q.val() + 1);
        self.ram.write_address.next = self.wr.q.val().get_bits::<A>(0);
        self.ram.write_data.next = self.beat.val();
        self.ram.write_enable.next = false;
        self.sync.send.next = false;
        self.sync.data.next = self.wr_next.val();
        if self.rst_s.val() {
            self.wr.d.next = 0.into();
            self.commit.d.next = 0.into();
            self.dropping.d.next =
                (!self.s_rst.val() && (self.dropping.q.val() || self.s_open.q.val()));
            self.s_open.d.next = false;
            self.n_frames.d.next = 0.into();
            self.n_dropped.d.next = 0.into();
        } else if (self.s_axis.tvalid.val() && self.ready.val()) {
            self.s_open.d.next = !self.s_axis.tlast.val();
            if self.dropping.q.val() {
                self.dropping.d.next = !self.s_axis.tlast.val();
            } else if self.room.val() {
                self.ram.write_enable.next = true;
                self.wr.d.next = self.wr_next.val();
                if self.s_axis.tlast.val() {
                    self.commit.d.next = self.wr_next.val();
                    self.n_frames.d.next = (self.n_frames.q.val() + 1);
                    self.sync.send.next = true;
                }
            } else {
                self.wr.d.next = self.commit.q.val();
                self.n_dropped.d.next = (self.n_dropped.q.val() + 1);
                self.dropping.d.next = !self.s_axis.tlast.val();
            }
        }
        self.sync.reset_in.next = self.rst_s.val();
        self.m_stats.frames.next = self.n_frames.q.val();
        self.m_stats.dropped.next = self.n_dropped.q.val();

        // ---- The read side (m_clk) ----------------------------------------
        self.rst_m.next = (self.m_rst.val() || self.m_req.q.val() || self.s_req_m1.q.val());
        self.m_req.d.next = (self.m_rst.val() || (self.m_req.q.val() && !self.s_in_rst_m1.q.val()));
        self.s_req_m0.d.next = self.s_req.q.val();
        self.s_req_m1.d.next = self.s_req_m0.q.val();
        self.s_in_rst_m0.d.next = self.s_in_rst.q.val();
        self.s_in_rst_m1.d.next = self.s_in_rst_m0.q.val();
        self.m_in_rst.d.next = (self.rst_m.val() || self.m_hold.q.val().any());
        if self.rst_m.val() {
            self.m_hold.d.next = self.k_hold.val();
        } else if self.m_hold.q.val().any() {
            self.m_hold.d.next = (self.m_hold.q.val() - 1);
        }
        // What m_axis shows: the terminator, else the head.
        self.head.next = self.h_d.q.val();
        self.shown_v.next = (self.term.q.val() || self.h_v.q.val());
        self.shown_last.next = (self.term.q.val() || self.head.val().get_bit(72));
        self.m_axis.tvalid.next = self.shown_v.val();
        if self.term.q.val() {
            self.m_axis.tdata.next = 0.into();
            self.m_axis.tkeep.next = 0x01.into();
            self.m_axis.tlast.next = true;
            self.m_axis.tuser.next = 1.into();
        } else if self.h_v.q.val() {
            self.m_axis.tdata.next = self.head.val().get_bits::<64>(0);
            self.m_axis.tkeep.next = self.head.val().get_bits::<8>(64);
            self.m_axis.tlast.next = self.head.val().get_bit(72);
            self.m_axis.tuser.next = self.head.val().get_bits::<1>(73);
        } else {
            self.m_axis.tdata.next = 0.into();
            self.m_axis.tkeep.next = 0.into();
            self.m_axis.tlast.next = false;
            self.m_axis.tuser.next = 0.into();
        }
        self.open_n.next = self.m_open.q.val();
        if (self.m_axis.tready.val() && self.shown_v.val()) {
            self.open_n.next = !self.shown_last.val();
        }
        self.term_n.next = (self.term.q.val() && !self.m_axis.tready.val());
        self.consume.next = (self.m_axis.tready.val() && self.h_v.q.val() && !self.term.q.val());
        self.keep.next = (self.h_v.q.val() && !self.consume.val());
        self.issue.next = ((self.sync.data_out.val() != self.rd.q.val())
            && !(self.keep.val() && self.s_v.q.val())
            && !(self.keep.val() && self.rv.q.val())
            && !(self.s_v.q.val() && self.rv.q.val()));
        if self.keep.val() {
            if !self.s_v.q.val() {
                self.s_v.d.next = self.rv.q.val();
                self.s_d.d.next = self.ram.read_data.val();
            }
        } else if self.s_v.q.val() {
            self.h_v.d.next = true;
            self.h_d.d.next = self.s_d.q.val();
            self.s_v.d.next = self.rv.q.val();
            self.s_d.d.next = self.ram.read_data.val();
        } else {
            self.h_v.d.next = self.rv.q.val();
            self.h_d.d.next = self.ram.read_data.val();
            self.s_v.d.next = false;
        }
        self.ram.read_address.next = self.rd.q.val().get_bits::<A>(0);
        self.rv.d.next = self.issue.val();
        self.rd_next.next = self.rd.q.val();
        if self.issue.val() {
            self.rd_next.next = (self.rd.q.val() + 1);
        }
        self.m_open.d.next = self.open_n.val();
        self.term.d.next = self.term_n.val();
        if self.rst_m.val() {
            self.rd_next.next = 0.into();
            self.rv.d.next = false;
            self.h_v.d.next = false;
            self.s_v.d.next = false;
            self.term.d.next = (!self.m_rst.val() && (self.term_n.val() || self.open_n.val()));
            self.m_open.d.next = false;
        }
        self.rd.d.next = self.rd_next.val();
        self.rd_gray.d.next = (self.rd_next.val() ^ (self.rd_next.val() >> 1));
        self.sync.reset_out.next = self.rst_m.val();
    }
}
