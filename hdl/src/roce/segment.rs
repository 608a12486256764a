//! The requester's segmentation: where a PktSend's cursor falls in a work
//! request, and the packet cut there. A block of
//! [`Requester`](super::requester::Requester), its `Seg` state's
//! arithmetic: the requester reads the entry (`SegRd`, `SegRd2`), this
//! block registers the segment's fields at the end of `SegRd2`, and `Seg`
//! decides on them (`docs/architecture.md` §5b).
//!
//! With `off` = `cur` − `seq_first` (the cursor's offset in the work
//! request) and `k` = `off` >> `mlog` (its packet's index):
//! - `seg` = min(`left`, `mtu`), `left` = `ext` − `off`: the packet's
//!   length; `seg_eq_left`: it ends the work request (`left` ≤ `mtu`);
//! - `trim`: it does not fit in what is left of the PktSend (`seg` >
//!   `rem`, as `left` > `rem` and `mtu` > `rem` side by side);
//! - `opcode`: WRITE FIRST, MIDDLE, LAST or ONLY from `k` = 0 and `k` =
//!   `last_k`; `last`: `k` = `last_k`; `psn` = `psn_first` + `k`;
//!   `wr_addr` = `laddr` + `off`;
//! - a READ's request for the responses not received yet (`rd_k` of
//!   them): `rd_va` = `va` + (`rd_k` << `mlog`), `rd_dlen` = `len` −
//!   (`rd_k` << `mlog`), `rd_psn` = `psn_first` + `rd_k`;
//! - what follows the packet: `psn_next` = `psn_first` + 1 + (`last_k`
//!   for a READ, `k` for a WRITE), `cur_new` = `cur` + `seg`, `rem_new`
//!   = `rem` − `seg` (16 bits).
//!
//! `nic_golden::roce::requester::segment` is the plain statement; these
//! are the same values for an entry the requester wrote (`ext`, `last_k`
//! and `seq_end` consistent with it, `cur` inside it) and `mlog` in
//! 8..=12 with `mtu` = 2^`mlog`.
//!
//! # Ports (clock `clock`; no reset: every output is a register loaded
//! every cycle, read by the requester only in `Seg`)
//! - `mlog` (4 bits), `mtu` (32): the MTU's log2 and the MTU in bytes.
//! - `cur` (32), `rem` (16): the PktSend's cursor (a byte of the flow's
//!   stream) and the bytes left in it.
//! - The entry at the cursor, from [`WrRing`](super::wr_ring::WrRing):
//!   `read` (a READ), `len` (32, bytes), `seq_first` (32), `psn_first`
//!   (24), `laddr` (64), `va` (64); and what the requester derives from
//!   it for its acknowledgement part too: `ext` (32, the bytes it takes
//!   in the stream: 1 for a READ, else `len`), `last_k` (32, its last
//!   packet's index, (`len` − 1) >> `mlog`), `seq_end` (32, `seq_first`
//!   + `ext`).
//! - `rd_k` (24): the READ responses received for this entry (the head
//!   READ's count, 0 for any other entry).
//! - Out, each a flip-flop holding the inputs' values of the cycle
//!   before: `seg` (32), `seg_eq_left`, `trim`, `opcode` (8), `psn`
//!   (24), `last`, `wr_addr` (64), `rd_va` (64), `rd_dlen` (32), `rd_psn`
//!   (24), `psn_next` (24), `cur_new` (32), `rem_new` (16).
//!
//! # Timing
//! Latency 1, a result every cycle. At most three carry chains deep (R4):
//! `off`, then `left`, then the `left` < `mtu` compare and the sums
//! chosen between candidates computed beside it (`cur_new` is `seq_end`
//! or `cur` + `mtu`; `rem_new` is `rem` + `cur` − `seq_end` or `rem` −
//! `mtu`). No combinational path from an input to an output (R1).
//!
//! # Bad input
//! None: any input gives the outputs' formulas above, modulo each
//! field's width; the requester never acts on an entry the cursor is not
//! inside.
//!
//! Golden twin: `nic_golden::roce::segment`.

use nic_spec::roce::segment_opcode;
use rust_hdl::prelude::*;
use smart_default::SmartDefault;

