//! `hpccnic cc-replay`: telemetry events as JSON Lines on stdin, one JSON
//! line per event on stdout, through the f64 reference, the fixed-point
//! golden model or the RTL (on Verilator or rust-hdl's simulator).

use clap::{Args, ValueEnum};
use nic_golden::cc::hpcc::{op, status, CcEvent, CcUpdate, HpccFixed, HOPS};
use nic_golden::cc::hpcc_ref::HpccRef;
use nic_golden::cc::int_ns3::HopFields;
use nic_golden::cc::params::{rate_code, w_ai_rule_of_thumb, CcParams, Variant};
use nic_testbench::EngineKind;
use serde::Deserialize;
use std::io::{BufRead, Write};
use std::path::PathBuf;

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum Model {
    /// The f64 reference (pseudocode line for line).
    F64,
    /// The fixed-point golden model (bit-exact with the RTL).
    Golden,
    /// The RTL CC module, simulated (see --engine).
    Rtl,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum VariantArg {
    Sender,
    Receiver,
}

#[derive(Args, Debug)]
pub struct ReplayArgs {
    #[arg(long, value_enum, default_value = "golden")]
    model: Model,
    /// Simulator for --model rtl.
    #[arg(long, default_value = "verilator")]
    engine: EngineKind,
    #[arg(long, value_enum)]
    variant: Option<VariantArg>,
    /// TOML file with any of the parameters below (flags override it).
    #[arg(long)]
    config: Option<PathBuf>,
    /// T, ns (default 5000).
    #[arg(long)]
    base_rtt_ns: Option<f64>,
    /// eta (default 0.95).
    #[arg(long)]
    eta: Option<f64>,
    /// maxStage (default 5).
    #[arg(long)]
    max_stage: Option<u32>,
    /// W_ai, bytes (default W_init·(1 − eta)/100, from the other parameters).
    #[arg(long)]
    w_ai_bytes: Option<f64>,
    /// W_min, bytes (default 1 Gb/s × T, from T).
    #[arg(long)]
    w_min_bytes: Option<f64>,
    /// The NIC's line rate, Gb/s (default 100): W_init = rate × T.
    #[arg(long)]
    line_rate_gbps: Option<f64>,
    /// Telemetry multi: 1, 2, 4, 8 or 16 (default 4).
    #[arg(long)]
    int_multi: Option<u32>,
    /// Flows of the module (power of two; rtl: 1024 or 4096).
    #[arg(long)]
    flows: Option<u32>,
}

/// One input line.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Line {
    #[serde(default)]
    op: Option<String>,
    flow: u32,
    #[serde(default)]
    seq: u64,
    #[serde(default)]
    snd_nxt: u64,
    /// Receiver: local time of arrival; default the first hop's ts_ns.
    #[serde(default)]
    now_ns: Option<u64>,
    #[serde(default)]
    hops: Vec<Hop>,
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

/// Defaults, then the file, then the flags. W_ai and W_min, unless given,
/// follow the other parameters: W_ai = W_init·(1 − eta)/100 (the draft's
/// rule of thumb for 100 flows), W_min = 1 Gb/s × T.
fn params(a: &ReplayArgs) -> Result<CcParams, String> {
    let f: ParamFile = match &a.config {
        Some(path) => {
            let text =
                std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
            toml::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?
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

/// A line → the event a switch and the NIC's Rx pipeline would produce.
fn to_event(l: &Line, multi: u32) -> Result<CcEvent, String> {
    let op = match l.op.as_deref() {
        None | Some("event") => op::EVENT,
        Some("create") => op::CREATE,
        Some("destroy") => op::DESTROY,
        Some(o) => return Err(format!("unknown op `{o}` (event, create, destroy)")),
    };
    if l.flow > 0xFFFF {
        return Err(format!("flow {} does not fit the 16-bit flow id", l.flow));
    }
    let mut hops = [0u64; HOPS];
    for (i, h) in l.hops.iter().enumerate().take(HOPS) {
        if !h.rate_gbps.is_finite() {
            return Err(format!("hop {i}: rate_gbps must be a number"));
        }
        // An unknown rate gets an unknown code: the module drops the event.
        let code = rate_code(h.rate_gbps).unwrap_or(7);
        hops[i] = HopFields::quantise(code, h.ts_ns, h.tx_bytes, h.qlen_bytes, multi).encode();
    }
    Ok(CcEvent {
        op,
        flow: l.flow as u16,
        seq: l.seq as u32,
        snd_nxt: l.snd_nxt as u32,
        now: l.now_ns.or(l.hops.first().map(|h| h.ts_ns)).unwrap_or(0) as u32,
        nhops: l.hops.len().min(15) as u8,
        hops,
    })
}

fn out_line(
    u: &CcUpdate,
    ref_u: Option<&nic_golden::cc::hpcc_ref::RefUpdate>,
) -> serde_json::Value {
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
    let flag_names: Vec<&str> = [(1, "ts_stale"), (2, "bytes_back"), (4, "qlen_sat")]
        .iter()
        .filter(|(b, _)| flags & b != 0)
        .map(|(_, n)| *n)
        .collect();
    serde_json::json!({
        "flow": u.flow,
        "u": uu,
        "window_bytes": w,
        "rate_gbps": r,
        "inc_stage": inc,
        "updated_wc": upd,
        "status": status::name(st),
        "flags": flag_names,
    })
}

/// Run the replay; returns the process exit code.
pub fn main(a: ReplayArgs) -> i32 {
    let p = match params(&a) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("cc-replay: bad parameters: {e}");
            return 2;
        }
    };
    let regs = p.regs().unwrap();
    // Parse every line; flows are created on their first event.
    let mut events: Vec<(usize, CcEvent)> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut rejected = 0;
    for (n, line) in std::io::stdin().lock().lines().enumerate() {
        let n = n + 1;
        let line = match line {
            Ok(l) => l,
            Err(e) => {
                eprintln!("cc-replay: line {n}: unreadable: {e}");
                rejected += 1;
                continue;
            }
        };
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<Line>(&line)
            .map_err(|e| e.to_string())
            .and_then(|l| to_event(&l, p.int_multi))
        {
            Ok(ev) => {
                if ev.op == op::EVENT && seen.insert(ev.flow) {
                    events.push((
                        0,
                        CcEvent {
                            op: op::CREATE,
                            flow: ev.flow,
                            ..Default::default()
                        },
                    ));
                }
                if ev.op == op::CREATE {
                    seen.insert(ev.flow);
                }
                events.push((n, ev));
            }
            Err(e) => {
                eprintln!("cc-replay: line {n}: rejected: {e}");
                rejected += 1;
            }
        }
    }
    let shown = |line: usize, ev: &CcEvent| line != 0 || ev.op != op::CREATE;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    match a.model {
        Model::F64 => {
            let mut m = HpccRef::new(&p);
            for (line, ev) in &events {
                let r = m.process(ev);
                if shown(*line, ev) {
                    let u = CcUpdate {
                        flow: r.flow,
                        ..Default::default()
                    };
                    writeln!(out, "{}", out_line(&u, Some(&r))).unwrap();
                }
            }
        }
        Model::Golden => {
            let mut m = HpccFixed::new(p.flows_log2().unwrap());
            for (line, ev) in &events {
                let u = m.process(ev, &regs);
                if shown(*line, ev) {
                    writeln!(out, "{}", out_line(&u, None)).unwrap();
                }
            }
        }
        Model::Rtl => {
            let evs: Vec<(u32, CcEvent)> = events.iter().map(|(_, e)| (0, *e)).collect();
            let ups = match p.flows {
                1024 => nic_testbench::cc::run_rtl::<10>(a.engine, "cc_replay", &regs, &evs).0,
                4096 => nic_testbench::cc::run_rtl::<12>(a.engine, "cc_replay", &regs, &evs).0,
                f => {
                    eprintln!("cc-replay: --model rtl is built for 1024 or 4096 flows, not {f}");
                    return 2;
                }
            };
            for ((line, ev), u) in events.iter().zip(ups.iter()) {
                if shown(*line, ev) {
                    writeln!(out, "{}", out_line(u, None)).unwrap();
                }
            }
        }
    }
    out.flush().unwrap();
    if rejected > 0 {
        eprintln!("cc-replay: {rejected} line(s) rejected");
        1
    } else {
        0
    }
}
