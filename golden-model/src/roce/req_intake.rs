//! Twin of `hdl/src/roce/req_intake.rs` (`ReqIntake`): the requester's
//! five input stages, the choice among their heads (context, feedback,
//! NAK, timer, PktSend, work request) and the operation taken, latched
//! (its flow, a timer entry's generation, feedback's PSN and a work
//! request's opcode and length at the take, the other fields a cycle
//! later). See the RTL's docs for the ports.

use crate::record::Stage;
use crate::roce::{CcFeedback, NakReq, ReqFlowCtx, WorkReq};
use crate::sched::PktSend;
use crate::Cycle;

const PSN_MASK: u32 = 0xFF_FFFF;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    pub ctx_valid: bool,
    pub ctx: ReqFlowCtx,
    pub wr_valid: bool,
    pub wr: WorkReq,
    pub send_valid: bool,
    pub send: PktSend,
    pub fb_valid: bool,
    pub fb: CcFeedback,
    pub nak_valid: bool,
    pub nak: NakReq,
    pub idle: bool,
    pub desc_full: bool,
    pub t_exp: bool,
    /// 56 bits: flow << 40 | generation << 32 | deadline.
    pub t_head: u64,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub ctx_ready: bool,
    pub wr_ready: bool,
    pub send_ready: bool,
    pub fb_ready: bool,
    pub nak_ready: bool,
    pub take_ctx: bool,
    pub take_fb: bool,
    pub take_nak: bool,
    pub take_t: bool,
    pub take_send: bool,
    pub take_wr: bool,
    pub take: bool,
    /// 16 bits, each.
    pub flow_in: u32,
    pub flow_next: u32,
    pub flow: u32,
    pub ctx_active: bool,
    pub ctx_psn: u32,
    pub ctx_tlm_data: bool,
    pub ctx_retry_limit: u8,
    pub wr_opcode: u8,
    pub wr_laddr: u64,
    pub wr_va: u64,
    pub wr_rkey: u32,
    pub wr_len: u32,
    pub wr_tag: u32,
    pub send_seq: u32,
    pub send_len: u32,
    pub send_probe: bool,
    pub send_epoch: u8,
    pub fb_psn: u32,
    pub fb_aeth: u32,
    pub fb_opcode: u8,
    pub fb_tlm: bool,
    pub fb_hdr: u64,
    pub fb_hop0: u64,
    pub fb_hop1: u64,
    pub fb_hop2: u64,
    pub fb_hop3: u64,
    pub fb_hop4: u64,
    pub t_gen: u8,
}

/// The latched operation: the registers behind `Out`'s last fields.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Latched {
    pub flow: u32,
    pub ctx: ReqFlowCtx,
    pub wr: WorkReq,
    pub send: PktSend,
    /// Feedback, or a NAK as feedback (its syndrome in `aeth`'s top byte).
    pub fb: CcFeedback,
    pub t_gen: u8,
}

#[derive(Clone, Debug, Default)]
pub struct ReqIntake<const A: usize> {
    in_ctx: Stage<ReqFlowCtx>,
    in_wr: Stage<WorkReq>,
    in_send: Stage<PktSend>,
    in_fb: Stage<CcFeedback>,
    in_nak: Stage<NakReq>,
    pub r: Latched,
    /// The record taken in the cycle before, latched from its stage in
    /// this one (the RTL's `took_*`); the timer's is latched at its take.
    took: Option<Took>,
}

/// Which stage's record the latch takes a cycle after its take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Took {
    Ctx,
    Fb,
    Nak,
    Send,
    Wr,
}

impl<const A: usize> ReqIntake<A> {
    const FLOW_MASK: u32 = (1 << A) - 1;

    /// The records as the stages' registers hold them (each field at its
    /// width).
    fn narrow(i: &In) -> In {
        let mut n = *i;
        n.ctx.flow &= Self::FLOW_MASK;
        n.ctx.psn &= PSN_MASK;
        n.ctx.retry_limit &= 7;
        n.fb.flow &= Self::FLOW_MASK;
        n.fb.psn &= PSN_MASK;
        n.nak.flow &= Self::FLOW_MASK;
        n.nak.psn &= PSN_MASK;
        n.send.flow &= 0xFFFF;
        n.send.len &= 0xFFFF;
        n.wr.flow &= 0xFFFF;
        n
    }
}

impl<const A: usize> Cycle for ReqIntake<A> {
    type In = In;
    type Out = Out;

