//! Harness of `Segment`, the requester's segmentation.

use crate::harness;
use nic_golden as golden;
use nic_hdl::roce::segment::Segment;

harness! {
    impl<> Segment {
        type In = golden::roce::segment::In;
        type Out = golden::roce::segment::Out;
        clock = clock;
        inputs {
            mlog: mlog, mtu: mtu, cur: cur, rem: rem, read: read, len: len, ext: ext,
            last_k: last_k, seq_first: seq_first, seq_end: seq_end, psn_first: psn_first,
            laddr: laddr, va: va, rd_k: rd_k
        }
        outputs {
            seg: seg, seg_eq_left: seg_eq_left, trim: trim, opcode: opcode, psn: psn,
            last: last, wr_addr: wr_addr, rd_va: rd_va, rd_dlen: rd_dlen, rd_psn: rd_psn,
            psn_next: psn_next, cur_new: cur_new, rem_new: rem_new
        }
    }
}
