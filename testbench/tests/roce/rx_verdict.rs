//! `hdl/src/roce/rx_verdict.rs` (the Rx parser's verdict) against
//! `nic_golden::roce::rx_verdict`: every port every cycle on both
//! engines, on random words and on the parser's test frames (good ones
//! and each of its 20 mutations), whose reasons must be the ones each
//! frame was made to have.

use super::rx_parse::{frame_with, Frame, MUTATIONS};
use crate::common::*;
use nic_golden::roce::rx_verdict::{In, RxVerdict as Golden};
use nic_hdl::roce::rx_verdict::RxVerdict;
use nic_spec::mac::FCS_RESIDUE;
use proptest::prelude::*;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// The verdict's inputs for `f` as the parser gives them: its 64-bit
/// words (byte 8k + j in lane j), its length, the MAC's flag, the sum of
/// its IPv4 header's 16-bit words (each byte-swapped, as the parser
/// sums them; any order gives the same check), and the CRC register
/// after it: the residue where its ICRC is right.
fn port(f: &Frame, rng: &mut SmallRng) -> In {
    let w = |k: usize| {
        let mut b = [0u8; 8];
        for (j, x) in b.iter_mut().enumerate() {
            *x = f.bytes.get(8 * k + j).copied().unwrap_or(0);
        }
        u64::from_le_bytes(b)
    };
    let ipacc = (14..34)
        .step_by(2)
        .map(|i| {
            let b = |k: usize| f.bytes.get(k).copied().unwrap_or(0);
            u16::from_le_bytes([b(i), b(i + 1)]) as u32
        })
        .sum();
    In {
        ipacc,
        fcs_bad: f.fcs,
        flen: f.bytes.len() as u32,
        crc: if f.want == nic_golden::roce::rx_parse::BAD_ICRC {
            FCS_RESIDUE ^ rng.gen_range(1..=u32::MAX)
        } else {
            FCS_RESIDUE
        },
        w1: w(1),
        w2: w(2),
        w4: w(4),
        w5: w(5),
        w6: w(6),
        w7: w(7),
        w8: w(8),
        w9: w(9),
    }
}

/// `n` of the parser's test frames, a third good, and their inputs a
/// cycle apart (the frame's words at T+1, the CRC at T+3).
fn frames(seed: u64, n: usize) -> (Vec<Frame>, Vec<In>) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let fs: Vec<Frame> = (0..n)
        .map(|_| {
            let m = if rng.gen_bool(0.33) {
                0
            } else {
                rng.gen_range(1..=MUTATIONS)
            };
            frame_with(&mut rng, 300, m)
        })
        .collect();
    let ports: Vec<In> = fs.iter().map(|f| port(f, &mut rng)).collect();
    // The CRC of frame k is read two cycles after its words.
    let s = (0..n + 3)
        .map(|c| In {
            crc: c
                .checked_sub(2)
                .and_then(|k| ports.get(k))
                .map_or(0, |p| p.crc),
            ..ports.get(c).copied().unwrap_or_default()
        })
        .collect();
    (fs, s)
}

/// Good frames with several of their checked fields spoiled at once
/// (each with probability 1/4), so that the checks' order decides the
/// reason: the FCS flag, the length, the EtherType, the IPv4 version,
/// protocol and checksum, the UDP port and length, the opcode, the BTH
/// version, the T bit, the telemetry header's bytes, the CRC.
fn spoiled(seed: u64, n: usize) -> Vec<In> {
    let mut rng = SmallRng::seed_from_u64(seed);
    (0..n)
        .map(|_| {
            let f = frame_with(&mut rng, 300, 0);
            let mut i = port(&f, &mut rng);
            let field = |w: &mut u64, lo: u32, bits: u32, rng: &mut SmallRng| {
                if rng.gen_bool(0.25) {
                    let m = ((1u64 << bits) - 1) << lo;
                    *w = (*w & !m) | (rng.gen::<u64>() & m);
                }
            };
            if rng.gen_bool(0.25) {
                i.fcs_bad = true;
            }
            if rng.gen_bool(0.25) {
                i.flen = rng.gen_range(0..80);
            }
            field(&mut i.w1, 32, 16, &mut rng);
            field(&mut i.w1, 48, 8, &mut rng);
            field(&mut i.w2, 56, 8, &mut rng);
            if rng.gen_bool(0.25) {
                i.ipacc = rng.gen_range(0..1 << 20);
            }
            field(&mut i.w4, 32, 16, &mut rng);
            field(&mut i.w4, 48, 16, &mut rng);
            field(&mut i.w5, 16, 8, &mut rng);
            field(&mut i.w5, 24, 4, &mut rng);
            field(&mut i.w5, 48, 1, &mut rng);
            field(&mut i.w6, 48, 16, &mut rng);
            field(&mut i.w7, 0, 40, &mut rng);
            field(&mut i.w8, 48, 16, &mut rng);
            field(&mut i.w9, 0, 8, &mut rng);
            if rng.gen_bool(0.25) {
                i.crc = rng.gen();
            }
            i
        })
        .collect()
}

fn stim() -> impl Strategy<Value = Vec<In>> {
    let cycle = (any::<[u64; 8]>(), any::<[u32; 3]>(), any::<bool>()).prop_map(|(w, x, fcs)| In {
        ipacc: x[0],
        fcs_bad: fcs,
        flen: x[1],
        crc: x[2],
        w1: w[0],
        w2: w[1],
        w4: w[2],
        w5: w[3],
        w6: w[4],
        w7: w[5],
        w8: w[6],
        w9: w[7],
    });
    prop::collection::vec(cycle, 1..60)
}

proptest! {
    #![proptest_config(config(24))]
    /// Both engines, every port, every cycle, any words.
    #[test]
    fn rx_verdict_matches_golden(s in stim()) {
        both::<RxVerdict, Golden>("roce_rx_verdict", &s)?;
    }

    /// Good frames with several checked fields spoiled at once: both
    /// engines, every port, every cycle.
    #[test]
    fn rx_verdict_spoiled_frames_match_golden(seed in any::<u64>()) {
        both::<RxVerdict, Golden>("roce_rx_verdict_spoiled", &spoiled(seed, 60))?;
    }

    /// The parser's test frames a cycle apart: every port every cycle on
    /// both engines, and each frame's reason, 3 cycles after its words,
    /// the one it was made with.
    #[test]
    fn rx_verdict_names_each_frames_reason(seed in any::<u64>()) {
        let (fs, s) = frames(seed, 40);
        let out = both::<RxVerdict, Golden>("roce_rx_verdict_frames", &s)?;
        for (k, f) in fs.iter().enumerate() {
            prop_assert_eq!(out[k + 3].reason as usize, f.want, "frame {}: {:02x?}", k, f.bytes);
        }
    }
}

/// The frames above reach every reason, and a good verdict.
#[test]
fn rx_verdict_frames_reach_every_reason() {
    let (fs, _) = frames(7, 400);
    for want in 0..=9 {
        assert!(fs.iter().any(|f| f.want == want), "reason {want}");
    }
}
