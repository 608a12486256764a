//! `hdl/src/nic/nic.rs` (`hpcc_nic`: the host interface + the NIC core)
//! against its twin `nic_golden::nic::nic`: two NICs over a lossy link,
//! each with the driver of `nic_netsim::driver` (registers over AXI4-Lite
//! with random pauses on every channel, send and completion queues in
//! host memory that wrap, doorbells in batches, completions reaped on
//! events, a DMA engine with random latency and back-pressure).
//!
//! - `nic_twin_closed_loop`: the twins alone, to the end: every work
//!   request completed once with its status, both memories byte-exact,
//!   every bad access answered as `docs/driver.md` says and counted;
//! - `nic_matches_golden`: NIC 0's recorded inputs replayed on the RTL,
//!   every port every cycle, on both engines (a short run on rust-hdl);
//! - `host_if_matches_golden`: the host interface alone, its inputs taken
//!   from the same run, on both engines;
//! - `nic_no_x_in_four_state_simulation`: Icarus, no X or Z on any port;
//! - `nic_reset_mid_traffic_recovers`: NIC B reset in mid-traffic (the
//!   `rst` pin, then a `CONTROL` soft reset), then both NICs full-reset
//!   (`CONTROL` bit 1) and brought up again: both NICs' work requests
//!   still complete, byte-exact; B's recorded inputs replayed on both
//!   engines through the reset.

use crate::common::*;
use nic_golden::nic::nic::{HpccNic as Golden, In};
use nic_golden::Cycle;
use nic_hdl::nic::HpccNic;
use nic_netsim::core_env::{CoreSimCfg, Pair, VariantPlan};
use nic_netsim::driver::{
    counter_reads, nic_hosts, nic_sim_params, NicHost, NicSimCfg, ResetDone, ResetKind, ResetPlan,
};
use nic_netsim::LinkCfg;
use proptest::prelude::*;

const A: usize = 3;
const Q: usize = 3;
const B: usize = nic_netsim::core_env::SIM_RX_BUF_LOG2;
const C: usize = 2;
const N: usize = 4;
const W: usize = 4;
type Rtl = HpccNic<A, Q, { A + Q }, B, C, N, W>;
type Twin = Golden<A, Q, B, C, N, W>;

pub fn cfg(seed: u64, loss: f64, read_pct: u32, bad: bool) -> NicSimCfg {
    NicSimCfg {
        core: CoreSimCfg {
            seed,
            flows: 4,
            messages: 14,
            max_size: 1500,
            read_pct,
            bad: if bad { 4 } else { 0 },
            mtu_log2: 8,
            loss,
            corrupt: 0.0,
            delay: 200,
            tlm_data: true,
            cc_variant: VariantPlan::Mixed,
        },
        sq_log: 2,
        cq_log: 3,
        cqs: 2,
        mod_count: 2,
        mod_time: 64,
        batch: 3,
        axil_pause: 0.3,
        dma_err: if bad { 0.02 } else { 0.0 },
        bad_input: bad,
        stall: 0.1,
        dma_latency: 12,
        watchdog: Default::default(),
        reset: None,
        revoke: None,
        recover: false,
    }
}

/// Run two twins; returns NIC 0's inputs (the first `record` cycles),
/// the host interface's inputs of the same cycles, and the outcome.
pub fn run(
    c: &NicSimCfg,
    max_cycles: u64,
    record: usize,
) -> (
    Vec<In>,
    Vec<nic_golden::hostif::host_if::In>,
    Result<u64, String>,
) {
    let (rec, host_in, r, _) = run_nic(c, max_cycles, record, 0);
    (rec, host_in, r)
}

