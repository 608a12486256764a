//! Twin of `hdl/src/mac/xgmii_rx.rs`: the 10G MAC receiver, XGMII words
//! to a 64-bit frame stream without the FCS, register for register. See
//! the RTL's docs for the ports, latency and the behaviour on bad input;
//! [`super::xgmii::decode`] is the byte-level reference it must agree with.

use super::MacRxStats;
use crate::roce::crc32::step as crc_step;
use crate::stream::Axis;
use crate::Cycle;
use nic_spec::mac::{ctl, xgmii, FCS_RESIDUE, MIN_FRAME};

/// One cycle's inputs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    pub reset: bool,
    pub rxd: u64,
    pub rxc: u8,
    /// The longest frame taken, FCS included (a constant in the tops).
    pub cfg_max_len: u16,
    /// `m_axis.tready`: ignored (a MAC cannot stall the wire).
    pub m_tready: bool,
}

/// One cycle's outputs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub m: Axis,
    /// One-cycle pulses, with the last beat of a frame (or when a frame
    /// without beats is dropped): a framing error (bad preamble, control
    /// character, oversize, runt), or an FCS error alone.
    pub bad_frame: bool,
    pub bad_fcs: bool,
    /// One-cycle pulse: a good PAUSE or PFC frame, and the quanta it asks
    /// for (PFC: the largest of the enabled priorities' times).
    pub pause_valid: bool,
    pub pause_quanta: u16,
    pub stats: MacRxStats,
}

/// Index of the first lane with its control bit set, 8 if none.
pub fn first_ctrl(c: u8) -> u8 {
    (c as u32 | 0x100).trailing_zeros() as u8
}

fn byte(d: u64, k: usize) -> u8 {
    (d >> (8 * k)) as u8
}

fn be16(d: u64, k: usize) -> u16 {
    ((byte(d, k) as u16) << 8) | byte(d, k + 1) as u16
}

/// The control-frame destination as the first six lanes of a word.
const CTL_DST_LANES: u64 = {
    let b = ctl::DST.to_be_bytes();
    u64::from_le_bytes([b[2], b[3], b[4], b[5], b[6], b[7], 0, 0])
};

/// The register state of the RTL.
#[derive(Clone, Debug)]
pub struct XgmiiRx {
    in_d: u64,
    in_c: u8,
    prev_d: u64,
    prev_c: u8,
    swap: bool,
    /// The realigned word, two register stages deep (the RTL's `b_*`,
    /// `c_*`: the CRC's data part is computed between them).
    stage_b: (u64, u8),
    stage_c: (u64, u8),
    data: bool,
    cnt: u16,
    /// cnt + 8 (saturated) > cfg_max_len, from the previous cycle's
    /// `cnt` and `cfg_max_len` (the RTL's registered `cnt_over8`).
    cnt_over8: bool,
    crc: u32,
    widx: u8,
    hold_v: bool,
    hold_d: u64,
    hold_n: u8,
    dst_ctl: bool,
    ctl: bool,
    ctl_op: u16,
    pfc_en: u8,
    quanta: u16,
    pend: bool,
    end_err: bool,
    end_over: bool,
    o: Out,
}

impl Default for XgmiiRx {
    fn default() -> Self {
        Self {
            in_d: xgmii::IDLE_WORD,
            in_c: 0xFF,
            prev_d: xgmii::IDLE_WORD,
            prev_c: 0xFF,
            swap: false,
            stage_b: (0, 0xFF),
            stage_c: (xgmii::IDLE_WORD, 0xFF),
            data: false,
            cnt: 0,
            cnt_over8: false,
            crc: 0,
            widx: 0,
            hold_v: false,
            hold_d: 0,
            hold_n: 0,
            dst_ctl: false,
            ctl: false,
            ctl_op: 0,
            pfc_en: 0,
            quanta: 0,
            pend: false,
            end_err: false,
            end_over: false,
            o: Out::default(),
        }
    }
}

fn keep_of(n: u8) -> u8 {
    if n >= 8 {
        0xFF
    } else {
        (1u8 << n) - 1
    }
}

