//! `hdl/src/uart/uart_rx.rs` against its twin
//! (`nic_golden::uart::uart_rx`), both engines, every port every cycle,
//! on lines made by the line model (`super::char_levels`): random bytes
//! at random bit times, with gaps, glitches shorter than half a bit,
//! framing errors and breaks; the bytes and framing errors out must be
//! the ones sent.
//!
//! - `uart_rx_matches_golden` (proptest);
//! - `uart_rx_resets_and_noise`: random line noise and resets, the twin
//!   against the RTL only;
//! - a four-state run.

use super::{char_levels, Char};
use crate::common::*;
use nic_golden::uart::uart_rx::{In, UartRx as Golden};
use nic_hdl::uart::UartRx;
use proptest::prelude::*;
use rand::{rngs::StdRng, Rng, SeedableRng};

/// A line and the characters on it.
fn line(seed: u64, nchars: usize, n: u16) -> (Vec<In>, Vec<Char>) {
    let mut rng = StdRng::seed_from_u64(seed);
    let nb = n as usize;
    let eff = nb.max(2);
    let mut lv: Vec<bool> = vec![true; 3];
    let mut want = Vec::new();
    for _ in 0..nchars {
        // Idle before it, sometimes with a glitch shorter than half a bit.
        let idle = rng.gen_range(0..2 * eff);
        lv.extend(std::iter::repeat_n(true, idle));
        if eff >= 4 && rng.gen_bool(0.15) {
            let g = rng.gen_range(1..=(eff / 2 - 1));
            lv.extend(std::iter::repeat_n(false, g));
            lv.extend(std::iter::repeat_n(true, eff));
        }
        let b: u8 = rng.gen();
        match rng.gen_range(0..10) {
            0 => {
                // A framing error, then the line high for a bit.
                lv.extend(char_levels(b, eff, false));
                lv.extend(std::iter::repeat_n(true, eff));
                want.push(Char::FramingError);
            }
            1 => {
                // A break: low for two characters, then high.
                lv.extend(std::iter::repeat_n(false, 20 * eff));
                lv.extend(std::iter::repeat_n(true, eff));
                want.push(Char::FramingError);
            }
            _ => {
                lv.extend(char_levels(b, eff, true));
                want.push(Char::Byte(b));
            }
        }
    }
    lv.extend(std::iter::repeat_n(true, 12 * eff + 8));
    let s = lv
        .into_iter()
        .map(|rx| In {
            reset: false,
            rx,
            cfg_clks_per_bit: n,
        })
        .collect();
    (s, want)
}

fn got(o: &[nic_golden::uart::uart_rx::Out]) -> Vec<Char> {
    o.iter()
        .filter_map(|x| {
            if x.data_valid {
                Some(Char::Byte(x.data))
            } else if x.frame_err {
                Some(Char::FramingError)
            } else {
                None
            }
        })
        .collect()
}

proptest! {
    #![proptest_config(config(16))]
    #[test]
    fn uart_rx_matches_golden(seed in any::<u64>(), nchars in 1usize..12, n in prop_oneof![0u16..=3, 4u16..=13]) {
        let (s, want) = line(seed, nchars, n);
        let o = both::<UartRx, Golden>("uart_rx", &s)?;
        prop_assert_eq!(got(&o), want);
    }
}

/// Random levels (runs of random length) and random resets: the RTL
/// and the twin agree on every cycle whatever the line does.
#[test]
fn uart_rx_resets_and_noise() {
    let mut rng = StdRng::seed_from_u64(5);
    let mut s = Vec::new();
    let mut level = true;
    while s.len() < 3000 {
        let run = rng.gen_range(1..40);
        for _ in 0..run {
            s.push(In {
                reset: rng.gen_bool(0.01),
                rx: level,
                cfg_clks_per_bit: 5,
            });
        }
        level = !level;
    }
    both::<UartRx, Golden>("uart_rx_noise", &s).unwrap();
}

#[test]
fn uart_rx_no_x_in_four_state_simulation() {
    four_state::<UartRx, Golden>("uart_rx_x", &line(3, 6, 6).0);
}
