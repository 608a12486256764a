//! `hdl/src/roce/cnm_rx.rs` (the QCN CNM receive tap) against
//! `nic_golden::roce::cnm_rx`; the byte-level parser `parse_cnm` against
//! what each generated frame was built to be (fields from the encoder's
//! input, the QP from the RoCEv2 packet that was sampled) and against the
//! RTL's ports frame by frame; the encoder's frames against tshark.

use crate::common::*;
use nic_golden::roce::cnm_rx::{
    encode_cnm, parse_cnm, Cnm, CnmDrop, CnmRx as Golden, In, Out, LATENCY,
};
use nic_golden::roce::packet::Packet;
use nic_golden::roce::CnmInfo;
use nic_golden::stream::{frame_beats, Axis};
use nic_golden::Cycle;
use nic_hdl::roce::cnm_rx::CnmRx;
use nic_spec::cnm as w;
use proptest::prelude::*;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

// ---------------------------------------------------------------------
// Frames, each with what it must give.

/// A frame, whether the MAC flags it, and (when the generator knows it)
/// what the tap must make of it.
#[derive(Clone, Debug)]
struct Frame {
    bytes: Vec<u8>,
    bad_fcs: bool,
    want: Option<Result<CnmInfo, CnmDrop>>,
}

fn rand_bytes(rng: &mut SmallRng, n: usize) -> Vec<u8> {
    (0..n).map(|_| rng.gen()).collect()
}

fn mac(rng: &mut SmallRng) -> [u8; 6] {
    let mut m: [u8; 6] = rng.gen();
    m[0] &= 0xFE;
    m
}

/// A RoCEv2 frame of this NIC, random fields.
pub(crate) fn roce_packet(rng: &mut SmallRng) -> Packet {
    let ops = [0x06u8, 0x07, 0x08, 0x0A, 0x0C, 0x11, 0xC0];
    let n = rng.gen_range(0..80);
    Packet {
        dmac: mac(rng),
        smac: mac(rng),
        tos: rng.gen(),
        ip_id: rng.gen(),
        sip: rng.gen(),
        dip: rng.gen(),
        sport: rng.gen(),
        opcode: ops[rng.gen_range(0..ops.len())],
        dqp: rng.gen::<u32>() & 0xFF_FFFF,
        psn: rng.gen::<u32>() & 0xFF_FFFF,
        ackreq: rng.gen(),
        payload: rand_bytes(rng, n),
        ..Packet::default()
    }
}

/// A well-formed CNM with random fields and tags, and the record it must
/// give, written from the encoder's input (not by parsing).
pub(crate) fn good_cnm(rng: &mut SmallRng) -> (Cnm, CnmInfo) {
    let (msdu, qp) = if rng.gen_bool(0.5) {
        // The sample is a RoCEv2 frame: its MSDU from the EtherType on.
        let p = roce_packet(rng);
        let f = p.encode();
        let avail = (f.len() - 12).min(w::MAX_MSDU);
        let n = match rng.gen_range(0..5) {
            0 | 1 => avail,
            2 => w::msdu::ROCE_MIN.min(avail),
            3 => rng.gen_range(30..=45).min(avail),
            _ => rng.gen_range(0..=avail),
        };
        let mut msdu = f[12..12 + n].to_vec();
        let mut named = n >= w::msdu::ROCE_MIN;
        if named && rng.gen_bool(0.25) {
            // Not RoCEv2 after all: one of the four checked fields differs.
            let at = [
                w::msdu::ETHERTYPE + rng.gen_range(0..2),
                w::msdu::IP_VER_IHL,
                w::msdu::IP_PROTO,
                w::msdu::UDP_DPORT + rng.gen_range(0..2),
            ][rng.gen_range(0..4)];
            msdu[at] ^= rng.gen_range(1..=255u8);
            named = false;
        }
        (msdu, named.then_some(p.dqp))
    } else {
        let n = rng.gen_range(0..=w::MAX_MSDU);
        let mut m = rand_bytes(rng, n);
        if n > 0 && m[0] == 0x08 {
            m[0] = 0x09;
        }
        (m, None)
    };
    let c = Cnm {
        dmac: mac(rng),
        smac: mac(rng),
        s_tag: rng.gen_bool(0.2).then(|| rng.gen()),
        c_tag: rng.gen_bool(0.5).then(|| rng.gen()),
        rpid: rng.gen_bool(0.4).then(|| rng.gen()),
        version: 0,
        reserved: rng.gen_range(0..64),
        qntz_fb: rng.gen_range(0..64),
        cpid: rng.gen(),
        qoffset: rng.gen(),
        qdelta: rng.gen(),
        encap_prio: rng.gen(),
        encap_da: rng.gen(),
        msdu_len: msdu.len() as u16,
        msdu,
    };
    let mut da = [0u8; 8];
    da[2..].copy_from_slice(&c.encap_da);
    let info = CnmInfo {
        cn_tag: c.rpid.is_some(),
        rpid: c.rpid.unwrap_or(0),
        version: 0,
        qntz_fb: c.qntz_fb,
        cpid: c.cpid,
        qoffset: c.qoffset,
        qdelta: c.qdelta,
        encap_prio: c.encap_prio,
        encap_da: u64::from_be_bytes(da),
        msdu_len: c.msdu_len,
        qp_valid: qp.is_some(),
        qp: qp.unwrap_or(0),
    };
    (c, info)
}

