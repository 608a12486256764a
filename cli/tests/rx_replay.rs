//! `hpccnic rx-replay` end to end:
//! - on `sim`'s own pcaps it reproduces, line for line, what the sim's
//!   cycle-level NICs logged for every frame they received (`--rx-log`):
//!   the verdict and every event, context writes of the requester
//!   included, for both tops, both NICs, with loss; on the golden model
//!   and on the RTL parser and dispatcher under Verilator;
//! - on a corrupted copy, every corrupted frame is reported with the
//!   reason §7 of `docs/roce.md` gives it (and the rest are accounted);
//! - with the FCS kept in the capture (`--fcs`), a bad FCS is `bad_fcs`;
//! - without a set-up it accepts every QP of a capture;
//! - the example capture is made by the documented command and replays
//!   to its logs on all three engines.

use pcap_file::pcap::{PcapPacket, PcapReader, PcapWriter};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

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

fn tmp(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("rx_replay")
        .join(name);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn read_pcap(p: &Path) -> Vec<Vec<u8>> {
    let bytes = std::fs::read(p).unwrap();
    let mut r = PcapReader::new(&bytes[..]).unwrap();
    let mut v = Vec::new();
    while let Some(pk) = r.next_packet() {
        v.push(pk.unwrap().data.into_owned());
    }
    v
}

fn write_pcap(p: &Path, frames: &[Vec<u8>]) {
    let f = std::fs::File::create(p).unwrap();
    let mut w = PcapWriter::new(f).unwrap();
    for (k, fr) in frames.iter().enumerate() {
        let ts = std::time::Duration::from_micros(k as u64);
        w.write_packet(&PcapPacket::new(ts, fr.len() as u32, fr))
            .unwrap();
    }
}

fn mac_bytes(s: &str) -> Vec<u8> {
    s.split(':')
        .map(|b| u8::from_str_radix(b, 16).unwrap())
        .collect()
}

/// NIC B's MAC, from its replay set-up in `dir`.
fn mac_b(dir: &Path) -> String {
    let cfg: toml::Value =
        toml::from_str(&std::fs::read_to_string(dir.join("run.b.toml")).unwrap()).unwrap();
    cfg["dst_mac"].as_str().unwrap().to_string()
}

fn lines(s: &str) -> Vec<Value> {
    s.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// `sim` with `--pcap` and `--rx-log` into `dir`; returns the pcap.
fn sim(dir: &Path, extra: &[&str]) -> PathBuf {
    let pcap = dir.join("run.pcap");
    let log = dir.join("run");
    let mut args = vec![
        "sim",
        "--pcap",
        pcap.to_str().unwrap(),
        "--rx-log",
        log.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let (code, out, err) = hpccnic(&args);
    assert_eq!(code, 0, "sim {extra:?}: {out}{err}");
    assert!(
        out.contains("rx-log A: ") && out.contains("rx-log B: "),
        "{out}"
    );
    pcap
}

/// Replay each NIC's side of `dir`'s run against its log.
fn replay_matches(dir: &Path, engine: &str) {
    let pcap = dir.join("run.pcap");
    for side in ["a", "b"] {
        let flows = dir.join(format!("run.{side}.toml"));
        let log = dir.join(format!("run.{side}.jsonl"));
        let (code, out, err) = hpccnic(&[
            "rx-replay",
            "--engine",
            engine,
            "--pcap",
            pcap.to_str().unwrap(),
            "--flows",
            flows.to_str().unwrap(),
            "--expect",
            log.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "replay {side} on {engine}: {err}");
        assert!(err.contains("frames match"), "{err}");
        let l = lines(&out);
        let totals = &l.last().unwrap()["totals"];
        assert_eq!(totals["accounted"], true, "{totals}");
        let logged = std::fs::read_to_string(&log).unwrap();
        assert_eq!(l.len() - 1, logged.lines().count());
        // The run had losses and recoveries: the replay saw more than
        // accepted frames.
        assert!(
            totals["verdicts"]["accepted"].as_u64().unwrap() > 10,
            "{totals}"
        );
    }
}

#[test]
fn the_sims_own_pcaps_replay_exactly() {
    // Seeds whose runs lose a data packet (an `oos` verdict): the nic's
    // seed 4 stopped doing so once its receive buffer stopped dropping
    // (issue 50); seed 7 loses three.
    for (name, top, seed) in [("core", "core", "3"), ("nic", "nic", "7")] {
        let dir = tmp(name);
        sim(
            &dir,
            &[
                "mixed",
                "--top",
                top,
                "--seed",
                seed,
                "--loss",
                "0.04",
                "--messages",
                "24",
            ],
        );
        replay_matches(&dir, "golden");
        let log = std::fs::read_to_string(dir.join("run.a.jsonl")).unwrap()
            + &std::fs::read_to_string(dir.join("run.b.jsonl")).unwrap();
        let l = lines(&log);
        let has = |v: &str| l.iter().any(|x| x["verdict"] == v);
        let ev = |e: &str| {
            l.iter().any(|x| {
                x["events"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|y| y["event"] == e)
            })
        };
        // What the comparison covered: losses and every event kind of the
        // scenario (READ responses need the requester's context writes).
        assert!(has("oos") && has("accepted"), "{name}");
        for e in ["host_write", "ack", "cc", "read_req"] {
            assert!(ev(e), "{name}: no {e} event in the run");
        }
    }
}

/// Frames the link damaged (`sim --corrupt`) are in the pcap as they
/// arrived, and the replay gives each the drop reason the NIC gave it.
#[test]
fn frames_damaged_on_the_link_replay_with_their_reasons() {
    let dir = tmp("damaged");
    sim(
        &dir,
        &[
            "write",
            "--top",
            "core",
            "--seed",
            "5",
            "--corrupt",
            "0.1",
            "--messages",
            "24",
        ],
    );
    replay_matches(&dir, "golden");
    let log = std::fs::read_to_string(dir.join("run.a.jsonl")).unwrap()
        + &std::fs::read_to_string(dir.join("run.b.jsonl")).unwrap();
    let l = lines(&log);
    for v in ["bad_icrc", "trunc"] {
        assert!(l.iter().any(|x| x["verdict"] == v), "no {v} in the run");
    }
}

#[test]
fn the_rtl_receive_path_replays_the_sim_exactly() {
    let dir = tmp("rtl");
    sim(
        &dir,
        &[
            "mixed",
            "--top",
            "core",
            "--seed",
            "5",
            "--loss",
            "0.04",
            "--messages",
            "12",
        ],
    );
    replay_matches(&dir, "verilator");
}

/// The parser's reason for a frame corrupted by `f` (docs/roce.md §7's
/// order: the first failing check).
type Corrupt = (&'static str, fn(&mut Vec<u8>));

const IP: usize = 14;
const UDP: usize = IP + 20;
const BTH: usize = UDP + 8;

const CORRUPTIONS: [Corrupt; 9] = [
    ("bad_icrc", |f| {
        let n = f.len();
        f[n - 1] ^= 0x40
    }),
    ("bad_icrc", |f| f[BTH + 11] ^= 1), // the PSN: covered by the ICRC only
    ("bad_ip", |f| f[IP + 10] ^= 0x80), // header checksum
    ("bad_ip", |f| f[IP + 6] |= 0x20),  // more fragments
    ("bad_eth", |f| f[12] = 0x86),      // EtherType
    ("bad_port", |f| f[UDP + 3] ^= 1),  // UDP destination port
    ("bad_opcode", |f| f[BTH] = 0x1f),  // no such opcode
    ("trunc", |f| f.truncate(30)),
    ("trunc", |f| {
        let n = f.len();
        f.truncate(n - 12)
    }), // shorter than the IPv4 total length
];

#[test]
fn a_corrupted_copy_reports_every_corrupted_frame_with_its_reason() {
    let dir = tmp("corrupt");
    // 32 messages: enough frames to B for two rounds of the corruptions
    // (24 stopped being enough when the control budget came, issue 50).
    let pcap = sim(
        &dir,
        &["write", "--top", "core", "--seed", "9", "--messages", "32"],
    );
    let mut frames = read_pcap(&pcap);
    let cfg = std::fs::read_to_string(dir.join("run.b.toml")).unwrap();
    // Frames the run lost or found the buffer full for are reported
    // from the set-up, not fed: leave them alone.
    let set_up: toml::Value = toml::from_str(&cfg).unwrap();
    let mac_b = mac_bytes(set_up["dst_mac"].as_str().unwrap());
    let listed = |k: &str| -> Vec<u64> {
        set_up
            .get(k)
            .and_then(|v| v.as_array())
            .map(|a| a.iter().map(|x| x.as_integer().unwrap() as u64).collect())
            .unwrap_or_default()
    };
    let untouched: Vec<u64> = [listed("skip"), listed("full")].concat();
    // Corrupt every 5th frame to B, the corruptions in turn.
    let mut want = std::collections::BTreeMap::new();
    let mut k = 0;
    for (n, f) in frames.iter_mut().enumerate() {
        if f[..6] != mac_b[..] || n % 5 != 2 || untouched.contains(&(n as u64 + 1)) {
            continue;
        }
        let (reason, c) = CORRUPTIONS[k % CORRUPTIONS.len()];
        c(f);
        want.insert(n as u64 + 1, reason);
        k += 1;
    }
    assert!(k >= 2 * CORRUPTIONS.len(), "{k} frames corrupted");
    let bad = dir.join("corrupted.pcap");
    write_pcap(&bad, &frames);
    for engine in ["golden", "verilator"] {
        let (code, out, err) = hpccnic(&[
            "rx-replay",
            "--engine",
            engine,
            "--pcap",
            bad.to_str().unwrap(),
            "--flows",
            dir.join("run.b.toml").to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{engine}: {err}");
        let l = lines(&out);
        let mut seen = 0;
        for r in &l[..l.len() - 1] {
            let n = r["frame"].as_u64().unwrap();
            match want.get(&n) {
                Some(reason) => {
                    assert_eq!(r["verdict"], *reason, "{engine}: frame {n}: {r}");
                    assert_eq!(r["events"], serde_json::json!([]), "{engine}: {r}");
                    seen += 1;
                }
                // A frame after a dropped WRITE is out of sequence; never
                // a parser drop.
                None => assert!(
                    ["accepted", "oos", "dup", "drop_full"]
                        .contains(&r["verdict"].as_str().unwrap()),
                    "{engine}: frame {n}: {r}"
                ),
            }
        }
        assert_eq!(seen, want.len(), "{engine}: every corrupted frame reported");
        let t = &l.last().unwrap()["totals"];
        assert_eq!(t["accounted"], true, "{t}");
    }
}

#[test]
fn with_the_fcs_kept_a_bad_fcs_is_reported() {
    let dir = tmp("fcs");
    let pcap = sim(
        &dir,
        &["write", "--top", "core", "--seed", "2", "--messages", "8"],
    );
    let mut frames = read_pcap(&pcap);
    for f in frames.iter_mut() {
        let c = crc32fast::hash(f);
        f.extend_from_slice(&c.to_le_bytes());
    }
    let mac_b = mac_bytes(&mac_b(&dir));
    let victim = frames.iter().position(|f| f[..6] == mac_b[..]).unwrap();
    frames[victim][20] ^= 0x01; // the IPv4 header: only the FCS sees it first
    let fcs = dir.join("fcs.pcap");
    write_pcap(&fcs, &frames);
    let (code, out, err) = hpccnic(&[
        "rx-replay",
        "--fcs",
        "--pcap",
        fcs.to_str().unwrap(),
        "--flows",
        dir.join("run.b.toml").to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let l = lines(&out);
    assert_eq!(l[0]["frame"], victim as u64 + 1);
    assert_eq!(l[0]["verdict"], "bad_fcs", "{}", l[0]);
    assert!(l[1..l.len() - 1]
        .iter()
        .all(|r| ["accepted", "oos", "drop_full"].contains(&r["verdict"].as_str().unwrap())));
}

#[test]
fn without_a_setup_every_qp_of_the_capture_is_accepted() {
    let dir = tmp("default");
    let pcap = sim(
        &dir,
        &[
            "write",
            "--top",
            "core",
            "--seed",
            "1",
            "--messages",
            "16",
            "--max-size",
            "512",
        ],
    );
    let mac_b = mac_b(&dir);
    let (code, out, err) = hpccnic(&[
        "rx-replay",
        "--pcap",
        pcap.to_str().unwrap(),
        "--dst-mac",
        &mac_b,
    ]);
    assert_eq!(code, 0, "{err}");
    let l = lines(&out);
    let t = &l.last().unwrap()["totals"];
    assert_eq!(t["accounted"], true, "{t}");
    // The same frames, the same events as the sim's own log, up to the
    // first frame the run dropped (its buffer was full, or it was lost):
    // the replay, fed one frame at a time, accepts it, so its
    // retransmission is a duplicate here.
    let logged = lines(&std::fs::read_to_string(dir.join("run.b.jsonl")).unwrap());
    let same = logged
        .iter()
        .position(|r| r["verdict"] != "accepted")
        .unwrap_or(logged.len());
    assert!(same > 10, "{same}");
    assert_eq!(&l[..same], &logged[..same]);
    for r in &l[same..l.len() - 1] {
        assert!(
            ["accepted", "dup"].contains(&r["verdict"].as_str().unwrap()),
            "{r}"
        );
    }
}

#[test]
fn bad_options_exit_2() {
    let dir = tmp("bad");
    let toml = dir.join("bad.toml");
    std::fs::write(&toml, "mtu = 1000\n").unwrap();
    let pcap = sim(&dir, &["write", "--top", "core", "--messages", "2"]);
    for (args, msg) in [
        (vec!["--pcap", "/nonexistent.pcap"], "--pcap"),
        (
            vec![
                "--pcap",
                pcap.to_str().unwrap(),
                "--flows",
                toml.to_str().unwrap(),
            ],
            "mtu",
        ),
        (
            vec!["--pcap", pcap.to_str().unwrap(), "--dst-mac", "00:11"],
            "MAC",
        ),
        (vec!["--pcap", toml.to_str().unwrap()], "--pcap"),
    ] {
        let mut a = vec!["rx-replay"];
        a.extend(args);
        let (code, _, err) = hpccnic(&a);
        assert_eq!(code, 2, "{a:?}: {err}");
        assert!(err.contains(msg), "{a:?}: {err}");
    }
}

/// The example capture (`examples/captures/`): the test makes it there
/// with its README's command (a generated file, not kept in git), and it
/// replays to its logs on every engine.
#[test]
fn the_example_capture_is_made_and_replays() {
    let ex = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/captures");
    let readme = std::fs::read_to_string(ex.join("README.md")).unwrap();
    let args = [
        "sim",
        "mixed",
        "--top",
        "core",
        "--seed",
        "1",
        "--messages",
        "4",
        "--max-size",
        "600",
        "--flows",
        "2",
        "--loss",
        "0.1",
        "--mtu",
        "256",
    ];
    // The README gives this command.
    assert!(
        readme.contains("sim mixed --top core --seed 1 --messages 4 --max-size 600 --flows 2")
            && readme.contains("--loss 0.1 --mtu 256"),
        "examples/captures/README.md's command is not the one this test runs"
    );
    let pcap = ex.join("write_read.pcap");
    let log = ex.join("write_read");
    let mut a: Vec<&str> = args.to_vec();
    a.extend([
        "--pcap",
        pcap.to_str().unwrap(),
        "--rx-log",
        log.to_str().unwrap(),
    ]);
    let (code, out, err) = hpccnic(&a);
    assert_eq!(code, 0, "{out}{err}");
    for engine in ["golden", "verilator", "rust-hdl"] {
        for side in ["a", "b"] {
            let (code, _, err) = hpccnic(&[
                "rx-replay",
                "--engine",
                engine,
                "--pcap",
                pcap.to_str().unwrap(),
                "--flows",
                ex.join(format!("write_read.{side}.toml")).to_str().unwrap(),
                "--expect",
                ex.join(format!("write_read.{side}.jsonl"))
                    .to_str()
                    .unwrap(),
            ]);
            assert_eq!(code, 0, "{engine} {side}: {err}");
        }
    }
}

/// Issue 52's crafted attacks through `rx-replay` on each engine: frames
/// built by scapy alone (`scripts/mr_attacks.py`), the regions and the
/// flow's domain in the set-up file (`[[region]]`, `[[domain]]`). Each
/// attack (a wrong R_Key, a VA before the region, a VA + length past its
/// end and past 2^64, a WRITE to a read-only region, a READ of a
/// write-only one, another domain, a payload past the DMA length, a
/// WRITE's LAST past what its FIRST was granted) is refused and answered
/// with a NAK of its syndrome at its own PSN, with no host write and no
/// READ passed on; the valid frames between them are accepted.
#[test]
fn scapy_attacks_are_refused_on_every_engine() {
    let dir = tmp("mr_attacks");
    let (qp, psn) = (1u32, 100u32);
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/mr_attacks.py");
    let o = Command::new("python3")
        .args([script.to_str().unwrap(), &qp.to_string(), &psn.to_string()])
        .output()
        .expect("python3 (scripts/deps.sh sim installs scapy)");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let frames: Vec<(String, Vec<u8>)> = String::from_utf8(o.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            let (name, hex) = l.split_once(' ').unwrap();
            let b = (0..hex.len())
                .step_by(2)
                .map(|k| u8::from_str_radix(&hex[k..k + 2], 16).unwrap())
                .collect();
            (name.to_string(), b)
        })
        .collect();
    let pcap = dir.join("attacks.pcap");
    write_pcap(
        &pcap,
        &frames.iter().map(|f| f.1.clone()).collect::<Vec<_>>(),
    );
    // The script's regions (its doc comment); the flow in domain 1.
    let setup = dir.join("attacks.toml");
    std::fs::write(
        &setup,
        format!(
            r#"mtu = 256

[[flow]]
qp = {qp}
epsn = {psn}

[[region]]
index = 0
base = 0x10000
len = 0x1000
rkey = 0x005A
pd = 1
read = false

[[region]]
index = 1
base = 0x20000
len = 0x1000
rkey = 0x0111
pd = 1
write = false

[[region]]
index = 2
base = "0xffff_ffff_ffff_f000"
len = 0x1000
rkey = 0x0222
pd = 1

[[region]]
index = 3
base = 0x30000
len = 0x1000
rkey = 0x0333
pd = 2

[[domain]]
qp = {qp}
pd = 1
"#
        ),
    )
    .unwrap();
    let (access, invalid) = (0x62u64, 0x61u64);
    let want: Vec<(&str, Option<u64>)> = vec![
        ("valid_write", None),
        ("wrong_key", Some(access)),
        ("va_before", Some(access)),
        ("past_end", Some(access)),
        ("wraps_2_64", Some(access)),
        ("write_read_only", Some(access)),
        ("read_write_only", Some(access)),
        ("other_domain", Some(access)),
        ("past_dma_length", Some(invalid)),
        ("valid_write_2", None),
        ("last_bytes", None),
        ("valid_read", None),
        ("first_of_two", None),
        ("last_steps_outside", Some(invalid)),
        ("last_inside", None),
    ];
    assert_eq!(
        frames.iter().map(|f| f.0.as_str()).collect::<Vec<_>>(),
        want.iter().map(|w| w.0).collect::<Vec<_>>()
    );
    for engine in ["golden", "verilator", "rust-hdl"] {
        let (code, out, err) = hpccnic(&[
            "rx-replay",
            "--engine",
            engine,
            "--pcap",
            pcap.to_str().unwrap(),
            "--flows",
            setup.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{engine}: {err}");
        let l = lines(&out);
        for (r, (name, nak)) in l.iter().zip(&want) {
            let ev = r["events"].as_array().unwrap();
            let has = |e: &str| ev.iter().any(|x| x["event"] == e);
            match nak {
                Some(syn) => {
                    assert_eq!(r["verdict"], "refused", "{engine} {name}: {r}");
                    assert!(
                        !has("host_write") && !has("read_req"),
                        "{engine} {name}: {r}"
                    );
                    let a = ev.iter().find(|x| x["event"] == "ack").expect("a NAK");
                    assert_eq!(
                        a["aeth"].as_u64().unwrap() >> 24,
                        *syn,
                        "{engine} {name}: {r}"
                    );
                    let p = frames.iter().find(|f| f.0 == *name).unwrap();
                    // The BTH's PSN: bytes 9..12 of the BTH at 42.
                    let own_psn = u32::from_be_bytes([0, p.1[51], p.1[52], p.1[53]]);
                    assert_eq!(
                        a["psn"].as_u64().unwrap(),
                        own_psn as u64,
                        "{engine} {name}"
                    );
                }
                None => {
                    assert_eq!(r["verdict"], "accepted", "{engine} {name}: {r}");
                    let moved = if name.contains("read") {
                        has("read_req")
                    } else {
                        has("host_write")
                    };
                    assert!(moved, "{engine} {name}: {r}");
                }
            }
        }
        assert_eq!(l.len() - 1, want.len(), "{engine}: {out}");
        assert_eq!(l.last().unwrap()["totals"]["accounted"], true, "{engine}");
    }
}
