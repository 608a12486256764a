//! `hpccnic cc-compare`: DCQCN and HPCC++ on the same bottleneck
//! (`nic_netsim::fluid_dcqcn` and `nic_netsim::fluid`): N flows start at
//! line rate into one 100G port. Writes `queue.svg` (the two queues),
//! `rates.svg` (each flow's rate under each) and `summary.json`, and prints
//! the summary.

use crate::netsim::COLORS;
use clap::Args;
use nic_golden::cc::dcqcn_params::DcqcnParams;
use nic_golden::cc::hpcc_ref::HpccRef;
use nic_golden::cc::params::CcParams;
use nic_netsim::fluid::{self, FluidCfg};
use nic_netsim::fluid_dcqcn::{self, DcqcnFluidCfg, RateFrom};
use plotters::prelude::*;
use std::path::{Path, PathBuf};

#[derive(Args, Debug)]
pub struct CompareArgs {
    /// Flows into the bottleneck, 1..=1024 (default 16).
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=1024))]
    flows: u32,
    /// Simulated time, ms, in (0, 1000] (default 20).
    #[arg(long, default_value_t = 20.0, value_parser = parse_ms)]
    duration_ms: f64,
    /// Where to write the plots and summary.json.
    #[arg(long, default_value = "build/cc-compare")]
    out_dir: PathBuf,
}

fn parse_ms(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(v) if v > 0.0 && v <= 1000.0 => Ok(v),
        _ => Err(format!("`{s}` is not in (0, 1000] ms")),
    }
}

/// At most `n` points: the largest queue of each time bucket.
fn bucket_max(q: &[(f64, u64)], t_end: f64, n: usize) -> Vec<(f64, f64)> {
    let mut b = vec![None::<f64>; n];
    for &(t, v) in q {
        let k = ((t / t_end * n as f64) as usize).min(n - 1);
        b[k] = Some(b[k].map_or(v as f64, |x: f64| x.max(v as f64)));
    }
    b.iter()
        .enumerate()
        .filter_map(|(k, v)| v.map(|v| ((k as f64 + 0.5) * t_end / n as f64 / 1000.0, v / 1000.0)))
        .collect()
}

type Res = Result<(), Box<dyn std::error::Error>>;

fn plot_queue(path: &Path, flows: u32, t_end: f64, d: &[(f64, f64)], h: &[(f64, f64)]) -> Res {
    let y_max = d.iter().chain(h).map(|p| p.1).fold(1.0, f64::max) * 1.1;
    let root = SVGBackend::new(path, (900, 420)).into_drawing_area();
    root.fill(&WHITE)?;
    let mut ch = ChartBuilder::on(&root)
        .caption(
            format!("{flows} flows into one 100G port: queue"),
            ("sans-serif", 16),
        )
        .margin(8)
        .x_label_area_size(30)
        .y_label_area_size(70)
        .build_cartesian_2d(0f64..t_end / 1000.0, 0f64..y_max)?;
    ch.configure_mesh()
        .x_desc("time (us)")
        .y_desc("queue (KB)")
        .draw()?;
    for (n, (name, pts)) in [("DCQCN", d), ("HPCC++", h)].into_iter().enumerate() {
        let c = COLORS[n];
        ch.draw_series(LineSeries::new(pts.iter().copied(), c))?
            .label(name)
            .legend(move |(x, y)| PathElement::new([(x, y), (x + 16, y)], c));
    }
    ch.configure_series_labels()
        .border_style(BLACK)
        .background_style(WHITE)
        .draw()?;
    root.present()?;
    Ok(())
}

/// Per-flow rate steps (at most 8 flows drawn), Gb/s.
fn plot_rates(path: &Path, t_end: f64, panels: [(&str, Vec<Vec<(f64, f64)>>); 2]) -> Res {
    let root = SVGBackend::new(path, (900, 700)).into_drawing_area();
    root.fill(&WHITE)?;
    for (area, (name, flows)) in root.split_evenly((2, 1)).iter().zip(panels) {
        let mut ch = ChartBuilder::on(area)
            .caption(format!("{name}: each flow's rate"), ("sans-serif", 16))
            .margin(8)
            .x_label_area_size(30)
            .y_label_area_size(60)
            .build_cartesian_2d(0f64..t_end / 1000.0, 0f64..105.0)?;
        ch.configure_mesh()
            .x_desc("time (us)")
            .y_desc("Gb/s")
            .draw()?;
        for (k, pts) in flows.iter().take(8).enumerate() {
            ch.draw_series(LineSeries::new(pts.iter().copied(), COLORS[k % 8]))?;
        }
    }
    root.present()?;
    Ok(())
}

