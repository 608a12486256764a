//! `AckCoalesce`: the responder's ACKs wait here for the Tx, one slot per
//! flow, so the receive path never waits on the transmit path
//! (`docs/architecture.md` §5h, issue 50).
//!
//! # What it does
//! An ACK or NAK (`AckInfo`) is always taken. It goes into its flow's
//! slot; the flows with a filled slot wait in arrival order for the Tx
//! arbiter. An ACK whose flow's slot is still full *replaces* the one
//! waiting there (counted in `coalesced`): ACK and NAK are cumulative
//! (an ACK of PSN p acknowledges every PSN up to p; a NAK of PSN p
//! acknowledges up to p − 1 and asks for p again), so the newest answer
//! says all the older one said, and it carries the newest telemetry.
//! When the Tx takes ACKs as fast as they come, none is replaced and one
//! goes out per packet that asked for one.
//!
//! # Ports (clock `clock`; no reset: a slot filled before a reset is sent
//! after it, like an ACK waiting in the Tx arbiter)
//! - `s_ack` (`AckInfo`, from the dispatcher through the NewINT tap):
//!   `ready` is always 1.
//! - `m_ack` (`AckInfo`, to the Tx arbiter): valid, flow, PSN, AETH and
//!   telemetry are registers (held while not valid).
//! - `coalesced` (32 bits, wrapping): ACKs replaced by a newer one of the
//!   same flow before they were sent.
//! - `open` (from `TxArb.ctl_open`): the Tx arbiter's control budget
//!   lets a control frame go. The head is read into the output register
//!   only then, so while the budget holds the ACKs back they coalesce in
//!   their slots and the one sent is the newest of its flow.
//!
//! # Structure and timing
//! - Input register slice (`i_*`): the record as taken, with whether its
//!   flow is queued already (its flag, and whether the taking cycle
//!   pushes or pops its flow: three registers side by side).
//! - Slot table: the record's words in block RAM at the flow's address
//!   (PSN, AETH and the T bit in one word; the six telemetry words), a
//!   flag per flow (`queued`, a register of 2^A ≤ 256 bits), and the
//!   order of the queued flows in a [`Fifo`] of 2^A entries (each flow is
//!   in it at most once).
//! - Out: the FIFO's head is popped when the output register is empty,
//!   no read is in flight, `open` is high and the input register is
//!   empty: a record there writes its flow's slot in that cycle, which
//!   may be the head's, and the RAM has no read-during-write bypass.
//!   (Comparing the two flows instead put an A-bit compare before the
//!   pop and the head's select: the block's path. Records come at most
//!   one a packet, so the pop waits a cycle at most, now and then.) The
//!   slot's words, read from the RAM's registered output, load the
//!   output register the cycle after.
//! - Latency: an ACK taken in cycle t is on `m_ack` in t + 6 when the
//!   block is idle. Throughput: one ACK every 3 cycles with `m_ack.ready`
//!   high (a Tx frame takes at least 8).
//! - So an ACK waits for the Tx at most the frame in flight plus the
//!   control frames queued before it (one per other flow at most).
//!
//! # Bad input
//! None is possible: any flow id of A bits has a slot.
//!
//! Golden twin: `nic_golden::nic::ack_coalesce`.

use crate::mem::{Fifo, Ram};
use crate::roce::{AckInfoSink, AckInfoSource};
use rust_hdl::prelude::*;
use smart_default::SmartDefault;

