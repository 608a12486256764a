//! The requester (`docs/architecture.md` §5b): work requests in, the
//! scheduler's byte stream, PktSends to Tx descriptors, acknowledgements
//! to completions, a retransmission timer per flow, READ tracking.
//!
//! # What it does
//! One operation at a time. Each reads its flow's state words
//! (`FlowRd`, `Flow`), acts on a copy in registers (`Decide` and the
//! states after it) and writes it back (`Wb`). The next operation is
//! taken in `Idle`, or already in `Wb`. Inputs are taken in this order:
//! context write,
//! feedback (ACK or READ RESPONSE from the dispatcher), NAK, an expired
//! timer, PktSend, work request.
//! - **Work request** (`s_wr`): checked (opcode WRITE or READ, length
//!   1..=2^31−1, flow configured, ring not full and the stream window
//!   below 2^31), else completed at once with its error status and
//!   nothing sent. A good one goes into the flow's ring (2^Q entries in
//!   block RAM) with its first byte in the flow's byte stream
//!   (`seq_first`) and its first PSN (`psn_first`), and the scheduler
//!   gets DOORBELL(extent): a WRITE's length, a READ's one byte. Behind an
//!   open READ, work requests wait in the ring (the fence) and are
//!   doorbelled when it completes.
//! - **PktSend** (`s_send`) of the flow's current epoch at the expected
//!   seq becomes Tx descriptors: cut at multiples of the MTU from each
//!   work request's first byte, FIRST/MIDDLE/LAST/ONLY, RETH on each
//!   (the Tx builder puts it on FIRST and ONLY), PSN = psn_first + k.
//!   One PktSend can carry several whole small work requests. Where the
//!   next segment does not fit in what is left of the PktSend, the
//!   requester cuts there: TRIM(cut, epoch + 1) to the scheduler, and
//!   the PktSends it decided past the cut are stale (older epoch). It
//!   cuts the same way when `desc_full` is high at a segment (the
//!   descriptor queue after `m_desc` is full), and takes no PktSend while
//!   it is: so it never waits on the Tx, and feedback waits at most one
//!   operation. A
//!   READ's one byte becomes a READ REQUEST for the responses not yet
//!   received, and before its first REQUEST the dispatcher's READ
//!   tracking (`m_rd`: landing address, first PSN) is written.
//! - **ACK** (and every READ RESPONSE) walks the ring from the oldest
//!   work request: each one whose last packet is acknowledged completes
//!   (`m_cmpl`, status OK); a READ completes only by its responses. The
//!   acknowledged bytes go to the scheduler (ACK, or REWIND when they lie
//!   past what is sent since a go-back). An ACK with telemetry also gives
//!   a CC event (`m_cc`: seq = snd_una, snd_nxt, the hops).
//! - **NAK** (PSN p, syndrome): acknowledges p − 1. A PSN sequence
//!   error (0x60) then goes back: REWIND to snd_una with a new epoch
//!   (go-back-N). Any other syndrome is fatal (`wr::Status::of_nak`:
//!   0x61 `RemoteInvalid`, 0x62 `RemoteAccess`, else `RemoteOp`): the
//!   flush below.
//! - **Timer** ([`ReqTimer`], `req_timer.rs`, with its twin and test):
//!   a FIFO of (flow, generation, deadline) entries, one per
//!   flow at most (`armed`). Progress bumps the flow's generation. An
//!   expired entry whose generation is current and with bytes in flight
//!   is a timeout: REWIND to snd_una. Either way it is re-armed while
//!   bytes are in flight. A timeout fires 1 to 2 RTO after the last
//!   progress. No per-flow scan.
//! - **Retry limit**: each flow counts its go-backs (timeouts, and NAK
//!   sequence errors that acknowledge nothing new) since its last
//!   progress; progress (bytes acknowledged, a READ response) resets the
//!   count. The go-back past the flow's limit (`retry_limit`, 0..=7, from
//!   the context) is not made: the flush below, with `RetryExceeded`. A
//!   dead peer ends a flow within (limit + 1) · 2 RTO of its last
//!   progress.
//! - **Flush** (the error state): every work request left in the ring,
//!   from the oldest, completes (bytes 0): the first with the error, the
//!   rest `Flushed`. Then the flow is in error: nothing in flight, and
//!   INIT(epoch + 1) to the scheduler forgets its bytes. In error, a
//!   work request completes `Flushed` at once, a PktSend is stale and
//!   feedback is `bad_fb`, until a context write (the driver's reset of
//!   the flow). A flush takes 4 cycles per work request, plus the
//!   scheduler's INIT.
//!
//! # Ports (clock `clock`; no reset: every register and RAM word starts
//! at zero)
//! - `cfg_mtu_log2: 4` (clamped to 8..=12), `cfg_rto: 32` (cycles).
//! - In: `s_ctx` ([`ReqFlowCtxSink`]: flow, active, first PSN,
//!   `tlm_data`, `retry_limit`; discards the flow's ring and its
//!   error), `s_wr` ([`WorkReqSink`]),
//!   `s_send` ([`PktSendSink`] from the scheduler), `s_fb`
//!   ([`CcFeedbackSink`] from the dispatcher), `s_nak` ([`NakReqSink`]).
//! - `desc_full`: the descriptor queue after `m_desc` holds all it can
//!   (`hdl/src/nic/desc_queue.rs`); 0 when `m_desc` goes straight to a
//!   consumer.
//! - Out: `m_ev` ([`SchedEventSource`]: INIT, DOORBELL, ACK, REWIND,
//!   TRIM), `m_desc` ([`TxDescSource`]), `m_rd` ([`RxFlowCtxSource`],
//!   a strobe, `rd_only`), `m_cmpl` ([`WrCompletionSource`]), `m_cc`
//!   ([`CcEventSource`]), `m_stats` ([`ReqStatsSource`]).
//! - Output fields are registers, held while not valid, except
//!   `m_cc`'s, which load every cycle while a CC event is owed and not
//!   yet offered (from `Decide` of an ACK with telemetry to its `CcOut`),
//!   so their enable is two flip-flops (R1).
//!
//! Units: seq in bytes of the flow's stream (32 bits, serial), PSNs 24
//! bits, ring indices Q + 1 bits (kept in 9-bit registers).
//!
//! # Timing
//! An operation takes `FlowRd`, `Flow`, `Decide`, its states, and `Wb`,
//! and the next one is taken in that `Wb` (or in `Idle` after it), so
//! operations follow each other without an `Idle` between them. The
//! flow's state words are a block of their own, [`ReqStateRam`]
//! (`req_state_ram.rs`, with its twin and test), read at the cycle an
//! operation is taken and registered as they leave the block RAMs (R3),
//! so `Flow` loads the working copy from flip-flops and nothing follows
//! the RAMs' clock-to-out in the cycle they read. An operation taken in
//! `Wb` on the entry that `Wb` writes back reads the words from before
//! that write (the RAM reads the old word); `rd_same` marks it and `Flow`
//! keeps the working copy, which is what was written. `Decide`'s room
//! check (two chains) and window check are registers computed in `Flow`
//! from the words as `Flow` takes them (R4). Every ring
//! read takes two cycles (`*Rd`, `*Rd2`). The rings are a block of their
//! own, [`WrRing`] (`wr_ring.rs`, with its twin and test), whose words
//! are registered as they leave the block RAM, read a cycle ahead at the
//! slot each state predicts from registers (`ring_slot`), so no logic
//! follows the RAM's output in the same cycle (`docs/architecture.md`
//! §5i, R3). That read address is itself a flip-flop (`ring_addr`),
//! loaded a cycle earlier with the slot the next state reads, chosen
//! from the current state and registers only (never from the decision's
//! next values), so the nets to the ring's many block RAMs start at a
//! register (R1) and no decision ends in them. The
//! inputs are a block of their own, [`ReqIntake`] (`req_intake.rs`,
//! with its twin and test): each input passes its record's input stage
//! (`<Record>::Stage`, one register; timing rule R1): `s_*.ready` is the
//! stage's empty flag, a flip-flop, and `Idle` (or `Wb`) chooses among
//! the stages' heads and latches the record taken, so no input reaches
//! an output in the same cycle. A record
//! offered to an empty stage is at its head a cycle later; a stage taken
//! in cycle t holds the next record at t + 2, before the operation begins
//! that could take it (every operation lasts three cycles or more), so the
//! stages cost a cycle of latency to an idle requester and none of
//! throughput. A work request's own checks (opcode, length, extent,
//! packets) are registers computed in `Flow`, and its fields go into the
//! ring's slot at `tail` in `Decide` whenever that slot is free, whatever
//! the checks say (`tail` moves only on acceptance), so the checks'
//! carry chains end in registers, not in the rings' write enables (R4).
//! Likewise `Post`'s two compares are registered a cycle ahead, each
//! made for the three values `seq_ack` can have when `Post` begins and
//! one result bit chosen; and the
//! segmentation is a block of its own, [`Segment`] (`segment.rs`, with
//! its twin and test), registered at the end of `SegRd2` and at most
//! three carry chains deep (its trim test two compares side by side, its
//! sums chosen between candidates).
//! Measured by
//! `bench_requester` (Verilator, MTU 1024, every ready high): a work
//! request every 4.8 cycles, PktSend to first descriptor 8, a descriptor
//! every 4, ACK to completion 8 and to the scheduler's ACK 10 (each a
//! cycle more than before `FlowRd`; the pace the same).
//!
//! # Bad input (dropped or completed with an error, counted)
//! - work request: bad opcode, length, flow, ring full → completion with
//!   that status (`err_*`), nothing else changes;
//! - PktSend of an older epoch, another seq, or length 0 → `stale`;
//! - feedback for an unconfigured flow or a flow in error, or not an
//!   ACK/READ RESPONSE → `bad_fb`; acknowledging a PSN past every PSN
//!   sent → `ack_ahead`;
//! - a work request for a flow in error → completed `Flushed`
//!   (`flushed`); fatal NAKs and spent retry limits are counted
//!   (`remote_err`, `retry_exceeded`).
//! - A fatal NAK whose PSN is not the oldest work request's (a READ ahead
//!   of it still missing responses after loss) still ends the oldest one
//!   with the error: the flow is in error either way.
//!
//! Golden twin: `nic_golden::roce::requester` (same states and registers).