/// One point per flow per bucket (the last value), as steps.
fn rate_steps(
    trace: impl Iterator<Item = (f64, usize, f64)>,
    flows: usize,
    t_end: f64,
    start: f64,
) -> Vec<Vec<(f64, f64)>> {
    let n = 2000;
    let mut last = vec![vec![None::<f64>; n]; flows];
    for (t, f, r) in trace {
        let k = ((t / t_end * n as f64) as usize).min(n - 1);
        if f < flows {
            last[f][k] = Some(r);
        }
    }
    last.iter()
        .map(|b| {
            let mut cur = start;
            b.iter()
                .enumerate()
                .map(|(k, v)| {
                    if let Some(v) = v {
                        cur = *v;
                    }
                    (k as f64 * t_end / n as f64 / 1000.0, cur)
                })
                .collect()
        })
        .collect()
}

pub fn main(a: CompareArgs) -> i32 {
    let flows = a.flows as usize;
    let dur = a.duration_ms * 1e6;
    let p = DcqcnParams::default();
    let c = DcqcnFluidCfg {
        net: FluidCfg {
            flows,
            duration_ns: dur,
            ..Default::default()
        },
        ..Default::default()
    };
    let d = fluid_dcqcn::run(&p, &c, RateFrom::Fixed);
    let hp = CcParams::default();
    let mut m = HpccRef::new(&hp.effective().unwrap());
    let h = fluid::run(&hp, &c.net, &mut m);
    let line_bytes = 100.0 / 8.0 * dur;
    let pct = fluid_dcqcn::queue_pct;
    let summary = serde_json::json!({
        "flows": flows, "duration_ms": a.duration_ms, "link_gbps": 100,
        "dcqcn": {"utilisation": d.delivered as f64 / line_bytes, "max_queue_bytes": d.max_queue,
                  "p99_queue_bytes": pct(&d.queue, 99.0), "ecn_marks": d.marks, "cnps": d.cnps},
        "hpcc": {"utilisation": h.delivered as f64 / line_bytes, "max_queue_bytes": h.max_queue,
                 "p99_queue_bytes": pct(&h.queue, 99.0)},
    });
    if let Err(e) = std::fs::create_dir_all(&a.out_dir) {
        eprintln!("error: cc-compare: --out-dir {}: {e}", a.out_dir.display());
        return 2;
    }
    let t = hp.base_rtt_ns;
    let dq = bucket_max(&d.queue, dur, 2000);
    let hq = bucket_max(&h.queue, dur, 2000);
    let r = plot_queue(&a.out_dir.join("queue.svg"), a.flows, dur, &dq, &hq).and_then(|_| {
        plot_rates(
            &a.out_dir.join("rates.svg"),
            dur,
            [
                (
                    "DCQCN",
                    rate_steps(d.trace.iter().copied(), flows, dur, 100.0),
                ),
                (
                    "HPCC++ (R = W/T)",
                    rate_steps(
                        h.trace.iter().map(|&(tt, f, w)| (tt, f, w / t * 8.0)),
                        flows,
                        dur,
                        100.0,
                    ),
                ),
            ],
        )
    });
    if let Err(e) = r {
        eprintln!("error: cc-compare: plot: {e}");
        return 2;
    }
    let text = serde_json::to_string_pretty(&summary).unwrap();
    if let Err(e) = std::fs::write(a.out_dir.join("summary.json"), &text) {
        eprintln!("error: cc-compare: {e}");
        return 2;
    }
    println!("{text}");
    println!(
        "plots: {}/queue.svg, {}/rates.svg",
        a.out_dir.display(),
        a.out_dir.display()
    );
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two ms of 4 flows: both plots and the summary are written, and the
    /// summary holds both algorithms' figures.
    #[test]
    fn cc_compare_writes_plots_and_summary() {
        let dir = std::env::temp_dir().join(format!("cc-compare-{}", std::process::id()));
        let a = CompareArgs {
            flows: 4,
            duration_ms: 2.0,
            out_dir: dir.clone(),
        };
        assert_eq!(main(a), 0);
        for f in ["queue.svg", "rates.svg"] {
            let s = std::fs::read_to_string(dir.join(f)).unwrap();
            assert!(s.contains("<polyline"), "{f}");
        }
        let v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("summary.json")).unwrap())
                .unwrap();
        assert!(
            v["dcqcn"]["max_queue_bytes"].as_u64().unwrap()
                > v["hpcc"]["max_queue_bytes"].as_u64().unwrap()
        );
        assert!(v["hpcc"]["utilisation"].as_f64().unwrap() > 0.5);
        std::fs::remove_dir_all(dir).ok();
    }
}
