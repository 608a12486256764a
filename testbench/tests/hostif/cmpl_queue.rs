//! `hdl/src/hostif/cmpl_queue.rs` against `nic_golden::hostif::cmpl_queue`.

use crate::common::*;
use nic_golden::hostif::cmpl_queue::{CmplQueue as Golden, In};
use nic_golden::roce::WrCompletion;
use nic_hdl::hostif::cmpl_queue::CmplQueue;
use proptest::prelude::*;
use rand::{rngs::StdRng, Rng, SeedableRng};

fn random_cmpl(rng: &mut StdRng) -> WrCompletion {
    WrCompletion {
        flow: rng.gen::<u16>() as u32,
        tag: rng.gen(),
        status: rng.gen(),
        bytes: rng.gen(),
    }
}

proptest! {
    #![proptest_config(config(8))]
    /// Random completions in and a send-queue engine that takes them often
    /// or rarely: the queue fills, holds the requester back, and empties;
    /// every field of every completion comes out as it went in, in order.
    #[test]
    fn cmpl_queue_matches_golden(
        seed in any::<u64>(), n in 10usize..300, p_in in 0.05f64..1.0, p_out in 0.05f64..1.0,
    ) {
        let mut rng = StdRng::seed_from_u64(seed);
        let s: Vec<In> = (0..n)
            .map(|_| In {
                cmpl_valid: rng.gen_bool(p_in),
                cmpl: random_cmpl(&mut rng),
                out_ready: rng.gen_bool(p_out),
            })
            .collect();
        let out = both::<CmplQueue<2>, Golden<2>>("cmpl_queue", &s)?;
        let taken: Vec<WrCompletion> = s.iter().zip(&out).filter(|(i, o)| i.cmpl_valid && o.cmpl_ready)
            .map(|(i, _)| i.cmpl)
            .collect();
        let given: Vec<WrCompletion> = s.iter().zip(&out).filter(|(i, o)| o.out_valid && i.out_ready)
            .map(|(_, o)| o.out).collect();
        prop_assert_eq!(&taken[..given.len()], &given[..]);
        prop_assert!(out.iter().all(|o| o.out_valid || o.out == WrCompletion::default()));
    }
}

/// Ready until 2^L completions are held, and again the cycle after one
/// is taken; the first is at the head 3 cycles after it was offered.
#[test]
fn ready_until_four_completions_are_held() {
    let mut rng = StdRng::seed_from_u64(1);
    let mut s: Vec<In> = (0..6)
        .map(|_| In {
            cmpl_valid: true,
            cmpl: random_cmpl(&mut rng),
            out_ready: false,
        })
        .collect();
    s.push(In {
        out_ready: true,
        ..Default::default()
    });
    s.push(In::default());
    let out = both::<CmplQueue<2>, Golden<2>>("cmpl_queue_full", &s).unwrap();
    let ready: Vec<bool> = out.iter().map(|o| o.cmpl_ready).collect();
    assert_eq!(ready, [true, true, true, true, false, false, false, true]);
    let valid: Vec<bool> = out.iter().map(|o| o.out_valid).collect();
    assert_eq!(valid, [false, false, false, true, true, true, true, true]);
    assert_eq!(out[3].out, s[0].cmpl);
}
