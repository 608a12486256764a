//! Harness of `DispatchCounters`, the dispatcher's counters.

use crate::harness;
use nic_golden as golden;
use nic_hdl::roce::dispatch_counters::DispatchCounters;

harness! {
    impl<> DispatchCounters {
        type In = golden::roce::dispatch_counters::In;
        type Out = golden::roce::dispatch_counters::Out;
        clock = clock;
        inputs {
            reset: reset, count: count, unknown_flow: unknown_flow, oos: oos, dup: dup,
            bad_psn: bad_psn, accepted: accepted, bad_va: bad_va, bad_op: bad_op,
            refused: refused
        }
        outputs {}
        records_out { stats: m_stats }
    }
}
