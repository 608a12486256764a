//! The synthesisable tops: every block configuration that `make verilog`,
//! `make lint` and `make synth` process, by name.
//!
//! The default configuration of each block is the one the NIC uses; the
//! stream blocks are at the default 64-bit width.

use crate::arith::{Divider, MinMax, Normalize, SatAddSub, WideMul};
use crate::cc::{DcqcnNp, DcqcnRp, HpccCc, Ns3HopParse};
use crate::roce::cnm_rx::CnmRx;
use crate::roce::requester::Requester;
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
/// The same FIFO, 8 bits wide and 4 beats of RAM (6 with the output
/// stage): small enough for a bounded proof to fill it (`make formal`).
pub type AxisFifo8D4 = AxisFifo<8, 1, 1, 11, 2>;

/// The HPCC++ CC module at its default size, 1024 flows.
pub type HpccCc1024 = HpccCc<10>;
/// The HPCC++ CC module at 4096 flows (must still fit an ECP5-85F).
pub type HpccCc4096 = HpccCc<12>;
/// The HPCC++ CC module at 1024 flows tracking 2 hops of telemetry (a
/// network of one or two switches; an event of more hops is
/// `DROP_HOPS`): three `MeasureInflight` pipelines fewer.
pub type HpccCc1024H2 = HpccCc<10, 2>;

/// The DCQCN reaction point at the CC module's sizes: 1024 flows, and
/// 4096.
pub type DcqcnRp1024 = DcqcnRp<10>;
pub type DcqcnRp4096 = DcqcnRp<12>;
/// The DCQCN notification point's CNP limiter, 1024 flows.
pub type DcqcnNp1024 = DcqcnNp<10>;

/// The flow scheduler at its default size, 1024 flows.
pub type FlowSched1024 = FlowSched<10>;

/// The requester at its default size: 128 flows, 32 work requests each
/// (the ring is 2^12 entries of 285 bits: 70 DP16KD on an ECP5). 32 work
/// requests are one flow's window: with 16, one flow of 64-byte WRITEs
/// both ways filled 0.589 of the line (`docs/status.md`, line rate).
pub type Requester128 = Requester<7, 5, 12>;

/// The NIC core at its default size: 128 flows, 32 work requests each,
/// a 2048-word receive frame buffer. Block RAM sets the size on the
/// LFE5U-85F (208 DP16KD): at 256 flows × 16 the core alone mapped to
/// 223 (`docs/status.md`).
pub type HpccNicCore128 = crate::nic::NicCore<7, 5, 12, 11>;

/// The whole NIC at its default size: the core above, 8 completion
/// queues, a 16-entry WQE buffer (`docs/driver.md`).
pub type HpccNic128 = crate::nic::HpccNic<7, 5, 12, 11, 3, 8, 4>;

/// The whole NIC on the 10G MAC, one clock: `HpccNic128` and
/// `Mac10g` (frames up to 1522 bytes).
pub type HpccNic10g128 = crate::nic::HpccNic10g<7, 5, 12, 11, 3, 8, 4>;

/// The ECPIX-5's board core (`boards/ecpix5/fpga.v`): the NIC for 16
/// flows x 8 work requests, an 8 KiB receive buffer, 4 completion queues
/// and a 16-entry WQE buffer, on the 1G RGMII MAC, with the UART bridge
/// and 16 KiB of block RAM as host memory; its CC module tracks 2 hops of
/// telemetry (one or two switches; an event of more is `DROP_HOPS`).
/// Smaller than `HpccNic128` so that it fits the board beside its host
/// side and routes in bearable time.
pub type Ecpix5Core = crate::board::NicBoard1g<4, 3, 7, 10, 2, 4, 4, 2>;

/// The Alveo U250's board core (`boards/alveo-u250/fpga.v`, Vivado):
/// the NIC at 256 flows × 32 work requests (the UltraScale+ part has the
/// block RAM the ECP5 lacks) behind the vendor-MAC adapter (the 10G/25G
/// Ethernet subsystem owns the FCS).
pub type AlveoCore = crate::board::NicBoardVendor<8, 5, 13, 11, 3, 8, 4>;

/// The host interface alone, at the NIC's size.
pub type HostIf128 = crate::hostif::HostIf<7, 5, 3, 8, 4>;

