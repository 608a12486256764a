//! The Tx builder's descriptor port, shared by the responder's ACKs,
//! the READ responder and the requester.
//!
//! - `s_ack` (`AckInfo`, from the dispatcher): becomes an ACK/NAK
//!   descriptor (the PSN, the AETH, the echoed telemetry). Its opcode is
//!   ACKNOWLEDGE (0x11) without telemetry and HPCC ACK (0xC2) with it
//!   (`nic_spec::roce::ack_opcode`), so no standard-opcode answer
//!   carries the area. ACKs go first: they are small and they free the peer's
//!   window.
//! - `s_cnp` (`CnpReq`, the DCQCN notification point) next: a CNP
//!   descriptor (opcode 0x81, PSN 0, no payload, the 16 reserved bytes 0)
//!   for the flow, which the Tx sends to the flow's peer QP. CNPs are
//!   small and rate-limited per flow (`NP_INTERVAL`).
//! - `s_notify` (`TxDesc`, NewINT's NOTIFYs) next: one per flow per T.
//! - `s_rresp` (`TxDesc`, READ responses) and `s_req` (`TxDesc`, the
//!   requester's data, READ requests and probes) alternate when both
//!   wait (round robin), so a long READ response does not stall the
//!   requester, nor the reverse.
//! - `m_desc` (`TxDesc`) to the Tx builder, combinational from the inputs
//!   (`valid` from the sources' `valid` only).
//!
//! Counter: `acks` (ACK/NAK descriptors sent, 32 bits, wrapping).
//! Golden twin: `nic_golden::nic::tx_arb`.

use crate::cc::CnpReqSink;
use crate::roce::{AckInfoSink, TxDescSink, TxDescSource};
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct TxArb<const A: usize> {
    pub clock: Signal<In, Clock>,
    pub s_ack: AckInfoSink<A>,
    pub s_cnp: CnpReqSink,
    pub s_notify: TxDescSink<A>,
    pub s_rresp: TxDescSink<A>,
    pub s_req: TxDescSink<A>,
    pub m_desc: TxDescSource<A>,
    pub acks: Signal<Out, Bits<32>>,
    /// 1: the READ responses go first when both wait.
    turn_r: DFF<Bit>,
    n_acks: DFF<Bits<32>>,
    k_ack: Constant<Bits<8>>,
    k_ack_tlm: Constant<Bits<8>>,
    k_cnp: Constant<Bits<8>>,
    pick_c: Signal<Local, Bit>,
    pick_n: Signal<Local, Bit>,
    pick_r: Signal<Local, Bit>,
    pick_q: Signal<Local, Bit>,
}

impl<const A: usize> Default for TxArb<A> {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            s_ack: Default::default(),
            s_cnp: Default::default(),
            s_notify: Default::default(),
            s_rresp: Default::default(),
            s_req: Default::default(),
            m_desc: Default::default(),
            acks: Default::default(),
            turn_r: Default::default(),
            n_acks: Default::default(),
            k_ack: Constant::new(Bits::<8>::from(nic_spec::roce::op::ACK as u64)),
            k_ack_tlm: Constant::new(Bits::<8>::from(nic_spec::roce::op::ACK_TLM as u64)),
            k_cnp: Constant::new(Bits::<8>::from(nic_spec::roce::op::CNP as u64)),
            pick_c: Default::default(),
            pick_n: Default::default(),
            pick_r: Default::default(),
            pick_q: Default::default(),
        }
    }
}

