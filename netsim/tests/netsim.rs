//! The network simulator end to end: small scenarios with assertions on
//! what the switches and the CC must do, the RTL NICs in the loop giving
//! the golden NICs' frames, and bad scenarios refused by field.

use nic_netsim::net::results::Summary;
use nic_netsim::net::run::{run, NetResult, T0};
use nic_netsim::net::scenario::{NicEngine, Plan, Scenario};
use std::path::{Path, PathBuf};

fn example(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../examples/netsim")
        .join(name)
}

fn scenario(text: &str) -> Result<Plan, String> {
    let s: Scenario = toml::from_str(text).map_err(|e| e.to_string())?;
    s.plan()
}

fn go(p: &Plan) -> (NetResult, Summary) {
    let r = run(p, &mut |_, _, _, _| {});
    let s = Summary::of(p, &r);
    assert!(r.errors.is_empty(), "{:?}", r.errors);
    (r, s)
}

const INCAST4: &str = r#"
name = "incast4"
duration_us = 120
[topology]
kind = "incast"
senders = 4
link_gbps = 100
link_delay_ns = 500
[[workload]]
kind = "long"
[output]
warmup_rtts = 15
"#;

/// 4:1 incast of long flows: the first RTT's burst (4 × BDP) builds the
/// queue, HPCC++ drains it and then holds it at a few packets with the
/// bottleneck near eta; nothing dropped.
#[test]
fn incast_drains_the_first_rtt_and_holds_the_queue_near_zero() {
    let p = scenario(INCAST4).unwrap();
    let (_, s) = go(&p);
    let b = s.bottleneck.as_ref().expect("a bottleneck");
    assert_eq!(b.port, "s0.p4>h4");
    let bdp = 12.5 * p.base_rtt_ns;
    assert!(
        b.peak_queue_bytes as f64 > 2.0 * bdp,
        "the first RTT builds a queue: {b:?}"
    );
    assert!(b.drained_at_rtt.is_some_and(|d| d < 15.0), "{b:?}");
    assert!(b.p99_queue_packets <= 8.0, "{b:?}");
    assert!((0.9..=1.0).contains(&b.utilisation), "{b:?}");
    assert_eq!(s.drops, 0);
    assert_eq!(s.pauses, 0);
    assert_eq!(
        (s.nic.rx_drop_full, s.nic.rx_bad, s.nic.timeouts),
        (0, 0, 0),
        "{:?}",
        s.nic
    );
    let j = s.jain_index.unwrap();
    assert!(j >= 0.95, "Jain {j}");
    // Every switch hop of a data packet was stamped.
    assert!(s.ports[4].stamped > 100);
}

/// Two hosts sending long flows to each other at once
/// (`examples/netsim/bidir.toml`, 120 µs): each NIC sends its data and
/// the other direction's ACKs while it receives, and every link carries
/// at least 0.9 of its rate with no frame dropped for a full receive
/// buffer, which never holds more than one frame and a few words (issue
/// 50: 0.754 of the link when switches stamped the ACKs' echo; 42 frames
/// dropped before the ACK slots).
#[test]
fn two_hosts_send_to_each_other_at_line_rate() {
    let text = std::fs::read_to_string(example("bidir.toml"))
        .unwrap()
        .replace("duration_us = 200", "duration_us = 120");
    let p = scenario(&text).unwrap();
    let (_, s) = go(&p);
    // Every port carries one direction's data and the other's ACKs.
    for port in &s.ports {
        assert!(port.utilisation >= 0.9, "{port:?}");
    }
    assert_eq!(
        (s.nic.rx_drop_full, s.nic.timeouts, s.nic.naks),
        (0, 0, 0),
        "{:?}",
        s.nic
    );
    assert!(s.nic.rx_buffer_peak_words < 2 * 144, "{:?}", s.nic);
    assert_eq!(s.ports.len(), 4);
}