/// Where a CNM's PDU starts: after DA, SA, its tags and 0x22E7.
pub(crate) fn pdu_off(c: &Cnm) -> usize {
    14 + 4 * (c.s_tag.is_some() as usize + c.c_tag.is_some() as usize + c.rpid.is_some() as usize)
}

/// One random frame of every kind the tap must handle.
fn random_frame(rng: &mut SmallRng) -> Frame {
    let kind = rng.gen_range(0..100);
    let mut fr = if kind < 30 {
        // A good CNM, sometimes with junk after the MSDU.
        let (c, info) = good_cnm(rng);
        let mut bytes = encode_cnm(&c);
        if rng.gen_bool(0.2) {
            let n = rng.gen_range(1..20);
            bytes.extend(rand_bytes(rng, n));
        }
        Frame {
            bytes,
            bad_fcs: false,
            want: Some(Ok(info)),
        }
    } else if kind < 42 {
        // A good CNM cut short anywhere.
        let (c, info) = good_cnm(rng);
        let full = encode_cnm(&c);
        let cut = rng.gen_range(0..full.len());
        let p = pdu_off(&c);
        let want = if cut < p {
            Err(CnmDrop::NotCnm)
        } else if cut < p + 24 + c.msdu.len() {
            Err(CnmDrop::Trunc)
        } else {
            Ok(info)
        };
        Frame {
            bytes: full[..cut].to_vec(),
            bad_fcs: false,
            want: Some(want),
        }
    } else if kind < 50 {
        // Announces more MSDU than follows (no padding to hide it).
        let (mut c, _) = good_cnm(rng);
        c.msdu.truncate(rng.gen_range(0..w::MAX_MSDU));
        c.msdu_len = rng.gen_range(c.msdu.len() + 1..=w::MAX_MSDU) as u16;
        let end = pdu_off(&c) + 24 + c.msdu.len();
        Frame {
            bytes: encode_cnm(&c)[..end].to_vec(),
            bad_fcs: false,
            want: Some(Err(CnmDrop::Trunc)),
        }
    } else if kind < 56 {
        let (mut c, _) = good_cnm(rng);
        c.version = rng.gen_range(1..16);
        Frame {
            bytes: encode_cnm(&c),
            bad_fcs: false,
            want: Some(Err(CnmDrop::BadVersion)),
        }
    } else if kind < 62 {
        let (mut c, _) = good_cnm(rng);
        c.msdu_len = rng.gen_range(w::MAX_MSDU as u16 + 1..=u16::MAX);
        Frame {
            bytes: encode_cnm(&c),
            bad_fcs: false,
            want: Some(Err(CnmDrop::BadLen)),
        }
    } else if kind < 75 {
        // RoCEv2 frames: ignored.
        Frame {
            bytes: roce_packet(rng).encode(),
            bad_fcs: false,
            want: Some(Err(CnmDrop::NotCnm)),
        }
    } else if kind < 79 {
        // A CN-tagged (and maybe VLAN-tagged) RoCEv2 data frame: not a CNM.
        let f = roce_packet(rng).encode();
        let mut b = f[..12].to_vec();
        if rng.gen_bool(0.5) {
            b.extend([0x81, 0x00, rng.gen(), rng.gen()]);
        }
        b.extend([0x22, 0xE9, rng.gen(), rng.gen()]);
        b.extend_from_slice(&f[12..]);
        Frame {
            bytes: b,
            bad_fcs: false,
            want: Some(Err(CnmDrop::NotCnm)),
        }
    } else if kind < 84 {
        // Tags out of order, repeated or unknown before 0x22E7: not a CNM.
        let (c, _) = good_cnm(rng);
        let good = encode_cnm(&c);
        let p = pdu_off(&c);
        let bad: [[u16; 2]; 6] = [
            [0x8100, 0x88A8],
            [0x22E9, 0x8100],
            [0x8100, 0x8100],
            [0x22E9, 0x22E9],
            [0x88A8, 0x88A8],
            [0x9100, 0x8100],
        ];
        let t = bad[rng.gen_range(0..bad.len())];
        let mut b = good[..12].to_vec();
        for x in t {
            b.extend(x.to_be_bytes());
            b.extend([rng.gen::<u8>(), rng.gen::<u8>()]);
        }
        b.extend_from_slice(&good[p - 2..]);
        Frame {
            bytes: b,
            bad_fcs: false,
            want: Some(Err(CnmDrop::NotCnm)),
        }
    } else {
        // Garbage, often with a CNM's type somewhere in the chain.
        let n = rng.gen_range(0..130);
        let mut b = rand_bytes(rng, n);
        if n >= 26 && rng.gen_bool(0.6) {
            let k = rng.gen_range(0..4);
            let types = [0x88A8u16, 0x8100, 0x22E9];
            for j in 0..k {
                let t = types[rng.gen_range(0..3)];
                b[12 + 4 * j..14 + 4 * j].copy_from_slice(&t.to_be_bytes());
            }
            b[12 + 4 * k..14 + 4 * k].copy_from_slice(&w::ETHERTYPE_CNM.to_be_bytes());
            if rng.gen_bool(0.5) && n >= 14 + 4 * k + 2 {
                b[14 + 4 * k] &= 0x0F;
            }
        }
        Frame {
            bytes: b,
            bad_fcs: false,
            want: None,
        }
    };
    if rng.gen_bool(0.1) {
        fr.bad_fcs = true;
        fr.want = fr.want.map(|w| match w {
            Err(CnmDrop::NotCnm) => Err(CnmDrop::NotCnm),
            _ => Err(CnmDrop::BadFcs),
        });
    }
    fr
}

