//! `hdl/src/nic/notify_tx.rs` against `nic_golden::nic::notify_tx`:
//! updates of every status, committed or not, both variants, with
//! back-pressure long enough to fill the queue.

use crate::common::*;
use nic_golden::cc::CcUpdate;
use nic_golden::nic::notify_tx::{In, NotifyTx as Golden};
use nic_hdl::nic::notify_tx::NotifyTx;
use proptest::prelude::*;
use rand::{rngs::StdRng, Rng, SeedableRng};

proptest! {
    #![proptest_config(config(12))]
    #[test]
    fn notify_tx_matches_golden(seed in any::<u64>(), n in 10usize..300) {
        let mut rng = StdRng::seed_from_u64(seed);
        let stall = rng.gen_range(0.0..0.95);
        let s: Vec<In> = (0..n)
            .map(|_| In {
                update_valid: rng.gen_bool(0.5),
                update: CcUpdate {
                    flow: rng.gen_range(0..16),
                    status: rng.gen_range(0..3),
                    w: rng.gen(),
                    r: rng.gen_range(0..1 << 24),
                    updated_wc: rng.gen(),
                    variant: rng.gen_bool(0.9),
                    ..Default::default()
                },
                desc_ready: !rng.gen_bool(stall),
            })
            .collect();
        both::<NotifyTx<4>, Golden<4>>("notify_tx", &s)?;
    }
}

/// The doc comment's timing: a committed update's NOTIFY is offered 3
/// cycles after its strobe, with W in the header.
#[test]
fn a_notify_is_offered_3_cycles_after_the_update() {
    let mut s = vec![
        In {
            desc_ready: true,
            ..Default::default()
        };
        8
    ];
    s[0].update_valid = true;
    s[0].update = CcUpdate {
        flow: 3,
        status: 0,
        w: 0x1234,
        updated_wc: true,
        variant: true,
        ..Default::default()
    };
    let o = both::<NotifyTx<4>, Golden<4>>("notify_tx_timing", &s).unwrap();
    let first = o.iter().position(|o| o.desc_valid).unwrap();
    assert_eq!(first, 3);
    assert_eq!(o[3].desc.tlm.hdr, 0x1100_0500_0000_1234);
    assert_eq!(o[3].desc.flow, 3);
}
