//! Bad invocations: every one the issue of "the tools as researchers use
//! them" lists, and the others of the same kind, exits with status 2 and
//! one line on stderr naming the argument, before any work (no summary on
//! stdout, no output file, in well under a second). Help text states
//! every option's default and range; progress goes to stderr only when it
//! is a terminal; the Wireshark dissector's constants are the spec's.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

struct Run {
    code: i32,
    out: String,
    err: String,
    took: Duration,
}

fn hpccnic(args: &[&str]) -> Run {
    let t = Instant::now();
    let o = Command::new(env!("CARGO_BIN_EXE_hpccnic"))
        .args(args)
        .stdin(Stdio::null())
        .env_remove("NIC_CLOCK_MHZ")
        .env_remove("NIC_VCD")
        .output()
        .unwrap();
    Run {
        code: o.status.code().unwrap_or(-1),
        out: String::from_utf8(o.stdout).unwrap(),
        err: String::from_utf8(o.stderr).unwrap(),
        took: t.elapsed(),
    }
}

fn tmp(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join("usage");
    std::fs::create_dir_all(&d).unwrap();
    d.join(name)
}

/// Exit status 2, nothing on stdout, one line on stderr that contains
/// every one of `names`, quickly.
fn refused(args: &[&str], names: &[&str]) {
    let r = hpccnic(args);
    let cmd = args.join(" ");
    assert_eq!(r.code, 2, "`{cmd}`: {}{}", r.out, r.err);
    assert_eq!(r.out, "", "`{cmd}` did work");
    assert_eq!(r.err.lines().count(), 1, "`{cmd}`: {}", r.err);
    assert!(r.err.starts_with("error: "), "`{cmd}`: {}", r.err);
    for n in names {
        assert!(r.err.contains(n), "`{cmd}`: no `{n}` in {}", r.err);
    }
    assert!(r.took < Duration::from_secs(2), "`{cmd}` took {:?}", r.took);
}

#[test]
fn the_issues_bad_invocations_exit_2_naming_the_argument() {
    // Flow counts beyond the 16-bit flow id (was: abort, 137 GB
    // allocation; accepted).
    refused(
        &["cc-replay", "--flows", "2147483648"],
        &["--flows", "16 bits"],
    );
    refused(&["cc-replay", "--flows", "131072"], &["--flows", "65536"]);
    // A run that would take ~50 GB (was: 647 s, then the OOM killer).
    refused(
        &[
            "sim",
            "write",
            "--messages",
            "4096",
            "--max-size",
            "1048576",
        ],
        &["--messages", "--max-size", "--mem-limit-mib"],
    );
    // A delay that wrapped a u64 (was: a short "byte-exact" run).
    refused(
        &["sim", "write", "--delay", "18446744073709551615"],
        &["--delay", "100000"],
    );
    // An output that cannot be written, found before the run (was: after).
    refused(
        &["sim", "write", "--pcap", "/proc/no/such/x.pcap"],
        &["--pcap", "/proc/no/such/x.pcap"],
    );
}

