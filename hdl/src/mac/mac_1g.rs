//! `mac_1g`: the 1G MAC top: GMII on one side, the NIC core's 64-bit
//! frame streams on the other.
//!
//! Ports (flat names in the emitted wrapper; `$` becomes `_`):
//! - `rx_clk`, `rx_rst`, `tx_clk`, `tx_rst`: the GMII receive and
//!   transmit clocks (125 MHz at 1 Gb/s) and their synchronous,
//!   active-high resets;
//! - `tx_axis_{tdata,tkeep,tvalid,tready,tlast,tuser}` (`tx_clk`, 64 bits):
//!   the frame to send, without FCS; `tkeep` is read on the last beat;
//!   `tuser` on the last beat aborts it. The frame must come whole (a
//!   store-and-forward FIFO in front, as in `mac_10g`): a beat missing
//!   inside a frame aborts it;
//! - `rx_axis_{tdata,tkeep,tvalid,tlast,tuser}` (`rx_clk`, 64 bits): a
//!   received frame without FCS, `tuser` on the last beat = bad frame.
//!   A MAC cannot stall the wire: `rx_axis_tready` low holds a beat in
//!   the widener, which takes no byte while it holds one, and the bytes
//!   the GMII receiver passes meanwhile are lost, uncounted, from a frame
//!   that may still end good. Keep it high: the boards put a receive
//!   FIFO in drop mode behind it (`AxisAsyncFifo<_, 1>`, always ready,
//!   a frame that does not fit dropped whole and counted);
//! - `gmii_rxd`, `gmii_rx_dv`, `gmii_rx_er` (`rx_clk`), `gmii_txd`,
//!   `gmii_tx_en`, `gmii_tx_er` (`tx_clk`);
//! - `rx_error_bad_frame`, `rx_error_bad_fcs` (`rx_clk`): one-cycle
//!   pulses;
//! - `rx_pause_valid` / `rx_pause_quanta` (`rx_clk`), `tx_paused`
//!   (`tx_clk`), `m_stats_tx_*`, `m_stats_rx_*`, `m_stats_pause_*`: as in
//!   `mac_10g`;
//! - `tx_pause_req`, `tx_pause_quanta`, `tx_pause_cev`, `cfg_src_mac`
//!   (`tx_clk`): send an 802.3x PAUSE, or a PFC frame for the priorities
//!   in `tx_pause_cev` (see [`TxPause`]); tie them to 0 if unused.
//!
//! Wiring: `tx_axis` → [`TxPause`] (64 bits; the timer counts a quantum
//! as 64 cycles of a byte) → [`AxisNarrow`] (64 → 8) → [`GmiiTx`];
//! [`GmiiRx`] → [`AxisWiden`] (8 → 64) → `rx_axis`; [`GmiiRx`]'s pause
//! requests cross to `tx_clk` through a [`ReqSync`]. The receive limit is
//! [`MAX_FRAME`] bytes, FCS included.
//!
//! Latency: transmit, [`TxPause`] (a cycle at each frame boundary), then
//! [`AxisNarrow`] (1 cycle), then [`GmiiTx`] (the preamble starts 2 cycles
//! after it sees the first byte while idle); receive, a byte on
//! `gmii_rxd` reaches `rx_axis` 16 to 23 cycles later (15 in [`GmiiRx`],
//! then 1 to 8 while [`AxisWiden`] gathers the beat). Back-to-back 64-byte
//! frames leave every 84 cycles (measured: `gmii_tx_line_rate`, and
//! cocotbext-eth's `GmiiSink` on `mac_1g`).

use super::{
    GmiiRx, GmiiTx, MacPauseStatsSource, MacRxStatsSource, MacTxStatsSource, ReqSync, RgmiiPhy,
    TxPause,
};
use crate::stream::{AxisNarrow, AxisSink, AxisSource, AxisWiden};
use nic_spec::mac::MAX_FRAME;
use rust_hdl::prelude::*;
use smart_default::SmartDefault;

