//! `hdl/src/nic/nic_10g.rs` (`hpcc_nic_10g`: `hpcc_nic` on the 10G MAC,
//! one clock) against its twin `nic_golden::nic::nic_10g`: two NICs over
//! XGMII words (`nic_netsim::driver_10g`), each with the driver of
//! `nic_netsim::driver`, a monitor on each direction checking every frame
//! on the wire (preamble, FCS, size, terminator).
//!
//! - `nic_10g_twin_closed_loop`: the twins alone, to the end: every work
//!   request completed once with its status, both memories byte-exact;
//!   no frame on the wire breaks the rules; every frame the link made bad
//!   is counted as a bad FCS by the receiving MAC; every frame on the wire
//!   ended with `/E/` is one the core aborted (`TxStats.aborted`), none an
//!   underflow (the store-and-forward FIFO);
//! - `nic_10g_matches_golden`: NIC 0's recorded inputs replayed on the
//!   RTL, every port every cycle: Verilator for the whole run, rust-hdl
//!   for the first cycles (it runs the whole NIC at about a thousand
//!   cycles a second);
//! - `nic_10g_no_x_in_four_state_simulation`: Icarus, no X or Z on any
//!   port.

use super::nic::cfg;
use crate::common::*;
use nic_golden::nic::nic_10g::HpccNic10g as Golden;
use nic_golden::Cycle;
use nic_hdl::nic::HpccNic10g;
use nic_netsim::core_env::RxPauseRegs;
use nic_netsim::driver::{nic_sim_params, DriverParams, NicSimCfg};
use nic_netsim::driver_10g::{run_nic_10g_sim, Xgmii10gResult};
use nic_spec::mac::ctl;

const A: usize = 3;
const Q: usize = 3;
const B: usize = nic_netsim::core_env::SIM_RX_BUF_LOG2;
const C: usize = 2;
const N: usize = 4;
const W: usize = 4;
type Rtl = HpccNic10g<A, Q, { A + Q }, B, C, N, W>;
type Twin = Golden<A, Q, B, C, N, W>;

/// Two twins to the end; panics on a failed run.
fn run(c: &NicSimCfg, record: bool) -> Xgmii10gResult {
    run_with(c, &nic_sim_params(c, A as u32, Q as u32), record)
}

/// [`run`] with the drivers' parameters `p`.
fn run_with(c: &NicSimCfg, p: &DriverParams, record: bool) -> Xgmii10gResult {
    run_keeping_twins(c, p, record).0
}

/// [`run_with`], and the two twins as the run left them (their ports'
/// last values: counters taken at the same instant as `r.mac`).
fn run_keeping_twins(c: &NicSimCfg, p: &DriverParams, record: bool) -> (Xgmii10gResult, [Twin; 2]) {
    let mut t = [Twin::default(), Twin::default()];
    let [t0, t1] = &mut t;
    let r = run_nic_10g_sim(
        c,
        p,
        [Box::new(|i| t0.step(i)), Box::new(|i| t1.step(i))],
        3_000_000,
        record,
        &mut |_, _, _| {},
    );
    let s = &r.sim;
    assert!(
        s.finished && s.byte_exact && s.errors.is_empty() && s.completed == s.planned,
        "seed {}: finished {}, byte-exact {}, {}/{} completed, errors {:?}",
        c.core.seed,
        s.finished,
        s.byte_exact,
        s.completed,
        s.planned,
        &s.errors[..s.errors.len().min(10)]
    );
    (r, t)
}

fn counter(r: &Xgmii10gResult, n: usize, page: &str, field: &str) -> u32 {
    r.sim.hosts[n]
        .counters
        .iter()
        .find(|(p, f, _)| *p == page && *f == field)
        .unwrap_or_else(|| panic!("no counter {page}.{field}"))
        .2
}

