//! `hdl/src/roce/read_psns.rs` (the PSNs a READ REQUEST consumes)
//! against `nic_golden::roce::read_psns`: every port every cycle on
//! both engines, and each count against the arithmetic it stands for.

use crate::common::*;
use nic_golden::roce::read_psns::{In, ReadPsns as Golden};
use nic_hdl::roce::read_psns::ReadPsns;
use proptest::prelude::*;

/// Any MTU code (0..=15, so the clamp is crossed) and a DMA length
/// biased to 0, multiples of the MTU and their neighbours, and the top.
fn any_in() -> impl Strategy<Value = In> {
    (0u8..16, operand(32), 0u32..3, -1i64..=1).prop_map(|(m, x, k, d)| {
        let dlen = match k {
            0 => x as u32,
            // A multiple of some MTU, and one either side.
            1 => ((x as i64 & !0xFF) + d) as u32,
            _ => x as u32 & 0x3FFF,
        };
        In {
            cfg_mtu_log2: m,
            dlen,
        }
    })
}

proptest! {
    #![proptest_config(config(24))]
    /// Both engines, every port, every cycle; and the count for each
    /// cycle's inputs, one cycle later, is ⌈dlen / MTU⌉ mod 2^24 (1 if
    /// that is 0), with the MTU 2^clamp(m, 8, 12), worked in 64 bits.
    #[test]
    fn read_psns_matches_golden(s in prop::collection::vec(any_in(), 1..80)) {
        let outs = both::<ReadPsns, Golden>("roce_read_psns", &s)?;
        for (k, i) in s.iter().enumerate().take(s.len() - 1) {
            let mtu = 1u64 << i.cfg_mtu_log2.clamp(8, 12);
            let n = (i.dlen as u64).div_ceil(mtu) % (1 << 24);
            let want = if n == 0 { 1 } else { n as u32 };
            prop_assert_eq!(outs[k + 1].psns, want, "dlen {} m {}", i.dlen, i.cfg_mtu_log2);
        }
    }
}
