//! `hdl/src/roce/tx.rs` (`RoceTx`) against `nic_golden::roce::tx`, and the
//! frames it builds against an independent encoder written here (and
//! `nic_golden::roce::packet`, whose IPv4 checksum comes from etherparse).
//!
//! The stimulus is generated with the golden model in the loop: a host
//! memory model answers the block's read requests (`rdq_*`) in order with
//! `host_word(addr)` words, `rd_tvalid` random, so the precomputed
//! stimulus is exactly what a host would have driven.

use crate::common::*;
use nic_golden::roce::packet::{self, Packet, Reth, Tlm};
use nic_golden::roce::tx::{host_byte, host_word, Ctx, In, Out, RoceTx as Golden};
use nic_golden::Cycle;
use nic_hdl::roce::tx::RoceTx;
use proptest::prelude::*;
use std::collections::VecDeque;

type Dut = RoceTx<10>;
type Gold = Golden<10>;

/// The opcodes tested, 0x81 (CNP: 16 reserved bytes where a RETH goes)
/// included.
const OPS: [u8; 13] = [
    0x06, 0x07, 0x08, 0x0A, 0x0C, 0x0D, 0x0E, 0x0F, 0x10, 0x11, 0xC0, 0xC1, 0x81,
];

#[derive(Clone, Copy, Debug, Default)]
struct Desc {
    flow: u32,
    opcode: u8,
    psn: u32,
    ackreq: bool,
    len: u16,
    addr: u64,
    va: u64,
    rkey: u32,
    dlen: u32,
    aeth: u32,
    tlm: bool,
    words: [u64; 6],
}

/// Per-cycle environment: out_tready, rd_tvalid, rdq_ready, req_valid
/// (when a descriptor is waiting), reset.
#[derive(Clone, Copy, Debug)]
struct Env {
    out_tready: bool,
    rd_tvalid: bool,
    rdq_ready: bool,
    req_valid: bool,
    reset: bool,
}

const ENV_FULL: Env = Env {
    out_tready: true,
    rd_tvalid: true,
    rdq_ready: true,
    req_valid: true,
    reset: false,
};

#[derive(Clone, Debug)]
struct Plan {
    /// Context writes: (cycle, flow, context).
    ctx: Vec<(usize, u32, Ctx)>,
    descs: Vec<Desc>,
    env: Vec<Env>,
}

/// What a run did, seen from outside the block.
#[derive(Default, Debug)]
struct Log {
    /// Accepted descriptors with the context the block read (the RAM word
    /// before that cycle's write) and the cycle.
    accepted: Vec<(usize, Desc, Ctx)>,
    /// Frames sent: bytes, first and last cycle.
    frames: Vec<(Vec<u8>, usize, usize)>,
    /// Cycles with a word sent.
    sent: Vec<usize>,
    reset_seen: bool,
}

fn payload_op(op: u8) -> bool {
    matches!(op, 0x06 | 0x07 | 0x08 | 0x0A | 0x0D | 0x0E | 0x0F | 0x10)
}

/// The descriptor rules of the RTL's doc comment, written out again.
fn is_good(d: &Desc) -> bool {
    let syn = (d.aeth >> 24) as u8;
    let len = d.len as u32;
    if !OPS.contains(&d.opcode) || len > 4096 {
        return false;
    }
    if !payload_op(d.opcode) && len != 0 {
        return false;
    }
    if matches!(d.opcode, 0x06 | 0x07 | 0x08 | 0x0D | 0x0E | 0x0F) && len == 0 {
        return false;
    }
    if len != 0 && d.addr % 8 != 0 {
        return false;
    }
    match d.opcode {
        0x06 | 0x0A => d.dlen >= len,
        0x11 => matches!(syn, 0x1F | 0x60 | 0x61 | 0x62),
        0x0D | 0x0F | 0x10 => syn == 0x1F,
        0xC0 | 0xC1 => d.tlm,
        _ => true,
    }
}

