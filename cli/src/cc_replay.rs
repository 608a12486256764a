//! `hpccnic cc-replay [FILE]`: telemetry events as JSON Lines (FILE, or
//! stdin), one JSON line per event on stdout, through the f64 reference,
//! the fixed-point golden model or the RTL (on Verilator or rust-hdl's
//! simulator). Every output line carries the input line number and
//! timestamp it came from.
//!
//! Options are checked before any input is read (ranges; exit status 2);
//! a bad input line (malformed, or not UTF-8) is named on stderr and
//! skipped (exit status 1 at the end); a FILE that is a directory, or an
//! input that cannot be read, ends the run (exit status 2). f64 and golden stream (constant memory); rtl holds the events,
//! up to `--mem-limit-mib`.

use crate::args;
use clap::{Args, ValueEnum};
use nic_engines::EngineKind;
use nic_golden::cc::hpcc::{op, status, CcEvent, CcUpdate, HpccFixed, HOPS};
use nic_golden::cc::hpcc_ref::{HpccRef, RefUpdate};
use nic_golden::cc::int_ns3::HopFields;
use nic_golden::cc::params::{rate_code, w_ai_rule_of_thumb, CcParams, Variant};
use serde::Deserialize;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Model {
    /// The f64 reference (pseudocode line for line).
    F64,
    /// The fixed-point golden model (bit-exact with the RTL).
    Golden,
    /// The RTL CC module, simulated (see --engine).
    Rtl,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Algo {
    /// HPCC++ (telemetry events).
    Hpcc,
    /// DCQCN's reaction point (CNPs and sent packets).
    Dcqcn,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum VariantArg {
    Sender,
    Receiver,
}

/// The input format, printed by `--help`.
const INPUT_HELP: &str = "\
Input: one JSON object per line (blank lines skipped).
  Required: \"flow\" (0..=65535); for an event also \"hops\" (a list, 1 to 5
  used; each hop needs \"ts_ns\", \"tx_bytes\", \"qlen_bytes\", \"rate_gbps\"),
  and for the sender variant \"seq\" and \"snd_nxt\".
  Optional: \"op\" (\"event\", default; \"create\", \"destroy\"); \"now_ns\"
  (receiver: default the first hop's ts_ns); \"seq\", \"snd_nxt\" (receiver:
  unused, default 0). Numbers are absolute: seq, snd_nxt and now_ns are
  taken mod 2^32, hop values quantised and wrapped as a switch writes them.
  Supported hop rates: 25, 50, 100, 200, 400 Gb/s. An event with another
  rate is replayed as the hardware sees it (rate code 7: status drop_rate)
  and its output carries the flag \"rate_unsupported\".
Output: one JSON object per event: \"line\" and \"ts_ns\" (the input line and
  its timestamp: now_ns, else the first hop's ts_ns, else null), \"flow\",
  \"u\", \"window_bytes\", \"rate_gbps\", \"inc_stage\", \"updated_wc\",
  \"status\", \"flags\" (ts_stale, bytes_back, qlen_sat, rate_unsupported);
  with --echo-input also \"input\".
Exit status: 0; 1 if a line was rejected; 2 on bad options.
DCQCN (--algo dcqcn) input: one JSON object per line: \"flow\" (0..flows), \"t_ns\"
  (non-decreasing), and one of \"cnp\": true, \"sent_bytes\": N (0..=65535),
  \"op\": \"create\" | \"destroy\". A flow is created at its first line.
  Parameters: --config FILE (TOML, the fields of DcqcnParams: line_rate_gbps,
  ns_per_cycle, g_log2, alpha_period_us, dec_period_us, inc_period_us,
  byte_reset, f, r_ai_mbps, r_hai_mbps, r_min_mbps, r_first_cnp_gbps,
  alpha_init, window_bytes), --line-rate-gbps, --flows (1024 or 4096);
  defaults: docs/dcqcn.md.
DCQCN (--algo dcqcn) output: one object per event, when the RP has applied it:
  \"line\", \"t_ns\", \"flow\", \"event\", \"rate_gbps\" (Rc after it), \"alpha\",
  \"inc_stage\", \"status\" (update, held, created, destroyed, drop_flow,
  coalesced, none: no rate change), \"flags\" (first_cnp, recovered, late);
  and one per timer step that changed a rate, with \"line\": null and
  \"event\": \"timer\". After the last line the timers run until no flow
  reacts (at most one second of trace).
Examples:
  hpccnic cc-replay examples/cc-replay/two-hops.jsonl
  hpccnic cc-replay --model f64 --config examples/cc-replay/params.toml examples/cc-replay/anomalous.jsonl
  hpccnic cc-replay --model rtl --engine verilator examples/cc-replay/two-hops.jsonl";

#[derive(Args, Debug)]
#[command(after_long_help = INPUT_HELP)]
pub struct ReplayArgs {
    /// JSON Lines to replay (default: stdin; `-` is stdin too).
    file: Option<PathBuf>,
    /// The algorithm.
    #[arg(long, value_enum, default_value = "hpcc")]
    algo: Algo,
    /// Which model of the algorithm answers each event: the f64
    /// reference, the fixed-point golden model, or the RTL on a simulator.
    #[arg(long, value_enum, default_value = "golden")]
    model: Model,
    /// Simulator for --model rtl: verilator or rust-hdl (default
    /// verilator; ignored, with a warning, for the other models).
    #[arg(long)]
    engine: Option<EngineKind>,
    /// The algorithm's side (default sender, or the --config file's).
    #[arg(long, value_enum)]
    variant: Option<VariantArg>,
    /// TOML file with any of the parameters below (flags override it;
    /// default: none).
    #[arg(long)]
    config: Option<PathBuf>,
    /// T, ns, in [64, 2^24) (default 5000).
    #[arg(long, allow_negative_numbers = true, value_parser = parse_base_rtt)]
    base_rtt_ns: Option<f64>,
    /// eta, in (0, 1) (default 0.95).
    #[arg(long, allow_negative_numbers = true, value_parser = parse_eta)]
    eta: Option<f64>,
    /// maxStage, 0..=7 (default 5).
    #[arg(long, allow_negative_numbers = true, value_parser = clap::value_parser!(u32).range(0..=7))]
    max_stage: Option<u32>,
    /// W_ai, bytes, in [0, 2^24) (default W_init·(1 − eta)/100, from the
    /// other parameters).
    #[arg(long, allow_negative_numbers = true, value_parser = parse_w_ai)]
    w_ai_bytes: Option<f64>,
    /// W_min, bytes, in (0, W_init] (default 1 Gb/s × T, from T).
    #[arg(long, allow_negative_numbers = true, value_parser = parse_w_min)]
    w_min_bytes: Option<f64>,
    /// The NIC's line rate, Gb/s, in (0, 10000]; W_init = rate × T must be
    /// below 16 MiB (default 100).
    #[arg(long, allow_negative_numbers = true, value_parser = parse_line_rate)]
    line_rate_gbps: Option<f64>,
    /// Telemetry multi: 1, 2, 4, 8 or 16 (default 4).
    #[arg(long, allow_negative_numbers = true, value_parser = parse_int_multi)]
    int_multi: Option<u32>,
    /// Flows of the module: a power of two, 2..=65536 (16-bit flow ids);
    /// rtl: 1024 or 4096 (default 1024).
    #[arg(long, allow_negative_numbers = true, value_parser = parse_flows)]
    flows: Option<u32>,
    /// Add the input line (as parsed JSON) to each output line, as "input".
    #[arg(long)]
    echo_input: bool,
    /// Memory limit, MiB, ≥ 1: with --model rtl every event is held in
    /// memory, and an input above this is refused.
    #[arg(long, allow_negative_numbers = true, default_value_t = args::DEFAULT_MEM_LIMIT_MIB, value_parser = clap::value_parser!(u64).range(1..))]
    mem_limit_mib: u64,
}

// ---- Parameter ranges: one check per parameter, for flags and file ----

fn num(s: &str) -> Result<f64, String> {
    s.trim()
        .parse::<f64>()
        .map_err(|_| format!("`{s}` is not a number"))
}

fn check_base_rtt(v: f64) -> Result<f64, String> {
    if v.is_finite() && (64.0..16777216.0).contains(&v.round()) {
        Ok(v)
    } else {
        Err(format!("{v} is not in [64, 2^24) ns"))
    }
}
fn check_eta(v: f64) -> Result<f64, String> {
    if v > 0.0 && v < 1.0 {
        Ok(v)
    } else {
        Err(format!("{v} is not in (0, 1)"))
    }
}
fn check_w_ai(v: f64) -> Result<f64, String> {
    if v.is_finite() && (0.0..16777216.0).contains(&v) {
        Ok(v)
    } else {
        Err(format!("{v} is not in [0, 2^24) bytes"))
    }
}
fn check_w_min(v: f64) -> Result<f64, String> {
    if v.is_finite() && v > 0.0 && v < 16777216.0 {
        Ok(v)
    } else {
        Err(format!("{v} is not in (0, 2^24) bytes"))
    }
}
fn check_line_rate(v: f64) -> Result<f64, String> {
    if v.is_finite() && v > 0.0 && v <= 10000.0 {
        Ok(v)
    } else {
        Err(format!("{v} is not in (0, 10000] Gb/s"))
    }
}
fn check_int_multi(v: u32) -> Result<u32, String> {
    if matches!(v, 1 | 2 | 4 | 8 | 16) {
        Ok(v)
    } else {
        Err(format!("int_multi {v} is not 1, 2, 4, 8 or 16"))
    }
}
fn check_flows(v: u32) -> Result<u32, String> {
    if v.is_power_of_two() && (2..=1 << 16).contains(&v) {
        Ok(v)
    } else {
        Err(format!(
            "{v} flows: must be a power of two in 2..=65536 (flow ids are 16 bits)"
        ))
    }
}
fn parse_base_rtt(s: &str) -> Result<f64, String> {
    check_base_rtt(num(s)?)
}
fn parse_eta(s: &str) -> Result<f64, String> {
    check_eta(num(s)?)
}
fn parse_w_ai(s: &str) -> Result<f64, String> {
    check_w_ai(num(s)?)
}
fn parse_w_min(s: &str) -> Result<f64, String> {
    check_w_min(num(s)?)
}
fn parse_line_rate(s: &str) -> Result<f64, String> {
    check_line_rate(num(s)?)
}
fn int(s: &str) -> Result<u32, String> {
    s.trim()
        .parse::<u32>()
        .map_err(|_| format!("`{s}` is not a whole number in 0..=2^32-1"))
}
fn parse_int_multi(s: &str) -> Result<u32, String> {
    check_int_multi(int(s)?)
}
fn parse_flows(s: &str) -> Result<u32, String> {
    check_flows(int(s)?)
}

/// One input line.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Line {
    #[serde(default)]
    op: Option<String>,
    flow: u32,
    #[serde(default)]
    seq: Option<u64>,
    #[serde(default)]
    snd_nxt: Option<u64>,
    /// Receiver: local time of arrival; default the first hop's ts_ns.
    #[serde(default)]
    now_ns: Option<u64>,
    #[serde(default)]
    hops: Option<Vec<Hop>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Hop {
    ts_ns: u64,
    tx_bytes: u64,
    qlen_bytes: u64,
    rate_gbps: f64,
}

/// The parameter file: every key optional.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct ParamFile {
    variant: Option<Variant>,
    base_rtt_ns: Option<f64>,
    eta: Option<f64>,
    max_stage: Option<u32>,
    w_ai_bytes: Option<f64>,
    w_min_bytes: Option<f64>,
    line_rate_gbps: Option<f64>,
    int_multi: Option<u32>,
    flows: Option<u32>,
}

