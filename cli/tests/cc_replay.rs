//! `hpccnic cc-replay` end to end: the sample trace through every model,
//! and the bad-input example.

use std::io::Write;
use std::process::{Command, Stdio};

fn replay(args: &[&str], input: &str) -> (i32, String, String) {
    replay_env(args, input, &[])
}

fn replay_env(args: &[&str], input: &str, env: &[(&str, &str)]) -> (i32, String, String) {
    let mut c = Command::new(env!("CARGO_BIN_EXE_hpccnic"))
        .arg("cc-replay")
        .args(args)
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A refused option exits before reading its input: a closed pipe is
    // then the child's answer, not a test failure.
    if let Err(e) = c.stdin.take().unwrap().write_all(input.as_bytes()) {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
    }
    let o = c.wait_with_output().unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8(o.stdout).unwrap(),
        String::from_utf8(o.stderr).unwrap(),
    )
}

fn example(name: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/../examples/cc-replay/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

fn sample() -> String {
    example("two-hops.jsonl")
}

const CONFIG: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../examples/cc-replay/params.toml"
);

/// The first example of `docs/cc.md` (`cc-replay`): clean input, exit
/// status 0, one output line per input line, the same on every model and
/// engine.
#[test]
fn models_agree() {
    let input = sample();
    let (code_g, golden, err) = replay(&["--model", "golden", "--config", CONFIG], &input);
    assert_eq!(code_g, 0, "the example input is clean: {err}");
    assert!(err.is_empty(), "{err}");
    let lines: Vec<serde_json::Value> = golden
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), input.lines().count());
    assert!(lines.iter().any(|l| l["status"] == "drop_rate"));
    assert!(lines.iter().any(|l| l["updated_wc"] == true));
    for k in [
        "flow",
        "u",
        "window_bytes",
        "rate_gbps",
        "inc_stage",
        "updated_wc",
    ] {
        assert!(lines[1].get(k).is_some(), "missing {k}");
    }
    // The RTL on both engines prints exactly what the golden model prints,
    // and with NIC_VCD writes its waveforms and their GTKWave save file
    // (on rust-hdl: on Verilator a VCD needs a model built with --trace,
    // a second build of the CC beside the one the block tests share; each
    // engine's VCD and save file are checked in
    // testbench/tests/waveforms.rs).
    let vcd_dir = std::env::temp_dir().join(format!("cc-replay-vcd-{}", std::process::id()));
    for (engine, file) in [("verilator", None), ("rust-hdl", Some("rusthdl"))] {
        let env: &[(&str, &str)] = match file {
            Some(_) => &[("NIC_VCD", vcd_dir.to_str().unwrap())],
            None => &[],
        };
        let (code, rtl, err) = replay_env(
            &["--model", "rtl", "--engine", engine, "--config", CONFIG],
            &input,
            env,
        );
        assert_eq!(code, 0, "{err}");
        assert_eq!(rtl, golden, "{engine}");
        let Some(file) = file else { continue };
        let vcd = vcd_dir.join(format!("cc_replay.{file}.vcd"));
        let gtkw = std::fs::read_to_string(vcd.with_extension("gtkw"))
            .unwrap_or_else(|e| panic!("{engine}: no .gtkw next to the VCD: {e}"));
        let abs = std::fs::canonicalize(&vcd).unwrap();
        assert!(
            gtkw.contains(&format!("[dumpfile] \"{}\"", abs.display())),
            "{gtkw}"
        );
    }
    std::fs::remove_dir_all(&vcd_dir).ok();
    // The f64 reference is within 0.1 % on every window.
    let (_, f64_out, _) = replay(&["--model", "f64", "--config", CONFIG], &input);
    for (a, b) in f64_out.lines().zip(golden.lines()) {
        let a: serde_json::Value = serde_json::from_str(a).unwrap();
        let b: serde_json::Value = serde_json::from_str(b).unwrap();
        assert_eq!(a["status"], b["status"]);
        let (wa, wb) = (
            a["window_bytes"].as_f64().unwrap(),
            b["window_bytes"].as_f64().unwrap(),
        );
        if wa > 0.0 {
            assert!(((wb - wa) / wa).abs() < 1e-3, "{a} vs {b}");
        }
    }
}