/// A 2 KB flow that starts while a 400 KB flow to the same peer runs:
/// with a QP per flow (the default) it runs beside it and is done in a
/// few RTTs; with one QP per peer it waits behind it (a QP is in order).
#[test]
fn a_qp_per_flow_keeps_a_small_flow_from_waiting_behind_a_large_one() {
    let base = r#"
duration_us = 100
[topology]
kind = "incast"
senders = 1
link_gbps = 100
link_delay_ns = 500
[[workload]]
kind = "incast"
src = [0]
bytes = 400000
[[workload]]
kind = "incast"
src = [0]
bytes = 2000
start_us = 5
"#;
    let mut fct_us = Vec::new();
    for qp in ["flow", "peer"] {
        let p = scenario(&format!("{base}[nic]\nqp = \"{qp}\"\n")).unwrap();
        let (r, s) = go(&p);
        assert_eq!(s.flows_completed, 2, "{qp}");
        // Two flows between the same two hosts: two QPs on each, or one.
        assert_eq!(s.qps_max, if qp == "flow" { 2 } else { 1 }, "{qp}");
        let small = p.flows.iter().find(|f| f.size == Some(2000)).unwrap();
        let done = r.flow_times[small.id].1.unwrap();
        let us = (done - T0 - small.start) as f64 * p.ns_per_cycle / 1000.0;
        eprintln!("qp = {qp}: the 2 KB flow took {us:.1} µs");
        fct_us.push(us);
    }
    // 400 KB takes 32 µs at 100 Gb/s; the base RTT is about 4 µs.
    assert!(fct_us[0] < 10.0, "{fct_us:?}");
    assert!(fct_us[1] > 20.0, "{fct_us:?}");
}

/// Two senders to a host that takes DMA writes at a quarter of the
/// link's rate (each sender's window alone is about the link's BDP, which
/// the 64 KiB buffer holds): its NIC's receive buffer fills, the NIC sends PAUSE frames (`RX_XOFF`), the
/// switch port toward it holds its frames (and, lossless, pauses the
/// sender's port in turn), and nothing is dropped anywhere. With the 16
/// KiB buffer a 1 µs link at 100 Gb/s leaves no room for the headroom:
/// the pause is off, said so in the summary, and the NIC drops.
#[test]
fn a_slow_host_pauses_its_switch_port_instead_of_dropping() {
    let base = r#"
duration_us = 120
[topology]
kind = "incast"
senders = 2
link_gbps = 100
link_delay_ns = 1000
[switch]
mode = "lossless"
[[workload]]
kind = "incast"
src = [0, 1]
bytes = 100000
[nic]
host_dma_gbps = 25
"#;
    let p = scenario(&format!("{base}rx_buffer_kb = 64\n")).unwrap();
    let (r, s) = go(&p);
    eprintln!(
        "64 KiB: {:?}, switches: drops {} pauses {}",
        s.nic, s.drops, s.pauses
    );
    assert_eq!(s.flows_completed, 2);
    assert_eq!((s.nic.rx_drop_full, s.drops, s.nic.timeouts), (0, 0, 0));
    assert!(s.nic.pause_off_hosts.is_empty());
    let dst = p.flows[0].dst;
    assert!(
        r.pauses_sent[dst] >= 2 && s.nic.pause_cycles > 0,
        "{:?}",
        s.nic
    );
    assert_eq!(s.nic.pauses_sent_by_host[dst], s.nic.pauses_sent);
    let p = scenario(base).unwrap();
    let (_, s) = go(&p);
    eprintln!("16 KiB: {:?}", s.nic);
    assert_eq!(s.nic.pause_off_hosts, vec![0, 1, 2]);
    assert_eq!(s.nic.pauses_sent, 0);
    assert!(s.nic.rx_drop_full > 0);
    assert_eq!(
        s.nic
            .rx_drop_full_by_host
            .iter()
            .map(|&d| d as u64)
            .sum::<u64>(),
        s.nic.rx_drop_full
    );
}