use crate::cc::CcEventSource;
use crate::roce::fb_check::FbCheck;
use crate::roce::req_counters::ReqCounters;
use crate::roce::req_intake::ReqIntake;
use crate::roce::req_state_ram::ReqStateRam;
use crate::roce::req_timer::ReqTimer;
use crate::roce::segment::Segment;
use crate::roce::wr_check::WrCheck;
use crate::roce::wr_ring::WrRing;
use crate::roce::{
    CcFeedbackSink, NakReqSink, ReqFlowCtxSink, ReqStatsSource, RxFlowCtxSource, TxDescSource,
    WorkReqSink, WrCompletionSource,
};
use crate::sched::{PktSendSink, SchedEventSource};
use nic_spec::roce::{op, wr};
use rust_hdl::prelude::*;
use smart_default::SmartDefault;

/// The fresh telemetry header (`docs/roce.md` §2): ver 1, nhop 0, maxhop 5.
pub const FRESH_HDR: u64 = 0x1000_0500_0000_0000;

#[derive(Copy, Clone, PartialEq, Debug, LogicState)]
pub enum ReqState {
    Idle,
    FlowRd,
    Flow,
    Decide,
    CtxEv,
    WrCmpl,
    WrDb,
    ProbeOut,
    SegRd,
    SegRd2,
    Seg,
    SegOut,
    TrimEv,
    AckRd,
    AckRd2,
    AckChk,
    AckCmpl,
    Post,
    AckEv,
    DbRd,
    DbRd2,
    DbChk,
    DbEv,
    RewRd,
    RewRd2,
    RewChk,
    RewEv,
    CcOut,
    Wb,
    FlushRd,
    FlushRd2,
    FlushChk,
    FlushCmpl,
    ErrEv,
}

#[derive(Copy, Clone, PartialEq, Debug, LogicState)]
pub enum ReqKind {
    Ctx,
    Wr,
    Send,
    Fb,
    Nak,
    Timer,
}

/// The requester for 2^A flows with 2^Q work requests each; `AQ` = A + Q
/// (the ring's address width).
#[derive(LogicBlock, SmartDefault)]
pub struct Requester<const A: usize, const Q: usize, const AQ: usize> {
    // The parameter check, when the block is built.
    #[default({
        assert!((1..=8).contains(&Q), "Requester: 1 <= Q <= 8");
        assert!(A + Q <= 16 && AQ == A + Q, "Requester: AQ = A + Q <= 16");
        Default::default()
    })]
    pub clock: Signal<In, Clock>,
    pub cfg_mtu_log2: Signal<In, Bits<4>>,
    pub cfg_rto: Signal<In, Bits<32>>,
    pub s_ctx: ReqFlowCtxSink<A>,
    pub s_wr: WorkReqSink,
    pub s_send: PktSendSink,
    pub s_fb: CcFeedbackSink<A>,
    pub s_nak: NakReqSink<A>,
    /// The descriptor queue after `m_desc` is full ([`crate::nic::desc_queue::DescQueue`]).
    pub desc_full: Signal<In, Bit>,
    pub m_ev: SchedEventSource,
    pub m_desc: TxDescSource<A>,
    pub m_rd: RxFlowCtxSource<A>,
    pub m_cmpl: WrCompletionSource,
    pub m_cc: CcEventSource,
    pub m_stats: ReqStatsSource,
    /// The flow state words, address = flow (`req_state_ram.rs`: four
    /// block RAMs, the read registered as it leaves them, R3): read in
    /// the cycle an operation is taken (`Idle` or `Wb`), there in `Flow`
    /// after `FlowRd`; written in `Wb`.
    st: ReqStateRam<A>,
    /// The work-request ring (address = flow << Q | slot; its words
    /// registered as they leave the block RAM, R3: read one cycle ahead,
    /// the address being the next cycle's slot).
    ring: WrRing<AQ>,
    /// The packet at the cursor (`Seg`), registered.
    segment: Segment,
    /// The retransmission timer (`req_timer.rs`, with its twin and test):
    /// the cycle count and the (flow, gen, deadline) entries.
    timer: ReqTimer<A>,
    /// The feedback's checks, registered (`fb_check.rs`, with its twin
    /// and test): its class, the status a NAK ends the flow with, the PSN
    /// acknowledged and whether it lies past every PSN sent.
    fb_check: FbCheck,
    state: DFF<ReqState>,
    kind: DFF<ReqKind>,
    in_range: DFF<Bit>,
    // The flow state being worked on.
    s_active: DFF<Bit>,
    s_tlm_data: DFF<Bit>,
    s_rd_open: DFF<Bits<4>>,
    s_armed: DFF<Bit>,
    s_rd_post: DFF<Bits<4>>,
    s_err: DFF<Bit>,
    s_retries: DFF<Bits<3>>,
    s_retry_limit: DFF<Bits<3>>,
    s_rd_k: DFF<Bits<24>>,
    s_gen: DFF<Bits<8>>,
    s_epoch: DFF<Bits<8>>,
    s_head: DFF<Bits<9>>,
    s_send_ix: DFF<Bits<9>>,
    s_db: DFF<Bits<9>>,
    s_tail: DFF<Bits<9>>,
    s_seq_tail: DFF<Bits<32>>,
    s_una: DFF<Bits<32>>,
    s_seq_exp: DFF<Bits<32>>,
    s_psn_tail: DFF<Bits<24>>,
    s_psn_next: DFF<Bits<24>>,
    s_psn_max: DFF<Bits<24>>,
    slot: DFF<Bits<9>>,
    // Latched inputs.
    // Segmentation and acknowledgement.
    cur: DFF<Bits<32>>,
    rem: DFF<Bits<16>>,
    p: DFF<Bits<24>>,
    seq_ack: DFF<Bits<32>>,
    cmpl_final: DFF<Bit>,
    rd_done: DFF<Bit>,
    progress: DFF<Bit>,
    rewind: DFF<Bit>,
    cc_go: DFF<Bit>,
    arm: DFF<Bit>,
    /// A go-back that counts against the retry limit (NAK PSN sequence
    /// error), judged in Post.
    retry: DFF<Bit>,
    /// The status of the next flush completion; 0 (Ok) = no flush.
    fatal: DFF<Bits<8>>,
    // What the ring entry gives, registered in the *Rd2 states.
    r_ack_skip: DFF<Bit>,
    r_inside: DFF<Bit>,
    r_final: DFF<Bit>,
    r_d1: DFF<Bits<24>>,
    /// `p` + 1 (mod 2^24), set with `p`: the packet after the one
    /// acknowledged, so `d1` is one subtraction from the ring's word.
    p1: DFF<Bits<24>>,
    r_seq_mid: DFF<Bits<32>>,
    r_seq_end: DFF<Bits<32>>,
    r_psn_rew: DFF<Bits<24>>,
    // Output registers.
    ev_v: DFF<Bit>,
    ev_op: DFF<Bits<3>>,
    ev_a: DFF<Bits<32>>,
    ev_b: DFF<Bits<32>>,
    desc_v: DFF<Bit>,
    desc_opcode: DFF<Bits<8>>,
    desc_psn: DFF<Bits<24>>,
    desc_ackreq: DFF<Bit>,
    desc_len: DFF<Bits<13>>,
    desc_addr: DFF<Bits<64>>,
    desc_va: DFF<Bits<64>>,
    desc_rkey: DFF<Bits<32>>,
    desc_dlen: DFF<Bits<32>>,
    desc_tlm: DFF<Bit>,
    rd_v: DFF<Bit>,
    rd_addr: DFF<Bits<64>>,
    rd_psn: DFF<Bits<24>>,
    rd_idx: DFF<Bits<4>>,
    rd_flow: DFF<Bits<A>>,
    desc_flow: DFF<Bits<A>>,
    cmpl_v: DFF<Bit>,
    cmpl_tag: DFF<Bits<32>>,
    cmpl_status: DFF<Bits<8>>,
    cmpl_bytes: DFF<Bits<32>>,
    cc_v: DFF<Bit>,
    cc_seq: DFF<Bits<32>>,
    cc_snd_nxt: DFF<Bits<32>>,
    cc_nhops: DFF<Bits<4>>,
    cc_hop0: DFF<Bits<64>>,
    cc_hop1: DFF<Bits<64>>,
    cc_hop2: DFF<Bits<64>>,
    cc_hop3: DFF<Bits<64>>,
    cc_hop4: DFF<Bits<64>>,
    /// The counters (`req_counters.rs`, with its twin and test).
    counters: ReqCounters,
    // Constants.
    #[default(Constant::new(Bits::<16>::from(A as u64)))]
    k_a: Constant<Bits<16>>,
    #[default(Constant::new(Bits::<AQ>::from(Q as u64)))]
    k_q: Constant<Bits<AQ>>,
    #[default(Constant::new(Bits::<9>::from((2u64 << Q) - 1)))]
    k_ix: Constant<Bits<9>>,
    #[default(Constant::new(Bits::<9>::from((1u64 << Q) - 1)))]
    k_qmask: Constant<Bits<9>>,
    #[default(Constant::new(Bits::<9>::from(1u64 << Q)))]
    k_full: Constant<Bits<9>>,
    #[default(Constant::new(Bits::<16>::from((1u64 << A) - 1)))]
    k_amask: Constant<Bits<16>>,
    #[default(Constant::new(Bits::<4>::from(8u64)))]
    k_m8: Constant<Bits<4>>,
    #[default(Constant::new(Bits::<4>::from(12u64)))]
    k_m12: Constant<Bits<4>>,
    #[default(Constant::new(Bits::<8>::from(op::PROBE as u64)))]
    k_op_probe: Constant<Bits<8>>,
    #[default(Constant::new(Bits::<8>::from(op::READ_REQ as u64)))]
    k_op_rreq: Constant<Bits<8>>,
    #[default(Constant::new(Bits::<3>::from(nic_spec::sched::OP_INIT as u64)))]
    k_ev_init: Constant<Bits<3>>,
    #[default(Constant::new(Bits::<3>::from(nic_spec::sched::OP_DOORBELL as u64)))]
    k_ev_db: Constant<Bits<3>>,
    #[default(Constant::new(Bits::<3>::from(nic_spec::sched::OP_ACK as u64)))]
    k_ev_ack: Constant<Bits<3>>,
    #[default(Constant::new(Bits::<3>::from(nic_spec::sched::OP_REWIND as u64)))]
    k_ev_rewind: Constant<Bits<3>>,
    #[default(Constant::new(Bits::<3>::from(nic_spec::sched::OP_TRIM as u64)))]
    k_ev_trim: Constant<Bits<3>>,
    #[default(Constant::new(Bits::<8>::from((wr::Status::Ok as u8) as u64)))]
    k_st_ok: Constant<Bits<8>>,
    #[default(Constant::new(Bits::<8>::from((wr::Status::BadOpcode as u8) as u64)))]
    k_st_opcode: Constant<Bits<8>>,
    #[default(Constant::new(Bits::<8>::from((wr::Status::BadLen as u8) as u64)))]
    k_st_len: Constant<Bits<8>>,
    #[default(Constant::new(Bits::<8>::from((wr::Status::BadFlow as u8) as u64)))]
    k_st_flow: Constant<Bits<8>>,
    #[default(Constant::new(Bits::<8>::from((wr::Status::Full as u8) as u64)))]
    k_st_full: Constant<Bits<8>>,
    #[default(Constant::new(Bits::<8>::from((wr::Status::RetryExceeded as u8) as u64)))]
    k_st_retry_exceeded: Constant<Bits<8>>,
    #[default(Constant::new(Bits::<8>::from((wr::Status::Flushed as u8) as u64)))]
    k_st_flushed: Constant<Bits<8>>,
    #[default(Constant::new(Bits::<64>::from(FRESH_HDR)))]
    k_fresh: Constant<Bits<64>>,
    #[default(Constant::new(Bits::<32>::from(1u64)))]
    k_one: Constant<Bits<32>>,
    // The CC module's EVENT operation (`nic_golden::cc::hpcc::op`).
    #[default(Constant::new(Bits::<2>::from(0u64)))]
    k_cc_event: Constant<Bits<2>>,
    /// The inputs' stages, the choice among their heads and the
    /// operation taken, latched (`req_intake.rs`, with its twin and test).
    intake: ReqIntake<A>,
    // Combinational.
    idle: Signal<Local, Bit>,
    ev_hs: Signal<Local, Bit>,
    desc_hs: Signal<Local, Bit>,
    cmpl_hs: Signal<Local, Bit>,
    cc_hs: Signal<Local, Bit>,
    mlog: Signal<Local, Bits<4>>,
    mtu: Signal<Local, Bits<32>>,
    live: Signal<Local, Bit>,
    fl: Signal<Local, Bits<A>>,
    ring_slot: Signal<Local, Bits<9>>,
    /// The rings' read address, a register: the slot `ring_slot`
    /// predicts for the next cycle, and the operation's flow.
    ring_addr: DFF<Bits<AQ>>,
    /// `Post` flushes the flow this cycle (a NAK's go-back past the
    /// retry limit), from its registers.
    post_fatal: Signal<Local, Bit>,
    /// The slot a continuing state (`do_cont`) reads next: the doorbell
    /// index before a finished READ's doorbells, else the head.
    cont_slot: Signal<Local, Bits<9>>,
    /// `s_send_ix` + 1 in the ring's index width.
    send_ix_inc: Signal<Local, Bits<9>>,
    /// The send index `Flow` takes (the RAM's, or the working copy's
    /// where `rd_same`).
    fw_send_ix: Signal<Local, Bits<9>>,
    /// The work request's own checks and derived values (`wr_check.rs`,
    /// with its twin and test): registers, computed in `Flow` from the
    /// request taken in `Idle` (timing rule R4: none of them is logic in
    /// front of `Decide`'s carry chains).
    wr_check: WrCheck<Q>,
    /// The ring's slot at `tail` holds the oldest work request (the ring
    /// is full): an equality, so the ring's write enable needs no chain.
    slot_busy: Signal<Local, Bit>,
    ring_we: Signal<Local, Bit>,
    /// The operation was taken in `Wb` on the entry that `Wb` wrote
    /// back: `Flow` keeps the working copy instead of the RAMs' (older)
    /// words.
    rd_same: DFF<Bit>,
    /// The words `Flow` takes (the RAMs', or the working copy where
    /// `rd_same`) that the registered checks below need.
    fw_tail: Signal<Local, Bits<9>>,
    fw_head: Signal<Local, Bits<9>>,
    fw_seq_tail: Signal<Local, Bits<32>>,
    fw_una: Signal<Local, Bits<32>>,
    fw_psn_max: Signal<Local, Bits<24>>,
    tail_inc: Signal<Local, Bits<9>>,
    wr_fence_ok: Signal<Local, Bit>,
    wr_go: Signal<Local, Bit>,
    db_ok: Signal<Local, Bit>,
    rdk_eff: Signal<Local, Bits<24>>,
    // The ring entry at `slot` (RAM outputs) and what follows from it.
    w_read: Signal<Local, Bit>,
    w_ext: Signal<Local, Bits<32>>,
    /// The entry's last segment index, npkts − 1: the compares below
    /// test k against it, not k + 1 against npkts (one carry chain less).
    w_last_k: Signal<Local, Bits<32>>,
    /// The entry's length − 1 (0 for a zero length).
    w_len_m1: Signal<Local, Bits<32>>,
    max_d: Signal<Local, Bits<24>>,
    raise: Signal<Local, Bit>,
    d_ack: Signal<Local, Bits<24>>,
    d1: Signal<Local, Bits<32>>,
    d1_24: Signal<Local, Bits<24>>,
    head_inc: Signal<Local, Bits<9>>,
    psn_rew: Signal<Local, Bits<24>>,
    rew_k: Signal<Local, Bits<32>>,
    // Post: its two compares, done a cycle ahead (R4) for each value
    // `seq_ack` can have when Post begins (kept, `r_seq_mid`,
    // `r_seq_end`).
    adv_keep: Signal<Local, Bits<32>>,
    adv_mid: Signal<Local, Bits<32>>,
    adv_end: Signal<Local, Bits<32>>,
    past_keep: Signal<Local, Bits<32>>,
    past_mid: Signal<Local, Bits<32>>,
    past_end: Signal<Local, Bits<32>>,
    // The entry's end in the stream: the segmentation's (`Segment`) and
    // AckChk's.
    seq_end_w: Signal<Local, Bits<32>>,
    /// Post: `seq_ack` is past `s_una` (serial order), registered.
    adv_pos: DFF<Bit>,
    /// Post: `seq_ack` is past `s_seq_exp` (serial order), registered.
    past_pos: DFF<Bit>,
    /// DbChk: the doorbell index at the tail, compared a cycle ahead
    /// (registered every cycle; `s_db` and `s_tail` hold from `DbRd2`
    /// into `DbChk`), so the doorbell's end reaches the ring's read
    /// address without a compare.
    db_at_tail: DFF<Bit>,
    // The step after the acknowledgement part (`cont` in the twin).
    do_cont: Signal<Local, Bit>,
    set_rewind: Signal<Local, Bit>,
    clr_rd_done: Signal<Local, Bit>,
    eff_rd_done: Signal<Local, Bit>,
    eff_rewind: Signal<Local, Bit>,
    /// Errors found in the cycle of `do_cont` (a timeout past the retry
    /// limit, a NAK sequence error past it in Post): flush first.
    set_fatal: Signal<Local, Bit>,
    eff_fatal: Signal<Local, Bit>,
    /// Post: this operation acknowledged bytes or a READ response.
    moved: Signal<Local, Bit>,
    t_push: Signal<Local, Bit>,
    /// `s_epoch` + 1 (8 bits).
    epoch_inc: Signal<Local, Bits<8>>,
    w_addr: Signal<Local, Bits<AQ>>,
}

