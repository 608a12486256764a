//! `hdl/src/hostif/csr.rs` against `nic_golden::hostif::csr`: register
//! accesses over the whole map (fixed registers, the core window's low
//! and high words, staged send-queue registers, CQ registers, counters,
//! doorbells, holes, misaligned addresses, partial and empty strobes,
//! COMMITs of good and out-of-range flows), with the core, the send-queue
//! engine and the CQ engine answering at random times; every port every
//! cycle on both engines.

use crate::common::*;
use nic_golden::hostif::csr::{Csr as Golden, In};
use nic_golden::hostif::{HostIfStats, RegReq, RegResp};
use nic_hdl::hostif::csr::Csr;
use nic_spec::hostif::map;
use nic_testbench::record::Record;
use proptest::prelude::*;
use rand::{rngs::StdRng, Rng, SeedableRng};

const A: usize = 3;
const Q: usize = 3;
const C: usize = 2;

/// An address somewhere interesting in the map.
pub fn map_addr(rng: &mut StdRng) -> u16 {
    let a = match rng.gen_range(0..13) {
        0 => [
            map::ID,
            map::VERSION,
            map::SCRATCH,
            map::CAPS,
            map::CONTROL,
            0x14,
        ][rng.gen_range(0..6)],
        1 | 2 => {
            let r = if rng.gen_bool(0.8) {
                nic_spec::regs::ALL[rng.gen_range(0..nic_spec::regs::ALL.len())].addr
            } else {
                rng.gen_range(0..64)
            };
            map::CORE + 8 * r + 4 * rng.gen_range(0..2)
        }
        3 => map::FLOW_SQ_BASE_LO + 4 * rng.gen_range(0..5),
        4 | 5 => map::CQ + 0x20 * rng.gen_range(0..6) + 4 * rng.gen_range(0..8),
        // Every page, one past the last, and past every page's fields.
        6 | 7 => {
            let pages = nic_spec::hostif::STATS_PAGES.len() as u16;
            map::STATS + 0x100 * rng.gen_range(0..pages + 1) + 4 * rng.gen_range(0..20)
        }
        8 | 9 => map::SQ_DB + 4 * rng.gen_range(0..12),
        10 => rng.gen(),
        11 => map::SCRATCH,
        _ => map::CORE + 8 * nic_spec::regs::COMMIT,
    };
    if rng.gen_bool(0.05) {
        a.wrapping_add(rng.gen_range(1..4))
    } else {
        a
    }
}

/// A counter record with every field random (its size from its own field
/// list, so a field added to a record is filled too).
fn counters<R: Record>(rng: &mut StdRng) -> R {
    let mut names = Vec::new();
    R::names("", &mut names);
    let v: Vec<u128> = names.iter().map(|_| rng.gen::<u32>() as u128).collect();
    R::from_values(&v, &mut 0)
}

fn stimulus(seed: u64, n: usize) -> Vec<In> {
    let mut rng = StdRng::seed_from_u64(seed);
    let base = In {
        stats_parse: counters(&mut rng),
        stats_dispatch: counters(&mut rng),
        stats_tx: counters(&mut rng),
        stats_sched: counters(&mut rng),
        stats_cc: counters(&mut rng),
        stats_req: counters(&mut rng),
        stats_core: counters(&mut rng),
        stats_host: counters::<HostIfStats>(&mut rng),
        stats_dcqcn: counters(&mut rng),
        stats_np: counters(&mut rng),
        stats_cnm: counters(&mut rng),
        ..Default::default()
    };
    let p_ready = rng.gen_range(0.2..1.0);
    (0..n)
        .map(|_| In {
            reset: rng.gen_bool(0.003),
            req_valid: rng.gen_bool(0.5),
            req: RegReq {
                write: rng.gen(),
                addr: map_addr(&mut rng),
                wdata: match rng.gen_range(0..3) {
                    0 => rng.gen(),
                    1 => rng.gen_range(0..16),
                    _ => rng.gen_range(0..1 << (A + 1)),
                },
                wstrb: if rng.gen_bool(0.7) {
                    0xF
                } else {
                    rng.gen_range(0..16)
                },
            },
            cfg_ready: rng.gen_bool(p_ready),
            sq_ready: rng.gen_bool(p_ready),
            sq_resp_valid: rng.gen_bool(0.3),
            sq_resp: RegResp {
                rdata: rng.gen(),
                resp: rng.gen_range(0..4),
            },
            cq_ready: rng.gen_bool(p_ready),
            cq_resp_valid: rng.gen_bool(0.3),
            cq_resp: RegResp {
                rdata: rng.gen(),
                resp: rng.gen_range(0..4),
            },
            ..base
        })
        .enumerate()
        .map(|(k, mut i)| {
            // A COMMIT of flow 1 first, taken whatever the dice say.
            if k < 12 {
                i.reset = false;
                i.req_valid = true;
                i.req = RegReq {
                    write: true,
                    addr: map::CORE + 8 * nic_spec::regs::COMMIT,
                    wdata: 1,
                    wstrb: 0xF,
                };
                i.cfg_ready = true;
            }
            i
        })
        .collect()
}

