//! `hdl/src/mem/fifo.rs` against `nic_golden::mem::fifo`.

use crate::common::*;
use nic_golden::mem::fifo::{Fifo as Golden, In};
use nic_golden::Cycle;
use nic_hdl::mem::Fifo;
use proptest::prelude::*;

/// Random pushes and pops; `fill` and `drain` bias the occupancy so both
/// the empty and the full (ignored push) ends are reached.
fn stim(len: usize) -> impl Strategy<Value = Vec<In>> {
    (0u32..=100, 0u32..=100).prop_flat_map(move |(pp, qp)| {
        prop::collection::vec(
            (chance(pp), operand(16), chance(qp)).prop_map(|(push, d, pop)| In {
                push,
                push_data: d as u128,
                pop,
            }),
            1..len,
        )
    })
}

proptest! {
    #![proptest_config(config(48))]
    /// Both engines, every port every cycle; 8 words of RAM so that
    /// overflow (ignored pushes) is common.
    #[test]
    fn fifo_matches_golden(s in stim(300)) {
        both::<Fifo<16, 3>, Golden<16, 3>>("fifo16x8", &s)?;
    }
}

/// The golden FIFO is a FIFO: words come out in push order, none lost
/// while under capacity, and a pop every cycle is sustained.
#[test]
fn fifo_order_latency_and_throughput() {
    let mut f = Golden::<16, 4>::default();
    let mut out = Vec::new();
    // Push 0..12 back to back, then pop every cycle.
    for c in 0..40u32 {
        let i = In {
            push: c < 12,
            push_data: c as u128,
            pop: true,
        };
        let o = f.step(&i);
        if o.head_valid {
            out.push((c, o.head_data));
        }
    }
    assert_eq!(out.first(), Some(&(3, 0)), "latency 3");
    let words: Vec<u128> = out.iter().map(|x| x.1).collect();
    assert_eq!(words, (0..12).collect::<Vec<u128>>());
    // One word per cycle once it started.
    assert!(out.windows(2).all(|w| w[1].0 == w[0].0 + 1), "{out:?}");
}

/// Four-state: no X on the ports.
#[test]
fn fifo_no_x_in_four_state_simulation() {
    let s = sample(stim(300));
    four_state::<Fifo<16, 3>, Golden<16, 3>>("fifo16x8", &s);
}
