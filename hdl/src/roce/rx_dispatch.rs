//! RoCEv2 Rx pipeline, part 2: the dispatcher (docs/roce.md §8). The
//! per-flow transport state of the receiving side (responder: expected
//! PSN, NAK-sent flag, WRITE address, MSN; requester: READ response
//! landing address and PSN) and the events it produces.
//!
//! # What it does, per packet (flow = `s_meta.qp`)
//! - opcode outside docs/roce.md §1, or an ACKNOWLEDGE whose syndrome is
//!   neither an ACK (0x00..=0x1F) nor a NAK (0x60..=0x7F): dropped,
//!   `m_stats.bad_op`.
//! - unknown flow (`s_meta.qp` ≥ 2^A or context not valid): dropped,
//!   `m_stats.unknown_flow`.
//! - WRITE FIRST/MIDDLE/LAST/ONLY, READ REQUEST: d = (psn − epsn) mod 2^24.
//!   - d = 0, address 8-aligned (RETH VA for FIRST/ONLY/READ REQUEST,
//!     else the context's `wr_va`): accepted (`m_stats.accepted`), `nak_sent`
//!     cleared. WRITE: payload to `wr_*` from that address, `wr_va` =
//!     address + len, epsn += 1, LAST/ONLY: msn += 1; if A or T, an `ack_*`
//!     (psn, AETH 0x1F<<24 | msn after the update, TLM echoed if T).
//!     READ REQUEST: msn += 1, `rdreq_*` (flow, psn, RETH VA, R_Key, DMA
//!     length, msn after the increment), epsn += ceil(dlen/MTU) mod 2^24
//!     (1 if that is 0), no ACK.
//!   - d = 0 and refused by the memory-region check (`s_meta.mr` ≠ 0,
//!     set by `MrCheck`, `nic_spec::mr::verdict`): `m_stats.refused`, NAK
//!     `ack_*` (psn, AETH 0x62<<24 | msn for a remote access error
//!     (`mr` = 1), 0x61<<24 | msn for an invalid request (`mr` = 2 or
//!     3)), `nak_sent` set, nothing else changes, the payload is
//!     discarded: nothing is written and no READ is requested.
//!   - d = 0, a WRITE MIDDLE or LAST whose len exceeds the flow's
//!     `wr_left` (the bytes its WRITE may still carry: the FIRST's RETH
//!     DMA length less the payload accepted since, 0 if the FIRST was
//!     longer; 0 after a LAST or ONLY and at set-up): refused as above
//!     (invalid request, `m_stats.refused`), so no packet of a WRITE lands
//!     past the range its FIRST was granted.
//!   - d = 0 with an unaligned address and data to move (len > 0; for a
//!     READ REQUEST, dlen > 0): `m_stats.bad_va`, NAK `ack_*` (psn,
//!     AETH 0x61<<24 | msn), `nak_sent` set, nothing else changes, the
//!     payload is discarded. (The host write port and the Tx read port
//!     take 8-aligned addresses only; an MTU is a multiple of 8, so only
//!     a sender that sends a bad VA, or a FIRST/MIDDLE shorter than a
//!     multiple of 8, hits this.)
//!   - 1 ≤ d < 2^12: `m_stats.oos`; if `nak_sent` is clear, a NAK `ack_*` with
//!     BTH PSN = epsn (the PSN to resend from), AETH 0x60<<24 | msn, and
//!     `nak_sent` set: exactly one NAK per loss until epsn arrives.
//!   - d ≥ 2^24 − 2^12: `m_stats.dup`, nothing changes. WRITE: `ack_*` with
//!     psn epsn − 1, AETH 0x1F<<24 | msn (re-acknowledge). READ REQUEST:
//!     executed again (its responses may have been lost; InfiniBand does
//!     the same): `rdreq_*` with the request's own psn, VA, R_Key, DMA
//!     length and the current msn, no ACK; refused by the check, or
//!     with an unaligned VA and dlen > 0, no event at all (the Tx read port takes 8-aligned
//!     addresses only).
//!   - else `m_stats.bad_psn`, nothing requested.
//! - ACKNOWLEDGE: `cc_*` (flow, psn, aeth, opcode, TLM) for an ACK, `nak_*`
//!   (flow, psn) for a NAK; `m_stats.accepted`. NOTIFY: `cc_*`. PROBE: `ack_*`
//!   with psn epsn − 1, AETH 0x1F<<24 | msn, TLM echoed.
//! - CNP (0x81): `m_cnp` (op CNP, the flow, bytes 0) for the flow's DCQCN
//!   reaction point; `m_stats.accepted`; no transport state changes.
//! - Any packet of a known DCQCN flow (`cnp_on_ce` in its context) with
//!   `s_meta.ce` (IPv4 ECN = CE), except a CNP, whatever its PSN decision:
//!   a one-cycle `m_ce` strobe (the flow) in the cycle after `Exec`, for
//!   the notification point. Other flows' CE marks are ignored.
//! - READ RESPONSE, up to 8 READs in flight per flow
//!   (`nic_spec::roce::READS_IN_FLIGHT`): the requester writes each READ's
//!   landing entry (first response PSN, local address; entry `rd_idx` mod
//!   8, its lap `rd_idx` bit 3) before the READ's first REQUEST. The flow's
//!   position is `rd_done`, `rd_idx`, `rd_psn`, `rd_addr`. Inside a READ
//!   (`rd_done` = 0) the expected response is `rd_psn` and it lands at
//!   `rd_addr`; between READs (`rd_done` = 1) it is entry `rd_idx`'s PSN,
//!   if the entry's lap is `rd_idx` bit 3, and it lands at the entry's
//!   address (then `rd_idx` += 1). Accepted with that address 8-aligned:
//!   payload to `wr_*`, `rd_addr` = address + len, `rd_psn` = psn + 1,
//!   `rd_done` = (LAST or ONLY), every response also a `cc_*`;
//!   `m_stats.accepted`. Another psn: `m_stats.oos`; an unaligned address
//!   and len > 0: `m_stats.bad_va`; both dropped, nothing changes. A
//!   READ asked again from its middle is answered from a FIRST at a PSN
//!   inside the READ: taken at `rd_psn` like any response.
//! Every packet increments exactly one counter (none if a reset aborts
//! it before its decision). Every `ack_*` carries the
//! TLM area iff the packet that caused it had T = 1 (ACK, NAK, re-ACK,
//! probe echo alike). PSNs are mod 2^24, addresses mod 2^64.
//!
//! # Ports (clock `clock`)
//! - `reset` (synchronous: state machine, events, host write and skid
//!   registers, counters; not the context RAM). A packet in flight is abandoned;
//!   the source (the parser) must be reset with it, so the next record
//!   starts a packet. A packet abandoned before its decision has not
//!   touched its context. One abandoned after it, whose payload goes to
//!   the host and whose last word has not been taken on `m_wr`, is
//!   *undone*: its flow's context as it was before the packet (kept in
//!   undo registers from the decision until that last word is taken) is
//!   written back in the reset cycle, or in the first cycle after it
//!   without an `s_ctx` write (until then no record is taken); an `s_ctx`
//!   write of the whole context of that flow first cancels the undo. So
//!   a retransmission of the packet is accepted again, and no payload is
//!   lost because a reset cut it. (The words already taken stay written.)
//!   While a payload packet's last word waits on `m_wr`, the next record
//!   is not taken (one undo at a time).
//! - `cfg_mtu_log2: 4` (8..=12, clamped; hold constant).
//! - Context write `s_ctx.valid`, `s_ctx.flow: A`, `s_ctx.active`, `s_ctx.epsn: 24`,
//!   `s_ctx.rd_addr: 64`, `s_ctx.rd_psn: 24`, `s_ctx.rd_idx: 4`, `s_ctx.rd_only`, `s_ctx.cnp_on_ce`: writes the whole
//!   context in one cycle (`nak_sent`, `msn`, `wr_va` become 0, between
//!   READs at entry 0; the landing entries are kept); with
//!   `s_ctx.rd_only` = 1 only the landing entry `rd_idx` (`rd_psn`,
//!   `rd_addr`; the rest of the flow's state lives on). It always goes to the
//!   RAM at once (priority); a cfg write while a packet is between its
//!   acceptance and its decision makes the packet re-read its context
//!   (3 cycles), so no write is lost and a packet sees every cfg write made
//!   before its decision. A cfg write during a packet's payload does not
//!   change where that payload lands.
//! - In, from `RoceRxParse`: `s_meta.valid`/`s_meta.ready`, `s_meta.opcode: 8`,
//!   `s_meta.qp: 24`, `s_meta.psn: 24`, `s_meta.ackreq`, `s_meta.len: 13`,
//!   `s_meta.va: 64`, `s_meta.rkey: 32`, `s_meta.dlen: 32`, `s_meta.aeth: 32`,
//!   `s_meta.tlm.present`, `s_meta.tlm.hdr: 64`, `s_meta.tlm.hop0..4: 64`,
//!   `s_meta.mr: 2` (the memory-region verdict; the core's `MrCheck` sets
//!   it, a parser alone gives 0: no check); then, if
//!   `s_meta.len` > 0, the payload on `s_axis_pay` ([`AxisSink`]`<64, 8, 1>`,
//!   byte 0 in lane 0; `tuser` ignored: the parser releases only checked
//!   frames). The payload is framed by `tlast`.
//! - Out, valid/ready each, fields zero while not valid:
//!   - host write `m_wr.valid`, `m_wr.ready`, `m_wr.addr: 64` (8-aligned),
//!     `m_wr.data: 64`, `m_wr.strb: 8` (= `pay_tkeep`);
//!   - `ack_*` to Tx: `m_ack.flow: A`, `m_ack.psn: 24`, `m_ack.aeth: 32`,
//!     `m_ack.tlm.present`, `m_ack.tlm.hdr: 64`, `m_ack.tlm.hop0..4: 64`;
//!   - `cc_*`: `m_cc.flow: A`, `m_cc.psn: 24`, `m_cc.aeth: 32`, `m_cc.opcode: 8`,
//!     `m_cc.tlm.present`, `m_cc.tlm.hdr`, `m_cc.tlm.hop0..4`;
//!   - `nak_*`: `m_nak.flow: A`, `m_nak.psn: 24`, `m_nak.syndrome: 8`
//!     (the received AETH's syndrome);
//!   - `rdreq_*`: `m_rdreq.flow: A`, `m_rdreq.psn: 24`, `m_rdreq.va: 64`,
//!     `m_rdreq.rkey: 32`, `m_rdreq.len: 32`, `m_rdreq.msn: 24` (the
//!     responder's MSN for the responses' AETH);
//!   - `m_cnp` (`RpEvent`: `op: 2`, `flow: 16`, `bytes: 16`), valid/ready;
//!   - `m_ce` (`CeMark`: `flow: 16`), a strobe with no ready.
//! - Counters (32 bits, wrapping): `m_stats.unknown_flow`, `m_stats.oos`,
//!   `m_stats.dup`, `m_stats.bad_psn`, `m_stats.accepted`, `m_stats.bad_va`, `m_stats.bad_op`,
//!   `m_stats.refused`, each counting two cycles after its `Exec`
//!   ([`DispatchCounters`] registers the decision's strobes).
//!
//! # Timing
//! One packet at a time: `Idle` (record accepted, context read issued),
//! `Look` (context words registered, opcode decoded, ceil(dlen/MTU)),
//! for a READ RESPONSE `Land` (its landing entry read: the store reads
//! it a cycle after the words, so the LUT-RAM read of the flow's landing
//! index is registered before the block RAM's address, R3),
//! `Chk` (the record compared with its words: the PSN's windows, the
//! WRITE's room, the READ RESPONSE's match, the address checks, the
//! flags the decision reads; registered, R4: [`RxCheck`], `rx_check.rs`,
//! with its twin and test), `Exec` (decision, context
//! written back), then one cycle per payload
//! word (written or discarded). With every ready high a packet takes
//! 4 cycles (a READ RESPONSE 5) plus one per payload word, plus one after
//! an event or a host write: 62-byte minimum frames (8 cycles on the
//! 64-bit wire, 10.5 with the preamble and gap) are sustained.
//! - `s_meta.ready` = idle, every event register empty, no undo armed
//!   and no reset last cycle; `pay_tready` = the host write's skid
//!   register empty while writing, 1 while discarding, and no reset last
//!   cycle. Both are functions of registers only (timing rules R1, R2,
//!   `docs/architecture.md` §5i): no `*_ready` input, payload or `reset`
//!   reaches them in the same cycle. The cost: the next record waits one
//!   cycle more after a packet that raised an event or wrote to the host
//!   (the register must be empty, not taken this cycle). A record or a
//!   payload word taken in a reset's first cycle is abandoned with the
//!   packet.
//! - The host write ([`HostWriteSkid`]): a payload word goes to the write register (`m_wr`)
//!   when it is empty or taken this cycle, else to a skid register, which
//!   moves up when the write register's word is taken; a word comes only
//!   while the skid is empty. So one word a cycle passes while
//!   `m_wr.ready` stays high, and none is lost when it falls.
//! - An event appears in the cycle after `Exec` (4 cycles after the
//!   record's acceptance), except the event of a packet whose payload goes
//!   to the host (ACK of a WRITE, `cc` of a READ RESPONSE), which appears
//!   with its last payload word on `wr_*`. The first payload word is on
//!   `wr_*` 5 cycles after the record's acceptance when the payload is
//!   there (a READ RESPONSE's 6).
//! - Back-pressure: the dispatcher waits while an event or the host write
//!   is not taken (which reaches the parser's buffer).
//! - Memories: the per-flow context and the READ landing entries are
//!   [`RxCtxStore`] (block RAM, read at the incoming record's flow in
//!   `Idle`, its words registered twice and valid from `Chk` (a
//!   READ RESPONSE's from `Land`) to `Exec`; the landing
//!   entry at the flow's `rd_idx` through a registered LUT-RAM copy of
//!   the index, valid from `Land`'s next cycle, `Chk`).
//!   The host's `s_ctx` writes go to it first, then an undo, then the
//!   decision's writes (one enable per field), through the store's
//!   write register (the decision ends at flip-flops; a read in the next
//!   cycle gets the words forwarded, so no cycle depends on it); the
//!   undo's registers and control (see `reset`) are the store's too.
//!
//! Golden twin: `nic_golden::roce::rx_dispatch`.

