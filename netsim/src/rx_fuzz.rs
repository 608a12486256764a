//! A structure-aware fuzzer of the NIC's receive path (`hpccnic rx-fuzz`,
//! `make fuzz`; `docs/rx-replay.md` § Fuzzing).
//!
//! Frames go to the RTL parser and dispatcher ([`FuzzRx`]: the
//! `roce_rx_parse` and `roce_rx_dispatch` tops on an engine, each with
//! its cycle twin in lockstep, every port compared on every cycle, and
//! the transaction-level model checked on every frame's events).
//!
//! Each fuzzed frame starts as a valid frame of an opcode the NIC
//! handles, built by the golden encoder ([`Packet::encode`]) for one of
//! the flows (in sequence, from the dispatcher's own context), then gets
//! none (a quarter of the frames) or one to three [`MUTATIONS`]: field
//! mutations before encoding (PSNs near and far, unknown QPs, telemetry
//! areas with impossible hop counts, versions and hop words, opcodes,
//! syndromes, unaligned addresses, lengths at their boundaries, TTL 0,
//! CE), and byte mutations after it (bit flips, truncation, extension,
//! IPv4 and UDP lengths at their boundaries, IPv4 options, fragments,
//! checksums, ICRCs, PadCnt, TVer, EtherType, UDP port, the FCS flag),
//! after which the IPv4 checksum and the ICRC are made right again half
//! of the time, so that the frame reaches the checks behind them.
//! Every `flood_every` frames, a flood: 48 frames of one flow back to
//! back, at line rate, some with bits flipped; behind half of them the
//! host takes the dispatcher's outputs in one cycle of 4 only, so the
//! receive buffer overflows (`drop_full`).
//!
//! Checked, for every frame:
//! - it is accounted for exactly once: one verdict, accepted or one drop
//!   reason; at the end the RTL's counters equal the verdicts counted;
//! - a dropped frame changes no flow's context (the dispatcher's context
//!   RAM, as its cycle twin in lockstep holds it, before and after),
//!   except the NAK-sent flag of its own flow for an out-of-sequence
//!   packet or an unaligned address, which §8 answers with a NAK; an
//!   accepted one changes its own flow's only;
//! - a good frame of a control flow sent after it is accepted within
//!   [`recovery_bound`] cycles, and the control flow's events over the
//!   whole run equal those of the golden model fed the control frames
//!   alone (the bad frames did not touch it).
//!
//! - no host write of a WRITE lands outside a region that grants remote
//!   write to its flow's protection domain, and no READ REQUEST passed on
//!   for execution asks for bytes outside a region that grants remote
//!   read ([`Regions`]: the run's table, drawn at the start; the requests'
//!   R_Keys and VAs are drawn around its regions' edges).
//!
//! A difference at any port (lockstep), a check that fails, or a stall
//! (no idle receive path within 100 000 cycles) stops the run with the
//! frame that caused it ([`FuzzFailure`]).

use nic_engines::roce::pipes::{normalise, RtlRx};
use nic_engines::EngineKind;
use nic_golden::roce::packet::{decode, icrc, Packet, Reth, Tlm};
use nic_golden::roce::txn::dispatch::Ctx;
use nic_golden::roce::txn::{FlowCfg, GoldenRx, RxEvent, RxPipe};
use nic_spec::mr::{right, Region};
use nic_spec::roce::{
    has_aeth, has_reth, is_read_resp, is_write, op, syndrome, BTH_OFF, IP_OFF, PSN_MASK, UDP_OFF,
};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde::Serialize;
use std::collections::BTreeMap;
use std::panic::AssertUnwindSafe;

/// The receive path fuzzed: the `roce_rx_parse` top (2048-word buffer)
/// and the `roce_rx_dispatch` top (1024 flows).
pub type FuzzRx = RtlRx<11, 10>;
/// MTU 1024.
pub const MTU_LOG2: u32 = 10;
const MTU: usize = 1 << MTU_LOG2;
/// The control flow: only good frames, one after every fuzzed frame.
pub const CONTROL_QP: u32 = 1;
/// The flows the fuzzed frames start from (QPs 2 ..= 9); every other QP
/// is unknown.
pub const FUZZ_QPS: std::ops::RangeInclusive<u32> = 2..=9;
/// Frames in a flood.
pub const FLOOD: usize = 48;

/// The mutations, by name (the summary counts each).
pub const MUTATIONS: [&str; 33] = [
    // Fields, before encoding (checksums right).
    "psn_ahead",
    "psn_behind",
    "psn_far",
    "unknown_qp",
    "tlm_nhop",
    "tlm_maxhop",
    "tlm_ver",
    "tlm_hops",
    "tlm_added",
    "opcode",
    "syndrome",
    "va_unaligned",
    "dma_len",
    "payload_len",
    "ttl_0",
    "ecn_ce",
    // Bytes, after encoding.
    "bit_flips",
    "truncate",
    "extend",
    "ip_total_len",
    "udp_len",
    "ip_options",
    "ip_ihl",
    "fragment",
    "ip_checksum",
    "icrc",
    "pad_cnt",
    "tver",
    "ethertype",
    "udp_port",
    "fcs",
    "qp_bytes",
    "psn_bytes",
];
const FIELD_MUTATIONS: usize = 16;

/// The cycles a good frame of `len` bytes with `pay` payload bytes may
/// take from its first word to the receive path idle again: its words
/// into the parser, the parser's verdict (7 cycles after the last word),
/// the dispatcher (its `OVERHEAD`, then one per payload word), and the 12
/// idle cycles that mark the end, with 8 to spare.
pub fn recovery_bound(len: usize, pay: usize) -> u64 {
    (len.div_ceil(8) + 7 + pay.div_ceil(8) + 12 + 8) as u64
        + nic_golden::roce::rx_dispatch::OVERHEAD
}

