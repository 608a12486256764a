//! The register decoder: one register access (`s_req`, from
//! [`crate::hostif::axil_slave`]) against the map of
//! `nic_spec::hostif::map`, answered on `m_resp`.
//!
//! What it holds and what it forwards:
//! - `ID`, `VERSION`, `CAPS` (read-only constants; `CAPS` =
//!   `nic_spec::hostif::caps(A, Q, C, H)`, H the hops of telemetry the
//!   core's CC module tracks) and `SCRATCH`;
//! - `CONTROL`: writing bit 0 as 1 (its lane strobed) starts a soft
//!   reset: `soft_reset` is high for `SOFT_RESET_CYCLES` cycles from the
//!   cycle the decoder answers the write (`m_resp.valid`; a new write
//!   starts the count again); a read returns bit 0 = `soft_reset`. The
//!   decoder itself is not reset by it. Writing bit 1 as 1 starts a
//!   *full reset* instead (`nic_spec::hostif::full_reset`): SCRATCH, the
//!   staged send-queue registers and the counters 0, then a sweep of
//!   writes the decoder makes itself, each through the state path a
//!   host's write of it takes (`Decode` → `Shadow` → `Cfg` → `CfgWait`
//!   for the core window, `Sub` for a CQ register), with no answer on
//!   `m_resp` and no counting: the staged per-flow words and COMMIT's 0
//!   (COMMIT's high word, its active bit, first), a COMMIT of
//!   every flow inactive (2^A − 1 down to 0, `m_commit` with the staged
//!   registers 0), every core-window word 0 (high word first), each CQ's
//!   `CQ_OPS`. The CONTROL write is answered (OKAY, counted in `writes`)
//!   after the last, and a soft reset starts with the answer; no request
//!   is taken meanwhile. (The pipelines are not held in reset during the
//!   sweep: a COMMIT waits for the requester, which may wait for the Tx);
//! - the core window `CORE`: core register r (`nic_spec::regs`) as a low
//!   word at `CORE + 8r` and, for registers wider than 32 bits, a high
//!   word at `+4`. Writing the high word holds it in a shadow RAM;
//!   writing the low word sends the 64-bit value to the core (`m_cfg`,
//!   `CfgWrite`) and answers once the core is idle again (`m_cfg.ready`
//!   seen high after the transfer: a COMMIT's copy into the flow's
//!   contexts is done before the answer). A read returns the shadow: the
//!   value last written. A COMMIT (low word) of a flow id ≥ 2^A is
//!   refused (SLVERR); otherwise it also sends the staged send-queue
//!   registers to the send-queue engine (`m_commit`, `SqCommit`);
//! - the staged send-queue registers `FLOW_SQ_BASE_LO/HI`,
//!   `FLOW_SQ_LOG_SIZE`, `FLOW_CQ` (clamped as the map says);
//! - the counter pages `STATS` (read-only): page p is counter record
//!   `nic_spec::hostif::STATS_PAGES[p]`, read through its
//!   [`crate::hostif::stats_sel`] block;
//! - the completion-queue registers `CQ` → `m_cq` (address: offset from
//!   `CQ`), answered by the CQ engine on `s_cq`;
//! - the doorbells `SQ_DB` → `m_sq` (address: the flow), answered by the
//!   send-queue engine on `s_sq`.
//!
//! Addresses select a 32-bit register by their word (bits 15..2): a read
//! returns the word whatever its byte offset; a write's strobes select
//! the bytes (the AXI4-Lite way of a narrow write: address 0x09 with
//! `wstrb` 0b0010 writes byte 1 of the word at 0x08).
//!
//! Rules, in this order: a misaligned write (a strobe on a lane below the
//! address's byte offset) is refused (SLVERR); an
//! address with no register (past this NIC's flows, CQs or a counter
//! page's fields, a high word of a 32-bit core register, a hole) answers
//! DECERR; a write to a read-only register (`ID`, `VERSION`, `CAPS`,
//! counters, a CQ's `PI`) is refused (SLVERR) and counted in
//! `ro_writes`; a write with no strobe bit changes nothing (OKAY);
//! otherwise byte lanes whose `wstrb` bit is clear keep the register's
//! bytes. Nothing refused changes anything.
//!
//! Ports (clock `clock`): `reset` (synchronous: idle, scratch and staged
//! registers 0, a soft reset or a full reset's sweep stopped where it
//! is, unanswered; the shadow RAM keeps its contents),
//! `soft_reset` (out), `s_req` (`RegReq`,
//! ready in `Idle`), `m_resp` (`RegResp`, strobe), `m_cfg` (`CfgWrite`),
//! `m_commit` (`SqCommit`, strobe), `m_sq`/`s_sq` and `m_cq`/`s_cq`
//! (`RegReq`/`RegResp`), `s_stats_*` (the eleven counter records),
//! counters `reads`, `writes` (answered), `slverr`, `decerr`,
//! `ro_writes` (32 bits, wrapping).
//!
//! Timing: an access is answered 2 cycles after it is taken (fixed
//! registers, staged registers, refusals), 3 (counters: the counter is
//! read as `Decode` ends into a register per page, `page_q`; core
//! window reads and high words), 4 plus the core's commit (core low words), or
//! 2 plus the owner's answer (CQ registers, doorbells). A full reset
//! takes the sum of its writes' times: one cycle for a word that is no
//! register, the times above for the others (measured in
//! `docs/driver.md` §8). The address is decoded on its way into
//! `q_addr` (a request's, or the sweep's next write's, chosen by
//! registers only; the sweep's next write is itself held in registers,
//! computed a write ahead), and the decode is registered with it by a block of
//! its own, [`CsrDecode`] (`csr_decode.rs`, with its twin and test): the
//! decisions read flags, not compares of the address (timing rule R4). The shadow
//! word is registered as it is read in `Decode`, so `Shadow`'s merge
//! starts at a flip-flop (R3).
//!
//! Golden twin: `nic_golden::hostif::csr`.

