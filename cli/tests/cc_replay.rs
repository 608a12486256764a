//! `hpccnic cc-replay` end to end: the sample trace through every model.

use std::io::Write;
use std::process::{Command, Stdio};

fn replay(args: &[&str], input: &str) -> (i32, String, String) {
    let mut c = Command::new(env!("CARGO_BIN_EXE_hpccnic"))
        .arg("cc-replay")
        .args(args)
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

fn sample() -> String {
    std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../examples/cc-replay/two-hops.jsonl"
    ))
    .unwrap()
}

const CONFIG: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../examples/cc-replay/params.toml"
);

#[test]
fn models_agree_and_bad_lines_are_named() {
    let input = sample();
    let (code_g, golden, err) = replay(&["--model", "golden", "--config", CONFIG], &input);
    assert_eq!(code_g, 1, "a rejected line makes the exit status 1");
    assert!(err.contains("line 7: rejected"), "{err}");
    let lines: Vec<serde_json::Value> = golden
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), input.lines().count() - 1);
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
    // The RTL on both engines prints exactly what the golden model prints.
    for engine in ["verilator", "rust-hdl"] {
        let (code, rtl, _) = replay(
            &["--model", "rtl", "--engine", engine, "--config", CONFIG],
            &input,
        );
        assert_eq!(code, 1);
        assert_eq!(rtl, golden, "{engine}");
    }
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
