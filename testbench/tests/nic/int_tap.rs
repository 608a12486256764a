//! `hdl/src/nic/int_tap.rs` against `nic_golden::nic::int_tap`: ACKs with
//! and without telemetry hops, both variants, back-pressure on both
//! outputs.

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
            .collect();
        both::<IntTap<4>, Golden<4>>("int_tap", &s)?;
    }
}
