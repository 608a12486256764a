//! Twin of `hdl/src/nic/tx_arb.rs`: the Tx builder's descriptor port;
//! ACKs first, then CNPs, NOTIFYs, then READ responses and the requester
//! in turn. With `TX_CTL_SHARE` = s > 0, control frames take at most 2^-s
//! of the line while data waits (the control budget). A registered grant
//! (a source's `ready`) in front of one output register (`m_desc`), filled
//! only when it is empty and the Tx asks: every output is state, so no
//! input reaches an output in the same cycle.

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
    /// Grants the budget held from a waiting control frame and gave to
    /// data (counted a cycle later).
    pub ctl_held: u32,
}

/// A source of the arbiter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Source {
    Ack,
    Cnp,
    Notify,
    Rresp,
    Req,
}

#[derive(Clone, Debug, Default)]
pub struct TxArb<const A: usize> {
    /// The source granted: its record is taken this cycle if valid.
    grant: Option<Source>,
    /// The output register (`m_desc`) and its flag.
    out: TxDesc,
    out_v: bool,
    /// `ctl_open`: the budget was open last cycle.
    open: bool,
    turn_r: bool,
    /// An ACK was taken last cycle (counted then).
    ack_taken: bool,
    acks: u32,
    /// A grant went to data while the budget held control.
    held: bool,
    n_held: u32,
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
        let g = self.grant;
        let out = Out {
            ctl_open: self.open,
            ack_ready: g == Some(Source::Ack),
            cnp_ready: g == Some(Source::Cnp),
            notify_ready: g == Some(Source::Notify),
            rresp_ready: g == Some(Source::Rresp),
            req_ready: g == Some(Source::Req),
            desc_valid: self.out_v,
            desc: self.out,
            acks: self.acks,
            ctl_held: self.n_held,
        };
        // The take: the granted source, if it is still valid.
        let taken = g.filter(|s| match s {
            Source::Ack => i.ack_valid,
            Source::Cnp => i.cnp_valid,
            Source::Notify => i.notify_valid,
            Source::Rresp => i.rresp_valid,
            Source::Req => i.req_valid,
        });
        let out_v_was = self.out_v;
        match taken {
            Some(s) => {
                self.out = match s {
                    Source::Ack => ack_desc(&i.ack),
                    Source::Cnp => cnp_desc(i.cnp.flow as u32 & ((1u32 << A) - 1)),
                    Source::Notify => i.notify,
                    Source::Rresp => i.rresp,
                    Source::Req => i.req,
                };
                self.out_v = true;
            }
            None if i.desc_ready => self.out_v = false,
            None => {}
        }
        match taken {
            Some(Source::Rresp) => self.turn_r = false,
            Some(Source::Req) => self.turn_r = true,
            _ => {}
        }
        if self.ack_taken {
            self.acks = self.acks.wrapping_add(1);
        }
        self.ack_taken = taken == Some(Source::Ack);
        if self.held {
            self.n_held = self.n_held.wrapping_add(1);
        }
        // The control budget: a control frame taken while data waits sets
        // the debt to its cost, else the debt falls by one.
        let data_waits = i.rresp_valid || i.req_valid;
        let taken_tlm = match taken {
            _ if !data_waits => None,
            Some(Source::Ack) => Some(i.ack.tlm.present),
            Some(Source::Cnp) => Some(false),
            Some(Source::Notify) => Some(i.notify.tlm.present),
            _ => None,
        };
        let debt_nz = self.debt_nz;
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
        // The grant for next cycle, only when the output register is
        // empty, nothing is taken and the Tx asks (so the choice is made
        // when the Tx can take the frame, not a frame ahead of it).
        let open = !debt_nz || s == 0 || !data_waits;
        self.open = open;
        let free = taken.is_none() && !out_v_was && i.desc_ready;
        self.held = free && !open && (i.ack_valid || i.cnp_valid || i.notify_valid);
        self.grant = if !free {
            None
        } else if open && i.ack_valid {
            Some(Source::Ack)
        } else if open && i.cnp_valid {
            Some(Source::Cnp)
        } else if open && i.notify_valid {
            Some(Source::Notify)
        } else if i.rresp_valid && (!i.req_valid || self.turn_r) {
            Some(Source::Rresp)
        } else if i.req_valid {
            Some(Source::Req)
        } else {
            None
        };
        out
    }
}