/// Run the golden model over `plan`, answering read requests from the
/// host memory, and return the stimulus and what was seen.
fn run(plan: &Plan) -> (Vec<In>, Log) {
    let mut g = Gold::default();
    let mut ctx = vec![Ctx::default(); 1 << 10];
    let mut stim = Vec::with_capacity(plan.env.len());
    let mut log = Log::default();
    let mut next = 0usize;
    let mut presenting = false;
    // Host: outstanding requests (addr, words), words of the head sent.
    let mut host: VecDeque<(u64, u64)> = VecDeque::new();
    let mut sent_words = 0u64;
    let mut frame: Vec<u8> = Vec::new();
    let mut frame_start = 0usize;
    for (t, e) in plan.env.iter().enumerate() {
        let mut i = In {
            reset: e.reset,
            out_tready: e.out_tready,
            rdq_ready: e.rdq_ready,
            ..In::default()
        };
        if let Some(&(_, flow, c)) = plan.ctx.iter().find(|w| w.0 == t) {
            i.ctx_valid = true;
            i.ctx.flow = flow;
            i.ctx.dmac = c.dmac;
            i.ctx.smac = c.smac;
            i.ctx.sip = c.sip;
            i.ctx.dip = c.dip;
            i.ctx.sport = c.sport;
            i.ctx.dqp = c.dqp;
            i.ctx.pkey = c.pkey;
            i.ctx.tos = c.tos;
        }
        if next < plan.descs.len() && (presenting || e.req_valid) {
            presenting = true;
            let d = plan.descs[next];
            i.req_valid = true;
            i.req.flow = d.flow;
            i.req.opcode = d.opcode;
            i.req.psn = d.psn;
            i.req.ackreq = d.ackreq;
            i.req.len = d.len;
            i.req.addr = d.addr;
            i.req.va = d.va;
            i.req.rkey = d.rkey;
            i.req.dlen = d.dlen;
            i.req.aeth = d.aeth;
            i.req.tlm.present = d.tlm;
            i.req.tlm.hdr = d.words[0];
            i.req.tlm.hop0 = d.words[1];
            i.req.tlm.hop1 = d.words[2];
            i.req.tlm.hop2 = d.words[3];
            i.req.tlm.hop3 = d.words[4];
            i.req.tlm.hop4 = d.words[5];
        }
        if let Some(&(addr, words)) = host.front() {
            i.rd.tvalid = e.rd_tvalid;
            i.rd.tdata = host_word(addr + 8 * sent_words);
            i.rd.tlast = sent_words + 1 == words;
        } else {
            // Nothing requested: junk on the bus, not valid.
            i.rd.tdata = host_word(0xDEAD_0000 + t as u64);
        }
        let o: Out = g.step(&i);
        stim.push(i);
        // What the outside saw in this cycle.
        if i.req_valid && o.req_ready {
            let d = plan.descs[next];
            log.accepted.push((t, d, ctx[(d.flow & 1023) as usize]));
            next += 1;
            presenting = false;
        }
        if i.ctx_valid {
            ctx[(i.ctx.flow & 1023) as usize] = Ctx {
                dmac: i.ctx.dmac,
                smac: i.ctx.smac,
                sip: i.ctx.sip,
                dip: i.ctx.dip,
                sport: i.ctx.sport,
                dqp: i.ctx.dqp,
                pkey: i.ctx.pkey,
                tos: i.ctx.tos,
            };
        }
        if o.rdq_valid && i.rdq_ready {
            host.push_back((o.rdq.addr, (o.rdq.len as u64 + 7) / 8));
        }
        if i.rd.tvalid && o.rd_tready {
            sent_words += 1;
            if sent_words == host.front().unwrap().1 {
                host.pop_front();
                sent_words = 0;
            }
        }
        if o.out.tvalid && i.out_tready {
            assert!(
                o.out.tkeep == 0xFF || o.out.tlast,
                "cycle {t}: partial word before tlast"
            );
            assert_eq!(
                o.out.tkeep & o.out.tkeep.wrapping_add(1),
                0,
                "cycle {t}: tkeep"
            );
            if frame.is_empty() {
                frame_start = t;
            }
            for k in 0..8 {
                if (o.out.tkeep >> k) & 1 != 0 {
                    frame.push((o.out.tdata >> (8 * k)) as u8);
                }
            }
            log.sent.push(t);
            if o.out.tlast {
                log.frames
                    .push((std::mem::take(&mut frame), frame_start, t));
            }
        }
        if e.reset {
            // The block forgets its requests; so does the host.
            host.clear();
            sent_words = 0;
            frame.clear();
            log.reset_seen = true;
        }
    }
    (stim, log)
}

