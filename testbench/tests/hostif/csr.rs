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

/// Every counter record random, so a read answers with what the
/// counters held at one cycle only.
fn all_counters(rng: &mut StdRng) -> In {
    In {
        stats_parse: counters(rng),
        stats_dispatch: counters(rng),
        stats_tx: counters(rng),
        stats_sched: counters(rng),
        stats_cc: counters(rng),
        stats_req: counters(rng),
        stats_core: counters(rng),
        stats_host: counters::<HostIfStats>(rng),
        stats_dcqcn: counters(rng),
        stats_np: counters(rng),
        stats_cnm: counters(rng),
        ..Default::default()
    }
}

fn stimulus(seed: u64, n: usize) -> Vec<In> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut base = all_counters(&mut rng);
    let p_ready = rng.gen_range(0.2..1.0);
    let mut rng_full = StdRng::seed_from_u64(seed ^ 0x5EED);
    (0..n)
        .map(|_| {
            // The counters change under a read half the cycles: a read
            // answers with their values as its `Decode` ends, not a cycle
            // either side.
            if rng.gen_bool(0.5) {
                base = all_counters(&mut rng);
            }
            In {
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
            }
        })
        .map(|mut i| {
            // A full reset (CONTROL bit 1) keeps the decoder busy for
            // hundreds of cycles: rare here, `csr_full_reset_matches_golden`
            // drives it.
            if i.req.write && i.req.addr & 0xFFFC == map::CONTROL && rng_full.gen_bool(0.9) {
                i.req.wdata &= !nic_spec::hostif::control::FULL_RESET;
            }
            i
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
    // 20 (write 1 without lane 0), 30 (write 1), 33 (reset). (Bit 1, the
    // full reset, is `csr_full_reset_*`'s.)
    let mut s = vec![idle; 40];
    s[0] = req(true, 1, 0xF);
    s[3] = req(false, 0, 0);
    s[14] = req(false, 0, 0);
    s[17] = req(true, 0xFFFF_FFFC, 0xF);
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

/// A stimulus with a full reset (`CONTROL` = 2, or any value with bit 1,
/// partial strobes included) at cycle `at`, everything else random as in
/// [`stimulus`].
fn full_reset_stimulus(seed: u64, n: usize, at: usize) -> Vec<In> {
    let mut s = stimulus(seed, n);
    let mut rng = StdRng::seed_from_u64(seed ^ 0xF0F0);
    for i in s.iter_mut().skip(at) {
        i.reset = false;
    }
    // No full reset before `at` (the one below is the one counted).
    for i in s.iter_mut().take(at) {
        if i.req.addr & 0xFFFC == map::CONTROL {
            i.req.wdata &= !nic_spec::hostif::control::FULL_RESET;
        }
    }
    // Offered until taken (the access in progress at `at` may wait for
    // its neighbour).
    for i in s.iter_mut().skip(at).take(200) {
        i.reset = false;
        i.req_valid = true;
        i.req = RegReq {
            write: true,
            addr: map::CONTROL,
            wdata: rng.gen::<u32>() | nic_spec::hostif::control::FULL_RESET,
            wstrb: 0x1 | rng.gen_range(0..16),
        };
    }
    s
}

proptest! {
    #![proptest_config(config(8))]
    /// The full reset's sweep against the twin with the core, the CQ
    /// engine and the send-queue engine answering at random times (and
    /// the pin reset now and then cutting it), every port every cycle.
    #[test]
    fn csr_full_reset_matches_golden(
        seed in any::<u64>(),
        at in 12usize..200,
        cut in proptest::option::of(200usize..800),
    ) {
        let n = 2500;
        let mut s = full_reset_stimulus(seed, n, at);
        if let Some(c) = cut {
            s[at + c].reset = true;
        }
        let out = both::<Csr<A, Q, C>, Golden<A, Q, C>>("csr_full_reset", &s)?;
        let swept = out[at..].iter().filter(|o| o.commit_valid && !o.commit.active).count();
        match cut {
            // The sweep ran to its end: a COMMIT of every flow, the
            // pipelines out of reset again, requests answered after.
            None => {
                prop_assert!(swept > 1 << A, "{swept} inactive COMMITs");
                prop_assert!(out[at..].iter().any(|o| o.resp_valid), "answered");
            }
            // A pin reset stops it where it is: the decoder takes
            // requests again.
            Some(c) => {
                prop_assert!(out[at + c + 1..].iter().any(|o| o.resp_valid));
            }
        }
    }
}

/// The full reset with every neighbour answering at once: the sweep's
/// writes in order (the staged per-flow registers 0; a COMMIT of every
/// flow, 2^A − 1 down to 0, inactive, `m_commit` with the staged
/// send-queue registers 0; every core register 0, high word first; each
/// CQ's `CQ_OPS`), nothing answered until the end, `soft_reset` for
/// `SOFT_RESET_CYCLES` from the answer, the decoder's registers and
/// counters back to 0 (the write itself counted), and the cycles it
/// takes. On both engines.
#[test]
fn csr_full_reset_sweeps_every_register() {
    use nic_spec::hostif::{control, full_reset};
    let access = |write: bool, addr: u16, wdata: u32| In {
        req_valid: true,
        req: RegReq {
            write,
            addr,
            wdata,
            wstrb: 0xF,
        },
        ..Default::default()
    };
    let ready = |mut i: In| {
        i.cfg_ready = true;
        i.cq_ready = true;
        i.cq_resp_valid = true;
        i.sq_ready = true;
        i.sq_resp_valid = true;
        i
    };
    // Dirty the decoder: SCRATCH, a staged register, a core register's
    // high word, a refused access; then the full reset; then reads.
    let mut s: Vec<In> = Vec::new();
    let put = |s: &mut Vec<In>, i: In, gap: usize| {
        s.push(ready(i));
        s.extend(std::iter::repeat(ready(In::default())).take(gap));
    };
    put(&mut s, access(true, map::SCRATCH, 0xDEAD_BEEF), 4);
    put(&mut s, access(true, map::FLOW_SQ_BASE_LO, 0x1000), 4);
    put(&mut s, access(true, map::FLOW_CQ, 3), 4);
    put(
        &mut s,
        access(true, map::CORE + 8 * nic_spec::regs::FLOW_DMAC + 4, 0x55),
        5,
    );
    put(&mut s, access(true, map::ID, 1), 4);
    // COMMIT's high word, the active bit: the sweep's COMMITs must still
    // be inactive.
    put(
        &mut s,
        access(true, map::CORE + 8 * nic_spec::regs::COMMIT + 4, 1),
        5,
    );
    let at = s.len();
    put(
        &mut s,
        access(true, map::CONTROL, control::FULL_RESET),
        2000,
    );
    let reads = [
        map::SCRATCH,
        map::FLOW_SQ_BASE_LO,
        map::FLOW_CQ,
        map::CORE + 8 * nic_spec::regs::FLOW_DMAC + 4,
    ];
    for a in reads {
        put(&mut s, access(false, a, 0), 6);
    }
    let out = both::<Csr<A, Q, C>, Golden<A, Q, C>>("csr_full_reset_sweep", &s).unwrap();
    let answered: Vec<usize> = (0..s.len()).filter(|&k| out[k].resp_valid).collect();
    assert_eq!(
        answered.len(),
        6 + 1 + reads.len(),
        "one answer per access: {answered:?}"
    );
    let done = answered[6];
    // The sweep's writes, in order.
    // (`cfg_ready` always high: each write is valid for one cycle.)
    let cfg: Vec<(u16, u64)> = (at..done)
        .filter(|&k| out[k].cfg_valid)
        .map(|k| (out[k].cfg.addr, out[k].cfg.data))
        .collect();
    let staged = |r: &&nic_spec::regs::Reg| {
        (nic_spec::regs::FLOW_DMAC..=nic_spec::regs::COMMIT).contains(&r.addr)
    };
    let mut want: Vec<(u16, u64)> = nic_spec::regs::ALL
        .iter()
        .filter(staged)
        .map(|r| (r.addr, 0))
        .collect();
    want.extend((0..1u64 << A).rev().map(|f| (nic_spec::regs::COMMIT, f)));
    want.extend(nic_spec::regs::ALL.iter().map(|r| (r.addr, 0)));
    assert_eq!(cfg, want, "core writes of the sweep");
    let commits: Vec<_> = (at..done)
        .filter(|&k| out[k].commit_valid)
        .map(|k| out[k].commit)
        .collect();
    // The COMMIT low word written 0 in the staged words, each flow, and
    // the COMMIT low word again in the core-word pass.
    assert_eq!(commits.len(), 1 + (1 << A) + 1, "{commits:?}");
    for (k, c) in commits.iter().enumerate() {
        let flow = if k == 0 {
            0
        } else {
            ((1u32 << A) - 1).saturating_sub(k as u32 - 1)
        };
        assert_eq!(
            (c.flow, c.active, c.base, c.log_size, c.cq),
            (flow, false, 0, 0, 0),
            "COMMIT {k}"
        );
    }
    let cq: Vec<(u16, u32)> = (at..done)
        .filter(|&k| out[k].cq_valid)
        .map(|k| (out[k].cq.addr, out[k].cq.wdata))
        .collect();
    let want_cq: Vec<(u16, u32)> = (0..1u16 << C)
        .flat_map(|c| {
            full_reset::CQ_OPS
                .iter()
                .map(move |&(r, v)| (0x20 * c + r, v))
        })
        .collect();
    assert_eq!(cq, want_cq, "CQ writes of the sweep");
    assert!(out.iter().all(|o| !o.sq_valid), "no doorbell");
    // soft_reset for SOFT_RESET_CYCLES from the answer, not before.
    let high: Vec<usize> = (0..s.len()).filter(|&k| out[k].soft_reset).collect();
    let n = nic_spec::hostif::SOFT_RESET_CYCLES as usize;
    assert_eq!(
        high,
        (done..done + n).collect::<Vec<_>>(),
        "cycles with soft_reset high"
    );
    assert_eq!(out[done].resp.resp, nic_spec::hostif::resp::OKAY);
    // Back to 0; the CONTROL write is the one access counted.
    let after = out[done + 1];
    assert_eq!(
        (
            after.reads,
            after.writes,
            after.slverr,
            after.decerr,
            after.ro_writes
        ),
        (0, 1, 0, 0, 0),
        "counters after the full reset"
    );
    for (k, a) in reads.iter().enumerate() {
        assert_eq!(
            out[answered[7 + k]].resp.rdata,
            0,
            "{a:#x} reads 0 after the full reset"
        );
    }
    // The cycles, with every neighbour answering at once: the figure
    // docs/driver.md §8 gives for A = 3, C = 2.
    let cycles = done - at;
    let writes = full_reset::writes(A as u32, C as u32) as usize;
    println!(
        "full reset: {writes} writes, answered {cycles} cycles after the CONTROL write was taken"
    );
    assert!(cycles > writes, "{cycles}");
}
