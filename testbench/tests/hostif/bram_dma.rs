//! `hdl/src/hostif/bram_dma.rs` against `nic_golden::hostif::bram_dma`.
//!
//! A closed loop on the twin records the stimulus: read and write
//! descriptors at any byte alignment and length (some outside the
//! memory, some zero-length), write bursts with holes in `tkeep` and
//! some of the wrong length, host reads and writes (some unaligned, some
//! outside), random back-pressure and gaps, and, in one test, resets.
//! The loop checks the engine against a byte array of its own (not the
//! twin's memory): every h2c beat's valid lanes, `tkeep`, `tlast` and
//! `tuser`; every host answer; the counters; and at the end every byte
//! of the memory. Accesses that would race (a read of bytes a write in
//! flight changes, a host write into a DMA transfer in flight) are not
//! generated; after a reset the bytes of the write it cut are unknown.
//! Replayed on both engines.

use crate::common::*;
use nic_golden::hostif::bram_dma::{BramDma as Golden, In, Out};
use nic_golden::hostif::{DmaDesc, RegReq};
use nic_golden::stream::Axis;
use nic_golden::Cycle;
use nic_hdl::hostif::bram_dma::BramDma;
use nic_spec::hostif::resp;
use proptest::prelude::*;
use rand::{rngs::StdRng, Rng, SeedableRng};
use std::collections::VecDeque;

/// The tests' memory: 2^7 words, 1 KiB.
const M: usize = 7;
type G = Golden<M>;
const SIZE: u64 = 1 << (M + 3);

#[derive(Default, Debug, Clone, Copy, PartialEq)]
struct Counts {
    rd_descs: u32,
    wr_descs: u32,
    rd_range: u32,
    wr_range: u32,
    wr_len: u32,
    beats: u32,
    host: u32,
}

/// A byte range [lo, hi) of host addresses.
fn overlaps(a: (u64, u64), b: (u64, u64)) -> bool {
    a.0 < b.1 && b.0 < a.1
}

/// A descriptor: mostly inside the memory, some outside or empty.
fn pick_desc(rng: &mut StdRng) -> DmaDesc {
    let addr = rng.gen_range(0..SIZE);
    let len = match rng.gen_range(0..20) {
        0 => 0,
        1 => (SIZE - addr + rng.gen_range(1..40)) as u16,
        _ => rng.gen_range(1..=(SIZE - addr).min(160)) as u16,
    };
    let addr = if rng.gen_bool(0.03) {
        addr | rng.gen::<u64>() << 20
    } else {
        addr
    };
    DmaDesc {
        addr,
        len,
        tag: rng.gen(),
    }
}

fn in_memory(d: &DmaDesc) -> bool {
    d.addr < SIZE && d.addr + d.len as u64 <= SIZE
}

