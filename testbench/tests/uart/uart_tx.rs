//! `hdl/src/uart/uart_tx.rs` against its twin
//! (`nic_golden::uart::uart_tx`), both engines, every port every cycle;
//! the line, decoded by the line model (`super::decode_line`, strict:
//! every bit exactly one bit time), carries the bytes taken, in order.
//!
//! - `uart_tx_matches_golden` (proptest: random `tvalid`, bit times,
//!   and the ignored `tkeep`/`tlast`/`tuser`);
//! - `uart_tx_back_to_back`: with `tvalid` high, bytes leave with no
//!   idle between them, 10 bit times each;
//! - `uart_tx_line_is_high_after_power_up_and_reset`;
//! - a four-state run.

use super::{decode_line, Char};
use crate::common::*;
use nic_golden::stream::Axis;
use nic_golden::uart::uart_tx::{In, Out, UartTx as Golden};
use nic_golden::Cycle;
use nic_hdl::uart::UartTx;
use proptest::prelude::*;
use rand::{rngs::StdRng, Rng, SeedableRng};

/// Bytes offered with random `tvalid` (held until taken), then idle.
fn stim(seed: u64, nbytes: usize, n: u16, pv: f64) -> (Vec<In>, Vec<u8>) {
    let mut rng = StdRng::seed_from_u64(seed);
    let bytes: Vec<u8> = (0..nbytes).map(|_| rng.gen()).collect();
    let mut g = Golden::default();
    let mut s = Vec::new();
    let mut k = 0;
    while k < bytes.len() {
        let i = In {
            reset: false,
            cfg_clks_per_bit: n,
            s: Axis {
                tdata: bytes[k],
                tvalid: rng.gen_bool(pv),
                tkeep: rng.gen(),
                tlast: rng.gen(),
                tuser: rng.gen(),
            },
        };
        if g.step(&i).s_tready && i.s.tvalid {
            k += 1;
        }
        s.push(i);
    }
    for _ in 0..(12 * (n.max(2) as usize) + 4) {
        s.push(In {
            cfg_clks_per_bit: n,
            ..Default::default()
        });
    }
    (s, bytes)
}

fn line_of(o: &[Out]) -> Vec<bool> {
    std::iter::once(true)
        .chain(o.iter().map(|x| x.tx))
        .collect()
}

proptest! {
    #![proptest_config(config(16))]
    #[test]
    fn uart_tx_matches_golden(seed in any::<u64>(), nbytes in 1usize..10, n in prop_oneof![0u16..=3, 4u16..=13], pv in 0.05f64..1.0) {
        let (s, bytes) = stim(seed, nbytes, n, pv);
        let o = both::<UartTx, Golden>("uart_tx", &s)?;
        let want: Vec<Char> = bytes.iter().map(|&b| Char::Byte(b)).collect();
        prop_assert_eq!(decode_line(&line_of(&o), n.max(2) as usize, true), want);
    }
}

#[test]
fn uart_tx_back_to_back() {
    let (s, bytes) = stim(7, 6, 5, 1.0);
    let o = both::<UartTx, Golden>("uart_tx_b2b", &s).unwrap();
    let first = o.iter().position(|x| !x.tx).unwrap();
    let line = line_of(&o);
    // The characters fill 6 × 50 cycles with no idle between them.
    let frame = &line[first + 1..first + 1 + 6 * 50];
    for (k, &b) in bytes.iter().enumerate() {
        let ch = &frame[50 * k..50 * (k + 1)];
        assert!(!ch[0] && !ch[4], "start bit of byte {k}");
        assert!(ch[45] && ch[49], "stop bit of byte {k}");
        let mut v = 0u8;
        for bit in 0..8 {
            if ch[5 * (bit + 1) + 2] {
                v |= 1 << bit;
            }
        }
        assert_eq!(v, b);
    }
    assert!(line[first + 1 + 300..].iter().all(|&x| x));
}

#[test]
fn uart_tx_line_is_high_after_power_up_and_reset() {
    let mut s = vec![
        In {
            cfg_clks_per_bit: 4,
            ..Default::default()
        };
        3
    ];
    s.push(In {
        cfg_clks_per_bit: 4,
        s: Axis {
            tdata: 0x00,
            tvalid: true,
            ..Default::default()
        },
        ..Default::default()
    });
    for k in 0..12 {
        s.push(In {
            reset: k == 6,
            cfg_clks_per_bit: 4,
            ..Default::default()
        });
    }
    let o = both::<UartTx, Golden>("uart_tx_reset", &s).unwrap();
    assert!(o[..4].iter().all(|x| x.tx), "idle before the first byte");
    assert!(!o[4].tx, "start bit");
    assert!(o[11..].iter().all(|x| x.tx), "high again after the reset");
}

#[test]
fn uart_tx_no_x_in_four_state_simulation() {
    four_state::<UartTx, Golden>("uart_tx_x", &stim(3, 4, 4, 0.6).0);
}