#[derive(Clone, Copy, Debug)]
pub struct FuzzCfg {
    /// Fuzzed frames (floods included).
    pub frames: u64,
    pub seed: u64,
    /// A flood every this many frames (0: none).
    pub flood_every: u64,
    pub engine: EngineKind,
}

/// The figures of a run.
#[derive(Clone, Debug, Default, Serialize)]
pub struct FuzzStats {
    pub engine: String,
    pub seed: u64,
    /// Fuzzed frames fed (floods included).
    pub frames: u64,
    /// Good frames of the control flow, one after each fuzzed frame (and
    /// flood).
    pub control_frames: u64,
    pub floods: u64,
    /// Fuzzed frames left unmutated.
    pub unmutated: u64,
    /// Fuzzed frames not fed because a mutation made them a packet of the
    /// control flow.
    pub skipped_control: u64,
    /// Verdicts of the fuzzed frames: accepted, or the drop reason.
    pub verdicts: BTreeMap<String, u64>,
    /// Times each mutation was applied.
    pub mutations: BTreeMap<String, u64>,
    /// Mutated frames whose IPv4 checksum and ICRC were made right again.
    pub repaired: u64,
    /// Differences against the golden models: the run stops at the first,
    /// so a finished run has 0.
    pub mismatches: u64,
    /// Receive paths that did not go idle: 0 in a finished run.
    pub stalls: u64,
    /// The most cycles a control frame took, and its bound.
    pub max_control_cycles: u64,
    pub control_bound_at_max: u64,
    /// Host writes of WRITEs and READ REQUESTs passed on, each checked
    /// to lie inside a region that grants it; those outside (0 in a
    /// finished run: the run stops at the first).
    pub host_writes_checked: u64,
    pub read_reqs_checked: u64,
    pub outside_a_region: u64,
    pub cycles: u64,
    pub seconds: f64,
    pub frames_per_second: f64,
}

/// The region table of a run and each flow's protection domain: the
/// control flow's region (entry 1, domain 1), the floods' (entry 0,
/// domain 0, the even fuzzed QPs'), and entries 2 ..= 15 drawn (a fifth
/// left invalid; bases below 2^32; lengths 0, 8, the MTU, or 16 KiB to
/// 1 MiB; both rights in half, write only, read only or none in the rest;
/// domains 0, 2 and 3: the odd fuzzed QPs are in domain 2).
#[derive(Clone, Debug)]
pub struct Regions {
    pub table: Vec<Option<Region>>,
}

/// The flood frames' region.
const FLOOD_VA: u64 = 0x10_0000;
const FLOOD_KEY: u32 = nic_spec::mr::rkey(0, 1);
const CONTROL_KEY: u32 = nic_spec::mr::rkey(1, 0x12);

/// A fuzzed flow's protection domain.
fn pd_of(qp: u32) -> u16 {
    match qp {
        CONTROL_QP => 1,
        q if q % 2 == 0 => 0,
        _ => 2,
    }
}

impl Regions {
    fn draw(rng: &mut StdRng) -> Self {
        let mut table = vec![None; 1 << nic_spec::mr::MR_LOG2];
        let both = right::REMOTE_WRITE | right::REMOTE_READ;
        table[0] = Some(Region {
            base: FLOOD_VA,
            len: MTU as u64,
            rkey: FLOOD_KEY,
            pd: 0,
            rights: right::REMOTE_WRITE,
        });
        table[1] = Some(Region {
            base: 0x4000_0000,
            len: 1 << 40,
            rkey: CONTROL_KEY,
            pd: 1,
            rights: both,
        });
        for (i, e) in table.iter_mut().enumerate().skip(2) {
            if rng.gen_bool(0.8) {
                *e = Some(Region {
                    base: rng.gen_range(0u64..1 << 32) & !7,
                    len: match rng.gen_range(0..8) {
                        0 => 0,
                        1 => 8,
                        2 => MTU as u64,
                        _ => rng.gen_range(16 << 10..1 << 20),
                    },
                    rkey: nic_spec::mr::rkey(i as u32, rng.gen()),
                    pd: pick(rng, &[0, 2, 2, 3]),
                    rights: pick(
                        rng,
                        &[
                            both,
                            both,
                            both,
                            both,
                            right::REMOTE_WRITE,
                            right::REMOTE_WRITE,
                            right::REMOTE_READ,
                            0,
                        ],
                    ),
                });
            }
        }
        Regions { table }
    }

    /// Register them and the flows' domains in `pipe`.
    fn register(&self, pipe: &mut dyn RxPipe) {
        for (i, r) in self.table.iter().enumerate() {
            if r.is_some() {
                pipe.set_region(i as u32, *r);
            }
        }
        pipe.set_pd(CONTROL_QP, pd_of(CONTROL_QP));
        for qp in FUZZ_QPS {
            pipe.set_pd(qp, pd_of(qp));
        }
    }

    /// [a, a + len) lies inside a region granting `need` to `qp`'s domain
    /// (zero bytes touch nothing).
    pub fn grants(&self, qp: u32, need: u8, a: u64, len: u64) -> bool {
        if len == 0 {
            return true;
        }
        let pd = if qp == CONTROL_QP || FUZZ_QPS.contains(&qp) {
            pd_of(qp)
        } else {
            0
        };
        self.table.iter().flatten().any(|r| {
            r.pd == pd
                && r.rights & need != 0
                && r.base as u128 <= a as u128
                && a as u128 + len as u128 <= r.base as u128 + r.len as u128
        })
    }

