//! `hdl/src/roce/rx_parse.rs` against `nic_golden::roce::rx_parse`, and
//! both against a reference encoder written here (frames built field by
//! field, IPv4 checksum computed here, ICRC with the `crc32fast` crate):
//! every good frame comes out with the right record and payload, every bad
//! frame is counted under the reason its mutation was built to trigger.

use crate::common::*;
use nic_golden::roce::rx_parse::{self as g, In, Out, RoceRxParse as Golden, REASONS};
use nic_golden::roce::{RxMeta as Meta, Telemetry};
use nic_golden::stream::Axis;
use nic_golden::Cycle;
use nic_hdl::roce::rx_parse::RoceRxParse;
use proptest::prelude::*;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// Co-simulation configuration: a 128-word buffer, so that frames are
/// dropped for lack of room under back-pressure.
const BS: usize = 7;
/// The NIC's configuration.
const BN: usize = 11;

// ---------------------------------------------------------------------
// Reference encoder.

/// §1's table, written independently of the model: (RETH, AETH, payload).
fn info(op: u8) -> Option<(bool, bool, bool)> {
    match op {
        0x06 | 0x0A => Some((true, false, true)),
        0x0C => Some((true, false, false)),
        // CNP: 16 reserved bytes where a RETH goes.
        0x81 => Some((true, false, false)),
        0x07 | 0x08 | 0x0E => Some((false, false, true)),
        0x0D | 0x0F | 0x10 => Some((false, true, true)),
        0x11 => Some((false, true, false)),
        // HPCC ACK: known (an ACKNOWLEDGE with T), so never a "bad opcode".
        0xC2 => Some((false, true, false)),
        0xC0 | 0xC1 => Some((false, false, false)),
        _ => None,
    }
}
const OPCODES: [u8; 13] = [
    0x06, 0x07, 0x08, 0x0A, 0x0C, 0x0D, 0x0E, 0x0F, 0x10, 0x11, 0xC0, 0xC1, 0x81,
];

#[derive(Clone, Debug)]
struct Pkt {
    dmac: [u8; 6],
    smac: [u8; 6],
    ethertype: u16,
    ver_ihl: u8,
    tos: u8,
    id: u16,
    flags_frag: u16,
    ttl: u8,
    proto: u8,
    ip_csum_xor: u16,
    sip: u32,
    dip: u32,
    sport: u16,
    dport: u16,
    udp_len_delta: u16,
    udp_csum: u16,
    opcode: u8,
    se_m: u8,
    tver: u8,
    pkey: u16,
    t: bool,
    qp: u32,
    ackreq: bool,
    psn: u32,
    va: u64,
    rkey: u32,
    dlen: u32,
    aeth: u32,
    tlm: [u64; 6],
    payload: Vec<u8>,
    icrc_xor: u32,
    eth_pad: usize,
}

impl Pkt {
    fn random(rng: &mut SmallRng, max_pay: usize) -> Pkt {
        let opcode = OPCODES[rng.gen_range(0..OPCODES.len())];
        let (_, _, pay) = info(opcode).unwrap();
        let t = opcode >= 0xC0 || rng.gen_bool(0.3);
        let len = if pay {
            match rng.gen_range(0..4) {
                0 => 0,
                1 => rng.gen_range(1..9),
                _ => rng.gen_range(0..=max_pay),
            }
        } else {
            0
        };
        let tlm_hdr = ((0x10 | rng.gen_range(0..16u64)) << 56)
            | (rng.gen_range(0..=5u64) << 48)
            | (5u64 << 40)
            | (rng.gen_range(0..256u64) << 32)
            | rng.gen::<u32>() as u64;
        Pkt {
            dmac: rng.gen(),
            smac: rng.gen(),
            ethertype: 0x0800,
            ver_ihl: 0x45,
            tos: rng.gen(),
            id: rng.gen(),
            flags_frag: if rng.gen_bool(0.5) { 0x4000 } else { 0 },
            ttl: rng.gen(),
            proto: 17,
            ip_csum_xor: 0,
            sip: rng.gen(),
            dip: rng.gen(),
            sport: rng.gen(),
            dport: 4791,
            udp_len_delta: 0,
            udp_csum: rng.gen(),
            opcode,
            se_m: rng.gen_range(0..4),
            tver: 0,
            pkey: rng.gen(),
            t,
            qp: rng.gen_range(0..1 << 24),
            ackreq: rng.gen(),
            psn: rng.gen_range(0..1 << 24),
            va: rng.gen(),
            rkey: rng.gen(),
            dlen: rng.gen(),
            aeth: rng.gen(),
            tlm: [
                tlm_hdr,
                rng.gen(),
                rng.gen(),
                rng.gen(),
                rng.gen(),
                rng.gen(),
            ],
            payload: (0..len).map(|_| rng.gen()).collect(),
            icrc_xor: 0,
            eth_pad: if rng.gen_bool(0.2) {
                rng.gen_range(1..10)
            } else {
                0
            },
        }
    }

