//! Twin of `hdl/src/roce/requester.rs`: the requester, cycle-exact at the
//! ports.
//!
//! The requester turns work requests into the scheduler's byte stream
//! and the scheduler's PktSends into Tx descriptors, and acknowledgements
//! into completions (`docs/architecture.md` §5b). The RTL is one state
//! machine that handles one operation at a time; each operation reads
//! the flow's state words (`FLOW_RD`, then `FLOW`), works on a copy in registers, and
//! writes it back in `WB`. This model has the same states, the same
//! registers and the same output registers, so it is cycle-exact by
//! construction; its per-flow state and work-request ring are plain
//! arrays (no read ever meets a write of the same cycle in the RTL).
//!
//! Units: `seq` are bytes of the flow's byte stream (32-bit serial),
//! PSNs 24 bits. A work request holds `seq_first` (its first byte in the
//! stream) and `psn_first`; its packets sit at multiples of the MTU from
//! `seq_first`, so packet k is bytes `seq_first + k·MTU ..` and PSN
//! `psn_first + k`. A READ takes one byte of the byte stream (its
//! request is paced and windowed like a one-byte packet; the response
//! data is paced by the responder) and ceil(len/MTU) PSNs.

use crate::cc::CcEvent;
use crate::record::Stage;
use crate::roce::req_timer::{self, ReqTimer};
use crate::roce::{
    CcFeedback, NakReq, ReqFlowCtx, ReqStats, RxFlowCtx, Telemetry, TxDesc, WorkReq, WrCompletion,
};
use crate::sched::flow_sched::{OP_ACK, OP_DOORBELL, OP_INIT, OP_REWIND, OP_TRIM};
use crate::sched::{PktSend, SchedEvent};
use crate::Cycle;
use nic_spec::roce::{
    aeth_class, is_read_resp, op, segment_opcode, wr, AETH_CLASS_ACK, PSN_MASK, READS_IN_FLIGHT,
};

/// The fresh telemetry header (`docs/roce.md` §2): ver 1, nhop 0, maxhop 5.
pub const FRESH_HDR: u64 = 0x1000_0500_0000_0000;

/// The states (the RTL's `state` register holds these numbers).
pub mod st {
    pub const IDLE: u8 = 0;
    pub const FLOW: u8 = 1;
    pub const CTX_EV: u8 = 2;
    pub const WR_CMPL: u8 = 3;
    pub const WR_DB: u8 = 4;
    pub const PROBE_OUT: u8 = 5;
    pub const SEG_RD: u8 = 6;
    pub const SEG: u8 = 7;
    pub const SEG_OUT: u8 = 8;
    pub const TRIM_EV: u8 = 9;
    pub const ACK_RD: u8 = 10;
    pub const ACK_CHK: u8 = 11;
    pub const ACK_CMPL: u8 = 12;
    pub const POST: u8 = 13;
    pub const ACK_EV: u8 = 14;
    pub const DB_RD: u8 = 15;
    pub const DB_CHK: u8 = 16;
    pub const DB_EV: u8 = 17;
    pub const REW_RD: u8 = 18;
    pub const REW_CHK: u8 = 19;
    pub const REW_EV: u8 = 20;
    pub const CC_OUT: u8 = 21;
    pub const WB: u8 = 22;
    pub const DECIDE: u8 = 23;
    /// The second cycle of a ring read: the RTL registers what it derives
    /// from the entry (offsets, PSNs, lengths) before deciding.
    pub const SEG_RD2: u8 = 24;
    pub const ACK_RD2: u8 = 25;
    pub const DB_RD2: u8 = 26;
    pub const REW_RD2: u8 = 27;
    /// The flush after a fatal NAK or a spent retry limit: each work
    /// request left in the ring is read (two cycles) and completed, the
    /// first with the error, the rest `Flushed`; then the scheduler's
    /// INIT forgets the flow's bytes (`ERR_EV`).
    pub const FLUSH_RD: u8 = 28;
    pub const FLUSH_RD2: u8 = 29;
    pub const FLUSH_CHK: u8 = 30;
    pub const FLUSH_CMPL: u8 = 31;
    pub const ERR_EV: u8 = 32;
    /// The flow's state words leave the RAMs into their output registers
    /// (`ReqStateRam`, timing rule R3); `FLOW` takes them.
    pub const FLOW_RD: u8 = 33;
}

/// The operation being handled (the RTL's `kind` register).
pub mod kind {
    pub const CTX: u8 = 0;
    pub const WR: u8 = 1;
    pub const SEND: u8 = 2;
    pub const FB: u8 = 3;
    pub const NAK: u8 = 4;
    pub const TIMER: u8 = 5;
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    /// log2 MTU, clamped into 8..=12; hold constant while flows are active.
    pub cfg_mtu_log2: u8,
    /// Retransmission timeout, cycles.
    pub cfg_rto: u32,
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
    pub ev_ready: bool,
    pub desc_ready: bool,
    pub cmpl_ready: bool,
    pub cc_ready: bool,
    /// The descriptor queue after `m_desc` is full (`DescQueue`): take no
    /// PktSend, and cut the one being cut at its next segment.
    pub desc_full: bool,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub ctx_ready: bool,
    pub wr_ready: bool,
    pub send_ready: bool,
    pub fb_ready: bool,
    pub nak_ready: bool,
    pub ev_valid: bool,
    pub ev: SchedEvent,
    pub desc_valid: bool,
    pub desc: TxDesc,
    pub rd_valid: bool,
    pub rd: RxFlowCtx,
    pub cmpl_valid: bool,
    pub cmpl: WrCompletion,
    pub cc_valid: bool,
    pub cc: CcEvent,
    pub stats: ReqStats,
}

