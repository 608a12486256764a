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
//! Six [`Fifo`]s in lockstep, each holding some of the record's fields
//! (the same pushes and pops, so the same timing): a record pushed into
//! an empty queue is at the head 3 cycles later; one pop a cycle is
//! sustained. `desc_full` is a register of the count of records held
//! (pushed and not yet taken).
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
    /// addr | va.
    q_addr: Fifo<128, L>,
    /// rkey | dlen | aeth | psn | opcode.
    q_ids: Fifo<128, L>,
    /// hdr | hop0, hop1 | hop2, hop3 | hop4.
    q_tlm: [Fifo<128, L>; 3],
    /// flow (16) | len (13) | ackreq | tlm.present.
    q_flow: Fifo<32, L>,
    count: DFF<Bits<16>>,
    full: DFF<Bit>,
    #[default(Constant::new(Bits::<16>::from(1u64 << L)))]
    k_cap: Constant<Bits<16>>,
    push: Signal<Local, Bit>,
    pop: Signal<Local, Bit>,
    count_next: Signal<Local, Bits<16>>,
    flow_word: Signal<Local, Bits<32>>,
}

impl<const A: usize, const L: usize> Logic for DescQueue<A, L> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, count, full);
        clock!(self, clock, q_addr, q_ids, q_flow);
        for k in 0..3 {
            self.q_tlm[k].clock.next = self.clock.val();
        }
        self.s_desc.ready.next = !self.full.q.val();
        self.desc_full.next = self.full.q.val();
        self.push.next = (self.s_desc.valid.val() && !self.full.q.val());
        self.pop.next = (self.q_flow.head_valid.val() && self.m_desc.ready.val());
        self.count_next.next = self.count.q.val();
        if (self.push.val() && !self.pop.val()) {
            self.count_next.next = (self.count.q.val() + 1);
        }
        if (!self.push.val() && self.pop.val()) {
            self.count_next.next = (self.count.q.val() - 1);
        }
        self.count.d.next = self.count_next.val();
        self.full.d.next = (self.count_next.val() == self.k_cap.val());
        // In: the record's fields into the six FIFOs.
        self.q_addr.push_data.next = (bit_cast::<128, 64>(self.s_desc.addr.val())
            | (bit_cast::<128, 64>(self.s_desc.va.val()) << 64));
        self.q_ids.push_data.next = ((((bit_cast::<128, 32>(self.s_desc.rkey.val())
            | (bit_cast::<128, 32>(self.s_desc.dlen.val()) << 32))
            | (bit_cast::<128, 32>(self.s_desc.aeth.val()) << 64))
            | (bit_cast::<128, 24>(self.s_desc.psn.val()) << 96))
            | (bit_cast::<128, 8>(self.s_desc.opcode.val()) << 120));
        self.q_tlm[0].push_data.next = (bit_cast::<128, 64>(self.s_desc.tlm.hdr.val())
            | (bit_cast::<128, 64>(self.s_desc.tlm.hop0.val()) << 64));
        self.q_tlm[1].push_data.next = (bit_cast::<128, 64>(self.s_desc.tlm.hop1.val())
            | (bit_cast::<128, 64>(self.s_desc.tlm.hop2.val()) << 64));
        self.q_tlm[2].push_data.next = (bit_cast::<128, 64>(self.s_desc.tlm.hop3.val())
            | (bit_cast::<128, 64>(self.s_desc.tlm.hop4.val()) << 64));
        self.flow_word.next = (bit_cast::<32, A>(self.s_desc.flow.val())
            | (bit_cast::<32, 13>(self.s_desc.len.val()) << 16));
        self.flow_word.next = self
            .flow_word
            .val()
            .replace_bit(29, self.s_desc.ackreq.val());
        self.flow_word.next = self
            .flow_word
            .val()
            .replace_bit(30, self.s_desc.tlm.present.val());
        self.q_flow.push_data.next = self.flow_word.val();
        self.q_addr.push.next = self.push.val();
        self.q_ids.push.next = self.push.val();
        self.q_flow.push.next = self.push.val();
        self.q_addr.pop.next = self.pop.val();
        self.q_ids.pop.next = self.pop.val();
        self.q_flow.pop.next = self.pop.val();
        for k in 0..3 {
            self.q_tlm[k].push.next = self.push.val();
            self.q_tlm[k].pop.next = self.pop.val();
        }
        // Out: the head's fields.
        self.m_desc.valid.next = self.q_flow.head_valid.val();
        self.m_desc.addr.next = self.q_addr.head_data.val().get_bits::<64>(0);
        self.m_desc.va.next = self.q_addr.head_data.val().get_bits::<64>(64);
        self.m_desc.rkey.next = self.q_ids.head_data.val().get_bits::<32>(0);
        self.m_desc.dlen.next = self.q_ids.head_data.val().get_bits::<32>(32);
        self.m_desc.aeth.next = self.q_ids.head_data.val().get_bits::<32>(64);
        self.m_desc.psn.next = self.q_ids.head_data.val().get_bits::<24>(96);
        self.m_desc.opcode.next = self.q_ids.head_data.val().get_bits::<8>(120);
        self.m_desc.tlm.hdr.next = self.q_tlm[0].head_data.val().get_bits::<64>(0);
        self.m_desc.tlm.hop0.next = self.q_tlm[0].head_data.val().get_bits::<64>(64);
        self.m_desc.tlm.hop1.next = self.q_tlm[1].head_data.val().get_bits::<64>(0);
        self.m_desc.tlm.hop2.next = self.q_tlm[1].head_data.val().get_bits::<64>(64);
        self.m_desc.tlm.hop3.next = self.q_tlm[2].head_data.val().get_bits::<64>(0);
        self.m_desc.tlm.hop4.next = self.q_tlm[2].head_data.val().get_bits::<64>(64);
        self.m_desc.flow.next = self.q_flow.head_data.val().get_bits::<A>(0);
        self.m_desc.len.next = self.q_flow.head_data.val().get_bits::<13>(16);
        self.m_desc.ackreq.next = self.q_flow.head_data.val().get_bit(29);
        self.m_desc.tlm.present.next = self.q_flow.head_data.val().get_bit(30);
    }
}
