//! `hdl/src/nic/ev_merge.rs` against `nic_golden::nic::ev_merge`.
//!
//! - `ev_merge_matches_golden`: both engines, every port every cycle: a
//!   requester-like source (an event held until taken) of DOORBELLs, ACKs
//!   and ACK_DBs on a few flows, with INIT, REWIND, TRIM, UPDATE and an
//!   unknown op among them, and a scheduler port ready at random.
//! - `merged_events_leave_each_flow_as_its_events_would`: what leaves,
//!   applied to a model of each flow (snd_una, end, and the other ops in
//!   order), gives the state the events that came in give; merges happen.
//! - `a_waiting_event_holds_ready_low_until_the_held_one_goes`: the
//!   timing of `s_req.ready`, `m_ev.valid` and a merge, cycle by cycle.
//! - `ev_merge_no_x_in_four_state_simulation`: Icarus.

use crate::common::*;
use nic_golden::nic::ev_merge::{EvMerge as Golden, In, Out};
use nic_golden::sched::SchedEvent;
use nic_golden::Cycle;
use nic_hdl::nic::ev_merge::EvMerge;
use nic_spec::sched::{OP_ACK, OP_ACK_DB, OP_DOORBELL, OP_INIT, OP_REWIND, OP_TRIM, OP_UPDATE};
use proptest::prelude::*;
use rand::{rngs::StdRng, Rng, SeedableRng};
use std::collections::HashMap;

fn random_event(rng: &mut StdRng, flows: u32, una: &mut u32) -> SchedEvent {
    let flow = rng.gen_range(0..flows);
    let (op, a, b) = match rng.gen_range(0..20) {
        0..=7 => (OP_DOORBELL, rng.gen_range(1..5000), rng.gen()),
        8..=14 => {
            *una = una.wrapping_add(rng.gen_range(0..3000));
            (OP_ACK, *una, rng.gen())
        }
        15 => (OP_ACK_DB, *una, rng.gen_range(1..5000)),
        16 => (OP_INIT, rng.gen(), rng.gen()),
        17 => (OP_REWIND, rng.gen(), rng.gen()),
        18 => (OP_TRIM, rng.gen(), rng.gen()),
        _ => (
            if rng.gen_bool(0.5) { OP_UPDATE } else { 7 },
            rng.gen(),
            rng.gen(),
        ),
    };
    SchedEvent { op, flow, a, b }
}

/// `n` events offered as a requester does (held until taken, gaps at
/// random), driven through the twin; the port ready with probability
/// `p_ready`.
fn stimulus(seed: u64, n: usize) -> Vec<In> {
    let mut rng = StdRng::seed_from_u64(seed);
    let flows = rng.gen_range(1..5);
    let p_ready = rng.gen_range(0.05..1.0);
    let p_offer = rng.gen_range(0.2..1.0);
    let mut g = Golden::default();
    let mut una = 0u32;
    let mut cur: Option<SchedEvent> = None;
    let mut s = Vec::new();
    let mut sent = 0;
    while sent < n || cur.is_some() {
        if cur.is_none() && sent < n && rng.gen_bool(p_offer) {
            cur = Some(random_event(&mut rng, flows, &mut una));
            sent += 1;
        }
        let i = In {
            req_valid: cur.is_some(),
            req: cur.unwrap_or_default(),
            ev_ready: rng.gen_bool(p_ready),
        };
        if g.step(&i).req_ready {
            cur = None;
        }
        s.push(i);
    }
    for _ in 0..8 {
        s.push(In {
            ev_ready: true,
            ..Default::default()
        });
    }
    s
}

/// Each flow as the scheduler would hold it: snd_una, the DOORBELL bytes,
/// and the other ops in order.
#[derive(Debug, Default, PartialEq, Eq)]
struct FlowModel {
    una: Option<u32>,
    bytes: u32,
    others: Vec<SchedEvent>,
}

