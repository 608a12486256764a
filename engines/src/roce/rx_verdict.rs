//! Harness of `RxVerdict`, the Rx parser's verdict.

use crate::harness;
use nic_golden as golden;
use nic_hdl::roce::rx_verdict::RxVerdict;

harness! {
    impl<> RxVerdict {
        type In = golden::roce::rx_verdict::In;
        type Out = golden::roce::rx_verdict::Out;
        clock = clock;
        inputs {
            ipacc: ipacc, fcs_bad: fcs_bad, flen: flen, crc: crc, w1: w1, w2: w2, w4: w4,
            w5: w5, w6: w6, w7: w7, w8: w8, w9: w9
        }
        outputs {
            reason: reason, pay_len: pay_len, pay_w0: pay_w0, pay_sh: pay_sh, ce: ce,
            reth: reth, aeth: aeth, tlm: tlm
        }
    }
}