/// The bad-input example of `docs/cc.md`: each malformed line is named on
/// stderr and skipped, the others are replayed, and the exit status is 1.
#[test]
fn bad_lines_are_named_and_skipped() {
    let input = example("bad-lines.jsonl");
    let (code, out, err) = replay(&["--model", "golden", "--config", CONFIG], &input);
    assert_eq!(code, 1, "a rejected line makes the exit status 1");
    for l in [
        "cc-replay: line 2: rejected: missing field `tx_bytes`",
        "cc-replay: line 4: rejected: unknown op `reset`",
        "cc-replay: line 5: rejected: EOF while parsing",
        "cc-replay: 3 line(s) rejected",
    ] {
        assert!(err.contains(l), "{l}\n{err}");
    }
    assert_eq!(err.lines().count(), 4, "{err}");
    // The good lines (1 and 3) give what they give on their own.
    let good: String = input
        .lines()
        .enumerate()
        .filter(|(n, _)| [0, 2].contains(n))
        .map(|(_, l)| format!("{l}\n"))
        .collect();
    let (code_good, alone, _) = replay(&["--model", "golden", "--config", CONFIG], &good);
    assert_eq!(code_good, 0);
    assert_eq!(out.lines().count(), 2, "{out}");
    // The same results; each carries its own input line number (1 and 3
    // of the whole input, 1 and 2 of the good lines alone).
    let (out, lines) = without_line(&out);
    let (alone, lines_alone) = without_line(&alone);
    assert_eq!(lines, [1, 3]);
    assert_eq!(lines_alone, [1, 2]);
    assert_eq!(out, alone);
}

/// The output lines without their "line" key, and the line numbers.
fn without_line(out: &str) -> (Vec<serde_json::Value>, Vec<u64>) {
    out.lines()
        .map(|l| {
            let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
            let n = v
                .as_object_mut()
                .unwrap()
                .remove("line")
                .and_then(|n| n.as_u64())
                .expect("every output line has its input line number");
            (v, n)
        })
        .unzip()
}

#[test]
fn flags_override_config_and_bad_params_are_refused() {
    let input = sample();
    let (_, base, _) = replay(&["--model", "golden", "--config", CONFIG], &input);
    let (_, rx, _) = replay(
        &[
            "--model",
            "golden",
            "--config",
            CONFIG,
            "--variant",
            "receiver",
            "--eta",
            "0.9",
        ],
        &input,
    );
    assert_ne!(base, rx);
    let (code, _, err) = replay(&["--int-multi", "3"], &input);
    assert_eq!(code, 2);
    assert!(err.contains("int_multi"), "{err}");
}

fn json_lines(out: &str) -> Vec<serde_json::Value> {
    out.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// FILE and stdin give the same output; every output line carries its
/// input line number and timestamp (now_ns, else the first hop's ts_ns),
/// so outputs join back to inputs even after a rejected line.
#[test]
fn file_or_stdin_and_every_output_names_its_input() {
    let input = sample();
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../examples/cc-replay/two-hops.jsonl"
    );
    for model in ["golden", "f64"] {
        let (c1, from_stdin, _) = replay(&["--model", model, "--config", CONFIG], &input);
        let (c2, from_file, _) = replay(&["--model", model, "--config", CONFIG, path], "");
        let (c3, dash, _) = replay(&["--model", model, "--config", CONFIG, "-"], &input);
        assert_eq!((c1, c2, c3), (0, 0, 0));
        assert_eq!(from_stdin, from_file, "{model}");
        assert_eq!(from_stdin, dash, "{model}");
    }
    // With a blank line and a rejected line in front, each output still
    // names its own input line and timestamp.
    let shifted = format!("\n{{\"flow\": 0}}\n{input}");
    let (code, out, err) = replay(&["--config", CONFIG], &shifted);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("line 2: rejected: missing field `hops`"),
        "{err}"
    );
    let outs = json_lines(&out);
    let ins: Vec<serde_json::Value> = shifted
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_default())
        .collect();
    assert_eq!(outs.len(), input.lines().count());
    for o in &outs {
        let n = o["line"].as_u64().unwrap() as usize;
        let i = &ins[n - 1];
        assert_eq!(o["flow"], i["flow"], "line {n}");
        assert_eq!(o["ts_ns"], i["hops"][0]["ts_ns"], "line {n}");
    }
    // --echo-input carries the whole input object.
    let (_, echoed, _) = replay(&["--config", CONFIG, "--echo-input"], &input);
    for (o, l) in json_lines(&echoed).iter().zip(input.lines()) {
        let i: serde_json::Value = serde_json::from_str(l).unwrap();
        assert_eq!(o["input"], i);
    }
}

