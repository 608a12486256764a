//! Twin of `hdl/src/nic/tx_arb.rs`: the Tx builder's descriptor port;
//! ACKs first, then CNPs, NOTIFYs, then READ responses and the requester
//! in turn.

use crate::cc::CnpReq;
use crate::roce::{AckInfo, TxDesc};
use crate::Cycle;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
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
        let pick_c = !i.ack_valid && i.cnp_valid;
        let first = i.ack_valid || i.cnp_valid || i.notify_valid;
        let pick_n = !i.ack_valid && !i.cnp_valid && i.notify_valid;
        let pick_r = !first && i.rresp_valid && (!i.req_valid || self.turn_r);
        let pick_q = !first && !pick_r && i.req_valid;
        let out = Out {
            ack_ready: i.desc_ready,
            cnp_ready: i.desc_ready && pick_c,
            notify_ready: i.desc_ready && pick_n,
            rresp_ready: i.desc_ready && pick_r,
            req_ready: i.desc_ready && pick_q,
            desc_valid: first || i.rresp_valid || i.req_valid,
            desc: if i.ack_valid {
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
        if i.desc_ready && i.ack_valid {
            self.acks = self.acks.wrapping_add(1);
        }
        out
    }
}