// ---------------------------------------------------------------------
// Streams.

/// A stimulus, and for each frame the cycle of its last beat.
struct Stim {
    ins: Vec<In>,
    frames: Vec<(usize, Frame)>,
}

/// Frames as MAC beats (8 bytes a beat, the last beat's `tkeep` up to its
/// last byte, now and then odd: holes below the top lane, or an extra
/// empty beat), with gaps (`tvalid` low, junk on the other inputs) one
/// cycle in `gap_in`, and the consumer ready with `ready` percent.
fn stim(seed: u64, cycles: usize, gap_in: u32, ready: u32) -> Stim {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut ins = Vec::with_capacity(cycles + 200);
    let mut frames = Vec::new();
    let junk = |rng: &mut SmallRng, ready: bool| In {
        rx: Axis {
            tdata: rng.gen(),
            tkeep: rng.gen(),
            tlast: rng.gen(),
            tuser: rng.gen(),
            tvalid: false,
        },
        cnm_ready: ready,
    };
    while ins.len() < cycles {
        let fr = random_frame(&mut rng);
        let b = &fr.bytes;
        let empty_tail = (b.len() % 8 == 0 && rng.gen_bool(0.05)) || b.is_empty();
        let nbeats = b.len().div_ceil(8) + empty_tail as usize;
        for k in 0..nbeats {
            while gap_in > 0 && rng.gen_ratio(1, gap_in) {
                let r = rng.gen_range(0..100) < ready;
                ins.push(junk(&mut rng, r));
            }
            let last = k + 1 == nbeats;
            let mut lanes: [u8; 8] = rng.gen();
            let lo = (8 * k).min(b.len());
            let hi = (8 * k + 8).min(b.len());
            lanes[..hi - lo].copy_from_slice(&b[lo..hi]);
            let n = hi - lo;
            let keep = if !last {
                if rng.gen_bool(0.05) {
                    rng.gen()
                } else {
                    0xFF
                }
            } else if n == 0 {
                0
            } else {
                let top = 1u8 << (n - 1);
                let full = ((1u16 << n) - 1) as u8;
                if rng.gen_bool(0.1) {
                    top | (rng.gen::<u8>() & (top - 1))
                } else {
                    full
                }
            };
            ins.push(In {
                rx: Axis {
                    tdata: u64::from_le_bytes(lanes),
                    tkeep: keep,
                    tlast: last,
                    tuser: if last { fr.bad_fcs } else { rng.gen() },
                    tvalid: true,
                },
                cnm_ready: rng.gen_range(0..100) < ready,
            });
        }
        frames.push((ins.len() - 1, fr));
    }
    // Drain: the last verdicts reach the ports.
    for _ in 0..LATENCY + 2 {
        let r = rng.gen_range(0..100) < ready;
        ins.push(junk(&mut rng, r));
    }
    Stim { ins, frames }
}

