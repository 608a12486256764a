//! `hpccnic board-setup`: the bring-up of a board's NIC as data, for the
//! host script (`boards/ecpix5/hpcc_uart.py setup`) and the board
//! co-simulation (`testbench/cocotb/test_board.py`).
//!
//! It writes one JSON file: the register accesses of `docs/driver.md` §3
//! (`netsim::driver::bring_up`, the same code the `sim` driver runs: ID
//! and VERSION checked, the core's globals, the completion queue, each
//! flow's context and send queue, COMMIT), each with the answer it must
//! get; the host memory's layout (data, send queues, the completion
//! queue: DMA addresses, 0 = the first byte of the board's memory, which
//! the host reaches at `nic_spec::board::HOST_MEM_BASE` + address); and
//! the flows.
//!
//! The flows: `--loopback` (the default) makes QP 2 and QP 3 of the same
//! NIC each other's peer (same MAC and IP), so a board whose RGMII
//! transmit is looped to its receive (or the co-simulation's wire) sends
//! WRITEs to itself. `--peer-mac/--peer-ip/--peer-qp` make one flow, QP
//! 2, towards another RoCEv2 endpoint (a second board, or a Linux host
//! with soft-RoCE and a QP created with that number).

use clap::Args as ClapArgs;
use nic_golden::cc::params::CcParams;
use nic_netsim::core_env::{FlowSpec, HostParams, VariantPlan};
use nic_netsim::driver::{bring_up, DriverParams, Layout, Watchdog};
use nic_spec::board::{HOST_MEM_BASE, HOST_MEM_LOG_WORDS};
use nic_spec::hostif::{cq_reg, cqe, map, wqe, Field};
use nic_spec::roce::wr;
use serde_json::json;
use std::collections::BTreeMap;
use std::path::PathBuf;

#[derive(ClapArgs, Debug)]
pub struct Args {
    /// Where to write the JSON.
    #[arg(long, default_value = "build/board-setup.json")]
    out: PathBuf,
    /// The board's core clock in MHz (the ECPIX-5's: 500 / 12).
    #[arg(long, default_value_t = 500.0 / 12.0)]
    core_mhz: f64,
    /// The board's MAC address (hex, 12 digits).
    #[arg(long, default_value = "020000000001")]
    mac: String,
    /// The board's IPv4 address.
    #[arg(long, default_value = "10.0.0.1")]
    ip: String,
    /// A peer's MAC address: one flow (QP 2) towards it instead of the
    /// loopback pair.
    #[arg(long, requires_all = ["peer_ip", "peer_qp"])]
    peer_mac: Option<String>,
    /// The peer's IPv4 address.
    #[arg(long)]
    peer_ip: Option<String>,
    /// The peer's QP number.
    #[arg(long)]
    peer_qp: Option<u32>,
    /// log2 of the path MTU (8..=12).
    #[arg(long, default_value_t = 10)]
    mtu_log2: u8,
}

fn parse_mac(s: &str) -> Result<u64, String> {
    let hex: String = s.chars().filter(|c| *c != ':' && *c != '-').collect();
    if hex.len() != 12 {
        return Err(format!("MAC `{s}`: 12 hex digits"));
    }
    u64::from_str_radix(&hex, 16).map_err(|e| format!("MAC `{s}`: {e}"))
}

fn parse_ip(s: &str) -> Result<u32, String> {
    s.parse::<std::net::Ipv4Addr>()
        .map(u32::from)
        .map_err(|e| format!("IPv4 `{s}`: {e}"))
}

/// Send queue entries per flow (log2) and completion queue entries.
const SQ_LOG: u8 = 4;
const CQ_LOG: u8 = 4;
/// Bytes of the memory kept for data (sources and destinations of
/// WRITEs) below the rings.
const DATA_BYTES: u64 = 8192;

