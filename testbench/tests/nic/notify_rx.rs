//! `hdl/src/nic/notify_rx.rs` against `nic_golden::nic::notify_rx`:
//! NOTIFYs with and without a valid W among other feedback, back-pressure
//! on the pass-through; what is not a NOTIFY leaves in order.

use crate::common::*;
use nic_golden::cc::params::CcParams;
use nic_golden::nic::notify_rx::{In, NotifyRx as Golden};
use nic_golden::roce::{CcFeedback, Telemetry};
use nic_hdl::nic::notify_rx::NotifyRx;
use nic_spec::roce::op;
use proptest::prelude::*;
use rand::{rngs::StdRng, Rng, SeedableRng};

proptest! {
    #![proptest_config(config(12))]
    #[test]
    fn notify_rx_matches_golden(seed in any::<u64>(), n in 10usize..200) {
        let mut rng = StdRng::seed_from_u64(seed);
        let regs = CcParams { base_rtt_ns: rng.gen_range(64.0..100_000.0), ..CcParams::default() }
            .regs()
            .unwrap();
        let s: Vec<In> = (0..n)
            .map(|_| In {
                cfg_inv_t_m: regs.inv_t_m,
                cfg_inv_t_s: regs.inv_t_s,
                fb_valid: rng.gen_bool(0.6),
                fb: CcFeedback {
                    flow: rng.gen_range(0..16),
                    psn: rng.gen_range(0..1 << 24),
                    aeth: rng.gen(),
                    opcode: [op::NOTIFY, op::NOTIFY, op::ACK, rng.gen()][rng.gen_range(0..4)],
                    tlm: Telemetry {
                        present: true,
                        hdr: (rng.gen_range(0..2u64) << 56)
                            | [0, rng.gen::<u32>(), rng.gen_range(1..1 << 20)][rng.gen_range(0..3)] as u64,
                        ..Default::default()
                    },
                },
                out_ready: rng.gen_bool(0.7),
            })
            .collect();
        let out = both::<NotifyRx<4>, Golden<4>>("notify_rx", &s)?;
        // The feedback taken that is not a NOTIFY is the feedback
        // delivered, in order (at most two still in the slice).
        let sent: Vec<CcFeedback> = s
            .iter()
            .zip(&out)
            .filter(|(i, o)| i.fb_valid && o.fb_ready && i.fb.opcode != op::NOTIFY)
            .map(|(i, _)| i.fb)
            .collect();
        let got: Vec<CcFeedback> =
            s.iter().zip(&out).filter(|(i, o)| o.out_valid && i.out_ready).map(|(_, o)| o.out).collect();
        prop_assert!(got.len() <= sent.len() && sent.len() <= got.len() + 2);
        prop_assert_eq!(&sent[..got.len()], &got[..]);
    }
}
