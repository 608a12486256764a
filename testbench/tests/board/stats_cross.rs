//! `hdl/src/board/stats_cross.rs` (a counter read across clocks) against
//! `nic_golden::board::stats_cross`, on rust-hdl's kernel with two
//! unrelated clocks (the harness is `mac::req_sync`'s: the common engines
//! drive one clock). The emitted Verilog runs under Icarus inside the
//! ECPIX-5 board core (`testbench/cocotb/test_board.py`, check 5: every
//! board counter read over the UART equals its port).
//!
//! - `stats_cross_matches_golden`: random clock periods (either side the
//!   faster, ratios up to 1:5), an index that changes at random (held for
//!   random times), a source whose counters count up, random resets on
//!   either side in some runs: after every edge of either clock the RTL's
//!   outputs equal the twin's. Without resets: whenever `hit` is high,
//!   `data` is a value the source gave for that very index, not older
//!   than the index's last change; and an index held for 24 cycles of the
//!   slower clock is answered (`hit`, docs' latency).
//! - `stats_cross_stopped_source_never_answers_another_index`: the source
//!   clock stops; after the index changes, `hit` stays low.

use nic_golden::board::stats_cross::{ClkIn, SrcIn, StatsCross as Golden};
use nic_hdl::board::StatsCross;
use proptest::prelude::*;
use rand::{rngs::StdRng, Rng, SeedableRng};
use rust_hdl::core::check_error::check_all;
use rust_hdl::core::simulate::simulate;
use rust_hdl::prelude::*;

/// The source's rule: indices with bit 3 clear are counters; the value of
/// counter `i` at source cycle `n` is `i * 0x10001 + n / 8`.
fn src_answer(index: u16, n: u64) -> (bool, u32) {
    (
        index & 8 == 0,
        (index as u32)
            .wrapping_mul(0x10001)
            .wrapping_add((n / 8) as u32),
    )
}

struct Opts {
    ha: u64,
    hb: u64,
    edges: usize,
    resets: bool,
    /// The source clock stops at this edge count (no more edges on it).
    src_stops_at: Option<usize>,
}

/// What a run saw on `clk` after each of its rising edges: (time, index,
/// hit, data, source cycle count then).
type Seen = Vec<(u64, u16, bool, u32, u64)>;

/// Run `edges` edges: `clk` at even times (half period 2`ha`), `src_clk`
/// at odd times (half period 2`hb`), so no two edges meet. After every
/// edge the RTL's outputs equal the twin's.
fn run(seed: u64, o: &Opts) -> Result<(Seen, Vec<(u64, u16)>), String> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut dut = StatsCross::default();
    dut.connect_all();
    check_all(&mut dut).map_err(|e| format!("{e:?}"))?;
    let mut g = Golden::default();
    let (mut ca, mut cb) = (false, false);
    let (mut ta, mut tb) = (2 * o.ha, 2 * o.hb + 1);
    let mut ci = ClkIn::default();
    let mut src_rst = false;
    let mut src_n = 0u64;
    let mut seen = Seen::new();
    // (time, index) of each index change.
    let mut changes = vec![(0u64, 0u16)];
    let mut hold = 0usize;
    let apply = |d: &mut StatsCross, ci: &ClkIn, src_rst: bool, src_n: u64| {
        d.rst.next = ci.rst;
        d.index.next = Bits::<16>::from(ci.index as u64);
        d.src_rst.next = src_rst;
        // The source answers combinationally for the index it holds.
        let (h, v) = src_answer(d.src_index.val().to_u64() as u16, src_n);
        d.src_hit.next = h;
        d.src_data.next = Bits::<32>::from(v as u64);
    };
    apply(&mut dut, &ci, src_rst, src_n);
    dut.clk.next = Clock { clk: false };
    dut.src_clk.next = Clock { clk: false };
    if !simulate(&mut dut, 100) {
        return Err("initial settle".into());
    }
    let mut src_edges = 0usize;
    for _ in 0..o.edges {
        let src_stopped = o.src_stops_at.is_some_and(|s| src_edges >= s);
        let a_edge = ta < tb || src_stopped;
        let now;
        if a_edge {
            now = ta;
            ca = !ca;
            ta += 2 * o.ha;
            dut.clk.next = Clock { clk: ca };
            if ca {
                g.step_clk(&ci);
            }
        } else {
            now = tb;
            cb = !cb;
            tb += 2 * o.hb;
            src_edges += 1;
            dut.src_clk.next = Clock { clk: cb };
            if cb {
                let (h, v) = src_answer(g.out(ci.index).src_index, src_n);
                g.step_src(&SrcIn {
                    src_rst,
                    src_data: v,
                    src_hit: h,
                });
                src_n += 1;
            }
        }
        // The edge first, with the inputs from before it.
        if !simulate(&mut dut, 100) {
            return Err("settle".into());
        }
        apply(&mut dut, &ci, src_rst, src_n);
        if !simulate(&mut dut, 100) {
            return Err("settle".into());
        }
        let want = g.out(ci.index);
        let have = (
            dut.data.val().to_u64() as u32,
            dut.hit.val(),
            dut.src_index.val().to_u64() as u16,
        );
        if have != (want.data, want.hit, want.src_index) {
            return Err(format!("at {now}: outputs {have:?}, twin {want:?}"));
        }
        if a_edge && ca {
            seen.push((now, ci.index, want.hit, want.data, src_n));
        }
        // New inputs after a falling edge, for the next rising one.
        if a_edge && !ca {
            if hold == 0 {
                ci.index = rng.gen_range(0..16u16) | (rng.gen_range(0..4u16) << 8);
                changes.push((now, ci.index));
                hold = rng.gen_range(1..60);
            }
            hold -= 1;
            ci.rst = o.resets && rng.gen_bool(0.005);
        }
        if !a_edge && !cb {
            src_rst = o.resets && rng.gen_bool(0.005);
        }
        apply(&mut dut, &ci, src_rst, src_n);
        if !simulate(&mut dut, 100) {
            return Err("settle".into());
        }
    }
    Ok((seen, changes))
}