/// As [`run`], recording NIC `which`'s inputs; also what NIC 1's reset
/// (`c.reset`) met.
pub fn run_nic(
    c: &NicSimCfg,
    max_cycles: u64,
    record: usize,
    which: usize,
) -> (
    Vec<In>,
    Vec<nic_golden::hostif::host_if::In>,
    Result<u64, String>,
    Option<ResetDone>,
) {
    let p = nic_sim_params(c, A as u32, Q as u32);
    let (hosts, w) = nic_hosts(c, &p);
    let mut twins = [Twin::default(), Twin::default()];
    let mut host_in = Vec::new();
    let [t0, t1] = &mut twins;
    let rec_host = std::cell::RefCell::new(&mut host_in);
    let mut pair: Pair<'_, NicHost> = Pair::new(
        hosts,
        [
            Box::new(|i: &In| {
                let o = t0.step(i);
                let mut h = rec_host.borrow_mut();
                if h.len() < record {
                    h.push(t0.host_in());
                }
                o
            }),
            Box::new(|i: &In| t1.step(i)),
        ],
        LinkCfg {
            delay: c.core.delay,
            loss: c.core.loss,
            ce: 0.0,
            corrupt: 0.0,
        },
        c.core.seed,
    );
    pair.record = Some([Vec::new(), Vec::new()]);
    let finished = pair.run(max_cycles);
    if finished {
        for h in pair.hosts.iter_mut() {
            h.push_ops(counter_reads());
        }
        let until = pair.now + 50_000;
        while pair.hosts.iter().any(|h| h.ops_pending() > 0) && pair.now < until {
            pair.step();
        }
    }
    let mut rec = pair.record.take().unwrap()[which].clone();
    let reset = pair.hosts[1].reset_done;
    rec.truncate(record);
    let mut errs: Vec<String> = Vec::new();
    for (n, h) in pair.hosts.iter().enumerate() {
        errs.extend(h.errors.iter().map(|e| format!("NIC {n}: {e}")));
        let exp = &w.expected_mem[n];
        if h.data(exp.len()) != &exp[..] {
            let k = (0..exp.len()).find(|&k| h.mem.bytes[k] != exp[k]).unwrap();
            errs.push(format!("NIC {n}: memory differs first at byte {k}"));
        }
        if !finished {
            errs.push(format!("NIC {n}: outstanding {:?}", h.outstanding()));
        }
        if std::env::var("NIC_VERBOSE").is_ok() {
            eprintln!(
                "NIC {n}: {} cycles, {} frames out, {} aborted, {} cqes, {} events, {} reposts, {} doorbells, {} accesses {:?}",
                pair.now, h.frames_out, h.tx_aborts, h.cqes, h.events_seen, h.reposts, h.doorbells, h.reg_ops, h.answers
            );
        }
    }
    drop(pair);
    let out = if errs.is_empty() {
        Ok(0)
    } else {
        Err(errs.join("\n"))
    };
    (rec, host_in, out, reset)
}

#[test]
fn nic_twin_closed_loop() {
    for (seed, loss, read_pct, bad) in [
        (1, 0.0, 0, false),
        (2, 0.01, 30, false),
        (3, 0.1, 30, true),
        (4, 0.0, 50, true),
    ] {
        let c = cfg(seed, loss, read_pct, bad);
        let (_, _, r) = run(&c, 2_000_000, 0);
        if let Err(e) = r {
            panic!("seed {seed} loss {loss}: {e}");
        }
    }
}

/// NIC 0's inputs of a twin run, replayed on the RTL: rust-hdl for the
/// first cycles (it runs the whole NIC at about a thousand cycles a
/// second), Verilator for the whole run.
#[test]
#[ignore = "long: make test-full"]
fn nic_matches_golden() {
    let c = cfg(11, 0.01, 30, true);
    let (rec, _, r) = run(&c, 2_000_000, usize::MAX);
    r.unwrap();
    both::<Rtl, Twin>("hpcc_nic", &rec[..1200]).unwrap();
    verilator::<Rtl, Twin>("hpcc_nic_long", &rec).unwrap();
}

proptest! {
    #![proptest_config(config(3))]
    /// Whole runs on Verilator: WRITEs and READs at 0, 1 and 10 % loss,
    /// with and without bad host input and DMA errors.
    #[test]
    #[ignore = "long: make test-full"]
    fn nic_matches_golden_verilator(seed in any::<u64>(), loss in prop_oneof![Just(0.0), Just(0.01), Just(0.1)], bad in any::<bool>()) {
        let c = cfg(seed, loss, 30, bad);
        let (rec, _, r) = run(&c, 2_000_000, usize::MAX);
        prop_assert!(r.is_ok(), "{:?}", r);
        verilator::<Rtl, Twin>("hpcc_nic_prop", &rec)?;
    }
}

