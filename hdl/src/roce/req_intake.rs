//! The requester's intake: its five inputs' stages, the choice among
//! their heads and the timer's expired entry, and the operation taken,
//! latched. A block of [`Requester`](super::requester::Requester).
//!
//! # What it does
//! Each input passes its record's input stage (`<Record>::Stage`, one
//! register; timing rule R1): `s_*.ready` is the stage's empty flag, a
//! flip-flop. While `idle` (the requester in `Idle`, or in `Wb`, the last
//! cycle of an operation) one operation is taken, in this order: a
//! context write (`s_ctx`), feedback (`s_fb`), a NAK (`s_nak`), the
//! timer's expired entry (`t_exp`, `t_head`), a PktSend (`s_send`, not
//! while `desc_full`), a work request (`s_wr`). The taken record's
//! fields are latched (a cycle after the take, see Timing) and held
//! until the next take's: a context write's
//! `ctx_*`, feedback's `fb_*` (a NAK's PSN in `fb_psn`, its syndrome in
//! `fb_aeth`'s top byte, the rest 0), the timer entry's generation
//! `t_gen`, a PktSend's `send_*`, a work request's `wr_*`; `flow` is the
//! taken operation's flow (16 bits; the records' narrower flows
//! zero-extended).
//!
//! # Ports (clock `clock`; no reset: the registers start at zero)
//! - In: `s_ctx` ([`ReqFlowCtxSink`]), `s_wr` ([`WorkReqSink`]),
//!   `s_send` ([`PktSendSink`]), `s_fb` ([`CcFeedbackSink`]), `s_nak`
//!   ([`NakReqSink`]); `idle`; `desc_full` (no PktSend is taken while
//!   high); `t_exp` (the timer's head entry has expired) and `t_head`
//!   (that entry: flow << 40 | generation << 32 | deadline).
//! - Out, combinational (the requester's own logic, not a block
//!   boundary): `take_ctx`, `take_fb`, `take_nak`, `take_t` (the timer
//!   entry: pop it), `take_send`, `take_wr` (at most one high), `take`
//!   (any of them), `flow_in` (the flow the head in priority names, a
//!   take or not) and `flow_next` (`flow` after this cycle's edge).
//! - Out, flip-flops: `flow`, `ctx_active`, `ctx_psn`, `ctx_tlm_data`,
//!   `ctx_retry_limit`, `wr_opcode`, `wr_laddr`, `wr_va`, `wr_rkey`,
//!   `wr_len`, `wr_tag`, `send_seq`, `send_len`, `send_probe`,
//!   `send_epoch`, `fb_psn`, `fb_aeth`, `fb_opcode`, `fb_tlm`, `fb_hdr`,
//!   `fb_hop0`..`fb_hop4`, `t_gen`.
//!
//! # Timing
//! A record offered to an empty stage is at its head a cycle later; a
//! head taken in cycle t has its `flow` (a timer entry its `t_gen`,
//! feedback or a NAK its `fb_psn`, a work request its `wr_opcode` and
//! `wr_len`: what `FbCheck` and `WrCheck` need two cycles before
//! `Decide`) latched at the edge of t and its other fields at the edge of t + 1
//! (at the outputs from t + 2: the requester reads them from `Flow` on),
//! the latch enabled by a flip-flop (`took_*`) so the choice's priority
//! ends in six flip-flops, not in the hundreds of the latch's enables;
//! the stage holds the record through t + 1 and takes the next record in
//! t + 1 (at its head in t + 2). No input reaches a `ready`; the takes
//! and `flow_in` follow the stages' valid flags and `idle` through a
//! priority of six.
//!
//! # Bad input
//! None of its own: a record is latched as it is; the requester checks
//! it (the flow's range, the opcode, the length, the epoch).
//!
//! Golden twin: `nic_golden::roce::req_intake`.

use crate::roce::{
    CcFeedback, CcFeedbackSink, NakReq, NakReqSink, ReqFlowCtx, ReqFlowCtxSink, WorkReq,
    WorkReqSink,
};
use crate::sched::{PktSend, PktSendSink};
use rust_hdl::prelude::*;
use smart_default::SmartDefault;