    fn rah(&self) -> (bool, bool) {
        let (r, a, _) = info(self.opcode).unwrap_or((false, false, false));
        (r, a)
    }

    fn encode(&self) -> Vec<u8> {
        let (r, a) = self.rah();
        let mut ext = Vec::new();
        if r {
            ext.extend_from_slice(&self.va.to_be_bytes());
            ext.extend_from_slice(&self.rkey.to_be_bytes());
            ext.extend_from_slice(&self.dlen.to_be_bytes());
        }
        if a {
            ext.extend_from_slice(&self.aeth.to_be_bytes());
        }
        let tlm_at = 12 + ext.len(); // offset within the BTH.. part
        if self.t {
            for w in self.tlm {
                ext.extend_from_slice(&w.to_be_bytes());
            }
        }
        let pad = (4 - self.payload.len() % 4) % 4;
        let rest = 12 + ext.len() + self.payload.len() + pad + 4;
        let iptot = (20 + 8 + rest) as u16;
        let mut ip = Vec::new();
        ip.push(self.ver_ihl);
        ip.push(self.tos);
        ip.extend_from_slice(&iptot.to_be_bytes());
        ip.extend_from_slice(&self.id.to_be_bytes());
        ip.extend_from_slice(&self.flags_frag.to_be_bytes());
        ip.push(self.ttl);
        ip.push(self.proto);
        ip.extend_from_slice(&[0, 0]);
        ip.extend_from_slice(&self.sip.to_be_bytes());
        ip.extend_from_slice(&self.dip.to_be_bytes());
        let mut s: u32 = ip
            .chunks(2)
            .map(|c| u16::from_be_bytes([c[0], c[1]]) as u32)
            .sum();
        while s > 0xFFFF {
            s = (s & 0xFFFF) + (s >> 16);
        }
        let csum = !(s as u16) ^ self.ip_csum_xor;
        ip[10..12].copy_from_slice(&csum.to_be_bytes());
        ip.extend_from_slice(&self.sport.to_be_bytes());
        ip.extend_from_slice(&self.dport.to_be_bytes());
        ip.extend_from_slice(
            &((8 + rest) as u16)
                .wrapping_add(self.udp_len_delta)
                .to_be_bytes(),
        );
        ip.extend_from_slice(&self.udp_csum.to_be_bytes());
        ip.push(self.opcode);
        ip.push((self.se_m << 6) | ((pad as u8) << 4) | self.tver);
        ip.extend_from_slice(&self.pkey.to_be_bytes());
        ip.push(self.t as u8);
        ip.extend_from_slice(&self.qp.to_be_bytes()[1..]);
        ip.push((self.ackreq as u8) << 7);
        ip.extend_from_slice(&self.psn.to_be_bytes()[1..]);
        ip.extend_from_slice(&ext);
        ip.extend_from_slice(&self.payload);
        ip.extend(std::iter::repeat(0).take(pad));
        // ICRC (§3): masked copy, 8 bytes of ones in front.
        let mut m = ip.clone();
        for k in [1usize, 8, 10, 11, 26, 27, 32] {
            m[k] = 0xFF;
        }
        if self.t {
            let at = 28 + tlm_at;
            for b in &mut m[at..at + 48] {
                *b = 0xFF;
            }
        }
        let mut h = crc32fast::Hasher::new();
        h.update(&[0xFF; 8]);
        h.update(&m);
        let icrc = h.finalize() ^ self.icrc_xor;
        ip.extend_from_slice(&icrc.to_le_bytes());
        assert_eq!(ip.len(), iptot as usize);
        let mut f = Vec::new();
        f.extend_from_slice(&self.dmac);
        f.extend_from_slice(&self.smac);
        f.extend_from_slice(&self.ethertype.to_be_bytes());
        f.extend_from_slice(&ip);
        f.extend(std::iter::repeat(0).take(self.eth_pad));
        f
    }

