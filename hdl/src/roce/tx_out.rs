//! The Tx's way out: the ICRC over the frame's words and the output
//! slice (`docs/roce.md` §4). A block of [`RoceTx`](super::tx::RoceTx),
//! its stages A and B after the word generator.
//!
//! - Stage A registers the generator's word, its masked copy for the
//!   ICRC (the bytes the ICRC covers, from byte 14 on), how many of its
//!   bytes the ICRC takes, and where the ICRC goes (`a_kind`).
//! - Stage B: the CRC register (from the pseudo-LRH's value on a frame's
//!   first word, then [`Crc32x64`] over stage A's masked copy) and the
//!   word. The ICRC (the complemented CRC register) is merged into stage
//!   B's word on the way out: lanes 2–5 of the last word (kind 1), or
//!   lanes 6–7 (kind 2) and lanes 0–1 of one more word (kind 3).
//! - The output slice ([`AxisSkid`]): `m_axis_tx` is its registers.
//!
//! # Ports (clock `clock`)
//! - `reset` (synchronous): empties both stages and clears the counters.
//!   A frame of which words were already taken by the output slice is
//!   closed: from the reset's first cycle stage B holds one closing word
//!   (`tdata` 0, `tkeep` 0x01, `tlast`, `tuser` = abort) until the slice
//!   takes it, so the MAC drops the frame instead of joining it to the
//!   next. The closing word is not counted.
//! - In, from the generator, taken in a cycle where `adv` is high:
//!   `produce` (a word this cycle), `word` (64 bits, lane k = byte k,
//!   pad lanes zero), `crcm` (its copy with the ICRC's masked bytes as
//!   0xFF), `word_j` (3 bits: the word's index in the frame, held at 6
//!   from word 6 on), `rcrc` (14 bits: the frame's bytes before the ICRC
//!   less 8 × the word's index, two's complement), `err` (the frame's
//!   payload so far came flagged).
//! - `adv` (out): both stages move this cycle: the slice has room (its
//!   `s_axis.tready`, a flop) or stage B is empty. A function of this
//!   block's flip-flops only.
//! - `m_axis_tx` ([`AxisSource`]`<64, 8, 1>`): the frame; `tuser` on the
//!   last word = abort (`err` on the frame, or the closing word).
//! - `frames`, `aborted` (32 bits, wrapping): frames whose last word the
//!   slice took, and those of them sent with `tuser`.
//!
//! # Timing
//! Two cycles from the generator's word to the slice's input, three to
//! `m_axis_tx`; a word every cycle. Stage B's CRC step is the block's
//! longest path (the 64-bit CRC's XOR tree, 8 bytes). No combinational
//! path from an input port to an output port (R1).
//!
//! # Bad input
//! None is possible from the parent: `rcrc` and `word_j` come from its
//! counters. Any value gives defined outputs: an `rcrc` that never
//! reaches 2, 6 or −2 gives a frame with no last word.
//!
//! Golden twin: `nic_golden::roce::tx_out`.

use crate::roce::crc32::Crc32x64;
use crate::stream::{AxisSkid, AxisSource};
use rust_hdl::prelude::*;
use smart_default::SmartDefault;

/// CRC register after the pseudo-LRH (8 bytes of 0xFF) from 0xFFFFFFFF.
pub fn crc_after_lrh() -> u32 {
    crate::roce::crc32::step(0xFFFF_FFFF, u64::MAX, 8)
}