/// The intake of a requester for 2^A flows.
#[derive(LogicBlock, SmartDefault)]
pub struct ReqIntake<const A: usize> {
    pub clock: Signal<In, Clock>,
    pub s_ctx: ReqFlowCtxSink<A>,
    pub s_wr: WorkReqSink,
    pub s_send: PktSendSink,
    pub s_fb: CcFeedbackSink<A>,
    pub s_nak: NakReqSink<A>,
    pub idle: Signal<In, Bit>,
    pub desc_full: Signal<In, Bit>,
    pub t_exp: Signal<In, Bit>,
    pub t_head: Signal<In, Bits<56>>,
    pub take_ctx: Signal<Out, Bit>,
    pub take_fb: Signal<Out, Bit>,
    pub take_nak: Signal<Out, Bit>,
    pub take_t: Signal<Out, Bit>,
    pub take_send: Signal<Out, Bit>,
    pub take_wr: Signal<Out, Bit>,
    pub take: Signal<Out, Bit>,
    pub flow_in: Signal<Out, Bits<16>>,
    pub flow_next: Signal<Out, Bits<16>>,
    pub flow: Signal<Out, Bits<16>>,
    pub ctx_active: Signal<Out, Bit>,
    pub ctx_psn: Signal<Out, Bits<24>>,
    pub ctx_tlm_data: Signal<Out, Bit>,
    pub ctx_retry_limit: Signal<Out, Bits<3>>,
    pub wr_opcode: Signal<Out, Bits<8>>,
    pub wr_laddr: Signal<Out, Bits<64>>,
    pub wr_va: Signal<Out, Bits<64>>,
    pub wr_rkey: Signal<Out, Bits<32>>,
    pub wr_len: Signal<Out, Bits<32>>,
    pub wr_tag: Signal<Out, Bits<32>>,
    pub send_seq: Signal<Out, Bits<32>>,
    pub send_len: Signal<Out, Bits<16>>,
    pub send_probe: Signal<Out, Bit>,
    pub send_epoch: Signal<Out, Bits<8>>,
    pub fb_psn: Signal<Out, Bits<24>>,
    pub fb_aeth: Signal<Out, Bits<32>>,
    pub fb_opcode: Signal<Out, Bits<8>>,
    pub fb_tlm: Signal<Out, Bit>,
    pub fb_hdr: Signal<Out, Bits<64>>,
    pub fb_hop0: Signal<Out, Bits<64>>,
    pub fb_hop1: Signal<Out, Bits<64>>,
    pub fb_hop2: Signal<Out, Bits<64>>,
    pub fb_hop3: Signal<Out, Bits<64>>,
    pub fb_hop4: Signal<Out, Bits<64>>,
    pub t_gen: Signal<Out, Bits<8>>,
    in_ctx: ReqFlowCtx::Stage<A>,
    in_wr: WorkReq::Stage,
    in_send: PktSend::Stage,
    in_fb: CcFeedback::Stage<A>,
    in_nak: NakReq::Stage<A>,
    r_flow: DFF<Bits<16>>,
    r_ctx_active: DFF<Bit>,
    r_ctx_psn: DFF<Bits<24>>,
    r_ctx_tlm_data: DFF<Bit>,
    r_ctx_retry_limit: DFF<Bits<3>>,
    r_wr_opcode: DFF<Bits<8>>,
    r_wr_laddr: DFF<Bits<64>>,
    r_wr_va: DFF<Bits<64>>,
    r_wr_rkey: DFF<Bits<32>>,
    r_wr_len: DFF<Bits<32>>,
    r_wr_tag: DFF<Bits<32>>,
    r_send_seq: DFF<Bits<32>>,
    r_send_len: DFF<Bits<16>>,
    r_send_probe: DFF<Bit>,
    r_send_epoch: DFF<Bits<8>>,
    r_fb_psn: DFF<Bits<24>>,
    r_fb_aeth: DFF<Bits<32>>,
    r_fb_opcode: DFF<Bits<8>>,
    r_fb_tlm: DFF<Bit>,
    r_fb_hdr: DFF<Bits<64>>,
    r_fb_hop0: DFF<Bits<64>>,
    r_fb_hop1: DFF<Bits<64>>,
    r_fb_hop2: DFF<Bits<64>>,
    r_fb_hop3: DFF<Bits<64>>,
    r_fb_hop4: DFF<Bits<64>>,
    r_t_gen: DFF<Bits<8>>,
    /// The kind taken in the cycle before (`take_*`, registered): the
    /// enable of its record's latch, a flip-flop, so the decision's
    /// priority does not reach the latch's many enables (R1).
    took_ctx: DFF<Bit>,
    took_fb: DFF<Bit>,
    took_nak: DFF<Bit>,
    took_send: DFF<Bit>,
    took_wr: DFF<Bit>,
    send_valid: Signal<Local, Bit>,
}

