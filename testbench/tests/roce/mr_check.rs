//! `hdl/src/roce/mr_check.rs` against `nic_golden::roce::mr_check`, and
//! the verdicts on the attacks issue 52 lists, against the reference
//! check `nic_spec::mr::verdict_of`.

use crate::common::*;
use nic_golden::roce::mr_check::{In, MrCheck as Golden, Out};
use nic_golden::roce::{FlowPd, MrWrite, RxMeta};
use nic_hdl::roce::mr_check::MrCheck;
use nic_spec::mr::{self, right, verdict, Region};
use nic_spec::roce::op;
use proptest::prelude::*;
use rand::{rngs::StdRng, Rng, SeedableRng};

/// 16 flows, 4 regions.
type Rtl = MrCheck<4, 2>;
type Twin = Golden<4, 2>;

/// A region near the edges of the address space.
fn random_region(rng: &mut StdRng, index: u32) -> Region {
    let base = match rng.gen_range(0..4) {
        0 => 0,
        1 => 0x1000 * rng.gen_range(1..4u64),
        2 => u64::MAX - rng.gen_range(0..0x2000u64),
        _ => rng.gen(),
    };
    let len = match rng.gen_range(0..4) {
        0 => 0x1000,
        1 => rng.gen_range(0..0x400u64),
        2 => 0u64.wrapping_sub(base), // up to 2^64 exactly
        _ => rng.gen(),               // often past 2^64: refused
    };
    Region {
        base,
        len,
        rkey: mr::rkey(index, rng.gen()),
        pd: rng.gen_range(0..3),
        rights: rng.gen_range(0..4),
    }
}

fn write_of(index: u8, active: bool, r: &Region) -> MrWrite {
    MrWrite {
        index,
        active,
        clear: false,
        rights: r.rights,
        pd: r.pd,
        rkey: r.rkey,
        base: r.base,
        len: r.len,
    }
}

/// A record aimed at one of `regions` (or at none): RETH opcodes mostly,
/// VAs and lengths around the region's edges.
fn random_meta(rng: &mut StdRng, regions: &[Region]) -> RxMeta {
    let r = regions[rng.gen_range(0..regions.len())];
    let opcode = match rng.gen_range(0..8) {
        0 | 1 => op::WRITE_FIRST,
        2 | 3 => op::WRITE_ONLY,
        4 | 5 => op::READ_REQ,
        6 => [op::WRITE_MIDDLE, op::ACK, op::CNP, op::READ_RESP_ONLY][rng.gen_range(0..4)],
        _ => rng.gen(),
    };
    let dlen: u32 = match rng.gen_range(0..4) {
        0 => 0,
        1 => rng.gen_range(1..64),
        2 => rng.gen_range(0..0x1400),
        _ => rng.gen(),
    };
    let end = r.base.wrapping_add(r.len);
    let va = match rng.gen_range(0..6) {
        0 => r.base,
        1 => r.base.wrapping_sub(8),
        2 => end.wrapping_sub(dlen as u64),
        3 => end.wrapping_sub(dlen as u64).wrapping_add(8),
        4 => r.base.wrapping_add(rng.gen_range(0..0x800)),
        _ => rng.gen(),
    };
    let len = if opcode == op::READ_REQ {
        0
    } else {
        match rng.gen_range(0..4) {
            0 => dlen.min(0x1000) as u16,
            1 => dlen.min(0x1000) as u16 + 8,
            _ => rng.gen_range(0..0x2000),
        }
    };
    let rkey = match rng.gen_range(0..5) {
        0 => r.rkey ^ 1,
        1 => rng.gen(),
        _ => r.rkey,
    };
    RxMeta {
        opcode,
        qp: if rng.gen_bool(0.05) {
            rng.gen_range(16..40)
        } else {
            rng.gen_range(0..16)
        },
        psn: rng.gen(),
        ackreq: rng.gen(),
        len,
        va,
        rkey,
        dlen,
        aeth: rng.gen(),
        ce: rng.gen(),
        mr: rng.gen_range(0..4),
        tlm: Default::default(),
    }
}

