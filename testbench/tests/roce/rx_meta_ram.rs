//! `hdl/src/roce/rx_meta_ram.rs` (the parser's metadata queue storage)
//! against `nic_golden::roce::rx_meta_ram`: every port every cycle on
//! both engines.

use crate::common::*;
use nic_golden::roce::rx_meta_ram::{In, RxMetaRam as Golden};
use nic_hdl::roce::rx_meta_ram::RxMetaRam;
use proptest::prelude::*;

/// 8 entries, so that reads meet recent writes: random writes (`w_len`
/// wider than its 13 bits too) and reads, the same address on both
/// ports in some cycles.
fn stim() -> impl Strategy<Value = Vec<In>> {
    let cycle = (
        (0u32..8, chance(50), any::<[u64; 10]>(), any::<[u32; 2]>()),
        (any::<[u16; 3]>(), any::<[bool; 3]>(), any::<u8>()),
        0u32..8,
        chance(20),
    )
        .prop_map(|((wa, we, w64, w32), (w16, b, op), ra, same)| In {
            write_address: wa,
            write_enable: we,
            w_op: op,
            w_a: w64[0],
            w_va: w64[1],
            w_rd: w64[2],
            w_aeth: w32[0],
            w_tlm_hdr: w64[3],
            w_tlm_hop0: w64[4],
            w_tlm_hop1: w64[5],
            w_tlm_hop2: w64[6],
            w_tlm_hop3: w64[7],
            w_tlm_hop4: w64[8],
            w_len: w16[0],
            w_ps: w16[1],
            w_pay_end: w16[2],
            w_sh: b[0],
            w_nz: b[1],
            w_ce: b[2],
            read_address: if same { wa } else { ra },
        });
    prop::collection::vec(cycle, 1..100)
}

proptest! {
    #![proptest_config(config(24))]
    /// Both engines, every port, every cycle.
    #[test]
    fn rx_meta_ram_matches_golden(s in stim()) {
        both::<RxMetaRam<3>, Golden<3>>("roce_rx_meta_ram", &s)?;
    }
}

/// An entry written is read back whole the cycle after its read address,
/// `len` cut to 13 bits.
#[test]
fn rx_meta_ram_reads_back_what_was_written() {
    let w = In {
        write_address: 6,
        write_enable: true,
        w_op: 0x0a,
        w_a: 0x0100_0abc_8012_3456,
        w_va: 0x1122_3344_5566_7788,
        w_rd: 0xdead_beef_0000_1000,
        w_aeth: 0x1f00_0007,
        w_tlm_hdr: 1,
        w_tlm_hop0: 2,
        w_tlm_hop1: 3,
        w_tlm_hop2: 4,
        w_tlm_hop3: 5,
        w_tlm_hop4: 6,
        w_len: 0xffff,
        w_ps: 17,
        w_pay_end: 530,
        w_sh: true,
        w_nz: true,
        w_ce: false,
        read_address: 0,
    };
    let r = In {
        read_address: 6,
        ..In::default()
    };
    let out = both::<RxMetaRam<3>, Golden<3>>("roce_rx_meta_ram_readback", &[w, r, In::default()])
        .unwrap();
    let o = out[2];
    assert_eq!(
        (o.op, o.a, o.va, o.rd, o.aeth),
        (0x0a, w.w_a, w.w_va, w.w_rd, w.w_aeth)
    );
    assert_eq!(
        [o.tlm_hdr, o.tlm_hop0, o.tlm_hop1, o.tlm_hop2, o.tlm_hop3, o.tlm_hop4],
        [1, 2, 3, 4, 5, 6]
    );
    assert_eq!(
        (o.len, o.ps, o.pay_end, o.sh, o.nz, o.ce),
        (0x1fff, 17, 530, true, true, false)
    );
    assert_eq!(out[1].va, 0, "not before its cycle");
}
