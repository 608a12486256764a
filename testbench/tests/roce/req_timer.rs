//! `hdl/src/roce/req_timer.rs` (the requester's retransmission timer)
//! against `nic_golden::roce::req_timer`: every port every cycle on both
//! engines; and, from the ports alone, the timer's contract: the entries
//! come out in the order pushed, each with the deadline its push cycle
//! plus the RTO, and the head is expired exactly when the cycle count has
//! reached that deadline in serial order (across the 2^31 boundary too).

use crate::common::*;
use nic_golden::roce::req_timer::{In, ReqTimer as Golden};
use nic_hdl::roce::req_timer::ReqTimer;
use proptest::prelude::*;

const A: usize = 4;
/// Pushes per run: the FIFO's 2^A words, so none is refused.
const MAX_PUSHES: usize = 1 << A;

/// Cycles of random pushes (flows ≥ 1, so a head of 0 means none) and
/// pops, the RTO from short ones (which expire within the run), ones
/// about 2^31 (the serial order's edge) and any.
fn stim() -> impl Strategy<Value = Vec<In>> {
    let rto = prop_oneof![
        3 => 0u32..40,
        1 => 0x7FFF_FFF0u32..0x8000_0010,
        1 => any::<u32>(),
    ];
    let cycle = (any::<[bool; 2]>(), 1u32..=0xFFFF, any::<u8>(), rto, 0u8..4).prop_map(
        |(b, flow, gen, cfg_rto, odds)| In {
            push: b[0] && odds == 0,
            flow,
            gen,
            cfg_rto,
            pop: b[1],
        },
    );
    prop::collection::vec(cycle, 1..120).prop_map(|mut s| {
        let mut n = 0;
        for i in s.iter_mut() {
            i.push &= n < MAX_PUSHES;
            n += i.push as usize;
        }
        s
    })
}

proptest! {
    #![proptest_config(config(24))]
    /// Both engines, every port, every cycle; then the contract.
    #[test]
    fn req_timer_matches_golden_and_keeps_its_deadlines(s in stim()) {
        let out = both::<ReqTimer<A>, Golden<A>>("req_timer", &s)?;
        // The count starts at 0 and steps every cycle: at cycle k it is k.
        let pushed: Vec<u64> = s
            .iter()
            .enumerate()
            .filter(|(_, i)| i.push)
            .map(|(k, i)| {
                let deadline = (k as u32).wrapping_add(i.cfg_rto);
                ((i.flow as u64) << 40) | ((i.gen as u64) << 32) | deadline as u64
            })
            .collect();
        let mut taken = Vec::new();
        for (k, (i, o)) in s.iter().zip(&out).enumerate() {
            if o.head == 0 {
                prop_assert!(!o.expired, "cycle {}: expired with no entry", k);
                continue;
            }
            let since = (k as u32).wrapping_sub(o.head as u32);
            prop_assert_eq!(o.expired, since < 1 << 31, "cycle {}: head {:x}", k, o.head);
            if i.pop {
                taken.push(o.head);
            }
        }
        prop_assert!(taken.len() <= pushed.len());
        prop_assert_eq!(&taken[..], &pushed[..taken.len()], "entries out of order or altered");
    }
}
