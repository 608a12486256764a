//! The figures of a network run: `summary.json` and the CSV series.
//!
//! - **Windows.** The *first RTT* starts with the first flow; the
//!   *steady window* starts `warmup_rtts` base RTTs later and ends when
//!   the last long flow stops (or the run ends, without long flows).
//! - **Bottleneck:** the switch port that sent the most bytes in the
//!   steady window. Its utilisation is bytes sent / (rate × window); its
//!   queue's peak, the RTT of the peak, p99 and mean over the window's
//!   samples.
//! - **Convergence:** the bottleneck's utilisation in each base RTT from
//!   the first flow on; it has converged from the first RTT k after
//!   which every RTT (to the window's end) stays within 0.05 of the
//!   steady window's utilisation.
//! - **Fairness:** Jain's index of the long flows' throughputs over the
//!   span when all of them run, from `warmup_rtts` after the last joins.
//! - **FCT:** sized flows, from their start to their last completion;
//!   slowdown = FCT / (base RTT + size / line rate), by size bucket.

use crate::net::run::{NetResult, T0};
use crate::net::scenario::Plan;
use serde::Serialize;
use std::fmt::Write as _;

#[derive(Clone, Debug, Serialize)]
pub struct PortSummary {
    pub port: String,
    pub gbps: f64,
    pub peak_queue_bytes: u64,
    pub p99_queue_bytes: u64,
    pub mean_queue_bytes: f64,
    pub utilisation: f64,
    pub tx_bytes: u64,
    pub drops: u64,
    pub ecn_marks: u64,
    pub pauses_sent: u64,
    pub paused_us: f64,
    pub stamped: u64,
}

#[derive(Clone, Debug, Serialize)]
pub struct Bottleneck {
    pub port: String,
    pub utilisation: f64,
    pub eta: f64,
    pub peak_queue_bytes: u64,
    /// Base RTTs from the first flow to the peak.
    pub peak_at_rtt: f64,
    /// Base RTTs from the first flow until the queue, after its peak,
    /// first fell to 4 MTU-sized packets or fewer (None: it did not).
    pub drained_at_rtt: Option<f64>,
    pub p99_queue_bytes: u64,
    pub mean_queue_bytes: f64,
    /// p99 queue in MTU-sized packets.
    pub p99_queue_packets: f64,
    /// Base RTTs until utilisation converged (None: it did not).
    pub converge_rtts: Option<u32>,
    /// Utilisation in each base RTT from the first flow on.
    pub per_rtt_utilisation: Vec<f64>,
}

#[derive(Clone, Debug, Serialize)]
pub struct ConnSummary {
    pub src: usize,
    pub dst: usize,
    pub qp: u32,
    /// Over the steady window, Gb/s.
    pub throughput_gbps: f64,
}

#[derive(Clone, Debug, Serialize)]
pub struct FctBucket {
    pub sizes: String,
    pub flows: usize,
    pub slowdown_p50: f64,
    pub slowdown_p95: f64,
    pub slowdown_p99: f64,
    pub fct_mean_us: f64,
}

/// What the NICs counted, summed over the hosts (their counters in the
/// last cycle).
#[derive(Clone, Debug, Default, Serialize)]
pub struct NicTotals {
    /// Frames the receive parsers accepted.
    pub rx_ok: u64,
    /// Frames dropped because a receive buffer was full, and each NIC's.
    pub rx_drop_full: u64,
    pub rx_drop_full_by_host: Vec<u32>,
    /// The most words any NIC's receive buffer held (its high-water
    /// mark; the golden hosts' buffer holds 2047, the RTL hosts' 1023).
    pub rx_buffer_peak_words: u64,
    /// The same for each NIC, by host.
    pub rx_buffer_peak_by_host: Vec<u16>,
    /// PAUSE frames the NICs sent on host back-pressure (XOFF, refreshes
    /// and XON), and the cycles their pauses were in force, summed.
    pub pauses_sent: u64,
    pub pause_cycles: u64,
    /// PAUSE frames each NIC sent.
    pub pauses_sent_by_host: Vec<u64>,
    /// Hosts whose link pause is off: their receive buffer has no room
    /// for their link's headroom (`nic_spec::roce::rx_pause_headroom_words`).
    pub pause_off_hosts: Vec<usize>,
    /// Frames dropped by any other parser check.
    pub rx_bad: u64,
    /// Retransmission timeouts and NAKs of the requesters.
    pub timeouts: u64,
    pub naks: u64,
    /// DCQCN: CE marks the notification points took, CNPs they sent,
    /// CNPs the reaction points received, and the rate cuts they made.
    pub ce_marks: u64,
    pub cnps_sent: u64,
    pub cnps_received: u64,
    pub rate_cuts: u64,
    /// DCQCN: the reaction points' rate increases (timer and byte
    /// counter), the SENT events they took (the byte counter's, from the
    /// cores' `SentTap`; 0 with `byte_reset` 0), and the packets whose
    /// bytes the taps dropped (`CoreStats.sent_drops`).
    pub rate_increases: u64,
    pub sents: u64,
    pub sent_drops: u64,
}