/// One flow's state (the RTL's four state words).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FlowState {
    pub active: bool,
    /// Telemetry in every data packet (else in probes only).
    pub tlm_data: bool,
    /// READs doorbelled and not complete, 0..=8. A later WRITE waits
    /// (the fence, not doorbelled) while any is open; a later READ while
    /// [`READS_IN_FLIGHT`] are; and a work request waits behind one that
    /// waits.
    pub rd_open: u32,
    /// The flow has an entry in the timer FIFO.
    pub armed: bool,
    /// Responses received of the READ at the head of the ring (its
    /// request, sent again, asks for the rest; a READ behind it has none).
    pub rd_k: u32,
    /// READs posted, mod 16: the next READ's landing entry at the
    /// dispatcher (entry = bits 2..0, lap = bit 3).
    pub rd_post: u32,
    /// Bumped by progress (acknowledged bytes) and by a context write.
    pub gen: u8,
    /// The scheduler's epoch for this flow, as last set by the requester.
    pub epoch: u8,
    /// Ring indices, mod 2^(Q+1): oldest incomplete, next to send, next to
    /// doorbell, next free.
    pub head: u32,
    pub send: u32,
    pub db: u32,
    pub tail: u32,
    /// Byte stream: end of the last work request, acknowledged point, next
    /// PktSend expected.
    pub seq_tail: u32,
    pub una: u32,
    pub seq_exp: u32,
    /// PSN of the next work request's first packet; of the next packet;
    /// one past the highest PSN ever sent (a REWIND moves `psn_next`
    /// back, not this: acknowledgements up to it are genuine).
    pub psn_tail: u32,
    pub psn_next: u32,
    pub psn_max: u32,
    /// In error (a fatal NAK, or the retry limit spent): work requests
    /// complete `Flushed`, PktSends are stale and feedback is dropped
    /// until a context write.
    pub err: bool,
    /// Go-backs (timeouts, NAK PSN sequence errors) since the last
    /// progress, 0..=7.
    pub retries: u8,
    /// The most go-backs in a row without progress (`FLOW_RETRY`); one
    /// more completes the head work request `RetryExceeded`.
    pub retry_limit: u8,
}

/// A work request in the ring.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WrEntry {
    pub read: bool,
    /// A READ's landing entry (`FlowState::rd_post` when posted).
    pub rd_idx: u32,
    pub laddr: u64,
    pub va: u64,
    pub rkey: u32,
    pub len: u32,
    pub tag: u32,
    pub seq_first: u32,
    pub psn_first: u32,
}

/// The fence: a work request may be doorbelled with `rd_open` READs open
/// (and nothing waiting ahead of it): a WRITE when none is, a READ while
/// fewer than [`READS_IN_FLIGHT`] are.
pub fn db_allowed(read: bool, rd_open: u32) -> bool {
    if read {
        rd_open < READS_IN_FLIGHT
    } else {
        rd_open == 0
    }
}

/// The MTU's log2 as used: `cfg_mtu_log2` clamped into 8..=12.
pub fn mtu_log2(cfg: u8) -> u32 {
    (cfg & 0xF).clamp(8, 12) as u32
}

/// Packets (PSNs) of a work request of `len` ≥ 1 bytes.
pub fn npkts(len: u32, l: u32) -> u32 {
    ((len.max(1) - 1) >> l) + 1
}

/// Bytes of the byte stream a work request takes: a WRITE its length, a
/// READ one.
pub fn extent(read: bool, len: u32) -> u32 {
    if read {
        1
    } else {
        len
    }
}

/// The packet a PktSend's cursor `cur` cuts from a work request `w` at
/// the MTU 2^`l` (the `Seg` state; `hdl/src/roce/segment.rs` computes it
/// in hardware). `rd_k`: the READ responses received for `w` (only the
/// head READ has any).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SegCut {
    /// The cursor's offset in the work request, and its packet's index.
    pub off: u32,
    pub k: u32,
    /// The work request's bytes from the cursor on.
    pub left: u32,
    /// The packet's length, min(`left`, MTU): it ends the work request
    /// when it equals `left`.
    pub seg: u32,
    /// A WRITE's packet: the last of its work request, its opcode and
    /// PSN.
    pub last: bool,
    pub opcode: u8,
    pub psn: u32,
    /// A READ's request for the responses not received yet: its VA,
    /// length and first PSN.
    pub rd_va: u64,
    pub rd_dlen: u32,
    pub rd_psn: u32,
    /// The PSN after the packet (after a READ's last response).
    pub psn_next: u32,
}

pub fn segment(w: &WrEntry, cur: u32, l: u32, rd_k: u32) -> SegCut {
    let off = cur.wrapping_sub(w.seq_first);
    let k = off >> l;
    let left = extent(w.read, w.len).wrapping_sub(off);
    let n = npkts(w.len, l);
    let last = k + 1 == n;
    let psn = w.psn_first.wrapping_add(k) & PSN_MASK;
    let off_r = (rd_k as u64) << l;
    SegCut {
        off,
        k,
        left,
        seg: left.min(1 << l),
        last,
        opcode: segment_opcode(false, k == 0, last),
        psn,
        rd_va: w.va.wrapping_add(off_r),
        rd_dlen: w.len.wrapping_sub(off_r as u32),
        rd_psn: w.psn_first.wrapping_add(rd_k) & PSN_MASK,
        psn_next: if w.read {
            w.psn_first.wrapping_add(n) & PSN_MASK
        } else {
            psn.wrapping_add(1) & PSN_MASK
        },
    }
}

