//! `hdl/src/nic/core.rs` (`hpcc_nic_core`) against its twin
//! `nic_golden::nic::core`: two cores over a lossy link, each with a host
//! model (`nic_netsim::core_env`): configuration through the register
//! map, WRITEs and READs of every size class, bad work requests, DMA with
//! latency, back-pressure on every host port; flows on HPCC++ (NewAck,
//! NewINT) and DCQCN, with a link that marks ECN-capable frames CE at
//! random so CNPs flow both ways.
//!
//! - `core_twin_closed_loop`: the twins alone, to the end: every work
//!   request completed once with its status, both memories byte-exact;
//! - `core_matches_golden`: NIC 0's recorded inputs replayed on the RTL,
//!   every port every cycle, on both engines (a short run on rust-hdl);
//! - `core_matches_golden_verilator`: whole runs on Verilator;
//! - `core_no_x_in_four_state_simulation`: Icarus, no X or Z on any port.

use crate::common::*;
use nic_golden::cc::params::{CcParams, Variant};
use nic_golden::nic::core::{In, NicCore as Golden};
use nic_golden::stream::Axis;
use nic_golden::Cycle;
use nic_hdl::nic::NicCore;
use nic_netsim::core_env::{hosts_for, plan, CorePair, DcqcnRegs, HostParams, VariantPlan};
use nic_netsim::LinkCfg;
use proptest::prelude::*;

const A: usize = 3;
const Q: usize = 3;
const B: usize = nic_netsim::core_env::SIM_RX_BUF_LOG2;
type Rtl = NicCore<A, Q, { A + Q }, B>;
type Twin = Golden<A, Q, B>;

#[derive(Clone, Debug)]
struct Cfg {
    seed: u64,
    flows: u32,
    messages: usize,
    read_pct: u32,
    bad: usize,
    loss: f64,
    stall: f64,
    dma_latency: u64,
    cc_variant: VariantPlan,
    /// The link's CE-mark probability for ECN-capable frames.
    ce: f64,
}

/// DCQCN at the core tests' clock (6.4 ns, 10 Gb/s), with periods short
/// enough for runs of a few thousand cycles: α 1 µs, decrease 4 µs,
/// increase 10 µs, a CNP per flow per 300 cycles at most; the byte
/// counter off.
fn dcqcn_regs() -> DcqcnRegs {
    dcqcn_regs_bytes(0)
}

/// [`dcqcn_regs`] with the byte counter on: an increase stage per
/// `byte_reset` payload bytes sent (the core's `SentTap`).
fn dcqcn_regs_bytes(byte_reset: u32) -> DcqcnRegs {
    let p = nic_golden::cc::dcqcn_params::DcqcnParams {
        inc_period_us: 10.0,
        byte_reset,
        ..nic_golden::cc::dcqcn_params::DcqcnParams::for_line_rate(10.0, 6.4)
    };
    DcqcnRegs {
        rp: p.regs().expect("valid DCQCN parameters"),
        np_interval: 300,
    }
}

fn params(c: &Cfg) -> HostParams {
    let cc = CcParams {
        variant: Variant::Sender,
        base_rtt_ns: 2000.0,
        line_rate_gbps: 10.0,
        flows: 1 << A,
        ..CcParams::default()
    };
    HostParams {
        mtu_log2: 8,
        rto: 3000,
        probe_t: 1000,
        sched_cap: 4096,
        ns_per_cycle: (6.4f64 * 65536.0) as u32,
        cc: cc.regs().expect("valid CC parameters"),
        tlm_data: true,
        cc_variant: c.cc_variant,
        dma_latency: c.dma_latency,
        stall: c.stall,
        ring: 1 << Q,
        post_from: 0,
        rx_pause: None,
        tx_ctl_share: nic_spec::roce::TX_CTL_SHARE_DEFAULT as u8,
    }
}