impl ParamFile {
    /// The same ranges as the flags.
    fn check(&self) -> Result<(), String> {
        let f = |k: &str, r: Result<f64, String>| r.map(|_| ()).map_err(|e| format!("{k}: {e}"));
        let u = |k: &str, r: Result<u32, String>| r.map(|_| ()).map_err(|e| format!("{k}: {e}"));
        if let Some(v) = self.base_rtt_ns {
            f("base_rtt_ns", check_base_rtt(v))?;
        }
        if let Some(v) = self.eta {
            f("eta", check_eta(v))?;
        }
        if let Some(v) = self.max_stage {
            if v > 7 {
                return Err(format!("max_stage: {v} is not in 0..=7"));
            }
        }
        if let Some(v) = self.w_ai_bytes {
            f("w_ai_bytes", check_w_ai(v))?;
        }
        if let Some(v) = self.w_min_bytes {
            f("w_min_bytes", check_w_min(v))?;
        }
        if let Some(v) = self.line_rate_gbps {
            f("line_rate_gbps", check_line_rate(v))?;
        }
        if let Some(v) = self.int_multi {
            u("int_multi", check_int_multi(v))?;
        }
        if let Some(v) = self.flows {
            u("flows", check_flows(v))?;
        }
        Ok(())
    }
}

