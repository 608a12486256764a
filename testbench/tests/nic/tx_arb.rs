//! `hdl/src/nic/tx_arb.rs` against `nic_golden::nic::tx_arb`.

use crate::common::*;
use nic_golden::nic::tx_arb::{In, TxArb as Golden};
use nic_golden::roce::AckInfo;
use nic_hdl::nic::tx_arb::TxArb;
use proptest::prelude::*;
use rand::{rngs::StdRng, Rng, SeedableRng};

proptest! {
    #![proptest_config(config(8))]
    #[test]
    fn tx_arb_matches_golden(seed in any::<u64>(), n in 10usize..200) {
        let mut rng = StdRng::seed_from_u64(seed);
        let s: Vec<In> = (0..n)
            .map(|_| In {
                ack_valid: rng.gen_bool(0.3),
                ack: AckInfo {
                    flow: rng.gen_range(0..16),
                    psn: rng.gen_range(0..1 << 24),
                    aeth: rng.gen(),
                    tlm: random_telemetry(&mut rng),
                },
                cnp_valid: rng.gen_bool(0.2),
                cnp: nic_golden::cc::CnpReq {
                    flow: rng.gen_range(0..20),
                },
                notify_valid: rng.gen_bool(0.2),
                notify: random_tx_desc(&mut rng, 16),
                rresp_valid: rng.gen_bool(0.6),
                rresp: random_tx_desc(&mut rng, 16),
                req_valid: rng.gen_bool(0.6),
                req: random_tx_desc(&mut rng, 16),
                desc_ready: rng.gen_bool(0.7),
            })
            .collect();
        both::<TxArb<4>, Golden<4>>("tx_arb", &s)?;
    }
}

/// A CNP request becomes the CNP descriptor (opcode 0x81, PSN 0, no
/// payload, zero RETH slot) after the ACKs and before everything else.
#[test]
fn cnp_requests_go_after_acks_and_before_notifies() {
    let mut rng = StdRng::seed_from_u64(3);
    let i = In {
        ack_valid: true,
        ack: AckInfo {
            flow: 1,
            ..Default::default()
        },
        cnp_valid: true,
        cnp: nic_golden::cc::CnpReq { flow: 9 },
        notify_valid: true,
        notify: random_tx_desc(&mut rng, 16),
        req_valid: true,
        req: random_tx_desc(&mut rng, 16),
        desc_ready: true,
        ..Default::default()
    };
    let s = vec![
        i,
        In {
            ack_valid: false,
            ..i
        },
    ];
    let out = both::<TxArb<4>, Golden<4>>("tx_arb_cnp", &s).unwrap();
    assert!(out[0].ack_ready && !out[0].cnp_ready);
    assert!(out[1].cnp_ready && !out[1].notify_ready && !out[1].req_ready);
    let d = out[1].desc;
    assert_eq!((d.flow, d.opcode, d.psn, d.len), (9, 0x81, 0, 0));
    assert_eq!((d.va, d.rkey, d.dlen, d.tlm.present), (0, 0, 0, false));
}