#[derive(LogicBlock, SmartDefault)]
pub struct TxOut {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub produce: Signal<In, Bit>,
    pub word: Signal<In, Bits<64>>,
    pub crcm: Signal<In, Bits<64>>,
    pub word_j: Signal<In, Bits<3>>,
    pub rcrc: Signal<In, Bits<14>>,
    pub err: Signal<In, Bit>,
    pub adv: Signal<Out, Bit>,
    pub m_axis_tx: AxisSource<64, 8, 1>,
    pub frames: Signal<Out, Bits<32>>,
    pub aborted: Signal<Out, Bits<32>>,
    /// The output register slice: stage B's enable reads its
    /// `s_axis.tready` (a flop), never `m_axis_tx.tready`.
    o_slice: AxisSkid<64, 8, 1>,
    crc32: Crc32x64,
    // Stage A.
    a_v: DFF<Bit>,
    a_data: DFF<Bits<64>>,
    a_crcd: DFF<Bits<64>>,
    a_crcn: DFF<Bits<4>>,
    a_first: DFF<Bit>,
    /// Where the ICRC goes: 0 not in this word, 1 lanes 2–5 (last), 2
    /// lanes 6–7, 3 lanes 0–1 (last).
    a_kind: DFF<Bits<2>>,
    a_err: DFF<Bit>,
    // Stage B.
    b_v: DFF<Bit>,
    b_data: DFF<Bits<64>>,
    b_kind: DFF<Bits<2>>,
    b_err: DFF<Bit>,
    /// The word in stage B is the closing word of a frame cut by a reset.
    b_close: DFF<Bit>,
    crc: DFF<Bits<32>>,
    /// A frame is open on the slice: a word of it taken, its last not.
    out_open: DFF<Bit>,
    c_frames: DFF<Bits<32>>,
    c_aborted: DFF<Bits<32>>,
    #[default(Constant::new(Bits::<32>::from(crc_after_lrh() as u64)))]
    k_crc0: Constant<Bits<32>>,
    // Locals.
    /// `out_open` after this cycle's handshake.
    open_next: Signal<Local, Bit>,
    /// `rcrc` < 0: the ICRC has begun before this word.
    cneg: Signal<Local, Bit>,
    icrc: Signal<Local, Bits<32>>,
    /// Stage B's word ends a frame (kind 1 or 3).
    b_last: Signal<Local, Bit>,
}