    fn step(&mut self, i: &In) -> Out {
        let i = &Self::narrow(i);
        let (ctx, fb, nak) = (self.in_ctx.full, self.in_fb.full, self.in_nak.full);
        let send_valid = self.in_send.full && !i.desc_full;
        let take_ctx = i.idle && ctx;
        let take_fb = i.idle && !ctx && fb;
        let take_nak = i.idle && !ctx && !fb && nak;
        let take_t = i.idle && !ctx && !fb && !nak && i.t_exp;
        let take_send = i.idle && !ctx && !fb && !nak && !i.t_exp && send_valid;
        let take_wr = i.idle && !ctx && !fb && !nak && !i.t_exp && !send_valid && self.in_wr.full;
        let take = take_ctx || take_fb || take_nak || take_t || take_send || take_wr;
        let t_flow = (i.t_head >> 40) as u32 & 0xFFFF;
        let flow_in = if ctx {
            self.in_ctx.reg.flow
        } else if fb {
            self.in_fb.reg.flow
        } else if nak {
            self.in_nak.reg.flow
        } else if i.t_exp {
            t_flow
        } else if send_valid {
            self.in_send.reg.flow
        } else {
            self.in_wr.reg.flow
        };
        let mut r = self.r;
        // The stage still holds the record taken in the cycle before.
        match self.took {
            Some(Took::Ctx) => r.ctx = self.in_ctx.reg,
            Some(Took::Fb) => {
                r.fb = CcFeedback {
                    psn: r.fb.psn,
                    ..self.in_fb.reg
                }
            }
            Some(Took::Nak) => {
                let n = self.in_nak.reg;
                r.fb = CcFeedback {
                    flow: r.fb.flow,
                    psn: r.fb.psn,
                    aeth: (n.syndrome as u32) << 24,
                    ..CcFeedback::default()
                };
            }
            Some(Took::Send) => r.send = self.in_send.reg,
            Some(Took::Wr) => {
                r.wr = WorkReq {
                    opcode: r.wr.opcode,
                    len: r.wr.len,
                    ..self.in_wr.reg
                }
            }
            None => {}
        }
        if take_t {
            r.t_gen = (i.t_head >> 32) as u8;
        }
        // The feedback's PSN at the take (`FbCheck` needs it two cycles
        // before `Decide`).
        // The work request's opcode and length likewise (`WrCheck`).
        if take_wr {
            r.wr.opcode = self.in_wr.reg.opcode;
            r.wr.len = self.in_wr.reg.len;
        }
        if take_fb {
            r.fb.psn = self.in_fb.reg.psn;
        } else if take_nak {
            r.fb.psn = self.in_nak.reg.psn;
        }
        self.took = if take_ctx {
            Some(Took::Ctx)
        } else if take_fb {
            Some(Took::Fb)
        } else if take_nak {
            Some(Took::Nak)
        } else if take_send {
            Some(Took::Send)
        } else if take_wr {
            Some(Took::Wr)
        } else {
            None
        };
        if take {
            r.flow = flow_in;
        }
        let l = &self.r;
        let out = Out {
            ctx_ready: self.in_ctx.s_ready(),
            wr_ready: self.in_wr.s_ready(),
            send_ready: self.in_send.s_ready(),
            fb_ready: self.in_fb.s_ready(),
            nak_ready: self.in_nak.s_ready(),
            take_ctx,
            take_fb,
            take_nak,
            take_t,
            take_send,
            take_wr,
            take,
            flow_in,
            flow_next: r.flow,
            flow: l.flow,
            ctx_active: l.ctx.active,
            ctx_psn: l.ctx.psn,
            ctx_tlm_data: l.ctx.tlm_data,
            ctx_retry_limit: l.ctx.retry_limit,
            wr_opcode: l.wr.opcode,
            wr_laddr: l.wr.laddr,
            wr_va: l.wr.va,
            wr_rkey: l.wr.rkey,
            wr_len: l.wr.len,
            wr_tag: l.wr.tag,
            send_seq: l.send.seq,
            send_len: l.send.len,
            send_probe: l.send.probe,
            send_epoch: l.send.epoch,
            fb_psn: l.fb.psn,
            fb_aeth: l.fb.aeth,
            fb_opcode: l.fb.opcode,
            fb_tlm: l.fb.tlm.present,
            fb_hdr: l.fb.tlm.hdr,
            fb_hop0: l.fb.tlm.hop0,
            fb_hop1: l.fb.tlm.hop1,
            fb_hop2: l.fb.tlm.hop2,
            fb_hop3: l.fb.tlm.hop3,
            fb_hop4: l.fb.tlm.hop4,
            t_gen: l.t_gen,
        };
        self.r = r;
        self.in_ctx.step(i.ctx_valid.then_some(i.ctx), take_ctx);
        self.in_wr.step(i.wr_valid.then_some(i.wr), take_wr);
        self.in_send.step(i.send_valid.then_some(i.send), take_send);
        self.in_fb.step(i.fb_valid.then_some(i.fb), take_fb);
        self.in_nak.step(i.nak_valid.then_some(i.nak), take_nak);
        out
    }
}
