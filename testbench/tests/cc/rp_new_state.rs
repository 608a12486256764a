//! `hdl/src/cc/rp_new_state.rs` (the DCQCN reaction point's new state,
//! S7) against `nic_golden::cc::rp_new_state`: every port every cycle on
//! both engines, on any inputs; and, on inputs an operation makes from a
//! flow's state, the state it leaves against the transaction model's
//! statement of each operation (`nic_golden::cc::dcqcn`'s `cut`,
//! `increase` and `alpha_step`, and `DcqcnRp::apply`'s cases).

use crate::common::*;
use nic_golden::cc::dcqcn::{alpha_step, cut, increase, Epochs, RpState};
use nic_golden::cc::dcqcn_params::ALPHA_ONE;
use nic_golden::cc::rp_new_state::{In, Out, RpNewState as Golden};
use nic_hdl::cc::rp_new_state::RpNewState;
use proptest::prelude::*;

fn any_in() -> impl Strategy<Value = In> {
    let words = (operand(64), operand(53), operand(61), operand(33));
    let flags = any::<[bool; 11]>();
    let vals = (
        operand(21),
        operand(32),
        operand(32),
        operand(32),
        operand(32),
        any::<[u16; 3]>(),
        operand(32),
        operand(32),
    );
    (words, flags, vals).prop_map(|((rate, ab, meta, bc33), f, v)| In {
        rate,
        ab,
        meta,
        create: f[0],
        destroy: f[1],
        cnp: f[2],
        first: f[3],
        cnp_cut: f[4],
        sent_acc: f[5],
        byte_pass: f[6],
        vis_live: f[7],
        vis_astep: f[8],
        vis_inc: f[9],
        vis_cut: f[10],
        alpha_use: v.0 as u32,
        rc_base: v.1 as u32,
        cut_d: v.2 as u32,
        bc33,
        inc_rc: v.3 as u32,
        inc_rt: v.4 as u32,
        cur_a: v.5[0],
        cur_d: v.5[1],
        cur_i: v.5[2],
        r_line: v.6 as u32,
        r_min: v.7 as u32,
    })
}

/// What the parent decided for an operation.
#[derive(Clone, Copy, Debug)]
enum Case {
    Create,
    Destroy,
    Cnp {
        first: bool,
        cut: bool,
    },
    /// A SENT of a reacting flow with the byte counter on.
    Sent,
    /// A visit of a reacting flow: the α step, the held cut, else the
    /// increase step.
    Visit {
        astep: bool,
        cut: bool,
        inc: bool,
    },
}

#[derive(Clone, Copy, Debug)]
struct Op {
    case: Case,
    s: RpState,
    cur: Epochs,
    alpha_init: u32,
    g_log2: u8,
    add: u32,
    bytes: u32,
    byte_reset: u32,
    r_line: u32,
    r_min: u32,
    r_first: u32,
}

fn case() -> impl Strategy<Value = Case> {
    prop_oneof![
        Just(Case::Create),
        Just(Case::Destroy),
        any::<(bool, bool)>().prop_map(|(first, cut)| Case::Cnp {
            first,
            cut: first || cut
        }),
        Just(Case::Sent),
        any::<(bool, bool, bool)>().prop_map(|(astep, cut, inc)| Case::Visit { astep, cut, inc }),
    ]
}

fn op() -> impl Strategy<Value = Op> {
    let state = (
        (operand(32), operand(32), 0u32..=ALPHA_ONE, operand(32)),
        any::<[bool; 3]>(),
        (0u8..16, 0u8..16, any::<[u16; 3]>()),
    )
        .prop_map(|((rc, rt, alpha, bcount), f, (t, b, ep))| RpState {
            rc: rc as u32,
            rt: rt as u32,
            alpha,
            bcount: bcount as u32,
            created: true,
            queued: true,
            armed: true,
            cnp_a: f[0],
            cnp_d: f[1],
            t_stage: t,
            b_stage: b,
            ep: Epochs {
                a: ep[0],
                d: ep[1],
                i: ep[2],
            },
        });
    (
        case(),
        state,
        any::<[u16; 3]>(),
        (0u32..=ALPHA_ONE, 0u8..12, operand(32)),
        (0u32..=0xffff, operand(32)),
        (operand(32), operand(32), operand(32)),
    )
        .prop_map(
            |(case, s, cur, (alpha_init, g_log2, add), (bytes, byte_reset), (l, m, f))| Op {
                case,
                s,
                cur: Epochs {
                    a: cur[0],
                    d: cur[1],
                    i: cur[2],
                },
                alpha_init,
                g_log2,
                add: add as u32,
                bytes,
                byte_reset: byte_reset as u32,
                r_line: l as u32,
                r_min: m as u32,
                r_first: f as u32,
            },
        )
}