    fn meta(&self) -> Meta {
        let (r, a) = self.rah();
        Meta {
            opcode: self.opcode,
            qp: self.qp,
            psn: self.psn,
            ackreq: self.ackreq,
            len: self.payload.len() as u16,
            va: if r { self.va } else { 0 },
            rkey: if r { self.rkey } else { 0 },
            dlen: if r { self.dlen } else { 0 },
            aeth: if a { self.aeth } else { 0 },
            ce: self.tos & 3 == 3,
            mr: 0,
            tlm: Telemetry::from_words(self.t, self.tlm),
        }
    }
}

/// One frame on the wire and what must become of it.
#[derive(Clone, Debug)]
pub(super) struct Frame {
    pub(super) bytes: Vec<u8>,
    pub(super) fcs: bool,
    /// Reason index (0 = good).
    pub(super) want: usize,
    /// For good frames: the record and the payload.
    out: Option<(Meta, Vec<u8>)>,
}

/// The mutations, each with the reason it must be counted under.
pub(super) const MUTATIONS: usize = 20;

fn frame(rng: &mut SmallRng, max_pay: usize, bad: f64) -> Frame {
    let mutation = if rng.gen_bool(bad) {
        rng.gen_range(1..=MUTATIONS)
    } else {
        0
    };
    frame_with(rng, max_pay, mutation)
}

