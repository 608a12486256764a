//! Twin of `hdl/src/mac/xgmii_tx.rs`: the 10G MAC transmitter, a 64-bit
//! frame stream to XGMII words, register for register. See the RTL's docs
//! for the ports, the schedule and the behaviour on bad input;
//! [`super::xgmii::schedule`] is the byte-level schedule it must follow.

use super::MacTxStats;
use crate::roce::crc32::step as crc_step;
use crate::stream::{keep_count, Axis};
use crate::Cycle;
use nic_spec::mac::{xgmii, DIC_MAX};

/// One cycle's inputs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    pub reset: bool,
    pub s: Axis,
    /// Hold off new frames (the pause timer); a frame already started goes
    /// on.
    pub pause: bool,
}

/// One cycle's outputs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub s_tready: bool,
    pub txd: u64,
    pub txc: u8,
    pub stats: MacTxStats,
}

/// Framer states.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum St {
    #[default]
    Idle,
    Data,
    Pad,
    Drain,
}

/// What the framer hands the lane encoder.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Kind {
    #[default]
    None,
    Pre,
    Data,
    Abort,
}

pub const KIND_NONE: u8 = 0;
pub const KIND_PRE: u8 = 1;
pub const KIND_DATA: u8 = 2;
pub const KIND_ABORT: u8 = 3;

/// The lane encoder: one aligned word (`/S/` in lane 0) from the framer's
/// word, the FCS and the spill of the previous word. Returns (txd, txc,
/// spill_v, spill_n, spill_fcs). Shared by the twin and the tests.
#[allow(clippy::too_many_arguments)]
pub fn lanes(
    kind: u8,
    data: u64,
    n: u8,
    last: bool,
    fcs: u32,
    spill_v: bool,
    spill_n: u8,
    spill_fcs: u32,
) -> (u64, u8, bool, u8, u32) {
    let put = |d: &mut u64, c: &mut u8, k: usize, b: u8, ct: bool| {
        *d = (*d & !(0xFFu64 << (8 * k))) | ((b as u64) << (8 * k));
        *c = (*c & !(1 << k)) | ((ct as u8) << k);
    };
    let (mut d, mut c) = (xgmii::IDLE_WORD, 0xFFu8);
    match kind {
        KIND_PRE => return (xgmii::PREAMBLE_WORD, xgmii::PREAMBLE_CTRL, false, 0, 0),
        KIND_DATA if !last => return (data, 0, false, 0, 0),
        KIND_DATA => {
            let n = n.clamp(1, 8) as usize;
            for k in 0..8 {
                if k < n {
                    put(&mut d, &mut c, k, (data >> (8 * k)) as u8, false);
                } else if k < n + 4 {
                    put(&mut d, &mut c, k, (fcs >> (8 * (k - n))) as u8, false);
                } else if k == n + 4 {
                    put(&mut d, &mut c, k, xgmii::TERM, true);
                }
            }
            if n >= 4 {
                let rest = ((fcs as u64) >> (8 * (8 - n))) as u32;
                return (d, c, true, (n - 4) as u8, rest);
            }
            (d, c, false, 0, 0)
        }
        KIND_ABORT => (u64::from_le_bytes([xgmii::ERROR; 8]), 0xFF, true, 0, 0),
        _ => {
            if spill_v {
                let sn = spill_n.min(4) as usize;
                for k in 0..8 {
                    if k < sn {
                        put(&mut d, &mut c, k, (spill_fcs >> (8 * k)) as u8, false);
                    } else if k == sn {
                        put(&mut d, &mut c, k, xgmii::TERM, true);
                    }
                }
            }
            (d, c, false, 0, 0)
        }
    }
}

/// A framer word on its way to the lane encoder (the RTL's `cs_*`,
/// `rh_*`, `rl_*`, `enc_*`), with the CRC over the frame up to and including the
/// word's bytes (the RTL's whole-word register rewound: `fcs_state`).
#[derive(Clone, Copy, Debug, Default)]
struct Staged {
    kind: Kind,
    data: u64,
    n: u8,
    last: bool,
    s0: bool,
    crc: u32,
}

