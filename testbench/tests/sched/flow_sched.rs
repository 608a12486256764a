//! `hdl/src/sched/flow_sched.rs` against `nic_golden::sched::flow_sched`,
//! in the closed loop of `nic_testbench::sched` (Tx with back-pressure, a
//! network that ACKs, loses and NAKs, doorbells, CC updates, bad events).

use crate::common::*;
use nic_golden::sched::flow_sched::In;
use nic_golden::sched::flow_sched::{
    FlowSched as Golden, OP_ACK, OP_ACK_DB, OP_DOORBELL, OP_INIT, OP_REWIND, OP_TRIM, OP_UPDATE,
};
use nic_golden::sched::SchedEvent;
use nic_hdl::sched::FlowSched;
use nic_testbench::cosim::engine;
use nic_testbench::sched::{
    random_rates, rate_q, reaction_stimulus, run, Env, EnvCfg, Recorder, RunStats,
};
use nic_testbench::EngineKind;
use proptest::prelude::*;

type G<const A: usize> = Golden<A>;

/// Run `cfg` for `cycles` on the golden model and, if `kind` is given, on
/// that engine in lockstep (every port, every cycle).
fn go<const A: usize>(
    test: &str,
    kind: Option<EngineKind>,
    cfg: EnvCfg,
    cycles: u64,
    monitor: bool,
) -> Result<(G<A>, RunStats), String> {
    let mut env = Env::new(cfg);
    env.monitor = monitor;
    match kind {
        Some(k) => {
            let mut e = engine::<FlowSched<A>>(k, test);
            run::<A, FlowSched<A>>(&mut env, Some(e.as_mut()), cycles)
        }
        None => run::<A, FlowSched<A>>(&mut env, None, cycles),
    }
}

/// A random workload over 16 flows: every event kind, losses (rewinds),
/// trims, wild ACKs, bad events, back-pressure, probes.
fn workload() -> impl Strategy<Value = EnvCfg> {
    (
        1usize..=16,
        prop_oneof![Just(0u32), Just(64), Just(256), Just(1024), 1u32..3000],
        0u32..20000,
        prop_oneof![Just(0u32), 30u32..400],
        0.05f64..3.0,
        prop_oneof![Just((1u32 << 24) - 1), 1u32..20000],
        (10u64..400, 0u32..15, 20u32..=100, any::<bool>()),
        (0u32..20, 0u32..10, 0u32..15, 0u32..30, any::<u64>()),
        prop_oneof![Just(0u32), 1u32..30],
    )
        .prop_map(
            |(
                n,
                mtu,
                cap,
                probe_t,
                rate,
                window,
                (ack, loss, ready, beats),
                (db, up, bad, wild, seed),
                trim,
            )| {
                let mut c = EnvCfg::new(n, rate);
                c.rates = random_rates(n, rate.min(1.0), seed);
                c.mtu = mtu;
                c.cap = cap;
                c.probe_t = probe_t;
                c.window = window;
                c.backlog = if seed % 3 == 0 {
                    1 << 30
                } else {
                    (seed % 50_000) as u32
                };
                c.ack_delay = ack;
                c.loss_pct = loss;
                c.tx_ready_pct = ready;
                c.tx_beats = beats;
                c.doorbell_pct = db;
                c.update_pct = up;
                c.bad_pct = bad;
                c.wild_ack_pct = wild;
                c.ack_db_pct = [0, 10, 30, 60][(seed >> 8) as usize % 4];
                c.trim_pct = trim;
                c.seed = seed;
                c
            },
        )
}

proptest! {
    #![proptest_config(config(8))]
    /// Both engines, 16 flows, 1500 cycles of a random closed loop.
    #[test]
    fn flow_sched_matches_golden(cfg in workload()) {
        for kind in EngineKind::ALL {
            go::<4>("flow_sched16", Some(kind), cfg.clone(), 1500, false)
                .map_err(TestCaseError::fail)?;
        }
    }
}

