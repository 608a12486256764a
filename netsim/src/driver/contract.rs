//! The driver contract (`docs/driver.md`) as operations: register
//! accesses and the answers they must get, the bring-up of a NIC, the host
//! memory layout of its rings, send-queue entries and completion entries,
//! and the counter reads at the end of a run.

use crate::core_env::{config_script, FlowSpec, HostParams};
use nic_spec::hostif::{self, cq_reg, cqe, map, resp, wqe};
use nic_spec::regs;
use std::collections::BTreeMap;

/// What the driver sets up beyond the core's registers, and how the host
/// behaves.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DriverParams {
    /// The core's registers and the host's pace (`stall`, `dma_latency`).
    pub core: HostParams,
    /// log2 flows of the NIC (its CAPS).
    pub flows_log: u32,
    /// log2 send-queue entries per flow.
    pub sq_log: u8,
    /// log2 entries per completion queue.
    pub cq_log: u8,
    /// Completion queues used (flow f completes into CQ f mod `cqs`).
    pub cqs: u32,
    /// Event moderation: count and time (cycles).
    pub mod_count: u16,
    pub mod_time: u32,
    /// Work requests per doorbell at most.
    pub batch: u32,
    /// Probability of a pause on an AXI4-Lite channel in a cycle.
    pub axil_pause: f64,
    /// Probability that a read descriptor's data comes with a flagged beat.
    pub dma_err: f64,
    /// Inject the bad register accesses of the module doc.
    pub bad_input: bool,
    /// The bounds [`drive_pair`] holds the run to.
    pub watchdog: Watchdog,
}
/// One register access and the answer it must get.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RegOp {
    pub write: bool,
    pub addr: u16,
    pub data: u32,
    pub strb: u8,
    /// The response it must get.
    pub expect: u8,
    /// For a read: the value it must return, if known.
    pub value: Option<u32>,
}

impl RegOp {
    pub fn write(addr: u16, data: u32) -> Self {
        Self {
            write: true,
            addr,
            data,
            strb: 0xF,
            expect: resp::OKAY,
            value: None,
        }
    }
    pub fn read(addr: u16, value: Option<u32>) -> Self {
        Self {
            write: false,
            addr,
            data: 0,
            strb: 0,
            expect: resp::OKAY,
            value,
        }
    }
    pub fn expecting(self, expect: u8) -> Self {
        Self { expect, ..self }
    }
}

/// The most cycles a flow whose peer died takes to end `RetryExceeded`,
/// from the death (or from its work request's posting, if later): a
/// round trip (under one RTO: `core_sim_params` keeps RTO ≥ 4 · delay)
/// to its last progress, then `limit` + 1 timeouts, each 1 to 2 RTO after
/// the go-back before (the timer FIFO fires an entry 1 to 2 RTO after it
/// is armed).
pub fn retry_bound(rto: u64, limit: u8) -> u64 {
    rto + 2 * rto * (limit as u64 + 1)
}

/// A write of core register `addr` through the core window: a register
/// wider than 32 bits takes its high word, then its low word.
pub fn core_write(addr: u16, data: u64) -> Vec<RegOp> {
    let r = regs::find(addr).expect("a core register");
    let a = map::CORE + 8 * addr;
    let mut ops = Vec::new();
    if r.width > 32 {
        ops.push(RegOp::write(a + 4, (data >> 32) as u32));
    }
    ops.push(RegOp::write(a, data as u32));
    ops
}