#[derive(LogicBlock, SmartDefault)]
pub struct Segment {
    pub clock: Signal<In, Clock>,
    pub mlog: Signal<In, Bits<4>>,
    pub mtu: Signal<In, Bits<32>>,
    pub cur: Signal<In, Bits<32>>,
    pub rem: Signal<In, Bits<16>>,
    pub read: Signal<In, Bit>,
    pub len: Signal<In, Bits<32>>,
    pub ext: Signal<In, Bits<32>>,
    pub last_k: Signal<In, Bits<32>>,
    pub seq_first: Signal<In, Bits<32>>,
    pub seq_end: Signal<In, Bits<32>>,
    pub psn_first: Signal<In, Bits<24>>,
    pub laddr: Signal<In, Bits<64>>,
    pub va: Signal<In, Bits<64>>,
    pub rd_k: Signal<In, Bits<24>>,
    pub seg: Signal<Out, Bits<32>>,
    pub seg_eq_left: Signal<Out, Bit>,
    pub trim: Signal<Out, Bit>,
    pub opcode: Signal<Out, Bits<8>>,
    pub psn: Signal<Out, Bits<24>>,
    pub last: Signal<Out, Bit>,
    pub wr_addr: Signal<Out, Bits<64>>,
    pub rd_va: Signal<Out, Bits<64>>,
    pub rd_dlen: Signal<Out, Bits<32>>,
    pub rd_psn: Signal<Out, Bits<24>>,
    pub psn_next: Signal<Out, Bits<24>>,
    pub cur_new: Signal<Out, Bits<32>>,
    pub rem_new: Signal<Out, Bits<16>>,
    r_seg: DFF<Bits<32>>,
    r_seg_eq_left: DFF<Bit>,
    r_trim: DFF<Bit>,
    r_opcode: DFF<Bits<8>>,
    r_psn: DFF<Bits<24>>,
    r_last: DFF<Bit>,
    r_wr_addr: DFF<Bits<64>>,
    r_rd_va: DFF<Bits<64>>,
    r_rd_dlen: DFF<Bits<32>>,
    r_rd_psn: DFF<Bits<24>>,
    r_psn_next: DFF<Bits<24>>,
    r_cur_new: DFF<Bits<32>>,
    r_rem_new: DFF<Bits<16>>,
    #[default(Constant::new(Bits::<8>::from((segment_opcode(false, true, false)) as u64)))]
    k_op_first: Constant<Bits<8>>,
    #[default(Constant::new(Bits::<8>::from((segment_opcode(false, false, false)) as u64)))]
    k_op_middle: Constant<Bits<8>>,
    #[default(Constant::new(Bits::<8>::from((segment_opcode(false, false, true)) as u64)))]
    k_op_last: Constant<Bits<8>>,
    #[default(Constant::new(Bits::<8>::from((segment_opcode(false, true, true)) as u64)))]
    k_op_only: Constant<Bits<8>>,
    /// The cursor's offset in the work request, and its packet's index.
    off: Signal<Local, Bits<32>>,
    k_seg: Signal<Local, Bits<32>>,
    /// The work request's bytes from the cursor on.
    left: Signal<Local, Bits<32>>,
    left_lt_mtu: Signal<Local, Bit>,
    cur_plus_mtu: Signal<Local, Bits<32>>,
    /// `rem` − `left`, as (`rem` + `cur`) − `seq_end`: the PktSend's rest
    /// past the entry.
    rem_at_end: Signal<Local, Bits<16>>,
    /// A READ's responses received, as a byte offset.
    off_r: Signal<Local, Bits<64>>,
    psn_first_p1: Signal<Local, Bits<24>>,
    /// The index of the packet after which `psn_next` follows.
    k_next: Signal<Local, Bits<24>>,
}

