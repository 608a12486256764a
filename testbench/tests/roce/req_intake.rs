//! `hdl/src/roce/req_intake.rs` (the requester's input stages, their
//! choice and the operation latched) against `nic_golden::roce::req_intake`:
//! every port every cycle on both engines; and, read from the ports
//! alone, every record a stage accepts is taken once, in its input's
//! order, in the priority of the block's docs, and latched as it came
//! (its fields at their widths; the flow, a timer entry's generation,
//! feedback's PSN and a work request's opcode and length a cycle after
//! the take, the other fields two).

use crate::common::*;
use nic_golden::roce::req_intake::{In, Out, ReqIntake as Golden};
use nic_golden::roce::{CcFeedback, NakReq, ReqFlowCtx, Telemetry, WorkReq};
use nic_golden::sched::PktSend;
use nic_hdl::roce::req_intake::ReqIntake;
use proptest::prelude::*;
use std::collections::VecDeque;

const A: usize = 4;

/// Random records (fields wider than their widths), each input valid in
/// some cycles, `idle` in most, the timer's entry expired in some.
fn stim() -> impl Strategy<Value = Vec<In>> {
    let cycle = (
        any::<[bool; 5]>(),
        any::<[u32; 8]>(),
        any::<[u64; 4]>(),
        (chance(70), chance(20), chance(15)),
    )
        .prop_map(|(v, w, d, (idle, desc_full, t_exp))| In {
            ctx_valid: v[0] && w[7] % 4 == 0,
            ctx: ReqFlowCtx {
                flow: w[0],
                active: w[1] & 1 == 1,
                psn: w[1],
                tlm_data: w[2] & 1 == 1,
                retry_limit: w[3] as u8,
            },
            wr_valid: v[1],
            wr: WorkReq {
                flow: w[2],
                opcode: w[3] as u8,
                laddr: d[0],
                va: d[1],
                rkey: w[4],
                len: w[5],
                tag: w[6],
            },
            send_valid: v[2],
            send: PktSend {
                flow: w[3],
                seq: w[4],
                len: w[5],
                probe: w[6] & 1 == 1,
                epoch: w[7] as u8,
            },
            fb_valid: v[3],
            fb: CcFeedback {
                flow: w[4],
                psn: w[5],
                aeth: w[6],
                opcode: w[0] as u8,
                tlm: Telemetry {
                    present: w[1] & 2 == 2,
                    hdr: d[2],
                    hop0: d[3],
                    hop1: d[0] ^ d[3],
                    hop2: d[1] ^ d[2],
                    hop3: !d[0],
                    hop4: !d[1],
                },
            },
            nak_valid: v[4],
            nak: NakReq {
                flow: w[5],
                psn: w[6],
                syndrome: w[0] as u8,
            },
            idle,
            desc_full,
            t_exp,
            t_head: d[2] & ((1 << 56) - 1),
        });
    prop::collection::vec(cycle, 1..120)
}

