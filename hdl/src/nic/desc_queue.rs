//! `DescQueue`: the requester's Tx descriptors wait here for the Tx
//! arbiter, so the requester goes back to its inputs (feedback, NAKs,
//! timers) instead of waiting on the Tx for each frame
//! (`docs/architecture.md` §5h, issue 50).
//!
//! # What it does
//! A FIFO of 2^L `TxDesc` records. It tells the requester, in
//! `desc_full`, when it holds 2^L of them; the requester then takes no
//! PktSend and cuts the one it is cutting into segments (a TRIM to the
//! scheduler, which sends the rest later), so it never waits on a full
//! queue.
//!
//! # Ports (clock `clock`; no reset, like the requester)
//! - `s_desc` (`TxDesc`, from the requester): `ready` = !`desc_full`.
//! - `m_desc` (`TxDesc`, to the Tx arbiter): the head, valid and fields
//!   registered (fields 0 while not valid).
//! - `desc_full`: the queue holds 2^L records (a register).
//!
//! # Structure and timing
//! One [`Fifo`] of the record packed into a 672-bit word (`addr` 63..0,
//! `va` 127..64, `rkey` 159..128, `dlen` 191..160, `aeth` 223..192,
//! `psn` 247..224, `opcode` 255..248, `tlm.hdr` 319..256, `tlm.hop0..4`
//! 639..320, `flow` 640 + A − 1..640, `len` 668..656, `ackreq` 669,
//! `tlm.present` 670), so one set of pointers and counts serves every
//! field and a push reaches one FIFO's control (the six FIFOs in lockstep
//! that held the fields before had six, placed apart: the path was the
//! push fanning out to their counts). A record pushed into an empty queue
//! is at the head 3 cycles later; one pop a cycle is sustained.
//! `desc_full` is a register of the count of records held (pushed and
//! not yet taken).
//!
//! # Bad input
//! None: a record offered while full is not taken (`ready` low).
//!
//! Golden twin: `nic_golden::nic::desc_queue`.

use crate::mem::Fifo;
use crate::roce::{TxDescSink, TxDescSource};
use rust_hdl::prelude::*;
use smart_default::SmartDefault;

#[derive(LogicBlock, SmartDefault)]
pub struct DescQueue<const A: usize, const L: usize> {
    // The parameter check, when the block is built.
    #[default({
        assert!(A <= 16 && L <= 15, "DescQueue: A <= 16, L <= 15");
        Default::default()
    })]
    pub clock: Signal<In, Clock>,
    pub s_desc: TxDescSink<A>,
    pub m_desc: TxDescSource<A>,
    pub desc_full: Signal<Out, Bit>,
    /// The packed record (module comment).
    q: Fifo<672, L>,
    count: DFF<Bits<16>>,
    full: DFF<Bit>,
    #[default(Constant::new(Bits::<16>::from((1u64 << L) - 1)))]
    k_cap_m1: Constant<Bits<16>>,
    at_cap_m1: Signal<Local, Bit>,
    push: Signal<Local, Bit>,
    pop: Signal<Local, Bit>,
    count_next: Signal<Local, Bits<16>>,
    word: Signal<Local, Bits<672>>,
}