    /// A request's R_Key and VA: mostly a region of the flow's domain,
    /// the VA around its edges; else another region's, a stale tag, or
    /// anything.
    fn aim(&self, rng: &mut StdRng, qp: u32, dlen: u32) -> (u32, u64) {
        let mine: Vec<&Region> = self
            .table
            .iter()
            .flatten()
            .filter(|r| r.pd == pd_of(qp) && r.rkey != FLOOD_KEY)
            .collect();
        let all: Vec<&Region> = self.table.iter().flatten().collect();
        let r = match rng.gen_range(0..10) {
            0..=5 if !mine.is_empty() => *mine[rng.gen_range(0..mine.len())],
            6..=7 => *all[rng.gen_range(0..all.len())],
            8 => {
                let r = *all[rng.gen_range(0..all.len())];
                Region {
                    rkey: r.rkey ^ rng.gen_range(1..=255),
                    ..r
                }
            }
            _ => return (rng.gen(), rng.gen_range(0u64..1 << 32) & !7),
        };
        let d = dlen as u64;
        let end = r.base.wrapping_add(r.len);
        let va = match rng.gen_range(0..6) {
            0 => r.base,
            1 => r.base.wrapping_sub(8 * rng.gen_range(1..4)),
            2 => end.wrapping_sub(d),
            3 => end.wrapping_sub(d).wrapping_add(8 * rng.gen_range(1..4)),
            4 => u64::MAX - 7 - 8 * rng.gen_range(0..4),
            _ => r.base + (rng.gen_range(0..=r.len.max(1)) & !7),
        };
        (r.rkey, va & !7)
    }
}

/// Why a run stopped.
#[derive(Debug)]
pub struct FuzzFailure {
    pub stats: FuzzStats,
    /// The frames of the last step (the fuzzed frame, or the flood, then
    /// the control frame if it was sent), for a pcap.
    pub frames: Vec<Vec<u8>>,
    pub message: String,
}

fn pick<T: Copy>(rng: &mut StdRng, v: &[T]) -> T {
    v[rng.gen_range(0..v.len())]
}

/// A valid packet of a random opcode for `qp`, in sequence with `c`.
fn base_packet(rng: &mut StdRng, qp: u32, c: &Ctx) -> Packet {
    let opc = pick(
        rng,
        &[
            op::WRITE_FIRST,
            op::WRITE_MIDDLE,
            op::WRITE_LAST,
            op::WRITE_ONLY,
            op::WRITE_ONLY,
            op::READ_REQ,
            op::READ_RESP_FIRST,
            op::READ_RESP_MIDDLE,
            op::READ_RESP_LAST,
            op::READ_RESP_ONLY,
            op::ACK,
            op::ACK_TLM,
            op::PROBE,
            op::NOTIFY,
            op::CNP,
        ],
    );
    let mut p = Packet {
        opcode: opc,
        dqp: qp,
        ackreq: rng.gen_bool(0.5),
        ..Packet::default()
    };
    // A READ RESPONSE in sequence: inside a READ its running PSN,
    // between READs the next landing entry's.
    p.psn = if !is_read_resp(opc) {
        c.epsn
    } else if c.rd_done {
        c.rd_tab[(c.rd_idx % 8) as usize].psn
    } else {
        c.rd_psn
    };
    let pay = if matches!(
        opc,
        op::WRITE_FIRST | op::WRITE_MIDDLE | op::READ_RESP_FIRST | op::READ_RESP_MIDDLE
    ) {
        MTU
    } else if is_write(opc) || is_read_resp(opc) {
        rng.gen_range(0..=MTU)
    } else {
        0 // a CNP's 16 reserved bytes are its RETH-sized header
    };
    p.payload = (0..pay).map(|_| rng.gen()).collect();
    if has_reth(opc) {
        p.reth = Some(Reth {
            va: if opc == op::CNP {
                0
            } else {
                rng.gen_range(0u64..1 << 32) & !7
            },
            rkey: rng.gen(),
            dlen: match opc {
                op::READ_REQ => rng.gen_range(1..=8 * MTU as u32),
                op::CNP => 0,
                // Room for MIDDLEs and a LAST after it (`wr_left`).
                op::WRITE_FIRST => pay as u32 + rng.gen_range(0..=4 * MTU as u32),
                _ => pay as u32,
            },
        });
    }
    if has_aeth(opc) {
        let syn = if rng.gen_bool(0.9) {
            syndrome::ACK
        } else {
            syndrome::NAK_SEQ
        };
        p.aeth = Some((syn as u32) << 24 | rng.gen_range(0..1 << 24));
    }
    if opc == op::CNP {
        p.becn = true;
    }
    let hpcc = matches!(opc, op::PROBE | op::NOTIFY | op::ACK_TLM);
    if hpcc || (opc != op::CNP && rng.gen_bool(0.5)) {
        let mut t = Tlm::fresh();
        let nhop = rng.gen_range(0..=5u8);
        t.hdr = Tlm::header(1, rng.gen_range(0..2), nhop, 5, rng.gen());
        for h in t.hops.iter_mut().take(nhop as usize) {
            *h = rng.gen();
        }
        p.tlm = Some(t);
    }
    p
}

fn psn_add(psn: u32, d: u32) -> u32 {
    psn.wrapping_add(d) & PSN_MASK
}

