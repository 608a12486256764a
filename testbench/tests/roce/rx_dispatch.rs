//! `hdl/src/roce/rx_dispatch.rs` against `nic_golden::roce::rx_dispatch`.
//!
//! The stimulus is made closed-loop on the golden model (a parser-like
//! source of metadata records and payload words that holds each offer
//! until it is taken, random readies on every output, cfg writes), then
//! the recorded inputs are replayed on the RTL, which must give the same
//! outputs on every cycle (so the handshakes it sees are the ones the
//! source reacted to).

use crate::common::*;
use nic_golden::roce::rx_dispatch::{self as g, In, Out, RoceRxDispatch as Golden};
use nic_golden::roce::{RxFlowCtx, RxMeta, Telemetry};
use nic_golden::Cycle;
use nic_hdl::roce::rx_dispatch::RoceRxDispatch;
use proptest::prelude::*;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::collections::{BTreeMap, VecDeque};

const M24: u32 = 0xFF_FFFF;

/// How a packet's PSN is chosen when it is first offered, relative to the
/// source's own idea of the flow's next PSN.
#[derive(Clone, Copy, Debug)]
enum PsnMode {
    InSeq,
    /// k PSNs behind (1..=4096): a duplicate.
    Dup(u32),
    /// k PSNs ahead (1..4096): a loss.
    Ahead(u32),
    /// Outside the window.
    Far(u32),
    /// The dispatcher's current expected PSN (resynchronise).
    Sync,
    Exact(u32),
}

/// One packet as the test describes it; the PSN is resolved when offered.
#[derive(Clone, Debug)]
struct Spec {
    opcode: u8,
    qp: u32,
    psn: PsnMode,
    ackreq: bool,
    tlm: bool,
    tlm_words: [u64; 6],
    va: u64,
    rkey: u32,
    dlen: u32,
    aeth: u32,
    payload: Vec<u8>,
    /// The IPv4 ECN field was CE.
    ce: bool,
    /// The memory-region check's verdict (`nic_spec::mr::verdict`).
    mr: u8,
    /// Not a packet: a cfg write made when this spec's turn comes.
    cfg: Option<CfgW>,
}

impl Spec {
    fn new(opcode: u8, qp: u32, psn: PsnMode) -> Self {
        Spec {
            opcode,
            qp,
            psn,
            ackreq: false,
            tlm: false,
            tlm_words: [0; 6],
            va: 0,
            rkey: 0,
            dlen: 0,
            aeth: 0,
            payload: vec![],
            ce: false,
            mr: 0,
            cfg: None,
        }
    }
}

#[derive(Clone, Copy, Debug)]
struct CfgW {
    flow: u32,
    valid: bool,
    epsn: u32,
    rd_addr: u64,
    rd_psn: u32,
    /// With `rd_only`: the READ landing entry written (mod 16).
    rd_idx: u32,
    /// `cfg_rd_only`: only the landing entry `rd_idx` is written
    /// (`rd_psn`, `rd_addr`).
    rd_only: bool,
    /// The flow runs DCQCN (its CE marks go to `m_ce`).
    cnp_on_ce: bool,
}

/// Per-cycle behaviour of the environment (percentages).
#[derive(Clone, Debug)]
struct Knobs {
    p_meta: u32,
    p_pay: u32,
    p_wr: u32,
    p_ack: u32,
    p_cc: u32,
    p_nak: u32,
    p_rdreq: u32,
    /// Random cfg write per cycle, in 1/1000.
    p_cfg_milli: u32,
    /// Reset pulse per cycle, in 1/10000.
    p_reset_e4: u32,
    mtu_log2: u8,
    seed: u64,
    max_cycles: usize,
}