/// The 10G MAC as a drop-in for `eth_mac_10g` (its core ports), standard
/// and jumbo receive limits.
pub type Mac10gStd = crate::mac::EthMac10g<{ nic_spec::mac::MAX_FRAME }>;
pub type Mac10gJumbo = crate::mac::EthMac10g<{ nic_spec::mac::MAX_FRAME_JUMBO }>;
/// The 10G MAC with the inputs to send PAUSE frames (standard limit).
pub type Mac10gPause = crate::mac::Mac10g<{ nic_spec::mac::MAX_FRAME }>;

/// The RoCEv2 Tx frame builder, 1024 flows.
pub type RoceTx1024 = RoceTx<10>;

/// A top's design, built and connected: what its Verilog is emitted from.
fn design<B: Block + Default + 'static>() -> Box<dyn Block> {
    let mut uut = B::default();
    uut.connect_all();
    Box::new(uut)
}

/// The Verilog of a top as `make verilog` writes it: rust-hdl's modules
/// (`top` and its sub-modules, exactly what the co-simulation tests run)
/// followed by a wrapper module named `name` whose ports are `top`'s with
/// every `$` replaced by `_` (`s_axis_rx$tdata` → `s_axis_rx_tdata`), the
/// flat names vendor tools and cocotb's `AxiStreamBus.from_prefix` bind to.
/// The wrapper is wiring only; `make lint` and `make synth` use it as the
/// top module.
///
/// Panics if two ports would get the same flat name, or if `top`'s port
/// declarations cannot be read.
pub fn with_flat_wrapper(name: &str, verilog: &str) -> String {
    let ports = top_ports(verilog);
    let flat = |p: &str| p.replace('$', "_");
    let mut seen = std::collections::HashSet::new();
    for p in &ports {
        assert!(
            seen.insert(flat(&p.name)),
            "{name}: two ports of `top` flatten to `{}`",
            flat(&p.name)
        );
    }
    let mut w = String::new();
    w.push_str(&format!(
        "\n// {name}: `top` with flat port names (`$` -> `_`); wiring only.\n"
    ));
    let list: Vec<String> = ports.iter().map(|p| flat(&p.name)).collect();
    w.push_str(&format!("module {name}({});\n", list.join(", ")));
    for p in &ports {
        w.push_str(&format!(
            "    {} wire {}{};\n",
            if p.input { "input" } else { "output" },
            p.range,
            flat(&p.name)
        ));
    }
    w.push_str("    top core(\n");
    let conns: Vec<String> = ports
        .iter()
        .map(|p| format!("        .{}({})", p.name, flat(&p.name)))
        .collect();
    w.push_str(&conns.join(",\n"));
    w.push_str("\n    );\nendmodule\n");
    format!("{verilog}{w}")
}

/// One port of the emitted `top` module.
struct Port {
    name: String,
    input: bool,
    /// `[63:0] ` or empty.
    range: String,
}

/// `top`'s ports, from rust-hdl's "Module arguments" declarations
/// (`input wire  [63:0] s_axis$tdata;`, `output reg  x;`).
fn top_ports(verilog: &str) -> Vec<Port> {
    let body = verilog.split_once("module top(").expect("a `top` module").1;
    let header = body.split_once(");").expect("top's port list").0;
    let names: Vec<&str> = header.split(',').map(str::trim).collect();
    names
        .iter()
        .map(|&n| {
            let decl = body
                .lines()
                .map(str::trim)
                .find(|l| {
                    (l.starts_with("input ") || l.starts_with("output "))
                        && l.trim_end_matches(';').rsplit(' ').next() == Some(n)
                })
                .unwrap_or_else(|| panic!("no declaration of top's port `{n}`"));
            let range = decl
                .split_once('[')
                .map(|(_, r)| format!("[{}] ", r.split_once(']').expect("a range").0))
                .unwrap_or_default();
            Port {
                name: n.to_string(),
                input: decl.starts_with("input "),
                range,
            }
        })
        .collect()
}

/// A named top: its name and a function that builds its design.
pub struct Top {
    pub name: &'static str,
    pub about: &'static str,
    pub design: fn() -> Box<dyn Block>,
}

