//! `NicBoard1g`: the NIC on a board with an RGMII Gigabit PHY, a UART to
//! the host and block RAM as host memory: everything of the ECPIX-5's
//! board top (`boards/ecpix5/fpga.v`) but the pins' I/O buffers and the
//! PLL. Wiring, plus the resets (`docs/board.md` §6).
//!
//! ```text
//!  clk100 ─► LockReset ── rst_pll ─┬─► ResetSync(clk) ── rst ──────► bridge, split, memory, NIC
//!  pll_lock, button ──┘            ├─► ResetSync(tx_clk) ─ tx_rst ─► MAC transmit, Tx FIFO out
//!                                  └─► ResetSync(rgmii_rxc) rx_rst ► MAC receive, Rx FIFO in
//!
//!  uart_rx ─► UartAxil ─► AxilSplit ─┬─ < HOST_MEM_BASE ─► HpccNic.s_axil
//!  uart_tx ◄─┘                       └─ ≥ HOST_MEM_BASE ─► AxilSlave ─► BramDma (host port)
//!                                  HpccNic descriptors, h2c, c2h ◄──► BramDma (DMA side)
//!  HpccNic.m_axis_tx ─► AxisAsyncFifo (clk → tx_clk, back-pressure) ─► Mac1gRgmii ─► rgmii_tx*
//!  HpccNic.s_axis_rx ◄─ AxisAsyncFifo (rgmii_rxc → clk, drops)    ◄─ Mac1gRgmii ◄─ rgmii_rx*
//! ```
//!
//! Ports:
//! - `clk100` (the oscillator), `pll_lock` (the PLL's `LOCK`), `button`
//!   (active high; the board top inverts a low-active button): the reset
//!   ([`LockReset`]`<16>`: 2^16 cycles of lock, 655 µs at 100 MHz);
//! - `clk` (the core: NIC, bridge, split, memory), `tx_clk` and
//!   `tx_clk90` (125 MHz, the second 90° later: RGMII transmit), from the
//!   PLL; `rgmii_rxc` (the PHY's receive clock);
//! - `uart_rx`, `uart_tx`, `cfg_clks_per_bit` (`clk` cycles a bit),
//!   `cfg_timeout` (`clk` cycles that end a request): [`UartAxil`]'s;
//! - `rgmii_txd`, `rgmii_tx_ctl`, `rgmii_txc`, `rgmii_rxd`,
//!   `rgmii_rx_ctl`: [`Mac1gRgmii`]'s pins;
//! - status for LEDs and the PHY: `locked` (the synchronised lock),
//!   `running` (`clk`'s domain out of reset), `phy_rst_n` (low while the
//!   board is held in reset), `cq_event` (a `clk` cycle for each
//!   completion-queue event);
//! - the counters, also as ports (each in its own clock): `lock_losses`
//!   (`clk100`), `m_stats_mem` (`BramDmaStats`), `m_stats_bridge`
//!   (`UartBridgeStats`), `m_stats_tx_fifo` (`clk`), `m_stats_rx_fifo`
//!   (`AsyncFifoStats`, `rgmii_rxc`), `m_stats_mac_tx` (`tx_clk`),
//!   `m_stats_mac_rx` (`rgmii_rxc`).
//!
//! The host reads every counter with the bridge's `STATS` command, page
//! by page (`nic_spec::board::STATS_PAGES`, `docs/board.md` §4): the
//! bridge's `ext_stat_index` (page << 8 | counter) picks the page here.
//! A page on `clk` is read through its selector (`hdl_stats_sel!`); a
//! page on another clock through a [`StatsCross`] to that clock (the
//! index out, the answer back with the index it answers), whose source
//! side the page's selector answers. The answer follows the index
//! within a few cycles of both clocks, well within the character the
//! bridge waits; a page whose clock has stopped (no PHY receive clock)
//! answers DECERR, never another counter's value.
//!
//! Addresses: below `nic_spec::board::HOST_MEM_BASE` the NIC's registers
//! (`docs/driver.md`), from it the 16 KiB host memory, byte address
//! `a - HOST_MEM_BASE` of the DMA's address space.
//!
//! Bad input: a PLL that never locks holds every domain in reset and the
//! PHY too; a UART request with a bad CRC or cut short is counted by the
//! bridge and not executed; a frame with an RGMII error is flagged by the
//! MAC (`errors`), reaches the NIC with `tuser` and is dropped and counted
//! there (`RxParseStats.bad_fcs`); a received frame that finds the Rx
//! FIFO full is dropped whole (`m_stats_rx_fifo.dropped`). Every block's
//! own rules hold behind these.
//!
//! No golden twin: every block in it has its own (the MAC's are checked
//! against cocotbext-eth), and the board core as a whole is co-simulated
//! (`testbench/cocotb/test_board.py`): a host model on the UART, the
//! RGMII pins looped through cocotbext-eth's `RgmiiSink`/`RgmiiSource`.

