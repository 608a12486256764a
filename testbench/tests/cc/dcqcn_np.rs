//! `hdl/src/cc/dcqcn_np.rs` (the DCQCN notification point's CNP limiter)
//! against `nic_golden::cc::dcqcn_np`, and its contract from the ports.

use crate::common::*;
use nic_golden::cc::dcqcn_np::{DcqcnNp as Golden, In, LATENCY};
use nic_golden::cc::CeMark;
use nic_golden::Cycle;
use nic_hdl::cc::DcqcnNp;
use proptest::prelude::*;

/// Random marks over `flows` flow ids (those ≥ 2^A are out of range),
/// with bursts of one flow, and random Tx readiness.
fn stim(a: usize, len: usize) -> impl Strategy<Value = Vec<In>> {
    (
        prop_oneof![
            Just(0u32),
            1u32..4,
            1u32..50,
            50u32..500,
            Just((1 << 24) - 1)
        ],
        0u32..=100,
        prop_oneof![Just(100u32), 0u32..=100],
        1u32..(2 << a),
        any::<u64>(),
    )
        .prop_map(move |(interval, load, ready, flows, seed)| {
            let mut x = seed | 1;
            let mut next = || {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x
            };
            let mut burst = 0u32;
            let mut bflow = 0u16;
            (0..len)
                .map(|_| {
                    let r = next();
                    if burst == 0 && r % 97 == 0 {
                        burst = 20 + (r >> 8) as u32 % 200;
                        bflow = ((r >> 20) % flows as u64) as u16;
                    }
                    let (v, f) = if burst > 0 {
                        burst -= 1;
                        (true, bflow)
                    } else {
                        (
                            ((r >> 32) % 100) < load as u64,
                            ((r >> 40) % flows as u64) as u16,
                        )
                    };
                    In {
                        cfg_interval: interval,
                        ce_valid: v,
                        ce: CeMark { flow: f },
                        cnp_ready: ((r >> 50) % 100) < ready as u64,
                    }
                })
                .collect()
        })
}

proptest! {
    #![proptest_config(config(16))]
    /// Both engines, 16 flows (ids up to 31: half out of range), 2000
    /// cycles: every port, every cycle.
    #[test]
    fn dcqcn_np_matches_golden(s in stim(4, 2000)) {
        both::<DcqcnNp<4>, Golden<4>>("dcqcn_np16", &s)?;
    }
}

proptest! {
    #![proptest_config(config(4))]
    /// Verilator, the 1024-flow top, 50 000 cycles.
    #[test]
    fn dcqcn_np_1024_matches_golden_verilator(s in stim(10, 50_000)) {
        verilator::<DcqcnNp<10>, Golden<10>>("dcqcn_np1024", &s)?;
    }
}

#[test]
fn dcqcn_np_no_x_in_four_state_simulation() {
    let s = sample(stim(4, 2000));
    four_state::<DcqcnNp<4>, Golden<4>>("dcqcn_np16", &s);
}

/// The contract, from the ports (twin): with the Tx always ready, a
/// flow's CNP requests are at least the interval apart, a mark on a flow
/// with no CNP within the interval always gives one (LATENCY cycles
/// later), and every mark is counted once.
#[test]
fn one_cnp_per_flow_per_interval() {
    let interval = 100u32;
    let mut g = Golden::<4>::default();
    let mut x = 7u64;
    let mut last: [Option<usize>; 16] = [None; 16];
    let mut expect: Vec<(usize, u16)> = Vec::new();
    let mut got: Vec<(usize, u16)> = Vec::new();
    let mut marks = 0;
    for c in 0..20_000usize {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let v = (x >> 60) < 6;
        // Flow 3 floods (a mark every cycle) from 5000 to 15000.
        let f = if (5000..15000).contains(&c) {
            3
        } else {
            ((x >> 33) % 16) as u16
        };
        let v = v || (5000..15000).contains(&c);
        if v {
            marks += 1;
            let due = last[f as usize].is_none_or(|l| c - l >= interval as usize);
            if due {
                last[f as usize] = Some(c);
                expect.push((c + LATENCY, f));
            }
        }
        let o = g.step(&In {
            cfg_interval: interval,
            ce_valid: v,
            ce: CeMark { flow: f },
            cnp_ready: true,
        });
        if o.cnp_valid {
            got.push((c, o.cnp.flow));
        }
    }
    let expect: Vec<(usize, u16)> = expect.into_iter().filter(|e| e.0 < 20_000).collect();
    assert_eq!(got, expect);
    for _ in 0..4 {
        g.step(&In::default());
    }
    let st = g.step(&In::default()).stats;
    assert_eq!(st.marks, marks);
    assert_eq!(
        st.cnps + st.suppressed + st.dropped_busy + st.bad_flow,
        st.marks
    );
    // The flood: one CNP per 100 cycles.
    let flood = got
        .iter()
        .filter(|g| g.1 == 3 && (5000..15000).contains(&g.0))
        .count();
    assert!((99..=101).contains(&flood), "{flood}");
}

/// A Tx that never takes a request: the first CNP waits in the slot, every
/// later one that is due is dropped and counted, and no other flow's stamp
/// moves, so once the Tx takes the slot the next mark of each flow gets
/// its CNP.
#[test]
fn a_busy_tx_drops_and_counts() {
    let mut g = Golden::<4>::default();
    let mk = |f: u16, ready: bool| In {
        cfg_interval: 1000,
        ce_valid: true,
        ce: CeMark { flow: f },
        cnp_ready: ready,
    };
    for c in 0..100u16 {
        g.step(&mk(c % 8, false));
    }
    let st = g.step(&In::default()).stats;
    // 96 marks decided (four still in the pipeline): flow 0's first gets
    // the slot, its 11 later ones are within its interval (suppressed),
    // the other flows' 84 find the slot full (dropped).
    assert_eq!(st.cnps, 1);
    assert_eq!(st.suppressed, 11);
    assert_eq!(st.dropped_busy, 84);
    // Flows 1..8 have no stamp: after the slot is taken, each gets a CNP.
    let mut got = Vec::new();
    for c in 0..40u16 {
        let o = g.step(&mk(1 + c % 7, true));
        if o.cnp_valid {
            got.push(o.cnp.flow);
        }
    }
    for f in 1..8u16 {
        assert!(got.contains(&f), "{f}: {got:?}");
    }
}
