//! The 10G MAC transmitter: a 64-bit frame stream to XGMII words.
//!
//! What it does: puts `/S/`, the preamble and the SFD before each frame,
//! pads it with zeros to 60 bytes, appends the FCS and `/T/`, and keeps
//! the inter-frame gap at 12 bytes on average with a deficit idle count
//! (IEEE 802.3 46.3.1.4): a frame starts in lane 0 or lane 4, the gap
//! before it is 12 bytes less up to 3 deleted idles, the deficit (0..=3)
//! growing by each deleted idle and shrinking by each inserted one.
//! Back-to-back 64-byte frames go at line rate, 84 bytes (10.5 words)
//! apart.
//!
//! Ports (clock `clock`, synchronous active-high `reset`):
//! - `s_axis` (`AxisSink<64, 8, 1>`): the frame without FCS, first byte
//!   in `tdata[7:0]`. `tkeep` is read on the last beat only: its bytes
//!   are the low lanes set before the first clear one. `tuser` on the
//!   last beat asks for the frame to be aborted.
//! - `pause`: hold off new frames (the pause timer); a frame in progress
//!   goes on.
//! - `xgmii_txd` / `xgmii_txc`: lane k in bits 8k+7..8k / bit k, lane 0
//!   first on the wire. Registers: idle (`/I/` everywhere) after reset.
//! - `m_stats` (`MacTxStats`): frames, bytes (padding and FCS included),
//!   aborts.
//!
//! Pipeline: the framer (one word per cycle; the preamble word takes a
//! cycle in which the stream is not read; the gap rule is a table,
//! [`GapTable`]; a last word's lanes after its bytes are zero) → the CRC
//! stage (`cs_*`: the word's data part of the CRC as a whole word,
//! [`Crc32Data64`], registered with it; then the CRC register advances
//! over a whole word, [`Crc32Advance`], and takes it in while the word
//! moves to `rh_*`: no network in the loop or before it selects by byte
//! count) → two rewind stages (the register back over the word's zero
//! lanes, by 4s into `crc_half` while the word is in `rh_*`, then by 1s
//! into `fcs_state` while it is in `rl_*`, [`Crc32Rewind`]: each a 4-way
//! choice of fixed networks) → the lane encoder (FCS and `/T/` from
//! `enc_*` and `fcs_state`, an FCS that spills into the next word) → the
//! lane-4 shift (a frame that starts in lane 4 leaves half a word later)
//! → the output registers. A beat taken in cycle t is on `xgmii_txd` in
//! cycle t + 6; a frame is counted the cycle after its last word leaves
//! the framer.
//!
//! Throughput: one beat per cycle inside a frame; per frame, one cycle
//! for the preamble and the gap. `s_axis.tready` is a register decode
//! (high inside a frame).
//!
//! Bad input: a beat missing inside a frame (underflow), `tuser` on the
//! last beat, or a last beat with `tkeep[0]` clear: the frame ends with a
//! word of `/E/` then `/T/`, so the peer drops it, counted in `aborts`;
//! after an underflow the rest of the frame is read and discarded. No
//! frame length is too long to send.
//!
//! Golden twin: `nic_golden::mac::xgmii_tx`, itself held to the
//! byte-level schedule `nic_golden::mac::xgmii::schedule`.

use super::MacTxStatsSource;
use crate::roce::crc32::{Crc32Advance, Crc32Data64, Crc32Rewind};
use crate::stream::{AxisSink, KeepCount};
use nic_spec::mac::xgmii;
use rust_hdl::prelude::*;
use smart_default::SmartDefault;

/// Framer states.
const ST_IDLE: u64 = 0;
const ST_DATA: u64 = 1;
const ST_PAD: u64 = 2;
const ST_DRAIN: u64 = 3;
/// What the framer hands the lane encoder.
const K_NONE: u64 = 0;
const K_PRE: u64 = 1;
const K_DATA: u64 = 2;
const K_ABORT: u64 = 3;

/// The gap after a frame (deficit idle count, IEEE 802.3 46.3.1.4), as a
/// table (combinational): from the deficit (0..=3), whether the frame
/// started in lane 0 (`s0`) and the bytes of its last aligned word (`n`;
/// an abort counts as 4), the idle words to wait (`idle_words`; not `wait`, a Verilog keyword), whether the
/// next frame starts in lane 4 (`next_s`) and the new deficit. Written
/// as a 128-entry case table rather than the small adders it stands for,
/// so it is a few LUT levels on the framer's path.
#[derive(LogicBlock, Default)]
pub struct GapTable {
    pub deficit: Signal<In, Bits<2>>,
    pub s0: Signal<In, Bit>,
    pub n: Signal<In, Bits<4>>,
    pub idle_words: Signal<Out, Bits<2>>,
    pub next_s: Signal<Out, Bit>,
    pub deficit_next: Signal<Out, Bits<2>>,
}

