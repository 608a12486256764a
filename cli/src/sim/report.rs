//! `sim`'s report: the summary it prints, the verdicts it checks (every
//! work request completed as planned, byte-exact, every damaged frame
//! dropped, the reset and the revocation made), and the files it writes
//! (`--pcap`, `--rx-log`).

use super::check::Outputs;
use super::run::Outcome;
use super::{cycle_ns, SimArgs, SimResetKind, Telemetry};
use clap::ValueEnum;
use nic_netsim::driver::ResetDone;
use nic_netsim::rx_log::{self, RxMonitor};
use pcap_file::pcap::{PcapHeader, PcapPacket, PcapWriter};
use pcap_file::{DataLink, TsResolution};
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

/// Print the summary, write the outputs; the exit status: 0 if every
/// verdict holds, else 1.
pub fn report(a: &SimArgs, mut r: Outcome, out: Outputs, wall: f64) -> i32 {
    header(a, &r);
    let revoke_ok = completions(a, &r);
    counters(&r);
    if r.hosts.is_some() {
        host(&r);
    }
    mac(&r);
    let damage_ok = damage(a, &r);
    watchdog(a, &r);
    let reset_ok = reset(a, &r);
    match r.bytes {
        Some((moved, compared)) => println!(
            "byte-exact: {} ({moved} bytes moved by the completed work requests; {compared} bytes of host memory compared)",
            if r.byte_exact { "yes" } else { "NO" }
        ),
        None => println!("byte-exact: {}", if r.byte_exact { "yes" } else { "NO" }),
    }
    println!(
        "wall time {wall:.1} s ({:.0} cycles/s of the pair, engine {})",
        r.cycles as f64 / wall.max(1e-9),
        a.engine.to_possible_value().unwrap().get_name()
    );
    for e in r.errors.iter().take(20) {
        println!("error: {e}");
    }
    let monitors = std::mem::take(&mut r.monitors);
    let outputs_ok = write_outputs(a, &r, out, monitors);
    if r.finished
        && r.byte_exact
        && r.errors.is_empty()
        && r.watchdog.is_empty()
        && damage_ok
        && reset_ok
        && r.completed + r.abandoned == r.planned
        && revoke_ok
        && outputs_ok
    {
        0
    } else {
        1
    }
}

/// A counter summed over both NICs.
fn sum(r: &Outcome, page: &str, field: &str) -> u64 {
    r.counters
        .iter()
        .flat_map(|c| c.iter())
        .filter(|(p, f, _)| *p == page && *f == field)
        .map(|x| x.2 as u64)
        .sum()
}

/// The run's set-up, its frames and its length.
fn header(a: &SimArgs, r: &Outcome) {
    let period_ps = (1e6 / a.clock_mhz).round() as u64;
    let probes = r
        .wire
        .iter()
        .filter(|f| f.frame.get(nic_spec::roce::BTH_OFF) == Some(&nic_spec::roce::op::PROBE))
        .count();
    let lost = r.wire.iter().filter(|f| f.lost).count();
    println!(
        "sim {}: top {}, engine {}, seed {}, loss {}, {} messages per NIC, max size {}, MTU {}, {} flows, delay {}, variant {}, telemetry {}",
        a.scenario.to_possible_value().unwrap().get_name(),
        a.top.to_possible_value().unwrap().get_name(),
        a.engine.to_possible_value().unwrap().get_name(),
        a.seed,
        a.loss,
        a.messages,
        a.max_size,
        a.mtu,
        a.flows,
        a.delay,
        a.variant.to_possible_value().unwrap().get_name(),
        match a.telemetry {
            Telemetry::Data => "in every data packet",
            Telemetry::Probe => "in probes only",
        }
    );
    println!(
        "frames {} (A->B {}, B->A {}), lost {lost}, probes {probes}, cycles {} ({:.3} us at {} MHz)",
        r.wire.len(),
        r.wire.iter().filter(|f| f.from == 0).count(),
        r.wire.iter().filter(|f| f.from == 1).count(),
        r.cycles,
        cycle_ns(r.cycles, period_ps) as f64 / 1000.0,
        a.clock_mhz
    );
}