impl Logic for Segment {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            r_seg,
            r_seg_eq_left,
            r_trim,
            r_opcode,
            r_psn,
            r_last,
            r_wr_addr,
            r_rd_va,
            r_rd_dlen,
            r_rd_psn,
            r_psn_next,
            r_cur_new,
            r_rem_new
        );
        self.seg.next = self.r_seg.q.val();
        self.seg_eq_left.next = self.r_seg_eq_left.q.val();
        self.trim.next = self.r_trim.q.val();
        self.opcode.next = self.r_opcode.q.val();
        self.psn.next = self.r_psn.q.val();
        self.last.next = self.r_last.q.val();
        self.wr_addr.next = self.r_wr_addr.q.val();
        self.rd_va.next = self.r_rd_va.q.val();
        self.rd_dlen.next = self.r_rd_dlen.q.val();
        self.rd_psn.next = self.r_rd_psn.q.val();
        self.psn_next.next = self.r_psn_next.q.val();
        self.cur_new.next = self.r_cur_new.q.val();
        self.rem_new.next = self.r_rem_new.q.val();

        // A WRITE's packet at the cursor.
        self.off.next = (self.cur.val() - self.seq_first.val());
        self.k_seg.next = (self.off.val() >> self.mlog.val());
        self.left.next = (self.ext.val() - self.off.val());
        self.left_lt_mtu.next = (self.left.val() < self.mtu.val());
        if self.left_lt_mtu.val() {
            self.r_seg.d.next = self.left.val();
        } else {
            self.r_seg.d.next = self.mtu.val();
        }
        // seg = left unless the MTU is below it; seg > rem as min(left,
        // MTU) > rem, both compares side by side.
        self.r_seg_eq_left.d.next = (self.left_lt_mtu.val() || (self.left.val() == self.mtu.val()));
        self.r_trim.d.next = ((self.left.val() > bit_cast::<32, 16>(self.rem.val()))
            && (self.mtu.val() > bit_cast::<32, 16>(self.rem.val())));
        if (!self.k_seg.val().any() && (self.k_seg.val() == self.last_k.val())) {
            self.r_opcode.d.next = self.k_op_only.val();
        } else if !self.k_seg.val().any() {
            self.r_opcode.d.next = self.k_op_first.val();
        } else if (self.k_seg.val() == self.last_k.val()) {
            self.r_opcode.d.next = self.k_op_last.val();
        } else {
            self.r_opcode.d.next = self.k_op_middle.val();
        }
        self.r_psn.d.next = (self.psn_first.val() + self.k_seg.val().get_bits::<24>(0));
        self.r_last.d.next = (self.k_seg.val() == self.last_k.val());
        self.r_wr_addr.d.next = (self.laddr.val() + bit_cast::<64, 32>(self.off.val()));

        // A READ's request for the responses not received yet.
        self.off_r.next = (bit_cast::<64, 24>(self.rd_k.val()) << self.mlog.val());
        self.r_rd_va.d.next = (self.va.val() + self.off_r.val());
        self.r_rd_dlen.d.next = (self.len.val() - self.off_r.val().get_bits::<32>(0));
        self.r_rd_psn.d.next = (self.psn_first.val() + self.rd_k.val());

        // What follows the packet. The next PSN: first + 1 + the packet's
        // index (its segment's, or a READ's last), one carry chain after
        // the index.
        self.psn_first_p1.next = (self.psn_first.val() + 1);
        if self.read.val() {
            self.k_next.next = self.last_k.val().get_bits::<24>(0);
        } else {
            self.k_next.next = self.k_seg.val().get_bits::<24>(0);
        }
        self.r_psn_next.d.next = (self.psn_first_p1.val() + self.k_next.val());
        // cur + seg: the entry's end (cur + extent − (cur − first)), or
        // cur + MTU.
        self.cur_plus_mtu.next = (self.cur.val() + self.mtu.val());
        if self.left_lt_mtu.val() {
            self.r_cur_new.d.next = self.seq_end.val();
        } else {
            self.r_cur_new.d.next = self.cur_plus_mtu.val();
        }
        // rem − seg: rem − left as (rem + cur) − the entry's end, or
        // rem − MTU.
        self.rem_at_end.next = ((self.rem.val() + self.cur.val().get_bits::<16>(0))
            - self.seq_end.val().get_bits::<16>(0));
        if self.left_lt_mtu.val() {
            self.r_rem_new.d.next = self.rem_at_end.val();
        } else {
            self.r_rem_new.d.next = (self.rem.val() - self.mtu.val().get_bits::<16>(0));
        }
    }
}
