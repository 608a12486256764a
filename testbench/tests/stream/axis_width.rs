//! `hdl/src/stream/axis_narrow.rs` and `axis_widen.rs` against their twins
//! (`nic_golden::stream::{axis_narrow, axis_widen}`), both engines, every
//! port every cycle, on random frames with random `tvalid` and `tready`;
//! and the stream property on its own: the bytes of each frame come out
//! in order, with `tlast` and `tuser` on its last byte (beat).
//!
//! - `axis_narrow_matches_golden`, `axis_widen_matches_golden`;
//! - `axis_narrow_full_rate`, `axis_widen_full_rate`: one byte per cycle
//!   with no bubble (what the GMII transmitter needs inside a frame);
//! - `axis_narrow_then_widen_is_the_identity`: the twins back to back;
//! - four-state runs of both.

use crate::common::*;
use nic_golden::stream::axis_narrow::{self as narrow, AxisNarrow as GoldenNarrow};
use nic_golden::stream::axis_widen::{self as widen, AxisWiden as GoldenWiden};
use nic_golden::stream::Axis;
use nic_golden::Cycle;
use nic_hdl::stream::{AxisNarrow, AxisWiden};
use proptest::prelude::*;
use rand::{rngs::StdRng, Rng, SeedableRng};

/// Random frames (1..40 bytes, some with `tuser`, some last beats with
/// `tkeep[0]` clear).
fn frames(rng: &mut StdRng, n: usize) -> Vec<(Vec<u8>, bool, bool)> {
    (0..n)
        .map(|_| {
            let len = rng.gen_range(1..40);
            (
                (0..len).map(|_| rng.gen()).collect(),
                rng.gen_bool(0.2),
                rng.gen_bool(0.05),
            )
        })
        .collect()
}

/// Drive the narrowing twin with `fr` (each beat held until taken).
fn narrow_stim(
    seed: u64,
    n: usize,
    pv: f64,
    pr: f64,
) -> (Vec<narrow::In>, Vec<(Vec<u8>, bool, bool)>) {
    let mut rng = StdRng::seed_from_u64(seed);
    let fr = frames(&mut rng, n);
    let mut g = GoldenNarrow::default();
    let mut s = Vec::new();
    for (data, user, nokeep) in &fr {
        let nb = data.len().div_ceil(8);
        let mut b = 0;
        while b < nb {
            let ch = &data[8 * b..(8 * b + 8).min(data.len())];
            let mut d = 0u64;
            for (k, &x) in ch.iter().enumerate() {
                d |= (x as u64) << (8 * k);
            }
            let last = b + 1 == nb;
            let mut keep = ((1u16 << ch.len()) - 1) as u8;
            if !last {
                keep = rng.gen(); // ignored on a beat that is not the last
            } else if *nokeep {
                keep &= !1;
            }
            let i = narrow::In {
                reset: false,
                s: Axis {
                    tdata: d,
                    tkeep: keep,
                    tvalid: rng.gen_bool(pv),
                    tlast: last,
                    tuser: last && *user,
                },
                m_tready: rng.gen_bool(pr),
            };
            if i.s.tvalid && g.step(&i).s_tready {
                b += 1;
            } else if !i.s.tvalid {
                g.step(&i);
            }
            s.push(i);
        }
    }
    for _ in 0..(40 * n + 20) {
        let i = narrow::In {
            m_tready: rng.gen_bool(pr),
            ..Default::default()
        };
        s.push(i);
    }
    (s, fr)
}

fn narrow_out(s: &[narrow::In], o: &[narrow::Out]) -> Vec<(Vec<u8>, bool)> {
    let mut got = Vec::new();
    let mut cur = Vec::new();
    for (i, x) in s.iter().zip(o) {
        if x.m.tvalid && i.m_tready {
            cur.push(x.m.tdata);
            if x.m.tlast {
                got.push((std::mem::take(&mut cur), x.m.tuser));
            }
        }
    }
    got
}

fn narrow_want(fr: &[(Vec<u8>, bool, bool)]) -> Vec<(Vec<u8>, bool)> {
    fr.iter()
        .map(|(d, u, nokeep)| {
            if *nokeep {
                // The last beat sends one byte, flagged.
                let cut = 8 * ((d.len() - 1) / 8) + 1;
                (d[..cut].to_vec(), true)
            } else {
                (d.clone(), *u)
            }
        })
        .collect()
}