/// The latched fields of `o` that a take of kind `k` sets, as the record
/// `want` gives them (narrowed to the RTL's widths).
fn check_latched(k: usize, o: &Out, want: &In, cycle: usize) -> Result<(), TestCaseError> {
    let fm = (1u32 << A) - 1;
    let psn = 0xFF_FFFF;
    match k {
        0 => {
            let c = want.ctx;
            prop_assert_eq!(
                (
                    o.flow,
                    o.ctx_active,
                    o.ctx_psn,
                    o.ctx_tlm_data,
                    o.ctx_retry_limit
                ),
                (
                    c.flow & fm,
                    c.active,
                    c.psn & psn,
                    c.tlm_data,
                    c.retry_limit & 7
                ),
                "cycle {}: context latched",
                cycle
            );
        }
        1 => {
            let f = want.fb;
            let t = f.tlm;
            prop_assert_eq!(
                (o.flow, o.fb_psn, o.fb_aeth, o.fb_opcode, o.fb_tlm),
                (f.flow & fm, f.psn & psn, f.aeth, f.opcode, t.present),
                "cycle {}: feedback latched",
                cycle
            );
            prop_assert_eq!(
                [o.fb_hdr, o.fb_hop0, o.fb_hop1, o.fb_hop2, o.fb_hop3, o.fb_hop4],
                [t.hdr, t.hop0, t.hop1, t.hop2, t.hop3, t.hop4]
            );
        }
        2 => {
            let n = want.nak;
            prop_assert_eq!(
                (
                    o.flow,
                    o.fb_psn,
                    o.fb_aeth,
                    o.fb_opcode,
                    o.fb_tlm,
                    o.fb_hdr | o.fb_hop4
                ),
                (
                    n.flow & fm,
                    n.psn & psn,
                    (n.syndrome as u32) << 24,
                    0,
                    false,
                    0
                ),
                "cycle {}: NAK latched",
                cycle
            );
        }
        3 => {
            let h = want.t_head;
            prop_assert_eq!(
                (o.flow, o.t_gen),
                ((h >> 40) as u32 & 0xFFFF, (h >> 32) as u8),
                "cycle {}: timer entry latched",
                cycle
            );
        }
        4 => {
            let s = want.send;
            prop_assert_eq!(
                (o.flow, o.send_seq, o.send_len, o.send_probe, o.send_epoch),
                (s.flow & 0xFFFF, s.seq, s.len & 0xFFFF, s.probe, s.epoch),
                "cycle {}: PktSend latched",
                cycle
            );
        }
        _ => {
            let w = want.wr;
            prop_assert_eq!(
                (
                    o.flow,
                    o.wr_opcode,
                    o.wr_laddr,
                    o.wr_va,
                    o.wr_rkey,
                    o.wr_len,
                    o.wr_tag
                ),
                (
                    w.flow & 0xFFFF,
                    w.opcode,
                    w.laddr,
                    w.va,
                    w.rkey,
                    w.len,
                    w.tag
                ),
                "cycle {}: work request latched",
                cycle
            );
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(24))]
    /// Both engines, every port, every cycle; then the ports alone: what
    /// is accepted is taken once, in order, by priority, latched whole.
    #[test]
    fn req_intake_takes_each_record_once_by_priority(s in stim()) {
        let out = both::<ReqIntake<A>, Golden<A>>("req_intake", &s)?;
        // Per input (ctx, fb, nak, send, wr), the records accepted and not
        // yet taken; a stage holds one, at its head.
        let mut held: [VecDeque<In>; 5] = Default::default();
        // A take's flow (a timer entry's generation, feedback's PSN, a
        // work request's opcode and length) is latched at its edge, its
        // record's other fields at the next: checked a cycle and two
        // cycles after the take, with those seen at the first (another
        // take may follow at once).
        let mut pending: Option<(usize, In)> = None;
        let mut fields_next: Option<(usize, In, Out)> = None;
        for (c, (i, o)) in s.iter().zip(&out).enumerate() {
            if let Some((k, want, first)) = fields_next.take() {
                let o = Out {
                    flow: first.flow,
                    fb_psn: first.fb_psn,
                    wr_opcode: first.wr_opcode,
                    wr_len: first.wr_len,
                    ..*o
                };
                check_latched(k, &o, &want, c)?;
            }
            if let Some((k, want)) = pending.take() {
                if k == 3 {
                    check_latched(k, o, &want, c)?;
                } else {
                    fields_next = Some((k, want, *o));
                }
            }
            // A stage is ready when empty (a flip-flop), whatever is taken
            // this cycle.
            let readies = [o.ctx_ready, o.fb_ready, o.nak_ready, o.send_ready, o.wr_ready];
            let valids = [i.ctx_valid, i.fb_valid, i.nak_valid, i.send_valid, i.wr_valid];
            for q in 0..5 {
                prop_assert_eq!(readies[q], held[q].is_empty(), "cycle {}: ready {}", c, q);
            }
            let heads = [
                !held[0].is_empty(),
                !held[1].is_empty(),
                !held[2].is_empty(),
                i.t_exp,
                !held[3].is_empty() && !i.desc_full,
                !held[4].is_empty(),
            ];
            let takes = [o.take_ctx, o.take_fb, o.take_nak, o.take_t, o.take_send, o.take_wr];
            let first = heads.iter().position(|&h| h);
            let want: Vec<bool> = (0..6).map(|k| i.idle && first == Some(k)).collect();
            prop_assert_eq!(&takes[..], &want[..], "cycle {}: the take by priority", c);
            prop_assert_eq!(o.take, takes.iter().any(|&t| t));
            if let Some(k) = takes.iter().position(|&t| t) {
                let rec = match k {
                    3 => *i,
                    _ => held[[0, 1, 2, 3, 3, 4][k]].pop_front().unwrap(),
                };
                pending = Some((k, rec));
            }
            for q in 0..5 {
                if readies[q] && valids[q] {
                    held[q].push_back(*i);
                }
            }
        }
    }
}