use crate::board::BoardStatsSink;
use crate::board::{LockReset, ResetSync, StatsCross};
use crate::hdl_stats_sel;
use crate::hostif::axil_slave::AxilSlave;
use crate::hostif::axil_split::AxilSplit;
use crate::hostif::bram_dma::BramDma;
use crate::hostif::{
    AxiLiteMaster, BramDmaStatsSink, BramDmaStatsSource, DmaDescSource, RegReqSource, RegRespSource,
};
use crate::mac::{
    AsyncFifoStatsSink, AsyncFifoStatsSource, AxisAsyncFifo, Mac1gRgmii, MacRxStatsSink,
    MacRxStatsSource, MacTxStatsSink, MacTxStatsSource,
};
use crate::nic::HpccNic;
use crate::stream::AxisSource;
use crate::uart::{UartAxil, UartBridgeStatsSource};
use nic_spec::board::{stats_page, HOST_MEM_LOG_WORDS};
use rust_hdl::prelude::*;

/// log2 of the oscillator cycles of lock before the reset is released.
pub const LOCK_HOLD_LOG2: usize = 16;
/// log2 words (8 bytes) of each clock-crossing frame FIFO.
pub const FRAME_FIFO_A: usize = 9;

nic_spec::bram_dma_stats_record!(hdl_stats_sel! { BramDmaStatsSel; });
nic_spec::async_fifo_stats_record!(hdl_stats_sel! { AsyncFifoStatsSel; });
nic_spec::mac_tx_stats_record!(hdl_stats_sel! { MacTxStatsSel; });
nic_spec::mac_rx_stats_record!(hdl_stats_sel! { MacRxStatsSel; });
nic_spec::board_stats_record!(hdl_stats_sel! { BoardStatsSel; });

/// [`HpccNic`] of these parameters on a 1G RGMII board.
#[derive(LogicBlock)]
pub struct NicBoard1g<
    const A: usize,
    const Q: usize,
    const AQ: usize,
    const B: usize,
    const C: usize,
    const N: usize,
    const W: usize,
    const H: usize = 5,
