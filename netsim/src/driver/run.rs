//! A two-NIC run through the host interface, as `hpccnic sim` makes it:
//! its configuration, the hosts it builds, the loop that steps both NICs
//! and the wire between them, and its result.

use super::contract::*;
use super::host::*;
use crate::core_env::Host;
use nic_golden::nic::nic::{In, Out};
use nic_spec::hostif;
use nic_spec::roce::wr::Status;

/// A two-NIC run through the host interface, as `hpccnic sim` makes it.
#[derive(Clone, Debug, PartialEq)]
pub struct NicSimCfg {
    pub core: crate::core_env::CoreSimCfg,
    /// log2 send-queue and completion-queue entries.
    pub sq_log: u8,
    pub cq_log: u8,
    /// Completion queues used per NIC.
    pub cqs: u32,
    pub mod_count: u16,
    pub mod_time: u32,
    pub batch: u32,
    pub axil_pause: f64,
    pub dma_err: f64,
    pub bad_input: bool,
    /// Ready low on host ports with this probability.
    pub stall: f64,
    pub dma_latency: u64,
    pub watchdog: Watchdog,
    /// A reset of NIC 1 (B) in mid-traffic; NIC 0 is its peer.
    pub reset: Option<ResetPlan>,
    /// A region NIC 1 (B) revokes in mid-traffic: the region of flow
    /// `index` (each flow has its own, `Workload::own_regions`).
    pub revoke: Option<RevokePlan>,
    /// The drivers reconnect a flow in error and post its work again
    /// ([`Recovery`]); not with a peer that dies.
    pub recover: bool,
}

/// What a run gives.
#[derive(Debug, Default)]
pub struct NicSimResult {
    pub cycles: u64,
    pub finished: bool,
    pub completed: usize,
    pub planned: usize,
    /// Work requests of a NIC that died ([`ResetKind::Peer`]) and never
    /// completed (as planned: the NIC is gone).
    pub abandoned: usize,
    pub byte_exact: bool,
    pub errors: Vec<String>,
    /// What the watchdog found (the run stopped there).
    pub watchdog: Vec<String>,
    /// Bytes the completed work requests moved (WRITE and READ payload of
    /// the good ones), and bytes of host memory compared with what each
    /// host must end with (both NICs).
    pub bytes_moved: u64,
    pub bytes_compared: u64,
    pub wire: Vec<crate::core_env::WireFrame>,
    /// Per NIC: (completions read, events, reposts, doorbells, register
    /// accesses, aborted frames, answers by code).
    pub hosts: Vec<HostSummary>,
}