/// The bring-up of `docs/driver.md` as register accesses: the fixed
/// registers checked, the core's globals and each flow's context through
/// the core window (a register wider than 32 bits: its high word, then
/// its low word), each CQ, each flow's send queue, CQ and COMMIT.
pub fn bring_up(p: &DriverParams, flows: &[FlowSpec], layout: &Layout) -> Vec<RegOp> {
    let mut ops = vec![
        RegOp::read(map::ID, Some(hostif::ID)),
        RegOp::read(map::VERSION, Some(hostif::VERSION)),
        RegOp::write(map::SCRATCH, 0x5A5A_0F0F),
        RegOp::read(map::SCRATCH, Some(0x5A5A_0F0F)),
    ];
    let core = |ops: &mut Vec<RegOp>, addr: u16, data: u64| ops.extend(core_write(addr, data));
    // The core's globals and flows, as the core's host writes them.
    let script = config_script(&p.core, flows);
    let mut per_flow = script.into_iter().peekable();
    while let Some(w) = per_flow.next_if(|w| w.addr < regs::FLOW_DMAC) {
        core(&mut ops, w.addr, w.data);
    }
    for c in 0..p.cqs {
        let b = map::CQ + 0x20 * c as u16;
        let base = layout.cq_base[c as usize];
        ops.extend([
            RegOp::write(b + cq_reg::BASE_LO, base as u32),
            RegOp::write(b + cq_reg::BASE_HI, (base >> 32) as u32),
            RegOp::write(b + cq_reg::LOG_SIZE, p.cq_log as u32),
            RegOp::write(b + cq_reg::MOD_COUNT, p.mod_count as u32),
            RegOp::write(b + cq_reg::MOD_TIME, p.mod_time),
            RegOp::write(b + cq_reg::CTRL, 1),
        ]);
    }
    for w in per_flow {
        if w.addr == regs::COMMIT {
            let f = (w.data & 0xFFFF_FFFF) as u32;
            let base = layout.sq_base[&f];
            ops.extend([
                RegOp::write(map::FLOW_SQ_BASE_LO, base as u32),
                RegOp::write(map::FLOW_SQ_BASE_HI, (base >> 32) as u32),
                RegOp::write(map::FLOW_SQ_LOG_SIZE, p.sq_log as u32),
                RegOp::write(map::FLOW_CQ, f % p.cqs),
            ]);
        }
        core(&mut ops, w.addr, w.data);
    }
    ops
}

/// The accesses a NIC must refuse, each with its answer (`docs/driver.md`,
/// "Errors").
pub fn bad_accesses(p: &DriverParams, flows: &[FlowSpec]) -> Vec<RegOp> {
    let nflows = 1u32 << p.flows_log;
    let unconfigured = (0..nflows).find(|f| flows.iter().all(|s| s.flow != *f));
    let mut v = vec![
        RegOp::write(map::ID, 1).expecting(resp::SLVERR),
        RegOp::write(map::CAPS, 1).expecting(resp::SLVERR),
        RegOp::write(map::STATS, 1).expecting(resp::SLVERR),
        RegOp::write(map::CQ + cq_reg::PI, 1).expecting(resp::SLVERR),
        RegOp::read(0x0014, None).expecting(resp::DECERR),
        RegOp::write(0x0300, 1).expecting(resp::DECERR),
        RegOp::read(map::CORE + 8 * regs::MTU_LOG2 + 4, None).expecting(resp::DECERR),
        // A write whose strobes name a lane below its byte offset.
        RegOp::write(map::SCRATCH + 1, 1).expecting(resp::SLVERR),
        RegOp::read(map::SQ_DB + 4 * nflows as u16, None).expecting(resp::DECERR),
        // A COMMIT of a flow out of range (its high word: active).
        RegOp::write(map::CORE + 8 * regs::COMMIT + 4, 1),
        RegOp::write(map::CORE + 8 * regs::COMMIT, nflows).expecting(resp::SLVERR),
        // A consumer index past the producer index.
        RegOp::write(map::CQ + cq_reg::CI, 0x7FFF).expecting(resp::SLVERR),
        // Partial strobes on SCRATCH: only lane 1 changes (a narrow write
        // at its byte address, as a master writes one byte), and a read
        // at a byte offset returns the word.
        RegOp::write(map::SCRATCH, 0x1122_3344),
        RegOp {
            strb: 0b0010,
            ..RegOp::write(map::SCRATCH + 1, 0xFFFF_FFFF)
        },
        RegOp::read(map::SCRATCH + 2, Some(0x1122_FF44)),
    ];
    if let Some(f) = unconfigured {
        v.push(RegOp::write(map::SQ_DB + 4 * f as u16, 1).expecting(resp::SLVERR));
    }
    if let Some(f) = flows.first() {
        // A doorbell beyond the ring (nothing posted on it yet: the ring
        // is empty, so 2^log + 1 entries cannot be there).
        v.push(
            RegOp::write(map::SQ_DB + 4 * f.flow as u16, (1 << p.sq_log) + 1)
                .expecting(resp::SLVERR),
        );
    }
    v
}

/// Where the driver keeps its queues in host memory.
#[derive(Clone, Debug, Default)]
pub struct Layout {
    pub sq_base: BTreeMap<u32, u64>,
    pub cq_base: Vec<u64>,
    /// Bytes of host memory in all.
    pub size: u64,
}

