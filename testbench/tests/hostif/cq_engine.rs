//! `hdl/src/hostif/cq_engine.rs` against `nic_golden::hostif::cq_engine`.
//!
//! A closed loop on the twin records the stimulus: a driver configures
//! the queues over their registers (bases, sizes, moderation, enable;
//! also bad consumer indices and writes to PI), completions arrive for
//! enabled, disabled and nonexistent queues, the packer takes entries
//! with random back-pressure and reports them sent after a delay, and
//! the driver consumes entries and writes CI. The loop checks each
//! entry's address, contents and phase bit, that a queue never holds
//! more than its size, and that every sent entry is signalled by an
//! event within its moderation time. Replayed on both engines.

use crate::common::*;
use nic_golden::hostif::cq_engine::{entry, CqEngine as Golden, In};
use nic_golden::hostif::{CqEvent, CqeReq, CqeWrite, RegReq};
use nic_golden::Cycle;
use nic_hdl::hostif::cq_engine::CqEngine;
use nic_spec::hostif::{cq_reg, resp};
use proptest::prelude::*;
use rand::{rngs::StdRng, Rng, SeedableRng};
use std::collections::VecDeque;

const C: usize = 2;
const N: usize = 4;

#[derive(Clone, Copy, Debug, Default)]
struct Q {
    base: u64,
    log_size: u8,
    en: bool,
    pi: u16,
    ci: u16,
    mod_count: u16,
    mod_time: u32,
    /// Entries sent and not yet signalled, and the cycle of the first.
    pend: u32,
    first: u64,
}