/// A field mutation of `p`.
fn mutate_fields(rng: &mut StdRng, m: &str, p: &mut Packet) {
    match m {
        "psn_ahead" => p.psn = psn_add(p.psn, rng.gen_range(1..200)),
        "psn_behind" => p.psn = psn_add(p.psn, 0u32.wrapping_sub(rng.gen_range(1..200))),
        "psn_far" => p.psn = psn_add(p.psn, rng.gen_range(1 << 22..(1 << 24) - (1 << 22))),
        "unknown_qp" => {
            p.dqp = if rng.gen_bool(0.2) {
                0
            } else if rng.gen_bool(0.5) {
                rng.gen_range(10..1024)
            } else {
                rng.gen_range(1024..1 << 24)
            }
        }
        "tlm_nhop" | "tlm_maxhop" | "tlm_ver" | "tlm_hops" => {
            let mut t = p.tlm.unwrap_or_else(Tlm::fresh);
            match m {
                "tlm_nhop" => {
                    t.hdr = Tlm::header(t.ver(), t.flags(), rng.gen_range(6..=255), 5, t.w())
                }
                "tlm_maxhop" => {
                    let mh = pick(rng, &[0u8, 1, 4, 6, 255]);
                    t.hdr = Tlm::header(t.ver(), t.flags(), t.nhop().min(mh), mh, t.w())
                }
                "tlm_ver" => {
                    let v = pick(rng, &[0u8, 2, 15]);
                    t.hdr = Tlm::header(v, t.flags(), t.nhop(), t.maxhop(), t.w())
                }
                _ => {
                    // Hop words at their extremes: qlen and tx bytes all
                    // ones, rate codes past the table, timestamps going
                    // back between hops.
                    t.hdr = Tlm::header(1, t.flags(), 5, 5, t.w());
                    let mut ts: u64 = rng.gen();
                    for h in t.hops.iter_mut() {
                        *h = match rng.gen_range(0..4) {
                            0 => u64::MAX,
                            1 => 0,
                            2 => {
                                ts = ts.wrapping_sub(rng.gen_range(1..1 << 20));
                                ts
                            }
                            _ => rng.gen(),
                        };
                    }
                }
            }
            p.tlm = Some(t);
        }
        "tlm_added" => p.tlm = Some(Tlm::fresh()),
        "opcode" => p.opcode = rng.gen(),
        "syndrome" => p.aeth = Some(rng.gen()),
        "va_unaligned" => {
            let mut r = p.reth.unwrap_or_default();
            r.va |= rng.gen_range(1..8);
            p.reth = Some(r);
        }
        "dma_len" => {
            let mut r = p.reth.unwrap_or_default();
            r.dlen = pick(
                rng,
                &[
                    0,
                    1,
                    MTU as u32 - 1,
                    MTU as u32,
                    MTU as u32 + 1,
                    1 << 31,
                    u32::MAX,
                ],
            );
            p.reth = Some(r);
        }
        "payload_len" => {
            let n = pick(
                rng,
                &[0usize, 1, 7, 8, 9, MTU - 1, MTU, MTU + 1, 4096, 4097],
            );
            p.payload.resize(n, 0xA5);
        }
        "ttl_0" => p.ttl = 0,
        "ecn_ce" => p.tos |= 3,
        _ => unreachable!("{m} is not a field mutation"),
    }
}

/// A byte mutation of frame `f`; `fcs` is the MAC's bad-FCS flag.
fn mutate_bytes(rng: &mut StdRng, m: &str, f: &mut Vec<u8>, fcs: &mut bool) {
    let set16 = |f: &mut Vec<u8>, at: usize, v: u16| {
        if f.len() >= at + 2 {
            f[at..at + 2].copy_from_slice(&v.to_be_bytes());
        }
    };
    let len = f.len();
    match m {
        "bit_flips" => {
            for _ in 0..rng.gen_range(1..=8) {
                let b = rng.gen_range(0..len * 8);
                f[b / 8] ^= 1 << (b % 8);
            }
        }
        "truncate" => f.truncate(rng.gen_range(0..len)),
        "extend" => {
            for _ in 0..rng.gen_range(1..=64) {
                f.push(rng.gen());
            }
        }
        "ip_total_len" => {
            let t = (len - IP_OFF) as u16;
            let v = pick(rng, &[0, 19, 20, 27, 28, 40, t - 1, t + 1, t + 8, 0xFFFF]);
            set16(f, IP_OFF + 2, v)
        }
        "udp_len" => {
            let u = (len - UDP_OFF) as u16;
            let v = pick(rng, &[0, 7, 8, 20, u - 1, u + 1, u.wrapping_sub(4), 0xFFFF]);
            set16(f, UDP_OFF + 4, v)
        }
        "ip_options" => {
            // IHL 6..15 with that many option words inserted (NOPs and
            // random bytes), the total length grown to match.
            let words = rng.gen_range(1..=10usize);
            let opts: Vec<u8> = (0..4 * words)
                .map(|_| if rng.gen_bool(0.5) { 1 } else { rng.gen() })
                .collect();
            let at = IP_OFF + 20;
            f.splice(at..at, opts);
            f[IP_OFF] = 0x40 | (5 + words) as u8;
            let t = u16::from_be_bytes([f[IP_OFF + 2], f[IP_OFF + 3]]);
            set16(f, IP_OFF + 2, t.wrapping_add(4 * words as u16));
        }
        "ip_ihl" => f[IP_OFF] = pick(rng, &[0x40u8, 0x44, 0x46, 0x4F, 0x55, 0x65, 0x05]),
        "fragment" => {
            if rng.gen_bool(0.5) {
                f[IP_OFF + 6] |= 0x20; // more fragments
            } else {
                let off: u16 = rng.gen_range(1..0x2000);
                let flags = f[IP_OFF + 6] & 0xE0;
                set16(f, IP_OFF + 6, off);
                f[IP_OFF + 6] |= flags;
            }
        }
        "ip_checksum" => f[IP_OFF + 10] ^= rng.gen_range(1..=255),
        "icrc" => f[len - 1 - rng.gen_range(0..4)] ^= rng.gen_range(1..=255),
        "pad_cnt" => f[BTH_OFF + 1] ^= rng.gen_range(1..4) << 4,
        "tver" => f[BTH_OFF + 1] |= rng.gen_range(1..16),
        "ethertype" => {
            let any = rng.gen();
            set16(f, 12, pick(rng, &[0x86DD, 0x8100, 0x0806, 0x88F7, any]))
        }
        "udp_port" => {
            let any = rng.gen();
            set16(f, UDP_OFF + 2, pick(rng, &[4790, 4792, 0, any]))
        }
        "fcs" => *fcs = true,
        "qp_bytes" => f[BTH_OFF + 5 + rng.gen_range(0..3)] = rng.gen(),
        "psn_bytes" => f[BTH_OFF + 9 + rng.gen_range(0..3)] = rng.gen(),
        _ => unreachable!("{m} is not a byte mutation"),
    }
}