/// A run: the table and the flows' domains first, then records with
/// table and domain writes among them, a rare reset, and a dispatcher
/// that takes the records often or rarely.
fn stimulus(seed: u64, n: usize, p_ready: f64, p_write: f64) -> Vec<In> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut regions: Vec<Region> = (0..4).map(|i| random_region(&mut rng, i)).collect();
    let mut s: Vec<In> = regions
        .iter()
        .enumerate()
        .map(|(i, r)| In {
            mr_valid: true,
            mr: write_of(i as u8, true, r),
            ..Default::default()
        })
        .collect();
    s.extend((0..16).map(|f| In {
        pd_valid: true,
        pd: FlowPd {
            flow: f,
            pd: rng.gen_range(0..3),
        },
        ..Default::default()
    }));
    for _ in 0..n {
        let mut i = In {
            meta_valid: rng.gen_bool(0.7),
            meta: random_meta(&mut rng, &regions),
            out_ready: rng.gen_bool(p_ready),
            reset: rng.gen_bool(0.003),
            ..Default::default()
        };
        if rng.gen_bool(p_write) {
            let ix = rng.gen_range(0..6u8); // 4, 5: outside the table
            let r = random_region(&mut rng, ix as u32 & 3);
            if ix < 4 {
                regions[ix as usize] = r;
            }
            i.mr_valid = true;
            i.mr = write_of(ix, rng.gen_bool(0.8), &r);
            i.mr.clear = rng.gen_bool(0.02);
            if i.mr.clear {
                regions.iter_mut().for_each(|r| r.rkey ^= 0x80);
            }
        }
        if rng.gen_bool(p_write) {
            i.pd_valid = true;
            i.pd = FlowPd {
                flow: rng.gen(),
                pd: rng.gen_range(0..3),
            };
        }
        s.push(i);
    }
    s
}

proptest! {
    #![proptest_config(config(8))]
    /// Random records around region edges, table rewrites, invalidations,
    /// refused writes and domain changes, under random back-pressure:
    /// every port on every cycle, on both engines; every record out is
    /// one that went in, in order, with only its verdict changed.
    #[test]
    fn mr_check_matches_golden(
        seed in any::<u64>(), n in 50usize..400, p_ready in 0.2f64..1.0, p_write in 0.0f64..0.1,
    ) {
        let s = stimulus(seed, n, p_ready, p_write);
        let out = both::<Rtl, Twin>("mr_check", &s)?;
        let taken: Vec<RxMeta> = s.iter().zip(&out)
            .filter(|(i, o)| i.meta_valid && o.meta_ready && !i.reset)
            .map(|(i, _)| i.meta).collect();
        let given: Vec<RxMeta> = s.iter().zip(&out)
            .filter(|(i, o)| o.out_valid && i.out_ready && !i.reset)
            .map(|(_, o)| o.out).collect();
        prop_assert!(given.len() <= taken.len());
        if !s.iter().any(|i| i.reset) {
            for (t, g) in taken.iter().zip(&given) {
                prop_assert_eq!(RxMeta { mr: g.mr, qp: t.qp & 0xFF_FFFF, psn: t.psn & 0xFF_FFFF, len: t.len & 0x1FFF, ..*t }, *g);
            }
        }
    }
}

/// Drives `records` one at a time through a table holding `regions`
/// (entry i = regions[i]) and flows 0..16 in domain 1; the verdict and
/// the counters after each, from both engines (checked against the twin).
fn verdicts(regions: &[Region], records: &[RxMeta]) -> (Vec<u8>, Out) {
    let mut s: Vec<In> = regions
        .iter()
        .enumerate()
        .map(|(i, r)| In {
            mr_valid: true,
            mr: write_of(i as u8, true, r),
            ..Default::default()
        })
        .collect();
    s.extend((0..16).map(|f| In {
        pd_valid: true,
        pd: FlowPd { flow: f, pd: 1 },
        ..Default::default()
    }));
    s.extend([In::default(), In::default()]);
    for m in records {
        s.push(In {
            meta_valid: true,
            meta: *m,
            out_ready: true,
            ..Default::default()
        });
        s.extend((0..8).map(|_| In {
            out_ready: true,
            ..Default::default()
        }));
    }
    let out = both::<Rtl, Twin>("mr_check_attacks", &s).unwrap();
    let v: Vec<u8> = out
        .iter()
        .filter(|o| o.out_valid)
        .map(|o| o.out.mr)
        .collect();
    (v, *out.last().unwrap())
}