/// Run two twins over the link; returns NIC 0's inputs (the first
/// `record` cycles) and whether the run finished cleanly.
fn run(c: &Cfg, max_cycles: u64, record: usize) -> (Vec<In>, Result<u64, String>) {
    let (rec, res, _) = run_with_outputs(c, max_cycles, record);
    (rec, res)
}

/// [`run`], and both NICs' outputs in the last cycle (their counters).
fn run_with_outputs(
    c: &Cfg,
    max_cycles: u64,
    record: usize,
) -> (
    Vec<In>,
    Result<u64, String>,
    [nic_golden::nic::core::Out; 2],
) {
    let p = params(c);
    // Each flow with a region of its own at each NIC (R_Key, domain).
    let w = plan(c.seed, c.flows, c.messages, 1500, c.read_pct, c.bad, 256).own_regions();
    let hosts = hosts_for(&p, &w, c.seed);
    let mut twins = [Twin::default(), Twin::default()];
    let [t0, t1] = &mut twins;
    let mut pair = CorePair::new(
        hosts,
        [Box::new(|i: &In| t0.step(i)), Box::new(|i: &In| t1.step(i))],
        LinkCfg {
            delay: 200,
            loss: c.loss,
            ce: c.ce,
            corrupt: 0.0,
        },
        c.seed,
    );
    pair.record = Some([Vec::new(), Vec::new()]);
    let mut rec = Vec::new();
    let finished = loop {
        pair.step();
        if let Some(r) = &mut pair.record {
            if r[0].len() >= record {
                rec.append(&mut r[0]);
                pair.record = None;
            }
        }
        if pair.hosts.iter().all(|h| h.finished()) {
            break true;
        }
        if pair.now >= max_cycles {
            break false;
        }
    };
    if let Some(r) = &mut pair.record {
        rec.append(&mut r[0]);
    }
    let mut errs: Vec<String> = Vec::new();
    for (n, h) in pair.hosts.iter().enumerate() {
        errs.extend(h.errors.iter().map(|e| format!("NIC {n}: {e}")));
        if h.mem.bytes != w.expected_mem[n] {
            let k = (0..h.mem.bytes.len())
                .find(|&k| h.mem.bytes[k] != w.expected_mem[n][k])
                .unwrap();
            errs.push(format!("NIC {n}: memory differs first at byte {k}"));
        }
        if !finished {
            errs.push(format!("NIC {n}: outstanding {:?}", h.outstanding()));
        }
    }
    if std::env::var("NIC_CORE_VERBOSE").is_ok() {
        for (n, h) in pair.hosts.iter().enumerate() {
            eprintln!(
                "{c:?} NIC {n}: {} cycles, {} frames out, {} lost, {} completions",
                pair.now,
                h.frames_out,
                pair.links[n].lost(),
                h.done.len()
            );
        }
    }
    let res = if errs.is_empty() {
        Ok(pair.now)
    } else {
        Err(format!("after {} cycles: {}", pair.now, errs.join("; ")))
    };
    (rec, res, pair.last)
}

fn workload() -> impl Strategy<Value = Cfg> {
    (
        any::<u64>(),
        1u32..=6,
        4usize..16,
        prop_oneof![Just(0u32), Just(30), Just(100)],
        0usize..6,
        prop_oneof![Just(0.0), Just(0.01), Just(0.1)],
        prop_oneof![Just(0.0), Just(0.2)],
        prop_oneof![Just(1u64), Just(20)],
        prop_oneof![
            Just(VariantPlan::All(Variant::Sender)),
            Just(VariantPlan::All(Variant::Receiver)),
            Just(VariantPlan::Mixed),
            Just(VariantPlan::Dcqcn(dcqcn_regs())),
            Just(VariantPlan::MixedDcqcn(dcqcn_regs())),
            Just(VariantPlan::MixedDcqcn(dcqcn_regs_bytes(2048)))
        ],
    )
        .prop_map(
            |(seed, flows, messages, read_pct, bad, loss, stall, dma_latency, cc_variant)| Cfg {
                seed,
                flows,
                messages,
                read_pct,
                bad,
                loss,
                stall,
                dma_latency,
                cc_variant,
                ce: if cc_variant.dcqcn().is_some() {
                    0.3
                } else {
                    0.0
                },
            },
        )
}

