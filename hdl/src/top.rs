//! The synthesisable tops: every block configuration that `make verilog`,
//! `make lint` and `make synth` process, by name.
//!
//! The default configuration of each block is the one the NIC uses; the
//! stream blocks are at the default 64-bit width.

use crate::arith::{Divider, MinMax, Normalize, SatAddSub, WideMul};
use crate::cc::{HpccCc, Ns3HopParse};
use crate::roce::tx::RoceTx;
use crate::sched::FlowSched;
use crate::stream::{AxisFifo, AxisSkid};
use rust_hdl::prelude::*;

/// 32-bit saturating add/subtract.
pub type SatAddSub32 = SatAddSub<32>;
/// 32-bit min/max.
pub type MinMax32 = MinMax<32>;
/// 32-bit leading-zero count and normalisation.
pub type Normalize32 = Normalize<32, 6>;
/// 32-bit divider with 16 fraction bits: q = floor(a·2^16 / d).
pub type Divider32 = Divider<32, 16>;
/// 64-bit stream register slice, 1-bit tuser.
pub type AxisSkid64 = AxisSkid<64, 8, 1>;
/// 64-bit stream FIFO, 512 beats of block RAM, 1-bit tuser.
pub type AxisFifo64 = AxisFifo<64, 8, 1, 74, 9>;

/// The HPCC++ CC module at its default size, 1024 flows.
pub type HpccCc1024 = HpccCc<10>;
/// The HPCC++ CC module at 4096 flows (must still fit an ECP5-85F).
pub type HpccCc4096 = HpccCc<12>;

/// The flow scheduler at its default size, 1024 flows.
pub type FlowSched1024 = FlowSched<10>;

/// The RoCEv2 Tx frame builder, 1024 flows.
pub type RoceTx1024 = RoceTx<10>;

fn verilog_of<B: Block + Default>() -> String {
    let mut uut = B::default();
    uut.connect_all();
    generate_verilog(&uut)
}

/// A named top: its name and a function that emits its Verilog.
pub struct Top {
    pub name: &'static str,
    pub about: &'static str,
    pub verilog: fn() -> String,
}

/// Every top, in the order `make synth` reports them.
pub fn tops() -> Vec<Top> {
    vec![
        Top {
            name: "wide_mul",
            about: "32x32->64 multiplier, latency 4",
            verilog: verilog_of::<WideMul>,
        },
        Top {
            name: "divider32",
            about: "32-bit divider, 16 fraction bits, latency 33",
            verilog: verilog_of::<Divider32>,
        },
        Top {
            name: "normalize32",
            about: "32-bit leading-zero count + normalise, latency 2",
            verilog: verilog_of::<Normalize32>,
        },
        Top {
            name: "sat_add_sub32",
            about: "32-bit saturating add/sub, latency 1",
            verilog: verilog_of::<SatAddSub32>,
        },
        Top {
            name: "min_max32",
            about: "32-bit min/max, latency 1",
            verilog: verilog_of::<MinMax32>,
        },
        Top {
            name: "axis_skid64",
            about: "64-bit AXI-stream register slice",
            verilog: verilog_of::<AxisSkid64>,
        },
        Top {
            name: "axis_fifo64",
            about: "64-bit AXI-stream FIFO, 512 beats",
            verilog: verilog_of::<AxisFifo64>,
        },
        Top {
            name: "ns3_hop_parse",
            about: "ns-3 telemetry hop parser (combinational)",
            verilog: verilog_of::<Ns3HopParse>,
        },
        Top {
            name: "hpcc_cc",
            about: "HPCC++ CC module, 1024 flows",
            verilog: verilog_of::<HpccCc1024>,
        },
        Top {
            name: "hpcc_cc_4096",
            about: "HPCC++ CC module, 4096 flows",
            verilog: verilog_of::<HpccCc4096>,
        },
        Top {
            name: "flow_sched",
            about: "credit-based flow scheduler, 1024 flows",
            verilog: verilog_of::<FlowSched1024>,
        },
        Top {
            name: "roce_rx_parse",
            about:
                "RoCEv2 Rx parser/checker, 2048-word frame buffer, latency 7 (last word -> record)",
            verilog: verilog_of::<crate::roce::rx_parse::RoceRxParse<11>>,
        },
        Top {
            name: "roce_tx",
            about: "RoCEv2 Tx frame builder, 1024 flows, line rate",
            verilog: verilog_of::<RoceTx1024>,
        },
        Top {
            name: "roce_rx_dispatch",
            about: "RoCEv2 Rx dispatcher (per-flow PSN state, events), 1024 flows",
            verilog: verilog_of::<crate::roce::rx_dispatch::RoceRxDispatch<10>>,
        },
    ]
}