/// The attacks of issue 52, each refused with the right verdict and
/// counted by reason; valid requests between them granted; the verdicts
/// are the reference check's.
#[test]
fn attacks_are_refused_and_valid_requests_granted() {
    let rw = Region {
        base: 0x10_0000,
        len: 0x1000,
        rkey: mr::rkey(0, 0x5A),
        pd: 1,
        rights: right::REMOTE_WRITE,
    };
    let ro = Region {
        base: 0x20_0000,
        len: 0x1000,
        rkey: mr::rkey(1, 0x11),
        pd: 1,
        rights: right::REMOTE_READ,
    };
    let top = Region {
        base: u64::MAX - 0xFFF,
        len: 0x1000, // ends at 2^64 exactly
        rkey: mr::rkey(2, 0x22),
        pd: 1,
        rights: right::REMOTE_WRITE | right::REMOTE_READ,
    };
    let other_pd = Region {
        pd: 2,
        rkey: mr::rkey(3, 0x33),
        ..rw
    };
    let regions = [rw, ro, top, other_pd];
    let w = |op_: u8, va: u64, rkey: u32, dlen: u32, len: u16| RxMeta {
        opcode: op_,
        qp: 3,
        va,
        rkey,
        dlen,
        len,
        ..Default::default()
    };
    let cases: Vec<(RxMeta, u8, &str)> = vec![
        (
            w(op::WRITE_ONLY, 0x10_0000, rw.rkey, 64, 64),
            verdict::GRANTED,
            "valid WRITE",
        ),
        (
            w(op::WRITE_ONLY, 0x10_0000, rw.rkey ^ 0x80, 64, 64),
            verdict::ACCESS,
            "wrong R_Key tag",
        ),
        (
            w(op::WRITE_ONLY, 0x10_0000, mr::rkey(3, 0x5A), 64, 64),
            verdict::ACCESS,
            "another entry's index",
        ),
        (
            w(op::WRITE_ONLY, 0x0F_FFF8, rw.rkey, 64, 64),
            verdict::ACCESS,
            "VA before the region",
        ),
        (
            w(op::WRITE_FIRST, 0x10_0F00, rw.rkey, 0x108, 64),
            verdict::ACCESS,
            "VA + length past the end",
        ),
        (
            w(op::WRITE_FIRST, 0x10_0F00, rw.rkey, 0x100, 64),
            verdict::GRANTED,
            "up to the end",
        ),
        (
            w(op::WRITE_ONLY, u64::MAX - 7, top.rkey, 16, 16),
            verdict::ACCESS,
            "wrap-around at 2^64",
        ),
        (
            w(op::WRITE_ONLY, u64::MAX - 7, top.rkey, 8, 8),
            verdict::GRANTED,
            "the last 8 bytes",
        ),
        (
            w(op::WRITE_ONLY, 0x20_0000, ro.rkey, 64, 64),
            verdict::ACCESS,
            "WRITE to a read-only region",
        ),
        (
            w(op::READ_REQ, 0x10_0000, rw.rkey, 64, 0),
            verdict::ACCESS,
            "READ of a write-only region",
        ),
        (
            w(op::READ_REQ, 0x20_0000, ro.rkey, 0x1000, 0),
            verdict::GRANTED,
            "valid READ",
        ),
        (
            w(op::WRITE_ONLY, 0x10_0000, other_pd.rkey, 64, 64),
            verdict::ACCESS,
            "another domain",
        ),
        (
            w(op::WRITE_FIRST, 0x10_0000, rw.rkey, 64, 72),
            verdict::INVALID,
            "payload past the DMA length",
        ),
        (
            w(op::WRITE_ONLY, 0, 0, 0, 0),
            verdict::GRANTED,
            "zero length, no key",
        ),
        (
            w(op::WRITE_MIDDLE, 0xDEAD, 0, 0, 64),
            verdict::GRANTED,
            "MIDDLE: no RETH, not checked here",
        ),
        (
            RxMeta {
                qp: 99,
                ..w(op::WRITE_ONLY, 0x10_0000, rw.rkey, 64, 64)
            },
            verdict::ACCESS,
            "flow outside the table",
        ),
    ];
    let records: Vec<RxMeta> = cases.iter().map(|c| c.0).collect();
    let (got, last) = verdicts(&regions, &records);
    assert_eq!(got.len(), cases.len());
    for ((m, want, what), got) in cases.iter().zip(&got) {
        assert_eq!(got, want, "{what}");
        if nic_spec::roce::has_reth(m.opcode) && m.opcode != op::CNP {
            let region = regions.get(mr::key_index(m.rkey, 2) as usize);
            let pd = (m.qp < 16).then_some(1);
            let reference = mr::verdict_of(
                m.opcode != op::READ_REQ,
                m.len as u32,
                m.va,
                m.rkey,
                m.dlen,
                pd,
                region,
            );
            assert_eq!(reference.0, *want, "reference: {what}");
        }
    }
    let st = last.stats;
    assert_eq!(
        (
            st.granted,
            st.bad_len,
            st.bad_key,
            st.bad_pd,
            st.bad_right,
            st.bad_range,
            st.bad_mr
        ),
        (5, 1, 2, 2, 2, 3, 0)
    );
}