/// The IPv4 header checksum and the ICRC made right again (where the
/// frame holds them).
fn repair(f: &mut [u8]) {
    let ihl = (f.get(IP_OFF).copied().unwrap_or(0x45) & 0xF) as usize * 4;
    if ihl >= 20 && f.len() >= IP_OFF + ihl {
        f[IP_OFF + 10] = 0;
        f[IP_OFF + 11] = 0;
        let mut sum: u32 = 0;
        for w in f[IP_OFF..IP_OFF + ihl].chunks(2) {
            sum += u16::from_be_bytes([w[0], w[1]]) as u32;
        }
        while sum > 0xFFFF {
            sum = (sum & 0xFFFF) + (sum >> 16);
        }
        f[IP_OFF + 10..IP_OFF + 12].copy_from_slice(&(!(sum as u16)).to_be_bytes());
    }
    let total = f
        .get(IP_OFF + 2..IP_OFF + 4)
        .map(|b| u16::from_be_bytes([b[0], b[1]]) as usize);
    let end = match total {
        Some(t) if t >= 4 && IP_OFF + t <= f.len() => IP_OFF + t,
        _ => f.len(),
    };
    if end >= IP_OFF + 4 {
        let c = icrc(f).to_le_bytes();
        f[end - 4..end].copy_from_slice(&c);
    }
}

fn verdict(ev: &[RxEvent]) -> Result<String, String> {
    let drops: Vec<&str> = ev
        .iter()
        .filter_map(|e| match e {
            RxEvent::Drop(d) => Some(d.name()),
            _ => None,
        })
        .collect();
    match drops.len() {
        0 => Ok("accepted".into()),
        1 => Ok(drops[0].into()),
        _ => Err(format!("one frame, {} drops: {drops:?}", drops.len())),
    }
}

/// The context rule: a drop changes nothing (an out-of-sequence packet,
/// an unaligned address or a refused request only its flow's NAK-sent
/// flag); an accepted
/// packet only its own flow.
fn check_contexts(before: &[Ctx], after: &[Ctx], qp: Option<u32>, v: &str) -> Result<(), String> {
    for (f, (b, a)) in before.iter().zip(after).enumerate() {
        if b == a {
            continue;
        }
        let own = qp == Some(f as u32);
        let allowed = match v {
            "accepted" => own,
            // The NAK these send is remembered (§8): no second NAK for
            // the packets behind.
            "oos" | "bad_va" | "refused" => {
                own && Ctx {
                    nak_sent: a.nak_sent,
                    ..*b
                } == *a
            }
            _ => false,
        };
        if !allowed {
            return Err(format!(
                "a frame with verdict {v} changed flow {f}'s context:\n  before {b:?}\n  after  {a:?}"
            ));
        }
    }
    Ok(())
}

/// The fuzzer's state: the receive path, the control flow, the figures.
struct Fuzz {
    rng: StdRng,
    rx: FuzzRx,
    stats: FuzzStats,
    /// Counted by the verdicts: fuzzed frames' and control frames'.
    tally: BTreeMap<String, u64>,
    /// The golden receive path fed the control frames alone.
    alone: GoldenRx,
    control_va: u64,
    regions: Regions,
}

impl Fuzz {
    fn ctx(&self, qp: u32) -> Ctx {
        self.rx.contexts()[qp as usize]
    }