fn counters(o: &Out) -> [u32; 7] {
    let s = &o.stats;
    [
        s.cnms,
        s.roce,
        s.bad_fcs,
        s.trunc,
        s.bad_version,
        s.bad_len,
        s.dropped,
    ]
}

/// The ports, frame by frame, against `parse_cnm` and the generator's
/// intent: a frame whose last beat is in cycle T changes the ports in
/// T + LATENCY exactly as its parse says (a new record, or a counter, or
/// nothing), and nothing else changes them.
fn check_frames(s: &Stim, outs: &[Out]) -> Result<(), TestCaseError> {
    let mut verdict = vec![None; outs.len()];
    for (t, fr) in &s.frames {
        let p = parse_cnm(&fr.bytes, fr.bad_fcs);
        if let Some(w) = &fr.want {
            prop_assert_eq!(&p, w, "frame ending at {}: {:02x?}", t, fr.bytes);
        }
        verdict[t + LATENCY] = Some(p);
    }
    for c in 1..outs.len() {
        let (o, prev) = (&outs[c], &outs[c - 1]);
        let taken_prev = prev.cnm_valid && s.ins[c - 1].cnm_ready;
        let new_rec = o.cnm_valid && (!prev.cnm_valid || taken_prev);
        let mut d = [0u32; 7];
        for (k, (a, b)) in counters(o).iter().zip(counters(prev)).enumerate() {
            d[k] = a.wrapping_sub(b);
        }
        if !o.cnm_valid {
            prop_assert_eq!(
                o.cnm,
                CnmInfo::default(),
                "cycle {}: fields while not valid",
                c
            );
        }
        let want_d = match &verdict[c] {
            None | Some(Err(CnmDrop::NotCnm)) => {
                prop_assert!(!new_rec, "cycle {}: a record from nothing", c);
                [0; 7]
            }
            Some(Ok(info)) => {
                let dropped = prev.cnm_valid && !taken_prev;
                prop_assert_eq!(new_rec, !dropped, "cycle {}", c);
                if new_rec {
                    prop_assert_eq!(&o.cnm, info, "cycle {}", c);
                }
                [1, info.qp_valid as u32, 0, 0, 0, 0, dropped as u32]
            }
            Some(Err(e)) => {
                prop_assert!(!new_rec, "cycle {}", c);
                let k = match e {
                    CnmDrop::BadFcs => 2,
                    CnmDrop::Trunc => 3,
                    CnmDrop::BadVersion => 4,
                    _ => 5,
                };
                let mut v = [0; 7];
                v[k] = 1;
                v
            }
        };
        prop_assert_eq!(d, want_d, "cycle {}: counter changes", c);
    }
    Ok(())
}

fn params() -> impl Strategy<Value = (u64, u32, u32)> {
    (
        any::<u64>(),
        prop_oneof![Just(0u32), Just(2), Just(8)],
        prop_oneof![Just(100u32), 0u32..=100],
    )
}

