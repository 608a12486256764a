//! Twin of `hdl/src/nic/tx_arb.rs`: the Tx builder's descriptor port;
//! ACKs first, then CNPs, NOTIFYs, then READ responses and the requester
//! in turn. With `TX_CTL_SHARE` = s > 0, control frames take at most 2^-s
//! of the line while data waits (the control budget).

use crate::cc::CnpReq;
use crate::roce::{AckInfo, TxDesc};
use crate::Cycle;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    /// `TX_CTL_SHARE`.
    pub cfg_ctl_share: u8,
    pub ack_valid: bool,
    pub ack: AckInfo,
    pub cnp_valid: bool,
    pub cnp: CnpReq,
    pub notify_valid: bool,
    pub notify: TxDesc,
    pub rresp_valid: bool,
    pub rresp: TxDesc,
    pub req_valid: bool,
    pub req: TxDesc,
    pub desc_ready: bool,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    /// The control sources may go (`AckCoalesce` loads its output
    /// register only then, so the ACK sent is the newest).
    pub ctl_open: bool,
    pub ack_ready: bool,
    pub cnp_ready: bool,
    pub notify_ready: bool,
    pub rresp_ready: bool,
    pub req_ready: bool,
    pub desc_valid: bool,
    pub desc: TxDesc,
    pub acks: u32,
}

#[derive(Clone, Debug, Default)]
pub struct TxArb<const A: usize> {
    turn_r: bool,
    acks: u32,
    /// Cycles before the next control frame may go while data waits.
    ctl_debt: u32,
    /// `ctl_debt` is not 0 (a register of its own).
    debt_nz: bool,
    /// The costs of a control frame with and without telemetry.
    cost_tlm: u32,
    cost_plain: u32,
}

/// The ACK/NAK descriptor for a dispatcher's `AckInfo`.
pub fn ack_desc(a: &AckInfo) -> TxDesc {
    TxDesc {
        flow: a.flow,
        opcode: nic_spec::roce::ack_opcode(a.tlm.present),
        psn: a.psn,
        aeth: a.aeth,
        tlm: a.tlm,
        ..Default::default()
    }
}

/// The CNP descriptor for flow `flow` (opcode 0x81, everything else 0).
pub fn cnp_desc(flow: u32) -> TxDesc {
    TxDesc {
        flow,
        opcode: nic_spec::roce::op::CNP,
        ..Default::default()
    }
}

impl<const A: usize> Cycle for TxArb<A> {
    type In = In;
    type Out = Out;
    fn step(&mut self, i: &In) -> Out {
        let ctl_open =
            !self.debt_nz || i.cfg_ctl_share & 7 == 0 || (!i.rresp_valid && !i.req_valid);
        let ack_valid = i.ack_valid && ctl_open;
        let cnp_valid = i.cnp_valid && ctl_open;
        let notify_valid = i.notify_valid && ctl_open;
        let pick_c = !ack_valid && cnp_valid;
        let first = ack_valid || cnp_valid || notify_valid;
        let pick_n = !ack_valid && !cnp_valid && notify_valid;
        let pick_r = !first && i.rresp_valid && (!i.req_valid || self.turn_r);
        let pick_q = !first && !pick_r && i.req_valid;
        let out = Out {
            ctl_open,
            ack_ready: i.desc_ready && ctl_open,
            cnp_ready: i.desc_ready && pick_c,
            notify_ready: i.desc_ready && pick_n,
            rresp_ready: i.desc_ready && pick_r,
            req_ready: i.desc_ready && pick_q,
            desc_valid: first || i.rresp_valid || i.req_valid,
            desc: if ack_valid {
                ack_desc(&i.ack)
            } else if pick_c {
                cnp_desc(i.cnp.flow as u32 & ((1u32 << A) - 1))
            } else if pick_n {
                i.notify
            } else if pick_r {
                i.rresp
            } else {
                i.req
            },
            acks: self.acks,
        };
        if i.desc_ready && (pick_r || pick_q) {
            self.turn_r = pick_q;
        }
        if i.desc_ready && ack_valid {
            self.acks = self.acks.wrapping_add(1);
        }
        // The control budget: a control frame taken while data waits sets
        // the debt to its cost, else the debt falls by one.
        let data_waits = i.rresp_valid || i.req_valid;
        let taken_tlm = if !data_waits {
            None
        } else if i.desc_ready && ack_valid {
            Some(i.ack.tlm.present)
        } else if i.desc_ready && pick_c {
            Some(false)
        } else if i.desc_ready && pick_n {
            Some(i.notify.tlm.present)
        } else {
            None
        };
        match taken_tlm {
            Some(tlm) => {
                self.ctl_debt = if tlm { self.cost_tlm } else { self.cost_plain };
            }
            None => self.ctl_debt = self.ctl_debt.saturating_sub(1),
        }
        self.debt_nz = self.ctl_debt != 0;
        let s = (i.cfg_ctl_share & 7) as u32;
        self.cost_tlm = nic_spec::roce::ctl_cost(nic_spec::roce::CTL_WIRE_WORDS_TLM, s);
        self.cost_plain = nic_spec::roce::ctl_cost(nic_spec::roce::CTL_WIRE_WORDS_PLAIN, s);
        out
    }
}
