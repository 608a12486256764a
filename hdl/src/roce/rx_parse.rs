//! RoCEv2 Rx, part 1: the store-and-forward parser/checker
//! (`docs/roce.md` §1–§4, §7).
//!
//! # What it does
//! Takes the MAC's 64-bit frame stream (no back-pressure: one word per
//! cycle forever, frames back to back), stores every frame's words in a
//! block-RAM ring buffer while checking the frame in stream, and at the end
//! of the frame either commits it (a metadata record into a 64-entry
//! metadata FIFO, `nic_spec::roce::RX_META_LOG2`, whose storage is the
//! block [`RxMetaRam`], `rx_meta_ram.rs`, with its twin and test; the
//! words stay in the buffer) or rolls the buffer's write
//! pointer back and counts the first failing reason. Committed frames come
//! out in order as a metadata record (`meta_*`) followed by the payload
//! words (`pay_*`), realigned so that payload byte 0 is in lane 0; pad and
//! ICRC are not output.
//!
//! # Ports (clock `clock`)
//! - `reset` (synchronous): clears the pointers, the pipeline, the FIFO and
//!   the counters (RAM contents are kept, and never read before rewritten).
//! - in: `s_axis_rx` ([`AxisSink`]`<64, 8, 1>`: `tdata`, `tkeep`, `tlast`,
//!   `tvalid`, `tuser` = 1: bad FCS, sampled with `tlast`); `tready` is
//!   always 1: the parser never back-pressures the MAC.
//! - `m_meta.valid`, `m_meta.ready` (in), `m_meta.opcode: 8`, `m_meta.qp: 24`,
//!   `m_meta.psn: 24`, `m_meta.ackreq`, `m_meta.len: 13` (payload bytes, pad
//!   removed), `m_meta.va: 64`, `m_meta.rkey: 32`, `m_meta.dlen: 32` (RETH,
//!   else 0), `m_meta.aeth: 32` (else 0), `m_meta.tlm.present` (the T bit),
//!   `m_meta.tlm.hdr: 64`, `m_meta.tlm.hop0..4: 64` (the TLM area's words
//!   big-endian as on the wire, else 0), `m_meta.ce` (the IPv4 ECN field
//!   is CE). All fields are 0 while `m_meta.valid` is low.
//! - `m_axis_pay` ([`AxisSource`]`<64, 8, 1>`; `tuser` always 0, only
//!   checked frames are released): the payload of the packet whose record was taken
//!   last, ceil(len/8) words, none when `m_meta.len` is 0; lanes beyond
//!   `pay_tkeep` are 0; all 0 while not valid. The next record is offered
//!   only after the last payload word was taken.
//! - `buf_fill: 16`: the words the buffer holds (committed frames and
//!   the one being written), `meta_fill: 8`: the records waiting; both as
//!   of the previous cycle (registers), for the link pause
//!   ([`RxPause`](crate::nic::rx_pause::RxPause)).
//! - counters (32 bits, wrapping): `m_stats.ok`, `m_stats.bad_fcs`, `m_stats.trunc`,
//!   `m_stats.bad_eth`, `m_stats.bad_ip`, `m_stats.bad_port`, `m_stats.bad_opcode`,
//!   `m_stats.bad_len`, `m_stats.bad_tlm`, `m_stats.bad_icrc`, `m_stats.drop_full`,
//!   and `m_stats.ce_dropped`: dropped frames (any reason) of at least 16
//!   bytes with EtherType 0x0800 and ECN = CE (3), a CE mark that reaches
//!   no flow.
//!
//! # Checks (first failing reason is counted, in this order)
//! With `flen` the frame's byte count (8 per word, the last word's count is
//! its highest set `tkeep` lane + 1; `tkeep` of other words is ignored) and
//! `iptot` the IPv4 total length:
//! 1. `bad_fcs`: `in_tuser` with the last word.
//! 2. `trunc`: `flen < 54` (Ethernet + IPv4 + UDP + BTH) or
//!    `flen < 14 + iptot`. Bytes after `14 + iptot` (Ethernet padding) are
//!    ignored.
//! 3. `bad_eth`: EtherType ≠ 0x0800.
//! 4. `bad_ip`: ver/IHL ≠ 0x45, MF or fragment offset ≠ 0, protocol ≠ 17,
//!    header checksum wrong.
//! 5. `bad_port`: UDP destination port ≠ 4791.
//! 6. `bad_opcode`: opcode not in §1's table, or TVer ≠ 0.
//! 7. `bad_len`: UDP length ≠ `iptot − 20` (mod 2^16); `iptot` not a
//!    multiple of 4; `iptot < 44 + E` (E = RETH 16, AETH 4, TLM 48 bytes
//!    present by opcode and T); payload + pad < PadCnt; an opcode without
//!    payload carrying payload or pad; payload > 4096.
//! 8. `bad_tlm` (T = 1): TLM `ver` ≠ 1, `nhop` > 5, `maxhop` ≠ 5; also
//!    PROBE/NOTIFY (0xC0/0xC1) without T.
//! 9. `bad_icrc`: §3 (checked as the CRC residue over the IP packet
//!    including the ICRC).
//! 10. `drop_full`: the buffer had no room for a word of the frame, or the
//!    metadata FIFO was full at the decision.
//!
//! # Structure
//! - In stream: header words 1..14 captured into registers; IPv4 checksum
//!   (3-stage adder pipeline); ICRC: a prep register (masked data, byte
//!   count), then the CRC split by linearity: the data part
//!   (`step(0, d, n)`, one [`Crc32x64`]) into a register, and the loop
//!   register advanced over n zero bytes (a second one) XOR that part.
//! - Verdict: a block of its own, [`RxVerdict`] (`rx_verdict.rs`, with
//!   its twin and test): flags from the header registers in T + 1, the
//!   priority of the header checks in T + 2, the ICRC in T + 3.
//! - The buffer write is delayed 4 cycles, so the verdict of a frame whose
//!   last word arrived in cycle T is ready (T + 4) when that word is
//!   written: the write pointer is committed or rolled back before the
//!   next frame's first word is written. A word that finds the buffer full
//!   is not written, and the frame is dropped (`drop_full`). "Full" is
//!   judged from the previous cycle's pointers (a register, off the
//!   critical path), so the buffer holds at most 2^B − 1 words; the record
//!   FIFO's "full" likewise.
//! - Buffer: 2^B 64-bit words (B is a const generic; the NIC uses 11 =
//!   2048 words, two maximum frames and more). Metadata: 64 entries.
//!   Space is freed as words leave, not at the frame's end: a frame's
//!   header words when its record is taken, then each payload word once
//!   the next one is read (the read pointer follows the output), and the
//!   rest (pad, ICRC) with the last payload word.
//! - Output: the metadata RAMs (`RxMetaRam`) and the buffer are read with the next
//!   pointer as address, so their outputs show the current entry / word.
//!
//! # Timing
//! - Input: one word per cycle, always accepted.
//! - Latency: last input word in cycle T → verdict in T + 4 (buffer
//!   pointer committed or rolled back), record written and counter
//!   incremented in T + 5 (visible T + 6), `m_meta.valid` in cycle T + 7
//!   (output idle); the first payload word 2 cycles after the record is
//!   taken; then one word per cycle.
//! - Throughput: a record with no payload per cycle; a packet of n payload
//!   words per n + 2 cycles, more than line rate for every frame size.
//!
//! Golden twin: `nic_golden::roce::rx_parse`.

