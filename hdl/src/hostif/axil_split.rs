//! AXI4-Lite address split: one master (`s_axil`) onto two slaves by
//! address. Below `nic_spec::board::HOST_MEM_BASE` an access goes to
//! `m_axil_a` (the NIC's registers) with its address unchanged; at or
//! above it, to `m_axil_b` (the board's host memory) with `BASE`
//! subtracted. This is how the board's UART bridge reaches both the
//! NIC and its host memory (`docs/board.md` §4).
//!
//! - Writes: AW and W are each taken into a one-entry register (either
//!   order, or the same cycle); with both there, AW and W are offered to
//!   the selected slave (valid from registers, each dropped once taken);
//!   its B is taken into a register and offered on `s_axil`. The next
//!   write's AW and W may be taken while that B waits; they are offered
//!   to a slave once it has left.
//! - Reads: AR into a register, offered to the selected slave; its R into
//!   a register, offered on `s_axil`; the next AR the same way.
//! - Reads and writes are independent: one of each may be outstanding,
//!   to the same slave or to different ones.
//! - A slave's B or R is taken only while an access to it is
//!   outstanding (`bready`/`rready` low otherwise): an answer without a
//!   request waits, and is never given to the master.
//! - `awprot`/`arprot` are passed on unchanged.
//!
//! Ports (clock `clock`): `reset` (synchronous, active high: every
//! register empty, nothing outstanding, `awready`/`wready`/`arready`
//! low; an access a slave has taken is
//! forgotten, and its late answer is not taken: reset the slaves with
//! it), `s_axil` (`AxiLite`), `m_axil_a`, `m_axil_b` (`AxiLiteMaster`).
//!
//! Timing: AW and W in cycle t → offered to the slave in t + 1; a B
//! taken in cycle u → `s_axil.bvalid` in u + 1 (reads the same). So an
//! access costs the slave's latency + 2 cycles.
//!
//! Bad input: none at this level (every address belongs to one slave).
//!
//! Golden twin: `nic_golden::hostif::axil_split`.

use crate::hostif::{AxiLite, AxiLiteMaster};
use nic_spec::board::HOST_MEM_BASE;
use rust_hdl::prelude::*;
use smart_default::SmartDefault;

#[derive(LogicBlock, SmartDefault)]
pub struct AxilSplit {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub s_axil: AxiLite,
    pub m_axil_a: AxiLiteMaster,
    pub m_axil_b: AxiLiteMaster,
    aw_v: DFF<Bit>,
    aw_addr: DFF<Bits<16>>,
    aw_prot: DFF<Bits<3>>,
    w_v: DFF<Bit>,
    w_data: DFF<Bits<32>>,
    w_strb: DFF<Bits<4>>,
    /// The write's AW, W have been taken by the slave.
    aw_sent: DFF<Bit>,
    w_sent: DFF<Bit>,
    b_v: DFF<Bit>,
    b_resp: DFF<Bits<2>>,
    ar_v: DFF<Bit>,
    ar_addr: DFF<Bits<16>>,
    ar_prot: DFF<Bits<3>>,
    /// The read's AR has been taken by the slave.
    ar_sent: DFF<Bit>,
    r_v: DFF<Bit>,
    r_data: DFF<Bits<32>>,
    r_resp: DFF<Bits<2>>,
    #[default(Constant::new(Bits::<16>::from(HOST_MEM_BASE as u64)))]
    k_base: Constant<Bits<16>>,
    /// The write / read goes to `m_axil_b`.
    wr_b: Signal<Local, Bit>,
    rd_b: Signal<Local, Bit>,
    /// Both AW and W are there and not yet sent on; the write waits for B.
    wr_offer: Signal<Local, Bit>,
    wr_wait: Signal<Local, Bit>,
    rd_wait: Signal<Local, Bit>,
    aw_taken: Signal<Local, Bit>,
    w_taken: Signal<Local, Bit>,
    ar_taken: Signal<Local, Bit>,
    b_in: Signal<Local, Bit>,
    r_in: Signal<Local, Bit>,
    b_out_resp: Signal<Local, Bits<2>>,
    r_out_data: Signal<Local, Bits<32>>,
    r_out_resp: Signal<Local, Bits<2>>,
}

