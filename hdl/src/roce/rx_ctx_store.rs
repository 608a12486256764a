//! The dispatcher's per-flow context store: the receiving side's
//! transport state of every flow and the READ landing entries, with the
//! three writers that change it (the host's set-up, the dispatcher's
//! decision, and the undo of a packet a reset cut), and the undo's
//! control. A block of
//! [`RoceRxDispatch`](super::rx_dispatch::RoceRxDispatch).
//!
//! # What it holds, per flow (2^A flows)
//! - `fl` (8): bit 0 valid, bit 1 `nak_sent`, bit 2 `cnp_on_ce`, bit 3
//!   `rd_done`, bits 7..4 `rd_idx` (READs started, mod 16);
//! - `epsn` (24), `msn` (24), `wva` (64, the WRITE's next address),
//!   `wleft` (32, the bytes the WRITE in progress may still carry),
//!   `radr` (64) and `rpsn` (24, the running READ RESPONSE position);
//! - 8 READ landing entries `ent` (89: the lap [88], the first response
//!   PSN [87:64], the local address [63:0]), at `flow << 3 | index`.
//!
//! # Ports (clock `clock`; `reset` starts an undo, below, and the words
//! start at 0, as a block RAM does)
//! - `s_ctx` ([`RxFlowCtxSink`], a strobe): the host's write, first in
//!   priority. Without `rd_only`: the flow's words become `fl` = valid
//!   (`active`) | `cnp_on_ce` | `rd_done`, `rd_idx` 0; `epsn` and `rpsn`,
//!   `radr` from the record; `msn`, `wva`, `wleft` 0. With `rd_only`:
//!   only the landing entry `rd_idx` mod 8 ({`rd_idx` bit 3, `rd_psn`,
//!   `rd_addr`}); the entry table is written by nothing else.
//! - Read: `busy` low reads the flow `flow_new` (the incoming record's),
//!   high the flow `flow` (the latched one). The landing index (`rd_idx`
//!   mod 8, the copy below) is read with the words and registered; the
//!   landing entry is read a cycle later, at `flow` and that index. So
//!   a caller that holds `flow` (with `busy` high) for the cycle after the
//!   read sees the entry a cycle after the words.
//! - The decision's write at `flow`, when neither `s_ctx.valid` nor
//!   `undo_do`: `we_fl` writes `w_fl` and `w_wleft`, `we_acc` `w_epsn`
//!   and `w_msn`, `we_wva` `w_wva`, `we_rd` `w_radr` and `w_rpsn` (a
//!   field the packet leaves as it was is not written: R4).
//! - The undo (the dispatcher's `reset`): `undo_arm` (a payload
//!   packet's decision, ignored in a `reset` cycle) copies the context as
//!   read (the outputs this cycle) and `flow` into the undo registers
//!   and arms them (the registers follow the outputs and `flow` every
//!   cycle no undo is held, so an arm while one is held keeps the
//!   held copy; the dispatcher takes no record while one is held);
//!   `last_taken` (the packet's last payload word taken by the host)
//!   disarms them. A `reset` while armed, and not in the
//!   cycle `last_taken` disarms, writes them back, second in priority:
//!   in that cycle, or, if `s_ctx.valid`, in the first cycle without
//!   one (pending until then). A whole-context `s_ctx` write of the
//!   undo's flow in that time cancels it. `undo_held` (out): armed or
//!   pending, from flip-flops.
//! - Out: `fl`, `epsn`, `msn`, `wva`, `wleft`, `radr`, `rpsn`: the
//!   words at the read address of two cycles before, holding every write
//!   chosen in a cycle before that read (a 2:1 select of two flip-flops:
//!   the register after the block RAM's read, or the forward below); `ent`
//!   (flip-flops): the entry at `flow` of two cycles before and the
//!   landing index read three cycles before.
//!
//! # Timing
//! Latency 2 from the read address to the words, 3 to the landing
//! entry; one write and one read a cycle. The write chosen in a cycle
//! (the host's, the undo's or the decision's) goes to a write register
//! and reaches the RAMs and the index copies in the next (R1: the
//! caller's decision ends at flip-flops, not at the RAMs' ports). A read
//! at the write register's address in that cycle would miss its words,
//! so the read takes them from the register instead (`pw_hit`, per
//! group of words written, kept two cycles to meet the RAMs' words):
//! at the ports, a write is seen by a read in the next cycle, as if it
//! went to the RAMs at once (the twin does exactly that), and no word
//! the caller sees was read in a RAM cycle that wrote it (which the
//! ECP5 leaves undefined; the landing entries' RAM, written by the host
//! alone and at once, still can, and the dispatcher's `stale` re-reads). The landing entry's address is the flow and a copy of its `rd_idx` in LUT RAM (asynchronous read,
//! written with `fl`), kept twice so one copy is read at `flow_new` and
//! the other at `flow`; the select between them and a register follow
//! the LUT RAMs, so the 2^A:1 read of the LUT RAM and the block RAM's
//! address are in different cycles (at 1024 flows that read alone was
//! the dispatcher's critical path, 10.8 ns). One entry is read, so no
//! select follows the block RAM (eight RAMs of 2^A words and an 8:1
//! select took 24 DP16KD at 256 flows where one RAM takes 10). No
//! combinational path from an input to an output.
//!
//! # Bad input
//! None of its own: every write lands where it is addressed. A read in
//! the cycle of a write to the same word sees the old word, as a
//! [`Ram`] does (the forward covers only the cycle after, where the RAMs
//! themselves collide, which the ECP5 leaves undefined); the dispatcher
//! re-reads a flow a host write touched (its `stale`).
//!
//! Golden twin: `nic_golden::roce::rx_ctx_store`.

