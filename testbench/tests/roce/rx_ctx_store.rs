//! `hdl/src/roce/rx_ctx_store.rs` (the dispatcher's per-flow context
//! store) against `nic_golden::roce::rx_ctx_store`: every port every
//! cycle on both engines; and what a flow reads back after set-ups,
//! landing entries, decisions and undos, against a plain table of flows.

use crate::common::*;
use nic_golden::roce::rx_ctx_store::{In, Out, RxCtxStore as Golden};
use nic_golden::roce::RxFlowCtx;
use nic_hdl::roce::rx_ctx_store::RxCtxStore;
use proptest::prelude::*;

fn any_ctx() -> impl Strategy<Value = RxFlowCtx> {
    (
        0u32..16,
        any::<bool>(),
        any::<u32>(),
        any::<u64>(),
        any::<u32>(),
        0u32..32,
        any::<[bool; 2]>(),
    )
        .prop_map(
            |(flow, active, epsn, rd_addr, rd_psn, rd_idx, b)| RxFlowCtx {
                flow,
                active,
                epsn,
                rd_addr,
                rd_psn,
                rd_idx,
                rd_only: b[0],
                cnp_on_ce: b[1],
            },
        )
}

/// 8 flows (flow values to 15, so the ports' widths cut them): host
/// writes, reads of either flow, decision writes with any enables, and
/// undos armed, disarmed and reset at random, often together.
fn any_in() -> impl Strategy<Value = In> {
    (
        (chance(20), any_ctx(), any::<bool>(), 0u32..16, 0u32..16),
        (
            any::<[bool; 4]>(),
            any::<u8>(),
            any::<[u32; 4]>(),
            any::<[u64; 2]>(),
        ),
        (chance(15), chance(10), chance(15)),
    )
        .prop_map(
            |((cv, ctx, busy, fnew, flow), (we, fl, w32, w64), (arm, reset, taken))| In {
                ctx_valid: cv,
                ctx,
                busy,
                flow_new: fnew,
                undo_arm: arm,
                reset,
                last_taken: taken,
                ..decide_in(flow, we, fl, w32, w64)
            },
        )
}

/// A flow's words as the plain table holds them.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Flow {
    fl: u8,
    epsn: u32,
    msn: u32,
    wva: u64,
    wleft: u32,
    radr: u64,
    rpsn: u32,
    /// The 8 landing entries: (lap, psn, address).
    ent: [(bool, u32, u64); 8],
}

/// One operation on one of 8 flows.
#[derive(Clone, Debug)]
enum Op {
    /// A flow set-up (`rd_only` low).
    Setup(u32, bool, bool, u32, u64, u32),
    /// A landing entry write: flow, rd_idx (4 bits), psn, address.
    Entry(u32, u32, u32, u64),
    /// The decision's write: flow, enables, fl, epsn, msn, wva, wleft, radr, rpsn.
    Decide(u32, [bool; 4], u8, [u32; 4], [u64; 2]),
    /// Arm the undo on the flow as read, decide on it, then reset: `0`
    /// alone (the words armed come back), `1` with a host set-up of
    /// another flow in the reset cycle (they come back a cycle later),
    /// `2` with a host set-up of the flow itself (the undo is cancelled:
    /// the set-up stays), `3` after its last word was taken (disarmed:
    /// the decision stays).
    Undo(u32, [bool; 4], u8, [u32; 4], [u64; 2], u8),
}

fn any_op() -> impl Strategy<Value = Op> {
    let m24 = 0u32..=0xFF_FFFF;
    prop_oneof![
        (
            0u32..8,
            any::<[bool; 2]>(),
            m24.clone(),
            any::<u64>(),
            m24.clone()
        )
            .prop_map(|(f, b, e, a, p)| Op::Setup(f, b[0], b[1], e, a, p)),
        (0u32..8, 0u32..16, m24.clone(), any::<u64>())
            .prop_map(|(f, i, p, a)| Op::Entry(f, i, p, a)),
        (
            0u32..8,
            any::<[bool; 4]>(),
            any::<u8>(),
            [m24.clone(), m24.clone(), 0u32..=u32::MAX, m24.clone()],
            any::<[u64; 2]>()
        )
            .prop_map(|(f, we, fl, w32, w64)| Op::Decide(f, we, fl, w32, w64)),
        (
            0u32..8,
            any::<[bool; 4]>(),
            any::<u8>(),
            [m24.clone(), m24.clone(), 0u32..=u32::MAX, m24],
            any::<[u64; 2]>(),
            0u8..4
        )
            .prop_map(|(f, we, fl, w32, w64, how)| Op::Undo(f, we, fl, w32, w64, how)),
    ]
}

