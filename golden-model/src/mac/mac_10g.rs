//! Twin of `hdl/src/mac/mac_10g.rs` with `rx_clk` and `tx_clk` tied to
//! one clock: the 10G MAC as a top on one clock sees it (a PCS whose
//! XGMII receive side is in its transmit clock's domain, behind an
//! elastic buffer, as `hpcc_nic_10g` assumes). The blocks' twins joined
//! as the RTL joins them: [`XgmiiRx`], the pause request's crossing
//! ([`ReqSync`], both sides on the one edge), [`TxPause`] and
//! [`XgmiiTx`]. See the RTL's docs for the ports and the behaviour on bad
//! input.

use super::req_sync::{InSide, ReqSync};
use super::tx_pause::{self, TxPause};
use super::xgmii_rx::{self, XgmiiRx};
use super::xgmii_tx::{self, XgmiiTx};
use super::{MacPauseStats, MacRxStats, MacTxStats};
use crate::solve::{fixed_point, Node};
use crate::stream::Axis;
use crate::Cycle;

/// One cycle's inputs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    pub rx_rst: bool,
    pub tx_rst: bool,
    pub tx: Axis,
    pub xgmii_rxd: u64,
    pub xgmii_rxc: u8,
    pub tx_pause_req: bool,
    pub tx_pause_quanta: u16,
    /// With the request: a PFC frame for these priorities (0: PAUSE).
    pub tx_pause_cev: u8,
    pub cfg_src_mac: u64,
    /// `rx_axis.tready`: ignored (a MAC cannot stall the wire).
    pub rx_tready: bool,
}

/// One cycle's outputs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub tx_tready: bool,
    pub rx: Axis,
    pub xgmii_txd: u64,
    pub xgmii_txc: u8,
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
    tx: xgmii_tx::In,
}

#[derive(Clone, Copy, Debug, Default)]
struct TxOuts {
    pause: tx_pause::Out,
    tx: xgmii_tx::Out,
}

/// The 10G MAC on one clock; `MAX_LEN` is the receive limit, FCS
/// included (`cfg_max_len`).
#[derive(Clone)]
pub struct Mac10g<const MAX_LEN: usize> {
    rx: XgmiiRx,
    pause_sync: ReqSync,
    pause: Node<TxPause<3>>,
    tx: Node<XgmiiTx>,
    tx_ins: TxIns,
}

impl<const MAX_LEN: usize> Default for Mac10g<MAX_LEN> {
    fn default() -> Self {
        assert!(
            (64..=0xFFF0).contains(&MAX_LEN),
            "Mac10g: 64 <= MAX_LEN <= 65520"
        );
        Self {
            rx: XgmiiRx::default(),
            pause_sync: ReqSync::default(),
            pause: Node::new(TxPause::default()),
            tx: Node::new(XgmiiTx::default()),
            tx_ins: TxIns::default(),
        }
    }
}

impl<const MAX_LEN: usize> Cycle for Mac10g<MAX_LEN> {
    type In = In;
    type Out = Out;

    fn step(&mut self, e: &In) -> Out {
        // Receive side: nothing reaches it from the transmit side.
        let r = self.rx.step(&xgmii_rx::In {
            reset: e.rx_rst,
            rxd: e.xgmii_rxd,
            rxc: e.xgmii_rxc,
            cfg_max_len: MAX_LEN as u16,
            m_tready: true,
        });
        // The crossing's output is a register: this cycle's request.
        let sync = self.pause_sync.out();
        let wire = |o: &TxOuts| TxIns {
            pause: tx_pause::In {
                reset: e.tx_rst,
                s: e.tx,
                m_tready: o.tx.s_tready,
                rx_pause_valid: sync.update,
                rx_pause_quanta: sync.data as u16,
                tx_pause_req: e.tx_pause_req,
                tx_pause_quanta: e.tx_pause_quanta,
                tx_pause_cev: e.tx_pause_cev,
                cfg_src_mac: e.cfg_src_mac,
            },
            tx: xgmii_tx::In {
                reset: e.tx_rst,
                s: o.pause.m,
                pause: false,
            },
        };
        let (ins, _) = fixed_point(
            self.tx_ins,
            |i| TxOuts {
                pause: self.pause.eval(&i.pause),
                tx: self.tx.eval(&i.tx),
            },
            wire,
        );
        self.tx_ins = ins;
        let p = self.pause.commit(&ins.pause);
        let t = self.tx.commit(&ins.tx);
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
            rx: r.m,
            xgmii_txd: t.txd,
            xgmii_txc: t.txc,
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
