//! `hdl/src/sched/flow_state_ram.rs` (the scheduler's per-flow state)
//! against `nic_golden::sched::flow_state_ram`: every port every cycle on
//! both engines.

use crate::common::*;
use nic_golden::sched::flow_state_ram::{FlowStateRam as Golden, In};
use nic_hdl::sched::FlowStateRam;
use proptest::prelude::*;

/// 8 entries, so that reads meet recent writes: random writes (values
/// wider than the fields) and reads, the same address on both ports in
/// some cycles.
fn stim() -> impl Strategy<Value = Vec<In>> {
    let cycle = (
        (
            0u32..8,
            chance(50),
            any::<[u32; 8]>(),
            any::<u64>(),
            any::<[u8; 2]>(),
        ),
        0u32..8,
        chance(20),
    )
        .prop_map(|((wa, we, w32, cr, b), ra, same)| In {
            write_address: wa,
            write_enable: we,
            w_r: w32[0],
            w_w: w32[1],
            w_una: w32[2],
            w_nxt: w32[3],
            w_seq_end: w32[4],
            w_cr: cr,
            w_last: w32[5],
            w_fl: b[0],
            w_ep: b[1],
            read_address: if same { wa } else { ra },
        });
    prop::collection::vec(cycle, 1..100)
}

proptest! {
    #![proptest_config(config(24))]
    /// Both engines, every port, every cycle.
    #[test]
    fn flow_state_ram_matches_golden(s in stim()) {
        both::<FlowStateRam<3>, Golden<3>>("sched_flow_state_ram", &s)?;
    }
}

/// An entry written is read back whole the cycle after its read address,
/// each field cut to its width.
#[test]
fn flow_state_ram_reads_back_what_was_written() {
    let w = In {
        write_address: 3,
        write_enable: true,
        w_r: 0x0123_4567,
        w_w: 0xffff_ffff,
        w_una: 10,
        w_nxt: 20,
        w_seq_end: 30,
        w_cr: u64::MAX,
        w_last: 0x8000_0000,
        w_fl: 0xff,
        w_ep: 0x5a,
        read_address: 0,
    };
    let r = In {
        read_address: 3,
        ..In::default()
    };
    let out =
        both::<FlowStateRam<3>, Golden<3>>("sched_flow_state_ram_readback", &[w, r, In::default()])
            .unwrap();
    let o = out[2];
    assert_eq!(
        (o.r, o.w, o.una, o.nxt, o.seq_end, o.cr, o.last, o.fl, o.ep),
        (
            0x0123_4567,
            0xff_ffff,
            10,
            20,
            30,
            (1 << 44) - 1,
            0x8000_0000,
            3,
            0x5a
        )
    );
    assert_eq!(out[1].r, 0, "not before its cycle");
}
