//! `hpccnic cc-loop`: the CC in the loop on the NIC core
//! (`nic_netsim::cc_loop`), with W, R and the bottleneck queue over time
//! drawn as an SVG (plotters) and optionally written as CSV.

use clap::Args;
use nic_golden::cc::params::Variant;
use nic_netsim::cc_loop::{run, CcLoopCfg, CcLoopRun, NS_PER_CYCLE};
use plotters::prelude::*;
use std::path::PathBuf;

#[derive(Args)]
pub struct CcLoopArgs {
    /// HPCC++ variant: newack (sender-based: the sender's CC on every
    /// ACK) or newint (receiver-based: the receiver's CC, W back in a
    /// NOTIFY once per T).
    #[arg(long, default_value = "newack", value_parser = ["newack", "newint"])]
    variant: String,
    /// Bottleneck rate, Gb/s: a telemetry rate code's rate below the
    /// NIC's 100 (25 or 50).
    #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(u32).range(25..=50))]
    bottleneck_gbps: u32,
    /// Number of 64 KiB WRITEs (1..=256).
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=256))]
    messages: u32,
    /// Where to write the plot (SVG).
    #[arg(long, default_value = "build/cc-loop.svg")]
    svg: PathBuf,
    /// Where to write the traces (CSV: cycle, kind, value), if given.
    #[arg(long)]
    csv: Option<PathBuf>,
}

pub fn main(a: CcLoopArgs) -> i32 {
    if a.bottleneck_gbps != 25 && a.bottleneck_gbps != 50 {
        eprintln!("error: --bottleneck-gbps: 25 or 50 (a telemetry rate code below the NIC's 100)");
        return 2;
    }
    let c = CcLoopCfg {
        variant: if a.variant == "newint" {
            Variant::Receiver
        } else {
            Variant::Sender
        },
        bottleneck_gbps: a.bottleneck_gbps as f64,
        messages: a.messages,
        ..CcLoopCfg::default()
    };
    let r = run(&c);
    let (util, q_mean, q_max) = r.steady(r.cycles / 2);
    println!(
        "cc-loop {}: {} cycles ({:.1} us), bottleneck {} Gb/s; second half: utilisation {util:.3}, queue mean {q_mean:.0} B, max {q_max} B; {} updates of the sender's W and R",
        a.variant,
        r.cycles,
        r.cycles as f64 * NS_PER_CYCLE / 1000.0,
        a.bottleneck_gbps,
        r.cc.len()
    );
    if let Err(e) = plot(&a, &r) {
        eprintln!("error: {}: {e}", a.svg.display());
        return 2;
    }
    println!("wrote {}", a.svg.display());
    if let Some(p) = &a.csv {
        let mut s = String::from("cycle,kind,value\n");
        for (t, w, rr) in &r.cc {
            s += &format!("{t},W_bytes,{w}\n{t},R_bytes_per_ns,{rr}\n");
        }
        for (t, q, _) in &r.queue {
            s += &format!("{t},queue_bytes,{q}\n");
        }
        if let Err(e) = std::fs::write(p, s) {
            eprintln!("error: --csv {}: {e}", p.display());
            return 2;
        }
        println!("wrote {}", p.display());
    }
    if !r.errors.is_empty() {
        eprintln!("errors: {:?}", r.errors);
        return 1;
    }
    0
}

fn plot(a: &CcLoopArgs, r: &CcLoopRun) -> Result<(), Box<dyn std::error::Error>> {
    if let Some(d) = a.svg.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(d)?;
    }
    let us = |c: u64| c as f64 * NS_PER_CYCLE / 1000.0;
    let t_end = us(r.cycles);
    let root = SVGBackend::new(&a.svg, (900, 720)).into_drawing_area();
    root.fill(&WHITE)?;
    let parts = root.split_evenly((3, 1));
    let title = format!(
        "HPCC++ {} on hpcc_nic_core (golden twin = RTL), {} Gb/s bottleneck",
        a.variant, a.bottleneck_gbps
    );
    let series: [(&str, Vec<(f64, f64)>, RGBColor); 3] = [
        (
            "sender's W (KB)",
            r.cc.iter().map(|&(t, w, _)| (us(t), w / 1000.0)).collect(),
            BLUE,
        ),
        (
            "sender's R (Gb/s)",
            r.cc.iter().map(|&(t, _, rr)| (us(t), rr * 8.0)).collect(),
            RED,
        ),
        (
            "bottleneck queue (KB)",
            r.queue
                .iter()
                .map(|&(t, q, _)| (us(t), q as f64 / 1000.0))
                .collect(),
            BLACK,
        ),
    ];
    for (k, (area, (name, pts, color))) in parts.iter().zip(series.iter()).enumerate() {
        let y_max = pts.iter().map(|p| p.1).fold(1e-9, f64::max) * 1.1;
        let mut ch = ChartBuilder::on(area)
            .caption(if k == 0 { title.as_str() } else { "" }, ("sans-serif", 16))
            .margin(8)
            .x_label_area_size(28)
            .y_label_area_size(60)
            .build_cartesian_2d(0f64..t_end, 0f64..y_max)?;
        ch.configure_mesh()
            .x_desc("time (us)")
            .y_desc(*name)
            .draw()?;
        ch.draw_series(LineSeries::new(pts.iter().copied(), color))?;
        if k == 1 {
            let target = 0.95 * a.bottleneck_gbps as f64;
            ch.draw_series(LineSeries::new(
                [(0.0, target), (t_end, target)],
                RGBColor(0, 150, 0),
            ))?
            .label(format!("eta x bottleneck = {target:.1} Gb/s"))
            .legend(|(x, y)| PathElement::new([(x, y), (x + 16, y)], RGBColor(0, 150, 0)));
            ch.configure_series_labels().border_style(BLACK).draw()?;
        }
    }
    root.present()?;
    Ok(())
}
