//! What the commands share: value parsers with documented ranges (each
//! error names the value and its range; clap adds the option's name and
//! exits with status 2), the one-line rendering of usage errors, the
//! memory limit, and progress bars on stderr.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;

/// A clap error as one line: its text up to the first blank line (clap's
/// usage and tips follow it), lines joined. Every usage error of
/// `hpccnic` is printed this way, with exit status 2.
pub fn one_line(e: &clap::Error) -> String {
    let text = e.render().to_string();
    let mut parts = Vec::new();
    for l in text.lines() {
        if l.trim().is_empty() {
            break;
        }
        parts.push(l.trim());
    }
    parts.join(" ")
}

/// A finite number in `[lo, hi]` (`hi_open`: `[lo, hi)`).
fn f64_in(s: &str, lo: f64, hi: f64, hi_open: bool, what: &str) -> Result<f64, String> {
    let v: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("`{s}` is not a number"))?;
    let ok = v.is_finite() && v >= lo && if hi_open { v < hi } else { v <= hi };
    if ok {
        Ok(v)
    } else {
        let close = if hi_open { ")" } else { "]" };
        Err(format!("{v} is not in [{lo}, {hi}{close} ({what})"))
    }
}

/// `sim --loss`: a probability in [0, 1).
pub fn loss(s: &str) -> Result<f64, String> {
    f64_in(s, 0.0, 1.0, true, "a per-frame probability")
}

/// The core clock, MHz: [1, 1000].
pub const CLOCK_MHZ: (f64, f64) = (1.0, 1000.0);
/// The design clock (`nic_engines::CLOCK_PERIOD_PS`), the default of
/// `--clock-mhz`.
pub const DEFAULT_CLOCK_MHZ: f64 = 156.25;

/// `--clock-mhz`.
pub fn clock_mhz(s: &str) -> Result<f64, String> {
    f64_in(s, CLOCK_MHZ.0, CLOCK_MHZ.1, false, "MHz")
}

/// Memory limit, MiB: refuse a run whose estimate is above it.
pub const DEFAULT_MEM_LIMIT_MIB: u64 = 4096;

/// The limit check: `Err` names the estimate, the limit and how to raise
/// it.
pub fn check_memory(estimate_bytes: u64, limit_mib: u64, what: &str) -> Result<(), String> {
    let limit = limit_mib.saturating_mul(1 << 20);
    if estimate_bytes > limit {
        Err(format!(
            "{what} needs about {} of memory, above --mem-limit-mib {limit_mib} (raise it to run anyway)",
            human_bytes(estimate_bytes)
        ))
    } else {
        Ok(())
    }
}

pub fn human_bytes(b: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut v = b as f64;
    let mut u = 0;
    while v >= 1024.0 && u + 1 < UNITS.len() {
        v /= 1024.0;
        u += 1;
    }
    if u == 0 {
        format!("{b} B")
    } else {
        format!("{v:.1} {}", UNITS[u])
    }
}

/// A progress bar on stderr, drawn only when stderr is a terminal (a
/// hidden bar otherwise, so pipes and logs get nothing). `len`: the total,
/// or a spinner when unknown.
pub fn progress(len: Option<u64>, template: &str) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let pb = ProgressBar::with_draw_target(len, ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template(template) {
        pb.set_style(style.progress_chars("=> "));
    }
    pb
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges() {
        assert_eq!(loss("0").unwrap(), 0.0);
        assert_eq!(loss("0.1").unwrap(), 0.1);
        for bad in ["1", "1.5", "-0.1", "nan", "inf", "x"] {
            assert!(loss(bad).is_err(), "{bad}");
        }
        assert_eq!(clock_mhz("156.25").unwrap(), 156.25);
        for bad in ["0", "0.5", "1001", "NaN"] {
            assert!(clock_mhz(bad).is_err(), "{bad}");
        }
        assert!(check_memory(1 << 30, 1024, "x").is_ok());
        let e = check_memory((1 << 30) + 1, 1024, "the run").unwrap_err();
        assert!(
            e.contains("1.0 GiB") && e.contains("--mem-limit-mib 1024"),
            "{e}"
        );
    }
}

/// The ids of a command's options given on the command line or through
/// the environment (not defaulted).
pub fn given(m: &clap::ArgMatches) -> Vec<String> {
    use clap::parser::ValueSource;
    m.ids()
        .filter(|id| {
            matches!(
                m.value_source(id.as_str()),
                Some(ValueSource::CommandLine | ValueSource::EnvVariable)
            )
        })
        .map(|id| id.as_str().to_string())
        .collect()
}
