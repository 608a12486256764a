//! `hdl/src/roce/op_decode.rs` against `nic_golden::roce::op_decode`
//! (both from `nic_spec::roce`'s table), through a one-register test bench
//! (`nic_testbench::roce::OpDecodeTb`): every opcode 0..=255 on both
//! engines, then random sequences.

use crate::common::*;
use nic_golden::roce::op_decode::{In, OpDecode, Out};
use nic_golden::{Cycle, Pipe};
use nic_spec::roce::op;
use nic_testbench::roce::OpDecodeTb;
use proptest::prelude::*;

/// The golden decoder behind the test bench's output registers.
struct Golden {
    dec: OpDecode,
    reg: Pipe<Out>,
}

impl Default for Golden {
    fn default() -> Self {
        Self {
            dec: OpDecode,
            reg: Pipe::new(1),
        }
    }
}

impl Cycle for Golden {
    type In = In;
    type Out = Out;
    fn step(&mut self, i: &In) -> Out {
        let o = self.dec.step(i);
        self.reg.shift(o)
    }
}

#[test]
fn op_decode_every_opcode_both_engines() {
    let s: Vec<In> = (0..=255u8).chain([0]).map(|op| In { op }).collect();
    let outs = both::<OpDecodeTb, Golden>("op_decode", &s).unwrap();
    // Independently of the spec's functions: exactly the table is known,
    // and a few classes by hand.
    let known: Vec<u8> = (0..=255u8)
        .filter(|&o| outs[o as usize + 1].known)
        .collect();
    let mut table = op::ALL.to_vec();
    table.sort();
    assert_eq!(known, table);
    for (o, reth) in [
        (0x06, true),
        (0x07, false),
        (0x0A, true),
        (0x0C, true),
        (0x11, false),
        (0x81, true),
    ] {
        assert_eq!(outs[o + 1].reth, reth, "RETH of {o:#04x}");
    }
    assert!(outs[0xC0 + 1].hpcc && outs[0xC1 + 1].hpcc && !outs[0x11 + 1].hpcc);
    assert!(outs[0x81 + 1].cnp && !outs[0x81 + 1].pay && !outs[0x11 + 1].cnp);
    assert!(outs[0x10 + 1].only && outs[0x0A + 1].only && !outs[0x08 + 1].only);
}

proptest! {
    #![proptest_config(config(16))]
    #[test]
    fn op_decode_matches_golden(ops in prop::collection::vec(any::<u8>(), 1..200)) {
        let s: Vec<In> = ops.into_iter().map(|op| In { op }).collect();
        both::<OpDecodeTb, Golden>("op_decode_random", &s)?;
    }
}
