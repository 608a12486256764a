//! The dispatcher's context port, shared by flow creation (the
//! configuration registers) and the requester's READ tracking.
//!
//! Both sources are strobes. `s_req` (the requester's `rd_only` writes)
//! always wins; `rx_busy` tells the configuration registers to hold
//! theirs for a cycle, so no write is ever lost (`CfgRegs` waits on it).
//!
//! No state, no latency. Golden twin: `nic_golden::nic::rx_ctx_mux`.

use crate::roce::{RxFlowCtxSink, RxFlowCtxSource};
use rust_hdl::prelude::*;

#[derive(LogicBlock, Default)]
pub struct RxCtxMux<const A: usize> {
    pub clock: Signal<In, Clock>,
    pub s_cfg: RxFlowCtxSink<A>,
    pub s_req: RxFlowCtxSink<A>,
    pub m_ctx: RxFlowCtxSource<A>,
    pub rx_busy: Signal<Out, Bit>,
}

impl<const A: usize> Logic for RxCtxMux<A> {
    #[hdl_gen]
    fn update(&mut self) {
        self.rx_busy.next = self.s_req.valid.val();
        self.m_ctx.valid.next = (self.s_req.valid.val() || self.s_cfg.valid.val());
        if self.s_req.valid.val() {
            self.m_ctx.flow.next = self.s_req.flow.val();
            self.m_ctx.active.next = self.s_req.active.val();
            self.m_ctx.epsn.next = self.s_req.epsn.val();
            self.m_ctx.rd_addr.next = self.s_req.rd_addr.val();
            self.m_ctx.rd_psn.next = self.s_req.rd_psn.val();
            self.m_ctx.rd_idx.next = self.s_req.rd_idx.val();
            self.m_ctx.rd_only.next = self.s_req.rd_only.val();
            self.m_ctx.cnp_on_ce.next = self.s_req.cnp_on_ce.val();
        } else {
            self.m_ctx.flow.next = self.s_cfg.flow.val();
            self.m_ctx.active.next = self.s_cfg.active.val();
            self.m_ctx.epsn.next = self.s_cfg.epsn.val();
            self.m_ctx.rd_addr.next = self.s_cfg.rd_addr.val();
            self.m_ctx.rd_psn.next = self.s_cfg.rd_psn.val();
            self.m_ctx.rd_idx.next = self.s_cfg.rd_idx.val();
            self.m_ctx.rd_only.next = self.s_cfg.rd_only.val();
            self.m_ctx.cnp_on_ce.next = self.s_cfg.cnp_on_ce.val();
        }
    }
}
