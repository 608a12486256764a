//! Twin of `hdl/src/mac/mac_1g.rs` (`Mac1g`) with `rx_clk` and `tx_clk`
//! tied to one clock. The blocks' twins joined as the RTL joins them:
//! transmit [`TxPause`] (a quantum 64 cycles of a byte) → [`AxisNarrow`]
//! (64 → 8 bits) → [`GmiiTx`]; receive [`GmiiRx`] → [`AxisWiden`]
//! (8 → 64 bits); the pause request's crossing ([`ReqSync`], both sides
//! on the one edge). The receive limit is `nic_spec::mac::MAX_FRAME`.
//! See the RTL's docs for the ports and the behaviour on bad input.

use super::gmii_rx::{self, GmiiRx};
use super::gmii_tx::{self, GmiiTx};
use super::req_sync::{InSide, ReqSync};
use super::tx_pause::{self, TxPause};
use super::{MacPauseStats, MacRxStats, MacTxStats};
use crate::solve::{fixed_point, Node};
use crate::stream::axis_narrow::{self, AxisNarrow};
use crate::stream::axis_widen::{self, AxisWiden};
use crate::stream::Axis;
use crate::Cycle;
use nic_spec::mac::MAX_FRAME;

/// One cycle's inputs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    pub rx_rst: bool,
    pub tx_rst: bool,
    pub tx: Axis,
    pub gmii_rxd: u8,
    pub gmii_rx_dv: bool,
    pub gmii_rx_er: bool,
    pub tx_pause_req: bool,
    pub tx_pause_quanta: u16,
    /// With the request: a PFC frame for these priorities (0: PAUSE).
    pub tx_pause_cev: u8,
    pub cfg_src_mac: u64,
    /// `rx_axis.tready`: the widener's output waits for it; the GMII
    /// receiver does not (a MAC cannot stall the wire), so bytes it
    /// passes while the widener holds a beat are lost (the RTL's docs).
    pub rx_tready: bool,
}

/// One cycle's outputs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub tx_tready: bool,
    pub rx: Axis,
    pub gmii_txd: u8,
    pub gmii_tx_en: bool,
    pub gmii_tx_er: bool,
    pub rx_error_bad_frame: bool,
    pub rx_error_bad_fcs: bool,
    pub rx_pause_valid: bool,
    pub rx_pause_quanta: u16,
    pub tx_paused: bool,
    pub stats_tx: MacTxStats,
    pub stats_rx: MacRxStats,
    pub stats_pause: MacPauseStats,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct TxIns {
    pause: tx_pause::In,
    narrow: axis_narrow::In,
    tx: gmii_tx::In,
}

#[derive(Clone, Copy, Debug, Default)]
struct TxOuts {
    pause: tx_pause::Out,
    narrow: axis_narrow::Out,
    tx: gmii_tx::Out,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct RxIns {
    rx: gmii_rx::In,
    widen: axis_widen::In,
}

#[derive(Clone, Copy, Debug, Default)]
struct RxOuts {
    rx: gmii_rx::Out,
    widen: axis_widen::Out,
}

/// The 1G MAC on one clock.
#[derive(Clone)]
pub struct Mac1g {
    rx: Node<GmiiRx>,
    widen: Node<AxisWiden>,
    pause_sync: ReqSync,
    pause: Node<TxPause<6>>,
    narrow: Node<AxisNarrow>,
    tx: Node<GmiiTx>,
    tx_ins: TxIns,
    rx_ins: RxIns,
}

impl Default for Mac1g {
    fn default() -> Self {
        Self {
            rx: Node::new(GmiiRx::default()),
            widen: Node::new(AxisWiden::default()),
            pause_sync: ReqSync::default(),
            pause: Node::new(TxPause::default()),
            narrow: Node::new(AxisNarrow::default()),
            tx: Node::new(GmiiTx::default()),
            tx_ins: TxIns::default(),
            rx_ins: RxIns::default(),
        }
    }
}

impl Mac1g {
    /// The receive side's settled inputs this cycle.
    fn settle_rx(&mut self, e: &In) -> RxIns {
        let wire = |o: &RxOuts| RxIns {
            rx: gmii_rx::In {
                reset: e.rx_rst,
                rxd: e.gmii_rxd,
                rx_dv: e.gmii_rx_dv,
                rx_er: e.gmii_rx_er,
                cfg_max_len: MAX_FRAME as u16,
                m_tready: o.widen.s_tready,
            },
            widen: axis_widen::In {
                reset: e.rx_rst,
                s: o.rx.m,
                m_tready: e.rx_tready,
            },
        };
        let (ins, _) = fixed_point(
            self.rx_ins,
            |i| RxOuts {
                rx: self.rx.eval(&i.rx),
                widen: self.widen.eval(&i.widen),
            },
            wire,
        );
        ins
    }

    /// The transmit side's settled inputs this cycle, with the crossing's
    /// request as its output register holds it.
    fn settle_tx(&mut self, e: &In) -> TxIns {
        let sync = self.pause_sync.out();
        let wire = |o: &TxOuts| TxIns {
            pause: tx_pause::In {
                reset: e.tx_rst,
                s: e.tx,
                m_tready: o.narrow.s_tready,
                rx_pause_valid: sync.update,
                rx_pause_quanta: sync.data as u16,
                tx_pause_req: e.tx_pause_req,
                tx_pause_quanta: e.tx_pause_quanta,
                tx_pause_cev: e.tx_pause_cev,
                cfg_src_mac: e.cfg_src_mac,
            },
            narrow: axis_narrow::In {
                reset: e.tx_rst,
                s: o.pause.m,
                m_tready: o.tx.s_tready,
            },
            tx: gmii_tx::In {
                reset: e.tx_rst,
                s: o.narrow.m,
                pause: false,
            },
        };
        let (ins, _) = fixed_point(
            self.tx_ins,
            |i| TxOuts {
                pause: self.pause.eval(&i.pause),
                narrow: self.narrow.eval(&i.narrow),
                tx: self.tx.eval(&i.tx),
            },
            wire,
        );
        ins
    }
}

impl Cycle for Mac1g {
    type In = In;
    type Out = Out;

    fn step(&mut self, e: &In) -> Out {
        let ri = self.settle_rx(e);
        self.rx_ins = ri;
        let r = self.rx.commit(&ri.rx);
        let w = self.widen.commit(&ri.widen);
        let ti = self.settle_tx(e);
        self.tx_ins = ti;
        let p = self.pause.commit(&ti.pause);
        self.narrow.commit(&ti.narrow);
        let t = self.tx.commit(&ti.tx);
        self.pause_sync.step_same_clock(
            &InSide {
                reset: e.rx_rst,
                send: r.pause_valid,
                data: r.pause_quanta as u64,
            },
            e.tx_rst,
        );
        Out {
            tx_tready: p.s_tready,
            rx: w.m,
            gmii_txd: t.txd,
            gmii_tx_en: t.tx_en,
            gmii_tx_er: t.tx_er,
            rx_error_bad_frame: r.bad_frame,
            rx_error_bad_fcs: r.bad_fcs,
            rx_pause_valid: r.pause_valid,
            rx_pause_quanta: r.pause_quanta,
            tx_paused: p.paused,
            stats_tx: t.stats,
            stats_rx: r.stats,
            stats_pause: p.stats,
        }
    }
}
