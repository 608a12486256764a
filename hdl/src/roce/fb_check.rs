//! The requester's feedback checks: what an ACK, a READ RESPONSE or a
//! NAK says, decided into registers a cycle before the requester's
//! `Decide` reads them (timing rule R4). A block of
//! [`Requester`](super::requester::Requester).
//!
//! # Ports (clock `clock`; no reset: the registers start at zero)
//! - In: `is_fb` (the operation is feedback from the dispatcher),
//!   `is_nak` (it is a NAK), `fb_opcode` (8), `fb_aeth` (32: a NAK's
//!   syndrome in its top byte), `fb_psn` (24), `psn_max` (24: the flow's
//!   highest PSN sent, plus one).
//! - Out, flip-flops, each from the inputs of the cycle before:
//!   - `is_ack`: an ACK whose AETH class is ACK (`AETH_CLASS_ACK`), or a
//!     READ RESPONSE (any of the four opcodes);
//!   - `rresp`: `is_fb` and a READ RESPONSE;
//!   - `nak_status` (8): the status a NAK ends its work request with,
//!     `wr::Status::of_nak` of the syndrome, 0 for a PSN sequence error
//!     (go back);
//!   - `p_in` (24): the PSN acknowledged, `fb_psn`, or `fb_psn` − 1 for
//!     a NAK (mod 2^24);
//!   - `is_ahead`: `p_in` lies past every PSN sent: p_in − (psn_max − 1)
//!     is in 1..2^23 (mod 2^24), made from `p_in` + 1 registered a cycle
//!     earlier still (`p_above`, from the inputs of two cycles before)
//!     and `psn_max` of the cycle before, so one subtraction and an
//!     equality beside it lie before the register.
//!
//! # Timing
//! Latency 1 (`is_ahead`: 2 from `fb_psn`, `is_nak`), a result every
//! cycle. The requester holds the latched feedback from `Idle` on and
//! reads these in `Decide`, two cycles later (`FlowRd`, `Flow`).
//!
//! # Bad input
//! None of its own: any opcode, AETH and PSN give the values above; the
//! requester drops what they condemn.
//!
//! Golden twin: `nic_golden::roce::fb_check`.

use crate::roce::op_decode::OpDecode;
use nic_spec::roce::{syndrome, wr, AETH_CLASS_ACK};
use rust_hdl::prelude::*;
use smart_default::SmartDefault;

fn status(s: wr::Status) -> Constant<Bits<8>> {
    Constant::new(Bits::<8>::from((s as u8) as u64))
}

fn syn(v: u8) -> Constant<Bits<8>> {
    Constant::new(Bits::<8>::from(v as u64))
}

#[derive(LogicBlock, SmartDefault)]
pub struct FbCheck {
    pub clock: Signal<In, Clock>,
    pub is_fb: Signal<In, Bit>,
    pub is_nak: Signal<In, Bit>,
    pub fb_opcode: Signal<In, Bits<8>>,
    pub fb_aeth: Signal<In, Bits<32>>,
    pub fb_psn: Signal<In, Bits<24>>,
    pub psn_max: Signal<In, Bits<24>>,
    pub is_ack: Signal<Out, Bit>,
    pub rresp: Signal<Out, Bit>,
    pub nak_status: Signal<Out, Bits<8>>,
    pub p_in: Signal<Out, Bits<24>>,
    pub is_ahead: Signal<Out, Bit>,
    /// Classes of the opcode.
    op_class: OpDecode,
    r_is_ack: DFF<Bit>,
    r_rresp: DFF<Bit>,
    r_nak_status: DFF<Bits<8>>,
    r_p_in: DFF<Bits<24>>,
    /// `p_in` + 1, registered: the window check is then one subtraction.
    p_above: DFF<Bits<24>>,
    r_is_ahead: DFF<Bit>,
    ahead: Signal<Local, Bits<24>>,
    #[default(Constant::new(Bits::<3>::from((AETH_CLASS_ACK as u8) as u64)))]
    k_class_ack: Constant<Bits<3>>,
    #[default(syn(syndrome::NAK_SEQ))]
    k_syn_seq: Constant<Bits<8>>,
    #[default(syn(syndrome::NAK_INVALID))]
    k_syn_invalid: Constant<Bits<8>>,
    #[default(syn(syndrome::NAK_ACCESS))]
    k_syn_access: Constant<Bits<8>>,
    #[default(status(wr::Status::RemoteInvalid))]
    k_st_remote_invalid: Constant<Bits<8>>,
    #[default(status(wr::Status::RemoteAccess))]
    k_st_remote_access: Constant<Bits<8>>,
    #[default(status(wr::Status::RemoteOp))]
    k_st_remote_op: Constant<Bits<8>>,
}

impl Logic for FbCheck {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            r_is_ack,
            r_rresp,
            r_nak_status,
            r_p_in,
            p_above,
            r_is_ahead
        );
        self.op_class.op.next = self.fb_opcode.val();
        self.r_rresp.d.next = (self.is_fb.val() && self.op_class.read_resp.val());
        self.r_is_ack.d.next = ((self.op_class.ack.val()
            && (self.fb_aeth.val().get_bits::<3>(29) == self.k_class_ack.val()))
            || self.op_class.read_resp.val());
        // `wr::Status::of_nak`: the syndrome is the AETH's top byte.
        if (self.fb_aeth.val().get_bits::<8>(24) == self.k_syn_seq.val()) {
            self.r_nak_status.d.next = 0.into();
        } else if (self.fb_aeth.val().get_bits::<8>(24) == self.k_syn_invalid.val()) {
            self.r_nak_status.d.next = self.k_st_remote_invalid.val();
        } else if (self.fb_aeth.val().get_bits::<8>(24) == self.k_syn_access.val()) {
            self.r_nak_status.d.next = self.k_st_remote_access.val();
        } else {
            self.r_nak_status.d.next = self.k_st_remote_op.val();
        }
        if self.is_nak.val() {
            self.r_p_in.d.next = (self.fb_psn.val() - 1);
            self.p_above.d.next = self.fb_psn.val();
        } else {
            self.r_p_in.d.next = self.fb_psn.val();
            self.p_above.d.next = (self.fb_psn.val() + 1);
        }
        // p_in − (psn_max − 1), its zero test an equality beside the
        // chain.
        self.ahead.next = (self.p_above.q.val() - self.psn_max.val());
        self.r_is_ahead.d.next =
            ((self.p_above.q.val() != self.psn_max.val()) && !self.ahead.val().get_bit(23));
        self.is_ack.next = self.r_is_ack.q.val();
        self.rresp.next = self.r_rresp.q.val();
        self.nak_status.next = self.r_nak_status.q.val();
        self.p_in.next = self.r_p_in.q.val();
        self.is_ahead.next = self.r_is_ahead.q.val();
    }
}
