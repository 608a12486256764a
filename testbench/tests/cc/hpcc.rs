//! `hdl/src/cc/hpcc.rs` against `nic_golden::cc::hpcc`: bit- and
//! cycle-exact on both engines, over random telemetry scenarios (random
//! flows, same-flow bursts, wrap-arounds, 1–5 hops, both variants, bad
//! input).

use super::params;
use crate::common::*;
use nic_golden::cc::hpcc::{self, op, status, CcEvent, HpccCc as Golden, HpccFixed};
use nic_golden::cc::int_ns3::HopFields;
use nic_golden::cc::params::CcParams;
use nic_hdl::cc::HpccCc;
use nic_testbench::cc::{expand, run_rtl, scenario, updates, GenCfg};
use nic_testbench::{check, EngineKind};
use proptest::prelude::*;

type Rtl = HpccCc<10>;
type Gold = Golden<10>;

fn gen_cfg() -> impl Strategy<Value = GenCfg> {
    (
        1u16..12,
        prop_oneof![Just(0u32), Just(30), Just(100)],
        prop_oneof![Just(0u32), Just(3), Just(15)],
        0u32..4,
        1u8..=5,
    )
        .prop_map(|(flows, burst_pct, bad_pct, gap_max, max_hops)| GenCfg {
            flows,
            burst_pct,
            bad_pct,
            gap_max,
            max_hops,
        })
}

proptest! {
    #![proptest_config(config(24))]
    /// Both engines, every port, every cycle.
    #[test]
    fn hpcc_matches_golden(seed in any::<u64>(), p in params(), g in gen_cfg()) {
        let regs = p.regs().unwrap();
        let ev = scenario(seed, &p, 60, g);
        let stim = expand::<10>(&regs, &ev);
        let outs = both::<Rtl, Gold>("hpcc_cc", &stim)?;
        prop_assert_eq!(updates(&outs).len(), ev.len());
    }
}

/// The module built to track 2 hops (`HpccCc<10, 2>`, the ECPIX-5
/// board's): RTL against its twin on both engines, every port every
/// cycle; and the twin against the 5-hop module: an event of 3 to 5 hops
/// is `DROP_HOPS` and changes no state, so the other events' results are
/// the 5-hop module's on the events without the dropped ones.
fn gen_cfg_h2() -> impl Strategy<Value = GenCfg> {
    (
        gen_cfg(),
        prop_oneof![Just(1u8), Just(2), Just(2), Just(3), Just(5)],
    )
        .prop_map(|(g, max_hops)| GenCfg { max_hops, ..g })
}

proptest! {
    #![proptest_config(config(8))]
    #[test]
    fn hpcc_h2_matches_golden(seed in any::<u64>(), p in params(), g in gen_cfg_h2()) {
        let regs = p.regs().unwrap();
        let ev = scenario(seed, &p, 60, g);
        let stim = expand::<10>(&regs, &ev);
        let outs = both::<HpccCc<10, 2>, Golden<10, 2>>("hpcc_cc_h2", &stim)?;
        let got = updates(&outs);
        prop_assert_eq!(got.len(), ev.len());
        // The twin against the 5-hop module.
        let mut five = HpccFixed::new(10);
        let mut want = Vec::new();
        for ((_, e), u) in ev.iter().zip(&got) {
            let n = e.nhops as usize;
            if u.status == status::DROP_HOPS && (3..=5).contains(&n) {
                continue;
            }
            prop_assert!(
                e.op != op::EVENT
                    || !(3..=5).contains(&n)
                    || !matches!(u.status, status::UPDATE | status::INIT),
                "an event of {} hops was used", n
            );
            want.push((five.process(e, &regs), *u));
        }
        for (w, u) in want {
            prop_assert_eq!(w, u);
        }
    }
}

/// At least 100 000 events on Verilator, every port every cycle: ten
/// scenarios of 10 000 events with random parameters.
#[test]
fn hpcc_volume_verilator() {
    use proptest::strategy::ValueTree;
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let mut total = 0;
    for k in 0..10u64 {
        let p = params().new_tree(&mut runner).unwrap().current();
        let g = gen_cfg().new_tree(&mut runner).unwrap().current();
        let regs = p.regs().unwrap();
        let ev = scenario(0xC0FFEE + k, &p, 10_000, g);
        let stim = expand::<10>(&regs, &ev);
        let outs = check::<Rtl, Gold>(
            "hpcc_cc_volume",
            EngineKind::Verilator,
            Gold::default(),
            &stim,
        )
        .unwrap_or_else(|m| panic!("scenario {k} ({p:?}, {g:?}): {m}"));
        let n = updates(&outs).len();
        assert_eq!(n, ev.len());
        total += n;
    }
    assert!(total >= 100_000);
}

