//! `hdl/src/mac/mac_1g.rs` (`Mac1g`, its two clocks tied to one) against
//! `nic_golden::mac::mac_1g`, the blocks' twins joined.
//!
//! - `mac_1g_one_clock_matches_golden`: both engines, every port every
//!   cycle, in loopback: the transmitter's GMII byte times come back into
//!   the receiver 1 to 4 cycles later, some data bytes with a bit flipped
//!   and some with `rx_er`; user frames of 1 to 140 bytes and now and then
//!   one over the 1522-byte limit with its FCS (oversize), some aborted
//!   (`tuser`), gaps between frames; `rx_axis.tready` high, as the
//!   boards' receive FIFO keeps it; PAUSE and
//!   PFC requests from the core, which come back as received control
//!   frames and stop the transmitter. Then, against the byte-level GMII
//!   reference ([`decode`]):
//!   - the byte times on the wire decode to the user frames padded to 60
//!     bytes, in order, each aborted one bad, and at most a PAUSE frame
//!     per request;
//!   - the receiver passes on exactly the good frames of the byte times
//!     it got that are not MAC control frames, in order; its counters and
//!     `rx_pause_valid` agree with the reference.
//! - `mac_1g_one_clock_stalls_match_golden`: `rx_axis.tready` low for 1
//!   to 3 cycles now and then, which loses bytes (the RTL's docs): both
//!   engines against the twin, every port every cycle, and the loss seen.
//! - `mac_1g_one_clock_resets`: resets of either side alone, anywhere,
//!   with those stalls (both engines; in `make test-full`).

use super::{beat, is_ctl};
use crate::common::*;
use nic_golden::mac::gmii::{decode, Sym};
use nic_golden::mac::mac_1g::{In, Mac1g as Twin, Out};
use nic_golden::stream::Axis;
use nic_golden::Cycle;
use nic_spec::mac::MAX_FRAME;
use nic_testbench::blocks::Mac1gOneClock as Dut;
use proptest::prelude::*;
use rand::{rngs::StdRng, Rng, SeedableRng};

const SRC: u64 = 0x02_1B_2C_3D_4E_5F;

/// A frame the source offers: its bytes and whether it is aborted.
#[derive(Clone, Debug)]
struct Sent {
    data: Vec<u8>,
    abort: bool,
}

/// The stimulus (recorded through the twin: the source holds each beat
/// until taken, the receiver gets the transmitter's byte times back
/// `delay` cycles later), the frames offered, and the byte times that
/// reached the receiver.
struct Run {
    stim: Vec<In>,
    sent: Vec<Sent>,
    rx_syms: Vec<Sym>,
    pause_reqs: usize,
}

fn frame_len(rng: &mut StdRng) -> usize {
    match rng.gen_range(0..20) {
        0 => rng.gen_range(MAX_FRAME - 4..MAX_FRAME + 8),
        1..=6 => rng.gen_range(1..60),
        _ => rng.gen_range(60..=140),
    }
}

