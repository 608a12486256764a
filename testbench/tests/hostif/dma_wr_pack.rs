//! `hdl/src/hostif/dma_wr_pack.rs` against `nic_golden::hostif::dma_wr_pack`.
//!
//! A closed loop on the twin records the stimulus: the receive path's
//! payload as runs of contiguous words (a partial last word), completion
//! entries now and then, a DMA engine taking descriptors and c2h beats
//! with random back-pressure. The loop checks that the engine sees every
//! word once, in the order the packer took them, each burst's length
//! equal to its descriptor's, bursts of at most 32 words that never
//! continue past a partial word, and a notice for each entry exactly in
//! the cycle after its last word leaves; entries offered with a core word
//! are taken with it (both `ready` are registers) and follow it. Replayed
//! on both engines.

use crate::common::*;
use nic_golden::hostif::dma_wr_pack::{DmaWrPack as Golden, In, MAX_BURST};
use nic_golden::hostif::{CqeWrite, DmaDesc};
use nic_golden::roce::HostWrite;
use nic_golden::Cycle;
use nic_hdl::hostif::dma_wr_pack::DmaWrPack;
use proptest::prelude::*;
use rand::{rngs::StdRng, Rng, SeedableRng};
use std::collections::VecDeque;

fn closed_loop(seed: u64, n: usize) -> (Vec<In>, [u32; 4]) {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut dut = Golden::default();
    let (p_gap, p_desc, p_c2h) = (
        rng.gen_range(0.0..0.3),
        rng.gen_range(0.2..1.0),
        rng.gen_range(0.2..1.0),
    );
    let mut words: VecDeque<HostWrite> = VecDeque::new();
    let mut cqe: Option<CqeWrite> = None;
    // Words in the order the packer took them: (addr, data, keep, entry's cq).
    let mut taken: VecDeque<(u64, u64, u8, Option<u8>)> = VecDeque::new();
    let mut descs: VecDeque<DmaDesc> = VecDeque::new();
    // The burst the engine is receiving: (next address, bytes left).
    let mut burst: Option<(u64, u32)> = None;
    let mut pending_beats: VecDeque<(u64, u8, bool)> = VecDeque::new();
    let mut rec = Vec::with_capacity(n);
    let mut sum = [0u32; 4];
    // The notice due this cycle (an entry's last word left in the last).
    let mut notice: Option<u8> = None;
    // Writes for n cycles, then until everything has left.
    for cycle in 0..20 * n as u64 {
        let drain = cycle >= n as u64;
        if drain
            && words.is_empty()
            && cqe.is_none()
            && taken.is_empty()
            && pending_beats.is_empty()
            && descs.is_empty()
            && notice.is_none()
        {
            break;
        }
        if !drain && words.is_empty() && rng.gen_bool(0.1) {
            let base = rng.gen::<u64>() & !7;
            let k = rng.gen_range(1..40);
            for j in 0..k {
                // Strobes contiguous from lane 0; the last word partial.
                let bytes = if j + 1 == k { rng.gen_range(1..=8) } else { 8 };
                words.push_back(HostWrite {
                    addr: base + 8 * j,
                    data: rng.gen(),
                    strb: ((1u16 << bytes) - 1) as u8,
                });
            }
        }
        if !drain && cqe.is_none() && rng.gen_bool(0.03) {
            cqe = Some(CqeWrite {
                addr: rng.gen::<u64>() & !15,
                lo: rng.gen(),
                hi: rng.gen(),
                cq: rng.gen_range(0..16),
            });
        }
        let i = In {
            core_valid: !words.is_empty() && !rng.gen_bool(p_gap),
            core: words.front().copied().unwrap_or_default(),
            cqe_valid: cqe.is_some(),
            cqe: cqe.unwrap_or_default(),
            desc_ready: rng.gen_bool(p_desc),
            c2h_tready: rng.gen_bool(p_c2h),
        };
        rec.push(i);
        let o = dut.step(&i);
        if i.core_valid && o.core_ready {
            let w = words.pop_front().unwrap();
            taken.push_back((w.addr, w.data, w.strb, None));
        }
        if i.cqe_valid && o.cqe_ready {
            sum[3] += (i.core_valid && o.core_ready) as u32;
            let c = cqe.take().unwrap();
            taken.push_back((c.addr, c.lo, 0xFF, None));
            taken.push_back((c.addr + 8, c.hi, 0xFF, Some(c.cq)));
            sum[2] += 1;
        }
        if o.desc_valid && i.desc_ready {
            assert!(o.desc.len > 0 && o.desc.len as u32 <= 8 * MAX_BURST);
            descs.push_back(o.desc);
            sum[0] += 1;
        }
        // The notice of an entry comes in the cycle after its last word
        // left (a register), and no other.
        match notice.take() {
            Some(cq) => {
                assert!(
                    o.done_valid && o.done.cq == cq,
                    "seed {seed} cycle {cycle}: notice"
                );
                sum[1] += 1;
            }
            None => assert!(
                !o.done_valid,
                "seed {seed} cycle {cycle}: a notice for a non-entry word"
            ),
        }
        if o.c2h.tvalid && i.c2h_tready {
            pending_beats.push_back((o.c2h.tdata, o.c2h.tkeep, o.c2h.tlast));
            // `taken[k]` is the word of `pending_beats[k]`.
            notice = taken[pending_beats.len() - 1].3;
        }
        // The engine writes a beat once it has its descriptor.
        while let Some(&(data, keep, last)) = pending_beats.front() {
            if burst.is_none() {
                match descs.pop_front() {
                    Some(d) => burst = Some((d.addr, d.len as u32)),
                    None => break,
                }
            }
            let (addr, left) = burst.unwrap();
            let (a, d, k, _) = taken.pop_front().expect("a word the packer took");
            pending_beats.pop_front();
            assert_eq!(
                (addr, data, keep),
                (a, d, k),
                "seed {seed} cycle {cycle}: word out of order"
            );
            let bytes = keep.count_ones();
            assert!(
                bytes <= left,
                "seed {seed}: burst longer than its descriptor"
            );
            if last {
                assert_eq!(
                    bytes, left,
                    "seed {seed}: burst shorter than its descriptor"
                );
                burst = None;
            } else {
                assert_eq!(keep, 0xFF, "seed {seed}: a partial word inside a burst");
                burst = Some((addr + 8, left - bytes));
            }
        }
    }
    assert!(
        taken.is_empty() && pending_beats.is_empty() && descs.is_empty(),
        "seed {seed}: not drained"
    );
    (rec, sum)
}