proptest! {
    #![proptest_config(crate::common::config(24))]
    #[test]
    fn stats_cross_matches_golden(seed in any::<u64>(), ha in 2u64..12, hb in 2u64..12) {
        let o = Opts { ha, hb, edges: 5000, resets: false, src_stops_at: None };
        let (seen, changes) = run(seed, &o).map_err(TestCaseError::fail)?;
        let slow = 4 * ha.max(hb);
        for &(t, index, hit, data, n) in &seen {
            // The last change of the index at or before t.
            let since = changes.iter().rev().find(|c| c.0 <= t).map_or(0, |c| c.0);
            if hit {
                prop_assert!(index & 8 == 0, "hit for index {index:#x}, not a counter");
                // A value the source gave for this index, since its change.
                let base = (index as u32).wrapping_mul(0x10001);
                let k = data.wrapping_sub(base) as u64;
                prop_assert!(k <= n / 8, "at {t}: data {data:#x} from the future");
                let n_then = n.saturating_sub(((t - since) / (2 * hb)) + 2);
                prop_assert!(k + 1 >= n_then / 8, "at {t}: data {data:#x} older than the index");
            } else if index & 8 == 0 {
                prop_assert!(t - since < 24 * slow, "at {t}: index {index:#x} held since {since}, no answer");
            }
        }
        let o2 = Opts { ha: hb, hb: ha, edges: 5000, resets: true, src_stops_at: None };
        run(seed ^ 1, &o2).map_err(TestCaseError::fail)?;
    }
}

#[test]
fn stats_cross_stopped_source_never_answers_another_index() {
    for seed in 0..8u64 {
        let o = Opts {
            ha: 3,
            hb: 2,
            edges: 6000,
            resets: false,
            src_stops_at: Some(1500),
        };
        let (seen, changes) = run(seed, &o).unwrap();
        // The source's last edge is about 1500 * 2 * hb in; after the
        // first index change past it, nothing is answered.
        let stop = 1500 * 2 * 2 + 1;
        let first_after = changes.iter().find(|c| c.0 > stop).expect("a change").0;
        let late: Vec<_> = seen.iter().filter(|s| s.0 > first_after + 100).collect();
        assert!(
            late.iter().any(|s| s.1 & 8 == 0 && !s.2),
            "a counter left unanswered"
        );
        for s in late {
            // A hit carries the value of its own index, however old.
            let k = s.3.wrapping_sub((s.1 as u32).wrapping_mul(0x10001)) as u64;
            assert!(
                !s.2 || k <= s.4 / 8,
                "at {}: hit for {:#x} with another counter's value",
                s.0,
                s.1
            );
        }
    }
}