use crate::mem::{LutRam, Ram};
use crate::roce::RxFlowCtxSink;
use rust_hdl::prelude::*;
use smart_default::SmartDefault;

#[derive(LogicBlock, SmartDefault)]
pub struct RxCtxStore<const A: usize> {
    // The parameter check, when the block is built.
    #[default({
        assert!((1..=13).contains(&A), "RxCtxStore: 1 <= A <= 13");
        Default::default()
    })]
    pub clock: Signal<In, Clock>,
    pub s_ctx: RxFlowCtxSink<A>,
    pub busy: Signal<In, Bit>,
    pub flow_new: Signal<In, Bits<A>>,
    pub flow: Signal<In, Bits<A>>,
    pub we_fl: Signal<In, Bit>,
    pub we_acc: Signal<In, Bit>,
    pub we_wva: Signal<In, Bit>,
    pub we_rd: Signal<In, Bit>,
    pub w_fl: Signal<In, Bits<8>>,
    pub w_epsn: Signal<In, Bits<24>>,
    pub w_msn: Signal<In, Bits<24>>,
    pub w_wva: Signal<In, Bits<64>>,
    pub w_wleft: Signal<In, Bits<32>>,
    pub w_radr: Signal<In, Bits<64>>,
    pub w_rpsn: Signal<In, Bits<24>>,
    pub reset: Signal<In, Bit>,
    pub undo_arm: Signal<In, Bit>,
    pub last_taken: Signal<In, Bit>,
    pub undo_held: Signal<Out, Bit>,
    pub fl: Signal<Out, Bits<8>>,
    pub epsn: Signal<Out, Bits<24>>,
    pub msn: Signal<Out, Bits<24>>,
    pub wva: Signal<Out, Bits<64>>,
    pub wleft: Signal<Out, Bits<32>>,
    pub radr: Signal<Out, Bits<64>>,
    pub rpsn: Signal<Out, Bits<24>>,
    pub ent: Signal<Out, Bits<89>>,
    // The words (read into `c_*`, flip-flops in the fabric next to the
    // decision's logic: the block RAMs' own output registers measured
    // slower, their outputs' routing 1.5-2.4 ns).
    ram_fl: Ram<Bits<8>, A>,
    ram_epsn: Ram<Bits<24>, A>,
    ram_msn: Ram<Bits<24>, A>,
    ram_wva: Ram<Bits<64>, A>,
    ram_wleft: Ram<Bits<32>, A>,
    ram_radr: Ram<Bits<64>, A>,
    ram_rpsn: Ram<Bits<24>, A>,
    /// The landing entries, 8 per flow (address = flow << 3 | index).
    #[default(Ram::with_depth_log2(A + 3))]
    ram_tab: Ram<Bits<89>, 16>,
    /// Each flow's landing index (`fl` bits 6..4) in LUTs, read at `flow`.
    rd_ix: LutRam<Bits<3>, A>,
    /// A second copy of `rd_ix`, written alike, read at `flow_new`.
    rd_ix_in: LutRam<Bits<3>, A>,
    // The words as read (the outputs).
    c_fl: DFF<Bits<8>>,
    c_epsn: DFF<Bits<24>>,
    c_msn: DFF<Bits<24>>,
    c_wva: DFF<Bits<64>>,
    c_wleft: DFF<Bits<32>>,
    c_radr: DFF<Bits<64>>,
    c_rpsn: DFF<Bits<24>>,
    c_ent: DFF<Bits<89>>,
    /// The landing index read with the words (at `flow_new` or `flow`).
    ix_q: DFF<Bits<3>>,
    // The undo registers, armed (`undo_v`) or pending (a reset came while
    // an `s_ctx` write had the RAMs).
    undo_v: DFF<Bit>,
    undo_pending: DFF<Bit>,
    u_flow: DFF<Bits<A>>,
    u_fl: DFF<Bits<8>>,
    u_epsn: DFF<Bits<24>>,
    u_msn: DFF<Bits<24>>,
    u_wva: DFF<Bits<64>>,
    u_wleft: DFF<Bits<32>>,
    u_radr: DFF<Bits<64>>,
    u_rpsn: DFF<Bits<24>>,
    // The write register: the write chosen this cycle (the host's, the
    // undo's or the decision's) reaches the RAMs in the next, one
    // enable per group of words (`fl` and `wleft`; `epsn` and `msn`;
    // `wva`; `radr` and `rpsn`).
    pw_addr: DFF<Bits<A>>,
    pw_en_fl: DFF<Bit>,
    pw_en_acc: DFF<Bit>,
    pw_en_wva: DFF<Bit>,
    pw_en_rd: DFF<Bit>,
    pw_fl: DFF<Bits<8>>,
    pw_epsn: DFF<Bits<24>>,
    pw_msn: DFF<Bits<24>>,
    pw_wva: DFF<Bits<64>>,
    pw_wleft: DFF<Bits<32>>,
    pw_radr: DFF<Bits<64>>,
    pw_rpsn: DFF<Bits<24>>,
    // The forward: a read at the write register's address, in the cycle
    // it writes, gets its words (`h1_*`, `f1_*`), two cycles later with
    // the RAMs' words (`h2_*`, `f2_*`).
    h1_fl: DFF<Bit>,
    h1_acc: DFF<Bit>,
    h1_wva: DFF<Bit>,
    h1_rd: DFF<Bit>,
    h2_fl: DFF<Bit>,
    h2_acc: DFF<Bit>,
    h2_wva: DFF<Bit>,
    h2_rd: DFF<Bit>,
    f1_fl: DFF<Bits<8>>,
    f1_epsn: DFF<Bits<24>>,
    f1_msn: DFF<Bits<24>>,
    f1_wva: DFF<Bits<64>>,
    f1_wleft: DFF<Bits<32>>,
    f1_radr: DFF<Bits<64>>,
    f1_rpsn: DFF<Bits<24>>,
    f2_fl: DFF<Bits<8>>,
    f2_epsn: DFF<Bits<24>>,
    f2_msn: DFF<Bits<24>>,
    f2_wva: DFF<Bits<64>>,
    f2_wleft: DFF<Bits<32>>,
    f2_radr: DFF<Bits<64>>,
    f2_rpsn: DFF<Bits<24>>,
    /// The words' read address this cycle.
    raddr: Signal<Local, Bits<A>>,
    /// The read address is the write register's.
    pw_hit: Signal<Local, Bit>,
    // The words as the caller sees them (the RAMs' or the forward's).
    o_fl: Signal<Local, Bits<8>>,
    o_epsn: Signal<Local, Bits<24>>,
    o_msn: Signal<Local, Bits<24>>,
    o_wva: Signal<Local, Bits<64>>,
    o_wleft: Signal<Local, Bits<32>>,
    o_radr: Signal<Local, Bits<64>>,
    o_rpsn: Signal<Local, Bits<24>>,
    #[default(Constant::new(Bits::<8>::from(1u64)))]
    k_fl_valid: Constant<Bits<8>>,
    #[default(Constant::new(Bits::<8>::from(4u64)))]
    k_fl_ce: Constant<Bits<8>>,
    #[default(Constant::new(Bits::<8>::from(8u64)))]
    k_fl_rdd: Constant<Bits<8>>,
    /// The `fl` word of a flow set-up: between READs at entry 0.
    cfg_fl: Signal<Local, Bits<8>>,
    tab_w: Signal<Local, Bits<89>>,
    arm: Signal<Local, Bit>,
    undo_want: Signal<Local, Bit>,
    undo_cancel: Signal<Local, Bit>,
    undo_do: Signal<Local, Bit>,
}