/// A random frame with mutation `mutation` (0 = none).
pub(super) fn frame_with(rng: &mut SmallRng, max_pay: usize, mutation: usize) -> Frame {
    let mut p = Pkt::random(rng, max_pay);
    let mut fcs = false;
    let mut trunc = false;
    let want = match mutation {
        0 => g::OK,
        1 => {
            fcs = true;
            g::BAD_FCS
        }
        2 => {
            trunc = true;
            g::TRUNC
        }
        3 => {
            p.ethertype = loop {
                let e: u16 = rng.gen();
                if e != 0x0800 {
                    break e;
                }
            };
            g::BAD_ETH
        }
        4 => {
            p.ip_csum_xor = rng.gen_range(1..=0xFFFF);
            g::BAD_IP
        }
        5 => {
            p.ver_ihl = loop {
                let v: u8 = rng.gen();
                if v != 0x45 {
                    break v;
                }
            };
            g::BAD_IP
        }
        6 => {
            p.flags_frag =
                [0x2000, 0x0001, 0x1000, 0x6000 | rng.gen_range(1..0x2000)][rng.gen_range(0..4)];
            g::BAD_IP
        }
        7 => {
            p.proto = loop {
                let v: u8 = rng.gen();
                if v != 17 {
                    break v;
                }
            };
            g::BAD_IP
        }
        8 => {
            p.dport = loop {
                let v: u16 = rng.gen();
                if v != 4791 {
                    break v;
                }
            };
            g::BAD_PORT
        }
        9 => {
            p.opcode = loop {
                let v: u8 = rng.gen();
                if info(v).is_none() {
                    break v;
                }
            };
            g::BAD_OPCODE
        }
        10 => {
            p.tver = rng.gen_range(1..16);
            g::BAD_OPCODE
        }
        11 => {
            p.udp_len_delta = rng.gen_range(1..=0xFFFF);
            g::BAD_LEN
        }
        12 => {
            // Payload on an opcode that has none.
            p.opcode = [0x0C, 0x11, 0xC0, 0xC1][rng.gen_range(0..4)];
            p.t = p.opcode >= 0xC0;
            p.payload = (0..rng.gen_range(1..20)).map(|_| rng.gen()).collect();
            g::BAD_LEN
        }
        13 => {
            p.t = true;
            p.tlm[0] = (p.tlm[0] & !(0xFFu64 << 48)) | (rng.gen_range(6..256u64) << 48);
            g::BAD_TLM
        }
        14 => {
            p.t = true;
            let m = loop {
                let v = rng.gen_range(0..256u64);
                if v != 5 {
                    break v;
                }
            };
            p.tlm[0] = (p.tlm[0] & !(0xFFu64 << 40)) | (m << 40);
            g::BAD_TLM
        }
        15 => {
            p.t = true;
            let v = loop {
                let v = rng.gen_range(0..16u64);
                if v != 1 {
                    break v;
                }
            };
            p.tlm[0] = (p.tlm[0] & !(0xF0u64 << 56)) | (v << 60);
            g::BAD_TLM
        }
        16 => {
            p.opcode = [0xC0, 0xC1][rng.gen_range(0..2)];
            p.payload.clear();
            p.t = false;
            g::BAD_TLM
        }
        17 => {
            p.icrc_xor = rng.gen_range(1..=u32::MAX);
            g::BAD_ICRC
        }
        18 => {
            let mut b = p.encode();
            let iptot = u16::from_be_bytes([b[16], b[17]]) as usize;
            if p.t {
                // A switch on the way: TTL decremented, ECN marked, the
                // IPv4 checksum fixed, a hop slot written. All masked
                // from the ICRC: still good.
                let (r, a) = p.rah();
                let off = g::tlm_offset(r, a);
                let i = rng.gen_range(1..6);
                let v: u64 = rng.gen();
                b[off + 8 * i..off + 8 * i + 8].copy_from_slice(&v.to_be_bytes());
                b[22] = b[22].wrapping_sub(1);
                b[15] = rng.gen();
                b[24] = 0;
                b[25] = 0;
                let mut s: u32 = b[14..34]
                    .chunks(2)
                    .map(|c| u16::from_be_bytes([c[0], c[1]]) as u32)
                    .sum();
                while s > 0xFFFF {
                    s = (s & 0xFFFF) + (s >> 16);
                }
                b[24..26].copy_from_slice(&(!(s as u16)).to_be_bytes());
                let mut m = p.meta();
                *m.tlm.word_mut(i) = v;
                // The TOS the switch wrote: its ECN field is the record's.
                m.ce = b[15] & 3 == 3;
                return Frame {
                    bytes: b,
                    fcs,
                    want: g::OK,
                    out: Some((m, p.payload.clone())),
                };
            }
            // A bit flipped after the BTH's parsed fields: bad ICRC.
            let k = rng.gen_range(47..14 + iptot);
            b[k] ^= 1 << rng.gen_range(0..8);
            return Frame {
                bytes: b,
                fcs,
                want: g::BAD_ICRC,
                out: None,
            };
        }
        19 => {
            // Random bytes.
            let n = rng.gen_range(1..120);
            let mut b: Vec<u8> = (0..n).map(|_| rng.gen()).collect();
            if n > 12 && b[12] == 0x08 {
                b[12] = 0x09;
            }
            let iptot = if n >= 18 {
                u16::from_be_bytes([b[16], b[17]]) as usize
            } else {
                0
            };
            let want = if n < 54 || n < 14 + iptot {
                g::TRUNC
            } else {
                g::BAD_ETH
            };
            return Frame {
                bytes: b,
                fcs,
                want,
                out: None,
            };
        }
        _ => {
            // Payload over 4096 bytes (claimed by the lengths).
            p.opcode = 0x07;
            p.t = false;
            p.payload = (0..rng.gen_range(4097..4200)).map(|_| rng.gen()).collect();
            g::BAD_LEN
        }
    };
    let mut bytes = p.encode();
    if trunc {
        let iptot = u16::from_be_bytes([bytes[16], bytes[17]]) as usize;
        bytes.truncate(rng.gen_range(1..14 + iptot));
    }
    Frame {
        out: (want == g::OK).then(|| (p.meta(), p.payload.clone())),
        bytes,
        fcs,
        want,
    }
}

