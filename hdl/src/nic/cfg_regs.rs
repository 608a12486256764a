//! Configuration registers of the NIC core (`nic_spec::regs`).
//!
//! A write on `s_cfg` (`CfgWrite`: `addr`, `data`) to a global register
//! sets it (its output changes on the next cycle); to a per-flow register
//! it stages the value; to `COMMIT` (data: flow id in bits 31..0, active
//! in bit 32) it copies the staged set into the flow's contexts, one
//! block a cycle, and takes no other write meanwhile (`s_cfg.ready` low):
//! 1. `m_tx_ctx` (`TxFlowCtx`, strobe): the headers;
//! 2. `m_rx_ctx` (`RxFlowCtx`, strobe): active and the expected PSN, in
//!    the cycle after `m_tx_ctx` unless `rx_busy` (the context mux holds a
//!    write that met the requester's; a register) was set then: it then
//!    waits (state `RxWait`) for the first cycle `rx_busy` is clear, so the
//!    strobe depends on no input of the cycle it is made in;
//! 3. `m_req_ctx` (`ReqFlowCtx`, ready): active, first PSN, where the
//!    telemetry goes (the requester then INITs the scheduler's flow);
//! 4. `m_cc_ctl` (`CcEvent`, ready): to the HPCC++ module, CREATE (active
//!    and `FLOW_CC_VARIANT` 0 or 1, the variant bit = NewINT) or DESTROY
//!    (inactive, or a DCQCN flow);
//! 5. `m_rp_ctl` (`RpEvent`, ready): to the DCQCN reaction point, CREATE
//!    (active and `FLOW_CC_VARIANT` 2) or DESTROY (otherwise), so a flow
//!    runs in exactly one of the two and a flow moved from one to the
//!    other leaves no state behind.
//!
//! The flow's protection domain (`FLOW_PD`) goes out on `m_pd` (`FlowPd`,
//! strobe) with `m_tx_ctx`, to the memory-region check. A write of
//! `MR_COMMIT` puts the staged region (`MR_BASE`, `MR_LEN`, `MR_RKEY`,
//! `MR_ATTR`) on `m_mr` (`MrWrite`, strobe) in the next cycle, for entry
//! bits 7..0 of the data, active as bit 32; a write of `MR_CLEAR` puts a
//! `clear` there (entry 0, inactive). Both are fields 0 while not valid.
//! (Whether the entry is in the table and the region ends by 2^64 is the
//! check's to refuse: `MrCheckStats.bad_mr`.)
//!
//! Ports (clock `clock`): the above, and the global registers as plain
//! outputs (`mtu_log2` … `cc_mlog`, `m_dcqcn` the reaction point's
//! `DcqcnCfg`, `np_interval`), at their `regs` widths. Counters:
//! `bad_cfg`, `commits` (32 bits, wrapping). `FLOW_CC_VARIANT` 3 is
//! stored as 2 (DCQCN).
//!
//! Timing: a register write takes one cycle (`s_cfg.ready` is high in
//! `Idle`); a commit five cycles plus any wait for `rx_busy` (`RxWait`) and
//! the three ready handshakes.
//!
//! Bad input: an address that is no register, a commit of a flow id
//! ≥ 2^A, an `MTU_LOG2` above what the core's 2^B-word receive buffer
//! takes (`nic_spec::roce::rx_buf_max_mtu_log2`: two maximum frames and
//! sixteen minimum ones; B = 8 takes 8, B = 10 takes 11, B = 11 takes 12),
//! or an `RX_XOFF` above the buffer's 2^B − 1 words (a fill it never
//! reaches; the value is compared whole, so bits above 15 refuse it too)
//! is counted in `bad_cfg` and changes nothing.
//!
//! Golden twin: `nic_golden::nic::cfg_regs`.

/// The largest `MTU_LOG2` value a 2^`b`-word receive buffer takes, as the
/// register compares it: 15 (any: larger values are clamped to 12) when
/// the buffer takes 4 KiB frames. Panics if it takes no MTU at all.
pub fn mtu_log2_max(b: usize) -> u32 {
    let m = nic_spec::roce::rx_buf_max_mtu_log2(b as u32);
    assert!(
        m >= 8,
        "a receive buffer of 2^{b} words takes no MTU (256 B needs 2^8)"
    );
    if m >= 12 {
        15
    } else {
        m
    }
}

use crate::cc::{CcEventSource, DcqcnCfgSource, RpEventSource};
use crate::nic::CfgWriteSink;
use crate::roce::{
    FlowPdSource, MrWriteSource, ReqFlowCtxSource, RxFlowCtxSource, TxFlowCtxSource,
};
use consts::*;
use rust_hdl::prelude::*;
use smart_default::SmartDefault;

/// The register addresses and CC ops as constants (one source:
/// `nic_spec::regs`).
mod consts {
    pub use nic_spec::regs::*;
}

const _: () = assert!(
    nic_spec::mr::ATTR_RIGHTS_SHIFT == 16,
    "CfgRegs reads the rights from MR_ATTR bit 16"
);

#[derive(Copy, Clone, PartialEq, Debug, LogicState)]
pub enum CfgState {
    Idle,
    Tx,
    RxWait,
    Rx,
    Req,
    Cc,
    Rp,
}

