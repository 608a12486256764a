//! `hdl/src/hostif/dma_rd_mux.rs` against `nic_golden::hostif::dma_rd_mux`.
//!
//! A closed loop on the twin records the stimulus: payload reads and
//! send-queue fetches, a DMA engine that takes descriptors with random
//! back-pressure and answers each in order after a random latency,
//! sometimes with flagged beats, reads cut short or too long, and stray
//! beats while nothing is asked; random back-pressure from both readers.
//! The loop checks that each reader gets exactly its words, in order,
//! with the data read (flagged where the engine flagged or padded), and
//! the counters. With resets (1 to 4 cycles, as the Tx builder's): the
//! payload words asked for before a reset must never reach the core, the
//! fetches are untouched, and the stream goes on. Replayed on both
//! engines.

use crate::common::*;
use nic_golden::hostif::dma_rd_mux::{DmaRdMux as Golden, In};
use nic_golden::hostif::WqeFetch;
use nic_golden::roce::HostReadReq;
use nic_golden::stream::Axis;
use nic_golden::Cycle;
use nic_hdl::hostif::dma_rd_mux::DmaRdMux;
use proptest::prelude::*;
use rand::{rngs::StdRng, Rng, SeedableRng};
use std::collections::VecDeque;

/// Host memory's word at `addr`.
fn mem(addr: u64) -> u64 {
    addr.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0x5555
}

/// A word a reader should see: (data, flagged, for a fetch: (flow, idx, word)).
type Want = (u64, bool, Option<(u32, u16, u8)>);

