//! `hdl/src/nic/cc_arb.rs` against `nic_golden::nic::cc_arb`.

use crate::common::*;
use nic_golden::cc::CcEvent;
use nic_golden::nic::cc_arb::{CcArb as Golden, In};
use nic_hdl::nic::cc_arb::CcArb;
use proptest::prelude::*;
use rand::{rngs::StdRng, Rng, SeedableRng};

fn event(rng: &mut StdRng) -> CcEvent {
    CcEvent {
        op: rng.gen_range(0..4),
        variant: rng.gen(),
        flow: rng.gen(),
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

proptest! {
    #![proptest_config(config(8))]
    #[test]
    fn cc_arb_matches_golden(seed in any::<u64>(), n in 10usize..100) {
        let mut rng = StdRng::seed_from_u64(seed);
        let s: Vec<In> = (0..n)
            .map(|_| In {
                ctl_valid: rng.gen_bool(0.3),
                ctl: event(&mut rng),
                ack_valid: rng.gen_bool(0.6),
                ack: event(&mut rng),
                int_valid: rng.gen_bool(0.6),
                int: event(&mut rng),
                event_ready: rng.gen_bool(0.7),
            })
            .collect();
        both::<CcArb, Golden>("cc_arb", &s)?;
    }
}
