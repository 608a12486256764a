//! `hpccnic netsim --compare A,B,...`: one scenario under several
//! congestion controls, side by side.
//!
//! Runs the scenario once per CC (every other flag as given) into
//! `--out DIR/<cc>/` (each with the full output of a single run), then
//! writes into `DIR`:
//! - `compare.svg`: the queue over time under each CC (the bottleneck
//!   port's in an incast or a dumbbell; in a leaf-spine, which has many
//!   hot ports, the deepest queue of any port at each sample) and, when
//!   the scenario has sized flows, the p50 and p99 FCT slowdown per flow
//!   size under each;
//! - `compare.md`: the table (the bottleneck's utilisation, peak, p99 and
//!   mean queue, Jain, drops and pauses, frames the NICs dropped with a
//!   full receive buffer, DCQCN's marks and cuts, FCT slowdown per size,
//!   wall time), also printed;
//! - `compare.json`: the runs' summaries, keyed by CC.
//!
//! Exit: 2 for a bad scenario or flag (nothing runs), 1 if any run
//! completed a work request wrongly, else 0.

use crate::netsim::{bucket_label, bucket_range, bucket_x, run_one, Done, NetsimArgs, COLORS};
use nic_netsim::net::results::Bottleneck;
use nic_netsim::net::results::BUCKETS;
use nic_netsim::net::scenario::{CcAlgo, TopoKind};
use plotters::prelude::*;
use std::fmt::Write as _;
use std::path::Path;

/// The CC's name as the flag and the scenario spell it.
pub fn algo_name(c: CcAlgo) -> String {
    use clap::ValueEnum;
    c.to_possible_value()
        .map_or_else(|| format!("{c:?}"), |v| v.get_name().to_string())
}

pub fn main(a: &NetsimArgs, algos: &[CcAlgo]) -> i32 {
    let mut seen = Vec::new();
    for &c in algos {
        if seen.contains(&c) {
            eprintln!("error: --compare: {} is listed twice", algo_name(c));
            return 2;
        }
        seen.push(c);
    }
    if algos.len() < 2 {
        eprintln!("error: --compare: give at least two CCs, e.g. hpcc-sender,dcqcn");
        return 2;
    }
    // Check every plan before running any.
    let one = |c: CcAlgo, check: bool| NetsimArgs {
        cc: Some(c),
        out: a.out.join(algo_name(c)),
        check,
        compare: None,
        ..a.clone()
    };
    for &c in algos {
        if let Err(e) = crate::netsim::plan_of(&one(c, true)) {
            eprintln!("error: --compare {}: {e}", algo_name(c));
            return 2;
        }
    }
    if a.check {
        return 0;
    }
    // One thread per CC: the runs share nothing, so on a machine with a
    // core per CC the comparison takes the time of its longest run. Their
    // lines interleave; each run's first line names its CC (`scenario …:
    // …, <CC>, …`) and its last its output directory (`results: DIR/<cc>`).
    let args: Vec<NetsimArgs> = algos.iter().map(|&c| one(c, false)).collect();
    let results: Vec<Result<Option<Done>, i32>> = std::thread::scope(|s| {
        let handles: Vec<_> = args.iter().map(|x| s.spawn(move || run_one(x))).collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or(Err(2)))
            .collect()
    });
    let mut done = Vec::new();
    for r in results {
        match r {
            Ok(Some(d)) => done.push(d),
            Ok(None) => unreachable!("not a check"),
            Err(code) => return code,
        }
    }
    let table = table(&done);
    print!("{table}");
    let written = (|| -> Result<(), Box<dyn std::error::Error>> {
        std::fs::write(a.out.join("compare.md"), &table)?;
        let mut json = serde_json::Map::new();
        for d in &done {
            json.insert(
                algo_name(d.plan.scenario.cc.algo),
                serde_json::to_value(&d.summary)?,
            );
        }
        std::fs::write(
            a.out.join("compare.json"),
            serde_json::to_string_pretty(&json)? + "\n",
        )?;
        plot(&a.out.join("compare.svg"), &done)?;
        Ok(())
    })();
    if let Err(e) = written {
        eprintln!("error: --out {}: {e}", a.out.display());
        return 2;
    }
    println!("compared: {}", a.out.display());
    done.iter().map(Done::exit_code).max().unwrap_or(0)
}

/// The bottleneck the comparison uses: the summary's (the port that sent
/// most) in an incast or a dumbbell, where that is the one hot port; none
/// in a leaf-spine, whose Poisson flows meet at many ports (the busiest
/// is not the most congested).
fn bottleneck(d: &Done) -> Option<&Bottleneck> {
    match d.plan.scenario.topology.kind {
        TopoKind::LeafSpine => None,
        TopoKind::Incast | TopoKind::Dumbbell => d.summary.bottleneck.as_ref(),
    }
}

