//! Twin of `hdl/src/roce/tx_ctx_ram.rs` (`TxCtxRam<A>`): the Tx's flow
//! contexts, the RAM's read register and the P1 register (see the RTL's
//! docs for the ports and the timing). The Tx's twin (`roce::tx`) steps
//! one of these.

use crate::roce::TxFlowCtx;
use crate::Cycle;

/// A flow's context (the context RAM's word), and the block's outputs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Ctx {
    pub dmac: u64,
    pub smac: u64,
    pub sip: u32,
    pub dip: u32,
    pub sport: u16,
    pub dqp: u32,
    pub pkey: u16,
    pub tos: u8,
}

impl Ctx {
    /// The word a write of `c` stores (the fields cut to their widths).
    pub fn of(c: &TxFlowCtx) -> Ctx {
        Ctx {
            dmac: c.dmac & 0xFFFF_FFFF_FFFF,
            smac: c.smac & 0xFFFF_FFFF_FFFF,
            sip: c.sip,
            dip: c.dip,
            sport: c.sport,
            dqp: c.dqp & 0xFF_FFFF,
            pkey: c.pkey,
            tos: c.tos,
        }
    }
}

/// One cycle's inputs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    pub ctx_valid: bool,
    pub ctx: TxFlowCtx,
    /// A bits.
    pub rd_flow: u32,
    pub load: bool,
}

/// The contexts of 2^A flows. The store is allocated at its first write
/// (words never written read zero, as the RAM's do after configuration),
/// so a default value costs nothing: the Tx's twin takes it out of
/// itself each cycle rather than copy it.
#[derive(Clone, Debug, Default)]
pub struct TxCtxRam<const A: usize> {
    ctx: Vec<Ctx>,
    ram_out: Ctx,
    r_ctx: Ctx,
}

impl<const A: usize> TxCtxRam<A> {
    /// The context of `flow` as stored.
    pub fn context(&self, flow: usize) -> Ctx {
        self.ctx.get(flow).copied().unwrap_or_default()
    }
}

impl<const A: usize> Cycle for TxCtxRam<A> {
    type In = In;
    type Out = Ctx;

    fn step(&mut self, i: &In) -> Ctx {
        let amask = ((1u64 << A) - 1) as u32;
        let out = self.r_ctx;
        if i.load {
            self.r_ctx = self.ram_out;
        }
        // Read-old on a same-cycle collision.
        self.ram_out = self.context((i.rd_flow & amask) as usize);
        if i.ctx_valid {
            if self.ctx.is_empty() {
                self.ctx = vec![Ctx::default(); 1 << A];
            }
            self.ctx[(i.ctx.flow & amask) as usize] = Ctx::of(&i.ctx);
        }
        out
    }
}
