//! `hdl/src/roce/wr_check.rs` (the requester's work-request checks)
//! against `nic_golden::roce::wr_check`: every port every cycle on both
//! engines; and, where the inputs hold two cycles as the requester holds
//! its latched work request, each output against the golden requester's
//! rules (`extent`, `npkts`, its refusals: bad opcode, bad length, full).

use crate::common::*;
use nic_golden::roce::requester::{extent, npkts};
use nic_golden::roce::wr_check::{In, WrCheck as Golden};
use nic_hdl::roce::wr_check::WrCheck;
use nic_spec::roce::wr;
use proptest::prelude::*;

const Q: usize = 3;

/// Work requests at the edges of every check (opcodes, lengths around 0
/// and 2^31, rings near full, windows near 2^31), each held 1 to 3
/// cycles.
fn stim() -> impl Strategy<Value = Vec<In>> {
    let opcode = prop_oneof![Just(wr::WRITE), Just(wr::READ), any::<u8>()];
    let len = prop_oneof![
        Just(0u32),
        Just(1),
        Just(wr::MAX_LEN),
        Just(wr::MAX_LEN + 1),
        Just(u32::MAX),
        1u32..=70_000,
        any::<u32>(),
    ];
    let one = (
        opcode,
        len,
        prop_oneof![8u8..=12, 0u8..16],
        (0u32..512, 0u32..=(2 << Q)),
        (
            any::<u32>(),
            prop_oneof![Just(0u32), 0u32..=70_000, any::<u32>()],
        ),
        1usize..=3,
    )
        .prop_map(|(opcode, len, mlog, (head, used), (una, near), hold)| {
            // The window seq_tail − una just below or above 2^31 − len in
            // some, anywhere in others.
            let window = ((1u32 << 31) - (len & 0xFFFF)).wrapping_sub(near);
            let i = In {
                opcode,
                len,
                mlog,
                tail: head.wrapping_add(used) & 0x1FF,
                head,
                seq_tail: una.wrapping_add(window),
                una,
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
    fn wr_check_follows_the_requesters_rules(s in stim()) {
        let out = both::<WrCheck<Q>, Golden<Q>>("wr_check", &s)?;
        for t in 1..s.len().saturating_sub(1) {
            let (i, o) = (&s[t], &out[t + 1]);
            let read = i.opcode == wr::READ;
            prop_assert_eq!(o.is_read, read);
            prop_assert_eq!(o.bad_opcode, i.opcode != wr::WRITE && !read);
            prop_assert_eq!(o.bad_len, i.len == 0 || i.len > wr::MAX_LEN);
            prop_assert_eq!(o.ext, extent(read, i.len));
            prop_assert_eq!(o.n, npkts(i.len, i.mlog as u32));
            if s[t - 1] == *i {
                let used = i.tail.wrapping_sub(i.head) & ((2 << Q) - 1);
                let window = i.seq_tail.wrapping_sub(i.una) as u64 + extent(read, i.len) as u64;
                prop_assert_eq!(
                    o.is_full,
                    used == 1 << Q || window >= 1 << 31,
                    "cycle {}",
                    t
                );
            }
        }
    }
}