impl NicTotals {
    fn with_pauses(self, r: &crate::net::run::NetResult) -> Self {
        Self {
            pauses_sent: r.pauses_sent.iter().sum(),
            pauses_sent_by_host: r.pauses_sent.clone(),
            rx_drop_full_by_host: r.last.iter().map(|o| o.stats_parse.drop_full).collect(),
            pause_off_hosts: (0..r.rx_pause.len())
                .filter(|&h| r.rx_pause[h].is_none())
                .collect(),
            ..self
        }
    }
    fn with_rx_peak(self, by_host: &[u16]) -> Self {
        Self {
            rx_buffer_peak_words: by_host.iter().copied().max().unwrap_or(0) as u64,
            rx_buffer_peak_by_host: by_host.to_vec(),
            ..self
        }
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    pub scenario: String,
    pub topology: String,
    pub hosts: usize,
    pub cc: String,
    /// Hosts on the RTL (Verilator, the golden core in lockstep).
    pub rtl_hosts: Vec<usize>,
    /// How flows map onto QPs (`nic.qp`), and the most QPs any host used.
    pub qp: crate::net::scenario::QpMap,
    pub qps_max: usize,
    pub link_gbps: f64,
    pub ns_per_cycle: f64,
    pub base_rtt_ns: f64,
    pub w_ai_bytes: f64,
    pub simulated_us: f64,
    pub finished: bool,
    /// The steady window, µs from time 0.
    pub window_us: (f64, f64),
    pub bottleneck: Option<Bottleneck>,
    pub drops: u64,
    pub drops_after_first_rtt: u64,
    pub pauses: u64,
    pub pauses_after_first_rtt: u64,
    pub unroutable: u64,
    pub nic: NicTotals,
    pub jain_index: Option<f64>,
    /// The span Jain's index is over, µs.
    pub jain_window_us: Option<(f64, f64)>,
    /// For each long flow that joins after the first: µs from its start
    /// until its throughput (averaged over one base RTT) first reaches
    /// 80 % of its fair share (eta × link rate / long flows running).
    pub join_to_fair_us: Vec<Option<f64>>,
    pub connections: Vec<ConnSummary>,
    pub flows: usize,
    pub flows_completed: usize,
    pub fct: Vec<FctBucket>,
    pub ports: Vec<PortSummary>,
    pub packets: u64,
    pub errors: Vec<String>,
    /// What makes the figures above less than they seem: a steady window
    /// too short for any (the run ends before the warm-up does).
    pub warnings: Vec<String>,
}

fn percentile(v: &mut [f64], p: f64) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let k = ((p / 100.0) * (v.len() - 1) as f64).round() as usize;
    v[k]
}

/// Jain's index of `x`.
pub fn jain(x: &[f64]) -> f64 {
    let s: f64 = x.iter().sum();
    let q: f64 = x.iter().map(|v| v * v).sum();
    if q == 0.0 {
        0.0
    } else {
        s * s / (x.len() as f64 * q)
    }
}

