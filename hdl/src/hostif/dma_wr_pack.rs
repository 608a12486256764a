//! The DMA write packer: the writers of host memory, the receive path's
//! host writes (`s_core`, `HostWrite`: one 8-byte word with byte strobes
//! at an 8-aligned address) and the completion-queue entries (`s_cqe`,
//! `CqeWrite`: 16 bytes), onto one write-descriptor port
//! (`m_axis_write_desc`, `DmaDesc`) and the c2h stream (`m_axis_c2h`).
//!
//! Words are packed into bursts: a word that continues the open burst
//! (its address is the next after a full word, and the burst has fewer
//! than 32 words) joins it; any other word, or a cycle without a word,
//! closes it: its descriptor (start address, bytes) is queued and its
//! last word goes out with `tlast`. So a received packet's payload
//! becomes one descriptor per 256 bytes, not one per word. Each burst's
//! data follows the descriptors in order; the DMA engine must execute
//! write descriptors in order (one queue: so a completion entry lands
//! after the data it reports).
//!
//! Order: a taken completion entry's words first, then the core's words,
//! then a new completion entry. Both writers' `ready` is `room` and no
//! entry held (registers only: no path from an input port to an output
//! port, timing rule R1); an entry offered with a core word is taken with
//! it and goes out after it, from two holding registers. So a READ's last
//! payload word, offered before its completion exists, is always ahead of
//! that completion's entry. In the cycle after an entry's last word
//! leaves on `m_axis_c2h`, `m_done` (`CqEvent`, strobe, a register) names
//! its queue: the CQ engine counts it for its event only then.
//!
//! Strobes must be contiguous from lane 0 (both writers' are: the core
//! writes 8-aligned payload, entries are whole words); `tkeep` is the
//! strobe, and the descriptor's length counts strobed bytes.
//!
//! Ports (clock `clock`; no reset): as above; `m_axis_c2h.tuser` is 0;
//! counter `wr_descs` (descriptors taken by the DMA engine).
//!
//! Buffering: 128 words and 16 descriptors; a writer waits (its `ready`
//! low) only when they are full or an entry's words are held (at most
//! two cycles). A word taken in cycle t is on
//! `m_axis_c2h` in t + 4 at the earliest (one cycle held, 3 through the
//! FIFO). Throughput: one word per cycle.
//!
//! Golden twin: `nic_golden::hostif::dma_wr_pack`.

use crate::hostif::{CqEventSource, CqeWriteSink, DmaDescSource};
use crate::mem::Fifo;
use crate::roce::HostWriteSink;
use crate::stream::AxisSource;
use rust_hdl::prelude::*;
use smart_default::SmartDefault;

/// Words in a burst at most (256 bytes).
pub const MAX_BURST: u64 = 32;
/// Data words buffered (held word included).
pub const DATA_WORDS: u64 = 128;
/// Descriptors buffered (one more may be queued by a burst closing
/// while the writers wait: 16, the FIFO's RAM).
pub const DESCS: u64 = 15;