impl<const A: usize, const L: usize> Logic for DescQueue<A, L> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, count, full);
        clock!(self, clock, q);
        self.s_desc.ready.next = !self.full.q.val();
        self.desc_full.next = self.full.q.val();
        self.push.next = (self.s_desc.valid.val() && !self.full.q.val());
        self.pop.next = (self.q.head_valid.val() && self.m_desc.ready.val());
        self.count_next.next = self.count.q.val();
        if (self.push.val() && !self.pop.val()) {
            self.count_next.next = (self.count.q.val() + 1);
        }
        if (!self.push.val() && self.pop.val()) {
            self.count_next.next = (self.count.q.val() - 1);
        }
        self.count.d.next = self.count_next.val();
        // Full next: a push without a pop at 2^L − 1 records, or full and
        // no pop (a full queue takes no push). The compare is on the count
        // register, beside the push and the pop, not after their select.
        self.at_cap_m1.next = (self.count.q.val() == self.k_cap_m1.val());
        self.full.d.next = (((self.push.val() && !self.pop.val()) && self.at_cap_m1.val())
            || (self.full.q.val() && !self.pop.val()));
        // In: the record's fields packed into one word.
        self.word.next = (((((bit_cast::<672, 64>(self.s_desc.addr.val())
            | (bit_cast::<672, 64>(self.s_desc.va.val()) << 64))
            | (bit_cast::<672, 32>(self.s_desc.rkey.val()) << 128))
            | (bit_cast::<672, 32>(self.s_desc.dlen.val()) << 160))
            | (bit_cast::<672, 32>(self.s_desc.aeth.val()) << 192))
            | ((bit_cast::<672, 24>(self.s_desc.psn.val()) << 224)
                | (bit_cast::<672, 8>(self.s_desc.opcode.val()) << 248)));
        self.word.next = ((((self.word.val()
            | (bit_cast::<672, 64>(self.s_desc.tlm.hdr.val()) << 256))
            | (bit_cast::<672, 64>(self.s_desc.tlm.hop0.val()) << 320))
            | (bit_cast::<672, 64>(self.s_desc.tlm.hop1.val()) << 384))
            | (bit_cast::<672, 64>(self.s_desc.tlm.hop2.val()) << 448));
        self.word.next = ((((self.word.val()
            | (bit_cast::<672, 64>(self.s_desc.tlm.hop3.val()) << 512))
            | (bit_cast::<672, 64>(self.s_desc.tlm.hop4.val()) << 576))
            | (bit_cast::<672, A>(self.s_desc.flow.val()) << 640))
            | (bit_cast::<672, 13>(self.s_desc.len.val()) << 656));
        self.word.next = self.word.val().replace_bit(669, self.s_desc.ackreq.val());
        self.word.next = self
            .word
            .val()
            .replace_bit(670, self.s_desc.tlm.present.val());
        self.q.push_data.next = self.word.val();
        self.q.push.next = self.push.val();
        self.q.pop.next = self.pop.val();
        // Out: the head's fields.
        self.m_desc.valid.next = self.q.head_valid.val();
        self.m_desc.addr.next = self.q.head_data.val().get_bits::<64>(0);
        self.m_desc.va.next = self.q.head_data.val().get_bits::<64>(64);
        self.m_desc.rkey.next = self.q.head_data.val().get_bits::<32>(128);
        self.m_desc.dlen.next = self.q.head_data.val().get_bits::<32>(160);
        self.m_desc.aeth.next = self.q.head_data.val().get_bits::<32>(192);
        self.m_desc.psn.next = self.q.head_data.val().get_bits::<24>(224);
        self.m_desc.opcode.next = self.q.head_data.val().get_bits::<8>(248);
        self.m_desc.tlm.hdr.next = self.q.head_data.val().get_bits::<64>(256);
        self.m_desc.tlm.hop0.next = self.q.head_data.val().get_bits::<64>(320);
        self.m_desc.tlm.hop1.next = self.q.head_data.val().get_bits::<64>(384);
        self.m_desc.tlm.hop2.next = self.q.head_data.val().get_bits::<64>(448);
        self.m_desc.tlm.hop3.next = self.q.head_data.val().get_bits::<64>(512);
        self.m_desc.tlm.hop4.next = self.q.head_data.val().get_bits::<64>(576);
        self.m_desc.flow.next = self.q.head_data.val().get_bits::<A>(640);
        self.m_desc.len.next = self.q.head_data.val().get_bits::<13>(656);
        self.m_desc.ackreq.next = self.q.head_data.val().get_bit(669);
        self.m_desc.tlm.present.next = self.q.head_data.val().get_bit(670);
    }
}