#[test]
fn nic_10g_twin_closed_loop() {
    // The third run must abort a frame (a DMA read error inside one) on
    // each NIC: seed 3 does (2 and 2). The seed moves when the timing
    // does: seeds 3 and 4 stopped aborting when the ACK slots came, seed 5
    // when the control budget did, seed 12 when `EvMerge` did, seed 5 again
    // when 8 READs went in flight (issue 50), seed 8 when the flows got
    // regions of their own and a retry limit (issue 52), seed 4 when the
    // completions got a queue (`CmplQueue`, issue 50), seed 10 when the
    // scheduler got its input register (issue 51), seed 23 when the CQ
    // engine's register access took two cycles (issue 51), seed 4 when
    // the CC's events and the scheduler's got register slices and the
    // CC's arbiter holding registers (issue 51), seed 8 when `TxArb`, the
    // Tx and the DMA read mux registered their ports (issue 51), seed 26
    // when `TxArb` chose only when the Tx asks and the dispatcher's readies
    // became registers (issues 50, 51), seed 19 when the requester's
    // inputs passed input stages (issue 51), seed 9 when the dispatcher's
    // READ RESPONSEs waited a cycle for their landing entry (issue 51);
    // seed 5 when the requester's state words were registered as they
    // leave their RAMs and the next operation taken in `Wb` (issue 51);
    // seed 3 since the dispatcher decides a cycle later, after its `Chk`
    // (issue 51); of seeds 3..40, 3, 10, 18, 27, 31, 32 and 37 abort on
    // both NICs now (`nic_10g_abort_seeds` finds them).
    for (seed, loss, read_pct, bad) in
        [(1, 0.0, 0, false), (2, 0.02, 30, false), (3, 0.1, 30, true)]
    {
        let r = run(&cfg(seed, loss, read_pct, bad), false);
        for n in 0..2 {
            let (tx, rx, _) = &r.mac[n];
            assert_eq!(
                rx.bad_fcs as u64,
                r.lost[1 - n],
                "seed {seed}: NIC {n}: bad FCS vs frames made bad on the link"
            );
            assert_eq!(
                r.aborted[n],
                counter(&r, n, "TxStats", "aborted") as u64,
                "seed {seed}: NIC {n}: aborts on the wire vs the core's"
            );
            assert_eq!(tx.aborts as u64, r.aborted[n]);
            assert_eq!(
                (rx.errors, rx.runts, rx.oversize, rx.bad_preamble),
                (r.aborted[1 - n] as u32, 0, 0, 0),
                "seed {seed}: NIC {n}"
            );
            let sent = r.sim.wire.iter().filter(|f| f.from == n).count() as u32;
            assert_eq!(tx.frames, sent, "seed {seed}: NIC {n}: frames");
            assert_eq!(
                rx.frames,
                r.sim.wire.iter().filter(|f| f.from != n && !f.lost).count() as u32
            );
        }
        if loss > 0.0 {
            assert!(
                r.lost.iter().sum::<u64>() > 0,
                "seed {seed}: no frame made bad"
            );
        }
        if bad {
            assert!(
                r.aborted.iter().all(|&a| a > 0),
                "seed {seed}: a NIC aborted no frame: {:?}",
                r.aborted
            );
        }
    }
}

/// Hosts that often hold their DMA ports (ready low in 60 % of cycles)
/// and a low `RX_XOFF` (8 words, one small frame; the headroom above it
/// is the rest of the 1023-word buffer): the receiving core asks for
/// pauses, its MAC sends them on the wire (802.3x PAUSE frames, or with
/// `RX_PFC_CEV` = 0x08 PFC frames for priority 3 and no other), the
/// peer's MAC applies them, and nothing is dropped for a full buffer.
#[test]
fn nic_10g_pauses_its_link_when_the_host_falls_behind() {
    for cev in [0u8, 0x08] {
        pauses_its_link(cev);
    }
}