proptest! {
    #![proptest_config(config(12))]
    #[test]
    fn core_twin_closed_loop(c in workload()) {
        let (_, res) = run(&c, 2_000_000, 0);
        res.map_err(TestCaseError::fail)?;
    }

    #[test]
    #[ignore = "long: make test-full"]
    fn core_matches_golden(c in workload()) {
        let (rec, _) = run(&c, 1500, 1500);
        both::<Rtl, Twin>("nic_core", &rec)?;
    }
}

proptest! {
    #![proptest_config(config(6))]
    #[test]
    fn core_matches_golden_verilator(c in workload()) {
        let (rec, res) = run(&c, 2_000_000, usize::MAX);
        res.map_err(TestCaseError::fail)?;
        verilator::<Rtl, Twin>("nic_core_long", &rec)?;
    }
}

#[test]
#[ignore = "long: make test-full"]
fn core_no_x_in_four_state_simulation() {
    let c = Cfg {
        seed: 7,
        flows: 2,
        messages: 4,
        read_pct: 30,
        bad: 4,
        loss: 0.0,
        stall: 0.2,
        dma_latency: 5,
        cc_variant: VariantPlan::MixedDcqcn(dcqcn_regs_bytes(2048)),
        ce: 0.3,
    };
    let (rec, _) = run(&c, 3000, 3000);
    four_state::<Rtl, Twin>("nic_core_x", &rec);
}

/// HPCC++ and DCQCN flows on the same two cores at the same time, over a
/// link that marks ECN-capable frames CE: every work request completes
/// and both memories are byte-exact; the receiver's notification point
/// takes the DCQCN flows' CE marks and sends CNPs, the sender's reaction
/// point receives them and cuts; the HPCC++ flows (not ECN-capable) see
/// no mark. The byte counter is on: the DCQCN flows' packets reach the
/// reaction point as SENTs, the HPCC++ flows' never do. NIC 0's inputs
/// replayed on the RTL, both engines.
#[test]
fn core_runs_hpcc_and_dcqcn_flows_together() {
    let c = Cfg {
        seed: 11,
        flows: 4,
        messages: 12,
        read_pct: 30,
        bad: 2,
        loss: 0.01,
        stall: 0.1,
        dma_latency: 5,
        cc_variant: VariantPlan::MixedDcqcn(dcqcn_regs_bytes(2048)),
        ce: 0.5,
    };
    let (rec, res, last) = run_with_outputs(&c, 2_000_000, 4000);
    res.expect("every work request completes, memories byte-exact");
    for (n, o) in last.iter().enumerate() {
        eprintln!(
            "NIC {n}: NP {:?}; RP {:?}; core {:?}",
            o.stats_np, o.stats_dcqcn, o.stats_core
        );
    }
    let (np, rp) = (
        [last[0].stats_np, last[1].stats_np],
        [last[0].stats_dcqcn, last[1].stats_dcqcn],
    );
    // WRITEs go 0 → 1 (NIC 1 notifies), READ responses 1 → 0 (NIC 0
    // notifies): CNPs flow both ways.
    for n in 0..2 {
        assert!(np[n].marks > 0 && np[n].cnps > 0, "NIC {n}: {:?}", np[n]);
        assert_eq!(np[n].bad_flow, 0);
        assert!(
            rp[1 - n].cnps > 0 && rp[1 - n].cuts > 0,
            "NIC {}: {:?}",
            1 - n,
            rp[1 - n]
        );
    }
    // The byte counter: NIC 0 sends the WRITEs, NIC 1 the READ responses
    // (responder descriptors, not the requester's: no SENT). Every SENT
    // is a DCQCN flow's (no `drop_flow` below), and the RP took one per
    // pending record.
    let core0 = last[0].stats_core;
    assert!(core0.sent_pkts > 0, "NIC 0: {core0:?}");
    assert!(
        rp[0].sents > 0 && rp[0].sents <= core0.sent_pkts,
        "NIC 0: {:?}",
        rp[0]
    );
    // Every CNP sent arrived (the link loses 1 %: at most a few lost) and
    // none was for a flow the reaction point does not run.
    for n in 0..2 {
        assert!(rp[1 - n].cnps <= np[n].cnps);
        assert_eq!(
            rp[1 - n].drop_flow,
            0,
            "NIC {}: CNP for a non-DCQCN flow",
            1 - n
        );
    }
    both::<Rtl, Twin>("nic_core_dcqcn", &rec[..rec.len().min(2500)]).unwrap();
}