/// The queue the comparison plots and tabulates: the bottleneck port's,
/// or the deepest of any port at each sample. (µs, bytes) per sample,
/// and what it is.
fn queue_series(d: &Done) -> (Vec<(f64, f64)>, String) {
    let r = &d.result;
    let ns = d.plan.ns_per_cycle;
    let t = |c: u64| c.saturating_sub(nic_netsim::net::run::T0) as f64 * ns / 1000.0;
    let port = bottleneck(d).and_then(|b| r.ports.iter().position(|p| *p == b.port));
    match port {
        Some(k) => (
            r.samples
                .iter()
                .zip(&r.queue[k])
                .map(|(&c, &q)| (t(c), q as f64))
                .collect(),
            format!("queue at {}", r.ports[k]),
        ),
        None => (
            (0..r.samples.len())
                .map(|i| {
                    let deepest = r.queue.iter().map(|q| q[i]).max().unwrap_or(0);
                    (t(r.samples[i]), deepest as f64)
                })
                .collect(),
            "deepest queue of any port".into(),
        ),
    }
}

/// Peak, p99 and mean of the compared queue (the bottleneck's figures
/// over the steady window, or the largest of any port's).
fn queue_figures(d: &Done) -> (u64, u64, f64) {
    match bottleneck(d) {
        Some(b) => (b.peak_queue_bytes, b.p99_queue_bytes, b.mean_queue_bytes),
        None => d
            .summary
            .ports
            .iter()
            .map(|p| (p.peak_queue_bytes, p.p99_queue_bytes, p.mean_queue_bytes))
            .fold((0, 0, 0.0), |a, p| {
                (a.0.max(p.0), a.1.max(p.1), a.2.max(p.2))
            }),
    }
}

fn kb(b: f64) -> String {
    if b >= 1e6 {
        format!("{:.2} MB", b / 1e6)
    } else {
        format!("{:.1} KB", b / 1e3)
    }
}

/// The Markdown table of the runs.
fn table(done: &[Done]) -> String {
    let mut t = String::new();
    let s0 = &done[0].summary;
    let what = if bottleneck(&done[0]).is_some() {
        "the bottleneck port, steady window"
    } else {
        "the largest of any port"
    };
    let _ = writeln!(
        t,
        "{}: {} hosts, {} Gb/s, {:.0} µs simulated; queue figures of {what}\n",
        s0.scenario, s0.hosts, s0.link_gbps, s0.simulated_us
    );
    let _ = writeln!(
        t,
        "| CC | utilisation | peak queue | p99 queue | mean queue | Jain | drops, pauses | NIC rx drops (buffer full) | CE marks / CNPs / cuts | flows done | wall |"
    );
    let _ = writeln!(t, "|---|---|---|---|---|---|---|---|---|---|---|");
    for d in done {
        let s = &d.summary;
        let (peak, p99, mean) = queue_figures(d);
        let _ = writeln!(
            t,
            "| {} | {} | {} | {} | {} | {} | {}, {} | {} | {} | {}/{} | {:.0} s |",
            algo_name(d.plan.scenario.cc.algo),
            bottleneck(d).map_or("—".into(), |b| format!("{:.3}", b.utilisation)),
            kb(peak as f64),
            kb(p99 as f64),
            kb(mean),
            s.jain_index.map_or("—".into(), |j| format!("{j:.4}")),
            s.drops,
            s.pauses,
            s.nic.rx_drop_full,
            if s.nic.ce_marks + s.nic.cnps_received > 0 {
                format!(
                    "{} / {} / {}",
                    s.nic.ce_marks, s.nic.cnps_sent, s.nic.rate_cuts
                )
            } else {
                "—".into()
            },
            s.flows_completed,
            s.flows,
            d.wall_s
        );
    }
    if done.iter().any(|d| !d.summary.fct.is_empty()) {
        let _ = writeln!(t, "\nFCT slowdown, p50 / p99 (flows):\n");
        let _ = write!(t, "| flow size |");
        for d in done {
            let _ = write!(t, " {} |", algo_name(d.plan.scenario.cc.algo));
        }
        let _ = write!(t, "\n|---|");
        for _ in done {
            let _ = write!(t, "---|");
        }
        t.push('\n');
        for (bucket, _, _) in BUCKETS {
            let _ = write!(t, "| {bucket} |");
            for d in done {
                match d.summary.fct.iter().find(|b| b.sizes == *bucket) {
                    Some(b) => {
                        let _ = write!(
                            t,
                            " {:.2} / {:.2} ({}) |",
                            b.slowdown_p50, b.slowdown_p99, b.flows
                        );
                    }
                    None => t.push_str(" — |"),
                }
            }
            t.push('\n');
        }
    }
    t
}