fn widen_stim(
    seed: u64,
    n: usize,
    pv: f64,
    pr: f64,
) -> (Vec<widen::In>, Vec<(Vec<u8>, bool, bool)>) {
    let mut rng = StdRng::seed_from_u64(seed);
    let fr = frames(&mut rng, n);
    let mut g = GoldenWiden::default();
    let mut s = Vec::new();
    for (data, user, _) in &fr {
        let mut b = 0;
        while b < data.len() {
            let last = b + 1 == data.len();
            let i = widen::In {
                reset: false,
                s: Axis {
                    tdata: data[b],
                    tkeep: rng.gen(),
                    tvalid: rng.gen_bool(pv),
                    tlast: last,
                    tuser: if last { *user } else { rng.gen() },
                },
                m_tready: rng.gen_bool(pr),
            };
            if g.step(&i).s_tready && i.s.tvalid {
                b += 1;
            }
            s.push(i);
        }
    }
    for _ in 0..(8 * n + 20) {
        s.push(widen::In {
            m_tready: rng.gen_bool(pr),
            ..Default::default()
        });
    }
    (s, fr)
}

fn widen_out(s: &[widen::In], o: &[widen::Out]) -> Vec<(Vec<u8>, bool)> {
    let mut got = Vec::new();
    let mut cur = Vec::new();
    for (i, x) in s.iter().zip(o) {
        if x.m.tvalid && i.m_tready {
            let n = x.m.tkeep.trailing_ones() as usize;
            assert_eq!(x.m.tkeep as u32, (1u32 << n) - 1, "tkeep is the low lanes");
            assert!(x.m.tlast || n == 8, "a beat that is not the last is full");
            cur.extend_from_slice(&x.m.tdata.to_le_bytes()[..n]);
            if x.m.tlast {
                got.push((std::mem::take(&mut cur), x.m.tuser));
            }
        }
    }
    got
}

proptest! {
    #![proptest_config(config(24))]
    #[test]
    fn axis_narrow_matches_golden(seed in any::<u64>(), n in 1usize..12, pv in 0.2f64..1.0, pr in 0.2f64..1.0) {
        let (s, fr) = narrow_stim(seed, n, pv, pr);
        let o = both::<AxisNarrow, GoldenNarrow>("axis_narrow", &s)?;
        prop_assert_eq!(narrow_out(&s, &o), narrow_want(&fr));
    }

    #[test]
    fn axis_widen_matches_golden(seed in any::<u64>(), n in 1usize..12, pv in 0.2f64..1.0, pr in 0.2f64..1.0) {
        let (s, fr) = widen_stim(seed, n, pv, pr);
        let o = both::<AxisWiden, GoldenWiden>("axis_widen", &s)?;
        let want: Vec<(Vec<u8>, bool)> = fr.iter().map(|(d, u, _)| (d.clone(), *u)).collect();
        prop_assert_eq!(widen_out(&s, &o), want);
    }
}

/// With `tvalid` and `tready` high, a byte leaves every cycle, also
/// across beats and frames.
#[test]
fn axis_narrow_full_rate() {
    let (s, fr) = narrow_stim(9, 10, 1.0, 1.0);
    let o = both::<AxisNarrow, GoldenNarrow>("axis_narrow_rate", &s).unwrap();
    let first = o.iter().position(|x| x.m.tvalid).unwrap();
    let total: usize = narrow_want(&fr).iter().map(|f| f.0.len()).sum();
    assert!(o[first..first + total].iter().all(|x| x.m.tvalid));
}

#[test]
fn axis_widen_full_rate() {
    let (s, _) = widen_stim(9, 10, 1.0, 1.0);
    let o = both::<AxisWiden, GoldenWiden>("axis_widen_rate", &s).unwrap();
    assert!(o.iter().all(|x| x.s_tready));
}

/// The twins back to back: 64 → 8 → 64 gives every frame back.
#[test]
fn axis_narrow_then_widen_is_the_identity() {
    let (s, fr) = narrow_stim(21, 30, 0.8, 1.0);
    let (mut n, mut w) = (GoldenNarrow::default(), GoldenWiden::default());
    let mut outs = Vec::new();
    let mut ins = Vec::new();
    for i in &s {
        let on = n.step(&narrow::In {
            m_tready: true,
            ..*i
        });
        let wi = widen::In {
            s: Axis {
                tdata: on.m.tdata,
                tvalid: on.m.tvalid,
                tlast: on.m.tlast,
                tuser: on.m.tuser,
                ..Default::default()
            },
            m_tready: true,
            ..Default::default()
        };
        outs.push(w.step(&wi));
        ins.push(wi);
    }
    assert_eq!(widen_out(&ins, &outs), narrow_want(&fr));
}

#[test]
fn axis_width_no_x_in_four_state_simulation() {
    four_state::<AxisNarrow, GoldenNarrow>("axis_narrow_x", &narrow_stim(3, 6, 0.7, 0.7).0);
    four_state::<AxisWiden, GoldenWiden>("axis_widen_x", &widen_stim(3, 6, 0.7, 0.7).0);
}