// ---------------------------------------------------------------------
// Stimulus and output checking.

struct Plan {
    /// Percent chances: idle gap before a frame, idle cycle inside a
    /// frame, meta_ready, pay_tready.
    gap: u32,
    hole: u32,
    mready: u32,
    pready: u32,
}

fn stimulus(rng: &mut SmallRng, frames: &[Frame], plan: &Plan) -> Vec<In> {
    let mut s = Vec::new();
    let idle = |rng: &mut SmallRng| In {
        rx: Axis {
            tdata: rng.gen(),
            tkeep: rng.gen(),
            tlast: rng.gen(),
            tuser: rng.gen(),
            ..Default::default()
        },
        ..Default::default()
    };
    for f in frames {
        while rng.gen_range(0..100) < plan.gap {
            s.push(idle(rng));
        }
        let n = f.bytes.len().div_ceil(8);
        for (k, c) in f.bytes.chunks(8).enumerate() {
            while rng.gen_range(0..100) < plan.hole {
                s.push(idle(rng));
            }
            let mut w = [0u8; 8];
            w[..c.len()].copy_from_slice(c);
            let last = k + 1 == n;
            s.push(In {
                rx: Axis {
                    tdata: u64::from_le_bytes(w),
                    tkeep: if last {
                        ((1u16 << c.len()) - 1) as u8
                    } else if rng.gen_bool(0.9) {
                        0xFF
                    } else {
                        rng.gen()
                    },
                    tlast: last,
                    tvalid: true,
                    tuser: if last { f.fcs } else { rng.gen_bool(0.1) },
                },
                // tkeep and tuser are only looked at on the last word.
                ..Default::default()
            });
        }
    }
    // Drain: enough idle cycles for every word to come out.
    let words: usize = frames.iter().map(|f| f.bytes.len() / 8 + 4).sum();
    let drain = 40 + words * 100 / plan.mready.min(plan.pready).max(10) as usize;
    for _ in 0..drain {
        s.push(idle(rng));
    }
    for x in s.iter_mut() {
        x.meta_ready = rng.gen_range(0..100) < plan.mready;
        x.pay_tready = rng.gen_range(0..100) < plan.pready;
    }
    // The last cycles with ready high, so that everything drains.
    let k = s.len().saturating_sub(40 + 2 * words);
    for x in s[k..].iter_mut() {
        x.meta_ready = true;
        x.pay_tready = true;
    }
    s
}

/// Packets delivered on the output ports: the record and the payload bytes.
fn delivered(stim: &[In], outs: &[Out]) -> Vec<(Meta, Vec<u8>)> {
    let mut v: Vec<(Meta, Vec<u8>)> = Vec::new();
    let mut open = false;
    for (i, o) in stim.iter().zip(outs) {
        if o.pay.tvalid {
            assert!(open, "payload word without a record");
            if i.pay_tready {
                let n = o.pay.tkeep.count_ones() as usize;
                assert_eq!(o.pay.tkeep as u16, (1u16 << n) - 1, "tkeep contiguous");
                assert_eq!(o.pay.tdata & !g_mask(n), 0, "lanes beyond tkeep are 0");
                v.last_mut()
                    .unwrap()
                    .1
                    .extend_from_slice(&o.pay.tdata.to_le_bytes()[..n]);
                if o.pay.tlast {
                    open = false;
                } else {
                    assert_eq!(n, 8, "only the last word is partial");
                }
            }
        }
        if o.meta_valid && i.meta_ready {
            assert!(!open, "record before the previous payload ended");
            let m = o.meta;
            open = m.len > 0;
            v.push((m, Vec::new()));
        }
        if !o.meta_valid {
            assert_eq!(o.meta, Meta::default(), "record fields 0 while not valid");
        }
    }
    assert!(!open, "payload not finished at the end of the run");
    v
}

fn g_mask(n: usize) -> u64 {
    if n >= 8 {
        u64::MAX
    } else {
        (1u64 << (8 * n)) - 1
    }
}

