//! `hdl/src/roce/crc32.rs` against `nic_golden::roce::crc32`, through a
//! one-register test bench (`nic_testbench::roce::Crc32Tb`).

use crate::common::*;
use nic_golden::roce::crc32::{Crc32x64, In, Out};
use nic_golden::{Cycle, Pipe};
use nic_testbench::roce::Crc32Tb;
use proptest::prelude::*;

/// The golden block behind the test bench's output register.
struct Golden {
    crc: Crc32x64,
    reg: Pipe<Out>,
}

impl Default for Golden {
    fn default() -> Self {
        Self {
            crc: Crc32x64,
            reg: Pipe::new(1),
        }
    }
}

impl Cycle for Golden {
    type In = In;
    type Out = Out;
    fn step(&mut self, i: &In) -> Out {
        let o = self.crc.step(i);
        self.reg.shift(o)
    }
}

fn stim(len: usize) -> impl Strategy<Value = Vec<In>> {
    prop::collection::vec(
        (operand(32), operand(64), 0u8..16).prop_map(|(c, d, n)| In {
            crc_in: c as u32,
            data: d,
            nbytes: n,
        }),
        1..len,
    )
}

proptest! {
    #![proptest_config(config(32))]
    /// Both engines: every byte count 0..=15 (9..=15 act as 8), random
    /// registers and data.
    #[test]
    fn crc32_matches_golden(s in stim(400)) {
        both::<Crc32Tb, Golden>("crc32x64", &s)?;
    }
}

/// A frame's CRC through the RTL (Verilator), eight bytes a cycle with a
/// short last word, equals the `crc32fast` crate's.
#[test]
fn crc32_of_a_frame_equals_crc32fast() {
    use nic_testbench::{check, EngineKind};
    for len in [1usize, 7, 8, 9, 61, 1500] {
        let bytes: Vec<u8> = (0..len).map(|k| (k * 37 + len) as u8).collect();
        // Feed the register back: one word per two cycles (the bench's
        // latency is 1), so drive each word's register from the golden
        // step of the previous word and compare the last output.
        let mut crc = 0xFFFF_FFFFu32;
        let mut stim = Vec::new();
        for chunk in bytes.chunks(8) {
            let mut w = [0u8; 8];
            w[..chunk.len()].copy_from_slice(chunk);
            let i = In {
                crc_in: crc,
                data: u64::from_le_bytes(w),
                nbytes: chunk.len() as u8,
            };
            crc = nic_golden::roce::crc32::step(i.crc_in, i.data, i.nbytes as u32);
            stim.push(i);
        }
        stim.push(In::default());
        let outs = check::<Crc32Tb, Golden>(
            "crc32x64_frame",
            EngineKind::Verilator,
            Golden::default(),
            &stim,
        )
        .unwrap_or_else(|m| panic!("{m}"));
        assert_eq!(
            !outs.last().unwrap().crc_out,
            crc32fast::hash(&bytes),
            "len {len}"
        );
    }
}

/// Four-state: no X on the output.
#[test]
fn crc32_no_x_in_four_state_simulation() {
    let s = sample(stim(200));
    four_state::<Crc32Tb, Golden>("crc32x64", &s);
}
