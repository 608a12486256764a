//! Twin of `hdl/src/mac/gmii_rx.rs`: the 1G MAC receiver, GMII to an
//! 8-bit frame stream without the FCS, register for register (the delay
//! line included). See the RTL's docs for the ports, latency and the
//! behaviour on bad input; [`super::gmii::decode`] is the byte-level
//! reference it must agree with.

use super::MacRxStats;
use crate::roce::crc32::step_byte;
use crate::stream::{Axis, Axis8};
use crate::Cycle;
use nic_spec::mac::{ctl, FCS_RESIDUE, MIN_FRAME, PREAMBLE_BYTE, SFD};

/// Bytes in the delay line (the RTL's `LINE`).
pub const LINE: usize = 14;

/// One cycle's inputs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    pub reset: bool,
    pub rxd: u8,
    pub rx_dv: bool,
    pub rx_er: bool,
    /// The longest frame taken, FCS included (a constant in the tops).
    pub cfg_max_len: u16,
    /// `m_axis.tready`: ignored.
    pub m_tready: bool,
}

/// One cycle's outputs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub m: Axis8,
    pub bad_frame: bool,
    pub bad_fcs: bool,
    pub pause_valid: bool,
    pub pause_quanta: u16,
    pub stats: MacRxStats,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum St {
    #[default]
    Idle,
    Pre,
    Data,
    Discard,
}

/// One byte of the delay line.
#[derive(Clone, Copy, Debug, Default)]
struct Slot {
    d: u8,
    v: bool,
    last: bool,
    user: bool,
}

#[derive(Clone, Debug, Default)]
pub struct GmiiRx {
    in_d: u8,
    in_dv: bool,
    in_er: bool,
    st: St,
    cnt: u16,
    crc: u32,
    err: bool,
    is_ctl: bool,
    ctl_op: u16,
    ctl_quanta: u16,
    pfc_en: u8,
    /// `line[0]` is the newest byte, `line[LINE - 1]` is on `m_axis`.
    line: [Slot; LINE],
    bad_frame: bool,
    bad_fcs: bool,
    pause_valid: bool,
    pause_quanta: u16,
    stats: MacRxStats,
}

const CTL_DST: [u8; 6] = {
    let b = ctl::DST.to_be_bytes();
    [b[2], b[3], b[4], b[5], b[6], b[7]]
};