/// Telemetry of a fresh area (the sender's), or none.
fn fresh_tlm(on: bool) -> Telemetry {
    Telemetry {
        present: on,
        hdr: if on { FRESH_HDR } else { 0 },
        ..Telemetry::default()
    }
}

/// The inputs a cycle takes from the stages (at most one).
struct Takes {
    ctx: bool,
    fb: bool,
    nak: bool,
    timer: bool,
    send: bool,
    wr: bool,
}

/// The requester for 2^A flows with 2^Q work requests each.
#[derive(Clone)]
pub struct Requester<const A: usize, const Q: usize> {
    pub flows: Vec<FlowState>,
    pub ring: Vec<WrEntry>,
    /// The retransmission timer (its twin: the cycle count and the FIFO).
    timer: ReqTimer<A>,
    state: u8,
    kind: u8,
    flow: u32,
    /// The flow id is below 2^A (work requests carry 16 bits).
    in_range: bool,
    /// The flow state being worked on.
    s: FlowState,
    slot: u32,
    /// The inputs' stages (`hdl_record!`'s `Stage`, timing rule R1: each
    /// `*_ready` is a stage's flip-flop); `Idle` chooses among their heads.
    in_ctx: Stage<ReqFlowCtx>,
    in_wr: Stage<WorkReq>,
    in_send: Stage<PktSend>,
    in_fb: Stage<CcFeedback>,
    in_nak: Stage<NakReq>,
    /// The input the last step took from its stage (a `kind`), if any.
    took: Option<u8>,
    // Latched inputs.
    wr: WorkReq,
    send: PktSend,
    fb: CcFeedback,
    ctx: ReqFlowCtx,
    t_gen: u8,
    // Segmentation and acknowledgement.
    cur: u32,
    rem: u32,
    p: u32,
    seq_ack: u32,
    cmpl_final: bool,
    rd_done: bool,
    progress: bool,
    rewind: bool,
    cc_go: bool,
    arm: bool,
    /// A NAK PSN sequence error or a timeout: a go-back that counts
    /// against the retry limit unless the same operation made progress.
    retry: bool,
    /// The status of the next flush completion (`Ok` = no flush): the
    /// error first, then `Flushed`.
    fatal: wr::Status,
    // Output registers.
    ev_v: bool,
    ev: SchedEvent,
    desc_v: bool,
    desc: TxDesc,
    rd_v: bool,
    rd: RxFlowCtx,
    cmpl_v: bool,
    cmpl: WrCompletion,
    cc_v: bool,
    cc: CcEvent,
    cnt: ReqStats,
}

impl<const A: usize, const Q: usize> Default for Requester<A, Q> {
    fn default() -> Self {
        assert!((1..=8).contains(&Q), "Requester: 1 <= Q <= 8");
        assert!(A + Q <= 16, "Requester: A + Q <= 16");
        Self {
            flows: vec![FlowState::default(); 1 << A],
            ring: vec![WrEntry::default(); 1 << (A + Q)],
            timer: ReqTimer::default(),
            state: st::IDLE,
            kind: 0,
            flow: 0,
            in_range: false,
            s: FlowState::default(),
            slot: 0,
            in_ctx: Stage::default(),
            in_wr: Stage::default(),
            in_send: Stage::default(),
            in_fb: Stage::default(),
            in_nak: Stage::default(),
            took: None,
            wr: WorkReq::default(),
            send: PktSend::default(),
            fb: CcFeedback::default(),
            ctx: ReqFlowCtx::default(),
            t_gen: 0,
            cur: 0,
            rem: 0,
            p: 0,
            seq_ack: 0,
            cmpl_final: false,
            rd_done: false,
            progress: false,
            rewind: false,
            cc_go: false,
            arm: false,
            retry: false,
            fatal: wr::Status::Ok,
            ev_v: false,
            ev: SchedEvent::default(),
            desc_v: false,
            desc: TxDesc::default(),
            rd_v: false,
            // Only the READ tracking is ever written.
            rd: RxFlowCtx {
                rd_only: true,
                ..RxFlowCtx::default()
            },
            cmpl_v: false,
            cmpl: WrCompletion::default(),
            cc_v: false,
            cc: CcEvent::default(),
            cnt: ReqStats::default(),
        }
    }
}

/// Ring index arithmetic: indices are Q + 1 bits.
fn ix_mask(q: usize) -> u32 {
    (2u32 << q) - 1
}

fn inc(c: &mut u32) {
    *c = c.wrapping_add(1);
}

