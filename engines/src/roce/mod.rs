//! Harnesses of the RoCEv2 blocks.

use crate::harness;
use nic_golden as golden;
use nic_hdl::roce::bswap::Bswap64;
use nic_hdl::roce::crc32::Crc32x64;
use nic_hdl::roce::op_decode::OpDecode;
use rust_hdl::prelude::*;

pub mod dispatch_counters;
pub mod fb_check;
pub mod host_write_skid;
pub mod mr_check;
pub mod pipes;
pub mod read_psns;
pub mod req_counters;
pub mod req_intake;
pub mod req_state_ram;
pub mod req_timer;
pub mod requester;
pub mod rx_check;
pub mod rx_ctx_store;
pub mod rx_dispatch;
pub mod rx_meta_ram;
pub mod rx_parse;
pub mod rx_verdict;
pub mod segment;
pub mod tx;
pub mod tx_ctx_ram;
pub mod tx_out;
pub mod wr_check;
pub mod wr_ring;

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

/// [`OpDecode`] (combinational) behind one register per output, as
/// [`Crc32Tb`] does for the CRC (latency 1).
#[derive(LogicBlock, Default)]
pub struct OpDecodeTb {
    pub clock: Signal<In, Clock>,
    pub op: Signal<In, Bits<8>>,
    pub known: Signal<Out, Bit>,
    pub reth: Signal<Out, Bit>,
    pub aeth: Signal<Out, Bit>,
    pub pay: Signal<Out, Bit>,
    pub only: Signal<Out, Bit>,
    pub write: Signal<Out, Bit>,
    pub read_req: Signal<Out, Bit>,
    pub read_resp: Signal<Out, Bit>,
    pub ends_msg: Signal<Out, Bit>,
    pub ack: Signal<Out, Bit>,
    pub probe: Signal<Out, Bit>,
    pub notify: Signal<Out, Bit>,
    pub hpcc: Signal<Out, Bit>,
    pub cnp: Signal<Out, Bit>,
    dec: OpDecode,
    out_reg: [DFF<Bit>; 14],
}

impl Logic for OpDecodeTb {
    #[hdl_gen]
    fn update(&mut self) {
        for i in 0..14 {
            self.out_reg[i].clock.next = self.clock.val();
        }
        self.dec.op.next = self.op.val();
        self.out_reg[0].d.next = self.dec.known.val();
        self.out_reg[1].d.next = self.dec.reth.val();
        self.out_reg[2].d.next = self.dec.aeth.val();
        self.out_reg[3].d.next = self.dec.pay.val();
        self.out_reg[4].d.next = self.dec.only.val();
        self.out_reg[5].d.next = self.dec.write.val();
        self.out_reg[6].d.next = self.dec.read_req.val();
        self.out_reg[7].d.next = self.dec.read_resp.val();
        self.out_reg[8].d.next = self.dec.ends_msg.val();
        self.out_reg[9].d.next = self.dec.ack.val();
        self.out_reg[10].d.next = self.dec.probe.val();
        self.out_reg[11].d.next = self.dec.notify.val();
        self.out_reg[12].d.next = self.dec.hpcc.val();
        self.out_reg[13].d.next = self.dec.cnp.val();
        self.known.next = self.out_reg[0].q.val();
        self.reth.next = self.out_reg[1].q.val();
        self.aeth.next = self.out_reg[2].q.val();
        self.pay.next = self.out_reg[3].q.val();
        self.only.next = self.out_reg[4].q.val();
        self.write.next = self.out_reg[5].q.val();
        self.read_req.next = self.out_reg[6].q.val();
        self.read_resp.next = self.out_reg[7].q.val();
        self.ends_msg.next = self.out_reg[8].q.val();
        self.ack.next = self.out_reg[9].q.val();
        self.probe.next = self.out_reg[10].q.val();
        self.notify.next = self.out_reg[11].q.val();
        self.hpcc.next = self.out_reg[12].q.val();
        self.cnp.next = self.out_reg[13].q.val();
    }
}

harness! {
    impl<> OpDecodeTb {
        type In = golden::roce::op_decode::In;
        type Out = golden::roce::op_decode::Out;
        clock = clock;
        inputs { op: op }
        outputs { known: known, reth: reth, aeth: aeth, pay: pay, only: only, write: write, read_req: read_req, read_resp: read_resp, ends_msg: ends_msg, ack: ack, probe: probe, notify: notify, hpcc: hpcc, cnp: cnp }
    }
}

/// [`Bswap64`] (combinational, its Verilog body written by hand) behind
/// one output register, as [`Crc32Tb`] does for the CRC (latency 1).
#[derive(LogicBlock, Default)]
pub struct Bswap64Tb {
    pub clock: Signal<In, Clock>,
    pub x: Signal<In, Bits<64>>,
    pub y: Signal<Out, Bits<64>>,
    swap: Bswap64,
    out: DFF<Bits<64>>,
}

impl Logic for Bswap64Tb {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, out);
        self.swap.x.next = self.x.val();
        self.out.d.next = self.swap.y.val();
        self.y.next = self.out.q.val();
    }
}

harness! {
    impl<> Bswap64Tb {
        type In = golden::roce::bswap::In;
        type Out = golden::roce::bswap::Out;
        clock = clock;
        inputs { x: x }
        outputs { y: y }
    }
}