fn pauses_its_link(cev: u8) {
    let mut c = cfg(7, 0.0, 0, false);
    c.stall = 0.6;
    let mut p = nic_sim_params(&c, A as u32, Q as u32);
    p.core.rx_pause = Some(RxPauseRegs {
        xoff: 8,
        xon: 4,
        quanta: 100,
        pfc_cev: cev,
    });
    let (r, twins) = run_keeping_twins(&c, &p, false);
    // The MAC control frames on the wire: the opcode and the class-enable
    // vector the register asks for.
    let ctl: Vec<&[u8]> = r
        .sim
        .wire
        .iter()
        .map(|f| f.frame.as_slice())
        .filter(|f| f.len() >= 18 && u16::from_be_bytes([f[12], f[13]]) == ctl::ETHERTYPE)
        .collect();
    assert!(
        !ctl.is_empty(),
        "cev {cev:#x}: no MAC control frame on the wire"
    );
    for f in &ctl {
        let op = u16::from_be_bytes([f[14], f[15]]);
        if cev == 0 {
            assert_eq!(op, ctl::OP_PAUSE);
        } else {
            assert_eq!((op, f[16], f[17]), (ctl::OP_PFC, 0, cev));
        }
    }
    let mut paused = 0;
    for n in 0..2 {
        // The core's counters at the end of the run, as the MAC's are
        // (the driver reads them over AXI4-Lite before the run ends, and a
        // pause may still come and go after that read).
        let core = twins[n].nic().core_out().stats_core;
        let (xoffs, xons) = (core.pause_xoff, core.pause_xon);
        let (_, peer_rx, _) = &r.mac[1 - n];
        let (_, _, pause) = &r.mac[n];
        eprintln!(
            "NIC {n}: XOFFs {xoffs}, XONs {}, PAUSE frames sent {}, received by the peer {}, applied {}",
            xons,
            pause.sent,
            peer_rx.pause,
            r.mac[1 - n].2.applied
        );
        assert_eq!(counter(&r, n, "RxParseStats", "drop_full"), 0, "NIC {n}");
        // Every request reached the wire (a newer one may replace one not
        // yet sent) and the peer took every PAUSE frame.
        assert_eq!(pause.sent + pause.superseded, xoffs + xons, "NIC {n}");
        assert_eq!(peer_rx.pause, pause.sent, "NIC {n}");
        assert_eq!(r.mac[1 - n].2.applied, pause.sent, "NIC {n}");
        paused += xoffs;
    }
    assert!(paused > 0, "no XOFF: the test does not pause");
}

#[test]
#[ignore = "long: make test-full"]
fn nic_10g_matches_golden() {
    let r = run(&cfg(11, 0.02, 30, true), true);
    verilator::<Rtl, Twin>("hpcc_nic_10g_long", &r.inputs).unwrap();
    both::<Rtl, Twin>("hpcc_nic_10g", &r.inputs[..1200]).unwrap();
}

#[test]
#[ignore = "long: make test-full"]
fn nic_10g_no_x_in_four_state_simulation() {
    let r = run(&cfg(13, 0.0, 30, true), true);
    // Past the bring-up: frames on the wire both ways.
    let first = r.sim.wire.first().map_or(0, |f| f.time as usize);
    let end = (first + 3000).min(r.inputs.len());
    four_state::<Rtl, Twin>("hpcc_nic_10g_4state", &r.inputs[..end]);
}

/// The seeds of `nic_10g_twin_closed_loop`'s third run (loss 0.1, 30 %
/// READs, bad DMA reads) that abort a frame on both NICs: that test's
/// seed moves when the timing does, and this finds the next one
/// (`cargo nextest run -p nic-testbench --run-ignored ignored-only
/// -E 'test(nic_10g_abort_seeds)' --no-capture`, about 2.5 minutes).
#[test]
#[ignore]
fn nic_10g_abort_seeds() {
    for seed in 3..41 {
        let r = run(&cfg(seed, 0.1, 30, true), false);
        if r.aborted.iter().all(|&a| a > 0) {
            println!("seed {seed}: aborted {:?}", r.aborted);
        }
    }
}
