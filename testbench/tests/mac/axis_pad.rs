//! `hdl/src/mac/axis_pad.rs` (the vendor-MAC adapter's padder) against
//! its twin `nic_golden::mac::axis_pad`, both engines, every port every
//! cycle, on random frames with random `tvalid` and `tready`; and the
//! stream property on its own: every frame comes out padded to 60 bytes
//! (`nic_golden::mac::axis_pad::padded`), `tkeep` all ones on every beat
//! but the last and contiguous from lane 0 on the last, `tuser` only on a
//! last beat.
//!
//! - `axis_pad_matches_golden`: frames of 0..=80 bytes (every boundary
//!   of the 60-byte minimum: 52..=60 end in the 7th or 8th beat), random
//!   junk in `tkeep` above the bytes and on beats that are not the last,
//!   `tuser` on some, a last beat with no byte on some;
//! - `axis_pad_full_rate`: with every ready high, a frame of 60 bytes or
//!   more goes at one beat per cycle, a short one takes 8 cycles;
//! - `axis_pad_counts_each_frame_once`: `frames`, `padded`, `bad_keep`;
//! - a reset in mid-frame and in mid-padding, and a four-state run.

use crate::common::*;
use nic_golden::mac::axis_pad::{self as pad, padded, AxisPad as Golden};
use nic_golden::stream::Axis;
use nic_golden::Cycle;
use nic_hdl::mac::AxisPad;
use proptest::prelude::*;
use rand::{rngs::StdRng, Rng, SeedableRng};

/// A frame to send: bytes, `tuser`, last beat with `tkeep[0]` clear.
type Frame = (Vec<u8>, bool, bool);

fn frames(rng: &mut StdRng, n: usize) -> Vec<Frame> {
    (0..n)
        .map(|_| {
            let len = match rng.gen_range(0..4) {
                0 => rng.gen_range(52..=61),
                1 => rng.gen_range(1..=8),
                _ => rng.gen_range(1..=80),
            };
            (
                (0..len).map(|_| rng.gen()).collect(),
                rng.gen_bool(0.15),
                rng.gen_bool(0.05),
            )
        })
        .collect()
}

/// Drive the twin with the frames (each beat held until taken); `reset_at`
/// puts a one-cycle reset at that cycle.
fn stim(
    seed: u64,
    n: usize,
    pv: f64,
    pr: f64,
    reset_at: Option<usize>,
) -> (Vec<pad::In>, Vec<Frame>) {
    let mut rng = StdRng::seed_from_u64(seed);
    let fr = frames(&mut rng, n);
    let mut g = Golden::default();
    let mut s: Vec<pad::In> = Vec::new();
    for (data, user, no_byte) in &fr {
        let nb = data.len().div_ceil(8);
        let mut b = 0;
        while b < nb {
            let ch = &data[8 * b..(8 * b + 8).min(data.len())];
            let mut d = 0u64;
            for (k, &x) in ch.iter().enumerate() {
                d |= (x as u64) << (8 * k);
            }
            // Junk above the bytes: in tdata and in tkeep (above a clear lane).
            let last = b + 1 == nb;
            let mut keep: u8 = rng.gen();
            if last {
                let n = ch.len() as u32;
                let low = ((1u16 << n) - 1) as u8;
                if n < 8 {
                    keep = low | ((keep << (n + 1)) & !low);
                    keep &= !(1u8 << n);
                    d |= rng.gen::<u64>() << (8 * n);
                } else {
                    keep = 0xFF;
                }
                if *no_byte {
                    keep &= !1;
                }
            }
            let i = pad::In {
                reset: reset_at == Some(s.len()),
                s: Axis {
                    tdata: d,
                    tkeep: keep,
                    tvalid: rng.gen_bool(pv),
                    tlast: last,
                    tuser: if last { *user } else { rng.gen() },
                },
                m_tready: rng.gen_bool(pr),
            };
            let o = g.step(&i);
            if i.s.tvalid && o.s_tready && !i.reset {
                b += 1;
            }
            s.push(i);
        }
    }
    for _ in 0..(10 * n + 20) {
        s.push(pad::In {
            m_tready: rng.gen_bool(pr),
            ..Default::default()
        });
    }
    (s, fr)
}

/// Frames out (bytes, `tuser`), with the shape of every beat checked.
fn frames_out(s: &[pad::In], o: &[pad::Out]) -> Vec<(Vec<u8>, bool)> {
    let mut got = Vec::new();
    let mut cur = Vec::new();
    for (i, x) in s.iter().zip(o) {
        if x.m.tvalid && i.m_tready && !i.reset {
            let n = x.m.tkeep.trailing_ones() as usize;
            assert_eq!(x.m.tkeep as u32, (1u32 << n) - 1, "tkeep is the low lanes");
            assert!(n >= 1, "never an empty beat");
            assert!(x.m.tlast || n == 8, "a beat that is not the last is full");
            assert!(x.m.tlast || !x.m.tuser, "tuser only on a last beat");
            assert_eq!(x.m.tdata & !lanes(n), 0, "zero above the bytes");
            cur.extend_from_slice(&x.m.tdata.to_le_bytes()[..n]);
            if x.m.tlast {
                got.push((std::mem::take(&mut cur), x.m.tuser));
            }
        }
    }
    got
}

fn lanes(n: usize) -> u64 {
    if n >= 8 {
        u64::MAX
    } else {
        (1u64 << (8 * n)) - 1
    }
}

