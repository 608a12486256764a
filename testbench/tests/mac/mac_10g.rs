//! `hdl/src/mac/mac_10g.rs` (`Mac10g`, its two clocks tied to one, as
//! `hpcc_nic_10g` has it) against `nic_golden::mac::mac_10g`, the blocks'
//! twins joined.
//!
//! - `mac_10g_one_clock_matches_golden`: both engines, every port every
//!   cycle, in loopback: the transmitter's XGMII words come back into the
//!   receiver 1 to 4 cycles later, some of them with a data bit flipped;
//!   user frames of 1 to 140 bytes (over the 128-byte limit of this
//!   instance with their FCS: oversize), some aborted (`tuser`), gaps
//!   between frames; `rx_axis.tready` random (ignored); PAUSE and PFC
//!   requests from the core, which come back as received PAUSE or PFC
//!   frames and stop the transmitter. Then:
//!   - the words on the wire decode ([`decode`]) to the user frames padded
//!     to 60 bytes, in order, each aborted one bad, and a PAUSE frame per
//!     request sent;
//!   - the receiver passes on exactly the good frames of the words it got
//!     that are not MAC control frames, in order; its counters and
//!     `rx_pause_valid` agree with the reference decode.
//! - `mac_10g_one_clock_resets`: resets of either side alone, anywhere
//!   (both engines).
//! - `mac_10g_one_clock_no_x_in_four_state_simulation`: Icarus.

use super::{beat, is_ctl};
use crate::common::*;
use nic_golden::mac::mac_10g::{In, Mac10g as Golden, Out};
use nic_golden::mac::xgmii::decode;
use nic_golden::stream::Axis;
use nic_golden::Cycle;
use nic_spec::mac::ctl;
use nic_testbench::blocks::Mac10gOneClock;
use proptest::prelude::*;
use rand::{rngs::StdRng, Rng, SeedableRng};

/// This instance's receive limit, FCS included: frames over 124 bytes of
/// data are oversize.
const MAX: usize = 128;
type Dut = Mac10gOneClock<MAX>;
type Twin = Golden<MAX>;

const SRC: u64 = 0x02_1B_2C_3D_4E_5F;

/// A frame the source offers: its bytes and whether it is aborted.
#[derive(Clone, Debug)]
struct Sent {
    data: Vec<u8>,
    abort: bool,
}

/// The stimulus (recorded through the twin: the source holds each beat
/// until taken, the receiver gets the transmitter's words back `delay`
/// cycles later, corrupted with probability `p_flip` a word), the frames
/// offered, and the words that reached the receiver.
struct Run {
    stim: Vec<In>,
    sent: Vec<Sent>,
    rx_words: Vec<(u64, u8)>,
    pause_reqs: usize,
}

fn loopback(seed: u64, n_frames: usize, resets: bool) -> Run {
    let mut rng = StdRng::seed_from_u64(seed);
    let delay = rng.gen_range(1..=4usize);
    let p_flip = rng.gen_range(0.0..0.02);
    let p_pause = rng.gen_range(0.0..0.03);
    let mut sent: Vec<Sent> = (0..n_frames)
        .map(|k| {
            let len = match rng.gen_range(0..4) {
                0 => rng.gen_range(1..60),
                1 => rng.gen_range(60..=124),
                2 => rng.gen_range(125..=140),
                _ => rng.gen_range(1..=140),
            };
            let mut data: Vec<u8> = (0..len).map(|_| rng.gen()).collect();
            // Never a MAC control EtherType by chance.
            if is_ctl(&data) {
                data[12] ^= 0x80;
            }
            Sent {
                data,
                abort: k % 9 == 4,
            }
        })
        .collect();
    let mut g = Twin::default();
    let mut stim = Vec::new();
    let mut tx_words: Vec<(u64, u8)> = Vec::new();
    let mut rx_words = Vec::new();
    let (mut f, mut b) = (0usize, 0usize);
    let mut dry = 0u32;
    let mut pause_reqs = 0;
    let idle = (nic_spec::mac::xgmii::IDLE_WORD, 0xFFu8);
    let mut tail = 0;
    while tail < 400 {
        let k = stim.len();
        let (rxd, rxc) = if k > delay {
            let (mut d, c) = tx_words[k - 1 - delay];
            if c == 0 && rng.gen_bool(p_flip) {
                d ^= 1 << rng.gen_range(0..64);
            }
            (d, c)
        } else {
            idle
        };
        let mut i = In {
            xgmii_rxd: rxd,
            xgmii_rxc: rxc,
            cfg_src_mac: SRC,
            // Ignored: a MAC cannot stall the wire.
            rx_tready: rng.gen_bool(0.5),
            ..Default::default()
        };
        if resets && rng.gen_bool(0.002) {
            i.rx_rst = rng.gen_bool(0.5);
            i.tx_rst = !i.rx_rst || rng.gen_bool(0.3);
        }
        // No PAUSE request in the last 200 cycles: every frame sent is
        // received and counted before the end.
        if tail < 200 && rng.gen_bool(p_pause) {
            i.tx_pause_req = true;
            i.tx_pause_quanta = rng.gen_range(0..6);
            i.tx_pause_cev = if rng.gen_bool(0.5) { 0 } else { rng.gen() };
            pause_reqs += 1;
        }
        let frame = sent.get(f).cloned();
        if let Some(s) = &frame {
            i.tx = Axis {
                tvalid: dry == 0,
                ..beat(&s.data, b, s.abort)
            };
        } else {
            tail += 1;
        }
        let o = g.step(&i);
        tx_words.push((o.xgmii_txd, o.xgmii_txc));
        rx_words.push((rxd, rxc));
        if let Some(s) = frame {
            if i.tx_rst {
                // The frame is cut: offer it again from its start.
                b = 0;
            } else if dry > 0 {
                dry -= 1;
            } else if o.tx_tready {
                b += 1;
                // Gaps between frames only: one inside a frame is an
                // underflow, which the transmitter aborts (its own test
                // covers that).
                if b == s.data.len().div_ceil(8) {
                    f += 1;
                    b = 0;
                    dry = if rng.gen_bool(0.3) {
                        rng.gen_range(1..6)
                    } else {
                        0
                    };
                }
            }
        }
        stim.push(i);
        if stim.len() > 200_000 {
            panic!("loopback: the source never finished");
        }
    }
    // Frames cut by a transmit reset were offered again: the list stays.
    sent.truncate(f);
    Run {
        stim,
        sent,
        rx_words,
        pause_reqs,
    }
}

