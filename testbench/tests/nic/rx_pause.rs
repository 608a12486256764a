//! `hdl/src/nic/rx_pause.rs` against `nic_golden::nic::rx_pause`.

use crate::common::*;
use nic_golden::nic::rx_pause::{In, Out, RxPause as Golden};
use nic_hdl::nic::rx_pause::RxPause;
use nic_spec::roce::{RX_META_XOFF, RX_META_XON};
use proptest::prelude::*;
use rand::{rngs::StdRng, Rng, SeedableRng};

proptest! {
    #![proptest_config(config(8))]
    /// A buffer that fills and drains in random steps, records that come
    /// and go, thresholds and quanta of every kind (XON above XOFF, 0 for
    /// off) changed now and then, and resets.
    #[test]
    fn rx_pause_matches_golden(
        seed in any::<u64>(), n in 10usize..400, cap in 1u16..80,
        p_cfg in 0.0f64..0.05, p_reset in 0.0f64..0.02,
    ) {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut i = In { cfg_xoff: cap / 2, cfg_xon: cap / 4, cfg_quanta: 3, ..Default::default() };
        let mut fill = 0i32;
        let s: Vec<In> = (0..n)
            .map(|_| {
                fill = (fill + rng.gen_range(-3..=3)).clamp(0, cap as i32);
                i.buf_fill = fill as u16;
                i.meta_fill = rng.gen_range(0..=16);
                if rng.gen_bool(p_cfg) {
                    i.cfg_xoff = rng.gen_range(0..=cap);
                    i.cfg_xon = rng.gen_range(0..=cap);
                    i.cfg_quanta = if rng.gen_bool(0.1) { rng.gen() } else { rng.gen_range(0..8) };
                }
                i.reset = rng.gen_bool(p_reset);
                i
            })
            .collect();
        both::<RxPause, Golden>("rx_pause", &s)?;
    }
}

/// The requests: (cycle, quanta) of every `pause_req`.
fn requests(out: &[Out]) -> Vec<(usize, u16)> {
    out.iter()
        .enumerate()
        .filter(|(_, o)| o.pause_req)
        .map(|(t, o)| (t, o.pause_quanta))
        .collect()
}

/// The fill rises past XOFF: one XOFF two cycles later; held there, the
/// XOFF is sent again every quanta × 4 cycles (+ 1 for the cycle that
/// sends it); the fill falls to XON: one XON. Records alone pause too.
#[test]
fn xoff_at_the_threshold_refreshed_while_full_xon_when_drained() {
    let base = In {
        cfg_xoff: 100,
        cfg_xon: 50,
        cfg_quanta: 5,
        ..Default::default()
    };
    let mut s = vec![base; 60];
    for (t, i) in s.iter_mut().enumerate() {
        i.buf_fill = match t {
            0..=9 => 10 * t as u16,
            10..=44 => 100,
            45..=49 => 60,
            _ => 50,
        };
    }
    // Then records alone: RX_META_XOFF waiting pauses, RX_META_XON releases.
    for t in 0..20 {
        s.push(In {
            meta_fill: if t < 5 {
                RX_META_XOFF as u8
            } else {
                RX_META_XON as u8
            },
            ..base
        });
    }
    let out = both::<RxPause, Golden>("rx_pause_directed", &s).unwrap();
    let r = requests(&out);
    // First XOFF: fill 100 at cycle 10, compared in 10, decided in 11,
    // on the port in 12.
    assert_eq!(r[0], (12, 5));
    // Refreshed every 5 × 4 + 1 cycles while above XON (60, between
    // the thresholds from cycle 45, holds the pause).
    assert_eq!(r[1], (33, 5));
    // The fill is 50 (= XON) from cycle 50: XON on the port in 52.
    assert_eq!(r[2], (52, 0));
    // Records: 12 waiting from cycle 60 → XOFF in 62; 8 from 65 → XON in 67.
    assert_eq!(&r[3..], &[(62, 5), (67, 0)]);
    let last = out.last().unwrap();
    assert_eq!((last.xoffs, last.xons), (3, 2));
    assert_eq!(
        last.cycles as usize,
        (52 - 12) + (67 - 62),
        "cycles with the pause in force"
    );
    assert!(!last.paused);
    // Pause off (XOFF 0 or quanta 0): never a request, whatever the fill.
    for off in [
        In {
            cfg_xoff: 0,
            ..base
        },
        In {
            cfg_quanta: 0,
            ..base
        },
    ] {
        let s: Vec<In> = (0..40)
            .map(|t| In {
                buf_fill: 3 * t,
                meta_fill: 16,
                ..off
            })
            .collect();
        let out = both::<RxPause, Golden>("rx_pause_off", &s).unwrap();
        assert!(requests(&out).is_empty());
    }
}
