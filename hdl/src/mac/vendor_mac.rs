//! `VendorMacAdapter<A>`: joins the core's 64-bit frame streams to a
//! vendor MAC that owns the FCS and takes AXI4-Stream (Xilinx's 10G/25G
//! Ethernet subsystem, `xxv_ethernet`, at 10G or 25G; any 64-bit MAC with
//! the same stream rules), so a board can use either the open `mac_10g`
//! or a vendor MAC behind the same core.
//!
//! What a vendor MAC needs and this block gives it:
//! - **no gap inside a frame on transmit**: a vendor MAC sends what it
//!   has when `tvalid` falls in mid-frame and ends the frame as an error
//!   (an underflow). The transmit side therefore stores each frame whole
//!   before the MAC sees it ([`AxisAsyncFifo`] with back-pressure, which
//!   also crosses from the core clock to the MAC's transmit clock);
//! - **`tkeep` all ones but on the last beat, contiguous on it; frames of
//!   at least 60 bytes**: [`AxisPad`] (some vendor MACs, CMAC among
//!   them, do not pad);
//! - **`tuser` = abort on the last beat**, the same meaning on both
//!   sides: on transmit the MAC ends such a frame with a bad FCS or an
//!   error character; on receive the MAC flags a bad frame (FCS, length,
//!   error character) on its last beat and the core's receive parser
//!   drops it (`docs/roce.md`);
//! - **no back-pressure on receive**: the vendor's `rx_axis` has no
//!   `tready`. The receive side is an [`AxisAsyncFifo`] in drop mode: a
//!   frame that finds no room is dropped whole and counted, never cut.
//!
//! Settings the vendor MAC must have (Xilinx names): FCS inserted on
//! transmit (`ctl_tx_fcs_ins_enable` = 1) and removed on receive
//! (`ctl_rx_delete_fcs` = 1), FCS checked (`ctl_rx_ignore_fcs` = 0), the
//! 64-bit AXI4-Stream user interface. The frames on both sides are
//! without FCS, first byte in `tdata[7:0]`, as everywhere in this crate.
//!
//! Ports:
//! - core side (`core_clk`, `core_rst`: synchronous, active high):
//!   `s_axis_tx` (frames to send, `AxisSink<64, 8, 1>`), `m_axis_rx`
//!   (frames received, `AxisSource<64, 8, 1>`), `m_stats_pad`
//!   (`TxPadStats`), `m_stats_tx_fifo` (`AsyncFifoStats` of the transmit
//!   FIFO: frames stored, frames longer than it dropped);
//! - MAC transmit side (`tx_clk`, `tx_rst`): `m_axis_mac_tx`, to the
//!   vendor's `tx_axis_*`;
//! - MAC receive side (`rx_clk`, `rx_rst`): `s_axis_mac_rx`, from the
//!   vendor's `rx_axis_*` (`s_axis_mac_rx_tready` is an output the MAC
//!   does not read: it is high except in reset), and `m_stats_rx_fifo`
//!   (`AsyncFifoStats`: frames stored, frames dropped for want of room).
//!
//! Sizes: each FIFO holds 2^`A` words; a frame longer than that is
//! dropped whole and counted (A = 9: 4096 bytes, enough for 1522-byte
//! frames; A = 11 for 9022-byte jumbo frames).
//!
//! Latency: transmit, [`AxisPad`]'s cycle, then the FIFO's (a frame's last
//! beat stored in core cycle t is on `m_axis_mac_tx` after the 5th or 6th
//! `tx_clk` edge that follows), then one beat per `tx_clk` cycle;
//! receive, the FIFO's. Throughput: II 1 on every stream (a frame under
//! 60 bytes takes 8 beats).
//!
//! Bad input: see [`AxisPad`] (a last beat with no byte is sent flagged
//! and counted) and [`AxisAsyncFifo`] (frames too long, or no room on
//! receive, dropped whole and counted; resets of any side alone).
//!
//! Golden twin: `nic_golden::mac::vendor_mac`, with the three clocks tied
//! to one (the twins of its parts, [`AxisPad`] and [`AxisAsyncFifo`],
//! joined as here; the fixture `VendorMacOneClock`). At three unrelated
//! clocks its check is cocotbext-axi's AXI4-Stream source and sink on the
//! emitted Verilog (`testbench/cocotb/test_vendor_mac.py`).

use super::{AsyncFifoStatsSource, AxisAsyncFifo, AxisPad, TxPadStatsSource};
use crate::stream::{AxisSink, AxisSource};
use rust_hdl::prelude::*;

#[derive(LogicBlock, Default)]
pub struct VendorMacAdapter<const A: usize> {
    pub core_clk: Signal<In, Clock>,
    pub core_rst: Signal<In, Bit>,
    pub s_axis_tx: AxisSink<64, 8, 1>,
    pub m_axis_rx: AxisSource<64, 8, 1>,
    pub m_stats_pad: TxPadStatsSource,
    pub m_stats_tx_fifo: AsyncFifoStatsSource,
    pub tx_clk: Signal<In, Clock>,
    pub tx_rst: Signal<In, Bit>,
    pub m_axis_mac_tx: AxisSource<64, 8, 1>,
    pub rx_clk: Signal<In, Clock>,
    pub rx_rst: Signal<In, Bit>,
    pub s_axis_mac_rx: AxisSink<64, 8, 1>,
    pub m_stats_rx_fifo: AsyncFifoStatsSource,
    pad: AxisPad,
    tx_fifo: AxisAsyncFifo<A, 0>,
    rx_fifo: AxisAsyncFifo<A, 1>,
}

impl<const A: usize> Logic for VendorMacAdapter<A> {
    #[hdl_gen]
    fn update(&mut self) {
        // ---- Transmit: core_clk -> tx_clk
        self.pad.clock.next = self.core_clk.val();
        self.pad.reset.next = self.core_rst.val();
        AxisSink::<64, 8, 1>::link(&mut self.s_axis_tx, &mut self.pad.s_axis);
        TxPadStatsSource::link(&mut self.m_stats_pad, &mut self.pad.m_stats);
        self.tx_fifo.s_clk.next = self.core_clk.val();
        self.tx_fifo.s_rst.next = self.core_rst.val();
        AxisSource::<64, 8, 1>::join(&mut self.pad.m_axis, &mut self.tx_fifo.s_axis);
        AsyncFifoStatsSource::link(&mut self.m_stats_tx_fifo, &mut self.tx_fifo.m_stats);
        self.tx_fifo.m_clk.next = self.tx_clk.val();
        self.tx_fifo.m_rst.next = self.tx_rst.val();
        AxisSource::<64, 8, 1>::link(&mut self.m_axis_mac_tx, &mut self.tx_fifo.m_axis);
        // ---- Receive: rx_clk -> core_clk
        self.rx_fifo.s_clk.next = self.rx_clk.val();
        self.rx_fifo.s_rst.next = self.rx_rst.val();
        AxisSink::<64, 8, 1>::link(&mut self.s_axis_mac_rx, &mut self.rx_fifo.s_axis);
        AsyncFifoStatsSource::link(&mut self.m_stats_rx_fifo, &mut self.rx_fifo.m_stats);
        self.rx_fifo.m_clk.next = self.core_clk.val();
        self.rx_fifo.m_rst.next = self.core_rst.val();
        AxisSource::<64, 8, 1>::link(&mut self.m_axis_rx, &mut self.rx_fifo.m_axis);
    }
}
