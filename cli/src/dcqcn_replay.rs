//! `hpccnic cc-replay --algo dcqcn [FILE]`: the DCQCN reaction point on a
//! trace of CNPs and sent packets (JSON Lines), through the f64
//! reference, the fixed-point twin or the RTL (Verilator or rust-hdl).
//!
//! The RP runs by cycles (its timers are clocked), so the replay turns
//! each event's `t_ns` into a cycle (`ns_per_cycle`), offers it from that
//! cycle on until the RP takes it, and runs every cycle in between. A
//! replay of T seconds of trace is T / ns_per_cycle cycles: about 156 M
//! per second of trace at 6.4 ns; the twin and Verilator run a few million
//! cycles per second.

use crate::args;
use nic_engines::EngineKind;
use nic_golden::cc::dcqcn::{
    flag, status, Applied, DcqcnRp, In, Out, HEAD_LATENCY, OP_CNP, OP_CREATE, OP_DESTROY, OP_NAMES,
    OP_SENT,
};
use nic_golden::cc::dcqcn_params::{DcqcnParams, ALPHA_ONE};
use nic_golden::cc::dcqcn_ref::DcqcnRef;
use nic_golden::cc::RpEvent;
use nic_golden::Cycle;
use serde::Deserialize;
use std::collections::{HashMap, HashSet, VecDeque};
use std::io::{BufRead, BufReader, Read, Write};

// The input format is in `cc_replay::INPUT_HELP`.

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Line {
    flow: u32,
    t_ns: f64,
    #[serde(default)]
    cnp: Option<bool>,
    #[serde(default)]
    sent_bytes: Option<u32>,
    #[serde(default)]
    op: Option<String>,
}

struct Pending {
    line: usize,
    t_ns: f64,
    cycle: u64,
    ev: RpEvent,
}

fn to_event(l: &Line, flows: u32) -> Result<RpEvent, String> {
    if l.flow >= flows {
        return Err(format!("flow {} is not below {flows}", l.flow));
    }
    if !(l.t_ns.is_finite() && l.t_ns >= 0.0) {
        return Err(format!("t_ns {} is not a time", l.t_ns));
    }
    let n = l.cnp.is_some() as u32 + l.sent_bytes.is_some() as u32 + l.op.is_some() as u32;
    if n != 1 {
        return Err("exactly one of \"cnp\", \"sent_bytes\", \"op\"".into());
    }
    let (op, bytes) = match (l.cnp, l.sent_bytes, l.op.as_deref()) {
        (Some(true), _, _) => (OP_CNP, 0),
        (Some(false), _, _) => return Err("\"cnp\": false is not an event".into()),
        (_, Some(b), _) if b <= 0xffff => (OP_SENT, b),
        (_, Some(b), _) => return Err(format!("sent_bytes {b} is above 65535")),
        (_, _, Some("create")) => (OP_CREATE, 0),
        (_, _, Some("destroy")) => (OP_DESTROY, 0),
        (_, _, Some(o)) => return Err(format!("op `{o}` (create | destroy)")),
        _ => unreachable!(),
    };
    Ok(RpEvent {
        op,
        flow: l.flow as u16,
        bytes,
    })
}

/// The model under replay: something stepped once per cycle. The RTL
/// runs with its twin in lockstep: an event's wait at the register
/// slice's head is not visible at the ports, so the twin says when the
/// head was taken (and the RTL must agree with it on every port, every
/// cycle, or the replay stops).
enum Model {
    Golden10(Box<DcqcnRp<10>>),
    Golden12(Box<DcqcnRp<12>>),
    Rtl10(
        Box<dyn nic_engines::Engine<nic_hdl::cc::DcqcnRp<10>>>,
        Box<DcqcnRp<10>>,
    ),
    Rtl12(
        Box<dyn nic_engines::Engine<nic_hdl::cc::DcqcnRp<12>>>,
        Box<DcqcnRp<12>>,
    ),
}