/// Events of one flow back to back: spaced exactly HAZARD_WINDOW + 1
/// cycles, and each sees its predecessor's state (same results as the
/// transaction model in order). Events of different flows: one a cycle.
#[test]
fn hpcc_throughput_and_hazard() {
    let p = CcParams::default();
    let regs = p.regs().unwrap();
    let mut one = scenario(
        7,
        &p,
        200,
        GenCfg {
            flows: 1,
            burst_pct: 100,
            bad_pct: 0,
            gap_max: 0,
            max_hops: 5,
        },
    );
    one.retain(|(_, e)| e.op == op::EVENT);
    // Sixteen flows in turn (each flow's events stay in order).
    let mixed = scenario(
        8,
        &p,
        800,
        GenCfg {
            flows: 16,
            burst_pct: 0,
            bad_pct: 0,
            gap_max: 0,
            max_hops: 5,
        },
    );
    let mut per_flow: std::collections::BTreeMap<u16, std::collections::VecDeque<_>> =
        Default::default();
    for e in mixed.into_iter().filter(|(_, e)| e.op == op::EVENT) {
        per_flow.entry(e.1.flow).or_default().push_back(e);
    }
    let mut many = Vec::new();
    while per_flow.values().all(|q| !q.is_empty()) {
        for q in per_flow.values_mut() {
            many.push(q.pop_front().unwrap());
        }
    }
    assert!(many.len() >= 160);
    let create: Vec<_> = (0..16u16)
        .map(|i| {
            (
                0u32,
                CcEvent {
                    op: op::CREATE,
                    flow: ((i as u32 * 37) % 1024) as u16,
                    ..Default::default()
                },
            )
        })
        .collect();
    for (name, ev, ii) in [
        ("one flow", &one, nic_hdl::cc::hpcc::HAZARD_WINDOW + 1),
        ("many flows", &many, 1),
    ] {
        let mut all = create.clone();
        all.extend(ev.iter().cloned());
        let stim = expand::<10>(&regs, &all);
        let outs = check::<Rtl, Gold>("hpcc_cc_ii", EngineKind::Verilator, Gold::default(), &stim)
            .unwrap();
        // Transaction model in order gives the same results.
        let mut m = HpccFixed::new(10);
        let want: Vec<_> = all.iter().map(|(_, e)| m.process(e, &regs)).collect();
        assert_eq!(updates(&outs), want, "{name}");
        // Acceptance cycles of the events after the creates.
        let acc: Vec<usize> = stim
            .iter()
            .enumerate()
            .zip(outs.iter())
            .filter(|((_, i), o)| i.event_valid && o.event_ready)
            .map(|((c, _), _)| c)
            .skip(create.len() + 1)
            .collect();
        let max_gap = acc.windows(2).map(|w| w[1] - w[0]).max().unwrap();
        assert_eq!(max_gap, ii, "{name}: initiation interval");
    }
    assert_eq!(nic_hdl::cc::hpcc::LATENCY, hpcc::LATENCY);
    assert_eq!(nic_hdl::cc::hpcc::HAZARD_WINDOW, hpcc::HAZARD_WINDOW);
}

fn hop(code: u8, ts: u32, bytes: u32, qlen: u32) -> u64 {
    HopFields {
        rate: code,
        ts,
        bytes,
        qlen,
    }
    .encode()
}

fn ev(flow: u16, seq: u32, nhops: u8, hops: [u64; 5]) -> CcEvent {
    CcEvent {
        op: op::EVENT,
        variant: false,
        flow,
        seq,
        snd_nxt: seq + 5000,
        now: seq,
        nhops,
        hops,
    }
}