#[test]
fn other_bad_values_exit_2_naming_the_argument() {
    for (args, names) in [
        (
            &[
                "verilog",
                "--skip",
                "no_such_top",
                "--out-dir",
                "/nonexistent",
            ][..],
            &["--skip", "no_such_top"][..],
        ),
        (
            &["verilog", "--top", "divider32", "--skip", "divider32"],
            &["--skip"],
        ),
        (&["sim", "send"], &["'send'", "write, read, mixed"]),
        (&["sim"], &["<SCENARIO>"]),
        (&["sim", "write", "--mtu", "1000"], &["--mtu", "MTU"]),
        (&["sim", "write", "--flows", "7"], &["--flows", "1..=6"]),
        (&["sim", "write", "--flows", "0"], &["--flows"]),
        (&["sim", "write", "--messages", "0"], &["--messages"]),
        (
            &["sim", "write", "--messages", "65537"],
            &["--messages", "65536"],
        ),
        (&["sim", "write", "--max-size", "1048577"], &["--max-size"]),
        (&["sim", "write", "--max-size", "-1"], &["--max-size"]),
        (&["sim", "write", "--delay", "100001"], &["--delay"]),
        (&["sim", "write", "--loss", "1"], &["--loss", "[0, 1)"]),
        (&["sim", "write", "--loss", "nan"], &["--loss"]),
        (&["sim", "write", "--loss", "-0.1"], &["--loss"]),
        (&["sim", "write", "--clock-mhz", "0"], &["--clock-mhz"]),
        (&["sim", "write", "--clock-mhz", "inf"], &["--clock-mhz"]),
        (
            &["sim", "write", "--mem-limit-mib", "0"],
            &["--mem-limit-mib"],
        ),
        (&["sim", "write", "--seed", "-1"], &["--seed"]),
        (&["sim", "write", "--vcd", "x.vcd"], &["--vcd"]),
        (&["sim", "write", "--bogus"], &["--bogus"]),
        (&["cc-replay", "--flows", "1000"], &["--flows"]),
        (&["cc-replay", "--int-multi", "3"], &["--int-multi"]),
        (&["cc-replay", "--eta", "1"], &["--eta"]),
        (&["cc-replay", "--base-rtt-ns", "10"], &["--base-rtt-ns"]),
        (&["cc-replay", "--max-stage", "8"], &["--max-stage"]),
        (&["cc-replay", "--w-min-bytes", "0"], &["--w-min-bytes"]),
        (&["cc-replay", "--w-ai-bytes", "-1"], &["--w-ai-bytes"]),
        (
            &["cc-replay", "--line-rate-gbps", "nan"],
            &["--line-rate-gbps"],
        ),
        (&["cc-replay", "--engine", "modelsim"], &["--engine"]),
        (
            &["cc-replay", "--model", "rtl", "--flows", "2048"],
            &["--model rtl", "2048"],
        ),
        (
            &["cc-replay", "/nonexistent.jsonl"],
            &["/nonexistent.jsonl"],
        ),
        (
            &["cc-replay", "--config", "/nonexistent.toml"],
            &["--config"],
        ),
        (&["verilog", "--top", "nope"], &["--top", "nope"]),
        (
            &["verilog", "--top", "divider32", "--out-dir", "/dev/null/v"],
            &["--out-dir"],
        ),
    ] {
        refused(args, names);
    }
}

#[test]
fn bad_config_file_values_are_named() {
    let p = tmp("bad.toml");
    std::fs::write(&p, "flows = 131072\n").unwrap();
    refused(
        &["cc-replay", "--config", p.to_str().unwrap()],
        &["--config", "flows", "65536"],
    );
    std::fs::write(&p, "eta = 1.5\n").unwrap();
    refused(
        &["cc-replay", "--config", p.to_str().unwrap()],
        &["--config", "eta"],
    );
}

/// The memory limit can be raised: a run above the default limit's
/// estimate is refused at a low limit and runs at a higher one.
#[test]
fn the_memory_limit_can_be_raised() {
    let args = ["sim", "write", "--messages", "16", "--max-size", "65536"];
    let mut low = args.to_vec();
    low.extend(["--mem-limit-mib", "1"]);
    refused(&low, &["--mem-limit-mib 1"]);
    let mut high = args.to_vec();
    high.extend(["--mem-limit-mib", "100"]);
    let r = hpccnic(&high);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    assert!(r.out.contains("byte-exact: yes"), "{}", r.out);
}

/// The VCD files are created before an RTL run: a directory that cannot
/// be written fails at once, before the engine is built.
#[test]
fn a_vcd_path_that_cannot_be_written_fails_first() {
    refused(
        &[
            "sim",
            "write",
            "--engine",
            "rust-hdl",
            "--vcd",
            "/proc/no/such/dir/x.vcd",
        ],
        &["--vcd"],
    );
}

