//! `hdl/src/roce/req_counters.rs` (the requester's counters) against
//! `nic_golden::roce::req_counters`: every port every cycle on both
//! engines, on random strobes; and the counts a cycle after the last
//! strobes against a plain tally of each strobe.

use crate::common::*;
use nic_golden::roce::req_counters::{In, ReqCounters as Golden};
use nic_golden::roce::ReqStats;
use nic_hdl::roce::req_counters::ReqCounters;
use proptest::prelude::*;

fn stim() -> impl Strategy<Value = Vec<In>> {
    let cycle = any::<[bool; 15]>().prop_map(|f| In {
        posted: f[0],
        completed: f[1],
        err_opcode: f[2],
        err_len: f[3],
        err_flow: f[4],
        err_full: f[5],
        stale: f[6],
        trims: f[7],
        timeouts: f[8],
        naks: f[9],
        ack_ahead: f[10],
        bad_fb: f[11],
        remote_err: f[12],
        retry_exceeded: f[13],
        flushed: f[14],
    });
    prop::collection::vec(cycle, 1..150)
}

/// How many cycles of `s` raise each strobe.
fn tally(s: &[In]) -> ReqStats {
    let n = |f: &dyn Fn(&In) -> bool| s.iter().filter(|i| f(i)).count() as u32;
    ReqStats {
        posted: n(&|i: &In| i.posted),
        completed: n(&|i: &In| i.completed),
        err_opcode: n(&|i: &In| i.err_opcode),
        err_len: n(&|i: &In| i.err_len),
        err_flow: n(&|i: &In| i.err_flow),
        err_full: n(&|i: &In| i.err_full),
        stale: n(&|i: &In| i.stale),
        trims: n(&|i: &In| i.trims),
        timeouts: n(&|i: &In| i.timeouts),
        naks: n(&|i: &In| i.naks),
        ack_ahead: n(&|i: &In| i.ack_ahead),
        bad_fb: n(&|i: &In| i.bad_fb),
        remote_err: n(&|i: &In| i.remote_err),
        retry_exceeded: n(&|i: &In| i.retry_exceeded),
        flushed: n(&|i: &In| i.flushed),
    }
}

proptest! {
    #![proptest_config(config(24))]
    /// Both engines, every port, every cycle; and each count against the
    /// tally of its strobe.
    #[test]
    fn req_counters_count_each_strobe(mut s in stim()) {
        s.push(In::default());
        let out = both::<ReqCounters, Golden>("req_counters", &s)?;
        prop_assert_eq!(out.last().unwrap().stats, tally(&s));
    }
}