impl Logic for TxOut {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, a_v, a_data, a_crcd, a_crcn, a_first, a_kind, a_err, b_v, b_data, b_kind,
            b_err, b_close, crc, out_open, c_frames, c_aborted
        );
        clock!(self, clock, o_slice);
        AxisSource::<64, 8, 1>::link(&mut self.m_axis_tx, &mut self.o_slice.m_axis);
        self.adv.next = (self.o_slice.s_axis.tready.val() || !self.b_v.q.val());
        self.cneg.next = self.rcrc.val().get_bit(13);

        // ---- Stage A: the word, its masked copy for the ICRC ---------------
        if self.adv.val() {
            self.a_v.d.next = (self.produce.val() && !self.reset.val());
            self.a_data.d.next = self.word.val();
            if (self.word_j.val() == 1) {
                self.a_crcd.d.next = (self.crcm.val() >> 48);
            } else {
                self.a_crcd.d.next = self.crcm.val();
            }
            if (self.word_j.val() == 0) {
                self.a_crcn.d.next = 0.into();
            } else if (self.word_j.val() == 1) {
                self.a_crcn.d.next = 2.into();
            } else if self.cneg.val() {
                self.a_crcn.d.next = 0.into();
            } else if self.rcrc.val().get_bits::<10>(3).any() {
                self.a_crcn.d.next = 8.into();
            } else {
                self.a_crcn.d.next = self.rcrc.val().get_bits::<4>(0);
            }
            self.a_first.d.next = (self.word_j.val() == 0);
            self.a_err.d.next = self.err.val();
            if (self.rcrc.val() == 2) {
                self.a_kind.d.next = 1.into();
            } else if (self.rcrc.val() == 6) {
                self.a_kind.d.next = 2.into();
            } else if (self.rcrc.val() == 0x3FFE) {
                self.a_kind.d.next = 3.into();
            } else {
                self.a_kind.d.next = 0.into();
            }
        } else if self.reset.val() {
            self.a_v.d.next = false;
        }

        // ---- Stage B: CRC register and the output word ---------------------
        self.crc32.crc_in.next = self.crc.q.val();
        self.crc32.data.next = self.a_crcd.q.val();
        self.crc32.nbytes.next = self.a_crcn.q.val();
        if self.adv.val() {
            self.b_v.d.next = (self.a_v.q.val() && !self.reset.val());
            self.b_data.d.next = self.a_data.q.val();
            self.b_kind.d.next = self.a_kind.q.val();
            self.b_err.d.next = self.a_err.q.val();
            self.b_close.d.next = false;
            if self.a_v.q.val() {
                if self.a_first.q.val() {
                    self.crc.d.next = self.k_crc0.val();
                } else {
                    self.crc.d.next = self.crc32.crc_out.val();
                }
            }
        } else if self.reset.val() {
            self.b_v.d.next = false;
        }
        self.b_last.next = ((self.b_kind.q.val() == 1) || (self.b_kind.q.val() == 3));
        // A reset with a frame open: stage B holds its closing word.
        self.open_next.next = self.out_open.q.val();
        if (self.b_v.q.val() && self.o_slice.s_axis.tready.val()) {
            self.open_next.next = !(self.b_close.q.val() || self.b_last.val());
        }
        self.out_open.d.next = self.open_next.val();
        if self.reset.val() {
            self.b_v.d.next = self.open_next.val();
            self.b_close.d.next = self.open_next.val();
            self.b_kind.d.next = 0.into();
            self.b_data.d.next = 0.into();
            self.b_err.d.next = false;
        }

        // ---- The word with the ICRC merged, into the output slice -----------
        self.icrc.next = !self.crc.q.val();
        self.o_slice.s_axis.tvalid.next = self.b_v.q.val();
        if !self.b_v.q.val() {
            self.o_slice.s_axis.tdata.next = 0.into();
            self.o_slice.s_axis.tkeep.next = 0.into();
            self.o_slice.s_axis.tlast.next = false;
        } else if self.b_close.q.val() {
            self.o_slice.s_axis.tdata.next = 0.into();
            self.o_slice.s_axis.tkeep.next = 0x01.into();
            self.o_slice.s_axis.tlast.next = true;
        } else if (self.b_kind.q.val() == 1) {
            self.o_slice.s_axis.tdata.next =
                (self.b_data.q.val() | (bit_cast::<64, 32>(self.icrc.val()) << 16));
            self.o_slice.s_axis.tkeep.next = 0x3F.into();
            self.o_slice.s_axis.tlast.next = true;
        } else if (self.b_kind.q.val() == 2) {
            self.o_slice.s_axis.tdata.next = (self.b_data.q.val()
                | (bit_cast::<64, 16>(self.icrc.val().get_bits::<16>(0)) << 48));
            self.o_slice.s_axis.tkeep.next = 0xFF.into();
            self.o_slice.s_axis.tlast.next = false;
        } else if (self.b_kind.q.val() == 3) {
            self.o_slice.s_axis.tdata.next =
                (self.b_data.q.val() | bit_cast::<64, 16>(self.icrc.val().get_bits::<16>(16)));
            self.o_slice.s_axis.tkeep.next = 0x03.into();
            self.o_slice.s_axis.tlast.next = true;
        } else {
            self.o_slice.s_axis.tdata.next = self.b_data.q.val();
            self.o_slice.s_axis.tkeep.next = 0xFF.into();
            self.o_slice.s_axis.tlast.next = false;
        }
        // Abort on the last word of a frame whose payload came flagged.
        self.o_slice.s_axis.tuser.next =
            ((self.b_v.q.val() && self.b_last.val() && self.b_err.q.val())
                || (self.b_v.q.val() && self.b_close.q.val()))
            .into();

        // ---- Counters -------------------------------------------------------
        if self.reset.val() {
            self.c_frames.d.next = 0.into();
            self.c_aborted.d.next = 0.into();
        } else if (self.b_v.q.val() && self.o_slice.s_axis.tready.val() && self.b_last.val()) {
            self.c_frames.d.next = (self.c_frames.q.val() + 1);
            if self.b_err.q.val() {
                self.c_aborted.d.next = (self.c_aborted.q.val() + 1);
            }
        }
        self.frames.next = self.c_frames.q.val();
        self.aborted.next = self.c_aborted.q.val();
    }
}