impl<const A: usize, const Q: usize> Requester<A, Q> {
    /// Take the next operation from the stages' heads (in `IDLE`, or in
    /// `WB`, the last cycle of one): `FLOW_RD` if one is taken.
    fn take(&mut self, t: &Takes, t_head: Option<u128>) -> u8 {
        if t.ctx {
            self.kind = kind::CTX;
            self.ctx = self.in_ctx.reg;
            self.ctx.flow &= (1 << A) - 1;
            self.ctx.psn &= PSN_MASK;
            self.flow = self.ctx.flow;
        } else if t.fb {
            self.kind = kind::FB;
            self.fb = self.in_fb.reg;
            self.fb.flow &= (1 << A) - 1;
            self.fb.psn &= PSN_MASK;
            self.flow = self.fb.flow;
        } else if t.nak {
            self.kind = kind::NAK;
            self.fb = CcFeedback {
                flow: self.in_nak.reg.flow & ((1 << A) - 1),
                psn: self.in_nak.reg.psn & PSN_MASK,
                aeth: (self.in_nak.reg.syndrome as u32) << 24,
                ..CcFeedback::default()
            };
            self.flow = self.fb.flow;
        } else if t.timer {
            let h = t_head.unwrap();
            self.kind = kind::TIMER;
            self.flow = (h >> 40) as u32 & 0xFFFF;
            self.t_gen = (h >> 32) as u8;
        } else if t.send {
            self.kind = kind::SEND;
            self.send = self.in_send.reg;
            self.send.flow &= 0xFFFF;
            self.flow = self.send.flow;
        } else if t.wr {
            self.kind = kind::WR;
            self.wr = self.in_wr.reg;
            self.wr.flow &= 0xFFFF;
            self.flow = self.wr.flow;
        }
        if t.ctx || t.fb || t.nak || t.timer || t.send || t.wr {
            st::FLOW_RD
        } else {
            st::IDLE
        }
    }

    fn slot_addr(&self, flow: u32, slot: u32) -> usize {
        (((flow & ((1 << A) - 1)) << Q) | (slot & ((1 << Q) - 1))) as usize
    }

    fn wr_at(&self, slot: u32) -> WrEntry {
        self.ring[self.slot_addr(self.flow, slot)]
    }

    /// The next step after the acknowledgement part of an operation: the
    /// doorbells a finished READ releases, the REWIND, the CC event, the
    /// write-back.
    fn cont(&mut self) -> u8 {
        if self.fatal != wr::Status::Ok {
            self.slot = self.s.head;
            st::FLUSH_RD
        } else if self.rd_done {
            self.slot = self.s.db;
            st::DB_RD
        } else if self.rewind {
            self.slot = self.s.head;
            st::REW_RD
        } else if self.cc_go {
            self.cc = self.cc_fields();
            self.cc_v = true;
            self.cc_go = false;
            st::CC_OUT
        } else {
            st::WB
        }
    }

    /// The CC event the working copy and the latched feedback give.
    fn cc_fields(&self) -> CcEvent {
        let t = &self.fb.tlm;
        CcEvent {
            op: crate::cc::hpcc::op::EVENT,
            variant: false,
            flow: self.flow as u16,
            seq: self.s.una,
            snd_nxt: self.s.seq_exp,
            now: 0,
            nhops: ((t.hdr >> 48) & 0xF) as u8,
            hop0: t.hop0,
            hop1: t.hop1,
            hop2: t.hop2,
            hop3: t.hop3,
            hop4: t.hop4,
        }
    }

    fn event(&mut self, op: u8, a: u32, b: u32) {
        self.ev_v = true;
        self.ev = SchedEvent {
            op,
            flow: self.flow,
            a,
            b,
        };
    }

    fn complete(&mut self, status: wr::Status, tag: u32, bytes: u32) {
        self.cmpl_v = true;
        self.cmpl = WrCompletion {
            flow: self.flow,
            tag,
            status: status as u8,
            bytes,
        };
    }

    /// An acknowledged PSN ahead of every PSN ever sent acknowledges
    /// nothing real: dropped (`ack_ahead`). One ahead of `psn_next` only
    /// (a packet sent before a REWIND, received) is genuine.
    fn ack_ahead(&self, p: u32) -> bool {
        let last = self.s.psn_max.wrapping_sub(1) & PSN_MASK;
        let ahead = p.wrapping_sub(last) & PSN_MASK;
        ahead != 0 && ahead < 1 << 23
    }

    /// Move `psn_max` up to `psn_next` when it is ahead.
    fn raise_psn_max(&mut self) {
        let d = self.s.psn_next.wrapping_sub(self.s.psn_max) & PSN_MASK;
        if d != 0 && d < 1 << 23 {
            self.s.psn_max = self.s.psn_next;
        }
    }
}

impl<const A: usize, const Q: usize> Cycle for Requester<A, Q> {
    type In = In;
    type Out = Out;