/// An option that does not apply to the chosen model: a warning, and the
/// run goes on.
#[test]
fn options_that_do_not_apply_are_warned_about() {
    let input = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../examples/cc-replay/two-hops.jsonl"
    );
    let plain = hpccnic(&["cc-replay", input]);
    assert_eq!(plain.code, 0, "{}", plain.err);
    assert_eq!(plain.err, "");
    for model in ["golden", "f64"] {
        let r = hpccnic(&["cc-replay", "--model", model, "--engine", "rust-hdl", input]);
        assert_eq!(r.code, 0, "{}", r.err);
        assert_eq!(
            r.err.trim(),
            "warning: --engine applies to --model rtl only; ignored"
        );
    }
    let o = Command::new(env!("CARGO_BIN_EXE_hpccnic"))
        .args(["cc-replay", input])
        .env("NIC_VCD", "1")
        .output()
        .unwrap();
    assert!(o.status.success());
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("warning: NIC_VCD applies to --model rtl only"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(o.stdout, plain.out.as_bytes());
    // `sim`: the host interface's options with `--top core`, `--reset-kind`
    // with no reset, and `NIC_VCD` (the tests' variable).
    let o = Command::new(env!("CARGO_BIN_EXE_hpccnic"))
        .args([
            "sim",
            "write",
            "--top",
            "core",
            "--messages",
            "4",
            "--sq-log",
            "3",
            "--dma-err",
            "0.1",
            "--reset-kind",
            "soft",
        ])
        .env("NIC_VCD", "1")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    for w in [
        "warning: --sq-log applies to --top nic and nic-10g only",
        "warning: --dma-err applies to --top nic and nic-10g only",
        "warning: --reset-kind applies with --reset-at only",
        "warning: NIC_VCD is read by the tests only",
    ] {
        assert!(err.contains(w), "no `{w}`: {err}");
    }
    // Defaults are not warned about.
    let r = hpccnic(&["sim", "write", "--top", "core", "--messages", "4"]);
    assert_eq!((r.code, r.err.as_str()), (0, ""));
}

