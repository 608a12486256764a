//! The receiver's NOTIFY (NewINT, pseudocode line 31: `send_ack(W)` once
//! per T): a CC update that committed (`updated_wc`: T has passed since
//! the flow's last one) becomes a NOTIFY descriptor for the flow's
//! sender, carrying W in the telemetry header (flags bit 0 = W valid).
//!
//! - `s_update` (`CcUpdate`, strobe): taken when `variant` = 1 (NewINT),
//!   status UPDATE and `updated_wc`; (flow, W) wait in a 16-entry queue,
//!   a full queue drops and counts (`drops`).
//! - `m_desc` (`TxDesc`): opcode NOTIFY (0xC1), PSN 0, telemetry present
//!   with header ver 1, flags 1, nhop 0, maxhop 5, W.
//!
//! Counters `notifies` (queued), `drops`. Latency: an update's NOTIFY is
//! offered 3 cycles after the strobe (the queue's); test
//! `a_notify_is_offered_3_cycles_after_the_update`. Golden twin:
//! `nic_golden::nic::notify_tx`.

use crate::cc::CcUpdateSink;
use crate::mem::Fifo;
use crate::roce::TxDescSource;
use nic_spec::roce::op;
use rust_hdl::prelude::*;
use smart_default::SmartDefault;

/// Entries at most in the queue.
pub const QUEUE: u64 = 16;

#[derive(LogicBlock, SmartDefault)]
pub struct NotifyTx<const A: usize> {
    pub clock: Signal<In, Clock>,
    pub s_update: CcUpdateSink,
    pub m_desc: TxDescSource<A>,
    pub notifies: Signal<Out, Bits<32>>,
    pub drops: Signal<Out, Bits<32>>,
    queue: Fifo<48, 4>,
    held: DFF<Bits<8>>,
    n_notifies: DFF<Bits<32>>,
    n_drops: DFF<Bits<32>>,
    #[default(Constant::new(Bits::<8>::from(QUEUE)))]
    k_held_max: Constant<Bits<8>>,
    #[default(Constant::new(Bits::<8>::from(op::NOTIFY as u64)))]
    k_notify: Constant<Bits<8>>,
    // ver 1, flags 1 (W valid), nhop 0, maxhop 5.
    #[default(Constant::new(Bits::<64>::from(0x1100_0500_0000_0000u64)))]
    k_hdr: Constant<Bits<64>>,
    qualify: Signal<Local, Bit>,
    push_ok: Signal<Local, Bit>,
    pop: Signal<Local, Bit>,
}

impl<const A: usize> Logic for NotifyTx<A> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, held, n_notifies, n_drops);
        clock!(self, clock, queue);
        self.qualify.next = (self.s_update.variant.val()
            && self.s_update.valid.val()
            && !self.s_update.status.val().any()
            && self.s_update.updated_wc.val());
        self.push_ok.next = (self.qualify.val() && (self.held.q.val() < self.k_held_max.val()));
        if self.push_ok.val() {
            self.n_notifies.d.next = (self.n_notifies.q.val() + 1);
        } else if self.qualify.val() {
            self.n_drops.d.next = (self.n_drops.q.val() + 1);
        }
        self.queue.push.next = self.push_ok.val();
        self.queue.push_data.next = ((bit_cast::<48, 16>(self.s_update.flow.val()) << 32)
            | bit_cast::<48, 32>(self.s_update.w.val()));
        self.pop.next = (self.queue.head_valid.val() && self.m_desc.ready.val());
        self.queue.pop.next = self.pop.val();
        if (self.push_ok.val() && !self.pop.val()) {
            self.held.d.next = (self.held.q.val() + 1);
        } else if (!self.push_ok.val() && self.pop.val()) {
            self.held.d.next = (self.held.q.val() - 1);
        }
        self.m_desc.valid.next = self.queue.head_valid.val();
        self.m_desc.flow.next = bit_cast::<A, 48>(self.queue.head_data.val() >> 32);
        self.m_desc.opcode.next = self.k_notify.val();
        self.m_desc.psn.next = 0.into();
        self.m_desc.ackreq.next = false;
        self.m_desc.len.next = 0.into();
        self.m_desc.addr.next = 0.into();
        self.m_desc.va.next = 0.into();
        self.m_desc.rkey.next = 0.into();
        self.m_desc.dlen.next = 0.into();
        self.m_desc.aeth.next = 0.into();
        self.m_desc.tlm.present.next = true;
        self.m_desc.tlm.hdr.next =
            (self.k_hdr.val() | bit_cast::<64, 32>(self.queue.head_data.val().get_bits::<32>(0)));
        self.m_desc.tlm.hop0.next = 0.into();
        self.m_desc.tlm.hop1.next = 0.into();
        self.m_desc.tlm.hop2.next = 0.into();
        self.m_desc.tlm.hop3.next = 0.into();
        self.m_desc.tlm.hop4.next = 0.into();
        self.notifies.next = self.n_notifies.q.val();
        self.drops.next = self.n_drops.q.val();
    }
}
