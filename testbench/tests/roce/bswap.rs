//! `hdl/src/roce/bswap.rs` (a hand-written Verilog body) against
//! `nic_golden::roce::bswap`, through a one-register test bench
//! (`nic_testbench::roce::Bswap64Tb`), on both engines.

use crate::common::*;
use nic_golden::roce::bswap::{Bswap64, In, Out};
use nic_golden::{Cycle, Pipe};
use nic_testbench::roce::Bswap64Tb;
use proptest::prelude::*;

/// The golden block behind the test bench's output register.
struct Golden {
    swap: Bswap64,
    reg: Pipe<Out>,
}

impl Default for Golden {
    fn default() -> Self {
        Self {
            swap: Bswap64,
            reg: Pipe::new(1),
        }
    }
}

impl Cycle for Golden {
    type In = In;
    type Out = Out;
    fn step(&mut self, i: &In) -> Out {
        let o = self.swap.step(i);
        self.reg.shift(o)
    }
}

/// Every byte lane alone, on both engines; and by hand: byte k of the
/// input is byte 7 − k of the output.
#[test]
fn bswap_every_lane_both_engines() {
    let s: Vec<In> = (0..64)
        .map(|b| In { x: 1u64 << b })
        .chain([
            In {
                x: 0x0102_0304_0506_0708,
            },
            In { x: 0 },
        ])
        .collect();
    let outs = both::<Bswap64Tb, Golden>("bswap64", &s).unwrap();
    // Output k is input k − 1 (one register).
    assert_eq!(outs[65].y, 0x0807_0605_0403_0201);
    for b in 0..64 {
        assert_eq!(outs[b + 1].y, 1u64 << (8 * (7 - b / 8) + b % 8));
    }
}

proptest! {
    #![proptest_config(config(16))]
    #[test]
    fn bswap_matches_golden(xs in prop::collection::vec(operand(64), 1..200)) {
        let s: Vec<In> = xs.into_iter().map(|x| In { x }).collect();
        both::<Bswap64Tb, Golden>("bswap64_random", &s)?;
    }
}
