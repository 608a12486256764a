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

proptest! {
    #![proptest_config(config(8))]
    /// A configuration source that honours `rx_busy` as `CfgRegs` does
    /// (it writes in a cycle after one where `rx_busy` was clear and it
    /// did not write) loses nothing: every requester write is on `m_ctx` in the next
    /// cycle, every configuration write once, in order, after at most the
    /// requester writes that met it; both engines agree with the twin.
    #[test]
    fn rx_ctx_mux_loses_no_write(seed in any::<u64>(), n in 10usize..200) {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut g = Golden::<4>::default();
        let (mut busy, mut wrote) = (false, false);
        let (mut s, mut want_cfg, mut got_cfg) = (Vec::new(), Vec::new(), Vec::new());
        let mut last_req = None;
        for _ in 0..n + 8 {
            let live = s.len() < n;
            let i = In {
                cfg_valid: live && !busy && !wrote && rng.gen_bool(0.4),
                cfg: RxFlowCtx { rd_only: false, ..ctx(&mut rng) },
                req_valid: live && rng.gen_bool(0.7),
                req: RxFlowCtx { rd_only: true, ..ctx(&mut rng) },
            };
            let o = nic_golden::Cycle::step(&mut g, &i);
            if let Some(r) = last_req.take() {
                prop_assert!(o.ctx_valid && o.ctx == r, "a requester write is out the next cycle");
            } else if o.ctx_valid {
                got_cfg.push(o.ctx);
            }
            if i.req_valid {
                last_req = Some(i.req);
            }
            if i.cfg_valid {
                want_cfg.push(i.cfg);
            }
            busy = o.rx_busy;
            wrote = i.cfg_valid;
            s.push(i);
        }
        prop_assert_eq!(got_cfg, want_cfg);
        both::<RxCtxMux<4>, Golden<4>>("rx_ctx_mux_no_loss", &s)?;
    }
}
