//! `hpccnic sim` end to end: every scenario arrives byte-exact, and the pcap
//! it writes is checked by two independent implementations: Wireshark
//! (tshark: every frame dissects as InfiniBand over UDP, nothing malformed,
//! no expert item) and scapy (`scripts/icrc_scapy.py`: every ICRC equals
//! scapy's). The tools are installed by `scripts/deps.sh sim`; the tests
//! install nothing.
//!
//! tshark runs with every heuristic sub-dissector of InfiniBand payloads
//! disabled (RPC-over-RDMA, raw Ethertype, EoIB, SDP, iSER, ...): our
//! payloads are opaque random bytes, and those heuristics take e.g. a 1-byte
//! WRITE payload 0x91 followed by its zero pad for an Ethertype 0x9100
//! (VLAN) packet, then report it malformed. Ethernet, IPv4, UDP, BTH, RETH
//! and AETH are dissected as always.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn hpccnic(args: &[&str]) -> (i32, String, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_hpccnic"))
        .args(args)
        .output()
        .unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8(o.stdout).unwrap(),
        String::from_utf8(o.stderr).unwrap(),
    )
}

fn tool(cmd: &str, args: &[&str]) -> Output {
    Command::new(cmd)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {cmd} ({e}): install it with `scripts/deps.sh sim`"))
}

fn tmp(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join("sim");
    std::fs::create_dir_all(&d).unwrap();
    d.join(name)
}

/// The number after `key` in the summary.
fn figure(out: &str, key: &str) -> u64 {
    let at = out
        .find(key)
        .unwrap_or_else(|| panic!("no `{key}` in:\n{out}"))
        + key.len();
    out[at..]
        .split(|c: char| !c.is_ascii_digit())
        .find(|s| !s.is_empty())
        .unwrap()
        .parse()
        .unwrap()
}

/// Heuristic sub-dissectors of InfiniBand payloads, by their short names
/// (which `tshark -G heuristic-decodes` does not list) in the Wireshark
/// versions we know. They are disabled through a `heuristic_protos` file in
/// a private configuration directory, where names this tshark does not
/// have are ignored.
const IB_PAYLOAD_HEURISTICS: [&str; 12] = [
    "eth_over_ib",
    "mellanox_eoib",
    "rpcrdma_infiniband",
    "rpcordma_infiniband",
    "sdp_infiniband",
    "fc_infiniband",
    "iser_infiniband",
    "lnet_ib",
    "smb_direct_infiniband",
    "smcr_infiniband",
    "nvme_rdma",
    "drbd_infiniband",
];

/// tshark reading `pcap`, InfiniBand payload heuristics off (module doc).
fn tshark(pcap: &str, more: &[&str]) -> Output {
    static CFG: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    let cfg = CFG.get_or_init(|| {
        let d = tmp("wireshark-config");
        std::fs::create_dir_all(&d).unwrap();
        let heur: String = IB_PAYLOAD_HEURISTICS
            .iter()
            .map(|h| format!("{h},0\n"))
            .collect();
        std::fs::write(d.join("heuristic_protos"), heur).unwrap();
        d
    });
    let mut args: Vec<&str> = vec!["-r", pcap, "--disable-protocol", "rpcordma"];
    args.extend_from_slice(more);
    Command::new("tshark")
        .env("WIRESHARK_CONFIG_DIR", cfg)
        .args(&args)
        .output()
        .unwrap_or_else(|e| {
            panic!("cannot run tshark ({e}): install it with `scripts/deps.sh sim`")
        })
}

/// Frames tshark shows with `filter` applied.
fn tshark_count(pcap: &str, filter: &str) -> u64 {
    let o = tshark(pcap, &["-Y", filter, "-T", "fields", "-e", "frame.number"]);
    assert!(
        o.status.success(),
        "tshark: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).unwrap().lines().count() as u64
}

fn icrc_scapy(pcap: &str) -> (bool, String) {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../scripts/icrc_scapy.py");
    let o = tool("python3", &[script, pcap]);
    (
        o.status.success(),
        String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr),
    )
}