proptest! {
    #![proptest_config(config(6))]
    /// Verilator, the default 1024-flow top, 40 000 cycles per workload.
    #[test]
    fn flow_sched_1024_matches_golden_verilator(cfg in workload(), nflows in 1usize..=1024) {
        let mut cfg = cfg;
        cfg.flows = nflows;
        cfg.rates = random_rates(nflows, 0.9, cfg.seed);
        go::<10>("flow_sched1024", Some(EngineKind::Verilator), cfg, 40_000, false)
            .map_err(TestCaseError::fail)?;
    }
}

/// Window: at every PktSend, bytes in flight (PktSends minus ACKs, at the
/// ports) plus the packet stay within the window in force when the send
/// was decided. Windows change at random (CC updates), Tx back-pressure,
/// extra doorbells; RTL compared with the golden model throughout.
#[test]
fn window_never_exceeded() {
    for (seed, kind) in [(1u64, EngineKind::Verilator), (2, EngineKind::Verilator)] {
        let mut cfg = EnvCfg::new(64, 0.0);
        cfg.rates = random_rates(64, 1.5, seed);
        cfg.window = 1200;
        cfg.mtu = 300;
        cfg.ack_delay = 700;
        cfg.tx_ready_pct = 60;
        cfg.update_pct = 3;
        cfg.doorbell_pct = 5;
        cfg.backlog = 100_000;
        cfg.seed = seed;
        let (_, st) = go::<10>("flow_sched_window", Some(kind), cfg, 60_000, true).unwrap();
        assert!(st.window_checks > 1000, "{}", st.window_checks);
    }
}

/// The worst flow's relative rate error, N backlogged flows at random
/// rates summing to `frac` of line rate (golden model).
fn rate_error(n: usize, frac: f64, mtu: u32, cycles: u64, seed: u64) -> f64 {
    let cfg = EnvCfg::rate_scenario(n, frac, mtu, seed);
    let programmed = cfg.programmed_rates();
    let (_, st) = go::<10>("rate", None, cfg, cycles, false).unwrap();
    st.worst_rate_error(&programmed).0
}

/// Rate accuracy (golden model; `make bench` measures the RTL on
/// Verilator): every flow within 1 % of its programmed rate, N = 4 and 64,
/// rates summing to 95 % of line rate.
#[test]
fn rate_accuracy_within_one_percent() {
    let e4 = rate_error(4, 0.95, 1024, 2_000_000, 7);
    let e64 = rate_error(64, 0.95, 1024, 4_000_000, 8);
    assert!(
        e4 < 0.01 && e64 < 0.01,
        "worst flow error: N=4 {e4}, N=64 {e64}"
    );
}

/// Throughput: with 32 eligible flows and a Tx that takes one PktSend per
/// ready cycle, a PktSend goes in every ready cycle (always ready, and
/// 50 % random back-pressure).
#[test]
fn one_send_per_ready_cycle() {
    for ready in [100u32, 50] {
        let cfg = EnvCfg::throughput_scenario(ready);
        let (_, st) = go::<10>("tput", Some(EngineKind::Verilator), cfg, 20_000, false).unwrap();
        // After start-up (events, first credit), every ready cycle sends.
        let (sends, ready_cycles) = st.sends_and_ready_from(2000);
        assert_eq!(sends, ready_cycles, "Tx ready {ready} %");
    }
}

/// Fairness: 64 equal-rate flows share the line equally (Jain's index
/// ≥ 0.99), both when they ask twice the line rate in total and when they
/// ask 90 % of it.
#[test]
fn equal_rates_equal_shares() {
    for total in [2.0, 0.9] {
        let cfg = EnvCfg::fairness_scenario(total);
        let (_, st) = go::<10>("fair", None, cfg, 1_000_000, false).unwrap();
        let j = st.jain(64, 100_000, 1_000_000);
        assert!(j >= 0.99, "total {total}: Jain {j}");
    }
}

