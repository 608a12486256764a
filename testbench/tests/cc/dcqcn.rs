//! `hdl/src/cc/dcqcn.rs` (the DCQCN reaction point) against
//! `nic_golden::cc::dcqcn`, and the twin against the f64 reference.

use crate::common::*;
use nic_golden::cc::dcqcn::{
    flag, status, DcqcnRp as Golden, In, Out, RpState, OP_CNP, UPDATE_LATENCY,
};
use nic_golden::cc::dcqcn_params::{DcqcnCfg, DcqcnParams};
use nic_golden::cc::RpEvent;
use nic_golden::Cycle;
use nic_hdl::cc::DcqcnRp;
use nic_testbench::dcqcn::{fast_params, max_mean, rc_errors, stimulus, RpGen};
use proptest::prelude::*;

/// Registers: mostly a deployment's (the defaults with short periods, a
/// random g, F, byte counter, rates), sometimes any bit pattern.
fn cfgs() -> impl Strategy<Value = DcqcnCfg> {
    let deployed = (
        (1u32..200, 1u32..600, 1u32..3000),
        (0u8..=10, 0u8..=5, prop_oneof![Just(0u32), 500u32..20_000]),
        (0.0..1.0f64, prop_oneof![Just(100.0), 10.0..100.0f64]),
        prop_oneof![Just(None), (100.0..1e6f64).prop_map(Some)],
    )
        .prop_map(|((ta, td, ti), (g, f, br), (ai, line), win)| {
            let mut p = fast_params(ta, td, ti);
            p.line_rate_gbps = line;
            p.g_log2 = g;
            p.f = f;
            p.byte_reset = br;
            p.alpha_init = if ai < 0.2 { 1.0 } else { ai };
            p.r_first_cnp_gbps = line * (0.5 + ai / 2.0);
            p.window_bytes = win;
            p.regs().unwrap()
        });
    let any_cfg = (
        (0u8..16, operand(24), operand(24), operand(24)),
        (operand(32), 0u8..8, operand(32), operand(32)),
        (
            operand(32),
            operand(32),
            operand(32),
            operand(21),
            operand(32),
        ),
    )
        .prop_map(
            |((g, ta, td, ti), (br, f, ai, hai), (min, line, first, a0, w))| DcqcnCfg {
                g_log2: g,
                alpha_period: ta as u32,
                dec_period: td as u32,
                inc_period: ti as u32,
                byte_reset: br as u32,
                f,
                r_ai: ai as u32,
                r_hai: hai as u32,
                r_min: min as u32,
                r_line: line as u32,
                r_first: first as u32,
                alpha_init: a0 as u32,
                window: w as u32,
            },
        );
    prop_oneof![3 => deployed, 1 => any_cfg]
}

fn gens() -> impl Strategy<Value = RpGen> {
    (
        1u16..=16,
        prop_oneof![Just(100u32), 5u32..100],
        (1u32..60, 0u32..60, 0u32..6, 0u32..3),
        prop_oneof![Just(0u32), 1u32..20],
        prop_oneof![4 => Just(None), 1 => (0u16..16, 0usize..800, 0usize..800)
            .prop_map(|(f, a, b)| Some((f, a.min(b), a.max(b))))],
    )
        .prop_map(|(flows, load, (c, s, cr, d), bad, flood)| RpGen {
            flows,
            load_pct: load,
            w_cnp: c,
            w_sent: s,
            w_create: cr,
            w_destroy: d,
            bad_pct: bad,
            flood,
        })
}

proptest! {
    #![proptest_config(config(12))]
    /// Both engines, 16 flows, 1500 cycles of random events, registers and
    /// bad input: every port, every cycle.
    #[test]
    fn dcqcn_rp_matches_golden(cfg in cfgs(), g in gens(), seed in any::<u64>()) {
        let s = stimulus(seed, cfg, &g, 4, 1500);
        both::<DcqcnRp<4>, Golden<4>>("dcqcn_rp16", &s)?;
    }
}

proptest! {
    #![proptest_config(config(4))]
    /// Verilator, the 1024-flow top, 60 000 cycles per case.
    #[test]
    fn dcqcn_rp_1024_matches_golden_verilator(cfg in cfgs(), g in gens(), seed in any::<u64>(), flows in 1u16..=1024) {
        let g = RpGen { flows, ..g };
        let s = stimulus(seed, cfg, &g, 10, 60_000);
        verilator::<DcqcnRp<10>, Golden<10>>("dcqcn_rp1024", &s)?;
    }
}

