//! Twin of `hdl/src/hostif/dma_wr_pack.rs`: host writes and completion
//! entries → bursts: write descriptors and the c2h stream; every output
//! a register (an entry offered with a core word is held and goes out
//! after it; `m_done` a cycle after its last word left).

use crate::hostif::{CqEvent, CqeWrite, DmaDesc};
use crate::mem::fifo::{self, Fifo};
use crate::roce::HostWrite;
use crate::stream::Axis;
use crate::Cycle;

/// Words in a burst at most.
pub const MAX_BURST: u32 = 32;
/// Data words buffered (held word included).
pub const DATA_WORDS: u32 = 128;
/// Descriptors buffered (plus one a closing burst may add).
pub const DESCS: u32 = 15;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    pub core_valid: bool,
    pub core: HostWrite,
    pub cqe_valid: bool,
    pub cqe: CqeWrite,
    pub desc_ready: bool,
    pub c2h_tready: bool,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub core_ready: bool,
    pub cqe_ready: bool,
    pub desc_valid: bool,
    pub desc: DmaDesc,
    pub c2h: Axis,
    pub done_valid: bool,
    pub done: CqEvent,
    pub wr_descs: u32,
}

#[derive(Clone, Debug, Default)]
pub struct DmaWrPack {
    lo_v: bool,
    lo_addr: u64,
    lo_data: u64,
    hi_v: bool,
    hi_addr: u64,
    hi_data: u64,
    hi_cq: u8,
    held_v: bool,
    held_data: u64,
    held_keep: u8,
    held_evt: bool,
    held_cq: u8,
    b_addr: u64,
    b_next: u64,
    b_len: u16,
    b_words: u32,
    /// {data 64, keep 8, last, evt, cq 8}.
    data: Fifo<82, 7>,
    /// {addr 64, len 16}.
    descs: Fifo<80, 4>,
    used: u32,
    dcnt: u32,
    n_descs: u32,
    done_v: bool,
    done_cq: u8,
}

impl Cycle for DmaWrPack {
    type In = In;
    type Out = Out;
    fn step(&mut self, i: &In) -> Out {
        let s = self.clone();
        let room = s.used < DATA_WORDS && s.dcnt < DESCS;
        let free = !s.lo_v && !s.hi_v;
        let core_ready = room && free;
        let cqe_ready = room && free;
        let take_cqe = i.cqe_valid && cqe_ready;
        // This cycle's word: (addr, data, keep, evt, cq).
        let w = if !room {
            None
        } else if s.lo_v {
            Some((s.lo_addr, s.lo_data, 0xFFu8, false, 0))
        } else if s.hi_v {
            Some((s.hi_addr, s.hi_data, 0xFFu8, true, s.hi_cq))
        } else if i.core_valid {
            Some((i.core.addr, i.core.data, i.core.strb, false, 0))
        } else if i.cqe_valid {
            Some((i.cqe.addr, i.cqe.lo, 0xFF, false, 0))
        } else {
            None
        };
        let head = s.data.head();
        let h = head.unwrap_or(0);
        let dhead = s.descs.head();
        let dh = dhead.unwrap_or(0);
        let pop = head.is_some() && i.c2h_tready;
        let dpop = dhead.is_some() && i.desc_ready;
        let out = Out {
            core_ready,
            cqe_ready,
            desc_valid: dhead.is_some(),
            desc: DmaDesc {
                addr: (dh >> 16) as u64,
                len: dh as u16,
                tag: 0,
            },
            c2h: Axis {
                tdata: (h >> 18) as u64,
                tkeep: (h >> 10) as u8,
                tlast: h >> 9 & 1 == 1,
                tuser: false,
                tvalid: head.is_some(),
            },
            done_valid: s.done_v,
            done: CqEvent { cq: s.done_cq },
            wr_descs: s.n_descs,
        };
        self.done_v = pop && h >> 8 & 1 == 1;
        self.done_cq = h as u8;
        if s.lo_v && room {
            self.lo_v = false;
        } else if s.hi_v && room {
            self.hi_v = false;
        }
        if take_cqe {
            self.hi_v = true;
            self.hi_addr = i.cqe.addr.wrapping_add(8);
            self.hi_data = i.cqe.hi;
            self.hi_cq = i.cqe.cq;
            if i.core_valid {
                self.lo_v = true;
                self.lo_addr = i.cqe.addr;
                self.lo_data = i.cqe.lo;
            }
        }
        let join = match w {
            Some((addr, ..)) => {
                s.held_v && addr == s.b_next && s.held_keep == 0xFF && s.b_words < MAX_BURST
            }
            None => false,
        };
        let close = s.held_v && !join;
        let push = s.held_v && (w.is_some() || close);
        let push_data = (s.held_data as u128) << 18
            | (s.held_keep as u128) << 10
            | (close as u128) << 9
            | (s.held_evt as u128) << 8
            | s.held_cq as u128;
        let desc_data = (s.b_addr as u128) << 16 | s.b_len as u128;
        if let Some((addr, data, keep, evt, cq)) = w {
            let pc = keep.count_ones() as u16;
            self.held_v = true;
            self.held_data = data;
            self.held_keep = keep;
            self.held_evt = evt;
            self.held_cq = cq;
            self.b_next = addr.wrapping_add(8);
            if join {
                self.b_len = s.b_len.wrapping_add(pc);
                self.b_words = s.b_words + 1;
            } else {
                self.b_addr = addr;
                self.b_len = pc;
                self.b_words = 1;
            }
        } else if s.held_v {
            self.held_v = false;
        }
        self.data.step(&fifo::In {
            push,
            push_data,
            pop,
        });
        self.descs.step(&fifo::In {
            push: close,
            push_data: desc_data,
            pop: dpop,
        });
        if dpop {
            self.n_descs = self.n_descs.wrapping_add(1);
        }
        match (w.is_some(), pop) {
            (true, false) => self.used += 1,
            (false, true) => self.used -= 1,
            _ => {}
        }
        match (close, dpop) {
            (true, false) => self.dcnt += 1,
            (false, true) => self.dcnt -= 1,
            _ => {}
        }
        out
    }
}
