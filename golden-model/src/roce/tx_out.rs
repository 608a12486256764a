//! Twin of `hdl/src/roce/tx_out.rs` (`TxOut`): the Tx's stages A and B
//! (the ICRC over the frame's words) and its output slice, register by
//! register (see the RTL's docs for the ports and the timing). The Tx's
//! twin (`roce::tx`) steps one of these.

use crate::record::Slice;
use crate::roce::crc32;
use crate::stream::{Axis, Beat};
use crate::Cycle;

/// One cycle's inputs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    pub reset: bool,
    pub produce: bool,
    pub word: u64,
    pub crcm: u64,
    /// 3 bits.
    pub word_j: u8,
    /// 14 bits, two's complement.
    pub rcrc: u16,
    pub err: bool,
    pub out_tready: bool,
}

/// One cycle's outputs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub adv: bool,
    pub out: Axis,
    pub frames: u32,
    pub aborted: u32,
}

/// Stage A's registers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct StageA {
    v: bool,
    data: u64,
    crcd: u64,
    crcn: u32,
    first: bool,
    /// 0: no ICRC here; 1: lanes 2–5, last; 2: lanes 6–7; 3: lanes 0–1, last.
    kind: u8,
    err: bool,
}

/// Stage B's registers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct StageB {
    v: bool,
    data: u64,
    kind: u8,
    err: bool,
    close: bool,
}

#[derive(Clone, Debug, Default)]
pub struct TxOut {
    a: StageA,
    b: StageB,
    crc: u32,
    out_open: bool,
    o_slice: Slice<Beat>,
    c_frames: u32,
    c_aborted: u32,
}

/// Stage A's registers for the generator's word in `i`.
fn stage_a(i: &In) -> StageA {
    let j = i.word_j & 7;
    let rcrc = i.rcrc & 0x3FFF;
    StageA {
        v: i.produce && !i.reset,
        data: i.word,
        crcd: if j == 1 { i.crcm >> 48 } else { i.crcm },
        crcn: if j == 0 || (j != 1 && rcrc & 0x2000 != 0) {
            0
        } else if j == 1 {
            2
        } else if rcrc >> 3 != 0 {
            8
        } else {
            (rcrc & 0xF) as u32
        },
        first: j == 0,
        kind: match rcrc {
            2 => 1,
            6 => 2,
            0x3FFE => 3,
            _ => 0,
        },
        err: i.err,
    }
}

impl TxOut {
    /// Both stages move this cycle (a function of the registers).
    pub fn adv(&self) -> bool {
        self.o_slice.s_tready() || !self.b.v
    }

    /// Stage B's word with the ICRC merged, as offered to the slice.
    fn b_word(&self) -> Beat {
        let b = &self.b;
        let icrc = !self.crc;
        let (tdata, tkeep, tlast) = if b.close {
            (0, 0x01, true)
        } else {
            match b.kind {
                1 => (b.data | ((icrc as u64) << 16), 0x3F, true),
                2 => (b.data | (((icrc & 0xFFFF) as u64) << 48), 0xFF, false),
                3 => (b.data | (icrc >> 16) as u64, 0x03, true),
                _ => (b.data, 0xFF, false),
            }
        };
        Beat {
            tdata: tdata as u128,
            tkeep: tkeep as u16,
            tlast,
            tuser: (b.close || (tlast && b.err)) as u32,
        }
    }
}

impl Cycle for TxOut {
    type In = In;
    type Out = Out;

    fn step(&mut self, i: &In) -> Out {
        let adv = self.adv();
        let slice_ready = self.o_slice.s_tready();
        let m = &self.o_slice.main;
        let out = Out {
            adv,
            out: Axis {
                tdata: m.tdata as u64,
                tkeep: m.tkeep as u8,
                tlast: m.tlast,
                tvalid: self.o_slice.main_v,
                tuser: m.tuser != 0,
            },
            frames: self.c_frames,
            aborted: self.c_aborted,
        };
        let word = self.b_word();
        let b_last = self.b.kind == 1 || self.b.kind == 3;
        let taken = self.b.v && slice_ready;

        let mut n = self.clone();
        n.o_slice.step(self.b.v.then_some(word), i.out_tready);
        if adv {
            n.a = stage_a(i);
            n.b = StageB {
                v: self.a.v && !i.reset,
                data: self.a.data,
                kind: self.a.kind,
                err: self.a.err,
                close: false,
            };
            if self.a.v {
                n.crc = if self.a.first {
                    crc32::step(crc32::INIT, u64::MAX, 8)
                } else {
                    crc32::step(self.crc, self.a.crcd, self.a.crcn)
                };
            }
        } else if i.reset {
            n.a.v = false;
            n.b.v = false;
        }
        // A reset with a frame open on the slice: its closing word.
        if taken {
            n.out_open = !(self.b.close || b_last);
        }
        if i.reset {
            n.b = StageB {
                v: n.out_open,
                close: n.out_open,
                ..StageB::default()
            };
            n.c_frames = 0;
            n.c_aborted = 0;
        } else if taken && b_last {
            n.c_frames = self.c_frames.wrapping_add(1);
            if self.b.err {
                n.c_aborted = self.c_aborted.wrapping_add(1);
            }
        }
        *self = n;
        out
    }
}