/// The gap rule in the widths of the registers (`n` = 0..=15, 5-bit
/// arithmetic): (wait, next_s, deficit_next).
fn gap_rule(deficit: u8, s0: bool, n: u8) -> (u8, bool, u8) {
    let r = n & 3;
    let sum = (deficit + r) & 7;
    let ins = (4 - r) & 7;
    let dec = deficit.wrapping_sub(ins) & 7;
    let mut t = (n + if s0 { 20 } else { 16 }) & 31;
    let mut def = deficit;
    if r != 0 {
        if sum <= 3 {
            t = t.wrapping_sub(r) & 31;
            def = sum & 3;
        } else {
            t = (t + ins) & 31;
            def = if deficit > ins { dec & 3 } else { 0 };
        }
    }
    (((t >> 3).wrapping_sub(1)) & 3, (t >> 2) & 1 != 0, def)
}

impl Logic for GapTable {
    fn update(&mut self) {
        let (w, ns, d) = gap_rule(
            self.deficit.val().to_u64() as u8,
            self.s0.val(),
            self.n.val().to_u64() as u8,
        );
        self.idle_words.next = Bits::<2>::from(w as u64);
        self.next_s.next = ns;
        self.deficit_next.next = Bits::<2>::from(d as u64);
    }
    fn connect(&mut self) {
        self.idle_words.connect();
        self.next_s.connect();
        self.deficit_next.connect();
    }
    fn hdl(&self) -> Verilog {
        let mut v = String::from("always @(*) begin\n  case ({s0, deficit, n})\n");
        for s0 in [false, true] {
            for def in 0..4u8 {
                for n in 0..16u8 {
                    let (w, ns, d) = gap_rule(def, s0, n);
                    let key = ((s0 as u32) << 6) | ((def as u32) << 4) | n as u32;
                    v += &format!(
                        "    7'd{key}: begin idle_words = 2'd{w}; next_s = 1'b{}; deficit_next = 2'd{d}; end\n",
                        ns as u8
                    );
                }
            }
        }
        v += "    default: begin idle_words = 2'd0; next_s = 1'b0; deficit_next = 2'd0; end\n";
        v += "  endcase\nend\n";
        Verilog::Custom(v)
    }
}

/// The lane encoder (combinational): one word with `/S/` in lane 0 from
/// the framer's word (`kind`: none, preamble, data, abort; `n` bytes on
/// the last data word), the FCS, and the spill of the previous word (FCS
/// bytes and `/T/` that did not fit). `sv`/`sn`/`sf`: this word's spill.
#[derive(LogicBlock, Default)]
pub struct TxLanes {
    pub kind: Signal<In, Bits<2>>,
    pub data: Signal<In, Bits<64>>,
    pub n: Signal<In, Bits<4>>,
    pub last: Signal<In, Bit>,
    pub fcs: Signal<In, Bits<32>>,
    pub spill_v: Signal<In, Bit>,
    pub spill_n: Signal<In, Bits<3>>,
    pub spill_fcs: Signal<In, Bits<32>>,
    pub d: Signal<Out, Bits<64>>,
    pub c: Signal<Out, Bits<8>>,
    pub sv: Signal<Out, Bit>,
    pub sn: Signal<Out, Bits<3>>,
    pub sf: Signal<Out, Bits<32>>,
}