use crate::mem::Ram;
pub use crate::roce::bswap::Bswap64;
use crate::roce::crc32::{step, Crc32x64};
use crate::roce::op_decode::OpDecode;
use crate::roce::rx_meta_ram::RxMetaRam;
use crate::roce::rx_verdict::RxVerdict;
use crate::roce::{RxMetaSource, RxParseStatsSource};
use crate::stream::{AxisSink, AxisSource};
use rust_hdl::prelude::*;
use smart_default::SmartDefault;

/// log2 of the metadata FIFO's entries.
pub const META_A: usize = nic_spec::roce::RX_META_LOG2 as usize;

fn k<const N: usize>(v: u64) -> Constant<Bits<N>> {
    Constant::new(Bits::<N>::from(v))
}

#[derive(LogicBlock, SmartDefault)]
pub struct RoceRxParse<const B: usize> {
    // The parameter check, when the block is built.
    #[default({
        assert!((4..=15).contains(&B), "RoceRxParse: 4 <= B <= 15");
        Default::default()
    })]
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub s_axis_rx: AxisSink<64, 8, 1>,
    pub m_meta: RxMetaSource,
    pub m_axis_pay: AxisSource<64, 8, 1>,
    pub m_stats: RxParseStatsSource,
    pub buf_fill: Signal<Out, Bits<16>>,
    pub meta_fill: Signal<Out, Bits<8>>,
    // Sub-blocks.
    crc: Crc32x64,
    crc_dp: Crc32x64,
    dec_in: OpDecode,
    /// The frame's verdict and payload geometry, T+1 to T+4.
    verdict: RxVerdict,
    bs5: Bswap64,
    bs6: Bswap64,
    bs7: Bswap64,
    bst: [Bswap64; 6],
    bram: Ram<Bits<64>, B>,
    /// The metadata queue (one entry per frame held).
    meta: RxMetaRam<META_A>,
    // Input side.
    wcnt: DFF<Bits<16>>,
    hw: [DFF<Bits<64>>; 15],
    e_flen: DFF<Bits<20>>,
    e_fcs: DFF<Bit>,
    ck01: DFF<Bits<17>>,
    ck23: DFF<Bits<17>>,
    ck_first: DFF<Bit>,
    ck_v: DFF<Bit>,
    cks: DFF<Bits<18>>,
    cks_first: DFF<Bit>,
    cks_v: DFF<Bit>,
    ipacc: DFF<Bits<20>>,
    c_d: DFF<Bits<64>>,
    c_n: DFF<Bits<4>>,
    c_first: DFF<Bit>,
    crem: DFF<Bits<16>>,
    crc_q: DFF<Bits<32>>,
    tl_on: DFF<Bit>,
    tl_lo: DFF<Bits<8>>,
    tl_hi: DFF<Bits<8>>,
    /// ECN = CE (from the verdict), carried to the decision.
    q_ce: DFF<Bit>,
    ce_dropped: DFF<Bits<32>>,
    // Buffer write, 3 cycles behind the input.
    dl_v: [DFF<Bit>; 4],
    dl_l: [DFF<Bit>; 4],
    dl_d: [DFF<Bits<64>>; 4],
    wp: DFF<Bits<16>>,
    fstart: DFF<Bits<16>>,
    rp: DFF<Bits<16>>,
    ovf: DFF<Bit>,
    room_q: DFF<Bit>,
    mfull_q: DFF<Bit>,
    fill_q: DFF<Bits<16>>,
    mfill_q: DFF<Bits<8>>,
    commit_q: DFF<Bit>,
    dec_q: DFF<Bit>,
    rsn_q: DFF<Bits<4>>,
    q_len: DFF<Bits<13>>,
    q_ps: DFF<Bits<16>>,
    q_end: DFF<Bits<16>>,
    q_sh: DFF<Bit>,
    q_nz: DFF<Bit>,
    /// `rd` + 1 (from its initial 1 on), so the next one is chosen
    /// among sums made beside the choice, not after it (R4).
    #[default(DFFWithInit::new(1.into()))]
    rd1: DFFWithInit<Bits<16>>,
    /// `mr` + 1 (from its initial 1 on), likewise.
    #[default(DFFWithInit::new(1.into()))]
    mr1: DFFWithInit<Bits<8>>,
    dpart: DFF<Bits<32>>,
    n2: DFF<Bits<4>>,
    f2: DFF<Bit>,
    q_r: DFF<Bit>,
    q_a: DFF<Bit>,
    q_t: DFF<Bit>,
    // Metadata FIFO and output.
    mw: DFF<Bits<8>>,
    mr: DFF<Bits<8>>,
    mv: DFF<Bit>,
    busy: DFF<Bit>,
    primed: DFF<Bit>,
    rd: DFF<Bits<16>>,
    hold: DFF<Bits<64>>,
    pcnt: DFF<Bits<10>>,
    psh: DFF<Bit>,
    pkeep: DFF<Bits<8>>,
    pmask: DFF<Bits<64>>,
    pend: DFF<Bits<16>>,
    cnt: [DFF<Bits<32>>; 11],
    // Constants.
    #[default(k((1u64 << B) - 1))]
    k_cap1: Constant<Bits<16>>,
    #[default(k(1u64 << META_A))]
    k_mcap: Constant<Bits<8>>,
    #[default(std::array::from_fn(|i| k(i as u64)))]
    k_w: [Constant<Bits<16>>; 16],
    #[default(std::array::from_fn(|i| k(i as u64)))]
    k_rsn: [Constant<Bits<4>>; 11],
    #[default(std::array::from_fn(|i| k(0xFFu64 << (8 * i))))]
    k_lane: [Constant<Bits<64>>; 8],
    #[default(std::array::from_fn(|i| k(i as u64)))]
    k_pos: [Constant<Bits<8>>; 8],
    #[default(std::array::from_fn(|i| Constant::new(i < 2)))]
    k_f01: [Constant<Bit>; 8],
    #[default(std::array::from_fn(|i| Constant::new(i == 6)))]
    k_f6: [Constant<Bit>; 8],
    #[default(std::array::from_fn(|i| k(if i == 0 { 0xFF } else { (1u64 << i) - 1 })))]
    k_keep: [Constant<Bits<8>>; 8],
    #[default(std::array::from_fn(|i| {
        k(if i == 0 { u64::MAX } else { (1u64 << (8 * i)) - 1 })
    }))]
    k_mask: [Constant<Bits<64>>; 8],
    #[default(std::array::from_fn(|i| k(i as u64)))]
    k_l3: [Constant<Bits<3>>; 8],
    #[default(k(0xFF00))]
    k_tos: Constant<Bits<64>>,
    #[default(k((step(0xFFFF_FFFF, u64::MAX, 8)) as u64))]
    k_init: Constant<Bits<32>>,
    #[default(k(2))]
    k_n2: Constant<Bits<4>>,
    #[default(k(8))]
    k_n8: Constant<Bits<4>>,
    #[default(k(8))]
    k_r8: Constant<Bits<16>>,
    #[default(k(10))]
    k_r10: Constant<Bits<16>>,
    #[default(k(70))]
    k_lo_r: Constant<Bits<8>>,
    #[default(k(118))]
    k_hi_r: Constant<Bits<8>>,
    #[default(k(58))]
    k_lo_a: Constant<Bits<8>>,
    #[default(k(106))]
    k_hi_a: Constant<Bits<8>>,
    #[default(k(54))]
    k_lo_n: Constant<Bits<8>>,
    #[default(k(102))]
    k_hi_n: Constant<Bits<8>>,
    #[default(k(1))]
    k_1: Constant<Bits<4>>,
    #[default(k(7))]
    k_7: Constant<Bits<13>>,
    #[default(k(0xFF))]
    k_ff: Constant<Bits<8>>,
    // Locals.
    acc: Signal<Local, Bit>,
    wc: [Signal<Local, Bit>; 16],
    nb: Signal<Local, Bits<4>>,
    q: [Signal<Local, Bits<17>>; 4],
    iptot_live: Signal<Local, Bits<16>>,
    wsmall: Signal<Local, Bit>,
    base: Signal<Local, Bits<8>>,
    pos: [Signal<Local, Bits<8>>; 8],
    lmw: [Signal<Local, Bits<64>>; 8],
    m64: Signal<Local, Bits<64>>,
    room: Signal<Local, Bit>,
    wen: Signal<Local, Bit>,
    dec: Signal<Local, Bit>,
    mfull: Signal<Local, Bit>,
    rsn: Signal<Local, Bits<4>>,
    commit: Signal<Local, Bit>,
    wp1: Signal<Local, Bits<16>>,
    rr: [Signal<Local, Bits<64>>; 14],
    mval: Signal<Local, Bit>,
    mhs: Signal<Local, Bit>,
    mrn: Signal<Local, Bits<8>>,
    m_len: Signal<Local, Bits<13>>,
    pval: Signal<Local, Bit>,
    phs: Signal<Local, Bit>,
    plast: Signal<Local, Bit>,
    adv: Signal<Local, Bit>,
    word: Signal<Local, Bits<64>>,
    rdn: Signal<Local, Bits<16>>,
    /// `rd1` + 1 and the payload start + 1: the candidates of `rd1`'s next.
    rd2: Signal<Local, Bits<16>>,
    ps1: Signal<Local, Bits<16>>,
    /// `mr1` + 1: `mr1`'s next after a record is taken.
    mr2: Signal<Local, Bits<8>>,
}