/// The two other variants on the same incast, run for 300 µs: the
/// receiver-based (NewINT) and probe-only telemetry also drain the burst
/// and share fairly. W_min (1 % of W_init, 287 B) is under one packet: the
/// receiver variant drives W there during the drain, and before the flow
/// scheduler let one packet go with nothing in flight its flows stalled
/// for good (utilisation 0 after 6 RTTs). Fairness comes by additive
/// increase after the drain: since `EvMerge` (issue 50) the receiver
/// variant's split after the drain starts less even, Jain 0.890 over
/// 35–120 µs (flows at 12.7, 35.3, 21.5 and 22.9 Gb/s), then 0.953 over
/// 35–300 µs (20.3, 28.3, 23.0, 22.1 in the last 100 µs); 120 µs, the
/// other tests' run, no longer shows it settle.
#[test]
fn receiver_and_probe_variants_converge_too() {
    let incast = INCAST4.replace("duration_us = 120", "duration_us = 300");
    for algo in ["hpcc-receiver", "hpcc-probe"] {
        let p = scenario(&format!("{incast}\n[cc]\nalgo = \"{algo}\"\n")).unwrap();
        let (_, s) = go(&p);
        let b = s.bottleneck.as_ref().unwrap();
        assert!(b.drained_at_rtt.is_some(), "{algo}: {b:?}");
        eprintln!(
            "{algo}: utilisation {:.3}, p99 {} B, drained at {:?}, Jain {:?}",
            b.utilisation, b.p99_queue_bytes, b.drained_at_rtt, s.jain_index
        );
        assert!(b.utilisation > 0.8, "{algo}: {b:?}");
        assert!(s.jain_index.unwrap() > 0.9, "{algo}: {:?}", s.jain_index);
        assert_eq!(s.drops, 0, "{algo}");
    }
}

/// Lossy with a small buffer drops (counted); lossless with the same
/// buffer pauses instead and drops nothing; paused NICs and ports count
/// their paused time; RED marks ECN-capable frames.
#[test]
fn lossy_drops_lossless_pauses() {
    let base = r#"
duration_us = 60
[topology]
kind = "incast"
senders = 4
link_gbps = 100
link_delay_ns = 500
[[workload]]
kind = "long"
[output]
warmup_rtts = 2
"#;
    let lossy = scenario(&format!(
        "{base}\n[switch]\nbuffer_kb = 64\necn_kmin_kb = 8\necn_kmax_kb = 32\n"
    ))
    .unwrap();
    let (_, s) = go(&lossy);
    assert!(s.drops > 0, "a 64 KB buffer overflows in the first RTT");
    assert_eq!(s.pauses, 0);
    assert!(s.ports[4].ecn_marks > 0);
    let lossless = scenario(&format!(
        "{base}\n[switch]\nbuffer_kb = 128\nmode = \"lossless\"\npfc_xoff_kb = 12\npfc_xon_kb = 6\n"
    ))
    .unwrap();
    let (r, s) = go(&lossless);
    assert_eq!(s.drops, 0, "{:?}", s.ports);
    assert!(s.pauses > 0);
    assert!(
        r.host_paused.iter().take(4).any(|&c| c > 0),
        "a sender's Tx was paused"
    );
}

/// Leaf-spine with Poisson arrivals from the Hadoop CDF: every flow
/// completes, ECMP uses both spines, and FCT slowdowns are ≥ about 1.
#[test]
fn leaf_spine_poisson_completes_every_flow_over_both_spines() {
    let cdf = example("hadoop.cdf");
    let p = scenario(&format!(
        r#"
duration_us = 400
[topology]
kind = "leaf-spine"
leaves = 2
spines = 2
hosts_per_leaf = 4
link_gbps = 100
fabric_gbps = 100
link_delay_ns = 500
[[workload]]
kind = "poisson"
cdf = "{}"
load = 0.3
size_scale = 0.1
stop_us = 40
"#,
        cdf.display()
    ))
    .unwrap();
    assert!(p.flows.len() > 20, "{}", p.flows.len());
    let (_, s) = go(&p);
    assert!(s.finished, "every flow done");
    assert_eq!(s.flows_completed, s.flows);
    // Leaf 0's ports 4 and 5 go to the two spines: both carried data.
    let up: Vec<u64> = s
        .ports
        .iter()
        .filter(|q| q.port.starts_with("s0.") && q.port.contains(">s"))
        .map(|q| q.tx_bytes)
        .collect();
    assert_eq!(up.len(), 2);
    assert!(up.iter().all(|&b| b > 10_000), "{up:?}");
    for b in &s.fct {
        assert!(b.slowdown_p50 > 0.8, "{b:?}");
    }
}

