//! The CC in the loop on the NIC core: NIC 0 writes to NIC 1 through a
//! [`Bottleneck`] slower than its line rate that stamps one telemetry
//! hop; ACKs come back on a plain [`Link`]. Both NICs are the golden
//! twin of `hpcc_nic_core` (cycle-exact to the RTL: `tests/nic/core.rs`).
//!
//! Time-scaled: the core moves 8 bytes a cycle and `ns_per_cycle` = 0.64
//! makes that 100 Gb/s, the line rate the CC is configured with; the
//! bottleneck is a telemetry rate code's rate (50 Gb/s: 4 bytes a cycle).

use crate::bottleneck::{Bottleneck, BottleneckCfg};
use crate::core_env::{
    config_script, plan, CoreHost, CorePair, HostParams, PlannedWr, VariantPlan,
};
use crate::link::{Link, LinkCfg};
use nic_golden::cc::params::{rate_code, CcParams, Variant};
use nic_golden::nic::core::{In, NicCore};
use nic_golden::roce::WorkReq;
use nic_golden::Cycle;
use nic_spec::roce::wr::{self, Status};
use std::cell::RefCell;

const A: usize = 3;
const Q: usize = 3;
const B: usize = 10;

#[derive(Clone, Debug, PartialEq)]
pub struct CcLoopCfg {
    /// The variant of flow `FIRST_QP` (the only flow when `flows` = 1).
    pub variant: Variant,
    /// Flows sharing the bottleneck, 1 or 2: the second (`FIRST_QP` + 1)
    /// runs the other variant, so both run on one core at once.
    pub flows: u32,
    /// The bottleneck's rate, Gb/s (25, 50, 100, 200 or 400: a telemetry
    /// rate code), below the NIC's 100.
    pub bottleneck_gbps: f64,
    /// One-way delay of each direction, cycles.
    pub delay: u64,
    /// T, ns.
    pub base_rtt_ns: f64,
    pub mtu_log2: u8,
    /// WRITEs of `msg_bytes` each, spread over the flows in turn.
    pub messages: u32,
    pub msg_bytes: u32,
}

impl Default for CcLoopCfg {
    fn default() -> Self {
        Self {
            variant: Variant::Sender,
            flows: 1,
            bottleneck_gbps: 50.0,
            delay: 1000,
            base_rtt_ns: 2000.0,
            mtu_log2: 10,
            messages: 16,
            msg_bytes: 64 * 1024,
        }
    }
}

/// ns per cycle of the time-scaled core (8 bytes a cycle = 100 Gb/s).
pub const NS_PER_CYCLE: f64 = 0.64;

#[derive(Clone, Debug, Default)]
pub struct CcLoopRun {
    pub cycles: u64,
    /// (cycle, W in bytes, R in bytes/ns) of every UPDATE NIC 0's
    /// scheduler takes (from its CC with NewAck, from NOTIFYs with NewINT;
    /// R as the scheduler has it, converted back to bytes/ns).
    pub cc: Vec<(u64, f64, f64)>,
    /// (cycle, bytes queued, frame bytes) at every bottleneck departure.
    pub queue: Vec<(u64, u64, u32)>,
    /// Bottleneck bytes per cycle.
    pub capacity: f64,
    pub stamped: u64,
    /// Errors of the run (completions, memory); empty if clean.
    pub errors: Vec<String>,
    /// UPDATEs NIC 0's scheduler took, per flow (flow id, count).
    pub updates_per_flow: Vec<(u32, usize)>,
    /// Both cores' outputs in the last cycle (their counters).
    pub last: [nic_golden::nic::core::Out; 2],
}

impl CcLoopRun {
    /// Utilisation of the bottleneck and (mean, max) queue in bytes over
    /// the departures from cycle `from` on.
    pub fn steady(&self, from: u64) -> (f64, f64, u64) {
        self.window(from, u64::MAX)
    }

    /// The same over the departures in cycles `from .. to`.
    pub fn window(&self, from: u64, to: u64) -> (f64, f64, u64) {
        let tail: Vec<_> = self
            .queue
            .iter()
            .filter(|q| q.0 >= from && q.0 < to)
            .collect();
        if tail.len() < 2 {
            return (0.0, 0.0, 0);
        }
        let cycles = (tail.last().unwrap().0 - tail[0].0) as f64;
        let bytes: f64 = tail[..tail.len() - 1].iter().map(|q| q.2 as f64).sum();
        let mean = tail.iter().map(|q| q.1 as f64).sum::<f64>() / tail.len() as f64;
        let max = tail.iter().map(|q| q.1).max().unwrap();
        (bytes / cycles / self.capacity, mean, max)
    }
}