> {
    pub clk100: Signal<In, Clock>,
    pub pll_lock: Signal<In, Bit>,
    pub button: Signal<In, Bit>,
    pub clk: Signal<In, Clock>,
    pub tx_clk: Signal<In, Clock>,
    pub tx_clk90: Signal<In, Clock>,
    pub uart_rx: Signal<In, Bit>,
    pub uart_tx: Signal<Out, Bit>,
    pub cfg_clks_per_bit: Signal<In, Bits<16>>,
    pub cfg_timeout: Signal<In, Bits<24>>,
    pub rgmii_txd: Signal<Out, Bits<4>>,
    pub rgmii_tx_ctl: Signal<Out, Bit>,
    pub rgmii_txc: Signal<Out, Bit>,
    pub rgmii_rxc: Signal<In, Clock>,
    pub rgmii_rxd: Signal<In, Bits<4>>,
    pub rgmii_rx_ctl: Signal<In, Bit>,
    pub locked: Signal<Out, Bit>,
    pub running: Signal<Out, Bit>,
    pub phy_rst_n: Signal<Out, Bit>,
    pub cq_event: Signal<Out, Bit>,
    pub lock_losses: Signal<Out, Bits<32>>,
    pub m_stats_mem: BramDmaStatsSource,
    pub m_stats_bridge: UartBridgeStatsSource,
    pub m_stats_tx_fifo: AsyncFifoStatsSource,
    pub m_stats_rx_fifo: AsyncFifoStatsSource,
    pub m_stats_mac_tx: MacTxStatsSource,
    pub m_stats_mac_rx: MacRxStatsSource,
    lock_reset: LockReset<LOCK_HOLD_LOG2>,
    core_rst: ResetSync,
    tx_rst: ResetSync,
    rx_rst: ResetSync,
    bridge: UartAxil,
    split: AxilSplit,
    mem_axil: AxilSlave,
    mem: BramDma<HOST_MEM_LOG_WORDS>,
    nic: HpccNic<A, Q, AQ, B, C, N, W, H>,
    tx_fifo: AxisAsyncFifo<FRAME_FIFO_A, 0>,
    rx_fifo: AxisAsyncFifo<FRAME_FIFO_A, 1>,
    mac: Mac1gRgmii,
    // ---- The STATS pages (`nic_spec::board::STATS_PAGES`).
    sel_mem: BramDmaStatsSel,
    sel_tx_fifo: AsyncFifoStatsSel,
    sel_rx_fifo: AsyncFifoStatsSel,
    sel_mac_rx: MacRxStatsSel,
    sel_mac_tx: MacTxStatsSel,
    sel_board: BoardStatsSel,
    /// The reads across to `rgmii_rxc`, `tx_clk`, `clk100`.
    cross_rx: StatsCross,
    cross_tx: StatsCross,
    cross_osc: StatsCross,
    k_page_host_mem: Constant<Bits<8>>,
    k_page_tx_fifo: Constant<Bits<8>>,
    k_page_rx_fifo: Constant<Bits<8>>,
    k_page_mac_tx: Constant<Bits<8>>,
    k_page_mac_rx: Constant<Bits<8>>,
    k_page_reset: Constant<Bits<8>>,
    /// The page of the bridge's index, on `clk`.
    page: Signal<Local, Bits<8>>,
    /// The page of the index as it reached `rgmii_rxc`.
    page_rx: Signal<Local, Bits<8>>,
}

impl<
        const A: usize,
        const Q: usize,
        const AQ: usize,
        const B: usize,
        const C: usize,
        const N: usize,
        const W: usize,
        const H: usize,
    > Default for NicBoard1g<A, Q, AQ, B, C, N, W, H>
{
    fn default() -> Self {
        let page = |p: u8| Constant::new(Bits::<8>::from(p as u64));
        Self {
            clk100: Default::default(),
            pll_lock: Default::default(),
            button: Default::default(),
            clk: Default::default(),
            tx_clk: Default::default(),
            tx_clk90: Default::default(),
            uart_rx: Default::default(),
            uart_tx: Default::default(),
            cfg_clks_per_bit: Default::default(),
            cfg_timeout: Default::default(),
            rgmii_txd: Default::default(),
            rgmii_tx_ctl: Default::default(),
            rgmii_txc: Default::default(),
            rgmii_rxc: Default::default(),
            rgmii_rxd: Default::default(),
            rgmii_rx_ctl: Default::default(),
            locked: Default::default(),
            running: Default::default(),
            phy_rst_n: Default::default(),
            cq_event: Default::default(),
            lock_losses: Default::default(),
            m_stats_mem: Default::default(),
            m_stats_bridge: Default::default(),
            m_stats_tx_fifo: Default::default(),
            m_stats_rx_fifo: Default::default(),
            m_stats_mac_tx: Default::default(),
            m_stats_mac_rx: Default::default(),
            lock_reset: Default::default(),
            core_rst: Default::default(),
            tx_rst: Default::default(),
            rx_rst: Default::default(),
            bridge: Default::default(),
            split: Default::default(),
            mem_axil: Default::default(),
            mem: Default::default(),
            nic: Default::default(),
            tx_fifo: Default::default(),
            rx_fifo: Default::default(),
            mac: Default::default(),
            sel_mem: Default::default(),
            sel_tx_fifo: Default::default(),
            sel_rx_fifo: Default::default(),
            sel_mac_rx: Default::default(),
            sel_mac_tx: Default::default(),
            sel_board: Default::default(),
            cross_rx: Default::default(),
            cross_tx: Default::default(),
            cross_osc: Default::default(),
            page: Default::default(),
            page_rx: Default::default(),
            k_page_host_mem: page(stats_page::HOST_MEM),
            k_page_tx_fifo: page(stats_page::TX_FIFO),
            k_page_rx_fifo: page(stats_page::RX_FIFO),
            k_page_mac_tx: page(stats_page::MAC_TX),
            k_page_mac_rx: page(stats_page::MAC_RX),
            k_page_reset: page(stats_page::RESET),
        }
    }
}

