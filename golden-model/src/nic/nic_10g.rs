//! Twin of `hdl/src/nic/nic_10g.rs`: the NIC on the 10G MAC, one clock:
//! the NIC's twin ([`HpccNic`]) joined to the MAC's ([`Mac10g`]),
//! cycle-exact at the `hpcc_nic_10g` top's ports.
//!
//! The join has no combinational loop: the transmit FIFO's `m_axis` and
//! its `s_axis.tready` depend on its registers (and the reset) alone, the
//! MAC's `tx_axis.tready` and its receive stream on the MAC's. So each
//! cycle: the FIFO's outputs, the MAC's outputs for the FIFO's beat, the
//! NIC for the FIFO's `tready` and the MAC's receive stream; then the
//! FIFO takes the NIC's beat and gives the MAC its `tready` (one edge for
//! both its sides), and the MAC steps.

use crate::hostif::{AxilIn, AxilOut, CqEvent, DmaDesc};
use crate::mac::axis_async_fifo::{AxisAsyncFifo, Beat, SIn};
use crate::mac::mac_10g::{self, Mac10g};
use crate::mac::{AsyncFifoStats, MacPauseStats, MacRxStats, MacTxStats};
use crate::nic::nic::{self, HpccNic};
use crate::stream::Axis;
use crate::Cycle;
use nic_spec::mac::MAX_FRAME;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    pub rst: bool,
    pub axil: AxilIn,
    pub read_desc_ready: bool,
    pub h2c: Axis,
    pub write_desc_ready: bool,
    pub c2h_tready: bool,
    pub xgmii_rxd: u64,
    pub xgmii_rxc: u8,
    pub tx_pause_req: bool,
    pub tx_pause_quanta: u16,
    pub tx_pause_cev: u8,
    pub cfg_src_mac: u64,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub axil: AxilOut,
    pub read_desc_valid: bool,
    pub read_desc: DmaDesc,
    pub h2c_tready: bool,
    pub write_desc_valid: bool,
    pub write_desc: DmaDesc,
    pub c2h: Axis,
    pub event_valid: bool,
    pub event: CqEvent,
    pub xgmii_txd: u64,
    pub xgmii_txc: u8,
    pub tx_paused: bool,
    pub rx_error_bad_frame: bool,
    pub rx_error_bad_fcs: bool,
    pub stats_mac_tx: MacTxStats,
    pub stats_mac_rx: MacRxStats,
    pub stats_mac_pause: MacPauseStats,
    pub stats_tx_fifo: AsyncFifoStats,
}

impl In {
    /// The host side of `hpcc_nic`'s inputs `i` (its MAC-side fields are
    /// dropped) with the wire's word and no PAUSE request.
    pub fn from_nic(i: &nic::In, xgmii_rxd: u64, xgmii_rxc: u8) -> Self {
        Self {
            rst: i.rst,
            axil: i.axil,
            read_desc_ready: i.read_desc_ready,
            h2c: i.h2c,
            write_desc_ready: i.write_desc_ready,
            c2h_tready: i.c2h_tready,
            xgmii_rxd,
            xgmii_rxc,
            tx_pause_req: false,
            tx_pause_quanta: 0,
            tx_pause_cev: 0,
            cfg_src_mac: 0,
        }
    }

    /// `hpcc_nic`'s inputs: the host side of these, the MAC side given.
    fn to_nic(self, m: &mac_10g::Out, tx_tready: bool) -> nic::In {
        nic::In {
            rst: self.rst,
            axil: self.axil,
            read_desc_ready: self.read_desc_ready,
            h2c: self.h2c,
            write_desc_ready: self.write_desc_ready,
            c2h_tready: self.c2h_tready,
            tx_tready,
            rx: m.rx,
        }
    }
}

impl Out {
    /// The host side as `hpcc_nic`'s outputs (no frame on its MAC side:
    /// the frames are on the wire).
    pub fn to_nic(&self) -> nic::Out {
        nic::Out {
            axil: self.axil,
            read_desc_valid: self.read_desc_valid,
            read_desc: self.read_desc,
            h2c_tready: self.h2c_tready,
            write_desc_valid: self.write_desc_valid,
            write_desc: self.write_desc,
            c2h: self.c2h,
            event_valid: self.event_valid,
            event: self.event,
            rx_tready: true,
            ..Default::default()
        }
    }
}

/// The transmit FIFO's size (log2 words).
pub const TX_FIFO_A: usize = nic_spec::mac::NIC_10G_TX_FIFO_A;