#[derive(LogicBlock, SmartDefault)]
pub struct CfgRegs<const A: usize, const B: usize> {
    // The parameter check, when the block is built.
    #[default({
        assert!((1..=16).contains(&A), "CfgRegs: 1 <= A <= 16");
        Default::default()
    })]
    pub clock: Signal<In, Clock>,
    pub s_cfg: CfgWriteSink,
    pub rx_busy: Signal<In, Bit>,
    pub m_tx_ctx: TxFlowCtxSource<A>,
    pub m_rx_ctx: RxFlowCtxSource<A>,
    pub m_req_ctx: ReqFlowCtxSource<A>,
    pub m_cc_ctl: CcEventSource,
    pub m_rp_ctl: RpEventSource,
    pub m_mr: MrWriteSource,
    pub m_pd: FlowPdSource<A>,
    pub m_dcqcn: DcqcnCfgSource,
    pub np_interval: Signal<Out, Bits<24>>,
    pub mtu_log2: Signal<Out, Bits<4>>,
    /// The MTU in bytes: 2^`mtu_log2`, clamped to 256..=4096.
    pub mtu_bytes: Signal<Out, Bits<16>>,
    pub rto: Signal<Out, Bits<32>>,
    pub probe_t: Signal<Out, Bits<24>>,
    pub sched_cap: Signal<Out, Bits<20>>,
    pub ns_per_cycle: Signal<Out, Bits<24>>,
    pub rx_xoff: Signal<Out, Bits<16>>,
    pub rx_xon: Signal<Out, Bits<16>>,
    pub rx_pause_quanta: Signal<Out, Bits<16>>,
    pub tx_ctl_share: Signal<Out, Bits<3>>,
    pub rx_pfc_cev: Signal<Out, Bits<8>>,
    pub cc_t: Signal<Out, Bits<24>>,
    pub cc_inv_t_m: Signal<Out, Bits<32>>,
    pub cc_inv_t_s: Signal<Out, Bits<8>>,
    pub cc_uq_m: Signal<Out, Bits<32>>,
    pub cc_eta: Signal<Out, Bits<16>>,
    pub cc_max_stage: Signal<Out, Bits<3>>,
    pub cc_w_ai: Signal<Out, Bits<32>>,
    pub cc_w_min: Signal<Out, Bits<32>>,
    pub cc_w_init: Signal<Out, Bits<32>>,
    pub cc_mlog: Signal<Out, Bits<3>>,
    pub bad_cfg: Signal<Out, Bits<32>>,
    pub commits: Signal<Out, Bits<32>>,
    state: DFF<CfgState>,
    r_mtu_log2: DFF<Bits<4>>,
    r_rto: DFF<Bits<32>>,
    r_probe_t: DFF<Bits<24>>,
    r_sched_cap: DFF<Bits<20>>,
    r_ns_per_cycle: DFF<Bits<24>>,
    r_rx_xoff: DFF<Bits<16>>,
    r_rx_xon: DFF<Bits<16>>,
    r_rx_pause_quanta: DFF<Bits<16>>,
    r_tx_ctl_share: DFF<Bits<3>>,
    r_rx_pfc_cev: DFF<Bits<8>>,
    r_cc_t: DFF<Bits<24>>,
    r_cc_inv_t_m: DFF<Bits<32>>,
    r_cc_inv_t_s: DFF<Bits<8>>,
    r_cc_uq_m: DFF<Bits<32>>,
    r_cc_eta: DFF<Bits<16>>,
    r_cc_max_stage: DFF<Bits<3>>,
    r_cc_w_ai: DFF<Bits<32>>,
    r_cc_w_min: DFF<Bits<32>>,
    r_cc_w_init: DFF<Bits<32>>,
    r_cc_mlog: DFF<Bits<3>>,
    r_dcqcn_g_log2: DFF<Bits<4>>,
    r_dcqcn_alpha_period: DFF<Bits<24>>,
    r_dcqcn_dec_period: DFF<Bits<24>>,
    r_dcqcn_inc_period: DFF<Bits<24>>,
    r_dcqcn_byte_reset: DFF<Bits<32>>,
    r_dcqcn_f: DFF<Bits<3>>,
    r_dcqcn_r_ai: DFF<Bits<32>>,
    r_dcqcn_r_hai: DFF<Bits<32>>,
    r_dcqcn_r_min: DFF<Bits<32>>,
    r_dcqcn_r_line: DFF<Bits<32>>,
    r_dcqcn_r_first: DFF<Bits<32>>,
    r_dcqcn_alpha_init: DFF<Bits<21>>,
    r_dcqcn_window: DFF<Bits<32>>,
    r_np_interval: DFF<Bits<24>>,
    f_dmac: DFF<Bits<48>>,
    f_smac: DFF<Bits<48>>,
    f_sip: DFF<Bits<32>>,
    f_dip: DFF<Bits<32>>,
    f_sport: DFF<Bits<16>>,
    f_dqp: DFF<Bits<24>>,
    f_pkey: DFF<Bits<16>>,
    f_tos: DFF<Bits<8>>,
    f_send_psn: DFF<Bits<24>>,
    f_recv_psn: DFF<Bits<24>>,
    f_tlm_data: DFF<Bit>,
    f_retry: DFF<Bits<3>>,
    f_cc_variant: DFF<Bits<2>>,
    f_pd: DFF<Bits<16>>,
    r_mr_base: DFF<Bits<64>>,
    r_mr_len: DFF<Bits<64>>,
    r_mr_rkey: DFF<Bits<32>>,
    r_mr_attr: DFF<Bits<18>>,
    mr_v: DFF<Bit>,
    mr_index: DFF<Bits<8>>,
    mr_active: DFF<Bit>,
    mr_clear: DFF<Bit>,
    c_flow: DFF<Bits<A>>,
    c_active: DFF<Bit>,
    n_bad: DFF<Bits<32>>,
    n_commits: DFF<Bits<32>>,
    #[default(Constant::new(Bits::<16>::from(MTU_LOG2 as u64)))]
    k_mtu_log2: Constant<Bits<16>>,
    /// The largest `MTU_LOG2` value taken (15: any; the buffer holds 4 KiB frames).
    #[default(Constant::new(Bits::<4>::from(mtu_log2_max(B) as u64)))]
    k_mtu_max: Constant<Bits<4>>,
    #[default(Constant::new(Bits::<16>::from(RTO as u64)))]
    k_rto: Constant<Bits<16>>,
    #[default(Constant::new(Bits::<16>::from(PROBE_T as u64)))]
    k_probe_t: Constant<Bits<16>>,
    #[default(Constant::new(Bits::<16>::from(SCHED_CAP as u64)))]
    k_sched_cap: Constant<Bits<16>>,
    #[default(Constant::new(Bits::<16>::from(NS_PER_CYCLE as u64)))]
    k_ns_per_cycle: Constant<Bits<16>>,
    #[default(Constant::new(Bits::<16>::from(RX_XOFF as u64)))]
    k_rx_xoff: Constant<Bits<16>>,
    #[default(Constant::new(Bits::<16>::from(RX_XON as u64)))]
    k_rx_xon: Constant<Bits<16>>,
    #[default(Constant::new(Bits::<16>::from(RX_PAUSE_QUANTA as u64)))]
    k_rx_pause_quanta: Constant<Bits<16>>,
    #[default(Constant::new(Bits::<16>::from(TX_CTL_SHARE as u64)))]
    k_tx_ctl_share: Constant<Bits<16>>,
    #[default(Constant::new(Bits::<16>::from(RX_PFC_CEV as u64)))]
    k_rx_pfc_cev: Constant<Bits<16>>,
    /// The largest `RX_XOFF` taken: the buffer's 2^B − 1 words.
    #[default(Constant::new(Bits::<16>::from((1u64 << B) - 1)))]
    k_xoff_max: Constant<Bits<16>>,
    #[default(Constant::new(Bits::<16>::from(CC_T as u64)))]
    k_cc_t: Constant<Bits<16>>,
    #[default(Constant::new(Bits::<16>::from(CC_INV_T_M as u64)))]
    k_cc_inv_t_m: Constant<Bits<16>>,
    #[default(Constant::new(Bits::<16>::from(CC_INV_T_S as u64)))]
    k_cc_inv_t_s: Constant<Bits<16>>,
    #[default(Constant::new(Bits::<16>::from(CC_UQ_M as u64)))]
    k_cc_uq_m: Constant<Bits<16>>,
    #[default(Constant::new(Bits::<16>::from(CC_ETA as u64)))]
    k_cc_eta: Constant<Bits<16>>,
    #[default(Constant::new(Bits::<16>::from(CC_MAX_STAGE as u64)))]
    k_cc_max_stage: Constant<Bits<16>>,
    #[default(Constant::new(Bits::<16>::from(CC_W_AI as u64)))]
    k_cc_w_ai: Constant<Bits<16>>,
    #[default(Constant::new(Bits::<16>::from(CC_W_MIN as u64)))]
    k_cc_w_min: Constant<Bits<16>>,
    #[default(Constant::new(Bits::<16>::from(CC_W_INIT as u64)))]
    k_cc_w_init: Constant<Bits<16>>,
    #[default(Constant::new(Bits::<16>::from(CC_MLOG as u64)))]
    k_cc_mlog: Constant<Bits<16>>,
    #[default(Constant::new(Bits::<16>::from(FLOW_DMAC as u64)))]
    k_dmac: Constant<Bits<16>>,
    #[default(Constant::new(Bits::<16>::from(FLOW_SMAC as u64)))]
    k_smac: Constant<Bits<16>>,
    #[default(Constant::new(Bits::<16>::from(FLOW_SIP as u64)))]
    k_sip: Constant<Bits<16>>,
    #[default(Constant::new(Bits::<16>::from(FLOW_DIP as u64)))]
    k_dip: Constant<Bits<16>>,
    #[default(Constant::new(Bits::<16>::from(FLOW_SPORT as u64)))]
    k_sport: Constant<Bits<16>>,
    #[default(Constant::new(Bits::<16>::from(FLOW_DQP as u64)))]
    k_dqp: Constant<Bits<16>>,
    #[default(Constant::new(Bits::<16>::from(FLOW_PKEY as u64)))]
    k_pkey: Constant<Bits<16>>,
    #[default(Constant::new(Bits::<16>::from(FLOW_TOS as u64)))]
    k_tos: Constant<Bits<16>>,
    #[default(Constant::new(Bits::<16>::from(FLOW_SEND_PSN as u64)))]
    k_send_psn: Constant<Bits<16>>,
    #[default(Constant::new(Bits::<16>::from(FLOW_RECV_PSN as u64)))]
    k_recv_psn: Constant<Bits<16>>,
    #[default(Constant::new(Bits::<16>::from(FLOW_TLM_DATA as u64)))]
    k_tlm_data: Constant<Bits<16>>,
    #[default(Constant::new(Bits::<16>::from(FLOW_RETRY as u64)))]
    k_retry: Constant<Bits<16>>,
    #[default(Constant::new(Bits::<16>::from(FLOW_CC_VARIANT as u64)))]
    k_cc_variant: Constant<Bits<16>>,
    #[default(Constant::new(Bits::<16>::from(FLOW_PD as u64)))]
    k_flow_pd: Constant<Bits<16>>,
    #[default(Constant::new(Bits::<16>::from(MR_BASE as u64)))]
    k_mr_base: Constant<Bits<16>>,
    #[default(Constant::new(Bits::<16>::from(MR_LEN as u64)))]
    k_mr_len: Constant<Bits<16>>,
    #[default(Constant::new(Bits::<16>::from(MR_RKEY as u64)))]
    k_mr_rkey: Constant<Bits<16>>,
    #[default(Constant::new(Bits::<16>::from(MR_ATTR as u64)))]
    k_mr_attr: Constant<Bits<16>>,
    #[default(Constant::new(Bits::<16>::from(MR_COMMIT as u64)))]
    k_mr_commit: Constant<Bits<16>>,
    #[default(Constant::new(Bits::<16>::from(MR_CLEAR as u64)))]
    k_mr_clear: Constant<Bits<16>>,
    #[default(Constant::new(Bits::<16>::from(DCQCN_G_LOG2 as u64)))]
    k_dcqcn_g_log2: Constant<Bits<16>>,
    #[default(Constant::new(Bits::<16>::from(DCQCN_ALPHA_PERIOD as u64)))]
    k_dcqcn_alpha_period: Constant<Bits<16>>,
    #[default(Constant::new(Bits::<16>::from(DCQCN_DEC_PERIOD as u64)))]
    k_dcqcn_dec_period: Constant<Bits<16>>,
    #[default(Constant::new(Bits::<16>::from(DCQCN_INC_PERIOD as u64)))]
    k_dcqcn_inc_period: Constant<Bits<16>>,
    #[default(Constant::new(Bits::<16>::from(DCQCN_BYTE_RESET as u64)))]
    k_dcqcn_byte_reset: Constant<Bits<16>>,
    #[default(Constant::new(Bits::<16>::from(DCQCN_F as u64)))]
    k_dcqcn_f: Constant<Bits<16>>,
    #[default(Constant::new(Bits::<16>::from(DCQCN_R_AI as u64)))]
    k_dcqcn_r_ai: Constant<Bits<16>>,
    #[default(Constant::new(Bits::<16>::from(DCQCN_R_HAI as u64)))]
    k_dcqcn_r_hai: Constant<Bits<16>>,
    #[default(Constant::new(Bits::<16>::from(DCQCN_R_MIN as u64)))]
    k_dcqcn_r_min: Constant<Bits<16>>,
    #[default(Constant::new(Bits::<16>::from(DCQCN_R_LINE as u64)))]
    k_dcqcn_r_line: Constant<Bits<16>>,
    #[default(Constant::new(Bits::<16>::from(DCQCN_R_FIRST as u64)))]
    k_dcqcn_r_first: Constant<Bits<16>>,
    #[default(Constant::new(Bits::<16>::from(DCQCN_ALPHA_INIT as u64)))]
    k_dcqcn_alpha_init: Constant<Bits<16>>,
    #[default(Constant::new(Bits::<16>::from(DCQCN_WINDOW as u64)))]
    k_dcqcn_window: Constant<Bits<16>>,
    #[default(Constant::new(Bits::<16>::from(NP_INTERVAL as u64)))]
    k_np_interval: Constant<Bits<16>>,
    #[default(Constant::new(Bits::<2>::from(nic_spec::dcqcn::OP_CREATE as u64)))]
    k_rp_create: Constant<Bits<2>>,
    #[default(Constant::new(Bits::<2>::from(nic_spec::dcqcn::OP_DESTROY as u64)))]
    k_rp_destroy: Constant<Bits<2>>,
    #[default(Constant::new(Bits::<2>::from(2u64)))]
    k_var_dcqcn: Constant<Bits<2>>,
    is_dcqcn: Signal<Local, Bit>,
    #[default(Constant::new(Bits::<16>::from(COMMIT as u64)))]
    k_commit: Constant<Bits<16>>,
    #[default(Constant::new(Bits::<32>::from(A as u64)))]
    k_a: Constant<Bits<32>>,
    #[default(Constant::new(Bits::<4>::from(8u64)))]
    k_m8: Constant<Bits<4>>,
    #[default(Constant::new(Bits::<4>::from(12u64)))]
    k_m12: Constant<Bits<4>>,
    #[default(Constant::new(Bits::<16>::from(1u64)))]
    k_one: Constant<Bits<16>>,
    #[default(Constant::new(Bits::<2>::from(1u64)))]
    k_create: Constant<Bits<2>>,
    #[default(Constant::new(Bits::<2>::from(2u64)))]
    k_destroy: Constant<Bits<2>>,
    take: Signal<Local, Bit>,
    flow_oor: Signal<Local, Bit>,
}