/// Ones' complement sum of 16-bit words, complemented.
fn ip_checksum(h: &[u8]) -> u16 {
    let mut s: u32 = h
        .chunks(2)
        .map(|c| u16::from_be_bytes([c[0], c[1]]) as u32)
        .sum();
    while s > 0xFFFF {
        s = (s & 0xFFFF) + (s >> 16);
    }
    !(s as u16)
}

/// The frame of descriptor `d` with context `c`, from the spec's tables.
fn reference_frame(d: &Desc, c: &Ctx) -> Vec<u8> {
    let reth = matches!(d.opcode, 0x06 | 0x0A | 0x0C | 0x81);
    let aeth = matches!(d.opcode, 0x0D | 0x0F | 0x10 | 0x11);
    let n = d.len as usize;
    let pad = (4 - n % 4) % 4;
    let ext = 16 * reth as usize + 4 * aeth as usize + 48 * d.tlm as usize;
    let ip_len = 20 + 8 + 12 + ext + n + pad + 4;
    let mut f = Vec::new();
    f.extend_from_slice(&c.dmac.to_be_bytes()[2..]);
    f.extend_from_slice(&c.smac.to_be_bytes()[2..]);
    f.extend_from_slice(&[0x08, 0x00]);
    let mut ip = vec![0x45, c.tos];
    ip.extend_from_slice(&(ip_len as u16).to_be_bytes());
    ip.extend_from_slice(&[0, 0, 0x40, 0, 64, 17, 0, 0]);
    ip.extend_from_slice(&c.sip.to_be_bytes());
    ip.extend_from_slice(&c.dip.to_be_bytes());
    let ck = ip_checksum(&ip);
    ip[10..12].copy_from_slice(&ck.to_be_bytes());
    f.extend_from_slice(&ip);
    f.extend_from_slice(&c.sport.to_be_bytes());
    f.extend_from_slice(&4791u16.to_be_bytes());
    f.extend_from_slice(&((ip_len - 20) as u16).to_be_bytes());
    f.extend_from_slice(&[0, 0]);
    f.push(d.opcode);
    f.push((pad as u8) << 4);
    f.extend_from_slice(&c.pkey.to_be_bytes());
    // BTH byte 4: T, and BECN in a CNP.
    f.push(d.tlm as u8 | if d.opcode == 0x81 { 0x40 } else { 0 });
    f.extend_from_slice(&c.dqp.to_be_bytes()[1..]);
    f.push((d.ackreq as u8) << 7);
    f.extend_from_slice(&d.psn.to_be_bytes()[1..]);
    if reth {
        f.extend_from_slice(&d.va.to_be_bytes());
        f.extend_from_slice(&d.rkey.to_be_bytes());
        f.extend_from_slice(&d.dlen.to_be_bytes());
    }
    if aeth {
        f.extend_from_slice(&d.aeth.to_be_bytes());
    }
    let tlm_at = f.len();
    if d.tlm {
        for w in d.words {
            f.extend_from_slice(&w.to_be_bytes());
        }
    }
    for k in 0..n as u64 {
        f.push(host_byte(d.addr + k));
    }
    f.extend(std::iter::repeat(0).take(pad));
    // ICRC: 8 bytes of ones, then from the IPv4 header on, masked.
    let mut m = vec![0xFFu8; 8];
    m.extend_from_slice(&f[14..]);
    for off in [15usize, 22, 24, 25, 40, 41, 46] {
        m[8 + off - 14] = 0xFF;
    }
    if d.tlm {
        for b in &mut m[8 + tlm_at - 14..8 + tlm_at - 14 + 48] {
            *b = 0xFF;
        }
    }
    f.extend_from_slice(&crc32fast::hash(&m).to_le_bytes());
    f
}

/// The same frame through `nic_golden::roce::packet` (etherparse's IPv4).
fn packet_frame(d: &Desc, c: &Ctx) -> Packet {
    let reth = matches!(d.opcode, 0x06 | 0x0A | 0x0C | 0x81);
    let aeth = matches!(d.opcode, 0x0D | 0x0F | 0x10 | 0x11);
    Packet {
        dmac: c.dmac.to_be_bytes()[2..].try_into().unwrap(),
        smac: c.smac.to_be_bytes()[2..].try_into().unwrap(),
        tos: c.tos,
        ip_id: 0,
        ttl: 64,
        sip: c.sip.to_be_bytes(),
        dip: c.dip.to_be_bytes(),
        sport: c.sport,
        dport: packet::ROCE_PORT,
        opcode: d.opcode,
        se: false,
        mig: false,
        becn: d.opcode == 0x81,
        pkey: c.pkey,
        dqp: c.dqp,
        ackreq: d.ackreq,
        psn: d.psn,
        reth: reth.then_some(Reth {
            va: d.va,
            rkey: d.rkey,
            dlen: d.dlen,
        }),
        aeth: aeth.then_some(d.aeth),
        tlm: d.tlm.then_some(Tlm {
            hdr: d.words[0],
            hops: [d.words[1], d.words[2], d.words[3], d.words[4], d.words[5]],
        }),
        payload: (0..d.len as u64).map(|k| host_byte(d.addr + k)).collect(),
    }
}

