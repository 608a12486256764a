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
//!   `m_stats.refused`.
//!
//! # Timing
//! One packet at a time: `Idle` (record accepted, context read issued),
//! `Look` (context words registered, opcode decoded, ceil(dlen/MTU)),
//! `Exec` (decision, context written back), then one cycle per payload
//! word (written or discarded). With every ready high a packet takes
//! 3 cycles plus one per payload word, plus one after an event or a host
//! write: 62-byte minimum frames (8 cycles on the 64-bit wire) are
//! sustained with room to spare.
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
//! - The host write: a payload word goes to the write register (`m_wr`)
//!   when it is empty or taken this cycle, else to a skid register, which
//!   moves up when the write register's word is taken; a word comes only
//!   while the skid is empty. So one word a cycle passes while
//!   `m_wr.ready` stays high, and none is lost when it falls.
//! - An event appears in the cycle after `Exec` (3 cycles after the
//!   record's acceptance), except the event of a packet whose payload goes
//!   to the host (ACK of a WRITE, `cc` of a READ RESPONSE), which appears
//!   with its last payload word on `wr_*`. The first payload word is on
//!   `wr_*` 4 cycles after the record's acceptance when the payload is
//!   there.
//! - Back-pressure: the dispatcher waits while an event or the host write
//!   is not taken (which reaches the parser's buffer).
//! - Memories: the per-flow context in block RAM, read in `Idle`. The
//!   READ landing entries are one block RAM of 8 · 2^A words, read at
//!   (flow, `rd_idx`) in the same cycle: the index comes from a copy of
//!   it in LUT RAM (`rd_ix`, asynchronous read, written with `ram_fl`),
//!   kept twice so one copy is read at the incoming record's flow and the
//!   other at the latched flow, and the address select (a register of
//!   the state, not its decode) follows them.
//!   One entry is read, so no select follows the RAM. Eight RAMs of 2^A
//!   words and an 8:1 select before: below 512 flows each took a whole
//!   block RAM column set (24 DP16KD at 256 flows and at 128, now 10 and
//!   5); at 1024 flows the narrow deep modes pack no better, and the
//!   whole block went from 55 DP16KD to 57.
//!
//! Golden twin: `nic_golden::roce::rx_dispatch`.

use crate::cc::{CeMarkSource, RpEventSource};
use crate::mem::{LutRam, Ram};
use crate::roce::op_decode::OpDecode;
use crate::roce::{
    AckInfoSource, CcFeedbackSource, HostWriteSource, NakReqSource, ReadReqSource,
    RxDispatchStatsSource, RxFlowCtxSink, RxMetaSink,
};
use crate::stream::AxisSink;
use nic_spec::roce::{syndrome, AETH_CLASS_NAK};
use rust_hdl::prelude::*;
use smart_default::SmartDefault;

