//! `hdl/src/board/lock_reset.rs` against `nic_golden::board::lock_reset`.
//!
//! A PLL model that locks late, loses lock now and then (sometimes for a
//! single cycle, sometimes chattering), a button pressed at random. A
//! check of its own on the twin: `rst` is high at configuration and
//! whenever the lock (two cycles late) is low or the button pressed, it
//! falls only after 2^N cycles of lock with the button released, and
//! `lock_losses` counts the falls of the lock that lasted a cycle. The
//! stimulus is replayed on both engines.

use crate::common::*;
use nic_golden::board::lock_reset::{In, LockReset as Golden};
use nic_golden::Cycle;
use nic_hdl::board::LockReset;
use proptest::prelude::*;
use rand::{rngs::StdRng, Rng, SeedableRng};

const N: usize = 4;
type G = Golden<N>;

fn stimulus(seed: u64, n: usize) -> (Vec<In>, u32) {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut dut = G::default();
    let lock_at = rng.gen_range(0..60);
    let mut lock = false;
    let mut button = false;
    let mut rec: Vec<In> = Vec::with_capacity(n);
    let mut falls = 0u32;
    // Cycles since the lock (2 cycles late) and the button were good.
    let mut good_for = 0u64;
    for t in 0..n {
        if t == lock_at {
            lock = true;
        } else if t > lock_at {
            if lock && rng.gen_bool(0.01) {
                lock = false;
            } else if !lock {
                // Back at once (a one-cycle loss, or chatter), or later.
                let p_back = if rng.gen_bool(0.5) { 0.9 } else { 0.05 };
                lock = rng.gen_bool(p_back);
            }
        }
        if rng.gen_bool(0.005) {
            button = !button;
        } else if button && rng.gen_bool(0.1) {
            button = false;
        }
        let i = In {
            pll_lock: lock,
            button,
        };
        rec.push(i);
        let o = dut.step(&i);
        // The synchronised inputs are those of two cycles before.
        let seen = |k: usize| (k >= 2).then(|| rec[k - 2]);
        let ok = seen(t).is_some_and(|x| x.pll_lock && !x.button);
        // rst in t reflects the synchronised inputs of t - 1 and before.
        if t == 0 {
            assert!(o.rst, "seed {seed}: not in reset at configuration");
        } else if !seen(t - 1).is_some_and(|x| x.pll_lock && !x.button) {
            assert!(o.rst, "seed {seed} cycle {t}: out of reset without lock");
        }
        if !o.rst {
            assert!(
                good_for > 1 << N,
                "seed {seed} cycle {t}: released after {good_for}"
            );
        }
        good_for = if ok { good_for + 1 } else { 0 };
        assert_eq!(
            o.locked,
            seen(t).is_some_and(|x| x.pll_lock),
            "seed {seed} cycle {t}"
        );
        if t >= 3 && rec[t - 3].pll_lock && !rec[t - 2].pll_lock {
            falls += 1;
        }
        assert_eq!(o.lock_losses, falls, "seed {seed} cycle {t}: lock losses");
    }
    (rec, falls)
}

proptest! {
    #![proptest_config(config(8))]
    #[test]
    fn lock_reset_matches_golden(seed in any::<u64>()) {
        let (s, falls) = stimulus(seed, 3000);
        prop_assert!(falls > 3, "{falls}");
        both::<LockReset<N>, G>("lock_reset", &s)?;
    }
}

/// A PLL that never locks: held in reset, nothing counted, `locked` low.
#[test]
fn lock_reset_holds_while_the_pll_never_locks() {
    let s = vec![In::default(); 500];
    let out = both::<LockReset<N>, G>("lock_reset_never", &s).unwrap();
    assert!(out.iter().all(|o| o.rst && !o.locked && o.lock_losses == 0));
}

/// Lock in cycle 0, button released: `rst` falls in cycle 3 + 2^N.
#[test]
fn lock_reset_releases_after_the_hold() {
    let s = vec![
        In {
            pll_lock: true,
            button: false
        };
        40
    ];
    let out = both::<LockReset<N>, G>("lock_reset_release", &s).unwrap();
    let first = out.iter().position(|o| !o.rst).unwrap();
    assert_eq!(first, 3 + (1 << N));
    assert!(out[first..].iter().all(|o| !o.rst));
}

#[test]
fn lock_reset_no_x_in_four_state_simulation() {
    let (s, _) = stimulus(2, 800);
    four_state::<LockReset<N>, G>("lock_reset_4state", &s);
}