/// One cycle's outputs: the ports, the operation the twin applied (for the
/// f64 reference; golden only) and whether the slice's head was taken.
struct Step {
    out: Out,
    applied: Option<Applied>,
    taken: bool,
}

/// Step the RTL and its twin; they must agree on every port.
fn lockstep<const A: usize>(
    rtl: Out,
    g: &mut DcqcnRp<A>,
    i: &In,
    cycle: u64,
) -> Result<Step, String> {
    let twin = g.step(i);
    if rtl != twin {
        return Err(format!(
            "cycle {cycle}: the RTL differs from its twin (rtl {rtl:?}, twin {twin:?})"
        ));
    }
    Ok(Step {
        out: rtl,
        applied: None,
        taken: g.taken(),
    })
}

impl Model {
    fn step(&mut self, i: &In, cycle: u64) -> Result<Step, String> {
        fn golden<const A: usize>(g: &mut DcqcnRp<A>, i: &In) -> Step {
            let out = g.step(i);
            Step {
                out,
                applied: g.applied(),
                taken: g.taken(),
            }
        }
        match self {
            Model::Golden10(g) => Ok(golden(g, i)),
            Model::Golden12(g) => Ok(golden(g, i)),
            Model::Rtl10(e, g) => lockstep(e.step(i), g, i, cycle),
            Model::Rtl12(e, g) => lockstep(e.step(i), g, i, cycle),
        }
    }
}

fn status_name(s: u8) -> &'static str {
    match s {
        status::UPDATE => "update",
        status::HELD => "held",
        status::CREATED => "created",
        status::DESTROYED => "destroyed",
        _ => "drop_flow",
    }
}

fn flag_names(f: u8) -> Vec<&'static str> {
    [
        (flag::FIRST_CNP, "first_cnp"),
        (flag::RECOVERED, "recovered"),
        (flag::LATE, "late"),
    ]
    .iter()
    .filter(|(b, _)| f & *b != 0)
    .map(|x| x.1)
    .collect()
}

/// Load the parameters: the file, then the flag.
pub fn params(
    config: Option<&std::path::Path>,
    line_rate: Option<f64>,
) -> Result<DcqcnParams, String> {
    let mut p = match config {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("--config {}: {e}", path.display()))?;
            toml::from_str::<DcqcnParams>(&text)
                .map_err(|e| format!("--config {}: {e}", path.display()))?
        }
        None => DcqcnParams::default(),
    };
    if let Some(r) = line_rate {
        let d = DcqcnParams::for_line_rate(r, p.ns_per_cycle);
        // The rate-dependent defaults follow the flag unless the file set them.
        if config.is_none() {
            p = d;
        } else {
            p.line_rate_gbps = r;
        }
    }
    p.regs()?;
    Ok(p)
}

