//! The requester's flow state: one entry per flow, the words an
//! operation reads in `FlowRd` and writes back in `Wb`. A block of
//! [`Requester`](super::requester::Requester).
//!
//! Four simple dual-port block RAMs ([`Ram`]) at one address (2^A
//! flows), whose widths fill the DP16KD's 36-bit columns (8 DP16KD where
//! one RAM per field took 14), with the read registered as it leaves
//! the RAM (timing rule R3: no logic follows the RAM's clock-to-out in
//! the cycle it reads):
//! - `w0` (36): flags: `active` (0), `tlm_data` (1), `armed` (2),
//!   `rd_open` (6..3), `rd_post` (10..7), `err` (11), `retries`
//!   (14..12), `retry_limit` (17..15); `head` (26..18), `send_ix`
//!   (35..27);
//! - `w1` (34): `db` (8..0), `tail` (17..9), `gen` (25..18), `epoch`
//!   (33..26);
//! - `seq` (96): `seq_tail`, `una`, `seq_exp`, 32 bits each;
//! - `psn` (96): `rd_k`, `psn_tail`, `psn_next`, `psn_max`, 24 bits each.
//!
//! # Ports (clock `clock`; no reset: every entry and register starts at 0)
//! - Write: `write_address` (A bits), `write_enable`, and the entry, each
//!   field `w_<name>` at the width above (the requester's
//!   `nic_golden::roce::requester::FlowState`; ring indices 9 bits).
//! - Read: `read_address` (A bits) → the fields without `w_`: the entry
//!   at the address of two cycles before, each a flip-flop's bits.
//!
//! # Timing
//! Latency 2 (RAM, then its output register); one write and one read a
//! cycle. No combinational path from an input to an output.
//!
//! # Bad input
//! A read and a write of the same entry in one cycle read the old entry
//! in simulation and are undefined on the FPGA ([`Ram`]); the requester
//! reads in `Idle` and writes only in `Wb`, which `Idle` follows.
//!
//! Golden twin: `nic_golden::roce::req_state_ram`.

use crate::mem::Ram;
use rust_hdl::prelude::*;

/// The flow state words of 2^A flows.
#[derive(LogicBlock, Default)]
pub struct ReqStateRam<const A: usize> {
    pub clock: Signal<In, Clock>,
    pub write_address: Signal<In, Bits<A>>,
    pub write_enable: Signal<In, Bit>,
    pub w_active: Signal<In, Bit>,
    pub w_tlm_data: Signal<In, Bit>,
    pub w_armed: Signal<In, Bit>,
    pub w_rd_open: Signal<In, Bits<4>>,
    pub w_rd_post: Signal<In, Bits<4>>,
    pub w_err: Signal<In, Bit>,
    pub w_retries: Signal<In, Bits<3>>,
    pub w_retry_limit: Signal<In, Bits<3>>,
    pub w_head: Signal<In, Bits<9>>,
    pub w_send_ix: Signal<In, Bits<9>>,
    pub w_db: Signal<In, Bits<9>>,
    pub w_tail: Signal<In, Bits<9>>,
    pub w_gen: Signal<In, Bits<8>>,
    pub w_epoch: Signal<In, Bits<8>>,
    pub w_seq_tail: Signal<In, Bits<32>>,
    pub w_una: Signal<In, Bits<32>>,
    pub w_seq_exp: Signal<In, Bits<32>>,
    pub w_rd_k: Signal<In, Bits<24>>,
    pub w_psn_tail: Signal<In, Bits<24>>,
    pub w_psn_next: Signal<In, Bits<24>>,
    pub w_psn_max: Signal<In, Bits<24>>,
    pub read_address: Signal<In, Bits<A>>,
    pub active: Signal<Out, Bit>,
    pub tlm_data: Signal<Out, Bit>,
    pub armed: Signal<Out, Bit>,
    pub rd_open: Signal<Out, Bits<4>>,
    pub rd_post: Signal<Out, Bits<4>>,
    pub err: Signal<Out, Bit>,
    pub retries: Signal<Out, Bits<3>>,
    pub retry_limit: Signal<Out, Bits<3>>,
    pub head: Signal<Out, Bits<9>>,
    pub send_ix: Signal<Out, Bits<9>>,
    pub db: Signal<Out, Bits<9>>,
    pub tail: Signal<Out, Bits<9>>,
    pub gen: Signal<Out, Bits<8>>,
    pub epoch: Signal<Out, Bits<8>>,
    pub seq_tail: Signal<Out, Bits<32>>,
    pub una: Signal<Out, Bits<32>>,
    pub seq_exp: Signal<Out, Bits<32>>,
    pub rd_k: Signal<Out, Bits<24>>,
    pub psn_tail: Signal<Out, Bits<24>>,
    pub psn_next: Signal<Out, Bits<24>>,
    pub psn_max: Signal<Out, Bits<24>>,
    ram_w0: Ram<Bits<36>, A>,
    ram_w1: Ram<Bits<34>, A>,
    ram_seq: Ram<Bits<96>, A>,
    ram_psn: Ram<Bits<96>, A>,
    // The output registers (R3).
    q_w0: DFF<Bits<36>>,
    q_w1: DFF<Bits<34>>,
    q_seq: DFF<Bits<96>>,
    q_psn: DFF<Bits<96>>,
}