/// The CC in the loop (`nic_netsim::cc_loop`): NIC 0 writes to NIC 1
/// through a bottleneck at half its line rate that stamps one telemetry
/// hop. HPCC++ NewAck must bring the bottleneck's utilisation to about
/// eta (0.95) and keep its queue small once settled.
#[test]
fn cc_in_the_loop_newack_settles_near_eta_times_the_bottleneck() {
    use nic_netsim::cc_loop::{run, CcLoopCfg};
    let r = run(&CcLoopCfg::default());
    assert!(r.errors.is_empty(), "{:?}", r.errors);
    let (util, q_mean, q_max) = r.steady(r.cycles / 2);
    let frame = (1 << 10) as f64 + 110.0;
    eprintln!(
        "NewAck: {} cycles, second half: utilisation {util:.3}, queue mean {q_mean:.0} B, max {q_max} B; {} hops stamped, {} CC updates",
        r.cycles,
        r.stamped,
        r.cc.len()
    );
    assert!(r.stamped > 1000 && r.cc.len() > 1000);
    assert!((0.85..=1.0).contains(&util), "utilisation {util}");
    assert!(q_mean < 4.0 * frame, "mean queue {q_mean}");
}

/// The same loop with NewINT: the receiver's CC computes W from the
/// data's telemetry and sends it back in a NOTIFY once per T; the sender
/// paces at W/T.
#[test]
fn cc_in_the_loop_newint_settles_near_eta_times_the_bottleneck() {
    use nic_netsim::cc_loop::{run, CcLoopCfg};
    let r = run(&CcLoopCfg {
        variant: Variant::Receiver,
        ..CcLoopCfg::default()
    });
    assert!(r.errors.is_empty(), "{:?}", r.errors);
    let (util, q_mean, q_max) = r.steady(r.cycles / 2);
    let frame = (1 << 10) as f64 + 110.0;
    eprintln!(
        "NewINT: {} cycles, second half: utilisation {util:.3}, queue mean {q_mean:.0} B, max {q_max} B; {} hops stamped, {} updates applied",
        r.cycles,
        r.stamped,
        r.cc.len()
    );
    assert!(r.stamped > 1000 && r.cc.len() > 20);
    assert!((0.85..=1.0).contains(&util), "utilisation {util}");
    assert!(q_mean < 4.0 * frame, "mean queue {q_mean}");
}

