//! `hdl/src/nic/rx_ctx_mux.rs` against `nic_golden::nic::rx_ctx_mux`.

use crate::common::*;
use nic_golden::nic::rx_ctx_mux::{In, RxCtxMux as Golden};
use nic_golden::roce::RxFlowCtx;
use nic_hdl::nic::rx_ctx_mux::RxCtxMux;
use proptest::prelude::*;
use rand::{rngs::StdRng, Rng, SeedableRng};

fn ctx(rng: &mut StdRng) -> RxFlowCtx {
    RxFlowCtx {
        flow: rng.gen_range(0..16),
        active: rng.gen(),
        epsn: rng.gen_range(0..1 << 24),
        rd_addr: rng.gen(),
        rd_psn: rng.gen_range(0..1 << 24),
        rd_idx: rng.gen_range(0..16),
        rd_only: rng.gen(),
        cnp_on_ce: rng.gen(),
    }
}

proptest! {
    #![proptest_config(config(8))]
    #[test]
    fn rx_ctx_mux_matches_golden(seed in any::<u64>(), n in 10usize..100) {
        let mut rng = StdRng::seed_from_u64(seed);
        let s: Vec<In> = (0..n)
            .map(|_| In {
                cfg_valid: rng.gen_bool(0.5),
                cfg: ctx(&mut rng),
                req_valid: rng.gen_bool(0.5),
                req: ctx(&mut rng),
            })
            .collect();
        both::<RxCtxMux<4>, Golden<4>>("rx_ctx_mux", &s)?;
    }
}
