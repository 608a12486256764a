//! The ICRC's CRC-32, up to eight bytes per cycle (combinational).
//!
//! What it does: advances a running CRC-32 register by the bytes in lanes
//! `0..nbytes` of a 64-bit word, lane 0 first. CRC-32 as in Ethernet's FCS
//! and zlib (reflected, polynomial 0xEDB88320); the caller starts the
//! register at 0xFFFFFFFF and complements the final value (`docs/roce.md`
//! §3, §5).
//!
//! Ports:
//! - `crc_in: Bits<32>`: the running register;
//! - `data: Bits<64>`: byte k in bits 8k+7..8k;
//! - `nbytes: Bits<4>`: how many lanes to take, 0..=8; 9..=15 act as 8
//!   (defined behaviour on out-of-range input), 0 passes `crc_in` through;
//! - `crc_out: Bits<32>`: the register after those bytes.
//!
//! Latency 0 (combinational: register its inputs or outputs in the
//! parent), throughput one word per cycle.
//!
//! Implementation: one XOR network per byte count, selected by `nbytes`.
//! The networks are the CRC's matrices, computed when the Verilog is
//! emitted (the register update is linear in the register and the data),
//! and written as this block's own Verilog body, like rust-hdl's `DFF` and
//! `RAM` widgets write theirs. rust-hdl's simulator runs the byte-serial
//! definition instead ([`step`]); both are checked against the golden twin
//! (`nic_golden::roce::crc32`) by co-simulation on both engines.

use rust_hdl::prelude::*;

/// Reflected CRC-32 polynomial (IEEE 802.3).
const POLY: u32 = 0xEDB8_8320;

/// The byte-serial definition: lanes `0..nbytes` of `data` into `crc`.
pub fn step(mut crc: u32, data: u64, nbytes: u32) -> u32 {
    for k in 0..nbytes.min(8) {
        crc ^= ((data >> (8 * k)) & 0xFF) as u32;
        for _ in 0..8 {
            crc = if crc & 1 != 0 {
                (crc >> 1) ^ POLY
            } else {
                crc >> 1
            };
        }
    }
    crc
}

/// The XOR terms of output bit `j` after `n` bytes, from the register
/// (`crc_in`) and/or the data (`data`).
fn terms(j: usize, n: u32, from_crc: bool, from_data: bool) -> String {
    let mut terms = Vec::new();
    if from_crc {
        for i in 0..32 {
            if (step(1 << i, 0, n) >> j) & 1 != 0 {
                terms.push(format!("crc_in[{i}]"));
            }
        }
    }
    if from_data {
        for i in 0..(8 * n as usize) {
            if (step(0, 1u64 << i, n) >> j) & 1 != 0 {
                terms.push(format!("data[{i}]"));
            }
        }
    }
    if terms.is_empty() {
        "1'b0".to_string()
    } else {
        terms.join(" ^ ")
    }
}

/// One `case (nbytes)` over the byte counts 0..=8 (9..=15 act as 8),
/// assigning `out` from the XOR networks; `zero` is the count-0 value.
fn case_body(out: &str, zero: &str, from_crc: bool, from_data: bool) -> String {
    let mut v = format!("always @(*) begin\n  case (nbytes)\n    4'd0: {out} = {zero};\n");
    for n in 1..=8u32 {
        let label = if n == 8 {
            "default".to_string()
        } else {
            format!("4'd{n}")
        };
        v.push_str(&format!("    {label}: begin\n"));
        for j in 0..32 {
            v.push_str(&format!(
                "      {out}[{j}] = {};\n",
                terms(j, n, from_crc, from_data)
            ));
        }
        v.push_str("    end\n");
    }
    v.push_str("  endcase\nend\n");
    v
}

#[derive(LogicBlock, Default)]
pub struct Crc32x64 {
    pub crc_in: Signal<In, Bits<32>>,
    pub data: Signal<In, Bits<64>>,
    pub nbytes: Signal<In, Bits<4>>,
    pub crc_out: Signal<Out, Bits<32>>,
}