impl<const A: usize> Logic for ReqStateRam<A> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, q_w0, q_w1, q_seq, q_psn);
        clock!(self, clock, ram_w0, ram_w1, ram_seq, ram_psn);
        self.ram_w0.write_address.next = self.write_address.val();
        self.ram_w0.write_enable.next = self.write_enable.val();
        self.ram_w0.read_address.next = self.read_address.val();
        self.q_w0.d.next = self.ram_w0.read_data.val();
        self.ram_w1.write_address.next = self.write_address.val();
        self.ram_w1.write_enable.next = self.write_enable.val();
        self.ram_w1.read_address.next = self.read_address.val();
        self.q_w1.d.next = self.ram_w1.read_data.val();
        self.ram_seq.write_address.next = self.write_address.val();
        self.ram_seq.write_enable.next = self.write_enable.val();
        self.ram_seq.read_address.next = self.read_address.val();
        self.q_seq.d.next = self.ram_seq.read_data.val();
        self.ram_psn.write_address.next = self.write_address.val();
        self.ram_psn.write_enable.next = self.write_enable.val();
        self.ram_psn.read_address.next = self.read_address.val();
        self.q_psn.d.next = self.ram_psn.read_data.val();
        self.ram_w0.write_data.next =
            (((((((((bit_cast::<36, 1>(self.w_active.val().into())
                | (bit_cast::<36, 1>(self.w_tlm_data.val().into()) << 1))
                | (bit_cast::<36, 1>(self.w_armed.val().into()) << 2))
                | (bit_cast::<36, 4>(self.w_rd_open.val()) << 3))
                | (bit_cast::<36, 4>(self.w_rd_post.val()) << 7))
                | (bit_cast::<36, 1>(self.w_err.val().into()) << 11))
                | (bit_cast::<36, 3>(self.w_retries.val()) << 12))
                | (bit_cast::<36, 3>(self.w_retry_limit.val()) << 15))
                | (bit_cast::<36, 9>(self.w_head.val()) << 18))
                | (bit_cast::<36, 9>(self.w_send_ix.val()) << 27));
        self.ram_w1.write_data.next = (((bit_cast::<34, 9>(self.w_db.val())
            | (bit_cast::<34, 9>(self.w_tail.val()) << 9))
            | (bit_cast::<34, 8>(self.w_gen.val()) << 18))
            | (bit_cast::<34, 8>(self.w_epoch.val()) << 26));
        self.ram_seq.write_data.next = ((bit_cast::<96, 32>(self.w_seq_tail.val())
            | (bit_cast::<96, 32>(self.w_una.val()) << 32))
            | (bit_cast::<96, 32>(self.w_seq_exp.val()) << 64));
        self.ram_psn.write_data.next = (((bit_cast::<96, 24>(self.w_rd_k.val())
            | (bit_cast::<96, 24>(self.w_psn_tail.val()) << 24))
            | (bit_cast::<96, 24>(self.w_psn_next.val()) << 48))
            | (bit_cast::<96, 24>(self.w_psn_max.val()) << 72));
        self.active.next = self.q_w0.q.val().get_bit(0);
        self.tlm_data.next = self.q_w0.q.val().get_bit(1);
        self.armed.next = self.q_w0.q.val().get_bit(2);
        self.rd_open.next = self.q_w0.q.val().get_bits::<4>(3);
        self.rd_post.next = self.q_w0.q.val().get_bits::<4>(7);
        self.err.next = self.q_w0.q.val().get_bit(11);
        self.retries.next = self.q_w0.q.val().get_bits::<3>(12);
        self.retry_limit.next = self.q_w0.q.val().get_bits::<3>(15);
        self.head.next = self.q_w0.q.val().get_bits::<9>(18);
        self.send_ix.next = self.q_w0.q.val().get_bits::<9>(27);
        self.db.next = self.q_w1.q.val().get_bits::<9>(0);
        self.tail.next = self.q_w1.q.val().get_bits::<9>(9);
        self.gen.next = self.q_w1.q.val().get_bits::<8>(18);
        self.epoch.next = self.q_w1.q.val().get_bits::<8>(26);
        self.seq_tail.next = self.q_seq.q.val().get_bits::<32>(0);
        self.una.next = self.q_seq.q.val().get_bits::<32>(32);
        self.seq_exp.next = self.q_seq.q.val().get_bits::<32>(64);
        self.rd_k.next = self.q_psn.q.val().get_bits::<24>(0);
        self.psn_tail.next = self.q_psn.q.val().get_bits::<24>(24);
        self.psn_next.next = self.q_psn.q.val().get_bits::<24>(48);
        self.psn_max.next = self.q_psn.q.val().get_bits::<24>(72);
    }
}