#[derive(LogicBlock, SmartDefault)]
pub struct Mac1g {
    pub rx_clk: Signal<In, Clock>,
    pub rx_rst: Signal<In, Bit>,
    pub tx_clk: Signal<In, Clock>,
    pub tx_rst: Signal<In, Bit>,
    pub tx_axis: AxisSink<64, 8, 1>,
    pub rx_axis: AxisSource<64, 8, 1>,
    pub gmii_rxd: Signal<In, Bits<8>>,
    pub gmii_rx_dv: Signal<In, Bit>,
    pub gmii_rx_er: Signal<In, Bit>,
    pub gmii_txd: Signal<Out, Bits<8>>,
    pub gmii_tx_en: Signal<Out, Bit>,
    pub gmii_tx_er: Signal<Out, Bit>,
    pub rx_error_bad_frame: Signal<Out, Bit>,
    pub rx_error_bad_fcs: Signal<Out, Bit>,
    pub rx_pause_valid: Signal<Out, Bit>,
    pub rx_pause_quanta: Signal<Out, Bits<16>>,
    pub tx_paused: Signal<Out, Bit>,
    pub tx_pause_req: Signal<In, Bit>,
    pub tx_pause_quanta: Signal<In, Bits<16>>,
    pub tx_pause_cev: Signal<In, Bits<8>>,
    pub cfg_src_mac: Signal<In, Bits<48>>,
    pub m_stats_tx: MacTxStatsSource,
    pub m_stats_rx: MacRxStatsSource,
    pub m_stats_pause: MacPauseStatsSource,
    tx: GmiiTx,
    narrow: AxisNarrow,
    rx: GmiiRx,
    widen: AxisWiden,
    pause_sync: ReqSync<16>,
    pause: TxPause<6>,
    #[default(Constant::new(Bits::<16>::from(MAX_FRAME as u64)))]
    k_max_len: Constant<Bits<16>>,
}

impl Logic for Mac1g {
    #[hdl_gen]
    fn update(&mut self) {
        // ---- Transmit (tx_clk)
        self.pause.clock.next = self.tx_clk.val();
        self.pause.reset.next = self.tx_rst.val();
        self.narrow.clock.next = self.tx_clk.val();
        self.narrow.reset.next = self.tx_rst.val();
        self.tx.clock.next = self.tx_clk.val();
        self.tx.reset.next = self.tx_rst.val();
        self.tx.pause.next = false;
        AxisSink::<64, 8, 1>::link(&mut self.tx_axis, &mut self.pause.s_axis);
        AxisSource::<64, 8, 1>::join(&mut self.pause.m_axis, &mut self.narrow.s_axis);
        AxisSource::<8, 1, 1>::join(&mut self.narrow.m_axis, &mut self.tx.s_axis);
        self.pause.rx_pause_valid.next = self.pause_sync.update.val();
        self.pause.rx_pause_quanta.next = self.pause_sync.data_out.val();
        self.pause.tx_pause_req.next = self.tx_pause_req.val();
        self.pause.tx_pause_quanta.next = self.tx_pause_quanta.val();
        self.pause.tx_pause_cev.next = self.tx_pause_cev.val();
        self.pause.cfg_src_mac.next = self.cfg_src_mac.val();
        self.tx_paused.next = self.pause.paused.val();
        MacPauseStatsSource::link(&mut self.m_stats_pause, &mut self.pause.m_stats);
        self.gmii_txd.next = self.tx.gmii_txd.val();
        self.gmii_tx_en.next = self.tx.gmii_tx_en.val();
        self.gmii_tx_er.next = self.tx.gmii_tx_er.val();
        MacTxStatsSource::link(&mut self.m_stats_tx, &mut self.tx.m_stats);
        // ---- The pause request crossing (rx_clk -> tx_clk)
        self.pause_sync.clock_in.next = self.rx_clk.val();
        self.pause_sync.reset_in.next = self.rx_rst.val();
        self.pause_sync.send.next = self.rx.pause_valid.val();
        self.pause_sync.data.next = self.rx.pause_quanta.val();
        self.pause_sync.clock_out.next = self.tx_clk.val();
        self.pause_sync.reset_out.next = self.tx_rst.val();
        // ---- Receive (rx_clk)
        self.rx.clock.next = self.rx_clk.val();
        self.rx.reset.next = self.rx_rst.val();
        self.widen.clock.next = self.rx_clk.val();
        self.widen.reset.next = self.rx_rst.val();
        self.rx.gmii_rxd.next = self.gmii_rxd.val();
        self.rx.gmii_rx_dv.next = self.gmii_rx_dv.val();
        self.rx.gmii_rx_er.next = self.gmii_rx_er.val();
        self.rx.cfg_max_len.next = self.k_max_len.val();
        AxisSource::<8, 1, 1>::join(&mut self.rx.m_axis, &mut self.widen.s_axis);
        AxisSource::<64, 8, 1>::link(&mut self.rx_axis, &mut self.widen.m_axis);
        self.rx_error_bad_frame.next = self.rx.bad_frame.val();
        self.rx_error_bad_fcs.next = self.rx.bad_fcs.val();
        self.rx_pause_valid.next = self.rx.pause_valid.val();
        self.rx_pause_quanta.next = self.rx.pause_quanta.val();
        MacRxStatsSource::link(&mut self.m_stats_rx, &mut self.rx.m_stats);
    }
}