proptest! {
    #![proptest_config(config(12))]
    /// Both engines, 3000 cycles of mixed frames: every port, every cycle,
    /// and the ports frame by frame against `parse_cnm`.
    #[test]
    fn cnm_rx_matches_golden((seed, gap, ready) in params()) {
        let s = stim(seed, 3000, gap, ready);
        let outs = both::<CnmRx, Golden>("cnm_rx", &s.ins)?;
        check_frames(&s, &outs)?;
    }
}

proptest! {
    #![proptest_config(config(4))]
    /// Verilator, 50 000 cycles.
    #[test]
    fn cnm_rx_long_matches_golden_verilator((seed, gap, ready) in params()) {
        let s = stim(seed, 50_000, gap, ready);
        let outs = verilator::<CnmRx, Golden>("cnm_rx", &s.ins)?;
        check_frames(&s, &outs)?;
    }
}

proptest! {
    #![proptest_config(config(64))]
    /// The parser (no simulation): every generated frame gives what it was
    /// built to give, and the twin's ports agree frame by frame.
    #[test]
    fn parse_cnm_gives_what_each_frame_was_built_for((seed, gap, ready) in params()) {
        let s = stim(seed, 4000, gap, ready);
        let mut g = Golden::default();
        let outs: Vec<Out> = s.ins.iter().map(|i| g.step(i)).collect();
        check_frames(&s, &outs)?;
        // Every verdict occurs in a run this long.
        let c = counters(outs.last().unwrap());
        prop_assert!(c[..6].iter().all(|&n| n > 0), "{:?}", c);
    }
}

#[test]
fn cnm_rx_no_x_in_four_state_simulation() {
    let s = stim(0xC11, 3000, 4, 70);
    four_state::<CnmRx, Golden>("cnm_rx", &s.ins);
}

/// Every CNM form, every cut: the twin's verdict is the parser's, and
/// `parse_cnm` never panics on a prefix.
#[test]
fn every_cut_of_every_form() {
    let mut rng = SmallRng::seed_from_u64(3);
    for tags in 0..8u8 {
        let (mut c, info) = good_cnm(&mut rng);
        c.s_tag = (tags & 1 != 0).then_some(0x0005);
        c.c_tag = (tags & 2 != 0).then_some(0xA00A);
        c.rpid = (tags & 4 != 0).then_some(0x1234);
        let info = CnmInfo {
            cn_tag: c.rpid.is_some(),
            rpid: c.rpid.unwrap_or(0),
            ..info
        };
        let full = encode_cnm(&c);
        let p = pdu_off(&c);
        for cut in 0..=full.len() {
            let got = parse_cnm(&full[..cut], false);
            let want = if cut < p {
                Err(CnmDrop::NotCnm)
            } else if cut < p + 24 + c.msdu.len() {
                Err(CnmDrop::Trunc)
            } else {
                Ok(info)
            };
            assert_eq!(got, want, "tags {tags:03b}, cut {cut}");
        }
    }
}

/// A consumer that never takes: the first good CNM waits in the slot,
/// every later one is dropped and counted, the bad ones are still counted
/// by reason, and no record is lost once the consumer takes again.
#[test]
fn a_busy_consumer_drops_and_counts() {
    let mut rng = SmallRng::seed_from_u64(9);
    let mut frames = Vec::new();
    for _ in 0..40 {
        let (c, info) = good_cnm(&mut rng);
        frames.push((encode_cnm(&c), info));
    }
    let beats = |f: &[u8], ready: bool| -> Vec<In> {
        frame_beats(f)
            .map(|rx| In {
                rx,
                cnm_ready: ready,
            })
            .collect()
    };
    let mut ins = Vec::new();
    for (f, _) in &frames[..20] {
        ins.extend(beats(f, false));
    }
    // A bad one too: counted by reason while the slot is full.
    let (mut c, _) = good_cnm(&mut rng);
    c.version = 3;
    ins.extend(beats(&encode_cnm(&c), false));
    for (f, _) in &frames[20..] {
        ins.extend(beats(f, true));
    }
    ins.extend((0..4).map(|_| In {
        cnm_ready: true,
        ..In::default()
    }));
    let mut g = Golden::default();
    let o: Vec<Out> = ins.iter().map(|i| g.step(i)).collect();
    let end = o.last().unwrap().stats;
    assert_eq!(end.cnms, 40);
    assert_eq!(end.dropped, 19);
    assert_eq!(end.bad_version, 1);
    // Records seen: the first frame's (held, then taken), then frames 20..40.
    let mut got = Vec::new();
    for c in 0..o.len() {
        let taken_prev = c > 0 && o[c - 1].cnm_valid && ins[c - 1].cnm_ready;
        if o[c].cnm_valid && (c == 0 || !o[c - 1].cnm_valid || taken_prev) {
            got.push(o[c].cnm);
        }
    }
    let want: Vec<CnmInfo> = std::iter::once(frames[0].1)
        .chain(frames[20..].iter().map(|f| f.1))
        .collect();
    assert_eq!(got, want);
    let rtl = both::<CnmRx, Golden>("cnm_rx", &ins).unwrap();
    assert_eq!(rtl, o);
}

