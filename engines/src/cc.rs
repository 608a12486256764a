//! Stimulus for the CC module: random telemetry scenarios, the expansion
//! of an event list into per-cycle port values (holding each event until
//! `event_ready`), and running an event list through the RTL on an engine.

use crate::cosim::{engine, EngineKind};
use crate::Harness;
use nic_golden::cc::hpcc::{self, op, CcEvent, CcUpdate, HpccCc as Golden, HOPS};
use nic_golden::cc::int_ns3::HopFields;
use nic_golden::cc::params::{rate_code, CcParams, CcRegs, Variant, RATE_GBPS};
use nic_golden::Cycle;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// Knobs of a random scenario (percentages are per event).
#[derive(Clone, Copy, Debug)]
pub struct GenCfg {
    /// Distinct flow ids in use (ids 0..flows, spread over the id space).
    pub flows: u16,
    /// Chance the next event is for the same flow as the last (bursts).
    pub burst_pct: u32,
    /// Chance of each kind of bad input.
    pub bad_pct: u32,
    /// Idle cycles between events: 0..=gap_max.
    pub gap_max: u32,
    /// Hop counts 1..=max_hops.
    pub max_hops: u8,
}

impl Default for GenCfg {
    fn default() -> Self {
        Self {
            flows: 8,
            burst_pct: 30,
            bad_pct: 2,
            gap_max: 2,
            max_hops: 5,
        }
    }
}

#[derive(Clone, Copy, Default)]
struct Hop {
    code: u8,
    ts: u64,
    bytes: u64,
    qlen: u64,
}

#[derive(Clone, Default)]
struct Path {
    id: u16,
    /// The flow's variant (true NewINT).
    variant: bool,
    created: bool,
    hops: Vec<Hop>,
    seq: u64,
    snd_nxt: u64,
    now: u64,
    load: f64,
}

/// A random event list for `p`: (idle cycles before the event, event).
/// Telemetry evolves like a real path: timestamps advance by ~T/20..T,
/// tx bytes by the link rate × a load, queues random-walk; with
/// `bad_pct`, every kind of bad input appears. Flows take `p.variant`,
/// except every fourth, which takes the other one (the module keeps the
/// variant per flow); with `bad_pct`, some events are for the other
/// variant than their flow's.
pub fn scenario(seed: u64, p: &CcParams, n: usize, g: GenCfg) -> Vec<(u32, CcEvent)> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let flows_log2 = p.flows_log2().unwrap_or(10);
    let t = p.base_rtt_ns.max(64.0);
    let mut paths: Vec<Path> = (0..g.flows.max(1))
        .map(|i| {
            let nh = rng.gen_range(1..=g.max_hops.clamp(1, 5)) as usize;
            Path {
                // Spread the ids so different flows share no low bits.
                id: ((i as u32 * 37) % (1 << flows_log2)) as u16,
                variant: (p.variant == Variant::Receiver) != (i % 4 == 3),
                hops: (0..nh)
                    .map(|_| Hop {
                        code: if rng.gen_bool(0.7) {
                            rate_code(p.line_rate_gbps).unwrap_or(2)
                        } else {
                            rng.gen_range(0..5)
                        },
                        ts: rng.gen_range(0..1u64 << 24),
                        bytes: rng.gen_range(0..1u64 << 34),
                        qlen: 0,
                    })
                    .collect(),
                seq: rng.gen_range(0..1u64 << 32),
                now: rng.gen_range(0..1u64 << 32),
                load: rng.gen_range(0.2..1.3),
                ..Default::default()
            }
        })
        .collect();
    for path in paths.iter_mut() {
        path.snd_nxt = path.seq + 10_000;
    }
    let bad = |rng: &mut SmallRng| rng.gen_range(0..100) < g.bad_pct;
    let mut out = Vec::with_capacity(n);
    let mut cur = 0usize;
    while out.len() < n {
        let gap = rng.gen_range(0..=g.gap_max);
        if rng.gen_range(0..100) >= g.burst_pct {
            cur = rng.gen_range(0..paths.len());
        }
        let path = &mut paths[cur];
        if !path.created || bad(&mut rng) && rng.gen_bool(0.2) {
            // Create (or occasionally re-create) the flow.
            path.created = true;
            out.push((
                gap,
                CcEvent {
                    op: op::CREATE,
                    variant: path.variant,
                    flow: path.id,
                    ..Default::default()
                },
            ));
            continue;
        }
        if bad(&mut rng) {
            match rng.gen_range(0..4) {
                0 => {
                    out.push((
                        gap,
                        CcEvent {
                            op: op::DESTROY,
                            flow: path.id,
                            ..Default::default()
                        },
                    ));
                    path.created = false;
                    continue;
                }
                1 => {
                    // A flow id beyond the module's range, or never created.
                    let flow = if rng.gen_bool(0.5) {
                        rng.gen_range((1u32 << flows_log2)..=0xFFFF) as u16
                    } else {
                        ((1u32 << flows_log2) - 1 - rng.gen_range(0..3)) as u16
                    };
                    out.push((
                        gap,
                        CcEvent {
                            op: rng.gen_range(0..4),
                            flow,
                            nhops: 1,
                            ..Default::default()
                        },
                    ));
                    continue;
                }
                2 => {
                    // A new path length (re-initialises the telemetry).
                    let nh = rng.gen_range(1..=5usize);
                    path.hops.resize(
                        nh,
                        Hop {
                            code: 2,
                            ..Default::default()
                        },
                    );
                }
                _ => {}
            }
        }
        // Advance the path.
        let dt = if rng.gen_bool(0.1) {
            rng.gen_range(0.0..3.0 * t)
        } else {
            rng.gen_range(t / 50.0..t / 2.0)
        } as u64;
        path.now += dt;
        for h in path.hops.iter_mut() {
            let b = RATE_GBPS[h.code.min(4) as usize] / 8.0;
            let ts_step = if bad(&mut rng) {
                if rng.gen_bool(0.5) {
                    0
                } else {
                    (1u64 << 24) - rng.gen_range(1..1000)
                }
            } else {
                dt + rng.gen_range(0..=dt / 8 + 1)
            };
            h.ts = h.ts.wrapping_add(ts_step);
            let by_step = if bad(&mut rng) {
                // Backwards by up to 2^19 units.
                u64::MAX - rng.gen_range(0..1u64 << 25)
            } else {
                (b * ts_step.min(1 << 23) as f64 * path.load * rng.gen_range(0.8..1.1)) as u64
            };
            h.bytes = h.bytes.wrapping_add(by_step);
            h.qlen = if bad(&mut rng) {
                u64::MAX >> 8
            } else {
                let step = (b * t * 0.05) as i64;
                (h.qlen as i64 + rng.gen_range(-step..=step)).clamp(0, (b * t * 3.0) as i64) as u64
            };
        }
        // ACKs advance; now and then one passes lastUpdateSeq.
        path.seq += rng.gen_range(0..4000);
        if rng.gen_bool(0.15) {
            path.seq = path.snd_nxt + rng.gen_range(0..2000);
        }
        path.snd_nxt = path.snd_nxt.max(path.seq) + rng.gen_range(0..8000);
        let multi = p.int_multi;
        let mut hops = [0u64; HOPS];
        for (i, h) in path.hops.iter().enumerate() {
            hops[i] = HopFields::quantise(h.code, h.ts, h.bytes, h.qlen, multi).encode();
        }
        let mut nhops = path.hops.len() as u8;
        if bad(&mut rng) {
            match rng.gen_range(0..3) {
                0 => nhops = 0,
                1 => nhops = rng.gen_range(6..16),
                _ => {
                    let i = rng.gen_range(0..path.hops.len());
                    hops[i] = (hops[i] & !7) | rng.gen_range(5..8);
                }
            }
        }
        out.push((
            gap,
            CcEvent {
                op: op::EVENT,
                // Now and then an event for the other variant.
                variant: path.variant != (bad(&mut rng) && rng.gen_bool(0.3)),
                flow: path.id,
                seq: path.seq as u32,
                snd_nxt: path.snd_nxt as u32,
                now: path.now as u32,
                nhops,
                hops,
            },
        ));
    }
    out
}

