//! `mac_10g`: the 10G MAC top, a drop-in for verilog-ethernet's
//! `eth_mac_10g` (64-bit XGMII, its core ports).
//!
//! Ports (flat names in the emitted wrapper; `$` becomes `_`):
//! - `rx_clk`, `rx_rst`, `tx_clk`, `tx_rst`: the XGMII receive and
//!   transmit clocks (156.25 MHz for 10GBASE-R) and their synchronous,
//!   active-high resets;
//! - `tx_axis_{tdata,tkeep,tvalid,tready,tlast,tuser}` (`tx_clk`): the
//!   frame to send, without FCS; `tuser` on the last beat aborts it;
//! - `rx_axis_{tdata,tkeep,tvalid,tlast,tuser}` (`rx_clk`): a received
//!   frame without FCS, `tuser` on the last beat = bad frame; the bundle's
//!   `rx_axis_tready` input is ignored (a MAC cannot stall the wire) and
//!   may be left unconnected;
//! - `xgmii_rxd`, `xgmii_rxc` (`rx_clk`), `xgmii_txd`, `xgmii_txc`
//!   (`tx_clk`);
//! - `rx_error_bad_frame`, `rx_error_bad_fcs` (`rx_clk`): one-cycle
//!   pulses, as in `eth_mac_10g`;
//! - extra outputs: `rx_pause_valid` / `rx_pause_quanta` (a good PAUSE or
//!   PFC frame's request, `rx_clk`), `tx_paused` (the pause timer runs,
//!   `tx_clk`), `m_stats_tx_*` (`MacTxStats`, `tx_clk`), `m_stats_rx_*`
//!   (`MacRxStats`, `rx_clk`), `m_stats_pause_*` (`MacPauseStats`,
//!   `tx_clk`);
//! - extra inputs (`tx_clk`) to send an 802.3x PAUSE: `tx_pause_req` (one
//!   cycle), `tx_pause_quanta`, `cfg_src_mac` (see [`TxPause`]), and
//!   `tx_pause_cev`: a PFC frame for these priorities instead (0: PAUSE).
//!
//! The receive limit is the const generic `MAX_LEN` (FCS included):
//! up to [`nic_spec::mac::MAX_FRAME`] bytes, or
//! [`nic_spec::mac::MAX_FRAME_JUMBO`] for jumbo frames.
//!
//! Wiring: [`XgmiiRx`] on `rx_clk`; its pause requests cross to `tx_clk`
//! by a [`ReqSync`] into [`TxPause`] (the pause timer, which holds new
//! frames off, and the PAUSE inserter), in front of [`XgmiiTx`]. The
//! timer runs (`tx_paused`) from the 4th `tx_clk` edge after the
//! `rx_clk` edge that takes `rx_pause_valid` (the 5th if the crossing's
//! toggle just misses an edge: 3 or 4 in [`ReqSync`], one in the timer);
//! a frame already started goes on.
//!
//! The drop-in tops `mac_10g` and `mac_10g_jumbo` are [`EthMac10g`]: this
//! block with the PAUSE-sending inputs tied off, so that no input beyond
//! `eth_mac_10g`'s is needed. `mac_10g_pause` is this block itself.

use super::{
    MacPauseStatsSource, MacRxStatsSource, MacTxStatsSource, ReqSync, TxPause, XgmiiRx, XgmiiTx,
};
use crate::stream::{AxisSink, AxisSource};
use rust_hdl::prelude::*;
use smart_default::SmartDefault;

#[derive(LogicBlock, SmartDefault)]
pub struct Mac10g<const MAX_LEN: usize> {
    // The parameter check, when the block is built.
    #[default({
        assert!(MAX_LEN >= 64 && MAX_LEN <= 0xFFF0, "Mac10g: 64 <= MAX_LEN <= 65520");
        Default::default()
    })]
    pub rx_clk: Signal<In, Clock>,
    pub rx_rst: Signal<In, Bit>,
    pub tx_clk: Signal<In, Clock>,
    pub tx_rst: Signal<In, Bit>,
    pub tx_axis: AxisSink<64, 8, 1>,
    pub rx_axis: AxisSource<64, 8, 1>,
    pub xgmii_rxd: Signal<In, Bits<64>>,
    pub xgmii_rxc: Signal<In, Bits<8>>,
    pub xgmii_txd: Signal<Out, Bits<64>>,
    pub xgmii_txc: Signal<Out, Bits<8>>,
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
    tx: XgmiiTx,
    rx: XgmiiRx,
    pause_sync: ReqSync<16>,
    pause: TxPause<3>,
    #[default(Constant::new(Bits::<16>::from(MAX_LEN as u64)))]
    k_max_len: Constant<Bits<16>>,
}

