//! The sender side of NewINT: a NOTIFY from the receiver carries W
//! (line 31); the sender paces at R = W/T (line 27) with window W.
//!
//! - `s_fb` (`CcFeedback`, from the dispatcher) enters the record's
//!   register slice (`CcFeedback::Slice`, timing rule R1: `s_fb.ready`
//!   is its flip-flop, never the opcode's compare). At the slice's head a
//!   NOTIFY (opcode 0xC1) is taken here; everything else passes to
//!   `m_fb` (the requester): one cycle later, one record a cycle, `m_fb`'s
//!   fields the slice's flip-flops.
//! - A NOTIFY with the W-valid flag and W ≠ 0 goes through [`Rate`]
//!   (R = W · ⌊2^s/T⌋ ≫ (s − 8), 5 cycles) and comes out as a strobe on
//!   `m_update` (`CcUpdate`: the flow, status UPDATE, W, R), which the
//!   event arbiter turns into the scheduler's UPDATE. A NOTIFY without a
//!   valid W is dropped and counted (`bad`).
//!
//! Counters `applied`, `bad` (32 bits, wrapping). Golden twin:
//! `nic_golden::nic::notify_rx`.

use crate::arith::Delay;
use crate::cc::rate::Rate;
use crate::cc::CcUpdateSource;
use crate::roce::{CcFeedback, CcFeedbackSink, CcFeedbackSource};
use nic_spec::roce::op;
use rust_hdl::prelude::*;
use smart_default::SmartDefault;

#[derive(LogicBlock, SmartDefault)]
pub struct NotifyRx<const A: usize> {
    pub clock: Signal<In, Clock>,
    pub cfg_inv_t_m: Signal<In, Bits<32>>,
    pub cfg_inv_t_s: Signal<In, Bits<8>>,
    pub s_fb: CcFeedbackSink<A>,
    pub m_fb: CcFeedbackSource<A>,
    pub m_update: CcUpdateSource,
    pub applied: Signal<Out, Bits<32>>,
    pub bad: Signal<Out, Bits<32>>,
    /// The feedback's register slice; its head is decided here.
    slice: CcFeedback::Slice<A>,
    rate: Rate,
    /// flow (16) and W (32) beside the rate.
    carry: Delay<48, 5>,
    n_applied: DFF<Bits<32>>,
    n_bad: DFF<Bits<32>>,
    #[default(Constant::new(Bits::<8>::from(op::NOTIFY as u64)))]
    k_notify: Constant<Bits<8>>,
    is_notify: Signal<Local, Bit>,
    good: Signal<Local, Bit>,
}

impl<const A: usize> Logic for NotifyRx<A> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, n_applied, n_bad);
        clock!(self, clock, slice, rate, carry);
        CcFeedbackSink::<A>::link(&mut self.s_fb, &mut self.slice.s);
        self.is_notify.next = (self.slice.m.opcode.val() == self.k_notify.val());
        self.good.next = (self.slice.m.tlm.hdr.val().get_bit(56)
            && self.slice.m.tlm.hdr.val().get_bits::<32>(0).any());
        self.m_fb.valid.next = (self.slice.m.valid.val() && !self.is_notify.val());
        self.slice.m.ready.next = (self.is_notify.val() || self.m_fb.ready.val());
        self.m_fb.flow.next = self.slice.m.flow.val();
        self.m_fb.psn.next = self.slice.m.psn.val();
        self.m_fb.aeth.next = self.slice.m.aeth.val();
        self.m_fb.opcode.next = self.slice.m.opcode.val();
        self.m_fb.tlm.present.next = self.slice.m.tlm.present.val();
        self.m_fb.tlm.hdr.next = self.slice.m.tlm.hdr.val();
        self.m_fb.tlm.hop0.next = self.slice.m.tlm.hop0.val();
        self.m_fb.tlm.hop1.next = self.slice.m.tlm.hop1.val();
        self.m_fb.tlm.hop2.next = self.slice.m.tlm.hop2.val();
        self.m_fb.tlm.hop3.next = self.slice.m.tlm.hop3.val();
        self.m_fb.tlm.hop4.next = self.slice.m.tlm.hop4.val();
        self.rate.in_valid.next =
            (self.slice.m.valid.val() && self.is_notify.val() && self.good.val());
        self.rate.w.next = self.slice.m.tlm.hdr.val().get_bits::<32>(0);
        self.rate.cfg_inv_t_m.next = self.cfg_inv_t_m.val();
        self.rate.cfg_inv_t_s.next = self.cfg_inv_t_s.val();
        self.carry.d.next = ((bit_cast::<48, A>(self.slice.m.flow.val()) << 32)
            | bit_cast::<48, 32>(self.slice.m.tlm.hdr.val().get_bits::<32>(0)));
        if (self.slice.m.valid.val() && self.is_notify.val()) {
            if self.good.val() {
                self.n_applied.d.next = (self.n_applied.q.val() + 1);
            } else {
                self.n_bad.d.next = (self.n_bad.q.val() + 1);
            }
        }
        self.m_update.valid.next = self.rate.out_valid.val();
        self.m_update.flow.next = self.carry.q.val().get_bits::<16>(32);
        self.m_update.status.next = 0.into();
        self.m_update.flags.next = 0.into();
        self.m_update.w.next = self.carry.q.val().get_bits::<32>(0);
        self.m_update.r.next = self.rate.r.val();
        self.m_update.u.next = 0.into();
        self.m_update.inc_stage.next = 0.into();
        self.m_update.updated_wc.next = true;
        self.m_update.variant.next = false;
        self.applied.next = self.n_applied.q.val();
        self.bad.next = self.n_bad.q.val();
    }
}