/// Replay; `model`: "f64", "golden" or "rtl".
pub fn run(
    p: &DcqcnParams,
    flows: u32,
    model: &str,
    engine: EngineKind,
    input: Box<dyn Read>,
    out: &mut dyn Write,
) -> Result<usize, String> {
    let cfg = p.regs()?;
    let mut m = match (model, flows) {
        ("rtl", 1024) => Model::Rtl10(
            nic_engines::cosim::engine(engine, "dcqcn_replay"),
            Box::default(),
        ),
        ("rtl", 4096) => Model::Rtl12(
            nic_engines::cosim::engine(engine, "dcqcn_replay"),
            Box::default(),
        ),
        (_, 1024) => Model::Golden10(Box::default()),
        (_, 4096) => Model::Golden12(Box::default()),
        _ => return Err(format!("--flows {flows}: the RP is built for 1024 or 4096")),
    };
    let mut f64m = (model == "f64").then(|| DcqcnRef::new(p.clone(), flows as usize));
    let ns = p.ns_per_cycle;
    let mut rejected = 0;
    let mut seen = HashSet::new();
    let mut queue: VecDeque<Pending> = VecDeque::new();
    let mut last_t = 0.0f64;
    let lines = BufReader::new(input).lines();
    let mut lines = lines.enumerate().peekable();
    // Events the RP's register slice holds (accepted at `s_event`, not yet
    // taken at its head), in order.
    let mut in_slice: VecDeque<Pending> = VecDeque::new();
    // Events taken at the slice's head: (cycle, merged into a CNP in
    // flight, event), in order.
    let mut in_flight: VecDeque<(u64, bool, Pending)> = VecDeque::new();
    let mut rate: HashMap<u16, (u32, u32, u8)> = HashMap::new();
    let mut prev = Out::default();
    let mut cycle: u64 = 0;
    let mut pending_coalesce: Option<Pending> = None;
    let emit =
        |out: &mut dyn Write, v: serde_json::Value| writeln!(out, "{v}").map_err(|e| e.to_string());
    loop {
        // Read lines due by this cycle (and one ahead to know the next).
        while queue.back().is_none_or(|b| b.cycle <= cycle) {
            let Some((n, line)) = lines.next() else { break };
            let n = n + 1;
            let line = line.map_err(|e| e.to_string())?;
            if line.trim().is_empty() {
                continue;
            }
            let parsed = serde_json::from_str::<Line>(&line)
                .map_err(|e| e.to_string())
                .and_then(|l| to_event(&l, flows).map(|e| (l.t_ns, e)));
            match parsed {
                Ok((t, _)) if t < last_t => {
                    eprintln!("cc-replay: line {n}: rejected: t_ns {t} is before the previous line's {last_t}");
                    rejected += 1;
                }
                Ok((t, ev)) => {
                    last_t = t;
                    let c = (t / ns).round() as u64;
                    if ev.op != OP_CREATE && seen.insert(ev.flow) {
                        queue.push_back(Pending {
                            line: 0,
                            t_ns: t,
                            cycle: c,
                            ev: RpEvent {
                                op: OP_CREATE,
                                flow: ev.flow,
                                bytes: 0,
                            },
                        });
                    }
                    seen.insert(ev.flow);
                    queue.push_back(Pending {
                        line: n,
                        t_ns: t,
                        cycle: c,
                        ev,
                    });
                }
                Err(e) => {
                    eprintln!("cc-replay: line {n}: rejected: {e}");
                    rejected += 1;
                }
            }
        }
        if queue.is_empty()
            && in_slice.is_empty()
            && in_flight.is_empty()
            && pending_coalesce.is_none()
            && lines.peek().is_none()
        {
            // Let the timers run out: until no flow reacts, for at most
            // one second of trace after the last event.
            let idle_until = cycle + (1e9 / ns) as u64;
            let mut quiet = 0;
            while cycle < idle_until && quiet < 64 {
                let i = In {
                    cfg,
                    ev_valid: false,
                    ev: RpEvent::default(),
                };
                let Step {
                    out: o, applied, ..
                } = m.step(&i, cycle)?;
                if let (Some(fm), Some(a)) = (&mut f64m, applied) {
                    fm.apply(&a);
                }
                timer_lines(&f64m, &o, &mut rate, cycle, ns, out, &emit)?;
                quiet = if o.stats.visits == prev.stats.visits {
                    quiet + 1
                } else {
                    0
                };
                prev = o;
                cycle += 1;
            }
            break;
        }
        let offer = queue.front().filter(|q| q.cycle <= cycle);
        let i = In {
            cfg,
            ev_valid: offer.is_some(),
            ev: offer.map_or(RpEvent::default(), |q| q.ev),
        };
        let Step {
            out: o,
            applied,
            taken,
        } = m.step(&i, cycle)?;
        // The f64 reference follows the twin's applied operations.
        if let (Some(fm), Some(a)) = (&mut f64m, applied) {
            fm.apply(&a);
        }
        // A coalesced CNP (taken last cycle) shows in the counter now.
        if let Some(pc) = pending_coalesce.take() {
            let merged = o.stats.coalesced != prev.stats.coalesced;
            in_flight.push_back((cycle - 1, merged, pc));
        }
        // The slice's head (the oldest event in it) was taken this cycle;
        // the event offered this cycle entered the slice.
        if taken {
            pending_coalesce = in_slice.pop_front();
        }
        if offer.is_some() && o.ev_ready {
            in_slice.extend(queue.pop_front());
        }
        // The event taken HEAD_LATENCY cycles ago takes effect now (its
        // update, if any, is on the ports); a visit's update otherwise.
        let due = in_flight
            .front()
            .is_some_and(|(c, _, _)| *c + HEAD_LATENCY as u64 == cycle);
        if due {
            let (_, merged, pe) = in_flight.pop_front().unwrap();
            let (st, fl) = if merged {
                // Merged into the CNP in flight (whose update came a
                // cycle or more ago): a visit's update may be on the ports.
                timer_lines(&f64m, &o, &mut rate, cycle, ns, out, &emit)?;
                ("coalesced", vec![])
            } else if o.update_valid && o.update.flow == pe.ev.flow {
                rate.insert(o.update.flow, (o.update.r, o.update.u, o.update.inc_stage));
                (status_name(o.update.status), flag_names(o.update.flags))
            } else {
                ("none", vec![])
            };
            let r = rate.get(&pe.ev.flow).copied().unwrap_or_default();
            let rg = match &f64m {
                Some(fm) => fm.flows[pe.ev.flow as usize].rc * 8.0,
                None => r.0 as f64 * 8.0 / 65536.0,
            };
            if pe.line != 0 {
                emit(
                    out,
                    serde_json::json!({"line": pe.line, "t_ns": pe.t_ns, "flow": pe.ev.flow, "event": OP_NAMES[pe.ev.op as usize], "rate_gbps": rg, "alpha": r.1 as f64 / ALPHA_ONE as f64, "inc_stage": r.2, "status": st, "flags": fl}),
                )?;
            }
        } else {
            timer_lines(&f64m, &o, &mut rate, cycle, ns, out, &emit)?;
        }
        prev = o;
        cycle += 1;
    }
    Ok(rejected)
}