use crate::cc::{CcStatsSink, DcqcnStatsSink, NpStatsSink};
use crate::hostif::csr_decode::CsrDecode;
use crate::hostif::stats_sel::*;
use crate::hostif::{
    HostIfStatsSink, RegReqSink, RegReqSource, RegRespSink, RegRespSource, SqCommitSource,
};
use crate::mem::LutRam;
use crate::record::host_core::{CfgWriteSource, CoreStatsSink};
use crate::roce::{CnmStatsSink, ReqStatsSink, RxDispatchStatsSink, RxParseStatsSink, TxStatsSink};
use crate::sched::SchedStatsSink;
use nic_spec::hostif::{self, full_reset, map, resp};
use rust_hdl::prelude::*;
use smart_default::SmartDefault;

#[derive(Copy, Clone, PartialEq, Debug, LogicState)]
pub enum CsrState {
    Idle,
    Decode,
    Shadow,
    Cfg,
    CfgWait,
    Sub,
    Stats,
}

/// The part of a full reset's sweep (`nic_spec::hostif::full_reset`).
#[derive(Copy, Clone, PartialEq, Debug, LogicState)]
pub enum SweepPhase {
    StagedWords,
    Flows,
    CoreWords,
    CqRegs,
}

#[derive(LogicBlock, SmartDefault)]
pub struct Csr<const A: usize, const Q: usize, const C: usize, const H: usize = 5> {
    // The parameter check, when the block is built.
    #[default({
        assert!((1..=12).contains(&A), "Csr: 1 <= A <= 12 (the doorbell window)");
        assert!(C <= 4, "Csr: at most 16 completion queues (the CQ window)");
        assert_eq!(map::STATS % 0x1000, 0, "counter pages: page and index are address bits");
        Default::default()
    })]
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    /// High while a soft reset (`CONTROL` bit 0) runs.
    pub soft_reset: Signal<Out, Bit>,
    pub s_req: RegReqSink,
    pub m_resp: RegRespSource,
    pub m_cfg: CfgWriteSource,
    pub m_commit: SqCommitSource,
    pub m_sq: RegReqSource,
    pub s_sq: RegRespSink,
    pub m_cq: RegReqSource,
    pub s_cq: RegRespSink,
    pub s_stats_parse: RxParseStatsSink,
    pub s_stats_dispatch: RxDispatchStatsSink,
    pub s_stats_tx: TxStatsSink,
    pub s_stats_sched: SchedStatsSink,
    pub s_stats_cc: CcStatsSink,
    pub s_stats_req: ReqStatsSink,
    pub s_stats_core: CoreStatsSink,
    pub s_stats_host: HostIfStatsSink,
    pub s_stats_dcqcn: DcqcnStatsSink,
    pub s_stats_np: NpStatsSink,
    pub s_stats_cnm: CnmStatsSink,
    pub reads: Signal<Out, Bits<32>>,
    pub writes: Signal<Out, Bits<32>>,
    pub slverr: Signal<Out, Bits<32>>,
    pub decerr: Signal<Out, Bits<32>>,
    pub ro_writes: Signal<Out, Bits<32>>,
    state: DFF<CsrState>,
    q_wr: DFF<Bit>,
    q_addr: DFF<Bits<16>>,
    q_wdata: DFF<Bits<32>>,
    q_strb: DFF<Bits<4>>,
    resp_v: DFF<Bit>,
    resp_d: DFF<Bits<32>>,
    resp_c: DFF<Bits<2>>,
    scratch: DFF<Bits<32>>,
    /// Cycles of soft reset left.
    soft_left: DFF<Bits<4>>,
    /// A full reset's sweep runs. `sweep_phase` and `sweep_index` (the
    /// core-window word, flow, or CQ · 8 + CQ_OPS entry) name the write
    /// after the one in flight, and `sweep_addr_q`, `sweep_data_q` hold
    /// its address and data, so the write launched from an answer comes
    /// from registers (timing rule R4); `sweep_last`: the write in
    /// flight is the sweep's last.
    sweep: DFF<Bit>,
    sweep_phase: DFF<SweepPhase>,
    sweep_index: DFF<Bits<16>>,
    sweep_addr_q: DFF<Bits<16>>,
    sweep_data_q: DFF<Bits<32>>,
    sweep_last: DFF<Bit>,
    /// The decode of `q_addr`, registered with it: computed from the
    /// address it loads (`addr_next`), so no compare of the address sits
    /// between `q_addr` and a decision (timing rule R4). At most one of
    /// its sources `a_*`, `g_*` is set, so the answer is an OR of them,
    /// not a chain of the rules in order.
    decode: CsrDecode<A, C>,
    /// `m_cq.addr` and `m_sq.addr`, registered (their values for the
    /// `q_addr` of 0 at power-up, as the twin computes them).
    sq_base_lo: DFF<Bits<32>>,
    sq_base_hi: DFF<Bits<32>>,
    sq_log: DFF<Bits<4>>,
    sq_cq: DFF<Bits<8>>,
    /// The core window's values (64 words of 64 bits), in LUT RAM: read
    /// in the cycle it is needed, so no block RAM's clock-to-out sits
    /// before the merge (timing rule R3), and no DP16KD spent on 4 Kib.
    shadow: LutRam<Bits<64>, 6>,
    /// The shadow word at `core_r`, registered: read in `Decode` (the
    /// address is `core_r`'s from the request's acceptance, and no write
    /// comes between), used in `Shadow`, so the merge starts at a
    /// flip-flop, not at the LUT RAM's read (R3).
    shadow_q: DFF<Bits<64>>,
    /// Each page's counter that `stats_sel` names, registered every
    /// cycle: a counter read answers a cycle after `Decode` (`Stats`)
    /// with the page's, so the selects of the counters spread over the
    /// NIC end at a flip-flop each, and only the 11:1 page select is left
    /// before the answer (R1).
    #[default(std::array::from_fn(|_| Default::default()))]
    page_q: [DFF<Bits<32>>; 11],
    cfg_v: DFF<Bit>,
    cfg_addr: DFF<Bits<16>>,
    cfg_data: DFF<Bits<64>>,
    commit_v: DFF<Bit>,
    commit_flow: DFF<Bits<16>>,
    commit_active: DFF<Bit>,
    sub_v: DFF<Bit>,
    sub_cq: DFF<Bit>,
    n_reads: DFF<Bits<32>>,
    n_writes: DFF<Bits<32>>,
    n_slverr: DFF<Bits<32>>,
    n_decerr: DFF<Bits<32>>,
    n_ro: DFF<Bits<32>>,
    sel_parse: RxParseStatsSel,
    sel_dispatch: RxDispatchStatsSel,
    sel_tx: TxStatsSel,
    sel_sched: SchedStatsSel,
    sel_cc: CcStatsSel,
    sel_req: ReqStatsSel,
    sel_core: CoreStatsSel,
    sel_host: HostIfStatsSel,
    sel_dcqcn: DcqcnStatsSel,
    sel_np: NpStatsSel,
    sel_cnm: CnmStatsSel,
    #[default(Constant::new(Bits::<32>::from(hostif::ID as u64)))]
    k_id: Constant<Bits<32>>,
    #[default(Constant::new(Bits::<32>::from(hostif::VERSION as u64)))]
    k_version: Constant<Bits<32>>,
    #[default(Constant::new(Bits::<32>::from(
        hostif::caps(A as u32, Q as u32, C as u32, H as u32) as u64
    )))]
    k_caps: Constant<Bits<32>>,
    #[default(Constant::new(Bits::<4>::from(hostif::SOFT_RESET_CYCLES as u64)))]
    k_soft_cycles: Constant<Bits<4>>,
    #[default(Constant::new(Bits::<32>::from(hostif::control::FULL_RESET as u64)))]
    k_full_reset: Constant<Bits<32>>,
    #[default(Constant::new(Bits::<16>::from((full_reset::CORE_WORDS as u16 - 1) as u64)))]
    k_core_words_last: Constant<Bits<16>>,
    #[default(Constant::new(Bits::<16>::from((full_reset::STAGED_WORDS.0 as u16) as u64)))]
    k_staged_first: Constant<Bits<16>>,
    /// The sweep's first write: the high word of the first staged register.
    #[default(Constant::new(Bits::<16>::from(
        (map::CORE + ((full_reset::STAGED_WORDS.0 as u16 ^ 1) << 2)) as u64
    )))]
    k_sweep_first: Constant<Bits<16>>,
    /// The sweep's second write: the first staged register's low word.
    #[default(Constant::new(Bits::<16>::from((full_reset::STAGED_WORDS.0 as u16 + 1) as u64)))]
    k_staged_second: Constant<Bits<16>>,
    #[default(Constant::new(Bits::<16>::from(
        (map::CORE + (((full_reset::STAGED_WORDS.0 as u16 + 1) ^ 1) << 2)) as u64
    )))]
    k_sweep_second: Constant<Bits<16>>,
    #[default(Constant::new(Bits::<16>::from((full_reset::STAGED_WORDS.1 as u16) as u64)))]
    k_staged_last: Constant<Bits<16>>,
    #[default(Constant::new(Bits::<16>::from((1u64 << A) - 1)))]
    k_flows_last: Constant<Bits<16>>,
    #[default(Constant::new(Bits::<16>::from( ((full_reset::CQ_OPS.len() as u64) << C) - 1, )))]
    k_cq_ops_last: Constant<Bits<16>>,
    #[default(Constant::new(Bits::<16>::from((map::CORE + 8 * nic_spec::regs::COMMIT) as u64)))]
    k_commit_word: Constant<Bits<16>>,
    #[default(full_reset::CQ_OPS.map(|(r, _)| Constant::new(Bits::<16>::from(r as u64))))]
    k_cq_op_reg: [Constant<Bits<16>>; 8],
    #[default(full_reset::CQ_OPS .map(|(_, v)| Constant::new(Bits::<32>::from(v as u64))))]
    k_cq_op_data: [Constant<Bits<32>>; 8],
    #[default(std::array::from_fn(|i| Constant::new(Bits::<3>::from(i as u64))))]
    k_cq_op_index: [Constant<Bits<3>>; 8],
    #[default(Constant::new(Bits::<16>::from(map::CORE as u64)))]
    k_core: Constant<Bits<16>>,
    #[default(Constant::new(Bits::<16>::from(map::CQ as u64)))]
    k_cq: Constant<Bits<16>>,
    #[default(Constant::new(Bits::<6>::from(nic_spec::regs::COMMIT as u64)))]
    k_commit: Constant<Bits<6>>,
    /// The bits of a flow id at or above 2^A: a COMMIT with one set names no flow.
    #[default(Constant::new(Bits::<32>::from(!((1u64 << A) - 1) & 0xFFFF_FFFF)))]
    k_flows_above: Constant<Bits<32>>,
    #[default(Constant::new(Bits::<8>::from((1u64 << C) - 1)))]
    k_cq_mask: Constant<Bits<8>>,
    #[default(Constant::new(Bits::<32>::from(hostif::MAX_LOG_SIZE as u64)))]
    k_log_max: Constant<Bits<32>>,
    #[default(Constant::new(Bits::<2>::from(resp::OKAY as u64)))]
    k_okay: Constant<Bits<2>>,
    #[default(Constant::new(Bits::<2>::from(resp::SLVERR as u64)))]
    k_slverr: Constant<Bits<2>>,
    #[default(Constant::new(Bits::<2>::from(resp::DECERR as u64)))]
    k_decerr: Constant<Bits<2>>,
    #[default([0, 1, 2, 3].map(|i| Constant::new(Bits::<32>::from(0xFFu64 << (8 * i)))))]
    k_lane: [Constant<Bits<32>>; 4],
    #[default(Constant::new(Bits::<32>::from(0xFFFF_FFE0u64)))]
    k_sq_align: Constant<Bits<32>>,
    #[default(Constant::new(Bits::<64>::from(0xFFFF_FFFF_0000_0000u64)))]
    k_hi_half: Constant<Bits<64>>,
    #[default(Constant::new(Bits::<64>::from(0xFFFF_FFFFu64)))]
    k_lo_half: Constant<Bits<64>>,
    #[default(std::array::from_fn(|i| Constant::new(Bits::<4>::from(i as u64))))]
    k_page: [Constant<Bits<4>>; 11],
    /// Each page's number of counters (its record's fields).
    // The address `q_addr` loads, and its decode.
    addr_load: Signal<Local, Bit>,
    addr_next: Signal<Local, Bits<16>>,
    // From the latched request.
    stats_data: Signal<Local, Bits<32>>,
    /// The loading request's write flag, strobes and misalignment.
    wr_next: Signal<Local, Bit>,
    strb_next: Signal<Local, Bits<4>>,
    /// A write with no strobe (changes nothing).
    /// Some register is at the loading address.
    /// The data `Decode` answers (the OR of the `a_*` sources).
    dec_data: Signal<Local, Bits<32>>,
    #[default(Constant::new(Bits::<32>::from(1u64)))]
    k_one: Constant<Bits<32>>,
    mask: Signal<Local, Bits<32>>,
    old_w: Signal<Local, Bits<32>>,
    merged: Signal<Local, Bits<32>>,
    new_cfg: Signal<Local, Bits<64>>,
    /// The COMMIT flow id being written has a bit at or above A.
    commit_bad: Signal<Local, Bit>,
    respond: Signal<Local, Bit>,
    /// The registers a reset and a full reset both clear (SCRATCH, the
    /// staged send-queue registers, the counters): one list for both.
    clear_regs: Signal<Local, Bit>,
    resp_code: Signal<Local, Bits<2>>,
    resp_data: Signal<Local, Bits<32>>,
    // The write after the sweep's next (`sweep_phase`, `sweep_index`).
    sweep_next_phase: Signal<Local, SweepPhase>,
    sweep_next_index: Signal<Local, Bits<16>>,
    sweep_done: Signal<Local, Bit>,
    sweep_addr: Signal<Local, Bits<16>>,
    sweep_data: Signal<Local, Bits<32>>,
}

