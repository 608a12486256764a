//! `sim`'s plan and run: the configuration of the two NICs and their
//! host models from the options, and the run on the chosen top and engine
//! (the golden NIC, or the RTL with the golden NIC in lockstep, every port
//! compared every cycle), with the receive paths watched for `--rx-log`.

use super::{
    vcd_name, CoreScenario, SimArgs, SimEngine, SimResetKind, SimTop, Telemetry, VariantArg,
};
use crate::args;
use nic_engines::roce::pipes::{engine_for, Lockstep};
use nic_engines::EngineKind;
use nic_golden::cc::params::Variant;
use nic_golden::nic::core::{NicCore, RxView};
use nic_golden::Cycle;
use nic_netsim::core_env::SIM_RX_BUF_LOG2;
use nic_netsim::core_env::{run_core_sim, CoreFn, CoreSimCfg, NicFn, VariantPlan};
use nic_netsim::driver::{nic_sim_params, run_nic_sim, NicSimCfg};
use nic_netsim::driver_10g::run_nic_10g_sim;
use nic_netsim::rx_log::RxMonitor;

/// The core `sim` runs: 8 flows × 8 work requests, a 1024-word receive
/// buffer (the co-simulation tests' size, `SIM_RX_BUF_LOG2`).
type Rtl = nic_hdl::nic::NicCore<3, 3, 6, SIM_RX_BUF_LOG2>;
type Twin = NicCore<3, 3, SIM_RX_BUF_LOG2>;
/// The NIC `sim --top nic` runs: that core, 4 completion queues, a
/// 16-entry WQE buffer.
type NicRtl = nic_hdl::nic::HpccNic<3, 3, 6, SIM_RX_BUF_LOG2, 2, 4, 4>;
type NicTwin = nic_golden::nic::nic::HpccNic<3, 3, SIM_RX_BUF_LOG2, 2, 4, 4>;
/// The NIC `sim --top nic-10g` runs: that NIC on the 10G MAC.
type Nic10gRtl = nic_hdl::nic::HpccNic10g<3, 3, 6, SIM_RX_BUF_LOG2, 2, 4, 4>;
type Nic10gTwin = nic_golden::nic::nic_10g::HpccNic10g<3, 3, SIM_RX_BUF_LOG2, 2, 4, 4>;

/// What both tops run: the core's plan (work requests, link, CC), and
/// the whole NIC's on top of it (queues, moderation, driver events).
pub struct Plan {
    pub nic: NicSimCfg,
    /// The run's bound, cycles.
    pub budget: u64,
}

/// The plan the options give.
pub fn plan(a: &SimArgs) -> Plan {
    let c = CoreSimCfg {
        seed: a.seed,
        flows: a.flows,
        messages: a.messages as usize,
        max_size: a.max_size,
        read_pct: match a.scenario {
            CoreScenario::Write => 0,
            CoreScenario::Read => 100,
            CoreScenario::Mixed => 30,
        },
        bad: if a.scenario == CoreScenario::Mixed {
            4
        } else {
            0
        },
        mtu_log2: a.mtu.trailing_zeros() as u8,
        loss: a.loss,
        corrupt: a.corrupt,
        delay: a.delay,
        tlm_data: a.telemetry == Telemetry::Data,
        cc_variant: match a.variant {
            VariantArg::Newack => VariantPlan::All(Variant::Sender),
            VariantArg::Newint => VariantPlan::All(Variant::Receiver),
            VariantArg::Mixed => VariantPlan::Mixed,
        },
    };
    let nc = NicSimCfg {
        core: c,
        sq_log: a.sq_log,
        cq_log: a.cq_log,
        cqs: a.cqs,
        mod_count: a.mod_count,
        mod_time: a.mod_time,
        batch: a.batch,
        axil_pause: 0.2,
        dma_err: a.dma_err,
        bad_input: a.scenario == CoreScenario::Mixed,
        stall: 0.0,
        dma_latency: 16,
        watchdog: nic_netsim::driver::Watchdog {
            wr_cycles: a.wr_timeout,
            stall_cycles: a.stall_timeout,
        },
        reset: a.reset_at.map(|at| nic_netsim::driver::ResetPlan {
            at,
            kind: match a.reset_kind {
                SimResetKind::Pin => nic_netsim::driver::ResetKind::Pin,
                SimResetKind::Soft => nic_netsim::driver::ResetKind::Soft,
                SimResetKind::Full => nic_netsim::driver::ResetKind::Full,
                SimResetKind::Peer => nic_netsim::driver::ResetKind::Peer,
            },
        }),
        revoke: a.revoke_at.map(|at| nic_netsim::driver::RevokePlan {
            at,
            index: nic_netsim::core_env::FIRST_QP,
        }),
        recover: a.recover,
    };
    let budget = 20_000_000 + 400 * a.messages * a.max_size as u64 / 64;
    Plan { nic: nc, budget }
}

