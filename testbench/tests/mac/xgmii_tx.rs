//! `hdl/src/mac/xgmii_tx.rs` against `nic_golden::mac::xgmii_tx`, and the
//! twin against the byte-level reference `nic_golden::mac::xgmii`.
//!
//! - `xgmii_tx_matches_golden`: both engines, every port every cycle:
//!   random frames (1 to 300 bytes, some of 60, some longer than 1500),
//!   gaps, underflows, `tuser` and `tkeep[0]` aborts, pause, resets. The
//!   good frames decode from the words, padded to 60 bytes; each abort
//!   shows as a frame with `/E/`.
//! - `xgmii_tx_line_rate`: back-to-back 64-byte frames on Verilator,
//!   10.5 words a frame.
//! - `xgmii_tx_no_x_in_four_state_simulation`: Icarus, no X or Z.

use crate::common::*;
use nic_golden::mac::xgmii::decode;
use nic_golden::mac::xgmii_tx::{In, XgmiiTx as Golden};
use nic_golden::stream::Axis;
use nic_golden::Cycle;
use nic_hdl::mac::XgmiiTx;
use proptest::prelude::*;
use rand::{rngs::StdRng, Rng, SeedableRng};

/// A frame offered to the transmitter and what should happen to it.
#[derive(Clone, Debug)]
struct Offer {
    data: Vec<u8>,
    /// Abort on the last beat: by `tuser` (1) or a clear `tkeep[0]` (2).
    abort: u8,
    /// Beat index before which the source runs dry for a cycle.
    underflow: Option<usize>,
}

/// Drive the twin with a source that offers `offers` (holding each beat
/// until taken), random idle between frames, pause and rare resets; the
/// stimulus is what was driven.
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
                abort: if rng.gen_bool(0.05) {
                    rng.gen_range(1..=2)
                } else {
                    0
                },
                underflow: if len > 8 && rng.gen_bool(0.05) {
                    Some(rng.gen_range(1..len.div_ceil(8)))
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
        let nb = o.data.len().div_ceil(8);
        let mut b = 0;
        let mut dry_done = false;
        while rng.gen_bool(p_gap) {
            let i = In {
                pause: rng.gen_bool(p_pause),
                ..Default::default()
            };
            g.step(&i);
            stim.push(i);
        }
        while b < nb {
            let ch = &o.data[8 * b..(8 * b + 8).min(o.data.len())];
            let mut d = 0u64;
            for (k, &x) in ch.iter().enumerate() {
                d |= (x as u64) << (8 * k);
            }
            let last = b + 1 == nb;
            let mut keep = ((1u16 << ch.len()) - 1) as u8;
            if last && o.abort == 2 {
                keep &= !1;
            }
            let dry = o.underflow == Some(b) && !dry_done;
            let i = In {
                reset: false,
                s: Axis {
                    tdata: d,
                    tkeep: keep,
                    tvalid: !dry,
                    tlast: last,
                    tuser: last && o.abort == 1,
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
    for _ in 0..40 {
        stim.push(In::default());
    }
    (stim, offers)
}

fn words(o: &[nic_golden::mac::xgmii_tx::Out]) -> Vec<(u64, u8)> {
    o.iter().map(|x| (x.txd, x.txc)).collect()
}

proptest! {
    #![proptest_config(config(24))]
    #[test]
    fn xgmii_tx_matches_golden(seed in any::<u64>(), n in 1usize..24) {
        let (s, offers) = stimulus(seed, n);
        let o = both::<XgmiiTx, Golden>("xgmii_tx", &s)?;
        // The reference: every offer is one frame on the wire, good unless
        // aborted or run dry.
        let (dec, _) = decode(&words(&o), usize::MAX);
        prop_assert_eq!(dec.len(), offers.len());
        for (d, f) in dec.iter().zip(&offers) {
            let bad = f.abort != 0 || f.underflow.is_some();
            prop_assert_eq!(d.good, !bad);
            if !bad {
                let mut p = f.data.clone();
                p.resize(p.len().max(60), 0);
                prop_assert_eq!(&d.data, &p);
            }
        }
        let st = o.last().unwrap().stats;
        prop_assert_eq!(st.frames as usize + st.aborts as usize, offers.len());
    }
}

/// A reset in the middle of a frame: the transmitter goes back to idle at
/// once, and the next frame goes out whole.
#[test]
fn xgmii_tx_reset_mid_frame() {
    let (mut s, _) = stimulus(7, 3);
    let cut = s.len() / 2;
    s[cut].reset = true;
    let o = both::<XgmiiTx, Golden>("xgmii_tx_reset", &s).unwrap();
    assert_eq!(o[cut + 1].txd, nic_spec::mac::xgmii::IDLE_WORD);
    assert_eq!(o[cut + 1].stats, Default::default());
}

#[test]
fn xgmii_tx_line_rate() {
    let frame: Vec<u8> = (0..60u8).collect();
    let mut s = Vec::new();
    let mut g = Golden::default();
    let (mut sent, mut b) = (0, 0);
    while sent < 200 {
        let d = u64::from_le_bytes(
            frame[8 * b..(8 * b + 8).min(60)]
                .iter()
                .copied()
                .chain([0; 8])
                .take(8)
                .collect::<Vec<_>>()
                .try_into()
                .unwrap(),
        );
        let i = In {
            s: Axis {
                tdata: d,
                tkeep: if b == 7 { 0x0F } else { 0xFF },
                tvalid: true,
                tlast: b == 7,
                ..Default::default()
            },
            ..Default::default()
        };
        if g.step(&i).s_tready {
            b += 1;
            if b == 8 {
                b = 0;
                sent += 1;
            }
        }
        s.push(i);
    }
    let o = verilator::<XgmiiTx, Golden>("xgmii_tx_rate", &s).unwrap();
    let (dec, _) = decode(&words(&o), 1522);
    assert!(dec.len() >= 190);
    let span = dec[dec.len() - 1].start - dec[10].start;
    let per = span as f64 / (dec.len() - 11) as f64 / 8.0;
    println!("xgmii_tx: back-to-back 64-byte frames: {per:.3} words per frame");
    assert!((per - 10.5).abs() < 1e-9, "{per}");
}

#[test]
fn xgmii_tx_no_x_in_four_state_simulation() {
    four_state::<XgmiiTx, Golden>("xgmii_tx_x", &stimulus(3, 12).0);
}
