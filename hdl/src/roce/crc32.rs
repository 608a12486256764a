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

/// The Verilog XOR expression of output bit `j` after `n` bytes.
fn xor_terms(j: usize, n: u32) -> String {
    let mut terms = Vec::new();
    for i in 0..32 {
        if (step(1 << i, 0, n) >> j) & 1 != 0 {
            terms.push(format!("crc_in[{i}]"));
        }
    }
    for i in 0..(8 * n as usize) {
        if (step(0, 1u64 << i, n) >> j) & 1 != 0 {
            terms.push(format!("data[{i}]"));
        }
    }
    if terms.is_empty() {
        "1'b0".to_string()
    } else {
        terms.join(" ^ ")
    }
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
        let mut v =
            String::from("always @(*) begin\n  case (nbytes)\n    4'd0: crc_out = crc_in;\n");
        for n in 1..=8u32 {
            let label = if n == 8 {
                "default".to_string()
            } else {
                format!("4'd{n}")
            };
            v.push_str(&format!("    {label}: begin\n"));
            for j in 0..32 {
                v.push_str(&format!("      crc_out[{j}] = {};\n", xor_terms(j, n)));
            }
            v.push_str("    end\n");
        }
        v.push_str("  endcase\nend\n");
        Verilog::Custom(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn check_value() {
        // "12345678" then "9": the CRC-32 catalogue's check value.
        let d = u64::from_le_bytes(*b"12345678");
        let c = step(step(0xFFFF_FFFF, d, 8), b'9' as u64, 1);
        assert_eq!(!c, 0xCBF4_3926);
    }
}