/// Run the plan on the chosen top and engine.
pub fn run(a: &SimArgs, plan: &Plan) -> Outcome {
    let (c, nc, budget) = (&plan.nic.core, &plan.nic, plan.budget);
    let bar = args::progress(None, "{spinner} sim [{elapsed_precise}] {msg}");
    let mut progress = |cycles: u64, done: usize, planned: usize| {
        bar.set_message(format!("cycle {cycles}, {done}/{planned} work requests"));
        bar.tick();
    };
    let kind = match a.engine {
        SimEngine::Golden => None,
        SimEngine::Verilator => Some(EngineKind::Verilator),
        SimEngine::RustHdl => Some(EngineKind::RustHdl),
    };
    let vcd = |n| a.vcd.as_deref().map(|v| vcd_name(v, n));
    // The receive paths' monitors (`--rx-log`).
    let mut monitors = [0, 1].map(|_| a.rx_log.is_some().then(RxMonitor::new));
    let [m0, m1] = &mut monitors;
    let r = match a.top {
        SimTop::Core => {
            let r = match kind {
                None => {
                    let mut t = [Twin::default(), Twin::default()];
                    let [t0, t1] = &mut t;
                    let cores: [CoreFn<'_>; 2] = [
                        watched(t0, Twin::step, Twin::rx_view, m0),
                        watched(t1, Twin::step, Twin::rx_view, m1),
                    ];
                    run_core_sim(c, cores, budget, &mut progress)
                }
                Some(kind) => {
                    let mut l = [0, 1].map(|n| {
                        Lockstep::new(
                            engine_for::<Rtl>(kind, vcd(n).as_deref()),
                            Twin::default(),
                            ["hpcc_nic_core 0", "hpcc_nic_core 1"][n],
                        )
                    });
                    let [l0, l1] = &mut l;
                    let view = |l: &Lockstep<Rtl, Twin>| l.golden.rx_view();
                    let cores: [CoreFn<'_>; 2] = [
                        watched(l0, Lockstep::step, view, m0),
                        watched(l1, Lockstep::step, view, m1),
                    ];
                    run_core_sim(c, cores, budget, &mut progress)
                }
            };
            Outcome {
                mac: None,
                counters: r.last.iter().map(core_counters).collect(),
                hosts: None,
                cycles: r.cycles,
                finished: r.finished,
                completed: r.completed,
                planned: r.planned,
                abandoned: 0,
                byte_exact: r.byte_exact,
                errors: r.errors,
                wire: r.wire,
                watchdog: Vec::new(),
                bytes: None,
                monitors: [None, None],
            }
        }
        SimTop::Nic | SimTop::Nic10g => {
            let p = nic_sim_params(nc, 3, 3);
            use nic_golden::nic::nic::In as NicIn;
            use nic_golden::nic::nic_10g::In as Nic10gIn;
            let mut mac = None;
            let r = if a.top == SimTop::Nic10g {
                let r = match kind {
                    None => {
                        let mut t = [Nic10gTwin::default(), Nic10gTwin::default()];
                        let [t0, t1] = &mut t;
                        let nics: [NicFn<'_, Nic10gIn, _>; 2] = [
                            Box::new(|i: &Nic10gIn| t0.step(i)),
                            Box::new(|i: &Nic10gIn| t1.step(i)),
                        ];
                        run_nic_10g_sim(nc, &p, nics, budget, false, &mut progress)
                    }
                    Some(kind) => {
                        let mut l = [0, 1].map(|n| {
                            Lockstep::new(
                                engine_for::<Nic10gRtl>(kind, vcd(n).as_deref()),
                                Nic10gTwin::default(),
                                ["hpcc_nic_10g 0", "hpcc_nic_10g 1"][n],
                            )
                        });
                        let [l0, l1] = &mut l;
                        let nics: [NicFn<'_, Nic10gIn, _>; 2] = [
                            Box::new(|i: &Nic10gIn| l0.step(i)),
                            Box::new(|i: &Nic10gIn| l1.step(i)),
                        ];
                        run_nic_10g_sim(nc, &p, nics, budget, false, &mut progress)
                    }
                };
                mac = Some((r.lost, r.aborted, r.cut, r.mac));
                r.sim
            } else {
                match kind {
                    None => {
                        let mut t = [NicTwin::default(), NicTwin::default()];
                        let [t0, t1] = &mut t;
                        let view = |t: &NicTwin| t.core().rx_view();
                        let nics: [NicFn<'_, NicIn, _>; 2] = [
                            watched(t0, NicTwin::step, view, m0),
                            watched(t1, NicTwin::step, view, m1),
                        ];
                        run_nic_sim(nc, &p, nics, budget, &mut progress)
                    }
                    Some(kind) => {
                        let mut l = [0, 1].map(|n| {
                            Lockstep::new(
                                engine_for::<NicRtl>(kind, vcd(n).as_deref()),
                                NicTwin::default(),
                                ["hpcc_nic 0", "hpcc_nic 1"][n],
                            )
                        });
                        let [l0, l1] = &mut l;
                        let view = |l: &Lockstep<NicRtl, NicTwin>| l.golden.core().rx_view();
                        let nics: [NicFn<'_, NicIn, _>; 2] = [
                            watched(l0, Lockstep::step, view, m0),
                            watched(l1, Lockstep::step, view, m1),
                        ];
                        run_nic_sim(nc, &p, nics, budget, &mut progress)
                    }
                }
            };
            Outcome {
                mac,
                counters: r.hosts.iter().map(|h| h.counters.clone()).collect(),
                hosts: Some(r.hosts),
                cycles: r.cycles,
                finished: r.finished,
                completed: r.completed,
                planned: r.planned,
                abandoned: r.abandoned,
                byte_exact: r.byte_exact,
                errors: r.errors,
                wire: r.wire,
                watchdog: r.watchdog,
                bytes: Some((r.bytes_moved, r.bytes_compared)),
                monitors: [None, None],
            }
        }
    };
    bar.finish_and_clear();
    Outcome { monitors, ..r }
}

