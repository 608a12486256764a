//! Block RAM as host memory, and the DMA engine that serves the NIC's
//! descriptors from it: what a board without PCIe (the ECPIX-5,
//! `docs/board.md`) puts where a host's DMA IP would be.
//!
//! The memory is 2^M words of 8 bytes ([`RamBe`], a write enable per
//! byte lane): host addresses 0 .. 2^(M+3). The engine keeps the rules
//! of `docs/driver.md` §6 at any byte alignment:
//!
//! - **Reads** (`s_axis_read_desc` → `m_axis_h2c`): one descriptor at a
//!   time, in order; `len` bytes from `addr` as ceil(len / 8) beats, the
//!   byte at `addr + 8j + k` in lane k of beat j (a realigning shifter:
//!   each beat joins the tail of one memory word and the head of the
//!   next); `tkeep` all ones but on the last beat (the `len mod 8` low
//!   lanes), `tlast` on the last, `tuser` 0. A zero-length read has no
//!   beats.
//! - **Writes** (`s_axis_write_desc` + `s_axis_c2h`): one descriptor at a
//!   time, in order; its burst's beats are taken only once it is (as
//!   `axi_dma` does). Byte k of beat j goes to `addr + 8j + k` when
//!   `tkeep` bit k is set and `8j + k < len` (a shifter and a carry
//!   register: a beat at an unaligned address writes the tail of one
//!   word and, in the next beat's cycle, the head of the next; after the
//!   last beat a carry left over takes one more cycle). `tuser` is
//!   ignored.
//! - **The host's port** (`s_req` → `m_resp`, the register-access
//!   records behind an `AxilSlave`): a 32-bit read or write (`wstrb`) at
//!   byte address `addr` of the memory, answered the next cycle. It has
//!   priority: in a cycle with a host read the DMA issues no read, in a
//!   cycle with a host write `s_axis_c2h.tready` is low.
//!
//! Ports (clock `clock`): `reset` (synchronous, active high: both
//! engines idle, the beat on `m_axis_h2c` withdrawn, the answer due
//! dropped, every `ready` low while it is high; the memory and the
//! counters keep their contents);
//! `s_axis_read_desc`, `s_axis_write_desc` (`DmaDesc`, valid/ready;
//! `tag` is ignored); `m_axis_h2c`, `s_axis_c2h` (64-bit AXI4-Stream,
//! `tkeep`, 1-bit `tuser`); `s_req` (`RegReq`, `ready` high but in reset),
//! `m_resp` (`RegResp`, strobe); `m_stats` (`BramDmaStats`).
//!
//! Timing: a read descriptor taken in cycle t has its first beat on
//! `m_axis_h2c` in t + 3 (t + 4 unaligned), then one beat a cycle while
//! `tready` is high; `s_axis_read_desc.ready` rises the cycle after the
//! last beat is registered, so back-to-back reads of n beats take
//! n + 2 cycles each (n + 3 unaligned). Writes: a descriptor taken in
//! cycle t, its beats from t + 1 at one a cycle, the next descriptor
//! taken the cycle after its `tlast` (two cycles after when a carry is
//! left). A host access in cycle t is answered in t + 1.
//!
//! Bad input (counted in `m_stats`, never stalls, never touches memory
//! outside the descriptor):
//! - a read outside the memory (`addr + len > 2^(M+3)`, or `addr` at or
//!   above it): served as ceil(len / 8) beats of zeros with `tuser` set
//!   (the NIC's flagged-read path), `rd_range_err`;
//! - a write outside it: its burst is taken and nothing is written,
//!   `wr_range_err`;
//! - a burst whose beat count is not ceil(len / 8) (`tlast` early or
//!   late): the bytes before `len` are written, the rest dropped,
//!   `wr_len_err`;
//! - a host access at or above 2^(M+3): `DECERR`; not 4-byte aligned:
//!   `SLVERR`; neither touches memory.
//!
//! A read and a write of the same word in the same cycle (a host racing
//! the NIC on a buffer) read the old word in simulation; on the FPGA it
//! is undefined (`RamBe`).
//!
//! Golden twin: `nic_golden::hostif::bram_dma`.

