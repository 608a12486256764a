//! Parser of one hop of the ns-3 HPCC compact telemetry (8 bytes a hop).
//!
//! Ports (combinational, no clock):
//! - in: `word`: `Bits<64>`, the hop as a 64-bit word (see the layout
//!   below).
//! - out: `rate` (3 bits, code), `ts` (24 bits, ns mod 2^24), `bytes`
//!   (20 bits, tx bytes / (128·multi) mod 2^20), `qlen` (17 bits, queue
//!   bytes / (80·multi)); `rate_ok`: the code is known (0 = 25G … 4 =
//!   400G); `qlen_max`: qlen is at its maximum (the switch saturated it).
//!
//! Layout: qlen [63:47], bytes [46:27], ts [26:3], rate [2:0] (the bit
//! positions of ns-3's `IntHop` bit-field).
//!
//! Latency 0. Every word decodes; validity is reported, not enforced:
//! the CC module drops events with an unknown rate code. Another format
//! (IFA 2.0, IOAM, INT-MD) is added as another parser producing the same
//! fields. Golden twin: `nic_golden::cc::int_ns3`.

use rust_hdl::prelude::*;
use smart_default::SmartDefault;

#[derive(LogicBlock, SmartDefault)]
pub struct Ns3HopParse {
    pub word: Signal<In, Bits<64>>,
    pub rate: Signal<Out, Bits<3>>,
    pub ts: Signal<Out, Bits<24>>,
    pub bytes: Signal<Out, Bits<20>>,
    pub qlen: Signal<Out, Bits<17>>,
    pub rate_ok: Signal<Out, Bit>,
    pub qlen_max: Signal<Out, Bit>,
    #[default(Constant::new(4u64.to_bits()))]
    rate_max: Constant<Bits<3>>,
    #[default(Constant::new(0x1FFFFu64.to_bits()))]
    qlen_all: Constant<Bits<17>>,
}

impl Logic for Ns3HopParse {
    #[hdl_gen]
    fn update(&mut self) {
        self.rate.next = self.word.val().get_bits::<3>(0);
        self.ts.next = self.word.val().get_bits::<24>(3);
        self.bytes.next = self.word.val().get_bits::<20>(27);
        self.qlen.next = self.word.val().get_bits::<17>(47);
        self.rate_ok.next = (self.word.val().get_bits::<3>(0) <= self.rate_max.val());
        self.qlen_max.next = (self.word.val().get_bits::<17>(47) == self.qlen_all.val());
    }
}
