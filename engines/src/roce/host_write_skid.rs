//! Harness of `HostWriteSkid`, the dispatcher's host write register
//! and skid.

use crate::harness;
use nic_golden as golden;
use nic_hdl::roce::host_write_skid::HostWriteSkid;

harness! {
    impl<> HostWriteSkid {
        type In = golden::roce::host_write_skid::In;
        type Out = golden::roce::host_write_skid::Out;
        clock = clock;
        inputs {
            reset: reset, push: push, addr: addr, data: data, strb: strb, last: last,
            wr_ready: m_wr.ready
        }
        outputs { wr_valid: m_wr.valid, ready: ready, wr_last: wr_last }
        records_out { wr: m_wr }
    }
}