proptest! {
    #![proptest_config(config(8))]
    #[test]
    fn dma_wr_pack_matches_golden(seed in any::<u64>()) {
        let (s, sum) = closed_loop(seed, 3000);
        prop_assert!(sum[0] > 10 && sum[2] > 2 && sum[1] == sum[2], "{sum:?}");
        both::<DmaWrPack, Golden>("dma_wr_pack", &s)?;
    }
}

#[test]
fn dma_wr_pack_no_x_in_four_state_simulation() {
    let (s, sum) = closed_loop(4, 1500);
    // The stimulus offers an entry with a core word (the held-entry path).
    assert!(sum[3] > 0, "{sum:?}");
    four_state::<DmaWrPack, Golden>("dma_wr_pack_4state", &s);
}

/// A packet's payload, 64 words back to back, goes out as two
/// descriptors of 256 bytes, not 64.
#[test]
fn contiguous_words_become_bursts() {
    let mut dut = Golden::default();
    let mut descs = Vec::new();
    for k in 0..100u64 {
        let i = In {
            core_valid: k < 64,
            core: HostWrite {
                addr: 0x1000 + 8 * k,
                data: k,
                strb: 0xFF,
            },
            desc_ready: true,
            c2h_tready: true,
            ..Default::default()
        };
        let o = dut.step(&i);
        if o.desc_valid {
            descs.push((o.desc.addr, o.desc.len));
        }
    }
    assert_eq!(descs, vec![(0x1000, 256), (0x1100, 256)]);
}
