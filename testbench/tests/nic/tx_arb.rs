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
        // The share (0: no budget) changes now and then, as a register
        // written mid-run would.
        let mut share = rng.gen_range(0..8u8);
        let s: Vec<In> = (0..n)
            .map(|_| In {
                cfg_ctl_share: {
                    if rng.gen_bool(0.02) {
                        share = rng.gen_range(0..8);
                    }
                    share
                },
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
/// The grant is a register and so is `m_desc`: a source granted in cycle
/// t is taken in t + 1 and its descriptor is on `m_desc` in t + 2. The
/// register is filled only when it is empty and the Tx asks
/// (`m_desc.ready`), so with the Tx always ready the next grant is in
/// t + 3: one descriptor every 3 cycles.
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
    let mut s = vec![i, i];
    s.extend(vec![
        In {
            ack_valid: false,
            ..i
        };
        3
    ]);
    s.extend(vec![
        In {
            ack_valid: false,
            cnp_valid: false,
            ..i
        };
        4
    ]);
    let out = both::<TxArb<4>, Golden<4>>("tx_arb_cnp", &s).unwrap();
    // No input reaches an output in its cycle: cycle 0 shows nothing.
    assert!(!out[0].ack_ready && !out[0].desc_valid);
    assert!(out[1].ack_ready && !out[1].cnp_ready);
    assert!(out[2].desc_valid && out[2].desc.flow == 1 && !out[2].cnp_ready);
    // The register drains (cycle 2) before the next grant (cycle 3).
    assert!(!out[3].desc_valid && !out[3].cnp_ready);
    assert!(out[4].cnp_ready && !out[4].notify_ready && !out[4].req_ready);
    let d = out[5].desc;
    assert!(out[5].desc_valid);
    assert_eq!((d.flow, d.opcode, d.psn, d.len), (9, 0x81, 0, 0));
    assert_eq!((d.va, d.rkey, d.dlen, d.tlm.present), (0, 0, 0, false));
    assert!(!out[6].notify_ready);
    assert!(out[7].notify_ready);
    // Share 0: the budget never holds control.
    assert_eq!(out.last().unwrap().ctl_held, 0);
}

/// With `TX_CTL_SHARE` = 4 and data always waiting, ACKs with telemetry
/// are taken one per `CTL_WIRE_WORDS_TLM << 4` cycles (272) plus the 2 of
/// the grant and the take, rounded up to the arbiter's pace of one take
/// every 3 cycles (276), and data takes the grants between; a plain ACK
/// (or a CNP) costs `CTL_WIRE_WORDS_PLAIN << 4` (208 + 2 = 210). With no data waiting
/// every grant goes to the ACK, budget or not; with share 0 too.
#[test]
fn control_frames_take_at_most_their_share_while_data_waits() {
    use nic_spec::roce::{ctl_cost, CTL_WIRE_WORDS_PLAIN, CTL_WIRE_WORDS_TLM};
    assert_eq!((CTL_WIRE_WORDS_PLAIN, CTL_WIRE_WORDS_TLM), (13, 17));
    let mut rng = StdRng::seed_from_u64(5);
    let mut ack = AckInfo {
        flow: 2,
        tlm: random_telemetry(&mut rng),
        ..Default::default()
    };
    ack.tlm.present = true;
    let busy = In {
        cfg_ctl_share: 4,
        ack_valid: true,
        ack,
        req_valid: true,
        req: random_tx_desc(&mut rng, 16),
        desc_ready: true,
        ..Default::default()
    };
    let cost = ctl_cost(CTL_WIRE_WORDS_TLM, 4) as usize;
    let plain = ctl_cost(CTL_WIRE_WORDS_PLAIN, 4) as usize;
    assert_eq!((cost, plain), (272, 208));
    // The next ACK is granted once the debt is out, at the next grant of
    // the 3-cycle pace.
    let period = (cost + 2).div_ceil(3) * 3;
    let period_plain = (plain + 2).div_ceil(3) * 3;
    assert_eq!((period, period_plain), (276, 210));
    // 3 budget periods with telemetry, then plain ACKs, then the data
    // stops, then the share goes to 0 with data waiting.
    let n_tlm = 2 + 3 * period;
    let mut s = vec![busy; n_tlm];
    let mut plain_ack = busy;
    plain_ack.ack.tlm.present = false;
    s.extend(vec![plain_ack; 3 * period_plain]);
    let n_plain = s.len();
    s.extend(vec![
        In {
            req_valid: false,
            ..busy
        };
        10
    ]);
    let n_idle = s.len();
    s.extend(vec![
        In {
            cfg_ctl_share: 0,
            ..busy
        };
        10
    ]);
    // Then the budget on again until an ACK is charged, and data alone
    // while its debt runs: the budget is closed, but no control waits.
    let n_s0 = s.len();
    s.extend(vec![busy; 30]);
    let n_d = s.len();
    s.extend(vec![
        In {
            ack_valid: false,
            ..busy
        };
        12
    ]);
    let out = both::<TxArb<4>, Golden<4>>("tx_arb_budget", &s).unwrap();
    // `ctl_held` counts the grants data got while a control frame waited
    // (the grant shown in t is decided in t - 1): held by the budget.
    let held = (1..s.len())
        .filter(|&t| out[t].req_ready && s[t - 1].ack_valid)
        .count() as u32;
    let data_alone = (n_d + 1..s.len()).filter(|&t| out[t].req_ready).count();
    let closed = (n_d + 1..s.len()).filter(|&t| !out[t].ctl_open).count();
    assert!(
        held > 100 && data_alone >= 2 && closed >= 10,
        "{held} {data_alone} {closed}"
    );
    assert_eq!(out.last().unwrap().ctl_held, held);
    let taken: Vec<usize> = (0..s.len()).filter(|&t| out[t].ack_ready).collect();
    // The first ACK is granted in cycle 0 and taken in 1, charged the cost
    // of share 4 (loaded in cycle 1); the next `period` later.
    let tlm: Vec<usize> = taken.iter().copied().filter(|&t| t < n_tlm).collect();
    assert_eq!(tlm[0], 1);
    let gaps: Vec<usize> = tlm.windows(2).map(|w| w[1] - w[0]).collect();
    assert!(gaps.iter().all(|&g| g == period), "{tlm:?}");
    assert!(tlm.len() >= 3);
    for t in 1..n_tlm {
        // One take every 3 cycles (grant, take, the Tx's take); every
        // take that is not an ACK goes to the requester's data.
        let one = out[t].ack_ready ^ out[t].req_ready;
        assert_eq!(one, t % 3 == 1, "cycle {t}");
        assert!(!out[t].cnp_ready && !out[t].notify_ready && !out[t].rresp_ready);
    }
    let p: Vec<usize> = taken
        .iter()
        .copied()
        .filter(|&t| t >= n_tlm && t < n_plain)
        .collect();
    assert!(p.len() >= 2, "{p:?}");
    assert!(p.windows(2).all(|w| w[1] - w[0] == period_plain), "{p:?}");
    // No data waiting, or share 0: every grant goes to the ACK.
    for t in (n_plain + 2..n_idle).chain(n_idle + 2..n_s0) {
        assert_eq!(out[t].ack_ready, t % 3 == 1, "cycle {t}: {taken:?}");
        assert!(!out[t].req_ready, "cycle {t}");
    }
}
