//! Twin of `hdl/src/hostif/dma_rd_mux.rs`: the Tx's payload reads and
//! the send-queue fetches onto one read-descriptor port, and the h2c
//! stream back to whoever asked. `reset` makes the payload reads in
//! flight stale: their beats are taken and dropped. The requests pass a
//! registered grant (each requester's `ready` a flop) and the h2c beats
//! a register slice, so no input reaches an output in its cycle.

use crate::hostif::{DmaDesc, WqeBeat, WqeFetch};
use crate::mem::fifo::{self, Fifo};
use crate::record::Slice;
use crate::roce::HostReadReq;
use crate::stream::{Axis, Beat};
use crate::Cycle;

/// Reads in flight at most.
pub const MAX_READS: u32 = 8;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    /// Synchronous reset (with the Tx builder's).
    pub reset: bool,
    pub core_valid: bool,
    pub core: HostReadReq,
    pub fetch_valid: bool,
    pub fetch: WqeFetch,
    pub desc_ready: bool,
    pub h2c: Axis,
    pub core_tready: bool,
    pub beat_ready: bool,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub core_ready: bool,
    pub fetch_ready: bool,
    pub desc_valid: bool,
    pub desc: DmaDesc,
    pub h2c_tready: bool,
    pub core: Axis,
    pub beat_valid: bool,
    pub beat: WqeBeat,
    pub rd_descs: u32,
    pub h2c_err: u32,
    pub h2c_len_err: u32,
}

#[derive(Clone, Debug, Default)]
pub struct DmaRdMux {
    /// The requester granted: taken this cycle if its `valid` is high.
    g_core: bool,
    g_fetch: bool,
    /// The h2c input slice.
    h2c: Slice<Beat>,
    d_v: bool,
    d: DmaDesc,
    /// {fetch, words 10, flow 16, idx 16}.
    route: Fifo<43, 3>,
    reads: u32,
    turn_core: bool,
    cur_v: bool,
    cur_fetch: bool,
    cur_left: u16,
    cur_flow: u32,
    cur_idx: u16,
    cur_word: u16,
    pad: bool,
    drop: bool,
    /// Payload reads issued and not finished.
    core_reads: u32,
    /// Of those, the oldest ones issued before the last reset.
    stale: u32,
    n_descs: u32,
    n_err: u32,
    n_len: u32,
}