impl<const A: usize> Logic for TxArb<A> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, turn_r, n_acks);
        self.pick_c.next = (!self.s_ack.valid.val() && self.s_cnp.valid.val());
        self.pick_n.next =
            (!self.s_ack.valid.val() && !self.s_cnp.valid.val() && self.s_notify.valid.val());
        self.pick_r.next = (!self.s_ack.valid.val()
            && !self.s_cnp.valid.val()
            && !self.s_notify.valid.val()
            && self.s_rresp.valid.val()
            && (!self.s_req.valid.val() || self.turn_r.q.val()));
        self.pick_q.next = (!self.s_ack.valid.val()
            && !self.s_cnp.valid.val()
            && !self.s_notify.valid.val()
            && !self.pick_r.val()
            && self.s_req.valid.val());
        self.m_desc.valid.next = (self.s_ack.valid.val()
            || self.s_cnp.valid.val()
            || self.s_notify.valid.val()
            || self.s_rresp.valid.val()
            || self.s_req.valid.val());
        self.s_ack.ready.next = self.m_desc.ready.val();
        self.s_cnp.ready.next = (self.m_desc.ready.val() && self.pick_c.val());
        self.s_notify.ready.next = (self.m_desc.ready.val() && self.pick_n.val());
        self.s_rresp.ready.next = (self.m_desc.ready.val() && self.pick_r.val());
        self.s_req.ready.next = (self.m_desc.ready.val() && self.pick_q.val());
        if (self.m_desc.ready.val() && (self.pick_r.val() || self.pick_q.val())) {
            self.turn_r.d.next = self.pick_q.val();
        }
        if (self.m_desc.ready.val() && self.s_ack.valid.val()) {
            self.n_acks.d.next = (self.n_acks.q.val() + 1);
        }
        self.acks.next = self.n_acks.q.val();
        if self.s_ack.valid.val() {
            self.m_desc.flow.next = self.s_ack.flow.val();
            if self.s_ack.tlm.present.val() {
                self.m_desc.opcode.next = self.k_ack_tlm.val();
            } else {
                self.m_desc.opcode.next = self.k_ack.val();
            }
            self.m_desc.psn.next = self.s_ack.psn.val();
            self.m_desc.ackreq.next = false;
            self.m_desc.len.next = 0.into();
            self.m_desc.addr.next = 0.into();
            self.m_desc.va.next = 0.into();
            self.m_desc.rkey.next = 0.into();
            self.m_desc.dlen.next = 0.into();
            self.m_desc.aeth.next = self.s_ack.aeth.val();
            self.m_desc.tlm.present.next = self.s_ack.tlm.present.val();
            self.m_desc.tlm.hdr.next = self.s_ack.tlm.hdr.val();
            self.m_desc.tlm.hop0.next = self.s_ack.tlm.hop0.val();
            self.m_desc.tlm.hop1.next = self.s_ack.tlm.hop1.val();
            self.m_desc.tlm.hop2.next = self.s_ack.tlm.hop2.val();
            self.m_desc.tlm.hop3.next = self.s_ack.tlm.hop3.val();
            self.m_desc.tlm.hop4.next = self.s_ack.tlm.hop4.val();
        } else if self.pick_c.val() {
            self.m_desc.flow.next = bit_cast::<A, 16>(self.s_cnp.flow.val());
            self.m_desc.opcode.next = self.k_cnp.val();
            self.m_desc.psn.next = 0.into();
            self.m_desc.ackreq.next = false;
            self.m_desc.len.next = 0.into();
            self.m_desc.addr.next = 0.into();
            self.m_desc.va.next = 0.into();
            self.m_desc.rkey.next = 0.into();
            self.m_desc.dlen.next = 0.into();
            self.m_desc.aeth.next = 0.into();
            self.m_desc.tlm.present.next = false;
            self.m_desc.tlm.hdr.next = 0.into();
            self.m_desc.tlm.hop0.next = 0.into();
            self.m_desc.tlm.hop1.next = 0.into();
            self.m_desc.tlm.hop2.next = 0.into();
            self.m_desc.tlm.hop3.next = 0.into();
            self.m_desc.tlm.hop4.next = 0.into();
        } else if self.pick_n.val() {
            self.m_desc.flow.next = self.s_notify.flow.val();
            self.m_desc.opcode.next = self.s_notify.opcode.val();
            self.m_desc.psn.next = self.s_notify.psn.val();
            self.m_desc.ackreq.next = self.s_notify.ackreq.val();
            self.m_desc.len.next = self.s_notify.len.val();
            self.m_desc.addr.next = self.s_notify.addr.val();
            self.m_desc.va.next = self.s_notify.va.val();
            self.m_desc.rkey.next = self.s_notify.rkey.val();
            self.m_desc.dlen.next = self.s_notify.dlen.val();
            self.m_desc.aeth.next = self.s_notify.aeth.val();
            self.m_desc.tlm.present.next = self.s_notify.tlm.present.val();
            self.m_desc.tlm.hdr.next = self.s_notify.tlm.hdr.val();
            self.m_desc.tlm.hop0.next = self.s_notify.tlm.hop0.val();
            self.m_desc.tlm.hop1.next = self.s_notify.tlm.hop1.val();
            self.m_desc.tlm.hop2.next = self.s_notify.tlm.hop2.val();
            self.m_desc.tlm.hop3.next = self.s_notify.tlm.hop3.val();
            self.m_desc.tlm.hop4.next = self.s_notify.tlm.hop4.val();
        } else if self.pick_r.val() {
            self.m_desc.flow.next = self.s_rresp.flow.val();
            self.m_desc.opcode.next = self.s_rresp.opcode.val();
            self.m_desc.psn.next = self.s_rresp.psn.val();
            self.m_desc.ackreq.next = self.s_rresp.ackreq.val();
            self.m_desc.len.next = self.s_rresp.len.val();
            self.m_desc.addr.next = self.s_rresp.addr.val();
            self.m_desc.va.next = self.s_rresp.va.val();
            self.m_desc.rkey.next = self.s_rresp.rkey.val();
            self.m_desc.dlen.next = self.s_rresp.dlen.val();
            self.m_desc.aeth.next = self.s_rresp.aeth.val();
            self.m_desc.tlm.present.next = self.s_rresp.tlm.present.val();
            self.m_desc.tlm.hdr.next = self.s_rresp.tlm.hdr.val();
            self.m_desc.tlm.hop0.next = self.s_rresp.tlm.hop0.val();
            self.m_desc.tlm.hop1.next = self.s_rresp.tlm.hop1.val();
            self.m_desc.tlm.hop2.next = self.s_rresp.tlm.hop2.val();
            self.m_desc.tlm.hop3.next = self.s_rresp.tlm.hop3.val();
            self.m_desc.tlm.hop4.next = self.s_rresp.tlm.hop4.val();
        } else {
            self.m_desc.flow.next = self.s_req.flow.val();
            self.m_desc.opcode.next = self.s_req.opcode.val();
            self.m_desc.psn.next = self.s_req.psn.val();
            self.m_desc.ackreq.next = self.s_req.ackreq.val();
            self.m_desc.len.next = self.s_req.len.val();
            self.m_desc.addr.next = self.s_req.addr.val();
            self.m_desc.va.next = self.s_req.va.val();
            self.m_desc.rkey.next = self.s_req.rkey.val();
            self.m_desc.dlen.next = self.s_req.dlen.val();
            self.m_desc.aeth.next = self.s_req.aeth.val();
            self.m_desc.tlm.present.next = self.s_req.tlm.present.val();
            self.m_desc.tlm.hdr.next = self.s_req.tlm.hdr.val();
            self.m_desc.tlm.hop0.next = self.s_req.tlm.hop0.val();
            self.m_desc.tlm.hop1.next = self.s_req.tlm.hop1.val();
            self.m_desc.tlm.hop2.next = self.s_req.tlm.hop2.val();
            self.m_desc.tlm.hop3.next = self.s_req.tlm.hop3.val();
            self.m_desc.tlm.hop4.next = self.s_req.tlm.hop4.val();
        }
    }
}