/// Writes the table refuses: an index outside it, a region past 2^64.
/// An invalidation then refuses the entry's key; registered again it is
/// granted; a clear (every entry) refuses it again.
#[test]
fn refused_table_writes_and_invalidation() {
    let r = Region {
        base: 0x1000,
        len: 0x1000,
        rkey: mr::rkey(1, 1),
        pd: 0,
        rights: 3,
    };
    let mut s = vec![
        In {
            mr_valid: true,
            mr: write_of(1, true, &r),
            ..Default::default()
        },
        In {
            mr_valid: true,
            mr: write_of(4, true, &r),
            ..Default::default()
        },
        In {
            mr_valid: true,
            mr: write_of(
                1,
                true,
                &Region {
                    base: 2,
                    len: u64::MAX,
                    ..r
                },
            ),
            ..Default::default()
        },
        In::default(),
        In::default(),
    ];
    let m = RxMeta {
        opcode: op::WRITE_ONLY,
        qp: 0,
        va: 0x1000,
        rkey: r.rkey,
        dlen: 8,
        len: 8,
        ..Default::default()
    };
    let send = |s: &mut Vec<In>| {
        s.push(In {
            meta_valid: true,
            meta: m,
            out_ready: true,
            ..Default::default()
        });
        s.extend((0..8).map(|_| In {
            out_ready: true,
            ..Default::default()
        }));
    };
    send(&mut s);
    s.push(In {
        mr_valid: true,
        mr: write_of(1, false, &r),
        ..Default::default()
    });
    s.extend([In::default(), In::default()]);
    send(&mut s);
    s.push(In {
        mr_valid: true,
        mr: write_of(1, true, &r),
        ..Default::default()
    });
    s.extend([In::default(), In::default()]);
    send(&mut s);
    let clear = MrWrite {
        clear: true,
        ..write_of(1, true, &r)
    };
    s.push(In {
        mr_valid: true,
        mr: clear,
        ..Default::default()
    });
    s.extend([In::default(), In::default()]);
    send(&mut s);
    let out = both::<Rtl, Twin>("mr_check_table", &s).unwrap();
    let v: Vec<u8> = out
        .iter()
        .filter(|o| o.out_valid)
        .map(|o| o.out.mr)
        .collect();
    assert_eq!(
        v,
        [
            verdict::GRANTED,
            verdict::ACCESS,
            verdict::GRANTED,
            verdict::ACCESS
        ]
    );
    let st = out.last().unwrap().stats;
    assert_eq!((st.granted, st.bad_key, st.bad_mr), (2, 2, 2));
}

/// The timing the doc comment gives: an unchecked record out 2 cycles
/// after its acceptance, a checked one 6; `ready` low from acceptance
/// until the cycle after the output is taken; a write to the entry being
/// read repeats the read.
#[test]
fn latency_and_collision() {
    let r = Region {
        base: 0,
        len: 0x1000,
        rkey: mr::rkey(0, 0),
        pd: 0,
        rights: 3,
    };
    let chk = RxMeta {
        opcode: op::WRITE_ONLY,
        va: 0,
        rkey: r.rkey,
        dlen: 8,
        len: 8,
        ..Default::default()
    };
    let ack = RxMeta {
        opcode: op::ACK,
        ..Default::default()
    };
    let mut s = vec![
        In {
            mr_valid: true,
            mr: write_of(0, true, &r),
            ..Default::default()
        },
        In::default(),
        In::default(),
    ];
    let t0 = s.len();
    s.push(In {
        meta_valid: true,
        meta: ack,
        out_ready: true,
        ..Default::default()
    });
    s.extend((0..3).map(|_| In {
        out_ready: true,
        ..Default::default()
    }));
    let t1 = s.len();
    s.push(In {
        meta_valid: true,
        meta: chk,
        out_ready: true,
        ..Default::default()
    });
    s.extend((0..7).map(|_| In {
        out_ready: true,
        ..Default::default()
    }));
    let t2 = s.len();
    s.push(In {
        meta_valid: true,
        meta: chk,
        out_ready: true,
        ..Default::default()
    });
    // Its Read is t2 + 1; a strobe at t2 writes entry 0 in t2 + 1.
    s[t2].mr_valid = true;
    s[t2].mr = write_of(0, false, &r);
    s.extend((0..8).map(|_| In {
        out_ready: true,
        ..Default::default()
    }));
    let out = both::<Rtl, Twin>("mr_check_timing", &s).unwrap();
    let valid: Vec<usize> = (0..out.len()).filter(|&c| out[c].out_valid).collect();
    assert_eq!(valid, [t0 + 2, t1 + 6, t2 + 7]);
    assert_eq!(
        out[t2 + 7].out.mr,
        verdict::ACCESS,
        "the invalidation is seen"
    );
    assert!(!out[t1 + 1].meta_ready && !out[t1 + 6].meta_ready && out[t1 + 7].meta_ready);
}