/// `sim`'s output files are created before the run, each with its missing
/// directories; one that cannot be created fails first (exit 2, nothing
/// run).
#[test]
fn sim_outputs_are_created_first_with_their_directories() {
    let dir = tmp("sim-outputs");
    let _ = std::fs::remove_dir_all(&dir);
    let pcap = dir.join("p/q/x.pcap");
    let log = dir.join("r/s/y");
    let r = hpccnic(&[
        "sim",
        "write",
        "--top",
        "core",
        "--messages",
        "4",
        "--pcap",
        pcap.to_str().unwrap(),
        "--rx-log",
        log.to_str().unwrap(),
    ]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(pcap.metadata().is_ok_and(|m| m.len() > 24));
    for f in ["y.a.jsonl", "y.a.toml", "y.b.jsonl", "y.b.toml"] {
        assert!(
            dir.join("r/s")
                .join(f)
                .metadata()
                .is_ok_and(|m| m.len() > 0),
            "{f}"
        );
    }
    // The cc line says why the CC does not act in `sim`.
    assert!(r.out.contains("dropped without hops"), "{}", r.out);
    assert!(
        r.out.contains("no switch to stamp telemetry hops"),
        "{}",
        r.out
    );
    for (flag, path) in [
        ("--rx-log", "/proc/no/such/y"),
        ("--pcap", "/proc/no/such/x.pcap"),
    ] {
        let r = hpccnic(&["sim", "write", "--top", "core", flag, path]);
        assert_eq!(r.code, 2, "{flag}: {}", r.err);
        assert!(r.err.contains(flag), "{}", r.err);
        assert!(r.out.is_empty(), "nothing ran: {}", r.out);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

// ---- Help ----------------------------------------------------------------

/// The options of a `--help` text with their descriptions.
fn options(help: &str) -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = Vec::new();
    for l in help.lines() {
        let t = l.trim_start();
        if t.starts_with("--") || (t.starts_with('-') && t.chars().nth(2) == Some(',')) {
            let name = t
                .split_whitespace()
                .find(|w| w.starts_with("--"))
                .unwrap()
                .trim_end_matches(',')
                .to_string();
            v.push((name, t.to_string()));
        } else if let Some(last) = v.last_mut() {
            if t.is_empty() {
                continue;
            }
            last.1.push(' ');
            last.1.push_str(t);
        }
    }
    v
}

#[test]
fn help_states_every_default_and_range() {
    for cmd in ["sim", "cc-replay", "netsim"] {
        let r = hpccnic(&[cmd, "--help"]);
        assert_eq!(r.code, 0);
        let opts = options(&r.out);
        assert!(opts.len() >= 10, "{cmd}: {opts:?}");
        for (name, text) in &opts {
            // (`--scenario` is required.)
            if matches!(name.as_str(), "--help" | "--echo-input" | "--scenario") {
                continue;
            }
            let said = text
                .split_whitespace()
                .skip_while(|w| w.starts_with('-') || w.starts_with('<'))
                .collect::<Vec<_>>()
                .join(" ");
            assert!(
                said.len() > 10 && !said.starts_with("Possible values") && !said.starts_with('['),
                "{cmd} {name}: not described: {text}"
            );
            assert!(
                !(text.contains("(default") && text.contains("[default:")),
                "{cmd} {name}: the default stated twice: {text}"
            );
            assert!(
                text.contains("default"),
                "{cmd} {name}: no default stated: {text}"
            );
        }
    }
    let sim = hpccnic(&["sim", "--help"]).out;
    assert!(!sim.contains("(golden models)"), "{sim}");
    for range in [
        "1 ..= 65536",
        "1 ..= 2^20",
        "1 ..= 6",
        "0 ..= 100000",
        "[0, 1)",
        "[1, 1000]",
        "256, 512 or 1024",
        "- write:",
        "- mixed:",
        "- newint:",
        "- probe:",
    ] {
        assert!(sim.contains(range), "sim --help: no `{range}`");
    }
    let seed = options(&sim)
        .into_iter()
        .find(|(n, _)| n == "--seed")
        .unwrap();
    assert!(seed.1.len() > 40, "--seed is described: {}", seed.1);
    let netsim = hpccnic(&["netsim", "--help"]).out;
    let seed = options(&netsim)
        .into_iter()
        .find(|(n, _)| n == "--seed")
        .unwrap();
    assert!(seed.1.len() > 40, "netsim --seed is described: {}", seed.1);
    let top = hpccnic(&["--help"]).out;
    assert!(!top.contains("(golden models)"), "{top}");
    let cc = hpccnic(&["cc-replay", "--help"]).out;
    for s in [
        "Supported hop rates: 25, 50, 100, 200, 400 Gb/s",
        "Required: \"flow\"",
        "Optional: \"op\"",
        "rate_unsupported",
        "2..=65536",
        "[default: golden]",
    ] {
        assert!(cc.contains(s), "cc-replay --help: no `{s}`\n{cc}");
    }
}

// ---- Progress --------------------------------------------------------------

/// Progress goes to stderr only when stderr is a terminal: a piped run
/// long enough to report progress writes nothing there; the same run on a
/// pseudo-terminal (`script`) shows the bar.
#[test]
fn progress_only_on_a_terminal() {
    // The core (fast): the progress line is the same for either top.
    let r = hpccnic(&["sim", "write", "--top", "core", "--messages", "300"]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert_eq!(r.err, "", "no progress on a pipe");
    let bin = env!("CARGO_BIN_EXE_hpccnic");
    let o = Command::new("script")
        .args([
            "-qec",
            &format!("{bin} sim write --top core --messages 300 > /dev/null"),
            "/dev/null",
        ])
        .env("TERM", "xterm")
        .stdin(Stdio::null())
        .output()
        .expect("`script` (util-linux) runs the command on a terminal");
    let shown = String::from_utf8_lossy(&o.stdout);
    assert!(shown.contains("/600 work requests"), "{shown:?}");
}

// ---- The dissector's constants ---------------------------------------------

/// `tools/wireshark/hpcc.lua` holds the wire constants the spec and the
/// golden encoders give (`hpccnic wireshark-constants --check`); a changed
/// constant fails here until the block is regenerated.
#[test]
fn the_dissector_constants_are_the_specs() {
    let lua = concat!(env!("CARGO_MANIFEST_DIR"), "/../tools/wireshark/hpcc.lua");
    let r = hpccnic(&["wireshark-constants", "--check", lua]);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    // The check can fail: a drifted copy is caught.
    let text = std::fs::read_to_string(lua).unwrap();
    let drifted = text.replace("op_probe = 0xC0,", "op_probe = 0xC2,");
    assert_ne!(drifted, text);
    let p = tmp("drifted.lua");
    std::fs::write(&p, drifted).unwrap();
    let r = hpccnic(&["wireshark-constants", "--check", p.to_str().unwrap()]);
    assert_eq!(r.code, 1, "{}{}", r.out, r.err);
    assert!(r.err.contains("--update"), "{}", r.err);
    // --update puts it back.
    let r = hpccnic(&["wireshark-constants", "--update", p.to_str().unwrap()]);
    assert_eq!(r.code, 0);
    assert_eq!(std::fs::read_to_string(&p).unwrap(), text);
}

/// Piped into `head`, the output stops quietly: no panic on the closed
/// pipe. `cc-loop` prints its summary, then draws the plot for about a
/// second before its next line, so `head -1` has exited by then (before
/// the fix this panicked with exit status 101).
#[test]
fn a_closed_pipe_ends_quietly() {
    let bin = env!("CARGO_BIN_EXE_hpccnic");
    let svg = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("pipe.svg");
    let o = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!(
            "'{bin}' cc-loop --messages 1 --svg '{}' | head -1",
            svg.display()
        ))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!err.contains("panicked"), "{err}");
    assert!(String::from_utf8_lossy(&o.stdout).starts_with("cc-loop newack"));
}

/// Every command a user starts with shows examples, and every example is
/// current: its command exists, each of its options is one of that
/// command's, and each file it names under `examples/` is there.
#[test]
fn help_examples_are_current() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    for cmd in ["", "sim", "netsim", "cc-replay", "rx-replay"] {
        let args: Vec<&str> = [cmd, "--help"]
            .into_iter()
            .filter(|a| !a.is_empty())
            .collect();
        let help = hpccnic(&args).out;
        let (_, examples) = help
            .split_once("Examples:")
            .unwrap_or_else(|| panic!("`hpccnic {cmd} --help`: no examples"));
        let lines: Vec<&str> = examples
            .lines()
            .filter_map(|l| l.trim_start().strip_prefix("hpccnic "))
            .collect();
        assert!(lines.len() >= 2, "{cmd}: {examples}");
        for l in lines {
            let words: Vec<&str> = l.split_whitespace().collect();
            let sub = hpccnic(&[words[0], "--help"]);
            assert_eq!(sub.code, 0, "`hpccnic {l}`: no command {}", words[0]);
            let known: Vec<String> = options(&sub.out).into_iter().map(|o| o.0).collect();
            for w in &words[1..] {
                if w.starts_with("--") {
                    assert!(known.iter().any(|k| k == w), "`hpccnic {l}`: no option {w}");
                }
                if w.starts_with("examples/") {
                    assert!(root.join(w).exists(), "`hpccnic {l}`: no file {w}");
                }
            }
        }
    }
}