fn closed_loop(seed: u64, n: usize, resets: bool) -> (Vec<In>, Counts) {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut dut = G::default();
    let (p_rd, p_wr, p_host, p_ready, p_gap) = (
        rng.gen_range(0.02..0.3),
        rng.gen_range(0.02..0.3),
        rng.gen_range(0.0..0.2),
        rng.gen_range(0.3..1.0),
        rng.gen_range(0.0..0.4),
    );
    // The reference memory: None = unknown (a write cut by a reset).
    let mut mem: Vec<Option<u8>> = vec![Some(0); SIZE as usize];
    let mut c = Counts::default();
    let mut want = Counts::default();
    // Read offered, reads accepted with their expected beats
    // (data, valid lanes known, keep, last, user).
    let mut rd_offer: Option<DmaDesc> = None;
    let mut rd_live: VecDeque<((u64, u64), VecDeque<(u64, u8, u8, bool, bool)>)> = VecDeque::new();
    // Write offered (its beats: data, keep, last), the write in flight
    // (range; whether its tlast has been taken), its beats still to send.
    let mut wr_offer: Option<(DmaDesc, Vec<(u64, u8, bool)>)> = None;
    let mut wr_live: Option<((u64, u64), bool)> = None;
    let mut wr_live_bad = false;
    let mut c2h: VecDeque<(u64, u8, bool)> = VecDeque::new();
    // Host answers due next cycle: expected (rdata, known lanes), resp.
    let mut host_due: Option<(u32, u32, u8)> = None;
    let mut rec = Vec::with_capacity(n + 2000);
    for cycle in 0..(n as u64 + 4000) {
        let drain = cycle >= n as u64;
        if drain
            && rd_offer.is_none()
            && rd_live.is_empty()
            && wr_offer.is_none()
            && wr_live.is_none()
            && host_due.is_none()
        {
            break;
        }
        let reset = resets && !drain && rng.gen_bool(0.004);
        // The ranges a new access must not overlap.
        let wr_range = wr_live.map(|(r, _)| r);
        if !drain && rd_offer.is_none() && rng.gen_bool(p_rd) {
            let d = pick_desc(&mut rng);
            let r = (d.addr, d.addr.saturating_add(d.len as u64));
            let off_w = wr_offer
                .as_ref()
                .map(|(w, _)| (w.addr, w.addr.saturating_add(w.len as u64)));
            if !wr_range.is_some_and(|w| overlaps(w, r)) && !off_w.is_some_and(|w| overlaps(w, r)) {
                rd_offer = Some(d);
            }
        }
        // (After the read offered this cycle, if any.)
        let rd_ranges: Vec<(u64, u64)> = rd_live
            .iter()
            .map(|(r, _)| *r)
            .chain(rd_offer.map(|d| (d.addr, d.addr.saturating_add(d.len as u64))))
            .collect();
        if !drain && wr_offer.is_none() && rng.gen_bool(p_wr) {
            let d = pick_desc(&mut rng);
            let r = (d.addr, d.addr.saturating_add(d.len as u64));
            if !rd_ranges.iter().any(|&x| overlaps(x, r)) {
                let mut nb = (d.len as usize).div_ceil(8);
                if nb == 0 || rng.gen_bool(0.05) {
                    nb = (nb as i64 + rng.gen_range(-2..=2)).max(1) as usize;
                }
                let beats = (0..nb)
                    .map(|j| {
                        let keep = if rng.gen_bool(0.1) { rng.gen() } else { 0xFF };
                        (rng.gen::<u64>(), keep, j + 1 == nb)
                    })
                    .collect::<Vec<_>>();
                c2h.extend(beats.iter().copied());
                wr_offer = Some((d, beats));
            }
        }
        // A host access: not into a DMA transfer in flight.
        let mut req = RegReq::default();
        let mut req_valid = false;
        if !drain && host_due.is_none() && rng.gen_bool(p_host) {
            let addr: u16 = match rng.gen_range(0..10) {
                0 => rng.gen_range(SIZE as u16..=0xFFFF),
                1 => rng.gen_range(0..SIZE as u16),
                _ => rng.gen_range(0..SIZE as u16) & !3,
            };
            let r = (addr as u64 & !3, (addr as u64 & !3) + 4);
            let busy = rd_ranges
                .iter()
                .chain(wr_range.iter())
                .any(|&x| overlaps(x, r))
                || wr_offer.as_ref().is_some_and(|(w, _)| {
                    overlaps((w.addr, w.addr.saturating_add(w.len as u64)), r)
                });
            if !busy {
                req_valid = true;
                req = RegReq {
                    write: rng.gen(),
                    addr,
                    wdata: rng.gen(),
                    wstrb: rng.gen_range(0..16),
                };
            }
        }
        let i = In {
            reset,
            read_desc_valid: rd_offer.is_some(),
            read_desc: rd_offer.unwrap_or_default(),
            h2c_tready: rng.gen_bool(p_ready),
            write_desc_valid: wr_offer.is_some(),
            write_desc: wr_offer.as_ref().map(|w| w.0).unwrap_or_default(),
            c2h: Axis {
                tdata: c2h.front().map_or(0, |b| b.0),
                tkeep: c2h.front().map_or(0, |b| b.1),
                tlast: c2h.front().is_some_and(|b| b.2),
                tuser: rng.gen_bool(0.05),
                tvalid: !c2h.is_empty() && !rng.gen_bool(p_gap),
            },
            req_valid,
            req,
        };
        rec.push(i);
        let o: Out = dut.step(&i);

        // ---- The answers of this cycle against the reference.
        if let Some((data, known, code)) = host_due.take() {
            assert!(o.resp_valid, "seed {seed} cycle {cycle}: no host answer");
            assert_eq!(o.resp.resp, code, "seed {seed} cycle {cycle}: host resp");
            assert_eq!(
                o.resp.rdata & known,
                data & known,
                "seed {seed} cycle {cycle}: host rdata"
            );
            c.host += 1;
        } else {
            assert!(!o.resp_valid, "seed {seed} cycle {cycle}: a stray answer");
        }
        if o.h2c.tvalid && i.h2c_tready {
            let (_, beats) = rd_live.front_mut().expect("a beat with no read");
            let (data, known, keep, last, user) = beats.pop_front().unwrap();
            let m = (0..8)
                .filter(|k| known >> k & keep >> k & 1 == 1)
                .fold(0u64, |m, k| m | 0xFF << (8 * k));
            assert_eq!(
                (o.h2c.tdata & m, o.h2c.tkeep, o.h2c.tlast, o.h2c.tuser),
                (data & m, keep, last, user),
                "seed {seed} cycle {cycle}: h2c beat"
            );
            c.beats += 1;
            if beats.is_empty() {
                rd_live.pop_front();
            }
        }
        if reset {
            rd_live.clear();
            if let Some(((lo, hi), _)) = wr_live.take() {
                for b in lo..hi.min(SIZE) {
                    mem[b as usize] = None;
                }
            }
            wr_offer = None;
            c2h.clear();
            continue;
        }
        if req_valid && o.req_ready {
            let a = req.addr as u64;
            let code = if a >= SIZE {
                resp::DECERR
            } else if a & 3 != 0 {
                resp::SLVERR
            } else {
                resp::OKAY
            };
            let (mut data, mut known) = (0u32, 0u32);
            if code == resp::OKAY {
                for k in 0..4 {
                    let b = &mut mem[(a + k) as usize];
                    if req.write {
                        if req.wstrb >> k & 1 == 1 {
                            *b = Some((req.wdata >> (8 * k)) as u8);
                        }
                        known |= 0xFF << (8 * k);
                    } else if let Some(v) = *b {
                        data |= (v as u32) << (8 * k);
                        known |= 0xFF << (8 * k);
                    }
                }
            } else {
                known = !0;
            }
            if req.write {
                // A write answers with 0.
                data = 0;
            }
            host_due = Some((data, known, code));
        }
        if let Some(d) = rd_offer {
            if o.read_desc_ready {
                rd_offer = None;
                want.rd_descs += 1;
                let ok = in_memory(&d);
                want.rd_range += !ok as u32;
                let nb = (d.len as u64).div_ceil(8);
                let beats = (0..nb)
                    .map(|j| {
                        let last = j + 1 == nb;
                        let n = if last && d.len % 8 != 0 { d.len % 8 } else { 8 };
                        let keep = ((1u16 << n) - 1) as u8;
                        let (mut data, mut known) = (0u64, 0u8);
                        for k in 0..8u64 {
                            match (ok, mem.get(d.addr.wrapping_add(8 * j + k) as usize)) {
                                (false, _) => known |= 1 << k,
                                (true, Some(Some(v))) => {
                                    data |= (*v as u64) << (8 * k);
                                    known |= 1 << k;
                                }
                                _ => {}
                            }
                        }
                        (data, known, keep, last, !ok)
                    })
                    .collect::<VecDeque<_>>();
                if !beats.is_empty() {
                    rd_live.push_back(((d.addr, d.addr + d.len as u64), beats));
                }
            }
        }
        if let Some(((_, _), true)) = wr_live {
            if o.write_desc_ready {
                wr_live = None;
            }
        }
        if let Some((d, beats)) = wr_offer.clone() {
            if o.write_desc_ready && wr_live.is_none() {
                wr_offer = None;
                want.wr_descs += 1;
                let ok = in_memory(&d);
                want.wr_range += !ok as u32;
                // Counted when its tlast is taken (a reset may cut it).
                wr_live_bad = beats.len() != (d.len as usize).div_ceil(8);
                if ok {
                    for (j, &(data, keep, _)) in beats.iter().enumerate() {
                        for k in 0..8u64 {
                            let pos = 8 * j as u64 + k;
                            if keep >> k & 1 == 1 && pos < d.len as u64 {
                                mem[(d.addr + pos) as usize] = Some((data >> (8 * k)) as u8);
                            }
                        }
                    }
                }
                wr_live = Some(((d.addr, d.addr.saturating_add(d.len as u64)), false));
            }
        }
        if i.c2h.tvalid && o.c2h_tready {
            let (_, _, last) = c2h.pop_front().unwrap();
            assert!(
                wr_live.is_some(),
                "seed {seed} cycle {cycle}: a beat taken with no write"
            );
            if last {
                wr_live = wr_live.map(|(r, _)| (r, true));
                want.wr_len += wr_live_bad as u32;
            }
        }
    }
    assert!(
        rd_live.is_empty() && wr_live.is_none() && c2h.is_empty(),
        "seed {seed}: not drained"
    );
    let st = dut.step(&In::default()).stats;
    assert_eq!(
        (
            st.rd_descs,
            st.wr_descs,
            st.rd_range_err,
            st.wr_range_err,
            st.wr_len_err
        ),
        (
            want.rd_descs,
            want.wr_descs,
            want.rd_range,
            want.wr_range,
            want.wr_len
        ),
        "seed {seed}: counters"
    );
    for (w, chunk) in mem.chunks(8).enumerate() {
        let word = dut.peek(w);
        for (k, b) in chunk.iter().enumerate() {
            if let Some(v) = b {
                assert_eq!(
                    (word >> (8 * k)) as u8,
                    *v,
                    "seed {seed}: byte {}",
                    8 * w + k
                );
            }
        }
    }
    c.rd_descs = want.rd_descs;
    c.wr_descs = want.wr_descs;
    c.rd_range = want.rd_range;
    c.wr_range = want.wr_range;
    c.wr_len = want.wr_len;
    (rec, c)
}

