//! `nic-bench`: the benchmarks behind `make bench`. Runs the blocks'
//! figures (`nic_testbench::bench`: engine speeds, latency and II of the
//! arithmetic, the RoCE pipelines, the scheduler, DCQCN) and the
//! environment's (`nic_netsim::bench`: the CC loops, the core and the
//! whole NIC, line rate), prints a table and merges the figures into a flat
//! JSON (`build/bench.json`, beside `make synth`'s), each figure's
//! commit under the key `_commit` (figure → commit, `-dirty` when the
//! code differed from it), for the tables `make figures` makes.
//!
//! `cargo run --release -p nic-testbench --bin nic-bench -- [--json F] [--group G]…`
//! Exit status 2 on a bad option or an output that cannot be written.

use clap::Parser;
use std::path::PathBuf;

/// Run the benchmarks: print a table and write a flat JSON of figures.
#[derive(Parser)]
#[command(name = "nic-bench")]
struct Args {
    /// Where to write the figures (merged with what is already there,
    /// e.g. the synthesis figures of `make synth`).
    #[arg(long, default_value = "build/bench.json")]
    json: PathBuf,
    /// Run only this group of the environment's figures (repeat for
    /// more): cc-loop, dcqcn-loop, core, core-engines, nic, nic-engines,
    /// line-rate. Default: every figure, the blocks' too.
    #[arg(long, value_name = "NAME")]
    group: Vec<String>,
}

fn main() {
    nic_engines::on_large_stack(run)
}

fn run() {
    let a = match Args::try_parse() {
        Ok(a) => a,
        Err(e) if !e.use_stderr() => e.exit(),
        Err(e) => {
            eprintln!("{}", e.to_string().lines().next().unwrap_or("bad option"));
            std::process::exit(2);
        }
    };
    // The commit the figures are measured on: the code as the run starts.
    let stamp = commit();
    // The output before the run (it takes minutes).
    if let Err(e) = open_json(&a.json) {
        eprintln!("error: {e}");
        std::process::exit(2);
    }
    let figs = if a.group.is_empty() {
        let mut figs = nic_testbench::bench::run_all();
        figs.extend(nic_netsim::bench::run_all());
        figs
    } else {
        match nic_netsim::bench::run_groups(&a.group) {
            Ok(figs) => figs,
            Err(e) => {
                eprintln!("error: --group: {e}");
                std::process::exit(2);
            }
        }
    };
    let mut all: serde_json::Map<String, serde_json::Value> = std::fs::read_to_string(&a.json)
        .ok()
        .and_then(|s| serde_json::from_str(&s).ok())
        .unwrap_or_default();
    // Each figure's commit, beside it under `_commit`, so that a table
    // made from the file (`scripts/figures.py`) names it per row.
    let mut commits = all
        .remove(COMMITS)
        .and_then(|c| c.as_object().cloned())
        .unwrap_or_default();
    println!("{:44} {:>16}", "figure", "value");
    for (k, v) in &figs {
        println!("{:44} {:>16}", k, v);
        all.insert(k.clone(), serde_json::json!(v));
        commits.insert(k.clone(), serde_json::json!(stamp));
    }
    all.insert(COMMITS.into(), serde_json::Value::Object(commits));
    std::fs::write(&a.json, serde_json::to_string_pretty(&all).unwrap() + "\n")
        .expect("write bench JSON");
    println!("wrote {}", a.json.display());
}

/// The key of the figures' commits in the JSON: figure → commit.
const COMMITS: &str = "_commit";

/// HEAD's short hash, with `-dirty` when files other than the docs differ
/// from it (the rule of `scripts/figures.py`); `unknown` outside git.
fn commit() -> String {
    let git = |args: &[&str]| std::process::Command::new("git").args(args).output().ok();
    let Some(head) = git(&["rev-parse", "--short", "HEAD"]).filter(|o| o.status.success()) else {
        return "unknown".into();
    };
    let head = String::from_utf8_lossy(&head.stdout).trim().to_string();
    let dirty = git(&[
        "diff",
        "--quiet",
        "HEAD",
        "--",
        ".",
        ":(exclude)docs",
        ":(exclude)README.md",
    ])
    .is_some_and(|o| !o.status.success());
    head + if dirty { "-dirty" } else { "" }
}

/// Create `json` (and its directories) if missing, without truncating it.
fn open_json(json: &std::path::Path) -> Result<(), String> {
    json.parent()
        .filter(|d| !d.as_os_str().is_empty())
        .map_or(Ok(()), std::fs::create_dir_all)
        .and_then(|_| {
            std::fs::OpenOptions::new()
                .append(true)
                .create(true)
                .open(json)
        })
        .map(drop)
        .map_err(|e| format!("--json {}: {e}", json.display()))
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    /// An output that cannot be written is refused before any benchmark
    /// runs, naming the option; a group is any number of `--group`.
    #[test]
    fn options() {
        let e = super::open_json(std::path::Path::new("/dev/null/b.json")).unwrap_err();
        assert!(e.starts_with("--json /dev/null/b.json"), "{e}");
        let a = super::Args::try_parse_from(["nic-bench", "--group", "core", "--group", "nic"])
            .unwrap();
        assert_eq!(a.group, ["core", "nic"]);
        assert_eq!(a.json, std::path::PathBuf::from("build/bench.json"));
    }
}