impl<const A: usize, const Q: usize, const C: usize, const H: usize> Logic for Csr<A, Q, C, H> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            shadow_q,
            state,
            q_wr,
            q_addr,
            q_wdata,
            q_strb,
            resp_v,
            resp_d,
            resp_c,
            scratch,
            soft_left,
            sweep,
            sweep_phase,
            sweep_index,
            sweep_addr_q,
            sweep_data_q,
            sweep_last,
            sq_base_lo,
            sq_base_hi,
            sq_log,
            sq_cq,
            cfg_v,
            cfg_addr,
            cfg_data,
            commit_v,
            commit_flow,
            commit_active,
            sub_v,
            sub_cq,
            n_reads,
            n_writes,
            n_slverr,
            n_decerr,
            n_ro
        );
        clock!(self, clock, shadow, decode);
        // ---- Take a request.
        self.addr_load.next = false;
        self.s_req.ready.next = (self.state.q.val() == CsrState::Idle);
        if (self.s_req.valid.val() && (self.state.q.val() == CsrState::Idle)) {
            self.q_wr.d.next = self.s_req.write.val();
            self.q_addr.d.next = self.s_req.addr.val();
            self.addr_load.next = true;
            self.q_wdata.d.next = self.s_req.wdata.val();
            self.q_strb.d.next = self.s_req.wstrb.val();
            self.state.d.next = CsrState::Decode;
        }
        // ---- A full reset's sweep: the write after its next one (the
        // next's is registered), and whether its next one is its last.
        self.sweep_next_phase.next = self.sweep_phase.q.val();
        self.sweep_next_index.next = (self.sweep_index.q.val() + 1);
        self.sweep_done.next = false;
        match self.sweep_phase.q.val() {
            SweepPhase::StagedWords => {
                if (self.sweep_index.q.val() == self.k_staged_last.val()) {
                    self.sweep_next_phase.next = SweepPhase::Flows;
                    self.sweep_next_index.next = self.k_flows_last.val();
                }
            }
            SweepPhase::Flows => {
                self.sweep_next_index.next = (self.sweep_index.q.val() - 1);
                if !self.sweep_index.q.val().any() {
                    self.sweep_next_phase.next = SweepPhase::CoreWords;
                    self.sweep_next_index.next = 0.into();
                }
            }
            SweepPhase::CoreWords => {
                if (self.sweep_index.q.val() == self.k_core_words_last.val()) {
                    self.sweep_next_phase.next = SweepPhase::CqRegs;
                    self.sweep_next_index.next = 0.into();
                }
            }
            SweepPhase::CqRegs => {
                if (self.sweep_index.q.val() == self.k_cq_ops_last.val()) {
                    self.sweep_done.next = true;
                }
            }
        }
        // Core words: each register's high word (odd word) first.
        self.sweep_addr.next = (self.k_core.val() + ((self.sweep_next_index.val() ^ 1) << 2));
        self.sweep_data.next = 0.into();
        match self.sweep_next_phase.val() {
            SweepPhase::StagedWords => {}
            SweepPhase::CoreWords => {}
            SweepPhase::Flows => {
                self.sweep_addr.next = self.k_commit_word.val();
                self.sweep_data.next = bit_cast::<32, 16>(self.sweep_next_index.val());
            }
            SweepPhase::CqRegs => {
                self.sweep_addr.next =
                    (self.k_cq.val() + ((self.sweep_next_index.val() >> 3) << 5));
                for j in 0..8 {
                    if (self.sweep_next_index.val().get_bits::<3>(0) == self.k_cq_op_index[j].val())
                    {
                        self.sweep_addr.next = (self.k_cq.val()
                            + (((self.sweep_next_index.val() >> 3) << 5)
                                + self.k_cq_op_reg[j].val()));
                        self.sweep_data.next = self.k_cq_op_data[j].val();
                    }
                }
            }
        }
        // ---- The address `q_addr` loads next, decoded before it is
        // latched: a request's (in `Idle`), the sweep's next write (while
        // a sweep runs) or its first (the CONTROL write that starts it).
        // The choice depends on registers only; whether it loads
        // (`addr_load`) is decided where it loads.
        self.addr_next.next = self.k_sweep_first.val();
        if (self.state.q.val() == CsrState::Idle) {
            self.addr_next.next = self.s_req.addr.val();
        } else if self.sweep.q.val() {
            self.addr_next.next = self.sweep_addr_q.q.val();
        }
        // The counters: one selector per page.
        self.sel_parse.sel.next = self.decode.stats_sel.val();
        self.sel_dispatch.sel.next = self.decode.stats_sel.val();
        self.sel_tx.sel.next = self.decode.stats_sel.val();
        self.sel_sched.sel.next = self.decode.stats_sel.val();
        self.sel_cc.sel.next = self.decode.stats_sel.val();
        self.sel_req.sel.next = self.decode.stats_sel.val();
        self.sel_core.sel.next = self.decode.stats_sel.val();
        self.sel_host.sel.next = self.decode.stats_sel.val();
        self.sel_dcqcn.sel.next = self.decode.stats_sel.val();
        self.sel_np.sel.next = self.decode.stats_sel.val();
        self.sel_cnm.sel.next = self.decode.stats_sel.val();
        RxParseStatsSink::link(&mut self.s_stats_parse, &mut self.sel_parse.s_stats);
        RxDispatchStatsSink::link(&mut self.s_stats_dispatch, &mut self.sel_dispatch.s_stats);
        TxStatsSink::link(&mut self.s_stats_tx, &mut self.sel_tx.s_stats);
        SchedStatsSink::link(&mut self.s_stats_sched, &mut self.sel_sched.s_stats);
        CcStatsSink::link(&mut self.s_stats_cc, &mut self.sel_cc.s_stats);
        ReqStatsSink::link(&mut self.s_stats_req, &mut self.sel_req.s_stats);
        CoreStatsSink::link(&mut self.s_stats_core, &mut self.sel_core.s_stats);
        HostIfStatsSink::link(&mut self.s_stats_host, &mut self.sel_host.s_stats);
        DcqcnStatsSink::link(&mut self.s_stats_dcqcn, &mut self.sel_dcqcn.s_stats);
        NpStatsSink::link(&mut self.s_stats_np, &mut self.sel_np.s_stats);
        CnmStatsSink::link(&mut self.s_stats_cnm, &mut self.sel_cnm.s_stats);
        // Each page's counter, registered.
        self.page_q[0].d.next = self.sel_parse.data.val();
        self.page_q[1].d.next = self.sel_dispatch.data.val();
        self.page_q[2].d.next = self.sel_tx.data.val();
        self.page_q[3].d.next = self.sel_sched.data.val();
        self.page_q[4].d.next = self.sel_cc.data.val();
        self.page_q[5].d.next = self.sel_req.data.val();
        self.page_q[6].d.next = self.sel_core.data.val();
        self.page_q[7].d.next = self.sel_host.data.val();
        self.page_q[8].d.next = self.sel_dcqcn.data.val();
        self.page_q[9].d.next = self.sel_np.data.val();
        self.page_q[10].d.next = self.sel_cnm.data.val();
        for p in 0..11 {
            self.page_q[p].clock.next = self.clock.val();
        }
        // The page's counter: an OR of the registered pages, at most one
        // of them chosen (an OR tree, not a priority chain).
        self.stats_data.next = 0.into();
        for p in 0..11 {
            if (self.decode.stats_page.val() == self.k_page[p].val()) {
                self.stats_data.next = (self.stats_data.val() | self.page_q[p].q.val());
            }
        }
        // Byte lanes: a strobed lane takes the new byte.
        self.mask.next = 0.into();
        for i in 0..4 {
            if self.q_strb.q.val().get_bit(i) {
                self.mask.next = (self.mask.val() | self.k_lane[i].val());
            }
        }
        // The register the merge starts from (shadow half in `Shadow`).
        self.old_w.next = self.scratch.q.val();
        if (self.state.q.val() == CsrState::Shadow) {
            self.old_w.next = self.shadow_q.q.val().get_bits::<32>(0);
            if self.decode.core_hi.val() {
                self.old_w.next = self.shadow_q.q.val().get_bits::<32>(32);
            }
        } else if self.decode.is_control.val() {
            self.old_w.next = 0.into();
        } else if self.decode.is_base_lo.val() {
            self.old_w.next = self.sq_base_lo.q.val();
        } else if self.decode.is_base_hi.val() {
            self.old_w.next = self.sq_base_hi.q.val();
        } else if self.decode.is_log.val() {
            self.old_w.next = bit_cast::<32, 4>(self.sq_log.q.val());
        } else if self.decode.is_flow_cq.val() {
            self.old_w.next = bit_cast::<32, 8>(self.sq_cq.q.val());
        }
        self.merged.next =
            ((self.old_w.val() & !self.mask.val()) | (self.q_wdata.q.val() & self.mask.val()));
        self.new_cfg.next = ((self.shadow_q.q.val() & self.k_hi_half.val())
            | bit_cast::<64, 32>(self.merged.val()));
        if self.decode.core_hi.val() {
            self.new_cfg.next = ((self.shadow_q.q.val() & self.k_lo_half.val())
                | (bit_cast::<64, 32>(self.merged.val()) << 32));
        }
        // The COMMIT check: a strobed byte's bit at or above A. The
        // shadow's COMMIT low word is always below 2^A (a COMMIT naming no
        // flow is refused and not kept; a high-word write keeps the low
        // word), so the bytes it keeps never name one: the check reads
        // flops, not the shadow.
        self.commit_bad.next =
            (self.q_wdata.q.val() & self.mask.val() & self.k_flows_above.val()).any();
        // The data `Decode` answers: an OR of the sources, at most one set.
        self.dec_data.next = 0.into();
        if self.decode.a_id.val() {
            self.dec_data.next = (self.dec_data.val() | self.k_id.val());
        }
        if self.decode.a_version.val() {
            self.dec_data.next = (self.dec_data.val() | self.k_version.val());
        }
        if self.decode.a_caps.val() {
            self.dec_data.next = (self.dec_data.val() | self.k_caps.val());
        }
        if self.decode.a_scratch.val() {
            self.dec_data.next = (self.dec_data.val() | self.scratch.q.val());
        }
        if (self.decode.a_control.val() && self.soft_left.q.val().any()) {
            self.dec_data.next = (self.dec_data.val() | self.k_one.val());
        }
        if self.decode.a_base_lo.val() {
            self.dec_data.next = (self.dec_data.val() | self.sq_base_lo.q.val());
        }
        if self.decode.a_base_hi.val() {
            self.dec_data.next = (self.dec_data.val() | self.sq_base_hi.q.val());
        }
        if self.decode.a_log.val() {
            self.dec_data.next = (self.dec_data.val() | bit_cast::<32, 4>(self.sq_log.q.val()));
        }
        if self.decode.a_flow_cq.val() {
            self.dec_data.next = (self.dec_data.val() | bit_cast::<32, 8>(self.sq_cq.q.val()));
        }
        // ---- The decision of each state.
        self.respond.next = false;
        self.clear_regs.next = false;
        self.resp_code.next = self.k_okay.val();
        self.resp_data.next = 0.into();
        self.shadow.read_address.next = self.decode.core_r.val();
        self.shadow.write_address.next = self.decode.core_r.val();
        self.shadow.write_data.next = self.new_cfg.val();
        self.shadow.write_enable.next = false;
        self.shadow_q.d.next = self.shadow.read_data.val();
        self.commit_v.d.next = false;
        // Soft reset: counts down (a CONTROL write below starts it again).
        if self.soft_left.q.val().any() {
            self.soft_left.d.next = (self.soft_left.q.val() - 1);
        }
        match self.state.q.val() {
            CsrState::Idle => {}
            CsrState::Decode => {
                // The rules of the module's doc, decided as the address
                // loaded: the flags name at most one source.
                self.respond.next = !(self.decode.g_core.val()
                    || self.decode.g_cq.val()
                    || self.decode.g_db.val()
                    || self.decode.a_stats.val());
                if self.decode.a_stats.val() {
                    self.state.d.next = CsrState::Stats;
                }
                self.resp_data.next = self.dec_data.val();
                if self.decode.c_slverr.val() {
                    self.resp_code.next = self.k_slverr.val();
                }
                if self.decode.c_decerr.val() {
                    self.resp_code.next = self.k_decerr.val();
                }
                if self.decode.c_ro.val() {
                    self.n_ro.d.next = (self.n_ro.q.val() + 1);
                }
                if (self.decode.a_scratch.val() && self.q_wr.q.val()) {
                    self.scratch.d.next = self.merged.val();
                }
                if (self.decode.a_control.val()
                    && self.q_wr.q.val()
                    && (self.merged.val() & self.k_full_reset.val()).any())
                {
                    // A full reset: the sweep's first write (the high
                    // word of the first staged register) comes next.
                    self.respond.next = false;
                    self.sweep.d.next = true;
                    self.sweep_phase.d.next = SweepPhase::StagedWords;
                    self.sweep_index.d.next = self.k_staged_second.val();
                    self.sweep_addr_q.d.next = self.k_sweep_second.val();
                    self.sweep_data_q.d.next = 0.into();
                    self.sweep_last.d.next = false;
                    self.q_addr.d.next = self.k_sweep_first.val();
                    self.addr_load.next = true;
                    self.q_wdata.d.next = 0.into();
                    self.q_strb.d.next = 0xF.into();
                    self.state.d.next = CsrState::Decode;
                    self.clear_regs.next = true;
                } else if (self.decode.a_control.val()
                    && self.q_wr.q.val()
                    && self.merged.val().get_bit(0))
                {
                    self.soft_left.d.next = self.k_soft_cycles.val();
                }
                if self.decode.g_core.val() {
                    self.state.d.next = CsrState::Shadow;
                }
                if (self.decode.a_base_lo.val() && self.q_wr.q.val()) {
                    self.sq_base_lo.d.next = (self.merged.val() & self.k_sq_align.val());
                }
                if (self.decode.a_base_hi.val() && self.q_wr.q.val()) {
                    self.sq_base_hi.d.next = self.merged.val();
                }
                if (self.decode.a_log.val() && self.q_wr.q.val()) {
                    self.sq_log.d.next = self.merged.val().get_bits::<4>(0);
                    if (self.merged.val() > self.k_log_max.val()) {
                        self.sq_log.d.next = self.k_log_max.val().get_bits::<4>(0);
                    }
                }
                if (self.decode.a_flow_cq.val() && self.q_wr.q.val()) {
                    self.sq_cq.d.next = (self.merged.val().get_bits::<8>(0) & self.k_cq_mask.val());
                }
                if self.decode.g_cq.val() {
                    self.sub_v.d.next = true;
                    self.sub_cq.d.next = true;
                    self.state.d.next = CsrState::Sub;
                }
                if self.decode.g_db.val() {
                    self.sub_v.d.next = true;
                    self.sub_cq.d.next = false;
                    self.state.d.next = CsrState::Sub;
                }
            }
            CsrState::Shadow => {
                // The shadow word is here: answer a read or a high word,
                // send a low word to the core.
                if !self.q_wr.q.val() {
                    self.respond.next = true;
                    self.resp_data.next = self.old_w.val();
                } else if self.decode.core_hi.val() {
                    self.respond.next = true;
                    self.shadow.write_enable.next = true;
                } else if ((self.decode.core_r.val() == self.k_commit.val())
                    && self.commit_bad.val())
                {
                    self.respond.next = true;
                    self.resp_code.next = self.k_slverr.val();
                } else {
                    self.shadow.write_enable.next = true;
                    self.cfg_v.d.next = true;
                    self.cfg_addr.d.next = bit_cast::<16, 6>(self.decode.core_r.val());
                    self.cfg_data.d.next = self.new_cfg.val();
                    if (self.decode.core_r.val() == self.k_commit.val()) {
                        self.commit_v.d.next = true;
                        self.commit_flow.d.next = self.merged.val().get_bits::<16>(0);
                        self.commit_active.d.next = self.new_cfg.val().get_bit(32);
                    }
                    self.state.d.next = CsrState::Cfg;
                }
            }
            CsrState::Cfg => {
                if self.m_cfg.ready.val() {
                    self.cfg_v.d.next = false;
                    self.state.d.next = CsrState::CfgWait;
                }
            }
            CsrState::CfgWait => {
                // The core is idle again: a COMMIT's copy is done.
                if self.m_cfg.ready.val() {
                    self.respond.next = true;
                }
            }
            CsrState::Stats => {
                self.respond.next = true;
                self.resp_data.next = self.stats_data.val();
            }
            CsrState::Sub => {
                if (self.sub_v.q.val() && self.sub_cq.q.val() && self.m_cq.ready.val()) {
                    self.sub_v.d.next = false;
                }
                if (self.sub_v.q.val() && !self.sub_cq.q.val() && self.m_sq.ready.val()) {
                    self.sub_v.d.next = false;
                }
                if (self.sub_cq.q.val() && self.s_cq.valid.val()) {
                    self.respond.next = true;
                    self.resp_code.next = self.s_cq.resp.val();
                    self.resp_data.next = self.s_cq.rdata.val();
                }
                if (!self.sub_cq.q.val() && self.s_sq.valid.val()) {
                    self.respond.next = true;
                    self.resp_code.next = self.s_sq.resp.val();
                    self.resp_data.next = self.s_sq.rdata.val();
                }
            }
        }
        if (self.sweep.q.val() && self.respond.val() && !self.sweep_last.q.val()) {
            self.respond.next = false;
            self.q_addr.d.next = self.sweep_addr_q.q.val();
            self.addr_load.next = true;
            self.q_wdata.d.next = self.sweep_data_q.q.val();
            self.state.d.next = CsrState::Decode;
            self.sweep_last.d.next = self.sweep_done.val();
            self.sweep_phase.d.next = self.sweep_next_phase.val();
            self.sweep_index.d.next = self.sweep_next_index.val();
            self.sweep_addr_q.d.next = self.sweep_addr.val();
            self.sweep_data_q.d.next = self.sweep_data.val();
        }
        if (self.sweep.q.val() && self.respond.val() && self.sweep_last.q.val()) {
            // The CONTROL write's answer; the pipelines' reset from it.
            self.sweep.d.next = false;
            self.soft_left.d.next = self.k_soft_cycles.val();
            self.resp_code.next = self.k_okay.val();
            self.resp_data.next = 0.into();
        }
        // ---- The answer, and the counters.
        self.resp_v.d.next = self.respond.val();
        if self.respond.val() {
            self.resp_d.d.next = self.resp_data.val();
            self.resp_c.d.next = self.resp_code.val();
            self.state.d.next = CsrState::Idle;
            if self.q_wr.q.val() {
                self.n_writes.d.next = (self.n_writes.q.val() + 1);
            } else {
                self.n_reads.d.next = (self.n_reads.q.val() + 1);
            }
            if (self.resp_code.val() == self.k_slverr.val()) {
                self.n_slverr.d.next = (self.n_slverr.q.val() + 1);
            }
            if (self.resp_code.val() == self.k_decerr.val()) {
                self.n_decerr.d.next = (self.n_decerr.q.val() + 1);
            }
        }
        // ---- The decode of the address `q_addr` loads (`CsrDecode`),
        // with the request `q_*` loads with it: a new request's in
        // `Idle`; otherwise the sweep's writes (the CONTROL write's flag,
        // every strobe).
        self.wr_next.next = self.q_wr.q.val();
        self.strb_next.next = 0xF.into();
        if (self.state.q.val() == CsrState::Idle) {
            self.wr_next.next = self.s_req.write.val();
            self.strb_next.next = self.s_req.wstrb.val();
        }
        self.decode.load.next = self.addr_load.val();
        self.decode.addr.next = self.addr_next.val();
        self.decode.write.next = self.wr_next.val();
        self.decode.strb.next = self.strb_next.val();
        self.m_resp.valid.next = self.resp_v.q.val();
        self.m_resp.rdata.next = self.resp_d.q.val();
        self.m_resp.resp.next = self.resp_c.q.val();
        self.m_cfg.valid.next = self.cfg_v.q.val();
        self.m_cfg.addr.next = self.cfg_addr.q.val();
        self.m_cfg.data.next = self.cfg_data.q.val();
        self.m_commit.valid.next = self.commit_v.q.val();
        self.m_commit.flow.next = self.commit_flow.q.val();
        self.m_commit.active.next = self.commit_active.q.val();
        self.m_commit.base.next = ((bit_cast::<64, 32>(self.sq_base_hi.q.val()) << 32)
            | bit_cast::<64, 32>(self.sq_base_lo.q.val()));
        self.m_commit.log_size.next = self.sq_log.q.val();
        self.m_commit.cq.next = self.sq_cq.q.val();
        self.m_sq.valid.next = (self.sub_v.q.val() && !self.sub_cq.q.val());
        self.m_sq.write.next = self.q_wr.q.val();
        self.m_sq.addr.next = self.decode.db_flow.val();
        self.m_sq.wdata.next = self.q_wdata.q.val();
        self.m_sq.wstrb.next = self.q_strb.q.val();
        self.m_cq.valid.next = (self.sub_v.q.val() && self.sub_cq.q.val());
        self.m_cq.write.next = self.q_wr.q.val();
        self.m_cq.addr.next = self.decode.cq_off.val();
        self.m_cq.wdata.next = self.q_wdata.q.val();
        self.m_cq.wstrb.next = self.q_strb.q.val();
        self.soft_reset.next = self.soft_left.q.val().any();
        self.reads.next = self.n_reads.q.val();
        self.writes.next = self.n_writes.q.val();
        self.slverr.next = self.n_slverr.q.val();
        self.decerr.next = self.n_decerr.q.val();
        self.ro_writes.next = self.n_ro.q.val();
        if self.reset.val() {
            self.state.d.next = CsrState::Idle;
            self.resp_v.d.next = false;
            self.cfg_v.d.next = false;
            self.commit_v.d.next = false;
            self.sub_v.d.next = false;
            self.soft_left.d.next = 0.into();
            self.sweep.d.next = false;
        }
        // A reset, or a full reset's start (no other write to these in
        // its cycle: a CONTROL write is answered at the sweep's end).
        if (self.reset.val() || self.clear_regs.val()) {
            self.scratch.d.next = 0.into();
            self.sq_base_lo.d.next = 0.into();
            self.sq_base_hi.d.next = 0.into();
            self.sq_log.d.next = 0.into();
            self.sq_cq.d.next = 0.into();
            self.n_reads.d.next = 0.into();
            self.n_writes.d.next = 0.into();
            self.n_slverr.d.next = 0.into();
            self.n_decerr.d.next = 0.into();
            self.n_ro.d.next = 0.into();
        }
    }
}