/// Missing required fields are rejected with their name; the receiver
/// variant does not need seq / snd_nxt; now_ns sets the timestamp.
#[test]
fn required_fields_are_required() {
    let hop = r#"[{"ts_ns": 1000, "tx_bytes": 1, "qlen_bytes": 0, "rate_gbps": 100}]"#;
    let input = [
        format!(r#"{{"flow": 1, "snd_nxt": 5, "hops": {hop}}}"#),
        format!(r#"{{"flow": 1, "seq": 5, "hops": {hop}}}"#),
        r#"{"flow": 1, "seq": 5, "snd_nxt": 9}"#.to_string(),
        format!(r#"{{"flow": 1, "seq": 5, "snd_nxt": 9, "hops": {hop}}}"#),
        r#"{"flow": 1, "op": "destroy"}"#.to_string(),
    ]
    .join("\n");
    let (code, out, err) = replay(&["--config", CONFIG], &input);
    assert_eq!(code, 1);
    for l in [
        "line 1: rejected: missing field `seq`",
        "line 2: rejected: missing field `snd_nxt`",
        "line 3: rejected: missing field `hops`",
        "3 line(s) rejected",
    ] {
        assert!(err.contains(l), "{l}\n{err}");
    }
    let outs = json_lines(&out);
    assert_eq!(outs.len(), 2);
    assert_eq!(
        (outs[0]["line"].as_u64(), outs[1]["line"].as_u64()),
        (Some(4), Some(5))
    );
    assert_eq!(outs[1]["status"], "destroyed");
    assert!(outs[1]["ts_ns"].is_null());
    // Receiver: seq and snd_nxt are optional; now_ns is the timestamp.
    let rx = format!(
        "{{\"flow\": 1, \"hops\": {hop}}}\n{{\"flow\": 1, \"now_ns\": 7000, \"hops\": {hop}}}"
    );
    let (code, out, err) = replay(&["--config", CONFIG, "--variant", "receiver"], &rx);
    assert_eq!(code, 0, "{err}");
    let outs = json_lines(&out);
    assert_eq!(outs[0]["ts_ns"], 1000);
    assert_eq!(outs[1]["ts_ns"], 7000);
}

/// A hop rate without a code is flagged `rate_unsupported` on the event's
/// output (whose status is the hardware's drop_rate); supported rates
/// never are.
#[test]
fn unsupported_rates_are_flagged() {
    let line = |rate: f64| {
        format!(
            r#"{{"flow": 2, "seq": 1, "snd_nxt": 2, "hops": [{{"ts_ns": 10, "tx_bytes": 0, "qlen_bytes": 0, "rate_gbps": 100}}, {{"ts_ns": 10, "tx_bytes": 0, "qlen_bytes": 0, "rate_gbps": {rate}}}]}}"#
        )
    };
    for rate in [25.0, 50.0, 100.0, 200.0, 400.0, 40.0, 10.0, 800.0, 100.5] {
        for model in ["golden", "f64"] {
            let (code, out, err) = replay(&["--model", model], &line(rate));
            assert_eq!(code, 0, "{err}");
            let o = &json_lines(&out)[0];
            let flagged = o["flags"]
                .as_array()
                .unwrap()
                .iter()
                .any(|f| f == "rate_unsupported");
            let supported = [25.0, 50.0, 100.0, 200.0, 400.0].contains(&rate);
            assert_eq!(flagged, !supported, "{rate} Gb/s: {o}");
            if !supported {
                assert_eq!(o["status"], "drop_rate", "{o}");
            }
        }
    }
}

/// Telemetry with a saturated qlen and with tx bytes going back (the
/// golden model's documented rules: u′ saturates at 256 − 2^-24, UQ8.24;
/// bytes going back give a tx term of 0). The f64 reference must apply
/// the same rules so that the two agree within `docs/cc.md`'s bound (every
/// W within 0.1 %).
///
#[test]
fn f64_and_golden_agree_on_anomalous_telemetry() {
    let input = example("anomalous.jsonl");
    let (cg, golden, eg) = replay(&["--model", "golden", "--config", CONFIG], &input);
    let (cf, f64_out, ef) = replay(&["--model", "f64", "--config", CONFIG], &input);
    assert_eq!((cg, cf), (0, 0), "{eg}{ef}");
    let (g, f) = (json_lines(&golden), json_lines(&f64_out));
    assert_eq!(g.len(), f.len());
    let flagged = |v: &serde_json::Value, name: &str| {
        v["flags"].as_array().unwrap().iter().any(|x| x == name)
    };
    assert!(g.iter().any(|v| flagged(v, "qlen_sat")));
    assert!(g.iter().any(|v| flagged(v, "bytes_back")));
    for (a, b) in g.iter().zip(&f) {
        assert_eq!(a["status"], b["status"]);
        assert_eq!(a["flags"], b["flags"]);
        let (wg, wf) = (
            a["window_bytes"].as_f64().unwrap(),
            b["window_bytes"].as_f64().unwrap(),
        );
        assert!(
            ((wg - wf) / wf).abs() < 1e-3,
            "line {}: golden {a} f64 {b}",
            a["line"]
        );
    }
}

/// Runs `cc-replay` with `stdin`, killing it after `secs`: (exit code, or
/// `None` if it had to be killed; its stderr's length and first line).
fn replay_bounded(args: &[&str], stdin: Stdio, secs: u64) -> (Option<i32>, usize, String) {
    use std::io::Read;
    let mut c = Command::new(env!("CARGO_BIN_EXE_hpccnic"))
        .arg("cc-replay")
        .args(args)
        .stdin(stdin)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Read stderr on a thread so that a child writing without end cannot
    // block on a full pipe; keep only the count and the first line.
    let mut err = c.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let (mut n, mut head, mut buf) = (0usize, Vec::new(), [0u8; 8192]);
        while let Ok(k) = err.read(&mut buf) {
            if k == 0 {
                break;
            }
            if head.len() < 4096 {
                head.extend_from_slice(&buf[..k]);
            }
            n += k;
        }
        (
            n,
            String::from_utf8_lossy(&head)
                .lines()
                .next()
                .unwrap_or("")
                .to_string(),
        )
    });
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(secs);
    let code = loop {
        if let Some(s) = c.try_wait().unwrap() {
            break s.code();
        }
        if std::time::Instant::now() > deadline {
            let _ = c.kill();
            let _ = c.wait();
            break None;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    let (n, first) = reader.join().unwrap();
    (code, n, first)
}

#[test]
fn a_directory_as_input_is_refused_not_read_for_ever() {
    // Reading a directory fails on every call (EISDIR): the replay once
    // named it and went on to the next "line", for ever.
    let dir = std::env::temp_dir();
    let dir_s = dir.to_str().unwrap();
    let (code, n, first) = replay_bounded(&[dir_s], Stdio::null(), 20);
    assert_eq!(
        code,
        Some(2),
        "FILE = a directory: exit {code:?}, {n} bytes of stderr: {first}"
    );
    assert!(first.contains(dir_s), "{first}");
    assert!(n < 1000, "{n} bytes of stderr");
    let stdin = Stdio::from(std::fs::File::open(&dir).unwrap());
    let (code, n, first) = replay_bounded(&[], stdin, 20);
    assert_eq!(
        code,
        Some(2),
        "stdin = a directory: exit {code:?}, {n} bytes of stderr: {first}"
    );
    assert!(first.contains("cannot read"), "{first}");
    assert!(n < 1000, "{n} bytes of stderr");
}
