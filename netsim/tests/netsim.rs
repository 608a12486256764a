//! The network simulator end to end: small scenarios with assertions on
//! what the switches and the CC must do, the RTL NICs in the loop giving
//! the golden NICs' frames, and bad scenarios refused by field.

use nic_netsim::net::results::Summary;
use nic_netsim::net::run::{run, NetResult};
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

/// The two other variants on the same incast: the receiver-based
/// (NewINT) and probe-only telemetry also drain the burst and share fairly.
/// W_min (1 % of W_init, 287 B) is under one packet: the receiver variant
/// drives W there during the drain, and before the flow scheduler let one
/// packet go with nothing in flight its flows stalled for good
/// (utilisation 0 after 6 RTTs).
#[test]
fn receiver_and_probe_variants_converge_too() {
    for algo in ["hpcc-receiver", "hpcc-probe"] {
        let p = scenario(&format!("{INCAST4}\n[cc]\nalgo = \"{algo}\"\n")).unwrap();
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
    let rtl = sc.plan().unwrap();
    sc.nic.engine = NicEngine::Golden;
    let golden = sc.plan().unwrap();
    let (rr, _) = go(&rtl);
    assert_eq!(&rr.engines[..2], &["verilator+golden", "verilator+golden"]);
    let (gr, _) = go(&golden);
    assert_eq!(
        &gr.engines[..2],
        &["golden hpcc_nic_core", "golden hpcc_nic_core"]
    );
    for h in [0, 1, 4] {
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
}

/// Bad scenarios are refused with the field named, before anything runs.
#[test]
fn bad_scenarios_name_the_field() {
    let cases: [(&str, &str); 9] = [
        ("duration_us = 10\n[topology]\nkind = \"ring\"\n", "ring"),
        ("duration_us = 10\n[topology]\nkind = \"incast\"\n[[workload]]\nkind = \"long\"\n", "topology.senders"),
        ("duration_us = 10\n[topology]\nkind = \"incast\"\nsenders = 2\nlink_gbps = 10\n[[workload]]\nkind = \"long\"\n", "topology.link_gbps"),
        ("duration_us = 10\n[topology]\nkind = \"incast\"\nsenders = 2\nbogus = 1\n", "bogus"),
        ("duration_us = 10\n[topology]\nkind = \"incast\"\nsenders = 2\n", "workload"),
        ("duration_us = 10\n[topology]\nkind = \"incast\"\nsenders = 2\n[[workload]]\nkind = \"long\"\ndst = 9\n", "workload[0].dst"),
        ("duration_us = 10\n[topology]\nkind = \"incast\"\nsenders = 2\n[[workload]]\nkind = \"poisson\"\nload = 0.5\n", "workload[0].cdf"),
        ("duration_us = 10\n[topology]\nkind = \"incast\"\nsenders = 2\n[cc]\nalgo = \"dcqcn\"\n[[workload]]\nkind = \"long\"\n", "cc.algo"),
        ("duration_us = 10\n[topology]\nkind = \"incast\"\nsenders = 2\n[nic]\nengine = \"verilator\"\nrtl_hosts = [7]\n[[workload]]\nkind = \"long\"\n", "nic.rtl_hosts"),
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
    // An RTL host with more peers than the RTL core's QPs.
    let e = scenario(
        "duration_us = 10\n[topology]\nkind = \"incast\"\nsenders = 8\n[nic]\nrtl_hosts = [8]\n[[workload]]\nkind = \"long\"\n",
    )
    .unwrap_err();
    assert!(e.contains("nic.rtl_hosts") && e.contains("8 peers"), "{e}");
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
