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
//!   PFC frame's request, `rx_clk`), `m_stats_tx_*` (`MacTxStats`,
//!   `tx_clk`), `m_stats_rx_*` (`MacRxStats`, `rx_clk`).
//!
//! No other input is needed. The receive limit is the const generic
//! `MAX_LEN` (FCS included): `mac_10g` takes up to
//! [`nic_spec::mac::MAX_FRAME`] bytes, `mac_10g_jumbo` up to
//! [`nic_spec::mac::MAX_FRAME_JUMBO`].
//!
//! Wiring only: [`XgmiiTx`] on `tx_clk`, [`XgmiiRx`] on `rx_clk`. Not yet
//! here (issue 17): the pause timer that holds the transmitter off on a
//! received pause (the transmitter's `pause` input is tied low), and the
//! clock crossing to the core.

use super::{MacRxStatsSource, MacTxStatsSource, XgmiiRx, XgmiiTx};
use crate::stream::{AxisSink, AxisSource};
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct Mac10g<const MAX_LEN: usize> {
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
    pub m_stats_tx: MacTxStatsSource,
    pub m_stats_rx: MacRxStatsSource,
    tx: XgmiiTx,
    rx: XgmiiRx,
    k_max_len: Constant<Bits<16>>,
}

impl<const MAX_LEN: usize> Default for Mac10g<MAX_LEN> {
    fn default() -> Self {
        assert!(
            MAX_LEN >= 64 && MAX_LEN <= 0xFFF0,
            "Mac10g: 64 <= MAX_LEN <= 65520"
        );
        Self {
            rx_clk: Default::default(),
            rx_rst: Default::default(),
            tx_clk: Default::default(),
            tx_rst: Default::default(),
            tx_axis: Default::default(),
            rx_axis: Default::default(),
            xgmii_rxd: Default::default(),
            xgmii_rxc: Default::default(),
            xgmii_txd: Default::default(),
            xgmii_txc: Default::default(),
            rx_error_bad_frame: Default::default(),
            rx_error_bad_fcs: Default::default(),
            rx_pause_valid: Default::default(),
            rx_pause_quanta: Default::default(),
            m_stats_tx: Default::default(),
            m_stats_rx: Default::default(),
            tx: Default::default(),
            rx: Default::default(),
            k_max_len: Constant::new(Bits::<16>::from(MAX_LEN as u64)),
        }
    }
}

impl<const MAX_LEN: usize> Logic for Mac10g<MAX_LEN> {
    #[hdl_gen]
    fn update(&mut self) {
        self.tx.clock.next = self.tx_clk.val();
        self.tx.reset.next = self.tx_rst.val();
        self.tx.pause.next = false;
        AxisSink::<64, 8, 1>::link(&mut self.tx_axis, &mut self.tx.s_axis);
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
