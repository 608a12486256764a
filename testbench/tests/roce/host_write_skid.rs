//! `hdl/src/roce/host_write_skid.rs` (the dispatcher's host write
//! register and skid) against `nic_golden::roce::host_write_skid`: every
//! port every cycle on both engines; and, pushed only while `ready`
//! under any back-pressure, the words the host takes are the words
//! pushed, in order, none lost or repeated.

use crate::common::*;
use nic_golden::roce::host_write_skid::{HostWriteSkid as Golden, In};
use nic_golden::roce::HostWrite;
use nic_hdl::roce::host_write_skid::HostWriteSkid;
use proptest::prelude::*;

/// Any inputs: pushes whether `ready` or not, any back-pressure, a
/// reset now and then.
fn any_in() -> impl Strategy<Value = In> {
    (
        chance(5),
        chance(60),
        any::<[u64; 2]>(),
        any::<u8>(),
        any::<bool>(),
        chance(50),
    )
        .prop_map(|(reset, push, w, strb, last, wr_ready)| In {
            reset,
            push,
            addr: w[0],
            data: w[1],
            strb,
            last,
            wr_ready,
        })
}

proptest! {
    #![proptest_config(config(24))]
    /// Both engines, every port, every cycle.
    #[test]
    fn host_write_skid_matches_golden(s in prop::collection::vec(any_in(), 1..120)) {
        both::<HostWriteSkid, Golden>("roce_host_write_skid", &s)?;
    }

    /// A source that pushes a word when it has one and `ready` is high
    /// (every output is a flip-flop's, so the stimulus reads `ready`
    /// before it picks the cycle's inputs) and a host that takes at
    /// random, then takes every word: each word taken is the next one
    /// pushed, with its `last`, every word pushed is taken, and the
    /// fields are zero while not valid.
    #[test]
    fn host_write_skid_keeps_order(
        offer in prop::collection::vec(any::<bool>(), 4..120),
        takes in prop::collection::vec(chance(50), 4..120),
    ) {
        // Plan the pushes on the twin's `ready` (equal to the RTL's, as
        // `both` checks), then run both engines on that stimulus.
        use nic_golden::Cycle;
        let n = offer.len().min(takes.len());
        let mut g = Golden::default();
        let mut s = Vec::new();
        let mut pushed = Vec::new();
        for k in 0..n {
            // The outputs do not depend on this cycle's inputs.
            let ready = g.clone().step(&In::default()).ready;
            let push = offer[k] && ready;
            let w = HostWrite { addr: 8 * k as u64, data: k as u64 * 0x0101_0101, strb: k as u8 };
            let i = In { reset: false, push, addr: w.addr, data: w.data, strb: w.strb, last: k % 3 == 0, wr_ready: takes[k] };
            if push {
                pushed.push((w, k % 3 == 0));
            }
            g.step(&i);
            s.push(i);
        }
        // Then three cycles of a host that takes every word.
        for _ in 0..3 {
            s.push(In { wr_ready: true, ..In::default() });
        }
        let outs = both::<HostWriteSkid, Golden>("roce_host_write_skid_order", &s)?;
        let mut taken = Vec::new();
        for (k, o) in outs.iter().enumerate() {
            if o.wr_valid && s[k].wr_ready {
                taken.push((o.wr, o.wr_last));
            }
            if !o.wr_valid {
                prop_assert_eq!(o.wr, HostWrite::default(), "cycle {}", k);
            }
        }
        prop_assert_eq!(taken, pushed);
    }
}