/// Defaults, then the file, then the flags. W_ai and W_min, unless given,
/// follow the other parameters: W_ai = W_init·(1 − eta)/100 (the draft's
/// rule of thumb for 100 flows), W_min = 1 Gb/s × T.
fn params(a: &ReplayArgs) -> Result<CcParams, String> {
    let f: ParamFile = match &a.config {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("--config {}: {e}", path.display()))?;
            let f: ParamFile =
                toml::from_str(&text).map_err(|e| format!("--config {}: {e}", path.display()))?;
            f.check()
                .map_err(|e| format!("--config {}: {e}", path.display()))?;
            f
        }
        None => ParamFile::default(),
    };
    let d = CcParams::default();
    let variant = a.variant.map(|v| match v {
        VariantArg::Sender => Variant::Sender,
        VariantArg::Receiver => Variant::Receiver,
    });
    let mut p = CcParams {
        variant: variant.or(f.variant).unwrap_or(d.variant),
        base_rtt_ns: a.base_rtt_ns.or(f.base_rtt_ns).unwrap_or(d.base_rtt_ns),
        eta: a.eta.or(f.eta).unwrap_or(d.eta),
        max_stage: a.max_stage.or(f.max_stage).unwrap_or(d.max_stage),
        line_rate_gbps: a
            .line_rate_gbps
            .or(f.line_rate_gbps)
            .unwrap_or(d.line_rate_gbps),
        int_multi: a.int_multi.or(f.int_multi).unwrap_or(d.int_multi),
        flows: a.flows.or(f.flows).unwrap_or(d.flows),
        ..d
    };
    p.w_ai_bytes = a
        .w_ai_bytes
        .or(f.w_ai_bytes)
        .unwrap_or_else(|| w_ai_rule_of_thumb(p.w_init_bytes(), p.eta, 100));
    p.w_min_bytes = a
        .w_min_bytes
        .or(f.w_min_bytes)
        .unwrap_or(1.0 / 8.0 * p.base_rtt_ns);
    p.regs()?;
    p.flows_log2()?;
    Ok(p)
}

