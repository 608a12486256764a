//! `HpccNic10g`: the NIC on a 10G wire, [`HpccNic`] joined to the 10G MAC
//! ([`Mac10g`]) on one clock: the `hpcc_nic_10g` top.
//!
//! ```text
//!   host (PCIe DMA IP)        HpccNic                            tx FIFO               Mac10g (clk)
//!  s_axil, m_axis_read_desc,  host interface   m_axis_tx ──► store and forward ──► TxPause ─► XgmiiTx ──► xgmii_txd/txc
//!  s_axis_h2c, m_axis_c2h, ─► + NIC core
//!  m_axis_write_desc, m_event                  s_axis_rx ◄────────────────────────────────── XgmiiRx ◄── xgmii_rxd/rxc
//!                                                                                 pause ◄─ ReqSync ◄─┘
//! ```
//!
//! One clock, `clk`, runs the NIC, the MAC's transmitter and its
//! receiver: the XGMII receive side must be in the transmit clock's
//! domain, as a 10GBASE-R PCS with an elastic buffer gives it (Xilinx's
//! 10G PCS/PMA core puts both XGMII directions on `coreclk`). A PCS whose
//! receive XGMII is on a recovered clock needs the MAC and core apart,
//! joined by [`AxisAsyncFifo`](crate::mac::AxisAsyncFifo)s (`docs/mac.md`).
//!
//! Ports: `clk`, `rst` (synchronous, active high: the NIC as in
//! [`HpccNic`], the MAC's two sides), the host interface's as in
//! [`HpccNic`], and
//! - `xgmii_rxd`, `xgmii_rxc`, `xgmii_txd`, `xgmii_txc`: 64-bit XGMII;
//! - `tx_pause_req` (one cycle), `tx_pause_quanta`, `tx_pause_cev`,
//!   `cfg_src_mac`: send an 802.3x PAUSE frame, or a PFC frame for the
//!   priorities in `tx_pause_cev` ([`TxPause`](crate::mac::TxPause)); tie
//!   `tx_pause_req` low if unused. The core asks for its own pauses
//!   (XOFF and XON on its receive buffer's fill, `RX_XOFF`, `RX_XON`,
//!   `RX_PAUSE_QUANTA`, as PFC when `RX_PFC_CEV` is not 0): in a cycle
//!   where both ask, the core's wins;
//! - `tx_paused`: a received PAUSE or PFC frame holds new frames off;
//! - `rx_error_bad_frame`, `rx_error_bad_fcs`: one-cycle pulses, as in
//!   `mac_10g`;
//! - `m_stats_mac_tx`, `m_stats_mac_rx`, `m_stats_mac_pause`,
//!   `m_stats_tx_fifo`: the MAC's counters and the transmit FIFO's
//!   (`MacTxStats`, `MacRxStats`, `MacPauseStats`, `AsyncFifoStats`; not
//!   in the AXI4-Lite register map, `nic_spec::hostif::STATS_UNMAPPED`).
//!
//! The receive limit is [`nic_spec::mac::MAX_FRAME`] (1522 bytes with
//! FCS). The core's receive stream never stalls (its parser drops a frame
//! it has no room for, counted), so the MAC's receive stream joins it
//! without a FIFO. The core's transmit stream can pause inside a frame
//! (a payload waits for host memory), which a MAC must not see (it would
//! abort the frame as an underflow): it goes through a store-and-forward
//! FIFO ([`AxisAsyncFifo`] with both clocks `clk`, 2^[`TX_FIFO_A`] words,
//! back-pressure; `m_stats_tx_fifo`: frames stored, frames longer than
//! the FIFO dropped), which hands the MAC a frame only once it is whole.
//! Wiring only; latency, throughput and bad-input behaviour are the
//! blocks'.
//!
//! Golden twin: `nic_golden::nic::nic_10g`.

use crate::hostif::{AxiLite, CqEventSource, DmaDescSource};
use crate::mac::{
    AsyncFifoStatsSource, AxisAsyncFifo, Mac10g, MacPauseStatsSource, MacRxStatsSource,
    MacTxStatsSource,
};
use crate::nic::HpccNic;
use crate::stream::{AxisSink, AxisSource};
use nic_spec::mac::MAX_FRAME;
use rust_hdl::prelude::*;

/// log2 words of the transmit FIFO ([`nic_spec::mac::NIC_10G_TX_FIFO_A`]).
pub const TX_FIFO_A: usize = nic_spec::mac::NIC_10G_TX_FIFO_A;

