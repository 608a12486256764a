//! `hdl/src/mac/tx_pause.rs` against `nic_golden::mac::tx_pause`.
//!
//! - `tx_pause_matches_golden`: both engines, every port every cycle:
//!   random user frames with gaps and underflows, back-pressure, received
//!   pause requests (0 to long quanta), PAUSE requests from the core
//!   (some superseded), resets. The output stream is then read frame by
//!   frame: the user frames in order and unchanged, each PAUSE frame the
//!   one the newest request asked for, no user frame started while the
//!   timer ran.
//! - `tx_pause_holds_for_the_quanta`: with frames always offered, a
//!   pause of q quanta leaves `m_axis` without a new frame for 8q cycles.
//! - `tx_pause_no_x_in_four_state_simulation`: Icarus.

use crate::common::*;
use nic_golden::mac::tx_pause::{pause_frame_words, pfc_frame_words, In, Out, TxPause as Golden};
use nic_golden::stream::Axis;
use nic_golden::Cycle;
use nic_hdl::mac::TxPause;
use proptest::prelude::*;
use rand::{rngs::StdRng, Rng, SeedableRng};

type Dut = TxPause<3>;
type Twin = Golden<3>;

const SRC: u64 = 0x02_1B_2C_3D_4E_5F;

/// Random traffic, driven through the twin so that the source holds each
/// beat until it is taken. Resets only if `resets`.
fn stimulus(seed: u64, n_frames: usize, resets: bool) -> Vec<In> {
    let mut rng = StdRng::seed_from_u64(seed);
    let p_ready = rng.gen_range(0.3..1.0);
    let p_rx = rng.gen_range(0.0..0.05);
    let p_tx = rng.gen_range(0.0..0.05);
    let mut g = Twin::default();
    let mut stim = Vec::new();
    let mut tag = 0u64;
    for _ in 0..n_frames {
        let beats = rng.gen_range(1..12);
        let mut b = 0;
        tag += 1;
        // Cycles without a beat before the next one (AXI4-Stream: once
        // offered, a beat is held until taken).
        let mut dry = if rng.gen_bool(0.3) {
            rng.gen_range(1..4)
        } else {
            0
        };
        while b < beats {
            let last = b + 1 == beats;
            let i = In {
                reset: resets && rng.gen_bool(0.002),
                s: Axis {
                    tdata: (tag << 8) | b as u64,
                    tkeep: if last { 0x0F } else { 0xFF },
                    tvalid: dry == 0,
                    tlast: last,
                    tuser: last && tag % 7 == 0,
                },
                m_tready: rng.gen_bool(p_ready),
                rx_pause_valid: rng.gen_bool(p_rx),
                rx_pause_quanta: match rng.gen_range(0..4) {
                    0 => 0,
                    1 => rng.gen(),
                    _ => rng.gen_range(1..8),
                },
                tx_pause_req: rng.gen_bool(p_tx),
                tx_pause_quanta: rng.gen(),
                tx_pause_cev: if rng.gen_bool(0.5) { 0 } else { rng.gen() },
                cfg_src_mac: SRC,
            };
            let o = g.step(&i);
            if i.reset {
                b = beats;
            } else if dry > 0 {
                dry -= 1;
            } else if o.s_tready {
                b += 1;
                dry = if rng.gen_bool(0.1) {
                    rng.gen_range(1..4)
                } else {
                    0
                };
            }
            stim.push(i);
        }
    }
    for _ in 0..200 {
        stim.push(In {
            m_tready: true,
            cfg_src_mac: SRC,
            ..Default::default()
        });
    }
    stim
}

/// The frames on `m_axis` (beats taken), each with `paused` as it was in
/// the cycle the frame was granted (the one before its first beat was
/// offered: the grant needs a beat offered, and the source holds it).
fn frames(s: &[In], o: &[Out]) -> Vec<(Vec<u64>, bool)> {
    let mut v = Vec::new();
    let mut cur = Vec::new();
    let mut in_frame = false;
    let mut start_paused = false;
    for k in 0..o.len() {
        if s[k].reset {
            cur.clear();
            in_frame = false;
            continue;
        }
        if o[k].m.tvalid && !in_frame {
            in_frame = true;
            start_paused = k > 0 && o[k - 1].paused;
        }
        if o[k].m.tvalid && s[k].m_tready {
            cur.push(o[k].m.tdata);
            if o[k].m.tlast {
                v.push((std::mem::take(&mut cur), start_paused));
                in_frame = false;
            }
        }
    }
    v
}