impl Cycle for XgmiiRx {
    type In = In;
    type Out = Out;
    fn step(&mut self, i: &In) -> Out {
        let out = self.o;
        if i.reset {
            *self = Self::default();
            return out;
        }
        let o = &mut self.o;
        o.m.tvalid = false;
        o.m.tlast = false;
        o.m.tuser = false;
        o.bad_frame = false;
        o.bad_fcs = false;
        o.pause_valid = false;

        // ---- Lane-4 alignment --------------------------------------------
        let (new_d, new_c) = if self.swap {
            (
                ((self.in_d & 0xFFFF_FFFF) << 32) | (self.prev_d >> 32),
                ((self.in_c & 0xF) << 4) | (self.prev_c >> 4),
            )
        } else {
            (self.prev_d, self.prev_c)
        };
        let s0 = self.in_c & 1 != 0 && byte(self.in_d, 0) == xgmii::START;
        let s4 = (self.in_c >> 4) & 1 != 0 && byte(self.in_d, 4) == xgmii::START;
        let swap_n = if s0 {
            false
        } else if s4 {
            true
        } else {
            self.swap
        };
        self.prev_d = self.in_d;
        self.prev_c = self.in_c;
        self.in_d = i.rxd;
        self.in_c = i.rxc;
        self.swap = swap_n;
        let (a_d, a_c) = self.stage_c;
        self.stage_c = self.stage_b;
        self.stage_b = (new_d, new_c);

        // ---- The last beat of the frame that ended last cycle ------------
        if self.pend {
            let err = self.end_err;
            let over = self.end_over || self.cnt > i.cfg_max_len;
            let runt = (self.cnt as usize) < MIN_FRAME;
            let fcs_bad = self.crc != FCS_RESIDUE;
            let bad = err || over || runt || fcs_bad;
            let st = &mut o.stats;
            if err {
                st.errors = st.errors.wrapping_add(1);
            } else if over {
                st.oversize = st.oversize.wrapping_add(1);
            } else if runt {
                st.runts = st.runts.wrapping_add(1);
            } else if fcs_bad {
                st.bad_fcs = st.bad_fcs.wrapping_add(1);
            } else if self.ctl {
                if self.ctl_op == ctl::OP_PAUSE || self.ctl_op == ctl::OP_PFC {
                    st.pause = st.pause.wrapping_add(1);
                    o.pause_valid = true;
                    o.pause_quanta = self.quanta;
                } else {
                    st.ctl_other = st.ctl_other.wrapping_add(1);
                }
            } else {
                st.frames = st.frames.wrapping_add(1);
                st.bytes = st.bytes.wrapping_add(self.cnt as u32);
            }
            o.bad_frame = err || over || runt;
            o.bad_fcs = !(err || over || runt) && fcs_bad;
            if self.hold_v && !self.ctl {
                o.m.tvalid = true;
                o.m.tlast = true;
                o.m.tuser = bad;
                o.m.tdata = self.hold_d;
                o.m.tkeep = keep_of(self.hold_n);
            }
            self.hold_v = false;
            self.pend = false;
        }

        // ---- This word ---------------------------------------------------
        if !self.data {
            if a_c & 1 != 0 && byte(a_d, 0) == xgmii::START {
                if a_c == xgmii::PREAMBLE_CTRL && a_d == xgmii::PREAMBLE_WORD {
                    self.data = true;
                    self.cnt = 0;
                    self.crc = 0xFFFF_FFFF;
                    self.widx = 0;
                    self.ctl = false;
                    self.dst_ctl = false;
                    self.quanta = 0;
                } else {
                    o.stats.bad_preamble = o.stats.bad_preamble.wrapping_add(1);
                    o.bad_frame = true;
                }
            }
            // Outside a frame: as for a frame starting (count 0).
            self.cnt_over8 = 8 > i.cfg_max_len;
            return out;
        }
        let fc = first_ctrl(a_c);
        self.crc = crc_step(self.crc, a_d, fc as u32);
        let cnt_n = self.cnt.saturating_add(fc as u16);
        self.cnt = cnt_n;
        let over = fc == 8 && self.cnt_over8;
        self.cnt_over8 = cnt_n.saturating_add(8) > i.cfg_max_len;
        if over {
            // Oversize: cut here; the held word becomes the last beat.
            self.end_err = false;
            self.end_over = true;
            self.pend = true;
            self.data = false;
        } else if fc == 8 {
            let is_ctl = self.widx == 1 && self.dst_ctl && be16(a_d, 4) == ctl::ETHERTYPE;
            if is_ctl {
                self.ctl = true;
                self.ctl_op = be16(a_d, 6);
            }
            if self.hold_v && !self.ctl {
                o.m.tvalid = true;
                o.m.tdata = self.hold_d;
                o.m.tkeep = 0xFF;
            }
            if self.widx == 0 {
                self.dst_ctl = a_d & 0xFFFF_FFFF_FFFF == CTL_DST_LANES;
            }
            let pfc = self.ctl_op == ctl::OP_PFC;
            let en = |p: usize, en: u8| (en >> p) & 1 != 0;
            if self.ctl && self.widx == 2 {
                if pfc {
                    let e = byte(a_d, 1);
                    self.pfc_en = e;
                    let mut q = 0;
                    for p in 0..3 {
                        if en(p, e) {
                            q = q.max(be16(a_d, 2 + 2 * p));
                        }
                    }
                    self.quanta = q;
                } else {
                    self.quanta = be16(a_d, 0);
                }
            } else if self.ctl && pfc && self.widx == 3 {
                for p in 3..7 {
                    if en(p, self.pfc_en) {
                        self.quanta = self.quanta.max(be16(a_d, 2 * (p - 3)));
                    }
                }
            } else if self.ctl && pfc && self.widx == 4 && en(7, self.pfc_en) {
                self.quanta = self.quanta.max(be16(a_d, 0));
            }
            self.hold_v = true;
            self.hold_d = a_d;
            self.hold_n = 8;
            self.widx = (self.widx + 1).min(7);
        } else {
            let term = byte(a_d, fc as usize) == xgmii::TERM;
            if fc >= 5 {
                if self.hold_v && !self.ctl {
                    o.m.tvalid = true;
                    o.m.tdata = self.hold_d;
                    o.m.tkeep = 0xFF;
                }
                self.hold_v = true;
                self.hold_d = a_d;
                self.hold_n = fc - 4;
            } else if self.hold_v {
                self.hold_n = 4 + fc;
            }
            self.end_err = !term;
            self.end_over = false;
            self.pend = true;
            self.data = false;
        }
        out
    }
}