/// The register state of the RTL.
#[derive(Clone, Debug)]
pub struct XgmiiTx {
    st: St,
    wait: u8,
    next_s: bool,
    deficit: u8,
    s0: bool,
    nwords: u16,
    crc: u32,
    f_kind: Kind,
    f_data: u64,
    f_n: u8,
    f_last: bool,
    f_s0: bool,
    /// The CRC stage (`stage_cs`), the rewind stages (`stage_rh`,
    /// `stage_rl`); the encoder reads `stage_enc`.
    stage_cs: Staged,
    stage_rh: Staged,
    stage_rl: Staged,
    stage_enc: Staged,
    spill_v: bool,
    spill_n: u8,
    spill_fcs: u32,
    swap: bool,
    carry_d: u32,
    carry_c: u8,
    txd: u64,
    txc: u8,
    /// A frame's length, counted the cycle after it was sent (the RTL's
    /// `done_v`, `done_len`).
    done: Option<u32>,
    stats: MacTxStats,
}

impl Default for XgmiiTx {
    fn default() -> Self {
        Self {
            st: St::Idle,
            wait: 0,
            next_s: false,
            deficit: 0,
            s0: false,
            nwords: 0,
            crc: 0,
            f_kind: Kind::None,
            f_data: 0,
            f_n: 0,
            f_last: false,
            f_s0: false,
            stage_cs: Staged::default(),
            stage_rh: Staged::default(),
            stage_rl: Staged::default(),
            stage_enc: Staged::default(),
            spill_v: false,
            spill_n: 0,
            spill_fcs: 0,
            swap: false,
            carry_d: 0x0707_0707,
            carry_c: 0xF,
            txd: xgmii::IDLE_WORD,
            txc: 0xFF,
            done: None,
            stats: MacTxStats::default(),
        }
    }
}

impl XgmiiTx {
    /// The gap after a frame whose last aligned word held `n` bytes
    /// (an abort counts as 4): sets `wait`, `next_s` and `deficit`.
    fn gap(&mut self, n: u8) {
        let r = n & 3;
        let mut t = (self.s0 as u8) * 4 + n + 16;
        if r != 0 {
            if self.deficit + r <= DIC_MAX as u8 {
                t -= r;
                self.deficit += r;
            } else {
                t += 4 - r;
                self.deficit = self.deficit.saturating_sub(4 - r);
            }
        }
        self.wait = (t >> 3) - 1;
        self.next_s = t & 4 != 0;
    }
}