/// The size buckets of the FCT table: (label, from, to).
pub const BUCKETS: [(&str, u64, u64); 5] = [
    ("<10KB", 0, 10_000),
    ("10KB-100KB", 10_000, 100_000),
    ("100KB-1MB", 100_000, 1_000_000),
    ("1MB-10MB", 1_000_000, 10_000_000),
    (">=10MB", 10_000_000, u64::MAX),
];

impl Summary {
    pub fn of(plan: &Plan, r: &NetResult) -> Summary {
        let us = |c: u64| c.saturating_sub(T0) as f64 * plan.ns_per_cycle / 1000.0;
        let rtt = (plan.base_rtt_ns / plan.ns_per_cycle).max(1.0);
        let first = T0 + plan.flows.iter().map(|f| f.start).min().unwrap_or(0);
        let long_stop = plan
            .flows
            .iter()
            .filter(|f| f.size.is_none())
            .map(|f| T0 + f.stop)
            .max();
        let w0 = first + plan.warmup;
        let w1 = long_stop.unwrap_or(r.cycles).min(r.cycles);
        // Sample indices in [a, b].
        let idx = |a: u64, b: u64| -> (usize, usize) {
            let i = r.samples.partition_point(|&s| s < a);
            let j = r.samples.partition_point(|&s| s <= b);
            (i, j.max(i))
        };
        let (i0, i1) = idx(w0, w1);
        let span = |i: usize, j: usize| -> f64 {
            if j > i + 1 {
                (r.samples[j - 1] - r.samples[i]) as f64
            } else {
                0.0
            }
        };
        let util = |k: usize, i: usize, j: usize| -> f64 {
            let c = span(i, j);
            if c == 0.0 {
                0.0
            } else {
                (r.port_tx[k][j - 1] - r.port_tx[k][i]) as f64 / (r.port_rate[k] * c)
            }
        };
        let mtu = plan.scenario.cc.mtu as f64;
        let ports: Vec<PortSummary> = (0..r.ports.len())
            .map(|k| {
                let mut q: Vec<f64> = r.queue[k][i0..i1].iter().map(|&x| x as f64).collect();
                let mean = if q.is_empty() {
                    0.0
                } else {
                    q.iter().sum::<f64>() / q.len() as f64
                };
                let st = r.port_stats[k];
                PortSummary {
                    port: r.ports[k].clone(),
                    gbps: r.port_rate[k] * 8.0 / plan.ns_per_cycle,
                    peak_queue_bytes: st.peak_queue,
                    p99_queue_bytes: percentile(&mut q, 99.0) as u64,
                    mean_queue_bytes: mean,
                    utilisation: util(k, i0, i1),
                    tx_bytes: st.tx_bytes,
                    drops: st.drops,
                    ecn_marks: st.ecn_marks,
                    pauses_sent: st.pauses_sent,
                    paused_us: st.paused_cycles as f64 * plan.ns_per_cycle / 1000.0,
                    stamped: st.stamped,
                }
            })
            .collect();
        let bneck = (0..r.ports.len())
            .filter(|_| i1 > i0 + 1)
            .max_by_key(|&k| r.port_tx[k][i1 - 1] - r.port_tx[k][i0]);
        let bottleneck = bneck.map(|k| {
            let peak_i =
                (0..r.samples.len()).max_by_key(|&i| (r.queue[k][i], std::cmp::Reverse(i)));
            let per_rtt: Vec<f64> = (0..)
                .map(|n| {
                    (
                        first + (n as f64 * rtt) as u64,
                        first + ((n + 1) as f64 * rtt) as u64,
                    )
                })
                .take_while(|&(_, b)| b <= w1)
                .map(|(a, b)| {
                    let (i, j) = idx(a, b);
                    util(k, i, j)
                })
                .collect();
            let small = (4.0 * (mtu + 100.0)) as u32;
            let drained =
                peak_i.and_then(|p| (p..r.samples.len()).find(|&i| r.queue[k][i] <= small));
            let steady = ports[k].utilisation;
            let converge = (0..per_rtt.len())
                .find(|&n| per_rtt[n..].iter().all(|u| (u - steady).abs() <= 0.05));
            Bottleneck {
                port: r.ports[k].clone(),
                utilisation: steady,
                eta: plan.cc.eta,
                peak_queue_bytes: ports[k].peak_queue_bytes,
                peak_at_rtt: peak_i
                    .map_or(0.0, |i| r.samples[i].saturating_sub(first) as f64 / rtt),
                drained_at_rtt: drained.map(|i| r.samples[i].saturating_sub(first) as f64 / rtt),
                p99_queue_bytes: ports[k].p99_queue_bytes,
                mean_queue_bytes: ports[k].mean_queue_bytes,
                p99_queue_packets: ports[k].p99_queue_bytes as f64 / (mtu + 100.0),
                converge_rtts: converge.map(|n| n as u32),
                per_rtt_utilisation: per_rtt,
            }
        });
        let after = |v: &[u64]| -> u64 {
            let i = r.samples.partition_point(|&s| s < first + rtt as u64);
            match (v.last(), i.checked_sub(1).and_then(|i| v.get(i))) {
                (Some(l), Some(b)) => l - b,
                (Some(l), None) => *l,
                _ => 0,
            }
        };
        let conns: Vec<ConnSummary> = r
            .conns
            .iter()
            .enumerate()
            .map(|(c, x)| {
                let cyc = span(i0, i1);
                let bytes = if cyc > 0.0 {
                    (r.conn_tx[c][i1 - 1] - r.conn_tx[c][i0]) as f64
                } else {
                    0.0
                };
                ConnSummary {
                    src: x.src,
                    dst: x.dst,
                    qp: x.qp,
                    throughput_gbps: if cyc > 0.0 {
                        bytes * 8.0 / (cyc * plan.ns_per_cycle)
                    } else {
                        0.0
                    },
                }
            })
            .collect();
        // Jain over the span all long flows run.
        let long: Vec<_> = plan.flows.iter().filter(|f| f.size.is_none()).collect();
        let (jain_index, jain_window_us) = if long.len() >= 2 {
            let a = T0 + long.iter().map(|f| f.start).max().unwrap() + plan.warmup;
            let b = (T0 + long.iter().map(|f| f.stop).min().unwrap()).min(r.cycles);
            let (i, j) = idx(a, b);
            if j > i + 1 {
                let cyc = span(i, j);
                let x: Vec<f64> = long
                    .iter()
                    .map(|f| {
                        let c = r
                            .conns
                            .iter()
                            .position(|c| c.src == f.src && c.dst == f.dst)
                            .unwrap();
                        (r.conn_tx[c][j - 1] - r.conn_tx[c][i]) as f64 / cyc
                    })
                    .collect();
                (
                    Some(jain(&x)),
                    Some((us(r.samples[i]), us(r.samples[j - 1]))),
                )
            } else {
                (None, None)
            }
        } else {
            (None, None)
        };
        let first_long = long.iter().map(|f| f.start).min().unwrap_or(0);
        let win = ((plan.base_rtt_ns / plan.ns_per_cycle) / plan.sample as f64)
            .round()
            .max(1.0) as usize;
        let join_to_fair_us = long
            .iter()
            .filter(|f| f.start > first_long)
            .map(|f| {
                let c = r
                    .conns
                    .iter()
                    .position(|c| c.src == f.src && c.dst == f.dst)?;
                let rates = conn_rates(plan, r, c);
                let start = T0 + f.start;
                (0..rates.len())
                    .filter(|&i| {
                        r.samples[i] >= start + win as u64 * plan.sample
                            && r.samples[i] < T0 + f.stop
                    })
                    .find(|&i| {
                        let t = r.samples[i] - T0;
                        let running = long
                            .iter()
                            .filter(|g| g.start <= t && t < g.stop)
                            .count()
                            .max(1);
                        let fair = plan.cc.eta * plan.scenario.topology.link_gbps / running as f64;
                        let avg = rates[i + 1 - win..=i].iter().sum::<f64>() / win as f64;
                        avg >= 0.8 * fair
                    })
                    .map(|i| (r.samples[i] - start) as f64 * plan.ns_per_cycle / 1000.0)
            })
            .collect();
        // FCT.
        let mut buckets: Vec<Vec<(f64, f64)>> = vec![Vec::new(); BUCKETS.len()];
        let mut completed = 0;
        for f in &plan.flows {
            let (Some(size), (_, Some(done))) = (f.size, r.flow_times[f.id]) else {
                continue;
            };
            completed += 1;
            let fct_ns = (done - (T0 + f.start)) as f64 * plan.ns_per_cycle;
            let ideal = plan.base_rtt_ns + size as f64 * 8.0 / plan.scenario.topology.link_gbps;
            let b = BUCKETS
                .iter()
                .position(|&(_, a, z)| size >= a && size < z)
                .unwrap();
            buckets[b].push((fct_ns / ideal, fct_ns / 1000.0));
        }
        let fct = BUCKETS
            .iter()
            .zip(buckets)
            .filter(|(_, v)| !v.is_empty())
            .map(|(&(label, _, _), v)| {
                let mut s: Vec<f64> = v.iter().map(|x| x.0).collect();
                FctBucket {
                    sizes: label.into(),
                    flows: v.len(),
                    slowdown_p50: percentile(&mut s, 50.0),
                    slowdown_p95: percentile(&mut s, 95.0),
                    slowdown_p99: percentile(&mut s, 99.0),
                    fct_mean_us: v.iter().map(|x| x.1).sum::<f64>() / v.len() as f64,
                }
            })
            .collect();
        Summary {
            scenario: plan.scenario.name.clone(),
            topology: plan.topo.kind.into(),
            hosts: plan.topo.hosts,
            cc: format!("{:?}", plan.scenario.cc.algo),
            rtl_hosts: plan.rtl_hosts.clone(),
            qp: plan.scenario.nic.qp,
            qps_max: crate::net::scenario::qp_counts(
                plan.topo.hosts,
                &plan.flows,
                plan.scenario.nic.qp,
            )
            .into_iter()
            .max()
            .unwrap_or(0),
            link_gbps: plan.scenario.topology.link_gbps,
            ns_per_cycle: plan.ns_per_cycle,
            base_rtt_ns: plan.base_rtt_ns,
            w_ai_bytes: plan.cc.w_ai_bytes,
            simulated_us: us(r.cycles),
            finished: r.finished,
            window_us: (us(w0), us(w1)),
            bottleneck,
            drops: r.port_stats.iter().map(|p| p.drops).sum(),
            drops_after_first_rtt: after(&r.drops_t),
            pauses: r.port_stats.iter().map(|p| p.pauses_sent).sum(),
            pauses_after_first_rtt: after(&r.pauses_t),
            unroutable: r.unroutable,
            nic: r
                .last
                .iter()
                .fold(NicTotals::default(), |mut t, o| {
                    let p = &o.stats_parse;
                    t.rx_ok += p.ok as u64;
                    t.rx_drop_full += p.drop_full as u64;
                    t.rx_bad += [
                        p.bad_fcs,
                        p.trunc,
                        p.bad_eth,
                        p.bad_ip,
                        p.bad_port,
                        p.bad_opcode,
                        p.bad_len,
                        p.bad_tlm,
                        p.bad_icrc,
                    ]
                    .iter()
                    .map(|&x| x as u64)
                    .sum::<u64>();
                    t.timeouts += o.stats_req.timeouts as u64;
                    t.naks += o.stats_req.naks as u64;
                    t.ce_marks += o.stats_np.marks as u64;
                    t.cnps_sent += o.stats_np.cnps as u64;
                    t.cnps_received += o.stats_dcqcn.cnps as u64;
                    t.rate_cuts += o.stats_dcqcn.cuts as u64;
                    t.rate_increases += o.stats_dcqcn.increases as u64;
                    t.sents += o.stats_dcqcn.sents as u64;
                    t.sent_drops += o.stats_core.sent_drops as u64;
                    t.pause_cycles += o.stats_core.pause_cycles as u64;
                    t
                })
                .with_rx_peak(&r.rx_peak)
                .with_pauses(r),
            jain_index,
            jain_window_us,
            join_to_fair_us,
            connections: conns,
            flows: plan.flows.len(),
            flows_completed: completed,
            fct,
            ports,
            packets: r.frames,
            errors: r.errors.clone(),
            warnings: if i1 > i0 + 1 {
                Vec::new()
            } else {
                vec![format!(
                    "no steady window: the run ends at {:.1} µs, the warm-up ({} base RTTs after the first flow starts) at {:.1} µs; no bottleneck, utilisation or throughput figures (raise duration_us or lower output.warmup_rtts)",
                    us(w1),
                    plan.scenario.output.warmup_rtts,
                    us(w0)
                )]
            },
        }
    }
}