fn closed_loop(seed: u64, n: usize) -> (Vec<In>, [u32; 3]) {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut dut = Golden::<C, N>::default();
    let mut q = [Q::default(); N];
    let mut regs: VecDeque<RegReq> = VecDeque::new();
    for c in 0..N as u16 {
        let base = rng.gen::<u64>() & !0xF;
        let log_size = rng.gen_range(0..4u32);
        let wr = |reg: u16, v: u32| RegReq {
            write: true,
            addr: c * 0x20 + reg,
            wdata: v,
            wstrb: 0xF,
        };
        regs.extend([
            wr(cq_reg::BASE_LO, base as u32 | rng.gen_range(0..16)),
            wr(cq_reg::BASE_HI, (base >> 32) as u32),
            wr(cq_reg::LOG_SIZE, log_size),
            wr(cq_reg::MOD_COUNT, rng.gen_range(0..4)),
            wr(cq_reg::MOD_TIME, rng.gen_range(0..50)),
            wr(cq_reg::CTRL, (c != 3) as u32),
        ]);
    }
    let mut taken_regs: VecDeque<u8> = VecDeque::new();
    let mut cqes: VecDeque<CqeReq> = VecDeque::new();
    // Entries taken by the packer: (due, cq).
    let mut sent: VecDeque<(u64, u8)> = VecDeque::new();
    let p_write = rng.gen_range(0.3..1.0);
    let mut rec = Vec::with_capacity(n);
    let mut sum = [0u32; 3];
    let mut reg_v: Option<RegReq> = None;
    let mut exp_writes: VecDeque<CqeWrite> = VecDeque::new();
    let mut done_last: Option<u8> = None;
    // The completion in the engine's holding register, and the counters
    // of the completions decided so far (entries, drops).
    let mut held: Option<CqeReq> = None;
    // The engine decides from its queue's view registered the cycle
    // before: only when the completion was held then, not decided, and
    // no register access came then.
    let mut view_ok = false;
    // The access taken last cycle, written at this cycle's edge.
    let mut effect_next: Option<Option<(usize, u16, u32)>> = None;
    let (mut n_entries, mut n_drops) = (0u32, 0u32);
    for cycle in 0..n as u64 {
        if reg_v.is_none() {
            reg_v = regs.pop_front();
        }
        if regs.is_empty() && reg_v.is_none() && rng.gen_bool(0.1) {
            // The driver: read a register, consume entries, or a bad write.
            let c = rng.gen_range(0..N as u16);
            let r = match rng.gen_range(0..6) {
                0 => RegReq {
                    write: false,
                    addr: c * 0x20 + 4 * rng.gen_range(0..8),
                    ..Default::default()
                },
                1 => RegReq {
                    write: true,
                    addr: c * 0x20 + cq_reg::PI,
                    wdata: rng.gen(),
                    wstrb: 0xF,
                },
                2 => RegReq {
                    write: true,
                    addr: c * 0x20 + cq_reg::CI,
                    wdata: q[c as usize].pi.wrapping_add(rng.gen_range(1..5)) as u32,
                    wstrb: 0xF,
                },
                _ => RegReq {
                    write: true,
                    addr: c * 0x20 + cq_reg::CI,
                    wdata: q[c as usize].ci.wrapping_add(
                        rng.gen_range(0..=q[c as usize].pi.wrapping_sub(q[c as usize].ci)),
                    ) as u32,
                    wstrb: [0xF, 0x3, 0x1][rng.gen_range(0..3)],
                },
            };
            reg_v = Some(r);
        }
        if cqes.len() < 4 && rng.gen_bool(0.3) {
            cqes.push_back(CqeReq {
                cq: if rng.gen_bool(0.03) {
                    rng.gen()
                } else {
                    rng.gen_range(0..N as u8)
                },
                flow: rng.gen_range(0..1 << 16),
                tag: rng.gen(),
                status: rng.gen_range(0..6),
                bytes: rng.gen(),
            });
        }
        let done = matches!(sent.front(), Some(&(due, _)) if due <= cycle);
        let i = In {
            reg_valid: reg_v.is_some(),
            reg: reg_v.unwrap_or_default(),
            cqe_valid: !cqes.is_empty(),
            cqe: cqes.front().copied().unwrap_or_default(),
            write_ready: rng.gen_bool(p_write),
            done_valid: done,
            done: CqEvent {
                cq: sent.front().map_or(0, |s| s.1),
            },
        };
        rec.push(i);
        let o = dut.step(&i);
        // A register access is decided on the state of the cycle it is
        // taken in (before a completion taken in the same cycle), takes
        // effect at the next cycle's edge (after that cycle's other
        // changes) and is answered the cycle after that.
        if o.resp_valid {
            let want = taken_regs.pop_front().unwrap();
            assert_eq!(
                o.resp.resp, want,
                "seed {seed} cycle {cycle}: register answer"
            );
        }
        let mut reg_effect: Option<(usize, u16, u32)> = None;
        if i.reg_valid && o.reg_ready {
            let r = i.reg;
            reg_v = None;
            let c = (r.addr >> 5) as usize;
            let reg = r.addr & 0x1F;
            let merged = |old: u32| nic_golden::hostif::merge(old, r.wdata, r.wstrb);
            let mut want = resp::OKAY;
            if r.write && reg == cq_reg::PI {
                want = resp::SLVERR;
            } else if r.write && reg == cq_reg::CI {
                let v = merged(q[c].ci as u32) as u16;
                if v.wrapping_sub(q[c].ci) <= q[c].pi.wrapping_sub(q[c].ci) {
                    reg_effect = Some((c, reg, v as u32));
                } else {
                    want = resp::SLVERR;
                    sum[2] += 1;
                }
            } else if r.write {
                let old = match reg {
                    cq_reg::BASE_LO => q[c].base as u32,
                    cq_reg::BASE_HI => (q[c].base >> 32) as u32,
                    cq_reg::LOG_SIZE => q[c].log_size as u32,
                    cq_reg::MOD_COUNT => q[c].mod_count as u32,
                    cq_reg::MOD_TIME => q[c].mod_time,
                    cq_reg::CTRL => q[c].en as u32,
                    _ => 0,
                };
                reg_effect = Some((c, reg, merged(old)));
            }
            taken_regs.push_back(want);
        }
        // A completion is taken into the holding register when it is
        // empty; from there it becomes an entry when the write register
        // is free and its queue has room, or is dropped (disabled or
        // nonexistent queue), decided on this cycle's state once the
        // engine's view of it is current (`view_ok`).
        assert_eq!(
            o.cqe_ready,
            held.is_none(),
            "seed {seed} cycle {cycle}: s_cqe.ready is the holding register being empty"
        );
        assert_eq!(
            (o.cqes, o.cqe_drops),
            (n_entries, n_drops),
            "seed {seed} cycle {cycle}: completions decided (entries, drops)"
        );
        // The write register is free when empty (not when its entry
        // leaves this cycle: the packer's `ready` reaches no decision).
        let w_free = !o.write_valid;
        let was_held = held.is_some();
        if let Some(c) = held.filter(|_| view_ok) {
            let known = (c.cq as usize) < N && q[c.cq as usize].en;
            if !known {
                if w_free {
                    n_drops += 1;
                    held = None;
                }
            } else {
                let qq = &mut q[c.cq as usize];
                if w_free && (qq.pi.wrapping_sub(qq.ci) as u32) < 1 << qq.log_size {
                    let (off, lo, hi) = entry(&c, qq.pi, qq.log_size);
                    exp_writes.push_back(CqeWrite {
                        addr: qq.base.wrapping_add(off),
                        lo,
                        hi,
                        cq: c.cq,
                    });
                    qq.pi = qq.pi.wrapping_add(1);
                    n_entries += 1;
                    held = None;
                }
            }
        }
        view_ok = was_held && held.is_some() && !i.reg_valid && effect_next.is_none();
        if i.cqe_valid && o.cqe_ready {
            held = cqes.pop_front();
        }
        if o.write_valid && i.write_ready {
            let w = o.write;
            assert_eq!(Some(w), exp_writes.pop_front(), "seed {seed} cycle {cycle}");
            sum[0] += 1;
            sent.push_back((cycle + rng.gen_range(2..20), w.cq));
        }
        if o.event_valid {
            // The event fired last cycle: what was pending then is
            // signalled; a notice of that cycle stays pending.
            let c = o.event.cq as usize;
            let qq = &mut q[c];
            assert!(
                qq.en && qq.pend > 0,
                "seed {seed} cycle {cycle}: event with nothing pending"
            );
            let again = done_last == Some(c as u8);
            qq.pend = again as u32;
            qq.first = cycle;
            sum[1] += 1;
        }
        done_last = None;
        if done {
            let (_, c) = sent.pop_front().unwrap();
            done_last = Some(c);
            let qq = &mut q[c as usize];
            if qq.pend == 0 {
                qq.first = cycle + 1;
            }
            qq.pend += 1;
        }
        // The effect of the access taken last cycle, last: it overrides
        // this cycle's others.
        let effect_now = effect_next.take().flatten();
        if i.reg_valid && o.reg_ready {
            effect_next = Some(reg_effect);
        }
        if let Some((c, reg, v)) = effect_now {
            let qq = &mut q[c];
            match reg {
                cq_reg::BASE_LO => qq.base = qq.base & !0xFFFF_FFFF | (v & !0xF) as u64,
                cq_reg::BASE_HI => qq.base = qq.base & 0xFFFF_FFFF | (v as u64) << 32,
                cq_reg::LOG_SIZE => qq.log_size = v.min(15) as u8,
                cq_reg::CI => qq.ci = v as u16,
                cq_reg::MOD_COUNT => qq.mod_count = v as u16,
                cq_reg::MOD_TIME => qq.mod_time = v & 0xFF_FFFF,
                cq_reg::CTRL => {
                    let en = v & 1 == 1;
                    if en && !qq.en {
                        qq.pi = 0;
                        qq.ci = 0;
                        qq.pend = 0;
                    }
                    qq.en = en;
                }
                _ => {}
            }
        }
        for (c, qq) in q.iter().enumerate() {
            if qq.en && qq.pend > 0 {
                // Signalled within the moderation time, or the count
                // (plus the cycles of events of lower queues).
                assert!(
                    cycle <= qq.first + qq.mod_time as u64 + 2 + N as u64,
                    "seed {seed} cycle {cycle}: queue {c} not signalled: {qq:?}"
                );
            }
        }
    }
    (rec, sum)
}