/// The frames out of the receiver: bytes and `tuser`.
fn frames_out(o: &[Out]) -> Vec<(Vec<u8>, bool)> {
    let mut got = Vec::new();
    let mut cur = Vec::new();
    for x in o.iter().filter(|x| x.rx.tvalid) {
        for b in 0..8 {
            if (x.rx.tkeep >> b) & 1 != 0 {
                cur.push((x.rx.tdata >> (8 * b)) as u8);
            }
        }
        if x.rx.tlast {
            got.push((std::mem::take(&mut cur), x.rx.tuser));
        }
    }
    got
}

proptest! {
    #![proptest_config(config(12))]
    #[test]
    fn mac_10g_one_clock_matches_golden(seed in any::<u64>(), n in 1usize..40) {
        let r = loopback(seed, n, false);
        let o = both::<Dut, Twin>("mac_10g_one_clock", &r.stim)?;
        // The wire: the user frames padded, aborted ones bad; the PAUSE
        // frames (one per request taken, at most one per request).
        let tx: Vec<(u64, u8)> = o.iter().map(|x| (x.xgmii_txd, x.xgmii_txc)).collect();
        let (on_wire, _) = decode(&tx, 1 << 16);
        let user: Vec<_> = on_wire.iter().filter(|x| !is_ctl(&x.data)).collect();
        prop_assert_eq!(user.len(), r.sent.len());
        for (w, s) in user.iter().zip(&r.sent) {
            let mut want = s.data.clone();
            if want.len() < 60 {
                want.resize(60, 0);
            }
            if s.abort {
                prop_assert!(!w.good, "an aborted frame went out good");
            } else {
                prop_assert!(w.good, "a frame went out bad");
                prop_assert_eq!(&w.data, &want);
            }
        }
        let pauses = on_wire.iter().filter(|x| is_ctl(&x.data)).count();
        prop_assert!(pauses <= r.pause_reqs);
        prop_assert!(pauses > 0 || r.pause_reqs == 0, "no PAUSE frame sent");
        // The receiver: the reference's good frames of what it got.
        let (dec, _) = decode(&r.rx_words, MAX);
        let want: Vec<Vec<u8>> = dec
            .iter()
            .filter(|f| f.good && !is_ctl(&f.data))
            .map(|f| f.data.clone())
            .collect();
        let got: Vec<Vec<u8>> = frames_out(&o).into_iter().filter(|f| !f.1).map(|f| f.0).collect();
        prop_assert_eq!(got, want);
        let good_pauses = dec.iter().filter(|f| f.good && is_ctl(&f.data)).count();
        let last = o.last().unwrap();
        prop_assert_eq!(last.stats_rx.pause as usize, good_pauses);
        prop_assert_eq!(o.iter().filter(|x| x.rx_pause_valid).count(), good_pauses);
        prop_assert_eq!(last.stats_pause.sent as usize, pauses);
        // A received PAUSE with quanta stops the transmitter for a while.
        let held = o.iter().filter(|x| x.tx_paused).count();
        let asked: u32 = dec
            .iter()
            .filter(|f| f.good && is_ctl(&f.data))
            .map(|f| requested_quanta(&f.data))
            .sum();
        prop_assert!(asked == 0 || held > 0, "PAUSE quanta {} received, never paused", asked);
    }
}

/// The quanta a good MAC control frame asks for: a PAUSE's, or a PFC
/// frame's largest time among the classes it enables.
fn requested_quanta(d: &[u8]) -> u32 {
    let op = u16::from_be_bytes([d[14], d[15]]);
    if op == ctl::OP_PFC {
        (0..8)
            .filter(|c| (d[17] >> c) & 1 == 1)
            .map(|c| u16::from_be_bytes([d[18 + 2 * c], d[19 + 2 * c]]) as u32)
            .max()
            .unwrap_or(0)
    } else {
        u16::from_be_bytes([d[16], d[17]]) as u32
    }
}

#[test]
fn mac_10g_one_clock_resets() {
    for seed in 0..3 {
        let r = loopback(100 + seed, 40, true);
        both::<Dut, Twin>("mac_10g_one_clock_reset", &r.stim).unwrap();
    }
}

#[test]
fn mac_10g_one_clock_no_x_in_four_state_simulation() {
    four_state::<Dut, Twin>("mac_10g_one_clock_x", &loopback(5, 20, true).stim);
}