impl Layout {
    /// Rings after `data` bytes of data: a send queue per flow, then the
    /// completion queues, each 4 KiB aligned.
    pub fn new(p: &DriverParams, flows: &[FlowSpec], data: u64) -> Self {
        let page = |x: u64| (x + 4095) & !4095;
        let mut at = page(data);
        let mut sq_base = BTreeMap::new();
        for f in flows {
            sq_base.insert(f.flow, at);
            at = page(at + ((wqe::SIZE as u64) << p.sq_log));
        }
        let mut cq_base = Vec::new();
        for _ in 0..p.cqs {
            cq_base.push(at);
            at = page(at + ((cqe::SIZE as u64) << p.cq_log));
        }
        Layout {
            sq_base,
            cq_base,
            size: at,
        }
    }
}

/// The bytes of a send-queue entry (`nic_spec::hostif::wqe`).
pub fn wqe_bytes(w: &nic_golden::roce::WorkReq) -> [u8; wqe::SIZE] {
    let mut b = [0u8; wqe::SIZE];
    b[wqe::LADDR..wqe::LADDR + 8].copy_from_slice(&w.laddr.to_le_bytes());
    b[wqe::VA..wqe::VA + 8].copy_from_slice(&w.va.to_le_bytes());
    b[wqe::LEN..wqe::LEN + 4].copy_from_slice(&w.len.to_le_bytes());
    b[wqe::RKEY..wqe::RKEY + 4].copy_from_slice(&w.rkey.to_le_bytes());
    b[wqe::TAG..wqe::TAG + 4].copy_from_slice(&w.tag.to_le_bytes());
    b[wqe::OPCODE] = w.opcode;
    b
}

/// A completion-queue entry read from host memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cqe {
    pub tag: u32,
    pub bytes: u32,
    pub flow: u16,
    pub status: u8,
    pub phase: bool,
}

impl Cqe {
    pub fn parse(b: &[u8]) -> Self {
        let u32_at = |o: usize| u32::from_le_bytes(b[o..o + 4].try_into().unwrap());
        Cqe {
            tag: u32_at(cqe::TAG),
            bytes: u32_at(cqe::BYTES),
            flow: u16::from_le_bytes(b[cqe::FLOW..cqe::FLOW + 2].try_into().unwrap()),
            status: b[cqe::STATUS],
            phase: b[cqe::PHASE] >> 7 & 1 == 1,
        }
    }
}

/// The final register reads of a run: every counter page.
pub fn counter_reads() -> Vec<RegOp> {
    let recs = nic_spec::records::all();
    let mut v = Vec::new();
    for (p, name) in hostif::STATS_PAGES.iter().enumerate() {
        let r = recs
            .iter()
            .find(|r| r.name == *name)
            .expect("a counter record");
        for k in 0..r.fields.len() {
            v.push(RegOp::read(
                map::STATS + 0x100 * p as u16 + 4 * k as u16,
                None,
            ));
        }
    }
    v
}

/// A counter from `reads` (the last value read at its address).
pub fn counter(reads: &[(u16, u32)], page: &str, field: &str) -> Option<u32> {
    let recs = nic_spec::records::all();
    let r = recs.iter().find(|r| r.name == page)?;
    let k = r.fields.iter().position(|f| f.name == field)?;
    let addr = hostif::stats_addr(page, k)?;
    reads.iter().rev().find(|(a, _)| *a == addr).map(|x| x.1)
}

/// The watchdog of a run ([`super::drive_pair`] checks it every 2^14 cycles, so
/// it fires at most that late; 0 turns a bound off).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Watchdog {
    /// Cycles from a work request's entry written into its send queue
    /// to its completion read from the completion queue, at most (an
    /// entry posted again after DMA_ERR keeps its first cycle).
    pub wr_cycles: u64,
    /// Cycles the NIC may leave a beat the host offers untaken, at most:
    /// `s_axis_rx` (a frame from the wire) and `s_axis_h2c` (DMA read
    /// data).
    pub stall_cycles: u64,
}

/// The streams [`Watchdog::stall_cycles`] watches, in the order of
/// [`super::NicHost::stall_max`].
pub const WATCHED_STREAMS: [&str; 2] = ["s_axis_rx", "s_axis_h2c"];