/// The same small incast with hosts 0 and 1 on the RTL core (Verilator,
/// the twin in lockstep) and on its golden twin alone: the same frames,
/// byte for byte and cycle for cycle, at every captured host.
#[test]
fn rtl_nics_in_the_loop_give_the_golden_frames() {
    let mut sc = Scenario::load(&example("rtl_incast.toml")).unwrap();
    sc.duration_us = 25.0;
    rtl_matches_golden(sc, &[0, 1, 4]);
}

/// `sc` with its RTL hosts, then with every host golden: the same frames
/// at `hosts`, cycle for cycle. Returns the RTL run's frames.
fn rtl_matches_golden(mut sc: Scenario, hosts: &[usize]) -> NetResult {
    let rtl = sc.plan().unwrap();
    let n_rtl = rtl.rtl_hosts.len();
    sc.nic.engine = NicEngine::Golden;
    let golden = sc.plan().unwrap();
    let (rr, _) = go(&rtl);
    for &h in &rtl.rtl_hosts {
        assert_eq!(rr.engines[h], "verilator+golden", "host {h}");
    }
    assert!(n_rtl > 0);
    let (gr, _) = go(&golden);
    for &h in &rtl.rtl_hosts {
        assert_eq!(gr.engines[h], "golden hpcc_nic_core", "host {h}");
    }
    for &h in hosts {
        let (a, b) = (&rr.pcap[&h], &gr.pcap[&h]);
        assert!(a.len() > 50, "host {h}: {} frames", a.len());
        assert_eq!(a.len(), b.len(), "host {h}");
        for (x, y) in a.iter().zip(b) {
            assert_eq!(
                (x.cycle, x.out, &x.frame),
                (y.cycle, y.out, &y.frame),
                "host {h}"
            );
        }
    }
    rr
}

/// DCQCN with RTL NICs in the loop: a sender (host 0) and the receiver
/// (host 4) run the emitted core on Verilator, so the RTL notification
/// point sends CNPs and the RTL reaction point receives them; the frames
/// equal the all-golden run's, and CNPs are among them.
#[test]
#[ignore = "long: make test-full"]
fn rtl_nics_in_the_loop_with_dcqcn_give_the_golden_frames() {
    // RED thresholds low enough that marked packets reach the receiver
    // within a few µs (the first CNP leaves it at 3.6 µs).
    let mut sc = Scenario::load(&example("dcqcn_incast.toml")).unwrap();
    sc.duration_us = 20.0;
    sc.nic.engine = NicEngine::Verilator;
    sc.nic.rtl_hosts = Some(vec![0, 4]);
    let r = rtl_matches_golden(sc, &[0, 4]);
    let cnp = |h: usize, out: bool| {
        r.pcap[&h]
            .iter()
            .filter(|f| f.out == out && f.frame.get(42) == Some(&0x81))
            .count()
    };
    assert!(cnp(4, true) > 0, "the receiver sent no CNP");
    assert!(cnp(0, false) > 0, "host 0 received no CNP");
}

/// DCQCN on the 4:1 incast: the switch's RED marks reach the receiver's
/// notification point, its CNPs (at most one per flow per 50 µs) reach
/// the senders' reaction points, which cut their rates; nothing is lost.
/// DCQCN's queue stays far above HPCC++'s (it reacts to a queue past
/// kmin, 400 KB here, and cuts at most once per CNP interval).
#[test]
fn dcqcn_incast_marks_notifies_and_cuts() {
    let p = scenario(&format!("{INCAST4}\n[cc]\nalgo = \"dcqcn\"\n")).unwrap();
    assert!(p.dcqcn.is_some() && p.probe_t == 0 && !p.tlm_data);
    let (r, s) = go(&p);
    let b = s.bottleneck.as_ref().unwrap();
    let n = &s.nic;
    eprintln!("dcqcn incast4: {b:?}\n{n:?}");
    assert!(n.ce_marks > 0 && n.cnps_sent > 0, "{n:?}");
    // No CNP lost; at most one per flow still on its way at the end.
    assert!(
        n.cnps_received <= n.cnps_sent && n.cnps_sent <= n.cnps_received + 4,
        "{n:?}"
    );
    // CNPs of one flow come 50 µs apart, past the 4 µs decrease period:
    // each one cuts.
    assert_eq!(n.rate_cuts, n.cnps_received, "{n:?}");
    // At most one CNP per flow per 50 µs: 4 flows, 120 µs.
    assert!(n.cnps_sent <= 4 * 3, "{n:?}");
    assert_eq!((s.drops, n.rx_bad, n.timeouts), (0, 0, 0));
    assert!(b.utilisation > 0.9, "{b:?}");
    // Every sender's rate came down from the line rate.
    assert_eq!(r.conns.len(), 4);
    for (c, rs) in r.conn_r.iter().enumerate() {
        assert!(
            rs.iter().any(|&x| x > 0.0 && x < 99.0),
            "connection {c} never below the line rate: {:?}",
            &rs[rs.len().saturating_sub(5)..]
        );
    }
}