/// `compare.svg`: the queues, and the FCT slowdowns when there are sized
/// flows.
fn plot(path: &Path, done: &[Done]) -> Result<(), Box<dyn std::error::Error>> {
    let with_fct = done.iter().any(|d| !d.summary.fct.is_empty());
    let h = if with_fct { 840 } else { 420 };
    let root = SVGBackend::new(path, (900, h)).into_drawing_area();
    root.fill(&WHITE)?;
    let panels = root.split_evenly((if with_fct { 2 } else { 1 }, 1));
    let series: Vec<_> = done.iter().map(queue_series).collect();
    let t_end = series
        .iter()
        .flat_map(|s| s.0.last().map(|p| p.0))
        .fold(1e-3, f64::max);
    let y_max = series
        .iter()
        .flat_map(|s| s.0.iter().map(|p| p.1 / 1000.0))
        .fold(1.0, f64::max)
        * 1.1;
    let mut ch = ChartBuilder::on(&panels[0])
        .caption(
            format!("{}: {}", done[0].summary.scenario, series[0].1),
            ("sans-serif", 16),
        )
        .margin(8)
        .x_label_area_size(30)
        .y_label_area_size(70)
        .build_cartesian_2d(0f64..t_end, 0f64..y_max)?;
    ch.configure_mesh()
        .x_desc("time (us)")
        .y_desc("queue (KB)")
        .draw()?;
    for (n, (d, s)) in done.iter().zip(&series).enumerate() {
        let c = COLORS[n % COLORS.len()];
        ch.draw_series(LineSeries::new(
            s.0.iter().map(|&(t, q)| (t, q / 1000.0)),
            c,
        ))?
        .label(algo_name(d.plan.scenario.cc.algo))
        .legend(move |(x, y)| PathElement::new([(x, y), (x + 16, y)], c));
    }
    ch.configure_series_labels()
        .border_style(BLACK)
        .background_style(WHITE)
        .draw()?;
    if with_fct {
        let x = bucket_x;
        let y_max = done
            .iter()
            .flat_map(|d| d.summary.fct.iter().map(|b| b.slowdown_p99))
            .fold(1.0, f64::max)
            * 1.1;
        let mut ch = ChartBuilder::on(&panels[1])
            .caption(
                "FCT slowdown by flow size: p50 (solid), p99 (dashed)",
                ("sans-serif", 16),
            )
            .margin(8)
            .x_label_area_size(30)
            .y_label_area_size(70)
            .build_cartesian_2d(bucket_range(), (1f64..y_max).log_scale())?;
        ch.configure_mesh()
            .x_desc("flow size")
            .y_desc("FCT slowdown")
            .x_labels(BUCKETS.len())
            .x_label_formatter(&bucket_label)
            .draw()?;
        for (n, d) in done.iter().enumerate() {
            let c = COLORS[n % COLORS.len()];
            let pts = |f: fn(&nic_netsim::net::results::FctBucket) -> f64| -> Vec<(f64, f64)> {
                d.summary
                    .fct
                    .iter()
                    .map(|b| (x(&b.sizes), f(b).max(1.0)))
                    .collect()
            };
            let p50 = pts(|b| b.slowdown_p50);
            let p99 = pts(|b| b.slowdown_p99);
            ch.draw_series(LineSeries::new(p50.clone(), c.stroke_width(2)))?
                .label(format!("{} p50", algo_name(d.plan.scenario.cc.algo)))
                .legend(move |(x, y)| PathElement::new([(x, y), (x + 16, y)], c));
            ch.draw_series(p50.iter().map(|&p| Circle::new(p, 3, c.filled())))?;
            ch.draw_series(DashedLineSeries::new(p99.clone(), 6, 4, c.into()))?
                .label(format!("{} p99", algo_name(d.plan.scenario.cc.algo)))
                .legend(move |(x, y)| {
                    PathElement::new([(x, y), (x + 6, y), (x + 10, y), (x + 16, y)], c)
                });
            ch.draw_series(p99.iter().map(|&p| TriangleMarker::new(p, 4, c.filled())))?;
        }
        ch.configure_series_labels()
            .border_style(BLACK)
            .background_style(WHITE)
            .draw()?;
    }
    root.present()?;
    Ok(())
}
