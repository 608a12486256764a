//! `hdl/src/mac/req_sync.rs` (a request crossing between two clocks)
//! against `nic_golden::mac::req_sync`, on rust-hdl's kernel with two
//! unrelated clocks. The harness here is its own: the common engines
//! drive one clock.
//!
//! - `req_sync_matches_golden`: random clock periods (either side the
//!   faster, ratios up to 1:5), random requests and resets on both sides;
//!   after every edge of either clock the RTL's outputs equal the twin's.
//!   Without resets the delivered values are the sent ones in order, some
//!   skipped (superseded while waiting), the last one always delivered,
//!   and none delivered that was not sent.
//! - The emitted Verilog of the crossing runs under Icarus inside
//!   `mac_10g` with unrelated `rx_clk` and `tx_clk`
//!   (`testbench/cocotb/test_xgmii.py`, `test_pause_received`).

use nic_golden::mac::req_sync::{InSide, ReqSync as Golden};
use nic_hdl::mac::ReqSync;
use proptest::prelude::*;
use rand::{rngs::StdRng, Rng, SeedableRng};
use rust_hdl::core::check_error::check_all;
use rust_hdl::core::simulate::simulate;
use rust_hdl::prelude::*;

/// What a run saw: values sent (without resets), values delivered.
struct Run {
    sent: Vec<u64>,
    got: Vec<u64>,
}

/// Run `edges` clock edges. `clock_in` toggles at even times (half period
/// 2`ha`), `clock_out` at odd times (half period 2`hb`), so no two edges
/// meet; the last fifth has no requests. After each rising edge the RTL's outputs are compared with the
/// twin's.
fn run(seed: u64, ha: u64, hb: u64, edges: usize, resets: bool) -> Result<Run, String> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut dut = ReqSync::<16>::default();
    dut.connect_all();
    check_all(&mut dut).map_err(|e| format!("{e:?}"))?;
    let mut g = Golden::default();
    let p_send = rng.gen_range(0.02..0.6);
    let (mut ca, mut cb) = (false, false);
    let (mut ta, mut tb) = (2 * ha, 2 * hb + 1);
    let quiet_from = edges * 4 / 5;
    let mut next_val = 1u64;
    let mut run = Run {
        sent: Vec::new(),
        got: Vec::new(),
    };
    // Inputs for the next rising edge of each clock.
    let mut ia = InSide::default();
    let mut rb = false;
    let set = |d: &mut ReqSync<16>, ia: &InSide, rb: bool| {
        d.reset_in.next = ia.reset;
        d.send.next = ia.send;
        d.data.next = Bits::<16>::from(ia.data);
        d.reset_out.next = rb;
    };
    set(&mut dut, &ia, rb);
    dut.clock_in.next = Clock { clk: false };
    dut.clock_out.next = Clock { clk: false };
    if !simulate(&mut dut, 100) {
        return Err("initial settle".into());
    }
    for e in 0..edges {
        let a_edge = ta < tb;
        if a_edge {
            ca = !ca;
            ta += 2 * ha;
            dut.clock_in.next = Clock { clk: ca };
            if ca {
                g.step_in(&ia);
            }
        } else {
            cb = !cb;
            tb += 2 * hb;
            dut.clock_out.next = Clock { clk: cb };
            if cb {
                g.step_out(rb);
                let o = g.out();
                if o.update {
                    run.got.push(o.data);
                }
            }
        }
        if !simulate(&mut dut, 100) {
            return Err("settle".into());
        }
        let want = g.out();
        let have = (
            dut.busy.val(),
            dut.update.val(),
            dut.data_out.val().to_u64(),
        );
        if have != (want.busy, want.update, want.data) {
            return Err(format!("outputs {have:?}, twin {want:?}"));
        }
        // New inputs after a falling edge, for the next rising one.
        if a_edge && !ca {
            let send = e < quiet_from && rng.gen_bool(p_send);
            ia = InSide {
                reset: resets && rng.gen_bool(0.01),
                send,
                data: if send {
                    next_val
                } else {
                    rng.gen::<u16>() as u64
                },
            };
            if send {
                run.sent.push(next_val);
                next_val = (next_val % 0xFFFF) + 1;
            }
        }
        if !a_edge && !cb {
            rb = resets && rng.gen_bool(0.01);
        }
        set(&mut dut, &ia, rb);
    }
    Ok(run)
}

proptest! {
    #![proptest_config(crate::common::config(24))]
    #[test]
    fn req_sync_matches_golden(seed in any::<u64>(), ha in 2u64..12, hb in 2u64..12) {
        // Quiet tail: no sends in the last stretch, so the last value is
        // delivered.
        let r = run(seed, ha, hb, 6000, false).map_err(TestCaseError::fail)?;
        let r2 = run(seed ^ 1, hb, ha, 6000, true).map_err(TestCaseError::fail)?;
        drop(r2);
        // In order, a subsequence of what was sent.
        let mut it = r.sent.iter();
        for v in &r.got {
            prop_assert!(it.any(|s| s == v), "{v} delivered out of order or never sent");
        }
        prop_assert!(r.got.len() <= r.sent.len());
        prop_assert_eq!(r.got.last(), r.sent.last(), "the last request is delivered");
    }
}

/// The twin alone, equal clocks: requests spaced wider than a round trip
/// all arrive; a burst arrives as its first and last values.
#[test]
fn req_sync_spaced_and_burst() {
    let mut g = Golden::default();
    // Equal clocks, interleaved: in rises at 0, 10, 20..; out at 5, 15, ...
    let mut got = Vec::new();
    let sends: Vec<Option<u64>> = (0..200)
        .map(|k| match k {
            10 | 30 | 50 => Some(k as u64),
            100..=104 => Some(k as u64),
            _ => None,
        })
        .collect();
    for s in &sends {
        let i = InSide {
            reset: false,
            send: s.is_some(),
            data: s.unwrap_or(0),
        };
        g.step_in(&i);
        g.step_out(false);
        if g.out().update {
            got.push(g.out().data);
        }
    }
    assert_eq!(got, vec![10, 30, 50, 100, 104]);
}