/// Reaction: a CC update that opens a flow's window produces its first
/// PktSend a fixed 27 cycles after the update is offered (idle scheduler:
/// taken into the input register at once, issued from it the cycle
/// after, written at S10, the flow appended to the active list,
/// visited, and its PktSend through the queue), on both engines. Before
/// it, the flow's window (100 B) is under one packet (256 B): exactly one
/// packet goes, since nothing was in flight, and the flow parks.
#[test]
fn update_takes_effect_in_bounded_cycles() {
    let (s, t_update) = reaction_stimulus();
    let outs = both::<FlowSched<4>, G<4>>("flow_sched_reaction", &s).unwrap();
    let before: Vec<_> = outs[..t_update].iter().filter(|o| o.send_valid).collect();
    assert_eq!(
        before.len(),
        1,
        "one packet with nothing in flight, then parked"
    );
    assert_eq!((before[0].send.seq, before[0].send.len), (100, 256));
    let first = (t_update..outs.len())
        .find(|&k| outs[k].send_valid)
        .unwrap();
    assert_eq!(first - t_update, 27, "reaction");
    assert_eq!(outs[first].send.seq, 356);
}

/// A flow's own events do not keep its visits out: flow 3 has data, rate
/// and window, and a DOORBELL of its own is offered on every cycle. Each
/// accepted event holds the flow 11 cycles (the interlock), and events go
/// before visits; a visit that lost the slot to an event goes at the
/// flow's next free cycle (`visit_yield`). A visited flow is back in the
/// active list only after its visit's S10, so the first event after a
/// visit finds no head to yield to: two events, then a visit, 33 cycles
/// a round. No event waits more than 21 cycles (the documented bound;
/// with the input register an event's handshake comes once the one before
/// it has issued, so the gaps between handshakes are the gaps between
/// issues), and the flow sends a packet every 33 cycles. Without the yield it sent
/// none while its events came. Both engines.
#[test]
fn a_flows_own_events_do_not_keep_its_visits_out() {
    let base = In {
        cfg_mtu: 256,
        cfg_cap: 4096,
        send_ready: true,
        ..In::default()
    };
    let ev = |op, a, b| In {
        ev_valid: true,
        ev: SchedEvent { op, flow: 3, a, b },
        ..base
    };
    let mut s = Vec::new();
    for e in [
        ev(OP_INIT, 0, 0),
        ev(OP_DOORBELL, 1_000_000, 0),
        ev(OP_UPDATE, rate_q(64.0), (1 << 20) << 8),
    ] {
        s.push(e);
        s.extend(std::iter::repeat(base).take(11));
    }
    s.extend(std::iter::repeat(base).take(100));
    let from = s.len();
    s.extend(std::iter::repeat(ev(OP_DOORBELL, 1, 0)).take(660));
    let outs = both::<FlowSched<4>, G<4>>("flow_sched_yield", &s).unwrap();
    let window = &outs[from..];
    let accepted: Vec<usize> = (0..window.len()).filter(|&k| window[k].ev_ready).collect();
    let sends = window.iter().filter(|o| o.send_valid).count();
    assert!(
        accepted[0] <= 21,
        "the first DOORBELL waited {}",
        accepted[0]
    );
    for w in accepted.windows(2) {
        assert!(
            w[1] - w[0] <= 22,
            "an event waited {} cycles",
            w[1] - w[0] - 1
        );
    }
    assert!(
        accepted.len() >= 39,
        "{} events in 660 cycles",
        accepted.len()
    );
    assert!(sends >= 19, "{sends} PktSends in 660 cycles");
    assert!(window.iter().all(|o| o.stats.bad_doorbell == 0));
}