    /// One fuzzed frame: (frame, bad FCS, mutations applied).
    fn make_frame(&mut self) -> (Vec<u8>, bool, Vec<&'static str>) {
        let qp = self.rng.gen_range(FUZZ_QPS);
        let c = self.ctx(qp);
        let mut p = base_packet(&mut self.rng, qp, &c);
        // Between READs, mostly the requester's landing entry for the
        // response first (as the requester writes it before the REQUEST).
        if is_read_resp(p.opcode) && c.rd_done && self.rng.gen_bool(0.7) {
            let addr = self.rng.gen_range(0u64..1 << 40) & !7;
            self.rx.set_read(qp, c.rd_idx & 15, addr, p.psn);
        }
        // A request's R_Key and VA around the regions' edges.
        if matches!(p.opcode, op::WRITE_FIRST | op::WRITE_ONLY | op::READ_REQ) {
            if let Some(r) = p.reth.as_mut() {
                (r.rkey, r.va) = self.regions.aim(&mut self.rng, qp, r.dlen);
            }
        }
        let mut applied = Vec::new();
        if self.rng.gen_bool(0.25) {
            return (p.encode(), false, applied);
        }
        let n = self.rng.gen_range(1..=3);
        let mut ms: Vec<usize> = (0..n)
            .map(|_| self.rng.gen_range(0..MUTATIONS.len()))
            .collect();
        ms.sort();
        for &k in ms.iter().filter(|&&k| k < FIELD_MUTATIONS) {
            mutate_fields(&mut self.rng, MUTATIONS[k], &mut p);
            applied.push(MUTATIONS[k]);
        }
        let mut f = p.encode();
        let mut fcs = false;
        // Truncation and extension last: the others write at fixed
        // offsets of a whole frame.
        let mut bytes: Vec<usize> = ms.into_iter().filter(|&k| k >= FIELD_MUTATIONS).collect();
        bytes.sort_by_key(|&k| matches!(MUTATIONS[k], "truncate" | "extend"));
        for &k in &bytes {
            if f.is_empty() {
                break;
            }
            mutate_bytes(&mut self.rng, MUTATIONS[k], &mut f, &mut fcs);
            applied.push(MUTATIONS[k]);
        }
        // Half of the byte-mutated frames get their IPv4 checksum and ICRC
        // right again (unless the mutation was to them).
        let to_checks = bytes
            .iter()
            .any(|&k| matches!(MUTATIONS[k], "ip_checksum" | "icrc"));
        if !bytes.is_empty() && !to_checks && self.rng.gen_bool(0.5) {
            repair(&mut f);
            self.stats.repaired += 1;
        }
        (f, fcs, applied)
    }

    /// The control flow's next good frame and its payload bytes.
    fn control_frame(&mut self) -> (Vec<u8>, usize) {
        let c = self.ctx(CONTROL_QP);
        let n = self.rng.gen_range(0..=200usize);
        let p = Packet {
            opcode: op::WRITE_ONLY,
            dqp: CONTROL_QP,
            psn: c.epsn,
            ackreq: true,
            reth: Some(Reth {
                va: self.control_va,
                rkey: CONTROL_KEY,
                dlen: n as u32,
            }),
            tlm: self.rng.gen_bool(0.5).then(Tlm::fresh),
            payload: (0..n).map(|_| self.rng.gen()).collect(),
            ..Packet::default()
        };
        self.control_va += (n as u64 + 7) & !7;
        (p.encode(), n)
    }

    /// Feed one frame; a panic (lockstep difference, stall) becomes an
    /// error.
    fn feed(&mut self, f: &[u8], fcs: bool) -> Result<Vec<RxEvent>, String> {
        let rx = &mut self.rx;
        std::panic::catch_unwind(AssertUnwindSafe(|| rx.receive(f, fcs))).map_err(panic_text)
    }

    fn count(&mut self, v: &str, n: u64) {
        *self.tally.entry(v.to_string()).or_insert(0) += n;
    }

    /// A good control frame: accepted within its bound.
    fn control_step(&mut self) -> Result<(), (Vec<u8>, String)> {
        let (f, pay) = self.control_frame();
        let c0 = self.rx.cycles();
        let ev = self.feed(&f, false).map_err(|e| (f.clone(), e))?;
        let took = self.rx.cycles() - c0;
        let v = verdict(&ev).map_err(|e| (f.clone(), e))?;
        self.check_regions(std::slice::from_ref(&f), false, &ev)
            .map_err(|e| (f.clone(), e))?;
        if v != "accepted" {
            return Err((
                f,
                format!("the control flow's good frame was not accepted: {v}"),
            ));
        }
        let bound = recovery_bound(f.len(), pay);
        if took > bound {
            return Err((
                f,
                format!("the control frame took {took} cycles, bound {bound}"),
            ));
        }
        if took > self.stats.max_control_cycles {
            self.stats.max_control_cycles = took;
            self.stats.control_bound_at_max = bound;
        }
        // The same frame into the golden model of the control flow alone.
        let want = normalise(self.alone.receive(&f, false));
        if want != normalise(ev.clone()) {
            return Err((
                f,
                format!("the control flow's events with the bad frames differ from those without:\n  without {want:?}\n  with    {ev:?}"),
            ));
        }
        self.count("accepted", 1);
        self.stats.control_frames += 1;
        Ok(())
    }

    /// Every host write of a WRITE and every READ REQUEST passed on in
    /// `ev` (the events of `frames`) lies inside a region that grants it.
    fn check_regions(
        &mut self,
        frames: &[Vec<u8>],
        fcs: bool,
        ev: &[RxEvent],
    ) -> Result<(), String> {
        let writes = frames
            .iter()
            .filter_map(|f| decode(f, fcs).ok())
            .any(|p| is_write(p.opcode));
        let qp = frames
            .first()
            .and_then(|f| decode(f, fcs).ok())
            .map(|p| p.dqp);
        for e in ev {
            let (need, a, len, what) = match e {
                RxEvent::HostWrite { addr, data } if writes => {
                    self.stats.host_writes_checked += 1;
                    (right::REMOTE_WRITE, *addr, data.len() as u64, "host write")
                }
                RxEvent::ReadReq(r) => {
                    self.stats.read_reqs_checked += 1;
                    (right::REMOTE_READ, r.va, r.len as u64, "READ request")
                }
                _ => continue,
            };
            let q = match e {
                RxEvent::ReadReq(r) => r.flow,
                _ => qp.unwrap_or(u32::MAX),
            };
            if !self.regions.grants(q, need, a, len) {
                self.stats.outside_a_region += 1;
                return Err(format!(
                    "a {what} of {len} bytes at {a:#x} of QP {q} is outside every region that grants it"
                ));
            }
        }
        Ok(())
    }

