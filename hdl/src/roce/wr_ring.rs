//! The requester's work-request ring: one entry per (flow, slot), the
//! fields a work request keeps while its packets are sent and
//! acknowledged. A block of [`Requester`](super::requester::Requester).
//!
//! Eight simple dual-port block RAMs ([`Ram`]), one per field, at one
//! address (`flow << Q | slot`, 2^AQ entries), with the read registered
//! as it leaves the RAM (timing rule R3): the requester reads one cycle
//! ahead, so a field is at the outputs two cycles after its address.
//!
//! # Ports (clock `clock`; no reset: every entry and register starts at 0)
//! - Write: `write_address` (AQ bits), `write_enable`, and the entry:
//!   `w_read` (5 bits: bit 0 a READ, bits 4..1 its landing entry),
//!   `w_laddr` (64, the local address), `w_va` (64), `w_rkey` (32),
//!   `w_len` (32, bytes), `w_tag` (32), `w_seq_first` (32, the byte
//!   sequence of its first byte), `w_psn_first` (24, its first PSN).
//! - Read: `read_address` (AQ bits) → `read`, `laddr`, `va`, `rkey`,
//!   `len`, `tag`, `seq_first`, `psn_first`: the entry at the address of
//!   two cycles before, each a flip-flop.
//!
//! # Timing
//! Latency 2 (RAM, then its output register); one write and one read a
//! cycle. No combinational path from an input to an output.
//!
//! # Bad input
//! A read and a write of the same entry in one cycle read the old entry
//! in simulation (rust-hdl, Verilator, Icarus) and are undefined on the
//! FPGA ([`Ram`]); the requester never reads an entry in the cycle it
//! writes it (it writes in `Decide`, and reads the slot that state
//! chooses next).
//!
//! Golden twin: `nic_golden::roce::wr_ring`.

use crate::mem::Ram;
use rust_hdl::prelude::*;

#[derive(LogicBlock, Default)]
pub struct WrRing<const AQ: usize> {
    pub clock: Signal<In, Clock>,
    pub write_address: Signal<In, Bits<AQ>>,
    pub write_enable: Signal<In, Bit>,
    pub w_read: Signal<In, Bits<5>>,
    pub w_laddr: Signal<In, Bits<64>>,
    pub w_va: Signal<In, Bits<64>>,
    pub w_rkey: Signal<In, Bits<32>>,
    pub w_len: Signal<In, Bits<32>>,
    pub w_tag: Signal<In, Bits<32>>,
    pub w_seq_first: Signal<In, Bits<32>>,
    pub w_psn_first: Signal<In, Bits<24>>,
    pub read_address: Signal<In, Bits<AQ>>,
    pub read: Signal<Out, Bits<5>>,
    pub laddr: Signal<Out, Bits<64>>,
    pub va: Signal<Out, Bits<64>>,
    pub rkey: Signal<Out, Bits<32>>,
    pub len: Signal<Out, Bits<32>>,
    pub tag: Signal<Out, Bits<32>>,
    pub seq_first: Signal<Out, Bits<32>>,
    pub psn_first: Signal<Out, Bits<24>>,
    ram_read: Ram<Bits<5>, AQ>,
    ram_laddr: Ram<Bits<64>, AQ>,
    ram_va: Ram<Bits<64>, AQ>,
    ram_rkey: Ram<Bits<32>, AQ>,
    ram_len: Ram<Bits<32>, AQ>,
    ram_tag: Ram<Bits<32>, AQ>,
    ram_seq_first: Ram<Bits<32>, AQ>,
    ram_psn_first: Ram<Bits<24>, AQ>,
    read_q: DFF<Bits<5>>,
    laddr_q: DFF<Bits<64>>,
    va_q: DFF<Bits<64>>,
    rkey_q: DFF<Bits<32>>,
    len_q: DFF<Bits<32>>,
    tag_q: DFF<Bits<32>>,
    seq_first_q: DFF<Bits<32>>,
    psn_first_q: DFF<Bits<24>>,
}

impl<const AQ: usize> Logic for WrRing<AQ> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            read_q,
            laddr_q,
            va_q,
            rkey_q,
            len_q,
            tag_q,
            seq_first_q,
            psn_first_q
        );
        clock!(
            self,
            clock,
            ram_read,
            ram_laddr,
            ram_va,
            ram_rkey,
            ram_len,
            ram_tag,
            ram_seq_first,
            ram_psn_first
        );
        // The write port.
        self.ram_read.write_address.next = self.write_address.val();
        self.ram_laddr.write_address.next = self.write_address.val();
        self.ram_va.write_address.next = self.write_address.val();
        self.ram_rkey.write_address.next = self.write_address.val();
        self.ram_len.write_address.next = self.write_address.val();
        self.ram_tag.write_address.next = self.write_address.val();
        self.ram_seq_first.write_address.next = self.write_address.val();
        self.ram_psn_first.write_address.next = self.write_address.val();
        self.ram_read.write_enable.next = self.write_enable.val();
        self.ram_laddr.write_enable.next = self.write_enable.val();
        self.ram_va.write_enable.next = self.write_enable.val();
        self.ram_rkey.write_enable.next = self.write_enable.val();
        self.ram_len.write_enable.next = self.write_enable.val();
        self.ram_tag.write_enable.next = self.write_enable.val();
        self.ram_seq_first.write_enable.next = self.write_enable.val();
        self.ram_psn_first.write_enable.next = self.write_enable.val();
        self.ram_read.write_data.next = self.w_read.val();
        self.ram_laddr.write_data.next = self.w_laddr.val();
        self.ram_va.write_data.next = self.w_va.val();
        self.ram_rkey.write_data.next = self.w_rkey.val();
        self.ram_len.write_data.next = self.w_len.val();
        self.ram_tag.write_data.next = self.w_tag.val();
        self.ram_seq_first.write_data.next = self.w_seq_first.val();
        self.ram_psn_first.write_data.next = self.w_psn_first.val();
        // The read port, registered as it leaves the RAM.
        self.ram_read.read_address.next = self.read_address.val();
        self.ram_laddr.read_address.next = self.read_address.val();
        self.ram_va.read_address.next = self.read_address.val();
        self.ram_rkey.read_address.next = self.read_address.val();
        self.ram_len.read_address.next = self.read_address.val();
        self.ram_tag.read_address.next = self.read_address.val();
        self.ram_seq_first.read_address.next = self.read_address.val();
        self.ram_psn_first.read_address.next = self.read_address.val();
        self.read_q.d.next = self.ram_read.read_data.val();
        self.laddr_q.d.next = self.ram_laddr.read_data.val();
        self.va_q.d.next = self.ram_va.read_data.val();
        self.rkey_q.d.next = self.ram_rkey.read_data.val();
        self.len_q.d.next = self.ram_len.read_data.val();
        self.tag_q.d.next = self.ram_tag.read_data.val();
        self.seq_first_q.d.next = self.ram_seq_first.read_data.val();
        self.psn_first_q.d.next = self.ram_psn_first.read_data.val();
        self.read.next = self.read_q.q.val();
        self.laddr.next = self.laddr_q.q.val();
        self.va.next = self.va_q.q.val();
        self.rkey.next = self.rkey_q.q.val();
        self.len.next = self.len_q.q.val();
        self.tag.next = self.tag_q.q.val();
        self.seq_first.next = self.seq_first_q.q.val();
        self.psn_first.next = self.psn_first_q.q.val();
    }
}
