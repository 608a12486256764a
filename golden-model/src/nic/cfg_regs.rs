//! Twin of `hdl/src/nic/cfg_regs.rs`: configuration writes
//! (`nic_spec::regs`) → global registers and per-flow context writes.

use crate::cc::{CcEvent, DcqcnCfg, RpEvent};
use crate::nic::CfgWrite;
use crate::roce::{FlowPd, MrWrite, ReqFlowCtx, RxFlowCtx, TxFlowCtx};
use crate::Cycle;
use nic_spec::regs::*;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    pub cfg_valid: bool,
    pub cfg: CfgWrite,
    pub rx_busy: bool,
    pub req_ctx_ready: bool,
    pub cc_ctl_ready: bool,
    pub rp_ctl_ready: bool,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub cfg_ready: bool,
    pub tx_ctx_valid: bool,
    pub tx_ctx: TxFlowCtx,
    pub rx_ctx_valid: bool,
    pub rx_ctx: RxFlowCtx,
    pub req_ctx_valid: bool,
    pub req_ctx: ReqFlowCtx,
    pub cc_ctl_valid: bool,
    pub cc_ctl: CcEvent,
    pub rp_ctl_valid: bool,
    pub rp_ctl: RpEvent,
    /// The region table write (strobe), the cycle after `MR_COMMIT` or
    /// `MR_CLEAR`.
    pub mr_valid: bool,
    pub mr: MrWrite,
    /// The flow's protection domain (strobe), with `tx_ctx`.
    pub pd_valid: bool,
    pub pd: FlowPd,
    pub dcqcn: DcqcnCfg,
    pub np_interval: u32,
    pub mtu_log2: u8,
    pub mtu_bytes: u16,
    pub rto: u32,
    pub probe_t: u32,
    pub sched_cap: u32,
    pub ns_per_cycle: u32,
    pub rx_xoff: u16,
    pub rx_xon: u16,
    pub rx_pause_quanta: u16,
    pub tx_ctl_share: u8,
    /// `RX_PFC_CEV`: 0 = PAUSE, else PFC for these priorities.
    pub rx_pfc_cev: u8,
    pub cc_t: u32,
    pub cc_inv_t_m: u32,
    pub cc_inv_t_s: u8,
    pub cc_uq_m: u32,
    pub cc_eta: u16,
    pub cc_max_stage: u8,
    pub cc_w_ai: u32,
    pub cc_w_min: u32,
    pub cc_w_init: u32,
    pub cc_mlog: u8,
    pub bad_cfg: u32,
    pub commits: u32,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum State {
    #[default]
    Idle,
    Tx,
    RxWait,
    Rx,
    Req,
    Cc,
    Rp,
}

/// The staged per-flow registers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Staged {
    dmac: u64,
    smac: u64,
    sip: u32,
    dip: u32,
    sport: u16,
    dqp: u32,
    pkey: u16,
    tos: u8,
    send_psn: u32,
    recv_psn: u32,
    tlm_data: bool,
    /// 0 NewAck, 1 NewINT, 2 DCQCN.
    cc_variant: u8,
    pd: u16,
    /// The retry limit, 0..=7.
    retry: u8,
}

/// The staged region (`MR_*`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct StagedRegion {
    base: u64,
    len: u64,
    rkey: u32,
    attr: u32,
}

#[derive(Clone, Debug, Default)]
pub struct CfgRegs<const A: usize, const B: usize> {
    state: State,
    /// The global registers, held in the output fields they drive
    /// (`mtu_bytes` is derived at the output; the handshake fields are
    /// unused here).
    g: Out,
    f: Staged,
    r: StagedRegion,
    /// The table write to make next cycle: (entry, active, clear).
    mr: Option<(u8, bool, bool)>,
    flow: u32,
    active: bool,
    bad: u32,
    commits: u32,
}

impl<const A: usize, const B: usize> CfgRegs<A, B> {
    /// `RX_PFC_CEV` (a register: known before the cycle's inputs).
    pub fn pfc_cev(&self) -> u8 {
        self.g.rx_pfc_cev
    }
}

/// The MTU in bytes for `mtu_log2`, clamped to 256..=4096.
pub fn mtu_bytes(mtu_log2: u8) -> u16 {
    1 << mtu_log2.clamp(8, 12)
}