#[derive(LogicBlock, SmartDefault)]
pub struct DmaWrPack {
    // The parameter check, when the block is built.
    #[default({
        assert!(
            DATA_WORDS.is_power_of_two()
                && (DESCS + 1).is_power_of_two()
                && DATA_WORDS < 256
                && MAX_BURST.is_power_of_two()
                && MAX_BURST < 256,
            "DmaWrPack: room and the burst's length are bit tests \
             (DATA_WORDS = 2^k, DESCS = 2^k - 1, MAX_BURST = 2^k)",
        );
        Default::default()
    })]
    pub clock: Signal<In, Clock>,
    pub s_core: HostWriteSink,
    pub s_cqe: CqeWriteSink,
    pub m_axis_write_desc: DmaDescSource,
    pub m_axis_c2h: AxisSource<64, 8, 1>,
    pub m_done: CqEventSource,
    pub wr_descs: Signal<Out, Bits<32>>,
    /// An entry's first word, when it was taken with a core word.
    lo_v: DFF<Bit>,
    lo_addr: DFF<Bits<64>>,
    lo_data: DFF<Bits<64>>,
    hi_v: DFF<Bit>,
    hi_addr: DFF<Bits<64>>,
    hi_data: DFF<Bits<64>>,
    hi_cq: DFF<Bits<8>>,
    held_v: DFF<Bit>,
    held_data: DFF<Bits<64>>,
    held_keep: DFF<Bits<8>>,
    held_evt: DFF<Bit>,
    held_cq: DFF<Bits<8>>,
    b_addr: DFF<Bits<64>>,
    b_next: DFF<Bits<64>>,
    b_len: DFF<Bits<16>>,
    b_words: DFF<Bits<8>>,
    /// {data 64, keep 8, last, evt, cq 8}.
    data: Fifo<82, 7>,
    /// {addr 64, len 16}.
    descs: Fifo<80, 4>,
    used: DFF<Bits<8>>,
    dcnt: DFF<Bits<8>>,
    n_descs: DFF<Bits<32>>,
    done_v: DFF<Bit>,
    done_cq: DFF<Bits<8>>,
    /// The bits at or above `DATA_WORDS` and `DESCS + 1` (powers of two).
    #[default(Constant::new(Bits::<8>::from(!(DATA_WORDS - 1) & 0xFF)))]
    k_words_above: Constant<Bits<8>>,
    #[default(Constant::new(Bits::<8>::from(!DESCS & 0xFF)))]
    k_descs_above: Constant<Bits<8>>,
    #[default(Constant::new(Bits::<8>::from(DESCS)))]
    k_descs: Constant<Bits<8>>,
    /// The bits at or above MAX_BURST (a power of two): `b_words` is
    /// below it when none is set.
    #[default(Constant::new(Bits::<8>::from(!(MAX_BURST - 1) & 0xFF)))]
    k_burst_above: Constant<Bits<8>>,
    #[default(Constant::new(Bits::<16>::from(8)))]
    k_eight: Constant<Bits<16>>,
    #[default(Constant::new(Bits::<8>::from(0xFFu64)))]
    k_full: Constant<Bits<8>>,
    room: Signal<Local, Bit>,
    free: Signal<Local, Bit>,
    w_v: Signal<Local, Bit>,
    w_addr: Signal<Local, Bits<64>>,
    /// This cycle's word's address is the open burst's next
    /// (`w_addr == b_next`), compared for each source before the mux.
    w_seq: Signal<Local, Bit>,
    seq_lo: Signal<Local, Bit>,
    seq_hi: Signal<Local, Bit>,
    seq_core: Signal<Local, Bit>,
    seq_cqe: Signal<Local, Bit>,
    w_data: Signal<Local, Bits<64>>,
    w_keep: Signal<Local, Bits<8>>,
    w_evt: Signal<Local, Bit>,
    w_cq: Signal<Local, Bits<8>>,
    take_cqe: Signal<Local, Bit>,
    join_burst: Signal<Local, Bit>,
    close: Signal<Local, Bit>,
    /// Bytes in this word: 8 for an entry's, else the core word's
    /// strobes counted before the word's mux (`pc_core`, an adder tree).
    pc: Signal<Local, Bits<16>>,
    pc_core: Signal<Local, Bits<16>>,
    pc_pairs: [Signal<Local, Bits<16>>; 4],
    pop: Signal<Local, Bit>,
    dpop: Signal<Local, Bit>,
}

