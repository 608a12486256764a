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
//!   (`valid` from the sources' `valid` and the budget's register only).
//! - `cfg_ctl_share` (`TX_CTL_SHARE`, 3 bits, s): the control budget below.
//! - `ctl_open`: the budget lets control frames go this cycle (to
//!   `AckCoalesce.open`, which reads its next ACK out only then).
//!
//! # The control budget (issue 50)
//! ACKs go first, but when both directions run at line rate an ACK per
//! data packet would take a fixed share of the line from data: an HPCC
//! ACK with telemetry is 134 bytes on the wire, so against 1 KiB frames
//! data kept 0.898 of the line, and against 64-byte frames 0.611. With
//! s > 0, the control frames (ACK, NAK, CNP, NOTIFY) take at most 2^-s of
//! the line while data (`s_rresp`, `s_req`) waits:
//! - taking a control frame while data waits sets `ctl_debt` to its cost,
//!   `nic_spec::roce::ctl_cost(words, s)`, where words is the frame's
//!   wire size (`CTL_WIRE_WORDS_TLM` with the telemetry area,
//!   `CTL_WIRE_WORDS_PLAIN` without); the debt falls by one a cycle;
//! - while the debt is not 0 and data waits, the control sources are
//!   held (their `ready` low, as if not valid). With no data waiting,
//!   control goes at once and is not charged: it takes idle line.
//!
//! So over any span while data waits, control frames take at most 2^-s
//! of its cycles plus one frame, and a control frame waits at most the
//! previous one's cost (272 cycles at s = 4 with telemetry) plus the
//! frame in flight. Held ACKs of a flow coalesce in `AckCoalesce` (the
//! newest replaces the older, `coalesced`). s = 0 (the reset value):
//! no budget, control always first (at once, whatever debt is left).
//!
//! The budget's state is registers: the debt, its non-zero flag and the two
//! costs (precomputed from s, so no shift sits on the path). `ready`
//! depends on valids and those registers, never on a payload.
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
    pub cfg_ctl_share: Signal<In, Bits<3>>,
    /// Cycles before the next control frame may go while data waits.
    ctl_debt: DFF<Bits<12>>,
    /// The debt is not 0 (registered with it; 0 at power-up).
    debt_nz: DFF<Bit>,
    /// `ctl_cost` of a control frame with and without telemetry under
    /// the current share (0 when the share is 0).
    cost_tlm: DFF<Bits<12>>,
    cost_plain: DFF<Bits<12>>,
    k_words_tlm: Constant<Bits<12>>,
    k_words_plain: Constant<Bits<12>>,
    /// The control sources may go this cycle (to `AckCoalesce.open`).
    pub ctl_open: Signal<Out, Bit>,
    ack_v: Signal<Local, Bit>,
    /// Data (READ responses or the requester's) waits for the Tx.
    data_wait: Signal<Local, Bit>,
    /// A control frame taken now is charged to the budget.
    charge: Signal<Local, Bit>,
    cnp_v: Signal<Local, Bit>,
    notify_v: Signal<Local, Bit>,
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
            cfg_ctl_share: Default::default(),
            ctl_debt: Default::default(),
            debt_nz: Default::default(),
            cost_tlm: Default::default(),
            cost_plain: Default::default(),
            k_words_tlm: Constant::new(Bits::<12>::from(nic_spec::roce::CTL_WIRE_WORDS_TLM as u64)),
            k_words_plain: Constant::new(Bits::<12>::from(
                nic_spec::roce::CTL_WIRE_WORDS_PLAIN as u64,
            )),
            ctl_open: Default::default(),
            ack_v: Default::default(),
            data_wait: Default::default(),
            charge: Default::default(),
            cnp_v: Default::default(),
            notify_v: Default::default(),
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
        dff_setup!(self, clock, turn_r, n_acks, ctl_debt, debt_nz, cost_tlm, cost_plain);
        // The control budget.
        if self.cfg_ctl_share.val().any() {
            self.cost_tlm.d.next = (self.k_words_tlm.val() << self.cfg_ctl_share.val());
            self.cost_plain.d.next = (self.k_words_plain.val() << self.cfg_ctl_share.val());
        } else {
            self.cost_tlm.d.next = 0.into();
            self.cost_plain.d.next = 0.into();
        }
        self.data_wait.next = (self.s_rresp.valid.val() || self.s_req.valid.val());
        self.ctl_open.next =
            (!self.debt_nz.q.val() || !self.cfg_ctl_share.val().any() || !self.data_wait.val());
        self.ack_v.next = (self.s_ack.valid.val() && self.ctl_open.val());
        self.cnp_v.next = (self.s_cnp.valid.val() && self.ctl_open.val());
        self.notify_v.next = (self.s_notify.valid.val() && self.ctl_open.val());
        // Priorities: ACK, CNP, NOTIFY, then READ responses and the
        // requester in turn.
        self.pick_c.next = (!self.ack_v.val() && self.cnp_v.val());
        self.pick_n.next = (!self.ack_v.val() && !self.cnp_v.val() && self.notify_v.val());
        self.pick_r.next = (!self.ack_v.val()
            && !self.cnp_v.val()
            && !self.notify_v.val()
            && self.s_rresp.valid.val()
            && (!self.s_req.valid.val() || self.turn_r.q.val()));
        self.pick_q.next = (!self.ack_v.val()
            && !self.cnp_v.val()
            && !self.notify_v.val()
            && !self.pick_r.val()
            && self.s_req.valid.val());
        self.m_desc.valid.next = (self.ack_v.val()
            || self.cnp_v.val()
            || self.notify_v.val()
            || self.s_rresp.valid.val()
            || self.s_req.valid.val());
        self.s_ack.ready.next = (self.m_desc.ready.val() && self.ctl_open.val());
        self.s_cnp.ready.next = (self.m_desc.ready.val() && self.pick_c.val());
        self.s_notify.ready.next = (self.m_desc.ready.val() && self.pick_n.val());
        self.s_rresp.ready.next = (self.m_desc.ready.val() && self.pick_r.val());
        self.s_req.ready.next = (self.m_desc.ready.val() && self.pick_q.val());
        if (self.m_desc.ready.val() && (self.pick_r.val() || self.pick_q.val())) {
            self.turn_r.d.next = self.pick_q.val();
        }
        if (self.m_desc.ready.val() && self.ack_v.val()) {
            self.n_acks.d.next = (self.n_acks.q.val() + 1);
        }
        // A control frame taken while data waits sets the debt to its
        // cost; else the debt falls.
        self.charge.next = (self.m_desc.ready.val() && self.data_wait.val());
        if (self.charge.val() && self.ack_v.val() && self.s_ack.tlm.present.val()) {
            self.ctl_debt.d.next = self.cost_tlm.q.val();
            self.debt_nz.d.next = self.cost_tlm.q.val().any();
        } else if (self.charge.val() && self.ack_v.val()) {
            self.ctl_debt.d.next = self.cost_plain.q.val();
            self.debt_nz.d.next = self.cost_plain.q.val().any();
        } else if (self.charge.val() && self.pick_c.val()) {
            self.ctl_debt.d.next = self.cost_plain.q.val();
            self.debt_nz.d.next = self.cost_plain.q.val().any();
        } else if (self.charge.val() && self.pick_n.val() && self.s_notify.tlm.present.val()) {
            self.ctl_debt.d.next = self.cost_tlm.q.val();
            self.debt_nz.d.next = self.cost_tlm.q.val().any();
        } else if (self.charge.val() && self.pick_n.val()) {
            self.ctl_debt.d.next = self.cost_plain.q.val();
            self.debt_nz.d.next = self.cost_plain.q.val().any();
        } else if self.ctl_debt.q.val().any() {
            self.ctl_debt.d.next = (self.ctl_debt.q.val() - 1);
            self.debt_nz.d.next = (self.ctl_debt.q.val() != 1);
        } else {
            self.debt_nz.d.next = false;
        }
        self.acks.next = self.n_acks.q.val();
        if self.ack_v.val() {
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
