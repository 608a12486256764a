//! `hdl/src/nic/read_resp.rs` against `nic_golden::nic::read_resp`:
//! READ requests of every length class (0, below, at and above the MTU,
//! up to 2^32 − 1), with back-pressure and out-of-range MTUs, and the MTU
//! changed in mid-run (it is a register: a change takes effect a cycle
//! later).

use crate::common::*;
use nic_golden::nic::read_resp::{In, ReadResp as Golden};
use nic_golden::roce::ReadReq;
use nic_hdl::nic::read_resp::ReadResp;
use proptest::prelude::*;
use rand::{rngs::StdRng, Rng, SeedableRng};

proptest! {
    #![proptest_config(config(16))]
    #[test]
    fn read_resp_matches_golden(seed in any::<u64>(), n in 10usize..300) {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut mlog = rng.gen_range(0..16);
        let s: Vec<In> = (0..n)
            .map(|_| In {
                cfg_mtu_log2: {
                    if rng.gen_bool(0.02) {
                        mlog = rng.gen_range(0..16);
                    }
                    mlog
                },
                rdreq_valid: rng.gen_bool(0.3),
                rdreq: ReadReq {
                    flow: rng.gen_range(0..16),
                    psn: rng.gen_range(0..1 << 24),
                    va: rng.gen(),
                    rkey: rng.gen(),
                    len: match rng.gen_range(0..5) {
                        0 => 0,
                        1 => rng.gen_range(1..=256),
                        2 => 256 << rng.gen_range(0..5),
                        3 => rng.gen_range(1..20_000),
                        _ => rng.gen(),
                    },
                    msn: rng.gen_range(0..1 << 24),
                },
                desc_ready: rng.gen_bool(0.7),
            })
            .collect();
        both::<ReadResp<4>, Golden<4>>("read_resp", &s)?;
    }
}