fn decide_in(f: u32, we: [bool; 4], fl: u8, w32: [u32; 4], w64: [u64; 2]) -> In {
    In {
        busy: true,
        flow: f,
        we_fl: we[0],
        we_acc: we[1],
        we_wva: we[2],
        we_rd: we[3],
        w_fl: fl,
        w_epsn: w32[0],
        w_msn: w32[1],
        w_wleft: w32[2],
        w_rpsn: w32[3],
        w_wva: w64[0],
        w_radr: w64[1],
        ..In::default()
    }
}

/// The table's change for a decision's write.
fn decide(t: &mut Flow, we: [bool; 4], fl: u8, w32: [u32; 4], w64: [u64; 2]) {
    if we[0] {
        t.fl = fl;
        t.wleft = w32[2];
    }
    if we[1] {
        t.epsn = w32[0];
        t.msn = w32[1];
    }
    if we[2] {
        t.wva = w64[0];
    }
    if we[3] {
        t.radr = w64[1];
        t.rpsn = w32[3];
    }
}

/// What the store shows for a flow: its words and the landing entry at
/// its `rd_idx` mod 8.
fn shown(t: &Flow) -> Out {
    let (lap, psn, addr) = t.ent[((t.fl >> 4) & 7) as usize];
    Out {
        undo_held: false,
        fl: t.fl,
        epsn: t.epsn,
        msn: t.msn,
        wva: t.wva,
        wleft: t.wleft,
        radr: t.radr,
        rpsn: t.rpsn,
        ent: ((lap as u128) << 88) | ((psn as u128) << 64) | addr as u128,
    }
}

