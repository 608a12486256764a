//! AXI4-Lite slave: the five channels of [`AxiLite`] → one register
//! access at a time (`m_req`, `RegReq`) and its answer (`s_resp`,
//! `RegResp`) → the B or R channel.
//!
//! - Write address and write data are taken independently, each into a
//!   one-entry register (`awready` = `wready` = that register is empty),
//!   in either order or in the same cycle; a write is issued once both
//!   are there.
//! - Reads and writes alternate when both wait (a write goes first after
//!   a read, a read after a write), so neither starves.
//! - One access is outstanding at a time: the next is issued after the
//!   answer of the last one has left on B or R, so back-pressure on
//!   `bready`/`rready` holds the slave, never loses a response.
//! - `awprot`/`arprot` are ignored; addresses pass unchanged (the
//!   register decoder checks alignment).
//!
//! Ports (clock `clock`): `reset` (synchronous, active high: every
//! channel empty, nothing outstanding), `s_axil` (AXI4-Lite, 16-bit
//! addresses, 32-bit data), `m_req` (`RegReq`, valid/ready; `valid`
//! from registers only), `s_resp` (`RegResp`, strobe: the answer to the
//! outstanding access; ignored when none is).
//!
//! Timing: AW and W in cycle t → `m_req` in t + 1; an answer strobed in
//! cycle u → `bvalid`/`rvalid` in u + 1. Throughput: one access per
//! answer latency + 3 cycles.
//!
//! Bad input: none possible at this level (every address and strobe
//! pattern is passed on; the decoder answers SLVERR or DECERR).
//!
//! Golden twin: `nic_golden::hostif::axil_slave`.

use crate::hostif::{AxiLite, RegReqSource, RegRespSink};
use rust_hdl::prelude::*;

#[derive(LogicBlock, Default)]
pub struct AxilSlave {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub s_axil: AxiLite,
    pub m_req: RegReqSource,
    pub s_resp: RegRespSink,
    aw_v: DFF<Bit>,
    aw_a: DFF<Bits<16>>,
    w_v: DFF<Bit>,
    w_d: DFF<Bits<32>>,
    w_s: DFF<Bits<4>>,
    ar_v: DFF<Bit>,
    ar_a: DFF<Bits<16>>,
    /// An access is outstanding, and whether it is a write.
    busy: DFF<Bit>,
    busy_wr: DFF<Bit>,
    /// 1: a read goes first when both wait.
    turn_rd: DFF<Bit>,
    b_v: DFF<Bit>,
    b_r: DFF<Bits<2>>,
    r_v: DFF<Bit>,
    r_d: DFF<Bits<32>>,
    r_r: DFF<Bits<2>>,
    can_issue: Signal<Local, Bit>,
    pick_wr: Signal<Local, Bit>,
}

impl Logic for AxilSlave {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, aw_v, aw_a, w_v, w_d, w_s, ar_v, ar_a, busy, busy_wr, turn_rd, b_v, b_r,
            r_v, r_d, r_r
        );
        // ---- Address and data channels into their registers.
        self.s_axil.awready.next = !self.aw_v.q.val();
        self.s_axil.wready.next = !self.w_v.q.val();
        self.s_axil.arready.next = !self.ar_v.q.val();
        if (self.s_axil.awvalid.val() && !self.aw_v.q.val()) {
            self.aw_v.d.next = true;
            self.aw_a.d.next = self.s_axil.awaddr.val();
        }
        if (self.s_axil.wvalid.val() && !self.w_v.q.val()) {
            self.w_v.d.next = true;
            self.w_d.d.next = self.s_axil.wdata.val();
            self.w_s.d.next = self.s_axil.wstrb.val();
        }
        if (self.s_axil.arvalid.val() && !self.ar_v.q.val()) {
            self.ar_v.d.next = true;
            self.ar_a.d.next = self.s_axil.araddr.val();
        }
        // ---- One access at a time.
        self.can_issue.next = (!self.busy.q.val() && !self.b_v.q.val() && !self.r_v.q.val());
        self.pick_wr.next = (self.aw_v.q.val()
            && self.w_v.q.val()
            && (!self.ar_v.q.val() || !self.turn_rd.q.val()));
        self.m_req.valid.next = (self.can_issue.val()
            && ((self.aw_v.q.val() && self.w_v.q.val()) || self.ar_v.q.val()));
        self.m_req.write.next = self.pick_wr.val();
        self.m_req.addr.next = self.ar_a.q.val();
        if self.pick_wr.val() {
            self.m_req.addr.next = self.aw_a.q.val();
        }
        self.m_req.wdata.next = self.w_d.q.val();
        self.m_req.wstrb.next = self.w_s.q.val();
        if (self.m_req.valid.val() && self.m_req.ready.val()) {
            self.busy.d.next = true;
            self.busy_wr.d.next = self.pick_wr.val();
            self.turn_rd.d.next = self.pick_wr.val();
            if self.pick_wr.val() {
                self.aw_v.d.next = false;
                self.w_v.d.next = false;
            } else {
                self.ar_v.d.next = false;
            }
        }
        // ---- The answer onto B or R.
        if (self.s_resp.valid.val() && self.busy.q.val()) {
            self.busy.d.next = false;
            if self.busy_wr.q.val() {
                self.b_v.d.next = true;
                self.b_r.d.next = self.s_resp.resp.val();
            } else {
                self.r_v.d.next = true;
                self.r_d.d.next = self.s_resp.rdata.val();
                self.r_r.d.next = self.s_resp.resp.val();
            }
        }
        self.s_axil.bvalid.next = self.b_v.q.val();
        self.s_axil.bresp.next = self.b_r.q.val();
        if (self.b_v.q.val() && self.s_axil.bready.val()) {
            self.b_v.d.next = false;
        }
        self.s_axil.rvalid.next = self.r_v.q.val();
        self.s_axil.rdata.next = self.r_d.q.val();
        self.s_axil.rresp.next = self.r_r.q.val();
        if (self.r_v.q.val() && self.s_axil.rready.val()) {
            self.r_v.d.next = false;
        }
        if self.reset.val() {
            self.aw_v.d.next = false;
            self.w_v.d.next = false;
            self.ar_v.d.next = false;
            self.busy.d.next = false;
            self.turn_rd.d.next = false;
            self.b_v.d.next = false;
            self.r_v.d.next = false;
        }
    }
}