fn build(a: &Args) -> Result<serde_json::Value, String> {
    if !(8..=12).contains(&a.mtu_log2) {
        return Err(format!("--mtu-log2 {}: 8..=12", a.mtu_log2));
    }
    if !(1.0..=500.0).contains(&a.core_mhz) {
        return Err(format!("--core-mhz {}: 1..=500", a.core_mhz));
    }
    let mac = parse_mac(&a.mac)?;
    let ip = parse_ip(&a.ip)?;
    let flows: Vec<FlowSpec> = match (&a.peer_mac, &a.peer_ip, a.peer_qp) {
        (Some(m), Some(i), Some(qp)) => vec![FlowSpec {
            flow: 2,
            dmac: parse_mac(m)?,
            smac: mac,
            sip: ip,
            dip: parse_ip(i)?,
            sport: 0xC002,
            dqp: qp,
            send_psn: 0x100,
            recv_psn: 0x100,
            pd: 0,
            region: None,
        }],
        _ => (2..4)
            .map(|f| FlowSpec {
                flow: f,
                dmac: mac,
                smac: mac,
                sip: ip,
                dip: ip,
                sport: 0xC000 + f as u16,
                dqp: 5 - f,
                // Each flow expects what its peer sends.
                send_psn: 0x100 * f,
                recv_psn: 0x100 * (5 - f),
                pd: 0,
                region: None,
            })
            .collect(),
    };
    let ns = 1000.0 / a.core_mhz;
    let cc = CcParams {
        base_rtt_ns: 10_000.0,
        line_rate_gbps: 1.0,
        flows: 16,
        ..Default::default()
    };
    let cycles = |us: f64| (us * a.core_mhz) as u32;
    let core = HostParams {
        mtu_log2: a.mtu_log2,
        rto: cycles(2000.0),
        probe_t: cycles(100.0),
        sched_cap: 4096,
        ns_per_cycle: (ns * 65536.0).round() as u32,
        cc: cc.regs().map_err(|e| format!("CC parameters: {e}"))?,
        cc_variant: VariantPlan::All(nic_golden::cc::params::Variant::Sender),
        tlm_data: false,
        dma_latency: 0,
        stall: 0.0,
        ring: 8,
        post_from: 0,
        rx_pause: None,
        tx_ctl_share: nic_spec::roce::TX_CTL_SHARE_DEFAULT as u8,
    };
    let p = DriverParams {
        core,
        flows_log: 4,
        sq_log: SQ_LOG,
        cq_log: CQ_LOG,
        cqs: 1,
        mod_count: 1,
        mod_time: 0,
        batch: 1,
        axil_pause: 0.0,
        dma_err: 0.0,
        bad_input: false,
        watchdog: Watchdog::default(),
    };
    // The rings after the data, packed (each aligned to its entry size).
    let mut at = DATA_BYTES;
    let mut sq_base = BTreeMap::new();
    for f in &flows {
        sq_base.insert(f.flow, at);
        at += (wqe::SIZE as u64) << SQ_LOG;
    }
    let cq_base = vec![at];
    at += (cqe::SIZE as u64) << CQ_LOG;
    let mem_bytes = 8u64 << HOST_MEM_LOG_WORDS;
    assert!(at <= mem_bytes, "the layout fits the board's memory");
    let layout = Layout {
        sq_base: sq_base.clone(),
        cq_base: cq_base.clone(),
        size: at,
    };
    let ops: Vec<_> = bring_up(&p, &flows, &layout)
        .into_iter()
        .map(|o| {
            json!({
                "write": o.write, "addr": o.addr, "data": o.data, "strb": o.strb,
                "expect": o.expect, "value": o.value,
            })
        })
        .collect();
    let flows_json: Vec<_> = flows
        .iter()
        .map(|f| {
            json!({
                "flow": f.flow, "dmac": f.dmac, "smac": f.smac, "sip": f.sip, "dip": f.dip,
                "sport": f.sport, "dqp": f.dqp, "send_psn": f.send_psn, "recv_psn": f.recv_psn,
                "sq_base": sq_base[&f.flow], "sq_log": SQ_LOG, "cq": 0,
            })
        })
        .collect();
    let fields = |fs: &[Field]| -> serde_json::Value {
        fs.iter()
            .map(|f| {
                (
                    f.name.to_lowercase(),
                    json!({"offset": f.offset, "size": f.size, "bit": f.bit}),
                )
            })
            .collect::<serde_json::Map<_, _>>()
            .into()
    };
    let stride = |addr: u16| {
        map::ALL
            .iter()
            .find(|r| r.addr == addr)
            .expect("a register of the map")
            .stride
    };
    Ok(json!({
        "about": "hpccnic board-setup: the bring-up register accesses (docs/driver.md §3) and the host memory layout of a board NIC",
        "core_mhz": a.core_mhz,
        "host_mem_base": HOST_MEM_BASE,
        "host_mem_bytes": mem_bytes,
        "data": {"base": 0, "bytes": DATA_BYTES},
        "cq": [{"base": cq_base[0], "log_size": CQ_LOG}],
        "wqe": {"size": wqe::SIZE, "fields": fields(wqe::FIELDS)},
        "cqe": {"size": cqe::SIZE, "fields": fields(cqe::FIELDS)},
        "opcodes": {"write": wr::WRITE, "read": wr::READ},
        "regs": {
            "id": map::ID, "scratch": map::SCRATCH,
            "sq_db": map::SQ_DB, "sq_db_stride": stride(map::SQ_DB),
            "cq": map::CQ, "cq_stride": stride(map::CQ), "cq_ci": cq_reg::CI, "cq_pi": cq_reg::PI,
            "stats": map::STATS, "stats_page_stride": stride(map::STATS),
        },
        "mtu": 1u32 << a.mtu_log2,
        "flows": flows_json,
        "ops": ops,
    }))
}

pub fn main(a: Args) -> i32 {
    let v = match build(&a) {
        Ok(v) => v,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    if let Some(d) = a.out.parent().filter(|d| !d.as_os_str().is_empty()) {
        if let Err(e) = std::fs::create_dir_all(d) {
            eprintln!("error: --out {}: {e}", a.out.display());
            return 2;
        }
    }
    let text = serde_json::to_string_pretty(&v).expect("JSON");
    if let Err(e) = std::fs::write(&a.out, text + "\n") {
        eprintln!("error: --out {}: {e}", a.out.display());
        return 2;
    }
    println!(
        "{}: {} register accesses, {} flows",
        a.out.display(),
        v["ops"].as_array().map_or(0, |o| o.len()),
        v["flows"].as_array().map_or(0, |f| f.len())
    );
    0
}