impl Logic for Crc32x64 {
    fn update(&mut self) {
        let n = (self.nbytes.val().index() as u32).min(8);
        let d = self.data.val().to_u64();
        let c = self.crc_in.val().to_u32();
        self.crc_out.next = Bits::<32>::from(step(c, d, n) as u64);
    }

    fn connect(&mut self) {
        self.crc_out.connect();
    }

    fn hdl(&self) -> Verilog {
        Verilog::Custom(case_body("crc_out", "crc_in", true, true))
    }
}

/// The data part of a CRC-32 step (combinational): `part` =
/// `step(0, data, nbytes)`, what the bytes in lanes `0..nbytes` add to
/// the register. With [`Crc32Advance`] it splits a step by linearity,
/// `step(c, d, n) = step(c, 0, n) ^ step(0, d, n)`, so the data part can
/// be computed (and registered) a cycle before the register's loop takes
/// it in: the loop is then only the register's own network.
///
/// Ports: `data: Bits<64>` (byte k in bits 8k+7..8k), `nbytes: Bits<4>`
/// (0..=8; 9..=15 act as 8), `part: Bits<32>` (0 for `nbytes` 0).
/// Latency 0.
#[derive(LogicBlock, Default)]
pub struct Crc32Data64 {
    pub data: Signal<In, Bits<64>>,
    pub nbytes: Signal<In, Bits<4>>,
    pub part: Signal<Out, Bits<32>>,
}

impl Logic for Crc32Data64 {
    fn update(&mut self) {
        let n = (self.nbytes.val().index() as u32).min(8);
        let d = self.data.val().to_u64();
        self.part.next = Bits::<32>::from(step(0, d, n) as u64);
    }

    fn connect(&mut self) {
        self.part.connect();
    }

    fn hdl(&self) -> Verilog {
        Verilog::Custom(case_body("part", "32'h0", false, true))
    }
}

/// The register part of a CRC-32 step (combinational): `crc_out` =
/// `step(crc_in, 0, nbytes)`, the register advanced over `nbytes` zero
/// bytes; XOR a [`Crc32Data64`]'s `part` to finish the step.
///
/// Ports: `crc_in: Bits<32>`, `nbytes: Bits<4>` (0..=8; 9..=15 act as 8;
/// 0 passes `crc_in` through), `crc_out: Bits<32>`. Latency 0.
#[derive(LogicBlock, Default)]
pub struct Crc32Advance {
    pub crc_in: Signal<In, Bits<32>>,
    pub nbytes: Signal<In, Bits<4>>,
    pub crc_out: Signal<Out, Bits<32>>,
}

impl Logic for Crc32Advance {
    fn update(&mut self) {
        let n = (self.nbytes.val().index() as u32).min(8);
        let c = self.crc_in.val().to_u32();
        self.crc_out.next = Bits::<32>::from(step(c, 0, n) as u64);
    }

    fn connect(&mut self) {
        self.crc_out.connect();
    }

    fn hdl(&self) -> Verilog {
        Verilog::Custom(case_body("crc_out", "crc_in", true, false))
    }
}

/// One byte into a CRC-32 register (combinational): `crc_out` =
/// `step(crc_in, data, 1)`, for the 1G MAC's byte-wide FCS.
///
/// Ports: `crc_in: Bits<32>`, `data: Bits<8>`, `crc_out: Bits<32>`.
/// Latency 0; its Verilog is one XOR network (the byte matrix of the same
/// generator as [`Crc32x64`]).
#[derive(LogicBlock, Default)]
pub struct Crc32x8 {
    pub crc_in: Signal<In, Bits<32>>,
    pub data: Signal<In, Bits<8>>,
    pub crc_out: Signal<Out, Bits<32>>,
}

impl Logic for Crc32x8 {
    fn update(&mut self) {
        let d = self.data.val().to_u64();
        let c = self.crc_in.val().to_u32();
        self.crc_out.next = Bits::<32>::from(step(c, d, 1) as u64);
    }

    fn connect(&mut self) {
        self.crc_out.connect();
    }