/// `mac_1g_rgmii`: [`Mac1g`] behind the [`RgmiiPhy`] adapter, for boards
/// with an RGMII PHY (the ECPIX-5's). The GMII pins give way to
/// `rgmii_txd[3:0]`, `rgmii_tx_ctl`, `rgmii_txc` (on `tx_clk`, the
/// forwarded clock from `tx_clk90`) and `rgmii_rxc`, `rgmii_rxd[3:0]`,
/// `rgmii_rx_ctl`; the receive side runs on `rgmii_rxc` (`rx_rst` must be
/// synchronous to it). Every other port is [`Mac1g`]'s. The DDR registers
/// are ECP5 primitives (see [`RgmiiPhy`] for simulation).
#[derive(LogicBlock, Default)]
pub struct Mac1gRgmii {
    pub tx_clk: Signal<In, Clock>,
    pub tx_clk90: Signal<In, Clock>,
    pub tx_rst: Signal<In, Bit>,
    pub rx_rst: Signal<In, Bit>,
    pub tx_axis: AxisSink<64, 8, 1>,
    pub rx_axis: AxisSource<64, 8, 1>,
    pub rgmii_txd: Signal<Out, Bits<4>>,
    pub rgmii_tx_ctl: Signal<Out, Bit>,
    pub rgmii_txc: Signal<Out, Bit>,
    pub rgmii_rxc: Signal<In, Clock>,
    pub rgmii_rxd: Signal<In, Bits<4>>,
    pub rgmii_rx_ctl: Signal<In, Bit>,
    pub rx_error_bad_frame: Signal<Out, Bit>,
    pub rx_error_bad_fcs: Signal<Out, Bit>,
    pub rx_pause_valid: Signal<Out, Bit>,
    pub rx_pause_quanta: Signal<Out, Bits<16>>,
    pub tx_paused: Signal<Out, Bit>,
    pub tx_pause_req: Signal<In, Bit>,
    pub tx_pause_quanta: Signal<In, Bits<16>>,
    pub tx_pause_cev: Signal<In, Bits<8>>,
    pub cfg_src_mac: Signal<In, Bits<48>>,
    pub m_stats_tx: MacTxStatsSource,
    pub m_stats_rx: MacRxStatsSource,
    pub m_stats_pause: MacPauseStatsSource,
    mac: Mac1g,
    phy: RgmiiPhy,
}

impl Logic for Mac1gRgmii {
    #[hdl_gen]
    fn update(&mut self) {
        self.phy.tx_clk.next = self.tx_clk.val();
        self.phy.tx_clk90.next = self.tx_clk90.val();
        self.phy.tx_rst.next = self.tx_rst.val();
        self.phy.rgmii_rxc.next = self.rgmii_rxc.val();
        self.phy.rx_rst.next = self.rx_rst.val();
        self.phy.rgmii_rxd.next = self.rgmii_rxd.val();
        self.phy.rgmii_rx_ctl.next = self.rgmii_rx_ctl.val();
        self.rgmii_txd.next = self.phy.rgmii_txd.val();
        self.rgmii_tx_ctl.next = self.phy.rgmii_tx_ctl.val();
        self.rgmii_txc.next = self.phy.rgmii_txc.val();
        self.phy.gmii_txd.next = self.mac.gmii_txd.val();
        self.phy.gmii_tx_en.next = self.mac.gmii_tx_en.val();
        self.phy.gmii_tx_er.next = self.mac.gmii_tx_er.val();
        self.mac.gmii_rxd.next = self.phy.gmii_rxd.val();
        self.mac.gmii_rx_dv.next = self.phy.gmii_rx_dv.val();
        self.mac.gmii_rx_er.next = self.phy.gmii_rx_er.val();
        self.mac.tx_clk.next = self.tx_clk.val();
        self.mac.tx_rst.next = self.tx_rst.val();
        self.mac.rx_clk.next = self.rgmii_rxc.val();
        self.mac.rx_rst.next = self.rx_rst.val();
        AxisSink::<64, 8, 1>::link(&mut self.tx_axis, &mut self.mac.tx_axis);
        AxisSource::<64, 8, 1>::link(&mut self.rx_axis, &mut self.mac.rx_axis);
        self.rx_error_bad_frame.next = self.mac.rx_error_bad_frame.val();
        self.rx_error_bad_fcs.next = self.mac.rx_error_bad_fcs.val();
        self.rx_pause_valid.next = self.mac.rx_pause_valid.val();
        self.rx_pause_quanta.next = self.mac.rx_pause_quanta.val();
        self.tx_paused.next = self.mac.tx_paused.val();
        self.mac.tx_pause_req.next = self.tx_pause_req.val();
        self.mac.tx_pause_quanta.next = self.tx_pause_quanta.val();
        self.mac.tx_pause_cev.next = self.tx_pause_cev.val();
        self.mac.cfg_src_mac.next = self.cfg_src_mac.val();
        MacTxStatsSource::link(&mut self.m_stats_tx, &mut self.mac.m_stats_tx);
        MacRxStatsSource::link(&mut self.m_stats_rx, &mut self.mac.m_stats_rx);
        MacPauseStatsSource::link(&mut self.m_stats_pause, &mut self.mac.m_stats_pause);
    }
}
