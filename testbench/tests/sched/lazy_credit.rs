//! `hdl/src/sched/lazy_credit.rs` (the scheduler's lazy credit) against
//! `nic_golden::sched::lazy_credit`: every port every cycle on both
//! engines; and, for operations fed a stage apart as the scheduler feeds
//! them (R, now and last at S3, the credit at S7, the packet and the
//! refund at S9), the outputs 7 cycles after S3 against a plain
//! statement in u128: accrued = min(cap, credit + min(R·(now − last),
//! 2^44 − 1)), cr_short = accrued < len·2^24, sent = accrued − len·2^24,
//! trim = min(cap, accrued + refund·2^24), cap = max(`cfg_cap`,
//! `cfg_mtu`)·2^24.

use crate::common::*;
use nic_golden::sched::lazy_credit::{In, LazyCredit as Golden};
use nic_hdl::sched::lazy_credit::LazyCredit;
use proptest::prelude::*;

/// One operation's values, and the configuration (held in a run).
#[derive(Clone, Copy, Debug)]
struct Op {
    r: u32,
    now: u32,
    last: u32,
    cr: u64,
    len: u16,
    refund: u32,
}

/// Values at the edges: rates up to 256 bytes a cycle, gaps from 0 to
/// 2^32 − 1 (wrapping), credits up to 2^44 − 1, refunds on either side
/// of 2^20 bytes (where the TRIM's sum gives way to the cap).
fn op() -> impl Strategy<Value = Op> {
    let refund = prop_oneof![
        operand(32),
        (0u64..4096).prop_map(|d| (1 << 20) + d),
        (1u64..4096).prop_map(|d| (1 << 20) - d),
    ];
    (
        operand(32),
        any::<u32>(),
        operand(32),
        operand(44),
        operand(16),
        refund,
    )
        .prop_map(|(r, now, dt, cr, len, refund)| Op {
            r: r as u32,
            now,
            last: now.wrapping_sub(dt as u32),
            cr,
            len: len as u16,
            refund: refund as u32,
        })
}

/// `o` with its credit under the cap and a small product (a flow that
/// has not saved up to the cap), for every other operation.
fn tame(o: Op, cap: u64, k: usize) -> Op {
    if k % 2 == 0 {
        return o;
    }
    Op {
        r: o.r >> 16,
        last: o.now.wrapping_sub(o.now.wrapping_sub(o.last) % 1024),
        cr: o.cr % cap.max(1),
        ..o
    }
}

/// The cycles that feed `ops`: op k's S3 values in cycle k, its credit
/// in k + 4, its packet and refund in k + 6; then 8 idle cycles.
fn feed(mtu: u16, cap: u32, ops: &[Op]) -> Vec<In> {
    (0..ops.len() + 8)
        .map(|c| {
            let at = |d: usize| c.checked_sub(d).and_then(|k| ops.get(k));
            let s3 = ops.get(c);
            In {
                cfg_mtu: mtu,
                cfg_cap: cap,
                r: s3.map_or(0, |o| o.r),
                now: s3.map_or(0, |o| o.now),
                last: s3.map_or(0, |o| o.last),
                cr: at(4).map_or(0, |o| o.cr),
                len: at(6).map_or(0, |o| o.len),
                refund: at(6).map_or(0, |o| o.refund),
            }
        })
        .collect()
}

fn stim() -> impl Strategy<Value = Vec<In>> {
    let cycle = (operand(16), operand(20), op()).prop_map(|(mtu, cap, o)| In {
        cfg_mtu: mtu as u16,
        cfg_cap: cap as u32,
        r: o.r,
        now: o.now,
        last: o.last,
        cr: o.cr,
        len: o.len,
        refund: o.refund,
    });
    prop::collection::vec(cycle, 1..80)
}

proptest! {
    #![proptest_config(config(24))]
    /// Both engines, every port, every cycle, any inputs.
    #[test]
    fn lazy_credit_matches_golden(s in stim()) {
        both::<LazyCredit, Golden>("sched_lazy_credit", &s)?;
    }

    /// Operations a stage apart: both engines, and each operation's
    /// outputs against the plain statement.
    #[test]
    fn lazy_credit_states_the_credit(
        mtu in operand(16),
        cap in operand(20),
        ops in prop::collection::vec(op(), 1..40),
    ) {
        let cap_bytes = mtu.max(cap) << 24;
        let ops: Vec<Op> = ops.into_iter().enumerate().map(|(k, o)| tame(o, cap_bytes, k)).collect();
        let s = feed(mtu as u16, cap as u32, &ops);
        let out = both::<LazyCredit, Golden>("sched_lazy_credit_ops", &s)?;
        let cap = cap_bytes as u128;
        for (k, o) in ops.iter().enumerate() {
            let product = (o.r as u128 * o.now.wrapping_sub(o.last) as u128).min((1 << 44) - 1);
            let acc = cap.min(o.cr as u128 + product);
            let len = (o.len as u128) << 24;
            let got = out[k + 7];
            prop_assert_eq!(got.cr_acc as u128, acc, "op {}: {:?}", k, o);
            prop_assert_eq!(got.cr_short, acc < len, "op {}", k);
            if acc >= len {
                prop_assert_eq!(got.cr_sent as u128, acc - len, "op {}", k);
            }
            prop_assert_eq!(
                got.cr_trim as u128,
                cap.min(acc + ((o.refund as u128) << 24)),
                "op {}",
                k
            );
        }
    }
}