/// Bad input: every kind is dropped and counted, and leaves every flow as
/// it was: the per-flow PktSend sequences are the same with and without
/// the bad events (RTL == golden throughout, Verilator).
#[test]
fn bad_input_counted_and_isolated() {
    // 8 flows with 20 kB each and a window over it (no ACKs needed).
    let mk = |bad: bool| {
        let mut cfg = EnvCfg::new(8, 0.5);
        cfg.mtu = 700;
        cfg.backlog = 20_000;
        cfg.window = 1 << 20;
        cfg.ack_delay = 1 << 40;
        cfg.seed = 3;
        let mut env = Env::new(cfg);
        if bad {
            for k in 0..200u32 {
                let f = k % 8;
                match k % 10 {
                    0 => env.push_event(OP_DOORBELL, 16 + k * 97, 1000, 0),
                    1 => env.push_event(OP_UPDATE, f, 0, 5000 << 8),
                    2 => env.push_event(OP_UPDATE, f, rate_q(1.0), 255),
                    3 => env.push_event(OP_ACK, f, 0, 0), // before una (bases are random)
                    4 => env.push_event(OP_REWIND, f, 0, 0),
                    5 => env.push_event(OP_DOORBELL, f, 0x8000_0000, 0),
                    6 if k % 20 == 6 => env.push_event(OP_TRIM, f, 1, 1),
                    // ACK_DB with both parts bad, then an unknown op.
                    6 if (k / 20) % 2 == 0 => {
                        env.push_event(OP_ACK_DB, f, 0x7000_0000, 0x8000_0000)
                    }
                    6 => env.push_event(7, f, 1, 1),
                    7 => env.push_event(OP_ACK, f, 0x7000_0000, 0),
                    8 => env.push_event(OP_REWIND, f, 0x7000_0000, 0),
                    _ => env.push_event(OP_INIT, 0xffff, 0, 0),
                }
            }
        }
        env
    };
    let mut per = Vec::new();
    let mut outs = Vec::new();
    for bad in [false, true] {
        let mut env = mk(bad);
        let mut e = engine::<FlowSched<4>>(EngineKind::Verilator, "flow_sched_bad");
        let (_, st) = run::<4, FlowSched<4>>(&mut env, Some(e.as_mut()), 60_000).unwrap();
        let mut seqs = vec![Vec::new(); 8];
        for s in st.sent.iter().filter(|s| !s.probe) {
            seqs[s.flow as usize].push((s.seq, s.len));
        }
        per.push(seqs);
        outs.push(st.last_out);
    }
    assert_eq!(per[0], per[1], "a bad event changed a flow's PktSends");
    assert!(per[0]
        .iter()
        .all(|s| s.iter().map(|x| x.1 as u64).sum::<u64>() == 20_000));
    let (o0, o) = (outs[0], outs[1]);
    assert_eq!(
        o0.stats.bad_flow + o0.stats.bad_op + o0.stats.bad_update + o0.stats.bad_ack,
        0
    );
    // The base sequence numbers are random, so "0" and "0x7000_0000" fall
    // outside [una, nxt] with near certainty; check the exact counts.
    assert_eq!(o.stats.bad_flow, 40, "{o:?}");
    assert_eq!(o.stats.bad_update, 40, "{o:?}");
    assert_eq!(o.stats.bad_ack, 45, "{o:?}");
    assert_eq!(o.stats.bad_rewind, 40, "{o:?}");
    assert_eq!(o.stats.bad_doorbell, 25, "{o:?}");
    assert_eq!(o.stats.bad_op, 5, "{o:?}");
    assert_eq!(o.stats.bad_trim, 10, "{o:?}");
    assert_eq!(o.stats.events, o0.stats.events + 200);
}

