//! `hdl/src/nic/ack_coalesce.rs` against `nic_golden::nic::ack_coalesce`.

use crate::common::*;
use nic_golden::nic::ack_coalesce::{AckCoalesce as Golden, In};
use nic_golden::roce::{AckInfo, Telemetry};
use nic_golden::Cycle;
use nic_hdl::nic::ack_coalesce::AckCoalesce;
use proptest::prelude::*;
use rand::{rngs::StdRng, Rng, SeedableRng};

fn ack(rng: &mut StdRng, flows: u32) -> AckInfo {
    let present = rng.gen();
    let w = |rng: &mut StdRng| if present { rng.gen() } else { 0 };
    AckInfo {
        flow: rng.gen_range(0..flows),
        psn: rng.gen(),
        aeth: rng.gen(),
        tlm: Telemetry {
            present,
            hdr: w(rng),
            hop0: w(rng),
            hop1: w(rng),
            hop2: w(rng),
            hop3: w(rng),
            hop4: w(rng),
        },
    }
}

proptest! {
    #![proptest_config(config(8))]
    /// Random ACKs of few or many flows (ids past 2^A too), an input
    /// busy or sparse, and a Tx that takes them often or rarely.
    #[test]
    fn ack_coalesce_matches_golden(
        seed in any::<u64>(), n in 10usize..300, flows in 1u32..40,
        p_in in 0.05f64..1.0, p_out in 0.05f64..1.0, p_open in 0.05f64..1.0,
    ) {
        let mut rng = StdRng::seed_from_u64(seed);
        let s: Vec<In> = (0..n)
            .map(|_| In {
                ack_valid: rng.gen_bool(p_in),
                ack: ack(&mut rng, flows),
                out_ready: rng.gen_bool(p_out),
                open: rng.gen_bool(p_open),
            })
            .collect();
        both::<AckCoalesce<4>, Golden<4>>("ack_coalesce", &s)?;
    }
}

/// What the Tx sees, in order, when it takes every ACK offered to it,
/// with `stim` on the input (golden model).
fn sent(stim: &[In]) -> (Vec<AckInfo>, u32) {
    let mut g = Golden::<4>::default();
    let mut out = Vec::new();
    let mut coalesced = 0;
    for i in stim.iter().chain(
        std::iter::repeat(&In {
            out_ready: true,
            open: true,
            ..Default::default()
        })
        .take(40),
    ) {
        let o = g.step(i);
        if o.out_valid && i.out_ready {
            out.push(o.out);
        }
        coalesced = o.coalesced;
    }
    (out, coalesced)
}

/// While the Tx is busy, ACKs of one flow collapse into the newest, with
/// its telemetry; other flows keep their own, in the order they first
/// waited; nothing is ever refused. With the Tx free, every ACK goes.
#[test]
fn a_newer_ack_replaces_the_waiting_one_of_its_flow() {
    let mut rng = StdRng::seed_from_u64(7);
    let mk = |flow, psn, rng: &mut StdRng| AckInfo {
        flow,
        psn,
        ..ack(rng, 1)
    };
    let a = [
        mk(3, 10, &mut rng),
        mk(5, 20, &mut rng),
        mk(3, 11, &mut rng),
        mk(3, 12, &mut rng),
    ];
    // The Tx is busy for 30 cycles after the first ACK arrives.
    let mut stim: Vec<In> = a
        .iter()
        .map(|x| In {
            ack_valid: true,
            ack: *x,
            out_ready: false,
            open: true,
        })
        .collect();
    stim.extend(
        std::iter::repeat(In {
            open: true,
            ..Default::default()
        })
        .take(26),
    );
    let out = both::<AckCoalesce<4>, Golden<4>>("ack_coalesce_newest", &stim).unwrap();
    assert!(out.iter().all(|o| o.ack_ready), "an ACK is never refused");
    let (sent_busy, coalesced) = sent(&stim);
    assert_eq!(
        sent_busy,
        vec![a[3], a[1]],
        "flow 3's newest (PSN 12, its telemetry), then flow 5's"
    );
    assert_eq!(coalesced, 2);
    // The Tx free: one ACK out per ACK in, in order.
    let spaced: Vec<In> = a
        .iter()
        .flat_map(|x| {
            std::iter::once(In {
                ack_valid: true,
                ack: *x,
                out_ready: true,
                open: true,
            })
            .chain(
                std::iter::repeat(In {
                    out_ready: true,
                    open: true,
                    ..Default::default()
                })
                .take(7),
            )
        })
        .collect();
    let (sent_free, coalesced) = sent(&spaced);
    assert_eq!((sent_free, coalesced), (a.to_vec(), 0));
}

/// While the Tx arbiter's budget is closed (`open` low) nothing is read
/// out, so a flow's ACKs coalesce into the newest even with the output
/// register free; once it opens, the newest of each flow goes, oldest
/// flow first.
#[test]
fn a_closed_budget_holds_the_acks_back_and_the_newest_goes() {
    let mut rng = StdRng::seed_from_u64(8);
    let mk = |flow, psn, rng: &mut StdRng| AckInfo {
        flow,
        psn,
        ..ack(rng, 1)
    };
    let a = [
        mk(2, 1, &mut rng),
        mk(9, 2, &mut rng),
        mk(2, 3, &mut rng),
        mk(2, 4, &mut rng),
        mk(9, 5, &mut rng),
    ];
    let mut stim: Vec<In> = a
        .iter()
        .flat_map(|x| {
            [
                In {
                    ack_valid: true,
                    ack: *x,
                    out_ready: true,
                    open: false,
                },
                In {
                    out_ready: true,
                    ..Default::default()
                },
            ]
        })
        .collect();
    stim.extend(vec![
        In {
            out_ready: true,
            ..Default::default()
        };
        10
    ]);
    let out = both::<AckCoalesce<4>, Golden<4>>("ack_coalesce_closed", &stim).unwrap();
    assert!(
        out.iter().all(|o| !o.out_valid),
        "nothing goes while closed"
    );
    let (sent, coalesced) = sent(&stim);
    assert_eq!((sent, coalesced), (vec![a[3], a[4]], 3));
}
