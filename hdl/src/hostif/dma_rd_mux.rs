//! The DMA read mux: the two readers of host memory, the Tx builder's
//! payload reads (`s_core`, `HostReadReq`) and the send-queue fetches
//! (`s_fetch`, `WqeFetch`), onto one read-descriptor port
//! (`m_axis_read_desc`, `DmaDesc`: address, length in bytes, `tag` 0 for
//! payload, 1 for a fetch), and the h2c data stream back to whoever
//! asked: payload words to the core (`m_axis_core`, the core's
//! `s_axis_h2c`), fetch words to the WQE unpacker (`m_beat`, `WqeBeat`,
//! each word with its entry's flow, send-queue index and word number).
//!
//! The DMA engine must return each read's data in descriptor order as
//! ceil(len / 8) beats with `tlast` on the last (as verilog-axi's
//! `axi_dma` and a single XDMA/QDMA h2c channel do). A small FIFO of the
//! reads in flight (at most 8) routes the beats; the two requesters take
//! turns when both ask.
//!
//! Bad input from the DMA engine, defined so that no reader stalls and
//! no word reaches the wrong reader:
//! - a beat with `tuser` set is passed on flagged (`tuser` to the core,
//!   `err` to the unpacker) and counted (`h2c_err`);
//! - a read whose `tlast` comes early is completed with flagged zero
//!   words up to its length; one whose length is reached without `tlast`
//!   has its extra beats dropped up to `tlast`; either is counted once
//!   (`h2c_len_err`);
//! - beats while no read is in flight are dropped (their frames counted
//!   in `h2c_len_err`).
//! A payload read of length 0 is taken and dropped (the Tx never asks
//! for one).
//!
//! Reset (`reset`, synchronous, with the Tx builder's): the payload
//! reads issued before it (taken from `s_core` up to and in the reset's
//! last cycle, and not yet finished) are *stale*: the Tx that asked for
//! them has forgotten them. Their descriptors are still issued (a
//! descriptor offered is held until taken) and their beats are still
//! taken from `s_axis_h2c` as the DMA engine returns them, in order, but
//! they are dropped instead of reaching `m_axis_core`, so no payload of
//! a read from before the reset reaches the Tx after it. Send-queue
//! fetches, the route and the counters are not touched (the send-queue
//! engine is not reset).
//!
//! Ports (clock `clock`, `reset`): as above; counters `rd_descs`
//! (descriptors taken by the DMA engine), `h2c_err`, `h2c_len_err`.
//!
//! Structure and timing (the timing rules R1, R2; `docs/architecture.md`
//! §5i): no input port reaches an output port in the same cycle.
//! - Requests: a registered grant. In a cycle where the descriptor
//!   register will be free next cycle and fewer than 8 reads are in
//!   flight, one of the requesters with `valid` high is granted (in turn
//!   when both ask); its `ready` is its grant flop, and its request is
//!   taken the cycle after if still valid. A payload read of length 0 is
//!   taken then and dropped. A request in cycle t → granted in t + 1 →
//!   its descriptor offered in t + 2; one request every 2 cycles.
//! - h2c: the DMA engine's beats enter a register slice ([`AxisSkid`]),
//!   so `s_axis_h2c.tready` is a flop; the beats are routed from the
//!   slice's head, so `m_axis_core` and `m_beat` are selects of flops.
//!   The first beat of a read is routed from the cycle after its
//!   descriptor was issued + 3 (the route FIFO), one cycle after it
//!   reaches the slice, then one beat per cycle, with one idle cycle
//!   between reads. A stray beat is dropped if no read is in flight when
//!   it reaches the slice's head, so one the DMA engine sends in the
//!   cycle a read is issued counts as that read's.
//!
//! Golden twin: `nic_golden::hostif::dma_rd_mux`.

use crate::hostif::{DmaDescSource, WqeBeatSource, WqeFetchSink};
use crate::mem::Fifo;
use crate::roce::HostReadReqSink;
use crate::stream::{AxisSink, AxisSkid, AxisSource};
use rust_hdl::prelude::*;
use smart_default::SmartDefault;