impl<const A: usize> Logic for ReqIntake<A> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            r_flow,
            r_ctx_active,
            r_ctx_psn,
            r_ctx_tlm_data,
            r_ctx_retry_limit,
            r_wr_opcode,
            r_wr_laddr,
            r_wr_va,
            r_wr_rkey,
            r_wr_len,
            r_wr_tag,
            r_send_seq,
            r_send_len,
            r_send_probe,
            r_send_epoch,
            r_fb_psn,
            r_fb_aeth,
            r_fb_opcode,
            r_fb_tlm,
            r_fb_hdr,
            r_fb_hop0,
            r_fb_hop1,
            r_fb_hop2,
            r_fb_hop3,
            r_fb_hop4,
            r_t_gen,
            took_ctx,
            took_fb,
            took_nak,
            took_send,
            took_wr
        );
        clock!(self, clock, in_ctx, in_wr, in_send, in_fb, in_nak);
        ReqFlowCtxSink::<A>::link(&mut self.s_ctx, &mut self.in_ctx.s);
        WorkReqSink::link(&mut self.s_wr, &mut self.in_wr.s);
        PktSendSink::link(&mut self.s_send, &mut self.in_send.s);
        CcFeedbackSink::<A>::link(&mut self.s_fb, &mut self.in_fb.s);
        NakReqSink::<A>::link(&mut self.s_nak, &mut self.in_nak.s);

        // ---- The choice: context, feedback, NAK, timer, PktSend, work
        // request.
        self.take_ctx.next = (self.idle.val() && self.in_ctx.m.valid.val());
        self.take_fb.next =
            (self.idle.val() && !self.in_ctx.m.valid.val() && self.in_fb.m.valid.val());
        self.take_nak.next = (self.idle.val()
            && !self.in_ctx.m.valid.val()
            && !self.in_fb.m.valid.val()
            && self.in_nak.m.valid.val());
        self.take_t.next = (self.idle.val()
            && !self.in_ctx.m.valid.val()
            && !self.in_fb.m.valid.val()
            && !self.in_nak.m.valid.val()
            && self.t_exp.val());
        self.send_valid.next = (self.in_send.m.valid.val() && !self.desc_full.val());
        self.take_send.next = (self.idle.val()
            && !self.in_ctx.m.valid.val()
            && !self.in_fb.m.valid.val()
            && !self.in_nak.m.valid.val()
            && !self.t_exp.val()
            && self.send_valid.val());
        self.take_wr.next = (self.idle.val()
            && !self.in_ctx.m.valid.val()
            && !self.in_fb.m.valid.val()
            && !self.in_nak.m.valid.val()
            && !self.t_exp.val()
            && !self.send_valid.val()
            && self.in_wr.m.valid.val());
        self.take.next = (self.take_ctx.val()
            || self.take_fb.val()
            || self.take_nak.val()
            || self.take_t.val()
            || self.take_send.val()
            || self.take_wr.val());
        self.in_ctx.m.ready.next = self.take_ctx.val();
        self.in_fb.m.ready.next = self.take_fb.val();
        self.in_nak.m.ready.next = self.take_nak.val();
        self.in_send.m.ready.next = self.take_send.val();
        self.in_wr.m.ready.next = self.take_wr.val();
        if self.in_ctx.m.valid.val() {
            self.flow_in.next = bit_cast::<16, A>(self.in_ctx.m.flow.val());
        } else if self.in_fb.m.valid.val() {
            self.flow_in.next = bit_cast::<16, A>(self.in_fb.m.flow.val());
        } else if self.in_nak.m.valid.val() {
            self.flow_in.next = bit_cast::<16, A>(self.in_nak.m.flow.val());
        } else if self.t_exp.val() {
            self.flow_in.next = self.t_head.val().get_bits::<16>(40);
        } else if self.send_valid.val() {
            self.flow_in.next = self.in_send.m.flow.val();
        } else {
            self.flow_in.next = self.in_wr.m.flow.val();
        }

        // ---- The taken record, latched a cycle after its take, from the
        // stage's register, which holds it until the stage accepts the
        // next record at that same edge (the stage's `m` holds the last
        // record). The flow (the state RAM's write address in `Wb`, the
        // ring's), the timer's generation (the timer's head moves on at
        // the take), the feedback's PSN and the work request's opcode and
        // length (below) are latched at the take.
        self.took_ctx.d.next = self.take_ctx.val();
        self.took_fb.d.next = self.take_fb.val();
        self.took_nak.d.next = self.take_nak.val();
        self.took_send.d.next = self.take_send.val();
        self.took_wr.d.next = self.take_wr.val();
        if self.took_ctx.q.val() {
            self.r_ctx_active.d.next = self.in_ctx.m.active.val();
            self.r_ctx_psn.d.next = self.in_ctx.m.psn.val();
            self.r_ctx_tlm_data.d.next = self.in_ctx.m.tlm_data.val();
            self.r_ctx_retry_limit.d.next = self.in_ctx.m.retry_limit.val();
        }
        if self.took_fb.q.val() {
            self.r_fb_aeth.d.next = self.in_fb.m.aeth.val();
            self.r_fb_opcode.d.next = self.in_fb.m.opcode.val();
            self.r_fb_tlm.d.next = self.in_fb.m.tlm.present.val();
            self.r_fb_hdr.d.next = self.in_fb.m.tlm.hdr.val();
            self.r_fb_hop0.d.next = self.in_fb.m.tlm.hop0.val();
            self.r_fb_hop1.d.next = self.in_fb.m.tlm.hop1.val();
            self.r_fb_hop2.d.next = self.in_fb.m.tlm.hop2.val();
            self.r_fb_hop3.d.next = self.in_fb.m.tlm.hop3.val();
            self.r_fb_hop4.d.next = self.in_fb.m.tlm.hop4.val();
        }
        if self.took_nak.q.val() {
            self.r_fb_aeth.d.next = (bit_cast::<32, 8>(self.in_nak.m.syndrome.val()) << 24);
            self.r_fb_opcode.d.next = 0.into();
            self.r_fb_tlm.d.next = false;
            self.r_fb_hdr.d.next = 0.into();
            self.r_fb_hop0.d.next = 0.into();
            self.r_fb_hop1.d.next = 0.into();
            self.r_fb_hop2.d.next = 0.into();
            self.r_fb_hop3.d.next = 0.into();
            self.r_fb_hop4.d.next = 0.into();
        }
        // The PSN at the take: `FbCheck`'s `is_ahead` takes two cycles
        // from it (`FlowRd`, `Flow`).
        if self.take_fb.val() {
            self.r_fb_psn.d.next = self.in_fb.m.psn.val();
        }
        if self.take_nak.val() {
            self.r_fb_psn.d.next = self.in_nak.m.psn.val();
        }
        // The work request's opcode and length at the take: `WrCheck`'s
        // `is_full` takes two cycles from them.
        if self.take_wr.val() {
            self.r_wr_opcode.d.next = self.in_wr.m.opcode.val();
            self.r_wr_len.d.next = self.in_wr.m.len.val();
        }
        if self.take_t.val() {
            self.r_t_gen.d.next = self.t_head.val().get_bits::<8>(32);
        }
        if self.took_send.q.val() {
            self.r_send_seq.d.next = self.in_send.m.seq.val();
            self.r_send_len.d.next = self.in_send.m.len.val();
            self.r_send_probe.d.next = self.in_send.m.probe.val();
            self.r_send_epoch.d.next = self.in_send.m.epoch.val();
        }
        if self.took_wr.q.val() {
            self.r_wr_laddr.d.next = self.in_wr.m.laddr.val();
            self.r_wr_va.d.next = self.in_wr.m.va.val();
            self.r_wr_rkey.d.next = self.in_wr.m.rkey.val();
            self.r_wr_tag.d.next = self.in_wr.m.tag.val();
        }
        if self.take.val() {
            self.r_flow.d.next = self.flow_in.val();
        }
        self.flow_next.next = self.r_flow.d.val();

        // ---- Outputs: the latched registers.
        self.flow.next = self.r_flow.q.val();
        self.ctx_active.next = self.r_ctx_active.q.val();
        self.ctx_psn.next = self.r_ctx_psn.q.val();
        self.ctx_tlm_data.next = self.r_ctx_tlm_data.q.val();
        self.ctx_retry_limit.next = self.r_ctx_retry_limit.q.val();
        self.wr_opcode.next = self.r_wr_opcode.q.val();
        self.wr_laddr.next = self.r_wr_laddr.q.val();
        self.wr_va.next = self.r_wr_va.q.val();
        self.wr_rkey.next = self.r_wr_rkey.q.val();
        self.wr_len.next = self.r_wr_len.q.val();
        self.wr_tag.next = self.r_wr_tag.q.val();
        self.send_seq.next = self.r_send_seq.q.val();
        self.send_len.next = self.r_send_len.q.val();
        self.send_probe.next = self.r_send_probe.q.val();
        self.send_epoch.next = self.r_send_epoch.q.val();
        self.fb_psn.next = self.r_fb_psn.q.val();
        self.fb_aeth.next = self.r_fb_aeth.q.val();
        self.fb_opcode.next = self.r_fb_opcode.q.val();
        self.fb_tlm.next = self.r_fb_tlm.q.val();
        self.fb_hdr.next = self.r_fb_hdr.q.val();
        self.fb_hop0.next = self.r_fb_hop0.q.val();
        self.fb_hop1.next = self.r_fb_hop1.q.val();
        self.fb_hop2.next = self.r_fb_hop2.q.val();
        self.fb_hop3.next = self.r_fb_hop3.q.val();
        self.fb_hop4.next = self.r_fb_hop4.q.val();
        self.t_gen.next = self.r_t_gen.q.val();
    }
}