fn closed_loop(seed: u64, n: usize, resets: bool) -> (Vec<In>, [u32; 4]) {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut dut = Golden::default();
    let (p_desc, p_sink, p_err) = (
        rng.gen_range(0.3..1.0),
        rng.gen_range(0.3..1.0),
        rng.gen_range(0.0..0.05),
    );
    let mut core_req: Option<HostReadReq> = None;
    let mut fetch_req: Option<WqeFetch> = None;
    // Descriptors taken by the DMA engine: (ready at, addr, beats, fetch info).
    let mut dma: VecDeque<(u64, u64, u32, Option<(u32, u16)>)> = VecDeque::new();
    // The current answer: beats to send (data, tuser, tlast).
    let mut beats: VecDeque<(u64, bool, bool)> = VecDeque::new();
    let mut want_core: VecDeque<Want> = VecDeque::new();
    let mut want_fetch: VecDeque<Want> = VecDeque::new();
    let mut idle = false;
    let mut rec = Vec::with_capacity(n);
    let mut sum = [0u32; 4];
    let mut len_errs = 0u32;
    let mut reset_left = 0u32;
    // Requests for n cycles, then until everything is delivered.
    for cycle in 0..20 * n as u64 {
        let drain = cycle >= n as u64;
        if drain && idle {
            break;
        }
        // About a third of the h2c stream's capacity on average.
        if !drain && core_req.is_none() && rng.gen_bool(0.01) {
            core_req = Some(HostReadReq {
                addr: rng.gen::<u64>() & !7,
                len: match rng.gen_range(0..20) {
                    0 => 0,
                    1 => rng.gen_range(1..=4096),
                    _ => rng.gen_range(1..=200),
                },
            });
        }
        if !drain && fetch_req.is_none() && rng.gen_bool(0.01) {
            fetch_req = Some(WqeFetch {
                flow: rng.gen_range(0..1 << 16),
                idx: rng.gen(),
                count: rng.gen_range(1..=16),
                addr: rng.gen::<u64>() & !31,
            });
        }
        // The DMA engine's next answer.
        if beats.is_empty() {
            if let Some(&(at, addr, n_beats, _)) = dma.front() {
                if at <= cycle {
                    dma.pop_front();
                    let sent = match rng.gen_range(0..40) {
                        0 if n_beats > 1 => rng.gen_range(1..n_beats),
                        1 => n_beats + rng.gen_range(1..4),
                        _ => n_beats,
                    };
                    if sent != n_beats {
                        len_errs += 1;
                    }
                    for k in 0..sent {
                        beats.push_back((
                            mem(addr + 8 * k as u64),
                            rng.gen_bool(p_err),
                            k + 1 == sent,
                        ));
                    }
                }
            } else if idle && rng.gen_bool(0.002) {
                // A stray frame: nothing is asked for.
                beats.push_back((rng.gen(), false, true));
                len_errs += 1;
            }
        }
        let b = beats.front().copied();
        if resets && !drain && reset_left == 0 && rng.gen_bool(0.002) {
            reset_left = rng.gen_range(1..=4);
            sum[3] += 1;
        }
        let i = In {
            reset: reset_left > 0,
            core_valid: core_req.is_some(),
            core: core_req.unwrap_or_default(),
            fetch_valid: fetch_req.is_some(),
            fetch: fetch_req.unwrap_or_default(),
            desc_ready: rng.gen_bool(p_desc),
            h2c: Axis {
                tdata: b.map_or(0, |b| b.0),
                tkeep: 0xFF,
                tlast: b.is_some_and(|b| b.2),
                tuser: b.is_some_and(|b| b.1),
                tvalid: b.is_some() && rng.gen_bool(0.8),
            },
            core_tready: rng.gen_bool(p_sink),
            beat_ready: rng.gen_bool(p_sink),
        };
        rec.push(i);
        let o = dut.step(&i);
        if i.core_valid && o.core_ready {
            core_req = None;
        }
        if i.fetch_valid && o.fetch_ready {
            fetch_req = None;
        }
        if o.desc_valid && i.desc_ready {
            let d = o.desc;
            sum[0] += 1;
            if d.tag == 0 {
                let words = (d.len as u32).div_ceil(8);
                dma.push_back((cycle + rng.gen_range(1..30), d.addr, words, None));
            } else {
                dma.push_back((
                    cycle + rng.gen_range(1..30),
                    d.addr,
                    d.len as u32 / 8,
                    Some((0, 0)),
                ));
            }
        }
        // What each reader must get, in descriptor order.
        if i.core_valid && o.core_ready && i.core.len > 0 {
            for k in 0..(i.core.len as u64).div_ceil(8) {
                want_core.push_back((mem(i.core.addr + 8 * k), false, None));
            }
        }
        if i.fetch_valid && o.fetch_ready {
            let f = i.fetch;
            for k in 0..4 * f.count as u64 {
                want_fetch.push_back((
                    mem(f.addr + 8 * k),
                    false,
                    Some((f.flow, f.idx.wrapping_add((k / 4) as u16), (k % 4) as u8)),
                ));
            }
        }
        if o.h2c_tready && i.h2c.tvalid {
            beats.pop_front();
        }
        if o.core.tvalid && i.core_tready {
            let (data, _, _) = want_core.pop_front().expect("a word asked for");
            if !o.core.tuser {
                assert_eq!(o.core.tdata, data, "seed {seed} cycle {cycle}: core word");
            } else {
                sum[1] += 1;
            }
        }
        if o.beat_valid && i.beat_ready {
            let (data, _, meta) = want_fetch.pop_front().expect("a fetch word asked for");
            let (flow, idx, word) = meta.unwrap();
            assert_eq!(
                (o.beat.flow, o.beat.idx, o.beat.word),
                (flow, idx, word),
                "seed {seed} cycle {cycle}"
            );
            if !o.beat.err {
                assert_eq!(o.beat.data, data, "seed {seed} cycle {cycle}: fetch word");
            } else {
                sum[1] += 1;
            }
        }
        // A reset: the Tx forgets its request and every payload word it
        // asked for (up to and in this cycle); none may reach it later.
        if i.reset {
            reset_left -= 1;
            core_req = None;
            want_core.clear();
        }
        // Nothing asked, nothing in flight: a stray frame may come next.
        idle = core_req.is_none()
            && fetch_req.is_none()
            && !o.desc_valid
            && dma.is_empty()
            && beats.is_empty()
            && want_core.is_empty()
            && want_fetch.is_empty();
        sum[2] = o.h2c_len_err;
    }
    assert!(
        want_core.is_empty() && want_fetch.is_empty(),
        "seed {seed}: words not delivered: core {} fetch {} dma {} beats {} reqs {:?} {:?} mux {:?} next beat {:?}",
        want_core.len(),
        want_fetch.len(),
        dma.len(),
        beats.len(),
        core_req,
        fetch_req,
        dut,
        beats.front()
    );
    assert_eq!(sum[2], len_errs, "seed {seed}: length errors counted");
    (rec, sum)
}

proptest! {
    #![proptest_config(config(8))]
    #[test]
    fn dma_rd_mux_matches_golden(seed in any::<u64>()) {
        let (s, sum) = closed_loop(seed, 3000, false);
        prop_assert!(sum[0] > 10, "{sum:?}");
        both::<DmaRdMux, Golden>("dma_rd_mux", &s)?;
    }

    #[test]
    fn dma_rd_mux_resets_drop_stale_payload(seed in any::<u64>()) {
        let (s, sum) = closed_loop(seed, 6000, true);
        prop_assert!(sum[0] > 10 && sum[3] > 0, "{sum:?}");
        both::<DmaRdMux, Golden>("dma_rd_mux_resets", &s)?;
    }
}

#[test]
fn dma_rd_mux_no_x_in_four_state_simulation() {
    let (s, _) = closed_loop(9, 2000, true);
    four_state::<DmaRdMux, Golden>("dma_rd_mux_4state", &s);
}