/// Every frame sent is the reference frame of the next good accepted
/// descriptor, byte for byte; bad ones are counted and send nothing.
fn check_frames(log: &Log, outs: Option<&[Out]>) {
    let good: Vec<&(usize, Desc, Ctx)> = log.accepted.iter().filter(|a| is_good(&a.1)).collect();
    let bad = log.accepted.len() - good.len();
    assert!(
        log.frames.len() <= good.len(),
        "more frames than good descriptors"
    );
    if std::env::var("TX_DEBUG").is_ok() {
        eprintln!(
            "accepted {} good {} frames {}",
            log.accepted.len(),
            good.len(),
            log.frames.len()
        );
    }
    for (k, ((f, s, e), (_, d, c))) in log.frames.iter().zip(good.iter()).enumerate() {
        let want = reference_frame(d, c);
        assert_eq!(f.len(), want.len(), "frame {k} ({d:x?}): length");
        if f != &want {
            let at = f.iter().zip(&want).position(|(a, b)| a != b).unwrap();
            panic!("frame {k} ({d:x?}): first difference at byte {at}\n got  {f:02x?}\n want {want:02x?}");
        }
        let p = packet_frame(d, c);
        assert_eq!(p.encode(), want, "frame {k}: packet::encode disagrees");
        if p.tlm.map_or(true, |t| t.is_sane()) {
            assert_eq!(
                packet::decode(f, false).as_ref(),
                Ok(&p),
                "frame {k}: decode"
            );
        }
        assert!(e >= s);
    }
    if let Some(outs) = outs {
        let last = outs.last().unwrap();
        assert_eq!(last.stats.bad_req as usize, bad, "cnt_bad_req");
        assert_eq!(last.stats.frames as usize, log.frames.len(), "cnt_frames");
    }
}

fn ctx_strategy() -> impl Strategy<Value = Ctx> {
    (
        any::<u64>(),
        any::<u64>(),
        any::<u32>(),
        any::<u32>(),
        0xC000u16..=0xFFFF,
        0u32..1 << 24,
        any::<u16>(),
        any::<u8>(),
    )
        .prop_map(|(dmac, smac, sip, dip, sport, dqp, pkey, tos)| Ctx {
            dmac: dmac & 0xFFFF_FFFF_FFFF,
            smac: smac & 0xFFFF_FFFF_FFFF,
            sip,
            dip,
            sport,
            dqp,
            pkey,
            tos,
        })
}