/// Work requests and completions by status; `false` if the revocation
/// asked for was not made.
fn completions(a: &SimArgs, r: &Outcome) -> bool {
    let mut revoke_ok = true;
    if r.abandoned > 0 {
        println!(
            "work requests completed {}/{} (NIC B died with {} not complete)",
            r.completed, r.planned, r.abandoned
        );
    } else {
        println!("work requests completed {}/{}", r.completed, r.planned);
    }
    if let Some(h) = &r.hosts {
        for (n, h) in h.iter().enumerate() {
            let st: Vec<String> = h
                .by_status
                .iter()
                .map(|(s, k)| format!("{s} {k}"))
                .collect();
            let errs: Vec<String> = h
                .flow_err
                .iter()
                .map(|(f, t, s)| format!("flow {f} {} at cycle {t}", s.name()))
                .collect();
            println!(
                "completions {}: {}{}",
                ["A", "B"][n],
                st.join(", "),
                if errs.is_empty() {
                    String::new()
                } else {
                    format!("; in error: {}", errs.join(", "))
                }
            );
            for x in &h.reconnected {
                println!(
                    "recovered {}: flow {} ({} at cycle {}) reconnected and posted again at cycle {}, {} work requests posted again",
                    ["A", "B"][n],
                    x.flow,
                    x.status.name(),
                    x.err_at,
                    x.resumed_at,
                    x.reposted
                );
            }
        }
        match (a.revoke_at, h.get(1).and_then(|h| h.revoked_at)) {
            (Some(at), Some(made)) => println!(
                "revoke: NIC B revoked the region of flow {} at cycle {made} (asked for cycle {at})",
                nic_netsim::core_env::FIRST_QP
            ),
            (Some(at), None) => {
                println!(
                    "revoke: NOT made (asked for cycle {at}; the run ended at cycle {})",
                    r.cycles
                );
                revoke_ok = false;
            }
            _ => {}
        }
    }
    revoke_ok
}

/// Recoveries, the receive path and the CC, summed over both NICs.
fn counters(r: &Outcome) {
    println!(
        "recoveries {} (timeouts {}, NAKs {}), retransmissions {}, frames aborted {}",
        sum(r, "ReqStats", "timeouts") + sum(r, "ReqStats", "naks"),
        sum(r, "ReqStats", "timeouts"),
        sum(r, "ReqStats", "naks"),
        retransmissions(&r.wire),
        sum(r, "TxStats", "aborted")
    );
    println!(
        "rx: accepted {}, dropped for a full receive buffer {}, bad ICRC {}",
        sum(r, "RxParseStats", "ok"),
        sum(r, "RxParseStats", "drop_full"),
        sum(r, "RxParseStats", "bad_icrc")
    );
    let (events, hopless) = (sum(r, "CcStats", "events"), sum(r, "CcStats", "drop_hops"));
    println!(
        "cc: events acted on {events}, dropped without hops {hopless}, of the other variant {}, updates to the scheduler {}; NOTIFYs sent {}, applied {}{}",
        sum(r, "CcStats", "drop_variant"),
        sum(r, "CoreStats", "updates"),
        sum(r, "CoreStats", "notifies"),
        sum(r, "CoreStats", "notifies_applied"),
        if hopless > 0 && events == 0 {
            " (sim's link is one wire with no switch to stamp telemetry hops, so the CC has nothing to act on and --variant changes only which events are dropped; the CC acts in `hpccnic cc-loop` and `netsim`)"
        } else {
            ""
        }
    );
}