#[derive(LogicBlock, SmartDefault)]
pub struct AckCoalesce<const A: usize> {
    pub clock: Signal<In, Clock>,
    pub s_ack: AckInfoSink<A>,
    pub m_ack: AckInfoSource<A>,
    pub coalesced: Signal<Out, Bits<32>>,
    /// The Tx arbiter's control budget lets an ACK go (`TxArb.ctl_open`).
    pub open: Signal<In, Bit>,
    // Input slice.
    i_v: DFF<Bit>,
    i_flow: DFF<Bits<A>>,
    i_psn: DFF<Bits<24>>,
    i_aeth: DFF<Bits<32>>,
    i_tlm: DFF<Bit>,
    i_words: [DFF<Bits<64>>; 6],
    /// Whether the record's flow is queued already (its slot waits),
    /// decided as the record is taken, from the flags as this cycle leaves
    /// them, in three registers side by side (R4): its flag as this cycle
    /// starts (`i_sel`, a select of one in 2^A straight into a register),
    /// this cycle's push of its flow (`i_fpush`) and this cycle's pop of
    /// it (`i_fpop`). `hit` = (`i_sel` or `i_fpush`) and not `i_fpop`.
    i_sel: DFF<Bit>,
    i_fpush: DFF<Bit>,
    i_fpop: DFF<Bit>,
    // Slot table.
    queued: DFF<Bits<256>>,
    order: Fifo<A, A>,
    // The slot RAMs' reads go into the output register with only a
    // select after it: their read registers are packed into the block
    // RAMs (`Ram::with_output_register`, rule R3).
    #[default(Ram::default().with_output_register())]
    ram_pa: Ram<Bits<57>, A>,
    #[default(std::array::from_fn(|_| Ram::default().with_output_register()))]
    ram_tlm: [Ram<Bits<64>, A>; 6],
    // Read in flight, output register.
    rd_v: DFF<Bit>,
    rd_flow: DFF<Bits<A>>,
    o_v: DFF<Bit>,
    o_flow: DFF<Bits<A>>,
    o_pa: DFF<Bits<57>>,
    o_words: [DFF<Bits<64>>; 6],
    n_coal: DFF<Bits<32>>,
    pa_word: Signal<Local, Bits<57>>,
    flags_set: Signal<Local, Bits<256>>,
    hit: Signal<Local, Bit>,
    pop: Signal<Local, Bit>,
    taken: Signal<Local, Bit>,
}