/// The inputs the parent gives the block for `o`.
fn inputs(o: &Op) -> In {
    let s = &o.s;
    let first = matches!(o.case, Case::Cnp { first: true, .. });
    let astep = matches!(o.case, Case::Visit { astep: true, .. });
    let alpha_use = match o.case {
        Case::Create => o.alpha_init,
        _ if first => o.alpha_init,
        _ if astep => alpha_step(s.alpha, s.cnp_a, o.g_log2),
        _ => s.alpha,
    };
    let rc_base = if first { s.rc.min(o.r_first) } else { s.rc };
    let (inc_rc, inc_rt) = increase(s.rc, s.rt, o.add, o.r_line);
    let bc33 = s.bcount as u64 + o.bytes as u64;
    let b = |v: bool| v as u64;
    In {
        rate: ((s.rt as u64) << 32) | s.rc as u64,
        ab: ((s.bcount as u64) << 21) | s.alpha as u64,
        meta: ((s.ep.i as u64) << 45)
            | ((s.ep.d as u64) << 29)
            | ((s.ep.a as u64) << 13)
            | ((s.b_stage as u64) << 9)
            | ((s.t_stage as u64) << 5)
            | (b(s.cnp_d) << 4)
            | (b(s.cnp_a) << 3)
            | (b(s.armed) << 2)
            | (b(s.queued) << 1)
            | b(s.created),
        create: matches!(o.case, Case::Create),
        destroy: matches!(o.case, Case::Destroy),
        cnp: matches!(o.case, Case::Cnp { .. }),
        first,
        cnp_cut: matches!(o.case, Case::Cnp { cut: true, .. }),
        sent_acc: matches!(o.case, Case::Sent),
        byte_pass: bc33 >= o.byte_reset as u64,
        vis_live: matches!(o.case, Case::Visit { .. }),
        vis_astep: astep,
        vis_inc: matches!(
            o.case,
            Case::Visit {
                cut: false,
                inc: true,
                ..
            }
        ),
        vis_cut: matches!(o.case, Case::Visit { cut: true, .. }),
        alpha_use,
        rc_base,
        cut_d: ((rc_base as u64 * alpha_use as u64) >> 21) as u32,
        bc33,
        inc_rc,
        inc_rt,
        cur_a: o.cur.a,
        cur_d: o.cur.d,
        cur_i: o.cur.i,
        r_line: o.r_line,
        r_min: o.r_min,
    }
}

/// The state `o` leaves, stated as the transaction model states each
/// case, and whether it made an increase step.
fn expected(o: &Op) -> (RpState, bool) {
    let mut s = o.s;
    let mut increased = false;
    let do_cut = |s: &mut RpState| {
        s.rt = s.rc;
        s.rc = cut(s.rc, s.alpha, o.r_min);
        s.t_stage = 0;
        s.b_stage = 0;
        s.bcount = 0;
        s.ep.i = o.cur.i;
        s.ep.d = o.cur.d;
        s.cnp_d = false;
    };
    match o.case {
        Case::Create => {
            s = RpState {
                rc: o.r_line,
                rt: o.r_line,
                alpha: o.alpha_init,
                created: true,
                queued: s.queued,
                ep: o.cur,
                ..RpState::default()
            }
        }
        Case::Destroy => {
            s = RpState {
                queued: s.queued,
                ..RpState::default()
            }
        }
        Case::Cnp { first, cut } => {
            if first {
                s.alpha = o.alpha_init;
                s.rc = s.rc.min(o.r_first);
                s.armed = true;
                s.cnp_a = false;
                s.ep.a = o.cur.a;
            } else {
                s.cnp_a = true;
            }
            if cut {
                do_cut(&mut s);
            } else {
                s.cnp_d = true;
            }
        }
        Case::Sent => {
            let bc = s.bcount as u64 + o.bytes as u64;
            if bc >= o.byte_reset as u64 {
                (s.rc, s.rt) = increase(s.rc, s.rt, o.add, o.r_line);
                s.bcount = 0;
                s.b_stage = (s.b_stage + 1).min(15);
                increased = true;
            } else {
                s.bcount = bc as u32;
            }
        }
        Case::Visit { astep, cut, inc } => {
            if astep {
                s.alpha = alpha_step(s.alpha, s.cnp_a, o.g_log2);
                s.cnp_a = false;
                s.ep.a = o.cur.a;
            }
            if cut {
                do_cut(&mut s);
            } else if inc {
                (s.rc, s.rt) = increase(s.rc, s.rt, o.add, o.r_line);
                s.t_stage = (s.t_stage + 1).min(15);
                s.ep.i = o.cur.i;
                increased = true;
            }
        }
    }
    (s, increased)
}

fn as_state(out: &Out, queued: bool) -> RpState {
    RpState {
        rc: out.rc,
        rt: out.rt,
        alpha: out.alpha,
        bcount: out.bcount,
        created: out.created,
        queued,
        armed: out.armed,
        cnp_a: out.cnp_a,
        cnp_d: out.cnp_d,
        t_stage: out.t_stage,
        b_stage: out.b_stage,
        ep: Epochs {
            a: out.ep_a,
            d: out.ep_d,
            i: out.ep_i,
        },
    }
}

proptest! {
    #![proptest_config(config(24))]
    /// Both engines, every port, every cycle, on any inputs.
    #[test]
    fn rp_new_state_matches_golden(s in prop::collection::vec(any_in(), 1..60)) {
        both::<RpNewState, Golden>("rp_new_state", &s)?;
    }

    /// On an operation's inputs, the state a cycle later is the state
    /// the transaction model's case leaves (the queued bit aside: the
    /// parent keeps it), `stage_max` is min(max(stages), 7) and
    /// `increased` says whether an increase step was made.
    #[test]
    fn rp_new_state_is_the_operation(ops in prop::collection::vec(op(), 1..40)) {
        let mut s: Vec<In> = ops.iter().map(inputs).collect();
        s.push(In::default());
        let out = both::<RpNewState, Golden>("rp_new_state", &s)?;
        for (k, o) in ops.iter().enumerate() {
            let got = &out[k + 1];
            let (want, increased) = expected(o);
            prop_assert_eq!(as_state(got, want.queued), want, "{:?}", o);
            prop_assert_eq!(got.stage_max, want.t_stage.max(want.b_stage).min(7));
            prop_assert_eq!(got.increased, increased);
        }
    }
}