impl Knobs {
    fn all_ready(mtu_log2: u8) -> Self {
        Knobs {
            p_meta: 100,
            p_pay: 100,
            p_wr: 100,
            p_ack: 100,
            p_cc: 100,
            p_nak: 100,
            p_rdreq: 100,
            p_cfg_milli: 0,
            p_reset_e4: 0,
            mtu_log2,
            seed: 1,
            max_cycles: 100_000,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Ev {
    Ack {
        flow: u32,
        psn: u32,
        aeth: u32,
        tlm: Option<[u64; 6]>,
    },
    Cc {
        flow: u32,
        psn: u32,
        aeth: u32,
        opcode: u8,
        tlm: Option<[u64; 6]>,
    },
    Nak {
        flow: u32,
        psn: u32,
    },
    Rdreq {
        flow: u32,
        psn: u32,
        va: u64,
        rkey: u32,
        len: u32,
        msn: u32,
    },
    Cnp {
        flow: u32,
    },
    Ce {
        flow: u32,
    },
}

impl Ev {
    fn flow(&self) -> u32 {
        match *self {
            Ev::Ack { flow, .. } | Ev::Cc { flow, .. } | Ev::Nak { flow, .. } => flow,
            Ev::Rdreq { flow, .. } | Ev::Cnp { flow } | Ev::Ce { flow } => flow,
        }
    }
}

#[derive(Default, Debug)]
struct Run {
    ins: Vec<In>,
    outs: Vec<Out>,
    /// (cycle, event) as taken.
    events: Vec<(usize, Ev)>,
    /// (cycle, addr, data, strb) as taken.
    writes: Vec<(usize, u64, u64, u8)>,
    /// Cycles at which a record was accepted.
    accepts: Vec<usize>,
    /// Host memory built from the writes.
    host: BTreeMap<u64, u8>,
}

fn words_of(payload: &[u8]) -> Vec<(u64, u8, bool)> {
    let n = payload.len().div_ceil(8);
    (0..n)
        .map(|k| {
            let chunk = &payload[8 * k..(8 * k + 8).min(payload.len())];
            let mut d = 0u64;
            for (j, b) in chunk.iter().enumerate() {
                d |= (*b as u64) << (8 * j);
            }
            let keep = ((1u32 << chunk.len()) - 1) as u8;
            (d, keep, k + 1 == n)
        })
        .collect()
}

fn is_resp_op(op: u8) -> bool {
    matches!(op, 0x06 | 0x07 | 0x08 | 0x0A | 0x0C)
}
fn is_rresp_op(op: u8) -> bool {
    (0x0D..=0x10).contains(&op)
}

/// `cfg0` with, after the set-ups, each set-up flow's first READ landing
/// entry (entry 0) at its `rd_addr` / `rd_psn`.
fn with_first_entries(cfg0: &[CfgW]) -> Vec<CfgW> {
    let entries = cfg0.iter().filter(|c| !c.rd_only).map(|c| CfgW {
        rd_only: true,
        rd_idx: 0,
        ..*c
    });
    cfg0.iter().copied().chain(entries).collect()
}

/// The READ RESPONSE PSN a flow's context expects: inside a READ its
/// running PSN, between READs its next landing entry's.
fn expected_rpsn(c: &g::Ctx) -> u32 {
    if c.rd_done {
        c.rd_tab[(c.rd_idx % 8) as usize].psn
    } else {
        c.rd_psn
    }
}

/// Run `specs` through the golden model closed-loop, recording inputs.
/// `cfg0` is written first (one per cycle) before any record is offered,
/// each set-up followed by the flow's first READ landing entry
/// ([`with_first_entries`]).
fn drive<const A: usize>(cfg0: &[CfgW], specs: &[Spec], k: &Knobs) -> Run {
    let cfg0 = &with_first_entries(cfg0)[..];
    let mut gm = Golden::<A>::default();
    let mut rng = SmallRng::seed_from_u64(k.seed);
    let nfl = 1u32 << A;
    let mut next_psn = vec![0u32; nfl as usize];
    let mut next_rpsn = vec![0u32; nfl as usize];
    let mut run = Run::default();
    let mut spec_i = 0usize;
    let mut cur: Option<In> = None;
    let mut payq: VecDeque<(u64, u8, bool)> = VecDeque::new();
    let mut pay_offer = false;
    let mut cyc = 0usize;
    let mut idle_after = 0usize;
    let coin = |rng: &mut SmallRng, p: u32| rng.gen_range(0..100) < p;
    while cyc < k.max_cycles {
        let mut i = In {
            cfg_mtu_log2: k.mtu_log2,
            ..In::default()
        };
        // cfg: the initial writes, then random ones.
        if cyc < cfg0.len() {
            let c = cfg0[cyc];
            i.ctx_valid = true;
            i.ctx.flow = c.flow;
            i.ctx.active = c.valid;
            i.ctx.epsn = c.epsn & M24;
            i.ctx.rd_addr = c.rd_addr;
            i.ctx.rd_psn = c.rd_psn & M24;
            i.ctx.rd_idx = c.rd_idx;
            i.ctx.rd_only = c.rd_only;
            i.ctx.cnp_on_ce = c.cnp_on_ce;
            if !c.rd_only {
                next_psn[(c.flow % nfl) as usize] = c.epsn & M24;
            }
            next_rpsn[(c.flow % nfl) as usize] = c.rd_psn & M24;
        } else if rng.gen_range(0..1000) < k.p_cfg_milli {
            let f = rng.gen_range(0..nfl);
            let keep = coin(&mut rng, 70);
            let epsn = if keep {
                next_psn[f as usize]
            } else {
                rng.gen::<u32>() & M24
            };
            let rpsn = if keep {
                next_rpsn[f as usize]
            } else {
                rng.gen::<u32>() & M24
            };
            let rd_addr = if coin(&mut rng, 90) {
                rng.gen::<u64>() & !7
            } else {
                rng.gen()
            };
            // A third are requester-only writes (a landing entry: mostly
            // the one the flow waits for).
            let rd_only = coin(&mut rng, 33);
            i.ctx_valid = true;
            i.ctx.flow = f;
            i.ctx.active = coin(&mut rng, 85);
            i.ctx.epsn = epsn;
            i.ctx.rd_addr = rd_addr;
            i.ctx.rd_psn = rpsn;
            i.ctx.rd_idx = if coin(&mut rng, 70) {
                gm.mem[f as usize].rd_idx & 15
            } else {
                rng.gen_range(0..16)
            };
            i.ctx.rd_only = rd_only;
            i.ctx.cnp_on_ce = coin(&mut rng, 50);
            if !rd_only {
                next_psn[f as usize] = epsn;
            }
            next_rpsn[f as usize] = rpsn;
        }
        let in_cfg = cyc < cfg0.len();
        i.reset = !in_cfg && rng.gen_range(0..10000) < k.p_reset_e4;
        if i.reset {
            cur = None;
            payq.clear();
            pay_offer = false;
        }
        // A cfg write among the specs (when no other cfg write is made).
        if !in_cfg && !i.reset && !i.ctx_valid && cur.is_none() && spec_i < specs.len() {
            if let Some(c) = specs[spec_i].cfg {
                spec_i += 1;
                i.ctx_valid = true;
                i.ctx.flow = c.flow;
                i.ctx.active = c.valid;
                i.ctx.epsn = c.epsn & M24;
                i.ctx.rd_addr = c.rd_addr;
                i.ctx.rd_psn = c.rd_psn & M24;
                i.ctx.rd_idx = c.rd_idx;
                i.ctx.rd_only = c.rd_only;
                i.ctx.cnp_on_ce = c.cnp_on_ce;
                if !c.rd_only {
                    next_psn[(c.flow % nfl) as usize] = c.epsn & M24;
                }
                next_rpsn[(c.flow % nfl) as usize] = c.rd_psn & M24;
            }
        }
        // The next record, resolved when first offered.
        if !in_cfg
            && !i.reset
            && cur.is_none()
            && specs.get(spec_i).is_some_and(|s| s.cfg.is_none())
            && coin(&mut rng, k.p_meta)
        {
            let s = &specs[spec_i];
            spec_i += 1;
            let f = (s.qp % nfl) as usize;
            let known = s.qp < nfl;
            let base = if is_rresp_op(s.opcode) {
                next_rpsn[f]
            } else {
                next_psn[f]
            };
            let psn = match s.psn {
                PsnMode::InSeq => base,
                PsnMode::Dup(d) => base.wrapping_sub(d),
                PsnMode::Ahead(d) => base.wrapping_add(d),
                PsnMode::Far(d) => base.wrapping_add(4096 + d % ((1 << 24) - 8192)),
                PsnMode::Sync => {
                    if is_rresp_op(s.opcode) {
                        expected_rpsn(&gm.mem[f])
                    } else {
                        gm.mem[f].epsn
                    }
                }
                PsnMode::Exact(p) => p,
            } & M24;
            // Between READs, mostly write the landing entry the response
            // asks for first (the requester writes it before the REQUEST);
            // directed specs (exact PSNs) write their own.
            if known
                && is_rresp_op(s.opcode)
                && !matches!(s.psn, PsnMode::Exact(_))
                && gm.mem[f].rd_done
                && !i.ctx_valid
                && !i.reset
                && coin(&mut rng, 60)
            {
                i.ctx_valid = true;
                i.ctx.flow = f as u32;
                i.ctx.rd_only = true;
                i.ctx.rd_idx = gm.mem[f].rd_idx & 15;
                i.ctx.rd_psn = psn;
                i.ctx.rd_addr = if coin(&mut rng, 90) {
                    rng.gen::<u64>() & !7
                } else {
                    rng.gen()
                };
                next_rpsn[f] = psn;
            }
            if known && matches!(s.psn, PsnMode::InSeq | PsnMode::Sync) {
                if is_resp_op(s.opcode) {
                    let n = if s.opcode == 0x0C {
                        g::read_psns(s.dlen, k.mtu_log2)
                    } else {
                        1
                    };
                    next_psn[f] = (psn + n) & M24;
                } else if is_rresp_op(s.opcode) {
                    next_rpsn[f] = (psn + 1) & M24;
                }
            }
            let [h, h0, h1, h2, h3, h4] = s.tlm_words;
            cur = Some(In {
                meta_valid: true,
                meta: RxMeta {
                    opcode: s.opcode,
                    qp: s.qp & M24,
                    psn: psn,
                    ackreq: s.ackreq,
                    len: s.payload.len() as u16,
                    va: s.va,
                    rkey: s.rkey,
                    dlen: s.dlen,
                    aeth: s.aeth,
                    ce: s.ce,
                    mr: s.mr,
                    tlm: Telemetry {
                        present: s.tlm,
                        hdr: h,
                        hop0: h0,
                        hop1: h1,
                        hop2: h2,
                        hop3: h3,
                        hop4: h4,
                    },
                },
                ..In::default()
            });
            payq.extend(words_of(&s.payload));
        }
        if let Some(m) = &cur {
            i.meta_valid = true;
            i.meta = m.meta;
        }
        if !payq.is_empty() && (pay_offer || coin(&mut rng, k.p_pay)) {
            let (d, kp, l) = payq[0];
            pay_offer = true;
            i.pay.tvalid = true;
            i.pay.tdata = d;
            i.pay.tkeep = kp;
            i.pay.tlast = l;
        }
        i.wr_ready = coin(&mut rng, k.p_wr);
        i.ack_ready = coin(&mut rng, k.p_ack);
        i.cc_ready = coin(&mut rng, k.p_cc);
        i.nak_ready = coin(&mut rng, k.p_nak);
        i.rdreq_ready = coin(&mut rng, k.p_rdreq);
        // The CNP port shares the NAK port's knob.
        i.cnp_ready = coin(&mut rng, k.p_nak);

        let o = gm.step(&i);
        if i.meta_valid && o.meta_ready {
            cur = None;
            run.accepts.push(cyc);
        }
        if i.pay.tvalid && o.pay_tready {
            payq.pop_front();
            pay_offer = false;
        }
        if o.wr_valid && i.wr_ready {
            run.writes.push((cyc, o.wr.addr, o.wr.data, o.wr.strb));
            for b in 0..8 {
                if o.wr.strb >> b & 1 != 0 {
                    run.host
                        .insert(o.wr.addr.wrapping_add(b), (o.wr.data >> (8 * b)) as u8);
                }
            }
        }
        if o.ack_valid && i.ack_ready {
            run.events.push((
                cyc,
                Ev::Ack {
                    flow: o.ack.flow,
                    psn: o.ack.psn,
                    aeth: o.ack.aeth,
                    tlm: o.ack.tlm.present.then(|| o.ack.tlm.words()),
                },
            ));
        }
        if o.cc_valid && i.cc_ready {
            run.events.push((
                cyc,
                Ev::Cc {
                    flow: o.cc.flow,
                    psn: o.cc.psn,
                    aeth: o.cc.aeth,
                    opcode: o.cc.opcode,
                    tlm: o.cc.tlm.present.then(|| o.cc.tlm.words()),
                },
            ));
        }
        if o.nak_valid && i.nak_ready {
            run.events.push((
                cyc,
                Ev::Nak {
                    flow: o.nak.flow,
                    psn: o.nak.psn,
                },
            ));
        }
        if o.rdreq_valid && i.rdreq_ready {
            run.events.push((
                cyc,
                Ev::Rdreq {
                    flow: o.rdreq.flow,
                    psn: o.rdreq.psn,
                    va: o.rdreq.va,
                    rkey: o.rdreq.rkey,
                    len: o.rdreq.len,
                    msn: o.rdreq.msn,
                },
            ));
        }
        if o.cnp_valid && i.cnp_ready {
            run.events.push((
                cyc,
                Ev::Cnp {
                    flow: o.cnp.flow as u32,
                },
            ));
        }
        if o.ce_valid {
            run.events.push((
                cyc,
                Ev::Ce {
                    flow: o.ce.flow as u32,
                },
            ));
        }
        let busy = o.wr_valid
            || o.ack_valid
            || o.cc_valid
            || o.nak_valid
            || o.rdreq_valid
            || o.cnp_valid
            || o.ce_valid;
        run.ins.push(i);
        run.outs.push(o);
        cyc += 1;
        // Done: everything offered and taken, and the block idle.
        let done = spec_i == specs.len()
            && cur.is_none()
            && payq.is_empty()
            && !busy
            && gm.st == g::State::Idle;
        if done {
            idle_after += 1;
            if idle_after >= 4 {
                break;
            }
        } else {
            idle_after = 0;
        }
    }
    run
}

// ---------------------------------------------------------------- random

const OPS: [u8; 14] = [
    0x06, 0x07, 0x08, 0x0A, 0x0C, 0x0D, 0x0E, 0x0F, 0x10, 0x11, 0xC0, 0xC1, 0xC2, 0x81,
];

fn spec_strategy(a: usize) -> impl Strategy<Value = Spec> {
    let nfl = 1u32 << a;
    let qp = prop_oneof![
        17 => 0..nfl,
        2 => nfl..nfl + 3,
        1 => nfl..=M24,
    ];
    let op = prop_oneof![
        12 => prop::sample::select(vec![0x06u8, 0x07, 0x08, 0x0A]),
        3 => Just(0x0Cu8),
        6 => prop::sample::select(vec![0x0Du8, 0x0E, 0x0F, 0x10]),
        3 => Just(0x11u8),
        1 => Just(0xC0u8),
        1 => Just(0xC1u8),
        1 => Just(0x81u8),
        1 => prop::sample::select((0..=255u8).filter(|o| !OPS.contains(o)).collect::<Vec<_>>()),
    ];
    let psn = prop_oneof![
        12 => Just(PsnMode::InSeq),
        2 => (1u32..=4096).prop_map(PsnMode::Dup),
        2 => (1u32..4096).prop_map(PsnMode::Ahead),
        1 => any::<u32>().prop_map(PsnMode::Far),
        2 => Just(PsnMode::Sync),
        1 => any::<u32>().prop_map(|p| PsnMode::Exact(p & M24)),
    ];
    let syn = prop_oneof![
        4 => Just(0x1Fu32),
        1 => 0u32..0x20,
        2 => Just(0x60u32),
        1 => Just(0x61u32),
        1 => any::<u8>().prop_map(|x| x as u32),
    ];
    let va = prop_oneof![
        9 => any::<u64>().prop_map(|v| v & !7),
        1 => any::<u64>(),
    ];
    let len = prop_oneof![
        3 => (0usize..=6).prop_map(|w| 8 * w),
        2 => 0usize..=48,
        1 => 49usize..=200,
    ];
    let dlen = prop_oneof![
        3 => 0u32..=5000,
        1 => Just(0u32),
        1 => any::<u32>(),
    ];
    (
        (
            qp,
            op,
            psn,
            any::<bool>(),
            prop::bool::weighted(0.3),
            any::<[u64; 6]>(),
        ),
        (
            va,
            any::<u32>(),
            dlen,
            syn,
            any::<u32>(),
            len,
            any::<u64>(),
            0u32..100,
            prop::bool::weighted(0.2),
        ),
    )
        .prop_map(
            |((qp, op, psn, ackreq, tlm, tw), (va, rkey, dlen, syn, msn, len, seed, odd, ce))| {
                let carries = matches!(op, 0x06 | 0x07 | 0x08 | 0x0A | 0x0D..=0x10);
                // Opcodes without payload have none, except now and then.
                let len = if carries || odd < 4 { len } else { 0 };
                let mut x = seed | 1;
                let payload = (0..len)
                    .map(|_| {
                        x ^= x << 13;
                        x ^= x >> 7;
                        x ^= x << 17;
                        x as u8
                    })
                    .collect();
                Spec {
                    opcode: op,
                    qp,
                    psn,
                    ackreq,
                    tlm,
                    tlm_words: if tlm { tw } else { [0; 6] },
                    va,
                    rkey,
                    dlen,
                    aeth: (syn << 24) | (msn & M24),
                    payload,
                    ce,
                    // Now and then a verdict of the region check (3 is
                    // not one it gives: refused as an invalid request).
                    mr: if odd >= 95 { (odd - 94) as u8 & 3 } else { 0 },
                    cfg: None,
                }
            },
        )
}

fn cfg0_for(a: usize) -> Vec<CfgW> {
    // Every flow valid except the last; PSNs near the wrap for flow 1.
    (0..1u32 << a)
        .map(|f| CfgW {
            flow: f,
            valid: f + 1 != 1 << a,
            epsn: if f == 1 { M24 - 3 } else { f * 1000 },
            rd_addr: 0x1_0000_0000 * (f as u64 + 1),
            rd_psn: if f == 2 { M24 - 1 } else { f * 77 },
            rd_idx: 0,
            rd_only: false,
            cnp_on_ce: f % 4 != 3,
        })
        .collect()
}

fn knobs_strategy(max_cycles: usize) -> impl Strategy<Value = Knobs> {
    (
        prop_oneof![Just(100u32), 30u32..=100],
        prop_oneof![Just(100u32), 30u32..=100],
        prop::array::uniform5(prop_oneof![Just(100u32), 20u32..=100]),
        prop_oneof![Just(0u32), 1u32..=20],
        prop_oneof![1 => Just(0u32), 2 => 1u32..=30],
        prop_oneof![Just(8u8), 8u8..=12, 0u8..=15],
        any::<u64>(),
    )
        .prop_map(move |(pm, pp, r, pc, prs, mtu, seed)| Knobs {
            p_meta: pm,
            p_pay: pp,
            p_wr: r[0],
            p_ack: r[1],
            p_cc: r[2],
            p_nak: r[3],
            p_rdreq: r[4],
            p_cfg_milli: pc,
            p_reset_e4: prs,
            mtu_log2: mtu,
            seed,
            max_cycles,
        })
}

fn stim<const A: usize>(n: usize, max_cycles: usize) -> impl Strategy<Value = Vec<In>> {
    (
        prop::collection::vec(spec_strategy(A), n / 3..n),
        knobs_strategy(max_cycles),
    )
        .prop_map(|(specs, k)| drive::<A>(&cfg0_for(A), &specs, &k).ins)
}

proptest! {
    #![proptest_config(config(16))]
    /// Both engines, every port every cycle: all opcodes, in-sequence,
    /// duplicate, ahead and far PSNs, unknown flows, unaligned VAs, T set
    /// and clear, random back-pressure everywhere, cfg writes and resets.
    #[test]
    fn rx_dispatch_matches_golden(s in stim::<3>(400, 4000)) {
        both::<RoceRxDispatch<3>, Golden<3>>("roce_rx_dispatch8", &s)?;
    }
}

proptest! {
    #![proptest_config(config(6))]
    /// Volume on Verilator only: 16 flows, longer streams.
    #[test]
    fn rx_dispatch_matches_golden_verilator_volume(s in stim::<4>(1500, 30_000)) {
        verilator::<RoceRxDispatch<4>, Golden<4>>("roce_rx_dispatch16", &s)?;
    }
}

/// Four-state: no X on any port, values equal the golden model's.
#[test]
fn rx_dispatch_no_x_in_four_state_simulation() {
    let s = sample(stim::<3>(400, 4000));
    assert!(s.len() > 100);
    four_state::<RoceRxDispatch<3>, Golden<3>>("roce_rx_dispatch8", &s);
}

// ------------------------------------------------------------ functional

/// A run checked on the RTL too (both engines), returned for inspection.
fn checked<const A: usize>(name: &str, cfg0: &[CfgW], specs: &[Spec], k: &Knobs) -> Run {
    let run = drive::<A>(cfg0, specs, k);
    let outs = both::<RoceRxDispatch<A>, Golden<A>>(name, &run.ins).expect("RTL == golden");
    assert_eq!(outs, run.outs);
    run
}

fn flows(a: usize, epsn: u32) -> Vec<CfgW> {
    (0..1u32 << a)
        .map(|f| CfgW {
            flow: f,
            valid: true,
            epsn,
            rd_addr: 0x8000 * (f as u64 + 1),
            rd_psn: 500,
            rd_idx: 0,
            rd_only: false,
            cnp_on_ce: f % 4 != 3,
        })
        .collect()
}

fn bytes(n: usize, salt: u8) -> Vec<u8> {
    (0..n)
        .map(|i| (i as u8).wrapping_mul(31).wrapping_add(salt))
        .collect()
}

/// A WRITE packet; a FIRST announces 1 MiB (its MIDDLEs and LAST fit in
/// it: `wr_left`), an ONLY its own length.
fn write(op: u8, qp: u32, psn: u32, va: u64, payload: Vec<u8>, ackreq: bool) -> Spec {
    Spec {
        va,
        ackreq,
        dlen: match op {
            0x06 => 1 << 20,
            0x0A => payload.len() as u32,
            _ => 0,
        },
        payload,
        ..Spec::new(op, qp, PsnMode::Exact(psn))
    }
}

fn ack_aeth(syn: u32, msn: u32) -> u32 {
    (syn << 24) | msn
}

/// A WRITE message of several packets (MTU 256) lands byte-exact at the
/// RETH VA, in order; ACKs only where A (or T) is set, the last one with
/// the message count; flows do not mix.
#[test]
fn write_message_lands_byte_exact() {
    let mtu = 256;
    let msg = bytes(3 * mtu + 77, 5);
    let va = 0x1234_5678_9000u64;
    let other = bytes(40, 99);
    let specs = vec![
        write(0x06, 1, 10, va, msg[..mtu].to_vec(), false),
        write(0x07, 1, 11, 0xdead_bee8, msg[mtu..2 * mtu].to_vec(), true),
        // A single-packet message on flow 2 between, at another VA.
        write(0x0A, 2, 10, 0x5000, other.clone(), true),
        write(0x07, 1, 12, 0, msg[2 * mtu..3 * mtu].to_vec(), false),
        write(0x08, 1, 13, 0, msg[3 * mtu..].to_vec(), true),
    ];
    let run = checked::<3>(
        "rxd_write_message",
        &flows(3, 10),
        &specs,
        &Knobs::all_ready(8),
    );
    let mut expect = BTreeMap::new();
    for (k, b) in msg.iter().enumerate() {
        expect.insert(va + k as u64, *b);
    }
    for (k, b) in other.iter().enumerate() {
        expect.insert(0x5000 + k as u64, *b);
    }
    assert_eq!(run.host, expect);
    // Every write 8-aligned; strobes contiguous from lane 0.
    for &(_, addr, _, strb) in &run.writes {
        assert_eq!(addr % 8, 0);
        assert_eq!(strb & strb.wrapping_add(1), 0, "strobe {strb:#x}");
    }
    let evs: Vec<Ev> = run.events.iter().map(|e| e.1.clone()).collect();
    assert_eq!(
        evs,
        vec![
            Ev::Ack {
                flow: 1,
                psn: 11,
                aeth: ack_aeth(0x1F, 0),
                tlm: None
            },
            Ev::Ack {
                flow: 2,
                psn: 10,
                aeth: ack_aeth(0x1F, 1),
                tlm: None
            },
            Ev::Ack {
                flow: 1,
                psn: 13,
                aeth: ack_aeth(0x1F, 1),
                tlm: None
            },
        ]
    );
    let o = run.outs.last().unwrap();
    assert_eq!(o.stats.accepted, 5);
    // With every ready high, an ACK is taken in the cycle the packet's
    // last word is on the write port.
    for (c, e) in &run.events {
        assert!(run.writes.iter().any(|w| w.0 == *c), "{e:?}");
    }
}

/// A lost packet: every later packet is dropped (cnt_oos) and exactly one
/// NAK (syndrome 0x60, BTH PSN = the expected PSN) is sent until the
/// expected PSN arrives; then the flow goes on and duplicates re-ACK with
/// PSN epsn − 1. T = 1 packets have their TLM area echoed.
#[test]
fn loss_gives_one_nak_and_duplicates_reack() {
    let p = |psn: u32, ack: bool| write(0x0A, 3, psn, 0x100, bytes(16, psn as u8), ack);
    let mut probe = Spec::new(0xC0, 3, PsnMode::Exact(0));
    probe.tlm = true;
    probe.tlm_words = [0x1000_0500_0000_0000, 1, 2, 3, 4, 5];
    let mut dup_t = p(20, false);
    dup_t.tlm = true;
    dup_t.tlm_words = [0x1000_0500_0000_0000, 11, 12, 13, 14, 15];
    let specs = vec![
        p(20, true),
        // 21 lost.
        p(22, true),
        p(23, true),
        p(24, false),
        p(21, false), // the retransmission
        p(22, true),
        dup_t, // duplicate: re-ACK of 22, echoing the area
        p(19, false),
        probe,
        p(40, true), // a second loss: one more NAK
        p(41, true),
    ];
    let run = checked::<3>("rxd_loss", &flows(3, 20), &specs, &Knobs::all_ready(8));
    let evs: Vec<Ev> = run.events.iter().map(|e| e.1.clone()).collect();
    let tw = |w: [u64; 6]| Some(w);
    assert_eq!(
        evs,
        vec![
            Ev::Ack {
                flow: 3,
                psn: 20,
                aeth: ack_aeth(0x1F, 1),
                tlm: None
            },
            Ev::Ack {
                flow: 3,
                psn: 21,
                aeth: ack_aeth(0x60, 1),
                tlm: None
            },
            Ev::Ack {
                flow: 3,
                psn: 22,
                aeth: ack_aeth(0x1F, 3),
                tlm: None
            },
            Ev::Ack {
                flow: 3,
                psn: 22,
                aeth: ack_aeth(0x1F, 3),
                tlm: tw([0x1000_0500_0000_0000, 11, 12, 13, 14, 15])
            },
            Ev::Ack {
                flow: 3,
                psn: 22,
                aeth: ack_aeth(0x1F, 3),
                tlm: None
            },
            Ev::Ack {
                flow: 3,
                psn: 22,
                aeth: ack_aeth(0x1F, 3),
                tlm: tw([0x1000_0500_0000_0000, 1, 2, 3, 4, 5])
            },
            Ev::Ack {
                flow: 3,
                psn: 23,
                aeth: ack_aeth(0x60, 3),
                tlm: None
            },
        ]
    );
    let o = run.outs.last().unwrap();
    assert_eq!((o.stats.oos, o.stats.dup, o.stats.accepted), (5, 2, 4));
}

/// READ REQUEST: an rdreq event, epsn advances by ceil(len / MTU) (min 1);
/// a WRITE at the PSN after it is accepted, one in the skipped range is a
/// duplicate. The MTU input is clamped to 8..=12.
#[test]
fn read_request_consumes_psns() {
    for (mtu_log2, dlen, n) in [
        (8u8, 1000u32, 4u32),
        (8, 0, 1),
        (10, 1024, 1),
        (10, 1025, 2),
        (12, 4096 * 3 + 1, 4),
        (3, 600, 3),   // clamped to 256
        (15, 9000, 3), // clamped to 4096
    ] {
        let mut rr = Spec::new(0x0C, 0, PsnMode::Exact(100));
        rr.va = 0xABC0;
        rr.rkey = 0x1234;
        rr.dlen = dlen;
        rr.ackreq = true; // no ACK for a READ
        let specs = vec![
            rr,
            write(0x0A, 0, 100 + n - 1, 0, vec![], true),
            write(0x0A, 0, 100 + n, 0, vec![], true),
        ];
        let run = drive::<3>(&flows(3, 100), &specs, &Knobs::all_ready(mtu_log2));
        let evs: Vec<Ev> = run.events.iter().map(|e| e.1.clone()).collect();
        assert_eq!(
            evs,
            vec![
                Ev::Rdreq {
                    flow: 0,
                    psn: 100,
                    va: 0xABC0,
                    rkey: 0x1234,
                    len: dlen,
                    msn: 1
                },
                Ev::Ack {
                    flow: 0,
                    psn: 100 + n - 1,
                    aeth: ack_aeth(0x1F, 1),
                    tlm: None
                },
                Ev::Ack {
                    flow: 0,
                    psn: 100 + n,
                    aeth: ack_aeth(0x1F, 2),
                    tlm: None
                },
            ],
            "mtu_log2 {mtu_log2} dlen {dlen}"
        );
    }
    assert_eq!(
        g::read_psns(u32::MAX, 8),
        1,
        "2^24 PSNs wrap to 0, taken as 1"
    );
}

fn read(qp: u32, psn: u32, va: u64, rkey: u32, dlen: u32) -> Spec {
    Spec {
        va,
        rkey,
        dlen,
        ..Spec::new(0x0C, qp, PsnMode::Exact(psn))
    }
}

fn rdreq(flow: u32, psn: u32, va: u64, rkey: u32, len: u32, msn: u32) -> Ev {
    Ev::Rdreq {
        flow,
        psn,
        va,
        rkey,
        len,
        msn,
    }
}

fn ack(flow: u32, psn: u32, syn: u32, msn: u32) -> Ev {
    Ev::Ack {
        flow,
        psn,
        aeth: ack_aeth(syn, msn),
        tlm: None,
    }
}

/// A duplicate READ REQUEST is executed again: an rdreq with its own
/// PSN, VA, R_Key and length and the current MSN, no ACK (not even with
/// A or T set), cnt_dup, no state change (the next WRITE sees the same
/// epsn and MSN). With an unaligned VA and data: no event at all.
#[test]
fn duplicate_read_request_is_executed_again() {
    let mut dup = read(0, 100, 0x1000, 0xAA, 1000);
    dup.ackreq = true;
    dup.tlm = true;
    dup.tlm_words = [9, 8, 7, 6, 5, 4];
    let specs = vec![
        read(0, 100, 0x1000, 0xAA, 1000), // PSNs 100..=103
        write(0x0A, 0, 104, 0x40, vec![], true),
        dup,
        read(0, 103, 0x2008, 5, 8),
        read(0, 101, 0x2001, 6, 8), // unaligned: dropped
        read(0, 102, 0x2001, 7, 0), // no data: executed
        write(0x0A, 0, 105, 0x40, vec![], true),
        write(0x0A, 0, 104, 0x40, vec![], true), // duplicate WRITE: re-ACK
    ];
    let run = checked::<3>("rxd_dup_read", &flows(3, 100), &specs, &Knobs::all_ready(8));
    let evs: Vec<Ev> = run.events.iter().map(|e| e.1.clone()).collect();
    assert_eq!(
        evs,
        vec![
            rdreq(0, 100, 0x1000, 0xAA, 1000, 1),
            ack(0, 104, 0x1F, 2),
            rdreq(0, 100, 0x1000, 0xAA, 1000, 2),
            rdreq(0, 103, 0x2008, 5, 8, 2),
            rdreq(0, 102, 0x2001, 7, 0, 2),
            ack(0, 105, 0x1F, 3),
            ack(0, 105, 0x1F, 3),
        ]
    );
    let o = run.outs.last().unwrap();
    assert_eq!(
        (o.stats.dup, o.stats.accepted, o.stats.bad_va, o.stats.oos),
        (5, 3, 0, 0)
    );
}

/// `rdreq_msn` is the responder's MSN after the READ REQUEST counted
/// itself: WRITE LAST/ONLY and READ REQUEST each count one message, per
/// flow; a full cfg write clears it.
#[test]
fn rdreq_msn_counts_messages() {
    let specs = vec![
        write(0x0A, 0, 0, 0x100, bytes(8, 0), false), // msn 1
        write(0x06, 0, 1, 0x200, bytes(256, 1), false),
        write(0x08, 0, 2, 0, bytes(8, 2), false), // msn 2
        read(0, 3, 0x3000, 1, 300),               // msn 3, PSNs 3, 4
        read(0, 5, 0x3100, 2, 0),                 // msn 4
        read(1, 0, 0x3200, 3, 8),                 // flow 1: msn 1
        Spec {
            cfg: Some(CfgW {
                flow: 0,
                valid: true,
                epsn: 50,
                rd_addr: 0,
                rd_psn: 0,
                rd_idx: 0,
                rd_only: false,
                cnp_on_ce: false,
            }),
            ..Spec::new(0, 0, PsnMode::InSeq)
        },
        read(0, 50, 0x3300, 4, 8), // msn cleared: 1
    ];
    let run = checked::<3>("rxd_rdreq_msn", &flows(3, 0), &specs, &Knobs::all_ready(8));
    let evs: Vec<Ev> = run.events.iter().map(|e| e.1.clone()).collect();
    assert_eq!(
        evs,
        vec![
            rdreq(0, 3, 0x3000, 1, 300, 3),
            rdreq(0, 5, 0x3100, 2, 0, 4),
            rdreq(1, 0, 0x3200, 3, 8, 1),
            rdreq(0, 50, 0x3300, 4, 8, 1),
        ]
    );
    assert_eq!(run.outs.last().unwrap().stats.accepted, 7);
}

/// A requester-only cfg write (`cfg_rd_only`) sets rd_addr and rd_psn and
/// leaves the responder's fields alone: valid, epsn, nak_sent (no second
/// NAK), wr_va (a WRITE LAST continues where the FIRST ended) and msn,
/// even though its cfg_valid / cfg_epsn say otherwise.
#[test]
fn rd_only_cfg_write_keeps_responder_state() {
    let rresp = |psn: u32, salt: u8| Spec {
        payload: bytes(8, salt),
        aeth: ack_aeth(0x1F, 9),
        ..Spec::new(0x10, 1, PsnMode::Exact(psn))
    };
    let specs = vec![
        write(0x0A, 1, 10, 0x100, bytes(16, 0), true), // msn 1
        write(0x06, 1, 11, 0x200, bytes(8, 1), false), // wr_va 0x208
        write(0x07, 1, 13, 0, bytes(8, 9), false),     // ahead: NAK for 12
        Spec::new(0xC0, 2, PsnMode::Exact(0)),         // probe of flow 2
        Spec {
            cfg: Some(CfgW {
                flow: 1,
                valid: false,
                epsn: 0,
                rd_addr: 0x7000,
                rd_psn: 900,
                rd_idx: 0,
                rd_only: true,
                cnp_on_ce: false,
            }),
            ..Spec::new(0, 0, PsnMode::InSeq)
        },
        write(0x07, 1, 14, 0, bytes(8, 9), false), // ahead, nak_sent: silent
        write(0x08, 1, 12, 0, bytes(8, 2), true),  // lands at 0x208, msn 2
        rresp(900, 3),                             // lands at 0x7000
        rresp(500, 4),                             // the old rd_psn: oos
    ];
    let run = checked::<3>("rxd_rd_only", &flows(3, 10), &specs, &Knobs::all_ready(8));
    let evs: Vec<Ev> = run.events.iter().map(|e| e.1.clone()).collect();
    assert_eq!(
        evs,
        vec![
            ack(1, 10, 0x1F, 1),
            ack(1, 12, 0x60, 1),
            ack(2, 9, 0x1F, 0),
            ack(1, 12, 0x1F, 2),
            Ev::Cc {
                flow: 1,
                psn: 900,
                aeth: ack_aeth(0x1F, 9),
                opcode: 0x10,
                tlm: None
            },
        ]
    );
    let o = run.outs.last().unwrap();
    assert_eq!(
        (o.stats.oos, o.stats.accepted, o.stats.unknown_flow),
        (3, 5, 0)
    );
    let mut expect = BTreeMap::new();
    for (base, data) in [
        (0x100u64, bytes(16, 0)),
        (0x200, bytes(8, 1)),
        (0x208, bytes(8, 2)),
        (0x7000, bytes(8, 3)),
    ] {
        for (k, b) in data.into_iter().enumerate() {
            expect.insert(base + k as u64, b);
        }
    }
    assert_eq!(run.host, expect);
}

/// A spec that is the requester's write of READ landing entry `idx`.
fn entry(flow: u32, idx: u32, rd_addr: u64, rd_psn: u32) -> Spec {
    Spec {
        cfg: Some(CfgW {
            flow,
            valid: false,
            epsn: 0,
            rd_addr,
            rd_psn,
            rd_idx: idx,
            rd_only: true,
            cnp_on_ce: false,
        }),
        ..Spec::new(0, 0, PsnMode::InSeq)
    }
}

/// Eight READs in flight on one flow (RTL and twin, both engines): each
/// READ's responses land at its own landing entry's address, in order; a
/// duplicate first response is out of sequence; the entry of eight READs
/// before (the other lap) is refused at its own PSN; a READ asked again
/// from its middle (a FIRST at a PSN inside it) goes on at the running
/// address.
#[test]
fn eight_reads_in_flight_land_at_their_entries() {
    let rr = |op: u8, psn: u32, n: usize, salt: u8| Spec {
        payload: bytes(n, salt),
        ..Spec::new(op, 2, PsnMode::Exact(psn))
    };
    let base = |k: u32| 0x10_000 * (k as u64 + 1);
    let mut specs: Vec<Spec> = (0..8).map(|k| entry(2, k, base(k), 100 + 2 * k)).collect();
    for k in 0..8u32 {
        specs.push(rr(0x0D, 100 + 2 * k, 256, k as u8));
        specs.push(rr(0x0D, 100 + 2 * k, 256, 200)); // duplicate: oos
        specs.push(rr(0x0F, 101 + 2 * k, 8, 100 + k as u8));
    }
    specs.push(rr(0x10, 100, 8, 201)); // entry 0 of the old lap: oos
    specs.push(entry(2, 8, 0x90_000, 116));
    specs.push(rr(0x0D, 116, 256, 50));
    specs.push(rr(0x0D, 117, 256, 51)); // asked again from its middle
    specs.push(rr(0x0F, 118, 8, 52));
    let run = checked::<3>("rxd_reads8", &flows(3, 0), &specs, &Knobs::all_ready(8));
    let mut expect = BTreeMap::new();
    let mut put = |at: u64, data: Vec<u8>| {
        for (j, b) in data.into_iter().enumerate() {
            expect.insert(at + j as u64, b);
        }
    };
    for k in 0..8u32 {
        put(base(k), bytes(256, k as u8));
        put(base(k) + 256, bytes(8, 100 + k as u8));
    }
    put(0x90_000, bytes(256, 50));
    put(0x90_100, bytes(256, 51));
    put(0x90_200, bytes(8, 52));
    assert_eq!(run.host, expect);
    let o = run.outs.last().unwrap();
    assert_eq!((o.stats.oos, o.stats.accepted), (9, 19));
}

/// Requester side: ACK → cc (with the TLM area), NAK → nak (psn = BTH
/// PSN), NOTIFY → cc, an RNR or reserved syndrome → cnt_bad_op; READ
/// RESPONSE payload lands at rd_addr in order, FIRST/LAST/ONLY raise cc,
/// out-of-order responses are dropped.
#[test]
fn requester_events_and_read_responses() {
    let mut ack = Spec::new(0x11, 4, PsnMode::Exact(77));
    ack.aeth = ack_aeth(0x1F, 5);
    ack.tlm = true;
    ack.tlm_words = [9, 8, 7, 6, 5, 4];
    let mut nak = Spec::new(0x11, 4, PsnMode::Exact(70));
    nak.aeth = ack_aeth(0x60, 5);
    let mut rnr = Spec::new(0x11, 4, PsnMode::Exact(70));
    rnr.aeth = ack_aeth(0x21, 5);
    let mut notify = Spec::new(0xC1, 5, PsnMode::Exact(0));
    notify.tlm = true;
    notify.tlm_words = [1, 1, 2, 3, 5, 8];
    let rr = |op: u8, psn: u32, n: usize, salt: u8| Spec {
        payload: bytes(n, salt),
        aeth: ack_aeth(0x1F, 9),
        ..Spec::new(op, 4, PsnMode::Exact(psn))
    };
    let specs = vec![
        ack,
        nak,
        rnr,
        notify,
        rr(0x0D, 500, 256, 1),
        rr(0x0E, 502, 256, 2), // out of order: dropped
        rr(0x0E, 501, 256, 3),
        rr(0x0F, 502, 100, 4),
        // The next two READs' landing entries, at unaligned addresses.
        entry(4, 1, 0x8000 * 5 + 612, 503),
        entry(4, 2, 0x3004, 504),
        // An unaligned address is fine without payload.
        rr(0x10, 503, 0, 5),
        rr(0x10, 504, 8, 6), // dropped: cnt_bad_va
    ];
    let run = checked::<3>("rxd_requester", &flows(3, 0), &specs, &Knobs::all_ready(8));
    let evs: Vec<Ev> = run.events.iter().map(|e| e.1.clone()).collect();
    assert_eq!(
        evs,
        vec![
            Ev::Cc {
                flow: 4,
                psn: 77,
                aeth: ack_aeth(0x1F, 5),
                opcode: 0x11,
                tlm: Some([9, 8, 7, 6, 5, 4])
            },
            Ev::Nak { flow: 4, psn: 70 },
            Ev::Cc {
                flow: 5,
                psn: 0,
                aeth: 0,
                opcode: 0xC1,
                tlm: Some([1, 1, 2, 3, 5, 8])
            },
            Ev::Cc {
                flow: 4,
                psn: 500,
                aeth: ack_aeth(0x1F, 9),
                opcode: 0x0D,
                tlm: None
            },
            // A MIDDLE too: the requester counts the responses of a READ
            // by these. (`aeth` as the meta record gave it; the parser
            // gives 0 for an opcode without AETH.)
            Ev::Cc {
                flow: 4,
                psn: 501,
                aeth: ack_aeth(0x1F, 9),
                opcode: 0x0E,
                tlm: None
            },
            Ev::Cc {
                flow: 4,
                psn: 502,
                aeth: ack_aeth(0x1F, 9),
                opcode: 0x0F,
                tlm: None
            },
            Ev::Cc {
                flow: 4,
                psn: 503,
                aeth: ack_aeth(0x1F, 9),
                opcode: 0x10,
                tlm: None
            },
        ]
    );
    let mut expect = BTreeMap::new();
    let base = 0x8000 * 5u64;
    let data: Vec<u8> = [bytes(256, 1), bytes(256, 3), bytes(100, 4)].concat();
    for (k, b) in data.iter().enumerate() {
        expect.insert(base + k as u64, *b);
    }
    assert_eq!(run.host, expect);
    let o = run.outs.last().unwrap();
    assert_eq!(
        (
            o.stats.bad_op,
            o.stats.oos,
            o.stats.bad_va,
            o.stats.accepted
        ),
        (1, 1, 1, 7)
    );
}

/// Unaligned VA: NAK 0x61 (psn = the packet's), cnt_bad_va, nothing
/// written, epsn unchanged (the retransmission with a good VA goes
/// through); an unaligned rd_addr drops READ RESPONSEs (cnt_bad_va).
/// Without data (len 0, READ dlen 0) the address is not checked.
#[test]
fn unaligned_va_is_naked() {
    let specs = vec![
        write(0x0A, 0, 7, 0x1004, bytes(16, 0), false),
        write(0x0A, 0, 8, 0x1000, bytes(16, 0), false), // ahead: no NAK (nak_sent)
        write(0x06, 0, 7, 0x2000, bytes(12, 1), false), // FIRST, 12 bytes: wr_va unaligned
        write(0x08, 0, 8, 0, bytes(8, 2), true),        // LAST at an unaligned wr_va
        Spec {
            payload: bytes(8, 3),
            ..Spec::new(0x10, 1, PsnMode::Exact(500))
        },
        write(0x0A, 0, 8, 0x2001, vec![], true), // no data: accepted
        Spec {
            va: 0x33,
            dlen: 0,
            ..Spec::new(0x0C, 0, PsnMode::Exact(9))
        }, // accepted
        Spec {
            va: 0x33,
            dlen: 1,
            ..Spec::new(0x0C, 0, PsnMode::Exact(10))
        }, // NAK 0x61
    ];
    let mut cfg = flows(3, 7);
    cfg[1].rd_addr = 0x3003;
    let run = checked::<3>("rxd_bad_va", &cfg, &specs, &Knobs::all_ready(8));
    let evs: Vec<Ev> = run.events.iter().map(|e| e.1.clone()).collect();
    assert_eq!(
        evs,
        vec![
            Ev::Ack {
                flow: 0,
                psn: 7,
                aeth: ack_aeth(0x61, 0),
                tlm: None
            },
            Ev::Ack {
                flow: 0,
                psn: 8,
                aeth: ack_aeth(0x61, 0),
                tlm: None
            },
            Ev::Ack {
                flow: 0,
                psn: 8,
                aeth: ack_aeth(0x1F, 1),
                tlm: None
            },
            Ev::Rdreq {
                flow: 0,
                psn: 9,
                va: 0x33,
                rkey: 0,
                len: 0,
                msn: 2
            },
            Ev::Ack {
                flow: 0,
                psn: 10,
                aeth: ack_aeth(0x61, 2),
                tlm: None
            },
        ]
    );
    let o = run.outs.last().unwrap();
    assert_eq!((o.stats.bad_va, o.stats.oos, o.stats.accepted), (4, 1, 3));
    let expect: BTreeMap<u64, u8> = bytes(12, 1)
        .into_iter()
        .enumerate()
        .map(|(k, b)| (0x2000 + k as u64, b))
        .collect();
    assert_eq!(run.host, expect);
}

/// A request the memory-region check refused (`mr` ≠ 0): a NAK at its
/// own PSN, remote access error (0x62) for `mr` = 1, invalid request
/// (0x61) for 2; nothing written, no READ requested, epsn unchanged, so
/// the same WRITE granted afterwards goes through; a duplicate READ
/// REQUEST refused is not executed again; counted in `refused` only.
#[test]
fn refused_requests_are_naked_and_move_nothing() {
    let refused = |mut s: Spec, mr: u8| {
        s.mr = mr;
        s
    };
    let read = |psn: u32, mr: u8| Spec {
        va: 0x4000,
        dlen: 64,
        mr,
        ..Spec::new(0x0C, 0, PsnMode::Exact(psn))
    };
    let specs = vec![
        refused(write(0x0A, 0, 7, 0x1000, bytes(16, 0), true), 1),
        refused(write(0x0A, 0, 7, 0x1000, bytes(16, 0), true), 2),
        write(0x0A, 0, 7, 0x1000, bytes(16, 5), true),
        read(8, 1),
        read(8, 0),
        read(8, 1), // a duplicate now: not executed again
        read(8, 0), // a duplicate: executed again
    ];
    let cfg = flows(3, 7);
    let run = checked::<3>("rxd_refused", &cfg, &specs, &Knobs::all_ready(8));
    let evs: Vec<Ev> = run.events.iter().map(|e| e.1.clone()).collect();
    let rdreq = |msn: u32| Ev::Rdreq {
        flow: 0,
        psn: 8,
        va: 0x4000,
        rkey: 0,
        len: 64,
        msn,
    };
    assert_eq!(
        evs,
        vec![
            Ev::Ack {
                flow: 0,
                psn: 7,
                aeth: ack_aeth(0x62, 0),
                tlm: None
            },
            Ev::Ack {
                flow: 0,
                psn: 7,
                aeth: ack_aeth(0x61, 0),
                tlm: None
            },
            Ev::Ack {
                flow: 0,
                psn: 7,
                aeth: ack_aeth(0x1F, 1),
                tlm: None
            },
            Ev::Ack {
                flow: 0,
                psn: 8,
                aeth: ack_aeth(0x62, 1),
                tlm: None
            },
            rdreq(2),
            rdreq(2),
        ]
    );
    let o = run.outs.last().unwrap();
    assert_eq!(
        (
            o.stats.refused,
            o.stats.accepted,
            o.stats.dup,
            o.stats.bad_va
        ),
        (3, 2, 2, 0)
    );
    let expect: BTreeMap<u64, u8> = bytes(16, 5)
        .into_iter()
        .enumerate()
        .map(|(k, b)| (0x1000 + k as u64, b))
        .collect();
    assert_eq!(run.host, expect, "only the granted WRITE's bytes");
}

/// A WRITE's later packets stay inside its DMA length (`wr_left`): a
/// MIDDLE or LAST longer than what is left is refused (NAK 0x61, nothing
/// written, `refused`), as is a MIDDLE with no FIRST before it; the same
/// packet within the length goes through.
#[test]
fn later_packets_stay_inside_the_dma_length() {
    let mut first = write(0x06, 0, 7, 0x1000, bytes(16, 1), false);
    first.dlen = 32;
    let specs = vec![
        write(0x07, 0, 7, 0, bytes(8, 9), true),  // no FIRST: refused
        first,                                    // 16 of 32
        write(0x07, 0, 8, 0, bytes(24, 2), true), // 24 > 16 left: refused
        write(0x07, 0, 8, 0, bytes(8, 3), false), // 8 left
        write(0x08, 0, 9, 0, bytes(16, 4), true), // 16 > 8: refused
        write(0x08, 0, 9, 0, bytes(8, 5), true),  // the end
    ];
    let cfg = flows(3, 7);
    let run = checked::<3>("rxd_wr_left", &cfg, &specs, &Knobs::all_ready(8));
    let evs: Vec<Ev> = run.events.iter().map(|e| e.1.clone()).collect();
    assert_eq!(
        evs,
        vec![
            Ev::Ack {
                flow: 0,
                psn: 7,
                aeth: ack_aeth(0x61, 0),
                tlm: None
            },
            Ev::Ack {
                flow: 0,
                psn: 8,
                aeth: ack_aeth(0x61, 0),
                tlm: None
            },
            Ev::Ack {
                flow: 0,
                psn: 9,
                aeth: ack_aeth(0x61, 0),
                tlm: None
            },
            Ev::Ack {
                flow: 0,
                psn: 9,
                aeth: ack_aeth(0x1F, 1),
                tlm: None
            },
        ]
    );
    let o = run.outs.last().unwrap();
    assert_eq!((o.stats.refused, o.stats.accepted), (3, 3));
    let mut want = bytes(16, 1);
    want.extend(bytes(8, 3));
    want.extend(bytes(8, 5));
    let expect: BTreeMap<u64, u8> = want
        .into_iter()
        .enumerate()
        .map(|(k, b)| (0x1000 + k as u64, b))
        .collect();
    assert_eq!(run.host, expect);
}

/// Bad input is counted and isolated: flow 1's events and host writes
/// are the same with and without bad packets for other flows (unknown
/// QPs, invalid flows, bad opcodes, unaligned VAs, far PSNs) mixed in.
#[test]
fn bad_input_is_isolated() {
    let mut good = vec![];
    for k in 0..12u32 {
        let op = [0x06, 0x07, 0x07, 0x08][k as usize % 4];
        good.push(write(op, 1, 50 + k, 0x4000, bytes(64, k as u8), k % 2 == 0));
    }
    let mut bad = vec![];
    for k in 0..12u32 {
        bad.push(match k % 6 {
            0 => write(0x0A, 9, 0, 0, bytes(8, 0), true), // qp ≥ 2^A
            1 => write(0x0A, 7, 0, 0, bytes(8, 0), true), // invalid flow
            2 => Spec {
                payload: bytes(24, 1),
                ..Spec::new(0x42, 1, PsnMode::Exact(50))
            },
            3 => write(0x0A, 2, 0, 0x13, bytes(8, 0), true), // unaligned VA
            4 => write(0x0A, 2, 300_000, 0, bytes(8, 0), true), // far PSN
            _ => write(0x0A, 0x80_0001, 50, 0, bytes(8, 0), true), // qp ≥ 2^A, aliasing flow 1
        });
    }
    let mixed: Vec<Spec> = good
        .iter()
        .zip(bad.iter())
        .flat_map(|(a, b)| [b.clone(), a.clone()])
        .collect();
    let mut cfg = flows(3, 50);
    cfg[2].epsn = 0;
    cfg[7].valid = false;
    let mut k = Knobs::all_ready(8);
    k.p_ack = 60;
    k.p_wr = 70;
    let clean = drive::<3>(&cfg, &good, &k);
    let dirty = checked::<3>("rxd_isolation", &cfg, &mixed, &k);
    let of1 = |r: &Run| -> Vec<Ev> {
        r.events
            .iter()
            .map(|e| e.1.clone())
            .filter(|e| e.flow() == 1)
            .collect()
    };
    assert_eq!(of1(&clean).len(), 6);
    assert_eq!(of1(&clean), of1(&dirty));
    let w = |r: &Run| -> Vec<(u64, u64, u8)> { r.writes.iter().map(|x| (x.1, x.2, x.3)).collect() };
    assert_eq!(w(&clean), w(&dirty));
    let o = dirty.outs.last().unwrap();
    assert_eq!(
        (
            o.stats.unknown_flow,
            o.stats.bad_op,
            o.stats.bad_va,
            o.stats.bad_psn,
            o.stats.accepted
        ),
        (6, 2, 2, 2, 12)
    );
}

/// A cfg write always lands, whenever it comes: one on the flow of a
/// packet in flight makes the packet see it (here it invalidates the
/// flow, so the packet is dropped as unknown), and the packet takes 4
/// cycles more.
#[test]
fn cfg_write_races_packet() {
    for delay in 0..5usize {
        let mut gm = Golden::<3>::default();
        let cfg = flows(3, 5);
        let mut outs = vec![];
        let mut ins = vec![];
        for c in &cfg {
            ins.push(In {
                ctx_valid: true,
                ctx: RxFlowCtx {
                    flow: c.flow,
                    active: true,
                    epsn: c.epsn,
                    ..Default::default()
                },
                ..In::default()
            });
        }
        let base = In {
            cfg_mtu_log2: 8,
            ack_ready: true,
            ..In::default()
        };
        let pkt = In {
            meta_valid: true,
            meta: RxMeta {
                opcode: 0x0A,
                qp: 6,
                psn: 5,
                ackreq: true,
                ..Default::default()
            },
            ..base
        };
        let t0 = ins.len();
        ins.push(pkt);
        for _ in 0..12 {
            ins.push(base);
        }
        // Invalidate flow 6 `delay` cycles after the acceptance.
        ins[t0 + delay].ctx_valid = true;
        ins[t0 + delay].ctx.flow = 6;
        ins[t0 + delay].ctx.active = false;
        for i in &ins {
            outs.push(gm.step(i));
        }
        assert!(outs[t0].meta_ready);
        let o = outs.last().unwrap();
        if delay <= 3 {
            // Accept, Look, Chk or Exec cycle: re-read, dropped as
            // unknown, 4 cycles later.
            assert_eq!(
                (o.stats.unknown_flow, o.stats.accepted),
                (1, 0),
                "delay {delay}"
            );
            assert!(
                !outs[t0 + 4].meta_ready && outs[t0 + 8].meta_ready,
                "delay {delay}"
            );
        } else {
            // After Exec: the packet was accepted, the flow is invalid now.
            assert_eq!(
                (o.stats.unknown_flow, o.stats.accepted),
                (0, 1),
                "delay {delay}"
            );
            // Its ACK is taken in t0 + 4; the ready follows the register
            // being empty, in t0 + 5.
            assert!(
                !outs[t0 + 4].meta_ready && outs[t0 + 5].meta_ready,
                "delay {delay}"
            );
            assert!(!gm.mem[6].valid);
        }
        let outs_rtl = both::<RoceRxDispatch<3>, Golden<3>>(&format!("rxd_cfg_race{delay}"), &ins)
            .expect("RTL == golden");
        assert_eq!(outs_rtl, outs);
    }
}

/// Throughput with every ready high: back-to-back packets take exactly
/// `OVERHEAD` = 5 cycles plus one per payload word (each raises an event
/// or writes to the host; 62-byte frames with no payload,
/// and WRITEs of 1..=64 bytes); measured on the RTL (both engines run
/// the same stimulus with the same outputs). The line-rate budget: no
/// packet holds the dispatcher longer than its frame takes the 64-bit
/// wire (without FCS, preamble and gap, so the bound is stricter than
/// the wire's).
#[test]
fn throughput_back_to_back() {
    let mut specs = vec![];
    let mut words = vec![];
    let mut frame_bytes = vec![];
    let mut psn = [1000u32; 4];
    for k in 0..40u32 {
        let len = [0usize, 8, 1, 16, 64, 0, 24, 9][k as usize % 8];
        let s = if len == 0 {
            // An ACK (62 bytes on the wire): a cc event.
            Spec {
                aeth: ack_aeth(0x1F, k),
                ..Spec::new(0x11, k % 4, PsnMode::Exact(k))
            }
        } else {
            let f = k as usize % 4;
            psn[f] += 1;
            write(
                0x0A,
                k % 4,
                psn[f] - 1,
                0x100 * k as u64,
                bytes(len, 1),
                true,
            )
        };
        words.push(len.div_ceil(8) as u64);
        // ACKNOWLEDGE: AETH; WRITE ONLY: RETH and the payload.
        use nic_spec::roce::{AETH_LEN, MIN_FRAME, RETH_LEN};
        frame_bytes.push(if len == 0 {
            MIN_FRAME + AETH_LEN
        } else {
            MIN_FRAME + RETH_LEN + len
        });
        specs.push(s);
    }
    let run = checked::<3>(
        "rxd_throughput",
        &flows(3, 1000),
        &specs,
        &Knobs::all_ready(8),
    );
    assert_eq!(run.accepts.len(), specs.len());
    let o = run.outs.last().unwrap();
    assert_eq!(o.stats.accepted, 40);
    let mut worst = 0;
    for (k, w) in run.accepts.windows(2).enumerate() {
        let cycles = (w[1] - w[0]) as u64;
        assert_eq!(cycles, g::OVERHEAD + words[k], "packet {k}");
        assert!(
            cycles <= frame_bytes[k].div_ceil(8) as u64,
            "packet {k}: {cycles} cycles for a {}-byte frame",
            frame_bytes[k]
        );
        worst = worst.max(cycles - words[k]);
    }
    let total = run.accepts.last().unwrap() - run.accepts[0];
    let tw: u64 = words[..words.len() - 1].iter().sum();
    println!(
        "rx_dispatch throughput: {} packets, {} payload words, {} cycles: overhead {:.2} cycles/packet (worst {})",
        specs.len() - 1,
        tw,
        total,
        (total as u64 - tw) as f64 / (specs.len() - 1) as f64,
        worst
    );
}

/// Throughput of READ RESPONSEs with every ready high: each waits
/// `LAND` = 1 cycle for its landing entry, so back to back it takes
/// `OVERHEAD` + `LAND` cycles plus one per payload word, and the ACKs
/// between them `OVERHEAD` plus nothing; every response lands (entry 0
/// of its flow) and raises its `cc`. Measured on the RTL (both engines).
#[test]
fn throughput_read_responses() {
    let mut specs = vec![];
    let mut cost = vec![];
    for k in 0..16u32 {
        let f = k / 2;
        if k % 2 == 0 {
            let len = [8usize, 1, 16, 64, 24, 9, 40, 2][f as usize];
            specs.push(Spec {
                payload: bytes(len, k as u8),
                ..Spec::new(0x10, f, PsnMode::Exact(500))
            });
            cost.push(g::OVERHEAD + g::LAND + len.div_ceil(8) as u64);
        } else {
            specs.push(Spec {
                aeth: ack_aeth(0x1F, k),
                ..Spec::new(0x11, f, PsnMode::Exact(k))
            });
            cost.push(g::OVERHEAD);
        }
    }
    let run = checked::<3>(
        "rxd_rr_throughput",
        &flows(3, 0),
        &specs,
        &Knobs::all_ready(8),
    );
    assert_eq!(run.accepts.len(), specs.len());
    for (k, w) in run.accepts.windows(2).enumerate() {
        assert_eq!((w[1] - w[0]) as u64, cost[k], "packet {k}");
    }
    let o = run.outs.last().unwrap();
    assert_eq!(o.stats.accepted, 16);
    for f in 0..8u64 {
        let len = [8usize, 1, 16, 64, 24, 9, 40, 2][f as usize];
        for (j, b) in bytes(len, 2 * f as u8).into_iter().enumerate() {
            assert_eq!(run.host.get(&(0x8000 * (f + 1) + j as u64)), Some(&b));
        }
    }
}

/// The random stimulus of the co-simulation reaches every outcome: each
/// counter, each event, back-pressure on each output, payload discarded
/// and written, cfg writes racing packets (`Retry`), resets (also of a
/// packet in flight).
#[test]
fn random_stimulus_covers_every_outcome() {
    use proptest::strategy::ValueTree;
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let strat = stim::<3>(400, 4000);
    let mut seen = [0u64; 19];
    let mut cycles = 0;
    for _ in 0..16 {
        let s = strat.new_tree(&mut runner).unwrap().current();
        let mut gm = Golden::<3>::default();
        let mut last = Out::default();
        for i in &s {
            let st = gm.st;
            let o = gm.step(i);
            let hit = [
                o.stats.unknown_flow > last.stats.unknown_flow,
                o.stats.oos > last.stats.oos,
                o.stats.dup > last.stats.dup,
                o.stats.bad_psn > last.stats.bad_psn,
                o.stats.accepted > last.stats.accepted,
                o.stats.bad_va > last.stats.bad_va,
                o.stats.bad_op > last.stats.bad_op,
                o.ack_valid && !i.ack_ready,
                o.cc_valid && !i.cc_ready,
                o.nak_valid && !i.nak_ready,
                o.rdreq_valid && !i.rdreq_ready,
                o.wr_valid && !i.wr_ready,
                st == g::State::PayDrop && i.pay.tvalid,
                st == g::State::Retry,
                i.reset,
                o.ack_valid && o.ack.tlm.present && i.ack_ready,
                i.reset && matches!(st, g::State::Exec | g::State::PayWr),
                // A duplicate READ REQUEST executed again.
                o.stats.dup > last.stats.dup && o.rdreq_valid,
                i.ctx_valid && i.ctx.rd_only,
            ];
            for (k, h) in hit.iter().enumerate() {
                seen[k] += *h as u64;
            }
            last = o;
            cycles += 1;
        }
    }
    println!("rx_dispatch stimulus: {cycles} cycles, outcomes {seen:?}");
    assert!(seen.iter().all(|&n| n > 0), "{seen:?}");
}

/// DCQCN on the receive side: a CNP of a known flow gives `m_cnp` (op
/// CNP, bytes 0) and is accepted without touching the flow's PSNs; a CNP
/// for an unknown QP is `unknown_flow` and gives nothing; a CE-marked
/// packet of a known flow gives one `m_ce` strobe whatever its PSN
/// decision (in sequence or duplicate), a CE-marked CNP none, a CE-marked
/// packet of an unknown flow none, and one of a flow that does not run
/// DCQCN (`cnp_on_ce` clear) none.
#[test]
fn cnp_and_ce_marks() {
    let ce = |mut s: Spec| {
        s.ce = true;
        s
    };
    let specs = vec![
        Spec::new(0x81, 2, PsnMode::Exact(12345)),
        Spec::new(0x81, 9, PsnMode::Exact(0)),
        ce(write(0x0A, 1, 10, 0x100, bytes(16, 1), true)),
        // A duplicate of it, CE-marked too: re-ACK and a CE mark.
        ce(write(0x0A, 1, 10, 0x100, bytes(16, 1), true)),
        ce(Spec::new(0x81, 3, PsnMode::Exact(0))),
        ce(write(0x0A, 9, 10, 0x100, bytes(16, 1), true)),
        // Flow 3 does not run DCQCN: its CE mark is ignored.
        ce(write(0x0A, 3, 10, 0x300, bytes(8, 3), true)),
        // Flow 2's PSNs did not move: its next packet is in sequence.
        write(0x0A, 2, 10, 0x200, bytes(8, 2), true),
    ];
    let run = checked::<3>("rxd_cnp_ce", &flows(3, 10), &specs, &Knobs::all_ready(8));
    let evs: Vec<Ev> = run
        .events
        .iter()
        .map(|e| e.1.clone())
        .filter(|e| !matches!(e, Ev::Ack { .. }))
        .collect();
    assert_eq!(
        evs,
        vec![
            Ev::Cnp { flow: 2 },
            Ev::Ce { flow: 1 },
            Ev::Ce { flow: 1 },
            Ev::Cnp { flow: 3 },
        ]
    );
    let acks: Vec<(u32, u32)> = run
        .events
        .iter()
        .filter_map(|e| match e.1 {
            Ev::Ack { flow, psn, .. } => Some((flow, psn)),
            _ => None,
        })
        .collect();
    assert_eq!(acks, vec![(1, 10), (1, 10), (3, 10), (2, 10)]);
    let st = run.outs.last().unwrap().stats;
    assert_eq!((st.accepted, st.dup, st.unknown_flow), (5, 1, 2));
    // The RpEvent carries op CNP and no bytes.
    let o = run.outs.iter().find(|o| o.cnp_valid).unwrap();
    assert_eq!((o.cnp.op, o.cnp.bytes), (nic_spec::dcqcn::OP_CNP, 0));
}