/// Four-state: no X on any port (Icarus, the emitted Verilog).
#[test]
fn dcqcn_rp_no_x_in_four_state_simulation() {
    let cfg = fast_params(20, 60, 100).regs().unwrap();
    let g = RpGen {
        bad_pct: 5,
        flood: Some((2, 300, 400)),
        ..RpGen::default()
    };
    let s = stimulus(7, cfg, &g, 4, 2000);
    four_state::<DcqcnRp<4>, Golden<4>>("dcqcn_rp16", &s);
}

/// Offer `events` in order, each from its arrival cycle on and held until
/// accepted (closed loop, as a NIC's event queue would), with the
/// registers `cfg`. Returns the twin and the inputs driven (to replay on
/// the RTL) and the outputs.
fn drive(
    cfg: DcqcnCfg,
    events: &[(usize, RpEvent)],
    tail: usize,
) -> (Golden<4>, Vec<In>, Vec<Out>) {
    let mut g = Golden::<4>::default();
    let (mut ins, mut outs) = (Vec::new(), Vec::new());
    let mut k = 0;
    let mut c = 0;
    while k < events.len() || c < events.last().map_or(0, |e| e.0) + tail {
        let offer = k < events.len() && events[k].0 <= c;
        let i = In {
            cfg,
            ev_valid: offer,
            ev: if offer {
                events[k].1
            } else {
                RpEvent::default()
            },
        };
        let o = g.step(&i);
        if offer && o.ev_ready {
            k += 1;
        }
        ins.push(i);
        outs.push(o);
        c += 1;
    }
    (g, ins, outs)
}

/// The events of an open-loop stimulus, with their cycles, without the
/// CNPs that come within 30 cycles of an event of the same flow: two CNPs
/// of a flow within 9 cycles are merged (`coalesced`), so whether they
/// are depends on the slots other flows take, and these tests compare
/// runs whose slots differ.
fn events_of(s: &[In]) -> Vec<(usize, RpEvent)> {
    let mut last = std::collections::HashMap::new();
    let mut v = Vec::new();
    for (c, i) in s.iter().enumerate().filter(|(_, i)| i.ev_valid) {
        let near = last.get(&i.ev.flow).is_some_and(|&l| c < l + 30);
        if !(near && i.ev.op == OP_CNP) {
            v.push((c, i.ev));
            last.insert(i.ev.flow, c);
        }
    }
    v
}

/// A flow's rate state (what a cut, an increase or the byte counter
/// changes; not the timer-list bits, whose timing depends on the slots
/// the other flows take).
fn rate_state(s: &RpState) -> (u32, u32, u32, u32, u8, u8, bool) {
    (
        s.rc, s.rt, s.alpha, s.bcount, s.t_stage, s.b_stage, s.created,
    )
}

/// The updates of `flow`, in order, without their cycle and flags.
fn updates_of(outs: &[Out], flow: u16) -> Vec<(u8, u32, u32, u8)> {
    outs.iter()
        .filter(|o| o.update_valid && o.update.flow == flow)
        .map(|o| (o.update.status, o.update.r, o.update.u, o.update.inc_stage))
        .collect()
}

/// Only events change a flow: the α and increase timers off, a cut on
/// every CNP, the byte counter on (so SENTs raise the rate), and the rate
/// on the first CNP half the line rate, so no flow recovers within the
/// test (recovery happens at a visit, whose cycle depends on the slots
/// the other flows take; nothing else does here).
fn event_only_cfg() -> DcqcnCfg {
    let mut c = fast_params(1, 1, 1).regs().unwrap();
    c.alpha_period = 0;
    c.dec_period = 0;
    c.inc_period = 0;
    c.byte_reset = 3000;
    c.r_first = c.r_line / 2;
    c
}