/// `queue.csv`: time (µs) and each port's queue (bytes) at each sample.
pub fn queue_csv(plan: &Plan, r: &NetResult) -> String {
    let mut s = String::from("time_us");
    for p in &r.ports {
        write!(s, ",{p}").unwrap();
    }
    s.push('\n');
    for (i, &c) in r.samples.iter().enumerate() {
        write!(s, "{:.4}", (c - T0) as f64 * plan.ns_per_cycle / 1000.0).unwrap();
        for q in &r.queue {
            write!(s, ",{}", q[i]).unwrap();
        }
        s.push('\n');
    }
    s
}

/// Each connection's throughput over the sample period before each
/// sample, Gb/s (0 at the first).
pub fn conn_rates(plan: &Plan, r: &NetResult, c: usize) -> Vec<f64> {
    let tx = &r.conn_tx[c];
    (0..tx.len())
        .map(|i| {
            if i == 0 {
                0.0
            } else {
                (tx[i] - tx[i - 1]) as f64 * 8.0
                    / ((r.samples[i] - r.samples[i - 1]) as f64 * plan.ns_per_cycle)
            }
        })
        .collect()
}

/// `flows.csv`: per connection and sample, W (bytes), R and throughput
/// (Gb/s).
pub fn flows_csv(plan: &Plan, r: &NetResult) -> String {
    let mut s = String::from("time_us,src,dst,qp,w_bytes,r_gbps,throughput_gbps\n");
    for (c, x) in r.conns.iter().enumerate() {
        let rate = conn_rates(plan, r, c);
        for (i, &t) in r.samples.iter().enumerate() {
            writeln!(
                s,
                "{:.4},{},{},{},{:.1},{:.3},{:.3}",
                (t - T0) as f64 * plan.ns_per_cycle / 1000.0,
                x.src,
                x.dst,
                x.qp,
                r.conn_w[c][i],
                r.conn_r[c][i],
                rate[i]
            )
            .unwrap();
        }
    }
    s
}