fn loopback(seed: u64, n_frames: usize, resets: bool, stalls: bool) -> Run {
    let mut rng = StdRng::seed_from_u64(seed);
    let delay = rng.gen_range(1..=4usize);
    let p_flip = rng.gen_range(0.0..0.002);
    let p_er = rng.gen_range(0.0..0.001);
    let p_pause = rng.gen_range(0.0..0.004);
    let mut sent: Vec<Sent> = (0..n_frames)
        .map(|k| {
            let len = frame_len(&mut rng);
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
    let mut tx_syms: Vec<Sym> = Vec::new();
    let mut rx_syms = Vec::new();
    let (mut f, mut b) = (0usize, 0usize);
    let mut dry = 0u32;
    let mut pause_reqs = 0;
    let mut tail = 0;
    let mut stall = 0u32;
    while tail < 1500 {
        let k = stim.len();
        // With `stalls`, `rx_axis.tready` low for 1 to 3 cycles now
        // and then.
        stall = if stall > 0 {
            stall - 1
        } else if stalls && rng.gen_bool(0.05) {
            rng.gen_range(1..=3)
        } else {
            0
        };
        let (rxd, dv, er) = if k > delay {
            let (mut d, dv, er) = tx_syms[k - 1 - delay];
            if dv && rng.gen_bool(p_flip) {
                d ^= 1 << rng.gen_range(0..8);
            }
            (d, dv, er || (dv && rng.gen_bool(p_er)))
        } else {
            (0, false, false)
        };
        let mut i = In {
            gmii_rxd: rxd,
            gmii_rx_dv: dv,
            gmii_rx_er: er,
            cfg_src_mac: SRC,
            rx_tready: stall == 0,
            ..Default::default()
        };
        if resets && rng.gen_bool(0.0005) {
            i.rx_rst = rng.gen_bool(0.5);
            i.tx_rst = !i.rx_rst || rng.gen_bool(0.3);
        }
        // No PAUSE request in the last 1000 cycles: every frame sent is
        // received and counted before the end.
        if tail < 500 && rng.gen_bool(p_pause) {
            i.tx_pause_req = true;
            i.tx_pause_quanta = rng.gen_range(0..3);
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
        tx_syms.push((o.gmii_txd, o.gmii_tx_en, o.gmii_tx_er));
        rx_syms.push((rxd, dv, er));
        if let Some(s) = frame {
            if i.tx_rst {
                // The frame is cut: offer it again from its start.
                b = 0;
            } else if dry > 0 {
                dry -= 1;
            } else if o.tx_tready {
                b += 1;
                if b == s.data.len().div_ceil(8) {
                    f += 1;
                    b = 0;
                    dry = if rng.gen_bool(0.3) {
                        rng.gen_range(1..20)
                    } else {
                        0
                    };
                }
            }
        }
        stim.push(i);
        if stim.len() > 400_000 {
            panic!("loopback: the source never finished");
        }
    }
    sent.truncate(f);
    Run {
        stim,
        sent,
        rx_syms,
        pause_reqs,
    }
}

/// The frames out of the receiver: bytes and `tuser`.
fn frames_out(o: &[Out], stim: &[In]) -> Vec<(Vec<u8>, bool)> {
    let mut got = Vec::new();
    let mut cur = Vec::new();
    for (x, i) in o.iter().zip(stim) {
        if !(x.rx.tvalid && i.rx_tready) {
            continue;
        }
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

/// The good frames out of the receiver, and the byte-level reference's
/// good frames of the byte times it got (MAC control frames left out).
fn rx_frames(o: &[Out], r: &Run) -> (Vec<Vec<u8>>, Vec<Vec<u8>>) {
    let want = decode(&r.rx_syms, MAX_FRAME)
        .into_iter()
        .filter(|f| f.good && !is_ctl(&f.data))
        .map(|f| f.data)
        .collect();
    let got = frames_out(o, &r.stim)
        .into_iter()
        .filter(|f| !f.1)
        .map(|f| f.0)
        .collect();
    (got, want)
}

proptest! {
    #![proptest_config(config(6))]
    #[test]
    fn mac_1g_one_clock_matches_golden(seed in any::<u64>(), n in 1usize..24) {
        let r = loopback(seed, n, false, false);
        let o = both::<Dut, Twin>("mac_1g_one_clock", &r.stim)?;
        // The wire: the user frames padded, aborted ones bad; the PAUSE
        // frames (at most one per request).
        let tx: Vec<Sym> = o.iter().map(|x| (x.gmii_txd, x.gmii_tx_en, x.gmii_tx_er)).collect();
        let on_wire = decode(&tx, 1 << 16);
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
        let dec = decode(&r.rx_syms, MAX_FRAME);
        let (got, want) = rx_frames(&o, &r);
        prop_assert_eq!(got, want);
        let good_pauses = dec.iter().filter(|f| f.good && is_ctl(&f.data)).count();
        let last = o.last().unwrap();
        prop_assert_eq!(last.stats_rx.pause as usize, good_pauses);
        prop_assert_eq!(o.iter().filter(|x| x.rx_pause_valid).count(), good_pauses);
        prop_assert_eq!(last.stats_pause.sent as usize, pauses);
    }
}

/// Stalls of the receive stream: the RTL and the twin agree on every
/// port, and some frame loses bytes (so the docs' warning is the truth).
#[test]
fn mac_1g_one_clock_stalls_match_golden() {
    let r = loopback(7, 12, false, true);
    let o = both::<Dut, Twin>("mac_1g_one_clock_stalls", &r.stim).unwrap();
    let (got, want) = rx_frames(&o, &r);
    assert_ne!(got, want, "a stall while a beat waits loses bytes");
}

#[test]
#[ignore = "make test-full: resets anywhere, both engines"]
fn mac_1g_one_clock_resets() {
    for seed in 0..2 {
        let r = loopback(200 + seed, 16, true, true);
        both::<Dut, Twin>("mac_1g_one_clock_reset", &r.stim).unwrap();
    }
}