/// A CNP flood (a CNP for flow 3 every cycle for 3000 cycles, among the
/// events of 8 flows): `s_event` never stalls for long, the flood is
/// coalesced and counted, and every other flow sees exactly the updates
/// and ends in exactly the rate state it has when flow 3 sends nothing.
/// RTL equal on both engines.
#[test]
fn cnp_flood_is_coalesced_and_touches_no_other_flow() {
    let cfg = event_only_cfg();
    let g = RpGen {
        w_cnp: 20,
        w_sent: 70,
        w_create: 0,
        w_destroy: 0,
        load_pct: 20,
        ..RpGen::default()
    };
    let ev = events_of(&stimulus(11, cfg, &g, 4, 6000));
    let not3: Vec<(usize, RpEvent)> = ev.iter().filter(|e| e.1.flow != 3).copied().collect();
    let mut flood: Vec<(usize, RpEvent)> = ev
        .iter()
        .filter(|e| e.0 < 1000 && (e.1.flow != 3 || e.0 < 8))
        .copied()
        .collect();
    for c in 1000..4000 {
        flood.push((
            c,
            RpEvent {
                op: OP_CNP,
                flow: 3,
                bytes: 0,
            },
        ));
    }
    // The rest 3000 cycles later in both runs, so the flood does not
    // bunch them up.
    flood.extend(
        ev.iter()
            .filter(|e| e.0 >= 1000 && e.1.flow != 3)
            .map(|&(c, e)| (c + 3000, e)),
    );
    let not3: Vec<(usize, RpEvent)> = not3
        .iter()
        .map(|&(c, e)| (if c >= 1000 { c + 3000 } else { c }, e))
        .collect();
    let (gf, inf, of) = drive(cfg, &flood, 200);
    let (gc, _, oc) = drive(cfg, &not3, 200);
    for f in (0..8u16).filter(|&f| f != 3) {
        assert_eq!(
            rate_state(&gf.flows[f as usize]),
            rate_state(&gc.flows[f as usize]),
            "flow {f}"
        );
        assert_eq!(updates_of(&of, f), updates_of(&oc, f), "flow {f}");
    }
    let st = of.last().unwrap().stats;
    assert!(st.coalesced > 2500, "{st:?}");
    // Flood CNPs were taken at least 8 cycles in 9 (the flow's visits take
    // the rest).
    let taken = inf[1000..4000]
        .iter()
        .zip(&of[1000..4000])
        .filter(|(i, o)| i.ev_valid && o.ev_ready)
        .count();
    assert!(taken >= 3000 * 8 / 9 - 10, "{taken}");
    both::<DcqcnRp<4>, Golden<4>>("dcqcn_rp16", &inf).unwrap();
}

/// CNPs and SENTs for unknown flows (out of range, or never created) are
/// dropped with a DROP_FLOW update each, counted in `drop_flow`, and no
/// flow's rate state or updates change. RTL equal on both engines.
#[test]
fn unknown_flows_are_dropped_and_counted() {
    let cfg = event_only_cfg();
    let g = RpGen {
        w_create: 0,
        w_destroy: 0,
        load_pct: 40,
        bad_pct: 30,
        ..RpGen::default()
    };
    let ev = events_of(&stimulus(5, cfg, &g, 4, 4000));
    let good: Vec<(usize, RpEvent)> = ev.iter().filter(|e| e.1.flow < 8).copied().collect();
    let (gb, inb, ob) = drive(cfg, &ev, 200);
    let (gg, _, og) = drive(cfg, &good, 200);
    for f in 0..16usize {
        assert_eq!(
            rate_state(&gb.flows[f]),
            rate_state(&gg.flows[f]),
            "flow {f}"
        );
    }
    for f in 0..8u16 {
        assert_eq!(updates_of(&ob, f), updates_of(&og, f), "flow {f}");
    }
    let dropped = ob
        .iter()
        .filter(|o| o.update_valid && o.update.status == status::DROP_FLOW)
        .count() as u32;
    let st = ob.last().unwrap().stats;
    assert_eq!(dropped as usize, ev.len() - good.len());
    assert!(dropped > 100, "{dropped}");
    assert_eq!(st.drop_flow, dropped);
    assert_eq!(og.last().unwrap().stats.drop_flow, 0);
    both::<DcqcnRp<4>, Golden<4>>("dcqcn_rp16", &inb).unwrap();
}

