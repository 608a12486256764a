//! `ReadQueue`: the READ requests the dispatcher accepts wait here for
//! the READ responder, so the receive path goes on with the next packets
//! while the responder sends one READ's responses (`docs/architecture.md`
//! §5h, issue 50).
//!
//! # What it does
//! A FIFO of 2^L `ReadReq` records (`nic_spec::roce::READ_QUEUE_LOG2` = 4
//! in the core: 16 requests). The dispatcher waits only while 2^L are
//! held (its `m_rdreq` not taken): a bounded wait, never a drop.
//!
//! # Ports (clock `clock`; no reset: the core's reset does not reach its
//! request path either)
//! - `s_rdreq` (`ReadReq`, from the dispatcher): `ready` = fewer than 2^L
//!   held (a register: never derived from the record).
//! - `m_rdreq` (`ReadReq`, to `ReadResp`): the head, valid and fields
//!   registered (fields 0 while not valid).
//!
//! # Structure and timing
//! Two [`Fifo`]s in lockstep (the VA; the other fields): a request pushed
//! into an empty queue is at the head 3 cycles later; one pop a cycle is
//! sustained. `ready` is a register of the count of records held.
//!
//! # Bad input
//! None: a record offered while full is not taken (`ready` low).
//!
//! Golden twin: `nic_golden::nic::read_queue`.

use crate::mem::Fifo;
use crate::roce::{ReadReqSink, ReadReqSource};
use rust_hdl::prelude::*;
use smart_default::SmartDefault;

#[derive(LogicBlock, SmartDefault)]
pub struct ReadQueue<const A: usize, const L: usize> {
    // The parameter check, when the block is built.
    #[default({
        assert!(A <= 16 && L <= 15, "ReadQueue: A <= 16, L <= 15");
        Default::default()
    })]
    pub clock: Signal<In, Clock>,
    pub s_rdreq: ReadReqSink<A>,
    pub m_rdreq: ReadReqSource<A>,
    /// va.
    q_va: Fifo<64, L>,
    /// rkey (32) | len (32) | psn (24) | msn (24) | flow (16).
    q_ids: Fifo<128, L>,
    count: DFF<Bits<16>>,
    full: DFF<Bit>,
    #[default(Constant::new(Bits::<16>::from(1u64 << L)))]
    k_cap: Constant<Bits<16>>,
    push: Signal<Local, Bit>,
    pop: Signal<Local, Bit>,
    count_next: Signal<Local, Bits<16>>,
}

impl<const A: usize, const L: usize> Logic for ReadQueue<A, L> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, count, full);
        clock!(self, clock, q_va, q_ids);
        self.s_rdreq.ready.next = !self.full.q.val();
        self.push.next = (self.s_rdreq.valid.val() && !self.full.q.val());
        self.pop.next = (self.q_ids.head_valid.val() && self.m_rdreq.ready.val());
        self.count_next.next = self.count.q.val();
        if (self.push.val() && !self.pop.val()) {
            self.count_next.next = (self.count.q.val() + 1);
        }
        if (!self.push.val() && self.pop.val()) {
            self.count_next.next = (self.count.q.val() - 1);
        }
        self.count.d.next = self.count_next.val();
        self.full.d.next = (self.count_next.val() == self.k_cap.val());
        // In: the record's fields into the two FIFOs.
        self.q_va.push_data.next = self.s_rdreq.va.val();
        self.q_ids.push_data.next = ((((bit_cast::<128, 32>(self.s_rdreq.rkey.val())
            | (bit_cast::<128, 32>(self.s_rdreq.len.val()) << 32))
            | (bit_cast::<128, 24>(self.s_rdreq.psn.val()) << 64))
            | (bit_cast::<128, 24>(self.s_rdreq.msn.val()) << 88))
            | (bit_cast::<128, A>(self.s_rdreq.flow.val()) << 112));
        self.q_va.push.next = self.push.val();
        self.q_ids.push.next = self.push.val();
        self.q_va.pop.next = self.pop.val();
        self.q_ids.pop.next = self.pop.val();
        // Out: the head's fields.
        self.m_rdreq.valid.next = self.q_ids.head_valid.val();
        self.m_rdreq.va.next = self.q_va.head_data.val();
        self.m_rdreq.rkey.next = self.q_ids.head_data.val().get_bits::<32>(0);
        self.m_rdreq.len.next = self.q_ids.head_data.val().get_bits::<32>(32);
        self.m_rdreq.psn.next = self.q_ids.head_data.val().get_bits::<24>(64);
        self.m_rdreq.msn.next = self.q_ids.head_data.val().get_bits::<24>(88);
        self.m_rdreq.flow.next = self.q_ids.head_data.val().get_bits::<A>(112);
    }
}