use crate::hostif::{BramDmaStatsSource, DmaDescSink, RegReqSink, RegRespSource};
use crate::mem::RamBe;
use crate::stream::{AxisSink, AxisSource};
use nic_spec::hostif::resp;
use rust_hdl::prelude::*;
use smart_default::SmartDefault;

#[derive(LogicBlock, SmartDefault)]
pub struct BramDma<const M: usize> {
    // The parameter check, when the block is built.
    #[default({
        assert!((3..=20).contains(&M), "BramDma: M in 3..=20");
        Default::default()
    })]
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub s_axis_read_desc: DmaDescSink,
    pub m_axis_h2c: AxisSource<64, 8, 1>,
    pub s_axis_write_desc: DmaDescSink,
    pub s_axis_c2h: AxisSink<64, 8, 1>,
    pub s_req: RegReqSink,
    pub m_resp: RegRespSource,
    pub m_stats: BramDmaStatsSource,
    mem: RamBe<M>,
    // ---- Read engine.
    /// Beats of the current read still to send (0: idle).
    rd_beats: DFF<Bits<14>>,
    /// Words still to read from memory, and still to take into the
    /// aligner.
    rd_words: DFF<Bits<14>>,
    rd_take: DFF<Bits<14>>,
    /// The next word to read.
    rd_word: DFF<Bits<M>>,
    /// The read's byte offset in its first word.
    rd_off: DFF<Bits<3>>,
    /// The read is outside the memory: flagged beats, no memory reads.
    rd_err: DFF<Bit>,
    /// The first word of an unaligned read is still to be taken (it
    /// makes no beat of its own).
    rd_first: DFF<Bit>,
    rd_last_keep: DFF<Bits<8>>,
    /// The memory's output holds a word the engine read last cycle.
    rd_pend: DFF<Bit>,
    /// A word read that the aligner could not take yet.
    skid_v: DFF<Bit>,
    skid: DFF<Bits<64>>,
    /// The word before the one being taken.
    prev: DFF<Bits<64>>,
    out_v: DFF<Bit>,
    out_data: DFF<Bits<64>>,
    out_keep: DFF<Bits<8>>,
    out_last: DFF<Bit>,
    out_user: DFF<Bits<1>>,
    // ---- Host port.
    host_resp_v: DFF<Bit>,
    host_rd: DFF<Bit>,
    host_hi: DFF<Bit>,
    host_code: DFF<Bits<2>>,
    // ---- Write engine.
    wr_run: DFF<Bit>,
    wr_err: DFF<Bit>,
    wr_off: DFF<Bits<3>>,
    wr_word: DFF<Bits<M>>,
    /// Bytes of the descriptor not yet reached by the burst.
    wr_left: DFF<Bits<16>>,
    /// Beats the burst should still have.
    wr_beats: DFF<Bits<14>>,
    /// The burst has had more beats than its descriptor's.
    wr_long: DFF<Bit>,
    /// The head of the next word, from the last beat (lanes below
    /// `wr_off`), and its byte enables.
    carry: DFF<Bits<64>>,
    carry_en: DFF<Bits<8>>,
    /// The burst has ended and the carry is still to be written.
    flush: DFF<Bit>,
    // ---- Counters.
    n_rd_descs: DFF<Bits<32>>,
    n_wr_descs: DFF<Bits<32>>,
    n_rd_range: DFF<Bits<32>>,
    n_wr_range: DFF<Bits<32>>,
    n_wr_len: DFF<Bits<32>>,
    /// 2^(M+3), the memory's size in bytes.
    #[default(Constant::new(Bits::<64>::from(1u64 << (M + 3))))]
    k_size: Constant<Bits<64>>,
    #[default(Constant::new(Bits::<2>::from(resp::OKAY as u64)))]
    k_okay: Constant<Bits<2>>,
    #[default(Constant::new(Bits::<2>::from(resp::SLVERR as u64)))]
    k_slverr: Constant<Bits<2>>,
    #[default(Constant::new(Bits::<2>::from(resp::DECERR as u64)))]
    k_decerr: Constant<Bits<2>>,
    // ---- This cycle.
    host_ok: Signal<Local, Bit>,
    host_read: Signal<Local, Bit>,
    host_write: Signal<Local, Bit>,
    rd_desc_ok: Signal<Local, Bit>,
    wr_desc_ok: Signal<Local, Bit>,
    out_free: Signal<Local, Bit>,
    have: Signal<Local, Bit>,
    word: Signal<Local, Bits<64>>,
    take: Signal<Local, Bit>,
    beat: Signal<Local, Bit>,
    beat_src: Signal<Local, Bits<128>>,
    issue: Signal<Local, Bit>,
    c2h_beat: Signal<Local, Bit>,
    len_mask: Signal<Local, Bits<8>>,
    kept: Signal<Local, Bits<16>>,
    wide: Signal<Local, Bits<128>>,
    wide_en: Signal<Local, Bits<16>>,
}

