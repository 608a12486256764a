//! `NicBoardVendor`: the NIC behind a vendor MAC that owns the FCS (the
//! Xilinx 10G/25G Ethernet subsystem on the Alveo U250,
//! `boards/alveo-u250/`): [`HpccNic`] and [`VendorMacAdapter`]`<9>`,
//! wiring only. The Alveo's board top (`boards/alveo-u250/fpga.v`, for
//! Vivado) instantiates it between XDMA and the Ethernet subsystem.
//!
//! ```text
//!  XDMA AXI4-Lite master ─► s_axil ─┐
//!  XDMA descriptor bypass ◄─ m_axis_read_desc / m_axis_write_desc
//!  XDMA H2C stream ─► s_axis_h2c    HpccNic ── m_axis_tx ─► VendorMacAdapter ─► m_axis_mac_tx (tx_clk)
//!  XDMA C2H stream ◄─ m_axis_c2h    (clk)    ◄─ s_axis_rx ──        (clk)      ◄─ s_axis_mac_rx (rx_clk)
//!  XDMA user IRQ ◄── m_event ───────┘
//! ```
//!
//! Ports: [`HpccNic`]'s host side (`clk`, `rst`, `s_axil`,
//! `m_axis_read_desc`, `s_axis_h2c`, `m_axis_write_desc`, `m_axis_c2h`,
//! `m_event`) and [`VendorMacAdapter`]'s MAC sides (`tx_clk`, `tx_rst`,
//! `m_axis_mac_tx`; `rx_clk`, `rx_rst`, `s_axis_mac_rx`), with the
//! adapter's counters (`m_stats_pad`, `m_stats_tx_fifo`,
//! `m_stats_rx_fifo`). Each reset is synchronous to its own clock.
//!
//! Latency, throughput and bad input: the blocks'. No golden twin of its
//! own: [`HpccNic`]'s twin and the adapter's parts' twins; the adapter
//! is checked against cocotbext-axi (`test_vendor_mac.py`).

use crate::hostif::{AxiLite, CqEventSource, DmaDescSource};
use crate::mac::{AsyncFifoStatsSource, TxPadStatsSource, VendorMacAdapter};
use crate::nic::HpccNic;
use crate::stream::{AxisSink, AxisSource};
use rust_hdl::prelude::*;

/// [`HpccNic`] of these parameters on a vendor MAC.
#[derive(LogicBlock, Default)]
pub struct NicBoardVendor<
    const A: usize,
    const Q: usize,
    const AQ: usize,
    const B: usize,
    const C: usize,
    const N: usize,
    const W: usize,
> {
    pub clk: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    pub s_axil: AxiLite,
    pub m_axis_read_desc: DmaDescSource,
    pub s_axis_h2c: AxisSink<64, 8, 1>,
    pub m_axis_write_desc: DmaDescSource,
    pub m_axis_c2h: AxisSource<64, 8, 1>,
    pub m_event: CqEventSource,
    pub tx_clk: Signal<In, Clock>,
    pub tx_rst: Signal<In, Bit>,
    pub m_axis_mac_tx: AxisSource<64, 8, 1>,
    pub rx_clk: Signal<In, Clock>,
    pub rx_rst: Signal<In, Bit>,
    pub s_axis_mac_rx: AxisSink<64, 8, 1>,
    pub m_stats_pad: TxPadStatsSource,
    pub m_stats_tx_fifo: AsyncFifoStatsSource,
    pub m_stats_rx_fifo: AsyncFifoStatsSource,
    nic: HpccNic<A, Q, AQ, B, C, N, W>,
    mac: VendorMacAdapter<9>,
}

impl<
        const A: usize,
        const Q: usize,
        const AQ: usize,
        const B: usize,
        const C: usize,
        const N: usize,
        const W: usize,
    > Logic for NicBoardVendor<A, Q, AQ, B, C, N, W>
{
    #[hdl_gen]
    fn update(&mut self) {
        self.nic.clk.next = self.clk.val();
        self.nic.rst.next = self.rst.val();
        AxiLite::link(&mut self.s_axil, &mut self.nic.s_axil);
        DmaDescSource::link(&mut self.m_axis_read_desc, &mut self.nic.m_axis_read_desc);
        AxisSink::<64, 8, 1>::link(&mut self.s_axis_h2c, &mut self.nic.s_axis_h2c);
        DmaDescSource::link(&mut self.m_axis_write_desc, &mut self.nic.m_axis_write_desc);
        AxisSource::<64, 8, 1>::link(&mut self.m_axis_c2h, &mut self.nic.m_axis_c2h);
        CqEventSource::link(&mut self.m_event, &mut self.nic.m_event);
        self.mac.core_clk.next = self.clk.val();
        self.mac.core_rst.next = self.rst.val();
        self.mac.tx_clk.next = self.tx_clk.val();
        self.mac.tx_rst.next = self.tx_rst.val();
        self.mac.rx_clk.next = self.rx_clk.val();
        self.mac.rx_rst.next = self.rx_rst.val();
        AxisSource::<64, 8, 1>::join(&mut self.nic.m_axis_tx, &mut self.mac.s_axis_tx);
        AxisSource::<64, 8, 1>::join(&mut self.mac.m_axis_rx, &mut self.nic.s_axis_rx);
        AxisSource::<64, 8, 1>::link(&mut self.m_axis_mac_tx, &mut self.mac.m_axis_mac_tx);
        AxisSink::<64, 8, 1>::link(&mut self.s_axis_mac_rx, &mut self.mac.s_axis_mac_rx);
        TxPadStatsSource::link(&mut self.m_stats_pad, &mut self.mac.m_stats_pad);
        AsyncFifoStatsSource::link(&mut self.m_stats_tx_fifo, &mut self.mac.m_stats_tx_fifo);
        AsyncFifoStatsSource::link(&mut self.m_stats_rx_fifo, &mut self.mac.m_stats_rx_fifo);
    }
}
