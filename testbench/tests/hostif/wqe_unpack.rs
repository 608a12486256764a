//! `hdl/src/hostif/wqe_unpack.rs` against `nic_golden::hostif::wqe_unpack`:
//! entries of four words (some flagged), held until taken, with random
//! back-pressure from the requester and the send-queue engine; recorded
//! on the twin, replayed on both engines. Every entry comes out once, in
//! order: a clean one as its work request, a flagged one as a DMA_ERR
//! completion tagged with its send-queue index; each frees one credit.

use crate::common::*;
use nic_golden::hostif::wqe_unpack::{work_req, In, WqeUnpack as Golden};
use nic_golden::hostif::WqeBeat;
use nic_golden::Cycle;
use nic_hdl::hostif::wqe_unpack::WqeUnpack;
use nic_spec::roce::wr::Status;
use proptest::prelude::*;
use rand::{rngs::StdRng, Rng, SeedableRng};
use std::collections::VecDeque;

const W: usize = 3;

fn closed_loop(seed: u64, entries: usize) -> Vec<In> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut dut = Golden::<W>::default();
    let mut beats: VecDeque<WqeBeat> = VecDeque::new();
    // (flow, idx, words, flagged) in order.
    let mut expect: VecDeque<(u32, u16, [u64; 4], bool)> = VecDeque::new();
    for k in 0..entries {
        let flow = rng.gen_range(0..1 << 16);
        let idx = rng.gen();
        let w: [u64; 4] = rng.gen();
        let errs: [bool; 4] = std::array::from_fn(|_| rng.gen_bool(0.03));
        for (j, &d) in w.iter().enumerate() {
            beats.push_back(WqeBeat {
                data: d,
                err: errs[j],
                flow,
                idx,
                word: j as u8,
            });
        }
        expect.push_back((flow, idx, w, errs.iter().any(|&e| e)));
        let _ = k;
    }
    let (p_in, p_out) = (rng.gen_range(0.3..1.0), rng.gen_range(0.1..1.0));
    let mut rec = Vec::new();
    let mut freed = 0;
    for cycle in 0..entries * 40 {
        let i = In {
            beat_valid: !beats.is_empty() && rng.gen_bool(p_in),
            beat: beats.front().copied().unwrap_or_default(),
            wr_ready: rng.gen_bool(p_out),
            err_ready: rng.gen_bool(p_out),
        };
        rec.push(i);
        let o = dut.step(&i);
        if i.beat_valid && o.beat_ready {
            beats.pop_front();
        }
        if o.wr_valid && i.wr_ready {
            let (flow, _, w, err) = expect.pop_front().expect("an entry");
            assert!(!err, "seed {seed} cycle {cycle}: a flagged entry went out");
            assert_eq!(o.wr, work_req(flow, w));
        }
        if o.err_valid && i.err_ready {
            let (flow, idx, _, err) = expect.pop_front().expect("an entry");
            assert!(err, "seed {seed} cycle {cycle}");
            assert_eq!(
                (o.err.flow, o.err.tag, o.err.status, o.err.bytes),
                (flow, idx as u32, Status::DmaErr as u8, 0)
            );
        }
        freed += o.wqe_freed as usize;
        if expect.is_empty() && beats.is_empty() {
            break;
        }
    }
    assert!(
        expect.is_empty(),
        "seed {seed}: {} entries not out",
        expect.len()
    );
    // `wqe_freed` is registered: the last entry's credit comes back a
    // cycle after it left, and none after that.
    for _ in 0..2 {
        let i = In::default();
        rec.push(i);
        freed += dut.step(&i).wqe_freed as usize;
    }
    assert_eq!(freed, entries);
    rec
}

proptest! {
    #![proptest_config(config(12))]
    #[test]
    fn wqe_unpack_matches_golden(seed in any::<u64>(), n in 1usize..60) {
        both::<WqeUnpack<W>, Golden<W>>("wqe_unpack", &closed_loop(seed, n))?;
    }
}

#[test]
fn wqe_unpack_no_x_in_four_state_simulation() {
    four_state::<WqeUnpack<W>, Golden<W>>("wqe_unpack_4state", &closed_loop(3, 40));
}
