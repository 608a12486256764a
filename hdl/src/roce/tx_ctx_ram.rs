//! The Tx's flow contexts: what a frame of each flow carries from the
//! host's setup (`docs/roce.md` §1). A block of
//! [`RoceTx`](super::tx::RoceTx): its context RAM and stage P1.
//!
//! Four block RAMs of 2^A words: {dmac, sport}, {smac, pkey}, {sip,
//! dip}, {dqp, tos}. A write lands in the cycle it is strobed; a read at
//! `rd_flow` gives the word a cycle later, and `load` registers it (R3:
//! the RAM's output goes into a register before any logic).
//!
//! # Ports (clock `clock`; no reset: the contents are the host's)
//! - `s_ctx` ([`TxFlowCtxSink`], a strobe): a flow's context written in
//!   every cycle where `s_ctx.valid` is high. MACs and IPs as numbers
//!   whose most significant byte goes first on the wire.
//! - `rd_flow` (A bits): the flow read this cycle; `load`: register the
//!   word read in the cycle before (the parent's P1).
//! - Out, flip-flops (the registered word's fields): `dmac`, `smac` (48),
//!   `sip`, `dip` (32), `sport`, `pkey` (16), `dqp` (24), `tos` (8).
//!
//! # Timing
//! Read at `rd_flow` in cycle t, `load` in t + 1, the fields out from
//! t + 2. A read and a write of the same flow in one cycle: the old
//! context in simulation, undefined on the FPGA (the RAM has no collision
//! bypass); the Tx's doc comment says so to its users.
//!
//! # Bad input
//! None: every flow number addresses a word, and every word is a
//! context (the Tx checks nothing in it).
//!
//! Golden twin: `nic_golden::roce::tx_ctx_ram`.

use crate::mem::Ram;
use crate::roce::TxFlowCtxSink;
use rust_hdl::prelude::*;
use smart_default::SmartDefault;

#[derive(LogicBlock, SmartDefault)]
pub struct TxCtxRam<const A: usize> {
    pub clock: Signal<In, Clock>,
    pub s_ctx: TxFlowCtxSink<A>,
    pub rd_flow: Signal<In, Bits<A>>,
    pub load: Signal<In, Bit>,
    pub dmac: Signal<Out, Bits<48>>,
    pub smac: Signal<Out, Bits<48>>,
    pub sip: Signal<Out, Bits<32>>,
    pub dip: Signal<Out, Bits<32>>,
    pub sport: Signal<Out, Bits<16>>,
    pub pkey: Signal<Out, Bits<16>>,
    pub dqp: Signal<Out, Bits<24>>,
    pub tos: Signal<Out, Bits<8>>,
    ram0: Ram<Bits<64>, A>,
    ram1: Ram<Bits<64>, A>,
    ram2: Ram<Bits<64>, A>,
    ram3: Ram<Bits<32>, A>,
    // The context words, registered out of the block RAMs.
    r_ctx0: DFF<Bits<64>>,
    r_ctx1: DFF<Bits<64>>,
    r_ctx2: DFF<Bits<64>>,
    r_ctx3: DFF<Bits<32>>,
}

impl<const A: usize> Logic for TxCtxRam<A> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, r_ctx0, r_ctx1, r_ctx2, r_ctx3);
        clock!(self, clock, ram0, ram1, ram2, ram3);
        self.ram0.write_enable.next = self.s_ctx.valid.val();
        self.ram1.write_enable.next = self.s_ctx.valid.val();
        self.ram2.write_enable.next = self.s_ctx.valid.val();
        self.ram3.write_enable.next = self.s_ctx.valid.val();
        self.ram0.write_address.next = self.s_ctx.flow.val();
        self.ram1.write_address.next = self.s_ctx.flow.val();
        self.ram2.write_address.next = self.s_ctx.flow.val();
        self.ram3.write_address.next = self.s_ctx.flow.val();
        self.ram0.write_data.next = ((bit_cast::<64, 48>(self.s_ctx.dmac.val()) << 16)
            | bit_cast::<64, 16>(self.s_ctx.sport.val()));
        self.ram1.write_data.next = ((bit_cast::<64, 48>(self.s_ctx.smac.val()) << 16)
            | bit_cast::<64, 16>(self.s_ctx.pkey.val()));
        self.ram2.write_data.next = ((bit_cast::<64, 32>(self.s_ctx.sip.val()) << 32)
            | bit_cast::<64, 32>(self.s_ctx.dip.val()));
        self.ram3.write_data.next = ((bit_cast::<32, 24>(self.s_ctx.dqp.val()) << 8)
            | bit_cast::<32, 8>(self.s_ctx.tos.val()));
        self.ram0.read_address.next = self.rd_flow.val();
        self.ram1.read_address.next = self.rd_flow.val();
        self.ram2.read_address.next = self.rd_flow.val();
        self.ram3.read_address.next = self.rd_flow.val();
        if self.load.val() {
            self.r_ctx0.d.next = self.ram0.read_data.val();
            self.r_ctx1.d.next = self.ram1.read_data.val();
            self.r_ctx2.d.next = self.ram2.read_data.val();
            self.r_ctx3.d.next = self.ram3.read_data.val();
        }
        self.dmac.next = self.r_ctx0.q.val().get_bits::<48>(16);
        self.sport.next = self.r_ctx0.q.val().get_bits::<16>(0);
        self.smac.next = self.r_ctx1.q.val().get_bits::<48>(16);
        self.pkey.next = self.r_ctx1.q.val().get_bits::<16>(0);
        self.sip.next = self.r_ctx2.q.val().get_bits::<32>(32);
        self.dip.next = self.r_ctx2.q.val().get_bits::<32>(0);
        self.dqp.next = self.r_ctx3.q.val().get_bits::<24>(8);
        self.tos.next = self.r_ctx3.q.val().get_bits::<8>(0);
    }
}
