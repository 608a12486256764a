//! Twin of `hdl/src/mac/vendor_mac.rs` (`VendorMacAdapter<A>`) with its
//! three clocks (`core_clk`, `tx_clk`, `rx_clk`) tied to one and its three
//! resets apart. Its parts' twins joined as the RTL joins them: transmit
//! [`AxisPad`] → [`AxisAsyncFifo`]`<A, 0>` (back-pressure, write side in
//! `core_rst`, read side in `tx_rst`); receive [`AxisAsyncFifo`]`<A, 1>`
//! (drop mode, write side in `rx_rst`, read side in `core_rst`). See the
//! RTL's docs for the ports and the behaviour on bad input.

use super::axis_async_fifo::{AxisAsyncFifo, SIn, SOut};
use super::axis_pad::{self, AxisPad};
use super::{AsyncFifoStats, TxPadStats};
use crate::stream::{Axis, Beat};
use crate::Cycle;

/// One cycle's inputs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    pub core_rst: bool,
    pub tx_rst: bool,
    pub rx_rst: bool,
    /// `s_axis_tx`, from the core.
    pub tx: Axis,
    /// `m_axis_mac_tx.tready`, from the MAC.
    pub mac_tx_tready: bool,
    /// `s_axis_mac_rx`, from the MAC.
    pub mac_rx: Axis,
    /// `m_axis_rx.tready`, from the core.
    pub rx_tready: bool,
}

/// One cycle's outputs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub tx_tready: bool,
    pub mac_tx: Axis,
    pub mac_rx_tready: bool,
    pub rx: Axis,
    pub stats_pad: TxPadStats,
    pub stats_tx_fifo: AsyncFifoStats,
    pub stats_rx_fifo: AsyncFifoStats,
}

#[derive(Clone, Debug, Default)]
pub struct VendorMacAdapter<const A: usize> {
    pad: AxisPad,
    tx_fifo: AxisAsyncFifo<A, 0>,
    rx_fifo: AxisAsyncFifo<A, 1>,
}

fn s_in(reset: bool, s: &Axis) -> SIn {
    SIn {
        reset,
        beat: Beat {
            tdata: s.tdata as u128,
            tkeep: s.tkeep as u16,
            tlast: s.tlast,
            tuser: s.tuser as u32,
        },
        tvalid: s.tvalid,
    }
}

/// A FIFO's cycle with both its clocks on the one edge: the write side's
/// outputs, the read side's stream, and the edge.
fn fifo_step<const A: usize, const D: usize>(
    f: &mut AxisAsyncFifo<A, D>,
    s: &SIn,
    m_reset: bool,
    m_tready: bool,
) -> (SOut, Axis) {
    let so = f.s_out(s);
    let mo = f.m_out();
    f.step_same_clock(s, m_reset, m_tready);
    let m = Axis {
        tdata: mo.beat.tdata as u64,
        tkeep: mo.beat.tkeep as u8,
        tlast: mo.beat.tlast,
        tuser: mo.beat.tuser != 0,
        tvalid: mo.tvalid,
    };
    (so, m)
}

impl<const A: usize> Cycle for VendorMacAdapter<A> {
    type In = In;
    type Out = Out;

    fn step(&mut self, e: &In) -> Out {
        // Transmit: the FIFO's `tready` depends on its reset and
        // registers only, so the pad sees it before either steps.
        let tx_ready = self
            .tx_fifo
            .s_out(&s_in(e.core_rst, &Axis::default()))
            .tready;
        let p = self.pad.step(&axis_pad::In {
            reset: e.core_rst,
            s: e.tx,
            m_tready: tx_ready,
        });
        let (tso, mac_tx) = fifo_step(
            &mut self.tx_fifo,
            &s_in(e.core_rst, &p.m),
            e.tx_rst,
            e.mac_tx_tready,
        );
        // Receive.
        let (rso, rx) = fifo_step(
            &mut self.rx_fifo,
            &s_in(e.rx_rst, &e.mac_rx),
            e.core_rst,
            e.rx_tready,
        );
        Out {
            tx_tready: p.s_tready,
            mac_tx,
            mac_rx_tready: rso.tready,
            rx,
            stats_pad: p.stats,
            stats_tx_fifo: tso.stats,
            stats_rx_fifo: rso.stats,
        }
    }
}
