//! The scheduler's per-flow state: one entry per flow, read at S1 and
//! written back at S10. A block of [`FlowSched`](super::FlowSched).
//!
//! One simple dual-port block RAM ([`Ram`]) per field, at one address
//! (2^A flows), so each field is the RAM's own read register, one cycle
//! after its address.
//!
//! # Ports (clock `clock`; no reset: every entry starts at 0)
//! - Write: `write_address` (A bits), `write_enable`, and the entry:
//!   `w_r` (32, R, the rate),
//!   `w_w` (24, W, the window),
//!   `w_una` (32, the oldest unacknowledged byte),
//!   `w_nxt` (32, the next byte to send),
//!   `w_seq_end` (32, the end of the posted bytes (`end` is a Verilog keyword)),
//!   `w_cr` (44, the credit),
//!   `w_last` (32, the time of the last refill),
//!   `w_fl` (2, flags: queued [0], probing [1]),
//!   `w_ep` (8, the epoch).
//! - Read: `read_address` (A bits) → the same fields without `w_`, the
//!   entry at the address of the cycle before.
//!
//! # Timing
//! Latency 1 (the RAMs' read registers); one write and one read a cycle.
//! No combinational path from an input to an output.
//!
//! # Bad input
//! A read and a write of the same entry in one cycle read the old entry
//! in simulation and are undefined on the FPGA ([`Ram`]); the scheduler's
//! interlock keeps a flow out of S1 while it is in S2..S10.
//!
//! Golden twin: `nic_golden::sched::flow_state_ram`.

use crate::mem::Ram;
use rust_hdl::prelude::*;

#[derive(LogicBlock, Default)]
pub struct FlowStateRam<const A: usize> {
    pub clock: Signal<In, Clock>,
    pub write_address: Signal<In, Bits<A>>,
    pub write_enable: Signal<In, Bit>,
    pub w_r: Signal<In, Bits<32>>,
    pub w_w: Signal<In, Bits<24>>,
    pub w_una: Signal<In, Bits<32>>,
    pub w_nxt: Signal<In, Bits<32>>,
    pub w_seq_end: Signal<In, Bits<32>>,
    pub w_cr: Signal<In, Bits<44>>,
    pub w_last: Signal<In, Bits<32>>,
    pub w_fl: Signal<In, Bits<2>>,
    pub w_ep: Signal<In, Bits<8>>,
    pub read_address: Signal<In, Bits<A>>,
    pub r: Signal<Out, Bits<32>>,
    pub w: Signal<Out, Bits<24>>,
    pub una: Signal<Out, Bits<32>>,
    pub nxt: Signal<Out, Bits<32>>,
    pub seq_end: Signal<Out, Bits<32>>,
    pub cr: Signal<Out, Bits<44>>,
    pub last: Signal<Out, Bits<32>>,
    pub fl: Signal<Out, Bits<2>>,
    pub ep: Signal<Out, Bits<8>>,
    ram_r: Ram<Bits<32>, A>,
    ram_w: Ram<Bits<24>, A>,
    ram_una: Ram<Bits<32>, A>,
    ram_nxt: Ram<Bits<32>, A>,
    ram_seq_end: Ram<Bits<32>, A>,
    ram_cr: Ram<Bits<44>, A>,
    ram_last: Ram<Bits<32>, A>,
    ram_fl: Ram<Bits<2>, A>,
    ram_ep: Ram<Bits<8>, A>,
}

impl<const A: usize> Logic for FlowStateRam<A> {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(
            self,
            clock,
            ram_r,
            ram_w,
            ram_una,
            ram_nxt,
            ram_seq_end,
            ram_cr,
            ram_last,
            ram_fl,
            ram_ep
        );
        self.ram_r.write_address.next = self.write_address.val();
        self.ram_r.write_enable.next = self.write_enable.val();
        self.ram_r.write_data.next = self.w_r.val();
        self.ram_r.read_address.next = self.read_address.val();
        self.r.next = self.ram_r.read_data.val();
        self.ram_w.write_address.next = self.write_address.val();
        self.ram_w.write_enable.next = self.write_enable.val();
        self.ram_w.write_data.next = self.w_w.val();
        self.ram_w.read_address.next = self.read_address.val();
        self.w.next = self.ram_w.read_data.val();
        self.ram_una.write_address.next = self.write_address.val();
        self.ram_una.write_enable.next = self.write_enable.val();
        self.ram_una.write_data.next = self.w_una.val();
        self.ram_una.read_address.next = self.read_address.val();
        self.una.next = self.ram_una.read_data.val();
        self.ram_nxt.write_address.next = self.write_address.val();
        self.ram_nxt.write_enable.next = self.write_enable.val();
        self.ram_nxt.write_data.next = self.w_nxt.val();
        self.ram_nxt.read_address.next = self.read_address.val();
        self.nxt.next = self.ram_nxt.read_data.val();
        self.ram_seq_end.write_address.next = self.write_address.val();
        self.ram_seq_end.write_enable.next = self.write_enable.val();
        self.ram_seq_end.write_data.next = self.w_seq_end.val();
        self.ram_seq_end.read_address.next = self.read_address.val();
        self.seq_end.next = self.ram_seq_end.read_data.val();
        self.ram_cr.write_address.next = self.write_address.val();
        self.ram_cr.write_enable.next = self.write_enable.val();
        self.ram_cr.write_data.next = self.w_cr.val();
        self.ram_cr.read_address.next = self.read_address.val();
        self.cr.next = self.ram_cr.read_data.val();
        self.ram_last.write_address.next = self.write_address.val();
        self.ram_last.write_enable.next = self.write_enable.val();
        self.ram_last.write_data.next = self.w_last.val();
        self.ram_last.read_address.next = self.read_address.val();
        self.last.next = self.ram_last.read_data.val();
        self.ram_fl.write_address.next = self.write_address.val();
        self.ram_fl.write_enable.next = self.write_enable.val();
        self.ram_fl.write_data.next = self.w_fl.val();
        self.ram_fl.read_address.next = self.read_address.val();
        self.fl.next = self.ram_fl.read_data.val();
        self.ram_ep.write_address.next = self.write_address.val();
        self.ram_ep.write_enable.next = self.write_enable.val();
        self.ram_ep.write_data.next = self.w_ep.val();
        self.ram_ep.read_address.next = self.read_address.val();
        self.ep.next = self.ram_ep.read_data.val();
    }
}