use crate::cc::{CeMarkSource, RpEventSource};
use crate::roce::dispatch_counters::DispatchCounters;
use crate::roce::host_write_skid::HostWriteSkid;
use crate::roce::op_decode::OpDecode;
use crate::roce::read_psns::ReadPsns;
use crate::roce::rx_check::RxCheck;
use crate::roce::rx_ctx_store::RxCtxStore;
use crate::roce::{
    AckInfoSource, CcFeedbackSource, HostWriteSource, NakReqSource, ReadReqSource,
    RxDispatchStatsSource, RxFlowCtxSink, RxMeta, RxMetaSink, TelemetrySink,
};
use crate::stream::AxisSink;
use nic_spec::roce::{syndrome, AETH_CLASS_NAK};
use rust_hdl::prelude::*;
use smart_default::SmartDefault;

#[derive(Copy, Clone, PartialEq, Debug, LogicState)]
pub enum RxdState {
    Idle,
    Look,
    Land,
    Chk,
    Exec,
    Retry,
    PayWr,
    PayDrop,
}

#[derive(LogicBlock, SmartDefault)]
pub struct RoceRxDispatch<const A: usize> {
    // The parameter check, when the block is built.
    #[default({
        assert!((1..=23).contains(&A), "RoceRxDispatch: 1 <= A <= 23");
        Default::default()
    })]
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub cfg_mtu_log2: Signal<In, Bits<4>>,
    pub s_ctx: RxFlowCtxSink<A>,
    pub s_meta: RxMetaSink,
    pub s_axis_pay: AxisSink<64, 8, 1>,
    pub m_wr: HostWriteSource,
    pub m_ack: AckInfoSource<A>,
    pub m_cc: CcFeedbackSource<A>,
    pub m_nak: NakReqSource<A>,
    pub m_rdreq: ReadReqSource<A>,
    pub m_cnp: RpEventSource,
    pub m_ce: CeMarkSource,
    pub m_stats: RxDispatchStatsSource,
    /// The per-flow context and the READ landing entries (read in
    /// `Idle`, registered twice: valid from `Chk`).
    store: RxCtxStore<A>,
    /// The state is not `Idle`, registered from the next state: it
    /// selects the store's read address with no state decode before it.
    busy: DFF<Bit>,
    st: DFF<RxdState>,
    stale: DFF<Bit>,
    /// The latched record (`mr` is the memory-region verdict,
    /// `nic_spec::mr::verdict`), loaded as it is accepted.
    meta: RxMeta::Hold,
    #[default(Constant::new(Bits::<8>::from(nic_spec::roce::op::READ_RESP_LAST as u64)))]
    k_op_rrlast: Constant<Bits<8>>,
    #[default(Constant::new(Bits::<8>::from(nic_spec::roce::op::READ_RESP_ONLY as u64)))]
    k_op_rronly: Constant<Bits<8>>,
    o_rrend: DFF<Bit>,
    rd_done_c: Signal<Local, Bit>,
    rbase: Signal<Local, Bits<64>>,
    rd_new: Signal<Local, Bits<5>>,
    /// The landing index + 1 (mod 16).
    rd_idx_inc: Signal<Local, Bits<4>>,
    n_fl0: Signal<Local, Bits<8>>,
    // Decoded opcode and ceil(dlen/MTU), registered in `Look`.
    o_bad: DFF<Bit>,
    o_qphi: DFF<Bit>,
    o_resp: DFF<Bit>,
    o_wr: DFF<Bit>,
    o_reth: DFF<Bit>,
    o_msn: DFF<Bit>,
    o_rreq: DFF<Bit>,
    o_rresp: DFF<Bit>,
    o_ack: DFF<Bit>,
    o_akcc: DFF<Bit>,
    o_probe: DFF<Bit>,
    o_notify: DFF<Bit>,
    o_cnp: DFF<Bit>,
    /// The counters (`m_stats`), one per decision.
    counters: DispatchCounters,
    /// ⌈dlen / MTU⌉ (1 if 0), registered in `Look`.
    read_psns: ReadPsns,
    /// The record's compares with its context words, registered in
    /// `Chk` (R4).
    chk: RxCheck,
    // Events.
    ack_v: DFF<Bit>,
    ack_psn_r: DFF<Bits<24>>,
    ack_aeth_r: DFF<Bits<32>>,
    arm_ack: DFF<Bit>,
    cc_v: DFF<Bit>,
    arm_cc: DFF<Bit>,
    nak_v: DFF<Bit>,
    rdreq_v: DFF<Bit>,
    rdreq_msn_r: DFF<Bits<24>>,
    cnp_v: DFF<Bit>,
    ce_v: DFF<Bit>,
    /// The host write port: its register and skid register.
    wr_out: HostWriteSkid,
    /// The next payload word's host address.
    pa: DFF<Bits<64>>,
    /// `reset` last cycle: the readies follow it a cycle late, so no
    /// input reaches them in the same cycle.
    reset_q: DFF<Bit>,
    /// The host takes the write register's word this cycle.
    wr_take: Signal<Local, Bit>,
    last_taken: Signal<Local, Bit>,
    #[default(Constant::new(Bits::<24>::from(1u64 << A)))]
    k_nflows: Constant<Bits<24>>,
    /// The opcode table's classes of the latched opcode.
    op_class: OpDecode,
    #[default(Constant::new(Bits::<32>::from((syndrome::ACK as u64) << 24)))]
    k_syn_ack: Constant<Bits<32>>,
    #[default(Constant::new(Bits::<32>::from((syndrome::NAK_SEQ as u64) << 24)))]
    k_syn_nak: Constant<Bits<32>>,
    #[default(Constant::new(Bits::<32>::from((syndrome::NAK_INVALID as u64) << 24)))]
    k_syn_inv: Constant<Bits<32>>,
    #[default(Constant::new(Bits::<32>::from((syndrome::NAK_ACCESS as u64) << 24)))]
    k_syn_acc: Constant<Bits<32>>,
    #[default(Constant::new(Bits::<2>::from(nic_spec::mr::verdict::ACCESS as u64)))]
    k_mr_access: Constant<Bits<2>>,
    #[default(Constant::new(Bits::<3>::from(AETH_CLASS_NAK as u64)))]
    k_syn_nak3: Constant<Bits<3>>,
    #[default(Constant::new(Bits::<8>::from(2u64)))]
    k_fl_nak: Constant<Bits<8>>,
    #[default(Constant::new(Bits::<8>::from(7u64)))]
    k_fl_lo: Constant<Bits<8>>,
    /// Every flag but `nak_sent`.
    #[default(Constant::new(Bits::<8>::from(0xFDu64)))]
    k_fl_keep: Constant<Bits<8>>,
    #[default(Constant::new(Bits::<64>::from(8u64)))]
    k_eight: Constant<Bits<64>>,
    // Combinational.
    is_idle: Signal<Local, Bit>,
    is_look: Signal<Local, Bit>,
    is_land: Signal<Local, Bit>,
    is_chk: Signal<Local, Bit>,
    is_exec: Signal<Local, Bit>,
    is_paywr: Signal<Local, Bit>,
    is_paydrop: Signal<Local, Bit>,
    ev_free: Signal<Local, Bit>,
    mready: Signal<Local, Bit>,
    accept: Signal<Local, Bit>,
    ptready: Signal<Local, Bit>,
    pay_hs: Signal<Local, Bit>,
    pay_end: Signal<Local, Bit>,
    flow: Signal<Local, Bits<A>>,
    syn3: Signal<Local, Bits<3>>,
    go: Signal<Local, Bit>,
    okp: Signal<Local, Bit>,
    va_eff: Signal<Local, Bits<64>>,
    /// The memory-region check refused the request (`s_meta.mr` ≠ 0).
    mr_bad: Signal<Local, Bit>,
    /// A WRITE or READ REQUEST that moves nothing and is answered with
    /// a NAK: refused by the check, or data to an unaligned address.
    refuse: Signal<Local, Bit>,
    r_acc: Signal<Local, Bit>,
    r_badva: Signal<Local, Bit>,
    r_oos: Signal<Local, Bit>,
    r_dup: Signal<Local, Bit>,
    r_far: Signal<Local, Bit>,
    rr_acc: Signal<Local, Bit>,
    rr_badva: Signal<Local, Bit>,
    rr_oos: Signal<Local, Bit>,
    r_other: Signal<Local, Bit>,
    ev_ack: Signal<Local, Bit>,
    ev_cc: Signal<Local, Bit>,
    ev_nak: Signal<Local, Bit>,
    ev_rdreq: Signal<Local, Bit>,
    ev_cnp: Signal<Local, Bit>,
    ev_ce: Signal<Local, Bit>,
    #[default(Constant::new(Bits::<2>::from(nic_spec::dcqcn::OP_CNP as u64)))]
    k_op_cnp: Constant<Bits<2>>,
    len_nz: Signal<Local, Bit>,
    pay_write: Signal<Local, Bit>,
    len64: Signal<Local, Bits<64>>,
    va_new: Signal<Local, Bits<64>>,
    radr_new: Signal<Local, Bits<64>>,
    rpsn_new: Signal<Local, Bits<24>>,
    epsn_inc: Signal<Local, Bits<24>>,
    epsn_new: Signal<Local, Bits<24>>,
    epsn_m1: Signal<Local, Bits<24>>,
    msn_new: Signal<Local, Bits<24>>,
    msn_sel: Signal<Local, Bits<24>>,
    syn_sel: Signal<Local, Bits<32>>,
    psn_sel: Signal<Local, Bits<24>>,
    nak_new: Signal<Local, Bit>,
    n_fl: Signal<Local, Bits<8>>,
    n_wleft: Signal<Local, Bits<32>>,
    len32: Signal<Local, Bits<32>>,
    wen: Signal<Local, Bit>,
    wen_acc: Signal<Local, Bit>,
    wen_wva: Signal<Local, Bit>,
    wen_rd: Signal<Local, Bit>,
    tlm_ack: Signal<Local, Bit>,
    tlm_cc: Signal<Local, Bit>,
}

