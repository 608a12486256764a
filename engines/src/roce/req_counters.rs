//! Harness of `ReqCounters`, the requester's counters.

use crate::harness;
use nic_golden as golden;
use nic_hdl::roce::req_counters::ReqCounters;

harness! {
    impl<> ReqCounters {
        type In = golden::roce::req_counters::In;
        type Out = golden::roce::req_counters::Out;
        clock = clock;
        inputs {
            posted: posted,
            completed: completed,
            err_opcode: err_opcode,
            err_len: err_len,
            err_flow: err_flow,
            err_full: err_full,
            stale: stale,
            trims: trims,
            timeouts: timeouts,
            naks: naks,
            ack_ahead: ack_ahead,
            bad_fb: bad_fb,
            remote_err: remote_err,
            retry_exceeded: retry_exceeded,
            flushed: flushed
        }
        outputs {}
        records_out { stats: m_stats }
    }
}
