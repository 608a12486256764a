//! `hdl/src/nic/sent_tap.rs` against `nic_golden::nic::sent_tap`:
//! creations and removals of DCQCN flows, descriptors of DCQCN and other
//! flows (some of them in the cycle of their flow's commit), with and
//! without payload, back-pressure from the reaction point's port, and the
//! tap switched off and on.
//!
//! - `sent_tap_matches_golden`: both engines, every port every cycle.
//! - `sent_tap_counts_every_byte_of_dcqcn_flows`: with the port always
//!   ready and packets 8 cycles apart, every byte of a DCQCN flow reaches
//!   `m_sent` and no other flow's does.
//! - `sent_tap_no_x_in_four_state_simulation`: Icarus, no X or Z.

use crate::common::*;
use nic_golden::nic::sent_tap::{In, SentTap as Golden};
use nic_hdl::nic::sent_tap::SentTap;
use nic_spec::dcqcn::{OP_CREATE, OP_DESTROY, OP_SENT};
use proptest::prelude::*;
use rand::{rngs::StdRng, Rng, SeedableRng};

fn stimulus(seed: u64, n: usize) -> Vec<In> {
    let mut rng = StdRng::seed_from_u64(seed);
    let p_ready = rng.gen_range(0.1..1.0);
    let p_desc = rng.gen_range(0.05..1.0);
    (0..n)
        .map(|c| {
            let desc_flow = rng.gen_range(0..16);
            let ctl_taken = rng.gen_bool(0.08);
            In {
                cfg_on: c % 97 < 90,
                ctl_taken,
                ctl_op: if rng.gen_bool(0.7) {
                    OP_CREATE
                } else {
                    OP_DESTROY
                },
                // A quarter of the commits are of the descriptor's flow.
                ctl_flow: if rng.gen_bool(0.25) {
                    desc_flow
                } else {
                    rng.gen_range(0..16)
                },
                desc_taken: rng.gen_bool(p_desc),
                desc_flow,
                desc_len: match rng.gen_range(0..4) {
                    0 => 0,
                    1 => 4096,
                    2 => 8191,
                    _ => rng.gen_range(1..4097),
                },
                sent_ready: rng.gen_bool(p_ready),
            }
        })
        .collect()
}

proptest! {
    #![proptest_config(config(12))]
    #[test]
    fn sent_tap_matches_golden(seed in any::<u64>(), n in 10usize..400) {
        let s = stimulus(seed, n);
        let out = both::<SentTap<4>, Golden<4>>("sent_tap", &s)?;
        for o in &out {
            prop_assert_eq!(o.sent.op, OP_SENT);
        }
    }
}

#[test]
fn sent_tap_counts_every_byte_of_dcqcn_flows() {
    let mut rng = StdRng::seed_from_u64(7);
    let mut s = Vec::new();
    // Flows 0..8 DCQCN, 8..16 not.
    for f in 0..8 {
        s.push(In {
            cfg_on: true,
            ctl_taken: true,
            ctl_op: OP_CREATE,
            ctl_flow: f,
            ..Default::default()
        });
    }
    let mut want = [0u64; 16];
    for c in 0..4000 {
        let mut i = In {
            cfg_on: true,
            sent_ready: true,
            ..Default::default()
        };
        if c % 8 == 0 {
            let f = rng.gen_range(0..16);
            let len = rng.gen_range(0..4097);
            i.desc_taken = true;
            i.desc_flow = f;
            i.desc_len = len;
            if f < 8 {
                want[f as usize] += len as u64;
            }
        }
        s.push(i);
    }
    s.extend((0..4).map(|_| In {
        cfg_on: true,
        sent_ready: true,
        ..Default::default()
    }));
    let out = verilator::<SentTap<4>, Golden<4>>("sent_tap_bytes", &s).unwrap();
    let mut got = [0u64; 16];
    for o in &out {
        if o.sent_valid {
            got[o.sent.flow as usize] += o.sent.bytes as u64;
        }
    }
    assert_eq!(got, want);
    let last = out.last().unwrap();
    assert_eq!(last.sent_drops, 0);
    let pkts = s
        .iter()
        .filter(|i| i.desc_taken && i.desc_flow < 8 && i.desc_len != 0);
    assert_eq!(last.sent_pkts as usize, pkts.count());
}

#[test]
fn sent_tap_no_x_in_four_state_simulation() {
    four_state::<SentTap<4>, Golden<4>>("sent_tap_x", &stimulus(3, 600));
}
