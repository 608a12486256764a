//! `hdl/src/board/reset_sync.rs` against `nic_golden::board::reset_sync`.
//!
//! Random reset pulses of every length from one cycle up; a check of its
//! own on the twin: `rst` is high at configuration and in the first two
//! cycles, then equals `rst_in` of two cycles before. Replayed on both
//! engines.

use crate::common::*;
use nic_golden::board::reset_sync::{In, ResetSync as Golden};
use nic_golden::Cycle;
use nic_hdl::board::ResetSync;
use proptest::prelude::*;
use rand::{rngs::StdRng, Rng, SeedableRng};

fn stimulus(seed: u64, n: usize) -> Vec<In> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut dut = Golden::default();
    let mut rec: Vec<In> = Vec::with_capacity(n);
    let mut rst_in = rng.gen_bool(0.5);
    for t in 0..n {
        if rng.gen_bool(0.2) {
            rst_in = !rst_in;
        }
        let i = In { rst_in };
        rec.push(i);
        let o = dut.step(&i);
        let want = if t < 2 { true } else { rec[t - 2].rst_in };
        assert_eq!(o.rst, want, "seed {seed} cycle {t}");
    }
    rec
}

proptest! {
    #![proptest_config(config(8))]
    #[test]
    fn reset_sync_matches_golden(seed in any::<u64>()) {
        both::<ResetSync, Golden>("reset_sync", &stimulus(seed, 400))?;
    }
}

/// `rst_in` low from configuration: `rst` high in cycles 0 and 1, low
/// from cycle 2.
#[test]
fn reset_sync_leaves_reset_after_two_edges() {
    let s = vec![In { rst_in: false }; 10];
    let out = both::<ResetSync, Golden>("reset_sync_release", &s).unwrap();
    assert!(out[..2].iter().all(|o| o.rst));
    assert!(out[2..].iter().all(|o| !o.rst));
}

#[test]
fn reset_sync_no_x_in_four_state_simulation() {
    four_state::<ResetSync, Golden>("reset_sync_4state", &stimulus(3, 200));
}