/// The stimulus for `ops`, and the cycles whose outputs must show a
/// flow as the table holds it then. Every operation is followed by a
/// read of its flow (by `flow_new` or `flow`), then two cycles holding
/// the flow as the dispatcher does: the words arrive two cycles after
/// the read, the landing entry three.
fn plan(ops: &[Op]) -> (Vec<In>, Vec<(usize, Out)>) {
    let mut table = [Flow::default(); 8];
    let mut s = Vec::new();
    let mut checks = Vec::new();
    let read = |s: &mut Vec<In>, checks: &mut Vec<(usize, Out)>, t: &Flow, f: u32| {
        let by_new = s.len() % 2 == 0;
        s.push(In {
            busy: !by_new,
            flow_new: if by_new { f } else { 7 - f },
            flow: if by_new { 7 - f } else { f },
            ..In::default()
        });
        // The dispatcher's next cycles: the flow latched and read again
        // (the landing entry is read at `flow` a cycle after the index).
        let held = In {
            busy: true,
            flow: f,
            ..In::default()
        };
        s.push(held);
        s.push(held);
        checks.push((s.len(), shown(t)));
        s.push(In::default());
    };
    for op in ops {
        match *op {
            Op::Setup(f, active, ce, epsn, addr, psn) => {
                let ctx = RxFlowCtx {
                    flow: f,
                    active,
                    epsn,
                    rd_addr: addr,
                    rd_psn: psn,
                    cnp_on_ce: ce,
                    ..Default::default()
                };
                s.push(In {
                    ctx_valid: true,
                    ctx,
                    ..In::default()
                });
                let t = &mut table[f as usize];
                let ent = t.ent;
                *t = Flow {
                    fl: (active as u8) | (((active && ce) as u8) << 2) | 8,
                    epsn,
                    radr: addr,
                    rpsn: psn,
                    ent,
                    ..Flow::default()
                };
                read(&mut s, &mut checks, t, f);
            }
            Op::Entry(f, idx, psn, addr) => {
                let ctx = RxFlowCtx {
                    flow: f,
                    rd_idx: idx,
                    rd_psn: psn,
                    rd_addr: addr,
                    rd_only: true,
                    ..Default::default()
                };
                s.push(In {
                    ctx_valid: true,
                    ctx,
                    ..In::default()
                });
                let t = &mut table[f as usize];
                t.ent[(idx & 7) as usize] = (idx & 8 != 0, psn, addr);
                // Point the flow's rd_idx at the entry, so the read shows it.
                let fl = (t.fl & 0x0F) | ((idx as u8 & 0xF) << 4);
                s.push(decide_in(
                    f,
                    [true, false, false, false],
                    fl,
                    [0, 0, t.wleft, 0],
                    [0; 2],
                ));
                t.fl = fl;
                read(&mut s, &mut checks, t, f);
            }
            Op::Decide(f, we, fl, w32, w64) => {
                s.push(decide_in(f, we, fl, w32, w64));
                decide(&mut table[f as usize], we, fl, w32, w64);
                read(&mut s, &mut checks, &table[f as usize], f);
            }
            Op::Undo(f, we, fl, w32, w64, how) => {
                // Read the flow; arm in the cycle its words show.
                s.push(In {
                    busy: true,
                    flow: f,
                    ..In::default()
                });
                s.push(In::default());
                s.push(In {
                    busy: true,
                    flow: f,
                    undo_arm: true,
                    ..In::default()
                });
                s.push(decide_in(f, we, fl, w32, w64));
                let armed = table[f as usize];
                decide(&mut table[f as usize], we, fl, w32, w64);
                // A decision the reset cycle's undo must win over.
                let mut reset = In {
                    reset: true,
                    ..decide_in((f + 1) % 8, [true; 4], 0, [0; 4], [0; 2])
                };
                let g = match how {
                    1 => (f + 1) % 8,
                    _ => f,
                };
                let setup = RxFlowCtx {
                    flow: g,
                    active: true,
                    epsn: 77,
                    rd_addr: 8,
                    rd_psn: 9,
                    ..Default::default()
                };
                match how {
                    0 => table[f as usize] = armed,
                    3 => {
                        // Disarmed: the reset cycle's decision is written.
                        s.push(In {
                            last_taken: true,
                            ..In::default()
                        });
                        decide(
                            &mut table[((f + 1) % 8) as usize],
                            [true; 4],
                            0,
                            [0; 4],
                            [0; 2],
                        );
                    }
                    _ => {
                        reset.ctx_valid = true;
                        reset.ctx = setup;
                        let ent = table[g as usize].ent;
                        table[g as usize] = Flow {
                            fl: 9,
                            epsn: 77,
                            radr: 8,
                            rpsn: 9,
                            ent,
                            ..Flow::default()
                        };
                        if how == 1 {
                            table[f as usize] = armed;
                        }
                    }
                }
                s.push(reset);
                s.push(In::default());
                if how == 1 {
                    read(&mut s, &mut checks, &table[g as usize], g);
                }
                read(&mut s, &mut checks, &table[f as usize], f);
            }
        }
    }
    (s, checks)
}

proptest! {
    #![proptest_config(config(24))]
    /// Both engines, every port, every cycle.
    #[test]
    fn rx_ctx_store_matches_golden(s in prop::collection::vec(any_in(), 1..120)) {
        both::<RxCtxStore<3>, Golden<3>>("roce_rx_ctx_store", &s)?;
    }

    /// Each flow reads back what the table says its set-ups, landing
    /// entries, decisions and undos left: a write lands at its flow
    /// only, only the fields its enables name change, and a reset puts
    /// back the words armed unless the packet's last word was taken or
    /// the host set the flow up again.
    #[test]
    fn rx_ctx_store_reads_back_the_table(ops in prop::collection::vec(any_op(), 1..24)) {
        let (s, checks) = plan(&ops);
        let outs = both::<RxCtxStore<3>, Golden<3>>("roce_rx_ctx_store_table", &s)?;
        for (at, want) in checks {
            prop_assert_eq!(outs[at], want, "cycle {}", at);
        }
    }
}