proptest! {
    #![proptest_config(config(8))]
    #[test]
    fn cq_engine_matches_golden(seed in any::<u64>()) {
        let (s, sum) = closed_loop(seed, 3000);
        prop_assert!(sum[0] > 20 && sum[1] > 5, "{sum:?}");
        both::<CqEngine<C, N>, Golden<C, N>>("cq_engine", &s)?;
    }
}

#[test]
fn cq_engine_no_x_in_four_state_simulation() {
    let (s, _) = closed_loop(5, 1000);
    four_state::<CqEngine<C, N>, Golden<C, N>>("cq_engine_4state", &s);
}

/// Entry layout and phase: the first pass writes phase 1, the second 0.
#[test]
fn entries_carry_the_phase_of_their_pass() {
    let c = CqeReq {
        cq: 0,
        flow: 0x1234,
        tag: 7,
        status: 2,
        bytes: 99,
    };
    let (off, lo, hi) = entry(&c, 3, 2);
    assert_eq!(
        (off, lo, hi),
        (48, 99 << 32 | 7, 1 << 31 | 2 << 16 | 0x1234)
    );
    let (off, _, hi) = entry(&c, 5, 2);
    assert_eq!((off, hi >> 31), (16, 0));
    let (_, _, hi) = entry(&c, 9, 2);
    assert_eq!(hi >> 31, 1);
}
