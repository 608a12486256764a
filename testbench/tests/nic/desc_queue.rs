//! `hdl/src/nic/desc_queue.rs` against `nic_golden::nic::desc_queue`.

use crate::common::*;
use nic_golden::nic::desc_queue::{DescQueue as Golden, In};
use nic_golden::roce::TxDesc;
use nic_hdl::nic::desc_queue::DescQueue;
use proptest::prelude::*;
use rand::{rngs::StdRng, Rng, SeedableRng};

proptest! {
    #![proptest_config(config(8))]
    /// Random records in and a Tx that takes them often or rarely: the
    /// queue fills, says so, and empties; every field of every record
    /// comes out as it went in, in order.
    #[test]
    fn desc_queue_matches_golden(
        seed in any::<u64>(), n in 10usize..300, p_in in 0.05f64..1.0, p_out in 0.05f64..1.0,
    ) {
        let mut rng = StdRng::seed_from_u64(seed);
        let s: Vec<In> = (0..n)
            .map(|_| In {
                desc_valid: rng.gen_bool(p_in),
                desc: random_tx_desc(&mut rng, 40),
                out_ready: rng.gen_bool(p_out),
            })
            .collect();
        let out = both::<DescQueue<4, 2>, Golden<4, 2>>("desc_queue", &s)?;
        // What went in comes out, in order (the records the queue took).
        let taken: Vec<TxDesc> = s.iter().zip(&out).filter(|(i, o)| i.desc_valid && o.desc_ready)
            .map(|(i, _)| TxDesc { flow: i.desc.flow & 15, psn: i.desc.psn & 0xFF_FFFF, len: i.desc.len & 0x1FFF, ..i.desc })
            .collect();
        let given: Vec<TxDesc> = s.iter().zip(&out).filter(|(i, o)| o.out_valid && i.out_ready)
            .map(|(_, o)| o.out).collect();
        prop_assert_eq!(&taken[..given.len()], &given[..]);
        prop_assert!(out.iter().all(|o| o.desc_ready != o.desc_full));
    }
}

/// Full at 2^L records held, and not before.
#[test]
fn full_at_four_records() {
    let mut rng = StdRng::seed_from_u64(1);
    let mut s: Vec<In> = (0..6)
        .map(|_| In {
            desc_valid: true,
            desc: random_tx_desc(&mut rng, 40),
            out_ready: false,
        })
        .collect();
    s.push(In {
        out_ready: true,
        ..Default::default()
    });
    s.push(In::default());
    let out = both::<DescQueue<4, 2>, Golden<4, 2>>("desc_queue_full", &s).unwrap();
    let full: Vec<bool> = out.iter().map(|o| o.desc_full).collect();
    assert_eq!(full, [false, false, false, false, true, true, true, false]);
}