    /// A flood: `FLOOD` frames of one flow back to back, some mutated.
    fn flood(&mut self) -> Result<(), (Vec<Vec<u8>>, String)> {
        // An even QP: the floods' region is in its domain.
        let qp = self.rng.gen_range(FUZZ_QPS) & !1;
        let mut epsn = self.ctx(qp).epsn;
        let frames: Vec<Vec<u8>> = (0..FLOOD)
            .map(|_| {
                let p = Packet {
                    opcode: op::WRITE_ONLY,
                    dqp: qp,
                    psn: epsn,
                    reth: Some(Reth {
                        va: FLOOD_VA,
                        rkey: FLOOD_KEY,
                        dlen: MTU as u32,
                    }),
                    payload: vec![0x5A; MTU],
                    ..Packet::default()
                };
                epsn = psn_add(epsn, 1);
                let mut f = p.encode();
                if self.rng.gen_bool(0.125) {
                    let mut fcs = false;
                    mutate_bytes(&mut self.rng, "bit_flips", &mut f, &mut fcs);
                }
                f
            })
            .collect();
        let before = self.rx.counters();
        // A slow host (one cycle in `slow`) behind half of the floods:
        // the frame buffer fills and frames are dropped whole.
        let slow = if self.rng.gen_bool(0.5) { 4 } else { 1 };
        let rx = &mut self.rx;
        rx.set_ready_every(slow);
        let r = std::panic::catch_unwind(AssertUnwindSafe(|| rx.receive_burst(&frames)));
        self.rx.set_ready_every(1);
        let ev = match r {
            Ok((ev, _)) => ev,
            Err(e) => return Err((frames, panic_text(e))),
        };
        if let Err(m) = self.check_regions(&frames, false, &ev) {
            return Err((frames, m));
        }
        let after = self.rx.counters();
        // Accounting from the counters: every frame of the flood has one
        // verdict of the parser (ok or a drop), every ok one of the
        // dispatcher.
        let d = |n: &str| {
            let g = |v: &[(&str, u64)]| v.iter().find(|x| x.0 == n).map_or(0, |x| x.1);
            g(&after) - g(&before)
        };
        let parsed: u64 = nic_golden::roce::rx_parse::REASONS
            .iter()
            .map(|n| d(n))
            .sum();
        let decided: u64 = crate::rx_log::DECIDED.iter().map(|n| d(n)).sum();
        if parsed != FLOOD as u64 || decided != d("ok") {
            return Err((
                frames,
                format!(
                    "a flood of {FLOOD}: {parsed} parser verdicts, {} passed, {decided} decided",
                    d("ok")
                ),
            ));
        }
        for (n, _) in &after {
            if *n != "ok" && d(n) > 0 {
                let k = d(n);
                self.count(n, k);
                *self.stats.verdicts.entry(n.to_string()).or_insert(0) += k;
            }
        }
        self.stats.frames += FLOOD as u64;
        self.stats.floods += 1;
        self.rx.resync_model();
        Ok(())
    }
}

fn panic_text(e: Box<dyn std::any::Any + Send>) -> String {
    e.downcast_ref::<String>()
        .cloned()
        .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "a panic".into())
}