impl<const A: usize, const Q: usize, const AQ: usize> Logic for Requester<A, Q, AQ> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            adv_pos,
            ring_addr,
            rd_same,
            past_pos,
            db_at_tail,
            state,
            kind,
            in_range,
            s_active,
            s_tlm_data,
            s_rd_open,
            s_armed,
            s_rd_post,
            s_err,
            s_retries,
            s_retry_limit,
            s_rd_k,
            s_gen,
            s_epoch,
            s_head,
            s_send_ix,
            s_db,
            s_tail,
            s_seq_tail,
            s_una,
            s_seq_exp,
            s_psn_tail,
            s_psn_next,
            s_psn_max,
            slot,
            cur,
            rem,
            p,
            seq_ack,
            cmpl_final,
            rd_done,
            progress,
            rewind,
            cc_go,
            retry,
            fatal,
            arm,
            ev_v,
            ev_op,
            ev_a,
            ev_b,
            desc_v,
            desc_opcode,
            desc_psn,
            desc_ackreq,
            desc_len,
            desc_addr,
            desc_va,
            desc_rkey,
            desc_dlen,
            desc_tlm,
            rd_v,
            rd_addr,
            rd_psn,
            rd_idx,
            rd_flow,
            desc_flow,
            cmpl_v,
            cmpl_tag,
            cmpl_status,
            cmpl_bytes,
            cc_v,
            cc_seq,
            cc_snd_nxt,
            cc_nhops,
            cc_hop0,
            cc_hop1,
            cc_hop2,
            cc_hop3,
            cc_hop4,
            r_ack_skip,
            r_inside,
            r_final,
            r_d1,
            p1,
            r_seq_mid,
            r_seq_end,
            r_psn_rew
        );
        clock!(self, clock, st, ring, segment, timer, intake, counters, fb_check, wr_check);
        ReqStatsSource::link(&mut self.m_stats, &mut self.counters.m_stats);
        self.counters.posted.next = false;
        self.counters.completed.next = false;
        self.counters.err_opcode.next = false;
        self.counters.err_len.next = false;
        self.counters.err_flow.next = false;
        self.counters.err_full.next = false;
        self.counters.stale.next = false;
        self.counters.trims.next = false;
        self.counters.timeouts.next = false;
        self.counters.naks.next = false;
        self.counters.ack_ahead.next = false;
        self.counters.bad_fb.next = false;
        self.counters.remote_err.next = false;
        self.counters.retry_exceeded.next = false;
        self.counters.flushed.next = false;

        ReqFlowCtxSink::<A>::link(&mut self.s_ctx, &mut self.intake.s_ctx);
        WorkReqSink::link(&mut self.s_wr, &mut self.intake.s_wr);
        PktSendSink::link(&mut self.s_send, &mut self.intake.s_send);
        CcFeedbackSink::<A>::link(&mut self.s_fb, &mut self.intake.s_fb);
        NakReqSink::<A>::link(&mut self.s_nak, &mut self.intake.s_nak);
        // The next epoch, in a signal of 8 bits before any event widens it
        // to 32 (Verilog would take the + 1 at 32 bits: 255 + 1 = 256).
        self.epoch_inc.next = (self.s_epoch.q.val() + 1);
        self.rd_v.d.next = false;

        // ---- Configuration.
        if (self.cfg_mtu_log2.val() < self.k_m8.val()) {
            self.mlog.next = self.k_m8.val();
        } else if (self.cfg_mtu_log2.val() > self.k_m12.val()) {
            self.mlog.next = self.k_m12.val();
        } else {
            self.mlog.next = self.cfg_mtu_log2.val();
        }
        self.mtu.next = (self.k_one.val() << self.mlog.val());

        // ---- Input choice (Idle only): context, feedback, NAK, timer,
        // PktSend, work request.
        // The next operation is taken in `Idle` or already in the last
        // cycle of one, `Wb` (whose write-back `Flow` then reads past
        // the RAM: `rd_same`).
        self.idle.next =
            ((self.state.q.val() == ReqState::Idle) || (self.state.q.val() == ReqState::Wb));
        self.intake.idle.next = self.idle.val();
        self.intake.desc_full.next = self.desc_full.val();
        self.intake.t_exp.next = self.timer.expired.val();
        self.intake.t_head.next = self.timer.head.val();
        self.timer.pop.next = self.intake.take_t.val();

        self.ev_hs.next = (self.ev_v.q.val() && self.m_ev.ready.val());
        self.desc_hs.next = (self.desc_v.q.val() && self.m_desc.ready.val());
        self.cmpl_hs.next = (self.cmpl_v.q.val() && self.m_cmpl.ready.val());
        self.cc_hs.next = (self.cc_v.q.val() && self.m_cc.ready.val());

        // ---- Work request checks (Decide, kind Wr).
        self.live.next = (self.in_range.q.val() && self.s_active.q.val());
        // The work request's checks (`wr_check.rs`), the room check from
        // the state words as they leave `st` (there in `Flow`, so
        // `is_full` is valid in `Decide`; the extent holds from `Flow`
        // on): its two chains end in a register, not in `Decide`'s
        // decision (R4).
        if self.rd_same.q.val() {
            self.fw_tail.next = self.s_tail.q.val();
            self.fw_head.next = self.s_head.q.val();
            self.fw_seq_tail.next = self.s_seq_tail.q.val();
            self.fw_una.next = self.s_una.q.val();
            self.fw_psn_max.next = self.s_psn_max.q.val();
        } else {
            self.fw_tail.next = self.st.tail.val();
            self.fw_head.next = self.st.head.val();
            self.fw_seq_tail.next = self.st.seq_tail.val();
            self.fw_una.next = self.st.una.val();
            self.fw_psn_max.next = self.st.psn_max.val();
        }
        self.wr_check.opcode.next = self.intake.wr_opcode.val();
        self.wr_check.len.next = self.intake.wr_len.val();
        self.wr_check.mlog.next = self.mlog.val();
        self.wr_check.tail.next = self.fw_tail.val();
        self.wr_check.head.next = self.fw_head.val();
        self.wr_check.seq_tail.next = self.fw_seq_tail.val();
        self.wr_check.una.next = self.fw_una.val();
        self.tail_inc.next = ((self.s_tail.q.val() + 1) & self.k_ix.val());
        // The fence (`nic_golden::roce::requester::db_allowed`): a new work
        // request is doorbelled when nothing waits ahead of it and a WRITE
        // finds no READ open, a READ fewer than 8.
        if self.wr_check.is_read.val() {
            self.wr_fence_ok.next = !self.s_rd_open.q.val().get_bit(3);
        } else {
            self.wr_fence_ok.next = !self.s_rd_open.q.val().any();
        }
        self.wr_go.next = ((self.s_db.q.val() == self.s_tail.q.val()) && self.wr_fence_ok.val());

        // ---- RAM addresses: the state words of the flow being taken (read
        // in Idle, there in Flow); the ring entry at `slot` (there one
        // cycle after `slot` is set); writes in Decide (ring) and Wb.
        self.fl.next = self.intake.flow.val().get_bits::<A>(0);
        self.st.read_address.next = self.intake.flow_in.val().get_bits::<A>(0);
        self.st.write_address.next = self.fl.val();
        self.st.write_enable.next = false;
        self.st.w_active.next = self.s_active.q.val();
        self.st.w_tlm_data.next = self.s_tlm_data.q.val();
        self.st.w_armed.next = self.s_armed.q.val();
        self.st.w_rd_open.next = self.s_rd_open.q.val();
        self.st.w_rd_post.next = self.s_rd_post.q.val();
        self.st.w_err.next = self.s_err.q.val();
        self.st.w_retries.next = self.s_retries.q.val();
        self.st.w_retry_limit.next = self.s_retry_limit.q.val();
        self.st.w_head.next = self.s_head.q.val();
        self.st.w_send_ix.next = self.s_send_ix.q.val();
        self.st.w_db.next = self.s_db.q.val();
        self.st.w_tail.next = self.s_tail.q.val();
        self.st.w_gen.next = self.s_gen.q.val();
        self.st.w_epoch.next = self.s_epoch.q.val();
        self.st.w_seq_tail.next = self.s_seq_tail.q.val();
        self.st.w_una.next = self.s_una.q.val();
        self.st.w_seq_exp.next = self.s_seq_exp.q.val();
        self.st.w_rd_k.next = self.s_rd_k.q.val();
        self.st.w_psn_tail.next = self.s_psn_tail.q.val();
        self.st.w_psn_next.next = self.s_psn_next.q.val();
        self.st.w_psn_max.next = self.s_psn_max.q.val();

        self.w_addr.next = ((bit_cast::<AQ, A>(self.fl.val()) << self.k_q.val())
            | bit_cast::<AQ, 9>((self.s_tail.q.val() & self.k_qmask.val())));
        self.ring.write_address.next = self.w_addr.val();
        // Bit 0: a READ; bits 4..1: its landing entry (`rd_post`).
        self.ring.w_read.next = ((bit_cast::<5, 4>(self.s_rd_post.q.val()) << 1)
            | bit_cast::<5, 1>(self.wr_check.is_read.val().into()));
        self.ring.w_laddr.next = self.intake.wr_laddr.val();
        self.ring.w_va.next = self.intake.wr_va.val();
        self.ring.w_rkey.next = self.intake.wr_rkey.val();
        self.ring.w_len.next = self.intake.wr_len.val();
        self.ring.w_tag.next = self.intake.wr_tag.val();
        self.ring.w_seq_first.next = self.s_seq_tail.q.val();
        self.ring.w_psn_first.next = self.s_psn_tail.q.val();
        // A work request's fields go into the ring's slot at `tail` in its
        // `Decide` whatever its checks say, unless that slot holds the
        // oldest work request (the ring is full: `tail` and `head` differ
        // in bit Q only, an equality). A slot at or past `tail` is never
        // read as an entry, and `tail` moves only when the request is
        // accepted, so a refused one leaves nothing behind; the checks'
        // carry chains reach registers, not the block RAMs' write enables
        // (timing rule R4).
        self.slot_busy.next =
            (((self.s_tail.q.val() ^ self.s_head.q.val()) & self.k_ix.val()) == self.k_full.val());
        self.ring_we.next = ((self.state.q.val() == ReqState::Decide)
            && (self.kind.q.val() == ReqKind::Wr)
            && !self.slot_busy.val());
        self.ring.write_enable.next = self.ring_we.val();

        // ---- The ring entry at `slot`.
        self.w_read.next = self.ring.read.val().get_bit(0);
        // The fence for the entry at `db` (DbChk).
        if self.w_read.val() {
            self.db_ok.next = !self.s_rd_open.q.val().get_bit(3);
        } else {
            self.db_ok.next = !self.s_rd_open.q.val().any();
        }
        if self.w_read.val() {
            self.w_ext.next = 1.into();
        } else {
            self.w_ext.next = self.ring.len.val();
        }
        if self.ring.len.val().any() {
            self.w_len_m1.next = (self.ring.len.val() - 1);
        } else {
            self.w_len_m1.next = 0.into();
        }
        self.w_last_k.next = (self.w_len_m1.val() >> self.mlog.val());
        // cur + left is the entry's end (cur + extent − (cur − first)).
        self.seq_end_w.next = (self.ring.seq_first.val() + self.w_ext.val());
        // Only the READ at the head has responses counted.
        if (self.slot.q.val() == self.s_head.q.val()) {
            self.rdk_eff.next = self.s_rd_k.q.val();
        } else {
            self.rdk_eff.next = 0.into();
        }
        // Segmentation (Seg): the packet at the cursor, registered in
        // `SegRd2` by its own block.
        self.segment.mlog.next = self.mlog.val();
        self.segment.mtu.next = self.mtu.val();
        self.segment.cur.next = self.cur.q.val();
        self.segment.rem.next = self.rem.q.val();
        self.segment.read.next = self.w_read.val();
        self.segment.len.next = self.ring.len.val();
        self.segment.ext.next = self.w_ext.val();
        self.segment.last_k.next = self.w_last_k.val();
        self.segment.seq_first.next = self.ring.seq_first.val();
        self.segment.seq_end.next = self.seq_end_w.val();
        self.segment.psn_first.next = self.ring.psn_first.val();
        self.segment.laddr.next = self.ring.laddr.val();
        self.segment.va.next = self.ring.va.val();
        self.segment.rd_k.next = self.rdk_eff.val();
        // Seg's raise of the highest PSN sent, from the registered next
        // PSN (one carry chain there, not a fourth one here: R4).
        self.max_d.next = (self.segment.psn_next.val() - self.s_psn_max.q.val());
        self.raise.next = (self.max_d.val().any() && !self.max_d.val().get_bit(23));
        // Acknowledgement (AckChk).
        self.d_ack.next = (self.p.q.val() - self.ring.psn_first.val());
        // d_ack + 1 as p1 − the first PSN: one chain from the ring's word,
        // not two. They differ only at d_ack = 2^24 − 1 (d1 = 2^24 against
        // 0), where d_ack's bit 23 makes `AckChk` skip the entry, so
        // neither `r_d1` nor `r_seq_mid` is used.
        self.d1_24.next = (self.p1.q.val() - self.ring.psn_first.val());
        self.d1.next = bit_cast::<32, 24>(self.d1_24.val());
        self.head_inc.next = ((self.s_head.q.val() + 1) & self.k_ix.val());
        // Rewind (RewChk).
        self.rew_k.next = ((self.s_una.q.val() - self.ring.seq_first.val()) >> self.mlog.val());
        if (self.s_head.q.val() == self.s_tail.q.val()) {
            self.psn_rew.next = self.s_psn_tail.q.val();
        } else {
            self.psn_rew.next = (self.ring.psn_first.val() + self.rew_k.val().get_bits::<24>(0));
        }

        // ---- Registered every cycle: valid in Seg, AckChk, RewChk (the
        // RAM address and the operands are stable in the *Rd2 state).
        self.r_ack_skip.d.next = ((self.slot.q.val() == self.s_tail.q.val())
            || self.d_ack.val().get_bit(23)
            || (self.w_read.val() && !self.fb_check.rresp.val()));
        // d1 < npkts and d1 = npkts, as d_ack against npkts − 1.
        self.r_inside.d.next = (bit_cast::<32, 24>(self.d_ack.val()) < self.w_last_k.val());
        self.r_final.d.next = (bit_cast::<32, 24>(self.d_ack.val()) == self.w_last_k.val());
        self.r_d1.d.next = self.d1.val().get_bits::<24>(0);
        self.r_seq_mid.d.next = (self.ring.seq_first.val() + (self.d1.val() << self.mlog.val()));
        self.r_seq_end.d.next = self.seq_end_w.val();
        self.r_psn_rew.d.next = self.psn_rew.val();

        // ---- Feedback checks (Decide, kinds Fb and Nak): registered in
        // their own block from the latched feedback (`fb_check.rs`).
        self.fb_check.is_fb.next = (self.kind.q.val() == ReqKind::Fb);
        self.fb_check.is_nak.next = (self.kind.q.val() == ReqKind::Nak);
        self.fb_check.fb_opcode.next = self.intake.fb_opcode.val();
        self.fb_check.fb_aeth.next = self.intake.fb_aeth.val();
        self.fb_check.fb_psn.next = self.intake.fb_psn.val();
        self.fb_check.psn_max.next = self.fw_psn_max.val();

        // ---- Post's compares, a cycle ahead. Post follows `AckChk` or
        // `AckCmpl`, neither of which moves `s_una` or `s_seq_exp`;
        // `AckChk` sets `seq_ack` as chosen here (its own branches, from
        // registers), `AckCmpl` keeps it. So the carry chains end in
        // `adv_pos` and `past_pos`, not in the ring's read address through
        // `moved` (R4). Their value matters only in Post. Each compare is
        // made for the three values `seq_ack` can take (kept, the packet's
        // end `r_seq_mid`, the entry's end `r_seq_end`), side by side, and
        // the choice picks one bit: the choice's select is not in front of
        // a carry chain.
        self.adv_keep.next = (self.seq_ack.q.val() - self.s_una.q.val());
        self.adv_mid.next = (self.r_seq_mid.q.val() - self.s_una.q.val());
        self.adv_end.next = (self.r_seq_end.q.val() - self.s_una.q.val());
        self.past_keep.next = (self.seq_ack.q.val() - self.s_seq_exp.q.val());
        self.past_mid.next = (self.r_seq_mid.q.val() - self.s_seq_exp.q.val());
        self.past_end.next = (self.r_seq_end.q.val() - self.s_seq_exp.q.val());
        self.adv_pos.d.next = (self.adv_keep.val().any() && !self.adv_keep.val().get_bit(31));
        self.past_pos.d.next = (self.past_keep.val().any() && !self.past_keep.val().get_bit(31));
        if ((self.state.q.val() == ReqState::AckChk) && !self.r_ack_skip.q.val()) {
            if self.r_inside.q.val() {
                if !self.w_read.val() {
                    self.adv_pos.d.next =
                        (self.adv_mid.val().any() && !self.adv_mid.val().get_bit(31));
                    self.past_pos.d.next =
                        (self.past_mid.val().any() && !self.past_mid.val().get_bit(31));
                }
            } else {
                self.adv_pos.d.next = (self.adv_end.val().any() && !self.adv_end.val().get_bit(31));
                self.past_pos.d.next =
                    (self.past_end.val().any() && !self.past_end.val().get_bit(31));
            }
        }
        self.db_at_tail.d.next = (self.s_db.q.val() == self.s_tail.q.val());
        self.moved.next = (self.adv_pos.q.val() || self.progress.q.val());

        self.do_cont.next = false;
        self.set_rewind.next = false;
        self.set_fatal.next = false;
        self.clr_rd_done.next = false;
        self.t_push.next = false;

        match self.state.q.val() {
            ReqState::Idle => {
                // Operations are taken below ("Taking the next
                // operation"), here and in `Wb`.
            }
            ReqState::FlowRd => {
                // The flow's state words leave the RAMs, into their
                // output registers (R3).
                self.state.d.next = ReqState::Flow;
            }
            ReqState::Flow => {
                // The flow's state words arrive from the RAMs' output
                // registers.
                self.in_range.d.next = !(self.intake.flow.val() >> self.k_a.val()).any();
                // Taken in `Wb` on the same entry, the RAMs read the
                // words before that write-back: the working copy, which
                // that `Wb` wrote and nothing has changed since, is them.
                if !self.rd_same.q.val() {
                    self.s_active.d.next = self.st.active.val();
                    self.s_tlm_data.d.next = self.st.tlm_data.val();
                    self.s_armed.d.next = self.st.armed.val();
                    self.s_rd_open.d.next = self.st.rd_open.val();
                    self.s_rd_post.d.next = self.st.rd_post.val();
                    self.s_err.d.next = self.st.err.val();
                    self.s_retries.d.next = self.st.retries.val();
                    self.s_retry_limit.d.next = self.st.retry_limit.val();
                    self.s_head.d.next = self.st.head.val();
                    self.s_send_ix.d.next = self.st.send_ix.val();
                    self.s_db.d.next = self.st.db.val();
                    self.s_tail.d.next = self.st.tail.val();
                    self.s_gen.d.next = self.st.gen.val();
                    self.s_epoch.d.next = self.st.epoch.val();
                    self.s_seq_tail.d.next = self.st.seq_tail.val();
                    self.s_una.d.next = self.st.una.val();
                    self.s_seq_exp.d.next = self.st.seq_exp.val();
                    self.s_rd_k.d.next = self.st.rd_k.val();
                    self.s_psn_tail.d.next = self.st.psn_tail.val();
                    self.s_psn_next.d.next = self.st.psn_next.val();
                    self.s_psn_max.d.next = self.st.psn_max.val();
                }
                self.rd_done.d.next = false;
                self.progress.d.next = false;
                self.rewind.d.next = false;
                self.cc_go.d.next = false;
                self.arm.d.next = false;
                self.retry.d.next = false;
                self.fatal.d.next = 0.into();
                self.state.d.next = ReqState::Decide;
            }
            ReqState::Decide => {
                match self.kind.q.val() {
                    ReqKind::Ctx => {
                        // A fresh flow: the ring is discarded.
                        self.s_active.d.next = self.intake.ctx_active.val();
                        self.s_tlm_data.d.next = self.intake.ctx_tlm_data.val();
                        self.s_rd_open.d.next = 0.into();
                        self.s_rd_post.d.next = 0.into();
                        self.s_err.d.next = false;
                        self.s_retries.d.next = 0.into();
                        self.s_retry_limit.d.next = self.intake.ctx_retry_limit.val();
                        self.s_rd_k.d.next = 0.into();
                        self.s_gen.d.next = (self.s_gen.q.val() + 1);
                        self.s_epoch.d.next = (self.s_epoch.q.val() + 1);
                        self.s_head.d.next = 0.into();
                        self.s_send_ix.d.next = 0.into();
                        self.s_db.d.next = 0.into();
                        self.s_tail.d.next = 0.into();
                        self.s_seq_tail.d.next = 0.into();
                        self.s_una.d.next = 0.into();
                        self.s_seq_exp.d.next = 0.into();
                        self.s_psn_tail.d.next = self.intake.ctx_psn.val();
                        self.s_psn_next.d.next = self.intake.ctx_psn.val();
                        self.s_psn_max.d.next = self.intake.ctx_psn.val();
                        self.ev_v.d.next = true;
                        self.ev_op.d.next = self.k_ev_init.val();
                        self.ev_a.d.next = 0.into();
                        self.ev_b.d.next = bit_cast::<32, 8>(self.epoch_inc.val());
                        self.state.d.next = ReqState::CtxEv;
                    }
                    ReqKind::Wr => {
                        if (self.wr_check.bad_opcode.val()
                            || self.wr_check.bad_len.val()
                            || !self.live.val()
                            || self.s_err.q.val()
                            || self.wr_check.is_full.val())
                        {
                            self.cmpl_bytes.d.next = 0.into();
                            self.cmpl_tag.d.next = self.intake.wr_tag.val();
                        }
                        if self.wr_check.bad_opcode.val() {
                            self.counters.err_opcode.next = true;
                            self.cmpl_v.d.next = true;
                            self.cmpl_status.d.next = self.k_st_opcode.val();
                            self.state.d.next = ReqState::WrCmpl;
                        } else if self.wr_check.bad_len.val() {
                            self.counters.err_len.next = true;
                            self.cmpl_v.d.next = true;
                            self.cmpl_status.d.next = self.k_st_len.val();
                            self.state.d.next = ReqState::WrCmpl;
                        } else if !self.live.val() {
                            self.counters.err_flow.next = true;
                            self.cmpl_v.d.next = true;
                            self.cmpl_status.d.next = self.k_st_flow.val();
                            self.state.d.next = ReqState::WrCmpl;
                        } else if self.s_err.q.val() {
                            self.counters.flushed.next = true;
                            self.cmpl_v.d.next = true;
                            self.cmpl_status.d.next = self.k_st_flushed.val();
                            self.state.d.next = ReqState::WrCmpl;
                        } else if self.wr_check.is_full.val() {
                            self.counters.err_full.next = true;
                            self.cmpl_v.d.next = true;
                            self.cmpl_status.d.next = self.k_st_full.val();
                            self.state.d.next = ReqState::WrCmpl;
                        } else {
                            // Into the ring at `tail` (written above).
                            self.counters.posted.next = true;
                            self.s_seq_tail.d.next =
                                (self.s_seq_tail.q.val() + self.wr_check.ext.val());
                            self.s_psn_tail.d.next =
                                (self.s_psn_tail.q.val() + self.wr_check.n.val().get_bits::<24>(0));
                            self.s_tail.d.next = self.tail_inc.val();
                            if self.wr_check.is_read.val() {
                                self.s_rd_post.d.next = (self.s_rd_post.q.val() + 1);
                            }
                            if self.wr_go.val() {
                                self.s_db.d.next = self.tail_inc.val();
                                if self.wr_check.is_read.val() {
                                    self.s_rd_open.d.next = (self.s_rd_open.q.val() + 1);
                                }
                                self.ev_v.d.next = true;
                                self.ev_op.d.next = self.k_ev_db.val();
                                self.ev_a.d.next = self.wr_check.ext.val();
                                self.ev_b.d.next = 0.into();
                                self.state.d.next = ReqState::WrDb;
                            } else {
                                self.state.d.next = ReqState::Wb;
                            }
                        }
                    }
                    ReqKind::Send => {
                        if (!self.live.val()
                            || self.s_err.q.val()
                            || (self.intake.send_epoch.val() != self.s_epoch.q.val()))
                        {
                            self.counters.stale.next = true;
                            self.state.d.next = ReqState::Idle;
                        } else if self.intake.send_probe.val() {
                            self.desc_v.d.next = true;
                            self.desc_flow.d.next = self.fl.val();
                            self.desc_opcode.d.next = self.k_op_probe.val();
                            self.desc_psn.d.next = self.s_psn_next.q.val();
                            self.desc_ackreq.d.next = true;
                            self.desc_len.d.next = 0.into();
                            self.desc_addr.d.next = 0.into();
                            self.desc_va.d.next = 0.into();
                            self.desc_rkey.d.next = 0.into();
                            self.desc_dlen.d.next = 0.into();
                            self.desc_tlm.d.next = true;
                            self.state.d.next = ReqState::ProbeOut;
                        } else if ((self.intake.send_seq.val() != self.s_seq_exp.q.val())
                            || !self.intake.send_len.val().any())
                        {
                            self.counters.stale.next = true;
                            self.state.d.next = ReqState::Idle;
                        } else {
                            self.cur.d.next = self.intake.send_seq.val();
                            self.rem.d.next = self.intake.send_len.val();
                            self.slot.d.next = self.s_send_ix.q.val();
                            self.state.d.next = ReqState::SegRd;
                        }
                    }
                    ReqKind::Timer => {
                        if (self.s_active.q.val() && (self.s_una.q.val() != self.s_seq_exp.q.val()))
                        {
                            self.arm.d.next = true;
                            if (self.intake.t_gen.val() == self.s_gen.q.val()) {
                                self.counters.timeouts.next = true;
                                if (self.s_retries.q.val() >= self.s_retry_limit.q.val()) {
                                    self.counters.retry_exceeded.next = true;
                                    self.set_fatal.next = true;
                                } else {
                                    self.s_retries.d.next = (self.s_retries.q.val() + 1);
                                    self.set_rewind.next = true;
                                }
                                self.do_cont.next = true;
                            } else {
                                self.state.d.next = ReqState::Wb;
                            }
                        } else {
                            self.s_armed.d.next = false;
                            self.state.d.next = ReqState::Wb;
                        }
                    }
                    _ => {
                        // Fb, Nak.
                        if (!self.live.val()
                            || self.s_err.q.val()
                            || ((self.kind.q.val() == ReqKind::Fb) && !self.fb_check.is_ack.val()))
                        {
                            self.counters.bad_fb.next = true;
                            self.state.d.next = ReqState::Idle;
                        } else if self.fb_check.is_ahead.val() {
                            self.counters.ack_ahead.next = true;
                            self.state.d.next = ReqState::Idle;
                        } else {
                            if (self.kind.q.val() == ReqKind::Nak) {
                                self.counters.naks.next = true;
                                if self.fb_check.nak_status.val().any() {
                                    self.counters.remote_err.next = true;
                                    self.fatal.d.next = self.fb_check.nak_status.val();
                                } else {
                                    self.rewind.d.next = true;
                                    self.retry.d.next = true;
                                }
                            } else {
                                self.cc_go.d.next = self.intake.fb_tlm.val();
                            }
                            self.p.d.next = self.fb_check.p_in.val();
                            self.p1.d.next = (self.fb_check.p_in.val() + 1);
                            self.seq_ack.d.next = self.s_una.q.val();
                            self.slot.d.next = self.s_head.q.val();
                            self.state.d.next = ReqState::AckRd;
                        }
                    }
                }
            }
            ReqState::CtxEv => {
                if self.ev_hs.val() {
                    self.ev_v.d.next = false;
                    self.state.d.next = ReqState::Wb;
                }
            }
            ReqState::WrDb => {
                if self.ev_hs.val() {
                    self.ev_v.d.next = false;
                    self.state.d.next = ReqState::Wb;
                }
            }
            ReqState::TrimEv => {
                if self.ev_hs.val() {
                    self.ev_v.d.next = false;
                    self.state.d.next = ReqState::Wb;
                }
            }
            ReqState::WrCmpl => {
                if self.cmpl_hs.val() {
                    self.cmpl_v.d.next = false;
                    self.state.d.next = ReqState::Idle;
                }
            }
            ReqState::ProbeOut => {
                if self.desc_hs.val() {
                    self.desc_v.d.next = false;
                    self.state.d.next = ReqState::Idle;
                }
            }
            ReqState::SegRd => {
                self.state.d.next = ReqState::SegRd2;
            }
            ReqState::SegRd2 => {
                self.state.d.next = ReqState::Seg;
            }
            ReqState::Seg => {
                if (self.segment.trim.val() || self.desc_full.val()) {
                    // The PktSend crosses into a message that does not fit
                    // in its rest, or the descriptor queue is full: cut
                    // here.
                    self.s_epoch.d.next = (self.s_epoch.q.val() + 1);
                    self.s_seq_exp.d.next = self.cur.q.val();
                    self.counters.trims.next = true;
                    self.ev_v.d.next = true;
                    self.ev_op.d.next = self.k_ev_trim.val();
                    self.ev_a.d.next = self.cur.q.val();
                    self.ev_b.d.next = bit_cast::<32, 8>(self.epoch_inc.val());
                    self.state.d.next = ReqState::TrimEv;
                } else {
                    self.desc_v.d.next = true;
                    self.desc_flow.d.next = self.fl.val();
                    self.desc_rkey.d.next = self.ring.rkey.val();
                    if self.w_read.val() {
                        // The request for the responses not received yet,
                        // and the READ's landing entry (the same on every
                        // send).
                        self.rd_v.d.next = true;
                        self.rd_flow.d.next = self.fl.val();
                        self.rd_addr.d.next = self.ring.laddr.val();
                        self.rd_psn.d.next = self.ring.psn_first.val();
                        self.rd_idx.d.next = self.ring.read.val().get_bits::<4>(1);
                        self.desc_opcode.d.next = self.k_op_rreq.val();
                        self.desc_psn.d.next = self.segment.rd_psn.val();
                        self.desc_ackreq.d.next = false;
                        self.desc_len.d.next = 0.into();
                        self.desc_addr.d.next = 0.into();
                        self.desc_va.d.next = self.segment.rd_va.val();
                        self.desc_dlen.d.next = self.segment.rd_dlen.val();
                        self.desc_tlm.d.next = false;
                    } else {
                        self.desc_opcode.d.next = self.segment.opcode.val();
                        self.desc_psn.d.next = self.segment.psn.val();
                        self.desc_ackreq.d.next =
                            (self.segment.last.val() || self.s_tlm_data.q.val());
                        self.desc_len.d.next = self.segment.seg.val().get_bits::<13>(0);
                        self.desc_addr.d.next = self.segment.wr_addr.val();
                        self.desc_va.d.next = self.ring.va.val();
                        self.desc_dlen.d.next = self.ring.len.val();
                        self.desc_tlm.d.next = self.s_tlm_data.q.val();
                    }
                    self.s_psn_next.d.next = self.segment.psn_next.val();
                    if self.raise.val() {
                        self.s_psn_max.d.next = self.segment.psn_next.val();
                    }
                    self.cur.d.next = self.segment.cur_new.val();
                    self.rem.d.next = self.segment.rem_new.val();
                    self.s_seq_exp.d.next = self.segment.cur_new.val();
                    if self.segment.seg_eq_left.val() {
                        self.s_send_ix.d.next = ((self.s_send_ix.q.val() + 1) & self.k_ix.val());
                        self.slot.d.next = ((self.s_send_ix.q.val() + 1) & self.k_ix.val());
                    }
                    if !self.s_armed.q.val() {
                        self.s_armed.d.next = true;
                        self.arm.d.next = true;
                    }
                    self.state.d.next = ReqState::SegOut;
                }
            }
            ReqState::SegOut => {
                if self.desc_hs.val() {
                    self.desc_v.d.next = false;
                    if self.rem.q.val().any() {
                        self.state.d.next = ReqState::SegRd;
                    } else {
                        self.state.d.next = ReqState::Wb;
                    }
                }
            }
            ReqState::AckRd => {
                self.state.d.next = ReqState::AckRd2;
            }
            ReqState::AckRd2 => {
                self.state.d.next = ReqState::AckChk;
            }
            ReqState::AckChk => {
                if self.r_ack_skip.q.val() {
                    self.state.d.next = ReqState::Post;
                } else if self.r_inside.q.val() {
                    // Inside the work request, not its last packet.
                    if self.w_read.val() {
                        self.s_rd_k.d.next = self.r_d1.q.val();
                        self.progress.d.next = true;
                    } else {
                        self.seq_ack.d.next = self.r_seq_mid.q.val();
                    }
                    self.state.d.next = ReqState::Post;
                } else {
                    // Its last packet or beyond: complete it.
                    self.seq_ack.d.next = self.r_seq_end.q.val();
                    self.cmpl_final.d.next = self.r_final.q.val();
                    self.cmpl_v.d.next = true;
                    self.cmpl_tag.d.next = self.ring.tag.val();
                    self.cmpl_status.d.next = self.k_st_ok.val();
                    self.cmpl_bytes.d.next = self.ring.len.val();
                    self.counters.completed.next = true;
                    self.s_head.d.next = self.head_inc.val();
                    self.slot.d.next = self.head_inc.val();
                    if self.w_read.val() {
                        self.s_rd_open.d.next = (self.s_rd_open.q.val() - 1);
                        self.s_rd_k.d.next = 0.into();
                        self.rd_done.d.next = true;
                    }
                    self.state.d.next = ReqState::AckCmpl;
                }
            }
            ReqState::AckCmpl => {
                if self.cmpl_hs.val() {
                    self.cmpl_v.d.next = false;
                    if self.cmpl_final.q.val() {
                        self.state.d.next = ReqState::Post;
                    } else {
                        self.state.d.next = ReqState::AckRd;
                    }
                }
            }
            ReqState::Post => {
                // Progress forgives the go-backs; a NAK PSN sequence error
                // without it counts against the retry limit.
                if self.moved.val() {
                    self.s_retries.d.next = 0.into();
                } else if self.retry.q.val() {
                    if (self.s_retries.q.val() >= self.s_retry_limit.q.val()) {
                        self.counters.retry_exceeded.next = true;
                        self.set_fatal.next = true;
                    } else {
                        self.s_retries.d.next = (self.s_retries.q.val() + 1);
                    }
                }
                self.retry.d.next = false;
                if (self.adv_pos.q.val() && self.past_pos.q.val()) {
                    // Past what is sent since a REWIND: skip there, by a
                    // REWIND (the scheduler's ACK stops at its snd_nxt).
                    self.s_una.d.next = self.seq_ack.q.val();
                    self.s_gen.d.next = (self.s_gen.q.val() + 1);
                    self.set_rewind.next = true;
                    self.do_cont.next = true;
                } else if self.adv_pos.q.val() {
                    self.s_una.d.next = self.seq_ack.q.val();
                    self.s_gen.d.next = (self.s_gen.q.val() + 1);
                    self.ev_v.d.next = true;
                    self.ev_op.d.next = self.k_ev_ack.val();
                    self.ev_a.d.next = self.seq_ack.q.val();
                    self.ev_b.d.next = 0.into();
                    self.state.d.next = ReqState::AckEv;
                } else {
                    if self.progress.q.val() {
                        self.s_gen.d.next = (self.s_gen.q.val() + 1);
                    }
                    self.do_cont.next = true;
                }
            }
            ReqState::AckEv => {
                if self.ev_hs.val() {
                    self.ev_v.d.next = false;
                    self.do_cont.next = true;
                }
            }
            ReqState::RewEv => {
                if self.ev_hs.val() {
                    self.ev_v.d.next = false;
                    self.do_cont.next = true;
                }
            }
            ReqState::DbEv => {
                if self.ev_hs.val() {
                    self.ev_v.d.next = false;
                    self.slot.d.next = self.s_db.q.val();
                    self.state.d.next = ReqState::DbRd;
                }
            }
            ReqState::DbRd => {
                self.state.d.next = ReqState::DbRd2;
            }
            ReqState::DbRd2 => {
                self.state.d.next = ReqState::DbChk;
            }
            ReqState::DbChk => {
                if (self.db_at_tail.q.val() || !self.db_ok.val()) {
                    self.clr_rd_done.next = true;
                    self.do_cont.next = true;
                } else {
                    self.s_db.d.next = ((self.s_db.q.val() + 1) & self.k_ix.val());
                    if self.w_read.val() {
                        self.s_rd_open.d.next = (self.s_rd_open.q.val() + 1);
                    }
                    self.ev_v.d.next = true;
                    self.ev_op.d.next = self.k_ev_db.val();
                    self.ev_a.d.next = self.w_ext.val();
                    self.ev_b.d.next = 0.into();
                    self.state.d.next = ReqState::DbEv;
                }
            }
            ReqState::RewRd => {
                self.state.d.next = ReqState::RewRd2;
            }
            ReqState::RewRd2 => {
                self.state.d.next = ReqState::RewChk;
            }
            ReqState::RewChk => {
                self.s_epoch.d.next = (self.s_epoch.q.val() + 1);
                self.s_seq_exp.d.next = self.s_una.q.val();
                self.s_send_ix.d.next = self.s_head.q.val();
                self.s_psn_next.d.next = self.r_psn_rew.q.val();
                self.rewind.d.next = false;
                self.ev_v.d.next = true;
                self.ev_op.d.next = self.k_ev_rewind.val();
                self.ev_a.d.next = self.s_una.q.val();
                self.ev_b.d.next = bit_cast::<32, 8>(self.epoch_inc.val());
                self.state.d.next = ReqState::RewEv;
            }
            ReqState::CcOut => {
                if self.cc_hs.val() {
                    self.cc_v.d.next = false;
                    self.do_cont.next = true;
                }
            }
            ReqState::FlushRd => {
                self.state.d.next = ReqState::FlushRd2;
            }
            ReqState::FlushRd2 => {
                self.state.d.next = ReqState::FlushChk;
            }
            ReqState::FlushChk => {
                if (self.slot.q.val() == self.s_tail.q.val()) {
                    // The ring is empty: the flow errs, nothing is in
                    // flight, and the scheduler forgets its bytes (INIT).
                    self.s_err.d.next = true;
                    self.s_una.d.next = self.s_seq_tail.q.val();
                    self.s_seq_exp.d.next = self.s_seq_tail.q.val();
                    self.s_send_ix.d.next = self.s_tail.q.val();
                    self.s_db.d.next = self.s_tail.q.val();
                    self.s_rd_open.d.next = 0.into();
                    self.s_rd_k.d.next = 0.into();
                    self.s_psn_next.d.next = self.s_psn_tail.q.val();
                    self.s_epoch.d.next = (self.s_epoch.q.val() + 1);
                    self.fatal.d.next = 0.into();
                    self.rd_done.d.next = false;
                    self.rewind.d.next = false;
                    self.cc_go.d.next = false;
                    self.ev_v.d.next = true;
                    self.ev_op.d.next = self.k_ev_init.val();
                    self.ev_a.d.next = self.s_seq_tail.q.val();
                    self.ev_b.d.next = bit_cast::<32, 8>(self.epoch_inc.val());
                    self.state.d.next = ReqState::ErrEv;
                } else {
                    // The first completion carries the error, the rest
                    // `Flushed`.
                    if (self.fatal.q.val() == self.k_st_flushed.val()) {
                        self.counters.flushed.next = true;
                    }
                    self.cmpl_v.d.next = true;
                    self.cmpl_tag.d.next = self.ring.tag.val();
                    self.cmpl_status.d.next = self.fatal.q.val();
                    self.cmpl_bytes.d.next = 0.into();
                    self.fatal.d.next = self.k_st_flushed.val();
                    self.s_head.d.next = self.head_inc.val();
                    self.slot.d.next = self.head_inc.val();
                    self.state.d.next = ReqState::FlushCmpl;
                }
            }
            ReqState::FlushCmpl => {
                if self.cmpl_hs.val() {
                    self.cmpl_v.d.next = false;
                    self.state.d.next = ReqState::FlushRd;
                }
            }
            ReqState::ErrEv => {
                if self.ev_hs.val() {
                    self.ev_v.d.next = false;
                    self.state.d.next = ReqState::Wb;
                }
            }
            _ => {
                // Wb: the state words back, and the timer armed.
                self.st.write_enable.next = true;
                self.t_push.next = self.arm.q.val();
                self.state.d.next = ReqState::Idle;
            }
        }

        // ---- Taking the next operation (`Idle`, or `Wb`: `idle`), in this
        // order: context, feedback, NAK, timer, PktSend, work request.
        if self.intake.take_ctx.val() {
            self.kind.d.next = ReqKind::Ctx;
        } else if self.intake.take_fb.val() {
            self.kind.d.next = ReqKind::Fb;
        } else if self.intake.take_nak.val() {
            self.kind.d.next = ReqKind::Nak;
        } else if self.intake.take_t.val() {
            self.kind.d.next = ReqKind::Timer;
        } else if self.intake.take_send.val() {
            self.kind.d.next = ReqKind::Send;
        } else if self.intake.take_wr.val() {
            self.kind.d.next = ReqKind::Wr;
        }
        if self.intake.take.val() {
            self.state.d.next = ReqState::FlowRd;
            self.rd_same.d.next = ((self.state.q.val() == ReqState::Wb)
                && (self.intake.flow_in.val().get_bits::<A>(0) == self.fl.val()));
        }

        // ---- The step after the acknowledgement part: the doorbells a
        // finished READ releases, the REWIND, the CC event, the write-back.
        self.eff_rd_done.next = (self.rd_done.q.val() && !self.clr_rd_done.val());
        self.eff_rewind.next = (self.rewind.q.val() || self.set_rewind.val());
        self.eff_fatal.next = (self.fatal.q.val().any() || self.set_fatal.val());
        if self.set_fatal.val() {
            self.fatal.d.next = self.k_st_retry_exceeded.val();
        }
        if self.clr_rd_done.val() {
            self.rd_done.d.next = false;
        }
        if self.set_rewind.val() {
            self.rewind.d.next = true;
        }
        if self.do_cont.val() {
            if self.eff_fatal.val() {
                self.slot.d.next = self.s_head.q.val();
                self.state.d.next = ReqState::FlushRd;
            } else if self.eff_rd_done.val() {
                self.slot.d.next = self.s_db.q.val();
                self.state.d.next = ReqState::DbRd;
            } else if self.eff_rewind.val() {
                self.slot.d.next = self.s_head.q.val();
                self.state.d.next = ReqState::RewRd;
            } else if self.cc_go.q.val() {
                self.cc_v.d.next = true;
                self.cc_go.d.next = false;
                self.state.d.next = ReqState::CcOut;
            } else {
                self.state.d.next = ReqState::Wb;
            }
        }

        // ---- The CC event's fields: loaded every cycle while an event is
        // owed (`cc_go`) and not yet offered, so they hold in the cycle
        // `cc_v` rises what that cycle's registers give, and the enable
        // of their 388 flip-flops is two flip-flops, not the
        // continuation's decision (R1). While loading they are not valid.
        if (self.cc_go.q.val() && !self.cc_v.q.val()) {
            self.cc_seq.d.next = self.s_una.q.val();
            self.cc_snd_nxt.d.next = self.s_seq_exp.q.val();
            self.cc_nhops.d.next = self.intake.fb_hdr.val().get_bits::<4>(48);
            self.cc_hop0.d.next = self.intake.fb_hop0.val();
            self.cc_hop1.d.next = self.intake.fb_hop1.val();
            self.cc_hop2.d.next = self.intake.fb_hop2.val();
            self.cc_hop3.d.next = self.intake.fb_hop3.val();
            self.cc_hop4.d.next = self.intake.fb_hop4.val();
        }

        // ---- Timer: one entry per arm, pushed in Wb.
        self.timer.push.next = self.t_push.val();
        self.timer.flow.next = self.intake.flow.val();
        self.timer.gen.next = self.s_gen.q.val();
        self.timer.cfg_rto.next = self.cfg_rto.val();

        // ---- Outputs.
        self.m_ev.valid.next = self.ev_v.q.val();
        self.m_ev.op.next = self.ev_op.q.val();
        self.m_ev.flow.next = self.intake.flow.val();
        self.m_ev.a.next = self.ev_a.q.val();
        self.m_ev.b.next = self.ev_b.q.val();
        self.m_desc.valid.next = self.desc_v.q.val();
        self.m_desc.flow.next = self.desc_flow.q.val();
        self.m_desc.opcode.next = self.desc_opcode.q.val();
        self.m_desc.psn.next = self.desc_psn.q.val();
        self.m_desc.ackreq.next = self.desc_ackreq.q.val();
        self.m_desc.len.next = self.desc_len.q.val();
        self.m_desc.addr.next = self.desc_addr.q.val();
        self.m_desc.va.next = self.desc_va.q.val();
        self.m_desc.rkey.next = self.desc_rkey.q.val();
        self.m_desc.dlen.next = self.desc_dlen.q.val();
        self.m_desc.aeth.next = 0.into();
        self.m_desc.tlm.present.next = self.desc_tlm.q.val();
        if self.desc_tlm.q.val() {
            self.m_desc.tlm.hdr.next = self.k_fresh.val();
        } else {
            self.m_desc.tlm.hdr.next = 0.into();
        }
        self.m_desc.tlm.hop0.next = 0.into();
        self.m_desc.tlm.hop1.next = 0.into();
        self.m_desc.tlm.hop2.next = 0.into();
        self.m_desc.tlm.hop3.next = 0.into();
        self.m_desc.tlm.hop4.next = 0.into();
        self.m_rd.valid.next = self.rd_v.q.val();
        self.m_rd.flow.next = self.rd_flow.q.val();
        self.m_rd.active.next = false;
        self.m_rd.epsn.next = 0.into();
        self.m_rd.rd_addr.next = self.rd_addr.q.val();
        self.m_rd.rd_psn.next = self.rd_psn.q.val();
        self.m_rd.rd_idx.next = self.rd_idx.q.val();
        self.m_rd.rd_only.next = true;
        self.m_rd.cnp_on_ce.next = false;
        self.m_cmpl.valid.next = self.cmpl_v.q.val();
        self.m_cmpl.flow.next = self.intake.flow.val();
        self.m_cmpl.tag.next = self.cmpl_tag.q.val();
        self.m_cmpl.status.next = self.cmpl_status.q.val();
        self.m_cmpl.bytes.next = self.cmpl_bytes.q.val();
        self.m_cc.valid.next = self.cc_v.q.val();
        self.m_cc.op.next = self.k_cc_event.val();
        self.m_cc.variant.next = false;
        self.m_cc.flow.next = self.intake.flow.val();
        self.m_cc.seq.next = self.cc_seq.q.val();
        self.m_cc.snd_nxt.next = self.cc_snd_nxt.q.val();
        self.m_cc.now.next = 0.into();
        self.m_cc.nhops.next = self.cc_nhops.q.val();
        self.m_cc.hop0.next = self.cc_hop0.q.val();
        self.m_cc.hop1.next = self.cc_hop1.q.val();
        self.m_cc.hop2.next = self.cc_hop2.q.val();
        self.m_cc.hop3.next = self.cc_hop3.q.val();
        self.m_cc.hop4.next = self.cc_hop4.q.val();
        // ---- The rings' read: the entry at the next cycle's slot,
        // registered as it leaves the RAM. The read address is itself a
        // flip-flop (`ring_addr`, R1), loaded in cycle t with the slot
        // the state of cycle t + 1 must present, chosen from this cycle's
        // state and registers only (no `.d`: neither the next state nor
        // the working copy's next values, which wait on the whole
        // decision), so the long nets to the ring's block RAMs start at a
        // register and the decision reaches no read address.
        //
        // A word is at the ring's outputs two cycles after its address.
        // So where a state goes to a ring read (`*Rd`), both its own
        // address (the words `*Rd2` registers: `r_*`, `Segment`) and the
        // `*Rd` state's (the words `*Chk` and `Seg` read directly) must be
        // the slot; every other address is never used:
        // - `Flow` → `Decide`: by its kind, a PktSend its send index, else
        //   (feedback, a NAK, a timer's go-back or flush) the head, from
        //   the words `Flow` takes.
        // - `Decide` → `SegRd`, `AckRd`, `RewRd`, `FlushRd`: the same
        //   (`rd_done` is clear after `Flow`, so `Decide` never goes to
        //   `DbRd`).
        // - `Seg` → `SegOut`: the next slot where the segment ends its
        //   work request (a trim goes to `TrimEv`, which reads nothing).
        // - `AckChk` → `AckCmpl` (the next slot) or `Post` (the head).
        // - The states that continue an operation (`do_cont`: `Post`,
        //   `AckEv`, `RewEv`, `CcOut`): the doorbell index when a
        //   finished READ's doorbells are next (`DbRd`, whose words are
        //   read in `DbChk` from its own address), else the head
        //   (`FlushRd`, read in `FlushChk` from its own address, and
        //   `RewRd`, whose `RewRd2` registers the word at the address of
        //   the state before it). `Post`'s own flush (a NAK's go-back
        //   past the retry limit) from its registers. A state waiting on
        //   a handshake repeats its choice.
        // - `DbRd2` → `DbChk`: the head (`DbChk` goes on to `RewRd`, or
        //   back through `DbEv`, whose own address is never used).
        // - `DbEv` → `DbRd`: the doorbell index.
        // - Every other state: its slot, which holds up to its ring read.
        self.send_ix_inc.next = ((self.s_send_ix.q.val() + 1) & self.k_ix.val());
        if self.rd_same.q.val() {
            self.fw_send_ix.next = self.s_send_ix.q.val();
        } else {
            self.fw_send_ix.next = self.st.send_ix.val();
        }
        self.post_fatal.next = ((self.state.q.val() == ReqState::Post)
            && self.retry.q.val()
            && !self.moved.val()
            && (self.s_retries.q.val() >= self.s_retry_limit.q.val()));
        if (self.rd_done.q.val() && !self.fatal.q.val().any() && !self.post_fatal.val()) {
            self.cont_slot.next = self.s_db.q.val();
        } else {
            self.cont_slot.next = self.s_head.q.val();
        }
        self.ring_slot.next = self.slot.q.val();
        match self.state.q.val() {
            ReqState::Flow => {
                if (self.kind.q.val() == ReqKind::Send) {
                    self.ring_slot.next = self.fw_send_ix.val();
                } else {
                    self.ring_slot.next = self.fw_head.val();
                }
            }
            ReqState::Decide => {
                if (self.kind.q.val() == ReqKind::Send) {
                    self.ring_slot.next = self.s_send_ix.q.val();
                } else {
                    self.ring_slot.next = self.s_head.q.val();
                }
            }
            ReqState::Seg => {
                if self.segment.seg_eq_left.val() {
                    self.ring_slot.next = self.send_ix_inc.val();
                }
            }
            ReqState::AckChk => {
                if (self.r_ack_skip.q.val() || self.r_inside.q.val()) {
                    self.ring_slot.next = self.s_head.q.val();
                } else {
                    self.ring_slot.next = self.head_inc.val();
                }
            }
            ReqState::Post => {
                self.ring_slot.next = self.cont_slot.val();
            }
            ReqState::AckEv => {
                self.ring_slot.next = self.cont_slot.val();
            }
            ReqState::RewEv => {
                self.ring_slot.next = self.cont_slot.val();
            }
            ReqState::CcOut => {
                self.ring_slot.next = self.cont_slot.val();
            }
            ReqState::DbRd2 => {
                self.ring_slot.next = self.s_head.q.val();
            }
            ReqState::DbEv => {
                self.ring_slot.next = self.s_db.q.val();
            }
            _ => {}
        }
        self.ring_addr.d.next = ((bit_cast::<AQ, A>(self.fl.val()) << self.k_q.val())
            | bit_cast::<AQ, 9>((self.ring_slot.val() & self.k_qmask.val())));
        self.ring.read_address.next = self.ring_addr.q.val();
    }
}