/// A timer step's line: an update that no event is due for.
#[allow(clippy::too_many_arguments)]
fn timer_lines(
    f64m: &Option<DcqcnRef>,
    o: &Out,
    rate: &mut HashMap<u16, (u32, u32, u8)>,
    cycle: u64,
    ns: f64,
    out: &mut dyn Write,
    emit: &dyn Fn(&mut dyn Write, serde_json::Value) -> Result<(), String>,
) -> Result<(), String> {
    if o.update_valid {
        rate.insert(o.update.flow, (o.update.r, o.update.u, o.update.inc_stage));
        let rg = match f64m {
            Some(fm) => fm.flows[o.update.flow as usize].rc * 8.0,
            None => o.update.r as f64 * 8.0 / 65536.0,
        };
        emit(
            out,
            serde_json::json!({"line": null, "t_ns": cycle as f64 * ns, "flow": o.update.flow, "event": "timer", "rate_gbps": rg, "alpha": o.update.u as f64 / ALPHA_ONE as f64, "inc_stage": o.update.inc_stage, "status": status_name(o.update.status), "flags": flag_names(o.update.flags)}),
        )?;
    }
    Ok(())
}

/// The command: parameters, input, replay; exit status as cc-replay's.
pub fn main(
    config: Option<&std::path::Path>,
    line_rate: Option<f64>,
    flows: u32,
    model: &str,
    engine: EngineKind,
    file: Option<&std::path::Path>,
) -> i32 {
    let p = match params(config, line_rate) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: cc-replay: bad parameters: {e}");
            return 2;
        }
    };
    if !matches!(flows, 1024 | 4096) {
        eprintln!("error: cc-replay: --algo dcqcn is built for 1024 or 4096 flows, not {flows}");
        return 2;
    }
    let reader: Box<dyn Read> = match file {
        None => Box::new(std::io::stdin().lock()),
        Some(f) if f.as_os_str() == "-" => Box::new(std::io::stdin().lock()),
        Some(f) => match std::fs::File::open(f) {
            Ok(h) => Box::new(h),
            Err(e) => {
                eprintln!("error: cc-replay: FILE {}: {e}", f.display());
                return 2;
            }
        },
    };
    let pb = args::progress(None, "{spinner} cc-replay dcqcn [{elapsed_precise}] {msg}");
    pb.enable_steady_tick(std::time::Duration::from_millis(200));
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let r = run(&p, flows, model, engine, reader, &mut out);
    pb.finish_and_clear();
    let _ = out.flush();
    match r {
        Ok(0) => 0,
        Ok(n) => {
            eprintln!("cc-replay: {n} line(s) rejected");
            1
        }
        Err(e) if e.contains("Broken pipe") => 0,
        Err(e) => {
            eprintln!("error: cc-replay: {e}");
            2
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn replay(model: &str, text: &str) -> Vec<serde_json::Value> {
        let p = DcqcnParams::default();
        let mut out = Vec::new();
        let n = run(
            &p,
            1024,
            model,
            EngineKind::Verilator,
            Box::new(std::io::Cursor::new(text.to_string())),
            &mut out,
        )
        .unwrap();
        assert_eq!(n, 0);
        String::from_utf8(out)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }

    const TRACE: &str = r#"{"flow": 7, "t_ns": 0, "sent_bytes": 1000}
{"flow": 7, "t_ns": 100, "cnp": true}
{"flow": 7, "t_ns": 105, "cnp": true}
{"flow": 7, "t_ns": 1000, "cnp": true}
{"flow": 7, "t_ns": 19999, "sent_bytes": 1000}
{"flow": 7, "t_ns": 20000, "cnp": true}
{"flow": 7, "t_ns": 400000, "sent_bytes": 1000}
"#;

    /// The first CNP halves the rate (α = 1); a CNP 5 ns later is merged
    /// into it; one in the same decrease period is held and cut at the
    /// next period by the timer; one later, in the cycle after a sent
    /// packet's event of its flow, waits at the RP's slice head for it
    /// and cuts (the replay sees the wait through the twin); the timer then
    /// raises the rate back to line rate. f64 and the twin agree to 0.1 %.
    #[test]
    fn dcqcn_replay_cuts_holds_and_recovers() {
        let g = replay("golden", TRACE);
        let ev: Vec<&serde_json::Value> = g.iter().filter(|v| !v["line"].is_null()).collect();
        let st: Vec<&str> = ev.iter().map(|v| v["status"].as_str().unwrap()).collect();
        assert_eq!(
            st,
            [
                "none",
                "update",
                "coalesced",
                "held",
                "none",
                "update",
                "none"
            ],
            "{g:?}"
        );
        assert_eq!(ev[1]["rate_gbps"].as_f64().unwrap(), 50.0);
        let held_cut = g.iter().position(|v| v["event"] == "timer").unwrap();
        assert!(
            g[held_cut]["rate_gbps"].as_f64().unwrap() < 26.0,
            "{}",
            g[held_cut]
        );
        let last = g.last().unwrap();
        assert_eq!(last["rate_gbps"].as_f64().unwrap(), 100.0, "{last}");
        assert_eq!(last["flags"][0], "recovered");
        // The RTL (Verilator) gives the same lines.
        assert_eq!(replay("rtl", TRACE), g);
        let f = replay("f64", TRACE);
        assert_eq!(f.len(), g.len());
        for (a, b) in f.iter().zip(&g) {
            let (x, y) = (
                a["rate_gbps"].as_f64().unwrap(),
                b["rate_gbps"].as_f64().unwrap(),
            );
            assert!((x - y).abs() <= 1e-3 * x, "{a} {b}");
        }
    }
}