pub fn run(c: &CcLoopCfg) -> CcLoopRun {
    let code = rate_code(c.bottleneck_gbps).expect("a telemetry rate code's rate");
    let multi = (c.bottleneck_gbps / 25.0).max(1.0) as u32;
    let cc = CcParams {
        variant: c.variant,
        base_rtt_ns: c.base_rtt_ns,
        line_rate_gbps: 100.0,
        int_multi: multi,
        flows: 1 << A,
        ..CcParams::default()
    };
    let p = HostParams {
        mtu_log2: c.mtu_log2,
        rto: 1_000_000,
        probe_t: 1_000_000,
        sched_cap: 4096,
        ns_per_cycle: (NS_PER_CYCLE * 65536.0) as u32,
        cc: cc.regs().expect("valid CC parameters"),
        tlm_data: true,
        cc_variant: if c.flows >= 2 {
            // FIRST_QP is even: it gets `variant`, FIRST_QP + 1 the other.
            match c.variant {
                Variant::Sender => VariantPlan::Mixed,
                Variant::Receiver => VariantPlan::MixedReversed,
            }
        } else {
            VariantPlan::All(c.variant)
        },
        dma_latency: 4,
        stall: 0.0,
        ring: 1 << Q,
        post_from: 0,
        rx_pause: None,
        tx_ctl_share: nic_spec::roce::TX_CTL_SHARE_DEFAULT as u8,
    };
    let nflows = c.flows.clamp(1, 2);
    let flows = plan(1, nflows, 0, 8, 0, 0, 1 << c.mtu_log2).flows;
    let size = (c.msg_bytes as usize) * c.messages as usize;
    let mem0: Vec<u8> = (0..size).map(|k| (k * 7 + 3) as u8).collect();
    let wrs: Vec<PlannedWr> = (0..c.messages)
        .map(|k| PlannedWr {
            wr: WorkReq {
                flow: crate::core_env::FIRST_QP + k % nflows,
                opcode: wr::WRITE,
                laddr: k as u64 * c.msg_bytes as u64,
                va: k as u64 * c.msg_bytes as u64,
                rkey: 0,
                len: c.msg_bytes,
                tag: k,
            },
            status: Status::Ok,
        })
        .collect();
    let hosts = [
        CoreHost::new(p, mem0.clone(), config_script(&p, &flows[0]), &wrs, 1),
        CoreHost::new(p, vec![0; size], config_script(&p, &flows[1]), &[], 2),
    ];
    let capacity = c.bottleneck_gbps / 8.0 * NS_PER_CYCLE;
    let fwd = Bottleneck::new(
        BottleneckCfg {
            bytes_per_cycle: capacity,
            delay: c.delay,
            loss: 0.0,
            rate_code: code,
            int_multi: multi,
            ns_per_cycle: NS_PER_CYCLE,
        },
        3,
    );
    let back = Link::new(
        LinkCfg {
            delay: c.delay,
            loss: 0.0,
            ce: 0.0,
            corrupt: 0.0,
        },
        4,
    );
    let cc_trace: RefCell<Vec<(u64, f64, f64)>> = Default::default();
    let per_flow: RefCell<std::collections::BTreeMap<u32, usize>> = Default::default();
    let mut t0 = NicCore::<A, Q, B>::default();
    let mut t1 = NicCore::<A, Q, B>::default();
    let mut now = 0u64;
    let mut out = CcLoopRun {
        capacity,
        ..Default::default()
    };
    {
        let tr = &cc_trace;
        let pf = &per_flow;
        let mut pair = CorePair::with_wires(
            hosts,
            [
                Box::new(|i: &In| {
                    let o = t0.step(i);
                    // The sender's W and R: its CC's updates (NewAck), or
                    // what it applies from the receiver's NOTIFYs (NewINT).
                    if let Some(e) = t0.sched_event() {
                        if e.op == nic_spec::sched::OP_UPDATE {
                            *pf.borrow_mut().entry(e.flow).or_default() += 1;
                            tr.borrow_mut().push((
                                now,
                                e.b as f64 / 256.0,
                                e.a as f64 / (1u64 << 24) as f64 / NS_PER_CYCLE,
                            ));
                        }
                    }
                    now += 1;
                    o
                }),
                Box::new(|i: &In| t1.step(i)),
            ],
            [Box::new(fwd), Box::new(back)],
        );
        let budget = 20 * (size as u64) + 1_000_000;
        if !pair.run(budget) {
            out.errors.push(format!(
                "not finished after {budget} cycles: {:?}",
                pair.hosts[0].outstanding()
            ));
        }
        for (n, h) in pair.hosts.iter().enumerate() {
            out.errors
                .extend(h.errors.iter().map(|e| format!("NIC {n}: {e}")));
        }
        if pair.hosts[1].mem.bytes != mem0 {
            out.errors.push("NIC 1's memory is not NIC 0's data".into());
        }
        let b = pair.links[0].bottleneck().expect("the forward wire");
        out.cycles = pair.now;
        out.queue = b.queue_trace.clone();
        out.stamped = b.stamped;
        out.last = pair.last;
    }
    out.updates_per_flow = per_flow.into_inner().into_iter().collect();
    out.cc = cc_trace.into_inner();
    out
}
