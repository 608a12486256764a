//! `hdl/src/roce/fb_check.rs` (the requester's feedback checks) against
//! `nic_golden::roce::fb_check`: every port every cycle on both engines;
//! and, where the inputs hold two cycles as the requester holds its
//! latched feedback, each output against the requester's own rules
//! written plainly (`is_ack`, `wr::Status::of_nak`, the PSN acknowledged,
//! and ahead of every PSN sent as the golden requester's `ack_ahead`).

use crate::common::*;
use nic_golden::roce::fb_check::{FbCheck as Golden, In};
use nic_hdl::roce::fb_check::FbCheck;
use nic_spec::roce::{aeth_class, is_ack, is_read_resp, op, syndrome, wr, AETH_CLASS_ACK};
use proptest::prelude::*;

const PSN: u32 = 0xFF_FFFF;

/// Feedback as the requester latches it (opcodes an ACK, a READ
/// RESPONSE or anything; AETHs of every class and the NAK syndromes;
/// PSNs near `psn_max`), each held 1 to 3 cycles.
fn stim() -> impl Strategy<Value = Vec<In>> {
    let opcode = prop_oneof![
        Just(op::ACK),
        Just(op::ACK_TLM),
        Just(op::READ_RESP_FIRST),
        Just(op::READ_RESP_ONLY),
        any::<u8>(),
    ];
    let aeth_top = prop_oneof![
        Just(0u8),
        Just(syndrome::NAK_SEQ),
        Just(syndrome::NAK_INVALID),
        Just(syndrome::NAK_ACCESS),
        any::<u8>(),
    ];
    let one = (
        any::<[bool; 2]>(),
        opcode,
        (aeth_top, any::<u32>()),
        any::<u32>(),
        -3i32..=3,
        1usize..=3,
    )
        .prop_map(|(b, opc, (top, low), max, near, hold)| {
            let psn_max = max & PSN;
            let i = In {
                is_fb: b[0],
                is_nak: b[1],
                fb_opcode: opc,
                fb_aeth: (top as u32) << 24 | (low & 0xFF_FFFF),
                fb_psn: (psn_max as i32 + near) as u32 & PSN,
                psn_max,
            };
            vec![i; hold]
        });
    prop::collection::vec(one, 1..60).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(config(24))]
    /// Both engines, every port, every cycle; then the rules, where the
    /// inputs held.
    #[test]
    fn fb_check_follows_the_requesters_rules(s in stim()) {
        let out = both::<FbCheck, Golden>("fb_check", &s)?;
        for t in 1..s.len().saturating_sub(1) {
            let (i, o) = (&s[t], &out[t + 1]);
            prop_assert_eq!(
                o.is_ack,
                (is_ack(i.fb_opcode) && aeth_class(i.fb_aeth) == AETH_CLASS_ACK)
                    || is_read_resp(i.fb_opcode)
            );
            prop_assert_eq!(o.rresp, i.is_fb && is_read_resp(i.fb_opcode));
            let status = wr::Status::of_nak((i.fb_aeth >> 24) as u8);
            prop_assert_eq!(o.nak_status, status.map_or(0, |s| s as u8));
            let p = if i.is_nak { i.fb_psn.wrapping_sub(1) & PSN } else { i.fb_psn };
            prop_assert_eq!(o.p_in, p);
            if s[t - 1] == *i {
                let last = i.psn_max.wrapping_sub(1) & PSN;
                let ahead = p.wrapping_sub(last) & PSN;
                prop_assert_eq!(o.is_ahead, ahead != 0 && ahead < 1 << 23, "cycle {}", t);
            }
        }
    }
}