impl<const A: usize, const B: usize> Cycle for CfgRegs<A, B> {
    type In = In;
    type Out = Out;
    fn step(&mut self, i: &In) -> Out {
        let s = self.state;
        let f = &self.f;
        let out = Out {
            cfg_ready: s == State::Idle,
            tx_ctx_valid: s == State::Tx,
            tx_ctx: TxFlowCtx {
                flow: self.flow,
                dmac: f.dmac,
                smac: f.smac,
                sip: f.sip,
                dip: f.dip,
                sport: f.sport,
                dqp: f.dqp,
                pkey: f.pkey,
                tos: f.tos,
            },
            rx_ctx_valid: s == State::Rx,
            rx_ctx: RxFlowCtx {
                flow: self.flow,
                active: self.active,
                epsn: f.recv_psn,
                rd_addr: 0,
                rd_psn: 0,
                rd_idx: 0,
                rd_only: false,
                cnp_on_ce: f.cc_variant == 2,
            },
            req_ctx_valid: s == State::Req,
            req_ctx: ReqFlowCtx {
                flow: self.flow,
                active: self.active,
                psn: f.send_psn,
                tlm_data: f.tlm_data,
                retry_limit: f.retry,
            },
            cc_ctl_valid: s == State::Cc,
            cc_ctl: CcEvent {
                op: if self.active && f.cc_variant != 2 {
                    crate::cc::hpcc::op::CREATE
                } else {
                    crate::cc::hpcc::op::DESTROY
                },
                variant: f.cc_variant & 1 == 1,
                flow: self.flow as u16,
                ..Default::default()
            },
            rp_ctl_valid: s == State::Rp,
            rp_ctl: RpEvent {
                op: if self.active && f.cc_variant == 2 {
                    nic_spec::dcqcn::OP_CREATE
                } else {
                    nic_spec::dcqcn::OP_DESTROY
                },
                flow: self.flow as u16,
                bytes: 0,
            },
            mr_valid: self.mr.is_some(),
            mr: match self.mr {
                Some((index, active, clear)) => MrWrite {
                    index,
                    active,
                    clear,
                    rights: (self.r.attr >> nic_spec::mr::ATTR_RIGHTS_SHIFT) as u8 & 3,
                    pd: self.r.attr as u16,
                    rkey: self.r.rkey,
                    base: self.r.base,
                    len: self.r.len,
                },
                None => MrWrite::default(),
            },
            pd_valid: s == State::Tx,
            pd: if s == State::Tx {
                FlowPd {
                    flow: self.flow,
                    pd: f.pd,
                }
            } else {
                FlowPd::default()
            },
            mtu_bytes: mtu_bytes(self.g.mtu_log2),
            bad_cfg: self.bad,
            commits: self.commits,
            ..self.g
        };
        match s {
            State::Idle => {}
            State::Tx if i.rx_busy => self.state = State::RxWait,
            State::Tx => self.state = State::Rx,
            State::RxWait if !i.rx_busy => self.state = State::Rx,
            State::Rx => self.state = State::Req,
            State::Req if i.req_ctx_ready => self.state = State::Cc,
            State::Cc if i.cc_ctl_ready => self.state = State::Rp,
            State::Rp if i.rp_ctl_ready => self.state = State::Idle,
            _ => {}
        }
        self.mr = None;
        if s == State::Idle && i.cfg_valid {
            self.write(i.cfg.addr, i.cfg.data);
        }
        out
    }
}

