//! Twin of `hdl/src/mac/gmii_tx.rs`: the 1G MAC transmitter, an 8-bit
//! frame stream to GMII, register for register. See the RTL's docs for
//! the ports, the states and the behaviour on bad input;
//! [`super::gmii::wire_bytes`] is what it must send for a good frame.

use super::MacTxStats;
use crate::roce::crc32::step_byte;
use crate::stream::Axis8;
use crate::Cycle;
use nic_spec::mac::{FCS_LEN, IFG, MIN_FRAME, PREAMBLE_BYTE, PREAMBLE_LEN, SFD};

/// One cycle's inputs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    pub reset: bool,
    /// `tkeep`: ignored (every beat is one byte).
    pub s: Axis8,
    /// Hold off new frames; a frame already started goes on.
    pub pause: bool,
}

/// One cycle's outputs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub s_tready: bool,
    pub txd: u8,
    pub tx_en: bool,
    pub tx_er: bool,
    pub stats: MacTxStats,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum St {
    #[default]
    Idle,
    Pre,
    Data,
    Pad,
    Fcs,
    Drain,
    Gap,
}

#[derive(Clone, Debug, Default)]
pub struct GmiiTx {
    st: St,
    step: u8,
    len: u16,
    crc: u32,
    txd: u8,
    tx_en: bool,
    tx_er: bool,
    stats: MacTxStats,
}

impl Cycle for GmiiTx {
    type In = In;
    type Out = Out;
    fn step(&mut self, i: &In) -> Out {
        let out = Out {
            s_tready: matches!(self.st, St::Data | St::Drain),
            txd: self.txd,
            tx_en: self.tx_en,
            tx_er: self.tx_er,
            stats: self.stats,
        };
        if i.reset {
            *self = Self::default();
            return out;
        }
        let start = i.s.tvalid && !i.pause;
        let len_inc = self.len.saturating_add(1);
        let pad_last = (MIN_FRAME - FCS_LEN - 1) as u16;
        let s = &mut self.stats;
        self.txd = 0;
        self.tx_en = false;
        self.tx_er = false;
        match self.st {
            St::Idle => {
                if start {
                    self.st = St::Pre;
                    self.step = 0;
                }
            }
            St::Pre => {
                self.tx_en = true;
                if self.step as usize == PREAMBLE_LEN - 1 {
                    self.txd = SFD;
                    self.st = St::Data;
                    self.len = 0;
                    self.crc = 0xFFFF_FFFF;
                } else {
                    self.txd = PREAMBLE_BYTE;
                    self.step += 1;
                }
            }
            St::Data => {
                self.tx_en = true;
                if i.s.tvalid {
                    self.txd = i.s.tdata;
                    let pad_needed = self.len < pad_last;
                    self.crc = step_byte(self.crc, i.s.tdata);
                    self.len = len_inc;
                    if i.s.tlast {
                        if i.s.tuser {
                            self.tx_er = true;
                            s.aborts = s.aborts.wrapping_add(1);
                            self.st = St::Gap;
                            self.step = 0;
                        } else if pad_needed {
                            self.st = St::Pad;
                        } else {
                            self.st = St::Fcs;
                            self.step = 0;
                        }
                    }
                } else {
                    self.tx_er = true;
                    s.aborts = s.aborts.wrapping_add(1);
                    self.st = St::Drain;
                }
            }
            St::Pad => {
                self.tx_en = true;
                let at_last = self.len == pad_last;
                self.crc = step_byte(self.crc, 0);
                self.len = len_inc;
                if at_last {
                    self.st = St::Fcs;
                    self.step = 0;
                }
            }
            St::Fcs => {
                self.tx_en = true;
                self.txd = ((!self.crc) >> (8 * (self.step & 3))) as u8;
                if self.step as usize == FCS_LEN - 1 {
                    self.st = St::Gap;
                    self.step = 0;
                    s.frames = s.frames.wrapping_add(1);
                    s.bytes = s.bytes.wrapping_add(self.len as u32).wrapping_add(4);
                } else {
                    self.step += 1;
                }
            }
            St::Drain => {
                if i.s.tvalid && i.s.tlast {
                    self.st = St::Gap;
                    self.step = 0;
                }
            }
            St::Gap => {
                if self.step as usize == IFG - 1 {
                    self.step = 0;
                    self.st = if start { St::Pre } else { St::Idle };
                } else {
                    self.step += 1;
                }
            }
        }
        out
    }
}
