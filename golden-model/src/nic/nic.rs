//! Twin of `hdl/src/nic/nic.rs`: the whole NIC, the host interface's
//! twin joined to the NIC core's twin (a fixed-point solve per cycle,
//! `crate::solve`), cycle-exact at the `hpcc_nic` top's ports.

use crate::hostif::host_if::{self, HostIf};
use crate::hostif::{AxilIn, AxilOut, CqEvent, DmaDesc};
use crate::nic::core::{self, NicCore};
use crate::solve::{fixed_point, Node};
use crate::stream::Axis;
use crate::Cycle;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    pub rst: bool,
    pub axil: AxilIn,
    pub read_desc_ready: bool,
    pub h2c: Axis,
    pub write_desc_ready: bool,
    pub c2h_tready: bool,
    pub tx_tready: bool,
    pub rx: Axis,
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
    pub tx: Axis,
    pub rx_tready: bool,
    pub pause_req: bool,
    pub pause_quanta: u16,
    pub pause_cev: u8,
}

#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Ins {
    host: host_if::In,
    core: core::In,
}

#[derive(Clone, Copy, Debug, Default)]
struct Outs {
    host: host_if::Out,
    core: core::Out,
}

/// The joins of `hdl/src/nic/nic.rs`.
fn wire(e: &In, o: &Outs) -> Ins {
    let (h, c) = (&o.host, &o.core);
    Ins {
        host: host_if::In {
            reset: e.rst,
            axil: e.axil,
            read_desc_ready: e.read_desc_ready,
            h2c: e.h2c,
            write_desc_ready: e.write_desc_ready,
            c2h_tready: e.c2h_tready,
            cfg_ready: c.cfg_ready,
            wr_ready: c.wr_ready,
            cmpl_valid: c.cmpl_valid,
            cmpl: c.cmpl,
            dma_rd_valid: c.dma_rd_valid,
            dma_rd: c.dma_rd,
            core_h2c_tready: c.h2c_tready,
            dma_wr_valid: c.dma_wr_valid,
            dma_wr: c.dma_wr,
            stats_parse: c.stats_parse,
            stats_dispatch: c.stats_dispatch,
            stats_tx: c.stats_tx,
            stats_sched: c.stats_sched,
            stats_cc: c.stats_cc,
            stats_req: c.stats_req,
            stats_core: c.stats_core,
            stats_dcqcn: c.stats_dcqcn,
            stats_np: c.stats_np,
            stats_cnm: c.stats_cnm,
        },
        core: core::In {
            reset: e.rst || h.core_reset,
            cfg_valid: h.cfg_valid,
            cfg: h.cfg,
            wr_valid: h.wr_valid,
            wr: h.wr,
            cmpl_ready: h.cmpl_ready,
            dma_rd_ready: h.dma_rd_ready,
            h2c: h.core_h2c,
            dma_wr_ready: h.dma_wr_ready,
            rx: e.rx,
            tx_tready: e.tx_tready,
            cnm_ready: true,
        },
    }
}

fn outputs(o: &Outs) -> Out {
    let (h, c) = (&o.host, &o.core);
    Out {
        axil: h.axil,
        read_desc_valid: h.read_desc_valid,
        read_desc: h.read_desc,
        h2c_tready: h.h2c_tready,
        write_desc_valid: h.write_desc_valid,
        write_desc: h.write_desc,
        c2h: h.c2h,
        event_valid: h.event_valid,
        event: h.event,
        tx: c.tx,
        rx_tready: c.rx_tready,
        pause_req: c.pause_req,
        pause_quanta: c.pause_quanta,
        pause_cev: c.pause_cev,
    }
}

/// The NIC: 2^A flows, 2^Q work requests each, a 2^B-word receive
/// buffer, 2^C completion queues (`N` = 2^C), a 2^W-entry WQE buffer.
#[derive(Clone)]
pub struct HpccNic<
    const A: usize,
    const Q: usize,
    const B: usize,
    const C: usize,
    const N: usize,
    const W: usize,
    const H: usize = 5,
> {
    host: Node<HostIf<A, Q, C, N, W, H>>,
    core: Node<NicCore<A, Q, B, H>>,
    ins: Ins,
    outs: Outs,
}

impl<
        const A: usize,
        const Q: usize,
        const B: usize,
        const C: usize,
        const N: usize,
        const W: usize,
        const H: usize,
    > Default for HpccNic<A, Q, B, C, N, W, H>
{
    fn default() -> Self {
        Self {
            host: Node::new(Default::default()),
            core: Node::new(Default::default()),
            ins: Ins::default(),
            outs: Outs::default(),
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
        const H: usize,
    > HpccNic<A, Q, B, C, N, W, H>
{
    /// The host interface's twin (for monitors: its completion queues).
    pub fn host(&self) -> &HostIf<A, Q, C, N, W, H> {
        &self.host.m
    }
    /// The core's twin (for monitors).
    pub fn core(&self) -> &NicCore<A, Q, B, H> {
        &self.core.m
    }
    /// The host interface's inputs in the last cycle (to replay them on
    /// the host interface alone).
    pub fn host_in(&self) -> crate::hostif::host_if::In {
        self.ins.host
    }
    /// The core's `pause_req`, `pause_quanta` and `pause_cev` this cycle
    /// (registers).
    pub fn pause_request(&self) -> (bool, u16, u8) {
        self.core.m.pause_request()
    }
    /// The core's outputs in the last cycle (its counters).
    pub fn core_out(&self) -> &core::Out {
        &self.outs.core
    }
}

impl<
        const A: usize,
        const Q: usize,
        const B: usize,
        const C: usize,
        const N: usize,
        const W: usize,
        const H: usize,
    > Cycle for HpccNic<A, Q, B, C, N, W, H>
{
    type In = In;
    type Out = Out;
    fn step(&mut self, e: &In) -> Out {
        let (ins, _) = fixed_point(
            self.ins,
            |i| Outs {
                host: self.host.eval(&i.host),
                core: self.core.eval(&i.core),
            },
            |o| wire(e, o),
        );
        self.ins = ins;
        self.outs = Outs {
            host: self.host.commit(&ins.host),
            core: self.core.commit(&ins.core),
        };
        outputs(&self.outs)
    }
}
