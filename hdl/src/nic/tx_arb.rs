//! The Tx builder's descriptor port, shared by the responder's ACKs,
//! the READ responder and the requester.
//!
//! # Ports (clock `clock`; no reset)
//! - `s_ack` (`AckInfo`, from `AckCoalesce`): becomes an ACK/NAK
//!   descriptor (the PSN, the AETH, the echoed telemetry). Its opcode is
//!   ACKNOWLEDGE (0x11) without telemetry and HPCC ACK (0xC2) with it
//!   (`nic_spec::roce::ack_opcode`), so no standard-opcode answer
//!   carries the area. ACKs go first: they are small and they free the
//!   peer's window.
//! - `s_cnp` (`CnpReq`, the DCQCN notification point) next: a CNP
//!   descriptor (opcode 0x81, PSN 0, no payload, the 16 reserved bytes 0)
//!   for the flow, which the Tx sends to the flow's peer QP. CNPs are
//!   small and rate-limited per flow (`NP_INTERVAL`).
//! - `s_notify` (`TxDesc`, NewINT's NOTIFYs) next: one per flow per T.
//! - `s_rresp` (`TxDesc`, READ responses) and `s_req` (`TxDesc`, the
//!   requester's data, READ requests and probes) alternate when both
//!   wait (round robin), so a long READ response does not stall the
//!   requester, nor the reverse.
//! - `m_desc` (`TxDesc`) to the Tx builder: an output register.
//! - `cfg_ctl_share` (`TX_CTL_SHARE`, 3 bits, s): the control budget below.
//! - `ctl_open` (a register): the budget let control frames go last
//!   cycle (to `AckCoalesce.open`, which reads its next ACK out only
//!   then).
//! - `acks` (32 bits, wrapping): ACK/NAK descriptors taken.
//! - `ctl_held` (32 bits, wrapping): grants the control budget held from
//!   a waiting control frame (ACK, NAK, CNP, NOTIFY) and gave to data:
//!   each is a data frame sent ahead of control (counted a cycle later).
//!
//! # Structure and timing (the timing rules R1, R2; `docs/architecture.md` §5i)
//! A registered grant in front of one output register, so every output
//! is a flip-flop and no input reaches an output in the same cycle:
//! - **Grant.** In a cycle where the output register is empty, no
//!   source is taken and the Tx asks for a descriptor (`m_desc.ready`,
//!   a register of the Tx), the arbiter picks one of the sources whose
//!   `valid` is high, by the priorities above, into a one-hot grant
//!   register. A source's `ready` is its grant flop.
//! - **Take.** The cycle after, the granted source's record is taken if
//!   its `valid` is still high (a source that follows valid/ready keeps
//!   it) and loads the output register, through a 5:1 select whose
//!   select lines are the grant flops.
//! - So a descriptor is on `m_desc` 2 cycles after its source's `valid`
//!   when the arbiter is idle and the Tx asks, and the arbiter passes one
//!   descriptor every 3 cycles with `m_desc.ready` high (grant, take, the
//!   Tx's take; the Tx takes one per frame, at least 8 cycles).
//! - **Why only when the Tx asks.** The choice between an ACK and data is
//!   made when the Tx can take the frame, not a frame ahead of it. The
//!   Tx already holds the next frame's descriptor while it sends the
//!   current one; a register filled as soon as it drained would choose a
//!   second frame ahead, often before the requester's next descriptor is
//!   there, so ACKs went uncharged by the control budget and far less
//!   coalesced (1,033 ACKs for 3,000 data frames of 64 bytes on one flow
//!   both ways, data 0.789 of the wire's frame rate; choosing when the Tx
//!   asks: 300 ACKs, 0.940). The cost: the Tx's next descriptor is
//!   complete 8 cycles after it asks rather than 6, so a frame shorter
//!   than 10 cycles (an ACK of 8) may be followed by an idle cycle or two
//!   on the Tx's output, which the wire's preamble and gap (2.5 cycles)
//!   mostly hide.
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
//!   not granted. With no data waiting, control is granted at once and
//!   is not charged: it takes idle line.
//!
//! So over any span while data waits, control frames take at most 2^-s
//! of its cycles plus one frame; after a charged control frame the next
//! one is taken no sooner than its cost plus 2 cycles (the grant and the
//! take) later, in a cycle the Tx asks (with the Tx always asking, the
//! 3-cycle pace rounds 272 + 2 up to 276).
//! Held ACKs of a flow coalesce in `AckCoalesce` (the newest replaces the
//! older, `coalesced`). s = 0 (the reset value): no budget, control
//! always first.
//!
//! The budget's state is registers: the debt, its non-zero flag and the
//! two costs (precomputed from s, so no shift sits on the path). The
//! grant depends on valids and those registers, never on a payload (R2).
//!
//! # Bad input
//! None: the fields pass unchanged (a CNP's flow is cut to A bits); the
//! Tx checks them.
//!
//! Golden twin: `nic_golden::nic::tx_arb`.

