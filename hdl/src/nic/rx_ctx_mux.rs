//! The dispatcher's context port, shared by flow creation (the
//! configuration registers) and the requester's READ tracking.
//!
//! Both sources are strobes, and every output is a register (timing rule
//! R1: no path from an input port to an output port):
//! - `s_req` (the requester's `rd_only` writes) always wins: it is on
//!   `m_ctx` in the next cycle;
//! - an `s_cfg` write in a cycle without `s_req` is on `m_ctx` in the next
//!   cycle; one that meets an `s_req` waits in a holding register and goes
//!   out in the first later cycle without one;
//! - `rx_busy` is that register's valid: the configuration registers do
//!   not start a context write while it is set (`CfgRegs` checks it before
//!   its `Rx` step), so no write is lost.
//!
//! Ports (clock `clock`; no reset: the holding register empties in the
//! first cycle without `s_req`): `s_cfg`, `s_req` (`RxFlowCtx`, strobes),
//! `m_ctx` (`RxFlowCtx`, strobe), `rx_busy`.
//!
//! Latency 1 cycle (2 or more for a held `s_cfg`). Throughput: one write a
//! cycle out.
//!
//! Bad input (a source that breaks the contract): an `s_cfg` while
//! `rx_busy` is set is held behind the held one if no `s_req` comes with
//! it (it goes out the cycle after), and replaces the held one if an
//! `s_req` does (the held write is lost). `CfgRegs` never does either.
//!
//! Golden twin: `nic_golden::nic::rx_ctx_mux`.

use crate::roce::{RxFlowCtxSink, RxFlowCtxSource};
use rust_hdl::prelude::*;

/// One `RxFlowCtx` held in flops.
#[derive(LogicBlock, Default)]
pub struct CtxReg<const A: usize> {
    pub clock: Signal<In, Clock>,
    pub load: Signal<In, Bit>,
    pub d: RxFlowCtxSink<A>,
    pub q: RxFlowCtxSource<A>,
    flow: DFF<Bits<A>>,
    active: DFF<Bit>,
    epsn: DFF<Bits<24>>,
    rd_addr: DFF<Bits<64>>,
    rd_psn: DFF<Bits<24>>,
    rd_idx: DFF<Bits<4>>,
    rd_only: DFF<Bit>,
    cnp_on_ce: DFF<Bit>,
}

impl<const A: usize> Logic for CtxReg<A> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, flow, active, epsn, rd_addr, rd_psn, rd_idx, rd_only, cnp_on_ce);
        if self.load.val() {
            self.flow.d.next = self.d.flow.val();
            self.active.d.next = self.d.active.val();
            self.epsn.d.next = self.d.epsn.val();
            self.rd_addr.d.next = self.d.rd_addr.val();
            self.rd_psn.d.next = self.d.rd_psn.val();
            self.rd_idx.d.next = self.d.rd_idx.val();
            self.rd_only.d.next = self.d.rd_only.val();
            self.cnp_on_ce.d.next = self.d.cnp_on_ce.val();
        }
        self.q.valid.next = false;
        self.q.flow.next = self.flow.q.val();
        self.q.active.next = self.active.q.val();
        self.q.epsn.next = self.epsn.q.val();
        self.q.rd_addr.next = self.rd_addr.q.val();
        self.q.rd_psn.next = self.rd_psn.q.val();
        self.q.rd_idx.next = self.rd_idx.q.val();
        self.q.rd_only.next = self.rd_only.q.val();
        self.q.cnp_on_ce.next = self.cnp_on_ce.q.val();
    }
}

#[derive(LogicBlock, Default)]
pub struct RxCtxMux<const A: usize> {
    pub clock: Signal<In, Clock>,
    pub s_cfg: RxFlowCtxSink<A>,
    pub s_req: RxFlowCtxSink<A>,
    pub m_ctx: RxFlowCtxSource<A>,
    pub rx_busy: Signal<Out, Bit>,
    /// The write on `m_ctx`, and whether there is one.
    out: CtxReg<A>,
    out_valid: DFF<Bit>,
    /// The configuration write that met a requester write.
    held: CtxReg<A>,
    held_valid: DFF<Bit>,
}

