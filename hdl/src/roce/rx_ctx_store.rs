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
//!   and arms them; `last_taken` (the packet's last payload word taken
//!   by the host) disarms them. A `reset` while armed, and not in the
//!   cycle `last_taken` disarms, writes them back, second in priority:
//!   in that cycle, or, if `s_ctx.valid`, in the first cycle without
//!   one (pending until then). A whole-context `s_ctx` write of the
//!   undo's flow in that time cancels it. `undo_held` (out): armed or
//!   pending, from flip-flops.
//! - Out, flip-flops: `fl`, `epsn`, `msn`, `wva`, `wleft`, `radr`,
//!   `rpsn`: the words at the read address of two cycles before (the
//!   RAMs' read registers, then these); `ent`: the entry at `flow` of two
//!   cycles before and the landing index read three cycles before.
//!
//! # Timing
//! Latency 2 from the read address to the words, 3 to the landing
//! entry; one write and one read a cycle. The landing entry's address
//! is the flow and a copy of its `rd_idx` in LUT RAM (asynchronous read,
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
//! None of its own: every write lands where it is addressed. A read and
//! a write of the same word in one cycle read the old word ([`Ram`]);
//! the dispatcher re-reads a flow a host write touched (its `stale`).
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
            u_rpsn
        );
        clock!(
            self, clock, ram_fl, ram_epsn, ram_msn, ram_wva, ram_wleft, ram_radr, ram_rpsn,
            ram_tab, rd_ix, rd_ix_in
        );
        // ---- the read: the incoming flow's words while not busy, else
        // the latched flow's, registered twice (the RAMs', then the outputs')
        self.rd_ix_in.read_address.next = self.flow_new.val();
        self.rd_ix.read_address.next = self.flow.val();
        // The landing index as read at the same address as the words,
        // registered: the entry is read a cycle later, at `flow` (R3).
        if !self.busy.val() {
            self.ix_q.d.next = self.rd_ix_in.read_data.val();
        } else {
            self.ix_q.d.next = self.rd_ix.read_data.val();
        }
        self.ram_tab.read_address.next =
            ((bit_cast::<16, A>(self.flow.val()) << 3) | bit_cast::<16, 3>(self.ix_q.q.val()));
        if !self.busy.val() {
            self.ram_fl.read_address.next = self.flow_new.val();
            self.ram_epsn.read_address.next = self.flow_new.val();
            self.ram_msn.read_address.next = self.flow_new.val();
            self.ram_wva.read_address.next = self.flow_new.val();
            self.ram_wleft.read_address.next = self.flow_new.val();
            self.ram_radr.read_address.next = self.flow_new.val();
            self.ram_rpsn.read_address.next = self.flow_new.val();
        } else {
            self.ram_fl.read_address.next = self.flow.val();
            self.ram_epsn.read_address.next = self.flow.val();
            self.ram_msn.read_address.next = self.flow.val();
            self.ram_wva.read_address.next = self.flow.val();
            self.ram_wleft.read_address.next = self.flow.val();
            self.ram_radr.read_address.next = self.flow.val();
            self.ram_rpsn.read_address.next = self.flow.val();
        }
        self.c_fl.d.next = self.ram_fl.read_data.val();
        self.c_epsn.d.next = self.ram_epsn.read_data.val();
        self.c_msn.d.next = self.ram_msn.read_data.val();
        self.c_wva.d.next = self.ram_wva.read_data.val();
        self.c_wleft.d.next = self.ram_wleft.read_data.val();
        self.c_radr.d.next = self.ram_radr.read_data.val();
        self.c_rpsn.d.next = self.ram_rpsn.read_data.val();
        self.c_ent.d.next = self.ram_tab.read_data.val();
        // ---- the writes: the host's, else the undo, else the decision's
        if (self.s_ctx.active.val() && self.s_ctx.cnp_on_ce.val()) {
            self.cfg_fl.next = ((self.k_fl_valid.val() | self.k_fl_ce.val()) | self.k_fl_rdd.val());
        } else if self.s_ctx.active.val() {
            self.cfg_fl.next = (self.k_fl_valid.val() | self.k_fl_rdd.val());
        } else {
            self.cfg_fl.next = self.k_fl_rdd.val();
        }
        // The requester's landing entry writes (`rd_only`), entry rd_idx mod 8.
        self.tab_w.next = ((bit_cast::<89, 1>(self.s_ctx.rd_idx.val().get_bit(3).into()) << 88)
            | (bit_cast::<89, 24>(self.s_ctx.rd_psn.val()) << 64)
            | bit_cast::<89, 64>(self.s_ctx.rd_addr.val()));
        self.ram_tab.write_address.next = ((bit_cast::<16, A>(self.s_ctx.flow.val()) << 3)
            | bit_cast::<16, 3>(self.s_ctx.rd_idx.val().get_bits::<3>(0)));
        self.ram_tab.write_data.next = self.tab_w.val();
        self.ram_tab.write_enable.next = (self.s_ctx.valid.val() && self.s_ctx.rd_only.val());
        if self.s_ctx.valid.val() {
            self.ram_fl.write_enable.next = !self.s_ctx.rd_only.val();
            self.ram_fl.write_address.next = self.s_ctx.flow.val();
            self.ram_fl.write_data.next = self.cfg_fl.val();
            self.ram_epsn.write_enable.next = !self.s_ctx.rd_only.val();
            self.ram_epsn.write_address.next = self.s_ctx.flow.val();
            self.ram_epsn.write_data.next = self.s_ctx.epsn.val();
            self.ram_msn.write_enable.next = !self.s_ctx.rd_only.val();
            self.ram_msn.write_address.next = self.s_ctx.flow.val();
            self.ram_msn.write_data.next = 0.into();
            self.ram_wva.write_enable.next = !self.s_ctx.rd_only.val();
            self.ram_wva.write_address.next = self.s_ctx.flow.val();
            self.ram_wva.write_data.next = 0.into();
            self.ram_wleft.write_enable.next = !self.s_ctx.rd_only.val();
            self.ram_wleft.write_address.next = self.s_ctx.flow.val();
            self.ram_wleft.write_data.next = 0.into();
            self.ram_radr.write_enable.next = !self.s_ctx.rd_only.val();
            self.ram_radr.write_address.next = self.s_ctx.flow.val();
            self.ram_radr.write_data.next = self.s_ctx.rd_addr.val();
            self.ram_rpsn.write_enable.next = !self.s_ctx.rd_only.val();
            self.ram_rpsn.write_address.next = self.s_ctx.flow.val();
            self.ram_rpsn.write_data.next = self.s_ctx.rd_psn.val();
        } else if self.undo_do.val() {
            self.ram_fl.write_enable.next = true;
            self.ram_fl.write_address.next = self.u_flow.q.val();
            self.ram_fl.write_data.next = self.u_fl.q.val();
            self.ram_epsn.write_enable.next = true;
            self.ram_epsn.write_address.next = self.u_flow.q.val();
            self.ram_epsn.write_data.next = self.u_epsn.q.val();
            self.ram_msn.write_enable.next = true;
            self.ram_msn.write_address.next = self.u_flow.q.val();
            self.ram_msn.write_data.next = self.u_msn.q.val();
            self.ram_wva.write_enable.next = true;
            self.ram_wva.write_address.next = self.u_flow.q.val();
            self.ram_wva.write_data.next = self.u_wva.q.val();
            self.ram_wleft.write_enable.next = true;
            self.ram_wleft.write_address.next = self.u_flow.q.val();
            self.ram_wleft.write_data.next = self.u_wleft.q.val();
            self.ram_radr.write_enable.next = true;
            self.ram_radr.write_address.next = self.u_flow.q.val();
            self.ram_radr.write_data.next = self.u_radr.q.val();
            self.ram_rpsn.write_enable.next = true;
            self.ram_rpsn.write_address.next = self.u_flow.q.val();
            self.ram_rpsn.write_data.next = self.u_rpsn.q.val();
        } else {
            self.ram_fl.write_enable.next = self.we_fl.val();
            self.ram_fl.write_address.next = self.flow.val();
            self.ram_fl.write_data.next = self.w_fl.val();
            self.ram_epsn.write_enable.next = self.we_acc.val();
            self.ram_epsn.write_address.next = self.flow.val();
            self.ram_epsn.write_data.next = self.w_epsn.val();
            self.ram_msn.write_enable.next = self.we_acc.val();
            self.ram_msn.write_address.next = self.flow.val();
            self.ram_msn.write_data.next = self.w_msn.val();
            self.ram_wva.write_enable.next = self.we_wva.val();
            self.ram_wva.write_address.next = self.flow.val();
            self.ram_wva.write_data.next = self.w_wva.val();
            self.ram_wleft.write_enable.next = self.we_fl.val();
            self.ram_wleft.write_address.next = self.flow.val();
            self.ram_wleft.write_data.next = self.w_wleft.val();
            self.ram_radr.write_enable.next = self.we_rd.val();
            self.ram_radr.write_address.next = self.flow.val();
            self.ram_radr.write_data.next = self.w_radr.val();
            self.ram_rpsn.write_enable.next = self.we_rd.val();
            self.ram_rpsn.write_address.next = self.flow.val();
            self.ram_rpsn.write_data.next = self.w_rpsn.val();
        }
        // The index copies follow `fl`'s write.
        self.rd_ix.write_enable.next = self.ram_fl.write_enable.val();
        self.rd_ix.write_address.next = self.ram_fl.write_address.val();
        self.rd_ix.write_data.next = self.ram_fl.write_data.val().get_bits::<3>(4);
        self.rd_ix_in.write_enable.next = self.ram_fl.write_enable.val();
        self.rd_ix_in.write_address.next = self.ram_fl.write_address.val();
        self.rd_ix_in.write_data.next = self.ram_fl.write_data.val().get_bits::<3>(4);
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
        if self.arm.val() {
            self.u_flow.d.next = self.flow.val();
            self.u_fl.d.next = self.c_fl.q.val();
            self.u_epsn.d.next = self.c_epsn.q.val();
            self.u_msn.d.next = self.c_msn.q.val();
            self.u_wva.d.next = self.c_wva.q.val();
            self.u_wleft.d.next = self.c_wleft.q.val();
            self.u_radr.d.next = self.c_radr.q.val();
            self.u_rpsn.d.next = self.c_rpsn.q.val();
        }
        self.undo_held.next = (self.undo_v.q.val() || self.undo_pending.q.val());
        self.fl.next = self.c_fl.q.val();
        self.epsn.next = self.c_epsn.q.val();
        self.msn.next = self.c_msn.q.val();
        self.wva.next = self.c_wva.q.val();
        self.wleft.next = self.c_wleft.q.val();
        self.radr.next = self.c_radr.q.val();
        self.rpsn.next = self.c_rpsn.q.val();
        self.ent.next = self.c_ent.q.val();
    }
}