/// [`HpccNic`] of the same parameters on [`Mac10g`].
#[derive(LogicBlock, Default)]
pub struct HpccNic10g<
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
    pub xgmii_rxd: Signal<In, Bits<64>>,
    pub xgmii_rxc: Signal<In, Bits<8>>,
    pub xgmii_txd: Signal<Out, Bits<64>>,
    pub xgmii_txc: Signal<Out, Bits<8>>,
    pub tx_pause_req: Signal<In, Bit>,
    pub tx_pause_quanta: Signal<In, Bits<16>>,
    pub tx_pause_cev: Signal<In, Bits<8>>,
    pub cfg_src_mac: Signal<In, Bits<48>>,
    pub tx_paused: Signal<Out, Bit>,
    pub rx_error_bad_frame: Signal<Out, Bit>,
    pub rx_error_bad_fcs: Signal<Out, Bit>,
    pub m_stats_mac_tx: MacTxStatsSource,
    pub m_stats_mac_rx: MacRxStatsSource,
    pub m_stats_mac_pause: MacPauseStatsSource,
    pub m_stats_tx_fifo: AsyncFifoStatsSource,
    nic: HpccNic<A, Q, AQ, B, C, N, W>,
    tx_fifo: AxisAsyncFifo<TX_FIFO_A, 0>,
    mac: Mac10g<MAX_FRAME>,
}

impl<
        const A: usize,
        const Q: usize,
        const AQ: usize,
        const B: usize,
        const C: usize,
        const N: usize,
        const W: usize,
    > Logic for HpccNic10g<A, Q, AQ, B, C, N, W>
{
    #[hdl_gen]
    fn update(&mut self) {
        self.nic.clk.next = self.clk.val();
        self.nic.rst.next = self.rst.val();
        self.mac.tx_clk.next = self.clk.val();
        self.mac.tx_rst.next = self.rst.val();
        self.mac.rx_clk.next = self.clk.val();
        self.mac.rx_rst.next = self.rst.val();
        // ---- Host side.
        AxiLite::link(&mut self.s_axil, &mut self.nic.s_axil);
        DmaDescSource::link(&mut self.m_axis_read_desc, &mut self.nic.m_axis_read_desc);
        AxisSink::<64, 8, 1>::link(&mut self.s_axis_h2c, &mut self.nic.s_axis_h2c);
        DmaDescSource::link(&mut self.m_axis_write_desc, &mut self.nic.m_axis_write_desc);
        AxisSource::<64, 8, 1>::link(&mut self.m_axis_c2h, &mut self.nic.m_axis_c2h);
        CqEventSource::link(&mut self.m_event, &mut self.nic.m_event);
        // ---- NIC ↔ MAC.
        self.tx_fifo.s_clk.next = self.clk.val();
        self.tx_fifo.s_rst.next = self.rst.val();
        self.tx_fifo.m_clk.next = self.clk.val();
        self.tx_fifo.m_rst.next = self.rst.val();
        AxisSource::<64, 8, 1>::join(&mut self.nic.m_axis_tx, &mut self.tx_fifo.s_axis);
        AxisSource::<64, 8, 1>::join(&mut self.tx_fifo.m_axis, &mut self.mac.tx_axis);
        AsyncFifoStatsSource::link(&mut self.m_stats_tx_fifo, &mut self.tx_fifo.m_stats);
        AxisSource::<64, 8, 1>::join(&mut self.mac.rx_axis, &mut self.nic.s_axis_rx);
        // ---- Wire side.
        self.mac.xgmii_rxd.next = self.xgmii_rxd.val();
        self.mac.xgmii_rxc.next = self.xgmii_rxc.val();
        self.xgmii_txd.next = self.mac.xgmii_txd.val();
        self.xgmii_txc.next = self.mac.xgmii_txc.val();
        // The core's own PAUSE (host back-pressure) wins over the port's
        // in the same cycle; both are one-cycle requests.
        self.mac.tx_pause_req.next = (self.nic.pause_req.val() || self.tx_pause_req.val());
        if self.nic.pause_req.val() {
            self.mac.tx_pause_quanta.next = self.nic.pause_quanta.val();
            self.mac.tx_pause_cev.next = self.nic.pause_cev.val();
        } else {
            self.mac.tx_pause_quanta.next = self.tx_pause_quanta.val();
            self.mac.tx_pause_cev.next = self.tx_pause_cev.val();
        }
        self.mac.cfg_src_mac.next = self.cfg_src_mac.val();
        self.tx_paused.next = self.mac.tx_paused.val();
        self.rx_error_bad_frame.next = self.mac.rx_error_bad_frame.val();
        self.rx_error_bad_fcs.next = self.mac.rx_error_bad_fcs.val();
        MacTxStatsSource::link(&mut self.m_stats_mac_tx, &mut self.mac.m_stats_tx);
        MacRxStatsSource::link(&mut self.m_stats_mac_rx, &mut self.mac.m_stats_rx);
        MacPauseStatsSource::link(&mut self.m_stats_mac_pause, &mut self.mac.m_stats_pause);
    }
}