/// An input line's event, with what its output line carries besides the
/// model's result.
struct Parsed {
    ev: CcEvent,
    /// The input's timestamp: now_ns, else the first hop's ts_ns.
    ts_ns: Option<u64>,
    /// A hop's rate has no code (the event goes in with code 7).
    rate_unsupported: bool,
}

/// A line → the event a switch and the NIC's Rx pipeline would produce.
fn to_event(l: &Line, multi: u32, variant: Variant) -> Result<Parsed, String> {
    let op = match l.op.as_deref() {
        None | Some("event") => op::EVENT,
        Some("create") => op::CREATE,
        Some("destroy") => op::DESTROY,
        Some(o) => return Err(format!("unknown op `{o}` (event, create, destroy)")),
    };
    if l.flow > 0xFFFF {
        return Err(format!("flow {} does not fit the 16-bit flow id", l.flow));
    }
    let no_hops = Vec::new();
    let hops = match (&l.hops, op == op::EVENT) {
        (Some(h), _) => h,
        (None, true) => return Err("missing field `hops` (required for an event)".into()),
        (None, false) => &no_hops,
    };
    let (seq, snd_nxt) = match (op == op::EVENT, variant) {
        (true, Variant::Sender) => (
            l.seq
                .ok_or("missing field `seq` (required for the sender variant)")?,
            l.snd_nxt
                .ok_or("missing field `snd_nxt` (required for the sender variant)")?,
        ),
        _ => (l.seq.unwrap_or(0), l.snd_nxt.unwrap_or(0)),
    };
    let mut words = [0u64; HOPS];
    let mut rate_unsupported = false;
    for (i, h) in hops.iter().enumerate().take(HOPS) {
        if !h.rate_gbps.is_finite() {
            return Err(format!("hop {i}: rate_gbps must be a number"));
        }
        // An unsupported rate gets an unknown code: the module drops the
        // event (drop_rate), and the output flags it.
        let code = rate_code(h.rate_gbps).unwrap_or_else(|| {
            rate_unsupported = true;
            7
        });
        words[i] = HopFields::quantise(code, h.ts_ns, h.tx_bytes, h.qlen_bytes, multi).encode();
    }
    let ts_ns = l.now_ns.or(hops.first().map(|h| h.ts_ns));
    Ok(Parsed {
        ev: CcEvent {
            op,
            // Every flow of a replay has the replay's variant.
            variant: variant == Variant::Receiver,
            flow: l.flow as u16,
            seq: seq as u32,
            snd_nxt: snd_nxt as u32,
            now: ts_ns.unwrap_or(0) as u32,
            nhops: hops.len().min(15) as u8,
            hops: words,
        },
        ts_ns,
        rate_unsupported,
    })
}