/// Run the fuzzer; `progress(frames done)` is called every 1024 frames.
pub fn run(cfg: &FuzzCfg, progress: &mut dyn FnMut(u64)) -> Result<FuzzStats, Box<FuzzFailure>> {
    let t0 = std::time::Instant::now();
    let mut rng = StdRng::seed_from_u64(cfg.seed);
    let mut rx = FuzzRx::new(cfg.engine, MTU_LOG2, None);
    let regions = Regions::draw(&mut rng);
    regions.register(&mut rx);
    let control_epsn = rng.gen_range(0..1 << 24);
    rx.configure(
        CONTROL_QP,
        &FlowCfg {
            valid: true,
            epsn: control_epsn,
            ..Default::default()
        },
    );
    for qp in FUZZ_QPS {
        let c = FlowCfg {
            valid: true,
            epsn: rng.gen_range(0..1 << 24),
            rd_addr: rng.gen_range(0u64..1 << 40) & !7,
            rd_psn: rng.gen_range(0..1 << 24),
            cnp_on_ce: qp % 2 == 0,
        };
        rx.configure(qp, &c);
    }
    let mut z = Fuzz {
        rng,
        rx,
        stats: FuzzStats {
            engine: format!("{:?}", cfg.engine).to_lowercase(),
            seed: cfg.seed,
            ..Default::default()
        },
        tally: BTreeMap::new(),
        alone: {
            let mut g = GoldenRx::new(10, MTU_LOG2);
            regions.register(&mut g);
            g.configure(
                CONTROL_QP,
                &FlowCfg {
                    valid: true,
                    epsn: control_epsn,
                    ..Default::default()
                },
            );
            g
        },
        control_va: 0x4000_0000,
        regions,
    };
    let fail = |z: &mut Fuzz, frames: Vec<Vec<u8>>, message: String| {
        if message.contains("!= golden") || message.contains("differ") {
            z.stats.mismatches += 1;
        }
        if message.contains("not idle") {
            z.stats.stalls += 1;
        }
        z.stats.cycles = z.rx.cycles();
        z.stats.seconds = t0.elapsed().as_secs_f64();
        Box::new(FuzzFailure {
            stats: z.stats.clone(),
            frames,
            message,
        })
    };
    while z.stats.frames < cfg.frames {
        if cfg.flood_every > 0 && z.stats.frames % cfg.flood_every == cfg.flood_every - 1 {
            if let Err((frames, m)) = z.flood() {
                return Err(fail(&mut z, frames, m));
            }
        } else {
            let (f, fcs, applied) = z.make_frame();
            // A mutation that made it a packet of the control flow would
            // be a good frame of that flow: not fed.
            if decode(&f, fcs).is_ok_and(|p| p.dqp == CONTROL_QP) {
                z.stats.skipped_control += 1;
                continue;
            }
            if applied.is_empty() {
                z.stats.unmutated += 1;
            }
            for m in &applied {
                *z.stats.mutations.entry(m.to_string()).or_insert(0) += 1;
            }
            let before = z.rx.contexts().to_vec();
            let ev = match z.feed(&f, fcs) {
                Ok(ev) => ev,
                Err(m) => return Err(fail(&mut z, vec![f], m)),
            };
            let v = match verdict(&ev) {
                Ok(v) => v,
                Err(m) => return Err(fail(&mut z, vec![f], m)),
            };
            let qp = decode(&f, fcs).ok().map(|p| p.dqp);
            if let Err(m) = check_contexts(&before, z.rx.contexts(), qp, &v) {
                return Err(fail(&mut z, vec![f], m));
            }
            if let Err(m) = z.check_regions(std::slice::from_ref(&f), fcs, &ev) {
                return Err(fail(&mut z, vec![f], m));
            }
            z.count(&v, 1);
            *z.stats.verdicts.entry(v).or_insert(0) += 1;
            z.stats.frames += 1;
        }
        if let Err((f, m)) = z.control_step() {
            return Err(fail(&mut z, vec![f], m));
        }
        if z.stats.frames % 1024 == 0 {
            progress(z.stats.frames);
        }
    }
    // The RTL's counters equal the verdicts counted.
    let counters = z.rx.counters();
    if let Some(m) = crate::rx_log::accounting(&z.tally, &counters)
        .into_iter()
        .next()
    {
        return Err(fail(&mut z, vec![], m));
    }
    z.stats.cycles = z.rx.cycles();
    z.stats.seconds = t0.elapsed().as_secs_f64();
    z.stats.frames_per_second = z.stats.frames as f64 / z.stats.seconds.max(1e-9);
    Ok(z.stats)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ctxs() -> Vec<Ctx> {
        (0..16)
            .map(|f| Ctx {
                valid: f % 2 == 0,
                epsn: 100 * f,
                ..Default::default()
            })
            .collect()
    }

    /// The context rule catches what it must.
    #[test]
    fn the_context_rule_catches_a_drop_that_writes() {
        let b = ctxs();
        let mut a = b.clone();
        assert!(check_contexts(&b, &a, Some(2), "bad_icrc").is_ok());
        a[3].epsn += 1;
        assert!(
            check_contexts(&b, &a, Some(2), "accepted").is_err(),
            "another flow"
        );
        assert!(check_contexts(&b, &a, Some(3), "accepted").is_ok());
        assert!(check_contexts(&b, &a, Some(3), "dup").is_err(), "a drop");
        assert!(
            check_contexts(&b, &a, Some(3), "oos").is_err(),
            "oos moves only the NAK flag"
        );
        let mut n = b.clone();
        n[3].nak_sent = true;
        assert!(check_contexts(&b, &n, Some(3), "oos").is_ok());
        assert!(check_contexts(&b, &n, Some(3), "bad_va").is_ok());
        assert!(check_contexts(&b, &n, Some(3), "refused").is_ok());
        assert!(
            check_contexts(&b, &n, Some(4), "oos").is_err(),
            "not its flow"
        );
        assert!(check_contexts(&b, &n, None, "bad_len").is_err());
    }

    #[test]
    fn two_drops_for_one_frame_are_an_error() {
        use nic_spec::roce::RxDrop;
        assert_eq!(verdict(&[]).unwrap(), "accepted");
        assert_eq!(verdict(&[RxEvent::Drop(RxDrop::Oos)]).unwrap(), "oos");
        assert!(verdict(&[RxEvent::Drop(RxDrop::Oos), RxEvent::Drop(RxDrop::Dup)]).is_err());
    }

    /// Every byte mutation, then `repair`, on every base opcode: no panic;
    /// a frame whose mutation left the checked fields alone decodes again.
    #[test]
    fn mutations_and_repair_never_panic() {
        let mut rng = StdRng::seed_from_u64(7);
        let c = Ctx::default();
        for k in 0..4000 {
            let p = base_packet(&mut rng, 2, &c);
            let mut f = p.encode();
            assert!(decode(&f, false).is_ok(), "a base frame is valid: {p:?}");
            let m = MUTATIONS[FIELD_MUTATIONS + k % (MUTATIONS.len() - FIELD_MUTATIONS)];
            let mut fcs = false;
            mutate_bytes(&mut rng, m, &mut f, &mut fcs);
            repair(&mut f);
            let _ = decode(&f, fcs);
        }
        let mut f = base_packet(&mut rng, 2, &c).encode();
        f[IP_OFF + 8] = 0; // TTL 0: only the IPv4 checksum sees it
        assert!(decode(&f, false).is_err());
        repair(&mut f);
        assert!(decode(&f, false).is_ok());
    }
}
