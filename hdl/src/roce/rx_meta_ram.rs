//! The parser's metadata queue storage: one entry per frame the parser
//! holds, written as the frame commits and read as it is released. A
//! block of [`RoceRxParse`](super::rx_parse::RoceRxParse).
//!
//! One simple dual-port block RAM ([`Ram`]) per field, at one address
//! (2^MA entries: [`META_A`](super::rx_parse::META_A) in the parser), so
//! each field is the RAM's own read register, one cycle after its
//! address.
//!
//! # Ports (clock `clock`; no reset: every entry starts at 0)
//! - Write: `write_address` (MA bits), `write_enable`, and the entry:
//!   `w_op` (8, the BTH opcode), `w_a` (64: PSN [23:0], AckReq [31],
//!   QP [55:32], telemetry present [56]), `w_va` and `w_rd` (64 each, the
//!   RETH: VA; R_Key [63:32] and DMA length [31:0]), `w_aeth` (32),
//!   `w_tlm_hdr`, `w_tlm_hop0..4` (64 each, the telemetry words), `w_len`
//!   (13, payload bytes), `w_ps` and `w_pay_end` (16 each, the payload's
//!   first and end word in the frame buffer; `end` is a Verilog keyword),
//!   `w_sh` (the payload's shift),
//!   `w_nz` (a payload), `w_ce` (IPv4 ECN = CE).
//! - Read: `read_address` (MA bits) → the same fields without `w_`, the
//!   entry at the address of the cycle before.
//!
//! # Timing
//! Latency 1 (the RAMs' read registers); one write and one read a cycle.
//! No combinational path from an input to an output.
//!
//! # Bad input
//! A read and a write of the same entry in one cycle read the old entry
//! in simulation and are undefined on the FPGA ([`Ram`]); the parser
//! reads only committed entries, behind its write pointer.
//!
//! Golden twin: `nic_golden::roce::rx_meta_ram`.

use crate::mem::Ram;
use rust_hdl::prelude::*;

#[derive(LogicBlock, Default)]
pub struct RxMetaRam<const MA: usize> {
    pub clock: Signal<In, Clock>,
    pub write_address: Signal<In, Bits<MA>>,
    pub write_enable: Signal<In, Bit>,
    pub w_op: Signal<In, Bits<8>>,
    pub w_a: Signal<In, Bits<64>>,
    pub w_va: Signal<In, Bits<64>>,
    pub w_rd: Signal<In, Bits<64>>,
    pub w_aeth: Signal<In, Bits<32>>,
    pub w_tlm_hdr: Signal<In, Bits<64>>,
    pub w_tlm_hop0: Signal<In, Bits<64>>,
    pub w_tlm_hop1: Signal<In, Bits<64>>,
    pub w_tlm_hop2: Signal<In, Bits<64>>,
    pub w_tlm_hop3: Signal<In, Bits<64>>,
    pub w_tlm_hop4: Signal<In, Bits<64>>,
    pub w_len: Signal<In, Bits<13>>,
    pub w_ps: Signal<In, Bits<16>>,
    pub w_pay_end: Signal<In, Bits<16>>,
    pub w_sh: Signal<In, Bit>,
    pub w_nz: Signal<In, Bit>,
    pub w_ce: Signal<In, Bit>,
    pub read_address: Signal<In, Bits<MA>>,
    pub op: Signal<Out, Bits<8>>,
    pub a: Signal<Out, Bits<64>>,
    pub va: Signal<Out, Bits<64>>,
    pub rd: Signal<Out, Bits<64>>,
    pub aeth: Signal<Out, Bits<32>>,
    pub tlm_hdr: Signal<Out, Bits<64>>,
    pub tlm_hop0: Signal<Out, Bits<64>>,
    pub tlm_hop1: Signal<Out, Bits<64>>,
    pub tlm_hop2: Signal<Out, Bits<64>>,
    pub tlm_hop3: Signal<Out, Bits<64>>,
    pub tlm_hop4: Signal<Out, Bits<64>>,
    pub len: Signal<Out, Bits<13>>,
    pub ps: Signal<Out, Bits<16>>,
    pub pay_end: Signal<Out, Bits<16>>,
    pub sh: Signal<Out, Bit>,
    pub nz: Signal<Out, Bit>,
    pub ce: Signal<Out, Bit>,
    ram_op: Ram<Bits<8>, MA>,
    ram_a: Ram<Bits<64>, MA>,
    ram_va: Ram<Bits<64>, MA>,
    ram_rd: Ram<Bits<64>, MA>,
    ram_aeth: Ram<Bits<32>, MA>,
    ram_tlm_hdr: Ram<Bits<64>, MA>,
    ram_tlm_hop0: Ram<Bits<64>, MA>,
    ram_tlm_hop1: Ram<Bits<64>, MA>,
    ram_tlm_hop2: Ram<Bits<64>, MA>,
    ram_tlm_hop3: Ram<Bits<64>, MA>,
    ram_tlm_hop4: Ram<Bits<64>, MA>,
    ram_len: Ram<Bits<13>, MA>,
    ram_ps: Ram<Bits<16>, MA>,
    ram_pay_end: Ram<Bits<16>, MA>,
    ram_sh: Ram<Bit, MA>,
    ram_nz: Ram<Bit, MA>,
    ram_ce: Ram<Bit, MA>,
}

