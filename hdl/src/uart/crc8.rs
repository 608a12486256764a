//! One byte into a running CRC-8 (`nic_spec::uart::crc8_byte`:
//! x^8 + x^2 + x + 1, MSB first), combinational.
//!
//! Ports: `crc_in: Bits<8>` (the running register), `data: Bits<8>`
//! (the byte), `crc_out: Bits<8>` (the register after it). Latency 0,
//! a byte per cycle.
//!
//! Implementation: the step is linear in `crc_in ^ data`, so each output
//! bit is an XOR of those bits; the network is computed from the spec's
//! definition when the Verilog is emitted and written as this block's
//! own body (as `crate::roce::crc32` does). rust-hdl's simulator runs the
//! spec's definition. Both are checked against the golden twin
//! (`nic_golden::uart::crc8`, the `crc` crate's CRC-8/SMBUS) on both
//! engines inside `UartAxil`'s tests.
//!
//! Bad input: none (every value is a byte).

use nic_spec::uart::crc8_byte;
use rust_hdl::prelude::*;

#[derive(LogicBlock, Default)]
pub struct Crc8Step {
    pub crc_in: Signal<In, Bits<8>>,
    pub data: Signal<In, Bits<8>>,
    pub crc_out: Signal<Out, Bits<8>>,
}

/// The XOR terms of output bit `j`.
fn terms(j: usize) -> String {
    let t: Vec<String> = (0..8)
        .filter(|&i| (crc8_byte(1 << i, 0) >> j) & 1 != 0)
        .map(|i| format!("(crc_in[{i}] ^ data[{i}])"))
        .collect();
    if t.is_empty() {
        "1'b0".to_string()
    } else {
        t.join(" ^ ")
    }
}

impl Logic for Crc8Step {
    fn update(&mut self) {
        let c = self.crc_in.val().index() as u8;
        let d = self.data.val().index() as u8;
        self.crc_out.next = Bits::<8>::from(crc8_byte(c, d) as u64);
    }

    fn connect(&mut self) {
        self.crc_out.connect();
    }

    fn hdl(&self) -> Verilog {
        let mut v = String::from("always @(*) begin\n");
        for j in 0..8 {
            v.push_str(&format!("  crc_out[{j}] = {};\n", terms(j)));
        }
        v.push_str("end\n");
        Verilog::Custom(v)
    }
}