/// The lane encoder's function, as the RTL's Verilog computes it.
#[allow(clippy::too_many_arguments)]
fn tx_lanes(
    kind: u64,
    data: u64,
    n: u64,
    last: bool,
    fcs: u32,
    spill_v: bool,
    spill_n: u64,
    spill_fcs: u32,
) -> (u64, u8, bool, u64, u32) {
    let put = |d: &mut u64, c: &mut u8, k: usize, b: u64, ct: bool| {
        *d = (*d & !(0xFFu64 << (8 * k))) | ((b & 0xFF) << (8 * k));
        *c = (*c & !(1 << k)) | ((ct as u8) << k);
    };
    let (mut d, mut c) = (xgmii::IDLE_WORD, 0xFFu8);
    match kind {
        K_PRE => (xgmii::PREAMBLE_WORD, xgmii::PREAMBLE_CTRL, false, 0, 0),
        K_DATA if !last => (data, 0, false, 0, 0),
        K_DATA => {
            let n = n.clamp(1, 8) as usize;
            for k in 0..8 {
                if k < n {
                    put(&mut d, &mut c, k, data >> (8 * k), false);
                } else if k < n + 4 {
                    put(&mut d, &mut c, k, (fcs >> (8 * (k - n))) as u64, false);
                } else if k == n + 4 {
                    put(&mut d, &mut c, k, xgmii::TERM as u64, true);
                }
            }
            if n >= 4 {
                let rest = ((fcs as u64) >> (8 * (8 - n))) as u32;
                (d, c, true, (n - 4) as u64, rest)
            } else {
                (d, c, false, 0, 0)
            }
        }
        K_ABORT => (u64::from_le_bytes([xgmii::ERROR; 8]), 0xFF, true, 0, 0),
        _ => {
            if spill_v {
                let sn = spill_n.min(4) as usize;
                for k in 0..8 {
                    if k < sn {
                        put(&mut d, &mut c, k, (spill_fcs >> (8 * k)) as u64, false);
                    } else if k == sn {
                        put(&mut d, &mut c, k, xgmii::TERM as u64, true);
                    }
                }
            }
            (d, c, false, 0, 0)
        }
    }
}

impl Logic for TxLanes {
    fn update(&mut self) {
        let (d, c, sv, sn, sf) = tx_lanes(
            self.kind.val().to_u64(),
            self.data.val().to_u64(),
            self.n.val().to_u64(),
            self.last.val(),
            self.fcs.val().to_u64() as u32,
            self.spill_v.val(),
            self.spill_n.val().to_u64(),
            self.spill_fcs.val().to_u64() as u32,
        );
        self.d.next = Bits::<64>::from(d);
        self.c.next = Bits::<8>::from(c as u64);
        self.sv.next = sv;
        self.sn.next = Bits::<3>::from(sn);
        self.sf.next = Bits::<32>::from(sf as u64);
    }
    fn connect(&mut self) {
        self.d.connect();
        self.c.connect();
        self.sv.connect();
        self.sn.connect();
        self.sf.connect();
    }
    fn hdl(&self) -> Verilog {
        // Every lane's source is a constant of the case (no loop variable,
        // no integer arithmetic): each output bit is a small mux.
        let term = xgmii::TERM;
        let mut v = String::from("always @(*) begin\n");
        v += &format!(
            "  d = 64'h{:016X};\n  c = 8'hFF;\n  sv = 1'b0;\n  sn = 3'd0;\n  sf = 32'd0;\n",
            xgmii::IDLE_WORD
        );
        v += "  case (kind)\n";
        v += &format!(
            "    2'd{K_PRE}: begin\n      d = 64'h{:016X};\n      c = 8'h{:02X};\n    end\n",
            xgmii::PREAMBLE_WORD,
            xgmii::PREAMBLE_CTRL
        );
        v += &format!("    2'd{K_DATA}: begin\n      if (!last) begin\n        d = data;\n        c = 8'h00;\n      end else begin\n        case (n)\n");
        // n = 0 acts as 1, n > 8 as 8 (the framer never sends either).
        for n in 1..=8usize {
            let label = match n {
                1 => "4'd0, 4'd1".to_string(),
                8 => "default".to_string(),
                _ => format!("4'd{n}"),
            };
            v += &format!("          {label}: begin\n");
            for k in 0..8usize {
                if k < n {
                    v += &format!(
                        "            d[{}:{}] = data[{}:{}];\n",
                        8 * k + 7,
                        8 * k,
                        8 * k + 7,
                        8 * k
                    );
                    v += &format!("            c[{k}] = 1'b0;\n");
                } else if k < n + 4 {
                    let f = k - n;
                    v += &format!(
                        "            d[{}:{}] = fcs[{}:{}];\n",
                        8 * k + 7,
                        8 * k,
                        8 * f + 7,
                        8 * f
                    );
                    v += &format!("            c[{k}] = 1'b0;\n");
                } else if k == n + 4 {
                    v += &format!("            d[{}:{}] = 8'h{term:02X};\n", 8 * k + 7, 8 * k);
                    v += &format!("            c[{k}] = 1'b1;\n");
                }
            }
            if n >= 4 {
                // The FCS bytes that did not fit: fcs >> 8 * (8 - n).
                let lo = 8 * (8 - n);
                v += "            sv = 1'b1;\n";
                v += &format!("            sn = 3'd{};\n", n - 4);
                if lo == 0 {
                    v += "            sf = fcs;\n";
                } else if lo < 32 {
                    v += &format!("            sf = {{{lo}'d0, fcs[31:{lo}]}};\n");
                }
            }
            v += "          end\n";
        }
        v += "        endcase\n      end\n    end\n";
        v += &format!(
            "    2'd{K_ABORT}: begin\n      d = {{8{{8'h{:02X}}}}};\n      c = 8'hFF;\n      sv = 1'b1;\n    end\n",
            xgmii::ERROR
        );
        // The spill: spill_n (<= 4; more acts as 4) FCS bytes in lanes
        // 0.., then /T/.
        v += "    default: begin\n      if (spill_v) begin\n        case (spill_n)\n";
        for sp in 0..=4usize {
            let label = if sp == 4 {
                "default".to_string()
            } else {
                format!("3'd{sp}")
            };
            v += &format!("          {label}: begin\n");
            for k in 0..sp {
                v += &format!(
                    "            d[{}:{}] = spill_fcs[{}:{}];\n",
                    8 * k + 7,
                    8 * k,
                    8 * k + 7,
                    8 * k
                );
                v += &format!("            c[{k}] = 1'b0;\n");
            }
            v += &format!(
                "            d[{}:{}] = 8'h{term:02X};\n",
                8 * sp + 7,
                8 * sp
            );
            v += &format!("            c[{sp}] = 1'b1;\n");
            v += "          end\n";
        }
        v += "        endcase\n      end\n    end\n  endcase\nend\n";
        Verilog::Custom(v)
    }
}

