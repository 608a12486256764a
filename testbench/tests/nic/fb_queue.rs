//! `hdl/src/nic/fb_queue.rs` against `nic_golden::nic::fb_queue`.

use crate::common::*;
use nic_golden::nic::fb_queue::{FbQueue as Golden, In};
use nic_golden::roce::{CcFeedback, Telemetry};
use nic_hdl::nic::fb_queue::FbQueue;
use proptest::prelude::*;
use rand::{rngs::StdRng, Rng, SeedableRng};

fn random_feedback(rng: &mut StdRng) -> CcFeedback {
    CcFeedback {
        flow: rng.gen_range(0..40),
        psn: rng.gen(),
        aeth: rng.gen(),
        opcode: rng.gen(),
        tlm: Telemetry {
            present: rng.gen(),
            hdr: rng.gen(),
            hop0: rng.gen(),
            hop1: rng.gen(),
            hop2: rng.gen(),
            hop3: rng.gen(),
            hop4: rng.gen(),
        },
    }
}

/// The record as the queue's ports carry it (4 flow bits, a 24-bit PSN).
fn masked(r: &CcFeedback) -> CcFeedback {
    CcFeedback {
        flow: r.flow & 15,
        psn: r.psn & 0xFF_FFFF,
        ..*r
    }
}

proptest! {
    #![proptest_config(config(8))]
    /// Random feedback in and a requester that takes it often or rarely:
    /// the queue fills, holds the dispatcher back, and empties; every
    /// field of every record comes out as it went in, in order, and the
    /// high-water mark is the most held.
    #[test]
    fn fb_queue_matches_golden(
        seed in any::<u64>(), n in 10usize..300, p_in in 0.05f64..1.0, p_out in 0.05f64..1.0,
    ) {
        let mut rng = StdRng::seed_from_u64(seed);
        let s: Vec<In> = (0..n)
            .map(|_| In {
                fb_valid: rng.gen_bool(p_in),
                fb: random_feedback(&mut rng),
                out_ready: rng.gen_bool(p_out),
            })
            .collect();
        let out = both::<FbQueue<4, 2>, Golden<4, 2>>("fb_queue", &s)?;
        let taken: Vec<CcFeedback> = s.iter().zip(&out).filter(|(i, o)| i.fb_valid && o.fb_ready)
            .map(|(i, _)| masked(&i.fb))
            .collect();
        let given: Vec<CcFeedback> = s.iter().zip(&out).filter(|(i, o)| o.out_valid && i.out_ready)
            .map(|(_, o)| o.out).collect();
        prop_assert_eq!(&taken[..given.len()], &given[..]);
        prop_assert!(out.iter().all(|o| o.high_water <= 4));
    }
}

/// Ready until 2^L records are held, and again once one is taken; the
/// high-water mark reads 4 one cycle after the fourth is counted.
#[test]
fn ready_until_four_records_are_held() {
    let mut rng = StdRng::seed_from_u64(1);
    let mut s: Vec<In> = (0..6)
        .map(|_| In {
            fb_valid: true,
            fb: random_feedback(&mut rng),
            out_ready: false,
        })
        .collect();
    s.push(In {
        out_ready: true,
        ..Default::default()
    });
    s.push(In::default());
    let out = both::<FbQueue<4, 2>, Golden<4, 2>>("fb_queue_full", &s).unwrap();
    let ready: Vec<bool> = out.iter().map(|o| o.fb_ready).collect();
    assert_eq!(ready, [true, true, true, true, false, false, false, true]);
    let most: Vec<u32> = out.iter().map(|o| o.high_water).collect();
    assert_eq!(most, [0, 0, 1, 2, 3, 4, 4, 4]);
}