/// The host interfaces (`--top nic`, `nic-10g`).
fn host(r: &Outcome) {
    let Some(h) = &r.hosts else { return };
    let hs = |f: &dyn Fn(&nic_netsim::driver::HostSummary) -> u64| -> u64 { h.iter().map(f).sum() };
    println!(
            "host: register accesses {} (OKAY {}, SLVERR {}, DECERR {}), doorbells {} (refused {}), send-queue fetches {}, completions {} in {} events, posted again after DMA_ERR {}",
            hs(&|h| h.reg_ops),
            hs(&|h| h.answers[0]),
            hs(&|h| h.answers[2]),
            hs(&|h| h.answers[3]),
            sum(r, "HostIfStats", "db_rings"),
            sum(r, "HostIfStats", "db_refused"),
            sum(r, "HostIfStats", "wqe_fetches"),
            hs(&|h| h.cqes),
            hs(&|h| h.events),
            hs(&|h| h.reposts)
        );
    println!(
        "rings: send queues went round {} times at most, completion queues {}",
        h.iter().map(|h| h.sq_passes).max().unwrap_or(0),
        h.iter().map(|h| h.cq_passes).max().unwrap_or(0)
    );
    println!(
            "dma: read descriptors {}, write descriptors {}, h2c beats flagged {}, reads of the wrong length {}",
            sum(r, "HostIfStats", "rd_descs"),
            sum(r, "HostIfStats", "wr_descs"),
            sum(r, "HostIfStats", "h2c_err"),
            sum(r, "HostIfStats", "h2c_len_err")
        );
}

/// The MACs (`--top nic-10g`).
fn mac(r: &Outcome) {
    if let Some((lost, aborted, cut, m)) = &r.mac {
        for n in 0..2 {
            let (tx, rx, _) = &m[n];
            println!(
                "mac {}: tx frames {} bytes {} aborted {} (on the wire {}, cut by a reset {}); rx frames {} bytes {}, bad FCS {} (made bad on the link {}), errors {}, runts {}, oversize {}, bad preamble {}, pause {}",
                ["A", "B"][n],
                tx.frames,
                tx.bytes,
                tx.aborts,
                aborted[n],
                cut[n],
                rx.frames,
                rx.bytes,
                rx.bad_fcs,
                lost[1 - n],
                rx.errors,
                rx.runts,
                rx.oversize,
                rx.bad_preamble,
                rx.pause
            );
        }
    }
}

/// `--corrupt`: `false` if a damaged frame was not dropped.
fn damage(a: &SimArgs, r: &Outcome) -> bool {
    // The damaged frames: each must be dropped by its receiver, as bad
    // (any parser reason but drop_full) or for a full buffer.
    let mut damage_ok = true;
    // (The counters are read at the end of a finished run only.)
    if a.corrupt > 0.0 && r.finished {
        let damaged: Vec<_> = r.wire.iter().filter(|f| f.damaged.is_some()).collect();
        let cut = damaged
            .iter()
            .filter(|f| f.arrived().len() < f.frame.len())
            .count();
        let icrc = damaged
            .iter()
            .filter(|f| {
                let (s, d) = (&f.frame, f.arrived());
                s.len() == d.len() && s[s.len() - 4..] != d[d.len() - 4..]
            })
            .count();
        let bad: u64 = nic_spec::records::all()
            .iter()
            .find(|x| x.name == "RxParseStats")
            .map(|x| {
                x.fields
                    .iter()
                    .filter(|f| f.name != "ok" && f.name != "drop_full")
                    .map(|f| sum(r, "RxParseStats", f.name))
                    .sum()
            })
            .unwrap_or(0);
        let n = damaged.len() as u64;
        damage_ok = bad <= n && n <= bad + sum(r, "RxParseStats", "drop_full");
        println!(
            "bad frames injected {n} (ICRC bit {icrc}, BTH bit {}, cut {cut}); the receivers dropped {bad} as bad, {} for a full buffer: {}",
            n as usize - icrc - cut,
            sum(r, "RxParseStats", "drop_full"),
            if damage_ok {
                "every damaged frame dropped"
            } else {
                "MISMATCH"
            }
        );
    }
    damage_ok
}