/// Run one scenario with a pcap, check the summary and the pcap.
fn scenario(name: &str, scenario: &str, extra: &[&str]) {
    let pcap = tmp(&format!("{name}.pcap"));
    let pcap = pcap.to_str().unwrap();
    let mut args = vec!["sim", scenario, "--pcap", pcap];
    args.extend_from_slice(extra);
    let (code, out, err) = hpccnic(&args);
    println!("$ hpccnic {}\n{out}", args.join(" "));
    assert_eq!(code, 0, "{name}: {out}\n{err}");
    assert!(out.contains("byte-exact: yes"), "{out}");
    let frames = figure(&out, "frames ");
    let done = figure(&out, "work requests completed ");
    assert!(out.contains(&format!("completed {done}/{done}")), "{out}");
    assert!(frames > 0);

    // Wireshark: every frame is InfiniBand (RoCEv2), none malformed, and no
    // expert item of any severity.
    assert_eq!(
        tshark_count(pcap, "frame"),
        frames,
        "{name}: frames in the pcap"
    );
    assert_eq!(
        tshark_count(pcap, "infiniband && udp.dstport == 4791"),
        frames,
        "{name}"
    );
    assert_eq!(
        tshark_count(pcap, "_ws.malformed || _ws.expert"),
        0,
        "{name}"
    );
    let o = tshark(pcap, &["-q", "-z", "expert"]);
    let expert = String::from_utf8_lossy(&o.stdout);
    assert!(
        !expert.contains("Errors") && !expert.contains("Warns"),
        "{name}: {expert}"
    );

    // scapy: every ICRC.
    let (ok, text) = icrc_scapy(pcap);
    println!("{text}");
    assert!(ok, "{name}: {text}");
    assert!(
        text.contains(&format!("{frames} ICRCs match, 0 do not")),
        "{name}: {text}"
    );
}

#[test]
fn write() {
    scenario("write", "write", &[]);
}

#[test]
fn read() {
    scenario("read", "read", &["--seed", "2", "--mtu", "256"]);
}

#[test]
fn lossy_write_0() {
    scenario("lossy-write-0", "lossy-write", &["--loss", "0"]);
}

#[test]
fn lossy_write_1_percent() {
    scenario(
        "lossy-write-1",
        "lossy-write",
        &["--loss", "0.01", "--seed", "3"],
    );
}

#[test]
fn lossy_write_10_percent() {
    scenario(
        "lossy-write-10",
        "lossy-write",
        &["--loss", "0.1", "--mtu", "512", "--max-size", "20000"],
    );
    // With this much loss, frames are lost and resent.
    let (_, out, _) = hpccnic(&[
        "sim",
        "lossy-write",
        "--loss",
        "0.1",
        "--mtu",
        "512",
        "--max-size",
        "20000",
    ]);
    assert!(figure(&out, "lost ") > 0, "{out}");
    assert!(figure(&out, "retransmissions ") > 0, "{out}");
}

