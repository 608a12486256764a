//! Harness of `WrCheck`, the requester's work-request checks.

use crate::harness;
use nic_golden as golden;
use nic_hdl::roce::wr_check::WrCheck;

harness! {
    impl<const Q: usize> WrCheck<Q> {
        type In = golden::roce::wr_check::In;
        type Out = golden::roce::wr_check::Out;
        clock = clock;
        inputs {
            opcode: opcode, len: len, mlog: mlog, tail: tail, head: head,
            seq_tail: seq_tail, una: una
        }
        outputs {
            is_read: is_read, bad_opcode: bad_opcode, bad_len: bad_len, ext: ext, n: n,
            is_full: is_full
        }
    }
}
