//! `FbQueue`: the feedback the dispatcher hands the requester (received
//! ACKs, NAKs, READ responses, NOTIFYs: `CcFeedback`) waits here, so the
//! receive path goes on with the next packets while the requester
//! finishes an operation of its own (`docs/architecture.md` §5h, issue
//! 50).
//!
//! # What it does
//! A FIFO of 2^L `CcFeedback` records (`nic_spec::roce::FB_QUEUE_LOG2` = 4
//! in the core: 16 records), between the dispatcher's `m_cc` and
//! `NotifyRx`. Before it, the dispatcher held the next packet whenever the
//! requester was inside an operation (it takes feedback only between
//! operations): in the line-rate benchmark's runs, a quarter of the
//! cycles in which a packet waited for the dispatcher. It waits now only
//! while 2^L records are held: a bounded wait, never a drop.
//!
//! # Ports (clock `clock`; no reset: the core's reset does not reach the
//! feedback path either)
//! - `s_fb` (`CcFeedback`, from the dispatcher): `ready` = fewer than 2^L
//!   held (a register: never derived from the record).
//! - `m_fb` (`CcFeedback`, to `NotifyRx`): the head, valid and fields
//!   registered (fields 0 while not valid).
//! - `high_water`: the most records held at once since power-up
//!   (registered).
//!
//! # Structure and timing
//! One [`Fifo`] of the record packed into a 512-bit word (`flow`
//! A − 1..0, `psn` 39..16, `aeth` 71..40, `opcode` 79..72,
//! `tlm.present` 80, `tlm.hdr` 191..128, `tlm.hop0..4` 511..192), so one
//! set of pointers and counts serves every field (four FIFOs in lockstep
//! held the fields before, each with its own). A record pushed into an
//! empty queue is at the head 3 cycles later; one pop a cycle is
//! sustained. `ready` is a register of the count of records held, its
//! next value from a compare on the count register beside the push and
//! the pop, not after them.
//!
//! # Bad input
//! None: a record offered while full is not taken (`ready` low).
//!
//! Golden twin: `nic_golden::nic::fb_queue`.

use crate::mem::Fifo;
use crate::roce::{CcFeedbackSink, CcFeedbackSource};
use rust_hdl::prelude::*;
use smart_default::SmartDefault;

#[derive(LogicBlock, SmartDefault)]
pub struct FbQueue<const A: usize, const L: usize> {
    // The parameter check, when the block is built.
    #[default({
        assert!(A <= 16 && L <= 15, "FbQueue: A <= 16, L <= 15");
        Default::default()
    })]
    pub clock: Signal<In, Clock>,
    pub s_fb: CcFeedbackSink<A>,
    pub m_fb: CcFeedbackSource<A>,
    pub high_water: Signal<Out, Bits<16>>,
    /// The packed record (module comment).
    q: Fifo<512, L>,
    count: DFF<Bits<16>>,
    full: DFF<Bit>,
    most: DFF<Bits<16>>,
    #[default(Constant::new(Bits::<16>::from((1u64 << L) - 1)))]
    k_cap_m1: Constant<Bits<16>>,
    at_cap_m1: Signal<Local, Bit>,
    push: Signal<Local, Bit>,
    pop: Signal<Local, Bit>,
    count_next: Signal<Local, Bits<16>>,
    word: Signal<Local, Bits<512>>,
}

impl<const A: usize, const L: usize> Logic for FbQueue<A, L> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, count, full, most);
        clock!(self, clock, q);
        self.s_fb.ready.next = !self.full.q.val();
        self.push.next = (self.s_fb.valid.val() && !self.full.q.val());
        self.pop.next = (self.q.head_valid.val() && self.m_fb.ready.val());
        self.count_next.next = self.count.q.val();
        if (self.push.val() && !self.pop.val()) {
            self.count_next.next = (self.count.q.val() + 1);
        }
        if (!self.push.val() && self.pop.val()) {
            self.count_next.next = (self.count.q.val() - 1);
        }
        self.count.d.next = self.count_next.val();
        // Full next: a push without a pop at 2^L − 1 records, or full and
        // no pop (a full queue takes no push).
        self.at_cap_m1.next = (self.count.q.val() == self.k_cap_m1.val());
        self.full.d.next = (((self.push.val() && !self.pop.val()) && self.at_cap_m1.val())
            || (self.full.q.val() && !self.pop.val()));
        if (self.count.q.val() > self.most.q.val()) {
            self.most.d.next = self.count.q.val();
        }
        self.high_water.next = self.most.q.val();
        // In: the record's fields packed into one word.
        self.word.next = (((bit_cast::<512, A>(self.s_fb.flow.val())
            | (bit_cast::<512, 24>(self.s_fb.psn.val()) << 16))
            | (bit_cast::<512, 32>(self.s_fb.aeth.val()) << 40))
            | (bit_cast::<512, 8>(self.s_fb.opcode.val()) << 72));
        self.word.next = (((self.word.val()
            | (bit_cast::<512, 64>(self.s_fb.tlm.hdr.val()) << 128))
            | (bit_cast::<512, 64>(self.s_fb.tlm.hop0.val()) << 192))
            | (bit_cast::<512, 64>(self.s_fb.tlm.hop1.val()) << 256));
        self.word.next = (((self.word.val()
            | (bit_cast::<512, 64>(self.s_fb.tlm.hop2.val()) << 320))
            | (bit_cast::<512, 64>(self.s_fb.tlm.hop3.val()) << 384))
            | (bit_cast::<512, 64>(self.s_fb.tlm.hop4.val()) << 448));
        self.q.push_data.next = self.word.val().replace_bit(80, self.s_fb.tlm.present.val());
        self.q.push.next = self.push.val();
        self.q.pop.next = self.pop.val();
        // Out: the head's fields.
        self.m_fb.valid.next = self.q.head_valid.val();
        self.m_fb.flow.next = self.q.head_data.val().get_bits::<A>(0);
        self.m_fb.psn.next = self.q.head_data.val().get_bits::<24>(16);
        self.m_fb.aeth.next = self.q.head_data.val().get_bits::<32>(40);
        self.m_fb.opcode.next = self.q.head_data.val().get_bits::<8>(72);
        self.m_fb.tlm.present.next = self.q.head_data.val().get_bit(80);
        self.m_fb.tlm.hdr.next = self.q.head_data.val().get_bits::<64>(128);
        self.m_fb.tlm.hop0.next = self.q.head_data.val().get_bits::<64>(192);
        self.m_fb.tlm.hop1.next = self.q.head_data.val().get_bits::<64>(256);
        self.m_fb.tlm.hop2.next = self.q.head_data.val().get_bits::<64>(320);
        self.m_fb.tlm.hop3.next = self.q.head_data.val().get_bits::<64>(384);
        self.m_fb.tlm.hop4.next = self.q.head_data.val().get_bits::<64>(448);
    }
}
