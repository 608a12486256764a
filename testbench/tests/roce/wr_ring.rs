//! `hdl/src/roce/wr_ring.rs` (the requester's work-request ring) against
//! `nic_golden::roce::wr_ring`: every port every cycle on both engines.

use crate::common::*;
use nic_golden::roce::wr_ring::{In, WrRing as Golden};
use nic_hdl::roce::wr_ring::WrRing;
use proptest::prelude::*;

/// 16 entries, so that reads meet recent writes: random writes (values
/// wider than the fields too) and reads, with the same address on both
/// ports in some cycles.
fn stim() -> impl Strategy<Value = Vec<In>> {
    let cycle = (
        (0u32..16, chance(50), any::<[u64; 4]>(), any::<[u32; 5]>()),
        prop_oneof![2 => 0u32..16, 1 => Just(u32::MAX)],
        chance(20),
    )
        .prop_map(|((wa, we, w64, w32), ra, same)| In {
            write_address: wa,
            write_enable: we,
            w_read: w64[0] as u8,
            w_laddr: w64[1],
            w_va: w64[2],
            w_rkey: w32[0],
            w_len: w32[1],
            w_tag: w32[2],
            w_seq_first: w32[3],
            w_psn_first: w32[4] | ((w64[3] as u32) << 24),
            read_address: if same { wa } else { ra },
        });
    prop::collection::vec(cycle, 1..120)
}

proptest! {
    #![proptest_config(config(24))]
    /// Both engines, every port, every cycle.
    #[test]
    fn wr_ring_matches_golden(s in stim()) {
        both::<WrRing<4>, Golden<4>>("roce_wr_ring", &s)?;
    }
}

/// An entry written is read back whole, two cycles after its read address.
#[test]
fn wr_ring_reads_back_what_was_written() {
    let w = In {
        write_address: 5,
        write_enable: true,
        w_read: 0x1b,
        w_laddr: 0x1122_3344_5566_7788,
        w_va: 0x99aa_bbcc_ddee_ff00,
        w_rkey: 0xdead_beef,
        w_len: 4096,
        w_tag: 7,
        w_seq_first: 0x8000_0001,
        w_psn_first: 0xab_cdef,
        read_address: 0,
    };
    let r = In {
        read_address: 5,
        ..In::default()
    };
    let s = vec![w, r, In::default(), In::default()];
    let out = both::<WrRing<4>, Golden<4>>("roce_wr_ring_readback", &s).unwrap();
    let o = out[3];
    assert_eq!(
        (
            o.read,
            o.laddr,
            o.va,
            o.rkey,
            o.len,
            o.tag,
            o.seq_first,
            o.psn_first
        ),
        (
            0x1b,
            w.w_laddr,
            w.w_va,
            w.w_rkey,
            4096,
            7,
            0x8000_0001,
            0xab_cdef
        )
    );
    assert_eq!(out[2].laddr, 0, "not before two cycles");
}