/// TRIM (the requester's cut at a message end): the bytes from the cut
/// on go back, and the PktSends decided before the TRIM took effect carry
/// the old epoch. The PktSends of the current epoch, cut where the
/// environment cut them, tile each flow's byte stream with no gap and no
/// overlap, and every backlogged byte is sent (RTL == golden, Verilator).
#[test]
fn trim_cuts_and_the_epoch_marks_stale_sends() {
    let mut cfg = EnvCfg::new(8, 0.9);
    cfg.mtu = 512;
    cfg.backlog = 30_000;
    cfg.window = 1 << 20;
    cfg.ack_delay = 300;
    cfg.trim_pct = 40;
    cfg.seed = 11;
    let mut env = Env::new(cfg);
    let mut e = engine::<FlowSched<4>>(EngineKind::Verilator, "flow_sched_trim");
    let (g, st) = run::<4, FlowSched<4>>(&mut env, Some(e.as_mut()), 60_000).unwrap();
    let mut stale = 0;
    for f in 0..8u32 {
        let sends: Vec<_> = st.sent.iter().filter(|s| s.flow == f && !s.probe).collect();
        stale += sends.iter().filter(|s| !s.current).count();
        let cur: Vec<_> = sends.iter().filter(|s| s.current).collect();
        let base = g.flows[f as usize].end.wrapping_sub(30_000);
        let mut at = base;
        for s in &cur {
            assert_eq!(s.seq, at, "flow {f}: gap or overlap at {s:?}");
            at = at.wrapping_add(s.sent_len);
        }
        assert_eq!(at.wrapping_sub(base), 30_000, "flow {f}: not all sent");
    }
    assert!(stale > 0, "no stale PktSend: the epoch was not exercised");
    assert_eq!(st.last_out.stats.bad_trim, 0);
}

/// Probes: a flow with data in flight is probed once per `cfg_probe_t`
/// (no earlier, and not much later: the probe list is a timer FIFO), and
/// a flow with nothing in flight is not.
#[test]
fn probe_once_per_base_rtt() {
    // Packets every ~1100 cycles per flow, ACKed 3000 cycles later: data in
    // flight throughout, until the 15 kB per flow are sent and ACKed.
    let mut cfg = EnvCfg::new(16, 0.45);
    cfg.mtu = 512;
    cfg.probe_t = 1500;
    cfg.ack_delay = 3000;
    cfg.backlog = 15_000;
    let (_, st) = go::<4>("probe", Some(EngineKind::Verilator), cfg, 60_000, false).unwrap();
    let mut checked = 0;
    for f in 0..16 {
        // Issue cycles: Tx queueing (the probe waits behind data packets)
        // does not count.
        let p: Vec<u64> = st
            .sent
            .iter()
            .filter(|s| s.probe && s.flow == f)
            .map(|s| s.issue)
            .collect();
        let data: Vec<u64> = st
            .sent
            .iter()
            .filter(|s| !s.probe && s.flow == f)
            .map(|s| s.cycle)
            .collect();
        assert!(!p.is_empty(), "flow {f} never probed");
        for w in p.windows(2) {
            assert!(w[1] - w[0] > 1500, "flow {f}: probes {} apart", w[1] - w[0]);
            assert!(
                w[1] - w[0] <= 1500 + 40,
                "flow {f}: probes {} apart",
                w[1] - w[0]
            );
            checked += 1;
        }
        // The last data packet is ACKed 3000 cycles later: after that, at
        // most one more probe (the one already due) and then none.
        let done = data.last().unwrap() + 3000;
        assert!(
            p.iter().filter(|&&c| c > done + 1540).count() == 0,
            "flow {f} probed when idle"
        );
    }
    assert!(checked > 100);
}

/// Four-state simulation: no X/Z on any output, values equal the golden
/// model's (a recorded closed-loop stimulus).
#[test]
fn flow_sched_no_x_in_four_state_simulation() {
    let mut cfg = EnvCfg::new(8, 1.0);
    cfg.mtu = 256;
    cfg.probe_t = 200;
    cfg.loss_pct = 5;
    cfg.bad_pct = 5;
    cfg.tx_ready_pct = 70;
    cfg.ack_delay = 100;
    let mut env = Env::new(cfg);
    // Record the inputs of a golden run, then replay them four-state.
    let mut rec = Recorder::<4>::default();
    run::<4, FlowSched<4>>(&mut env, Some(&mut rec), 1500).unwrap();
    four_state::<FlowSched<4>, G<4>>("flow_sched16", &rec.inputs);
}