/// A descriptor: good about 4 in 5, else broken in one of the ways of §6.
fn desc_strategy(flows: Vec<u32>, maxlen: u16) -> impl Strategy<Value = Desc> {
    let fl = flows.len();
    (
        (
            0usize..fl + 1,
            0usize..OPS.len(),
            0u32..1 << 24,
            any::<bool>(),
            any::<bool>(),
        ),
        prop_oneof![3 => 0u16..=64, 1 => 0u16..=maxlen],
        (
            0u64..1 << 20,
            any::<u64>(),
            any::<u32>(),
            0u32..64,
            0u32..1 << 24,
            0usize..3,
        ),
        prop::array::uniform6(any::<u64>()),
        (0u32..40, any::<u8>()),
    )
        .prop_map(move |(a, len, b, words, (kind, junk))| {
            let (fi, oi, psn, ackreq, tlm) = a;
            let (addr, va, rkey, dextra, msn, si) = b;
            let opcode = OPS[oi];
            let flow = if fi < fl { flows[fi] } else { 1023 - fi as u32 };
            let mut d = Desc {
                flow,
                opcode,
                psn,
                ackreq,
                len: 0,
                addr: addr * 8,
                va,
                rkey,
                dlen: 0,
                aeth: (0x1F << 24) | msn,
                tlm: tlm || opcode >= 0xC0,
                words,
            };
            if payload_op(opcode) {
                d.len = len;
                if matches!(opcode, 0x06 | 0x07 | 0x08 | 0x0D | 0x0E | 0x0F) && len == 0 {
                    d.len = 1 + (dextra as u16 % 8);
                }
            }
            d.dlen = d.len as u32 + dextra;
            if opcode == 0x11 {
                d.aeth = ([0x1Fu32, 0x60, 0x61][si] << 24) | msn;
            }
            match kind {
                32 => d.opcode = if OPS.contains(&junk) { 0xFF } else { junk },
                33 => d.len = 4097 + (junk as u16) * 16,
                34 => {
                    d.opcode = [0x0C, 0x11, 0xC0, 0xC1][si];
                    d.len = 1 + junk as u16;
                }
                35 => {
                    d.opcode = [0x06, 0x07, 0x0F][si];
                    d.len = 0;
                }
                36 => {
                    d.len = d.len.max(1);
                    d.opcode = [0x0A, 0x10, 0x07][si];
                    d.addr |= 1 + (junk as u64 % 7);
                }
                37 => {
                    d.opcode = [0x06, 0x0A, 0x0A][si];
                    d.len = d.len.max(1);
                    d.dlen = d.len as u32 - 1;
                }
                38 => {
                    d.opcode = [0x11, 0x0D, 0x10][si];
                    let s = if junk == 0x1F { 0x20 } else { junk };
                    d.aeth = ((s as u32) << 24) | msn;
                    if d.opcode == 0x11 && matches!(s, 0x60 | 0x61 | 0x62) {
                        d.aeth = 0x64 << 24;
                    }
                    if d.opcode != 0x11 && d.len == 0 && d.opcode == 0x0D {
                        d.len = 8;
                    }
                }
                39 => {
                    d.opcode = [0xC0, 0xC1, 0xC0][si];
                    d.len = 0;
                    d.tlm = false;
                }
                _ => {}
            }
            d
        })
}

fn env_strategy(len: usize) -> impl Strategy<Value = Vec<Env>> {
    let p = prop_oneof![1 => Just(100u32), 2 => 10u32..=100];
    (p.clone(), p.clone(), p.clone(), p, any::<bool>()).prop_flat_map(
        move |(pt, pr, pq, pv, with_reset)| {
            (
                prop::collection::vec(
                    (chance(pt), chance(pr), chance(pq), chance(pv)).prop_map(|(a, b, c, d)| Env {
                        out_tready: a,
                        rd_tvalid: b,
                        rdq_ready: c,
                        req_valid: d,
                        reset: false,
                    }),
                    len,
                ),
                if with_reset {
                    (len / 4..len).prop_map(Some).boxed()
                } else {
                    Just(None).boxed()
                },
            )
                .prop_map(|(mut env, r)| {
                    // A reset in some runs (1 in 4): two cycles of it.
                    if let Some(r) = r.filter(|r| r % 2 == 0) {
                        env[r].reset = true;
                        let r2 = (r + 1).min(env.len() - 1);
                        env[r2].reset = true;
                    }
                    env
                })
        },
    )
}

/// Contexts for a few flows (written at cycles 0..), then descriptors.
fn plan_strategy(cycles: usize, ndesc: usize, maxlen: u16) -> impl Strategy<Value = Plan> {
    (
        prop::collection::vec((0u32..1024, ctx_strategy()), 1..5),
        prop::collection::vec((0usize..cycles, 0usize..8, ctx_strategy()), 0..3),
    )
        .prop_flat_map(move |(ctxs, late)| {
            let flows: Vec<u32> = ctxs.iter().map(|c| c.0).collect();
            let mut w: Vec<(usize, u32, Ctx)> = ctxs
                .iter()
                .enumerate()
                .map(|(k, c)| (k, c.0, c.1))
                .collect();
            // Later rewrites of a context, at random cycles.
            for (t, fi, c) in late {
                w.push((t.max(8), flows[fi % flows.len()], c));
            }
            (
                Just(w),
                prop::collection::vec(desc_strategy(flows, maxlen), 1..ndesc),
                env_strategy(cycles),
            )
                .prop_map(|(ctx, descs, env)| Plan { ctx, descs, env })
        })
}

fn check_plan_frames(log: &Log, outs: &[Out]) {
    if !log.reset_seen {
        check_frames(log, Some(outs));
    }
}