impl<const A: usize, const B: usize> Logic for CfgRegs<A, B> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            state,
            r_mtu_log2,
            r_rto,
            r_probe_t,
            r_sched_cap,
            r_ns_per_cycle,
            r_rx_xoff,
            r_rx_xon,
            r_rx_pause_quanta,
            r_tx_ctl_share,
            r_rx_pfc_cev,
            r_cc_t,
            r_cc_inv_t_m,
            r_cc_inv_t_s,
            r_cc_uq_m,
            r_cc_eta,
            r_cc_max_stage,
            r_cc_w_ai,
            r_cc_w_min,
            r_cc_w_init,
            r_cc_mlog,
            r_dcqcn_g_log2,
            r_dcqcn_alpha_period,
            r_dcqcn_dec_period,
            r_dcqcn_inc_period,
            r_dcqcn_byte_reset,
            r_dcqcn_f,
            r_dcqcn_r_ai,
            r_dcqcn_r_hai,
            r_dcqcn_r_min,
            r_dcqcn_r_line,
            r_dcqcn_r_first,
            r_dcqcn_alpha_init,
            r_dcqcn_window,
            r_np_interval,
            f_dmac,
            f_smac,
            f_sip,
            f_dip,
            f_sport,
            f_dqp,
            f_pkey,
            f_tos,
            f_send_psn,
            f_recv_psn,
            f_tlm_data,
            f_retry,
            f_cc_variant,
            f_pd,
            r_mr_base,
            r_mr_len,
            r_mr_rkey,
            r_mr_attr,
            mr_v,
            mr_index,
            mr_active,
            mr_clear,
            c_flow,
            c_active,
            n_bad,
            n_commits
        );
        self.s_cfg.ready.next = (self.state.q.val() == CfgState::Idle);
        self.take.next = ((self.state.q.val() == CfgState::Idle) && self.s_cfg.valid.val());
        self.flow_oor.next = ((self.s_cfg.data.val().get_bits::<32>(0) >> self.k_a.val()).any());
        self.mr_v.d.next = false;
        if self.take.val() {
            if (self.s_cfg.addr.val() == self.k_mtu_log2.val()) {
                if (self.s_cfg.data.val().get_bits::<4>(0) > self.k_mtu_max.val()) {
                    self.n_bad.d.next = (self.n_bad.q.val() + 1);
                } else {
                    self.r_mtu_log2.d.next = self.s_cfg.data.val().get_bits::<4>(0);
                }
            } else if (self.s_cfg.addr.val() == self.k_rto.val()) {
                self.r_rto.d.next = self.s_cfg.data.val().get_bits::<32>(0);
            } else if (self.s_cfg.addr.val() == self.k_probe_t.val()) {
                self.r_probe_t.d.next = self.s_cfg.data.val().get_bits::<24>(0);
            } else if (self.s_cfg.addr.val() == self.k_sched_cap.val()) {
                self.r_sched_cap.d.next = self.s_cfg.data.val().get_bits::<20>(0);
            } else if (self.s_cfg.addr.val() == self.k_ns_per_cycle.val()) {
                self.r_ns_per_cycle.d.next = self.s_cfg.data.val().get_bits::<24>(0);
            } else if (self.s_cfg.addr.val() == self.k_rx_xoff.val()) {
                if ((self.s_cfg.data.val().get_bits::<16>(0) > self.k_xoff_max.val())
                    || self.s_cfg.data.val().get_bits::<48>(16).any())
                {
                    self.n_bad.d.next = (self.n_bad.q.val() + 1);
                } else {
                    self.r_rx_xoff.d.next = self.s_cfg.data.val().get_bits::<16>(0);
                }
            } else if (self.s_cfg.addr.val() == self.k_rx_xon.val()) {
                self.r_rx_xon.d.next = self.s_cfg.data.val().get_bits::<16>(0);
            } else if (self.s_cfg.addr.val() == self.k_rx_pause_quanta.val()) {
                self.r_rx_pause_quanta.d.next = self.s_cfg.data.val().get_bits::<16>(0);
            } else if (self.s_cfg.addr.val() == self.k_tx_ctl_share.val()) {
                self.r_tx_ctl_share.d.next = self.s_cfg.data.val().get_bits::<3>(0);
            } else if (self.s_cfg.addr.val() == self.k_rx_pfc_cev.val()) {
                self.r_rx_pfc_cev.d.next = self.s_cfg.data.val().get_bits::<8>(0);
            } else if (self.s_cfg.addr.val() == self.k_cc_t.val()) {
                self.r_cc_t.d.next = self.s_cfg.data.val().get_bits::<24>(0);
            } else if (self.s_cfg.addr.val() == self.k_cc_inv_t_m.val()) {
                self.r_cc_inv_t_m.d.next = self.s_cfg.data.val().get_bits::<32>(0);
            } else if (self.s_cfg.addr.val() == self.k_cc_inv_t_s.val()) {
                self.r_cc_inv_t_s.d.next = self.s_cfg.data.val().get_bits::<8>(0);
            } else if (self.s_cfg.addr.val() == self.k_cc_uq_m.val()) {
                self.r_cc_uq_m.d.next = self.s_cfg.data.val().get_bits::<32>(0);
            } else if (self.s_cfg.addr.val() == self.k_cc_eta.val()) {
                self.r_cc_eta.d.next = self.s_cfg.data.val().get_bits::<16>(0);
            } else if (self.s_cfg.addr.val() == self.k_cc_max_stage.val()) {
                self.r_cc_max_stage.d.next = self.s_cfg.data.val().get_bits::<3>(0);
            } else if (self.s_cfg.addr.val() == self.k_cc_w_ai.val()) {
                self.r_cc_w_ai.d.next = self.s_cfg.data.val().get_bits::<32>(0);
            } else if (self.s_cfg.addr.val() == self.k_cc_w_min.val()) {
                self.r_cc_w_min.d.next = self.s_cfg.data.val().get_bits::<32>(0);
            } else if (self.s_cfg.addr.val() == self.k_cc_w_init.val()) {
                self.r_cc_w_init.d.next = self.s_cfg.data.val().get_bits::<32>(0);
            } else if (self.s_cfg.addr.val() == self.k_cc_mlog.val()) {
                self.r_cc_mlog.d.next = self.s_cfg.data.val().get_bits::<3>(0);
            } else if (self.s_cfg.addr.val() == self.k_dmac.val()) {
                self.f_dmac.d.next = self.s_cfg.data.val().get_bits::<48>(0);
            } else if (self.s_cfg.addr.val() == self.k_smac.val()) {
                self.f_smac.d.next = self.s_cfg.data.val().get_bits::<48>(0);
            } else if (self.s_cfg.addr.val() == self.k_sip.val()) {
                self.f_sip.d.next = self.s_cfg.data.val().get_bits::<32>(0);
            } else if (self.s_cfg.addr.val() == self.k_dip.val()) {
                self.f_dip.d.next = self.s_cfg.data.val().get_bits::<32>(0);
            } else if (self.s_cfg.addr.val() == self.k_sport.val()) {
                self.f_sport.d.next = self.s_cfg.data.val().get_bits::<16>(0);
            } else if (self.s_cfg.addr.val() == self.k_dqp.val()) {
                self.f_dqp.d.next = self.s_cfg.data.val().get_bits::<24>(0);
            } else if (self.s_cfg.addr.val() == self.k_pkey.val()) {
                self.f_pkey.d.next = self.s_cfg.data.val().get_bits::<16>(0);
            } else if (self.s_cfg.addr.val() == self.k_tos.val()) {
                self.f_tos.d.next = self.s_cfg.data.val().get_bits::<8>(0);
            } else if (self.s_cfg.addr.val() == self.k_send_psn.val()) {
                self.f_send_psn.d.next = self.s_cfg.data.val().get_bits::<24>(0);
            } else if (self.s_cfg.addr.val() == self.k_recv_psn.val()) {
                self.f_recv_psn.d.next = self.s_cfg.data.val().get_bits::<24>(0);
            } else if (self.s_cfg.addr.val() == self.k_tlm_data.val()) {
                self.f_tlm_data.d.next = self.s_cfg.data.val().get_bit(0);
            } else if (self.s_cfg.addr.val() == self.k_cc_variant.val()) {
                if self.s_cfg.data.val().get_bit(1) {
                    self.f_cc_variant.d.next = self.k_var_dcqcn.val();
                } else {
                    self.f_cc_variant.d.next = self.s_cfg.data.val().get_bits::<2>(0);
                }
            } else if (self.s_cfg.addr.val() == self.k_flow_pd.val()) {
                self.f_pd.d.next = self.s_cfg.data.val().get_bits::<16>(0);
            } else if (self.s_cfg.addr.val() == self.k_retry.val()) {
                self.f_retry.d.next = self.s_cfg.data.val().get_bits::<3>(0);
            } else if (self.s_cfg.addr.val() == self.k_mr_base.val()) {
                self.r_mr_base.d.next = self.s_cfg.data.val();
            } else if (self.s_cfg.addr.val() == self.k_mr_len.val()) {
                self.r_mr_len.d.next = self.s_cfg.data.val();
            } else if (self.s_cfg.addr.val() == self.k_mr_rkey.val()) {
                self.r_mr_rkey.d.next = self.s_cfg.data.val().get_bits::<32>(0);
            } else if (self.s_cfg.addr.val() == self.k_mr_attr.val()) {
                self.r_mr_attr.d.next = self.s_cfg.data.val().get_bits::<18>(0);
            } else if (self.s_cfg.addr.val() == self.k_mr_commit.val()) {
                self.mr_v.d.next = true;
                self.mr_index.d.next = self.s_cfg.data.val().get_bits::<8>(0);
                self.mr_active.d.next = self.s_cfg.data.val().get_bit(32);
                self.mr_clear.d.next = false;
            } else if (self.s_cfg.addr.val() == self.k_mr_clear.val()) {
                self.mr_v.d.next = true;
                self.mr_index.d.next = 0.into();
                self.mr_active.d.next = false;
                self.mr_clear.d.next = true;
            } else if (self.s_cfg.addr.val() == self.k_dcqcn_g_log2.val()) {
                self.r_dcqcn_g_log2.d.next = self.s_cfg.data.val().get_bits::<4>(0);
            } else if (self.s_cfg.addr.val() == self.k_dcqcn_alpha_period.val()) {
                self.r_dcqcn_alpha_period.d.next = self.s_cfg.data.val().get_bits::<24>(0);
            } else if (self.s_cfg.addr.val() == self.k_dcqcn_dec_period.val()) {
                self.r_dcqcn_dec_period.d.next = self.s_cfg.data.val().get_bits::<24>(0);
            } else if (self.s_cfg.addr.val() == self.k_dcqcn_inc_period.val()) {
                self.r_dcqcn_inc_period.d.next = self.s_cfg.data.val().get_bits::<24>(0);
            } else if (self.s_cfg.addr.val() == self.k_dcqcn_byte_reset.val()) {
                self.r_dcqcn_byte_reset.d.next = self.s_cfg.data.val().get_bits::<32>(0);
            } else if (self.s_cfg.addr.val() == self.k_dcqcn_f.val()) {
                self.r_dcqcn_f.d.next = self.s_cfg.data.val().get_bits::<3>(0);
            } else if (self.s_cfg.addr.val() == self.k_dcqcn_r_ai.val()) {
                self.r_dcqcn_r_ai.d.next = self.s_cfg.data.val().get_bits::<32>(0);
            } else if (self.s_cfg.addr.val() == self.k_dcqcn_r_hai.val()) {
                self.r_dcqcn_r_hai.d.next = self.s_cfg.data.val().get_bits::<32>(0);
            } else if (self.s_cfg.addr.val() == self.k_dcqcn_r_min.val()) {
                self.r_dcqcn_r_min.d.next = self.s_cfg.data.val().get_bits::<32>(0);
            } else if (self.s_cfg.addr.val() == self.k_dcqcn_r_line.val()) {
                self.r_dcqcn_r_line.d.next = self.s_cfg.data.val().get_bits::<32>(0);
            } else if (self.s_cfg.addr.val() == self.k_dcqcn_r_first.val()) {
                self.r_dcqcn_r_first.d.next = self.s_cfg.data.val().get_bits::<32>(0);
            } else if (self.s_cfg.addr.val() == self.k_dcqcn_alpha_init.val()) {
                self.r_dcqcn_alpha_init.d.next = self.s_cfg.data.val().get_bits::<21>(0);
            } else if (self.s_cfg.addr.val() == self.k_dcqcn_window.val()) {
                self.r_dcqcn_window.d.next = self.s_cfg.data.val().get_bits::<32>(0);
            } else if (self.s_cfg.addr.val() == self.k_np_interval.val()) {
                self.r_np_interval.d.next = self.s_cfg.data.val().get_bits::<24>(0);
            } else if ((self.s_cfg.addr.val() == self.k_commit.val()) && !self.flow_oor.val()) {
                self.c_flow.d.next = self.s_cfg.data.val().get_bits::<A>(0);
                self.c_active.d.next = self.s_cfg.data.val().get_bit(32);
                self.state.d.next = CfgState::Tx;
                self.n_commits.d.next = (self.n_commits.q.val() + 1);
            } else {
                self.n_bad.d.next = (self.n_bad.q.val() + 1);
            }
        }
        // The region table write and the flow's domain (fields 0 while
        // not valid).
        self.m_mr.valid.next = self.mr_v.q.val();
        self.m_mr.index.next = 0.into();
        self.m_mr.active.next = false;
        self.m_mr.clear.next = false;
        self.m_mr.rights.next = 0.into();
        self.m_mr.pd.next = 0.into();
        self.m_mr.rkey.next = 0.into();
        self.m_mr.base.next = 0.into();
        self.m_mr.len.next = 0.into();
        if self.mr_v.q.val() {
            self.m_mr.index.next = self.mr_index.q.val();
            self.m_mr.active.next = self.mr_active.q.val();
            self.m_mr.clear.next = self.mr_clear.q.val();
            self.m_mr.rights.next = self.r_mr_attr.q.val().get_bits::<2>(16);
            self.m_mr.pd.next = self.r_mr_attr.q.val().get_bits::<16>(0);
            self.m_mr.rkey.next = self.r_mr_rkey.q.val();
            self.m_mr.base.next = self.r_mr_base.q.val();
            self.m_mr.len.next = self.r_mr_len.q.val();
        }
        self.m_pd.valid.next = (self.state.q.val() == CfgState::Tx);
        self.m_pd.flow.next = 0.into();
        self.m_pd.pd.next = 0.into();
        if (self.state.q.val() == CfgState::Tx) {
            self.m_pd.flow.next = self.c_flow.q.val();
            self.m_pd.pd.next = self.f_pd.q.val();
        }
        // The commit sequence.
        self.m_tx_ctx.valid.next = (self.state.q.val() == CfgState::Tx);
        self.m_rx_ctx.valid.next = (self.state.q.val() == CfgState::Rx);
        self.m_req_ctx.valid.next = (self.state.q.val() == CfgState::Req);
        self.m_cc_ctl.valid.next = (self.state.q.val() == CfgState::Cc);
        self.m_rp_ctl.valid.next = (self.state.q.val() == CfgState::Rp);
        match self.state.q.val() {
            CfgState::Idle => {}
            CfgState::Tx => {
                if self.rx_busy.val() {
                    self.state.d.next = CfgState::RxWait;
                } else {
                    self.state.d.next = CfgState::Rx;
                }
            }
            CfgState::RxWait => {
                if !self.rx_busy.val() {
                    self.state.d.next = CfgState::Rx;
                }
            }
            CfgState::Rx => {
                self.state.d.next = CfgState::Req;
            }
            CfgState::Req => {
                if self.m_req_ctx.ready.val() {
                    self.state.d.next = CfgState::Cc;
                }
            }
            CfgState::Cc => {
                if self.m_cc_ctl.ready.val() {
                    self.state.d.next = CfgState::Rp;
                }
            }
            CfgState::Rp => {
                if self.m_rp_ctl.ready.val() {
                    self.state.d.next = CfgState::Idle;
                }
            }
        }
        self.m_tx_ctx.flow.next = self.c_flow.q.val();
        self.m_tx_ctx.dmac.next = self.f_dmac.q.val();
        self.m_tx_ctx.smac.next = self.f_smac.q.val();
        self.m_tx_ctx.sip.next = self.f_sip.q.val();
        self.m_tx_ctx.dip.next = self.f_dip.q.val();
        self.m_tx_ctx.sport.next = self.f_sport.q.val();
        self.m_tx_ctx.dqp.next = self.f_dqp.q.val();
        self.m_tx_ctx.pkey.next = self.f_pkey.q.val();
        self.m_tx_ctx.tos.next = self.f_tos.q.val();
        self.m_rx_ctx.flow.next = self.c_flow.q.val();
        self.m_rx_ctx.active.next = self.c_active.q.val();
        self.m_rx_ctx.epsn.next = self.f_recv_psn.q.val();
        self.m_rx_ctx.rd_addr.next = 0.into();
        self.m_rx_ctx.rd_psn.next = 0.into();
        self.m_rx_ctx.rd_idx.next = 0.into();
        self.m_rx_ctx.rd_only.next = false;
        self.m_rx_ctx.cnp_on_ce.next = (self.f_cc_variant.q.val() == self.k_var_dcqcn.val());
        self.m_req_ctx.flow.next = self.c_flow.q.val();
        self.m_req_ctx.active.next = self.c_active.q.val();
        self.m_req_ctx.psn.next = self.f_send_psn.q.val();
        self.m_req_ctx.tlm_data.next = self.f_tlm_data.q.val();
        self.m_req_ctx.retry_limit.next = self.f_retry.q.val();
        self.is_dcqcn.next = (self.f_cc_variant.q.val() == self.k_var_dcqcn.val());
        self.m_cc_ctl.op.next = self.k_destroy.val();
        if (self.c_active.q.val() && !self.is_dcqcn.val()) {
            self.m_cc_ctl.op.next = self.k_create.val();
        }
        self.m_cc_ctl.variant.next = self.f_cc_variant.q.val().get_bit(0);
        self.m_rp_ctl.op.next = self.k_rp_destroy.val();
        if (self.c_active.q.val() && self.is_dcqcn.val()) {
            self.m_rp_ctl.op.next = self.k_rp_create.val();
        }
        self.m_rp_ctl.flow.next = bit_cast::<16, A>(self.c_flow.q.val());
        self.m_rp_ctl.bytes.next = 0.into();
        self.m_cc_ctl.flow.next = bit_cast::<16, A>(self.c_flow.q.val());
        self.m_cc_ctl.seq.next = 0.into();
        self.m_cc_ctl.snd_nxt.next = 0.into();
        self.m_cc_ctl.now.next = 0.into();
        self.m_cc_ctl.nhops.next = 0.into();
        self.m_cc_ctl.hop0.next = 0.into();
        self.m_cc_ctl.hop1.next = 0.into();
        self.m_cc_ctl.hop2.next = 0.into();
        self.m_cc_ctl.hop3.next = 0.into();
        self.m_cc_ctl.hop4.next = 0.into();
        // The global registers.
        self.mtu_log2.next = self.r_mtu_log2.q.val();
        if (self.r_mtu_log2.q.val() < self.k_m8.val()) {
            self.mtu_bytes.next = (self.k_one.val() << self.k_m8.val());
        } else if (self.r_mtu_log2.q.val() > self.k_m12.val()) {
            self.mtu_bytes.next = (self.k_one.val() << self.k_m12.val());
        } else {
            self.mtu_bytes.next = (self.k_one.val() << self.r_mtu_log2.q.val());
        }
        self.rto.next = self.r_rto.q.val();
        self.probe_t.next = self.r_probe_t.q.val();
        self.sched_cap.next = self.r_sched_cap.q.val();
        self.ns_per_cycle.next = self.r_ns_per_cycle.q.val();
        self.rx_xoff.next = self.r_rx_xoff.q.val();
        self.rx_xon.next = self.r_rx_xon.q.val();
        self.rx_pause_quanta.next = self.r_rx_pause_quanta.q.val();
        self.tx_ctl_share.next = self.r_tx_ctl_share.q.val();
        self.rx_pfc_cev.next = self.r_rx_pfc_cev.q.val();
        self.cc_t.next = self.r_cc_t.q.val();
        self.cc_inv_t_m.next = self.r_cc_inv_t_m.q.val();
        self.cc_inv_t_s.next = self.r_cc_inv_t_s.q.val();
        self.cc_uq_m.next = self.r_cc_uq_m.q.val();
        self.cc_eta.next = self.r_cc_eta.q.val();
        self.cc_max_stage.next = self.r_cc_max_stage.q.val();
        self.cc_w_ai.next = self.r_cc_w_ai.q.val();
        self.cc_w_min.next = self.r_cc_w_min.q.val();
        self.cc_w_init.next = self.r_cc_w_init.q.val();
        self.cc_mlog.next = self.r_cc_mlog.q.val();
        self.m_dcqcn.g_log2.next = self.r_dcqcn_g_log2.q.val();
        self.m_dcqcn.alpha_period.next = self.r_dcqcn_alpha_period.q.val();
        self.m_dcqcn.dec_period.next = self.r_dcqcn_dec_period.q.val();
        self.m_dcqcn.inc_period.next = self.r_dcqcn_inc_period.q.val();
        self.m_dcqcn.byte_reset.next = self.r_dcqcn_byte_reset.q.val();
        self.m_dcqcn.f.next = self.r_dcqcn_f.q.val();
        self.m_dcqcn.r_ai.next = self.r_dcqcn_r_ai.q.val();
        self.m_dcqcn.r_hai.next = self.r_dcqcn_r_hai.q.val();
        self.m_dcqcn.r_min.next = self.r_dcqcn_r_min.q.val();
        self.m_dcqcn.r_line.next = self.r_dcqcn_r_line.q.val();
        self.m_dcqcn.r_first.next = self.r_dcqcn_r_first.q.val();
        self.m_dcqcn.alpha_init.next = self.r_dcqcn_alpha_init.q.val();
        self.m_dcqcn.window.next = self.r_dcqcn_window.q.val();
        self.np_interval.next = self.r_np_interval.q.val();
        self.bad_cfg.next = self.n_bad.q.val();
        self.commits.next = self.n_commits.q.val();
    }
}
