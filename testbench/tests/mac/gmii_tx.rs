//! `hdl/src/mac/gmii_tx.rs` against `nic_golden::mac::gmii_tx`, and the
//! twin against the byte-level reference `nic_golden::mac::gmii`.
//!
//! - `gmii_tx_matches_golden`: both engines, every port every cycle:
//!   random frames (1 to 300 bytes, some of 60, some longer than 1500),
//!   gaps, underflows, `tuser` aborts, pause. The good frames decode from
//!   the pins padded to 60 bytes with a right FCS; each abort is a frame
//!   with `gmii_tx_er` on the wire.
//! - `gmii_tx_line_rate`: back-to-back 64-byte frames on Verilator, 84
//!   byte times a frame.
//! - `gmii_tx_reset_mid_frame`, `gmii_tx_no_x_in_four_state_simulation`.

use crate::common::*;
use nic_golden::mac::gmii::{decode, wire_bytes, Sym};
use nic_golden::mac::gmii_tx::{GmiiTx as Golden, In, Out};
use nic_golden::stream::Axis;
use nic_golden::Cycle;
use nic_hdl::mac::GmiiTx;
use proptest::prelude::*;
use rand::{rngs::StdRng, Rng, SeedableRng};

#[derive(Clone, Debug)]
struct Offer {
    data: Vec<u8>,
    abort: bool,
    /// Byte index before which the source runs dry for a cycle.
    underflow: Option<usize>,
}

fn stimulus(seed: u64, n: usize) -> (Vec<In>, Vec<Offer>) {
    let mut rng = StdRng::seed_from_u64(seed);
    let offers: Vec<Offer> = (0..n)
        .map(|_| {
            let len: usize = match rng.gen_range(0..10) {
                0..=2 => 60,
                3 => rng.gen_range(1..60),
                4 => rng.gen_range(1500..1600),
                _ => rng.gen_range(61..300),
            };
            Offer {
                data: (0..len).map(|_| rng.gen()).collect(),
                abort: rng.gen_bool(0.05),
                underflow: if len > 1 && rng.gen_bool(0.05) {
                    Some(rng.gen_range(1..len))
                } else {
                    None
                },
            }
        })
        .collect();
    let p_gap = rng.gen_range(0.0..0.6);
    let p_pause = rng.gen_range(0.0..0.2);
    let mut g = Golden::default();
    let mut stim = Vec::new();
    for o in &offers {
        while rng.gen_bool(p_gap) {
            let i = In {
                pause: rng.gen_bool(p_pause),
                ..Default::default()
            };
            g.step(&i);
            stim.push(i);
        }
        let (mut b, mut dry_done) = (0, false);
        while b < o.data.len() {
            let last = b + 1 == o.data.len();
            let dry = o.underflow == Some(b) && !dry_done;
            let i = In {
                reset: false,
                s: Axis {
                    tdata: o.data[b],
                    tkeep: true,
                    tvalid: !dry,
                    tlast: last,
                    tuser: last && o.abort,
                },
                pause: rng.gen_bool(p_pause),
            };
            let out = g.step(&i);
            if out.s_tready && dry {
                dry_done = true;
            }
            if out.s_tready && !dry {
                b += 1;
            }
            stim.push(i);
        }
    }
    for _ in 0..120 {
        stim.push(In::default());
    }
    (stim, offers)
}

fn syms(o: &[Out]) -> Vec<Sym> {
    o.iter().map(|x| (x.txd, x.tx_en, x.tx_er)).collect()
}

proptest! {
    #![proptest_config(config(16))]
    #[test]
    fn gmii_tx_matches_golden(seed in any::<u64>(), n in 1usize..16) {
        let (s, offers) = stimulus(seed, n);
        let o = both::<GmiiTx, Golden>("gmii_tx", &s)?;
        let dec = decode(&syms(&o), usize::MAX);
        prop_assert_eq!(dec.len(), offers.len());
        for (d, f) in dec.iter().zip(&offers) {
            let bad = f.abort || f.underflow.is_some();
            prop_assert_eq!(d.good, !bad);
            if !bad {
                let mut p = f.data.clone();
                p.resize(p.len().max(60), 0);
                prop_assert_eq!(&d.data, &p);
            }
        }
        let st = o.last().unwrap().stats;
        prop_assert_eq!(st.frames as usize + st.aborts as usize, offers.len());
        let want_bytes: usize = offers
            .iter()
            .filter(|f| !f.abort && f.underflow.is_none())
            .map(|f| f.data.len().max(60) + 4)
            .sum();
        prop_assert_eq!(st.bytes as usize, want_bytes);
    }
}

/// The wire bytes of a good frame are exactly the reference's.
#[test]
fn gmii_tx_sends_the_reference_bytes() {
    let frame: Vec<u8> = (0..100u8).collect();
    let mut s: Vec<In> = frame
        .iter()
        .enumerate()
        .map(|(k, &b)| In {
            s: Axis {
                tdata: b,
                tvalid: true,
                tlast: k + 1 == frame.len(),
                ..Default::default()
            },
            ..Default::default()
        })
        .collect();
    // Hold each beat until taken: the first is taken after the preamble.
    let mut g = Golden::default();
    let mut stim = Vec::new();
    let mut k = 0;
    while k < s.len() {
        let i = s[k];
        if g.step(&i).s_tready {
            k += 1;
        }
        stim.push(i);
    }
    s = stim;
    s.extend([In::default(); 30]);
    let o = both::<GmiiTx, Golden>("gmii_tx_ref", &s).unwrap();
    let on: Vec<u8> = o.iter().filter(|x| x.tx_en).map(|x| x.txd).collect();
    assert_eq!(on, wire_bytes(&frame));
    assert!(o.iter().all(|x| !x.tx_er));
}

#[test]
fn gmii_tx_reset_mid_frame() {
    let (mut s, _) = stimulus(7, 3);
    let cut = s.len() / 2;
    s[cut].reset = true;
    let o = both::<GmiiTx, Golden>("gmii_tx_reset", &s).unwrap();
    assert!(!o[cut + 1].tx_en);
    assert_eq!(o[cut + 1].stats, Default::default());
}

#[test]
fn gmii_tx_line_rate() {
    let frame: Vec<u8> = (0..60u8).collect();
    let mut s = Vec::new();
    let mut g = Golden::default();
    let (mut sent, mut b) = (0, 0);
    while sent < 100 {
        let i = In {
            s: Axis {
                tdata: frame[b],
                tvalid: true,
                tlast: b == 59,
                ..Default::default()
            },
            ..Default::default()
        };
        if g.step(&i).s_tready {
            b += 1;
            if b == 60 {
                b = 0;
                sent += 1;
            }
        }
        s.push(i);
    }
    s.extend([In::default(); 30]);
    let o = verilator::<GmiiTx, Golden>("gmii_tx_rate", &s).unwrap();
    let dec = decode(&syms(&o), 1522);
    assert!(dec.len() >= 95);
    assert!(dec.iter().all(|f| f.good));
    let span = dec[dec.len() - 1].start - dec[5].start;
    let per = span as f64 / (dec.len() - 6) as f64;
    println!("gmii_tx: back-to-back 64-byte frames: {per:.3} byte times per frame");
    assert!((per - 84.0).abs() < 1e-9, "{per}");
}

#[test]
fn gmii_tx_no_x_in_four_state_simulation() {
    four_state::<GmiiTx, Golden>("gmii_tx_x", &stimulus(3, 8).0);
}