/// DCQCN's byte counter in the cores: with `[cc.dcqcn] byte_reset` on,
/// every sender's `SentTap` turns its packets into SENT events, the
/// reaction points take them and climb back faster than on the timer
/// alone (more increases than the same run with the byte counter off);
/// no SENT is for a flow the reaction point does not run.
#[test]
fn dcqcn_byte_counter_raises_the_rate_between_cnps() {
    let base = format!("{INCAST4}\n[cc]\nalgo = \"dcqcn\"\n");
    let off = scenario(&base).unwrap();
    let on = scenario(&format!("{base}[cc.dcqcn]\nbyte_reset = 65536\n")).unwrap();
    assert_eq!(on.dcqcn.unwrap().rp.byte_reset, 65536);
    let (_, s_off) = go(&off);
    let (_, s_on) = go(&on);
    let (a, b) = (&s_off.nic, &s_on.nic);
    eprintln!("byte counter off: {a:?}\nbyte counter on: {b:?}");
    assert_eq!((a.sents, a.sent_drops), (0, 0), "{a:?}");
    assert!(b.sents > 0 && b.rate_cuts > 0, "{b:?}");
    assert!(b.rate_increases > a.rate_increases, "off {a:?}\non {b:?}");
    assert_eq!(s_on.drops, 0);
}

