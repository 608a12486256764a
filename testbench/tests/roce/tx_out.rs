//! `hdl/src/roce/tx_out.rs` (the Tx's ICRC stages and output slice)
//! against `nic_golden::roce::tx_out`: every port every cycle on both
//! engines, on random inputs; and, on frames fed as the Tx's generator
//! feeds them, each frame out against a plain statement: its bytes, then
//! the CRC-32 (`crc32fast`) of eight 0xFF bytes and the masked copy's
//! bytes 14 on, then `tuser` = the frame's flag.

use crate::common::*;
use nic_golden::roce::tx_out::{In, TxOut as Golden};
use nic_hdl::roce::tx_out::TxOut;
use proptest::prelude::*;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// Any input in every cycle, `rcrc` near the values that place the ICRC
/// (2, 6, −2) in a third of them, resets rare, `m_axis_tx.tready` low a
/// quarter of the time.
fn stim() -> impl Strategy<Value = Vec<In>> {
    let cycle = (
        any::<[u64; 2]>(),
        any::<[u16; 2]>(),
        0u8..8,
        chance(3),
        chance(80),
        chance(10),
        chance(75),
        0u16..5,
    )
        .prop_map(|(w, r, j, reset, produce, err, tready, near)| In {
            reset,
            produce,
            word: w[0],
            crcm: w[1],
            word_j: j,
            rcrc: match near {
                0 => [2, 6, 0x3FFE][(r[1] % 3) as usize],
                1 => r[0] & 0x3F,
                _ => r[0],
            },
            err,
            out_tready: tready,
        });
    prop::collection::vec(cycle, 1..200)
}

/// A frame as the generator makes it: `t` bytes before the ICRC (t ≡ 2
/// mod 4), its masked copy, and its flag.
struct Frame {
    bytes: Vec<u8>,
    masked: Vec<u8>,
    err: bool,
}

/// `n` frames and the inputs that feed them, word by word with random
/// gaps (`produce` low), `m_axis_tx.tready` always high (so `adv` is).
fn frames(seed: u64, n: usize) -> (Vec<Frame>, Vec<In>) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut fs = Vec::new();
    let mut s = Vec::new();
    for _ in 0..n {
        let t: usize = 4 * rng.gen_range(14..150) + 2;
        let bytes: Vec<u8> = (0..t).map(|_| rng.gen()).collect();
        let masked: Vec<u8> = bytes
            .iter()
            .map(|&b| if rng.gen_bool(0.1) { 0xFF } else { b })
            .collect();
        let err = rng.gen_bool(0.3);
        let err_from = rng.gen_range(0..(t + 4).div_ceil(8));
        let word = |v: &[u8], k: usize| {
            (0..8).fold(0u64, |w, j| {
                w | (v.get(8 * k + j).copied().unwrap_or(0) as u64) << (8 * j)
            })
        };
        for k in 0..(t + 4).div_ceil(8) {
            while rng.gen_bool(0.2) {
                s.push(In {
                    out_tready: true,
                    word: rng.gen(),
                    ..In::default()
                });
            }
            s.push(In {
                reset: false,
                produce: true,
                word: word(&bytes, k),
                crcm: word(&masked, k),
                word_j: k.min(6) as u8,
                rcrc: (t as u16).wrapping_sub(8 * k as u16) & 0x3FFF,
                err: err && k >= err_from,
                out_tready: true,
            });
        }
        fs.push(Frame { bytes, masked, err });
    }
    s.extend((0..4).map(|_| In {
        out_tready: true,
        ..In::default()
    }));
    (fs, s)
}

proptest! {
    #![proptest_config(config(24))]
    /// Both engines, every port, every cycle, any inputs.
    #[test]
    fn tx_out_matches_golden(s in stim()) {
        both::<TxOut, Golden>("roce_tx_out", &s)?;
    }

    /// Frames as the generator feeds them: both engines, every port every
    /// cycle, and each frame out its bytes with the ICRC the CRC-32 of
    /// the pseudo-LRH and the masked bytes, `tuser` its flag, counted.
    #[test]
    fn tx_out_frames_carry_their_icrc(seed in any::<u64>()) {
        let (fs, s) = frames(seed, 6);
        let out = both::<TxOut, Golden>("roce_tx_out_frames", &s)?;
        let mut got: Vec<(Vec<u8>, bool)> = vec![(Vec::new(), false)];
        for o in out.iter().filter(|o| o.out.tvalid) {
            let cur = got.last_mut().unwrap();
            for j in 0..8 {
                if (o.out.tkeep >> j) & 1 != 0 {
                    cur.0.push((o.out.tdata >> (8 * j)) as u8);
                }
            }
            if o.out.tlast {
                cur.1 = o.out.tuser;
                got.push((Vec::new(), false));
            }
        }
        got.pop();
        prop_assert_eq!(got.len(), fs.len());
        for (k, (f, g)) in fs.iter().zip(&got).enumerate() {
            let mut lrh = vec![0xFFu8; 8];
            lrh.extend_from_slice(&f.masked[14..]);
            let mut want = f.bytes.clone();
            want.extend_from_slice(&crc32fast::hash(&lrh).to_le_bytes());
            prop_assert_eq!(&g.0, &want, "frame {}", k);
            prop_assert_eq!(g.1, f.err, "frame {}'s tuser", k);
        }
        let last = out.last().unwrap();
        prop_assert_eq!(last.frames as usize, fs.len());
        prop_assert_eq!(last.aborted as usize, fs.iter().filter(|f| f.err).count());
    }
}
