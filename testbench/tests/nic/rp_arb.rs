//! `hdl/src/nic/rp_arb.rs` against `nic_golden::nic::rp_arb`: creation
//! and removal events, received CNPs and SENTs at random, with
//! back-pressure.

use crate::common::*;
use nic_golden::cc::RpEvent;
use nic_golden::nic::rp_arb::{In, RpArb as Golden};
use nic_golden::Cycle;
use nic_hdl::nic::rp_arb::RpArb;
use proptest::prelude::*;
use rand::{rngs::StdRng, Rng, SeedableRng};

/// Source k's n-th event: its flow id says which source and which event
/// (`ctl` 0x0000.., `cnp` 0x4000.., `sent` 0x8000..).
fn ev(rng: &mut StdRng, k: usize, n: u16) -> RpEvent {
    RpEvent {
        op: rng.gen_range(0..4),
        flow: (k as u16) << 14 | (n & 0x3FFF),
        bytes: rng.gen_range(0..1 << 16),
    }
}

/// Random sources that hold an offered event until it is taken (the
/// valid/ready rule), and a reaction point ready with probability
/// `p_ready`.
fn stimulus(seed: u64, n: usize, p_ready: f64) -> Vec<In> {
    let mut rng = StdRng::seed_from_u64(seed);
    let p_offer = [0.1, 0.5, 0.6];
    let mut next = [0u16; 3];
    let mut cur: [Option<RpEvent>; 3] = [None; 3];
    let golden_readies = |s: &[In]| {
        let mut g = Golden::default();
        s.iter().map(|i| g.step(i)).last()
    };
    let mut s: Vec<In> = Vec::new();
    for _ in 0..n {
        for k in 0..3 {
            if cur[k].is_none() && rng.gen_bool(p_offer[k]) {
                cur[k] = Some(ev(&mut rng, k, next[k]));
                next[k] += 1;
            }
        }
        let i = In {
            ctl_valid: cur[0].is_some(),
            ctl: cur[0].unwrap_or_default(),
            cnp_valid: cur[1].is_some(),
            cnp: cur[1].unwrap_or_default(),
            sent_valid: cur[2].is_some(),
            sent: cur[2].unwrap_or_default(),
            event_ready: rng.gen_bool(p_ready),
        };
        s.push(i);
        let o = golden_readies(&s).unwrap();
        for (k, ready) in [o.ctl_ready, o.cnp_ready, o.sent_ready]
            .into_iter()
            .enumerate()
        {
            if ready {
                cur[k] = None;
            }
        }
    }
    s
}

proptest! {
    #![proptest_config(config(8))]
    /// Every event taken from a source leaves on `m_event` once, in its
    /// source's order; every `ready` is a register (it never follows
    /// `m_event.ready` within a cycle: the golden twin computes it before
    /// looking at the inputs).
    #[test]
    fn rp_arb_matches_golden(seed in any::<u64>(), n in 10usize..150, p_ready in 0.2f64..1.0) {
        let s = stimulus(seed, n, p_ready);
        let out = both::<RpArb, Golden>("rp_arb", &s)?;
        for k in 0..3 {
            let taken: Vec<RpEvent> = s.iter().zip(&out).filter_map(|(i, o)| match k {
                0 => (i.ctl_valid && o.ctl_ready).then_some(i.ctl),
                1 => (i.cnp_valid && o.cnp_ready).then_some(i.cnp),
                _ => (i.sent_valid && o.sent_ready).then_some(i.sent),
            }).collect();
            let given: Vec<RpEvent> = s.iter().zip(&out)
                .filter(|(i, o)| o.event_valid && i.event_ready && (o.event.flow >> 14) as usize == k)
                .map(|(_, o)| o.event).collect();
            prop_assert!(taken.len() >= given.len() && taken.len() <= given.len() + 2);
            prop_assert_eq!(&taken[..given.len()], &given[..]);
        }
    }
}

/// With all three held at once, creation goes first, then the CNP, then
/// the SENT; an event is on `m_event` 2 cycles after its handshake.
#[test]
fn creation_first_then_cnp_then_sent() {
    let mut rng = StdRng::seed_from_u64(1);
    let e = [ev(&mut rng, 0, 0), ev(&mut rng, 1, 0), ev(&mut rng, 2, 0)];
    let all = In {
        ctl_valid: true,
        ctl: e[0],
        cnp_valid: true,
        cnp: e[1],
        sent_valid: true,
        sent: e[2],
        event_ready: true,
    };
    let idle = In {
        event_ready: true,
        ..Default::default()
    };
    let s = vec![all, idle, idle, idle, idle, idle, idle];
    let out = both::<RpArb, Golden>("rp_arb_order", &s).unwrap();
    assert!(out[0].ctl_ready && out[0].cnp_ready && out[0].sent_ready);
    let given: Vec<(usize, RpEvent)> = out
        .iter()
        .enumerate()
        .filter(|(_, o)| o.event_valid)
        .map(|(t, o)| (t, o.event))
        .collect();
    assert_eq!(given, [(2, e[0]), (3, e[1]), (4, e[2])]);
}