/// Every kind of bad telemetry gives its documented status and counter,
/// on both engines, and leaves every flow's state as if it never came:
/// the good events' results are the same with and without the bad ones.
#[test]
fn hpcc_bad_input() {
    let p = CcParams::default();
    let regs = p.regs().unwrap();
    let good_hops = |k: u32| {
        [
            hop(2, 1000 * k, 40 * k, 100),
            hop(2, 1000 * k + 5, 39 * k, 50),
            0,
            0,
            0,
        ]
    };
    let mut good = vec![
        CcEvent {
            op: op::CREATE,
            flow: 1,
            ..Default::default()
        },
        CcEvent {
            op: op::CREATE,
            flow: 2,
            ..Default::default()
        },
    ];
    for k in 1..8u32 {
        good.push(ev(1, 100 * k, 2, good_hops(k)));
        good.push(ev(2, 100 * k, 2, good_hops(k)));
    }
    let bad = [
        (ev(1, 150, 0, good_hops(3)), status::DROP_HOPS),
        (ev(1, 150, 6, good_hops(3)), status::DROP_HOPS),
        (ev(1, 150, 15, good_hops(3)), status::DROP_HOPS),
        (
            ev(
                1,
                150,
                2,
                [hop(5, 3000, 120, 100), hop(2, 3005, 117, 50), 0, 0, 0],
            ),
            status::DROP_RATE,
        ),
        (
            ev(
                1,
                150,
                2,
                [hop(2, 3000, 120, 100), hop(7, 3005, 117, 50), 0, 0, 0],
            ),
            status::DROP_RATE,
        ),
        (ev(1024, 150, 2, good_hops(3)), status::DROP_FLOW),
        (ev(0xFFFF, 150, 2, good_hops(3)), status::DROP_FLOW),
        (ev(3, 150, 2, good_hops(3)), status::DROP_FLOW),
        (
            CcEvent {
                op: 3,
                ..ev(2, 150, 2, good_hops(3))
            },
            status::DROP_FLOW,
        ),
        (
            CcEvent {
                op: op::DESTROY,
                flow: 5,
                ..Default::default()
            },
            status::DESTROYED,
        ),
        (ev(5, 150, 2, good_hops(3)), status::DROP_FLOW),
    ];
    let mut mixed = Vec::new();
    for (i, e) in good.iter().enumerate() {
        mixed.push((0u32, *e));
        if (4..4 + bad.len()).contains(&i) {
            mixed.push((0, bad[i - 4].0));
        }
    }
    let clean: Vec<(u32, CcEvent)> = good.iter().map(|e| (0, *e)).collect();
    for kind in EngineKind::ALL {
        let (r_clean, _) = run_rtl::<10>(kind, "hpcc_cc_bad_clean", &regs, &clean);
        let (r_mixed, cnt) = run_rtl::<10>(kind, "hpcc_cc_bad_mixed", &regs, &mixed);
        // The dropped events, in order, with their statuses and zero results.
        let dropped: Vec<_> = r_mixed
            .iter()
            .filter(|u| !matches!(u.status, status::UPDATE | status::INIT | status::CREATED))
            .collect();
        assert_eq!(dropped.len(), bad.len(), "{kind:?}");
        for (u, (e, st)) in dropped.iter().zip(bad.iter()) {
            assert_eq!((u.flow, u.status), (e.flow, *st), "{kind:?}");
            assert_eq!((u.w, u.r, u.u, u.updated_wc), (0, 0, 0, false));
        }
        // The good events: identical results with or without the bad ones.
        let kept: Vec<_> = r_mixed
            .iter()
            .filter(|u| matches!(u.status, status::UPDATE | status::INIT | status::CREATED))
            .cloned()
            .collect();
        assert_eq!(
            kept, r_clean,
            "{kind:?}: a bad event changed a flow's state"
        );
        assert_eq!(cnt.drop_hops, 3);
        assert_eq!(cnt.drop_rate, 2);
        assert_eq!(cnt.drop_flow, 5);
        assert_eq!(cnt.events as usize, good.len() - 2);
    }
}

