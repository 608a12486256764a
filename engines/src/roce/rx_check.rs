//! Harness of `RxCheck`, the dispatcher's checks of a record against its
//! context words.

use crate::harness;
use nic_golden as golden;
use nic_hdl::roce::rx_check::RxCheck;

harness! {
    impl<> RxCheck {
        type In = golden::roce::rx_check::In;
        type Out = golden::roce::rx_check::Out;
        clock = clock;
        inputs {
            qp_high: qp_high, psn: psn, len: len, dlen: dlen, va: va, is_write: is_write,
            has_reth: has_reth, is_read_req: is_read_req, fl: fl, epsn: epsn, wva: wva,
            wleft: wleft, radr: radr, rpsn: rpsn, ent: ent
        }
        outputs {
            unk: unk, d_zero: d_zero, d_ahead: d_ahead, d_dup: d_dup, va_bad: va_bad,
            len_over: len_over, rr_match: rr_match, ra_bad: ra_bad, nak_sent: nak_sent,
            cnp_on_ce: cnp_on_ce
        }
    }
}