/// The watchdog's longest work request and stall (`--top nic`, `nic-10g`).
fn watchdog(a: &SimArgs, r: &Outcome) {
    if let Some(h) = &r.hosts {
        let streams = nic_netsim::driver::WATCHED_STREAMS
            .iter()
            .enumerate()
            .map(|(k, s)| {
                format!(
                    "{s} {}",
                    h.iter().map(|h| h.stall_max[k]).max().unwrap_or(0)
                )
            })
            .collect::<Vec<_>>()
            .join(", ");
        let bound = |b: u64| {
            if b == 0 {
                "off".to_string()
            } else {
                format!("{b}")
            }
        };
        println!(
            "watchdog: longest work request {} cycles (bound {}), longest stall {streams} cycles (bound {}); {}",
            h.iter().map(|h| h.wr_cycles_max).max().unwrap_or(0),
            bound(a.wr_timeout),
            bound(a.stall_timeout),
            if r.watchdog.is_empty() {
                "deadlocks 0".to_string()
            } else {
                format!("FIRED: {}", r.watchdog.join("; "))
            }
        );
    }
}

/// `--reset-at`: `false` if the reset was not made (or a full reset not
/// answered).
fn reset(a: &SimArgs, r: &Outcome) -> bool {
    let mut reset_ok = true;
    if let (Some(at), Some(h), SimResetKind::Full) = (a.reset_at, &r.hosts, a.reset_kind) {
        for (n, name) in ["A", "B"].iter().enumerate() {
            match h.get(n).and_then(|h| h.reset) {
                Some(ResetDone {
                    at: made,
                    outstanding,
                    answered_at: Some(done),
                }) => println!(
                    "reset: NIC {name} at cycle {made} (CONTROL full reset, answered after {} cycles; asked for cycle {at}), its work requests outstanding then {outstanding}, posted again",
                    done - made
                ),
                d => {
                    println!(
                        "reset: NIC {name}: full reset NOT {} (asked for cycle {at}; the run ended at cycle {})",
                        if d.is_some() { "answered" } else { "made" },
                        r.cycles
                    );
                    reset_ok = false;
                }
            }
        }
    } else if let (Some(at), Some(h)) = (a.reset_at, &r.hosts) {
        match h.get(1).and_then(|h| h.reset) {
            Some(d) => println!(
                "reset: NIC B at cycle {} ({}; asked for cycle {at}), its work requests outstanding then {}",
                d.at,
                match a.reset_kind {
                    SimResetKind::Pin => format!(
                        "rst pin, {} cycles",
                        nic_netsim::driver::RESET_PIN_CYCLES
                    ),
                    SimResetKind::Soft => format!(
                        "CONTROL soft reset, {} cycles",
                        nic_spec::hostif::SOFT_RESET_CYCLES
                    ),
                    SimResetKind::Full => unreachable!("printed above"),
                    SimResetKind::Peer => "CONTROL full reset; NIC B stays down".to_string(),
                },
                d.outstanding
            ),
            None => {
                println!("reset: NOT made (asked for cycle {at}; the run ended at cycle {})", r.cycles);
                reset_ok = false;
            }
        }
    }
    reset_ok
}

/// `--pcap` and `--rx-log` into the files `check` created; `false` if one
/// could not be written.
fn write_outputs(a: &SimArgs, r: &Outcome, out: Outputs, monitors: [Option<RxMonitor>; 2]) -> bool {
    let period_ps = (1e6 / a.clock_mhz).round() as u64;
    let mut ok = true;
    if let (Some(f), Some(p)) = (out.pcap, &a.pcap) {
        let header = PcapHeader {
            datalink: DataLink::ETHERNET,
            ts_resolution: TsResolution::NanoSecond,
            ..Default::default()
        };
        let res = (|| -> Result<(), Box<dyn std::error::Error>> {
            let mut w = PcapWriter::with_header(std::io::BufWriter::new(f), header)?;
            for fr in &r.wire {
                let ts = Duration::from_nanos(cycle_ns(fr.time, period_ps));
                let b = fr.arrived();
                w.write_packet(&PcapPacket::new(ts, b.len() as u32, b))?;
            }
            w.into_writer().flush()?;
            Ok(())
        })();
        if let Err(e) = res {
            eprintln!("error: --pcap {}: {e}", p.display());
            ok = false;
        } else {
            println!("pcap: {} ({} frames)", p.display(), r.wire.len());
        }
    }
    if let (Some(names), Some(prefix)) = (&out.rx_log, &a.rx_log) {
        for (n, m) in monitors.into_iter().enumerate() {
            let m = m.expect("a monitor per NIC with --rx-log");
            match write_rx_log(&names[n], n, m, &r.wire) {
                Ok(line) => println!("{line}"),
                Err(e) => {
                    eprintln!("error: --rx-log {}: {e}", prefix.display());
                    ok = false;
                }
            }
        }
    }
    ok
}

