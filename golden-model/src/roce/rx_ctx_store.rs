//! Twin of `hdl/src/roce/rx_ctx_store.rs`: the dispatcher's per-flow
//! context store (2^A flows, 8 READ landing entries each), cycle-exact
//! at the ports. See the RTL's docs for the words and the ports: the
//! words come 2 cycles after their read address, the landing entry 3
//! (its index is read with the words, the entry a cycle later at
//! `flow`).

use crate::roce::RxFlowCtx;
use crate::Cycle;

const M24: u32 = 0xFF_FFFF;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    /// The host's write (`s_ctx`), first in priority.
    pub ctx_valid: bool,
    pub ctx: RxFlowCtx,
    /// Low: read `flow_new`; high: read `flow`.
    pub busy: bool,
    pub flow_new: u32,
    pub flow: u32,
    pub we_fl: bool,
    pub we_acc: bool,
    pub we_wva: bool,
    pub we_rd: bool,
    pub w_fl: u8,
    pub w_epsn: u32,
    pub w_msn: u32,
    pub w_wva: u64,
    pub w_wleft: u32,
    pub w_radr: u64,
    pub w_rpsn: u32,
    pub reset: bool,
    pub undo_arm: bool,
    pub last_taken: bool,
}

/// A flow's words, in the RTL's layout (`fl`: valid 0, `nak_sent` 1,
/// `cnp_on_ce` 2, `rd_done` 3, `rd_idx` 7..4).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Words {
    pub fl: u8,
    pub epsn: u32,
    pub msn: u32,
    pub wva: u64,
    pub wleft: u32,
    pub radr: u64,
    pub rpsn: u32,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    /// An undo armed or pending.
    pub undo_held: bool,
    pub fl: u8,
    pub epsn: u32,
    pub msn: u32,
    pub wva: u64,
    pub wleft: u32,
    pub radr: u64,
    pub rpsn: u32,
    /// The landing entry: lap [88], PSN [87:64], address [63:0].
    pub ent: u128,
}

#[derive(Clone, Debug)]
pub struct RxCtxStore<const A: usize> {
    mem: Vec<Words>,
    tab: Vec<u128>,
    /// The RAMs' read registers, then the outputs' registers.
    ram_q: (Words, u128),
    out: (Words, u128),
    /// The landing index read with the words, registered (the entry is
    /// read a cycle later at `flow`).
    ix_q: usize,
    /// The undo registers: the flow and its words as read.
    undo: (u32, Words),
    undo_v: bool,
    undo_pending: bool,
}

impl<const A: usize> Default for RxCtxStore<A> {
    fn default() -> Self {
        Self {
            mem: vec![Words::default(); 1 << A],
            tab: vec![0; 8 << A],
            ram_q: Default::default(),
            out: Default::default(),
            ix_q: 0,
            undo: Default::default(),
            undo_v: false,
            undo_pending: false,
        }
    }
}

impl<const A: usize> RxCtxStore<A> {
    /// The words a flow set-up (`rd_only` low) writes: between READs at
    /// entry 0, the sequence numbers and addresses the record gives.
    pub fn setup_words(c: &RxFlowCtx) -> Words {
        Words {
            fl: (c.active as u8) | (((c.active && c.cnp_on_ce) as u8) << 2) | 8,
            epsn: c.epsn & M24,
            msn: 0,
            wva: 0,
            wleft: 0,
            radr: c.rd_addr,
            rpsn: c.rd_psn & M24,
        }
    }

    /// A landing entry as the table holds it.
    pub fn entry(c: &RxFlowCtx) -> u128 {
        ((((c.rd_idx >> 3) & 1) as u128) << 88)
            | (((c.rd_psn & M24) as u128) << 64)
            | c.rd_addr as u128
    }
}

impl<const A: usize> Cycle for RxCtxStore<A> {
    type In = In;
    type Out = Out;
    fn step(&mut self, i: &In) -> Out {
        let fm = (1u32 << A) - 1;
        let (w, ent) = self.out;
        let o = Out {
            undo_held: self.undo_v || self.undo_pending,
            fl: w.fl,
            epsn: w.epsn,
            msn: w.msn,
            wva: w.wva,
            wleft: w.wleft,
            radr: w.radr,
            rpsn: w.rpsn,
            ent,
        };
        // The read (before this edge's writes: read-old), registered twice.
        let rf = (if i.busy { i.flow } else { i.flow_new } & fm) as usize;
        let rw = self.mem[rf];
        let ent_read = self.tab[(((i.flow & fm) as usize) << 3) | self.ix_q];
        self.ix_q = ((rw.fl >> 4) & 7) as usize;
        self.out = self.ram_q;
        self.ram_q = (rw, ent_read);
        // The undo's control.
        let arm = !i.reset && i.undo_arm;
        let want = (self.undo_v && !i.last_taken && i.reset) || self.undo_pending;
        let cf = (i.ctx.flow & fm) as usize;
        let cancel = i.ctx_valid && !i.ctx.rd_only && cf as u32 == self.undo.0;
        let undo_do = want && !i.ctx_valid;
        self.undo_pending = want && i.ctx_valid && !cancel;
        if i.reset {
            self.undo_v = false;
        } else if arm {
            self.undo_v = true;
        } else if i.last_taken {
            self.undo_v = false;
        }
        // The writes: the host's, else the undo, else the decision's.
        if i.ctx_valid && i.ctx.rd_only {
            self.tab[(cf << 3) | (i.ctx.rd_idx & 7) as usize] = Self::entry(&i.ctx);
        } else if i.ctx_valid {
            self.mem[cf] = Self::setup_words(&i.ctx);
        } else if undo_do {
            self.mem[self.undo.0 as usize] = self.undo.1;
        } else {
            let m = &mut self.mem[(i.flow & fm) as usize];
            if i.we_fl {
                m.fl = i.w_fl;
                m.wleft = i.w_wleft;
            }
            if i.we_acc {
                m.epsn = i.w_epsn & M24;
                m.msn = i.w_msn & M24;
            }
            if i.we_wva {
                m.wva = i.w_wva;
            }
            if i.we_rd {
                m.radr = i.w_radr;
                m.rpsn = i.w_rpsn & M24;
            }
        }
        // The undo registers follow the words as read while no undo is
        // held, so an arm finds its copy made (an arm while one is held
        // keeps the held copy).
        if !o.undo_held {
            self.undo = (i.flow & fm, w);
        }
        o
    }
}