/// `make bench`'s scheduler benchmark, run alone (ignored by default):
/// `cargo test --release -p nic-testbench --test blocks bench_sched_alone -- --ignored --nocapture`.
#[test]
#[ignore]
fn bench_sched_alone() {
    let mut f = nic_testbench::figures::figures();
    nic_testbench::bench::bench_sched(&mut f);
    for (k, v) in f {
        println!("{k} {v}");
    }
}

/// REWIND skips forward: after a go-back, an ACK can land past snd_nxt
/// (packets sent before the go-back were received), and the requester
/// says so with REWIND(a), a in (nxt, end]. The flow goes on from a in
/// the new epoch; past `end` it is `bad_rewind` (RTL == golden, both
/// engines).
#[test]
fn rewind_skips_forward_to_an_ack_past_nxt() {
    use nic_golden::sched::{flow_sched::In, SchedEvent};
    use nic_golden::Cycle;
    let idle = In {
        cfg_mtu: 1000,
        cfg_cap: 4000,
        cfg_probe_t: 0,
        send_ready: true,
        ..In::default()
    };
    let ev = |op, a, b| In {
        ev_valid: true,
        ev: SchedEvent { op, flow: 3, a, b },
        ..idle
    };
    // The stimulus holds each event until taken (the interlock can delay
    // it), as decided by the golden model; both engines then replay it.
    let mut g = G::<4>::default();
    let mut s = Vec::new();
    let mut step = |s: &mut Vec<In>, i: In| {
        s.push(i);
        g.step(&i).ev_ready
    };
    let mut at = Vec::new();
    let mut push = |s: &mut Vec<In>, e: In, gap: usize| {
        while !step(s, e) {}
        at.push(s.len() - 1);
        for _ in 0..gap {
            step(s, idle);
        }
    };
    push(&mut s, idle, 4);
    push(&mut s, ev(OP_INIT, 1000, 1), 20);
    push(&mut s, ev(OP_DOORBELL, 20_000, 0), 20);
    push(&mut s, ev(OP_UPDATE, 1 << 24, 100_000 << 8), 4000); // 1 B/cycle
    let t_rew = s.len();
    push(&mut s, ev(OP_REWIND, 16_000, 2), 8000);
    push(&mut s, ev(OP_REWIND, 21_001, 3), 20);
    push(&mut s, ev(OP_REWIND, 21_000, 4), 20);
    let outs = both::<FlowSched<4>, G<4>>("flow_sched_skip", &s).unwrap();
    for &t in &at[1..] {
        assert!(outs[t].ev_ready, "event at {t} not taken");
    }
    let sends: Vec<_> = outs
        .iter()
        .enumerate()
        .filter(|(_, o)| o.send_valid && !o.send.probe)
        .map(|(t, o)| (t, o.send))
        .collect();
    let before: Vec<_> = sends.iter().filter(|(t, _)| *t <= t_rew).collect();
    let after: Vec<_> = sends.iter().filter(|(t, _)| *t > t_rew + 20).collect();
    assert!(
        !before.is_empty() && before.iter().all(|(_, p)| p.epoch == 1),
        "{before:?}"
    );
    let nxt = before.last().map(|(_, p)| p.seq + p.len).unwrap();
    assert!(nxt < 16_000, "the skip is not forward: nxt {nxt}");
    let seqs: Vec<_> = after.iter().map(|(_, p)| (p.seq, p.len, p.epoch)).collect();
    assert_eq!(
        seqs,
        (0..5)
            .map(|k| (16_000 + 1000 * k, 1000, 2))
            .collect::<Vec<_>>(),
        "after the skip"
    );
    let st = outs.last().unwrap().stats;
    assert_eq!(
        (st.bad_rewind, st.bad_ack, st.bad_trim),
        (1, 0, 0),
        "{st:?}"
    );
}