/// The host interface alone: its inputs in a NIC run (the core's side
/// included), replayed on both engines.
#[test]
#[ignore = "long: make test-full"]
fn host_if_matches_golden() {
    type HostRtl = nic_hdl::hostif::HostIf<A, Q, C, N, W>;
    type HostTwin = nic_golden::hostif::host_if::HostIf<A, Q, C, N, W>;
    let c = cfg(12, 0.01, 30, true);
    let (_, host_in, r) = run(&c, 2_000_000, 6000);
    r.unwrap();
    both::<HostRtl, HostTwin>("host_if", &host_in).unwrap();
}

#[test]
#[ignore = "long: make test-full"]
fn nic_no_x_in_four_state_simulation() {
    let c = cfg(13, 0.0, 30, true);
    let (rec, _, r) = run(&c, 2_000_000, 3000);
    r.unwrap();
    four_state::<Rtl, Twin>("hpcc_nic_4state", &rec);
}

/// NIC B reset in mid-traffic, by the `rst` pin (the driver holds its
/// register accesses around it) and by a `CONTROL` soft reset: the frames
/// and payload reads in flight are lost, and recovery is the transport's
/// (NIC A retransmits, B's requester times out and sends again; a
/// payload packet cut by the reset is undone, so its retransmission is
/// accepted). Then both NICs full-reset in mid-traffic (`CONTROL` bit 1:
/// every flow and queue back to its power-up state), their drivers
/// bringing them up again and posting again what was not complete.
/// Every work request of both NICs completes with its status, both
/// memories byte-exact, with work requests outstanding at the reset.
/// B's inputs are replayed on the RTL: on rust-hdl up to 600 cycles past
/// the reset (a full reset: 300 past its answer), on Verilator the whole
/// run.
///
/// `make test` runs the full reset (its sweep covers every register, flow,
/// region and queue); the pin and the soft reset (the undo of a cut
/// payload packet) are `nic_reset_by_pin_and_soft_recovers`, in
/// `make test-full` (this test took 135–244 s of one core with all
/// three).
#[test]
fn nic_reset_mid_traffic_recovers() {
    reset_cases(&[(23, ResetKind::Full, 2600)]);
}

/// [`nic_reset_mid_traffic_recovers`]'s pin and soft resets.
#[test]
#[ignore = "long: make test-full"]
fn nic_reset_by_pin_and_soft_recovers() {
    reset_cases(&[(21, ResetKind::Pin, 2600), (22, ResetKind::Soft, 2600)]);
}

fn reset_cases(cases: &[(u64, ResetKind, u64)]) {
    for &(seed, kind, at) in cases {
        let mut c = cfg(seed, 0.01, 30, false);
        c.reset = Some(ResetPlan { at, kind });
        let (rec, _, r, done) = run_nic(&c, 2_000_000, usize::MAX, 1);
        if let Err(e) = r {
            panic!("seed {seed} {kind:?}: {e}");
        }
        let done = done.unwrap_or_else(|| panic!("seed {seed} {kind:?}: the reset was not made"));
        assert!(
            done.outstanding > 0,
            "seed {seed} {kind:?}: no work request outstanding at the reset ({done:?})"
        );
        let rst_cycles = rec.iter().filter(|i| i.rst).count() as u64;
        let want = match kind {
            ResetKind::Pin => nic_netsim::driver::RESET_PIN_CYCLES,
            ResetKind::Soft | ResetKind::Full | ResetKind::Peer => 0,
        };
        assert_eq!(
            rst_cycles, want,
            "seed {seed} {kind:?}: cycles with rst high"
        );
        // rust-hdl (slow on the whole NIC): through the reset; for a full
        // reset, through its sweep and the bring-up's first accesses.
        let upto = match (kind, done.answered_at) {
            (ResetKind::Full, Some(end)) => {
                println!(
                    "full reset of NIC B: answered {} cycles after the driver queued it",
                    end - done.at
                );
                end as usize + 300
            }
            (ResetKind::Full, None) => panic!("seed {seed}: the full reset was not answered"),
            _ => done.at as usize + 600,
        }
        .min(rec.len());
        both::<Rtl, Twin>(&format!("hpcc_nic_reset_{kind:?}"), &rec[..upto]).unwrap();
        verilator::<Rtl, Twin>(&format!("hpcc_nic_reset_{kind:?}_long"), &rec).unwrap();
    }
}