proptest! {
    #![proptest_config(config(8))]
    #[test]
    fn bram_dma_matches_golden(seed in any::<u64>()) {
        let (s, c) = closed_loop(seed, 3000, false);
        prop_assert!(c.rd_descs > 10 && c.wr_descs > 10 && c.beats > 100, "{c:?}");
        both::<BramDma<M>, G>("bram_dma", &s)?;
    }

    #[test]
    fn bram_dma_with_resets_matches_golden(seed in any::<u64>()) {
        let (s, c) = closed_loop(seed, 3000, true);
        prop_assert!(c.rd_descs > 10 && c.wr_descs > 10, "{c:?}");
        both::<BramDma<M>, G>("bram_dma_reset", &s)?;
    }
}

/// Every kind of bad input appears in the plain run, and is counted.
#[test]
fn bram_dma_counts_every_kind_of_bad_input() {
    let mut total = Counts::default();
    for seed in 0..6 {
        let (_, c) = closed_loop(seed, 4000, false);
        total.rd_range += c.rd_range;
        total.wr_range += c.wr_range;
        total.wr_len += c.wr_len;
        total.host += c.host;
    }
    assert!(
        total.rd_range > 0 && total.wr_range > 0 && total.wr_len > 0 && total.host > 50,
        "{total:?}"
    );
}