/// The CC variant is chosen per flow: two flows on one core through the
/// same bottleneck, flow 2 with NewAck and flow 3 with NewINT. Both
/// flows' rates come back to NIC 0's scheduler (flow 2's from its own CC,
/// flow 3's from NOTIFYs the receiver's CC sent), the CC modules drop the
/// events of the variant a flow does not run, and the pair still brings
/// the bottleneck to about eta with a small queue.
#[test]
fn cc_in_the_loop_with_a_variant_per_flow() {
    use nic_netsim::cc_loop::{run, CcLoopCfg};
    let r = run(&CcLoopCfg {
        flows: 2,
        ..CcLoopCfg::default()
    });
    assert!(r.errors.is_empty(), "{:?}", r.errors);
    // While both flows send: the first half of the run after the first
    // eighth (when one flow is done, the other ramps up alone by W_ai per
    // RTT, slowly by design: W_ai is sized for 100 flows).
    let (util, q_mean, q_max) = r.window(r.cycles / 8, r.cycles / 2);
    for k in 0..8 {
        let u = r.window(r.cycles * k / 8, r.cycles * (k + 1) / 8).0;
        eprintln!("eighth {k}: utilisation {u:.3}");
    }
    let [s0, s1] = [r.last[0], r.last[1]];
    eprintln!(
        "2 flows, NewAck + NewINT: {} cycles, both sending (1/8 to 1/2): utilisation {util:.3}, queue mean {q_mean:.0} B, max {q_max} B; updates per flow {:?}; NIC 0: CC events {}, other variant {}, NOTIFYs applied {}; NIC 1: CC events {}, other variant {}, NOTIFYs sent {}",
        r.cycles,
        r.updates_per_flow,
        s0.stats_cc.events,
        s0.stats_cc.drop_variant,
        s0.stats_core.notifies_applied,
        s1.stats_cc.events,
        s1.stats_cc.drop_variant,
        s1.stats_core.notifies
    );
    let updates = |f: u32| {
        r.updates_per_flow
            .iter()
            .find(|u| u.0 == f)
            .map_or(0, |u| u.1)
    };
    // Flow 2 (NewAck): NIC 0's CC updates; flow 3 (NewINT): NOTIFYs.
    assert!(
        updates(2) > 20 && updates(3) > 20,
        "{:?}",
        r.updates_per_flow
    );
    assert!(s0.stats_cc.events > 100, "NIC 0 runs NewAck for flow 2");
    assert!(
        s0.stats_cc.drop_variant > 100,
        "flow 3's ACK events dropped at NIC 0"
    );
    assert!(s1.stats_cc.events > 100, "NIC 1 runs NewINT for flow 3");
    assert!(
        s1.stats_cc.drop_variant > 100,
        "flow 2's data events dropped at NIC 1"
    );
    assert!(s1.stats_core.notifies > 20 && s0.stats_core.notifies_applied > 20);
    assert_eq!(s0.stats_core.notifies, 0, "NIC 0 receives no data");
    let frame = (1 << 10) as f64 + 110.0;
    assert!((0.85..=1.0).contains(&util), "utilisation {util}");
    assert!(q_mean < 4.0 * frame, "mean queue {q_mean}");
}