impl<const A: usize> Logic for RoceRxDispatch<A> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            st,
            stale,
            o_rrend,
            o_bad,
            o_qphi,
            o_resp,
            o_wr,
            o_reth,
            o_msn,
            o_rreq,
            o_rresp,
            o_ack,
            o_akcc,
            o_probe,
            o_notify,
            o_cnp,
            cnp_v,
            ce_v,
            ack_v,
            ack_psn_r,
            ack_aeth_r,
            arm_ack,
            cc_v,
            arm_cc,
            nak_v,
            rdreq_v,
            rdreq_msn_r,
            pa,
            reset_q
        );
        clock!(self, clock, meta, store, read_psns, chk, counters, wr_out, busy);

        // ---- state decode, handshakes
        self.is_idle.next = (self.st.q.val() == RxdState::Idle);
        self.is_look.next = (self.st.q.val() == RxdState::Look);
        self.is_land.next = (self.st.q.val() == RxdState::Land);
        self.is_chk.next = (self.st.q.val() == RxdState::Chk);
        self.is_exec.next = (self.st.q.val() == RxdState::Exec);
        self.is_paywr.next = (self.st.q.val() == RxdState::PayWr);
        self.is_paydrop.next = (self.st.q.val() == RxdState::PayDrop);
        // Every ready is a function of registers (R1, R2): the event
        // registers empty (not "taken this cycle"), the undo disarmed, the
        // write's skid register empty, and `reset` of last cycle. A record
        // or a payload word taken in a reset's first cycle is abandoned
        // with the packet.
        self.ev_free.next = (!self.ack_v.q.val()
            && !self.cc_v.q.val()
            && !self.nak_v.q.val()
            && !self.rdreq_v.q.val()
            && !self.cnp_v.q.val());
        self.wr_take.next = (self.m_wr.valid.val() && self.m_wr.ready.val());
        self.last_taken.next = (self.wr_take.val() && self.wr_out.wr_last.val());
        self.reset_q.d.next = self.reset.val();
        self.mready.next = (!self.reset_q.q.val()
            && self.is_idle.val()
            && self.ev_free.val()
            && !self.store.undo_held.val());
        self.accept.next = (self.mready.val() && self.s_meta.valid.val());
        self.ptready.next = (!self.reset_q.q.val()
            && (self.is_paydrop.val() || (self.is_paywr.val() && self.wr_out.ready.val())));
        self.pay_hs.next = (self.ptready.val() && self.s_axis_pay.tvalid.val());
        self.pay_end.next = (self.pay_hs.val() && self.s_axis_pay.tlast.val());
        self.s_meta.ready.next = self.mready.val();
        self.s_axis_pay.tready.next = self.ptready.val();
        self.flow.next = self.meta.q.qp.val().get_bits::<A>(0);

        // ---- Idle: latch the record
        self.meta.load.next = self.accept.val();
        self.meta.d.opcode.next = self.s_meta.opcode.val();
        self.meta.d.qp.next = self.s_meta.qp.val();
        self.meta.d.psn.next = self.s_meta.psn.val();
        self.meta.d.ackreq.next = self.s_meta.ackreq.val();
        self.meta.d.len.next = self.s_meta.len.val();
        self.meta.d.va.next = self.s_meta.va.val();
        self.meta.d.rkey.next = self.s_meta.rkey.val();
        self.meta.d.dlen.next = self.s_meta.dlen.val();
        self.meta.d.aeth.next = self.s_meta.aeth.val();
        self.meta.d.ce.next = self.s_meta.ce.val();
        self.meta.d.mr.next = self.s_meta.mr.val();
        TelemetrySink::link(&mut self.s_meta.tlm, &mut self.meta.d.tlm);
        // A cfg write at or after the context read makes it stale.
        self.stale.d.next = (self.s_ctx.valid.val()
            || ((self.is_look.val() || self.is_land.val() || self.is_chk.val())
                && self.stale.q.val()));

        // ---- the context: read the incoming record's flow when idle,
        // else the latched one (the host's writes have priority).
        RxFlowCtxSink::<A>::link(&mut self.s_ctx, &mut self.store.s_ctx);
        self.store.busy.next = self.busy.q.val();
        self.store.flow_new.next = self.s_meta.qp.val().get_bits::<A>(0);
        self.store.flow.next = self.flow.val();

        // ---- Look: decode the opcode, ceil(dlen / MTU)
        self.syn3.next = self.meta.q.aeth.val().get_bits::<3>(29);
        self.op_class.op.next = self.meta.q.opcode.val();
        self.o_wr.d.next = self.op_class.write.val();
        self.o_rreq.d.next = self.op_class.read_req.val();
        self.o_resp.d.next = (self.op_class.write.val() || self.op_class.read_req.val());
        self.o_reth.d.next = self.op_class.reth.val();
        self.o_msn.d.next = self.op_class.ends_msg.val();
        self.o_rresp.d.next = self.op_class.read_resp.val();
        self.o_rrend.d.next = ((self.meta.q.opcode.val() == self.k_op_rrlast.val())
            || (self.meta.q.opcode.val() == self.k_op_rronly.val()));
        self.o_ack.d.next = self.op_class.ack.val();
        // qp ≥ 2^A, registered here (off the decision path).
        self.o_qphi.d.next = (self.meta.q.qp.val() >= self.k_nflows.val());
        self.o_akcc.d.next = !self.syn3.val().any();
        self.o_probe.d.next = self.op_class.probe.val();
        self.o_notify.d.next = self.op_class.notify.val();
        self.o_cnp.d.next = self.op_class.cnp.val();
        // The dispatcher's opcode rule (`nic_golden::roce::txn::dispatch::op_ok`):
        // any opcode of the table but ACKNOWLEDGE, or an ACKNOWLEDGE whose
        // syndrome class is ACK or NAK.
        self.o_bad.d.next = !((self.op_class.known.val() && !self.op_class.ack.val())
            || (self.op_class.ack.val()
                && (!self.syn3.val().any() || (self.syn3.val() == self.k_syn_nak3.val()))));
        self.read_psns.cfg_mtu_log2.next = self.cfg_mtu_log2.val();
        self.read_psns.dlen.next = self.meta.q.dlen.val();

        // ---- Chk: the record compared with its context words
        // ([`RxCheck`], `rx_check.rs`), registered for `Exec` (R4). Fed every cycle;
        // `Exec` reads those made in `Chk`, whose words are `Exec`'s: the
        // store reads the latched flow every cycle, and a cfg write since
        // `Idle` makes the packet stale.
        self.chk.qp_high.next = self.o_qphi.q.val();
        self.chk.psn.next = self.meta.q.psn.val();
        self.chk.len.next = self.meta.q.len.val();
        self.chk.dlen.next = self.meta.q.dlen.val();
        self.chk.va.next = self.meta.q.va.val();
        self.chk.is_write.next = self.o_wr.q.val();
        self.chk.has_reth.next = self.o_reth.q.val();
        self.chk.is_read_req.next = self.o_rreq.q.val();
        self.chk.fl.next = self.store.fl.val();
        self.chk.epsn.next = self.store.epsn.val();
        self.chk.wva.next = self.store.wva.val();
        self.chk.wleft.next = self.store.wleft.val();
        self.chk.radr.next = self.store.radr.val();
        self.chk.rpsn.next = self.store.rpsn.val();
        self.chk.ent.next = self.store.ent.val();
        // The data the decision writes: the address the packet's data
        // goes to, and where a READ RESPONSE lands.
        if self.o_reth.q.val() {
            self.va_eff.next = self.meta.q.va.val();
        } else {
            self.va_eff.next = self.store.wva.val();
        }
        self.len_nz.next = self.meta.q.len.val().any();
        self.mr_bad.next = self.meta.q.mr.val().any();
        self.len32.next = bit_cast::<32, 13>(self.meta.q.len.val());
        self.refuse.next =
            ((self.chk.va_bad.val() || self.mr_bad.val()) || self.chk.len_over.val());
        // READ RESPONSE: inside a READ the running position, between READs
        // the landing entry at rd_idx.
        self.rd_done_c.next = self.store.fl.val().get_bit(3);
        if self.rd_done_c.val() {
            self.rbase.next = self.store.ent.val().get_bits::<64>(0);
        } else {
            self.rbase.next = self.store.radr.val();
        }

        // ---- Exec: the decision, from the registered compares
        // A reset aborts the packet: nothing is written.
        self.go.next = (self.is_exec.val()
            && !self.stale.q.val()
            && !self.s_ctx.valid.val()
            && !self.reset.val());
        self.okp.next = (!self.o_bad.q.val() && !self.chk.unk.val());
        self.r_acc.next =
            (self.okp.val() && self.o_resp.q.val() && self.chk.d_zero.val() && !self.refuse.val());
        self.r_badva.next =
            (self.okp.val() && self.o_resp.q.val() && self.chk.d_zero.val() && self.refuse.val());
        self.r_oos.next = (self.okp.val() && self.o_resp.q.val() && self.chk.d_ahead.val());
        self.r_dup.next = (self.okp.val() && self.o_resp.q.val() && self.chk.d_dup.val());
        self.r_far.next = (self.okp.val()
            && self.o_resp.q.val()
            && !self.chk.d_zero.val()
            && !self.chk.d_ahead.val()
            && !self.chk.d_dup.val());
        self.rr_acc.next = (self.okp.val()
            && self.o_rresp.q.val()
            && self.chk.rr_match.val()
            && !self.chk.ra_bad.val());
        self.rr_badva.next = (self.okp.val()
            && self.o_rresp.q.val()
            && self.chk.rr_match.val()
            && self.chk.ra_bad.val());
        self.rr_oos.next = (self.okp.val() && self.o_rresp.q.val() && !self.chk.rr_match.val());
        self.r_other.next = (self.okp.val()
            && (self.o_ack.q.val()
                || self.o_notify.q.val()
                || self.o_probe.q.val()
                || self.o_cnp.q.val()));
        self.ev_cnp.next = (self.okp.val() && self.o_cnp.q.val());
        self.ev_ce.next = (self.okp.val()
            && self.meta.q.ce.val()
            && self.chk.cnp_on_ce.val()
            && !self.o_cnp.q.val());
        self.ev_ack.next = ((self.r_acc.val()
            && self.o_wr.q.val()
            && (self.meta.q.ackreq.val() || self.meta.q.tlm.present.val()))
            || self.r_badva.val()
            || (self.r_oos.val() && !self.chk.nak_sent.val())
            || (self.r_dup.val() && !self.o_rreq.q.val())
            || (self.okp.val() && self.o_probe.q.val()));
        self.ev_cc.next = (self.rr_acc.val()
            || (self.okp.val() && self.o_ack.q.val() && self.o_akcc.q.val())
            || (self.okp.val() && self.o_notify.q.val()));
        self.ev_nak.next = (self.okp.val() && self.o_ack.q.val() && !self.o_akcc.q.val());
        // A duplicate READ REQUEST is executed again (its responses may
        // have been lost), unless its VA is unaligned.
        self.ev_rdreq.next = ((self.r_acc.val() && self.o_rreq.q.val())
            || (self.r_dup.val() && self.o_rreq.q.val() && !self.refuse.val()));
        self.pay_write.next =
            (((self.r_acc.val() && self.o_wr.q.val()) || self.rr_acc.val()) && self.len_nz.val());
        // New context values.
        self.len64.next = bit_cast::<64, 13>(self.meta.q.len.val());
        self.va_new.next = (self.va_eff.val() + self.len64.val());
        self.radr_new.next = (self.rbase.val() + self.len64.val());
        self.rpsn_new.next = (self.meta.q.psn.val() + 1);
        // {rd_idx (+1 when a READ starts), rd_done = LAST or ONLY}.
        // rd_idx + 1 in a signal of 4 bits before the cast (the width
        // traps, docs/architecture.md §6; scripts/cast_widths.py).
        self.rd_idx_inc.next = (self.store.fl.val().get_bits::<4>(4) + 1);
        if self.rd_done_c.val() {
            self.rd_new.next = ((bit_cast::<5, 4>(self.rd_idx_inc.val()) << 1)
                | bit_cast::<5, 1>(self.o_rrend.q.val().into()));
        } else {
            self.rd_new.next = ((bit_cast::<5, 4>(self.store.fl.val().get_bits::<4>(4)) << 1)
                | bit_cast::<5, 1>(self.o_rrend.q.val().into()));
        }
        if self.o_rreq.q.val() {
            self.epsn_inc.next = self.read_psns.psns.val();
        } else {
            self.epsn_inc.next = 1.into();
        }
        self.epsn_new.next = (self.store.epsn.val() + self.epsn_inc.val());
        self.epsn_m1.next = (self.store.epsn.val() - 1);
        if self.o_msn.q.val() {
            self.msn_new.next = (self.store.msn.val() + 1);
        } else {
            self.msn_new.next = self.store.msn.val();
        }
        // The ack request: psn and AETH.
        if self.r_acc.val() {
            self.syn_sel.next = self.k_syn_ack.val();
            self.msn_sel.next = self.msn_new.val();
            self.psn_sel.next = self.meta.q.psn.val();
        } else if self.r_badva.val() {
            self.syn_sel.next = self.k_syn_inv.val();
            if (self.meta.q.mr.val() == self.k_mr_access.val()) {
                self.syn_sel.next = self.k_syn_acc.val();
            }
            self.msn_sel.next = self.store.msn.val();
            self.psn_sel.next = self.meta.q.psn.val();
        } else if self.r_oos.val() {
            self.syn_sel.next = self.k_syn_nak.val();
            self.msn_sel.next = self.store.msn.val();
            self.psn_sel.next = self.store.epsn.val();
        } else {
            self.syn_sel.next = self.k_syn_ack.val();
            self.msn_sel.next = self.store.msn.val();
            self.psn_sel.next = self.epsn_m1.val();
        }
        if self.r_acc.val() {
            self.nak_new.next = false;
        } else if (self.r_badva.val() || self.r_oos.val()) {
            self.nak_new.next = true;
        } else {
            self.nak_new.next = self.store.fl.val().get_bit(1);
        }
        if self.nak_new.val() {
            self.n_fl0.next = (self.store.fl.val() | self.k_fl_nak.val());
        } else {
            self.n_fl0.next = (self.store.fl.val() & self.k_fl_keep.val());
        }
        if self.rr_acc.val() {
            self.n_fl.next = ((self.n_fl0.val() & self.k_fl_lo.val())
                | (bit_cast::<8, 5>(self.rd_new.val()) << 3));
        } else {
            self.n_fl.next = self.n_fl0.val();
        }

        // wr_left: a FIRST's DMA length less its payload (0 if shorter),
        // less each MIDDLE's; 0 after a LAST or ONLY.
        self.n_wleft.next = self.store.wleft.val();
        if (self.r_acc.val() && self.o_wr.q.val()) {
            if self.o_msn.q.val() {
                self.n_wleft.next = 0.into();
            } else if self.o_reth.q.val() {
                self.n_wleft.next = 0.into();
                if (self.meta.q.dlen.val() >= self.len32.val()) {
                    self.n_wleft.next = (self.meta.q.dlen.val() - self.len32.val());
                }
            } else {
                self.n_wleft.next = (self.store.wleft.val() - self.len32.val());
            }
        }
        self.wen.next = (self.go.val() && self.okp.val());
        // The decision is each field's write enable, not a select on its
        // data (R4: one bit to the RAM, not 24 to 64 select LUTs): a field
        // the packet leaves as it was is not written.
        self.wen_acc.next = (self.wen.val() && self.r_acc.val());
        self.wen_wva.next = (self.wen_acc.val() && self.o_wr.q.val());
        self.wen_rd.next = (self.wen.val() && self.rr_acc.val());
        // ---- undo (see `reset`): armed at a payload packet's decision
        // with the context it read, disarmed when its last word is taken.
        self.store.reset.next = self.reset.val();
        self.store.undo_arm.next = ((self.wen.val() && self.pay_write.val()) && self.len_nz.val());
        self.store.last_taken.next = self.last_taken.val();
        // The decision's writes.
        self.store.we_fl.next = self.wen.val();
        self.store.we_acc.next = self.wen_acc.val();
        self.store.we_wva.next = self.wen_wva.val();
        self.store.we_rd.next = self.wen_rd.val();
        self.store.w_fl.next = self.n_fl.val();
        self.store.w_epsn.next = self.epsn_new.val();
        self.store.w_msn.next = self.msn_new.val();
        self.store.w_wva.next = self.va_new.val();
        self.store.w_wleft.next = self.n_wleft.val();
        self.store.w_radr.next = self.radr_new.val();
        self.store.w_rpsn.next = self.rpsn_new.val();

        // ---- state machine
        if self.reset.val() {
            self.st.d.next = RxdState::Idle;
        } else {
            match self.st.q.val() {
                RxdState::Idle => {
                    if self.accept.val() {
                        self.st.d.next = RxdState::Look;
                    }
                }
                RxdState::Look => {
                    // A READ RESPONSE waits a cycle for its landing entry.
                    if self.op_class.read_resp.val() {
                        self.st.d.next = RxdState::Land;
                    } else {
                        self.st.d.next = RxdState::Chk;
                    }
                }
                RxdState::Land => {
                    self.st.d.next = RxdState::Chk;
                }
                RxdState::Chk => {
                    self.st.d.next = RxdState::Exec;
                }
                RxdState::Retry => {
                    self.st.d.next = RxdState::Look;
                }
                RxdState::Exec => {
                    if !self.go.val() {
                        self.st.d.next = RxdState::Retry;
                    } else if !self.len_nz.val() {
                        self.st.d.next = RxdState::Idle;
                    } else if self.pay_write.val() {
                        self.st.d.next = RxdState::PayWr;
                    } else {
                        self.st.d.next = RxdState::PayDrop;
                    }
                }
                RxdState::PayWr => {
                    if self.pay_end.val() {
                        self.st.d.next = RxdState::Idle;
                    }
                }
                RxdState::PayDrop => {
                    if self.pay_end.val() {
                        self.st.d.next = RxdState::Idle;
                    }
                }
            }
        }
        self.busy.d.next = !(self.st.d.val() == RxdState::Idle);

        // ---- events (every event register is free at Exec: the record
        // was accepted only when each was free or being taken)
        if self.go.val() {
            self.ack_psn_r.d.next = self.psn_sel.val();
            self.ack_aeth_r.d.next = (self.syn_sel.val() | bit_cast::<32, 24>(self.msn_sel.val()));
            self.rdreq_msn_r.d.next = self.msn_sel.val();
            if self.o_rresp.q.val() {
                self.pa.d.next = self.rbase.val();
            } else {
                self.pa.d.next = self.va_eff.val();
            }
        } else if (self.is_paywr.val() && self.pay_hs.val()) {
            self.pa.d.next = (self.pa.q.val() + self.k_eight.val());
        }
        if self.reset.val() {
            self.ack_v.d.next = false;
            self.arm_ack.d.next = false;
            self.cc_v.d.next = false;
            self.arm_cc.d.next = false;
            self.nak_v.d.next = false;
            self.rdreq_v.d.next = false;
            self.cnp_v.d.next = false;
            self.ce_v.d.next = false;
        } else {
            if (self.go.val() && self.ev_cnp.val()) {
                self.cnp_v.d.next = true;
            } else if self.m_cnp.ready.val() {
                self.cnp_v.d.next = false;
            }
            self.ce_v.d.next = (self.go.val() && self.ev_ce.val());
            if ((self.go.val() && self.ev_ack.val() && !self.pay_write.val())
                || (self.is_paywr.val() && self.pay_end.val() && self.arm_ack.q.val()))
            {
                self.ack_v.d.next = true;
            } else if self.m_ack.ready.val() {
                self.ack_v.d.next = false;
            }
            if ((self.go.val() && self.ev_cc.val() && !self.pay_write.val())
                || (self.is_paywr.val() && self.pay_end.val() && self.arm_cc.q.val()))
            {
                self.cc_v.d.next = true;
            } else if self.m_cc.ready.val() {
                self.cc_v.d.next = false;
            }
            if (self.go.val() && self.ev_nak.val()) {
                self.nak_v.d.next = true;
            } else if self.m_nak.ready.val() {
                self.nak_v.d.next = false;
            }
            if (self.go.val() && self.ev_rdreq.val()) {
                self.rdreq_v.d.next = true;
            } else if self.m_rdreq.ready.val() {
                self.rdreq_v.d.next = false;
            }
            if self.go.val() {
                self.arm_ack.d.next = (self.ev_ack.val() && self.pay_write.val());
                self.arm_cc.d.next = (self.ev_cc.val() && self.pay_write.val());
            } else if (self.is_paywr.val() && self.pay_end.val()) {
                self.arm_ack.d.next = false;
                self.arm_cc.d.next = false;
            }
        }

        // ---- host write register and its skid register: a word comes
        // only while the skid is empty (`wr_out.ready`).
        self.wr_out.reset.next = self.reset.val();
        self.wr_out.push.next = (self.is_paywr.val() && self.pay_hs.val());
        self.wr_out.addr.next = self.pa.q.val();
        self.wr_out.data.next = self.s_axis_pay.tdata.val();
        self.wr_out.strb.next = self.s_axis_pay.tkeep.val();
        self.wr_out.last.next = self.s_axis_pay.tlast.val();
        HostWriteSource::link(&mut self.m_wr, &mut self.wr_out.m_wr);

        // ---- counters: one per decision
        self.counters.reset.next = self.reset.val();
        self.counters.count.next = self.go.val();
        self.counters.bad_op.next = self.o_bad.q.val();
        self.counters.unknown_flow.next = (!self.o_bad.q.val() && self.chk.unk.val());
        self.counters.oos.next = (self.r_oos.val() || self.rr_oos.val());
        self.counters.dup.next = self.r_dup.val();
        self.counters.bad_psn.next = self.r_far.val();
        self.counters.bad_va.next = ((self.r_badva.val()
            && !(self.mr_bad.val() || self.chk.len_over.val()))
            || self.rr_badva.val());
        self.counters.refused.next =
            (self.r_badva.val() && (self.mr_bad.val() || self.chk.len_over.val()));
        self.counters.accepted.next = (self.r_acc.val() || self.rr_acc.val() || self.r_other.val());
        RxDispatchStatsSource::link(&mut self.m_stats, &mut self.counters.m_stats);

        // ---- outputs (fields zero while not valid)
        self.m_ack.valid.next = self.ack_v.q.val();
        if self.ack_v.q.val() {
            self.m_ack.flow.next = self.flow.val();
            self.m_ack.psn.next = self.ack_psn_r.q.val();
            self.m_ack.aeth.next = self.ack_aeth_r.q.val();
        } else {
            self.m_ack.flow.next = 0.into();
            self.m_ack.psn.next = 0.into();
            self.m_ack.aeth.next = 0.into();
        }
        self.tlm_ack.next = (self.ack_v.q.val() && self.meta.q.tlm.present.val());
        self.m_ack.tlm.present.next = self.tlm_ack.val();
        if self.tlm_ack.val() {
            self.m_ack.tlm.hdr.next = self.meta.q.tlm.hdr.val();
            self.m_ack.tlm.hop0.next = self.meta.q.tlm.hop0.val();
            self.m_ack.tlm.hop1.next = self.meta.q.tlm.hop1.val();
            self.m_ack.tlm.hop2.next = self.meta.q.tlm.hop2.val();
            self.m_ack.tlm.hop3.next = self.meta.q.tlm.hop3.val();
            self.m_ack.tlm.hop4.next = self.meta.q.tlm.hop4.val();
        } else {
            self.m_ack.tlm.hdr.next = 0.into();
            self.m_ack.tlm.hop0.next = 0.into();
            self.m_ack.tlm.hop1.next = 0.into();
            self.m_ack.tlm.hop2.next = 0.into();
            self.m_ack.tlm.hop3.next = 0.into();
            self.m_ack.tlm.hop4.next = 0.into();
        }
        self.m_cc.valid.next = self.cc_v.q.val();
        if self.cc_v.q.val() {
            self.m_cc.flow.next = self.flow.val();
            self.m_cc.psn.next = self.meta.q.psn.val();
            self.m_cc.aeth.next = self.meta.q.aeth.val();
            self.m_cc.opcode.next = self.meta.q.opcode.val();
        } else {
            self.m_cc.flow.next = 0.into();
            self.m_cc.psn.next = 0.into();
            self.m_cc.aeth.next = 0.into();
            self.m_cc.opcode.next = 0.into();
        }
        self.tlm_cc.next = (self.cc_v.q.val() && self.meta.q.tlm.present.val());
        self.m_cc.tlm.present.next = self.tlm_cc.val();
        if self.tlm_cc.val() {
            self.m_cc.tlm.hdr.next = self.meta.q.tlm.hdr.val();
            self.m_cc.tlm.hop0.next = self.meta.q.tlm.hop0.val();
            self.m_cc.tlm.hop1.next = self.meta.q.tlm.hop1.val();
            self.m_cc.tlm.hop2.next = self.meta.q.tlm.hop2.val();
            self.m_cc.tlm.hop3.next = self.meta.q.tlm.hop3.val();
            self.m_cc.tlm.hop4.next = self.meta.q.tlm.hop4.val();
        } else {
            self.m_cc.tlm.hdr.next = 0.into();
            self.m_cc.tlm.hop0.next = 0.into();
            self.m_cc.tlm.hop1.next = 0.into();
            self.m_cc.tlm.hop2.next = 0.into();
            self.m_cc.tlm.hop3.next = 0.into();
            self.m_cc.tlm.hop4.next = 0.into();
        }
        self.m_nak.valid.next = self.nak_v.q.val();
        if self.nak_v.q.val() {
            self.m_nak.flow.next = self.flow.val();
            self.m_nak.psn.next = self.meta.q.psn.val();
            self.m_nak.syndrome.next = self.meta.q.aeth.val().get_bits::<8>(24);
        } else {
            self.m_nak.flow.next = 0.into();
            self.m_nak.psn.next = 0.into();
            self.m_nak.syndrome.next = 0.into();
        }
        self.m_rdreq.valid.next = self.rdreq_v.q.val();
        if self.rdreq_v.q.val() {
            self.m_rdreq.flow.next = self.flow.val();
            self.m_rdreq.psn.next = self.meta.q.psn.val();
            self.m_rdreq.va.next = self.meta.q.va.val();
            self.m_rdreq.rkey.next = self.meta.q.rkey.val();
            self.m_rdreq.len.next = self.meta.q.dlen.val();
            self.m_rdreq.msn.next = self.rdreq_msn_r.q.val();
        } else {
            self.m_rdreq.flow.next = 0.into();
            self.m_rdreq.psn.next = 0.into();
            self.m_rdreq.va.next = 0.into();
            self.m_rdreq.rkey.next = 0.into();
            self.m_rdreq.len.next = 0.into();
            self.m_rdreq.msn.next = 0.into();
        }
        self.m_cnp.valid.next = self.cnp_v.q.val();
        self.m_cnp.bytes.next = 0.into();
        if self.cnp_v.q.val() {
            self.m_cnp.op.next = self.k_op_cnp.val();
            self.m_cnp.flow.next = bit_cast::<16, A>(self.flow.val());
        } else {
            self.m_cnp.op.next = 0.into();
            self.m_cnp.flow.next = 0.into();
        }
        self.m_ce.valid.next = self.ce_v.q.val();
        if self.ce_v.q.val() {
            self.m_ce.flow.next = bit_cast::<16, A>(self.flow.val());
        } else {
            self.m_ce.flow.next = 0.into();
        }
    }
}
