//! `hdl/src/roce/rx_check.rs` (the dispatcher's checks of a record
//! against its context words) against `nic_golden::roce::rx_check`:
//! every port every cycle on both engines; then each output against the
//! dispatcher's rules stated plainly from the inputs of the cycle before
//! (the PSN's three windows as distances forward and back, exactly one
//! or none of them; the alignment and room checks; the READ RESPONSE's
//! expected PSN).

use crate::common::*;
use nic_golden::roce::rx_check::{In, RxCheck as Golden};
use nic_hdl::roce::rx_check::RxCheck;
use proptest::prelude::*;

const PSN: u32 = 0xFF_FFFF;

/// Records and words as the dispatcher feeds them: PSNs at and around
/// the windows' edges from the expected PSN (and anywhere), lengths
/// around what a WRITE may still carry, addresses aligned or not, every
/// flag, each held 1 or 2 cycles.
fn stim() -> impl Strategy<Value = Vec<In>> {
    let offset = prop_oneof![
        Just(0i64),
        1i64..=3,
        4093i64..=4097,
        -4097i64..=-4095,
        -3i64..=-1,
        any::<u32>().prop_map(i64::from),
    ];
    let addr = (any::<u64>(), 0u64..8).prop_map(|(a, lo)| (a & !7) | if lo < 4 { 0 } else { lo });
    let one = (
        (any::<[bool; 4]>(), any::<u8>(), any::<u32>(), offset),
        (0u16..0x2000, -2i64..=2, any::<u32>()),
        (addr.clone(), addr.clone(), addr.clone(), addr),
        (any::<u32>(), any::<u32>(), any::<bool>(), 1usize..=2),
    )
        .prop_map(
            |(
                (b, fl, epsn, off),
                (len, room, dlen),
                (va, wva, radr, eaddr),
                (rpsn, epsn_ent, lap, hold),
            )| {
                let epsn = epsn & PSN;
                let psn = (i64::from(epsn) + off).rem_euclid(1 << 24) as u32;
                let i = In {
                    qp_high: b[0],
                    psn,
                    len,
                    dlen: if b[3] { dlen } else { 0 },
                    va,
                    is_write: b[1],
                    has_reth: b[2],
                    is_read_req: !b[1] && b[3],
                    fl,
                    epsn,
                    wva,
                    wleft: (i64::from(len) + room).max(0) as u32,
                    radr,
                    // The READ RESPONSE's expected PSN: the record's, or not.
                    rpsn: if rpsn & 1 == 0 { psn } else { rpsn & PSN },
                    ent: u128::from(eaddr)
                        | u128::from(if epsn_ent & 1 == 0 {
                            psn
                        } else {
                            epsn_ent & PSN
                        }) << 64
                        | u128::from(lap) << 88,
                };
                vec![i; hold]
            },
        );
    prop::collection::vec(one, 1..60).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(config(24))]
    /// Both engines, every port, every cycle; then the rules, a cycle
    /// after their inputs.
    #[test]
    fn rx_check_follows_the_dispatchers_rules(s in stim()) {
        let out = both::<RxCheck, Golden>("rx_check", &s)?;
        prop_assert_eq!(out[0], Default::default());
        for t in 0..s.len() - 1 {
            let (i, o) = (&s[t], &out[t + 1]);
            let fl = |k: u32| i.fl >> k & 1 == 1;
            prop_assert_eq!(o.unk, i.qp_high || !fl(0));
            prop_assert_eq!((o.nak_sent, o.cnp_on_ce), (fl(1), fl(2)));
            // The windows: forward distance 1..4095 is a loss, backward
            // 1..=4096 a duplicate; at most one holds.
            let fwd = (i.psn + (1 << 24) - i.epsn) % (1 << 24);
            let back = (i.epsn + (1 << 24) - i.psn) % (1 << 24);
            prop_assert_eq!(o.d_zero, i.psn == i.epsn, "cycle {}", t);
            prop_assert_eq!(o.d_ahead, (1..4096).contains(&fwd), "cycle {}", t);
            prop_assert_eq!(o.d_dup, (1..=4096).contains(&back), "cycle {}", t);
            prop_assert!(u8::from(o.d_zero) + u8::from(o.d_ahead) + u8::from(o.d_dup) <= 1);
            // Data to an unaligned address, where data moves.
            let target = if i.has_reth { i.va } else { i.wva };
            let moves = if i.is_read_req { i.dlen > 0 } else { i.len > 0 };
            prop_assert_eq!(o.va_bad, target % 8 != 0 && moves);
            // A MIDDLE or LAST longer than its WRITE's room.
            prop_assert_eq!(o.len_over, i.is_write && !i.has_reth && u64::from(i.len) > u64::from(i.wleft));
            // The READ RESPONSE: between READs the landing entry (its lap
            // the flow's), inside one the running PSN and address.
            let (want_psn, lands_at, lap_ok) = if fl(3) {
                ((i.ent >> 64) as u32 & PSN, i.ent as u64, (i.ent >> 88 == 1) == fl(7))
            } else {
                (i.rpsn, i.radr, true)
            };
            prop_assert_eq!(o.rr_match, lap_ok && i.psn == want_psn, "cycle {}", t);
            prop_assert_eq!(o.ra_bad, lands_at % 8 != 0 && i.len > 0);
        }
    }
}