impl<const MAX_LEN: usize> Logic for Mac10g<MAX_LEN> {
    #[hdl_gen]
    fn update(&mut self) {
        self.tx.clock.next = self.tx_clk.val();
        self.tx.reset.next = self.tx_rst.val();
        self.tx.pause.next = false;
        self.pause.clock.next = self.tx_clk.val();
        self.pause.reset.next = self.tx_rst.val();
        AxisSink::<64, 8, 1>::link(&mut self.tx_axis, &mut self.pause.s_axis);
        AxisSource::<64, 8, 1>::join(&mut self.pause.m_axis, &mut self.tx.s_axis);
        self.pause.rx_pause_valid.next = self.pause_sync.update.val();
        self.pause.rx_pause_quanta.next = self.pause_sync.data_out.val();
        self.pause.tx_pause_req.next = self.tx_pause_req.val();
        self.pause.tx_pause_quanta.next = self.tx_pause_quanta.val();
        self.pause.tx_pause_cev.next = self.tx_pause_cev.val();
        self.pause.cfg_src_mac.next = self.cfg_src_mac.val();
        self.tx_paused.next = self.pause.paused.val();
        MacPauseStatsSource::link(&mut self.m_stats_pause, &mut self.pause.m_stats);
        self.pause_sync.clock_in.next = self.rx_clk.val();
        self.pause_sync.reset_in.next = self.rx_rst.val();
        self.pause_sync.send.next = self.rx.pause_valid.val();
        self.pause_sync.data.next = self.rx.pause_quanta.val();
        self.pause_sync.clock_out.next = self.tx_clk.val();
        self.pause_sync.reset_out.next = self.tx_rst.val();
        self.xgmii_txd.next = self.tx.xgmii_txd.val();
        self.xgmii_txc.next = self.tx.xgmii_txc.val();
        MacTxStatsSource::link(&mut self.m_stats_tx, &mut self.tx.m_stats);

        self.rx.clock.next = self.rx_clk.val();
        self.rx.reset.next = self.rx_rst.val();
        self.rx.xgmii_rxd.next = self.xgmii_rxd.val();
        self.rx.xgmii_rxc.next = self.xgmii_rxc.val();
        self.rx.cfg_max_len.next = self.k_max_len.val();
        AxisSource::<64, 8, 1>::link(&mut self.rx_axis, &mut self.rx.m_axis);
        self.rx_error_bad_frame.next = self.rx.bad_frame.val();
        self.rx_error_bad_fcs.next = self.rx.bad_fcs.val();
        self.rx_pause_valid.next = self.rx.pause_valid.val();
        self.rx_pause_quanta.next = self.rx.pause_quanta.val();
        MacRxStatsSource::link(&mut self.m_stats_rx, &mut self.rx.m_stats);
    }
}

/// `mac_10g` / `mac_10g_jumbo`: [`Mac10g`] with the PAUSE-sending inputs
/// tied off (no request, source address 0), so that its inputs are
/// exactly `eth_mac_10g`'s core ones. Every other port is [`Mac10g`]'s.
#[derive(LogicBlock, Default)]
pub struct EthMac10g<const MAX_LEN: usize> {
    pub rx_clk: Signal<In, Clock>,
    pub rx_rst: Signal<In, Bit>,
    pub tx_clk: Signal<In, Clock>,
    pub tx_rst: Signal<In, Bit>,
    pub tx_axis: AxisSink<64, 8, 1>,
    pub rx_axis: AxisSource<64, 8, 1>,
    pub xgmii_rxd: Signal<In, Bits<64>>,
    pub xgmii_rxc: Signal<In, Bits<8>>,
    pub xgmii_txd: Signal<Out, Bits<64>>,
    pub xgmii_txc: Signal<Out, Bits<8>>,
    pub rx_error_bad_frame: Signal<Out, Bit>,
    pub rx_error_bad_fcs: Signal<Out, Bit>,
    pub rx_pause_valid: Signal<Out, Bit>,
    pub rx_pause_quanta: Signal<Out, Bits<16>>,
    pub tx_paused: Signal<Out, Bit>,
    pub m_stats_tx: MacTxStatsSource,
    pub m_stats_rx: MacRxStatsSource,
    pub m_stats_pause: MacPauseStatsSource,
    mac: Mac10g<MAX_LEN>,
}

impl<const MAX_LEN: usize> Logic for EthMac10g<MAX_LEN> {
    #[hdl_gen]
    fn update(&mut self) {
        self.mac.rx_clk.next = self.rx_clk.val();
        self.mac.rx_rst.next = self.rx_rst.val();
        self.mac.tx_clk.next = self.tx_clk.val();
        self.mac.tx_rst.next = self.tx_rst.val();
        AxisSink::<64, 8, 1>::link(&mut self.tx_axis, &mut self.mac.tx_axis);
        AxisSource::<64, 8, 1>::link(&mut self.rx_axis, &mut self.mac.rx_axis);
        self.mac.xgmii_rxd.next = self.xgmii_rxd.val();
        self.mac.xgmii_rxc.next = self.xgmii_rxc.val();
        self.xgmii_txd.next = self.mac.xgmii_txd.val();
        self.xgmii_txc.next = self.mac.xgmii_txc.val();
        self.rx_error_bad_frame.next = self.mac.rx_error_bad_frame.val();
        self.rx_error_bad_fcs.next = self.mac.rx_error_bad_fcs.val();
        self.rx_pause_valid.next = self.mac.rx_pause_valid.val();
        self.rx_pause_quanta.next = self.mac.rx_pause_quanta.val();
        self.tx_paused.next = self.mac.tx_paused.val();
        self.mac.tx_pause_req.next = false;
        self.mac.tx_pause_quanta.next = 0.into();
        self.mac.tx_pause_cev.next = 0.into();
        self.mac.cfg_src_mac.next = 0.into();
        MacTxStatsSource::link(&mut self.m_stats_tx, &mut self.mac.m_stats_tx);
        MacRxStatsSource::link(&mut self.m_stats_rx, &mut self.mac.m_stats_rx);
        MacPauseStatsSource::link(&mut self.m_stats_pause, &mut self.mac.m_stats_pause);
    }
}
