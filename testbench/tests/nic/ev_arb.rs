//! `hdl/src/nic/ev_arb.rs` against `nic_golden::nic::ev_arb`: requester
//! events and CC updates (HPCC++, NOTIFY, DCQCN) of every status at
//! random, with back-pressure long enough to fill the update queue (drops
//! counted).

use crate::common::*;
use nic_golden::cc::CcUpdate;
use nic_golden::nic::ev_arb::{rate_per_cycle, EvArb as Golden, In};
use nic_golden::sched::SchedEvent;
use nic_hdl::nic::ev_arb::EvArb;
use proptest::prelude::*;
use rand::{rngs::StdRng, Rng, SeedableRng};

fn stimulus(seed: u64, n: usize) -> Vec<In> {
    let mut rng = StdRng::seed_from_u64(seed);
    let npc = [0x1_0000, 0x6_6666, 0xFF_FFFF, 1, rng.gen_range(0..1 << 24)][rng.gen_range(0..5)];
    let stall = rng.gen_range(0.0..0.95);
    (0..n)
        .map(|_| In {
            cfg_ns_per_cycle: npc,
            req_valid: rng.gen_bool(0.4),
            req: SchedEvent {
                op: rng.gen_range(0..8),
                flow: rng.gen_range(0..1 << 16),
                a: rng.gen(),
                b: rng.gen(),
            },
            update_valid: rng.gen_bool(0.5),
            update: CcUpdate {
                flow: rng.gen(),
                status: rng.gen_range(0..8),
                w: rng.gen(),
                r: rng.gen_range(0..1 << 24),
                variant: rng.gen_bool(0.2),
                ..Default::default()
            },
            notify_valid: rng.gen_bool(0.2),
            notify: CcUpdate {
                flow: rng.gen(),
                status: rng.gen_range(0..8),
                w: rng.gen(),
                r: rng.gen_range(0..1 << 24),
                ..Default::default()
            },
            dcqcn_valid: rng.gen_bool(0.3),
            dcqcn: CcUpdate {
                flow: rng.gen(),
                status: rng.gen_range(0..6),
                w: rng.gen(),
                r: rng.gen_range(0..1 << 24),
                ..Default::default()
            },
            ev_ready: !rng.gen_bool(stall),
        })
        .collect()
}

proptest! {
    #![proptest_config(config(16))]
    #[test]
    fn ev_arb_matches_golden(seed in any::<u64>(), n in 20usize..400) {
        both::<EvArb, Golden>("ev_arb", &stimulus(seed, n))?;
    }
}

#[test]
fn rate_conversion_saturates_and_never_rounds_to_zero() {
    // 1 B/ns at 6.4 ns per cycle: 6.4 B/cycle.
    // 1 B/ns (UQ8.16) at 6.4 ns per cycle (UQ8.16): 6.4 B/cycle in UQ8.24.
    let r = rate_per_cycle(1 << 16, (6.4f64 * 65536.0) as u32);
    assert!((r as f64 / (1u64 << 24) as f64 - 6.4).abs() < 1e-4, "{r}");
    assert_eq!(rate_per_cycle(0xFF_FFFF, 0xFF_FFFF), u32::MAX);
    assert_eq!(rate_per_cycle(1, 1), 1);
    assert_eq!(rate_per_cycle(0, 0x1_0000), 0);
}

/// The doc comment's timing: a CC update's UPDATE is offered 7 cycles
/// after its strobe (4 in the multiplier, 3 through the queue).
#[test]
fn an_update_reaches_the_scheduler_7_cycles_after_its_strobe() {
    let mut s = vec![
        In {
            cfg_ns_per_cycle: 0x1_0000,
            ev_ready: true,
            ..Default::default()
        };
        12
    ];
    s[0].update_valid = true;
    s[0].update = CcUpdate {
        flow: 5,
        status: 0,
        w: 1000 << 8,
        r: 1 << 16,
        ..Default::default()
    };
    let o = both::<EvArb, Golden>("ev_arb_timing", &s).unwrap();
    let first = o.iter().position(|o| o.ev_valid).unwrap();
    assert_eq!(first, 7);
    // 1 B/ns at 1 ns per cycle: 1 B/cycle, UQ8.24.
    assert_eq!(
        (o[7].ev.flow, o[7].ev.a, o[7].ev.b),
        (5, 1 << 24, 1000 << 8)
    );
}

/// A DCQCN update (UPDATE or CREATED) reaches the scheduler as UPDATE(R,
/// W); HELD, DESTROYED and DROP_FLOW do not; in a three-way tie the HPCC++
/// update wins and the other two are counted as dropped.
#[test]
fn dcqcn_updates_and_three_way_ties() {
    use nic_spec::dcqcn::status;
    let base = In {
        cfg_ns_per_cycle: 0x1_0000,
        ev_ready: true,
        ..Default::default()
    };
    let d = |st: u8, flow: u16| In {
        dcqcn_valid: true,
        dcqcn: CcUpdate {
            flow,
            status: st,
            r: 0x100,
            w: 77,
            ..Default::default()
        },
        ..base
    };
    let mut s = vec![
        d(status::UPDATE, 1),
        d(status::HELD, 2),
        d(status::CREATED, 3),
        d(status::DESTROYED, 4),
        d(status::DROP_FLOW, 5),
    ];
    let mut tie = d(status::UPDATE, 6);
    tie.update_valid = true;
    tie.update = CcUpdate {
        flow: 7,
        status: 0,
        r: 0x200,
        ..Default::default()
    };
    tie.notify_valid = true;
    tie.notify.flow = 8;
    s.push(tie);
    s.extend(std::iter::repeat(base).take(12));
    let out = both::<EvArb, Golden>("ev_arb_dcqcn", &s).unwrap();
    let flows: Vec<u32> = out
        .iter()
        .filter(|o| o.ev_valid)
        .map(|o| o.ev.flow)
        .collect();
    assert_eq!(flows, vec![1, 3, 7]);
    let first = out.iter().find(|o| o.ev_valid).unwrap();
    assert_eq!(
        (first.ev.a, first.ev.b),
        (rate_per_cycle(0x100, 0x1_0000), 77)
    );
    let last = out.last().unwrap();
    assert_eq!((last.updates, last.update_drops), (3, 2));
}