use crate::cc::CnpReqSink;
use crate::roce::{AckInfoSink, TxDesc, TxDescSink, TxDescSource};
use rust_hdl::prelude::*;
use smart_default::SmartDefault;

#[derive(LogicBlock, SmartDefault)]
pub struct TxArb<const A: usize> {
    pub clock: Signal<In, Clock>,
    pub s_ack: AckInfoSink<A>,
    pub s_cnp: CnpReqSink,
    pub s_notify: TxDescSink<A>,
    pub s_rresp: TxDescSink<A>,
    pub s_req: TxDescSink<A>,
    pub m_desc: TxDescSource<A>,
    pub acks: Signal<Out, Bits<32>>,
    pub ctl_held: Signal<Out, Bits<32>>,
    pub cfg_ctl_share: Signal<In, Bits<3>>,
    /// The control sources may go (to `AckCoalesce.open`; a register).
    pub ctl_open: Signal<Out, Bit>,
    /// The grant, one-hot (at most one set): the source whose record
    /// is taken this cycle if its `valid` is high.
    g_ack: DFF<Bit>,
    g_cnp: DFF<Bit>,
    g_notify: DFF<Bit>,
    g_rresp: DFF<Bit>,
    g_req: DFF<Bit>,
    /// The output register and its flag.
    out: TxDesc::Hold<A>,
    out_v: DFF<Bit>,
    open_q: DFF<Bit>,
    /// Cycles before the next control frame may go while data waits.
    ctl_debt: DFF<Bits<12>>,
    /// The debt is not 0 (registered with it; 0 at power-up).
    debt_nz: DFF<Bit>,
    /// `ctl_cost` of a control frame with and without telemetry under
    /// the current share (0 when the share is 0).
    cost_tlm: DFF<Bits<12>>,
    cost_plain: DFF<Bits<12>>,
    #[default(Constant::new(Bits::<12>::from(nic_spec::roce::CTL_WIRE_WORDS_TLM as u64)))]
    k_words_tlm: Constant<Bits<12>>,
    #[default(Constant::new(Bits::<12>::from( nic_spec::roce::CTL_WIRE_WORDS_PLAIN as u64, )))]
    k_words_plain: Constant<Bits<12>>,
    /// 1: the READ responses go first when both wait.
    turn_r: DFF<Bit>,
    /// An ACK was taken last cycle (counted then, R4).
    ack_taken: DFF<Bit>,
    n_acks: DFF<Bits<32>>,
    /// A grant went to data while the budget held control (counted
    /// the next cycle).
    held: DFF<Bit>,
    n_held: DFF<Bits<32>>,
    #[default(Constant::new(Bits::<8>::from(nic_spec::roce::op::ACK as u64)))]
    k_ack: Constant<Bits<8>>,
    #[default(Constant::new(Bits::<8>::from(nic_spec::roce::op::ACK_TLM as u64)))]
    k_ack_tlm: Constant<Bits<8>>,
    #[default(Constant::new(Bits::<8>::from(nic_spec::roce::op::CNP as u64)))]
    k_cnp: Constant<Bits<8>>,
    /// This cycle's takes, one per source.
    take_ack: Signal<Local, Bit>,
    take_cnp: Signal<Local, Bit>,
    take_notify: Signal<Local, Bit>,
    take_rresp: Signal<Local, Bit>,
    take_req: Signal<Local, Bit>,
    take: Signal<Local, Bit>,
    /// Data (READ responses or the requester's) waits.
    data_wait: Signal<Local, Bit>,
    /// The budget lets control go (for the grant and `ctl_open`).
    open: Signal<Local, Bit>,
    /// The output register is empty next cycle: a grant may go out.
    free: Signal<Local, Bit>,
    /// The grant's candidates: control sources qualified by `open`.
    ack_v: Signal<Local, Bit>,
    cnp_v: Signal<Local, Bit>,
    notify_v: Signal<Local, Bit>,
    pick_r: Signal<Local, Bit>,
}