proptest! {
    #![proptest_config(config(16))]
    /// Both engines, every port every cycle: random descriptors (good and
    /// bad, every opcode), contexts, back-pressure, host stalls, resets;
    /// the frames are then checked against the reference encoder.
    #[test]
    fn tx_matches_golden(plan in plan_strategy(3000, 40, 600)) {
        let (stim, log) = run(&plan);
        let outs = both::<Dut, Gold>("roce_tx", &stim)?;
        check_plan_frames(&log, &outs);
    }
}

proptest! {
    #![proptest_config(config(32))]
    /// Verilator only: longer runs, payloads up to 4096 bytes.
    #[test]
    fn tx_matches_golden_volume(plan in plan_strategy(30_000, 160, 4096)) {
        let (stim, log) = run(&plan);
        let outs = verilator::<Dut, Gold>("roce_tx", &stim)?;
        check_plan_frames(&log, &outs);
    }
}

proptest! {
    #![proptest_config(config(200))]
    /// Golden model only (fast): frame content against the reference
    /// encoder and `packet`, lengths 0..=4096.
    #[test]
    fn tx_frames_match_reference(plan in plan_strategy(12_000, 60, 4096)) {
        let (_, log) = run(&plan);
        prop_assume!(!log.reset_seen);
        check_frames(&log, None);
    }
}

/// The output as a MAC sees it, across resets: every frame ending
/// without `tuser` is exactly the frame of a good accepted descriptor,
/// so a frame cut by a reset never joins the next one. Returns how many
/// frames ended with `tuser` (closed by a reset: no payload comes
/// flagged here).
fn check_wire_across_resets(log: &Log, stim: &[In], outs: &[Out]) -> usize {
    let want: std::collections::HashSet<Vec<u8>> = log
        .accepted
        .iter()
        .filter(|a| is_good(&a.1))
        .map(|(_, d, c)| reference_frame(d, c))
        .collect();
    let mut frame = Vec::new();
    let mut closed = 0;
    for (t, (i, o)) in stim.iter().zip(outs).enumerate() {
        if !(o.out.tvalid && i.out_tready) {
            continue;
        }
        for k in 0..8 {
            if (o.out.tkeep >> k) & 1 != 0 {
                frame.push((o.out.tdata >> (8 * k)) as u8);
            }
        }
        if o.out.tlast {
            let f = std::mem::take(&mut frame);
            if o.out.tuser {
                assert_eq!(o.out.tkeep, 0x01, "cycle {t}: a closing word");
                closed += 1;
            } else {
                assert!(
                    want.contains(&f),
                    "cycle {t}: a frame no descriptor made: {f:02x?}"
                );
            }
        }
    }
    closed
}

proptest! {
    #![proptest_config(config(12))]
    /// Resets at random cycles, some while a frame is half taken, with
    /// back-pressure: both engines agree on every port, and on the wire
    /// every frame is whole or closed with `tuser` (`reset` in the RTL's
    /// doc).
    #[test]
    fn tx_reset_closes_the_open_frame(
        plan in plan_strategy(4000, 40, 1500),
        resets in prop::collection::vec((200usize..4000, 1usize..4), 1..6),
    ) {
        let mut plan = plan;
        for (at, len) in resets {
            for r in at..(at + len).min(plan.env.len()) {
                plan.env[r].reset = true;
            }
        }
        let (stim, log) = run(&plan);
        let outs = both::<Dut, Gold>("roce_tx_reset", &stim)?;
        check_wire_across_resets(&log, &stim, &outs);
    }
}

/// The closing word itself: a long frame, the output stalled in its
/// middle, a reset while stalled and one while the closing word waits.
#[test]
fn tx_reset_mid_frame_sends_one_closing_word() {
    let mut env = vec![ENV_FULL; 400];
    // Stall the output from cycle 40 (the frame is under way) to 80;
    // reset at 50 and 51 (stalled), again at 60.
    for e in env.iter_mut().take(80).skip(40) {
        e.out_tready = false;
    }
    env[50].reset = true;
    env[51].reset = true;
    env[60].reset = true;
    let plan = Plan {
        ctx: vec![(0, 5, ctx1())],
        descs: vec![write(0x0A, 7, 1024)],
        env,
    };
    let (stim, log) = run(&plan);
    let outs = both::<Dut, Gold>("roce_tx_close", &stim).unwrap();
    assert_eq!(
        check_wire_across_resets(&log, &stim, &outs),
        1,
        "one frame closed"
    );
    // The output slice holds two words of the frame, taken from stage B
    // before the stall: they wait through both resets, held unchanged,
    // and go first; the closing word, held in stage B, follows them.
    for t in 52..80 {
        assert!(outs[t].out.tvalid && !outs[t].out.tuser, "cycle {t}");
        let word = |o: &Out| (o.out.tdata, o.out.tkeep, o.out.tlast);
        assert_eq!(word(&outs[t]), word(&outs[51]), "cycle {t}: held");
    }
    let closing: Vec<usize> = (0..stim.len())
        .filter(|&t| outs[t].out.tvalid && stim[t].out_tready && outs[t].out.tuser)
        .collect();
    assert_eq!(
        closing,
        vec![82],
        "the closing word right after the slice's two"
    );
}