impl Cycle for XgmiiTx {
    type In = In;
    type Out = Out;
    fn step(&mut self, i: &In) -> Out {
        let s_tready = matches!(self.st, St::Data | St::Drain);
        let out = Out {
            s_tready,
            txd: self.txd,
            txc: self.txc,
            stats: self.stats,
        };
        if i.reset {
            *self = Self::default();
            return out;
        }

        // ---- CRC and rewind stages: the framer's word moves on four
        // registers --------------------------------------------------------
        let h = self.stage_enc;
        self.stage_enc = self.stage_rl;
        self.stage_rl = self.stage_rh;
        self.stage_rh = self.stage_cs;
        self.stage_cs = Staged {
            kind: self.f_kind,
            data: self.f_data,
            n: self.f_n,
            last: self.f_last,
            s0: self.f_s0,
            crc: self.crc,
        };

        // ---- Lane encoder and lane-4 shift (from the word in `stage_enc`) -
        let kind = match h.kind {
            Kind::None => KIND_NONE,
            Kind::Pre => KIND_PRE,
            Kind::Data => KIND_DATA,
            Kind::Abort => KIND_ABORT,
        };
        let (e_d, e_c, sv, sn, sf) = lanes(
            kind,
            h.data,
            h.n,
            h.last,
            !h.crc,
            self.spill_v,
            self.spill_n,
            self.spill_fcs,
        );
        let pre = h.kind == Kind::Pre;
        let swap = if pre { h.s0 } else { self.swap };
        // A frame that starts in lane 4 after one that started in lane 0:
        // the lanes before its `/S/` are idle.
        let (cd, cc) = if pre && h.s0 && !self.swap {
            (0x0707_0707u32, 0xFu8)
        } else {
            (self.carry_d, self.carry_c)
        };
        if swap {
            self.txd = ((e_d & 0xFFFF_FFFF) << 32) | cd as u64;
            self.txc = ((e_c & 0xF) << 4) | cc;
        } else {
            self.txd = e_d;
            self.txc = e_c;
        }
        self.swap = swap;
        self.carry_d = (e_d >> 32) as u32;
        self.carry_c = e_c >> 4;
        self.spill_v = sv;
        self.spill_n = sn;
        self.spill_fcs = sf;

        // ---- Framer ------------------------------------------------------
        let mut kind_n = Kind::None;
        let mut data_n = 0u64;
        let mut n_n = 0u8;
        let mut last_n = false;
        match self.st {
            St::Idle => {
                if self.wait > 0 {
                    self.wait -= 1;
                } else if i.s.tvalid && !i.pause {
                    kind_n = Kind::Pre;
                    self.s0 = self.next_s;
                    self.st = St::Data;
                    self.nwords = 0;
                } else {
                    self.next_s = false;
                    self.deficit = 0;
                }
            }
            St::Data => {
                let n = keep_count(i.s.tkeep);
                if !i.s.tvalid || (i.s.tlast && (i.s.tuser || n == 0)) {
                    kind_n = Kind::Abort;
                    self.gap(4);
                    self.st = if i.s.tvalid { St::Idle } else { St::Drain };
                    self.stats.aborts = self.stats.aborts.wrapping_add(1);
                } else if i.s.tlast {
                    let mask = if n >= 8 {
                        u64::MAX
                    } else {
                        (1u64 << (8 * n)) - 1
                    };
                    kind_n = Kind::Data;
                    data_n = i.s.tdata & mask;
                    if self.nwords < 7 {
                        n_n = 8;
                        self.nwords += 1;
                        self.st = St::Pad;
                    } else {
                        n_n = if self.nwords == 7 && n < 4 { 4 } else { n };
                        last_n = true;
                    }
                } else {
                    kind_n = Kind::Data;
                    data_n = i.s.tdata;
                    n_n = 8;
                    self.nwords = self.nwords.saturating_add(1).min(0x1FFF);
                }
            }
            St::Pad => {
                kind_n = Kind::Data;
                if self.nwords == 7 {
                    n_n = 4;
                    last_n = true;
                } else {
                    n_n = 8;
                    self.nwords += 1;
                }
            }
            St::Drain => {
                if self.wait > 0 {
                    self.wait -= 1;
                } else {
                    self.next_s = false;
                    self.deficit = 0;
                }
                if i.s.tvalid && i.s.tlast {
                    self.st = St::Idle;
                }
            }
        }
        if let Some(len) = self.done.take() {
            self.stats.frames = self.stats.frames.wrapping_add(1);
            self.stats.bytes = self.stats.bytes.wrapping_add(len);
        }
        if last_n {
            self.done = Some((self.nwords as u32) * 8 + n_n as u32 + 4);
            self.gap(n_n);
            self.st = St::Idle;
        }
        self.crc = match kind_n {
            Kind::Pre => 0xFFFF_FFFF,
            Kind::Data => crc_step(self.crc, data_n, n_n as u32),
            _ => self.crc,
        };
        self.f_kind = kind_n;
        self.f_data = data_n;
        self.f_n = n_n;
        self.f_last = last_n;
        self.f_s0 = self.s0;
        out
    }
}