impl<const A: usize> Logic for RxCtxMux<A> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, out_valid, held_valid);
        clock!(self, clock, out, held);
        // What goes out next: the requester's write, else the held
        // configuration write, else a new one.
        self.out.load.next = false;
        self.out_valid.d.next = false;
        self.held.load.next = false;
        self.out.d.valid.next = false;
        self.held.d.valid.next = false;
        self.out.d.flow.next = self.s_cfg.flow.val();
        self.out.d.active.next = self.s_cfg.active.val();
        self.out.d.epsn.next = self.s_cfg.epsn.val();
        self.out.d.rd_addr.next = self.s_cfg.rd_addr.val();
        self.out.d.rd_psn.next = self.s_cfg.rd_psn.val();
        self.out.d.rd_idx.next = self.s_cfg.rd_idx.val();
        self.out.d.rd_only.next = self.s_cfg.rd_only.val();
        self.out.d.cnp_on_ce.next = self.s_cfg.cnp_on_ce.val();
        self.held.d.flow.next = self.s_cfg.flow.val();
        self.held.d.active.next = self.s_cfg.active.val();
        self.held.d.epsn.next = self.s_cfg.epsn.val();
        self.held.d.rd_addr.next = self.s_cfg.rd_addr.val();
        self.held.d.rd_psn.next = self.s_cfg.rd_psn.val();
        self.held.d.rd_idx.next = self.s_cfg.rd_idx.val();
        self.held.d.rd_only.next = self.s_cfg.rd_only.val();
        self.held.d.cnp_on_ce.next = self.s_cfg.cnp_on_ce.val();
        if self.s_req.valid.val() {
            self.out.load.next = true;
            self.out_valid.d.next = true;
            self.out.d.flow.next = self.s_req.flow.val();
            self.out.d.active.next = self.s_req.active.val();
            self.out.d.epsn.next = self.s_req.epsn.val();
            self.out.d.rd_addr.next = self.s_req.rd_addr.val();
            self.out.d.rd_psn.next = self.s_req.rd_psn.val();
            self.out.d.rd_idx.next = self.s_req.rd_idx.val();
            self.out.d.rd_only.next = self.s_req.rd_only.val();
            self.out.d.cnp_on_ce.next = self.s_req.cnp_on_ce.val();
            if self.s_cfg.valid.val() {
                self.held.load.next = true;
                self.held_valid.d.next = true;
            }
        } else if self.held_valid.q.val() {
            self.out.load.next = true;
            self.out_valid.d.next = true;
            self.out.d.flow.next = self.held.q.flow.val();
            self.out.d.active.next = self.held.q.active.val();
            self.out.d.epsn.next = self.held.q.epsn.val();
            self.out.d.rd_addr.next = self.held.q.rd_addr.val();
            self.out.d.rd_psn.next = self.held.q.rd_psn.val();
            self.out.d.rd_idx.next = self.held.q.rd_idx.val();
            self.out.d.rd_only.next = self.held.q.rd_only.val();
            self.out.d.cnp_on_ce.next = self.held.q.cnp_on_ce.val();
            self.held.load.next = self.s_cfg.valid.val();
            self.held_valid.d.next = self.s_cfg.valid.val();
        } else if self.s_cfg.valid.val() {
            self.out.load.next = true;
            self.out_valid.d.next = true;
        }
        self.rx_busy.next = self.held_valid.q.val();
        self.m_ctx.valid.next = self.out_valid.q.val();
        self.m_ctx.flow.next = self.out.q.flow.val();
        self.m_ctx.active.next = self.out.q.active.val();
        self.m_ctx.epsn.next = self.out.q.epsn.val();
        self.m_ctx.rd_addr.next = self.out.q.rd_addr.val();
        self.m_ctx.rd_psn.next = self.out.q.rd_psn.val();
        self.m_ctx.rd_idx.next = self.out.q.rd_idx.val();
        self.m_ctx.rd_only.next = self.out.q.rd_only.val();
        self.m_ctx.cnp_on_ce.next = self.out.q.cnp_on_ce.val();
    }
}