/// The algorithm's shape on one flow at 100G (twin): the first CNP halves
/// Rc (α = 1), α decays by g per period without CNPs, fast recovery
/// halves the gap to Rt per increase period, then additive increase, and
/// the flow recovers to line rate and leaves the timer list.
#[test]
fn one_flow_cuts_recovers_and_leaves_the_timers() {
    let mut p = fast_params(10, 50, 100);
    p.f = 3;
    let cfg = p.regs().unwrap();
    let line = cfg.r_line >> 8;
    let mut g = Golden::<4>::default();
    let mut ups = Vec::new();
    let ev = |v: bool, op: u8| In {
        cfg,
        ev_valid: v,
        ev: RpEvent {
            op,
            flow: 1,
            bytes: 0,
        },
    };
    for c in 0..400_000usize {
        let i = match c {
            0 => ev(true, nic_golden::cc::dcqcn::OP_CREATE),
            20 => ev(true, OP_CNP),
            _ => ev(false, 0),
        };
        let o = g.step(&i);
        if o.update_valid {
            ups.push((c, o.update));
        }
    }
    assert_eq!(ups[0].1.status, status::CREATED);
    assert_eq!(ups[0].1.r, line);
    let (c1, u1) = ups[1];
    assert_eq!(c1, 20 + UPDATE_LATENCY);
    assert_eq!(u1.flags & flag::FIRST_CNP, flag::FIRST_CNP);
    assert_eq!(u1.r, line / 2);
    // Fast recovery: Rc = (Rc + Rt)/2 with Rt = line: the gap halves.
    let gap = |u: &nic_golden::cc::CcUpdate| (line - u.r) as f64;
    for k in 2..5 {
        let ratio = gap(&ups[k].1) / gap(&ups[k - 1].1);
        assert!((ratio - 0.5).abs() < 1e-3, "step {k}: {ratio}");
    }
    // α decayed (no more CNPs): u < 1.0 after the first periods.
    assert!(ups[3].1.u < 1 << 20);
    let last = ups.last().unwrap().1;
    assert_eq!(last.flags & flag::RECOVERED, flag::RECOVERED);
    assert_eq!(last.r, line);
    assert_eq!(g.timer_len(), 0);
    assert!(!g.flows[1].armed);
}

proptest! {
    #![proptest_config(config(16))]
    /// Fixed point against f64 on random traces (8 flows, 20 000 cycles,
    /// the defaults at 100G with short periods, random g, F, byte counter):
    /// Rc within 0.1 % of the f64 reference after every operation that
    /// changed it, and within 0.01 % on average (`make bench` reports the
    /// figures over longer traces).
    #[test]
    fn fixed_tracks_f64_on_random_traces(seed in any::<u64>(), g_log2 in 4u8..=8, f in 0u8..=5,
                                         br in prop_oneof![Just(0u32), 2000u32..20000]) {
        let mut p = fast_params(40, 160, 300);
        p.g_log2 = g_log2;
        p.f = f;
        p.byte_reset = br;
        let gen = RpGen { w_cnp: 5, w_sent: 95, w_create: 0, w_destroy: 0, load_pct: 30, ..RpGen::default() };
        let s = stimulus(seed, p.regs().unwrap(), &gen, 4, 20_000);
        let e = rc_errors::<4>(&p, &s);
        let (max, mean) = max_mean(&e);
        prop_assert!(e.len() > 100, "{} rate changes", e.len());
        prop_assert!(max < 1e-3, "max {max:.3e}");
        prop_assert!(mean < 1e-4, "mean {mean:.3e}");
    }
}

/// The f64 reference agrees with the textbook: α = 1 cut halves, fast
/// recovery averages (a check on the reference itself).
#[test]
fn f64_reference_is_the_algorithm() {
    let p = DcqcnParams::default();
    let mut r = nic_golden::cc::dcqcn_ref::DcqcnRef::new(p.clone(), 1);
    use nic_golden::cc::dcqcn::{Applied, Epochs, Kind, RpState};
    let ap = |kind, op, ep: Epochs| Applied {
        kind,
        flow: 0,
        op,
        bytes: 0,
        ep,
        recovered: false,
        after: RpState::default(),
    };
    let e0 = Epochs::default();
    assert_eq!(r.apply(&ap(Kind::Event, 2, e0)), Some(12.5));
    assert_eq!(r.apply(&ap(Kind::Event, OP_CNP, e0)), Some(6.25));
    // Next increase period, F = 1: stage 0 is fast recovery.
    let e1 = Epochs { a: 0, d: 0, i: 1 };
    assert_eq!(r.apply(&ap(Kind::Visit, 0, e1)), Some(9.375));
}
