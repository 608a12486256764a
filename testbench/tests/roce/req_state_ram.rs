//! `hdl/src/roce/req_state_ram.rs` (the requester's flow state) against
//! `nic_golden::roce::req_state_ram`: every port every cycle on both
//! engines.

use crate::common::*;
use nic_golden::roce::req_state_ram::{In, Out, ReqStateRam as Golden};
use nic_hdl::roce::req_state_ram::ReqStateRam;
use proptest::prelude::*;

/// 8 entries, so that reads meet recent writes: random writes (values
/// wider than the fields) and reads, the same address on both ports in
/// some cycles.
fn stim() -> impl Strategy<Value = Vec<In>> {
    let cycle = (
        (0u32..8, chance(50), any::<[u32; 11]>(), any::<[u8; 10]>()),
        0u32..8,
        chance(20),
    )
        .prop_map(|((wa, we, w32, b), ra, same)| In {
            write_address: wa,
            write_enable: we,
            w_active: b[0] & 1 == 1,
            w_tlm_data: b[1] & 1 == 1,
            w_armed: b[2] & 1 == 1,
            w_rd_open: b[3],
            w_rd_post: b[4],
            w_err: b[5] & 1 == 1,
            w_retries: b[6],
            w_retry_limit: b[7],
            w_head: w32[0],
            w_send_ix: w32[1],
            w_db: w32[2],
            w_tail: w32[3],
            w_gen: b[8],
            w_epoch: b[9],
            w_seq_tail: w32[4],
            w_una: w32[5],
            w_seq_exp: w32[6],
            w_rd_k: w32[7],
            w_psn_tail: w32[8],
            w_psn_next: w32[9],
            w_psn_max: w32[10],
            read_address: if same { wa } else { ra },
        });
    prop::collection::vec(cycle, 1..100)
}

proptest! {
    #![proptest_config(config(24))]
    /// Both engines, every port, every cycle.
    #[test]
    fn req_state_ram_matches_golden(s in stim()) {
        both::<ReqStateRam<3>, Golden<3>>("roce_req_state_ram", &s)?;
    }
}

/// The fields in port order, each widened to 32 bits.
fn fields(o: &Out) -> [u32; 21] {
    [
        u32::from(o.active),
        u32::from(o.tlm_data),
        u32::from(o.armed),
        u32::from(o.rd_open),
        u32::from(o.rd_post),
        u32::from(o.err),
        u32::from(o.retries),
        u32::from(o.retry_limit),
        o.head,
        o.send_ix,
        o.db,
        o.tail,
        u32::from(o.gen),
        u32::from(o.epoch),
        o.seq_tail,
        o.una,
        o.seq_exp,
        o.rd_k,
        o.psn_tail,
        o.psn_next,
        o.psn_max,
    ]
}

/// The fields' widths, in port order (the RTL's docs).
const WIDTHS: [u32; 21] = [
    1, 1, 1, 4, 4, 1, 3, 3, 9, 9, 9, 9, 8, 8, 32, 32, 32, 24, 24, 24, 24,
];

/// Each field has bits of its own: field k, all ones and every other
/// field zero, is written at entry k; every entry read back two cycles
/// after its address holds field k at its width's all-ones and nothing
/// else (a field packed over another, or cut short, shows). The writes
/// read entry 31, never written.
#[test]
fn req_state_ram_fields_are_disjoint() {
    let mut s = Vec::new();
    for k in 0..21u32 {
        let mut w = In {
            write_address: k,
            write_enable: true,
            read_address: 31,
            ..In::default()
        };
        match k {
            0 => w.w_active = true,
            1 => w.w_tlm_data = true,
            2 => w.w_armed = true,
            3 => w.w_rd_open = u8::MAX,
            4 => w.w_rd_post = u8::MAX,
            5 => w.w_err = true,
            6 => w.w_retries = u8::MAX,
            7 => w.w_retry_limit = u8::MAX,
            8 => w.w_head = u32::MAX,
            9 => w.w_send_ix = u32::MAX,
            10 => w.w_db = u32::MAX,
            11 => w.w_tail = u32::MAX,
            12 => w.w_gen = u8::MAX,
            13 => w.w_epoch = u8::MAX,
            14 => w.w_seq_tail = u32::MAX,
            15 => w.w_una = u32::MAX,
            16 => w.w_seq_exp = u32::MAX,
            17 => w.w_rd_k = u32::MAX,
            18 => w.w_psn_tail = u32::MAX,
            19 => w.w_psn_next = u32::MAX,
            20 => w.w_psn_max = u32::MAX,
            _ => unreachable!(),
        }
        s.push(w);
    }
    for k in 0..23u32 {
        s.push(In {
            read_address: k.min(20),
            ..In::default()
        });
    }
    let out = both::<ReqStateRam<5>, Golden<5>>("roce_req_state_ram_fields", &s).unwrap();
    for k in 0..21usize {
        let got = fields(&out[21 + k + 2]);
        for (j, v) in got.iter().enumerate() {
            let want = if j == k {
                u32::MAX >> (32 - WIDTHS[j])
            } else {
                0
            };
            assert_eq!(*v, want, "entry {k}: field {j}");
        }
    }
    assert_eq!(fields(&out[22]), [0; 21], "not before two cycles");
}