/// `--rx-log`: NIC `n`'s reports (`names[0]`, `<prefix>.<a|b>.jsonl`)
/// and replay set-up (`names[1]`, `<prefix>.<a|b>.toml`). The NIC received the frames of the
/// other NIC that were not lost, in the order they were sent; a frame's
/// number is its place in the pcap (the wire's order).
fn write_rx_log(
    names: &[PathBuf; 2],
    n: usize,
    m: RxMonitor,
    wire: &[nic_netsim::WireFrame],
) -> Result<String, Box<dyn std::error::Error>> {
    let delivered: Vec<(u64, usize)> = wire
        .iter()
        .enumerate()
        .filter(|(_, f)| f.from == 1 - n && !f.lost)
        .map(|(k, f)| (k as u64 + 1, f.arrived().len()))
        .collect();
    let (reports, mut cfg) = m.finish(&delivered)?;
    cfg.dst_mac = wire
        .iter()
        .find(|f| f.from == 1 - n)
        .map(|f| rx_log::mac_string(&f.frame[..6]));
    cfg.skip = wire
        .iter()
        .enumerate()
        .filter(|(_, f)| f.from == 1 - n && f.lost)
        .map(|(k, _)| k as u64 + 1)
        .collect();
    cfg.full = reports
        .iter()
        .filter(|r| r["verdict"] == "drop_full")
        .filter_map(|r| r["frame"].as_u64())
        .collect();
    // Frames still in the receive path at the end: the log has no line
    // for them, so a replay does not feed them.
    cfg.pending = delivered[reports.len()..].iter().map(|d| d.0).collect();
    let side = ["a", "b"][n];
    let mut jsonl = String::new();
    for r in &reports {
        jsonl.push_str(&serde_json::to_string(r)?);
        jsonl.push('\n');
    }
    std::fs::write(&names[0], jsonl)?;
    let head = format!(
        "# The receive-path set-up of NIC {} in this sim run. Replay the run's pcap\n# through the receive path and compare with the run's log:\n#   hpccnic rx-replay --pcap <the pcap> --flows <this file> --expect <the .{side}.jsonl beside it>\n",
        side.to_uppercase(),
    );
    std::fs::write(&names[1], head + &toml::to_string(&cfg)?)?;
    let t = rx_log::tally(&reports);
    Ok(format!(
        "rx-log {}: {} frames ({}), {} context writes: {}",
        side.to_uppercase(),
        reports.len(),
        t.iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect::<Vec<_>>()
            .join(", "),
        cfg.flows.len(),
        names[0].display()
    ))
}

/// Data packets (WRITE, READ REQUEST, READ RESPONSE) sent again: a
/// (sender, QP, PSN, opcode) seen before on the wire.
fn retransmissions(wire: &[nic_netsim::WireFrame]) -> usize {
    use nic_spec::roce::{is_read_resp, is_write, op, BTH_OFF};
    let mut seen = std::collections::HashSet::new();
    wire.iter()
        .filter(|f| {
            let b = &f.frame;
            let Some(&opc) = b.get(BTH_OFF) else {
                return false;
            };
            if b.len() < BTH_OFF + 12
                || !(is_write(opc) || is_read_resp(opc) || opc == op::READ_REQ)
            {
                return false;
            }
            !seen.insert((
                f.from,
                b[BTH_OFF + 5..BTH_OFF + 8].to_vec(),
                b[BTH_OFF + 9..BTH_OFF + 12].to_vec(),
                opc,
            ))
        })
        .count()
}