/// The CNM tap inside the core: QCN CNMs (good ones with and without a
/// sampled RoCEv2 frame, ones whose MSDU is cut short, ones of a bad
/// version) among RoCEv2 frames, into a core with no flow configured.
/// The tap counts each CNM by its verdict and offers the good ones on
/// `m_cnm` in order (a record offered while the slot is full is dropped
/// and counted); the parser drops every CNM (`trunc` or `bad_eth`, its
/// first two checks), so no CNM reaches the dispatcher as RoCE. RTL =
/// twin on both engines.
#[test]
fn core_counts_cnms_and_never_takes_one_for_roce() {
    use crate::roce::cnm_rx::{good_cnm, pdu_off, roce_packet};
    use nic_golden::roce::cnm_rx::encode_cnm;
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};
    let mut rng = SmallRng::seed_from_u64(5);
    let mut frames: Vec<Vec<u8>> = Vec::new();
    let mut want = Vec::new();
    let (mut cnm_frames, mut trunc, mut bad_version) = (0u32, 0u32, 0u32);
    for k in 0..32 {
        match k % 4 {
            0 | 1 => {
                let (c, info) = good_cnm(&mut rng);
                frames.push(encode_cnm(&c));
                want.push(info);
                cnm_frames += 1;
            }
            2 => {
                // The frame ends one byte before the MSDU it announces
                // (or inside the fixed fields when the MSDU is empty).
                let (c, _) = good_cnm(&mut rng);
                let mut f = encode_cnm(&c);
                let end = pdu_off(&c) + 24 + c.msdu_len as usize;
                f.truncate(end - if c.msdu_len > 0 { 1 } else { 4 });
                frames.push(f);
                trunc += 1;
                cnm_frames += 1;
            }
            _ => {
                if rng.gen_bool(0.5) {
                    let (mut c, _) = good_cnm(&mut rng);
                    c.version = rng.gen_range(1..16);
                    frames.push(encode_cnm(&c));
                    bad_version += 1;
                    cnm_frames += 1;
                } else {
                    frames.push(roce_packet(&mut rng).encode());
                }
            }
        }
    }
    let idle = In {
        cnm_ready: true,
        ..Default::default()
    };
    let mut s = vec![idle; 4];
    for (n, f) in frames.iter().enumerate() {
        let beats = f.len().div_ceil(8);
        for b in 0..beats {
            let mut lanes = [0u8; 8];
            let chunk = &f[8 * b..(8 * b + 8).min(f.len())];
            lanes[..chunk.len()].copy_from_slice(chunk);
            let last = b + 1 == beats;
            s.push(In {
                rx: Axis {
                    tdata: u64::from_le_bytes(lanes),
                    tkeep: if last {
                        ((1u16 << chunk.len()) - 1) as u8
                    } else {
                        0xFF
                    },
                    tlast: last,
                    tvalid: true,
                    ..Default::default()
                },
                // Ready throughout the first half; then a consumer that
                // takes a record now and then, so the slot is full when
                // some CNMs are decided.
                cnm_ready: n < frames.len() / 2 || rng.gen_bool(0.02),
                ..Default::default()
            });
        }
        for _ in 0..rng.gen_range(0..3) {
            s.push(In {
                cnm_ready: n < frames.len() / 2 || rng.gen_bool(0.02),
                ..Default::default()
            });
        }
    }
    s.extend(std::iter::repeat(idle).take(40));
    let out = both::<Rtl, Twin>("nic_core_cnm", &s).unwrap();
    let last = out.last().unwrap();
    let c = last.stats_cnm;
    eprintln!("CNM {c:?}; parser {:?}", last.stats_parse);
    assert_eq!(c.cnms, want.len() as u32, "{c:?}");
    assert_eq!(
        c.roce,
        want.iter().filter(|i| i.qp_valid).count() as u32,
        "{c:?}"
    );
    assert_eq!((c.trunc, c.bad_version), (trunc, bad_version), "{c:?}");
    assert_eq!((c.bad_fcs, c.bad_len), (0, 0), "{c:?}");
    // The records taken, in order: the good CNMs but the dropped ones.
    let seen: Vec<_> = s
        .iter()
        .zip(&out)
        .filter(|(i, o)| o.cnm_valid && i.cnm_ready)
        .map(|(_, o)| o.cnm)
        .collect();
    assert_eq!(seen.len() as u32 + c.dropped, c.cnms, "{c:?}");
    assert!(c.dropped > 0, "the slow consumer loses some: {c:?}");
    let mut it = want.iter();
    for r in &seen {
        assert!(it.any(|w| w == r), "{r:?} is not the next good CNM");
    }
    // The parser drops every CNM, as `trunc` (its length check comes
    // first and reads the IPv4 total length, which in a CNM is PDU bytes)
    // or as `bad_eth`; the RoCEv2 frames are whole and IPv4, so they count
    // in neither.
    let p = last.stats_parse;
    assert_eq!(p.bad_eth + p.trunc, cnm_frames, "{p:?}");
    assert!(p.ok <= frames.len() as u32 - cnm_frames, "{p:?}");
}

