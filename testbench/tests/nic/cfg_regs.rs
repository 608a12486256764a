//! `hdl/src/nic/cfg_regs.rs` against `nic_golden::nic::cfg_regs`:
//! random writes to every register, to no register, and commits of good
//! and out-of-range flows, with random back-pressure.

use crate::common::*;
use nic_golden::nic::cfg_regs::{CfgRegs as Golden, In};
use nic_golden::nic::CfgWrite;
use nic_hdl::nic::cfg_regs::CfgRegs;
use proptest::prelude::*;
use rand::{rngs::StdRng, Rng, SeedableRng};

fn stimulus(seed: u64, n: usize) -> Vec<In> {
    let mut rng = StdRng::seed_from_u64(seed);
    (0..n)
        .map(|_| {
            let addr = match rng.gen_range(0..10) {
                0 => nic_spec::regs::COMMIT,
                1 => rng.gen(),
                2 => rng.gen_range(0..0x40),
                _ => nic_spec::regs::ALL[rng.gen_range(0..nic_spec::regs::ALL.len())].addr,
            };
            let data = match rng.gen_range(0..3) {
                0 => rng.gen::<u64>(),
                1 => rng.gen_range(0..16) | ((rng.gen::<bool>() as u64) << 32),
                _ => rng.gen_range(0..64),
            };
            In {
                cfg_valid: rng.gen_bool(0.6),
                cfg: CfgWrite { addr, data },
                rx_busy: rng.gen_bool(0.3),
                req_ctx_ready: rng.gen_bool(0.6),
                cc_ctl_ready: rng.gen_bool(0.6),
            }
        })
        .collect()
}

proptest! {
    #![proptest_config(config(16))]
    #[test]
    fn cfg_regs_matches_golden(seed in any::<u64>(), n in 20usize..300) {
        let s = stimulus(seed, n);
        let out = both::<CfgRegs<4>, Golden<4>>("cfg_regs", &s)?;
        // The stimulus reaches every path: writes taken, commits done.
        if n > 200 {
            let last = out.last().unwrap();
            prop_assert!(last.commits > 0 && last.bad_cfg > 0);
        }
    }
}