/// `fct.csv`: every sized flow.
pub fn fct_csv(plan: &Plan, r: &NetResult) -> String {
    let mut s = String::from("flow,src,dst,bytes,start_us,fct_us,slowdown\n");
    for f in &plan.flows {
        let Some(size) = f.size else { continue };
        let start_us = f.start as f64 * plan.ns_per_cycle / 1000.0;
        match r.flow_times[f.id].1 {
            Some(done) => {
                let fct_ns = (done - (T0 + f.start)) as f64 * plan.ns_per_cycle;
                let ideal = plan.base_rtt_ns + size as f64 * 8.0 / plan.scenario.topology.link_gbps;
                writeln!(
                    s,
                    "{},{},{},{size},{start_us:.4},{:.4},{:.4}",
                    f.id,
                    f.src,
                    f.dst,
                    fct_ns / 1000.0,
                    fct_ns / ideal
                )
            }
            None => writeln!(s, "{},{},{},{size},{start_us:.4},,", f.id, f.src, f.dst),
        }
        .unwrap();
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jain_and_percentile() {
        assert!((jain(&[1.0, 1.0, 1.0]) - 1.0).abs() < 1e-12);
        assert!((jain(&[1.0, 0.0]) - 0.5).abs() < 1e-12);
        let mut v: Vec<f64> = (1..=100).map(|x| x as f64).collect();
        assert_eq!(percentile(&mut v, 99.0), 99.0);
        assert_eq!(percentile(&mut v, 50.0), 51.0);
    }
}
