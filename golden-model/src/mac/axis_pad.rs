//! Twin of `hdl/src/mac/axis_pad.rs`: pads frames to 60 bytes and puts
//! `tkeep` in the shape vendor MACs require, register for register. See
//! the RTL's docs for the ports and the behaviour on bad input.

use super::TxPadStats;
use crate::stream::Axis;
use crate::Cycle;

/// One cycle's inputs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    pub reset: bool,
    pub s: Axis,
    pub m_tready: bool,
}

/// One cycle's outputs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub s_tready: bool,
    pub m: Axis,
    pub stats: TxPadStats,
}

/// The beat index (from 0) of the last beat of a 60-byte frame.
pub const LAST_WORD: u8 = 7;

#[derive(Clone, Debug, Default)]
pub struct AxisPad {
    /// The index of the next beat in the frame, held at 8 from the 9th on.
    word: u8,
    padding: bool,
    pad_user: bool,
    out_v: bool,
    out_d: u64,
    out_keep: u8,
    out_last: bool,
    out_user: bool,
    stats: TxPadStats,
}

/// The byte mask (64 bits) of the `n` low lanes.
fn lane_mask(n: u32) -> u64 {
    if n >= 8 {
        u64::MAX
    } else {
        (1u64 << (8 * n)) - 1
    }
}

impl Cycle for AxisPad {
    type In = In;
    type Out = Out;
    fn step(&mut self, i: &In) -> Out {
        let load = !self.out_v || i.m_tready;
        let out = Out {
            s_tready: load && !self.padding,
            m: Axis {
                tdata: self.out_d,
                tkeep: self.out_keep,
                tvalid: self.out_v,
                tlast: self.out_last,
                tuser: self.out_user,
            },
            stats: self.stats,
        };
        if i.reset {
            *self = Self::default();
            return out;
        }
        if self.out_v && i.m_tready {
            self.out_v = false;
        }
        if load {
            if self.padding {
                self.out_v = true;
                self.out_d = 0;
                self.out_keep = 0xFF;
                self.out_last = false;
                self.out_user = false;
                let word = self.word;
                self.word = word + 1;
                if word == LAST_WORD {
                    self.out_keep = 0x0F;
                    self.out_last = true;
                    self.out_user = self.pad_user;
                    self.padding = false;
                    self.word = 0;
                }
            } else if i.s.tvalid {
                self.out_v = true;
                self.out_d = i.s.tdata;
                self.out_keep = 0xFF;
                self.out_last = false;
                self.out_user = false;
                let word = self.word;
                if word != 8 {
                    self.word = word + 1;
                }
                if i.s.tlast {
                    let n = i.s.tkeep.trailing_ones();
                    let no_byte = n == 0;
                    let user = i.s.tuser || no_byte;
                    self.stats.frames = self.stats.frames.wrapping_add(1);
                    if no_byte {
                        self.stats.bad_keep = self.stats.bad_keep.wrapping_add(1);
                    }
                    self.out_d = i.s.tdata & lane_mask(n);
                    self.word = 0;
                    if word < LAST_WORD {
                        self.stats.padded = self.stats.padded.wrapping_add(1);
                        self.padding = true;
                        self.pad_user = user;
                        self.word = word + 1;
                    } else if word == LAST_WORD && n < 4 {
                        self.stats.padded = self.stats.padded.wrapping_add(1);
                        self.out_keep = 0x0F;
                        self.out_last = true;
                        self.out_user = user;
                    } else {
                        self.out_keep = if no_byte {
                            0x01
                        } else {
                            ((1u16 << n) - 1) as u8
                        };
                        self.out_last = true;
                        self.out_user = user;
                    }
                }
            }
        }
        out
    }
}

/// What a frame of `data` (`user` = abort) looks like after the block:
/// its bytes, zero-padded to 60, and its `tuser`. A frame whose last beat
/// had no byte (`no_byte`) keeps only its whole beats, then one zero
/// byte (or the padding), and is flagged.
pub fn padded(data: &[u8], user: bool, no_byte: bool) -> (Vec<u8>, bool) {
    let mut d = data.to_vec();
    let mut user = user;
    if no_byte {
        d.truncate(8 * (data.len().saturating_sub(1) / 8));
        d.push(0);
        user = true;
    }
    if d.len() < 60 {
        d.resize(60, 0);
    }
    (d, user)
}