fn ctx1() -> Ctx {
    Ctx {
        dmac: 0x02_00_00_00_00_02,
        smac: 0x02_00_00_00_00_01,
        sip: 0x0A00_0001,
        dip: 0x0A00_0002,
        sport: 0xC123,
        dqp: 0x00_0012,
        pkey: 0xFFFF,
        tos: 0x02,
    }
}

fn ack(psn: u32) -> Desc {
    Desc {
        flow: 5,
        opcode: 0x11,
        psn,
        aeth: (0x1F << 24) | psn,
        ..Desc::default()
    }
}

fn write(opcode: u8, psn: u32, len: u16) -> Desc {
    Desc {
        flow: 5,
        opcode,
        psn,
        len,
        addr: 0x10_0000 + psn as u64 * 0x1000,
        va: 0x7000_0000 + psn as u64 * len as u64,
        rkey: 0x1234,
        dlen: 8 * 1024,
        ..Desc::default()
    }
}

/// Frames back to back on Verilator (compared with golden every cycle):
/// the sent words are contiguous, each frame takes ceil(bytes / 8) cycles.
fn line_rate(name: &str, descs: Vec<Desc>) -> Vec<usize> {
    let n = descs.len();
    let plan = Plan {
        ctx: vec![(0, 5, ctx1())],
        descs,
        env: vec![ENV_FULL; 400 + n * 150],
    };
    let (stim, log) = run(&plan);
    let outs = verilator::<Dut, Gold>(name, &stim).expect("verilator == golden");
    check_frames(&log, Some(&outs));
    assert_eq!(log.frames.len(), n, "{name}: all frames sent");
    let mut per = Vec::new();
    for (k, (f, s, e)) in log.frames.iter().enumerate() {
        assert_eq!(e - s + 1, f.len().div_ceil(8), "{name}: frame {k} cycles");
        if k > 0 {
            assert_eq!(
                *s,
                log.frames[k - 1].2 + 1,
                "{name}: idle cycle before frame {k}"
            );
        }
        per.push(e - s + 1);
    }
    // Latency: accepted in cycle t (idle block), first word in t + 10.
    assert_eq!(log.frames[0].1, log.accepted[0].0 + 10, "{name}: latency");
    let first = log.frames[0].1;
    let last = log.frames[n - 1].2;
    assert_eq!(log.sent.len(), last - first + 1, "{name}: a gap inside");
    per
}

#[test]
fn tx_line_rate_min_and_mtu_frames() {
    // 62-byte ACKs.
    let acks: Vec<Desc> = (0..40).map(ack).collect();
    let per = line_rate("roce_tx_rate_ack", acks);
    assert!(per.iter().all(|&c| c == 8), "{per:?}");
    println!(
        "ACK (62 bytes): {} cycles per frame, {} frames back to back",
        per[0],
        per.len()
    );
    // MTU 1024: WRITE FIRST, MIDDLE.., LAST, then WRITE ONLY, READ REQUEST.
    let mut w = vec![write(0x06, 0, 1024)];
    w.extend((1..6).map(|p| write(0x07, p, 1024)));
    w.push(write(0x08, 6, 1024));
    w.push(write(0x0A, 7, 1024));
    w.push(write(0x08, 8, 1001));
    w.push(Desc {
        opcode: 0x0C,
        ..write(0x0C, 9, 0)
    });
    let per = line_rate("roce_tx_rate_mtu", w);
    println!(
        "WRITE 1024 B payload: FIRST {} / MIDDLE {} / ONLY {} cycles per frame ({:?})",
        per[0], per[1], per[7], per
    );
    assert_eq!(per[0], 138); // 70 + 1024 + 4 = 1098 bytes
    assert_eq!(per[1], 136); // 54 + 1024 + 4 = 1082 bytes
                             // Telemetry-carrying ACKs and probes, mixed with min-size ACKs.
    let mut m = Vec::new();
    for k in 0..20u32 {
        let mut d = ack(k);
        d.tlm = k % 3 == 0;
        d.words[0] = 0x1000_0500_0000_0000;
        if k % 5 == 1 {
            d.opcode = 0xC0;
            d.tlm = true;
        }
        m.push(d);
    }
    line_rate("roce_tx_rate_mixed", m);
}