impl Cycle for GmiiRx {
    type In = In;
    type Out = Out;
    fn step(&mut self, i: &In) -> Out {
        let far = self.line[LINE - 1];
        let out = Out {
            m: Axis {
                tdata: far.d,
                tkeep: true,
                tvalid: far.v,
                tlast: far.last,
                tuser: far.user,
            },
            bad_frame: self.bad_frame,
            bad_fcs: self.bad_fcs,
            pause_valid: self.pause_valid,
            pause_quanta: self.pause_quanta,
            stats: self.stats,
        };
        if i.reset {
            *self = Self::default();
            return out;
        }
        self.bad_frame = false;
        self.bad_fcs = false;
        self.pause_valid = false;
        let (b, dv, er) = (self.in_d, self.in_dv, self.in_er);
        self.in_d = i.rxd;
        self.in_dv = i.rx_dv;
        self.in_er = i.rx_er;

        let pair = ((self.line[0].d as u16) << 8) | b as u16;
        let in_frame = self.st == St::Data;
        let cut = in_frame && dv && self.cnt == i.cfg_max_len;
        let take = in_frame && dv && !cut;
        let end = in_frame && (!dv || cut);
        let kill = take
            && self.cnt == 13
            && (0..6).all(|k| self.line[12 - k].d == CTL_DST[k])
            && pair == ctl::ETHERTYPE;
        // The line shifts every cycle; the new byte enters at 0.
        let mut line = [Slot::default(); LINE];
        line[1..].copy_from_slice(&self.line[..LINE - 1]);
        line[0] = Slot {
            d: b,
            v: take && !self.is_ctl && !kill,
            last: false,
            user: false,
        };
        let (cnt, is_ctl, ctl_op, pfc_en) = (self.cnt, self.is_ctl, self.ctl_op, self.pfc_en);
        if take {
            self.cnt = cnt.wrapping_add(1);
            self.crc = step_byte(self.crc, b);
            if er {
                self.err = true;
            }
            if kill {
                self.is_ctl = true;
                for s in line.iter_mut() {
                    s.v = false;
                }
            }
            if is_ctl && cnt == 15 {
                self.ctl_op = pair;
            }
            if is_ctl && cnt == 17 {
                self.pfc_en = b;
                if ctl_op == ctl::OP_PAUSE {
                    self.ctl_quanta = pair;
                }
            }
            if is_ctl && ctl_op == ctl::OP_PFC && cnt % 2 == 1 && (19..=33).contains(&cnt) {
                self.pfc_en = pfc_en >> 1;
                if pfc_en & 1 != 0 && pair > self.ctl_quanta {
                    self.ctl_quanta = pair;
                }
            }
        }
        if end {
            let (v_err, v_over, v_runt) = (self.err, cut, cnt < MIN_FRAME as u16);
            let v_fcs = self.crc != FCS_RESIDUE;
            let v_bad = v_err || v_over || v_runt;
            let s = &mut self.stats;
            if v_err {
                s.errors = s.errors.wrapping_add(1);
            } else if v_over {
                s.oversize = s.oversize.wrapping_add(1);
            } else if v_runt {
                s.runts = s.runts.wrapping_add(1);
            } else if v_fcs {
                s.bad_fcs = s.bad_fcs.wrapping_add(1);
            } else if is_ctl {
                if ctl_op == ctl::OP_PAUSE || ctl_op == ctl::OP_PFC {
                    s.pause = s.pause.wrapping_add(1);
                    self.pause_valid = true;
                    self.pause_quanta = self.ctl_quanta;
                } else {
                    s.ctl_other = s.ctl_other.wrapping_add(1);
                }
            } else {
                s.frames = s.frames.wrapping_add(1);
                s.bytes = s.bytes.wrapping_add(cnt as u32);
            }
            self.bad_frame = v_bad;
            self.bad_fcs = !v_bad && v_fcs;
            for s in &mut line[1..=4] {
                s.v = false;
            }
            if cnt > 4 && !is_ctl {
                line[5].last = true;
                if v_bad || v_fcs {
                    line[5].user = true;
                }
            }
        }
        self.line = line;

        match self.st {
            St::Idle => {
                if dv {
                    if b == PREAMBLE_BYTE {
                        self.st = St::Pre;
                    } else {
                        self.stats.bad_preamble = self.stats.bad_preamble.wrapping_add(1);
                        self.bad_frame = true;
                        self.st = St::Discard;
                    }
                }
            }
            St::Pre => {
                if !dv {
                    self.stats.bad_preamble = self.stats.bad_preamble.wrapping_add(1);
                    self.bad_frame = true;
                    self.st = St::Idle;
                } else if b == SFD {
                    self.st = St::Data;
                    self.cnt = 0;
                    self.crc = 0xFFFF_FFFF;
                    self.err = false;
                    self.is_ctl = false;
                    self.ctl_op = 0;
                    self.ctl_quanta = 0;
                    self.pfc_en = 0;
                } else if b != PREAMBLE_BYTE {
                    self.stats.bad_preamble = self.stats.bad_preamble.wrapping_add(1);
                    self.bad_frame = true;
                    self.st = St::Discard;
                }
            }
            St::Data => {
                if cut {
                    self.st = St::Discard;
                } else if !dv {
                    self.st = St::Idle;
                }
            }
            St::Discard => {
                if !dv {
                    self.st = St::Idle;
                }
            }
        }
        out
    }
}
