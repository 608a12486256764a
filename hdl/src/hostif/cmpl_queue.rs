//! `CmplQueue`: the core's completions (`WrCompletion`, one per work
//! request the requester ends) wait here for the send-queue engine, so
//! the requester goes on with its next operation (`docs/architecture.md`
//! §5h, issue 50).
//!
//! # What it does
//! A FIFO of 2^L `WrCompletion` records (`nic_spec::hostif::CMPL_QUEUE_LOG2`
//! = 3 in `hpcc_nic`: 8 completions), between the host interface's
//! `s_cmpl` and `SqEngine`. The engine takes one event every 4 cycles and a
//! completion only in its last stage; before the queue, the requester sat
//! in each ACK that completed work until then (4.4 cycles an ACK on 64
//! flows of 64-byte WRITEs, which held the whole NIC to 0.963 of the line
//! one way, against the core's 1.000). The requester now waits only while
//! 2^L completions are held: a bounded wait, never a drop.
//!
//! # Ports (clock `clock`; no reset: the core's reset does not reach the
//! completion path either)
//! - `s_cmpl` (`WrCompletion`, from the core): `ready` = fewer than 2^L
//!   held (a register: never derived from the record).
//! - `m_cmpl` (`WrCompletion`, to `SqEngine`): the head, valid and fields
//!   registered (fields 0 while not valid).
//!
//! # Structure and timing
//! One [`Fifo`] of the record's 88 bits: a completion pushed into an empty
//! queue is at the head 3 cycles later; one pop a cycle is sustained.
//! `ready` is a register of the count of records held.
//!
//! # Bad input
//! None: a record offered while full is not taken (`ready` low). Its
//! fields pass unchanged; `SqEngine` checks the flow id.
//!
//! Golden twin: `nic_golden::hostif::cmpl_queue`.

use crate::mem::Fifo;
use crate::roce::{WrCompletionSink, WrCompletionSource};
use rust_hdl::prelude::*;
use smart_default::SmartDefault;

#[derive(LogicBlock, SmartDefault)]
pub struct CmplQueue<const L: usize> {
    // The parameter check, when the block is built.
    #[default({
        assert!(L <= 15, "CmplQueue: L <= 15");
        Default::default()
    })]
    pub clock: Signal<In, Clock>,
    pub s_cmpl: WrCompletionSink,
    pub m_cmpl: WrCompletionSource,
    /// flow (16) | tag (32) | status (8) | bytes (32).
    q: Fifo<88, L>,
    count: DFF<Bits<16>>,
    full: DFF<Bit>,
    #[default(Constant::new(Bits::<16>::from(1u64 << L)))]
    k_cap: Constant<Bits<16>>,
    push: Signal<Local, Bit>,
    pop: Signal<Local, Bit>,
    count_next: Signal<Local, Bits<16>>,
}

impl<const L: usize> Logic for CmplQueue<L> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, count, full);
        clock!(self, clock, q);
        self.s_cmpl.ready.next = !self.full.q.val();
        self.push.next = (self.s_cmpl.valid.val() && !self.full.q.val());
        self.pop.next = (self.q.head_valid.val() && self.m_cmpl.ready.val());
        self.count_next.next = self.count.q.val();
        if (self.push.val() && !self.pop.val()) {
            self.count_next.next = (self.count.q.val() + 1);
        }
        if (!self.push.val() && self.pop.val()) {
            self.count_next.next = (self.count.q.val() - 1);
        }
        self.count.d.next = self.count_next.val();
        self.full.d.next = (self.count_next.val() == self.k_cap.val());
        // In: the record's fields into one word.
        self.q.push_data.next = (((bit_cast::<88, 16>(self.s_cmpl.flow.val())
            | (bit_cast::<88, 32>(self.s_cmpl.tag.val()) << 16))
            | (bit_cast::<88, 8>(self.s_cmpl.status.val()) << 48))
            | (bit_cast::<88, 32>(self.s_cmpl.bytes.val()) << 56));
        self.q.push.next = self.push.val();
        self.q.pop.next = self.pop.val();
        // Out: the head's fields.
        self.m_cmpl.valid.next = self.q.head_valid.val();
        self.m_cmpl.flow.next = self.q.head_data.val().get_bits::<16>(0);
        self.m_cmpl.tag.next = self.q.head_data.val().get_bits::<32>(16);
        self.m_cmpl.status.next = self.q.head_data.val().get_bits::<8>(48);
        self.m_cmpl.bytes.next = self.q.head_data.val().get_bits::<32>(56);
    }
}