/// Reads in flight at most.
pub const MAX_READS: u64 = 8;

#[derive(LogicBlock, SmartDefault)]
pub struct DmaRdMux {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub s_core: HostReadReqSink,
    pub s_fetch: WqeFetchSink,
    pub m_axis_read_desc: DmaDescSource,
    pub s_axis_h2c: AxisSink<64, 8, 1>,
    pub m_axis_core: AxisSource<64, 8, 1>,
    pub m_beat: WqeBeatSource,
    pub rd_descs: Signal<Out, Bits<32>>,
    pub h2c_err: Signal<Out, Bits<32>>,
    pub h2c_len_err: Signal<Out, Bits<32>>,
    /// The grant (at most one set): the requester taken this cycle if
    /// its `valid` is high.
    g_core: DFF<Bit>,
    g_fetch: DFF<Bit>,
    /// The h2c input slice.
    h2c: AxisSkid<64, 8, 1>,
    d_v: DFF<Bit>,
    d_addr: DFF<Bits<64>>,
    d_len: DFF<Bits<16>>,
    d_tag: DFF<Bits<8>>,
    /// {fetch, words 10, flow 16, idx 16}.
    route: Fifo<43, 3>,
    reads: DFF<Bits<4>>,
    turn_core: DFF<Bit>,
    cur_v: DFF<Bit>,
    cur_fetch: DFF<Bit>,
    cur_left: DFF<Bits<10>>,
    cur_flow: DFF<Bits<16>>,
    cur_idx: DFF<Bits<16>>,
    cur_word: DFF<Bits<10>>,
    pad: DFF<Bit>,
    drop: DFF<Bit>,
    /// Payload reads issued and not finished.
    core_reads: DFF<Bits<4>>,
    /// Of those, the ones issued before the last reset (the oldest).
    stale: DFF<Bits<4>>,
    n_descs: DFF<Bits<32>>,
    n_err: DFF<Bits<32>>,
    n_len: DFF<Bits<32>>,
    #[default(Constant::new(Bits::<4>::from(MAX_READS)))]
    k_max: Constant<Bits<4>>,
    #[default(Constant::new(Bits::<43>::from(1u64 << 42)))]
    k_fetch_bit: Constant<Bits<43>>,
    core_sum: Signal<Local, Bits<14>>,
    /// A grant may go out: the descriptor register free next cycle,
    /// fewer than 8 reads in flight, no request taken now.
    can: Signal<Local, Bit>,
    core_zero: Signal<Local, Bit>,
    take_core: Signal<Local, Bit>,
    take_fetch: Signal<Local, Bit>,
    pick_core: Signal<Local, Bit>,
    issue: Signal<Local, Bit>,
    finish: Signal<Local, Bit>,
    out_valid: Signal<Local, Bit>,
    out_ready: Signal<Local, Bit>,
    beat: Signal<Local, Bit>,
    stray: Signal<Local, Bit>,
    /// The current read is a stale payload read: its beats are dropped.
    sink: Signal<Local, Bit>,
    issue_core: Signal<Local, Bit>,
    finish_core: Signal<Local, Bit>,
    core_reads_next: Signal<Local, Bits<4>>,
}

