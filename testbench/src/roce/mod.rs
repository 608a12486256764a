//! Harnesses of the RoCEv2 blocks.

use crate::harness;
use nic_golden as golden;
use nic_hdl::roce::crc32::Crc32x64;
use rust_hdl::prelude::*;

pub mod bench;
pub mod pipes;
pub mod rx_dispatch;
pub mod rx_parse;
pub mod tx;

/// The CRC block is combinational: a clock-less harness would need its
/// own engine plumbing, so it is tested inside [`Crc32Tb`], a register
/// stage around it (latency 1), which is also how the pipelines use it.
#[derive(LogicBlock, Default)]
pub struct Crc32Tb {
    pub clock: Signal<In, Clock>,
    pub crc_in: Signal<In, Bits<32>>,
    pub data: Signal<In, Bits<64>>,
    pub nbytes: Signal<In, Bits<4>>,
    pub crc_out: Signal<Out, Bits<32>>,
    crc: Crc32x64,
    out: DFF<Bits<32>>,
}

impl Logic for Crc32Tb {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, out);
        self.crc.crc_in.next = self.crc_in.val();
        self.crc.data.next = self.data.val();
        self.crc.nbytes.next = self.nbytes.val();
        self.out.d.next = self.crc.crc_out.val();
        self.crc_out.next = self.out.q.val();
    }
}

harness! {
    impl<> Crc32Tb {
        type In = golden::roce::crc32::In;
        type Out = golden::roce::crc32::Out;
        clock = clock;
        inputs { crc_in: crc_in, data: data, nbytes: nbytes }
        outputs { crc_out: crc_out }
    }
}