proptest! {
    #![proptest_config(config(24))]
    #[test]
    fn tx_pause_matches_golden(seed in any::<u64>(), n in 1usize..40) {
        let s = stimulus(seed, n, false);
        let o = both::<Dut, Twin>("tx_pause", &s)?;
        // Every user frame comes out in order and unchanged; PAUSE and
        // PFC frames are well formed (each PFC class enabled carries the
        // quanta, the others 0); no user frame is granted while the timer
        // runs (a PAUSE frame may be).
        let fr = frames(&s, &o);
        let mut user = 0u64;
        let mut pauses = 0u32;
        for (f, paused) in &fr {
            if f[0] == pause_frame_words(SRC, 0)[0] && f[1] == pause_frame_words(SRC, 0)[1] {
                let q = ((f[2] & 0xFF) << 8) | ((f[2] >> 8) & 0xFF);
                prop_assert_eq!(f.clone(), pause_frame_words(SRC, q as u16).to_vec());
                pauses += 1;
            } else if f[0] == pause_frame_words(SRC, 0)[0] {
                let cev = ((f[2] >> 8) & 0xFF) as u8;
                prop_assert!(cev != 0, "a PFC frame with no class");
                let c = cev.trailing_zeros() as usize;
                let b: Vec<u8> = f.iter().flat_map(|w| w.to_le_bytes()).collect();
                let q = u16::from_be_bytes([b[18 + 2 * c], b[19 + 2 * c]]);
                prop_assert_eq!(f.clone(), pfc_frame_words(SRC, cev, q).to_vec());
                pauses += 1;
            } else {
                user += 1;
                prop_assert_eq!(f[0] >> 8, user, "user frames in order");
                for (b, w) in f.iter().enumerate() {
                    prop_assert_eq!(*w, (user << 8) | b as u64);
                }
                prop_assert!(!paused, "a user frame granted while paused");
            }
        }
        prop_assert_eq!(user as usize, n);
        let st = o.last().unwrap().stats;
        prop_assert_eq!(st.sent, pauses);
        let asked = s.iter().filter(|i| i.tx_pause_req).count() as u32;
        prop_assert_eq!(st.sent + st.superseded, asked);
        let applied = s.iter().filter(|i| i.rx_pause_valid).count() as u32;
        prop_assert_eq!(st.applied, applied);
    }
}

#[test]
fn tx_pause_reset_anywhere() {
    for seed in 0..4 {
        let s = stimulus(seed, 30, true);
        both::<Dut, Twin>("tx_pause_reset", &s).unwrap();
    }
}

#[test]
fn tx_pause_holds_for_the_quanta() {
    for q in [1u16, 5, 100] {
        // One-beat frames offered back to back, always ready; a pause of q
        // quanta at cycle 10.
        let mut s = Vec::new();
        for k in 0..(40 + 8 * q as usize) {
            s.push(In {
                s: Axis {
                    tdata: k as u64,
                    tkeep: 0xFF,
                    tvalid: true,
                    tlast: true,
                    ..Default::default()
                },
                m_tready: true,
                rx_pause_valid: k == 10,
                rx_pause_quanta: q,
                cfg_src_mac: SRC,
                ..Default::default()
            });
        }
        let o = both::<Dut, Twin>("tx_pause_hold", &s).unwrap();
        let starts: Vec<usize> = (0..o.len()).filter(|&k| o[k].m.tvalid).collect();
        let gap = starts.windows(2).map(|w| w[1] - w[0]).max().unwrap();
        // A one-beat frame every 2 cycles (grant, beat); the pause takes
        // the timer's 8q cycles, the last of which may overlap a grant.
        assert!(
            gap >= 8 * q as usize && gap <= 8 * q as usize + 2,
            "q {q}: gap {gap}"
        );
        assert_eq!(o.iter().filter(|x| x.paused).count(), 8 * q as usize);
        assert_eq!(o.last().unwrap().stats.held, 8 * q as u32);
    }
}

#[test]
fn tx_pause_no_x_in_four_state_simulation() {
    four_state::<Dut, Twin>("tx_pause_x", &stimulus(5, 20, true));
}

#[test]
fn tx_pause_sends_pfc_for_the_named_classes() {
    // Requests of (class-enable vector, quanta): PFC for priority 3, for
    // 0 and 7, then an 802.3x PAUSE (vector 0); each goes out whole before
    // the next is asked for.
    let reqs = [(0x08u8, 0x1234u16), (0x81, 0xFFFF), (0, 7)];
    let mut s = Vec::new();
    for &(cev, q) in &reqs {
        s.push(In {
            m_tready: true,
            tx_pause_req: true,
            tx_pause_quanta: q,
            tx_pause_cev: cev,
            cfg_src_mac: SRC,
            ..Default::default()
        });
        for _ in 0..10 {
            s.push(In {
                m_tready: true,
                cfg_src_mac: SRC,
                ..Default::default()
            });
        }
    }
    let o = both::<Dut, Twin>("tx_pause_pfc", &s).unwrap();
    let fr: Vec<Vec<u64>> = frames(&s, &o).into_iter().map(|f| f.0).collect();
    assert_eq!(fr.len(), 3);
    assert_eq!(fr[0], pfc_frame_words(SRC, 0x08, 0x1234).to_vec());
    assert_eq!(fr[1], pfc_frame_words(SRC, 0x81, 0xFFFF).to_vec());
    assert_eq!(fr[2], pause_frame_words(SRC, 7).to_vec());
    // The last beat of each: two bytes kept.
    let lasts: Vec<u8> = o
        .iter()
        .filter(|x| x.m.tvalid && x.m.tlast)
        .map(|x| x.m.tkeep)
        .collect();
    assert_eq!(lasts, vec![0x03; 3]);
    assert_eq!(o.last().unwrap().stats.sent, 3);
}