/// Bad scenarios are refused with the field named, before anything runs.
#[test]
fn bad_scenarios_name_the_field() {
    let cases: [(&str, &str); 11] = [
        ("duration_us = 10\n[topology]\nkind = \"ring\"\n", "ring"),
        ("duration_us = 10\n[topology]\nkind = \"incast\"\n[[workload]]\nkind = \"long\"\n", "topology.senders"),
        ("duration_us = 10\n[topology]\nkind = \"incast\"\nsenders = 2\nlink_gbps = 10\n[[workload]]\nkind = \"long\"\n", "topology.link_gbps"),
        ("duration_us = 10\n[topology]\nkind = \"incast\"\nsenders = 2\nbogus = 1\n", "bogus"),
        ("duration_us = 10\n[topology]\nkind = \"incast\"\nsenders = 2\n", "workload"),
        ("duration_us = 10\n[topology]\nkind = \"incast\"\nsenders = 2\n[[workload]]\nkind = \"long\"\ndst = 9\n", "workload[0].dst"),
        ("duration_us = 10\n[topology]\nkind = \"incast\"\nsenders = 2\n[[workload]]\nkind = \"poisson\"\nload = 0.5\n", "workload[0].cdf"),
        ("duration_us = 10\n[topology]\nkind = \"incast\"\nsenders = 2\n[switch]\necn = false\n[cc]\nalgo = \"dcqcn\"\n[[workload]]\nkind = \"long\"\n", "cc.algo"),
        ("duration_us = 10\n[topology]\nkind = \"incast\"\nsenders = 2\n[nic]\nengine = \"verilator\"\nrtl_hosts = [7]\n[[workload]]\nkind = \"long\"\n", "nic.rtl_hosts"),
        ("duration_us = 10\n[topology]\nkind = \"incast\"\nsenders = 2\n[nic]\nhost_dma_gbps = 0\n[[workload]]\nkind = \"long\"\n", "nic.host_dma_gbps"),
        ("duration_us = 10\n[topology]\nkind = \"incast\"\nsenders = 2\n[nic]\nhost_dma_latency_ns = -1\n[[workload]]\nkind = \"long\"\n", "nic.host_dma_latency_ns"),
    ];
    for (text, field) in cases {
        let e = scenario(text).expect_err(text);
        assert!(e.contains(field), "{field}: {e}");
    }
    // A CDF that does not rise to 100 %.
    let dir = std::env::temp_dir().join(format!("netsim-bad-cdf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cdf = dir.join("short.cdf");
    std::fs::write(&cdf, "0 0\n1000 50\n2000 97\n").unwrap();
    let e = scenario(&format!(
        "duration_us = 10\n[topology]\nkind = \"incast\"\nsenders = 2\n[[workload]]\nkind = \"poisson\"\nload = 0.5\ncdf = \"{}\"\n",
        cdf.display()
    ))
    .unwrap_err();
    assert!(
        e.contains("workload[0].cdf") && e.contains("not 100"),
        "{e}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
    // An RTL host with more QPs than the RTL core keeps: its 8 flows in,
    // one QP each, or one per peer.
    for (qp, why) in [("flow", "one per flow"), ("peer", "one per peer")] {
        let e = scenario(&format!(
            "duration_us = 10\n[topology]\nkind = \"incast\"\nsenders = 8\n[nic]\nengine = \"verilator\"\nqp = \"{qp}\"\nrtl_hosts = [8]\n[[workload]]\nkind = \"long\"\n",
        ))
        .unwrap_err();
        assert!(
            e.contains("nic.rtl_hosts") && e.contains("needs 8 QPs") && e.contains(why),
            "{e}"
        );
    }
}

/// `[cc.dcqcn]`: each field given reaches the registers the hosts write,
/// the rest keep `DcqcnParams::for_line_rate`'s defaults; an out-of-range
/// or unknown field is refused by name.
#[test]
fn dcqcn_section_sets_the_registers_and_refuses_bad_fields() {
    use nic_golden::cc::dcqcn_params::DcqcnParams;
    let base = format!("{INCAST4}\n[cc]\nalgo = \"dcqcn\"\n");
    let defaults = scenario(&base).unwrap().dcqcn.unwrap();
    let ns = 0.64; // 100G: 64 bits per cycle
    assert_eq!(
        defaults.rp,
        DcqcnParams::for_line_rate(100.0, ns).regs().unwrap()
    );
    assert_eq!(defaults.np_interval, (50_000.0f64 / ns).round() as u32);
    let set = scenario(&format!(
        "{base}[cc.dcqcn]\ng_log2 = 4\nf = 5\nr_ai_mbps = 40.0\ncnp_interval_us = 4.0\nwindow_bytes = 65536.0\n"
    ))
    .unwrap()
    .dcqcn
    .unwrap();
    let mut want = DcqcnParams::for_line_rate(100.0, ns);
    want.g_log2 = 4;
    want.f = 5;
    want.r_ai_mbps = 40.0;
    want.window_bytes = Some(65536.0);
    assert_eq!(set.rp, want.regs().unwrap());
    assert_ne!(set.rp, defaults.rp);
    assert_eq!(set.np_interval, (4_000.0f64 / ns).round() as u32);
    for (field, value) in [
        ("g_log2", "16"),
        ("f", "8"),
        ("r_min_mbps", "0.0"),
        ("dec_period_us", "0.0"),
        ("alpha_init", "1.5"),
        ("cnp_interval_us", "20000.0"),
        ("cnp_interval_us", "-1.0"),
    ] {
        let e = scenario(&format!("{base}[cc.dcqcn]\n{field} = {value}\n")).expect_err(field);
        assert!(e.contains(&format!("cc.dcqcn.{field}")), "{field}: {e}");
    }
    let e = scenario(&format!("{base}[cc.dcqcn]\nkmin = 3\n")).unwrap_err();
    assert!(e.contains("kmin"), "{e}");
}

/// Every shipped example scenario plans (the files stay valid).
#[test]
fn shipped_scenarios_plan() {
    for e in std::fs::read_dir(example("")).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "toml") {
            let s = Scenario::load(&p).unwrap();
            s.plan().unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        }
    }
}