    fn hdl(&self) -> Verilog {
        let mut v = String::from("always @(*) begin\n");
        for j in 0..32 {
            v.push_str(&format!("  crc_out[{j}] = {};\n", terms(j, 1, true, true)));
        }
        v.push_str("end\n");
        Verilog::Custom(v)
    }
}

/// The inverse of `n` zero bytes: `step(unstep_zero(c, n), 0, n) == c`
/// (each zero-bit step is invertible: its result has bit 31 set exactly
/// when the register's bit 0 was set, since the polynomial has bit 31).
pub fn unstep_zero(mut crc: u32, nbytes: u32) -> u32 {
    for _ in 0..(8 * nbytes.min(8)) {
        crc = if crc & 0x8000_0000 != 0 {
            ((crc ^ POLY) << 1) | 1
        } else {
            crc << 1
        };
    }
    crc
}

/// The register value, before a frame's last `nbytes` bytes (`data`),
/// that makes the frame's FCS check pass: `step(c, data, nbytes)` equals
/// the residue exactly when `c == fcs_target(data, nbytes)` (by
/// linearity, `c = unstep_zero(residue ^ step(0, data, n), n)`).
pub fn fcs_target(data: u64, nbytes: u32) -> u32 {
    let n = nbytes.min(8);
    unstep_zero(nic_spec::mac::FCS_RESIDUE ^ step(0, data, n), n)
}

/// The data lanes `0..n` of `data` (the others zero).
pub fn lanes(data: u64, n: u32) -> u64 {
    if n >= 8 {
        data
    } else {
        data & ((1u64 << (8 * n)) - 1)
    }
}

/// [`fcs_target`] as the Verilog computes it, with no network per byte
/// count: `K_n ^ Q(lanes(data, n))`, where `Q = M^-8 . step(0, ., 8)` is
/// one fixed linear map and `K_n = unstep_zero(residue, n)` a constant.
/// (`step(0, d, n) = M^-(8-n) step(0, lanes(d, n), 8)`: the `8 - n` zero
/// lanes after the bytes only advance the register; so
/// `M^-n (R ^ step(0, d, n)) = M^-n R ^ M^-8 step(0, lanes(d, n), 8)`.)
pub fn fcs_target_split(data: u64, nbytes: u32) -> u32 {
    let n = nbytes.min(8);
    unstep_zero(nic_spec::mac::FCS_RESIDUE, n) ^ unstep_zero(step(0, lanes(data, n), 8), 8)
}

/// The FCS check's target for a frame's last, partial word
/// (combinational): `target` = [`fcs_target`]`(data, nbytes)`. With it
/// the 10G receiver's CRC register only ever takes whole words (fixed
/// networks, no byte-count select, in its loop and in the data part):
/// the last word's bytes are not taken in, and the register is compared
/// with this target instead of the residue after them. It is computed a
/// stage ahead, from the data alone.
///
/// Ports: `data: Bits<64>`, `nbytes: Bits<4>` (0..=8; 9..=15 act as 8;
/// 0 gives the residue), `target: Bits<32>`. Latency 0. Verilog: the
/// data masked to its `nbytes` lanes into one fixed XOR network, then a
/// constant per byte count ([`fcs_target_split`]).
#[derive(LogicBlock, Default)]
pub struct Crc32FcsTarget64 {
    pub data: Signal<In, Bits<64>>,
    pub nbytes: Signal<In, Bits<4>>,
    pub target: Signal<Out, Bits<32>>,
}

impl Logic for Crc32FcsTarget64 {
    fn update(&mut self) {
        let n = (self.nbytes.val().index() as u32).min(8);
        let d = self.data.val().to_u64();
        self.target.next = Bits::<32>::from(fcs_target(d, n) as u64);
    }

    fn connect(&mut self) {
        self.target.connect();
    }