    fn step(&mut self, i: &In) -> Out {
        let l = mtu_log2(i.cfg_mtu_log2);
        let m = ix_mask(Q);
        // The next operation is taken in `IDLE` or already in `WB`, the
        // last cycle of one (the RTL's `Flow` then takes its working copy,
        // not the RAMs' words from before that write-back: `rd_same`).
        let idle = self.state == st::IDLE || self.state == st::WB;
        let (t_head, t_exp) = self.timer.peek();
        let t_head = t_head.map(|h| h as u128);
        // Priority: context, feedback, NAK, timer, PktSend, work request.
        // The candidates are the stages' heads, never the ports.
        let take_ctx = idle && self.in_ctx.full;
        let take_fb = idle && !take_ctx && self.in_fb.full;
        let take_nak = idle && !take_ctx && !take_fb && self.in_nak.full;
        let take_t = idle && !take_ctx && !take_fb && !take_nak && t_exp;
        let send_valid = self.in_send.full && !i.desc_full;
        let take_send = idle && !take_ctx && !take_fb && !take_nak && !t_exp && send_valid;
        let take_wr =
            idle && !take_ctx && !take_fb && !take_nak && !t_exp && !send_valid && self.in_wr.full;
        let takes = Takes {
            ctx: take_ctx,
            fb: take_fb,
            nak: take_nak,
            timer: take_t,
            send: take_send,
            wr: take_wr,
        };
        let o = Out {
            ctx_ready: self.in_ctx.s_ready(),
            wr_ready: self.in_wr.s_ready(),
            send_ready: self.in_send.s_ready(),
            fb_ready: self.in_fb.s_ready(),
            nak_ready: self.in_nak.s_ready(),
            // The flow fields are the `flow` register (the RTL keeps no
            // copy; it does not change while a record is offered).
            ev_valid: self.ev_v,
            ev: SchedEvent {
                flow: self.flow,
                ..self.ev
            },
            desc_valid: self.desc_v,
            desc: self.desc,
            rd_valid: self.rd_v,
            rd: self.rd,
            cmpl_valid: self.cmpl_v,
            cmpl: WrCompletion {
                flow: self.flow,
                ..self.cmpl
            },
            cc_valid: self.cc_v,
            cc: CcEvent {
                flow: self.flow as u16,
                ..self.cc
            },
            stats: self.cnt,
        };
        // The CC event's fields load every cycle while an event is owed
        // and not yet offered (the RTL's enable: `cc_go` and not `cc_v`),
        // from this cycle's registers; `cont` loads the same values as it
        // offers it.
        let cc_load = (self.cc_go && !self.cc_v).then(|| self.cc_fields());
        let ev_hs = self.ev_v && i.ev_ready;
        let desc_hs = self.desc_v && i.desc_ready;
        let cmpl_hs = self.cmpl_v && i.cmpl_ready;
        let cc_hs = self.cc_v && i.cc_ready;
        self.rd_v = false;
        // A timer entry pushed in `WB`: the flow and its generation.
        let mut t_push: Option<(u32, u8)> = None;

        let next = match self.state {
            st::IDLE => self.take(&takes, t_head),
            st::FLOW_RD => st::FLOW,
            st::FLOW => {
                // The flow's state words arrive from the RAMs' output
                // registers.
                self.in_range = self.flow >> A == 0;
                self.s = self.flows[(self.flow & ((1 << A) - 1)) as usize];
                self.rd_done = false;
                self.progress = false;
                self.rewind = false;
                self.cc_go = false;
                self.arm = false;
                self.retry = false;
                self.fatal = wr::Status::Ok;
                st::DECIDE
            }
            st::DECIDE => {
                let live = self.in_range && self.s.active;
                match self.kind {
                    kind::CTX => {
                        let g = self.s.gen.wrapping_add(1);
                        let e = self.s.epoch.wrapping_add(1);
                        self.s = FlowState {
                            active: self.ctx.active,
                            tlm_data: self.ctx.tlm_data,
                            armed: self.s.armed,
                            gen: g,
                            epoch: e,
                            psn_tail: self.ctx.psn,
                            psn_next: self.ctx.psn,
                            psn_max: self.ctx.psn,
                            retry_limit: self.ctx.retry_limit & 7,
                            ..FlowState::default()
                        };
                        self.event(OP_INIT, 0, e as u32);
                        st::CTX_EV
                    }
                    kind::WR => {
                        let w = self.wr;
                        let ext = extent(w.opcode == wr::READ, w.len);
                        let used = self.s.tail.wrapping_sub(self.s.head) & m;
                        let out = self.s.seq_tail.wrapping_sub(self.s.una) as u64 + ext as u64;
                        let status = if w.opcode != wr::WRITE && w.opcode != wr::READ {
                            inc(&mut self.cnt.err_opcode);
                            wr::Status::BadOpcode
                        } else if w.len == 0 || w.len > wr::MAX_LEN {
                            inc(&mut self.cnt.err_len);
                            wr::Status::BadLen
                        } else if !live {
                            inc(&mut self.cnt.err_flow);
                            wr::Status::BadFlow
                        } else if self.s.err {
                            inc(&mut self.cnt.flushed);
                            wr::Status::Flushed
                        } else if used == 1 << Q || out >= 1 << 31 {
                            inc(&mut self.cnt.err_full);
                            wr::Status::Full
                        } else {
                            wr::Status::Ok
                        };
                        if status != wr::Status::Ok {
                            self.complete(status, w.tag, 0);
                            st::WR_CMPL
                        } else {
                            let read = w.opcode == wr::READ;
                            let a = self.slot_addr(self.flow, self.s.tail);
                            // Nothing waits ahead, and the fence lets it by.
                            let go = self.s.db == self.s.tail && db_allowed(read, self.s.rd_open);
                            self.ring[a] = WrEntry {
                                read,
                                rd_idx: self.s.rd_post,
                                laddr: w.laddr,
                                va: w.va,
                                rkey: w.rkey,
                                len: w.len,
                                tag: w.tag,
                                seq_first: self.s.seq_tail,
                                psn_first: self.s.psn_tail,
                            };
                            inc(&mut self.cnt.posted);
                            self.s.seq_tail = self.s.seq_tail.wrapping_add(ext);
                            self.s.psn_tail =
                                self.s.psn_tail.wrapping_add(npkts(w.len, l)) & PSN_MASK;
                            self.s.tail = self.s.tail.wrapping_add(1) & m;
                            if read {
                                self.s.rd_post = (self.s.rd_post + 1) & 15;
                            }
                            if go {
                                self.s.db = self.s.tail;
                                if read {
                                    self.s.rd_open += 1;
                                }
                                self.event(OP_DOORBELL, ext, 0);
                                st::WR_DB
                            } else {
                                st::WB
                            }
                        }
                    }
                    kind::SEND => {
                        let p = self.send;
                        if !live || self.s.err || p.epoch != self.s.epoch {
                            inc(&mut self.cnt.stale);
                            st::IDLE
                        } else if p.probe {
                            self.desc_v = true;
                            self.desc = TxDesc {
                                flow: self.flow,
                                opcode: op::PROBE,
                                psn: self.s.psn_next,
                                ackreq: true,
                                tlm: fresh_tlm(true),
                                ..TxDesc::default()
                            };
                            st::PROBE_OUT
                        } else if p.seq != self.s.seq_exp || p.len == 0 {
                            inc(&mut self.cnt.stale);
                            st::IDLE
                        } else {
                            self.cur = p.seq;
                            self.rem = p.len & 0xFFFF;
                            self.slot = self.s.send;
                            st::SEG_RD
                        }
                    }
                    kind::FB | kind::NAK => {
                        let is_ack = (nic_spec::roce::is_ack(self.fb.opcode)
                            && aeth_class(self.fb.aeth) == AETH_CLASS_ACK)
                            || is_read_resp(self.fb.opcode);
                        let p = if self.kind == kind::NAK {
                            self.fb.psn.wrapping_sub(1) & PSN_MASK
                        } else {
                            self.fb.psn
                        };
                        if !live || self.s.err || (self.kind == kind::FB && !is_ack) {
                            inc(&mut self.cnt.bad_fb);
                            st::IDLE
                        } else if self.ack_ahead(p) {
                            inc(&mut self.cnt.ack_ahead);
                            st::IDLE
                        } else {
                            if self.kind == kind::NAK {
                                inc(&mut self.cnt.naks);
                                match wr::Status::of_nak((self.fb.aeth >> 24) as u8) {
                                    None => {
                                        self.rewind = true;
                                        self.retry = true;
                                    }
                                    Some(status) => {
                                        inc(&mut self.cnt.remote_err);
                                        self.fatal = status;
                                    }
                                }
                            } else {
                                self.cc_go = self.fb.tlm.present;
                            }
                            self.p = p;
                            self.seq_ack = self.s.una;
                            self.slot = self.s.head;
                            st::ACK_RD
                        }
                    }
                    _ => {
                        // TIMER: the entry has left the FIFO.
                        let in_flight = self.s.una != self.s.seq_exp;
                        if self.s.active && in_flight {
                            self.arm = true;
                            if self.t_gen == self.s.gen {
                                inc(&mut self.cnt.timeouts);
                                if self.s.retries >= self.s.retry_limit {
                                    inc(&mut self.cnt.retry_exceeded);
                                    self.fatal = wr::Status::RetryExceeded;
                                } else {
                                    self.s.retries += 1;
                                    self.rewind = true;
                                }
                                self.cont()
                            } else {
                                st::WB
                            }
                        } else {
                            self.s.armed = false;
                            st::WB
                        }
                    }
                }
            }
            st::CTX_EV | st::WR_DB | st::TRIM_EV => {
                if ev_hs {
                    self.ev_v = false;
                    st::WB
                } else {
                    self.state
                }
            }
            st::WR_CMPL => {
                if cmpl_hs {
                    self.cmpl_v = false;
                    st::IDLE
                } else {
                    st::WR_CMPL
                }
            }
            st::PROBE_OUT => {
                if desc_hs {
                    self.desc_v = false;
                    st::IDLE
                } else {
                    st::PROBE_OUT
                }
            }
            st::SEG_RD => st::SEG_RD2,
            st::SEG_RD2 => st::SEG,
            st::SEG => {
                let w = self.wr_at(self.slot);
                // Only the head READ has responses counted.
                let rd_k = if self.slot == self.s.head {
                    self.s.rd_k
                } else {
                    0
                };
                let c = segment(&w, self.cur, l, rd_k);
                if c.seg > self.rem || i.desc_full {
                    // The PktSend crosses into a message that does not
                    // fit in its rest, or the descriptor queue is full:
                    // cut here.
                    self.s.epoch = self.s.epoch.wrapping_add(1);
                    self.s.seq_exp = self.cur;
                    inc(&mut self.cnt.trims);
                    let e = self.s.epoch;
                    self.event(OP_TRIM, self.cur, e as u32);
                    st::TRIM_EV
                } else {
                    let fl = self.flow & ((1 << A) - 1);
                    if w.read {
                        // The request for the responses not received yet,
                        // and the READ's landing entry at the dispatcher
                        // (the same on every send).
                        self.rd_v = true;
                        self.rd = RxFlowCtx {
                            flow: fl,
                            active: false,
                            epsn: 0,
                            rd_addr: w.laddr,
                            rd_psn: w.psn_first,
                            rd_idx: w.rd_idx,
                            rd_only: true,
                            cnp_on_ce: false,
                        };
                        self.desc = TxDesc {
                            flow: fl,
                            opcode: op::READ_REQ,
                            psn: c.rd_psn,
                            va: c.rd_va,
                            rkey: w.rkey,
                            dlen: c.rd_dlen,
                            ..TxDesc::default()
                        };
                    } else {
                        self.desc = TxDesc {
                            flow: fl,
                            opcode: c.opcode,
                            psn: c.psn,
                            ackreq: c.last || self.s.tlm_data,
                            len: c.seg as u16,
                            addr: w.laddr.wrapping_add(c.off as u64),
                            va: w.va,
                            rkey: w.rkey,
                            dlen: w.len,
                            aeth: 0,
                            tlm: fresh_tlm(self.s.tlm_data),
                        };
                    }
                    self.s.psn_next = c.psn_next;
                    self.raise_psn_max();
                    self.desc_v = true;
                    self.cur = self.cur.wrapping_add(c.seg);
                    self.rem -= c.seg;
                    self.s.seq_exp = self.cur;
                    if c.seg == c.left {
                        self.s.send = self.s.send.wrapping_add(1) & m;
                        self.slot = self.s.send;
                    }
                    if !self.s.armed {
                        self.s.armed = true;
                        self.arm = true;
                    }
                    st::SEG_OUT
                }
            }
            st::SEG_OUT => {
                if desc_hs {
                    self.desc_v = false;
                    if self.rem == 0 {
                        st::WB
                    } else {
                        st::SEG_RD
                    }
                } else {
                    st::SEG_OUT
                }
            }
            st::ACK_RD => st::ACK_RD2,
            st::ACK_RD2 => st::ACK_CHK,
            st::ACK_CHK => {
                let w = self.wr_at(self.slot);
                let d = self.p.wrapping_sub(w.psn_first) & PSN_MASK;
                let n = npkts(w.len, l);
                let ext = extent(w.read, w.len);
                // Only a READ's responses complete it (an ACK covering its
                // PSNs says the request arrived, not that the data did).
                let rresp = self.kind == kind::FB && is_read_resp(self.fb.opcode);
                if self.slot == self.s.tail || d >= 1 << 23 || (w.read && !rresp) {
                    st::POST
                } else if d + 1 < n {
                    // Inside the work request, not its last packet.
                    if w.read {
                        self.s.rd_k = d + 1;
                        self.progress = true;
                    } else {
                        self.seq_ack = w.seq_first.wrapping_add((d + 1) << l);
                    }
                    st::POST
                } else {
                    // Its last packet or beyond: complete.
                    self.seq_ack = w.seq_first.wrapping_add(ext);
                    self.cmpl_final = d + 1 == n;
                    self.retire(w);
                    st::ACK_CMPL
                }
            }
            st::ACK_CMPL => {
                if cmpl_hs {
                    self.cmpl_v = false;
                    if self.cmpl_final {
                        st::POST
                    } else {
                        st::ACK_RD
                    }
                } else {
                    st::ACK_CMPL
                }
            }
            st::POST => {
                let adv = self.seq_ack.wrapping_sub(self.s.una);
                let past = self.seq_ack.wrapping_sub(self.s.seq_exp);
                // Progress forgives the go-backs; a NAK PSN sequence error
                // without it counts against the retry limit.
                let moved = (adv != 0 && adv < 1 << 31) || self.progress;
                if moved {
                    self.s.retries = 0;
                } else if self.retry {
                    if self.s.retries >= self.s.retry_limit {
                        inc(&mut self.cnt.retry_exceeded);
                        self.fatal = wr::Status::RetryExceeded;
                    } else {
                        self.s.retries += 1;
                    }
                }
                self.retry = false;
                if adv != 0 && adv < 1 << 31 && past != 0 && past < 1 << 31 {
                    // Past what is sent since a REWIND (packets sent before
                    // it were received): skip there, by a REWIND (the
                    // scheduler's ACK stops at its snd_nxt).
                    self.s.una = self.seq_ack;
                    self.s.gen = self.s.gen.wrapping_add(1);
                    self.rewind = true;
                    self.cont()
                } else if adv != 0 && adv < 1 << 31 {
                    self.s.una = self.seq_ack;
                    self.s.gen = self.s.gen.wrapping_add(1);
                    self.event(OP_ACK, self.seq_ack, 0);
                    st::ACK_EV
                } else {
                    if self.progress {
                        self.s.gen = self.s.gen.wrapping_add(1);
                    }
                    self.cont()
                }
            }
            st::ACK_EV | st::DB_EV | st::REW_EV => {
                if ev_hs {
                    self.ev_v = false;
                    if self.state == st::DB_EV {
                        self.slot = self.s.db;
                        st::DB_RD
                    } else {
                        self.cont()
                    }
                } else {
                    self.state
                }
            }
            st::DB_RD => st::DB_RD2,
            st::DB_RD2 => st::DB_CHK,
            st::DB_CHK => {
                let w = self.wr_at(self.slot);
                if self.s.db == self.s.tail || !db_allowed(w.read, self.s.rd_open) {
                    self.rd_done = false;
                    self.cont()
                } else {
                    self.s.db = self.s.db.wrapping_add(1) & m;
                    if w.read {
                        self.s.rd_open += 1;
                    }
                    self.event(OP_DOORBELL, extent(w.read, w.len), 0);
                    st::DB_EV
                }
            }
            st::REW_RD => st::REW_RD2,
            st::REW_RD2 => st::REW_CHK,
            st::REW_CHK => {
                let w = self.wr_at(self.slot);
                let psn = if self.s.head == self.s.tail {
                    self.s.psn_tail
                } else {
                    let k = self.s.una.wrapping_sub(w.seq_first) >> l;
                    w.psn_first.wrapping_add(k) & PSN_MASK
                };
                self.s.epoch = self.s.epoch.wrapping_add(1);
                self.s.seq_exp = self.s.una;
                self.s.send = self.s.head;
                self.s.psn_next = psn;
                self.rewind = false;
                let (una, e) = (self.s.una, self.s.epoch);
                self.event(OP_REWIND, una, e as u32);
                st::REW_EV
            }
            st::FLUSH_RD => st::FLUSH_RD2,
            st::FLUSH_RD2 => st::FLUSH_CHK,
            st::FLUSH_CHK => {
                if self.slot == self.s.tail {
                    // The ring is empty: the flow errs, nothing is in
                    // flight, and the scheduler forgets its bytes.
                    let end = self.s.seq_tail;
                    self.s.err = true;
                    self.s.una = end;
                    self.s.seq_exp = end;
                    self.s.send = self.s.tail;
                    self.s.db = self.s.tail;
                    self.s.rd_open = 0;
                    self.s.rd_k = 0;
                    self.s.psn_next = self.s.psn_tail;
                    self.s.epoch = self.s.epoch.wrapping_add(1);
                    self.fatal = wr::Status::Ok;
                    self.rd_done = false;
                    self.rewind = false;
                    self.cc_go = false;
                    let e = self.s.epoch;
                    self.event(OP_INIT, end, e as u32);
                    st::ERR_EV
                } else {
                    let w = self.wr_at(self.slot);
                    if self.fatal == wr::Status::Flushed {
                        inc(&mut self.cnt.flushed);
                    }
                    self.complete(self.fatal, w.tag, 0);
                    self.fatal = wr::Status::Flushed;
                    self.s.head = self.s.head.wrapping_add(1) & m;
                    self.slot = self.s.head;
                    st::FLUSH_CMPL
                }
            }
            st::FLUSH_CMPL => {
                if cmpl_hs {
                    self.cmpl_v = false;
                    st::FLUSH_RD
                } else {
                    st::FLUSH_CMPL
                }
            }
            st::ERR_EV => {
                if ev_hs {
                    self.ev_v = false;
                    st::WB
                } else {
                    st::ERR_EV
                }
            }
            st::CC_OUT => {
                if cc_hs {
                    self.cc_v = false;
                    self.cont()
                } else {
                    st::CC_OUT
                }
            }
            _ => {
                // WB
                let f = (self.flow & ((1 << A) - 1)) as usize;
                self.flows[f] = self.s;
                if self.arm {
                    t_push = Some((self.flow, self.s.gen));
                }
                self.take(&takes, t_head)
            }
        };
        let (t_flow, t_gen) = t_push.unwrap_or_default();
        self.timer.step(&req_timer::In {
            push: t_push.is_some(),
            flow: t_flow,
            gen: t_gen,
            cfg_rto: i.cfg_rto,
            pop: take_t,
        });
        self.took = [
            (take_ctx, kind::CTX),
            (take_fb, kind::FB),
            (take_nak, kind::NAK),
            (take_t, kind::TIMER),
            (take_send, kind::SEND),
            (take_wr, kind::WR),
        ]
        .iter()
        .find(|t| t.0)
        .map(|t| t.1);
        self.in_ctx.step(i.ctx_valid.then_some(i.ctx), take_ctx);
        self.in_wr.step(i.wr_valid.then_some(i.wr), take_wr);
        self.in_send.step(i.send_valid.then_some(i.send), take_send);
        self.in_fb.step(i.fb_valid.then_some(i.fb), take_fb);
        self.in_nak.step(i.nak_valid.then_some(i.nak), take_nak);
        if let Some(c) = cc_load {
            self.cc = c;
        }
        self.state = next;
        o
    }
}