#[derive(LogicBlock, SmartDefault)]
pub struct XgmiiTx {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub s_axis: AxisSink<64, 8, 1>,
    pub pause: Signal<In, Bit>,
    pub xgmii_txd: Signal<Out, Bits<64>>,
    pub xgmii_txc: Signal<Out, Bits<8>>,
    pub m_stats: MacTxStatsSource,
    keep: KeepCount,
    lanes: TxLanes,
    gap: GapTable,
    crc_data: Crc32Data64,
    crc_adv: Crc32Advance,
    rewind_by4: Crc32Rewind<4>,
    rewind_by1: Crc32Rewind<1>,
    // ---- Framer
    st: DFF<Bits<2>>,
    gap_wait: DFF<Bits<2>>,
    next_s: DFF<Bit>,
    deficit: DFF<Bits<2>>,
    s0: DFF<Bit>,
    nwords: DFF<Bits<13>>,
    crc: DFF<Bits<32>>,
    f_kind: DFF<Bits<2>>,
    f_data: DFF<Bits<64>>,
    f_n: DFF<Bits<4>>,
    f_last: DFF<Bit>,
    f_s0: DFF<Bit>,
    // ---- CRC stage (the data part in, the register advanced)
    cs_kind: DFF<Bits<2>>,
    cs_data: DFF<Bits<64>>,
    cs_n: DFF<Bits<4>>,
    cs_last: DFF<Bit>,
    cs_s0: DFF<Bit>,
    cs_dpart: DFF<Bits<32>>,
    // ---- Rewind stages: by 4s (`rh_*`, the CRC register holds the word
    // taken in), then by 1s (`rl_*`, `crc_half` holds it)
    rh_kind: DFF<Bits<2>>,
    rh_data: DFF<Bits<64>>,
    rh_n: DFF<Bits<4>>,
    rh_last: DFF<Bit>,
    rh_s0: DFF<Bit>,
    /// The zero lanes of the word in `rh_*` (8 − its bytes; 0 for 8).
    rh_back: DFF<Bits<4>>,
    rl_kind: DFF<Bits<2>>,
    rl_data: DFF<Bits<64>>,
    rl_n: DFF<Bits<4>>,
    rl_last: DFF<Bit>,
    rl_s0: DFF<Bit>,
    rl_back: DFF<Bits<2>>,
    /// The CRC register rewound by the 4s of `rh_back`. Plain `DFF`s
    /// feeding XOR networks, like `crc` (see `XgmiiRx`'s `b_d` on
    /// Verilator 5.006).
    crc_half: DFF<Bits<32>>,
    /// The CRC over the frame up to the word in `enc_*`, that word's
    /// bytes only (its zero lanes rewound).
    fcs_state: DFF<Bits<32>>,
    enc_kind: DFF<Bits<2>>,
    enc_data: DFF<Bits<64>>,
    enc_n: DFF<Bits<4>>,
    enc_last: DFF<Bit>,
    enc_s0: DFF<Bit>,
    // ---- Encoder and lane-4 shift
    spill_v: DFF<Bit>,
    spill_n: DFF<Bits<3>>,
    spill_fcs: DFF<Bits<32>>,
    swap: DFF<Bit>,
    #[default(DFFWithInit::new(Bits::<32>::from(0x0707_0707u64)))]
    carry_d: DFFWithInit<Bits<32>>,
    #[default(DFFWithInit::new(Bits::<4>::from(0xFu64)))]
    carry_c: DFFWithInit<Bits<4>>,
    #[default(DFFWithInit::new(Bits::<64>::from(xgmii::IDLE_WORD)))]
    txd: DFFWithInit<Bits<64>>,
    #[default(DFFWithInit::new(Bits::<8>::from(0xFFu64)))]
    txc: DFFWithInit<Bits<8>>,
    done_v: DFF<Bit>,
    n_frames: DFF<Bits<32>>,
    n_bytes: DFF<Bits<32>>,
    n_aborts: DFF<Bits<32>>,
    #[default(Constant::new(Bits::<32>::from(0xFFFF_FFFFu64)))]
    k_crc_init: Constant<Bits<32>>,
    #[default(Constant::new(Bits::<2>::from(ST_IDLE)))]
    k_st_idle: Constant<Bits<2>>,
    #[default(Constant::new(Bits::<2>::from(ST_DATA)))]
    k_st_data: Constant<Bits<2>>,
    #[default(Constant::new(Bits::<2>::from(ST_PAD)))]
    k_st_pad: Constant<Bits<2>>,
    #[default(Constant::new(Bits::<2>::from(ST_DRAIN)))]
    k_st_drain: Constant<Bits<2>>,
    #[default(Constant::new(Bits::<2>::from(K_NONE)))]
    k_none: Constant<Bits<2>>,
    #[default(Constant::new(Bits::<2>::from(K_PRE)))]
    k_pre: Constant<Bits<2>>,
    #[default(Constant::new(Bits::<2>::from(K_DATA)))]
    k_data: Constant<Bits<2>>,
    #[default(Constant::new(Bits::<2>::from(K_ABORT)))]
    k_abort: Constant<Bits<2>>,
    #[default(Constant::new(Bits::<13>::from(7u64)))]
    k_seven: Constant<Bits<13>>,
    #[default(Constant::new(Bits::<4>::from(8u64)))]
    k_eight: Constant<Bits<4>>,
    #[default(Constant::new(Bits::<13>::from(0x1FFFu64)))]
    k_max_words: Constant<Bits<13>>,
    #[default(Constant::new(Bits::<32>::from(0x0707_0707u64)))]
    k_idle_half: Constant<Bits<32>>,
    #[default(Constant::new(Bits::<64>::from(xgmii::IDLE_WORD)))]
    k_idle_word: Constant<Bits<64>>,
    // ---- Locals
    kind_n: Signal<Local, Bits<2>>,
    data_n: Signal<Local, Bits<64>>,
    n_n: Signal<Local, Bits<4>>,
    last_n: Signal<Local, Bit>,
    abort_n: Signal<Local, Bit>,
    do_gap: Signal<Local, Bit>,
    g_n: Signal<Local, Bits<4>>,
    nwords_hi: Signal<Local, Bits<10>>,
    nwords_lt7: Signal<Local, Bit>,
    s0_n: Signal<Local, Bit>,
    pre: Signal<Local, Bit>,
    swap_now: Signal<Local, Bit>,
    cd: Signal<Local, Bits<32>>,
    cc: Signal<Local, Bits<4>>,
}