/// The latency, from the ports: a CNM's record LATENCY (3) cycles after its last
/// beat, and held until taken.
#[test]
fn latency_and_hold() {
    let c = Cnm {
        c_tag: Some(0x6001),
        qntz_fb: 9,
        ..Cnm::default()
    };
    let f = encode_cnm(&c);
    let mut ins: Vec<In> = frame_beats(&f)
        .map(|rx| In {
            rx,
            ..In::default()
        })
        .collect();
    let last = ins.len() - 1;
    ins.extend((0..6).map(|k| In {
        cnm_ready: k == 4,
        ..In::default()
    }));
    let mut g = Golden::default();
    let o: Vec<Out> = ins.iter().map(|i| g.step(i)).collect();
    let first = o.iter().position(|o| o.cnm_valid).unwrap();
    assert_eq!(first, last + LATENCY);
    assert_eq!(o[first].cnm.qntz_fb, 9);
    assert_eq!(o[first].stats.cnms, 1);
    // Held while not ready; taken in the cycle `ready` is high (last + 5).
    assert!(o[first..=last + 5].iter().all(|o| o.cnm_valid));
    assert!(!o[last + 6].cnm_valid);
    // The same on the RTL (both engines).
    let rtl = both::<CnmRx, Golden>("cnm_rx", &ins).unwrap();
    assert_eq!(rtl, o);
}

// ---------------------------------------------------------------------
// tshark.

