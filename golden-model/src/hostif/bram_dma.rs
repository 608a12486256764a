//! Twin of `hdl/src/hostif/bram_dma.rs`: block RAM as host memory, the
//! DMA engine serving read and write descriptors at any byte alignment,
//! and the host's 32-bit port.

use crate::hostif::{BramDmaStats, DmaDesc, RegReq, RegResp};
use crate::mem::ram::{InBe, RamBe};
use crate::stream::Axis;
use crate::Cycle;
use nic_spec::hostif::resp;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    pub reset: bool,
    pub read_desc_valid: bool,
    pub read_desc: DmaDesc,
    pub h2c_tready: bool,
    pub write_desc_valid: bool,
    pub write_desc: DmaDesc,
    pub c2h: Axis,
    pub req_valid: bool,
    pub req: RegReq,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub read_desc_ready: bool,
    pub h2c: Axis,
    pub write_desc_ready: bool,
    pub c2h_tready: bool,
    pub req_ready: bool,
    pub resp_valid: bool,
    pub resp: RegResp,
    pub stats: BramDmaStats,
}

#[derive(Clone, Debug, Default)]
pub struct BramDma<const M: usize> {
    mem: RamBe<M>,
    rd_beats: u32,
    rd_words: u32,
    rd_take: u32,
    rd_word: u32,
    rd_off: u32,
    rd_err: bool,
    rd_first: bool,
    rd_last_keep: u8,
    rd_pend: bool,
    skid_v: bool,
    skid: u64,
    prev: u64,
    out_v: bool,
    out_data: u64,
    out_keep: u8,
    out_last: bool,
    out_user: bool,
    host_resp_v: bool,
    host_rd: bool,
    host_hi: bool,
    host_code: u8,
    wr_run: bool,
    wr_err: bool,
    wr_off: u32,
    wr_word: u32,
    wr_left: u32,
    wr_beats: u32,
    wr_long: bool,
    carry: u64,
    carry_en: u8,
    flush: bool,
    stats: BramDmaStats,
}

/// Whether `len` bytes at `addr` lie in a memory of `size` bytes.
fn in_memory(d: &DmaDesc, size: u64) -> bool {
    d.addr < size && d.addr + d.len as u64 <= size
}

/// The low `n` lanes (n ≥ 8: all).
fn lanes(n: u32) -> u8 {
    if n >= 8 {
        0xFF
    } else {
        ((1u16 << n) - 1) as u8
    }
}

impl<const M: usize> BramDma<M> {
    /// The memory's size in bytes.
    pub const SIZE: u64 = 1 << (M + 3);

    /// Word `a` of the memory now (for checks, not a port).
    pub fn peek(&self, a: usize) -> u64 {
        self.mem.peek(a)
    }
}