impl<
        const A: usize,
        const Q: usize,
        const AQ: usize,
        const B: usize,
        const C: usize,
        const N: usize,
        const W: usize,
        const H: usize,
    > Logic for NicBoard1g<A, Q, AQ, B, C, N, W, H>
{
    #[hdl_gen]
    fn update(&mut self) {
        // ---- Resets: the PLL's lock on the oscillator, then one
        // synchroniser per PLL or PHY domain.
        self.lock_reset.clock.next = self.clk100.val();
        self.lock_reset.pll_lock.next = self.pll_lock.val();
        self.lock_reset.button.next = self.button.val();
        self.core_rst.clock.next = self.clk.val();
        self.core_rst.rst_in.next = self.lock_reset.rst.val();
        self.tx_rst.clock.next = self.tx_clk.val();
        self.tx_rst.rst_in.next = self.lock_reset.rst.val();
        self.rx_rst.clock.next = self.rgmii_rxc.val();
        self.rx_rst.rst_in.next = self.lock_reset.rst.val();
        self.locked.next = self.lock_reset.locked.val();
        self.lock_losses.next = self.lock_reset.lock_losses.val();
        self.phy_rst_n.next = !self.lock_reset.rst.val();
        self.running.next = !self.core_rst.rst.val();
        // ---- The core domain.
        clock!(self, clk, bridge, split, mem_axil, mem);
        self.nic.clk.next = self.clk.val();
        self.bridge.reset.next = self.core_rst.rst.val();
        self.split.reset.next = self.core_rst.rst.val();
        self.mem_axil.reset.next = self.core_rst.rst.val();
        self.mem.reset.next = self.core_rst.rst.val();
        self.nic.rst.next = self.core_rst.rst.val();
        // Host: the UART bridge, the split, the registers and the memory.
        self.bridge.uart_rx.next = self.uart_rx.val();
        self.uart_tx.next = self.bridge.uart_tx.val();
        self.bridge.cfg_clks_per_bit.next = self.cfg_clks_per_bit.val();
        self.bridge.cfg_timeout.next = self.cfg_timeout.val();
        AxiLiteMaster::join(&mut self.bridge.m_axil, &mut self.split.s_axil);
        AxiLiteMaster::join(&mut self.split.m_axil_a, &mut self.nic.s_axil);
        AxiLiteMaster::join(&mut self.split.m_axil_b, &mut self.mem_axil.s_axil);
        RegReqSource::join(&mut self.mem_axil.m_req, &mut self.mem.s_req);
        RegRespSource::join(&mut self.mem.m_resp, &mut self.mem_axil.s_resp);
        // The NIC's DMA, served from the memory.
        DmaDescSource::join(
            &mut self.nic.m_axis_read_desc,
            &mut self.mem.s_axis_read_desc,
        );
        AxisSource::<64, 8, 1>::join(&mut self.mem.m_axis_h2c, &mut self.nic.s_axis_h2c);
        DmaDescSource::join(
            &mut self.nic.m_axis_write_desc,
            &mut self.mem.s_axis_write_desc,
        );
        AxisSource::<64, 8, 1>::join(&mut self.nic.m_axis_c2h, &mut self.mem.s_axis_c2h);
        self.cq_event.next = self.nic.m_event.valid.val();
        // ---- NIC ↔ MAC, across the clocks.
        self.tx_fifo.s_clk.next = self.clk.val();
        self.tx_fifo.s_rst.next = self.core_rst.rst.val();
        self.tx_fifo.m_clk.next = self.tx_clk.val();
        self.tx_fifo.m_rst.next = self.tx_rst.rst.val();
        AxisSource::<64, 8, 1>::join(&mut self.nic.m_axis_tx, &mut self.tx_fifo.s_axis);
        AxisSource::<64, 8, 1>::join(&mut self.tx_fifo.m_axis, &mut self.mac.tx_axis);
        self.rx_fifo.s_clk.next = self.rgmii_rxc.val();
        self.rx_fifo.s_rst.next = self.rx_rst.rst.val();
        self.rx_fifo.m_clk.next = self.clk.val();
        self.rx_fifo.m_rst.next = self.core_rst.rst.val();
        AxisSource::<64, 8, 1>::join(&mut self.mac.rx_axis, &mut self.rx_fifo.s_axis);
        AxisSource::<64, 8, 1>::join(&mut self.rx_fifo.m_axis, &mut self.nic.s_axis_rx);
        // ---- The MAC and its pins. PAUSE frames are obeyed (the MAC's
        // own timer) but never sent.
        self.mac.tx_clk.next = self.tx_clk.val();
        self.mac.tx_clk90.next = self.tx_clk90.val();
        self.mac.tx_rst.next = self.tx_rst.rst.val();
        self.mac.rx_rst.next = self.rx_rst.rst.val();
        self.mac.rgmii_rxc.next = self.rgmii_rxc.val();
        self.mac.rgmii_rxd.next = self.rgmii_rxd.val();
        self.mac.rgmii_rx_ctl.next = self.rgmii_rx_ctl.val();
        self.rgmii_txd.next = self.mac.rgmii_txd.val();
        self.rgmii_tx_ctl.next = self.mac.rgmii_tx_ctl.val();
        self.rgmii_txc.next = self.mac.rgmii_txc.val();
        self.mac.tx_pause_req.next = false;
        self.mac.tx_pause_quanta.next = 0.into();
        self.mac.tx_pause_cev.next = 0.into();
        self.mac.cfg_src_mac.next = 0.into();
        // ---- Counters.
        BramDmaStatsSource::link(&mut self.m_stats_mem, &mut self.mem.m_stats);
        UartBridgeStatsSource::link(&mut self.m_stats_bridge, &mut self.bridge.m_stats);
        AsyncFifoStatsSource::link(&mut self.m_stats_tx_fifo, &mut self.tx_fifo.m_stats);
        AsyncFifoStatsSource::link(&mut self.m_stats_rx_fifo, &mut self.rx_fifo.m_stats);
        MacTxStatsSource::link(&mut self.m_stats_mac_tx, &mut self.mac.m_stats_tx);
        MacRxStatsSource::link(&mut self.m_stats_mac_rx, &mut self.mac.m_stats_rx);
        // ---- The STATS pages past the bridge's own (module doc).
        self.page.next = self.bridge.ext_stat_index.val().get_bits::<8>(8);
        // (A child's output linked to a port of this block has no wire of
        // its own in the emitted Verilog: the selectors read the ports.)
        BramDmaStatsSource::join(&mut self.m_stats_mem, &mut self.sel_mem.s_stats);
        AsyncFifoStatsSource::join(&mut self.m_stats_tx_fifo, &mut self.sel_tx_fifo.s_stats);
        self.sel_mem.sel.next = self.bridge.ext_stat_index.val().get_bits::<8>(0);
        self.sel_tx_fifo.sel.next = self.bridge.ext_stat_index.val().get_bits::<8>(0);
        // The other clocks' pages, read across (`StatsCross`).
        self.cross_rx.clk.next = self.clk.val();
        self.cross_rx.rst.next = self.core_rst.rst.val();
        self.cross_rx.index.next = self.bridge.ext_stat_index.val();
        self.cross_rx.src_clk.next = self.rgmii_rxc.val();
        self.cross_rx.src_rst.next = self.rx_rst.rst.val();
        self.cross_tx.clk.next = self.clk.val();
        self.cross_tx.rst.next = self.core_rst.rst.val();
        self.cross_tx.index.next = self.bridge.ext_stat_index.val();
        self.cross_tx.src_clk.next = self.tx_clk.val();
        self.cross_tx.src_rst.next = self.tx_rst.rst.val();
        self.cross_osc.clk.next = self.clk.val();
        self.cross_osc.rst.next = self.core_rst.rst.val();
        self.cross_osc.index.next = self.bridge.ext_stat_index.val();
        self.cross_osc.src_clk.next = self.clk100.val();
        self.cross_osc.src_rst.next = false;
        // rgmii_rxc: the Rx FIFO's and the MAC receiver's pages.
        AsyncFifoStatsSource::join(&mut self.m_stats_rx_fifo, &mut self.sel_rx_fifo.s_stats);
        MacRxStatsSource::join(&mut self.m_stats_mac_rx, &mut self.sel_mac_rx.s_stats);
        self.page_rx.next = self.cross_rx.src_index.val().get_bits::<8>(8);
        self.sel_rx_fifo.sel.next = self.cross_rx.src_index.val().get_bits::<8>(0);
        self.sel_mac_rx.sel.next = self.cross_rx.src_index.val().get_bits::<8>(0);
        self.cross_rx.src_hit.next = false;
        self.cross_rx.src_data.next = 0.into();
        if (self.page_rx.val() == self.k_page_rx_fifo.val()) {
            self.cross_rx.src_hit.next = self.sel_rx_fifo.hit.val();
            self.cross_rx.src_data.next = self.sel_rx_fifo.data.val();
        }
        if (self.page_rx.val() == self.k_page_mac_rx.val()) {
            self.cross_rx.src_hit.next = self.sel_mac_rx.hit.val();
            self.cross_rx.src_data.next = self.sel_mac_rx.data.val();
        }
        // tx_clk: the MAC transmitter's page.
        MacTxStatsSource::join(&mut self.m_stats_mac_tx, &mut self.sel_mac_tx.s_stats);
        self.sel_mac_tx.sel.next = self.cross_tx.src_index.val().get_bits::<8>(0);
        self.cross_tx.src_hit.next = ((self.cross_tx.src_index.val().get_bits::<8>(8)
            == self.k_page_mac_tx.val())
            && self.sel_mac_tx.hit.val());
        self.cross_tx.src_data.next = self.sel_mac_tx.data.val();
        // clk100: the board's own page (the PLL's lock losses).
        self.sel_board.s_stats.lock_losses.next = self.lock_reset.lock_losses.val();
        self.sel_board.sel.next = self.cross_osc.src_index.val().get_bits::<8>(0);
        self.cross_osc.src_hit.next = ((self.cross_osc.src_index.val().get_bits::<8>(8)
            == self.k_page_reset.val())
            && self.sel_board.hit.val());
        self.cross_osc.src_data.next = self.sel_board.data.val();
        // Back on clk: the page's answer.
        self.bridge.ext_stat_hit.next = false;
        self.bridge.ext_stat_data.next = 0.into();
        if (self.page.val() == self.k_page_host_mem.val()) {
            self.bridge.ext_stat_hit.next = self.sel_mem.hit.val();
            self.bridge.ext_stat_data.next = self.sel_mem.data.val();
        }
        if (self.page.val() == self.k_page_tx_fifo.val()) {
            self.bridge.ext_stat_hit.next = self.sel_tx_fifo.hit.val();
            self.bridge.ext_stat_data.next = self.sel_tx_fifo.data.val();
        }
        if ((self.page.val() == self.k_page_rx_fifo.val())
            || (self.page.val() == self.k_page_mac_rx.val()))
        {
            self.bridge.ext_stat_hit.next = self.cross_rx.hit.val();
            self.bridge.ext_stat_data.next = self.cross_rx.data.val();
        }
        if (self.page.val() == self.k_page_mac_tx.val()) {
            self.bridge.ext_stat_hit.next = self.cross_tx.hit.val();
            self.bridge.ext_stat_data.next = self.cross_tx.data.val();
        }
        if (self.page.val() == self.k_page_reset.val()) {
            self.bridge.ext_stat_hit.next = self.cross_osc.hit.val();
            self.bridge.ext_stat_data.next = self.cross_osc.data.val();
        }
    }
}