#[derive(Copy, Clone, PartialEq, Debug, LogicState)]
pub enum RxdState {
    Idle,
    Look,
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
    // Context RAMs: flags (bit 0 valid, bit 1 nak_sent, bit 2 cnp_on_ce,
    // bit 3 rd_done, bits 7..4 rd_idx), epsn, msn, wr_va, rd_addr, rd_psn;
    // the READ landing entries 0..7 ({lap, psn 24, addr 64}), written only
    // by the requester's `rd_only` writes.
    ram_fl: Ram<Bits<8>, A>,
    // The READ landing entries, 8 per flow (address = flow << 3 | index),
    // and a copy of each flow's landing index (`ram_fl` bits 6..4) in LUTs,
    // read in the cycle that addresses the entry.
    #[default(Ram::with_depth_log2(A + 3))]
    ram_tab: Ram<Bits<89>, 16>,
    rd_ix: LutRam<Bits<3>, A>,
    /// A second copy of `rd_ix`, written alike, read at the incoming
    /// record's flow while `rd_ix` is read at the latched one: the select
    /// between them is after the LUT RAMs, in front of the block RAM.
    rd_ix_in: LutRam<Bits<3>, A>,
    /// The state is not `Idle`, registered from the next state: it
    /// selects the RAMs' read address with no state decode before it.
    busy: DFF<Bit>,
    ram_epsn: Ram<Bits<24>, A>,
    ram_msn: Ram<Bits<24>, A>,
    ram_wva: Ram<Bits<64>, A>,
    /// The bytes the WRITE in progress may still carry (`wr_left`).
    ram_wleft: Ram<Bits<32>, A>,
    ram_radr: Ram<Bits<64>, A>,
    ram_rpsn: Ram<Bits<24>, A>,
    st: DFF<RxdState>,
    stale: DFF<Bit>,
    // The latched record.
    m_opcode: DFF<Bits<8>>,
    m_qp: DFF<Bits<24>>,
    m_psn: DFF<Bits<24>>,
    m_ackreq: DFF<Bit>,
    m_len: DFF<Bits<13>>,
    m_va: DFF<Bits<64>>,
    m_rkey: DFF<Bits<32>>,
    m_dlen: DFF<Bits<32>>,
    m_aeth: DFF<Bits<32>>,
    m_tlm: DFF<Bit>,
    m_ce_in: DFF<Bit>,
    /// The memory-region verdict (`nic_spec::mr::verdict`).
    m_mr: DFF<Bits<2>>,
    m_hdr: DFF<Bits<64>>,
    m_hop0: DFF<Bits<64>>,
    m_hop1: DFF<Bits<64>>,
    m_hop2: DFF<Bits<64>>,
    m_hop3: DFF<Bits<64>>,
    m_hop4: DFF<Bits<64>>,
    // The context as read (registered RAM outputs, valid in `Exec`).
    c_fl: DFF<Bits<8>>,
    // The landing entry at the flow's `rd_idx` (registered in `Look`).
    t_ent: DFF<Bits<89>>,
    #[default(Constant::new(Bits::<8>::from(nic_spec::roce::op::READ_RESP_LAST as u64)))]
    k_op_rrlast: Constant<Bits<8>>,
    #[default(Constant::new(Bits::<8>::from(nic_spec::roce::op::READ_RESP_ONLY as u64)))]
    k_op_rronly: Constant<Bits<8>>,
    o_rrend: DFF<Bit>,
    rd_done_c: Signal<Local, Bit>,
    rbase: Signal<Local, Bits<64>>,
    rd_new: Signal<Local, Bits<5>>,
    n_fl0: Signal<Local, Bits<8>>,
    tab_w: Signal<Local, Bits<89>>,
    c_epsn: DFF<Bits<24>>,
    c_msn: DFF<Bits<24>>,
    c_wva: DFF<Bits<64>>,
    c_wleft: DFF<Bits<32>>,
    c_radr: DFF<Bits<64>>,
    c_rpsn: DFF<Bits<24>>,
    // Decoded opcode and ceil(dlen/MTU), registered in `Look`.
    o_bad: DFF<Bit>,
    o_qphi: DFF<Bit>,
    o_resp: DFF<Bit>,
    o_wr: DFF<Bit>,
    o_reth: DFF<Bit>,
    o_msn: DFF<Bit>,
    o_rreq: DFF<Bit>,
    o_rresp: DFF<Bit>,
    o_rrcc: DFF<Bit>,
    o_ack: DFF<Bit>,
    o_akcc: DFF<Bit>,
    o_probe: DFF<Bit>,
    o_notify: DFF<Bit>,
    o_cnp: DFF<Bit>,
    inc: DFF<Bits<24>>,
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
    // Host write register and the next payload address.
    wr_v: DFF<Bit>,
    wr_addr_r: DFF<Bits<64>>,
    wr_data_r: DFF<Bits<64>>,
    wr_strb_r: DFF<Bits<8>>,
    pa: DFF<Bits<64>>,
    /// The undo of the payload packet in flight (see `reset`): armed at
    /// its decision, disarmed when its last word is taken on `m_wr`.
    undo_v: DFF<Bit>,
    /// A reset came while armed; the write back waits for a cycle without
    /// an `s_ctx` write.
    undo_pending: DFF<Bit>,
    undo_flow: DFF<Bits<A>>,
    u_fl: DFF<Bits<8>>,
    u_epsn: DFF<Bits<24>>,
    u_msn: DFF<Bits<24>>,
    u_wva: DFF<Bits<64>>,
    u_wleft: DFF<Bits<32>>,
    u_radr: DFF<Bits<64>>,
    u_rpsn: DFF<Bits<24>>,
    /// The word in the host write register is its packet's last.
    wr_last: DFF<Bit>,
    /// The host write's skid register: a payload word taken while the
    /// write register waits on `m_wr.ready` (so `s_axis_pay.tready` is
    /// a register's, not `m_wr.ready`).
    wr2_v: DFF<Bit>,
    wr2_addr: DFF<Bits<64>>,
    wr2_data: DFF<Bits<64>>,
    wr2_strb: DFF<Bits<8>>,
    wr2_last: DFF<Bit>,
    /// `reset` last cycle: the readies follow it a cycle late, so no
    /// input reaches them in the same cycle.
    reset_q: DFF<Bit>,
    /// The host takes the write register's word this cycle.
    wr_take: Signal<Local, Bit>,
    last_taken: Signal<Local, Bit>,
    undo_want: Signal<Local, Bit>,
    undo_cancel: Signal<Local, Bit>,
    undo_do: Signal<Local, Bit>,
    c_unknown: DFF<Bits<32>>,
    c_oos: DFF<Bits<32>>,
    c_dup: DFF<Bits<32>>,
    c_bad_psn: DFF<Bits<32>>,
    c_accepted: DFF<Bits<32>>,
    c_bad_va: DFF<Bits<32>>,
    c_bad_op: DFF<Bits<32>>,
    c_refused: DFF<Bits<32>>,
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
    #[default(Constant::new(Bits::<4>::from(8u64)))]
    k_m8: Constant<Bits<4>>,
    #[default(Constant::new(Bits::<4>::from(9u64)))]
    k_m9: Constant<Bits<4>>,
    #[default(Constant::new(Bits::<4>::from(10u64)))]
    k_m10: Constant<Bits<4>>,
    #[default(Constant::new(Bits::<4>::from(11u64)))]
    k_m11: Constant<Bits<4>>,
    #[default(Constant::new(Bits::<4>::from(12u64)))]
    k_m12: Constant<Bits<4>>,
    #[default(Constant::new(Bits::<33>::from(255u64)))]
    k_msk8: Constant<Bits<33>>,
    #[default(Constant::new(Bits::<33>::from(511u64)))]
    k_msk9: Constant<Bits<33>>,
    #[default(Constant::new(Bits::<33>::from(1023u64)))]
    k_msk10: Constant<Bits<33>>,
    #[default(Constant::new(Bits::<33>::from(2047u64)))]
    k_msk11: Constant<Bits<33>>,
    #[default(Constant::new(Bits::<33>::from(4095u64)))]
    k_msk12: Constant<Bits<33>>,
    #[default(Constant::new(Bits::<3>::from(AETH_CLASS_NAK as u64)))]
    k_syn_nak3: Constant<Bits<3>>,
    #[default(Constant::new(Bits::<8>::from(1u64)))]
    k_fl_valid: Constant<Bits<8>>,
    #[default(Constant::new(Bits::<8>::from(2u64)))]
    k_fl_nak: Constant<Bits<8>>,
    #[default(Constant::new(Bits::<8>::from(8u64)))]
    k_fl_rdd: Constant<Bits<8>>,
    #[default(Constant::new(Bits::<8>::from(7u64)))]
    k_fl_lo: Constant<Bits<8>>,
    /// Every flag but `nak_sent`.
    #[default(Constant::new(Bits::<8>::from(0xFDu64)))]
    k_fl_keep: Constant<Bits<8>>,
    #[default(Constant::new(Bits::<8>::from(4u64)))]
    k_fl_ce: Constant<Bits<8>>,
    #[default(Constant::new(Bits::<64>::from(8u64)))]
    k_eight: Constant<Bits<64>>,
    // Combinational.
    is_idle: Signal<Local, Bit>,
    is_look: Signal<Local, Bit>,
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
    mlog: Signal<Local, Bits<4>>,
    msk: Signal<Local, Bits<33>>,
    sum33: Signal<Local, Bits<33>>,
    q33: Signal<Local, Bits<33>>,
    q24: Signal<Local, Bits<24>>,
    go: Signal<Local, Bit>,
    unk: Signal<Local, Bit>,
    okp: Signal<Local, Bit>,
    dd: Signal<Local, Bits<24>>,
    d_zero: Signal<Local, Bit>,
    d_ahead: Signal<Local, Bit>,
    d_dup: Signal<Local, Bit>,
    va_eff: Signal<Local, Bits<64>>,
    va_bad: Signal<Local, Bit>,
    /// The memory-region check refused the request (`s_meta.mr` ≠ 0).
    mr_bad: Signal<Local, Bit>,
    /// A WRITE or READ REQUEST that moves nothing and is answered with
    /// a NAK: refused by the check, or data to an unaligned address.
    refuse: Signal<Local, Bit>,
    dat_nz: Signal<Local, Bit>,
    ra_bad: Signal<Local, Bit>,
    r_acc: Signal<Local, Bit>,
    r_badva: Signal<Local, Bit>,
    r_oos: Signal<Local, Bit>,
    r_dup: Signal<Local, Bit>,
    r_far: Signal<Local, Bit>,
    rr_match: Signal<Local, Bit>,
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
    /// A WRITE MIDDLE or LAST longer than what its WRITE may still carry.
    len_over: Signal<Local, Bit>,
    len32: Signal<Local, Bits<32>>,
    wen: Signal<Local, Bit>,
    wen_acc: Signal<Local, Bit>,
    wen_wva: Signal<Local, Bit>,
    wen_rd: Signal<Local, Bit>,
    cfg_fl: Signal<Local, Bits<8>>,
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
            m_opcode,
            m_qp,
            m_psn,
            m_ackreq,
            m_len,
            m_va,
            m_rkey,
            m_dlen,
            m_aeth,
            m_tlm,
            m_hdr,
            m_hop0,
            m_hop1,
            m_hop2,
            m_hop3,
            m_hop4,
            c_fl,
            t_ent,
            o_rrend,
            c_epsn,
            c_msn,
            c_wva,
            c_wleft,
            c_radr,
            c_rpsn,
            o_bad,
            o_qphi,
            o_resp,
            o_wr,
            o_reth,
            o_msn,
            o_rreq,
            o_rresp,
            o_rrcc,
            o_ack,
            o_akcc,
            o_probe,
            o_notify,
            o_cnp,
            m_ce_in,
            m_mr,
            cnp_v,
            ce_v,
            inc,
            ack_v,
            ack_psn_r,
            ack_aeth_r,
            arm_ack,
            cc_v,
            arm_cc,
            nak_v,
            rdreq_v,
            rdreq_msn_r,
            wr_v,
            wr_addr_r,
            wr_data_r,
            wr_strb_r,
            pa,
            undo_v,
            undo_pending,
            undo_flow,
            u_fl,
            u_epsn,
            u_msn,
            u_wva,
            u_wleft,
            u_radr,
            u_rpsn,
            wr_last,
            wr2_v,
            wr2_addr,
            wr2_data,
            wr2_strb,
            wr2_last,
            reset_q,
            c_unknown,
            c_oos,
            c_dup,
            c_bad_psn,
            c_accepted,
            c_bad_va,
            c_bad_op,
            c_refused
        );
        clock!(
            self, clock, ram_fl, ram_epsn, ram_msn, ram_wva, ram_wleft, ram_radr, ram_rpsn,
            ram_tab, rd_ix, rd_ix_in, busy
        );

        // ---- state decode, handshakes
        self.is_idle.next = (self.st.q.val() == RxdState::Idle);
        self.is_look.next = (self.st.q.val() == RxdState::Look);
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
        self.wr_take.next = (self.wr_v.q.val() && self.m_wr.ready.val());
        self.last_taken.next = (self.wr_take.val() && self.wr_last.q.val());
        self.reset_q.d.next = self.reset.val();
        self.mready.next = (!self.reset_q.q.val()
            && self.is_idle.val()
            && self.ev_free.val()
            && !self.undo_v.q.val()
            && !self.undo_pending.q.val());
        self.accept.next = (self.mready.val() && self.s_meta.valid.val());
        self.ptready.next = (!self.reset_q.q.val()
            && (self.is_paydrop.val() || (self.is_paywr.val() && !self.wr2_v.q.val())));
        self.pay_hs.next = (self.ptready.val() && self.s_axis_pay.tvalid.val());
        self.pay_end.next = (self.pay_hs.val() && self.s_axis_pay.tlast.val());
        self.s_meta.ready.next = self.mready.val();
        self.s_axis_pay.tready.next = self.ptready.val();
        self.flow.next = self.m_qp.q.val().get_bits::<A>(0);

        // ---- Idle: latch the record
        if self.accept.val() {
            self.m_opcode.d.next = self.s_meta.opcode.val();
            self.m_qp.d.next = self.s_meta.qp.val();
            self.m_psn.d.next = self.s_meta.psn.val();
            self.m_ackreq.d.next = self.s_meta.ackreq.val();
            self.m_len.d.next = self.s_meta.len.val();
            self.m_va.d.next = self.s_meta.va.val();
            self.m_rkey.d.next = self.s_meta.rkey.val();
            self.m_dlen.d.next = self.s_meta.dlen.val();
            self.m_aeth.d.next = self.s_meta.aeth.val();
            self.m_tlm.d.next = self.s_meta.tlm.present.val();
            self.m_ce_in.d.next = self.s_meta.ce.val();
            self.m_mr.d.next = self.s_meta.mr.val();
            self.m_hdr.d.next = self.s_meta.tlm.hdr.val();
            self.m_hop0.d.next = self.s_meta.tlm.hop0.val();
            self.m_hop1.d.next = self.s_meta.tlm.hop1.val();
            self.m_hop2.d.next = self.s_meta.tlm.hop2.val();
            self.m_hop3.d.next = self.s_meta.tlm.hop3.val();
            self.m_hop4.d.next = self.s_meta.tlm.hop4.val();
        }
        // A cfg write at or after the context read makes it stale.
        self.stale.d.next = (self.s_ctx.valid.val() || (self.is_look.val() && self.stale.q.val()));

        // ---- context RAMs: read the incoming record's flow when idle,
        // else the latched one; cfg writes have priority.
        self.rd_ix_in.read_address.next = self.s_meta.qp.val().get_bits::<A>(0);
        self.rd_ix.read_address.next = self.flow.val();
        if !self.busy.q.val() {
            self.ram_fl.read_address.next = self.s_meta.qp.val().get_bits::<A>(0);
            self.ram_epsn.read_address.next = self.s_meta.qp.val().get_bits::<A>(0);
            self.ram_msn.read_address.next = self.s_meta.qp.val().get_bits::<A>(0);
            self.ram_wva.read_address.next = self.s_meta.qp.val().get_bits::<A>(0);
            self.ram_wleft.read_address.next = self.s_meta.qp.val().get_bits::<A>(0);
            self.ram_radr.read_address.next = self.s_meta.qp.val().get_bits::<A>(0);
            self.ram_rpsn.read_address.next = self.s_meta.qp.val().get_bits::<A>(0);
            self.ram_tab.read_address.next =
                ((bit_cast::<16, A>(self.s_meta.qp.val().get_bits::<A>(0)) << 3)
                    | bit_cast::<16, 3>(self.rd_ix_in.read_data.val()));
        } else {
            self.ram_fl.read_address.next = self.flow.val();
            self.ram_epsn.read_address.next = self.flow.val();
            self.ram_msn.read_address.next = self.flow.val();
            self.ram_wva.read_address.next = self.flow.val();
            self.ram_wleft.read_address.next = self.flow.val();
            self.ram_radr.read_address.next = self.flow.val();
            self.ram_rpsn.read_address.next = self.flow.val();
            self.ram_tab.read_address.next = ((bit_cast::<16, A>(self.flow.val()) << 3)
                | bit_cast::<16, 3>(self.rd_ix.read_data.val()));
        }
        self.c_fl.d.next = self.ram_fl.read_data.val();
        self.c_epsn.d.next = self.ram_epsn.read_data.val();
        self.c_msn.d.next = self.ram_msn.read_data.val();
        self.c_wva.d.next = self.ram_wva.read_data.val();
        self.c_wleft.d.next = self.ram_wleft.read_data.val();
        self.c_radr.d.next = self.ram_radr.read_data.val();
        self.c_rpsn.d.next = self.ram_rpsn.read_data.val();
        // The landing entry at the flow's rd_idx, addressed by the LUT copy
        // of the index in the cycle the flow's words were read.
        self.t_ent.d.next = self.ram_tab.read_data.val();

        // ---- Look: decode the opcode, ceil(dlen / MTU)
        self.syn3.next = self.m_aeth.q.val().get_bits::<3>(29);
        self.op_class.op.next = self.m_opcode.q.val();
        self.o_wr.d.next = self.op_class.write.val();
        self.o_rreq.d.next = self.op_class.read_req.val();
        self.o_resp.d.next = (self.op_class.write.val() || self.op_class.read_req.val());
        self.o_reth.d.next = self.op_class.reth.val();
        self.o_msn.d.next = self.op_class.ends_msg.val();
        self.o_rresp.d.next = self.op_class.read_resp.val();
        self.o_rrcc.d.next = self.op_class.read_resp.val();
        self.o_rrend.d.next = ((self.m_opcode.q.val() == self.k_op_rrlast.val())
            || (self.m_opcode.q.val() == self.k_op_rronly.val()));
        self.o_ack.d.next = self.op_class.ack.val();
        // qp ≥ 2^A, registered here (off the decision path).
        self.o_qphi.d.next = (self.m_qp.q.val() >= self.k_nflows.val());
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
        if (self.cfg_mtu_log2.val() < self.k_m8.val()) {
            self.mlog.next = self.k_m8.val();
        } else if (self.cfg_mtu_log2.val() > self.k_m12.val()) {
            self.mlog.next = self.k_m12.val();
        } else {
            self.mlog.next = self.cfg_mtu_log2.val();
        }
        if (self.mlog.val() == self.k_m8.val()) {
            self.msk.next = self.k_msk8.val();
        } else if (self.mlog.val() == self.k_m9.val()) {
            self.msk.next = self.k_msk9.val();
        } else if (self.mlog.val() == self.k_m10.val()) {
            self.msk.next = self.k_msk10.val();
        } else if (self.mlog.val() == self.k_m11.val()) {
            self.msk.next = self.k_msk11.val();
        } else {
            self.msk.next = self.k_msk12.val();
        }
        self.sum33.next = (bit_cast::<33, 32>(self.m_dlen.q.val()) + self.msk.val());
        self.q33.next = (self.sum33.val() >> self.mlog.val());
        self.q24.next = self.q33.val().get_bits::<24>(0);
        if self.q24.val().any() {
            self.inc.d.next = self.q24.val();
        } else {
            self.inc.d.next = 1.into();
        }

        // ---- Exec: the decision
        // A reset aborts the packet: nothing is written.
        self.go.next = (self.is_exec.val()
            && !self.stale.q.val()
            && !self.s_ctx.valid.val()
            && !self.reset.val());
        self.unk.next = (self.o_qphi.q.val() || !self.c_fl.q.val().get_bit(0));
        self.okp.next = (!self.o_bad.q.val() && !self.unk.val());
        self.dd.next = (self.m_psn.q.val() - self.c_epsn.q.val());
        // R4: d = 0 is an equality (no carry chain), and the windows are
        // d's top twelve bits, never a compare of d.
        self.d_zero.next = (self.m_psn.q.val() == self.c_epsn.q.val());
        self.d_ahead.next = (!self.d_zero.val() && !self.dd.val().get_bits::<12>(12).any());
        self.d_dup.next = self.dd.val().get_bits::<12>(12).all();
        if self.o_reth.q.val() {
            self.va_eff.next = self.m_va.q.val();
        } else {
            self.va_eff.next = self.c_wva.q.val();
        }
        // The address matters only if data moves (READ REQUEST: dlen).
        self.len_nz.next = self.m_len.q.val().any();
        if self.o_rreq.q.val() {
            self.dat_nz.next = self.m_dlen.q.val().any();
        } else {
            self.dat_nz.next = self.len_nz.val();
        }
        self.va_bad.next = (self.va_eff.val().get_bits::<3>(0).any() && self.dat_nz.val());
        self.mr_bad.next = self.m_mr.q.val().any();
        // A MIDDLE or LAST may not carry more than its WRITE's DMA length
        // left: it would land past the range the FIRST was granted.
        self.len32.next = bit_cast::<32, 13>(self.m_len.q.val());
        self.len_over.next = ((self.o_wr.q.val() && !self.o_reth.q.val())
            && (self.len32.val() > self.c_wleft.q.val()));
        self.refuse.next = ((self.va_bad.val() || self.mr_bad.val()) || self.len_over.val());
        // READ RESPONSE: inside a READ the running position, between READs
        // the landing entry at rd_idx (its lap must be rd_idx bit 3).
        self.rd_done_c.next = self.c_fl.q.val().get_bit(3);
        if self.rd_done_c.val() {
            self.rbase.next = self.t_ent.q.val().get_bits::<64>(0);
            self.rr_match.next = ((self.t_ent.q.val().get_bit(88) == self.c_fl.q.val().get_bit(7))
                && (self.m_psn.q.val() == self.t_ent.q.val().get_bits::<24>(64)));
        } else {
            self.rbase.next = self.c_radr.q.val();
            self.rr_match.next = (self.m_psn.q.val() == self.c_rpsn.q.val());
        }
        self.ra_bad.next = (self.rbase.val().get_bits::<3>(0).any() && self.len_nz.val());
        self.r_acc.next =
            (self.okp.val() && self.o_resp.q.val() && self.d_zero.val() && !self.refuse.val());
        self.r_badva.next =
            (self.okp.val() && self.o_resp.q.val() && self.d_zero.val() && self.refuse.val());
        self.r_oos.next = (self.okp.val() && self.o_resp.q.val() && self.d_ahead.val());
        self.r_dup.next = (self.okp.val() && self.o_resp.q.val() && self.d_dup.val());
        self.r_far.next = (self.okp.val()
            && self.o_resp.q.val()
            && !self.d_zero.val()
            && !self.d_ahead.val()
            && !self.d_dup.val());
        self.rr_acc.next =
            (self.okp.val() && self.o_rresp.q.val() && self.rr_match.val() && !self.ra_bad.val());
        self.rr_badva.next =
            (self.okp.val() && self.o_rresp.q.val() && self.rr_match.val() && self.ra_bad.val());
        self.rr_oos.next = (self.okp.val() && self.o_rresp.q.val() && !self.rr_match.val());
        self.r_other.next = (self.okp.val()
            && (self.o_ack.q.val()
                || self.o_notify.q.val()
                || self.o_probe.q.val()
                || self.o_cnp.q.val()));
        self.ev_cnp.next = (self.okp.val() && self.o_cnp.q.val());
        self.ev_ce.next = (self.okp.val()
            && self.m_ce_in.q.val()
            && self.c_fl.q.val().get_bit(2)
            && !self.o_cnp.q.val());
        self.ev_ack.next = ((self.r_acc.val()
            && self.o_wr.q.val()
            && (self.m_ackreq.q.val() || self.m_tlm.q.val()))
            || self.r_badva.val()
            || (self.r_oos.val() && !self.c_fl.q.val().get_bit(1))
            || (self.r_dup.val() && !self.o_rreq.q.val())
            || (self.okp.val() && self.o_probe.q.val()));
        self.ev_cc.next = ((self.rr_acc.val() && self.o_rrcc.q.val())
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
        self.len64.next = bit_cast::<64, 13>(self.m_len.q.val());
        self.va_new.next = (self.va_eff.val() + self.len64.val());
        self.radr_new.next = (self.rbase.val() + self.len64.val());
        self.rpsn_new.next = (self.m_psn.q.val() + 1);
        // {rd_idx (+1 when a READ starts), rd_done = LAST or ONLY}.
        if self.rd_done_c.val() {
            self.rd_new.next = ((bit_cast::<5, 4>((self.c_fl.q.val().get_bits::<4>(4) + 1)) << 1)
                | bit_cast::<5, 1>(self.o_rrend.q.val().into()));
        } else {
            self.rd_new.next = ((bit_cast::<5, 4>(self.c_fl.q.val().get_bits::<4>(4)) << 1)
                | bit_cast::<5, 1>(self.o_rrend.q.val().into()));
        }
        if self.o_rreq.q.val() {
            self.epsn_inc.next = self.inc.q.val();
        } else {
            self.epsn_inc.next = 1.into();
        }
        self.epsn_new.next = (self.c_epsn.q.val() + self.epsn_inc.val());
        self.epsn_m1.next = (self.c_epsn.q.val() - 1);
        if self.o_msn.q.val() {
            self.msn_new.next = (self.c_msn.q.val() + 1);
        } else {
            self.msn_new.next = self.c_msn.q.val();
        }
        // The ack request: psn and AETH.
        if self.r_acc.val() {
            self.syn_sel.next = self.k_syn_ack.val();
            self.msn_sel.next = self.msn_new.val();
            self.psn_sel.next = self.m_psn.q.val();
        } else if self.r_badva.val() {
            self.syn_sel.next = self.k_syn_inv.val();
            if (self.m_mr.q.val() == self.k_mr_access.val()) {
                self.syn_sel.next = self.k_syn_acc.val();
            }
            self.msn_sel.next = self.c_msn.q.val();
            self.psn_sel.next = self.m_psn.q.val();
        } else if self.r_oos.val() {
            self.syn_sel.next = self.k_syn_nak.val();
            self.msn_sel.next = self.c_msn.q.val();
            self.psn_sel.next = self.c_epsn.q.val();
        } else {
            self.syn_sel.next = self.k_syn_ack.val();
            self.msn_sel.next = self.c_msn.q.val();
            self.psn_sel.next = self.epsn_m1.val();
        }
        if self.r_acc.val() {
            self.nak_new.next = false;
        } else if (self.r_badva.val() || self.r_oos.val()) {
            self.nak_new.next = true;
        } else {
            self.nak_new.next = self.c_fl.q.val().get_bit(1);
        }
        if self.nak_new.val() {
            self.n_fl0.next = (self.c_fl.q.val() | self.k_fl_nak.val());
        } else {
            self.n_fl0.next = (self.c_fl.q.val() & self.k_fl_keep.val());
        }
        if self.rr_acc.val() {
            self.n_fl.next = ((self.n_fl0.val() & self.k_fl_lo.val())
                | (bit_cast::<8, 5>(self.rd_new.val()) << 3));
        } else {
            self.n_fl.next = self.n_fl0.val();
        }

        // wr_left: a FIRST's DMA length less its payload (0 if shorter),
        // less each MIDDLE's; 0 after a LAST or ONLY.
        self.n_wleft.next = self.c_wleft.q.val();
        if (self.r_acc.val() && self.o_wr.q.val()) {
            if self.o_msn.q.val() {
                self.n_wleft.next = 0.into();
            } else if self.o_reth.q.val() {
                self.n_wleft.next = 0.into();
                if (self.m_dlen.q.val() >= self.len32.val()) {
                    self.n_wleft.next = (self.m_dlen.q.val() - self.len32.val());
                }
            } else {
                self.n_wleft.next = (self.c_wleft.q.val() - self.len32.val());
            }
        }
        self.wen.next = (self.go.val() && self.okp.val());
        // The decision is each field's write enable, not a select on its
        // data (R4: one bit to the RAM, not 24 to 64 select LUTs): a field
        // the packet leaves as it was is not written.
        self.wen_acc.next = (self.wen.val() && self.r_acc.val());
        self.wen_wva.next = (self.wen_acc.val() && self.o_wr.q.val());
        self.wen_rd.next = (self.wen.val() && self.rr_acc.val());
        // A flow set-up starts between READs at entry 0.
        if (self.s_ctx.active.val() && self.s_ctx.cnp_on_ce.val()) {
            self.cfg_fl.next = ((self.k_fl_valid.val() | self.k_fl_ce.val()) | self.k_fl_rdd.val());
        } else if self.s_ctx.active.val() {
            self.cfg_fl.next = (self.k_fl_valid.val() | self.k_fl_rdd.val());
        } else {
            self.cfg_fl.next = self.k_fl_rdd.val();
        }
        // ---- undo (see `reset`): armed at a payload packet's decision
        // with the context it read, disarmed when its last word is taken.
        self.undo_want.next = ((self.undo_v.q.val() && !self.last_taken.val() && self.reset.val())
            || self.undo_pending.q.val());
        self.undo_cancel.next = (self.s_ctx.valid.val()
            && !self.s_ctx.rd_only.val()
            && (self.s_ctx.flow.val() == self.undo_flow.q.val()));
        self.undo_do.next = (self.undo_want.val() && !self.s_ctx.valid.val());
        self.undo_pending.d.next =
            ((self.undo_want.val() && self.s_ctx.valid.val()) && !self.undo_cancel.val());
        if self.reset.val() {
            self.undo_v.d.next = false;
        } else if ((self.wen.val() && self.pay_write.val()) && self.len_nz.val()) {
            self.undo_v.d.next = true;
            self.undo_flow.d.next = self.flow.val();
            self.u_fl.d.next = self.c_fl.q.val();
            self.u_epsn.d.next = self.c_epsn.q.val();
            self.u_msn.d.next = self.c_msn.q.val();
            self.u_wva.d.next = self.c_wva.q.val();
            self.u_wleft.d.next = self.c_wleft.q.val();
            self.u_radr.d.next = self.c_radr.q.val();
            self.u_rpsn.d.next = self.c_rpsn.q.val();
        } else if self.last_taken.val() {
            self.undo_v.d.next = false;
        }
        // The requester's landing entry writes (`rd_only`), entry rd_idx mod 8.
        self.tab_w.next = ((bit_cast::<89, 1>(self.s_ctx.rd_idx.val().get_bit(3).into()) << 88)
            | (bit_cast::<89, 24>(self.s_ctx.rd_psn.val()) << 64)
            | bit_cast::<89, 64>(self.s_ctx.rd_addr.val()));
        self.ram_tab.write_address.next = ((bit_cast::<16, A>(self.s_ctx.flow.val()) << 3)
            | bit_cast::<16, 3>(self.s_ctx.rd_idx.val().get_bits::<3>(0)));
        self.ram_tab.write_data.next = self.tab_w.val();
        self.ram_tab.write_enable.next = (self.s_ctx.valid.val() && self.s_ctx.rd_only.val());
        if self.s_ctx.valid.val() {
            self.ram_fl.write_enable.next = !self.s_ctx.rd_only.val();
            self.ram_fl.write_address.next = self.s_ctx.flow.val();
            self.ram_fl.write_data.next = self.cfg_fl.val();
            self.rd_ix.write_enable.next = !self.s_ctx.rd_only.val();
            self.rd_ix.write_address.next = self.s_ctx.flow.val();
            self.rd_ix.write_data.next = self.cfg_fl.val().get_bits::<3>(4);
            self.ram_epsn.write_enable.next = !self.s_ctx.rd_only.val();
            self.ram_epsn.write_address.next = self.s_ctx.flow.val();
            self.ram_epsn.write_data.next = self.s_ctx.epsn.val();
            self.ram_msn.write_enable.next = !self.s_ctx.rd_only.val();
            self.ram_msn.write_address.next = self.s_ctx.flow.val();
            self.ram_msn.write_data.next = 0.into();
            self.ram_wva.write_enable.next = !self.s_ctx.rd_only.val();
            self.ram_wva.write_address.next = self.s_ctx.flow.val();
            self.ram_wva.write_data.next = 0.into();
            self.ram_wleft.write_enable.next = !self.s_ctx.rd_only.val();
            self.ram_wleft.write_address.next = self.s_ctx.flow.val();
            self.ram_wleft.write_data.next = 0.into();
            self.ram_radr.write_enable.next = !self.s_ctx.rd_only.val();
            self.ram_radr.write_address.next = self.s_ctx.flow.val();
            self.ram_radr.write_data.next = self.s_ctx.rd_addr.val();
            self.ram_rpsn.write_enable.next = !self.s_ctx.rd_only.val();
            self.ram_rpsn.write_address.next = self.s_ctx.flow.val();
            self.ram_rpsn.write_data.next = self.s_ctx.rd_psn.val();
        } else if self.undo_do.val() {
            self.ram_fl.write_enable.next = true;
            self.ram_fl.write_address.next = self.undo_flow.q.val();
            self.ram_fl.write_data.next = self.u_fl.q.val();
            self.rd_ix.write_enable.next = true;
            self.rd_ix.write_address.next = self.undo_flow.q.val();
            self.rd_ix.write_data.next = self.u_fl.q.val().get_bits::<3>(4);
            self.ram_epsn.write_enable.next = true;
            self.ram_epsn.write_address.next = self.undo_flow.q.val();
            self.ram_epsn.write_data.next = self.u_epsn.q.val();
            self.ram_msn.write_enable.next = true;
            self.ram_msn.write_address.next = self.undo_flow.q.val();
            self.ram_msn.write_data.next = self.u_msn.q.val();
            self.ram_wva.write_enable.next = true;
            self.ram_wva.write_address.next = self.undo_flow.q.val();
            self.ram_wva.write_data.next = self.u_wva.q.val();
            self.ram_wleft.write_enable.next = true;
            self.ram_wleft.write_address.next = self.undo_flow.q.val();
            self.ram_wleft.write_data.next = self.u_wleft.q.val();
            self.ram_radr.write_enable.next = true;
            self.ram_radr.write_address.next = self.undo_flow.q.val();
            self.ram_radr.write_data.next = self.u_radr.q.val();
            self.ram_rpsn.write_enable.next = true;
            self.ram_rpsn.write_address.next = self.undo_flow.q.val();
            self.ram_rpsn.write_data.next = self.u_rpsn.q.val();
        } else {
            self.ram_fl.write_enable.next = self.wen.val();
            self.ram_fl.write_address.next = self.flow.val();
            self.ram_fl.write_data.next = self.n_fl.val();
            self.rd_ix.write_enable.next = self.wen.val();
            self.rd_ix.write_address.next = self.flow.val();
            self.rd_ix.write_data.next = self.n_fl.val().get_bits::<3>(4);
            self.ram_epsn.write_enable.next = self.wen_acc.val();
            self.ram_epsn.write_address.next = self.flow.val();
            self.ram_epsn.write_data.next = self.epsn_new.val();
            self.ram_msn.write_enable.next = self.wen_acc.val();
            self.ram_msn.write_address.next = self.flow.val();
            self.ram_msn.write_data.next = self.msn_new.val();
            self.ram_wva.write_enable.next = self.wen_wva.val();
            self.ram_wva.write_address.next = self.flow.val();
            self.ram_wva.write_data.next = self.va_new.val();
            self.ram_wleft.write_enable.next = self.wen.val();
            self.ram_wleft.write_address.next = self.flow.val();
            self.ram_wleft.write_data.next = self.n_wleft.val();
            self.ram_radr.write_enable.next = self.wen_rd.val();
            self.ram_radr.write_address.next = self.flow.val();
            self.ram_radr.write_data.next = self.radr_new.val();
            self.ram_rpsn.write_enable.next = self.wen_rd.val();
            self.ram_rpsn.write_address.next = self.flow.val();
            self.ram_rpsn.write_data.next = self.rpsn_new.val();
        }

        self.rd_ix_in.write_enable.next = self.rd_ix.write_enable.val();
        self.rd_ix_in.write_address.next = self.rd_ix.write_address.val();
        self.rd_ix_in.write_data.next = self.rd_ix.write_data.val();

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
        // only while the skid is empty; it goes to the write register if
        // that is empty or taken this cycle, else to the skid, which
        // moves up when the write register's word is taken.
        if self.reset.val() {
            self.wr_v.d.next = false;
            self.wr2_v.d.next = false;
        } else if self.wr2_v.q.val() {
            if self.wr_take.val() {
                self.wr2_v.d.next = false;
                self.wr_addr_r.d.next = self.wr2_addr.q.val();
                self.wr_data_r.d.next = self.wr2_data.q.val();
                self.wr_strb_r.d.next = self.wr2_strb.q.val();
                self.wr_last.d.next = self.wr2_last.q.val();
            }
        } else if (self.is_paywr.val() && self.pay_hs.val()) {
            if (!self.wr_v.q.val() || self.wr_take.val()) {
                self.wr_v.d.next = true;
                self.wr_addr_r.d.next = self.pa.q.val();
                self.wr_data_r.d.next = self.s_axis_pay.tdata.val();
                self.wr_strb_r.d.next = self.s_axis_pay.tkeep.val();
                self.wr_last.d.next = self.s_axis_pay.tlast.val();
            } else {
                self.wr2_v.d.next = true;
                self.wr2_addr.d.next = self.pa.q.val();
                self.wr2_data.d.next = self.s_axis_pay.tdata.val();
                self.wr2_strb.d.next = self.s_axis_pay.tkeep.val();
                self.wr2_last.d.next = self.s_axis_pay.tlast.val();
            }
        } else if self.wr_take.val() {
            self.wr_v.d.next = false;
        }

        // ---- counters
        if self.reset.val() {
            self.c_unknown.d.next = 0.into();
            self.c_oos.d.next = 0.into();
            self.c_dup.d.next = 0.into();
            self.c_bad_psn.d.next = 0.into();
            self.c_accepted.d.next = 0.into();
            self.c_bad_va.d.next = 0.into();
            self.c_refused.d.next = 0.into();
            self.c_bad_op.d.next = 0.into();
        } else if self.go.val() {
            if self.o_bad.q.val() {
                self.c_bad_op.d.next = (self.c_bad_op.q.val() + 1);
            }
            if (!self.o_bad.q.val() && self.unk.val()) {
                self.c_unknown.d.next = (self.c_unknown.q.val() + 1);
            }
            if (self.r_oos.val() || self.rr_oos.val()) {
                self.c_oos.d.next = (self.c_oos.q.val() + 1);
            }
            if self.r_dup.val() {
                self.c_dup.d.next = (self.c_dup.q.val() + 1);
            }
            if self.r_far.val() {
                self.c_bad_psn.d.next = (self.c_bad_psn.q.val() + 1);
            }
            if ((self.r_badva.val() && !(self.mr_bad.val() || self.len_over.val()))
                || self.rr_badva.val())
            {
                self.c_bad_va.d.next = (self.c_bad_va.q.val() + 1);
            }
            if (self.r_badva.val() && (self.mr_bad.val() || self.len_over.val())) {
                self.c_refused.d.next = (self.c_refused.q.val() + 1);
            }
            if (self.r_acc.val() || self.rr_acc.val() || self.r_other.val()) {
                self.c_accepted.d.next = (self.c_accepted.q.val() + 1);
            }
        }

        // ---- outputs (fields zero while not valid)
        self.m_wr.valid.next = self.wr_v.q.val();
        if self.wr_v.q.val() {
            self.m_wr.addr.next = self.wr_addr_r.q.val();
            self.m_wr.data.next = self.wr_data_r.q.val();
            self.m_wr.strb.next = self.wr_strb_r.q.val();
        } else {
            self.m_wr.addr.next = 0.into();
            self.m_wr.data.next = 0.into();
            self.m_wr.strb.next = 0.into();
        }
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
        self.tlm_ack.next = (self.ack_v.q.val() && self.m_tlm.q.val());
        self.m_ack.tlm.present.next = self.tlm_ack.val();
        if self.tlm_ack.val() {
            self.m_ack.tlm.hdr.next = self.m_hdr.q.val();
            self.m_ack.tlm.hop0.next = self.m_hop0.q.val();
            self.m_ack.tlm.hop1.next = self.m_hop1.q.val();
            self.m_ack.tlm.hop2.next = self.m_hop2.q.val();
            self.m_ack.tlm.hop3.next = self.m_hop3.q.val();
            self.m_ack.tlm.hop4.next = self.m_hop4.q.val();
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
            self.m_cc.psn.next = self.m_psn.q.val();
            self.m_cc.aeth.next = self.m_aeth.q.val();
            self.m_cc.opcode.next = self.m_opcode.q.val();
        } else {
            self.m_cc.flow.next = 0.into();
            self.m_cc.psn.next = 0.into();
            self.m_cc.aeth.next = 0.into();
            self.m_cc.opcode.next = 0.into();
        }
        self.tlm_cc.next = (self.cc_v.q.val() && self.m_tlm.q.val());
        self.m_cc.tlm.present.next = self.tlm_cc.val();
        if self.tlm_cc.val() {
            self.m_cc.tlm.hdr.next = self.m_hdr.q.val();
            self.m_cc.tlm.hop0.next = self.m_hop0.q.val();
            self.m_cc.tlm.hop1.next = self.m_hop1.q.val();
            self.m_cc.tlm.hop2.next = self.m_hop2.q.val();
            self.m_cc.tlm.hop3.next = self.m_hop3.q.val();
            self.m_cc.tlm.hop4.next = self.m_hop4.q.val();
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
            self.m_nak.psn.next = self.m_psn.q.val();
            self.m_nak.syndrome.next = self.m_aeth.q.val().get_bits::<8>(24);
        } else {
            self.m_nak.flow.next = 0.into();
            self.m_nak.psn.next = 0.into();
            self.m_nak.syndrome.next = 0.into();
        }
        self.m_rdreq.valid.next = self.rdreq_v.q.val();
        if self.rdreq_v.q.val() {
            self.m_rdreq.flow.next = self.flow.val();
            self.m_rdreq.psn.next = self.m_psn.q.val();
            self.m_rdreq.va.next = self.m_va.q.val();
            self.m_rdreq.rkey.next = self.m_rkey.q.val();
            self.m_rdreq.len.next = self.m_dlen.q.val();
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
        self.m_stats.unknown_flow.next = self.c_unknown.q.val();
        self.m_stats.oos.next = self.c_oos.q.val();
        self.m_stats.dup.next = self.c_dup.q.val();
        self.m_stats.bad_psn.next = self.c_bad_psn.q.val();
        self.m_stats.accepted.next = self.c_accepted.q.val();
        self.m_stats.bad_va.next = self.c_bad_va.q.val();
        self.m_stats.refused.next = self.c_refused.q.val();
        self.m_stats.bad_op.next = self.c_bad_op.q.val();
    }
}
