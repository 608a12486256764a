//! Harness of `WrRing`, the requester's work-request ring.

use crate::harness;
use nic_golden as golden;
use nic_hdl::roce::wr_ring::WrRing;

harness! {
    impl<const AQ: usize> WrRing<AQ> {
        type In = golden::roce::wr_ring::In;
        type Out = golden::roce::wr_ring::Out;
        clock = clock;
        inputs {
            write_address: write_address, write_enable: write_enable, w_read: w_read,
            w_laddr: w_laddr, w_va: w_va, w_rkey: w_rkey, w_len: w_len, w_tag: w_tag,
            w_seq_first: w_seq_first, w_psn_first: w_psn_first, read_address: read_address
        }
        outputs {
            read: read, laddr: laddr, va: va, rkey: rkey, len: len, tag: tag,
            seq_first: seq_first, psn_first: psn_first
        }
    }
}