impl Logic for DmaRdMux {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, g_core, g_fetch, d_v, d_addr, d_len, d_tag, reads, turn_core, cur_v,
            cur_fetch, cur_left, cur_flow, cur_idx, cur_word, pad, drop, core_reads, stale,
            n_descs, n_err, n_len
        );
        clock!(self, clock, route);
        self.h2c.clock.next = self.clock.val();
        AxisSink::<64, 8, 1>::link(&mut self.s_axis_h2c, &mut self.h2c.s_axis);
        // ---- Requests → descriptors (and their routes): the granted
        // requester's, taken if still valid (a payload read of length 0
        // is taken and dropped).
        self.s_core.ready.next = self.g_core.q.val();
        self.s_fetch.ready.next = self.g_fetch.q.val();
        self.core_zero.next = !self.s_core.len.val().any();
        self.take_core.next = (self.g_core.q.val() && self.s_core.valid.val());
        self.take_fetch.next = (self.g_fetch.q.val() && self.s_fetch.valid.val());
        self.pick_core.next = (self.take_core.val() && !self.core_zero.val());
        self.issue.next = (self.pick_core.val() || self.take_fetch.val());
        // The grant for next cycle.
        self.can.next = (!(self.take_core.val() || self.take_fetch.val())
            && (!self.d_v.q.val() || self.m_axis_read_desc.ready.val())
            && (self.reads.q.val() < self.k_max.val()));
        self.g_core.d.next = (self.can.val()
            && self.s_core.valid.val()
            && (!self.s_fetch.valid.val() || self.turn_core.q.val()));
        self.g_fetch.d.next = (self.can.val()
            && self.s_fetch.valid.val()
            && !(self.s_core.valid.val() && self.turn_core.q.val()));
        if (self.d_v.q.val() && self.m_axis_read_desc.ready.val()) {
            self.d_v.d.next = false;
            self.n_descs.d.next = (self.n_descs.q.val() + 1);
        }
        self.route.push.next = self.issue.val();
        self.route.push_data.next = 0.into();
        self.core_sum.next = (bit_cast::<14, 13>(self.s_core.len.val()) + 7);
        if self.issue.val() {
            self.d_v.d.next = true;
            self.turn_core.d.next = !self.pick_core.val();
            if self.pick_core.val() {
                self.d_addr.d.next = self.s_core.addr.val();
                self.d_len.d.next = bit_cast::<16, 13>(self.s_core.len.val());
                self.d_tag.d.next = 0.into();
                self.route.push_data.next =
                    (bit_cast::<43, 10>(self.core_sum.val().get_bits::<10>(3)) << 32);
            } else {
                self.d_addr.d.next = self.s_fetch.addr.val();
                self.d_len.d.next = (bit_cast::<16, 5>(self.s_fetch.count.val()) << 5);
                self.d_tag.d.next = 1.into();
                self.route.push_data.next = (self.k_fetch_bit.val()
                    | (bit_cast::<43, 5>(self.s_fetch.count.val()) << 34)
                    | (bit_cast::<43, 16>(self.s_fetch.flow.val()) << 16)
                    | bit_cast::<43, 16>(self.s_fetch.idx.val()));
            }
        }
        self.m_axis_read_desc.valid.next = self.d_v.q.val();
        self.m_axis_read_desc.addr.next = self.d_addr.q.val();
        self.m_axis_read_desc.len.next = self.d_len.q.val();
        self.m_axis_read_desc.tag.next = self.d_tag.q.val();
        // ---- The read at the route's head.
        self.route.pop.next = (!self.cur_v.q.val() && self.route.head_valid.val());
        if (!self.cur_v.q.val() && self.route.head_valid.val()) {
            self.cur_v.d.next = true;
            self.cur_fetch.d.next = self.route.head_data.val().get_bit(42);
            self.cur_left.d.next = self.route.head_data.val().get_bits::<10>(32);
            self.cur_flow.d.next = self.route.head_data.val().get_bits::<16>(16);
            self.cur_idx.d.next = self.route.head_data.val().get_bits::<16>(0);
            self.cur_word.d.next = 0.into();
            self.pad.d.next = false;
            self.drop.d.next = false;
        }
        // ---- h2c → the reader (or padding, or dropped).
        self.out_valid.next = (self.cur_v.q.val()
            && !self.drop.q.val()
            && (self.pad.q.val() || self.h2c.m_axis.tvalid.val()));
        self.sink.next = (!self.cur_fetch.q.val() && self.stale.q.val().any());
        self.out_ready.next = self.m_axis_core.tready.val();
        if self.cur_fetch.q.val() {
            self.out_ready.next = self.m_beat.ready.val();
        }
        if self.sink.val() {
            self.out_ready.next = true;
        }
        self.m_axis_core.tvalid.next =
            ((self.out_valid.val() && !self.cur_fetch.q.val()) && !self.sink.val());
        self.m_axis_core.tdata.next = self.h2c.m_axis.tdata.val();
        self.m_axis_core.tkeep.next = self.h2c.m_axis.tkeep.val();
        self.m_axis_core.tuser.next = self.h2c.m_axis.tuser.val();
        self.m_axis_core.tlast.next = (self.cur_left.q.val() == 1);
        self.m_beat.valid.next = (self.out_valid.val() && self.cur_fetch.q.val());
        self.m_beat.data.next = self.h2c.m_axis.tdata.val();
        self.m_beat.err.next = self.h2c.m_axis.tuser.val().any();
        if self.pad.q.val() {
            self.m_axis_core.tdata.next = 0.into();
            self.m_axis_core.tkeep.next = 0xFF.into();
            self.m_axis_core.tuser.next = 1.into();
            self.m_beat.data.next = 0.into();
            self.m_beat.err.next = true;
        }
        self.m_beat.flow.next = self.cur_flow.q.val();
        self.m_beat.idx.next =
            (self.cur_idx.q.val() + bit_cast::<16, 8>(self.cur_word.q.val().get_bits::<8>(2)));
        self.m_beat.word.next = self.cur_word.q.val().get_bits::<2>(0);
        self.stray.next = (!self.cur_v.q.val() && !self.reads.q.val().any());
        self.h2c.m_axis.tready.next = ((self.cur_v.q.val()
            && !self.pad.q.val()
            && (self.drop.q.val() || self.out_ready.val()))
            || self.stray.val());
        self.beat.next = (self.out_valid.val() && self.out_ready.val());
        self.finish.next = false;
        if self.beat.val() {
            self.cur_left.d.next = (self.cur_left.q.val() - 1);
            self.cur_word.d.next = (self.cur_word.q.val() + 1);
            if (!self.pad.q.val() && self.h2c.m_axis.tuser.val().any()) {
                self.n_err.d.next = (self.n_err.q.val() + 1);
            }
            if (self.cur_left.q.val() == 1) {
                if (self.pad.q.val() || self.h2c.m_axis.tlast.val()) {
                    self.finish.next = true;
                } else {
                    self.drop.d.next = true;
                    self.n_len.d.next = (self.n_len.q.val() + 1);
                }
            } else if (!self.pad.q.val() && self.h2c.m_axis.tlast.val()) {
                self.pad.d.next = true;
                self.n_len.d.next = (self.n_len.q.val() + 1);
            }
        }
        if (self.drop.q.val() && self.h2c.m_axis.tvalid.val() && self.h2c.m_axis.tlast.val()) {
            self.finish.next = true;
        }
        if (self.stray.val() && self.h2c.m_axis.tvalid.val() && self.h2c.m_axis.tlast.val()) {
            self.n_len.d.next = (self.n_len.q.val() + 1);
        }
        if self.finish.val() {
            self.cur_v.d.next = false;
        }
        if (self.issue.val() && !self.finish.val()) {
            self.reads.d.next = (self.reads.q.val() + 1);
        } else if (!self.issue.val() && self.finish.val()) {
            self.reads.d.next = (self.reads.q.val() - 1);
        }
        // ---- Payload reads in flight, and the stale ones.
        self.issue_core.next = (self.issue.val() && self.pick_core.val());
        self.finish_core.next = (self.finish.val() && !self.cur_fetch.q.val());
        self.core_reads_next.next = self.core_reads.q.val();
        if (self.issue_core.val() && !self.finish_core.val()) {
            self.core_reads_next.next = (self.core_reads.q.val() + 1);
        } else if (!self.issue_core.val() && self.finish_core.val()) {
            self.core_reads_next.next = (self.core_reads.q.val() - 1);
        }
        self.core_reads.d.next = self.core_reads_next.val();
        if self.reset.val() {
            self.stale.d.next = self.core_reads_next.val();
        } else if (self.finish_core.val() && self.stale.q.val().any()) {
            self.stale.d.next = (self.stale.q.val() - 1);
        }
        self.rd_descs.next = self.n_descs.q.val();
        self.h2c_err.next = self.n_err.q.val();
        self.h2c_len_err.next = self.n_len.q.val();
    }
}