impl Cycle for DmaRdMux {
    type In = In;
    type Out = Out;
    fn step(&mut self, i: &In) -> Out {
        let s = self.clone();
        // ---- Requests: the granted requester's, if still valid.
        let core_len = i.core.len & 0x1FFF;
        let core_zero = core_len == 0;
        let take_core = s.g_core && i.core_valid;
        let take_fetch = s.g_fetch && i.fetch_valid;
        let pick_core = take_core && !core_zero;
        let issue = pick_core || take_fetch;
        let can = !(take_core || take_fetch) && (!s.d_v || i.desc_ready) && s.reads < MAX_READS;
        self.g_core = can && i.core_valid && (!i.fetch_valid || s.turn_core);
        self.g_fetch = can && i.fetch_valid && !(i.core_valid && s.turn_core);
        // The h2c beat at the slice's head.
        let h2c_valid = s.h2c.main_v;
        let hb = s.h2c.main;
        let (h2c_tdata, h2c_tkeep, h2c_tlast, h2c_tuser) =
            (hb.tdata as u64, hb.tkeep as u8, hb.tlast, hb.tuser & 1 != 0);
        // ---- h2c.
        let out_valid = s.cur_v && !s.drop && (s.pad || h2c_valid);
        let sink = !s.cur_fetch && s.stale != 0;
        let out_ready = if s.cur_fetch {
            i.beat_ready
        } else {
            i.core_tready || sink
        };
        let stray = !s.cur_v && s.reads == 0;
        let head_ready = (s.cur_v && !s.pad && (s.drop || out_ready)) || stray;
        let (data, keep, user) = if s.pad {
            (0, 0xFF, true)
        } else {
            (h2c_tdata, h2c_tkeep, h2c_tuser)
        };
        let out = Out {
            core_ready: s.g_core,
            fetch_ready: s.g_fetch,
            desc_valid: s.d_v,
            desc: s.d,
            h2c_tready: s.h2c.s_tready(),
            core: Axis {
                tdata: data,
                tkeep: keep,
                tlast: s.cur_left == 1,
                tuser: user,
                tvalid: out_valid && !s.cur_fetch && !sink,
            },
            beat_valid: out_valid && s.cur_fetch,
            beat: WqeBeat {
                data,
                err: user,
                flow: s.cur_flow,
                idx: s.cur_idx.wrapping_add((s.cur_word >> 2) & 0xFF),
                word: (s.cur_word & 3) as u8,
            },
            rd_descs: s.n_descs,
            h2c_err: s.n_err,
            h2c_len_err: s.n_len,
        };
        if s.d_v && i.desc_ready {
            self.d_v = false;
            self.n_descs = self.n_descs.wrapping_add(1);
        }
        let mut push_data = 0u128;
        if issue {
            self.d_v = true;
            self.turn_core = !pick_core;
            if pick_core {
                self.d = DmaDesc {
                    addr: i.core.addr,
                    len: core_len,
                    tag: 0,
                };
                push_data = (((core_len as u128 + 7) >> 3) & 0x3FF) << 32;
            } else {
                let count = (i.fetch.count & 0x1F) as u128;
                self.d = DmaDesc {
                    addr: i.fetch.addr,
                    len: (count as u16) << 5,
                    tag: 1,
                };
                push_data = 1 << 42
                    | count << 34
                    | ((i.fetch.flow & 0xFFFF) as u128) << 16
                    | i.fetch.idx as u128;
            }
        }
        // ---- The read at the route's head.
        let head = s.route.head();
        let pop = !s.cur_v && head.is_some();
        if let (true, Some(h)) = (pop, head) {
            self.cur_v = true;
            self.cur_fetch = h >> 42 & 1 == 1;
            self.cur_left = (h >> 32 & 0x3FF) as u16;
            self.cur_flow = (h >> 16 & 0xFFFF) as u32;
            self.cur_idx = h as u16;
            self.cur_word = 0;
            self.pad = false;
            self.drop = false;
        }
        self.route.step(&fifo::In {
            push: issue,
            push_data,
            pop,
        });
        let beat = out_valid && out_ready;
        let mut finish = false;
        if beat {
            self.cur_left = s.cur_left.wrapping_sub(1) & 0x3FF;
            self.cur_word = s.cur_word.wrapping_add(1) & 0x3FF;
            if !s.pad && h2c_tuser {
                self.n_err = self.n_err.wrapping_add(1);
            }
            if s.cur_left == 1 {
                if s.pad || h2c_tlast {
                    finish = true;
                } else {
                    self.drop = true;
                    self.n_len = self.n_len.wrapping_add(1);
                }
            } else if !s.pad && h2c_tlast {
                self.pad = true;
                self.n_len = self.n_len.wrapping_add(1);
            }
        }
        if s.drop && h2c_valid && h2c_tlast {
            finish = true;
        }
        if stray && h2c_valid && h2c_tlast {
            self.n_len = self.n_len.wrapping_add(1);
        }
        if finish {
            self.cur_v = false;
        }
        match (issue, finish) {
            (true, false) => self.reads += 1,
            (false, true) => self.reads -= 1,
            _ => {}
        }
        let issue_core = issue && pick_core;
        let finish_core = finish && !s.cur_fetch;
        self.core_reads = (s.core_reads + issue_core as u32 - finish_core as u32) & 0xF;
        let in_beat = Beat {
            tdata: i.h2c.tdata as u128,
            tkeep: i.h2c.tkeep as u16,
            tlast: i.h2c.tlast,
            tuser: i.h2c.tuser as u32,
        };
        self.h2c.step(i.h2c.tvalid.then_some(in_beat), head_ready);
        if i.reset {
            self.stale = self.core_reads;
        } else if finish_core && s.stale != 0 {
            self.stale = s.stale - 1;
        }
        out
    }
}
