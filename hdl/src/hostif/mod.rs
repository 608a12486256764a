//! The host interface (`docs/driver.md`, `docs/architecture.md` §5d): the
//! boundary between a host (through a vendor PCIe DMA IP such as XDMA or
//! QDMA, or verilog-axi's `axi_dma`) and the NIC core.
//!
//! - [`axil_slave`]: AXI4-Lite slave → one register access at a time;
//! - [`csr`]: the register map (`nic_spec::hostif::map`): fixed
//!   registers, the core's configuration window, the staged send-queue
//!   registers, the counters; doorbells and completion-queue registers
//!   go to their owners;
//! - [`stats_sel`]: one counter of a counter record, by index (a block
//!   per counter record, generated from its field list);
//! - [`sq_engine`]: per-flow send queues in host memory: doorbells,
//!   fetch scheduling, completions back to their queues;
//! - [`wqe_unpack`]: fetched send-queue entries → work requests;
//! - [`cq_engine`]: completion queues in host memory: entries, events
//!   with moderation, their registers;
//! - [`dma_rd_mux`]: the Tx's payload reads and the send-queue fetches
//!   → read descriptors; the h2c stream back to whoever asked;
//! - [`dma_wr_pack`]: the receive path's host writes and the completion
//!   entries → write descriptors and the c2h stream;
//! - [`host_if`]: `HostIf`, everything joined;
//! - [`bram_dma`]: on a board without PCIe, block RAM as host memory
//!   and the DMA engine that serves the NIC's descriptors from it.

pub mod axil_slave;
pub mod axil_split;
pub mod bram_dma;
pub mod cmpl_queue;
pub mod cq_engine;
pub mod csr;
pub mod csr_decode;
pub mod dma_rd_mux;
pub mod dma_wr_pack;
pub mod host_if;
pub mod sq_engine;
pub mod stats_sel;
pub mod wqe_unpack;

pub use host_if::HostIf;

use crate::hdl_record;
use rust_hdl::prelude::*;

// The records this area's blocks exchange, generated from their one
// declaration in `nic_spec::records` (see `crate::record`).
nic_spec::reg_req_record!(hdl_record! {});
nic_spec::reg_resp_record!(hdl_record! {});
nic_spec::dma_desc_record!(hdl_record! {});
nic_spec::wqe_fetch_record!(hdl_record! {});
nic_spec::wqe_beat_record!(hdl_record! {});
nic_spec::sq_commit_record!(hdl_record! {});
nic_spec::cqe_req_record!(hdl_record! {});
nic_spec::cqe_write_record!(hdl_record! {});
nic_spec::cq_event_record!(hdl_record! {});
nic_spec::host_if_stats_record!(hdl_record! {});
nic_spec::bram_dma_stats_record!(hdl_record! {});

/// An AXI4-Lite slave port (AMBA AXI4-Lite, 32-bit data, the address
/// width of `nic_spec::hostif::ADDR_W`): the five channels with the
/// signal names of the specification, so that the flat wrapper's
/// `s_axil_awaddr` … `s_axil_rready` are what vendor tools and
/// cocotbext-axi's `AxiLiteBus.from_prefix(dut, "s_axil")` expect.
/// `awprot` and `arprot` are taken and ignored.
#[derive(LogicInterface, Default)]
#[join = "AxiLiteMaster"]
pub struct AxiLite {
    pub awaddr: Signal<In, Bits<16>>,
    pub awprot: Signal<In, Bits<3>>,
    pub awvalid: Signal<In, Bit>,
    pub awready: Signal<Out, Bit>,
    pub wdata: Signal<In, Bits<32>>,
    pub wstrb: Signal<In, Bits<4>>,
    pub wvalid: Signal<In, Bit>,
    pub wready: Signal<Out, Bit>,
    pub bresp: Signal<Out, Bits<2>>,
    pub bvalid: Signal<Out, Bit>,
    pub bready: Signal<In, Bit>,
    pub araddr: Signal<In, Bits<16>>,
    pub arprot: Signal<In, Bits<3>>,
    pub arvalid: Signal<In, Bit>,
    pub arready: Signal<Out, Bit>,
    pub rdata: Signal<Out, Bits<32>>,
    pub rresp: Signal<Out, Bits<2>>,
    pub rvalid: Signal<Out, Bit>,
    pub rready: Signal<In, Bit>,
}

/// The master side of [`AxiLite`] (for wiring a slave port through a
/// parent block).
#[derive(LogicInterface, Default)]
#[join = "AxiLite"]
pub struct AxiLiteMaster {
    pub awaddr: Signal<Out, Bits<16>>,
    pub awprot: Signal<Out, Bits<3>>,
    pub awvalid: Signal<Out, Bit>,
    pub awready: Signal<In, Bit>,
    pub wdata: Signal<Out, Bits<32>>,
    pub wstrb: Signal<Out, Bits<4>>,
    pub wvalid: Signal<Out, Bit>,
    pub wready: Signal<In, Bit>,
    pub bresp: Signal<In, Bits<2>>,
    pub bvalid: Signal<In, Bit>,
    pub bready: Signal<Out, Bit>,
    pub araddr: Signal<Out, Bits<16>>,
    pub arprot: Signal<Out, Bits<3>>,
    pub arvalid: Signal<Out, Bit>,
    pub arready: Signal<In, Bit>,
    pub rdata: Signal<In, Bits<32>>,
    pub rresp: Signal<In, Bits<2>>,
    pub rvalid: Signal<In, Bit>,
    pub rready: Signal<Out, Bit>,
}