/// Every counter as the frames say; the delivered packets are the good
/// frames in order, less those dropped for lack of room (`full_ok`: such
/// drops allowed).
fn check(frames: &[Frame], stim: &[In], outs: &[Out], full_ok: bool) {
    let mut want = [0u32; 11];
    for f in frames {
        want[f.want] += 1;
    }
    let got = outs.last().unwrap().cnt();
    for r in 1..10 {
        assert_eq!(
            got[r], want[r],
            "cnt_{}: {:?} vs {:?}",
            REASONS[r], got, want
        );
    }
    assert_eq!(got[0] + got[10], want[0], "ok + drop_full = good frames");
    if !full_ok {
        assert_eq!(got[10], 0, "no frame dropped for room");
    }
    // `ce_dropped`: the dropped frames of 16 bytes or more, EtherType IPv4,
    // ECN = CE (good frames dropped for room among them).
    let ce =
        |f: &&Frame| f.bytes.len() >= 16 && f.bytes[12..14] == [0x08, 0x00] && f.bytes[15] & 3 == 3;
    let bad_ce = frames.iter().filter(|f| f.want != 0).filter(ce).count() as u32;
    let good_ce = frames.iter().filter(|f| f.want == 0).filter(ce).count() as u32;
    let ce_dropped = outs.last().unwrap().stats.ce_dropped;
    assert!(
        bad_ce <= ce_dropped && ce_dropped <= bad_ce + good_ce.min(got[10]),
        "ce_dropped {ce_dropped}: {bad_ce} bad frames with CE, {good_ce} good ones"
    );
    if got[10] == 0 {
        assert_eq!(ce_dropped, bad_ce);
    }
    let d = delivered(stim, outs);
    assert_eq!(d.len(), got[0] as usize, "one record per ok frame");
    let good: Vec<&(Meta, Vec<u8>)> = frames.iter().filter_map(|f| f.out.as_ref()).collect();
    let mut k = 0;
    for (n, x) in d.iter().enumerate() {
        while k < good.len() && good[k] != x {
            assert!(full_ok, "packet {n}: {:?}\n  want {:?}", x.0, good[k].0);
            k += 1;
        }
        assert!(
            k < good.len(),
            "packet {n} not among the good frames (or out of order)"
        );
        k += 1;
    }
}

fn run_golden<const B: usize>(stim: &[In]) -> Vec<Out> {
    let mut m = Golden::<B>::default();
    stim.iter().map(|i| m.step(i)).collect()
}

fn frames(rng: &mut SmallRng, n: usize, max_pay: usize, bad: f64) -> Vec<Frame> {
    (0..n).map(|_| frame(rng, max_pay, bad)).collect()
}

// ---------------------------------------------------------------------
// Tests.

proptest! {
    #![proptest_config(config(16))]
    /// Both engines, every port every cycle, on random frame streams (good
    /// frames of every opcode, every mutation, gaps, back-pressure); the
    /// outputs also checked against the reference encoder.
    #[test]
    fn rx_parse_matches_golden(seed in any::<u64>(), gap in 0u32..60, hole in 0u32..15,
                               mready in 20u32..=100, pready in 20u32..=100) {
        let mut rng = SmallRng::seed_from_u64(seed);
        let fr = frames(&mut rng, 24, 250, 0.5);
        // Keep the rust-hdl run short: no 4 KiB payloads here.
        let fr: Vec<Frame> = fr.into_iter().filter(|f| f.bytes.len() < 400).collect();
        let plan = Plan { gap, hole, mready, pready };
        let s = stimulus(&mut rng, &fr, &plan);
        let outs = both::<RoceRxParse<BS>, Golden<BS>>("roce_rx_parse", &s)?;
        check(&fr, &s, &outs, true);
    }

    /// Random reset pulses: the engines still agree with the model.
    #[test]
    fn rx_parse_reset_matches_golden(seed in any::<u64>()) {
        let mut rng = SmallRng::seed_from_u64(seed);
        let fr: Vec<Frame> = frames(&mut rng, 8, 100, 0.3)
            .into_iter().filter(|f| f.bytes.len() < 300).collect();
        let plan = Plan { gap: 20, hole: 5, mready: 60, pready: 60 };
        let mut s = stimulus(&mut rng, &fr, &plan);
        for x in s.iter_mut() {
            x.reset = rng.gen_bool(0.01);
        }
        both::<RoceRxParse<BS>, Golden<BS>>("roce_rx_parse_reset", &s)?;
    }
}