/// Where an output line came from.
struct Origin {
    line: usize,
    ts_ns: Option<u64>,
    rate_unsupported: bool,
    input: Option<serde_json::Value>,
}

fn out_line(o: &Origin, u: &CcUpdate, ref_u: Option<&RefUpdate>) -> serde_json::Value {
    let (uu, w, r, inc, upd, st, flags) = match ref_u {
        Some(x) => (
            x.u,
            x.w,
            x.r * 8.0,
            x.inc_stage,
            x.updated_wc,
            x.status,
            x.flags,
        ),
        None => (
            u.u as f64 / 16777216.0,
            u.w as f64 / 256.0,
            u.r as f64 / 65536.0 * 8.0,
            u.inc_stage as u32,
            u.updated_wc,
            u.status,
            u.flags,
        ),
    };
    let mut flag_names: Vec<&str> = [(1, "ts_stale"), (2, "bytes_back"), (4, "qlen_sat")]
        .iter()
        .filter(|(b, _)| flags & b != 0)
        .map(|(_, n)| *n)
        .collect();
    if o.rate_unsupported {
        flag_names.push("rate_unsupported");
    }
    let mut v = serde_json::json!({
        "line": o.line,
        "ts_ns": o.ts_ns,
        "flow": u.flow,
        "u": uu,
        "window_bytes": w,
        "rate_gbps": r,
        "inc_stage": inc,
        "updated_wc": upd,
        "status": status::name(st),
        "flags": flag_names,
    });
    if let Some(i) = &o.input {
        v["input"] = i.clone();
    }
    v
}

/// A model that takes one event at a time.
enum Streaming {
    F64(HpccRef),
    Golden(HpccFixed, nic_golden::cc::params::CcRegs),
}

impl Streaming {
    /// The output line of `ev` (flow from `ev` for the f64 model).
    fn process(&mut self, o: &Origin, ev: &CcEvent) -> serde_json::Value {
        match self {
            Streaming::F64(m) => {
                let r = m.process(ev);
                let u = CcUpdate {
                    flow: r.flow,
                    ..Default::default()
                };
                out_line(o, &u, Some(&r))
            }
            Streaming::Golden(m, regs) => out_line(o, &m.process(ev, regs), None),
        }
    }
}

/// Approximate memory per event held for --model rtl: the event, its
/// origin, the engine's stimulus and the update.
const RTL_BYTES_PER_EVENT: u64 = 512;