/// The MAC's inputs for the transmit FIFO's beat `b`.
/// `pause` is the core's own request this cycle ([`HpccNic::pause_request`]):
/// it wins over the port's in the same cycle.
fn mac_in(e: &In, b: &Beat, tvalid: bool, pause: (bool, u16, u8)) -> mac_10g::In {
    mac_10g::In {
        rx_rst: e.rst,
        tx_rst: e.rst,
        tx: Axis {
            tdata: b.tdata as u64,
            tkeep: b.tkeep as u8,
            tvalid,
            tlast: b.tlast,
            tuser: b.tuser != 0,
        },
        xgmii_rxd: e.xgmii_rxd,
        xgmii_rxc: e.xgmii_rxc,
        tx_pause_req: pause.0 || e.tx_pause_req,
        tx_pause_quanta: if pause.0 { pause.1 } else { e.tx_pause_quanta },
        tx_pause_cev: if pause.0 { pause.2 } else { e.tx_pause_cev },
        cfg_src_mac: e.cfg_src_mac,
        rx_tready: true,
    }
}

/// The NIC of [`HpccNic`]'s parameters on [`Mac10g`] (frames up to
/// 1522 bytes).
#[derive(Clone)]
pub struct HpccNic10g<
    const A: usize,
    const Q: usize,
    const B: usize,
    const C: usize,
    const N: usize,
    const W: usize,
> {
    nic: HpccNic<A, Q, B, C, N, W>,
    tx_fifo: AxisAsyncFifo<TX_FIFO_A, 0>,
    mac: Mac10g<MAX_FRAME>,
}

impl<
        const A: usize,
        const Q: usize,
        const B: usize,
        const C: usize,
        const N: usize,
        const W: usize,
    > Default for HpccNic10g<A, Q, B, C, N, W>
{
    fn default() -> Self {
        Self {
            nic: HpccNic::default(),
            tx_fifo: AxisAsyncFifo::default(),
            mac: Mac10g::default(),
        }
    }
}

impl<
        const A: usize,
        const Q: usize,
        const B: usize,
        const C: usize,
        const N: usize,
        const W: usize,
    > HpccNic10g<A, Q, B, C, N, W>
{
    /// The NIC's twin (for monitors).
    pub fn nic(&self) -> &HpccNic<A, Q, B, C, N, W> {
        &self.nic
    }
}

impl<
        const A: usize,
        const Q: usize,
        const B: usize,
        const C: usize,
        const N: usize,
        const W: usize,
    > Cycle for HpccNic10g<A, Q, B, C, N, W>
{
    type In = In;
    type Out = Out;
    fn step(&mut self, e: &In) -> Out {
        let f = self.tx_fifo.m_out();
        let pause = self.nic.pause_request();
        let m = self.mac.step(&mac_in(e, &f.beat, f.tvalid, pause));
        let no_beat = SIn {
            reset: e.rst,
            ..Default::default()
        };
        let tx_tready = self.tx_fifo.s_out(&no_beat).tready;
        let n = self.nic.step(&e.to_nic(&m, tx_tready));
        let beat = SIn {
            reset: e.rst,
            beat: Beat {
                tdata: n.tx.tdata as u128,
                tkeep: n.tx.tkeep as u16,
                tlast: n.tx.tlast,
                tuser: n.tx.tuser as u32,
            },
            tvalid: n.tx.tvalid,
        };
        let fifo_stats = self.tx_fifo.s_out(&beat).stats;
        self.tx_fifo.step_same_clock(&beat, e.rst, m.tx_tready);
        Out {
            axil: n.axil,
            read_desc_valid: n.read_desc_valid,
            read_desc: n.read_desc,
            h2c_tready: n.h2c_tready,
            write_desc_valid: n.write_desc_valid,
            write_desc: n.write_desc,
            c2h: n.c2h,
            event_valid: n.event_valid,
            event: n.event,
            xgmii_txd: m.xgmii_txd,
            xgmii_txc: m.xgmii_txc,
            tx_paused: m.tx_paused,
            rx_error_bad_frame: m.rx_error_bad_frame,
            rx_error_bad_fcs: m.rx_error_bad_fcs,
            stats_mac_tx: m.stats_tx,
            stats_mac_rx: m.stats_rx,
            stats_mac_pause: m.stats_pause,
            stats_tx_fifo: fifo_stats,
        }
    }
}