impl Top {
    /// Its Verilog: `top` and its sub-modules ([`crate::verilog`]).
    pub fn verilog(&self) -> String {
        crate::verilog::generate_verilog(&*(self.design)())
    }

    /// Its Verilog with the flat wrapper named after it
    /// ([`with_flat_wrapper`]): what `make verilog` writes.
    pub fn verilog_flat(&self) -> String {
        with_flat_wrapper(self.name, &self.verilog())
    }
}

/// Every top, in the order `make synth` reports them.
pub fn tops() -> Vec<Top> {
    vec![
        // The NIC first: `make` emits, lints and synthesises it first.
        Top {
            name: "hpcc_nic",
            about: "the NIC: host interface (AXI4-Lite registers, send and completion queues in host memory, DMA descriptors) + the NIC core; 128 flows x 32 work requests, 8 completion queues",
            design: design::<HpccNic128>,
        },
        Top {
            name: "hpcc_nic_10g",
            about: "hpcc_nic on the 10G MAC (64-bit XGMII), one clock for the NIC and both MAC sides (a PCS with an elastic buffer): the NIC on a 10GBASE-R wire",
            design: design::<HpccNic10g128>,
        },
        Top {
            name: "host_if",
            about: "the host interface alone: AXI4-Lite registers, send and completion queues, DMA read mux and write packer; 128 flows, 8 completion queues",
            design: design::<HostIf128>,
        },
        Top {
            name: "cmpl_queue",
            about: "the core's completions waiting for the send-queue engine, 8 records",
            design: design::<crate::hostif::cmpl_queue::CmplQueue<{ nic_spec::hostif::CMPL_QUEUE_LOG2 }>>,
        },
        Top {
            name: "hpcc_nic_core",
            about: "the NIC core (draft -00 Figure 4): requester, scheduler, HPCC++ CC, RoCEv2 Tx/Rx, READ responder, configuration; 128 flows x 32 work requests",
            design: design::<HpccNicCore128>,
        },
        Top {
            name: "wide_mul",
            about: "32x32->64 multiplier, latency 4",
            design: design::<WideMul>,
        },
        Top {
            name: "divider32",
            about: "32-bit divider, 16 fraction bits, latency 33",
            design: design::<Divider32>,
        },
        Top {
            name: "normalize32",
            about: "32-bit leading-zero count + normalise, latency 2",
            design: design::<Normalize32>,
        },
        Top {
            name: "sat_add_sub32",
            about: "32-bit saturating add/sub, latency 1",
            design: design::<SatAddSub32>,
        },
        Top {
            name: "min_max32",
            about: "32-bit min/max, latency 1",
            design: design::<MinMax32>,
        },
        Top {
            name: "axis_skid64",
            about: "64-bit AXI-stream register slice",
            design: design::<AxisSkid64>,
        },
        Top {
            name: "axis_fifo64",
            about: "64-bit AXI-stream FIFO, 512 beats",
            design: design::<AxisFifo64>,
        },
        Top {
            name: "axis_fifo8_d4",
            about: "the AXI-stream FIFO at 8 bits and 4 beats of RAM (+2 in its output stage), for the formal checks (make formal)",
            design: design::<AxisFifo8D4>,
        },
        Top {
            name: "ns3_hop_parse",
            about: "ns-3 telemetry hop parser (combinational)",
            design: design::<Ns3HopParse>,
        },
        Top {
            name: "hpcc_cc",
            about: "HPCC++ CC module, 1024 flows",
            design: design::<HpccCc1024>,
        },
        Top {
            name: "hpcc_cc_h2",
            about: "HPCC++ CC module, 1024 flows, 2 hops of telemetry tracked (more: DROP_HOPS)",
            design: design::<HpccCc1024H2>,
        },
        Top {
            name: "hpcc_cc_4096",
            about: "HPCC++ CC module, 4096 flows",
            design: design::<HpccCc4096>,
        },
        Top {
            name: "dcqcn_rp",
            about: "DCQCN reaction point, 1024 flows",
            design: design::<DcqcnRp1024>,
        },
        Top {
            name: "dcqcn_rp_4096",
            about: "DCQCN reaction point, 4096 flows",
            design: design::<DcqcnRp4096>,
        },
        Top {
            name: "dcqcn_np",
            about: "DCQCN notification point (CNP limiter), 1024 flows",
            design: design::<DcqcnNp1024>,
        },
        Top {
            name: "cnm_rx",
            about: "QCN CNM receive tap (IEEE 802.1Qau): CNM fields and the sampled RoCEv2 QP from the Rx stream, never back-pressures",
            design: design::<CnmRx>,
        },
        Top {
            name: "flow_sched",
            about: "credit-based flow scheduler, 1024 flows",
            design: design::<FlowSched1024>,
        },
        Top {
            name: "requester",
            about: "requester: work requests, PktSend -> descriptors, ACK/NAK -> completions, timer; 128 flows x 32",
            design: design::<Requester128>,
        },
        Top {
            name: "ack_coalesce",
            about: "the responder's ACK slots: one per flow, a newer ACK replacing the waiting one; 128 flows",
            design: design::<crate::nic::ack_coalesce::AckCoalesce<7>>,
        },
        Top {
            name: "desc_queue",
            about: "the requester's Tx descriptor queue, 4 descriptors, 128 flows",
            design: design::<crate::nic::desc_queue::DescQueue<7, { nic_spec::sched::REQ_DESC_QUEUE_LOG2 }>>,
        },
        Top {
            name: "read_queue",
            about: "the READ requests waiting for the READ responder, 16 requests, 128 flows",
            design: design::<crate::nic::read_queue::ReadQueue<7, { nic_spec::roce::READ_QUEUE_LOG2 }>>,
        },
        Top {
            name: "fb_queue",
            about: "the feedback (received ACKs, NAKs, READ responses, NOTIFYs) waiting for the requester, 16 records, 128 flows",
            design: design::<crate::nic::fb_queue::FbQueue<7, { nic_spec::roce::FB_QUEUE_LOG2 }>>,
        },
        Top {
            name: "ev_merge",
            about: "the requester's scheduler events, merged per flow (DOORBELL, ACK, ACK_DB) while the scheduler holds them",
            design: design::<crate::nic::ev_merge::EvMerge>,
        },
        Top {
            name: "cc_arb",
            about: "the HPCC++ CC module's event port: flow creation first, then the requester's and the receiver's events in turn, a holding register each",
            design: design::<crate::nic::cc_arb::CcArb>,
        },
        Top {
            name: "ev_arb",
            about: "the scheduler's event port: the requester's events (through a register slice) and the CC updates converted to bytes per cycle and queued, in turn",
            design: design::<crate::nic::ev_arb::EvArb>,
        },
        Top {
            name: "roce_rx_parse",
            about:
                "RoCEv2 Rx parser/checker, 2048-word frame buffer, latency 7 (last word -> record)",
            design: design::<crate::roce::rx_parse::RoceRxParse<11>>,
        },
        Top {
            name: "roce_tx",
            about: "RoCEv2 Tx frame builder, 1024 flows, line rate",
            design: design::<RoceTx1024>,
        },
        Top {
            name: "roce_rx_dispatch",
            about: "RoCEv2 Rx dispatcher (per-flow PSN state, events), 1024 flows",
            design: design::<crate::roce::rx_dispatch::RoceRxDispatch<10>>,
        },
        Top {
            name: "mr_check",
            about: "memory-region check (R_Key, protection domain, right, range) before the dispatcher, 1024 flows, 16 regions",
            design: design::<crate::roce::mr_check::MrCheck<10, { nic_spec::mr::MR_LOG2 }>>,
        },
        Top {
            name: "mac_10g",
            about: "10G MAC, 64-bit XGMII, eth_mac_10g's core ports: preamble, FCS, padding, deficit idle count, lane-0/4 starts, pause timer; frames up to 1522 bytes",
            design: design::<Mac10gStd>,
        },
        Top {
            name: "mac_10g_jumbo",
            about: "10G MAC as mac_10g, receiving frames up to 9022 bytes",
            design: design::<Mac10gJumbo>,
        },
        Top {
            name: "axis_async_fifo_tx",
            about: "clock-crossing frame FIFO (store and forward), 512 x 64-bit words, back-pressure (core clock into a MAC's)",
            design: design::<crate::mac::AxisAsyncFifo<9, 0>>,
        },
        Top {
            name: "axis_async_fifo_rx",
            about: "clock-crossing frame FIFO, 512 x 64-bit words, drops a frame that finds no room (a MAC's clock into the core's)",
            design: design::<crate::mac::AxisAsyncFifo<9, 1>>,
        },
        Top {
            name: "mac_10g_pause",
            about: "10G MAC as mac_10g, plus the inputs to send 802.3x PAUSE or 802.1Qbb PFC frames (tx_pause_req, tx_pause_quanta, tx_pause_cev, cfg_src_mac)",
            design: design::<Mac10gPause>,
        },
        Top {
            name: "mac_1g",
            about: "1G MAC, GMII, 64-bit frame streams (64 <-> 8 converters inside): preamble, FCS, padding, 12-byte gap, pause timer (64 cycles a quantum), PAUSE sending; frames up to 1522 bytes",
            design: design::<crate::mac::Mac1g>,
        },
        Top {
            name: "vendor_mac_adapter",
            about: "joins the core's frame streams to a vendor MAC that owns the FCS (Xilinx 10G/25G AXI4-Stream): pads to 60 bytes, tkeep made contiguous, store-and-forward transmit FIFO (no underflow) and drop-mode receive FIFO, 512 words each; core_clk, tx_clk, rx_clk",
            design: design::<crate::mac::VendorMacAdapter<9>>,
        },
        Top {
            name: "mac_1g_rgmii",
            about: "mac_1g behind the RGMII adapter (ECP5 ODDRX1F/IDDRX1F primitives, transmit clock forwarded from tx_clk90)",
            design: design::<crate::mac::Mac1gRgmii>,
        },
        Top {
            name: "uart_axil",
            about: "the UART register bridge: 8N1 requests with a CRC-8 -> AXI4-Lite master accesses -> responses (the board tops' host side for registers)",
            design: design::<crate::uart::UartAxil>,
        },
        Top {
            name: "axil_split",
            about: "AXI4-Lite address split: one master onto the NIC's registers (below HOST_MEM_BASE) and the board's host memory (at and above it, rebased to 0); one write and one read outstanding (the board tops' register/memory decoder)",
            design: design::<crate::hostif::axil_split::AxilSplit>,
        },
        Top {
            name: "lock_reset",
            about: "the reset from a PLL's lock, on the oscillator's clock: held from configuration until lock and the released button have been seen for 2^16 cycles (655 us at 100 MHz), lock losses counted (the board tops' reset)",
            design: design::<crate::board::LockReset<16>>,
        },
        Top {
            name: "reset_sync",
            about: "a reset taken into a clock domain: two flip-flops, both 1 at configuration (the board tops' per-domain reset)",
            design: design::<crate::board::ResetSync>,
        },
        Top {
            name: "stats_cross",
            about: "a counter read across clocks: a STATS index out to the counters' clock, the answer (hit, index, value) back, shown only for the current index (the ECPIX-5 core's STATS pages on rgmii_rxc, tx_clk and clk100)",
            design: design::<crate::board::StatsCross>,
        },
        Top {
            name: "ecpix5_core",
            about: "the ECPIX-5 board core (boards/ecpix5/fpga.v without the PLL and I/O buffers): the NIC (16 flows x 8 work requests, 4 completion queues) on the 1G RGMII MAC through two clock-crossing frame FIFOs, the UART register bridge with every board counter on its STATS pages, the register/memory split, 16 KiB of block RAM host memory with its DMA engine, LockReset and a reset synchroniser per domain",
            design: design::<Ecpix5Core>,
        },
        Top {
            name: "alveo_core",
            about: "the Alveo U250 board core (boards/alveo-u250/fpga.v, Vivado): hpcc_nic (256 flows) behind the vendor-MAC adapter for the Xilinx 10G/25G Ethernet subsystem; XDMA's AXI4-Lite master and descriptor-bypass streams on its host side",
            design: design::<AlveoCore>,
        },
        Top {
            name: "bram_dma",
            about: "block RAM as host memory (16 KiB, byte enables) and the DMA engine serving the NIC's read and write descriptors at any byte alignment, with a 32-bit host port (the board tops' host memory)",
            design: design::<crate::hostif::bram_dma::BramDma<{ nic_spec::board::HOST_MEM_LOG_WORDS }>>,
        },
    ]
}