impl<const MA: usize> Logic for RxMetaRam<MA> {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(
            self,
            clock,
            ram_op,
            ram_a,
            ram_va,
            ram_rd,
            ram_aeth,
            ram_tlm_hdr,
            ram_tlm_hop0,
            ram_tlm_hop1,
            ram_tlm_hop2,
            ram_tlm_hop3,
            ram_tlm_hop4,
            ram_len,
            ram_ps,
            ram_pay_end,
            ram_sh,
            ram_nz,
            ram_ce
        );
        self.ram_op.write_address.next = self.write_address.val();
        self.ram_op.write_enable.next = self.write_enable.val();
        self.ram_op.write_data.next = self.w_op.val();
        self.ram_op.read_address.next = self.read_address.val();
        self.op.next = self.ram_op.read_data.val();
        self.ram_a.write_address.next = self.write_address.val();
        self.ram_a.write_enable.next = self.write_enable.val();
        self.ram_a.write_data.next = self.w_a.val();
        self.ram_a.read_address.next = self.read_address.val();
        self.a.next = self.ram_a.read_data.val();
        self.ram_va.write_address.next = self.write_address.val();
        self.ram_va.write_enable.next = self.write_enable.val();
        self.ram_va.write_data.next = self.w_va.val();
        self.ram_va.read_address.next = self.read_address.val();
        self.va.next = self.ram_va.read_data.val();
        self.ram_rd.write_address.next = self.write_address.val();
        self.ram_rd.write_enable.next = self.write_enable.val();
        self.ram_rd.write_data.next = self.w_rd.val();
        self.ram_rd.read_address.next = self.read_address.val();
        self.rd.next = self.ram_rd.read_data.val();
        self.ram_aeth.write_address.next = self.write_address.val();
        self.ram_aeth.write_enable.next = self.write_enable.val();
        self.ram_aeth.write_data.next = self.w_aeth.val();
        self.ram_aeth.read_address.next = self.read_address.val();
        self.aeth.next = self.ram_aeth.read_data.val();
        self.ram_tlm_hdr.write_address.next = self.write_address.val();
        self.ram_tlm_hdr.write_enable.next = self.write_enable.val();
        self.ram_tlm_hdr.write_data.next = self.w_tlm_hdr.val();
        self.ram_tlm_hdr.read_address.next = self.read_address.val();
        self.tlm_hdr.next = self.ram_tlm_hdr.read_data.val();
        self.ram_tlm_hop0.write_address.next = self.write_address.val();
        self.ram_tlm_hop0.write_enable.next = self.write_enable.val();
        self.ram_tlm_hop0.write_data.next = self.w_tlm_hop0.val();
        self.ram_tlm_hop0.read_address.next = self.read_address.val();
        self.tlm_hop0.next = self.ram_tlm_hop0.read_data.val();
        self.ram_tlm_hop1.write_address.next = self.write_address.val();
        self.ram_tlm_hop1.write_enable.next = self.write_enable.val();
        self.ram_tlm_hop1.write_data.next = self.w_tlm_hop1.val();
        self.ram_tlm_hop1.read_address.next = self.read_address.val();
        self.tlm_hop1.next = self.ram_tlm_hop1.read_data.val();
        self.ram_tlm_hop2.write_address.next = self.write_address.val();
        self.ram_tlm_hop2.write_enable.next = self.write_enable.val();
        self.ram_tlm_hop2.write_data.next = self.w_tlm_hop2.val();
        self.ram_tlm_hop2.read_address.next = self.read_address.val();
        self.tlm_hop2.next = self.ram_tlm_hop2.read_data.val();
        self.ram_tlm_hop3.write_address.next = self.write_address.val();
        self.ram_tlm_hop3.write_enable.next = self.write_enable.val();
        self.ram_tlm_hop3.write_data.next = self.w_tlm_hop3.val();
        self.ram_tlm_hop3.read_address.next = self.read_address.val();
        self.tlm_hop3.next = self.ram_tlm_hop3.read_data.val();
        self.ram_tlm_hop4.write_address.next = self.write_address.val();
        self.ram_tlm_hop4.write_enable.next = self.write_enable.val();
        self.ram_tlm_hop4.write_data.next = self.w_tlm_hop4.val();
        self.ram_tlm_hop4.read_address.next = self.read_address.val();
        self.tlm_hop4.next = self.ram_tlm_hop4.read_data.val();
        self.ram_len.write_address.next = self.write_address.val();
        self.ram_len.write_enable.next = self.write_enable.val();
        self.ram_len.write_data.next = self.w_len.val();
        self.ram_len.read_address.next = self.read_address.val();
        self.len.next = self.ram_len.read_data.val();
        self.ram_ps.write_address.next = self.write_address.val();
        self.ram_ps.write_enable.next = self.write_enable.val();
        self.ram_ps.write_data.next = self.w_ps.val();
        self.ram_ps.read_address.next = self.read_address.val();
        self.ps.next = self.ram_ps.read_data.val();
        self.ram_pay_end.write_address.next = self.write_address.val();
        self.ram_pay_end.write_enable.next = self.write_enable.val();
        self.ram_pay_end.write_data.next = self.w_pay_end.val();
        self.ram_pay_end.read_address.next = self.read_address.val();
        self.pay_end.next = self.ram_pay_end.read_data.val();
        self.ram_sh.write_address.next = self.write_address.val();
        self.ram_sh.write_enable.next = self.write_enable.val();
        self.ram_sh.write_data.next = self.w_sh.val();
        self.ram_sh.read_address.next = self.read_address.val();
        self.sh.next = self.ram_sh.read_data.val();
        self.ram_nz.write_address.next = self.write_address.val();
        self.ram_nz.write_enable.next = self.write_enable.val();
        self.ram_nz.write_data.next = self.w_nz.val();
        self.ram_nz.read_address.next = self.read_address.val();
        self.nz.next = self.ram_nz.read_data.val();
        self.ram_ce.write_address.next = self.write_address.val();
        self.ram_ce.write_enable.next = self.write_enable.val();
        self.ram_ce.write_data.next = self.w_ce.val();
        self.ram_ce.read_address.next = self.read_address.val();
        self.ce.next = self.ram_ce.read_data.val();
    }
}
