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

// The arithmetic the blocks are generated from (`step`, `unstep_zero`,
// `fcs_target`), against the CRC-32 catalogue and each other.

mod arithmetic {
    use nic_hdl::roce::crc32::{fcs_target, fcs_target_split, lanes, step, unstep_zero};

    /// The tests' pseudo-random sequence (Knuth's MMIX LCG).
    fn lcg(x: u64) -> u64 {
        x.wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407)
    }

    #[test]
    fn check_value() {
        // "12345678" then "9": the CRC-32 catalogue's check value.
        let d = u64::from_le_bytes(*b"12345678");
        let c = step(step(0xFFFF_FFFF, d, 8), b'9' as u64, 1);
        assert_eq!(!c, 0xCBF4_3926);
    }

    /// The split that `Crc32Data64` and `Crc32Advance` rely on.
    #[test]
    fn step_is_linear() {
        let mut x = 0x1234_5678_9abc_def0u64;
        for k in 0..200u64 {
            x = lcg(x);
            let (c, d, n) = ((x >> 32) as u32, x.rotate_left(17), (k % 10) as u32);
            assert_eq!(step(c, 0, n) ^ step(0, d, n), step(c, d, n));
        }
    }

    /// A whole word with zero lanes after its bytes, rewound over them
    /// in the transmitter's two steps (by 4s, then by 1s), is the step
    /// over the bytes alone.
    #[test]
    fn a_whole_word_rewound_is_the_partial_step() {
        let mut x = 0x5eed_f00d_8badu64;
        for k in 0..900u64 {
            x = lcg(x);
            let (c, d, n) = ((x >> 32) as u32, x.rotate_left(29), (k % 9) as u32);
            let whole = step(c, 0, 8) ^ step(0, lanes(d, n), 8);
            let back = 8 - n;
            let hi = unstep_zero(whole, 4 * (back >> 2));
            assert_eq!(unstep_zero(hi, back & 3), step(c, d, n));
        }
    }

    /// `unstep_zero` inverts the zero-byte advance; the FCS target is the
    /// one register value whose step ends at the residue; the split form
    /// the Verilog uses equals it.
    #[test]
    fn fcs_target_is_the_register_that_passes() {
        let mut x = 0x0bad_cafe_1234_5678u64;
        for k in 0..900u64 {
            x = lcg(x);
            let (c, d, n) = ((x >> 32) as u32, x.rotate_left(23), (k % 10) as u32);
            assert_eq!(step(unstep_zero(c, n), 0, n), c);
            let t = fcs_target(d, n);
            assert_eq!(fcs_target_split(d, n), t);
            assert_eq!(step(t, d, n), nic_spec::mac::FCS_RESIDUE);
            assert_eq!(step(c, d, n) == nic_spec::mac::FCS_RESIDUE, c == t);
        }
    }
}