impl<const B: usize> Logic for RoceRxParse<B> {
    #[hdl_gen]
    fn update(&mut self) {
        // Only checked frames are released: no drop flag on the payload.
        self.m_axis_pay.tuser.next = 0.into();
        // Never back-pressures the MAC (store and forward; a frame that does
        // not fit is dropped and counted as `drop_full`).
        self.s_axis_rx.tready.next = true;
        dff_setup!(
            self, clock, wcnt, e_flen, e_fcs, ck01, ck23, ck_first, ck_v, cks, cks_first, cks_v,
            ipacc, c_d, c_n, c_first, crem, crc_q, tl_on, tl_lo, tl_hi, wp, fstart, rp, ovf, mw,
            mr, mv, busy, primed, rd, hold, pcnt, psh, pkeep, pmask, pend, room_q, mfull_q, fill_q,
            mfill_q, commit_q, dec_q, rsn_q, q_len, q_ps, q_end, q_sh, q_ce, ce_dropped, q_r, q_a,
            q_t, q_nz, rd1, mr1, dpart, n2, f2
        );
        clock!(self, clock, verdict);
        for i in 0..15 {
            self.hw[i].clock.next = self.clock.val();
        }
        for i in 0..4 {
            self.dl_v[i].clock.next = self.clock.val();
            self.dl_l[i].clock.next = self.clock.val();
            self.dl_d[i].clock.next = self.clock.val();
        }
        for i in 0..11 {
            self.cnt[i].clock.next = self.clock.val();
        }
        self.bram.clock.next = self.clock.val();
        self.meta.clock.next = self.clock.val();

        // ---------------- Input side ----------------
        self.acc.next = self.s_axis_rx.tvalid.val();
        for i in 0..16 {
            self.wc[i].next = (self.wcnt.q.val() == self.k_w[i].val());
        }
        if self.acc.val() {
            if self.s_axis_rx.tlast.val() {
                self.wcnt.d.next = 0.into();
            } else if self.wcnt.q.val().all() {
                self.wcnt.d.next = self.wcnt.q.val();
            } else {
                self.wcnt.d.next = (self.wcnt.q.val() + 1);
            }
        }
        for i in 0..15 {
            if (self.acc.val() && self.wc[i].val()) {
                self.hw[i].d.next = self.s_axis_rx.tdata.val();
            } else {
                self.hw[i].d.next = self.hw[i].q.val();
            }
        }
        // Bytes in the last word: highest kept lane + 1.
        if self.s_axis_rx.tkeep.val().get_bit(7) {
            self.nb.next = 8.into();
        } else if self.s_axis_rx.tkeep.val().get_bit(6) {
            self.nb.next = 7.into();
        } else if self.s_axis_rx.tkeep.val().get_bit(5) {
            self.nb.next = 6.into();
        } else if self.s_axis_rx.tkeep.val().get_bit(4) {
            self.nb.next = 5.into();
        } else if self.s_axis_rx.tkeep.val().get_bit(3) {
            self.nb.next = 4.into();
        } else if self.s_axis_rx.tkeep.val().get_bit(2) {
            self.nb.next = 3.into();
        } else if self.s_axis_rx.tkeep.val().get_bit(1) {
            self.nb.next = 2.into();
        } else if self.s_axis_rx.tkeep.val().get_bit(0) {
            self.nb.next = 1.into();
        } else {
            self.nb.next = 0.into();
        }
        if (self.acc.val() && self.s_axis_rx.tlast.val()) {
            self.e_flen.d.next =
                ((bit_cast::<20, 16>(self.wcnt.q.val()) << 3) + bit_cast::<20, 4>(self.nb.val()));
            // `.any()`, not `.get_bit(0)`: rust-hdl declares a 1-bit `Bits` as a
            // Verilog scalar, where `[0]` is illegal.
            self.e_fcs.d.next = self.s_axis_rx.tuser.val().any();
        }

        // IPv4 header checksum: 16-bit lane pairs of bytes 14..33 (words 1..4),
        // summed little-endian (the ones' complement sum is byte-order free).
        if (self.wc[2].val() || self.wc[3].val() || self.wc[4].val()) {
            self.q[0].next = bit_cast::<17, 16>(self.s_axis_rx.tdata.val().get_bits::<16>(0));
        } else {
            self.q[0].next = 0.into();
        }
        if (self.wc[2].val() || self.wc[3].val()) {
            self.q[1].next = bit_cast::<17, 16>(self.s_axis_rx.tdata.val().get_bits::<16>(16));
            self.q[2].next = bit_cast::<17, 16>(self.s_axis_rx.tdata.val().get_bits::<16>(32));
        } else {
            self.q[1].next = 0.into();
            self.q[2].next = 0.into();
        }
        if (self.wc[1].val() || self.wc[2].val() || self.wc[3].val()) {
            self.q[3].next = bit_cast::<17, 16>(self.s_axis_rx.tdata.val().get_bits::<16>(48));
        } else {
            self.q[3].next = 0.into();
        }
        self.ck01.d.next = (self.q[0].val() + self.q[1].val());
        self.ck23.d.next = (self.q[2].val() + self.q[3].val());
        self.ck_first.d.next = (self.acc.val() && self.wc[1].val());
        self.ck_v.d.next = (self.acc.val()
            && (self.wc[1].val() || self.wc[2].val() || self.wc[3].val() || self.wc[4].val()));
        self.cks.d.next =
            (bit_cast::<18, 17>(self.ck01.q.val()) + bit_cast::<18, 17>(self.ck23.q.val()));
        self.cks_first.d.next = self.ck_first.q.val();
        self.cks_v.d.next = self.ck_v.q.val();
        if self.cks_v.q.val() {
            if self.cks_first.q.val() {
                self.ipacc.d.next = bit_cast::<20, 18>(self.cks.q.val());
            } else {
                self.ipacc.d.next = (self.ipacc.q.val() + bit_cast::<20, 18>(self.cks.q.val()));
            }
        }

        // ICRC prep: masked bytes of the IP packet (bytes 14 .. 14 + iptot),
        // the ICRC included (checked as the CRC residue).
        self.iptot_live.next = ((bit_cast::<16, 8>(self.s_axis_rx.tdata.val().get_bits::<8>(0))
            << 8)
            | bit_cast::<16, 8>(self.s_axis_rx.tdata.val().get_bits::<8>(8)));
        self.wsmall.next = ((self.wcnt.q.val() < self.k_w[15].val()) || self.wc[15].val());
        self.base.next = (bit_cast::<8, 4>(self.wcnt.q.val().get_bits::<4>(0)) << 3);
        for j in 0..8 {
            self.pos[j].next = (self.base.val() + self.k_pos[j].val());
            if ((self.tl_on.q.val()
                && self.wsmall.val()
                && (self.pos[j].val() >= self.tl_lo.q.val())
                && (self.pos[j].val() < self.tl_hi.q.val()))
                || ((self.wc[3].val() || self.wc[5].val()) && self.k_f01[j].val())
                || ((self.wc[2].val() || self.wc[5].val()) && self.k_f6[j].val()))
            {
                self.lmw[j].next = self.k_lane[j].val();
            } else {
                self.lmw[j].next = 0.into();
            }
        }
        self.m64.next = (self.lmw[0].val()
            | self.lmw[1].val()
            | self.lmw[2].val()
            | self.lmw[3].val()
            | self.lmw[4].val()
            | self.lmw[5].val()
            | self.lmw[6].val()
            | self.lmw[7].val());
        if self.acc.val() {
            if self.wc[0].val() {
                self.c_n.d.next = 0.into();
                self.c_first.d.next = false;
            } else if self.wc[1].val() {
                self.c_d.d.next = ((self.s_axis_rx.tdata.val() >> 48) | self.k_tos.val());
                self.c_n.d.next = self.k_n2.val();
                self.c_first.d.next = true;
            } else if self.wc[2].val() {
                self.c_d.d.next = (self.s_axis_rx.tdata.val() | self.m64.val());
                self.c_n.d.next = self.k_n8.val();
                self.c_first.d.next = false;
                if (self.iptot_live.val() >= self.k_r10.val()) {
                    self.crem.d.next = (self.iptot_live.val() - self.k_r10.val());
                } else {
                    self.crem.d.next = 0.into();
                }
            } else {
                self.c_d.d.next = (self.s_axis_rx.tdata.val() | self.m64.val());
                self.c_first.d.next = false;
                if (self.crem.q.val() >= self.k_r8.val()) {
                    self.c_n.d.next = self.k_n8.val();
                    self.crem.d.next = (self.crem.q.val() - self.k_r8.val());
                } else {
                    self.c_n.d.next = self.crem.q.val().get_bits::<4>(0);
                    self.crem.d.next = 0.into();
                }
            }
        } else {
            self.c_n.d.next = 0.into();
            self.c_first.d.next = false;
        }
        if self.f2.q.val() {
            self.crc.crc_in.next = self.k_init.val();
        } else {
            self.crc.crc_in.next = self.crc_q.q.val();
        }
        // The CRC is linear: step(c, d, n) = step(c, 0, n) ^ step(0, d, n).
        // The data part is computed a cycle ahead into a register; the
        // loop only advances the register over n zero bytes.
        self.crc_dp.crc_in.next = 0.into();
        self.crc_dp.data.next = self.c_d.q.val();
        self.crc_dp.nbytes.next = self.c_n.q.val();
        self.dpart.d.next = self.crc_dp.crc_out.val();
        self.n2.d.next = self.c_n.q.val();
        self.f2.d.next = self.c_first.q.val();
        self.crc.data.next = 0.into();
        self.crc.nbytes.next = self.n2.q.val();
        self.crc_q.d.next = (self.crc.crc_out.val() ^ self.dpart.q.val());

        // TLM area position, from the live BTH word (word 5).
        self.dec_in.op.next = self.s_axis_rx.tdata.val().get_bits::<8>(16);
        if (self.acc.val() && self.wc[5].val()) {
            self.tl_on.d.next = self.s_axis_rx.tdata.val().get_bit(48);
            if self.dec_in.reth.val() {
                self.tl_lo.d.next = self.k_lo_r.val();
                self.tl_hi.d.next = self.k_hi_r.val();
            } else if self.dec_in.aeth.val() {
                self.tl_lo.d.next = self.k_lo_a.val();
                self.tl_hi.d.next = self.k_hi_a.val();
            } else {
                self.tl_lo.d.next = self.k_lo_n.val();
                self.tl_hi.d.next = self.k_hi_n.val();
            }
        }

        // ---------------- The verdict (cycles T+1 to T+4: `RxVerdict`) ----------------
        self.verdict.w1.next = self.hw[1].q.val();
        self.verdict.w2.next = self.hw[2].q.val();
        self.verdict.w4.next = self.hw[4].q.val();
        self.verdict.w5.next = self.hw[5].q.val();
        self.verdict.w6.next = self.hw[6].q.val();
        self.verdict.w7.next = self.hw[7].q.val();
        self.verdict.w8.next = self.hw[8].q.val();
        self.verdict.w9.next = self.hw[9].q.val();
        self.verdict.flen.next = self.e_flen.q.val();
        self.verdict.fcs_bad.next = self.e_fcs.q.val();
        self.verdict.ipacc.next = self.ipacc.q.val();
        self.verdict.crc.next = self.crc_q.q.val();

        // ---------------- Buffer write and decision (cycle T+4) ----------------
        self.dl_v[0].d.next = (self.acc.val() && !self.reset.val());
        self.dl_l[0].d.next = self.s_axis_rx.tlast.val();
        self.dl_d[0].d.next = self.s_axis_rx.tdata.val();
        for i in 1..4 {
            self.dl_v[i].d.next = (self.dl_v[i - 1].q.val() && !self.reset.val());
            self.dl_l[i].d.next = self.dl_l[i - 1].q.val();
            self.dl_d[i].d.next = self.dl_d[i - 1].q.val();
        }
        // Room and FIFO-full as registers (one cycle old, hence conservative:
        // the buffer holds at most 2^B − 1 words, wp grows by ≤ 1 a cycle).
        self.room.next = self.room_q.q.val();
        self.room_q.d.next = ((self.wp.q.val() - self.rp.q.val()) < self.k_cap1.val());
        self.wen.next = (self.dl_v[3].q.val() && self.room.val() && !self.ovf.q.val());
        self.dec.next = (self.dl_v[3].q.val() && self.dl_l[3].q.val());
        self.mfull.next = self.mfull_q.q.val();
        self.mfull_q.d.next = ((self.mw.q.val() - self.mr.q.val()) == self.k_mcap.val());
        self.fill_q.d.next = (self.wp.q.val() - self.rp.q.val());
        self.mfill_q.d.next = (self.mw.q.val() - self.mr.q.val());
        self.buf_fill.next = self.fill_q.q.val();
        self.meta_fill.next = self.mfill_q.q.val();
        if self.verdict.reason.val().any() {
            self.rsn.next = self.verdict.reason.val();
        } else if (self.ovf.q.val() || !self.room.val() || self.mfull.val()) {
            self.rsn.next = self.k_rsn[10].val();
        } else {
            self.rsn.next = self.k_rsn[0].val();
        }
        self.commit.next = (self.dec.val() && !self.rsn.val().any());
        self.wp1.next = (self.wp.q.val() + 1);
        self.bram.write_address.next = bit_cast::<B, 16>(self.wp.q.val());
        self.bram.write_data.next = self.dl_d[3].q.val();
        self.bram.write_enable.next = self.wen.val();
        if self.dec.val() {
            if self.commit.val() {
                self.wp.d.next = self.wp1.val();
                self.fstart.d.next = self.wp1.val();
            } else {
                self.wp.d.next = self.fstart.q.val();
            }
        } else if self.wen.val() {
            self.wp.d.next = self.wp1.val();
        }
        if self.dl_v[3].q.val() {
            if self.dl_l[3].q.val() {
                self.ovf.d.next = false;
            } else {
                self.ovf.d.next = (self.ovf.q.val() || !self.room.val());
            }
        }
        if (self.dec_q.q.val() && self.rsn_q.q.val().any() && self.q_ce.q.val()) {
            self.ce_dropped.d.next = (self.ce_dropped.q.val() + 1);
        } else {
            self.ce_dropped.d.next = self.ce_dropped.q.val();
        }
        for i in 0..11 {
            if (self.dec_q.q.val() && (self.rsn_q.q.val() == self.k_rsn[i].val())) {
                self.cnt[i].d.next = (self.cnt[i].q.val() + 1);
            } else {
                self.cnt[i].d.next = self.cnt[i].q.val();
            }
        }
        // The metadata record, from the captured header words.
        for k in 5..14 {
            self.rr[k].next = ((self.hw[k].q.val() >> 48) | (self.hw[k + 1].q.val() << 16));
        }
        for k in 0..5 {
            self.rr[k].next = 0.into();
        }
        self.bs5.x.next = self.rr[5].val();
        self.bs6.x.next = self.rr[6].val();
        self.bs7.x.next = self.rr[7].val();
        for i in 0..6 {
            if self.q_r.q.val() {
                self.bst[i].x.next = self.rr[i + 8].val();
            } else if self.q_a.q.val() {
                self.bst[i].x.next =
                    ((self.hw[i + 7].q.val() >> 16) | (self.hw[i + 8].q.val() << 48));
            } else {
                self.bst[i].x.next = self.rr[i + 6].val();
            }
        }
        self.meta.write_address.next = bit_cast::<META_A, 8>(self.mw.q.val());
        self.meta.write_enable.next = self.commit_q.q.val();
        self.meta.w_op.next = self.hw[5].q.val().get_bits::<8>(16);
        self.meta.w_a.next = self.bs5.y.val();
        if self.q_r.q.val() {
            self.meta.w_va.next = self.bs6.y.val();
            self.meta.w_rd.next = self.bs7.y.val();
        } else {
            self.meta.w_va.next = 0.into();
            self.meta.w_rd.next = 0.into();
        }
        if self.q_a.q.val() {
            self.meta.w_aeth.next = self.bs6.y.val().get_bits::<32>(32);
        } else {
            self.meta.w_aeth.next = 0.into();
        }
        self.meta.w_len.next = self.q_len.q.val();
        self.meta.w_ps.next = self.q_ps.q.val();
        self.meta.w_pay_end.next = self.q_end.q.val();
        self.meta.w_sh.next = self.q_sh.q.val();
        self.meta.w_nz.next = self.q_nz.q.val();
        self.meta.w_ce.next = self.q_ce.q.val();
        if self.q_t.q.val() {
            self.meta.w_tlm_hdr.next = self.bst[0].y.val();
            self.meta.w_tlm_hop0.next = self.bst[1].y.val();
            self.meta.w_tlm_hop1.next = self.bst[2].y.val();
            self.meta.w_tlm_hop2.next = self.bst[3].y.val();
            self.meta.w_tlm_hop3.next = self.bst[4].y.val();
            self.meta.w_tlm_hop4.next = self.bst[5].y.val();
        } else {
            self.meta.w_tlm_hdr.next = 0.into();
            self.meta.w_tlm_hop0.next = 0.into();
            self.meta.w_tlm_hop1.next = 0.into();
            self.meta.w_tlm_hop2.next = 0.into();
            self.meta.w_tlm_hop3.next = 0.into();
            self.meta.w_tlm_hop4.next = 0.into();
        }
        if self.commit_q.q.val() {
            self.mw.d.next = (self.mw.q.val() + 1);
        }
        // The decision, registered: the record is written (and counted) in
        // cycle T+5.
        self.commit_q.d.next = (self.commit.val() && !self.reset.val());
        self.dec_q.d.next = (self.dec.val() && !self.reset.val());
        self.rsn_q.d.next = self.rsn.val();
        self.q_len.d.next = self.verdict.pay_len.val();
        self.q_ps.d.next = (self.fstart.q.val() + self.verdict.pay_w0.val());
        self.q_end.d.next = self.wp1.val();
        self.q_sh.d.next = self.verdict.pay_sh.val();
        self.q_ce.d.next = self.verdict.ce.val();
        self.q_nz.d.next = self.verdict.pay_len.val().any();
        self.q_r.d.next = self.verdict.reth.val();
        self.q_a.d.next = self.verdict.aeth.val();
        self.q_t.d.next = self.verdict.tlm.val();

        // ---------------- Output: metadata record, then payload ----------------
        self.mval.next = (self.mv.q.val() && !self.busy.q.val());
        self.mhs.next = (self.mval.val() && self.m_meta.ready.val());
        // The read pointer's next, + 1 and "an entry waits" each made on
        // both candidates side by side, the handshake choosing after them.
        self.mr2.next = (self.mr1.q.val() + 1);
        if self.mhs.val() {
            self.mrn.next = self.mr1.q.val();
            self.mr1.d.next = self.mr2.val();
            self.mv.d.next = (self.mw.q.val() != self.mr1.q.val());
        } else {
            self.mrn.next = self.mr.q.val();
            self.mr1.d.next = self.mr1.q.val();
            self.mv.d.next = (self.mw.q.val() != self.mr.q.val());
        }
        self.mr.d.next = self.mrn.val();
        self.meta.read_address.next = bit_cast::<META_A, 8>(self.mrn.val());
        self.m_len.next = self.meta.len.val();
        self.m_meta.valid.next = self.mval.val();
        if self.mval.val() {
            self.m_meta.opcode.next = self.meta.op.val();
            self.m_meta.qp.next = self.meta.a.val().get_bits::<24>(32);
            self.m_meta.psn.next = self.meta.a.val().get_bits::<24>(0);
            self.m_meta.ackreq.next = self.meta.a.val().get_bit(31);
            self.m_meta.tlm.present.next = self.meta.a.val().get_bit(56);
            self.m_meta.len.next = self.m_len.val();
            self.m_meta.va.next = self.meta.va.val();
            self.m_meta.rkey.next = self.meta.rd.val().get_bits::<32>(32);
            self.m_meta.dlen.next = self.meta.rd.val().get_bits::<32>(0);
            self.m_meta.aeth.next = self.meta.aeth.val();
            self.m_meta.ce.next = self.meta.ce.val();
            self.m_meta.mr.next = 0.into();
            self.m_meta.tlm.hdr.next = self.meta.tlm_hdr.val();
            self.m_meta.tlm.hop0.next = self.meta.tlm_hop0.val();
            self.m_meta.tlm.hop1.next = self.meta.tlm_hop1.val();
            self.m_meta.tlm.hop2.next = self.meta.tlm_hop2.val();
            self.m_meta.tlm.hop3.next = self.meta.tlm_hop3.val();
            self.m_meta.tlm.hop4.next = self.meta.tlm_hop4.val();
        } else {
            self.m_meta.opcode.next = 0.into();
            self.m_meta.qp.next = 0.into();
            self.m_meta.psn.next = 0.into();
            self.m_meta.ackreq.next = false;
            self.m_meta.tlm.present.next = false;
            self.m_meta.len.next = 0.into();
            self.m_meta.va.next = 0.into();
            self.m_meta.rkey.next = 0.into();
            self.m_meta.dlen.next = 0.into();
            self.m_meta.aeth.next = 0.into();
            self.m_meta.ce.next = false;
            self.m_meta.mr.next = 0.into();
            self.m_meta.tlm.hdr.next = 0.into();
            self.m_meta.tlm.hop0.next = 0.into();
            self.m_meta.tlm.hop1.next = 0.into();
            self.m_meta.tlm.hop2.next = 0.into();
            self.m_meta.tlm.hop3.next = 0.into();
            self.m_meta.tlm.hop4.next = 0.into();
        }

        self.pval.next = (self.busy.q.val() && self.primed.q.val());
        self.phs.next = (self.pval.val() && self.m_axis_pay.tready.val());
        self.plast.next = (self.pcnt.q.val() == bit_cast::<10, 4>(self.k_1.val()));
        self.adv.next = (self.busy.q.val() && (!self.primed.q.val() || self.phs.val()));
        // Buffer read address: few logic levels from the ready inputs (the
        // "has payload" bit comes from its own RAM, rd + 1 from a register).
        // `rd1`'s next (`rdn` + 1) chosen among sums made beside the choice.
        self.rd2.next = (self.rd1.q.val() + 1);
        self.ps1.next = (self.meta.ps.val() + 1);
        if (self.mhs.val() && self.meta.nz.val()) {
            self.rdn.next = self.meta.ps.val();
            self.rd1.d.next = self.ps1.val();
        } else if self.adv.val() {
            self.rdn.next = self.rd1.q.val();
            self.rd1.d.next = self.rd2.val();
        } else {
            self.rdn.next = self.rd.q.val();
            self.rd1.d.next = self.rd1.q.val();
        }
        self.bram.read_address.next = bit_cast::<B, 16>(self.rdn.val());
        self.rd.d.next = self.rdn.val();
        if self.adv.val() {
            self.hold.d.next = self.bram.read_data.val();
        }
        if (self.busy.q.val() && !self.primed.q.val()) {
            self.primed.d.next = true;
        }
        if self.psh.q.val() {
            self.word.next = ((self.hold.q.val() >> 48) | (self.bram.read_data.val() << 16));
        } else {
            self.word.next = ((self.hold.q.val() >> 16) | (self.bram.read_data.val() << 48));
        }
        self.m_axis_pay.tvalid.next = self.pval.val();
        if self.pval.val() {
            self.m_axis_pay.tlast.next = self.plast.val();
            if self.plast.val() {
                self.m_axis_pay.tdata.next = (self.word.val() & self.pmask.q.val());
                self.m_axis_pay.tkeep.next = self.pkeep.q.val();
            } else {
                self.m_axis_pay.tdata.next = self.word.val();
                self.m_axis_pay.tkeep.next = self.k_ff.val();
            }
        } else {
            self.m_axis_pay.tlast.next = false;
            self.m_axis_pay.tdata.next = 0.into();
            self.m_axis_pay.tkeep.next = 0.into();
        }
        if self.mhs.val() {
            if self.meta.nz.val() {
                self.busy.d.next = true;
                self.primed.d.next = false;
                self.pcnt.d.next = bit_cast::<10, 13>((self.m_len.val() + self.k_7.val()) >> 3);
                self.psh.d.next = self.meta.sh.val();
                self.pend.d.next = self.meta.pay_end.val();
                // The header words before the payload are free.
                self.rp.d.next = self.meta.ps.val();
            } else {
                self.rp.d.next = self.meta.pay_end.val();
            }
        }
        for i in 0..8 {
            if (self.mhs.val() && (self.m_len.val().get_bits::<3>(0) == self.k_l3[i].val())) {
                self.pkeep.d.next = self.k_keep[i].val();
                self.pmask.d.next = self.k_mask[i].val();
            }
        }
        if self.phs.val() {
            self.pcnt.d.next = (self.pcnt.q.val() - 1);
            if self.plast.val() {
                self.busy.d.next = false;
                self.rp.d.next = self.pend.q.val();
            } else {
                // Space is freed as words leave: the words before the one
                // being read are in the output registers or gone.
                self.rp.d.next = self.rd.q.val();
            }
        }

        self.m_stats.ok.next = self.cnt[0].q.val();
        self.m_stats.bad_fcs.next = self.cnt[1].q.val();
        self.m_stats.trunc.next = self.cnt[2].q.val();
        self.m_stats.bad_eth.next = self.cnt[3].q.val();
        self.m_stats.bad_ip.next = self.cnt[4].q.val();
        self.m_stats.bad_port.next = self.cnt[5].q.val();
        self.m_stats.bad_opcode.next = self.cnt[6].q.val();
        self.m_stats.bad_len.next = self.cnt[7].q.val();
        self.m_stats.bad_tlm.next = self.cnt[8].q.val();
        self.m_stats.bad_icrc.next = self.cnt[9].q.val();
        self.m_stats.drop_full.next = self.cnt[10].q.val();
        self.m_stats.ce_dropped.next = self.ce_dropped.q.val();

        // Synchronous reset (after everything else: last assignment wins).
        if self.reset.val() {
            self.wcnt.d.next = 0.into();
            self.room_q.d.next = true;
            self.mfull_q.d.next = false;
            self.fill_q.d.next = 0.into();
            self.mfill_q.d.next = 0.into();
            self.wp.d.next = 0.into();
            self.fstart.d.next = 0.into();
            self.rp.d.next = 0.into();
            self.ovf.d.next = false;
            self.mw.d.next = 0.into();
            self.mr.d.next = 0.into();
            self.mr1.d.next = 1.into();
            self.mv.d.next = false;
            self.busy.d.next = false;
            self.primed.d.next = false;
            for i in 0..11 {
                self.cnt[i].d.next = 0.into();
            }
            self.ce_dropped.d.next = 0.into();
        }
    }
}