/// One host's figures at the end of a run.
#[derive(Clone, Debug, Default)]
pub struct HostSummary {
    pub cqes: u64,
    pub events: u64,
    pub reposts: u64,
    pub doorbells: u64,
    pub reg_ops: u64,
    pub tx_aborts: u64,
    pub answers: [u64; 4],
    /// Every counter, read over AXI4-Lite at the end: (page, field, value).
    pub counters: Vec<(&'static str, &'static str, u32)>,
    /// Passes over the rings: the most any send queue, and any completion
    /// queue, went round (its last index / its size).
    pub sq_passes: u32,
    pub cq_passes: u32,
    /// The watchdog's figures: the longest a work request took (its entry
    /// written to its completion read) and, per [`WATCHED_STREAMS`], the
    /// longest a beat offered waited, cycles.
    pub wr_cycles_max: u64,
    pub stall_max: [u64; 2],
    /// The reset in mid-traffic made ([`NicSimCfg::reset`]).
    pub reset: Option<ResetDone>,
    /// The cycle the revocation was queued ([`NicSimCfg::revoke`]).
    pub revoked_at: Option<u64>,
    /// Completions by status: (name, count).
    pub by_status: Vec<(&'static str, u64)>,
    /// Each flow's first error completion: (flow, cycle, status).
    pub flow_err: Vec<(u32, u64, Status)>,
    /// The flows reconnected ([`NicSimCfg::recover`]).
    pub reconnected: Vec<Reconnected>,
}

/// The driver's parameters of a run (NIC of 2^`flows_log` flows).
pub fn nic_sim_params(c: &NicSimCfg, flows_log: u32, wr_log: u32) -> DriverParams {
    let mut core = crate::core_env::core_sim_params(&c.core);
    core.stall = c.stall;
    core.dma_latency = c.dma_latency;
    core.ring = 1 << wr_log;
    DriverParams {
        core,
        flows_log,
        sq_log: c.sq_log,
        cq_log: c.cq_log,
        cqs: c.cqs,
        mod_count: c.mod_count,
        mod_time: c.mod_time,
        batch: c.batch,
        axil_pause: c.axil_pause,
        dma_err: c.dma_err,
        bad_input: c.bad_input,
        watchdog: c.watchdog,
    }
}

/// The two hosts of a run and the workload they must end with.
pub fn nic_hosts(c: &NicSimCfg, p: &DriverParams) -> ([NicHost; 2], crate::core_env::Workload) {
    let k = &c.core;
    let w = crate::core_env::plan(
        k.seed,
        k.flows,
        k.messages,
        k.max_size,
        k.read_pct,
        k.bad,
        1 << k.mtu_log2,
    )
    .own_regions();
    let cm = CmLink::default();
    let hosts = [0, 1].map(|n| {
        let mut h = NicHost::new(
            *p,
            w.mem[n].clone(),
            &w.flows[n],
            &w.wrs[n],
            k.seed ^ (n as u64 + 1) * 0x9E37,
        );
        // A full reset restarts both NICs (ResetKind::Full).
        if n == 1 || c.reset.is_some_and(|r| r.kind == ResetKind::Full) {
            h.reset_plan = c.reset;
        }
        if c.recover {
            h.recovery = Some(Recovery::new(n, cm.clone()));
        }
        if n == 1 {
            h.revoke_plan = c.revoke;
        } else {
            // NIC A's flows may end in error when B revokes a flow's
            // region or dies.
            h.tolerate = Tolerate {
                revoked: c.revoke.iter().map(|r| r.index).collect(),
                peer_dies: c.reset.is_some_and(|r| r.kind == ResetKind::Peer),
            };
        }
        h
    });
    (hosts, w)
}

/// Run two NICs (`nics`: the golden twin, or an RTL engine with the twin
/// in lockstep) until every work request completed or `max_cycles`; the
/// counters are read over AXI4-Lite at the end. `progress(cycles,
/// completed, planned)` is called every 2^14 cycles.
pub fn run_nic_sim(
    c: &NicSimCfg,
    p: &DriverParams,
    nics: [crate::core_env::NicFn<'_, In, Out>; 2],
    max_cycles: u64,
    progress: &mut dyn FnMut(u64, usize, usize),
) -> NicSimResult {
    let (hosts, w) = nic_hosts(c, p);
    let mut pair = crate::core_env::Pair::new(
        hosts,
        nics,
        crate::link::LinkCfg {
            delay: c.core.delay,
            loss: c.core.loss,
            ce: 0.0,
            corrupt: c.core.corrupt,
        },
        c.core.seed,
    );
    pair.wire = Some(Vec::new());
    let mut r = drive_pair(&mut pair, &w, max_cycles, progress);
    r.wire = pair.wire.take().unwrap_or_default();
    r
}

/// A host of [`drive_pair`]: the driver, or the driver behind an adapter.
pub trait DriverHost: Host {
    fn driver(&self) -> &NicHost;
    fn driver_mut(&mut self) -> &mut NicHost;
}

impl DriverHost for NicHost {
    fn driver(&self) -> &NicHost {
        self
    }
    fn driver_mut(&mut self) -> &mut NicHost {
        self
    }
}

/// Run `pair` until every work request of `w` completed or `max_cycles`,
/// then read every counter; the result without the wire's frames.
pub fn drive_pair<H: DriverHost>(
    pair: &mut crate::core_env::Pair<'_, H>,
    w: &crate::core_env::Workload,
    max_cycles: u64,
    progress: &mut dyn FnMut(u64, usize, usize),
) -> NicSimResult {
    let planned = w.wrs[0].len() + w.wrs[1].len();
    let mut finished = false;
    let mut barked = Vec::new();
    while !finished && pair.now < max_cycles && barked.is_empty() {
        let to = (pair.now + (1 << 14)).min(max_cycles);
        finished = pair.run(to);
        progress(
            pair.now,
            pair.hosts.iter().map(|h| h.driver().done.len()).sum(),
            planned,
        );
        for (n, h) in pair.hosts.iter().enumerate() {
            let d = h.driver();
            if let Some(e) = d.watchdog(pair.now, &d.p.watchdog) {
                barked.push(format!("NIC {n}: {e}"));
            }
        }
    }
    // Read every counter, then let the reads finish. First the wire
    // drains: acknowledgements and probes can still be on their way when
    // the last work request completes, and a counter read before one
    // arrives would not count it (a damaged frame, say). Drained: no
    // frame sent for a link delay and 1024 cycles (its bytes, its
    // receive path), or 200 000 cycles.
    if finished {
        let quiet = pair.links.iter().map(|l| l.delay()).max().unwrap_or(0) + 1024;
        let until = pair.now + 200_000;
        while pair.now < until {
            let last = pair
                .wire
                .as_ref()
                .and_then(|w| w.last())
                .map_or(0, |f| f.time);
            if pair.now >= last + quiet {
                break;
            }
            pair.step();
        }
        for h in pair.hosts.iter_mut() {
            h.driver_mut().push_ops(counter_reads());
        }
        let until = pair.now + 200_000;
        while pair.hosts.iter().any(|h| h.driver().ops_pending() > 0) && pair.now < until {
            pair.step();
        }
    }
    let mut r = NicSimResult {
        cycles: pair.now,
        finished,
        planned,
        completed: pair.hosts.iter().map(|h| h.driver().done.len()).sum(),
        abandoned: pair
            .hosts
            .iter()
            .map(|h| h.driver())
            .filter(|d| d.dead)
            .map(|d| d.outstanding().len())
            .sum(),
        byte_exact: true,
        watchdog: barked,
        bytes_moved: w
            .wrs
            .iter()
            .zip(pair.hosts.iter())
            .flat_map(|(wrs, h)| {
                wrs.iter()
                    .filter(|x| x.status == Status::Ok && h.driver().done.contains_key(&x.wr.tag))
            })
            .map(|x| x.wr.len as u64)
            .sum(),
        bytes_compared: w.expected_mem.iter().map(|m| m.len() as u64).sum(),
        ..Default::default()
    };
    let recs = nic_spec::records::all();
    // A dead peer ends each flow within (limit + 1) go-backs of 1 to 2
    // RTO after its last progress (at most a round trip after the death,
    // or the work request's posting): checked per flow.
    let d0 = pair.hosts[0].driver();
    if let (true, Some(dead)) = (d0.tolerate.peer_dies, pair.hosts[1].driver().reset_done) {
        let core = &d0.p.core;
        let bound = retry_bound(core.rto as u64, nic_spec::roce::wr::RETRY_LIMIT_MAX);
        for (&f, &(t, s)) in &d0.flow_err {
            let from = dead.at.max(d0.err_posted[&f]);
            if s == Status::RetryExceeded && t > from + bound {
                r.errors.push(format!(
                    "NIC 0: flow {f} ended RetryExceeded at cycle {t}, {} cycles after cycle {from}: past the bound {bound}",
                    t - from
                ));
            }
        }
    }
    // A good work request that did not complete OK (its flow erred, or
    // its NIC died) may have moved all, part or none of its bytes: each
    // byte of its destination is the plan's or the first. Every other
    // byte is the plan's.
    let mut loose: [Vec<(u64, u64)>; 2] = [Vec::new(), Vec::new()];
    for (n, h) in pair.hosts.iter().map(|h| h.driver()).enumerate() {
        for x in w.wrs[n].iter().filter(|x| x.status == Status::Ok) {
            if h.status_of.get(&x.wr.tag) != Some(&Status::Ok) {
                let (m, a) = if x.wr.opcode == nic_spec::roce::wr::READ {
                    (n, x.wr.laddr)
                } else {
                    (1 - n, x.wr.va)
                };
                loose[m].push((a, a + x.wr.len as u64));
            }
        }
    }
    for (n, h) in pair.hosts.iter().map(|h| h.driver()).enumerate() {
        r.errors
            .extend(h.errors.iter().map(|e| format!("NIC {n}: {e}")));
        let exp = &w.expected_mem[n];
        let init = &w.mem[n];
        let wrong = |k: usize| {
            h.mem.bytes[k] != exp[k]
                && !(h.mem.bytes[k] == init[k]
                    && loose[n].iter().any(|&(a, b)| (a..b).contains(&(k as u64))))
        };
        if let Some(k) = (0..exp.len()).find(|&k| wrong(k)) {
            r.byte_exact = false;
            let end = (k..exp.len()).rev().find(|&j| wrong(j)).unwrap_or(k);
            r.errors.push(format!(
                "NIC {n}: host memory differs from the plan in bytes {k}..={end}"
            ));
        }
        let mut counters = Vec::new();
        for page in hostif::STATS_PAGES {
            let rec = recs.iter().find(|x| x.name == page).unwrap();
            for f in rec.fields {
                if let Some(v) = counter(&h.reads, page, f.name) {
                    counters.push((page, f.name, v));
                }
            }
        }
        r.hosts.push(HostSummary {
            cqes: h.cqes,
            events: h.events_seen,
            reposts: h.reposts,
            doorbells: h.doorbells,
            reg_ops: h.reg_ops,
            tx_aborts: h.tx_aborts,
            answers: h.answers,
            counters,
            sq_passes: h.sq_passes(),
            cq_passes: h.cq_passes(),
            wr_cycles_max: h.wr_cycles_max,
            stall_max: h.stall_max,
            reset: h.reset_done,
            revoked_at: h.revoke_done,
            by_status: h.by_status(),
            flow_err: h.flow_err.iter().map(|(&f, &(t, s))| (f, t, s)).collect(),
            reconnected: h.recovery.as_ref().map_or(Vec::new(), |r| r.done.clone()),
        });
    }
    r
}