#[test]
fn the_scapy_check_can_fail() {
    // One payload bit flipped in one frame of a good pcap: the script must
    // name that frame and fail.
    use pcap_file::pcap::{PcapReader, PcapWriter};
    let good = tmp("good.pcap");
    let (code, out, err) = hpccnic(&[
        "sim",
        "write",
        "--messages",
        "4",
        "--pcap",
        good.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let mut r = PcapReader::new(std::fs::File::open(&good).unwrap()).unwrap();
    let bad = tmp("bad.pcap");
    let mut w = PcapWriter::with_header(std::fs::File::create(&bad).unwrap(), r.header()).unwrap();
    let mut i = 0;
    while let Some(p) = r.next_packet() {
        let mut p = p.unwrap().into_owned();
        i += 1;
        if i == 2 {
            let mut d = p.data.into_owned();
            d[60] ^= 0x01;
            p.data = d.into();
        }
        w.write_packet(&p).unwrap();
    }
    drop(w);
    let (ok, text) = icrc_scapy(bad.to_str().unwrap());
    assert!(!ok, "{text}");
    assert!(text.contains("frame 2: ICRC"), "{text}");
    assert!(text.contains("1 do not"), "{text}");
}

#[test]
fn usage_errors() {
    let (code, _, err) = hpccnic(&["sim", "send"]);
    assert_eq!(code, 2);
    assert!(err.contains("no scenario `send`"), "{err}");
    let (code, _, err) = hpccnic(&["sim", "write", "--vcd", "x.vcd"]);
    assert_eq!(code, 2);
    assert!(err.contains("--vcd needs an RTL engine"), "{err}");
    let (code, _, err) = hpccnic(&["sim", "write", "--mtu", "1000"]);
    assert_eq!(code, 2);
    assert!(err.contains("MTU"), "{err}");
}

// ---- The RTL pipelines in the loop -------------------------------------
// `--engine verilator|rust-hdl`: both NICs' Tx, Rx parser and Rx dispatcher
// run as RTL, each with its cycle-exact golden twin in lockstep (any port
// differing on any cycle aborts the run), and every frame's Rx events are
// also compared with the transaction-level model. The frames on the wire
// are the RTL's, so tshark and scapy check what the RTL built.

#[test]
fn write_on_verilator() {
    scenario(
        "write-verilator",
        "write",
        &["--engine", "verilator", "--messages", "8"],
    );
}

#[test]
fn read_on_verilator() {
    scenario(
        "read-verilator",
        "read",
        &["--engine", "verilator", "--messages", "8", "--mtu", "256"],
    );
}

#[test]
fn lossy_write_1_percent_on_verilator() {
    scenario(
        "lossy-write-1-verilator",
        "lossy-write",
        &[
            "--engine",
            "verilator",
            "--loss",
            "0.01",
            "--seed",
            "3",
            "--messages",
            "12",
        ],
    );
}

#[test]
fn lossy_write_10_percent_on_verilator() {
    scenario(
        "lossy-write-10-verilator",
        "lossy-write",
        &["--engine", "verilator", "--loss", "0.1", "--messages", "12"],
    );
}

/// The RTL puts exactly the golden models' bytes on the wire, in the same
/// order at the same times, losses and retransmissions included.
#[test]
fn rtl_and_golden_put_the_same_frames_on_the_wire() {
    let mut pcaps = Vec::new();
    for engine in ["golden", "verilator"] {
        let p = tmp(&format!("same-{engine}.pcap"));
        let (code, out, err) = hpccnic(&[
            "sim",
            "lossy-write",
            "--loss",
            "0.1",
            "--messages",
            "12",
            "--engine",
            engine,
            "--pcap",
            p.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{out}{err}");
        assert!(
            figure(&out, "lost ") > 0 && figure(&out, "retransmissions ") > 0,
            "{out}"
        );
        pcaps.push(std::fs::read(&p).unwrap());
    }
    assert!(
        pcaps[0] == pcaps[1],
        "the RTL's pcap differs from the golden one"
    );
}

/// rust-hdl's simulator in the loop (slow: a small run), with waveforms.
#[test]
fn write_on_rust_hdl_with_waveforms() {
    let vcd = tmp("vcd/w.vcd");
    let (code, out, err) = hpccnic(&[
        "sim",
        "write",
        "--engine",
        "rust-hdl",
        "--messages",
        "2",
        "--max-size",
        "2048",
        "--vcd",
        vcd.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("byte-exact: yes"), "{out}");
    for nic in ["a", "b"] {
        for block in ["tx", "rx_parse", "rx_dispatch"] {
            let f = vcd.with_file_name(format!("w.{nic}.{block}.vcd"));
            let len = std::fs::metadata(&f).map(|m| m.len()).unwrap_or(0);
            assert!(len > 1000, "{}: {len} bytes", f.display());
        }
    }
}

/// READs under loss on the RTL: lost READ responses are re-read, and a
/// duplicate READ REQUEST is executed again by the RTL dispatcher.
#[test]
fn lossy_read_on_verilator() {
    scenario(
        "lossy-read-verilator",
        "read",
        &[
            "--engine",
            "verilator",
            "--loss",
            "0.1",
            "--seed",
            "2",
            "--mtu",
            "256",
            "--messages",
            "12",
        ],
    );
}