fn apply(events: impl Iterator<Item = SchedEvent>) -> HashMap<u32, FlowModel> {
    let mut m: HashMap<u32, FlowModel> = HashMap::new();
    for e in events {
        let f = m.entry(e.flow).or_default();
        match e.op {
            OP_DOORBELL => f.bytes = f.bytes.wrapping_add(e.a),
            OP_ACK => f.una = Some(e.a),
            OP_ACK_DB => {
                f.una = Some(e.a);
                f.bytes = f.bytes.wrapping_add(e.b);
            }
            _ => {
                // An op that does not merge: the state so far is settled.
                f.others.push(e);
                f.others.push(SchedEvent {
                    op: 0xFF,
                    flow: e.flow,
                    a: f.una.unwrap_or(0),
                    b: f.bytes,
                });
            }
        }
    }
    m
}

fn inputs_taken(s: &[In], o: &[Out]) -> Vec<SchedEvent> {
    s.iter()
        .zip(o)
        .filter(|(i, o)| i.req_valid && o.req_ready)
        .map(|(i, _)| i.req)
        .collect()
}

fn outputs_taken(s: &[In], o: &[Out]) -> Vec<SchedEvent> {
    s.iter()
        .zip(o)
        .filter(|(i, o)| o.ev_valid && i.ev_ready)
        .map(|(_, o)| o.ev)
        .collect()
}

proptest! {
    #![proptest_config(config(10))]
    #[test]
    fn ev_merge_matches_golden(seed in any::<u64>(), n in 1usize..200) {
        let s = stimulus(seed, n);
        both::<EvMerge, Golden>("ev_merge", &s)?;
    }
}

#[test]
fn merged_events_leave_each_flow_as_its_events_would() {
    let mut merges = 0;
    for seed in 0..200 {
        let s = stimulus(seed, 300);
        let mut g = Golden::default();
        let o: Vec<Out> = s.iter().map(|i| g.step(i)).collect();
        let inp = inputs_taken(&s, &o);
        let out = outputs_taken(&s, &o);
        assert_eq!(inp.len(), 300, "seed {seed}: not every event was taken");
        let merged = o.last().unwrap().merged as usize;
        assert_eq!(out.len() + merged, inp.len(), "seed {seed}");
        assert_eq!(
            apply(inp.into_iter()),
            apply(out.into_iter()),
            "seed {seed}"
        );
        merges += merged;
    }
    assert!(
        merges > 1000,
        "only {merges} merges: the test does not merge"
    );
}

#[test]
fn a_waiting_event_holds_ready_low_until_the_held_one_goes() {
    let db = |flow, a| SchedEvent {
        op: OP_DOORBELL,
        flow,
        a,
        b: 0,
    };
    let ack = |flow, a| SchedEvent {
        op: OP_ACK,
        flow,
        a,
        b: 0,
    };
    let offer = |e, ev_ready| In {
        req_valid: true,
        req: e,
        ev_ready,
    };
    let idle = |ev_ready| In {
        ev_ready,
        ..Default::default()
    };
    let s = vec![
        offer(db(1, 64), false),   // 0: taken into held
        offer(ack(1, 500), false), // 1: merges: ACK_DB(500, 64)
        offer(db(2, 64), false),   // 2: another flow: waits
        idle(false),               // 3: ready low
        idle(true),                // 4: held taken; the waiting one moves up
        idle(true),                // 5: DB(2) taken
        idle(true),                // 6: empty
    ];
    let o = both::<EvMerge, Golden>("ev_merge_timing", &s).unwrap();
    let ready: Vec<bool> = o.iter().map(|x| x.req_ready).collect();
    let valid: Vec<bool> = o.iter().map(|x| x.ev_valid).collect();
    assert_eq!(ready, [true, true, true, false, false, true, true]);
    assert_eq!(valid, [false, true, true, true, true, true, false]);
    assert_eq!(
        o[4].ev,
        SchedEvent {
            op: OP_ACK_DB,
            flow: 1,
            a: 500,
            b: 64
        }
    );
    assert_eq!(o[5].ev, db(2, 64));
    assert_eq!(o[6].merged, 1);
}

#[test]
fn ev_merge_no_x_in_four_state_simulation() {
    four_state::<EvMerge, Golden>("ev_merge_x", &stimulus(3, 60));
}