impl<const M: usize> Cycle for BramDma<M> {
    type In = In;
    type Out = Out;
    fn step(&mut self, i: &In) -> Out {
        let s = self.clone();
        let wmask = (1u32 << M) - 1;
        let live = !i.reset;
        let ram_out = s.mem.read_data();

        // ---- Host port.
        let a = i.req.addr as u64;
        let host_ok = live && a < Self::SIZE && a & 3 == 0;
        let host_read = i.req_valid && !i.req.write && host_ok;
        let host_write = i.req_valid && i.req.write && host_ok;
        let rdata = if !s.host_rd {
            0
        } else if s.host_hi {
            (ram_out >> 32) as u32
        } else {
            ram_out as u32
        };

        // ---- Read engine.
        let have = s.skid_v || s.rd_pend;
        let word = if s.skid_v { s.skid } else { ram_out };
        let out_free = !s.out_v || i.h2c_tready;
        let sh = 8 * s.rd_off;
        let (mut take, mut beat) = (false, false);
        // Aligned: the word itself; unaligned: the previous word's tail
        // and this word's head.
        let mut beat_src = if s.rd_off == 0 {
            word as u128
        } else {
            ((word as u128) << 64 | s.prev as u128) >> sh
        };
        if s.rd_beats != 0 {
            if s.rd_err {
                beat = out_free;
            } else if s.rd_take != 0 {
                if s.rd_first {
                    take = have;
                } else {
                    take = have && out_free;
                    beat = take;
                }
            } else {
                beat = out_free;
                beat_src = (s.prev as u128) >> sh;
            }
        }
        let issue = s.rd_words != 0 && !host_read && !s.skid_v && !(s.rd_pend && !take);
        let read_desc_ready = s.rd_beats == 0 && live;

        // ---- Write engine.
        let write_desc_ready = !s.wr_run && live;
        let c2h_tready = s.wr_run && !s.flush && !host_write && live;
        let c2h_beat = i.c2h.tvalid && c2h_tready;

        let out = Out {
            read_desc_ready,
            h2c: Axis {
                tdata: s.out_data,
                tkeep: s.out_keep,
                tlast: s.out_last,
                tuser: s.out_user,
                tvalid: s.out_v,
            },
            write_desc_ready,
            c2h_tready,
            req_ready: live,
            resp_valid: s.host_resp_v,
            resp: RegResp {
                rdata,
                resp: s.host_code,
            },
            stats: s.stats,
        };

        // ---- Host port, next state.
        self.host_resp_v = i.req_valid;
        self.host_rd = host_read;
        self.host_hi = a >> 2 & 1 == 1;
        self.host_code = if a >= Self::SIZE {
            resp::DECERR
        } else if a & 3 != 0 {
            resp::SLVERR
        } else {
            resp::OKAY
        };

        // ---- Read engine, next state.
        if take {
            self.prev = word;
            self.rd_take = s.rd_take - 1;
            self.rd_first = false;
        }
        if beat {
            self.rd_beats = s.rd_beats - 1;
            self.out_v = true;
            self.out_data = if s.rd_err { 0 } else { beat_src as u64 };
            self.out_user = s.rd_err;
            self.out_last = s.rd_beats == 1;
            self.out_keep = if s.rd_beats == 1 {
                s.rd_last_keep
            } else {
                0xFF
            };
        } else if i.h2c_tready {
            self.out_v = false;
        }
        if s.skid_v {
            if take {
                self.skid_v = false;
            }
        } else if s.rd_pend && !take {
            self.skid_v = true;
            self.skid = ram_out;
        }
        self.rd_pend = issue;
        let read_address = if host_read {
            (a >> 3) as u32 & wmask
        } else {
            s.rd_word
        };
        if issue {
            self.rd_word = (s.rd_word + 1) & wmask;
            self.rd_words = s.rd_words - 1;
        }
        if i.read_desc_valid && read_desc_ready {
            let d = i.read_desc;
            let off = (d.addr & 7) as u32;
            self.stats.rd_descs = s.stats.rd_descs.wrapping_add(1);
            self.rd_beats = (d.len as u32).div_ceil(8);
            self.rd_off = off;
            self.rd_word = (d.addr >> 3) as u32 & wmask;
            self.rd_first = off != 0;
            self.rd_err = !in_memory(&d, Self::SIZE);
            self.rd_last_keep = lanes(if d.len & 7 == 0 { 8 } else { d.len as u32 & 7 });
            if self.rd_err || d.len == 0 {
                self.stats.rd_range_err = s.stats.rd_range_err.wrapping_add(self.rd_err as u32);
                self.rd_words = 0;
                self.rd_take = 0;
            } else {
                self.rd_words = (off + d.len as u32).div_ceil(8);
                self.rd_take = self.rd_words;
            }
        }

        // ---- Write engine, next state.
        let kept = if s.wr_err {
            0
        } else {
            i.c2h.tkeep & lanes(s.wr_left)
        };
        let wide = (i.c2h.tdata as u128) << (8 * s.wr_off);
        let wide_en = (kept as u16) << s.wr_off;
        let mut w = InBe {
            read_address,
            write_address: s.wr_word,
            write_data: s.carry,
            write_enable: 0,
        };
        if host_write {
            w.write_address = (a >> 3) as u32 & wmask;
            w.write_data = (i.req.wdata as u64) << 32 | i.req.wdata as u64;
            w.write_enable = (i.req.wstrb & 0xF) << (4 * (a >> 2 & 1));
        } else if s.flush {
            w.write_enable = s.carry_en;
            self.flush = false;
            self.wr_run = false;
            self.carry_en = 0;
        } else if c2h_beat {
            w.write_data = wide as u64 | s.carry;
            w.write_enable = wide_en as u8 | s.carry_en;
            self.wr_word = (s.wr_word + 1) & wmask;
            self.carry = (wide >> 64) as u64;
            self.carry_en = (wide_en >> 8) as u8;
            self.wr_left = s.wr_left.saturating_sub(8);
            if s.wr_beats != 0 {
                self.wr_beats = s.wr_beats - 1;
            } else {
                self.wr_long = true;
            }
            if i.c2h.tlast {
                if s.wr_long || s.wr_beats != 1 {
                    self.stats.wr_len_err = s.stats.wr_len_err.wrapping_add(1);
                }
                if wide_en >> 8 != 0 {
                    self.flush = true;
                } else {
                    self.wr_run = false;
                }
            }
        }
        if i.write_desc_valid && write_desc_ready {
            let d = i.write_desc;
            self.stats.wr_descs = s.stats.wr_descs.wrapping_add(1);
            self.wr_run = true;
            self.wr_err = !in_memory(&d, Self::SIZE);
            self.wr_off = (d.addr & 7) as u32;
            self.wr_word = (d.addr >> 3) as u32 & wmask;
            self.wr_left = d.len as u32;
            self.wr_beats = (d.len as u32).div_ceil(8);
            self.wr_long = false;
            self.carry = 0;
            self.carry_en = 0;
            if self.wr_err {
                self.stats.wr_range_err = s.stats.wr_range_err.wrapping_add(1);
            }
        }
        self.mem.step(&w);

        if i.reset {
            self.rd_beats = 0;
            self.rd_words = 0;
            self.rd_take = 0;
            self.rd_pend = false;
            self.skid_v = false;
            self.out_v = false;
            self.host_resp_v = false;
            self.wr_run = false;
            self.flush = false;
            self.carry_en = 0;
        }
        out
    }
}