/// Issue 52's crafted attacks on the whole core (`scripts/mr_attacks.py`:
/// frames built by scapy, not by this project's encoder), RTL = twin on
/// both engines: a wrong R_Key, a VA before the region, a VA + length past
/// its end and past 2^64, a WRITE to a read-only region, a READ of a
/// write-only one, another protection domain, a payload past the DMA
/// length, a WRITE's LAST past what its FIRST was granted. Each is
/// answered with a NAK of its syndrome (0x62 remote access error, 0x61
/// invalid request) at its own PSN, and moves nothing:
/// no host write, no host read. The valid requests between them are
/// granted: their bytes are written, the READ's bytes are asked for.
#[test]
fn core_refuses_what_no_region_grants() {
    use nic_golden::nic::CfgWrite;
    use nic_golden::roce::packet::decode;
    use nic_spec::mr::{right, ATTR_RIGHTS_SHIFT};
    use nic_spec::regs::*;
    let (qp, psn) = (1u32, 100u32);
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../scripts/mr_attacks.py");
    let out = std::process::Command::new("python3")
        .args([script, &qp.to_string(), &psn.to_string()])
        .output()
        .expect("python3 (scripts/deps.sh sim installs scapy)");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let frames: Vec<(String, Vec<u8>)> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            let (name, hex) = l.split_once(' ').unwrap();
            let bytes = (0..hex.len())
                .step_by(2)
                .map(|k| u8::from_str_radix(&hex[k..k + 2], 16).unwrap())
                .collect();
            (name.to_string(), bytes)
        })
        .collect();
    // The regions of the script's doc comment, then flow 1 in domain 1.
    let (w, r) = (right::REMOTE_WRITE as u64, right::REMOTE_READ as u64);
    let region = |entry: u64, base: u64, len: u64, rkey: u64, rights: u64, pd: u64| {
        [
            (MR_BASE, base),
            (MR_LEN, len),
            (MR_RKEY, rkey),
            (MR_ATTR, pd | (rights << ATTR_RIGHTS_SHIFT)),
            (MR_COMMIT, entry | 1 << 32),
        ]
    };
    let mut writes: Vec<(u16, u64)> = vec![(MTU_LOG2, 8)];
    writes.extend(region(0, 0x10000, 0x1000, 0x005A, w, 1));
    writes.extend(region(1, 0x20000, 0x1000, 0x0111, r, 1));
    writes.extend(region(
        2,
        0u64.wrapping_sub(0x1000),
        0x1000,
        0x0222,
        w | r,
        1,
    ));
    writes.extend(region(3, 0x30000, 0x1000, 0x0333, w | r, 2));
    writes.extend([
        (FLOW_DMAC, 0x02_00_00_00_00_0A),
        (FLOW_SMAC, 0x02_00_00_00_00_0B),
        (FLOW_SIP, 0x0A00_0002),
        (FLOW_DIP, 0x0A00_0001),
        (FLOW_SPORT, 0xC000),
        (FLOW_DQP, 7),
        (FLOW_PKEY, 0xFFFF),
        (FLOW_RECV_PSN, psn as u64),
        (FLOW_PD, 1),
        (COMMIT, qp as u64 | 1 << 32),
    ]);
    let idle = In {
        cmpl_ready: true,
        dma_rd_ready: true,
        dma_wr_ready: true,
        tx_tready: true,
        cnm_ready: true,
        ..Default::default()
    };
    let mut s = vec![
        In {
            reset: true,
            ..idle
        };
        2
    ];
    for (addr, data) in writes {
        s.push(In {
            cfg_valid: true,
            cfg: CfgWrite { addr, data },
            ..idle
        });
        s.extend([idle; 2]);
    }
    s.extend([idle; 40]);
    for (_, f) in &frames {
        let beats = f.len().div_ceil(8);
        for b in 0..beats {
            let mut lanes = [0u8; 8];
            let chunk = &f[8 * b..(8 * b + 8).min(f.len())];
            lanes[..chunk.len()].copy_from_slice(chunk);
            s.push(In {
                rx: Axis {
                    tdata: u64::from_le_bytes(lanes),
                    tkeep: ((1u16 << chunk.len()) - 1) as u8,
                    tlast: b + 1 == beats,
                    tvalid: true,
                    ..idle.rx
                },
                ..idle
            });
        }
        s.extend([idle; 80]);
    }
    let out = both::<Rtl, Twin>("nic_core_mr_attacks", &s).unwrap();
    // Every input was taken: the configuration and every frame's beats.
    for (i, o) in s.iter().zip(&out) {
        assert!(
            !i.cfg_valid || o.cfg_ready,
            "a configuration write not taken"
        );
        assert!(!i.rx.tvalid || o.rx_tready, "a frame beat not taken");
    }
    let last = out.last().unwrap();
    eprintln!(
        "parser {:?}\ndispatcher {:?}\ncore {:?}",
        last.stats_parse, last.stats_dispatch, last.stats_core
    );
    // Host writes: the three granted WRITEs' bytes, nothing else.
    let written: Vec<u64> = out
        .iter()
        .filter(|o| o.dma_wr_valid)
        .map(|o| o.dma_wr.addr)
        .collect();
    let top = 0u64.wrapping_sub(64);
    let want: Vec<u64> = (0..8)
        .map(|k| 0x10000 + 8 * k)
        .chain((0..8).map(|k| 0x10040 + 8 * k))
        .chain((0..8).map(|k| top + 8 * k))
        .chain((0..16).map(|k| 0x10080 + 8 * k))
        .collect();
    assert_eq!(written, want, "host writes");
    // Host reads: only the granted READ's.
    let reads: Vec<(u64, u16)> = out
        .iter()
        .filter(|o| o.dma_rd_valid)
        .map(|o| (o.dma_rd.addr, o.dma_rd.len))
        .collect();
    assert_eq!(reads.first(), Some(&(0x20000, 64)), "host reads {reads:?}");
    assert!(
        reads.iter().all(|&(a, _)| a == 0x20000),
        "host reads {reads:?}"
    );
    // The answers on the wire, in order: (PSN, syndrome, MSN).
    let mut tx = Vec::new();
    let mut cur = Vec::new();
    for o in out.iter().filter(|o| o.tx.tvalid) {
        let n = o.tx.tkeep.count_ones() as usize;
        cur.extend_from_slice(&o.tx.tdata.to_le_bytes()[..n]);
        if o.tx.tlast {
            tx.push(decode(&std::mem::take(&mut cur), false).expect("a RoCEv2 frame"));
        }
    }
    let answers: Vec<(u32, u32, u32)> = tx
        .iter()
        .filter_map(|p| p.aeth.map(|a| (p.psn, a >> 24, a & 0xFF_FFFF)))
        .collect();
    let (ack, acc, inv) = (0x1F, 0x62, 0x61);
    let mut expect = vec![(psn, ack, 1)];
    expect.extend([(psn + 1, acc, 1); 7]);
    expect.extend([(psn + 1, inv, 1), (psn + 1, ack, 2), (psn + 2, ack, 3)]);
    // The READ (psn + 3) is answered by its response, which waits for
    // the host's data (this test serves none), and the answers behind it
    // with it: the two-packet WRITE's (its FIRST, the LAST past its grant,
    // the LAST inside) are checked by the dispatcher's counts below and by
    // `rx-replay` (`cli/tests/rx_replay.rs`).
    assert_eq!(
        answers,
        expect,
        "ACKs and NAKs of {:?}",
        frames.iter().map(|f| &f.0).collect::<Vec<_>>()
    );
    let last = out.last().unwrap();
    let c = last.stats_core;
    assert_eq!(
        (
            c.mr_granted,
            c.mr_bad_len,
            c.mr_bad_key,
            c.mr_bad_pd,
            c.mr_bad_right,
            c.mr_bad_range
        ),
        (5, 1, 1, 1, 2, 3)
    );
    assert_eq!(
        (last.stats_dispatch.refused, last.stats_dispatch.accepted),
        (9, 6)
    );
}
