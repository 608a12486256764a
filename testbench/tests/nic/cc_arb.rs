//! `hdl/src/nic/cc_arb.rs` against `nic_golden::nic::cc_arb`: creation
//! events, the requester's and the receiver's events at random, with
//! back-pressure.

use crate::common::*;
use nic_golden::cc::CcEvent;
use nic_golden::nic::cc_arb::{CcArb as Golden, In};
use nic_golden::Cycle;
use nic_hdl::nic::cc_arb::CcArb;
use proptest::prelude::*;
use rand::{rngs::StdRng, Rng, SeedableRng};

/// Source k's n-th event: its flow id says which source and which event
/// (`ctl` 0x0000.., `ack` 0x4000.., `int` 0x8000..); the rest at random.
fn event(rng: &mut StdRng, k: usize, n: u16) -> CcEvent {
    CcEvent {
        op: rng.gen_range(0..4),
        variant: rng.gen(),
        flow: (k as u16) << 14 | (n & 0x3FFF),
        seq: rng.gen(),
        snd_nxt: rng.gen(),
        now: rng.gen(),
        nhops: rng.gen_range(0..16),
        hop0: rng.gen(),
        hop1: rng.gen(),
        hop2: rng.gen(),
        hop3: rng.gen(),
        hop4: rng.gen(),
    }
}

/// Sources that hold an offered event until it is taken (the valid/ready
/// rule; the readies are registers, so the twin's for a cycle do not
/// depend on that cycle's inputs), and a CC ready with probability
/// `p_ready`.
/// `p_offer(k, t)`: the chance that source k, idle, offers at cycle t.
fn stimulus(seed: u64, n: usize, p_offer: impl Fn(usize, usize) -> f64, p_ready: f64) -> Vec<In> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut g = Golden::default();
    let mut next = [0u16; 3];
    let mut cur: [Option<CcEvent>; 3] = [None; 3];
    let mut s = Vec::with_capacity(n);
    for t in 0..n {
        for k in 0..3 {
            if cur[k].is_none() && rng.gen_bool(p_offer(k, t)) {
                cur[k] = Some(event(&mut rng, k, next[k]));
                next[k] += 1;
            }
        }
        let i = In {
            ctl_valid: cur[0].is_some(),
            ctl: cur[0].unwrap_or_default(),
            ack_valid: cur[1].is_some(),
            ack: cur[1].unwrap_or_default(),
            int_valid: cur[2].is_some(),
            int: cur[2].unwrap_or_default(),
            event_ready: rng.gen_bool(p_ready),
        };
        let o = g.step(&i);
        for (k, ready) in [o.ctl_ready, o.ack_ready, o.int_ready]
            .into_iter()
            .enumerate()
        {
            if ready {
                cur[k] = None;
            }
        }
        s.push(i);
    }
    s
}

proptest! {
    #![proptest_config(config(8))]
    /// Both engines, every port, every cycle; and every event taken from
    /// a source leaves on `m_event` once, in its source's order (at most
    /// the last one of each source still held at the end).
    #[test]
    fn cc_arb_matches_golden(seed in any::<u64>(), n in 10usize..150, p_ready in 0.2f64..1.0) {
        let s = stimulus(seed, n, |k, _| [0.1, 0.5, 0.5][k], p_ready);
        let out = both::<CcArb, Golden>("cc_arb", &s)?;
        for k in 0..3 {
            let taken: Vec<CcEvent> = s.iter().zip(&out).filter_map(|(i, o)| match k {
                0 => (i.ctl_valid && o.ctl_ready).then_some(i.ctl),
                1 => (i.ack_valid && o.ack_ready).then_some(i.ack),
                _ => (i.int_valid && o.int_ready).then_some(i.int),
            }).collect();
            let given: Vec<CcEvent> = s.iter().zip(&out)
                .filter(|(i, o)| o.event_valid && i.event_ready && (o.event.flow >> 14) as usize == k)
                .map(|(_, o)| o.event).collect();
            prop_assert!(taken.len() >= given.len() && taken.len() <= given.len() + 1);
            prop_assert_eq!(&taken[..given.len()], &given[..]);
        }
    }
}

/// With all three offered at once: creation goes first, then the two
/// others in turn; each is on `m_event` the cycle after its handshake at
/// the earliest, and with both always offering, `ack` and `int`
/// alternate, each passing one event every 2 cycles.
#[test]
fn creation_first_then_ack_and_int_in_turn() {
    // Creation offers once, at cycle 0; the others always.
    let s = stimulus(
        3,
        40,
        |k, t| if k == 0 { (t == 0) as u8 as f64 } else { 1.0 },
        1.0,
    );
    let out = both::<CcArb, Golden>("cc_arb_order", &s).unwrap();
    assert!(out[0].ctl_ready && out[0].ack_ready && out[0].int_ready);
    assert!(!out[0].event_valid);
    let given: Vec<usize> = out
        .iter()
        .filter(|o| o.event_valid)
        .map(|o| (o.event.flow >> 14) as usize)
        .collect();
    assert_eq!(given[0], 0, "creation first");
    // From then on one event a cycle, the two sources in turn.
    for w in given[1..].windows(2) {
        assert_ne!(w[0], w[1], "{given:?}");
    }
    assert!(given.len() >= 38, "{given:?}");
}