/// Each kind of bad descriptor is counted, sends nothing, and the good
/// descriptor after it is sent normally (both engines).
#[test]
fn tx_bad_descriptors_counted() {
    let good = write(0x0A, 1, 13);
    let mut descs = vec![good];
    let mut bads = Vec::new();
    let mut b = good;
    b.opcode = 0x12;
    bads.push(b);
    b = good;
    b.len = 4097;
    bads.push(b);
    b = ack(3);
    b.len = 8;
    bads.push(b);
    b = write(0x07, 4, 0);
    bads.push(b);
    b = good;
    b.addr += 4;
    bads.push(b);
    b = good;
    b.dlen = 12;
    bads.push(b);
    b = ack(5);
    b.aeth = 0x64 << 24;
    bads.push(b);
    b = write(0x10, 6, 16);
    b.aeth = 0x60 << 24;
    bads.push(b);
    b = ack(7);
    b.opcode = 0xC1;
    b.aeth = 0;
    bads.push(b);
    for (k, b) in bads.iter().enumerate() {
        assert!(!is_good(b), "bad {k}");
        descs.push(*b);
        let mut g = write(0x0A, 10 + k as u32, 8 * k as u16 + 3);
        g.tlm = k % 2 == 0;
        descs.push(g);
    }
    let plan = Plan {
        ctx: vec![(0, 5, ctx1())],
        descs,
        env: vec![ENV_FULL; 700],
    };
    let (stim, log) = run(&plan);
    let outs = both::<Dut, Gold>("roce_tx_bad", &stim).expect("rtl == golden");
    assert_eq!(outs.last().unwrap().stats.bad_req as usize, bads.len());
    assert_eq!(log.frames.len(), bads.len() + 1);
    check_frames(&log, Some(&outs));
}

/// Four-state: no X on the ports, values equal the golden model's.
#[test]
fn tx_no_x_in_four_state_simulation() {
    let plan = sample(plan_strategy(900, 20, 200));
    let (stim, _) = run(&plan);
    four_state::<Dut, Gold>("roce_tx", &stim);
}

/// A flagged host read (`s_axis_rd.tuser` on one payload word) aborts its
/// frame: `m_axis_tx.tuser` on that frame's last word only, the frame
/// still complete, counted in `m_stats.aborted`; the frames around it are
/// clean. Both engines.
#[test]
fn tx_flagged_payload_aborts_its_frame() {
    let descs = vec![write(0x0A, 1, 200), write(0x0A, 2, 200), write(0x0A, 3, 64)];
    let flagged = host_word(descs[1].addr + 8 * 2);
    let plan = Plan {
        ctx: vec![(0, 5, ctx1())],
        descs,
        env: vec![ENV_FULL; 400],
    };
    let (mut stim, log) = run(&plan);
    let mut hits = 0;
    for i in stim.iter_mut() {
        if i.rd.tvalid && i.rd.tdata == flagged {
            i.rd.tuser = true;
            hits += 1;
        }
    }
    assert!(hits > 0);
    let outs = both::<Dut, Gold>("roce_tx_abort", &stim).unwrap();
    let last_beats: Vec<bool> = stim
        .iter()
        .zip(&outs)
        .filter(|(i, o)| o.out.tvalid && i.out_tready && o.out.tlast)
        .map(|(_, o)| o.out.tuser)
        .collect();
    assert_eq!(
        last_beats,
        vec![false, true, false],
        "tuser on the frames' last words"
    );
    assert!(
        outs.iter().all(|o| !o.out.tuser || o.out.tlast),
        "tuser only on a last word"
    );
    let end = outs.last().unwrap().stats;
    assert_eq!((end.frames, end.aborted), (3, 1));
    assert_eq!(log.frames.len(), 3, "every frame complete");
}