/// Volume on Verilator (RTL == golden every cycle) with the NIC's buffer:
/// every mutation, payloads up to 4 KiB, no frame dropped for room, and
/// every good frame delivered exactly.
#[test]
fn rx_parse_functional_verilator() {
    let mut rng = SmallRng::seed_from_u64(0x5eed_0001);
    for round in 0..6 {
        let fr = frames(&mut rng, 150, if round % 2 == 0 { 300 } else { 4096 }, 0.5);
        let plan = Plan {
            gap: 30,
            hole: 3,
            mready: 100,
            pready: if round % 2 == 0 && round >= 2 {
                90
            } else {
                100
            },
        };
        let s = stimulus(&mut rng, &fr, &plan);
        let outs = verilator::<RoceRxParse<BN>, Golden<BN>>("roce_rx_parse_func", &s)
            .unwrap_or_else(|e| panic!("{e}"));
        check(&fr, &s, &outs, false);
    }
}

/// The golden model alone on every mutation kind, with the next good
/// frame right behind each bad one.
#[test]
fn rx_parse_every_reason_then_good() {
    let mut rng = SmallRng::seed_from_u64(7);
    let mut fr = Vec::new();
    for m in 1..=MUTATIONS {
        for _ in 0..3 {
            fr.push(frame_with(&mut rng, 200, m));
            fr.push(frame_with(&mut rng, 200, 0));
        }
    }
    let plan = Plan {
        gap: 0,
        hole: 0,
        mready: 100,
        pready: 100,
    };
    let s = stimulus(&mut rng, &fr, &plan);
    let outs = run_golden::<BN>(&s);
    check(&fr, &s, &outs, false);
    let c = outs.last().unwrap().cnt();
    for r in 1..10 {
        assert!(c[r] > 0, "reason {} never seen: {:?}", REASONS[r], c);
    }
}

/// Line rate with ready high: back-to-back minimum frames (ACK, 62
/// bytes = 8 words) and maximum frames (WRITE ONLY, 4 KiB payload, TLM):
/// all accepted, none dropped for room, all delivered; on Verilator.
#[test]
fn rx_parse_line_rate() {
    let mut rng = SmallRng::seed_from_u64(3);
    for (op, len, t, n) in [
        (0x11u8, 0usize, false, 300usize),
        (0x0A, 4096, true, 8),
        (0x07, 4096, false, 8),
    ] {
        let fr: Vec<Frame> = (0..n)
            .map(|_| {
                let mut p = Pkt::random(&mut rng, 0);
                p.opcode = op;
                p.t = t;
                p.eth_pad = 0;
                p.payload = (0..len).map(|_| rng.gen()).collect();
                Frame {
                    bytes: p.encode(),
                    fcs: false,
                    want: g::OK,
                    out: Some((p.meta(), p.payload.clone())),
                }
            })
            .collect();
        if op == 0x11 {
            assert_eq!(fr[0].bytes.len(), 62);
        }
        let plan = Plan {
            gap: 0,
            hole: 0,
            mready: 100,
            pready: 100,
        };
        let s = stimulus(&mut rng, &fr, &plan);
        let outs = verilator::<RoceRxParse<BN>, Golden<BN>>("roce_rx_parse_rate", &s)
            .unwrap_or_else(|e| panic!("{e}"));
        check(&fr, &s, &outs, false);
        assert_eq!(outs.last().unwrap().stats.ok as usize, n);
        // Latency: last word of the first frame in cycle T → record in T + 7.
        let words = fr[0].bytes.len().div_ceil(8);
        let first = outs.iter().position(|o| o.meta_valid).unwrap();
        assert_eq!(first, words - 1 + 7, "latency");
        // Counted in T + 6.
        let counted = outs.iter().position(|o| o.stats.ok > 0).unwrap();
        assert_eq!(counted, words - 1 + 6, "counter latency");
    }
}