impl Logic for XgmiiTx {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, st, gap_wait, next_s, deficit, s0, nwords, crc, f_kind, f_data, f_n,
            f_last, f_s0, cs_kind, cs_data, cs_n, cs_last, cs_s0, cs_dpart, rh_kind, rh_data, rh_n,
            rh_last, rh_s0, rh_back, rl_kind, rl_data, rl_n, rl_last, rl_s0, rl_back, crc_half,
            fcs_state, enc_kind, enc_data, enc_n, enc_last, enc_s0, spill_v, spill_n, spill_fcs,
            swap, carry_d, carry_c, txd, txc, done_v, n_frames, n_bytes, n_aborts
        );
        // ---- CRC stage: the data part of the framer's word, a whole word
        // (its lanes after the last byte are zero; linear: step(c, d, 8) =
        // step(c, 0, 8) ^ step(0, d, 8)), is registered with the word
        // (cs_*); then the register advances over 8 bytes and takes that
        // part in, while the word moves on to rh_*. No network selects by
        // byte count in the loop or before it. -------------------------------
        self.crc_data.data.next = self.f_data.q.val();
        self.crc_data.nbytes.next = 8.into();
        self.cs_dpart.d.next = self.crc_data.part.val();
        self.cs_kind.d.next = self.f_kind.q.val();
        self.cs_data.d.next = self.f_data.q.val();
        self.cs_n.d.next = self.f_n.q.val();
        self.cs_last.d.next = self.f_last.q.val();
        self.cs_s0.d.next = self.f_s0.q.val();
        self.crc_adv.crc_in.next = self.crc.q.val();
        self.crc_adv.nbytes.next = 8.into();
        if self.cs_kind.q.val() == self.k_pre.val() {
            self.crc.d.next = self.k_crc_init.val();
        } else if self.cs_kind.q.val() == self.k_data.val() {
            self.crc.d.next = (self.crc_adv.crc_out.val() ^ self.cs_dpart.q.val());
        }
        self.rh_kind.d.next = self.cs_kind.q.val();
        self.rh_data.d.next = self.cs_data.q.val();
        self.rh_n.d.next = self.cs_n.q.val();
        self.rh_last.d.next = self.cs_last.q.val();
        self.rh_s0.d.next = self.cs_s0.q.val();
        if self.cs_n.q.val().get_bit(3) {
            self.rh_back.d.next = 0.into();
        } else {
            self.rh_back.d.next = (self.k_eight.val() - self.cs_n.q.val());
        }
        // ---- Rewind stages: the register, which holds the word in rh_* as
        // a whole word, back over its zero lanes (rh_back bytes: by 4s into
        // crc_half, then by 1s into fcs_state), while the word moves on
        // through rl_* to enc_* (only a frame's last word uses it) ----------
        self.rewind_by4.crc_in.next = self.crc.q.val();
        self.rewind_by4.sel.next = self.rh_back.q.val().get_bits::<2>(2);
        self.crc_half.d.next = self.rewind_by4.crc_out.val();
        self.rl_kind.d.next = self.rh_kind.q.val();
        self.rl_data.d.next = self.rh_data.q.val();
        self.rl_n.d.next = self.rh_n.q.val();
        self.rl_last.d.next = self.rh_last.q.val();
        self.rl_s0.d.next = self.rh_s0.q.val();
        self.rl_back.d.next = self.rh_back.q.val().get_bits::<2>(0);
        self.rewind_by1.crc_in.next = self.crc_half.q.val();
        self.rewind_by1.sel.next = self.rl_back.q.val();
        self.fcs_state.d.next = self.rewind_by1.crc_out.val();
        self.enc_kind.d.next = self.rl_kind.q.val();
        self.enc_data.d.next = self.rl_data.q.val();
        self.enc_n.d.next = self.rl_n.q.val();
        self.enc_last.d.next = self.rl_last.q.val();
        self.enc_s0.d.next = self.rl_s0.q.val();
        // ---- Lane encoder and lane-4 shift, from the word in enc_* and the
        // FCS state (which holds that word) ---------------------------------
        self.lanes.kind.next = self.enc_kind.q.val();
        self.lanes.data.next = self.enc_data.q.val();
        self.lanes.n.next = self.enc_n.q.val();
        self.lanes.last.next = self.enc_last.q.val();
        self.lanes.fcs.next = !self.fcs_state.q.val();
        self.lanes.spill_v.next = self.spill_v.q.val();
        self.lanes.spill_n.next = self.spill_n.q.val();
        self.lanes.spill_fcs.next = self.spill_fcs.q.val();
        self.pre.next = (self.enc_kind.q.val() == self.k_pre.val());
        if self.pre.val() {
            self.swap_now.next = self.enc_s0.q.val();
        } else {
            self.swap_now.next = self.swap.q.val();
        }
        // A frame that starts in lane 4 after one that started in lane 0:
        // the lanes before its /S/ are idle.
        if (self.pre.val() && self.enc_s0.q.val() && !self.swap.q.val()) {
            self.cd.next = self.k_idle_half.val();
            self.cc.next = 0xF.into();
        } else {
            self.cd.next = self.carry_d.q.val();
            self.cc.next = self.carry_c.q.val();
        }
        if self.swap_now.val() {
            self.txd.d.next = ((bit_cast::<64, 32>(self.lanes.d.val().get_bits::<32>(0)) << 32)
                | bit_cast::<64, 32>(self.cd.val()));
            self.txc.d.next = ((bit_cast::<8, 4>(self.lanes.c.val().get_bits::<4>(0)) << 4)
                | bit_cast::<8, 4>(self.cc.val()));
        } else {
            self.txd.d.next = self.lanes.d.val();
            self.txc.d.next = self.lanes.c.val();
        }
        self.swap.d.next = self.swap_now.val();
        self.carry_d.d.next = self.lanes.d.val().get_bits::<32>(32);
        self.carry_c.d.next = self.lanes.c.val().get_bits::<4>(4);
        self.spill_v.d.next = self.lanes.sv.val();
        self.spill_n.d.next = self.lanes.sn.val();
        self.spill_fcs.d.next = self.lanes.sf.val();

        // ---- Framer ------------------------------------------------------
        self.keep.keep.next = self.s_axis.tkeep.val();
        // nwords < 7 as bit tests (a comparator is a carry chain on ECP5).
        self.nwords_hi.next = self.nwords.q.val().get_bits::<10>(3);
        self.nwords_lt7.next =
            (!self.nwords_hi.val().any() && (self.nwords.q.val().get_bits::<3>(0) != 7));
        self.s0_n.next = self.s0.q.val();
        self.kind_n.next = self.k_none.val();
        self.data_n.next = 0.into();
        self.n_n.next = 0.into();
        self.last_n.next = false;
        self.abort_n.next = false;
        self.do_gap.next = false;
        self.g_n.next = 4.into();
        self.s_axis.tready.next = ((self.st.q.val() == self.k_st_data.val())
            || (self.st.q.val() == self.k_st_drain.val()));
        if self.st.q.val() == self.k_st_idle.val() {
            if self.gap_wait.q.val().any() {
                self.gap_wait.d.next = (self.gap_wait.q.val() - 1);
            } else if (self.s_axis.tvalid.val() && !self.pause.val()) {
                self.kind_n.next = self.k_pre.val();
                self.s0_n.next = self.next_s.q.val();
                self.st.d.next = self.k_st_data.val();
                self.nwords.d.next = 0.into();
            } else {
                self.next_s.d.next = false;
                self.deficit.d.next = 0.into();
            }
        } else if self.st.q.val() == self.k_st_data.val() {
            if (!self.s_axis.tvalid.val()
                || (self.s_axis.tlast.val()
                    && (self.s_axis.tuser.val().any() || !self.keep.n.val().any())))
            {
                self.abort_n.next = true;
                if self.s_axis.tvalid.val() {
                    self.st.d.next = self.k_st_idle.val();
                } else {
                    self.st.d.next = self.k_st_drain.val();
                }
            } else if self.s_axis.tlast.val() {
                self.kind_n.next = self.k_data.val();
                self.data_n.next = (self.s_axis.tdata.val() & self.keep.mask.val());
                if self.nwords_lt7.val() {
                    self.n_n.next = 8.into();
                    self.nwords.d.next = (self.nwords.q.val() + 1);
                    self.st.d.next = self.k_st_pad.val();
                } else {
                    if ((self.nwords.q.val() == self.k_seven.val()) && (self.keep.n.val() < 4)) {
                        self.n_n.next = 4.into();
                    } else {
                        self.n_n.next = self.keep.n.val();
                    }
                    self.last_n.next = true;
                }
            } else {
                self.kind_n.next = self.k_data.val();
                self.data_n.next = self.s_axis.tdata.val();
                self.n_n.next = 8.into();
                if (self.nwords.q.val() != self.k_max_words.val()) {
                    self.nwords.d.next = (self.nwords.q.val() + 1);
                }
            }
        } else if self.st.q.val() == self.k_st_pad.val() {
            self.kind_n.next = self.k_data.val();
            if (self.nwords.q.val() == self.k_seven.val()) {
                self.n_n.next = 4.into();
                self.last_n.next = true;
            } else {
                self.n_n.next = 8.into();
                self.nwords.d.next = (self.nwords.q.val() + 1);
            }
        } else {
            if self.gap_wait.q.val().any() {
                self.gap_wait.d.next = (self.gap_wait.q.val() - 1);
            } else {
                self.next_s.d.next = false;
                self.deficit.d.next = 0.into();
            }
            if (self.s_axis.tvalid.val() && self.s_axis.tlast.val()) {
                self.st.d.next = self.k_st_idle.val();
            }
        }
        if self.abort_n.val() {
            self.kind_n.next = self.k_abort.val();
            self.do_gap.next = true;
            self.g_n.next = 4.into();
            self.n_aborts.d.next = (self.n_aborts.q.val() + 1);
        }
        // A frame sent is counted a cycle later, from registers (the sum
        // is off the framer's decision path): its last word's bytes are in
        // f_n, and nwords holds until the next frame starts.
        self.done_v.d.next = self.last_n.val();
        if self.done_v.q.val() {
            self.n_frames.d.next = (self.n_frames.q.val() + 1);
            self.n_bytes.d.next = (self.n_bytes.q.val()
                + (bit_cast::<32, 13>(self.nwords.q.val()) << 3)
                + bit_cast::<32, 4>(self.f_n.q.val())
                + 4);
        }
        if self.last_n.val() {
            self.do_gap.next = true;
            self.g_n.next = self.n_n.val();
            self.st.d.next = self.k_st_idle.val();
        }
        // ---- The gap after this frame (deficit idle count) ---------------
        self.gap.deficit.next = self.deficit.q.val();
        self.gap.s0.next = self.s0.q.val();
        self.gap.n.next = self.g_n.val();
        if self.do_gap.val() {
            self.gap_wait.d.next = self.gap.idle_words.val();
            self.next_s.d.next = self.gap.next_s.val();
            self.deficit.d.next = self.gap.deficit_next.val();
        }
        self.f_kind.d.next = self.kind_n.val();
        self.f_data.d.next = self.data_n.val();
        self.f_n.d.next = self.n_n.val();
        self.f_last.d.next = self.last_n.val();
        self.s0.d.next = self.s0_n.val();
        self.f_s0.d.next = self.s0_n.val();
        // ---- Reset ---------------------------------------------------------
        if self.reset.val() {
            self.st.d.next = self.k_st_idle.val();
            self.gap_wait.d.next = 0.into();
            self.next_s.d.next = false;
            self.deficit.d.next = 0.into();
            self.s0.d.next = false;
            self.nwords.d.next = 0.into();
            self.crc.d.next = 0.into();
            self.f_kind.d.next = self.k_none.val();
            self.f_data.d.next = 0.into();
            self.f_n.d.next = 0.into();
            self.f_last.d.next = false;
            self.f_s0.d.next = false;
            self.cs_kind.d.next = self.k_none.val();
            self.cs_data.d.next = 0.into();
            self.cs_n.d.next = 0.into();
            self.cs_last.d.next = false;
            self.cs_s0.d.next = false;
            self.cs_dpart.d.next = 0.into();
            self.rh_kind.d.next = self.k_none.val();
            self.rh_data.d.next = 0.into();
            self.rh_n.d.next = 0.into();
            self.rh_last.d.next = false;
            self.rh_s0.d.next = false;
            self.rh_back.d.next = 0.into();
            self.rl_kind.d.next = self.k_none.val();
            self.rl_data.d.next = 0.into();
            self.rl_n.d.next = 0.into();
            self.rl_last.d.next = false;
            self.rl_s0.d.next = false;
            self.rl_back.d.next = 0.into();
            self.crc_half.d.next = 0.into();
            self.fcs_state.d.next = 0.into();
            self.enc_kind.d.next = self.k_none.val();
            self.enc_data.d.next = 0.into();
            self.enc_n.d.next = 0.into();
            self.enc_last.d.next = false;
            self.enc_s0.d.next = false;
            self.spill_v.d.next = false;
            self.spill_n.d.next = 0.into();
            self.spill_fcs.d.next = 0.into();
            self.swap.d.next = false;
            self.carry_d.d.next = self.k_idle_half.val();
            self.carry_c.d.next = 0xF.into();
            self.txd.d.next = self.k_idle_word.val();
            self.txc.d.next = 0xFF.into();
            self.done_v.d.next = false;
            self.n_frames.d.next = 0.into();
            self.n_bytes.d.next = 0.into();
            self.n_aborts.d.next = 0.into();
        }
        self.xgmii_txd.next = self.txd.q.val();
        self.xgmii_txc.next = self.txc.q.val();
        self.m_stats.frames.next = self.n_frames.q.val();
        self.m_stats.bytes.next = self.n_bytes.q.val();
        self.m_stats.aborts.next = self.n_aborts.q.val();
    }
}