impl<const A: usize> Logic for AckCoalesce<A> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, i_v, i_flow, i_psn, i_aeth, i_tlm, i_sel, i_fpush, i_fpop, queued, rd_v,
            rd_flow, o_v, o_flow, o_pa, n_coal
        );
        clock!(self, clock, order, ram_pa);
        for k in 0..6 {
            self.i_words[k].clock.next = self.clock.val();
            self.i_words[k].d.next = self.i_words[k].q.val();
            self.o_words[k].clock.next = self.clock.val();
            self.o_words[k].d.next = self.o_words[k].q.val();
            self.ram_tlm[k].clock.next = self.clock.val();
        }
        // ---- In: always taken, registered.
        self.s_ack.ready.next = true;
        self.i_v.d.next = self.s_ack.valid.val();
        if self.s_ack.valid.val() {
            self.i_flow.d.next = self.s_ack.flow.val();
            self.i_psn.d.next = self.s_ack.psn.val();
            self.i_aeth.d.next = self.s_ack.aeth.val();
            self.i_tlm.d.next = self.s_ack.tlm.present.val();
            self.i_words[0].d.next = self.s_ack.tlm.hdr.val();
            self.i_words[1].d.next = self.s_ack.tlm.hop0.val();
            self.i_words[2].d.next = self.s_ack.tlm.hop1.val();
            self.i_words[3].d.next = self.s_ack.tlm.hop2.val();
            self.i_words[4].d.next = self.s_ack.tlm.hop3.val();
            self.i_words[5].d.next = self.s_ack.tlm.hop4.val();
        }
        // ---- The slot: written, and the flow queued unless it already is.
        self.hit.next = ((self.i_sel.q.val() || self.i_fpush.q.val()) && !self.i_fpop.q.val());
        self.ram_pa.write_enable.next = self.i_v.q.val();
        self.ram_pa.write_address.next = self.i_flow.q.val();
        self.pa_word.next = (bit_cast::<57, 24>(self.i_psn.q.val())
            | (bit_cast::<57, 32>(self.i_aeth.q.val()) << 24));
        self.pa_word.next = self.pa_word.val().replace_bit(56, self.i_tlm.q.val());
        self.ram_pa.write_data.next = self.pa_word.val();
        for k in 0..6 {
            self.ram_tlm[k].write_enable.next = self.i_v.q.val();
            self.ram_tlm[k].write_address.next = self.i_flow.q.val();
            self.ram_tlm[k].write_data.next = self.i_words[k].q.val();
        }
        self.order.push.next = (self.i_v.q.val() && !self.hit.val());
        self.order.push_data.next = self.i_flow.q.val();
        if (self.i_v.q.val() && self.hit.val()) {
            self.n_coal.d.next = (self.n_coal.q.val() + 1);
        }
        // ---- Out: pop the oldest queued flow and read its slot.
        self.taken.next = (self.o_v.q.val() && self.m_ack.ready.val());
        self.pop.next = (self.order.head_valid.val()
            && !self.rd_v.q.val()
            && !self.o_v.q.val()
            && self.open.val()
            && !self.i_v.q.val());
        self.order.pop.next = self.pop.val();
        self.ram_pa.read_address.next = self.order.head_data.val();
        for k in 0..6 {
            self.ram_tlm[k].read_address.next = self.order.head_data.val();
        }
        self.rd_v.d.next = self.pop.val();
        // The flag of the incoming record's flow after this cycle: set by
        // this cycle's push of it, cleared by this cycle's pop of it (never
        // both: see below).
        self.i_sel.d.next = self.queued.q.val().get_bit(self.s_ack.flow.val().index());
        self.i_fpush.d.next =
            (self.i_v.q.val() && !self.hit.val() && (self.i_flow.q.val() == self.s_ack.flow.val()));
        self.i_fpop.d.next =
            (self.pop.val() && (self.order.head_data.val() == self.s_ack.flow.val()));
        if self.pop.val() {
            self.rd_flow.d.next = self.order.head_data.val();
        }
        // The flags: the input's flow set (again, if it waits already: `hit`
        // is its flag, so `hit` stays off these 2^A bits), the popped one
        // cleared (never in one cycle: a pop waits while a record is in
        // the input register).
        self.flags_set.next = self.queued.q.val();
        if self.i_v.q.val() {
            self.flags_set.next = self
                .queued
                .q
                .val()
                .replace_bit(self.i_flow.q.val().index(), true);
        }
        self.queued.d.next = self.flags_set.val();
        if self.pop.val() {
            self.queued.d.next = self
                .flags_set
                .val()
                .replace_bit(self.order.head_data.val().index(), false);
        }
        if self.taken.val() {
            self.o_v.d.next = false;
        }
        if self.rd_v.q.val() {
            self.o_v.d.next = true;
            self.o_flow.d.next = self.rd_flow.q.val();
            self.o_pa.d.next = self.ram_pa.read_data.val();
            for k in 0..6 {
                self.o_words[k].d.next = self.ram_tlm[k].read_data.val();
            }
        }
        self.m_ack.valid.next = self.o_v.q.val();
        self.m_ack.flow.next = self.o_flow.q.val();
        self.m_ack.psn.next = self.o_pa.q.val().get_bits::<24>(0);
        self.m_ack.aeth.next = self.o_pa.q.val().get_bits::<32>(24);
        self.m_ack.tlm.present.next = self.o_pa.q.val().get_bit(56);
        self.m_ack.tlm.hdr.next = self.o_words[0].q.val();
        self.m_ack.tlm.hop0.next = self.o_words[1].q.val();
        self.m_ack.tlm.hop1.next = self.o_words[2].q.val();
        self.m_ack.tlm.hop2.next = self.o_words[3].q.val();
        self.m_ack.tlm.hop3.next = self.o_words[4].q.val();
        self.m_ack.tlm.hop4.next = self.o_words[5].q.val();
        self.coalesced.next = self.n_coal.q.val();
    }
}
