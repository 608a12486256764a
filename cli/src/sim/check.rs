//! `sim`'s options checked before anything runs: combinations refused
//! (exit 2, naming the option), options that do not apply to the chosen
//! top or engine warned about, the run's memory estimate held to
//! `--mem-limit-mib`, and every output file created (with its missing
//! directories) so a bad path fails first rather than after the run.

use super::{memory_estimate, vcd_name, SimArgs, SimEngine, SimResetKind, SimTop};
use crate::args;
use std::fs::File;
use std::path::{Path, PathBuf};

/// The output files, created and empty.
pub struct Outputs {
    pub pcap: Option<File>,
    /// `--rx-log`: per NIC, the report (`.jsonl`) and set-up (`.toml`).
    pub rx_log: Option<[[PathBuf; 2]; 2]>,
}

/// The options of `--top nic` and `nic-10g` only (the host interface's
/// queues, moderation and DMA): given with `--top core`, each is warned
/// about and ignored.
const NIC_ONLY: [&str; 7] = [
    "sq_log",
    "cq_log",
    "cqs",
    "batch",
    "mod_count",
    "mod_time",
    "dma_err",
];

/// `--name` of an option's id.
fn flag(id: &str) -> String {
    format!("--{}", id.replace('_', "-"))
}

/// Check the options; `Err(2)` after printing why.
pub fn check(a: &SimArgs) -> Result<Outputs, i32> {
    refuse(a).map_err(|e| {
        eprintln!("error: {e}");
        2
    })?;
    for w in warnings(a) {
        eprintln!("warning: {w}");
    }
    let estimate = memory_estimate(a.messages, a.max_size, a.pcap.is_some());
    if let Err(e) = args::check_memory(
        estimate,
        a.mem_limit_mib,
        &format!("--messages {} with --max-size {}", a.messages, a.max_size),
    ) {
        eprintln!("error: {e}");
        return Err(2);
    }
    outputs(a).map_err(|e| {
        eprintln!("error: {e}");
        2
    })
}

/// The combinations no run can honour.
fn refuse(a: &SimArgs) -> Result<(), String> {
    let core = a.top == SimTop::Core;
    if !a.mtu.is_power_of_two() {
        return Err(format!("--mtu {}: the MTU is 256, 512 or 1024", a.mtu));
    }
    let rules: [(bool, &str); 8] = [
        (
            a.engine == SimEngine::Golden && a.vcd.is_some(),
            "--vcd needs an RTL engine; the golden engine has no waveforms",
        ),
        (
            a.rx_log.is_some() && a.top == SimTop::Nic10g,
            "--rx-log: with --top core or nic (the 10G MAC drops frames of its own before the receive path)",
        ),
        (
            a.corrupt > 0.0 && a.top == SimTop::Nic10g,
            "--corrupt: with --top core or nic (on the 10G link, --loss already damages frames: the MAC finds a bad FCS)",
        ),
        (
            (a.wr_timeout > 0 || a.stall_timeout > 0) && core,
            "--wr-timeout, --stall-timeout: with --top nic or nic-10g (the driver's watchdog)",
        ),
        (
            a.recover && core,
            "--recover: with --top nic or nic-10g (the drivers recover)",
        ),
        (
            a.recover && a.reset_at.is_some() && a.reset_kind == SimResetKind::Peer,
            "--recover: not with --reset-kind peer (a dead peer does not reconnect)",
        ),
        (
            a.revoke_at.is_some() && core,
            "--revoke-at: with --top nic or nic-10g (NIC B's driver revokes)",
        ),
        (
            a.reset_at.is_some() && core,
            "--reset-at: with --top nic or nic-10g (the driver resets NIC B)",
        ),
    ];
    match rules.iter().find(|r| r.0) {
        Some((_, why)) => Err(why.to_string()),
        None => Ok(()),
    }
}

/// Options given that the run does not use: the run goes on without them.
fn warnings(a: &SimArgs) -> Vec<String> {
    let mut w = Vec::new();
    if a.top == SimTop::Core {
        for id in NIC_ONLY {
            if a.given.iter().any(|g| g == id) {
                w.push(format!(
                    "{} applies to --top nic and nic-10g only (the host interface); ignored",
                    flag(id)
                ));
            }
        }
    }
    if a.given.iter().any(|g| g == "reset_kind") && a.reset_at.is_none() {
        w.push("--reset-kind applies with --reset-at only; ignored".to_string());
    }
    if std::env::var("NIC_VCD").is_ok_and(|v| !v.is_empty() && v != "0") {
        w.push(
            "NIC_VCD is read by the tests only; sim writes waveforms with --vcd and an RTL engine"
                .to_string(),
        );
    }
    w
}

/// Create `p` (and its missing directories), empty.
fn create(p: &Path, what: &str) -> Result<File, String> {
    p.parent()
        .filter(|d| !d.as_os_str().is_empty())
        .map_or(Ok(()), std::fs::create_dir_all)
        .and_then(|_| File::create(p))
        .map_err(|e| format!("{what} {}: {e}", p.display()))
}

/// `--rx-log dir/x`: `dir/x.<a|b>.<jsonl|toml>`.
pub fn rx_log_names(prefix: &Path) -> [[PathBuf; 2]; 2] {
    let name = |side: &str, ext: &str| {
        let mut p = prefix.as_os_str().to_owned();
        p.push(format!(".{side}.{ext}"));
        PathBuf::from(p)
    };
    ["a", "b"].map(|side| [name(side, "jsonl"), name(side, "toml")])
}

/// Every output file, created before the run: `--pcap`, `--vcd`'s two
/// waveforms and `--rx-log`'s four files.
fn outputs(a: &SimArgs) -> Result<Outputs, String> {
    if let Some(v) = &a.vcd {
        for n in 0..2 {
            create(&vcd_name(v, n), "--vcd")?;
        }
    }
    let pcap = a.pcap.as_deref().map(|p| create(p, "--pcap")).transpose()?;
    let rx_log = match &a.rx_log {
        Some(prefix) => {
            let names = rx_log_names(prefix);
            for p in names.iter().flatten() {
                create(p, "--rx-log")?;
            }
            Some(names)
        }
        None => None,
    };
    Ok(Outputs { pcap, rx_log })
}