#[test]
fn bram_dma_no_x_in_four_state_simulation() {
    let (s, _) = closed_loop(5, 1500, true);
    four_state::<BramDma<M>, G>("bram_dma_4state", &s);
}

/// Throughput and latency on the twin: a 512-byte aligned read is 64
/// beats back to back, the first 3 cycles after the descriptor; an
/// unaligned one 4; back-to-back reads of n beats one every n + 2
/// cycles (n + 3 unaligned); a write of 64 beats at an unaligned address takes
/// 64 beats in 64 cycles plus the carry's cycle.
#[test]
fn bram_dma_streams_one_beat_a_cycle() {
    for (addr, first) in [(0u64, 3u64), (5, 4)] {
        let mut dut = G::default();
        let mut beats = Vec::new();
        for t in 0..100u64 {
            let o = dut.step(&In {
                read_desc_valid: t == 0,
                read_desc: DmaDesc {
                    addr,
                    len: 512 - addr as u16,
                    tag: 0,
                },
                h2c_tready: true,
                ..Default::default()
            });
            if o.h2c.tvalid {
                beats.push(t);
            }
        }
        assert_eq!(beats.len(), 64);
        assert_eq!(beats[0], first, "addr {addr}");
        assert_eq!(*beats.last().unwrap(), first + 63);
    }
    // Back to back: reads of n = 8 beats, one every n + 2 cycles
    // (n + 3 unaligned).
    for (addr, period) in [(0u64, 10u64), (5, 11)] {
        let mut dut = G::default();
        let mut accepts = Vec::new();
        for t in 0..40u64 {
            let o = dut.step(&In {
                read_desc_valid: true,
                read_desc: DmaDesc {
                    addr,
                    len: 64,
                    tag: 0,
                },
                h2c_tready: true,
                ..Default::default()
            });
            if o.read_desc_ready {
                accepts.push(t);
            }
        }
        assert_eq!(
            accepts,
            (0..4).map(|k| k * period).collect::<Vec<_>>(),
            "addr {addr}"
        );
    }
    let mut dut = G::default();
    let mut taken = Vec::new();
    let mut sent = 0u64;
    for t in 0..100u64 {
        let i = In {
            write_desc_valid: t == 0,
            write_desc: DmaDesc {
                addr: 3,
                len: 512,
                tag: 0,
            },
            c2h: Axis {
                tdata: sent,
                tkeep: 0xFF,
                tlast: sent == 63,
                tvalid: sent < 64,
                ..Default::default()
            },
            ..Default::default()
        };
        let o = dut.step(&i);
        if i.c2h.tvalid && o.c2h_tready {
            taken.push(t);
            sent += 1;
        }
    }
    assert_eq!(taken, (1..65).collect::<Vec<_>>());
    for j in 0..64u64 {
        let lo = dut.peek(j as usize) >> 24;
        assert_eq!(lo & 0xFF_FFFF_FFFF, j & 0xFF_FFFF_FFFF, "word {j}");
    }
}