proptest! {
    #![proptest_config(config(16))]
    #[test]
    fn csr_matches_golden(seed in any::<u64>(), n in 50usize..600) {
        let s = stimulus(seed, n);
        let out = both::<Csr<A, Q, C>, Golden<A, Q, C>>("csr", &s)?;
        if n > 400 {
            // The stimulus reaches every kind of answer (counters may be
            // reset on the way).
            prop_assert!(out.iter().any(|o| o.reads > 0) && out.iter().any(|o| o.writes > 0));
            prop_assert!(out.iter().any(|o| o.slverr > 0) && out.iter().any(|o| o.decerr > 0));
            prop_assert!(out.iter().any(|o| o.ro_writes > 0));
            prop_assert!(out.iter().any(|o| o.cfg_valid) && out.iter().any(|o| o.commit_valid));
            prop_assert!(out.iter().any(|o| o.sq_valid) && out.iter().any(|o| o.cq_valid));
        }
    }
}

/// `CONTROL` bit 0: a write of 1 holds `soft_reset` for exactly
/// `SOFT_RESET_CYCLES` cycles from the cycle its answer leaves; a read
/// returns 1 while it runs and 0 after; a write of 0 or without lane 0
/// starts nothing; `reset` stops it. On both engines.
#[test]
fn csr_soft_reset_runs_its_cycles() {
    let req = |write: bool, wdata: u32, wstrb: u8| In {
        req_valid: true,
        req: RegReq {
            write,
            addr: map::CONTROL,
            wdata,
            wstrb,
        },
        cfg_ready: true,
        ..Default::default()
    };
    let idle = In::default();
    // Requests at cycles 0 (write 1), 3 (read), 14 (read), 17 (write 0),
    // 20 (write 1 without lane 0), 30 (write 1), 33 (reset).
    let mut s = vec![idle; 40];
    s[0] = req(true, 1, 0xF);
    s[3] = req(false, 0, 0);
    s[14] = req(false, 0, 0);
    s[17] = req(true, 0xFFFF_FFFE, 0xF);
    s[20] = req(true, 1, 0xE);
    s[30] = req(true, 1, 0x1);
    s[33].reset = true;
    let out = both::<Csr<A, Q, C>, Golden<A, Q, C>>("csr_soft_reset", &s).unwrap();
    let n = nic_spec::hostif::SOFT_RESET_CYCLES as usize;
    let high: Vec<usize> = (0..s.len()).filter(|&k| out[k].soft_reset).collect();
    let want: Vec<usize> = (2..2 + n).chain(32..34).collect();
    assert_eq!(high, want, "cycles with soft_reset high");
    let answers: Vec<(usize, u32)> = (0..s.len())
        .filter(|&k| out[k].resp_valid)
        .map(|k| (k, out[k].resp.rdata))
        .collect();
    assert_eq!(answers[1], (5, 1), "read while running: {answers:?}");
    assert_eq!(answers[2], (16, 0), "read after: {answers:?}");
    assert!(answers.iter().all(|a| a.1 <= 1), "{answers:?}");
}