    fn hdl(&self) -> Verilog {
        let q = |d: u64| unstep_zero(step(0, d, 8), 8);
        let mut v = String::from("reg [63:0] dm;\nreg [31:0] k;\nalways @(*) begin\n");
        // Lane by lane (a shifted mask minus one would be a 64-bit carry
        // chain).
        for k in 0..8 {
            v.push_str(&format!(
                "  dm[{}:{}] = (nbytes > 4'd{k}) ? data[{}:{}] : 8'h00;\n",
                8 * k + 7,
                8 * k,
                8 * k + 7,
                8 * k
            ));
        }
        v.push_str("  case (nbytes)\n");
        for n in 0..=8u32 {
            let label = if n == 8 {
                "default".to_string()
            } else {
                format!("4'd{n}")
            };
            let k = unstep_zero(nic_spec::mac::FCS_RESIDUE, n);
            v.push_str(&format!("    {label}: k = 32'h{k:08x};\n"));
        }
        v.push_str("  endcase\n");
        for j in 0..32 {
            let t: Vec<String> = (0..64)
                .filter(|&i| (q(1u64 << i) >> j) & 1 != 0)
                .map(|i| format!("dm[{i}]"))
                .collect();
            v.push_str(&format!("  target[{j}] = k[{j}] ^ {};\n", t.join(" ^ ")));
        }
        v.push_str("end\n");
        Verilog::Custom(v)
    }
}

/// The CRC register rewound over `STEP × sel` zero bytes
/// (combinational): `crc_out` = [`unstep_zero`]`(crc_in, STEP × sel)`.
///
/// What it is for: a word whose lanes `n..8` are zero advances the
/// register as its `n` bytes and then `8 - n` zero bytes, so rewinding
/// those zero bytes gives the register after the bytes alone
/// (`unstep_zero(step(c, lanes(d, n), 8), 8 - n) == step(c, d, n)`).
/// With it the 10G transmitter's CRC register takes whole words only (a
/// fixed network in its loop and in its data part), and a frame's last
/// word is corrected after the loop in two stages of their own:
/// `Crc32Rewind<4>` (0, 4 or 8 bytes) then `Crc32Rewind<1>` (0..=3).
///
/// Ports: `crc_in: Bits<32>`, `sel: Bits<2>` (0 passes `crc_in`
/// through), `crc_out: Bits<32>`. Latency 0. Verilog: one XOR network
/// (the inverse zero-byte matrix) per `sel`, selected by it: a 4-way
/// choice, so each stage is a few LUT levels. `STEP × 3` over 8 acts as 8
/// (defined behaviour; the transmitter never asks for it).
#[derive(LogicBlock, Default)]
pub struct Crc32Rewind<const STEP: usize> {
    pub crc_in: Signal<In, Bits<32>>,
    pub sel: Signal<In, Bits<2>>,
    pub crc_out: Signal<Out, Bits<32>>,
}

impl<const STEP: usize> Logic for Crc32Rewind<STEP> {
    fn update(&mut self) {
        let k = (STEP as u32) * (self.sel.val().index() as u32);
        let c = self.crc_in.val().to_u32();
        self.crc_out.next = Bits::<32>::from(unstep_zero(c, k) as u64);
    }

    fn connect(&mut self) {
        self.crc_out.connect();
    }

    fn hdl(&self) -> Verilog {
        let mut v = String::from("always @(*) begin\n  case (sel)\n    2'd0: crc_out = crc_in;\n");
        for sel in 1..=3u32 {
            let k = (STEP as u32) * sel;
            let label = if sel == 3 {
                "default".to_string()
            } else {
                format!("2'd{sel}")
            };
            v.push_str(&format!("    {label}: begin\n"));
            for j in 0..32 {
                let t: Vec<String> = (0..32)
                    .filter(|&i| (unstep_zero(1 << i, k) >> j) & 1 != 0)
                    .map(|i| format!("crc_in[{i}]"))
                    .collect();
                let rhs = if t.is_empty() {
                    "1'b0".to_string()
                } else {
                    t.join(" ^ ")
                };
                v.push_str(&format!("      crc_out[{j}] = {rhs};\n"));
            }
            v.push_str("    end\n");
        }
        v.push_str("  endcase\nend\n");
        Verilog::Custom(v)
    }
}