impl<const A: usize, const Q: usize> Requester<A, Q> {
    /// Complete the work request at the head: its completion goes out,
    /// the head moves on, and a READ lifts the fence.
    fn retire(&mut self, w: WrEntry) {
        self.complete(wr::Status::Ok, w.tag, w.len);
        inc(&mut self.cnt.completed);
        self.s.head = self.s.head.wrapping_add(1) & ix_mask(Q);
        self.slot = self.s.head;
        if w.read {
            self.s.rd_open -= 1;
            self.s.rd_k = 0;
            self.rd_done = true;
        }
    }

    /// The input the last step took from its stage to begin an operation
    /// (a [`kind`]), if any: for environments that account for a record
    /// when the requester acts on it, not when its stage took it.
    pub fn took(&self) -> Option<u8> {
        self.took
    }

    /// The state ([`st`]) after the last step: for tests that check a
    /// run passed a given sequence of states.
    pub fn state(&self) -> u8 {
        self.state
    }

    /// The working copy of the operation's flow state.
    pub fn working(&self) -> &FlowState {
        &self.s
    }

    /// The ring slot the state works on.
    pub fn slot(&self) -> u32 {
        self.slot
    }

    /// The counters as they stand (the port shows them a cycle later).
    pub fn stats(&self) -> ReqStats {
        self.cnt
    }

    /// The state machine is idle and its input stages are empty (for
    /// environments that wait for it).
    pub fn idle(&self) -> bool {
        self.state == st::IDLE
            && !(self.in_ctx.full
                || self.in_wr.full
                || self.in_send.full
                || self.in_fb.full
                || self.in_nak.full)
    }

    /// The scheduler event this cycle's outputs will offer (a register):
    /// for environments that step the scheduler first, so that its
    /// same-cycle `ev_ready` can be this cycle's input.
    pub fn ev_out(&self) -> Option<SchedEvent> {
        self.ev_v.then_some(SchedEvent {
            flow: self.flow,
            ..self.ev
        })
    }
}
