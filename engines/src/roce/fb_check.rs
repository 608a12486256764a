//! Harness of `FbCheck`, the requester's feedback checks.

use crate::harness;
use nic_golden as golden;
use nic_hdl::roce::fb_check::FbCheck;

harness! {
    impl<> FbCheck {
        type In = golden::roce::fb_check::In;
        type Out = golden::roce::fb_check::Out;
        clock = clock;
        inputs {
            is_fb: is_fb, is_nak: is_nak, fb_opcode: fb_opcode, fb_aeth: fb_aeth,
            fb_psn: fb_psn, psn_max: psn_max
        }
        outputs {
            is_ack: is_ack, rresp: rresp, nak_status: nak_status, p_in: p_in,
            is_ahead: is_ahead
        }
    }
}