/// Expand events into per-cycle inputs: each event is offered after its
/// idle cycles and held until accepted (`event_ready`, as the golden twin
/// computes it: the RTL must agree, or the co-simulation fails), then
/// idle cycles until every result has left (the two events the register
/// slice may still hold can each wait the hazard window at its head).
pub fn expand<const A: usize>(regs: &CcRegs, events: &[(u32, CcEvent)]) -> Vec<hpcc::In> {
    let mut g = Golden::<A>::default();
    let idle = hpcc::In::with_regs(regs);
    let tail = hpcc::LATENCY + 2 * (hpcc::HAZARD_WINDOW + 1) + 4;
    let mut v = Vec::with_capacity(events.len() * 2 + tail);
    for (gap, ev) in events {
        for _ in 0..*gap {
            g.step(&idle);
            v.push(idle);
        }
        let mut i = idle;
        i.set_event(ev);
        loop {
            let o = g.step(&i);
            v.push(i);
            if o.event_ready {
                break;
            }
        }
    }
    for _ in 0..tail {
        g.step(&idle);
        v.push(idle);
    }
    v
}

/// The results (`update_valid` cycles) of a run, in order.
pub fn updates(outs: &[hpcc::Out]) -> Vec<CcUpdate> {
    outs.iter()
        .filter(|o| o.update_valid)
        .map(|o| o.update)
        .collect()
}

/// Run events through the RTL CC module (2^A flows) on one engine;
/// returns its results in order and the final counters.
pub fn run_rtl<const A: usize>(
    kind: EngineKind,
    test: &str,
    regs: &CcRegs,
    events: &[(u32, CcEvent)],
) -> (Vec<CcUpdate>, hpcc::Counters)
where
    nic_hdl::cc::HpccCc<A>: Harness<In = hpcc::In, Out = hpcc::Out>,
{
    let stim = expand::<A>(regs, events);
    let mut e = engine::<nic_hdl::cc::HpccCc<A>>(kind, test);
    let outs: Vec<hpcc::Out> = stim.iter().map(|i| e.step(i)).collect();
    let last = outs.last().map(|o| o.stats).unwrap_or_default();
    (updates(&outs), last)
}

/// Relative error of W of the fixed-point model against the f64 reference
/// (given the same quantised parameters), per UPDATE event of `events`.
pub fn w_errors(p: &CcParams, events: &[CcEvent]) -> Vec<f64> {
    let regs = p.regs().unwrap();
    let mut r = nic_golden::cc::hpcc_ref::HpccRef::new(&p.effective().unwrap());
    let mut f = nic_golden::cc::hpcc::HpccFixed::new(p.flows_log2().unwrap());
    events
        .iter()
        .filter_map(|e| {
            let a = r.process(e);
            let b = f.process(e, &regs);
            assert_eq!(a.status, b.status);
            (a.status == nic_golden::cc::hpcc::status::UPDATE)
                .then(|| ((b.w as f64 / 256.0 - a.w) / a.w).abs())
        })
        .collect()
}
