//! `hpccnic netsim` end to end: a short run writes every output; bad
//! scenarios and flags exit 2 naming the field, and nothing is written.

use std::path::Path;
use std::process::Command;

fn hpccnic(args: &[&str]) -> (i32, String, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_hpccnic"))
        .args(args)
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join(".."))
        .output()
        .expect("run hpccnic");
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn a_short_incast_writes_summary_series_plots_and_pcaps() {
    let out = std::env::temp_dir().join(format!("netsim-cli-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let (code, stdout, stderr) = hpccnic(&[
        "netsim",
        "--scenario",
        "examples/netsim/rtl_incast.toml",
        "--engine",
        "golden",
        "--duration-us",
        "30",
        "--seed",
        "2",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    assert!(stdout.contains("bottleneck s0.p4>h4"), "{stdout}");
    for f in [
        "summary.json",
        "queue.csv",
        "flows.csv",
        "fct.csv",
        "queue.svg",
        "rate.svg",
        "host0.pcap",
        "host1.pcap",
        "host4.pcap",
    ] {
        assert!(out.join(f).metadata().is_ok_and(|m| m.len() > 0), "{f}");
    }
    let s: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    assert_eq!(s["hosts"], 5);
    assert_eq!(s["drops"], 0);
    assert!(s["speed"]["cycles_per_s"].as_f64().unwrap() > 0.0);
    assert_eq!(s["connections"].as_array().unwrap().len(), 4);
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn bad_scenarios_and_flags_exit_2_naming_the_field() {
    let dir = std::env::temp_dir().join(format!("netsim-cli-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.toml");
    std::fs::write(&bad, "duration_us = 10\n[topology]\nkind = \"torus\"\n").unwrap();
    let out = dir.join("out");
    let (code, _, err) = hpccnic(&[
        "netsim",
        "--scenario",
        bad.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("torus") && err.contains("kind"), "{err}");
    assert!(!out.exists(), "nothing runs");
    let (code, _, err) = hpccnic(&[
        "netsim",
        "--scenario",
        "examples/netsim/incast16.toml",
        "--link-gbps",
        "10",
        "--check",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("topology.link_gbps"), "{err}");
    let (code, _, err) = hpccnic(&[
        "netsim",
        "--scenario",
        "examples/netsim/incast16.toml",
        "--qp",
        "per-host",
        "--check",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("--qp") && err.contains("flow, peer"), "{err}");
    // DCQCN is built: `--cc dcqcn` plans (it needs `switch.ecn`, which the
    // scenario keeps on; `netsim/tests/netsim.rs` checks the refusal).
    let (code, out, err) = hpccnic(&[
        "netsim",
        "--scenario",
        "examples/netsim/incast16.toml",
        "--cc",
        "dcqcn",
        "--check",
    ]);
    assert_eq!(code, 0, "{out}\n{err}");
    let (code, _, err) = hpccnic(&[
        "netsim",
        "--scenario",
        "examples/netsim/leaf_spine_websearch.toml",
        "--senders",
        "4",
        "--check",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("--senders"), "{err}");
    let (code, out, _) = hpccnic(&[
        "netsim",
        "--scenario",
        "examples/netsim/leaf_spine_websearch.toml",
        "--check",
    ]);
    assert_eq!(code, 0);
    assert!(out.contains("leaf-spine with 32 hosts"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--compare` on a small leaf-spine with Poisson flows: no bottleneck
/// is picked (the busiest port is not the most congested), the table's
/// queue figures are the largest of any port's and its utilisation "—".
#[test]
fn compare_on_a_leaf_spine_takes_the_largest_queue_of_any_port() {
    let out = std::env::temp_dir().join(format!("netsim-cli-cmp-ls-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    std::fs::create_dir_all(&out).unwrap();
    std::fs::write(out.join("small.cdf"), "1000 0\n20000 50\n60000 100\n").unwrap();
    let sc = out.join("ls.toml");
    std::fs::write(
        &sc,
        r#"name = "ls-small"
seed = 3
duration_us = 400
[topology]
kind = "leaf-spine"
leaves = 2
spines = 1
hosts_per_leaf = 3
link_gbps = 100
link_delay_ns = 500
fabric_gbps = 100
fabric_delay_ns = 500
[switch]
ecn = true
[[workload]]
kind = "poisson"
cdf = "small.cdf"
load = 0.6
start_us = 0
stop_us = 30
"#,
    )
    .unwrap();
    let (code, stdout, stderr) = hpccnic(&[
        "netsim",
        "--scenario",
        sc.to_str().unwrap(),
        "--compare",
        "hpcc-sender,dcqcn",
        "--out",
        out.join("cmp").to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    let md = std::fs::read_to_string(out.join("cmp/compare.md")).unwrap();
    assert!(
        md.contains("queue figures of the largest of any port"),
        "{md}"
    );
    let j: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("cmp/compare.json")).unwrap())
            .unwrap();
    for cc in ["hpcc-sender", "dcqcn"] {
        let s = &j[cc];
        assert_eq!(s["flows_completed"], s["flows"], "{cc}: {s}");
        let peak = s["ports"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["peak_queue_bytes"].as_u64().unwrap())
            .max()
            .unwrap();
        let kb = if peak as f64 >= 1e6 {
            format!("{:.2} MB", peak as f64 / 1e6)
        } else {
            format!("{:.1} KB", peak as f64 / 1e3)
        };
        let row = md
            .lines()
            .find(|l| l.starts_with(&format!("| {cc} |")))
            .unwrap_or_else(|| panic!("{cc}: no row in {md}"));
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        assert_eq!(cells[2], "—", "{row}");
        assert_eq!(cells[3], kb, "{row}");
    }
    let _ = std::fs::remove_dir_all(&out);
}

/// `--compare hpcc-sender,dcqcn` on the 4:1 DCQCN incast: one full run
/// per CC under `--out`, and the side-by-side table, plot and summaries;
/// HPCC++ holds a smaller queue than DCQCN, and only DCQCN sends CNPs.
/// Bad lists exit 2 before anything runs.
#[test]
fn compare_runs_each_cc_and_writes_them_side_by_side() {
    let out = std::env::temp_dir().join(format!("netsim-cli-cmp-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let (code, stdout, stderr) = hpccnic(&[
        "netsim",
        "--scenario",
        "examples/netsim/dcqcn_incast.toml",
        "--compare",
        "hpcc-sender,dcqcn",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    for f in [
        "compare.svg",
        "compare.md",
        "compare.json",
        "hpcc-sender/summary.json",
        "hpcc-sender/queue.svg",
        "dcqcn/summary.json",
        "dcqcn/host4.pcap",
    ] {
        assert!(out.join(f).is_file(), "{f} missing");
    }
    let md = std::fs::read_to_string(out.join("compare.md")).unwrap();
    assert!(
        md.contains("| hpcc-sender |") && md.contains("| dcqcn |"),
        "{md}"
    );
    let j: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("compare.json")).unwrap()).unwrap();
    let h = &j["hpcc-sender"];
    let d = &j["dcqcn"];
    let peak = |s: &serde_json::Value| s["bottleneck"]["peak_queue_bytes"].as_u64().unwrap();
    assert!(peak(h) < peak(d), "{} vs {}", peak(h), peak(d));
    assert_eq!(h["nic"]["cnps_sent"], 0);
    assert!(d["nic"]["cnps_sent"].as_u64().unwrap() > 0);
    let svg = std::fs::read_to_string(out.join("compare.svg")).unwrap();
    assert!(svg.contains("hpcc-sender") && svg.contains("dcqcn"));
    let _ = std::fs::remove_dir_all(&out);

    for (list, why) in [
        ("dcqcn", "at least two"),
        ("dcqcn,dcqcn", "twice"),
        ("hpcc-sender,bogus", "bogus"),
    ] {
        let (code, _, err) = hpccnic(&[
            "netsim",
            "--scenario",
            "examples/netsim/dcqcn_incast.toml",
            "--compare",
            list,
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_eq!(code, 2, "{list}");
        assert!(err.contains(why), "{list}: {err}");
        assert!(!out.exists(), "{list}: nothing runs");
    }
    // DCQCN on a switch without ECN: refused before the HPCC++ run starts.
    let dir = std::env::temp_dir().join(format!("netsim-cli-cmp-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let no_ecn = dir.join("no_ecn.toml");
    std::fs::write(
        &no_ecn,
        "duration_us = 10\n[topology]\nkind = \"incast\"\nsenders = 2\n[switch]\necn = false\n[[workload]]\nkind = \"long\"\n",
    )
    .unwrap();
    let (code, _, err) = hpccnic(&[
        "netsim",
        "--scenario",
        no_ecn.to_str().unwrap(),
        "--compare",
        "hpcc-sender,dcqcn",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("dcqcn") && err.contains("switch.ecn"), "{err}");
    assert!(!out.exists(), "nothing runs");
    // --compare and --cc together: clap refuses.
    let (code, _, err) = hpccnic(&[
        "netsim",
        "--scenario",
        "examples/netsim/dcqcn_incast.toml",
        "--compare",
        "hpcc-sender,dcqcn",
        "--cc",
        "dcqcn",
        "--check",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("--cc"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The findings of issue 53 on `netsim`'s flags: `--rtl-hosts` with the
/// golden engine says what it runs (the twin of the RTL's configuration,
/// not the RTL); a run shorter than its warm-up warns that it has no
/// steady window (stderr and `summary.json`); `--pcap-hosts` picks the
/// pcaps over the file's `output.pcap_hosts`.
#[test]
fn rtl_hosts_say_what_runs_short_runs_warn_and_pcaps_have_a_flag() {
    let (code, out, err) = hpccnic(&[
        "netsim",
        "--scenario",
        "examples/netsim/incast16.toml",
        "--rtl-hosts",
        "1",
        "--check",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("hosts with the RTL core's configuration (its golden twin alone")
            && !out.contains("Verilator, golden in lockstep"),
        "{out}"
    );
    let out = std::env::temp_dir().join(format!("netsim-cli-short-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let (code, stdout, stderr) = hpccnic(&[
        "netsim",
        "--scenario",
        "examples/netsim/rtl_incast.toml",
        "--engine",
        "golden",
        "--duration-us",
        "4",
        "--pcap-hosts",
        "2",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    assert!(stderr.contains("warning: no steady window"), "{stderr}");
    assert!(!stdout.contains("bottleneck "), "{stdout}");
    let s: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    assert!(
        s["warnings"][0]
            .as_str()
            .unwrap()
            .contains("no steady window"),
        "{s}"
    );
    assert!(out
        .join("host2.pcap")
        .metadata()
        .is_ok_and(|m| m.len() > 24));
    assert!(
        !out.join("host0.pcap").exists(),
        "the flag replaces the file's list"
    );
    let _ = std::fs::remove_dir_all(&out);
}
