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
    c.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
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

/// The README's first example: clean input, exit status 0, one output line
/// per input line, the same on every model and engine.
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
    // and with NIC_VCD writes its waveforms and their GTKWave save file.
    let vcd_dir = std::env::temp_dir().join(format!("cc-replay-vcd-{}", std::process::id()));
    for (engine, file) in [("verilator", "verilator"), ("rust-hdl", "rusthdl")] {
        let (code, rtl, err) = replay_env(
            &["--model", "rtl", "--engine", engine, "--config", CONFIG],
            &input,
            &[("NIC_VCD", vcd_dir.to_str().unwrap())],
        );
        assert_eq!(code, 0, "{err}");
        assert_eq!(rtl, golden, "{engine}");
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

/// The README's bad-input example: each malformed line is named on stderr
/// and skipped, the others are replayed, and the exit status is 1.
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