/// Run the replay; returns the process exit code.
pub fn main(a: ReplayArgs) -> i32 {
    if a.algo == Algo::Dcqcn {
        let hpcc_only = a.variant.is_some()
            || a.base_rtt_ns.is_some()
            || a.eta.is_some()
            || a.max_stage.is_some()
            || a.w_ai_bytes.is_some()
            || a.w_min_bytes.is_some()
            || a.int_multi.is_some()
            || a.echo_input;
        if hpcc_only {
            eprintln!("error: cc-replay: --algo dcqcn takes --config, --line-rate-gbps, --flows, --model and --engine only");
            return 2;
        }
        let model = match a.model {
            Model::F64 => "f64",
            Model::Golden => "golden",
            Model::Rtl => "rtl",
        };
        return crate::dcqcn_replay::main(
            a.config.as_deref(),
            a.line_rate_gbps,
            a.flows.unwrap_or(1024),
            model,
            a.engine.unwrap_or(EngineKind::Verilator),
            a.file.as_deref(),
        );
    }
    let p = match params(&a) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: cc-replay: bad parameters: {e}");
            return 2;
        }
    };
    if a.model == Model::Rtl && !matches!(p.flows, 1024 | 4096) {
        eprintln!(
            "error: cc-replay: --model rtl is built for 1024 or 4096 flows, not {}",
            p.flows
        );
        return 2;
    }
    if a.model != Model::Rtl {
        if a.engine.is_some() {
            eprintln!("warning: --engine applies to --model rtl only; ignored");
        }
        if std::env::var("NIC_VCD").is_ok_and(|v| !v.is_empty() && v != "0") {
            eprintln!("warning: NIC_VCD applies to --model rtl only; no waveforms");
        }
    }
    let engine = a.engine.unwrap_or(EngineKind::Verilator);
    let regs = p.regs().unwrap();
    // The input, opened before any work.
    let (reader, len): (Box<dyn Read>, Option<u64>) = match a.file.as_deref() {
        None => (Box::new(std::io::stdin().lock()), None),
        Some(f) if f.as_os_str() == "-" => (Box::new(std::io::stdin().lock()), None),
        Some(f) => match std::fs::File::open(f) {
            Ok(h) if h.metadata().is_ok_and(|m| m.is_dir()) => {
                eprintln!("error: cc-replay: FILE {}: is a directory", f.display());
                return 2;
            }
            Ok(h) => {
                let len = h.metadata().ok().map(|m| m.len());
                (Box::new(h), len)
            }
            Err(e) => {
                eprintln!("error: cc-replay: FILE {}: {e}", f.display());
                return 2;
            }
        },
    };
    let pb = match len {
        Some(n) => args::progress(
            Some(n),
            "{spinner} cc-replay [{elapsed_precise}] {bar:30} {bytes}/{total_bytes} {msg}",
        ),
        None => args::progress(None, "{spinner} cc-replay [{elapsed_precise}] {msg}"),
    };
    let input = BufReader::new(pb.wrap_read(reader));
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut streaming = match a.model {
        Model::F64 => Some(Streaming::F64(HpccRef::new(&p))),
        Model::Golden => Some(Streaming::Golden(
            HpccFixed::new(p.flows_log2().unwrap()),
            regs,
        )),
        Model::Rtl => None,
    };
    // rtl: the events (those of origin `None` are the implicit creates).
    let mut held: Vec<(Option<Origin>, CcEvent)> = Vec::new();
    let limit = a.mem_limit_mib.saturating_mul(1 << 20);
    let mut seen = std::collections::HashSet::new();
    let mut rejected = 0;
    for (n, line) in input.lines().enumerate() {
        let n = n + 1;
        if n % 4096 == 0 {
            pb.set_message(format!("{n} lines"));
        }
        let line = match line {
            Ok(l) => l,
            // Not UTF-8: the line's bytes are consumed, the next one is read.
            Err(e) if e.kind() == std::io::ErrorKind::InvalidData => {
                eprintln!("cc-replay: line {n}: unreadable: {e}");
                rejected += 1;
                continue;
            }
            // Any other error would come back on every read (stdin a
            // directory: EISDIR): the input ends here.
            Err(e) => {
                pb.finish_and_clear();
                eprintln!("error: cc-replay: cannot read the input at line {n}: {e}");
                return 2;
            }
        };
        if line.trim().is_empty() {
            continue;
        }
        let parsed = serde_json::from_str::<Line>(&line)
            .map_err(|e| e.to_string())
            .and_then(|l| to_event(&l, p.int_multi, p.variant));
        let parsed = match parsed {
            Ok(x) => x,
            Err(e) => {
                eprintln!("cc-replay: line {n}: rejected: {e}");
                rejected += 1;
                continue;
            }
        };
        let ev = parsed.ev;
        let origin = Origin {
            line: n,
            ts_ns: parsed.ts_ns,
            rate_unsupported: parsed.rate_unsupported,
            input: a
                .echo_input
                .then(|| serde_json::from_str(&line).unwrap_or_default()),
        };
        // A flow is created on its first event.
        let mut todo = Vec::with_capacity(2);
        if ev.op == op::EVENT && seen.insert(ev.flow) {
            todo.push((
                None,
                CcEvent {
                    op: op::CREATE,
                    variant: ev.variant,
                    flow: ev.flow,
                    ..Default::default()
                },
            ));
        }
        if ev.op == op::CREATE {
            seen.insert(ev.flow);
        }
        todo.push((Some(origin), ev));
        for (o, ev) in todo {
            match (&mut streaming, &o) {
                (Some(m), Some(o)) => {
                    let v = m.process(o, &ev);
                    if writeln!(out, "{v}").is_err() {
                        return 0; // stdout closed (e.g. `| head`)
                    }
                }
                (Some(m), None) => {
                    let dummy = Origin {
                        line: 0,
                        ts_ns: None,
                        rate_unsupported: false,
                        input: None,
                    };
                    m.process(&dummy, &ev);
                }
                (None, _) => {
                    held.push((o, ev));
                    if held.len() as u64 * RTL_BYTES_PER_EVENT > limit {
                        pb.finish_and_clear();
                        eprintln!(
                            "error: cc-replay: --model rtl holds every event: {} events need more than --mem-limit-mib {} (raise it, or replay with --model golden, which streams)",
                            held.len(),
                            a.mem_limit_mib
                        );
                        return 2;
                    }
                }
            }
        }
    }
    if a.model == Model::Rtl {
        pb.set_message(format!("{} events on {}", held.len(), engine.name()));
        pb.enable_steady_tick(std::time::Duration::from_millis(200));
        let evs: Vec<(u32, CcEvent)> = held.iter().map(|(_, e)| (0, *e)).collect();
        let ups = match p.flows {
            1024 => nic_engines::cc::run_rtl::<10>(engine, "cc_replay", &regs, &evs).0,
            _ => nic_engines::cc::run_rtl::<12>(engine, "cc_replay", &regs, &evs).0,
        };
        pb.finish_and_clear();
        for ((o, _), u) in held.iter().zip(ups.iter()) {
            if let Some(o) = o {
                if writeln!(out, "{}", out_line(o, u, None)).is_err() {
                    return 0;
                }
            }
        }
    }
    pb.finish_and_clear();
    if out.flush().is_err() {
        return 0;
    }
    if rejected > 0 {
        eprintln!("cc-replay: {rejected} line(s) rejected");
        1
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nic_golden::cc::params::RATE_GBPS;

    /// The help lists exactly the rates the telemetry has codes for.
    #[test]
    fn help_lists_the_supported_rates() {
        let v: Vec<String> = RATE_GBPS.iter().map(|g| g.to_string()).collect();
        let want = format!("Supported hop rates: {} Gb/s.", v.join(", "));
        assert!(INPUT_HELP.contains(&want), "{want}");
    }

    #[test]
    fn parameter_ranges() {
        assert!(check_flows(65536).is_ok() && check_flows(2).is_ok());
        for bad in [0, 1, 3, 131072, 1 << 31] {
            assert!(check_flows(bad).is_err(), "{bad}");
        }
        assert!(parse_flows("2147483648").is_err());
        assert!(check_base_rtt(63.0).is_err() && check_base_rtt(64.0).is_ok());
        assert!(check_eta(1.0).is_err() && check_eta(f64::NAN).is_err());
        assert!(check_w_min(0.0).is_err() && check_w_ai(0.0).is_ok());
        assert!(check_line_rate(f64::INFINITY).is_err());
    }
}