impl Logic for DmaWrPack {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, lo_v, lo_addr, lo_data, hi_v, hi_addr, hi_data, hi_cq, held_v, held_data,
            held_keep, held_evt, held_cq, b_addr, b_next, b_len, b_words, used, dcnt, n_descs,
            done_v, done_cq
        );
        clock!(self, clock, data, descs);
        // ---- This cycle's word: a held entry's (first word, then second),
        // the core's, a new entry's first.
        // Bit tests, not a compare's carry chain before the word's mux:
        // below DATA_WORDS (a power of two) is no bit at or above it set;
        // below DESCS (2^k − 1) is no bit at or above 2^k set and not all
        // of the k below it.
        self.room.next = (!(self.used.q.val() & self.k_words_above.val()).any()
            && !(self.dcnt.q.val() & self.k_descs_above.val()).any()
            && ((self.dcnt.q.val() & self.k_descs.val()) != self.k_descs.val()));
        self.free.next = (!self.lo_v.q.val() && !self.hi_v.q.val());
        self.s_core.ready.next = (self.room.val() && self.free.val());
        self.s_cqe.ready.next = (self.room.val() && self.free.val());
        self.take_cqe.next = (self.s_cqe.valid.val() && self.room.val() && self.free.val());
        // Each source's address against the burst's next, in parallel with
        // `room`, so no 64-bit compare follows the word's mux.
        self.seq_lo.next = (self.lo_addr.q.val() == self.b_next.q.val());
        self.seq_hi.next = (self.hi_addr.q.val() == self.b_next.q.val());
        self.seq_core.next = (self.s_core.addr.val() == self.b_next.q.val());
        self.seq_cqe.next = (self.s_cqe.addr.val() == self.b_next.q.val());
        // The core word's strobes counted (a tree of adds, in parallel
        // with `room`; the entries' words are full: 8).
        self.pc_pairs[0].next = (bit_cast::<16, 1>(self.s_core.strb.val().get_bit(0).into())
            + bit_cast::<16, 1>(self.s_core.strb.val().get_bit(1).into()));
        self.pc_pairs[1].next = (bit_cast::<16, 1>(self.s_core.strb.val().get_bit(2).into())
            + bit_cast::<16, 1>(self.s_core.strb.val().get_bit(3).into()));
        self.pc_pairs[2].next = (bit_cast::<16, 1>(self.s_core.strb.val().get_bit(4).into())
            + bit_cast::<16, 1>(self.s_core.strb.val().get_bit(5).into()));
        self.pc_pairs[3].next = (bit_cast::<16, 1>(self.s_core.strb.val().get_bit(6).into())
            + bit_cast::<16, 1>(self.s_core.strb.val().get_bit(7).into()));
        self.pc_core.next = ((self.pc_pairs[0].val() + self.pc_pairs[1].val())
            + (self.pc_pairs[2].val() + self.pc_pairs[3].val()));
        self.w_v.next = false;
        self.w_addr.next = self.s_core.addr.val();
        self.w_seq.next = self.seq_core.val();
        self.pc.next = self.pc_core.val();
        self.w_data.next = self.s_core.data.val();
        self.w_keep.next = self.s_core.strb.val();
        self.w_evt.next = false;
        self.w_cq.next = 0.into();
        if self.room.val() {
            if self.lo_v.q.val() {
                self.w_v.next = true;
                self.w_addr.next = self.lo_addr.q.val();
                self.w_seq.next = self.seq_lo.val();
                self.pc.next = self.k_eight.val();
                self.w_data.next = self.lo_data.q.val();
                self.w_keep.next = self.k_full.val();
                self.lo_v.d.next = false;
            } else if self.hi_v.q.val() {
                self.w_v.next = true;
                self.w_addr.next = self.hi_addr.q.val();
                self.w_seq.next = self.seq_hi.val();
                self.pc.next = self.k_eight.val();
                self.w_data.next = self.hi_data.q.val();
                self.w_keep.next = self.k_full.val();
                self.w_evt.next = true;
                self.w_cq.next = self.hi_cq.q.val();
                self.hi_v.d.next = false;
            } else if self.s_core.valid.val() {
                self.w_v.next = true;
            } else if self.s_cqe.valid.val() {
                self.w_v.next = true;
                self.w_addr.next = self.s_cqe.addr.val();
                self.w_seq.next = self.seq_cqe.val();
                self.pc.next = self.k_eight.val();
                self.w_data.next = self.s_cqe.lo.val();
                self.w_keep.next = self.k_full.val();
            }
        }
        if self.take_cqe.val() {
            self.hi_v.d.next = true;
            self.hi_addr.d.next = (self.s_cqe.addr.val() + 8);
            self.hi_data.d.next = self.s_cqe.hi.val();
            self.hi_cq.d.next = self.s_cqe.cq.val();
            // Taken with a core word: its first word waits too.
            if self.s_core.valid.val() {
                self.lo_v.d.next = true;
                self.lo_addr.d.next = self.s_cqe.addr.val();
                self.lo_data.d.next = self.s_cqe.lo.val();
            }
        }
        // ---- Bursts: join the open one, or close it (and open anew).
        self.join_burst.next = (self.w_v.val()
            && self.held_v.q.val()
            && self.w_seq.val()
            && (self.held_keep.q.val() == self.k_full.val())
            && !(self.b_words.q.val() & self.k_burst_above.val()).any());
        self.close.next = (self.held_v.q.val() && !self.join_burst.val());
        self.data.push.next = (self.held_v.q.val() && (self.w_v.val() || self.close.val()));
        self.data.push_data.next = ((bit_cast::<82, 64>(self.held_data.q.val()) << 18)
            | (bit_cast::<82, 8>(self.held_keep.q.val()) << 10)
            | (bit_cast::<82, 1>(self.close.val().into()) << 9)
            | (bit_cast::<82, 1>(self.held_evt.q.val().into()) << 8)
            | bit_cast::<82, 8>(self.held_cq.q.val()));
        self.descs.push.next = self.close.val();
        self.descs.push_data.next = ((bit_cast::<80, 64>(self.b_addr.q.val()) << 16)
            | bit_cast::<80, 16>(self.b_len.q.val()));
        if self.w_v.val() {
            self.held_v.d.next = true;
            self.held_data.d.next = self.w_data.val();
            self.held_keep.d.next = self.w_keep.val();
            self.held_evt.d.next = self.w_evt.val();
            self.held_cq.d.next = self.w_cq.val();
            self.b_next.d.next = (self.w_addr.val() + 8);
            if self.join_burst.val() {
                self.b_len.d.next = (self.b_len.q.val() + self.pc.val());
                self.b_words.d.next = (self.b_words.q.val() + 1);
            } else {
                self.b_addr.d.next = self.w_addr.val();
                self.b_len.d.next = self.pc.val();
                self.b_words.d.next = 1.into();
            }
        } else if self.held_v.q.val() {
            self.held_v.d.next = false;
        }
        // ---- Out: data, its descriptors, and the entries' notices.
        self.m_axis_c2h.tvalid.next = self.data.head_valid.val();
        self.m_axis_c2h.tdata.next = self.data.head_data.val().get_bits::<64>(18);
        self.m_axis_c2h.tkeep.next = self.data.head_data.val().get_bits::<8>(10);
        self.m_axis_c2h.tlast.next = self.data.head_data.val().get_bit(9);
        self.m_axis_c2h.tuser.next = 0.into();
        self.pop.next = (self.data.head_valid.val() && self.m_axis_c2h.tready.val());
        self.data.pop.next = self.pop.val();
        self.done_v.d.next = (self.pop.val() && self.data.head_data.val().get_bit(8));
        self.done_cq.d.next = self.data.head_data.val().get_bits::<8>(0);
        self.m_done.valid.next = self.done_v.q.val();
        self.m_done.cq.next = self.done_cq.q.val();
        self.m_axis_write_desc.valid.next = self.descs.head_valid.val();
        self.m_axis_write_desc.addr.next = self.descs.head_data.val().get_bits::<64>(16);
        self.m_axis_write_desc.len.next = self.descs.head_data.val().get_bits::<16>(0);
        self.m_axis_write_desc.tag.next = 0.into();
        self.dpop.next = (self.descs.head_valid.val() && self.m_axis_write_desc.ready.val());
        self.descs.pop.next = self.dpop.val();
        if self.dpop.val() {
            self.n_descs.d.next = (self.n_descs.q.val() + 1);
        }
        if (self.w_v.val() && !self.pop.val()) {
            self.used.d.next = (self.used.q.val() + 1);
        } else if (!self.w_v.val() && self.pop.val()) {
            self.used.d.next = (self.used.q.val() - 1);
        }
        if (self.close.val() && !self.dpop.val()) {
            self.dcnt.d.next = (self.dcnt.q.val() + 1);
        } else if (!self.close.val() && self.dpop.val()) {
            self.dcnt.d.next = (self.dcnt.q.val() - 1);
        }
        self.wr_descs.next = self.n_descs.q.val();
    }
}
