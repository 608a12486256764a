//! `hdl/src/nic/int_tap.rs` against `nic_golden::nic::int_tap`: ACKs with
//! and without telemetry hops, both variants, back-pressure on both
//! outputs; the ACKs pass the register slice in order and never wait on
//! the event, and every event is taken by the CC, replaced and counted in
//! `lost`, or still waiting.

use crate::common::*;
use nic_golden::nic::int_tap::{In, IntTap as Golden};
use nic_golden::roce::{AckInfo, Telemetry};
use nic_hdl::nic::int_tap::IntTap;
use proptest::prelude::*;
use rand::{rngs::StdRng, Rng, SeedableRng};

proptest! {
    #![proptest_config(config(12))]
    #[test]
    fn int_tap_matches_golden(seed in any::<u64>(), n in 10usize..200) {
        let mut rng = StdRng::seed_from_u64(seed);
        let npc = rng.gen_range(0..1 << 24);
        let s: Vec<In> = (0..n)
            .map(|_| In {
                cfg_ns_per_cycle: npc,
                ack_valid: rng.gen_bool(0.6),
                ack: AckInfo {
                    flow: rng.gen_range(0..16),
                    psn: rng.gen_range(0..1 << 24),
                    aeth: rng.gen(),
                    tlm: Telemetry {
                        present: rng.gen_bool(0.7),
                        hdr: (rng.gen_range(0..7u64) << 48) | rng.gen::<u32>() as u64,
                        hop0: rng.gen(),
                        hop1: rng.gen(),
                        hop2: rng.gen(),
                        hop3: rng.gen(),
                        hop4: rng.gen(),
                    },
                },
                out_ready: rng.gen_bool(0.7),
                event_ready: rng.gen_bool(0.5),
            })
            .chain([In { cfg_ns_per_cycle: npc, ..In::default() }])
            .collect();
        let out = both::<IntTap<4>, Golden<4>>("int_tap", &s)?;
        // The ACKs taken are the ACKs delivered, in order (at most two
        // still in the slice), whatever the CC does.
        let sent: Vec<AckInfo> =
            s.iter().zip(&out).filter(|(i, o)| i.ack_valid && o.ack_ready).map(|(i, _)| i.ack).collect();
        let got: Vec<AckInfo> =
            s.iter().zip(&out).filter(|(i, o)| o.out_valid && i.out_ready).map(|(_, o)| o.out).collect();
        prop_assert!(got.len() <= sent.len() && sent.len() <= got.len() + 2);
        prop_assert_eq!(&sent[..got.len()], &got[..]);
        // The last cycle is idle, so its counters hold every event before.
        let taken = s.iter().zip(&out).filter(|(i, o)| o.event_valid && i.event_ready).count() as u32;
        let last = out.last().unwrap();
        prop_assert_eq!(last.events, taken + last.lost + last.event_valid as u32);
    }
}

/// Two events in a row while the CC is not ready: the ACKs both pass, the
/// second event replaces the first and `lost` counts it.
#[test]
fn a_new_event_replaces_the_waiting_one_and_is_counted() {
    let ack = |psn: u32| AckInfo {
        flow: 3,
        psn,
        aeth: 0,
        tlm: Telemetry {
            present: true,
            hdr: 1 << 48,
            hop0: psn as u64,
            ..Default::default()
        },
    };
    let step = |psn: Option<u32>, event_ready: bool| In {
        cfg_ns_per_cycle: 1 << 16,
        ack_valid: psn.is_some(),
        ack: psn.map(ack).unwrap_or_default(),
        out_ready: true,
        event_ready,
    };
    let s = vec![
        step(Some(10), false),
        step(Some(11), false),
        step(None, false),
        step(None, false),
        step(None, true),
        step(None, true),
    ];
    let out = both::<IntTap<4>, Golden<4>>("int_tap_replace", &s).unwrap();
    // Each ACK leaves the slice a cycle after it is taken, its event the
    // cycle after that.
    assert!(out[0].ack_ready && out[1].ack_ready);
    assert!(out[1].out_valid && out[1].out.psn == 10 && out[2].out.psn == 11);
    assert!(out[2].event_valid && out[2].event.seq == 10);
    assert!(out[3].event_valid && out[3].event.seq == 11 && out[3].event.hop0 == 11);
    assert_eq!((out[3].events, out[3].lost), (2, 1));
    assert!(out[4].event_valid && !out[5].event_valid);
}