impl<const M: usize> Logic for BramDma<M> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            rd_beats,
            rd_words,
            rd_take,
            rd_word,
            rd_off,
            rd_err,
            rd_first,
            rd_last_keep,
            rd_pend,
            skid_v,
            skid,
            prev,
            out_v,
            out_data,
            out_keep,
            out_last,
            out_user,
            host_resp_v,
            host_rd,
            host_hi,
            host_code,
            wr_run,
            wr_err,
            wr_off,
            wr_word,
            wr_left,
            wr_beats,
            wr_long,
            carry,
            carry_en,
            flush,
            n_rd_descs,
            n_wr_descs,
            n_rd_range,
            n_wr_range,
            n_wr_len
        );
        clock!(self, clock, mem);

        // ---- The host's port: checked, then given the memory's ports.
        self.s_req.ready.next = !self.reset.val();
        self.host_ok.next = (!self.reset.val()
            && (bit_cast::<64, 16>(self.s_req.addr.val()) < self.k_size.val())
            && (self.s_req.addr.val().get_bits::<2>(0) == 0));
        self.host_read.next =
            (self.s_req.valid.val() && !self.s_req.write.val() && self.host_ok.val());
        self.host_write.next =
            (self.s_req.valid.val() && self.s_req.write.val() && self.host_ok.val());
        self.host_resp_v.d.next = self.s_req.valid.val();
        self.host_rd.d.next = self.host_read.val();
        self.host_hi.d.next = self.s_req.addr.val().get_bit(2);
        self.host_code.d.next = self.k_okay.val();
        if (self.s_req.addr.val().get_bits::<2>(0) != 0) {
            self.host_code.d.next = self.k_slverr.val();
        }
        if (bit_cast::<64, 16>(self.s_req.addr.val()) >= self.k_size.val()) {
            self.host_code.d.next = self.k_decerr.val();
        }
        self.m_resp.valid.next = self.host_resp_v.q.val();
        self.m_resp.resp.next = self.host_code.q.val();
        self.m_resp.rdata.next = 0.into();
        if self.host_rd.q.val() {
            if self.host_hi.q.val() {
                self.m_resp.rdata.next = self.mem.read_data.val().get_bits::<32>(32);
            } else {
                self.m_resp.rdata.next = self.mem.read_data.val().get_bits::<32>(0);
            }
        }

        // ---- Read engine: the word the aligner may take this cycle
        // (the skid register's first: it is older).
        self.have.next = (self.skid_v.q.val() || self.rd_pend.q.val());
        self.word.next = self.mem.read_data.val();
        if self.skid_v.q.val() {
            self.word.next = self.skid.q.val();
        }
        self.out_free.next = (!self.out_v.q.val() || self.m_axis_h2c.tready.val());
        self.take.next = false;
        self.beat.next = false;
        // The beat's source: aligned, the word itself; unaligned,
        // {this word, the previous word} >> 8·offset.
        self.beat_src.next = bit_cast::<128, 64>(self.word.val());
        if (self.rd_off.q.val() != 0) {
            self.beat_src.next = (((bit_cast::<128, 64>(self.word.val()) << 64)
                | bit_cast::<128, 64>(self.prev.q.val()))
                >> (bit_cast::<7, 3>(self.rd_off.q.val()) << 3));
        }
        if (self.rd_beats.q.val() != 0) {
            if self.rd_err.q.val() {
                self.beat.next = self.out_free.val();
            } else if (self.rd_take.q.val() != 0) {
                if self.rd_first.q.val() {
                    self.take.next = self.have.val();
                } else {
                    self.take.next = (self.have.val() && self.out_free.val());
                    self.beat.next = (self.have.val() && self.out_free.val());
                }
            } else {
                // The last beat of an unaligned read: the tail of the
                // last word alone.
                self.beat.next = self.out_free.val();
                self.beat_src.next = (bit_cast::<128, 64>(self.prev.q.val())
                    >> (bit_cast::<7, 3>(self.rd_off.q.val()) << 3));
            }
        }
        if self.take.val() {
            self.prev.d.next = self.word.val();
            self.rd_take.d.next = (self.rd_take.q.val() - 1);
            self.rd_first.d.next = false;
        }
        if self.beat.val() {
            self.rd_beats.d.next = (self.rd_beats.q.val() - 1);
            self.out_v.d.next = true;
            self.out_data.d.next = self.beat_src.val().get_bits::<64>(0);
            if self.rd_err.q.val() {
                self.out_data.d.next = 0.into();
            }
            self.out_user.d.next = 0.into();
            if self.rd_err.q.val() {
                self.out_user.d.next = 1.into();
            }
            self.out_last.d.next = (self.rd_beats.q.val() == 1);
            self.out_keep.d.next = 0xFF.into();
            if (self.rd_beats.q.val() == 1) {
                self.out_keep.d.next = self.rd_last_keep.q.val();
            }
        } else if self.m_axis_h2c.tready.val() {
            self.out_v.d.next = false;
        }
        // The skid register holds a word read that was not taken; a read
        // is issued only when the word will find a place next cycle.
        if self.skid_v.q.val() {
            if self.take.val() {
                self.skid_v.d.next = false;
            }
        } else if (self.rd_pend.q.val() && !self.take.val()) {
            self.skid_v.d.next = true;
            self.skid.d.next = self.mem.read_data.val();
        }
        self.issue.next = ((self.rd_words.q.val() != 0)
            && !self.host_read.val()
            && !self.skid_v.q.val()
            && !(self.rd_pend.q.val() && !self.take.val()));
        self.rd_pend.d.next = self.issue.val();
        self.mem.read_address.next = self.rd_word.q.val();
        if self.host_read.val() {
            self.mem.read_address.next = self.s_req.addr.val().get_bits::<M>(3);
        }
        if self.issue.val() {
            self.rd_word.d.next = (self.rd_word.q.val() + 1);
            self.rd_words.d.next = (self.rd_words.q.val() - 1);
        }
        // A new read: taken when the last one's beats are all registered.
        self.s_axis_read_desc.ready.next = ((self.rd_beats.q.val() == 0) && !self.reset.val());
        self.rd_desc_ok.next = ((self.s_axis_read_desc.addr.val() < self.k_size.val())
            && ((self.s_axis_read_desc.addr.val()
                + bit_cast::<64, 16>(self.s_axis_read_desc.len.val()))
                <= self.k_size.val()));
        if (self.s_axis_read_desc.valid.val() && (self.rd_beats.q.val() == 0) && !self.reset.val())
        {
            self.n_rd_descs.d.next = (self.n_rd_descs.q.val() + 1);
            self.rd_beats.d.next = bit_cast::<14, 17>(
                ((bit_cast::<17, 16>(self.s_axis_read_desc.len.val()) + 7) >> 3),
            );
            self.rd_off.d.next = self.s_axis_read_desc.addr.val().get_bits::<3>(0);
            self.rd_word.d.next = self.s_axis_read_desc.addr.val().get_bits::<M>(3);
            self.rd_first.d.next = (self.s_axis_read_desc.addr.val().get_bits::<3>(0) != 0);
            self.rd_err.d.next = !self.rd_desc_ok.val();
            self.rd_last_keep.d.next = 0xFF.into();
            if (self.s_axis_read_desc.len.val().get_bits::<3>(0) != 0) {
                self.rd_last_keep.d.next = (bits::<8>(0xFF)
                    >> (bits::<4>(8)
                        - bit_cast::<4, 3>(self.s_axis_read_desc.len.val().get_bits::<3>(0))));
            }
            if (self.rd_desc_ok.val() && (self.s_axis_read_desc.len.val() != 0)) {
                self.rd_words.d.next = bit_cast::<14, 17>(
                    (((bit_cast::<17, 3>(self.s_axis_read_desc.addr.val().get_bits::<3>(0))
                        + bit_cast::<17, 16>(self.s_axis_read_desc.len.val()))
                        + 7)
                        >> 3),
                );
                self.rd_take.d.next = bit_cast::<14, 17>(
                    (((bit_cast::<17, 3>(self.s_axis_read_desc.addr.val().get_bits::<3>(0))
                        + bit_cast::<17, 16>(self.s_axis_read_desc.len.val()))
                        + 7)
                        >> 3),
                );
            } else {
                self.rd_words.d.next = 0.into();
                self.rd_take.d.next = 0.into();
            }
            if !self.rd_desc_ok.val() {
                self.n_rd_range.d.next = (self.n_rd_range.q.val() + 1);
            }
        }
        self.m_axis_h2c.tvalid.next = self.out_v.q.val();
        self.m_axis_h2c.tdata.next = self.out_data.q.val();
        self.m_axis_h2c.tkeep.next = self.out_keep.q.val();
        self.m_axis_h2c.tlast.next = self.out_last.q.val();
        self.m_axis_h2c.tuser.next = self.out_user.q.val();

        // ---- Write engine.
        self.s_axis_write_desc.ready.next = (!self.wr_run.q.val() && !self.reset.val());
        self.wr_desc_ok.next = ((self.s_axis_write_desc.addr.val() < self.k_size.val())
            && ((self.s_axis_write_desc.addr.val()
                + bit_cast::<64, 16>(self.s_axis_write_desc.len.val()))
                <= self.k_size.val()));
        self.s_axis_c2h.tready.next = (self.wr_run.q.val()
            && !self.flush.q.val()
            && !self.host_write.val()
            && !self.reset.val());
        self.c2h_beat.next = (self.s_axis_c2h.tvalid.val()
            && self.wr_run.q.val()
            && !self.flush.q.val()
            && !self.host_write.val()
            && !self.reset.val());
        // The lanes of this beat before `len`.
        self.len_mask.next = 0xFF.into();
        if (self.wr_left.q.val() < 8) {
            self.len_mask.next =
                (bits::<8>(0xFF) >> (bits::<4>(8) - self.wr_left.q.val().get_bits::<4>(0)));
        }
        self.kept.next = bit_cast::<16, 8>((self.s_axis_c2h.tkeep.val() & self.len_mask.val()));
        if self.wr_err.q.val() {
            self.kept.next = 0.into();
        }
        self.wide.next = (bit_cast::<128, 64>(self.s_axis_c2h.tdata.val())
            << (bit_cast::<7, 3>(self.wr_off.q.val()) << 3));
        self.wide_en.next = (self.kept.val() << self.wr_off.q.val());
        self.mem.write_address.next = self.wr_word.q.val();
        self.mem.write_data.next = self.carry.q.val();
        self.mem.write_enable.next = 0.into();
        if self.host_write.val() {
            self.mem.write_address.next = self.s_req.addr.val().get_bits::<M>(3);
            self.mem.write_data.next = ((bit_cast::<64, 32>(self.s_req.wdata.val()) << 32)
                | bit_cast::<64, 32>(self.s_req.wdata.val()));
            self.mem.write_enable.next = bit_cast::<8, 4>(self.s_req.wstrb.val());
            if self.s_req.addr.val().get_bit(2) {
                self.mem.write_enable.next = (bit_cast::<8, 4>(self.s_req.wstrb.val()) << 4);
            }
        } else if self.flush.q.val() {
            self.mem.write_enable.next = self.carry_en.q.val();
            self.flush.d.next = false;
            self.wr_run.d.next = false;
            self.carry_en.d.next = 0.into();
        } else if self.c2h_beat.val() {
            self.mem.write_data.next = (self.wide.val().get_bits::<64>(0) | self.carry.q.val());
            self.mem.write_enable.next =
                (self.wide_en.val().get_bits::<8>(0) | self.carry_en.q.val());
            self.wr_word.d.next = (self.wr_word.q.val() + 1);
            self.carry.d.next = self.wide.val().get_bits::<64>(64);
            self.carry_en.d.next = self.wide_en.val().get_bits::<8>(8);
            self.wr_left.d.next = 0.into();
            if (self.wr_left.q.val() >= 8) {
                self.wr_left.d.next = (self.wr_left.q.val() - 8);
            }
            if (self.wr_beats.q.val() != 0) {
                self.wr_beats.d.next = (self.wr_beats.q.val() - 1);
            } else {
                self.wr_long.d.next = true;
            }
            if self.s_axis_c2h.tlast.val() {
                if (self.wr_long.q.val() || (self.wr_beats.q.val() != 1)) {
                    self.n_wr_len.d.next = (self.n_wr_len.q.val() + 1);
                }
                if (self.wide_en.val().get_bits::<8>(8) != 0) {
                    self.flush.d.next = true;
                } else {
                    self.wr_run.d.next = false;
                }
            }
        }
        if (self.s_axis_write_desc.valid.val() && !self.wr_run.q.val() && !self.reset.val()) {
            self.n_wr_descs.d.next = (self.n_wr_descs.q.val() + 1);
            self.wr_run.d.next = true;
            self.wr_err.d.next = !self.wr_desc_ok.val();
            self.wr_off.d.next = self.s_axis_write_desc.addr.val().get_bits::<3>(0);
            self.wr_word.d.next = self.s_axis_write_desc.addr.val().get_bits::<M>(3);
            self.wr_left.d.next = self.s_axis_write_desc.len.val();
            self.wr_beats.d.next = bit_cast::<14, 17>(
                ((bit_cast::<17, 16>(self.s_axis_write_desc.len.val()) + 7) >> 3),
            );
            self.wr_long.d.next = false;
            self.carry.d.next = 0.into();
            self.carry_en.d.next = 0.into();
            if !self.wr_desc_ok.val() {
                self.n_wr_range.d.next = (self.n_wr_range.q.val() + 1);
            }
        }

        self.m_stats.rd_descs.next = self.n_rd_descs.q.val();
        self.m_stats.wr_descs.next = self.n_wr_descs.q.val();
        self.m_stats.rd_range_err.next = self.n_rd_range.q.val();
        self.m_stats.wr_range_err.next = self.n_wr_range.q.val();
        self.m_stats.wr_len_err.next = self.n_wr_len.q.val();

        if self.reset.val() {
            self.rd_beats.d.next = 0.into();
            self.rd_words.d.next = 0.into();
            self.rd_take.d.next = 0.into();
            self.rd_pend.d.next = false;
            self.skid_v.d.next = false;
            self.out_v.d.next = false;
            self.host_resp_v.d.next = false;
            self.wr_run.d.next = false;
            self.flush.d.next = false;
            self.carry_en.d.next = 0.into();
        }
    }
}
