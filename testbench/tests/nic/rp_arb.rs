//! `hdl/src/nic/rp_arb.rs` against `nic_golden::nic::rp_arb`: creation
//! and removal events, received CNPs and SENTs at random, with
//! back-pressure.

use crate::common::*;
use nic_golden::cc::RpEvent;
use nic_golden::nic::rp_arb::{In, RpArb as Golden};
use nic_hdl::nic::rp_arb::RpArb;
use proptest::prelude::*;
use rand::{rngs::StdRng, Rng, SeedableRng};

fn ev(rng: &mut StdRng) -> RpEvent {
    RpEvent {
        op: rng.gen_range(0..4),
        flow: rng.gen(),
        bytes: rng.gen_range(0..1 << 16),
    }
}

proptest! {
    #![proptest_config(config(8))]
    #[test]
    fn rp_arb_matches_golden(seed in any::<u64>(), n in 10usize..200) {
        let mut rng = StdRng::seed_from_u64(seed);
        let s: Vec<In> = (0..n)
            .map(|_| In {
                ctl_valid: rng.gen_bool(0.2),
                ctl: ev(&mut rng),
                cnp_valid: rng.gen_bool(0.6),
                cnp: ev(&mut rng),
                sent_valid: rng.gen_bool(0.5),
                sent: ev(&mut rng),
                event_ready: rng.gen_bool(0.7),
            })
            .collect();
        let out = both::<RpArb, Golden>("rp_arb", &s)?;
        for (i, o) in s.iter().zip(&out) {
            // Creation first; a CNP only when no creation waits; a SENT
            // only when neither waits.
            prop_assert_eq!(o.cnp_ready, i.event_ready && !i.ctl_valid);
            prop_assert_eq!(o.sent_ready, i.event_ready && !i.ctl_valid && !i.cnp_valid);
            let want = if i.ctl_valid { i.ctl } else if i.cnp_valid { i.cnp } else { i.sent };
            prop_assert_eq!(o.event, want);
        }
    }
}