impl<const A: usize, const B: usize> CfgRegs<A, B> {
    fn write(&mut self, addr: u16, d: u64) {
        let (g, f) = (&mut self.g, &mut self.f);
        match addr {
            MTU_LOG2 => {
                // Above what the 2^B-word receive buffer takes: refused.
                let max = nic_spec::roce::rx_buf_max_mtu_log2(B as u32);
                if max < 12 && (d & 0xF) as u32 > max {
                    self.bad = self.bad.wrapping_add(1);
                } else {
                    g.mtu_log2 = (d & 0xF) as u8;
                }
            }
            RTO => g.rto = d as u32,
            PROBE_T => g.probe_t = (d & 0xFF_FFFF) as u32,
            SCHED_CAP => g.sched_cap = (d & 0xF_FFFF) as u32,
            NS_PER_CYCLE => g.ns_per_cycle = (d & 0xFF_FFFF) as u32,
            RX_XOFF => {
                // A fill the 2^B-word buffer (2^B − 1 words) never reaches: refused.
                if d > (1u64 << B) - 1 {
                    self.bad = self.bad.wrapping_add(1);
                } else {
                    g.rx_xoff = d as u16;
                }
            }
            RX_XON => g.rx_xon = d as u16,
            RX_PAUSE_QUANTA => g.rx_pause_quanta = d as u16,
            TX_CTL_SHARE => g.tx_ctl_share = (d & 7) as u8,
            RX_PFC_CEV => g.rx_pfc_cev = (d & 0xff) as u8,
            CC_T => g.cc_t = (d & 0xFF_FFFF) as u32,
            CC_INV_T_M => g.cc_inv_t_m = d as u32,
            CC_INV_T_S => g.cc_inv_t_s = d as u8,
            CC_UQ_M => g.cc_uq_m = d as u32,
            CC_ETA => g.cc_eta = d as u16,
            CC_MAX_STAGE => g.cc_max_stage = (d & 7) as u8,
            CC_W_AI => g.cc_w_ai = d as u32,
            CC_W_MIN => g.cc_w_min = d as u32,
            CC_W_INIT => g.cc_w_init = d as u32,
            CC_MLOG => g.cc_mlog = (d & 7) as u8,
            FLOW_DMAC => f.dmac = d & 0xFFFF_FFFF_FFFF,
            FLOW_SMAC => f.smac = d & 0xFFFF_FFFF_FFFF,
            FLOW_SIP => f.sip = d as u32,
            FLOW_DIP => f.dip = d as u32,
            FLOW_SPORT => f.sport = d as u16,
            FLOW_DQP => f.dqp = (d & 0xFF_FFFF) as u32,
            FLOW_PKEY => f.pkey = d as u16,
            FLOW_TOS => f.tos = d as u8,
            FLOW_SEND_PSN => f.send_psn = (d & 0xFF_FFFF) as u32,
            FLOW_RECV_PSN => f.recv_psn = (d & 0xFF_FFFF) as u32,
            FLOW_TLM_DATA => f.tlm_data = d & 1 == 1,
            FLOW_CC_VARIANT => f.cc_variant = (d & 3).min(2) as u8,
            FLOW_PD => f.pd = d as u16,
            FLOW_RETRY => f.retry = (d & 7) as u8,
            MR_BASE => self.r.base = d,
            MR_LEN => self.r.len = d,
            MR_RKEY => self.r.rkey = d as u32,
            MR_ATTR => self.r.attr = (d & 0x3_FFFF) as u32,
            MR_COMMIT => self.mr = Some((d as u8, (d >> 32) & 1 == 1, false)),
            MR_CLEAR => self.mr = Some((0, false, true)),
            DCQCN_G_LOG2 => g.dcqcn.g_log2 = (d & 0xf) as u8,
            DCQCN_ALPHA_PERIOD => g.dcqcn.alpha_period = (d & 0xffffff) as u32,
            DCQCN_DEC_PERIOD => g.dcqcn.dec_period = (d & 0xffffff) as u32,
            DCQCN_INC_PERIOD => g.dcqcn.inc_period = (d & 0xffffff) as u32,
            DCQCN_BYTE_RESET => g.dcqcn.byte_reset = (d & 0xffffffff) as u32,
            DCQCN_F => g.dcqcn.f = (d & 0x7) as u8,
            DCQCN_R_AI => g.dcqcn.r_ai = (d & 0xffffffff) as u32,
            DCQCN_R_HAI => g.dcqcn.r_hai = (d & 0xffffffff) as u32,
            DCQCN_R_MIN => g.dcqcn.r_min = (d & 0xffffffff) as u32,
            DCQCN_R_LINE => g.dcqcn.r_line = (d & 0xffffffff) as u32,
            DCQCN_R_FIRST => g.dcqcn.r_first = (d & 0xffffffff) as u32,
            DCQCN_ALPHA_INIT => g.dcqcn.alpha_init = (d & 0x1fffff) as u32,
            DCQCN_WINDOW => g.dcqcn.window = (d & 0xffffffff) as u32,
            NP_INTERVAL => g.np_interval = (d & 0xFF_FFFF) as u32,
            COMMIT if (d as u32) >> A == 0 => {
                self.flow = d as u32;
                self.active = (d >> 32) & 1 == 1;
                self.state = State::Tx;
                self.commits = self.commits.wrapping_add(1);
            }
            _ => self.bad = self.bad.wrapping_add(1),
        }
    }
}
