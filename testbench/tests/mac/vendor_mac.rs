//! `hdl/src/mac/vendor_mac.rs` (`VendorMacAdapter`, its three clocks
//! tied to one) against `nic_golden::mac::vendor_mac`, its parts' twins
//! joined.
//!
//! - `vendor_mac_one_clock_matches_golden`: both engines, every port
//!   every cycle. The core offers frames of 1 to 200 bytes (the FIFOs of
//!   this instance hold 128), with gaps inside and between them, some
//!   ending with `tuser`; the MAC's `tready` is random; the MAC offers
//!   frames on receive without waiting for `tready` (it has none), the
//!   core's `tready` random. Then:
//!   - transmit: every frame that fits comes out whole, padded to 60
//!     bytes, in order, `tvalid` never falling inside it; the rest are
//!     counted `dropped`;
//!   - receive: the frames out are the frames in, in order, some dropped
//!     whole, each drop counted.
//! - `vendor_mac_one_clock_resets`: resets of any side alone, anywhere
//!   (both engines; in `make test-full`).

use super::beat;
use crate::common::*;
use nic_golden::mac::vendor_mac::{In, Out, VendorMacAdapter as Twin};
use nic_golden::stream::Axis;
use nic_golden::Cycle;
use nic_testbench::blocks::VendorMacOneClock;
use proptest::prelude::*;
use rand::{rngs::StdRng, Rng, SeedableRng};

/// 2^4 words: 128 bytes a FIFO.
const A: usize = 4;
type Dut = VendorMacOneClock<A>;

/// A frame as beats: the bytes, 8 a beat, `tuser` on the last.
fn beats(data: &[u8], user: bool) -> Vec<Axis> {
    (0..data.len().div_ceil(8))
        .map(|b| beat(data, b, user))
        .collect()
}

struct Run {
    stim: Vec<In>,
    tx_sent: Vec<(Vec<u8>, bool)>,
    rx_sent: Vec<(Vec<u8>, bool)>,
}

fn frame(rng: &mut StdRng) -> (Vec<u8>, bool) {
    let len = match rng.gen_range(0..4) {
        0 => rng.gen_range(1..60),
        1 => rng.gen_range(55..=66),
        2 => rng.gen_range(120..=200),
        _ => rng.gen_range(1..=128),
    };
    ((0..len).map(|_| rng.gen()).collect(), rng.gen_bool(0.1))
}

/// The stimulus, recorded through the twin (the core holds each beat
/// until taken; the MAC's receive side does not wait).
fn run(seed: u64, n: usize, resets: bool) -> Run {
    let mut rng = StdRng::seed_from_u64(seed);
    let tx_sent: Vec<_> = (0..n).map(|_| frame(&mut rng)).collect();
    let rx_sent: Vec<_> = (0..n).map(|_| frame(&mut rng)).collect();
    let tx_beats: Vec<Axis> = tx_sent.iter().flat_map(|(d, u)| beats(d, *u)).collect();
    let rx_beats: Vec<Axis> = rx_sent.iter().flat_map(|(d, u)| beats(d, *u)).collect();
    let (p_tx_ready, p_rx_ready) = (rng.gen_range(0.3..1.0), rng.gen_range(0.3..1.0));
    let mut g = Twin::<A>::default();
    let (mut t, mut r) = (0usize, 0usize);
    let mut stim = Vec::new();
    let mut tail = 0;
    let mut offering = false;
    while tail < 200 {
        let mut i = In {
            mac_tx_tready: rng.gen_bool(p_tx_ready),
            rx_tready: rng.gen_bool(p_rx_ready),
            ..In::default()
        };
        if resets && rng.gen_bool(0.003) {
            match rng.gen_range(0..3) {
                0 => i.core_rst = true,
                1 => i.tx_rst = true,
                _ => i.rx_rst = true,
            }
        }
        // A beat offered stays offered until taken (AXI4-Stream).
        offering = t < tx_beats.len() && (offering || rng.gen_bool(0.8));
        if offering {
            i.tx = tx_beats[t];
        }
        if r < rx_beats.len() && rng.gen_bool(0.6) {
            i.mac_rx = rx_beats[r];
            r += 1;
        }
        if t >= tx_beats.len() && r >= rx_beats.len() {
            tail += 1;
        }
        let o = g.step(&i);
        if i.tx.tvalid && o.tx_tready {
            t += 1;
            offering = false;
        }
        stim.push(i);
        assert!(stim.len() < 100_000, "the core's frames never went");
    }
    Run {
        stim,
        tx_sent,
        rx_sent,
    }
}