/// Telemetry anomalies inside a good event: a timestamp that did not
/// advance or went back, tx bytes going back, qlen at its maximum, and
/// the 24-bit ts / 20-bit bytes wrap-around.
#[test]
fn hpcc_telemetry_anomalies_and_wrap() {
    let p = CcParams::default();
    let regs = p.regs().unwrap();
    let create = CcEvent {
        op: op::CREATE,
        flow: 9,
        ..Default::default()
    };
    let base = [hop(2, 0xFF_FF00, 0xF_FFF0, 100), 0, 0, 0, 0];
    let cases = [
        (
            [hop(2, 0xFF_FF00, 0xF_FFF8, 100), 0, 0, 0, 0],
            hpcc::flag::TS_STALE,
        ),
        (
            [hop(2, 0xFF_0000, 0xF_FFF8, 100), 0, 0, 0, 0],
            hpcc::flag::TS_STALE,
        ),
        (
            [hop(2, 0x00_0100, 0xF_FF00, 100), 0, 0, 0, 0],
            hpcc::flag::BYTES_BACK,
        ),
        (
            [hop(2, 0x00_0100, 0x0_0004, 0x1FFFF), 0, 0, 0, 0],
            hpcc::flag::QLEN_SAT,
        ),
        ([hop(2, 0x00_0100, 0x0_0004, 100), 0, 0, 0, 0], 0),
    ];
    for (hops, flag) in cases {
        let evs = vec![
            (0, create),
            (0, ev(9, 10, 1, base)),
            (0, ev(9, 20, 1, hops)),
        ];
        let mut m = HpccFixed::new(10);
        let want: Vec<_> = evs.iter().map(|(_, e)| m.process(e, &regs)).collect();
        assert_eq!(want[2].status, status::UPDATE);
        assert_eq!(want[2].flags, flag, "{hops:x?}");
        for kind in EngineKind::ALL {
            let (got, cnt) = run_rtl::<10>(kind, "hpcc_cc_anomaly", &regs, &evs);
            assert_eq!(got, want, "{kind:?}");
            assert_eq!(cnt.ts_stale, (flag == hpcc::flag::TS_STALE) as u32);
            assert_eq!(cnt.bytes_back, (flag == hpcc::flag::BYTES_BACK) as u32);
            assert_eq!(cnt.qlen_sat, (flag == hpcc::flag::QLEN_SAT) as u32);
        }
    }
    // The wrap case: Δts = 0x200, Δbytes = 0x14 units: tx term only,
    // exactly as computed without the wrap.
    let mut m = HpccFixed::new(10);
    m.process(&create, &regs);
    m.process(&ev(9, 10, 1, base), &regs);
    let wrapped = m.process(
        &ev(9, 20, 1, [hop(2, 0x00_0100, 0x0_0004, 100), 0, 0, 0, 0]),
        &regs,
    );
    let mut m = HpccFixed::new(10);
    m.process(&create, &regs);
    m.process(
        &ev(9, 10, 1, [hop(2, 0x10_0000, 0x1_0000, 100), 0, 0, 0, 0]),
        &regs,
    );
    let plain = m.process(
        &ev(9, 20, 1, [hop(2, 0x10_0200, 0x1_0014, 100), 0, 0, 0, 0]),
        &regs,
    );
    assert_eq!(wrapped, plain);
}

/// Not a flow's state, the dropped and created events also hold
/// `out_*` at zero between results (no stale values on the bus).
#[test]
fn hpcc_idle_outputs_are_zero() {
    let p = CcParams::default();
    let regs = p.regs().unwrap();
    let ev = scenario(3, &p, 30, GenCfg::default());
    let stim = expand::<10>(&regs, &ev);
    let outs = check::<Rtl, Gold>(
        "hpcc_cc_idle",
        EngineKind::Verilator,
        Gold::default(),
        &stim,
    )
    .unwrap();
    for o in outs.iter().filter(|o| !o.update_valid) {
        assert_eq!(
            (
                o.update.w,
                o.update.r,
                o.update.u,
                o.update.flow,
                o.update.status
            ),
            (0, 0, 0, 0, 0)
        );
    }
}

/// Four-state simulation (Icarus Verilog) of the emitted Verilog: no
/// output port is ever X or Z, on any cycle, whatever the input (bad
/// events included), and the values equal the golden model's.
#[test]
fn hpcc_no_x_in_four_state_simulation() {
    let p = CcParams {
        variant: nic_golden::cc::params::Variant::Receiver,
        ..CcParams::default()
    };
    let regs = p.regs().unwrap();
    let ev = scenario(
        21,
        &p,
        150,
        GenCfg {
            flows: 6,
            burst_pct: 30,
            bad_pct: 8,
            gap_max: 1,
            max_hops: 5,
        },
    );
    // Start with cycles before any flow exists: the RAMs' unwritten words.
    let mut stim = vec![hpcc::In::with_regs(&regs); 3];
    stim.extend(expand::<10>(&regs, &ev));
    four_state::<Rtl, Gold>("hpcc_cc", &stim);
}