impl<const A: usize> Logic for TxArb<A> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, g_ack, g_cnp, g_notify, g_rresp, g_req, out_v, open_q, turn_r, ack_taken,
            n_acks, held, n_held, ctl_debt, debt_nz, cost_tlm, cost_plain
        );
        self.out.clock.next = self.clock.val();
        // Ports: every output is a flop.
        self.s_ack.ready.next = self.g_ack.q.val();
        self.s_cnp.ready.next = self.g_cnp.q.val();
        self.s_notify.ready.next = self.g_notify.q.val();
        self.s_rresp.ready.next = self.g_rresp.q.val();
        self.s_req.ready.next = self.g_req.q.val();
        self.m_desc.valid.next = self.out_v.q.val();
        self.ctl_open.next = self.open_q.q.val();
        self.acks.next = self.n_acks.q.val();
        self.ctl_held.next = self.n_held.q.val();
        self.m_desc.flow.next = self.out.q.flow.val();
        self.m_desc.opcode.next = self.out.q.opcode.val();
        self.m_desc.psn.next = self.out.q.psn.val();
        self.m_desc.ackreq.next = self.out.q.ackreq.val();
        self.m_desc.len.next = self.out.q.len.val();
        self.m_desc.addr.next = self.out.q.addr.val();
        self.m_desc.va.next = self.out.q.va.val();
        self.m_desc.rkey.next = self.out.q.rkey.val();
        self.m_desc.dlen.next = self.out.q.dlen.val();
        self.m_desc.aeth.next = self.out.q.aeth.val();
        self.m_desc.tlm.present.next = self.out.q.tlm.present.val();
        self.m_desc.tlm.hdr.next = self.out.q.tlm.hdr.val();
        self.m_desc.tlm.hop0.next = self.out.q.tlm.hop0.val();
        self.m_desc.tlm.hop1.next = self.out.q.tlm.hop1.val();
        self.m_desc.tlm.hop2.next = self.out.q.tlm.hop2.val();
        self.m_desc.tlm.hop3.next = self.out.q.tlm.hop3.val();
        self.m_desc.tlm.hop4.next = self.out.q.tlm.hop4.val();
        // The take: the granted source, if it is still valid.
        self.take_ack.next = (self.g_ack.q.val() && self.s_ack.valid.val());
        self.take_cnp.next = (self.g_cnp.q.val() && self.s_cnp.valid.val());
        self.take_notify.next = (self.g_notify.q.val() && self.s_notify.valid.val());
        self.take_rresp.next = (self.g_rresp.q.val() && self.s_rresp.valid.val());
        self.take_req.next = (self.g_req.q.val() && self.s_req.valid.val());
        self.take.next = (self.take_ack.val()
            || self.take_cnp.val()
            || self.take_notify.val()
            || (self.take_rresp.val() || self.take_req.val()));
        self.out.load.next = self.take.val();
        if self.take.val() {
            self.out_v.d.next = true;
        } else if self.m_desc.ready.val() {
            self.out_v.d.next = false;
        }
        if (self.take_rresp.val() || self.take_req.val()) {
            self.turn_r.d.next = self.take_req.val();
        }
        self.ack_taken.d.next = self.take_ack.val();
        if self.ack_taken.q.val() {
            self.n_acks.d.next = (self.n_acks.q.val() + 1);
        }
        if self.held.q.val() {
            self.n_held.d.next = (self.n_held.q.val() + 1);
        }
        // What the output register loads: the granted source's record
        // (the select lines are the grant flops).
        self.out.d.ackreq.next = false;
        self.out.d.len.next = 0.into();
        self.out.d.addr.next = 0.into();
        self.out.d.va.next = 0.into();
        self.out.d.rkey.next = 0.into();
        self.out.d.dlen.next = 0.into();
        if self.g_ack.q.val() {
            self.out.d.flow.next = self.s_ack.flow.val();
            if self.s_ack.tlm.present.val() {
                self.out.d.opcode.next = self.k_ack_tlm.val();
            } else {
                self.out.d.opcode.next = self.k_ack.val();
            }
            self.out.d.psn.next = self.s_ack.psn.val();
            self.out.d.aeth.next = self.s_ack.aeth.val();
            self.out.d.tlm.present.next = self.s_ack.tlm.present.val();
            self.out.d.tlm.hdr.next = self.s_ack.tlm.hdr.val();
            self.out.d.tlm.hop0.next = self.s_ack.tlm.hop0.val();
            self.out.d.tlm.hop1.next = self.s_ack.tlm.hop1.val();
            self.out.d.tlm.hop2.next = self.s_ack.tlm.hop2.val();
            self.out.d.tlm.hop3.next = self.s_ack.tlm.hop3.val();
            self.out.d.tlm.hop4.next = self.s_ack.tlm.hop4.val();
        } else if self.g_cnp.q.val() {
            self.out.d.flow.next = bit_cast::<A, 16>(self.s_cnp.flow.val());
            self.out.d.opcode.next = self.k_cnp.val();
            self.out.d.psn.next = 0.into();
            self.out.d.aeth.next = 0.into();
            self.out.d.tlm.present.next = false;
            self.out.d.tlm.hdr.next = 0.into();
            self.out.d.tlm.hop0.next = 0.into();
            self.out.d.tlm.hop1.next = 0.into();
            self.out.d.tlm.hop2.next = 0.into();
            self.out.d.tlm.hop3.next = 0.into();
            self.out.d.tlm.hop4.next = 0.into();
        } else if self.g_notify.q.val() {
            self.out.d.flow.next = self.s_notify.flow.val();
            self.out.d.opcode.next = self.s_notify.opcode.val();
            self.out.d.psn.next = self.s_notify.psn.val();
            self.out.d.ackreq.next = self.s_notify.ackreq.val();
            self.out.d.len.next = self.s_notify.len.val();
            self.out.d.addr.next = self.s_notify.addr.val();
            self.out.d.va.next = self.s_notify.va.val();
            self.out.d.rkey.next = self.s_notify.rkey.val();
            self.out.d.dlen.next = self.s_notify.dlen.val();
            self.out.d.aeth.next = self.s_notify.aeth.val();
            self.out.d.tlm.present.next = self.s_notify.tlm.present.val();
            self.out.d.tlm.hdr.next = self.s_notify.tlm.hdr.val();
            self.out.d.tlm.hop0.next = self.s_notify.tlm.hop0.val();
            self.out.d.tlm.hop1.next = self.s_notify.tlm.hop1.val();
            self.out.d.tlm.hop2.next = self.s_notify.tlm.hop2.val();
            self.out.d.tlm.hop3.next = self.s_notify.tlm.hop3.val();
            self.out.d.tlm.hop4.next = self.s_notify.tlm.hop4.val();
        } else if self.g_rresp.q.val() {
            self.out.d.flow.next = self.s_rresp.flow.val();
            self.out.d.opcode.next = self.s_rresp.opcode.val();
            self.out.d.psn.next = self.s_rresp.psn.val();
            self.out.d.ackreq.next = self.s_rresp.ackreq.val();
            self.out.d.len.next = self.s_rresp.len.val();
            self.out.d.addr.next = self.s_rresp.addr.val();
            self.out.d.va.next = self.s_rresp.va.val();
            self.out.d.rkey.next = self.s_rresp.rkey.val();
            self.out.d.dlen.next = self.s_rresp.dlen.val();
            self.out.d.aeth.next = self.s_rresp.aeth.val();
            self.out.d.tlm.present.next = self.s_rresp.tlm.present.val();
            self.out.d.tlm.hdr.next = self.s_rresp.tlm.hdr.val();
            self.out.d.tlm.hop0.next = self.s_rresp.tlm.hop0.val();
            self.out.d.tlm.hop1.next = self.s_rresp.tlm.hop1.val();
            self.out.d.tlm.hop2.next = self.s_rresp.tlm.hop2.val();
            self.out.d.tlm.hop3.next = self.s_rresp.tlm.hop3.val();
            self.out.d.tlm.hop4.next = self.s_rresp.tlm.hop4.val();
        } else {
            self.out.d.flow.next = self.s_req.flow.val();
            self.out.d.opcode.next = self.s_req.opcode.val();
            self.out.d.psn.next = self.s_req.psn.val();
            self.out.d.ackreq.next = self.s_req.ackreq.val();
            self.out.d.len.next = self.s_req.len.val();
            self.out.d.addr.next = self.s_req.addr.val();
            self.out.d.va.next = self.s_req.va.val();
            self.out.d.rkey.next = self.s_req.rkey.val();
            self.out.d.dlen.next = self.s_req.dlen.val();
            self.out.d.aeth.next = self.s_req.aeth.val();
            self.out.d.tlm.present.next = self.s_req.tlm.present.val();
            self.out.d.tlm.hdr.next = self.s_req.tlm.hdr.val();
            self.out.d.tlm.hop0.next = self.s_req.tlm.hop0.val();
            self.out.d.tlm.hop1.next = self.s_req.tlm.hop1.val();
            self.out.d.tlm.hop2.next = self.s_req.tlm.hop2.val();
            self.out.d.tlm.hop3.next = self.s_req.tlm.hop3.val();
            self.out.d.tlm.hop4.next = self.s_req.tlm.hop4.val();
        }
        // The control budget: its costs follow the share; a control
        // frame taken while data waits sets the debt to its cost, else
        // the debt falls.
        if self.cfg_ctl_share.val().any() {
            self.cost_tlm.d.next = (self.k_words_tlm.val() << self.cfg_ctl_share.val());
            self.cost_plain.d.next = (self.k_words_plain.val() << self.cfg_ctl_share.val());
        } else {
            self.cost_tlm.d.next = 0.into();
            self.cost_plain.d.next = 0.into();
        }
        self.data_wait.next = (self.s_rresp.valid.val() || self.s_req.valid.val());
        if (self.data_wait.val() && self.take_ack.val() && self.s_ack.tlm.present.val()) {
            self.ctl_debt.d.next = self.cost_tlm.q.val();
            self.debt_nz.d.next = self.cost_tlm.q.val().any();
        } else if (self.data_wait.val() && (self.take_ack.val() || self.take_cnp.val())) {
            self.ctl_debt.d.next = self.cost_plain.q.val();
            self.debt_nz.d.next = self.cost_plain.q.val().any();
        } else if (self.data_wait.val()
            && self.take_notify.val()
            && self.s_notify.tlm.present.val())
        {
            self.ctl_debt.d.next = self.cost_tlm.q.val();
            self.debt_nz.d.next = self.cost_tlm.q.val().any();
        } else if (self.data_wait.val() && self.take_notify.val()) {
            self.ctl_debt.d.next = self.cost_plain.q.val();
            self.debt_nz.d.next = self.cost_plain.q.val().any();
        } else if self.ctl_debt.q.val().any() {
            self.ctl_debt.d.next = (self.ctl_debt.q.val() - 1);
            self.debt_nz.d.next = (self.ctl_debt.q.val() != 1);
        } else {
            self.debt_nz.d.next = false;
        }
        // The grant for next cycle: ACK, CNP, NOTIFY (while the budget
        // is open), then READ responses and the requester in turn; only
        // when the output register is empty next cycle.
        self.open.next =
            (!self.debt_nz.q.val() || !self.cfg_ctl_share.val().any() || !self.data_wait.val());
        self.open_q.d.next = self.open.val();
        self.free.next = ((!self.take.val() && !self.out_v.q.val()) && self.m_desc.ready.val());
        self.ack_v.next = (self.free.val() && self.open.val() && self.s_ack.valid.val());
        self.cnp_v.next = (self.free.val() && self.open.val() && self.s_cnp.valid.val());
        self.notify_v.next = (self.free.val() && self.open.val() && self.s_notify.valid.val());
        // The budget closed (so data waits and gets the grant) while a
        // control source is valid.
        self.held.d.next = ((self.free.val() && !self.open.val())
            && ((self.s_ack.valid.val() || self.s_cnp.valid.val()) || self.s_notify.valid.val()));
        self.g_ack.d.next = self.ack_v.val();
        self.g_cnp.d.next = (!self.ack_v.val() && self.cnp_v.val());
        self.g_notify.d.next = (!self.ack_v.val() && !self.cnp_v.val() && self.notify_v.val());
        self.pick_r.next = (self.free.val()
            && !self.ack_v.val()
            && !self.cnp_v.val()
            && !self.notify_v.val()
            && self.s_rresp.valid.val()
            && (!self.s_req.valid.val() || self.turn_r.q.val()));
        self.g_rresp.d.next = self.pick_r.val();
        self.g_req.d.next = (self.free.val()
            && !self.ack_v.val()
            && !self.cnp_v.val()
            && !self.notify_v.val()
            && !self.pick_r.val()
            && self.s_req.valid.val());
    }
}