impl Logic for AxilSplit {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, aw_v, aw_addr, aw_prot, w_v, w_data, w_strb, aw_sent, w_sent, b_v, b_resp,
            ar_v, ar_addr, ar_prot, ar_sent, r_v, r_data, r_resp
        );
        self.wr_b.next = (self.aw_addr.q.val() >= self.k_base.val());
        self.rd_b.next = (self.ar_addr.q.val() >= self.k_base.val());
        // ---- Write: collect AW and W, send them on, wait for B.
        self.wr_offer.next = (self.aw_v.q.val() && self.w_v.q.val() && !self.b_v.q.val());
        self.wr_wait.next = (self.wr_offer.val() && self.aw_sent.q.val() && self.w_sent.q.val());
        self.s_axil.awready.next = (!self.aw_v.q.val() && !self.reset.val());
        self.s_axil.wready.next = (!self.w_v.q.val() && !self.reset.val());
        // Both slaves see the address, data and strobes; only the selected
        // one a valid.
        self.m_axil_a.awaddr.next = self.aw_addr.q.val();
        self.m_axil_b.awaddr.next = (self.aw_addr.q.val() - self.k_base.val());
        self.m_axil_a.awprot.next = self.aw_prot.q.val();
        self.m_axil_b.awprot.next = self.aw_prot.q.val();
        self.m_axil_a.wdata.next = self.w_data.q.val();
        self.m_axil_b.wdata.next = self.w_data.q.val();
        self.m_axil_a.wstrb.next = self.w_strb.q.val();
        self.m_axil_b.wstrb.next = self.w_strb.q.val();
        self.m_axil_a.awvalid.next =
            (self.wr_offer.val() && !self.aw_sent.q.val() && !self.wr_b.val());
        self.m_axil_b.awvalid.next =
            (self.wr_offer.val() && !self.aw_sent.q.val() && self.wr_b.val());
        self.m_axil_a.wvalid.next =
            (self.wr_offer.val() && !self.w_sent.q.val() && !self.wr_b.val());
        self.m_axil_b.wvalid.next =
            (self.wr_offer.val() && !self.w_sent.q.val() && self.wr_b.val());
        self.m_axil_a.bready.next = (self.wr_wait.val() && !self.wr_b.val());
        self.m_axil_b.bready.next = (self.wr_wait.val() && self.wr_b.val());
        self.aw_taken.next = ((self.wr_offer.val() && !self.aw_sent.q.val())
            && ((self.wr_b.val() && self.m_axil_b.awready.val())
                || (!self.wr_b.val() && self.m_axil_a.awready.val())));
        self.w_taken.next = ((self.wr_offer.val() && !self.w_sent.q.val())
            && ((self.wr_b.val() && self.m_axil_b.wready.val())
                || (!self.wr_b.val() && self.m_axil_a.wready.val())));
        self.b_in.next = (self.wr_wait.val()
            && ((self.wr_b.val() && self.m_axil_b.bvalid.val())
                || (!self.wr_b.val() && self.m_axil_a.bvalid.val())));
        self.b_out_resp.next = self.m_axil_a.bresp.val();
        if self.wr_b.val() {
            self.b_out_resp.next = self.m_axil_b.bresp.val();
        }
        if self.aw_taken.val() {
            self.aw_sent.d.next = true;
        }
        if self.w_taken.val() {
            self.w_sent.d.next = true;
        }
        if self.b_in.val() {
            // The write is done: AW and W empty, B to the master.
            self.aw_v.d.next = false;
            self.w_v.d.next = false;
            self.aw_sent.d.next = false;
            self.w_sent.d.next = false;
            self.b_v.d.next = true;
            self.b_resp.d.next = self.b_out_resp.val();
        }
        self.s_axil.bvalid.next = self.b_v.q.val();
        self.s_axil.bresp.next = self.b_resp.q.val();
        if (self.b_v.q.val() && self.s_axil.bready.val()) {
            self.b_v.d.next = false;
        }
        // AW and W are taken when their register is empty; while a B is
        // held, the next write waits in them (`wr_offer` is low).
        if (self.s_axil.awvalid.val() && !self.aw_v.q.val() && !self.reset.val()) {
            self.aw_v.d.next = true;
            self.aw_addr.d.next = self.s_axil.awaddr.val();
            self.aw_prot.d.next = self.s_axil.awprot.val();
        }
        if (self.s_axil.wvalid.val() && !self.w_v.q.val() && !self.reset.val()) {
            self.w_v.d.next = true;
            self.w_data.d.next = self.s_axil.wdata.val();
            self.w_strb.d.next = self.s_axil.wstrb.val();
        }

        // ---- Read: AR, send it on, wait for R.
        self.rd_wait.next = (self.ar_v.q.val() && self.ar_sent.q.val());
        self.s_axil.arready.next = (!self.ar_v.q.val() && !self.reset.val());
        self.m_axil_a.araddr.next = self.ar_addr.q.val();
        self.m_axil_b.araddr.next = (self.ar_addr.q.val() - self.k_base.val());
        self.m_axil_a.arprot.next = self.ar_prot.q.val();
        self.m_axil_b.arprot.next = self.ar_prot.q.val();
        self.m_axil_a.arvalid.next =
            (self.ar_v.q.val() && !self.ar_sent.q.val() && !self.r_v.q.val() && !self.rd_b.val());
        self.m_axil_b.arvalid.next =
            (self.ar_v.q.val() && !self.ar_sent.q.val() && !self.r_v.q.val() && self.rd_b.val());
        self.m_axil_a.rready.next = (self.rd_wait.val() && !self.rd_b.val());
        self.m_axil_b.rready.next = (self.rd_wait.val() && self.rd_b.val());
        self.ar_taken.next = ((self.ar_v.q.val() && !self.ar_sent.q.val() && !self.r_v.q.val())
            && ((self.rd_b.val() && self.m_axil_b.arready.val())
                || (!self.rd_b.val() && self.m_axil_a.arready.val())));
        self.r_in.next = (self.rd_wait.val()
            && ((self.rd_b.val() && self.m_axil_b.rvalid.val())
                || (!self.rd_b.val() && self.m_axil_a.rvalid.val())));
        self.r_out_data.next = self.m_axil_a.rdata.val();
        self.r_out_resp.next = self.m_axil_a.rresp.val();
        if self.rd_b.val() {
            self.r_out_data.next = self.m_axil_b.rdata.val();
            self.r_out_resp.next = self.m_axil_b.rresp.val();
        }
        if self.ar_taken.val() {
            self.ar_sent.d.next = true;
        }
        if self.r_in.val() {
            self.ar_v.d.next = false;
            self.ar_sent.d.next = false;
            self.r_v.d.next = true;
            self.r_data.d.next = self.r_out_data.val();
            self.r_resp.d.next = self.r_out_resp.val();
        }
        self.s_axil.rvalid.next = self.r_v.q.val();
        self.s_axil.rdata.next = self.r_data.q.val();
        self.s_axil.rresp.next = self.r_resp.q.val();
        if (self.r_v.q.val() && self.s_axil.rready.val()) {
            self.r_v.d.next = false;
        }
        if (self.s_axil.arvalid.val() && !self.ar_v.q.val() && !self.reset.val()) {
            self.ar_v.d.next = true;
            self.ar_addr.d.next = self.s_axil.araddr.val();
            self.ar_prot.d.next = self.s_axil.arprot.val();
        }

        if self.reset.val() {
            self.aw_v.d.next = false;
            self.w_v.d.next = false;
            self.aw_sent.d.next = false;
            self.w_sent.d.next = false;
            self.b_v.d.next = false;
            self.ar_v.d.next = false;
            self.ar_sent.d.next = false;
            self.r_v.d.next = false;
        }
    }
}