/// A classic pcap file of Ethernet frames (no FCS).
fn write_pcap(path: &std::path::Path, frames: &[Vec<u8>]) {
    let mut b = Vec::new();
    b.extend(0xA1B2_C3D4u32.to_le_bytes());
    b.extend(2u16.to_le_bytes());
    b.extend(4u16.to_le_bytes());
    b.extend([0u8; 8]);
    b.extend(65535u32.to_le_bytes());
    b.extend(1u32.to_le_bytes()); // LINKTYPE_ETHERNET
    for (k, f) in frames.iter().enumerate() {
        b.extend((k as u32).to_le_bytes());
        b.extend(0u32.to_le_bytes());
        b.extend((f.len() as u32).to_le_bytes());
        b.extend((f.len() as u32).to_le_bytes());
        b.extend(f);
    }
    std::fs::write(path, b).unwrap();
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// tshark (Wireshark 4.0, as `scripts/deps.sh sim` installs it) reads the
/// encoder's CNMs as well-formed Ethernet frames with the tags where they
/// were put, the CNM EtherType 0x22E7 after them, and the PDU bytes in the
/// field order of `nic_spec::cnm`, written here from the fields. Wireshark
/// has no dissector for 0x22E7 or 0x22E9 (both "Unknown"): it checks the
/// L2 framing and where the PDU starts, not the PDU's fields; with a
/// CN-TAG its data starts at the RPID.
#[test]
fn tshark_reads_the_encoded_cnms() {
    let mut rng = SmallRng::seed_from_u64(0x22E7);
    let mut cnms = Vec::new();
    for tags in 0..8u8 {
        for _ in 0..3 {
            let (mut c, _) = good_cnm(&mut rng);
            c.s_tag = (tags & 1 != 0).then_some(rng.gen_range(1..4095));
            c.c_tag = (tags & 2 != 0).then_some(rng.gen_range(1..4095) | 0xA000);
            c.rpid = (tags & 4 != 0).then(|| rng.gen());
            cnms.push(c);
        }
    }
    let frames: Vec<Vec<u8>> = cnms.iter().map(encode_cnm).collect();
    let dir = std::env::temp_dir().join(format!("nic-cnm-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pcap = dir.join("cnm.pcap");
    write_pcap(&pcap, &frames);
    let fields = [
        "frame.len",
        "frame.protocols",
        "eth.dst",
        "eth.src",
        "eth.type",
        "ieee8021ad.id",
        "vlan.id",
        "vlan.etype",
        "data.data",
        "_ws.malformed",
        "_ws.expert",
    ];
    let mut args = vec![
        "-r",
        pcap.to_str().unwrap(),
        "-T",
        "fields",
        "-E",
        "separator=;",
    ];
    for f in fields {
        args.extend(["-e", f]);
    }
    let o = std::process::Command::new("tshark")
        .args(&args)
        .output()
        .unwrap_or_else(|e| {
            panic!("cannot run tshark ({e}): install it with `scripts/deps.sh sim`")
        });
    assert!(
        o.status.success(),
        "tshark: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let out = String::from_utf8(o.stdout).unwrap();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), cnms.len(), "{out}");
    let macs = |m: &[u8; 6]| {
        m.iter()
            .map(|x| format!("{x:02x}"))
            .collect::<Vec<_>>()
            .join(":")
    };
    for (k, (c, line)) in cnms.iter().zip(&lines).enumerate() {
        let v: Vec<&str> = line.split(';').collect();
        assert_eq!(v.len(), fields.len(), "{line}");
        assert_eq!(v[0], frames[k].len().to_string(), "{k}: {line}");
        let mut protos = String::from("eth:ethertype");
        if c.s_tag.is_some() {
            protos += ":ieee8021ad:ethertype";
        }
        if c.c_tag.is_some() {
            protos += ":vlan:ethertype";
        }
        protos += ":data";
        assert_eq!(v[1], protos, "{k}: {line}");
        assert_eq!(v[2], macs(&c.dmac), "{k}");
        assert_eq!(v[3], macs(&c.smac), "{k}");
        let first = match (c.s_tag, c.c_tag, c.rpid) {
            (Some(_), _, _) => "0x88a8",
            (None, Some(_), _) => "0x8100",
            (None, None, Some(_)) => "0x22e9",
            _ => "0x22e7",
        };
        assert_eq!(v[4], first, "{k}: {line}");
        assert_eq!(
            v[5],
            c.s_tag.map_or(String::new(), |t| (t & 0xFFF).to_string()),
            "{k}: {line}"
        );
        if let Some(t) = c.c_tag {
            assert_eq!(v[6], (t & 0xFFF).to_string(), "{k}: {line}");
            let inner = if c.rpid.is_some() { "0x22e9" } else { "0x22e7" };
            assert_eq!(v[7], inner, "{k}: {line}");
        }
        // The PDU, field by field as `nic_spec::cnm` orders them.
        let mut pdu = Vec::new();
        pdu.extend(((c.reserved as u16) << 6 | c.qntz_fb as u16).to_be_bytes());
        pdu.extend(c.cpid.to_be_bytes());
        pdu.extend(c.qoffset.to_be_bytes());
        pdu.extend(c.qdelta.to_be_bytes());
        pdu.extend(c.encap_prio.to_be_bytes());
        pdu.extend(c.encap_da);
        pdu.extend(c.msdu_len.to_be_bytes());
        pdu.extend(&c.msdu);
        let mut data = Vec::new();
        if let Some(r) = c.rpid {
            data.extend(r.to_be_bytes());
            data.extend(w::ETHERTYPE_CNM.to_be_bytes());
        }
        data.extend(&pdu);
        let d = v[8];
        assert!(d.starts_with(&hex(&data)), "{k}: {d} vs {}", hex(&data));
        assert!(
            d[hex(&data).len()..].chars().all(|x| x == '0'),
            "{k}: padding"
        );
        assert_eq!((v[9], v[10]), ("", ""), "{k}: malformed or expert: {line}");
        // And the tap's parser reads back what was encoded.
        let r = parse_cnm(&frames[k], false).expect("a good CNM");
        assert_eq!(
            (r.cpid, r.msdu_len, r.rpid),
            (c.cpid, c.msdu_len, c.rpid.unwrap_or(0))
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