/// A NIC as a pair steps it, its receive path watched by `m` (if any)
/// after every step.
fn watched<'a, S, I: 'a, O: 'a>(
    s: &'a mut S,
    step: fn(&mut S, &I) -> O,
    view: impl Fn(&S) -> RxView + 'a,
    m: &'a mut Option<RxMonitor>,
) -> NicFn<'a, I, O> {
    Box::new(move |i: &I| {
        let o = step(s, i);
        if let Some(m) = m.as_mut() {
            m.observe(&view(s));
        }
        o
    })
}

/// What a run of either top gives.
pub struct Outcome {
    /// Per NIC: every counter (page, field, value).
    pub counters: Vec<Vec<(&'static str, &'static str, u32)>>,
    pub hosts: Option<Vec<nic_netsim::driver::HostSummary>>,
    pub cycles: u64,
    pub finished: bool,
    pub completed: usize,
    pub planned: usize,
    /// Work requests of a NIC that died (`--reset-kind peer`).
    pub abandoned: usize,
    pub byte_exact: bool,
    pub errors: Vec<String>,
    pub wire: Vec<nic_netsim::WireFrame>,
    /// `--top nic-10g`:
    /// Per direction: frames made bad on the link, aborted by the MAC, cut
    /// by a reset of the sender; each MAC's counters.
    pub mac: Option<([u64; 2], [u64; 2], [u64; 2], [MacCounters; 2])>,
    /// What the watchdog found (`--top nic`, `nic-10g`).
    pub watchdog: Vec<String>,
    /// `--top nic`, `nic-10g`: bytes the completed work requests moved,
    /// bytes of host memory compared.
    pub bytes: Option<(u64, u64)>,
    /// `--rx-log`: each NIC's receive-path monitor.
    pub monitors: [Option<RxMonitor>; 2],
}

pub type MacCounters = (
    nic_golden::mac::MacTxStats,
    nic_golden::mac::MacRxStats,
    nic_golden::mac::MacPauseStats,
);

/// A core's counters as (page, field, value), the pages of
/// `nic_spec::hostif::STATS_PAGES` it has.
fn core_counters(o: &nic_golden::nic::core::Out) -> Vec<(&'static str, &'static str, u32)> {
    let recs = nic_spec::records::all();
    let pages: [(&str, Vec<u64>); 10] = [
        ("RxParseStats", o.stats_parse.field_values()),
        ("RxDispatchStats", o.stats_dispatch.field_values()),
        ("TxStats", o.stats_tx.field_values()),
        ("SchedStats", o.stats_sched.field_values()),
        ("CcStats", o.stats_cc.field_values()),
        ("ReqStats", o.stats_req.field_values()),
        ("CoreStats", o.stats_core.field_values()),
        ("DcqcnStats", o.stats_dcqcn.field_values()),
        ("NpStats", o.stats_np.field_values()),
        ("CnmStats", o.stats_cnm.field_values()),
    ];
    let mut v = Vec::new();
    for (page, values) in pages {
        let r = recs
            .iter()
            .find(|r| r.name == page)
            .expect("a counter record");
        for (f, x) in r.fields.iter().zip(values) {
            v.push((r.name, f.name, x as u32));
        }
    }
    v
}