/// Room: a small buffer and a stalled output drop frames as `drop_full`
/// (the buffer, then the 64-entry record FIFO), never stall the input and
/// never corrupt the frames already committed.
#[test]
fn rx_parse_drop_full() {
    let mut rng = SmallRng::seed_from_u64(11);
    // Big frames into a 128-word buffer, output stalled most of the time.
    let fr = frames(&mut rng, 60, 600, 0.2);
    let plan = Plan {
        gap: 10,
        hole: 0,
        mready: 15,
        pready: 30,
    };
    let s = stimulus(&mut rng, &fr, &plan);
    let outs = both::<RoceRxParse<BS>, Golden<BS>>("roce_rx_parse_full", &s).unwrap();
    check(&fr, &s, &outs, true);
    assert!(outs.last().unwrap().stats.drop_full > 0);
    // 80 ACKs while meta_ready is low: 64 are kept, 16 dropped, 64 delivered.
    let records = 1u32 << nic_spec::roce::RX_META_LOG2;
    let fr: Vec<Frame> = (0..records + 16)
        .map(|_| {
            let mut p = Pkt::random(&mut rng, 0);
            p.opcode = 0x11;
            p.t = false;
            p.payload.clear();
            Frame {
                bytes: p.encode(),
                fcs: false,
                want: g::OK,
                out: Some((p.meta(), vec![])),
            }
        })
        .collect();
    let plan = Plan {
        gap: 0,
        hole: 0,
        mready: 0,
        pready: 100,
    };
    let s = stimulus(&mut rng, &fr, &plan);
    let outs = run_golden::<BN>(&s);
    check(&fr, &s, &outs, true);
    let c = outs.last().unwrap();
    assert_eq!((c.stats.ok, c.stats.drop_full), (records, 16));
    verilator::<RoceRxParse<BN>, Golden<BN>>("roce_rx_parse_full2", &s).unwrap();
}

/// Space is freed as words leave: back-to-back WRITEs of 93 words each
/// through a 128-word buffer, read out at one word a cycle, are all kept
/// (freed only at each frame's end, the second frame found the buffer
/// full with the first still in it, and every other frame was dropped).
#[test]
fn rx_parse_frees_space_as_words_leave() {
    let mut rng = SmallRng::seed_from_u64(5);
    let fr: Vec<Frame> = (0..6)
        .map(|_| {
            let mut p = Pkt::random(&mut rng, 0);
            p.opcode = 0x0A;
            p.t = false;
            p.eth_pad = 0;
            p.payload = (0..680).map(|_| rng.gen()).collect();
            Frame {
                bytes: p.encode(),
                fcs: false,
                want: g::OK,
                out: Some((p.meta(), p.payload.clone())),
            }
        })
        .collect();
    assert!(fr[0].bytes.len().div_ceil(8) > (1 << BS) / 2 + 20);
    let plan = Plan {
        gap: 0,
        hole: 0,
        mready: 100,
        pready: 100,
    };
    let s = stimulus(&mut rng, &fr, &plan);
    let outs = both::<RoceRxParse<BS>, Golden<BS>>("roce_rx_parse_frees", &s).unwrap();
    check(&fr, &s, &outs, false);
    let c = outs.last().unwrap().stats;
    assert_eq!((c.ok, c.drop_full), (6, 0));
}

/// Four-state: no X on any port, values equal the golden model.
#[test]
fn rx_parse_no_x_in_four_state_simulation() {
    let mut rng = SmallRng::seed_from_u64(5);
    let fr: Vec<Frame> = frames(&mut rng, 12, 100, 0.5)
        .into_iter()
        .filter(|f| f.bytes.len() < 300)
        .collect();
    let plan = Plan {
        gap: 20,
        hole: 5,
        mready: 70,
        pready: 70,
    };
    let s = stimulus(&mut rng, &fr, &plan);
    four_state::<RoceRxParse<BS>, Golden<BS>>("roce_rx_parse", &s);
}