impl<const A: usize> Logic for RxCtxStore<A> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            c_fl,
            c_epsn,
            c_msn,
            c_wva,
            c_wleft,
            c_radr,
            c_rpsn,
            c_ent,
            ix_q,
            undo_v,
            undo_pending,
            u_flow,
            u_fl,
            u_epsn,
            u_msn,
            u_wva,
            u_wleft,
            u_radr,
            u_rpsn,
            pw_addr,
            pw_en_fl,
            pw_en_acc,
            pw_en_wva,
            pw_en_rd,
            pw_fl,
            pw_epsn,
            pw_msn,
            pw_wva,
            pw_wleft,
            pw_radr,
            pw_rpsn,
            h1_fl,
            h1_acc,
            h1_wva,
            h1_rd,
            h2_fl,
            h2_acc,
            h2_wva,
            h2_rd,
            f1_fl,
            f1_epsn,
            f1_msn,
            f1_wva,
            f1_wleft,
            f1_radr,
            f1_rpsn,
            f2_fl,
            f2_epsn,
            f2_msn,
            f2_wva,
            f2_wleft,
            f2_radr,
            f2_rpsn
        );
        clock!(
            self, clock, ram_fl, ram_epsn, ram_msn, ram_wva, ram_wleft, ram_radr, ram_rpsn,
            ram_tab, rd_ix, rd_ix_in
        );
        // ---- the read: the incoming flow's words while not busy, else
        // the latched flow's, registered twice (the RAMs' output
        // registers, then `c_*`), the forward's select after them
        if !self.busy.val() {
            self.raddr.next = self.flow_new.val();
        } else {
            self.raddr.next = self.flow.val();
        }
        self.pw_hit.next = (self.raddr.val() == self.pw_addr.q.val());
        self.rd_ix_in.read_address.next = self.flow_new.val();
        self.rd_ix.read_address.next = self.flow.val();
        // The landing index as read at the same address as the words
        // (the write register's, if it writes `fl` there now),
        // registered: the entry is read a cycle later, at `flow` (R3).
        if (self.pw_en_fl.q.val() && self.pw_hit.val()) {
            self.ix_q.d.next = self.pw_fl.q.val().get_bits::<3>(4);
        } else if !self.busy.val() {
            self.ix_q.d.next = self.rd_ix_in.read_data.val();
        } else {
            self.ix_q.d.next = self.rd_ix.read_data.val();
        }
        self.ram_tab.read_address.next =
            ((bit_cast::<16, A>(self.flow.val()) << 3) | bit_cast::<16, 3>(self.ix_q.q.val()));
        self.ram_fl.read_address.next = self.raddr.val();
        self.ram_epsn.read_address.next = self.raddr.val();
        self.ram_msn.read_address.next = self.raddr.val();
        self.ram_wva.read_address.next = self.raddr.val();
        self.ram_wleft.read_address.next = self.raddr.val();
        self.ram_radr.read_address.next = self.raddr.val();
        self.ram_rpsn.read_address.next = self.raddr.val();
        self.c_fl.d.next = self.ram_fl.read_data.val();
        self.c_epsn.d.next = self.ram_epsn.read_data.val();
        self.c_msn.d.next = self.ram_msn.read_data.val();
        self.c_wva.d.next = self.ram_wva.read_data.val();
        self.c_wleft.d.next = self.ram_wleft.read_data.val();
        self.c_radr.d.next = self.ram_radr.read_data.val();
        self.c_rpsn.d.next = self.ram_rpsn.read_data.val();
        self.c_ent.d.next = self.ram_tab.read_data.val();
        // ---- the forward: the RAMs miss the write register's words in
        // the cycle it writes them (they read the old word), so a read
        // there takes them from the register, kept two cycles.
        self.h1_fl.d.next = (self.pw_en_fl.q.val() && self.pw_hit.val());
        self.h1_acc.d.next = (self.pw_en_acc.q.val() && self.pw_hit.val());
        self.h1_wva.d.next = (self.pw_en_wva.q.val() && self.pw_hit.val());
        self.h1_rd.d.next = (self.pw_en_rd.q.val() && self.pw_hit.val());
        self.h2_fl.d.next = self.h1_fl.q.val();
        self.h2_acc.d.next = self.h1_acc.q.val();
        self.h2_wva.d.next = self.h1_wva.q.val();
        self.h2_rd.d.next = self.h1_rd.q.val();
        self.f1_fl.d.next = self.pw_fl.q.val();
        self.f1_epsn.d.next = self.pw_epsn.q.val();
        self.f1_msn.d.next = self.pw_msn.q.val();
        self.f1_wva.d.next = self.pw_wva.q.val();
        self.f1_wleft.d.next = self.pw_wleft.q.val();
        self.f1_radr.d.next = self.pw_radr.q.val();
        self.f1_rpsn.d.next = self.pw_rpsn.q.val();
        self.f2_fl.d.next = self.f1_fl.q.val();
        self.f2_epsn.d.next = self.f1_epsn.q.val();
        self.f2_msn.d.next = self.f1_msn.q.val();
        self.f2_wva.d.next = self.f1_wva.q.val();
        self.f2_wleft.d.next = self.f1_wleft.q.val();
        self.f2_radr.d.next = self.f1_radr.q.val();
        self.f2_rpsn.d.next = self.f1_rpsn.q.val();
        if self.h2_fl.q.val() {
            self.o_fl.next = self.f2_fl.q.val();
            self.o_wleft.next = self.f2_wleft.q.val();
        } else {
            self.o_fl.next = self.c_fl.q.val();
            self.o_wleft.next = self.c_wleft.q.val();
        }
        if self.h2_acc.q.val() {
            self.o_epsn.next = self.f2_epsn.q.val();
            self.o_msn.next = self.f2_msn.q.val();
        } else {
            self.o_epsn.next = self.c_epsn.q.val();
            self.o_msn.next = self.c_msn.q.val();
        }
        if self.h2_wva.q.val() {
            self.o_wva.next = self.f2_wva.q.val();
        } else {
            self.o_wva.next = self.c_wva.q.val();
        }
        if self.h2_rd.q.val() {
            self.o_radr.next = self.f2_radr.q.val();
            self.o_rpsn.next = self.f2_rpsn.q.val();
        } else {
            self.o_radr.next = self.c_radr.q.val();
            self.o_rpsn.next = self.c_rpsn.q.val();
        }
        // ---- the writes: the host's, else the undo, else the decision's,
        // chosen into the write register
        if (self.s_ctx.active.val() && self.s_ctx.cnp_on_ce.val()) {
            self.cfg_fl.next = ((self.k_fl_valid.val() | self.k_fl_ce.val()) | self.k_fl_rdd.val());
        } else if self.s_ctx.active.val() {
            self.cfg_fl.next = (self.k_fl_valid.val() | self.k_fl_rdd.val());
        } else {
            self.cfg_fl.next = self.k_fl_rdd.val();
        }
        // The requester's landing entry writes (`rd_only`), entry rd_idx
        // mod 8, straight to their RAM (no decision writes it).
        self.tab_w.next = ((bit_cast::<89, 1>(self.s_ctx.rd_idx.val().get_bit(3).into()) << 88)
            | (bit_cast::<89, 24>(self.s_ctx.rd_psn.val()) << 64)
            | bit_cast::<89, 64>(self.s_ctx.rd_addr.val()));
        self.ram_tab.write_address.next = ((bit_cast::<16, A>(self.s_ctx.flow.val()) << 3)
            | bit_cast::<16, 3>(self.s_ctx.rd_idx.val().get_bits::<3>(0)));
        self.ram_tab.write_data.next = self.tab_w.val();
        self.ram_tab.write_enable.next = (self.s_ctx.valid.val() && self.s_ctx.rd_only.val());
        if self.s_ctx.valid.val() {
            self.pw_addr.d.next = self.s_ctx.flow.val();
            self.pw_en_fl.d.next = !self.s_ctx.rd_only.val();
            self.pw_en_acc.d.next = !self.s_ctx.rd_only.val();
            self.pw_en_wva.d.next = !self.s_ctx.rd_only.val();
            self.pw_en_rd.d.next = !self.s_ctx.rd_only.val();
            self.pw_fl.d.next = self.cfg_fl.val();
            self.pw_epsn.d.next = self.s_ctx.epsn.val();
            self.pw_msn.d.next = 0.into();
            self.pw_wva.d.next = 0.into();
            self.pw_wleft.d.next = 0.into();
            self.pw_radr.d.next = self.s_ctx.rd_addr.val();
            self.pw_rpsn.d.next = self.s_ctx.rd_psn.val();
        } else if self.undo_do.val() {
            self.pw_addr.d.next = self.u_flow.q.val();
            self.pw_en_fl.d.next = true;
            self.pw_en_acc.d.next = true;
            self.pw_en_wva.d.next = true;
            self.pw_en_rd.d.next = true;
            self.pw_fl.d.next = self.u_fl.q.val();
            self.pw_epsn.d.next = self.u_epsn.q.val();
            self.pw_msn.d.next = self.u_msn.q.val();
            self.pw_wva.d.next = self.u_wva.q.val();
            self.pw_wleft.d.next = self.u_wleft.q.val();
            self.pw_radr.d.next = self.u_radr.q.val();
            self.pw_rpsn.d.next = self.u_rpsn.q.val();
        } else {
            self.pw_addr.d.next = self.flow.val();
            self.pw_en_fl.d.next = self.we_fl.val();
            self.pw_en_acc.d.next = self.we_acc.val();
            self.pw_en_wva.d.next = self.we_wva.val();
            self.pw_en_rd.d.next = self.we_rd.val();
            self.pw_fl.d.next = self.w_fl.val();
            self.pw_epsn.d.next = self.w_epsn.val();
            self.pw_msn.d.next = self.w_msn.val();
            self.pw_wva.d.next = self.w_wva.val();
            self.pw_wleft.d.next = self.w_wleft.val();
            self.pw_radr.d.next = self.w_radr.val();
            self.pw_rpsn.d.next = self.w_rpsn.val();
        }
        // The write register to the RAMs, and to the index copies with `fl`.
        self.ram_fl.write_enable.next = self.pw_en_fl.q.val();
        self.ram_fl.write_address.next = self.pw_addr.q.val();
        self.ram_fl.write_data.next = self.pw_fl.q.val();
        self.ram_wleft.write_enable.next = self.pw_en_fl.q.val();
        self.ram_wleft.write_address.next = self.pw_addr.q.val();
        self.ram_wleft.write_data.next = self.pw_wleft.q.val();
        self.ram_epsn.write_enable.next = self.pw_en_acc.q.val();
        self.ram_epsn.write_address.next = self.pw_addr.q.val();
        self.ram_epsn.write_data.next = self.pw_epsn.q.val();
        self.ram_msn.write_enable.next = self.pw_en_acc.q.val();
        self.ram_msn.write_address.next = self.pw_addr.q.val();
        self.ram_msn.write_data.next = self.pw_msn.q.val();
        self.ram_wva.write_enable.next = self.pw_en_wva.q.val();
        self.ram_wva.write_address.next = self.pw_addr.q.val();
        self.ram_wva.write_data.next = self.pw_wva.q.val();
        self.ram_radr.write_enable.next = self.pw_en_rd.q.val();
        self.ram_radr.write_address.next = self.pw_addr.q.val();
        self.ram_radr.write_data.next = self.pw_radr.q.val();
        self.ram_rpsn.write_enable.next = self.pw_en_rd.q.val();
        self.ram_rpsn.write_address.next = self.pw_addr.q.val();
        self.ram_rpsn.write_data.next = self.pw_rpsn.q.val();
        self.rd_ix.write_enable.next = self.pw_en_fl.q.val();
        self.rd_ix.write_address.next = self.pw_addr.q.val();
        self.rd_ix.write_data.next = self.pw_fl.q.val().get_bits::<3>(4);
        self.rd_ix_in.write_enable.next = self.pw_en_fl.q.val();
        self.rd_ix_in.write_address.next = self.pw_addr.q.val();
        self.rd_ix_in.write_data.next = self.pw_fl.q.val().get_bits::<3>(4);
        // ---- the undo: armed at a payload packet's decision with the
        // context as read, disarmed when its last word is taken, written
        // back after a reset that finds it armed.
        self.arm.next = (!self.reset.val() && self.undo_arm.val());
        self.undo_want.next = ((self.undo_v.q.val() && !self.last_taken.val() && self.reset.val())
            || self.undo_pending.q.val());
        self.undo_cancel.next = (self.s_ctx.valid.val()
            && !self.s_ctx.rd_only.val()
            && (self.s_ctx.flow.val() == self.u_flow.q.val()));
        self.undo_do.next = (self.undo_want.val() && !self.s_ctx.valid.val());
        self.undo_pending.d.next =
            ((self.undo_want.val() && self.s_ctx.valid.val()) && !self.undo_cancel.val());
        if self.reset.val() {
            self.undo_v.d.next = false;
        } else if self.arm.val() {
            self.undo_v.d.next = true;
        } else if self.last_taken.val() {
            self.undo_v.d.next = false;
        }
        // The copy is made every cycle no undo is held, not on `arm`: the
        // decision that arms it does not reach the copy's 240 flip-flops'
        // enables (R1). An arm while an undo is held keeps the held copy.
        if !(self.undo_v.q.val() || self.undo_pending.q.val()) {
            self.u_flow.d.next = self.flow.val();
            self.u_fl.d.next = self.o_fl.val();
            self.u_epsn.d.next = self.o_epsn.val();
            self.u_msn.d.next = self.o_msn.val();
            self.u_wva.d.next = self.o_wva.val();
            self.u_wleft.d.next = self.o_wleft.val();
            self.u_radr.d.next = self.o_radr.val();
            self.u_rpsn.d.next = self.o_rpsn.val();
        }
        self.undo_held.next = (self.undo_v.q.val() || self.undo_pending.q.val());
        self.fl.next = self.o_fl.val();
        self.epsn.next = self.o_epsn.val();
        self.msn.next = self.o_msn.val();
        self.wva.next = self.o_wva.val();
        self.wleft.next = self.o_wleft.val();
        self.radr.next = self.o_radr.val();
        self.rpsn.next = self.o_rpsn.val();
        self.ent.next = self.c_ent.q.val();
    }
}