/// The frames a stream carried (handshakes only): bytes, `tuser`, and
/// whether `tvalid` fell inside it.
fn frames(o: &[(Axis, bool)]) -> Vec<(Vec<u8>, bool, bool)> {
    let mut got = Vec::new();
    let (mut cur, mut open, mut gap) = (Vec::new(), false, false);
    for (m, ready) in o {
        if open && !m.tvalid {
            gap = true;
        }
        if !(m.tvalid && *ready) {
            continue;
        }
        open = true;
        for b in 0..8 {
            if (m.tkeep >> b) & 1 != 0 {
                cur.push((m.tdata >> (8 * b)) as u8);
            }
        }
        if m.tlast {
            got.push((std::mem::take(&mut cur), m.tuser, gap));
            open = false;
            gap = false;
        }
    }
    got
}

/// Whether `sub` is `all` with some frames left out, in order.
fn in_order(sub: &[(Vec<u8>, bool)], all: &[(Vec<u8>, bool)]) -> bool {
    let mut it = all.iter();
    sub.iter().all(|f| it.any(|a| a == f))
}

proptest! {
    #![proptest_config(config(8))]
    #[test]
    fn vendor_mac_one_clock_matches_golden(seed in any::<u64>(), n in 1usize..24) {
        let r = run(seed, n, false);
        let o: Vec<Out> = both::<Dut, Twin<A>>("vendor_mac_one_clock", &r.stim)?;
        let last = *o.last().unwrap();
        // Transmit: the frames that fit, padded, whole and in order.
        let tx: Vec<_> = o.iter().zip(&r.stim).map(|(x, i)| (x.mac_tx, i.mac_tx_tready)).collect();
        let tx_out = frames(&tx);
        prop_assert!(tx_out.iter().all(|f| !f.2), "tvalid fell inside a frame to the MAC");
        let want: Vec<(Vec<u8>, bool)> = r
            .tx_sent
            .iter()
            .filter(|(d, _)| d.len().max(60) <= 8 << A)
            .map(|(d, u)| {
                let mut d = d.clone();
                d.resize(d.len().max(60), 0);
                (d, *u)
            })
            .collect();
        let got: Vec<(Vec<u8>, bool)> = tx_out.into_iter().map(|f| (f.0, f.1)).collect();
        prop_assert_eq!(got, want);
        prop_assert_eq!(
            last.stats_tx_fifo.dropped as usize,
            r.tx_sent.len() - r.tx_sent.iter().filter(|(d, _)| d.len().max(60) <= 8 << A).count()
        );
        // Receive: whole frames in order, each one left out counted.
        let rx: Vec<_> = o.iter().zip(&r.stim).map(|(x, i)| (x.rx, i.rx_tready)).collect();
        let got: Vec<(Vec<u8>, bool)> = frames(&rx).into_iter().map(|f| (f.0, f.1)).collect();
        prop_assert!(in_order(&got, &r.rx_sent), "a received frame cut or out of order");
        prop_assert_eq!(got.len() + last.stats_rx_fifo.dropped as usize, r.rx_sent.len());
    }
}

#[test]
#[ignore = "make test-full: resets of each side, both engines"]
fn vendor_mac_one_clock_resets() {
    for seed in 0..3 {
        let r = run(300 + seed, 20, true);
        both::<Dut, Twin<A>>("vendor_mac_one_clock_reset", &r.stim).unwrap();
    }
}