/// Whether the block pads a frame of `len` bytes: it ends before the 8th
/// beat, or in the 8th with fewer than 4 bytes.
fn is_padded(len: usize, no_byte: bool) -> bool {
    let nb = len.div_ceil(8);
    let n = if no_byte { 0 } else { len - 8 * (nb - 1) };
    nb <= 7 || (nb == 8 && n < 4)
}

fn want(fr: &[Frame]) -> Vec<(Vec<u8>, bool)> {
    fr.iter().map(|(d, u, nb)| padded(d, *u, *nb)).collect()
}

proptest! {
    #![proptest_config(config(24))]
    #[test]
    fn axis_pad_matches_golden(seed in any::<u64>(), n in 1usize..16, pv in 0.2f64..1.0, pr in 0.2f64..1.0) {
        let (s, fr) = stim(seed, n, pv, pr, None);
        let o = both::<AxisPad, Golden>("axis_pad", &s)?;
        prop_assert_eq!(frames_out(&s, &o), want(&fr));
        let last = o.last().unwrap().stats;
        prop_assert_eq!(last.frames as usize, fr.len());
        prop_assert_eq!(last.padded as usize, fr.iter().filter(|f| is_padded(f.0.len(), f.2)).count());
        prop_assert_eq!(last.bad_keep as usize, fr.iter().filter(|f| f.2).count());
    }
}

/// Every ready high: a frame of 60 bytes or more passes at one beat a
/// cycle (no bubble), a short one takes 8 cycles.
#[test]
fn axis_pad_full_rate() {
    for (len, cycles) in [
        (60usize, 8usize),
        (64, 8),
        (65, 9),
        (1514, 190),
        (1, 8),
        (59, 8),
    ] {
        let fr: Vec<Frame> = (0..4)
            .map(|k| (vec![k as u8 + 1; len], false, false))
            .collect();
        let mut s = Vec::new();
        for (d, _, _) in &fr {
            let nb = d.len().div_ceil(8);
            for b in 0..nb {
                let n = (d.len() - 8 * b).min(8);
                s.push(pad::In {
                    s: Axis {
                        tdata: u64::from_le_bytes({
                            let mut w = [0u8; 8];
                            w[..n].copy_from_slice(&d[8 * b..8 * b + n]);
                            w
                        }),
                        tkeep: ((1u16 << n) - 1) as u8,
                        tvalid: true,
                        tlast: b + 1 == nb,
                        ..Default::default()
                    },
                    m_tready: true,
                    ..Default::default()
                });
            }
        }
        // Feed with the handshake honoured: hold each beat until taken.
        let mut g = Golden::default();
        let mut fed = Vec::new();
        let mut k = 0;
        while k < s.len() {
            let o = g.step(&s[k]);
            fed.push(s[k]);
            if o.s_tready {
                k += 1;
            }
        }
        for _ in 0..12 {
            fed.push(pad::In {
                m_tready: true,
                ..Default::default()
            });
        }
        let o = both::<AxisPad, Golden>("axis_pad_rate", &fed).unwrap();
        let first = o.iter().position(|x| x.m.tvalid).unwrap();
        let beats = 4 * cycles;
        assert!(
            o[first..first + beats].iter().all(|x| x.m.tvalid),
            "len {len}: no bubble"
        );
        assert!(
            !o[first + beats].m.tvalid,
            "len {len}: {cycles} beats a frame"
        );
        assert_eq!(frames_out(&fed, &o), want(&fr));
    }
}

/// Each counter by hand: a short frame, a long one, a short one with no
/// byte in its last beat, a 57-byte one (the 8th beat made 4 bytes).
#[test]
fn axis_pad_counts_each_frame_once() {
    let mut g = Golden::default();
    let mut drive = |len: usize, no_byte: bool| {
        let nb = len.div_ceil(8);
        let mut b = 0;
        while b < nb {
            let n = (len - 8 * b).min(8);
            let mut keep = ((1u16 << n) - 1) as u8;
            if b + 1 == nb && no_byte {
                keep &= !1;
            }
            let o = g.step(&pad::In {
                s: Axis {
                    tdata: u64::MAX,
                    tkeep: keep,
                    tvalid: true,
                    tlast: b + 1 == nb,
                    ..Default::default()
                },
                m_tready: true,
                ..Default::default()
            });
            if o.s_tready {
                b += 1;
            }
        }
    };
    drive(20, false);
    drive(100, false);
    drive(20, true);
    drive(57, false);
    drive(70, true);
    let st = g
        .step(&pad::In {
            m_tready: true,
            ..Default::default()
        })
        .stats;
    assert_eq!((st.frames, st.padded, st.bad_keep), (5, 3, 2));
}

/// A reset in mid-frame or mid-padding: the twin agrees after it and the
/// frames that start after it come out whole.
#[test]
fn axis_pad_reset_in_mid_frame() {
    for at in [3usize, 9, 17, 40] {
        let (s, _) = stim(77 + at as u64, 8, 0.9, 0.9, Some(at));
        both::<AxisPad, Golden>("axis_pad_reset", &s).unwrap();
    }
}

#[test]
fn axis_pad_no_x_in_four_state_simulation() {
    four_state::<AxisPad, Golden>("axis_pad_x", &stim(3, 8, 0.7, 0.7, None).0);
}
