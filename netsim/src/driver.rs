//! The host of the whole NIC (`hpcc_nic`): a driver that follows
//! `docs/driver.md`, the host's memory, and a DMA engine.
//!
//! - **Registers** over AXI4-Lite, one access at a time, with random
//!   pauses on every channel (write address and data each asserted after
//!   its own random delay, so they arrive in either order or together;
//!   random `bready`/`rready`). Every answer is checked against the one
//!   the access must get (OKAY, SLVERR, DECERR) and reads against their
//!   value where it is known.
//! - **Bring-up** (`docs/driver.md`): ID and VERSION checked,
//!   SCRATCH written and read back; the core's global registers through
//!   the core window; each completion queue (base, size, moderation,
//!   enable); each flow's staged context, its send queue, its CQ, then
//!   COMMIT.
//! - **Work requests**: each is written as a send-queue entry into host
//!   memory at its flow's producer index, and the doorbell (the new
//!   producer index) is rung after a batch; a flow never has more entries
//!   posted and not completed than its send queue holds.
//! - **Completions**: on an event of completion queue c, the driver reads
//!   its entries from host memory while their phase bit is the current
//!   pass's, checks each against the work request it reports (status,
//!   bytes, exactly once), and writes the CQ's consumer index. An entry
//!   with status `DMA_ERR` (the fetch of the entry failed) is posted
//!   again.
//! - **DMA engine** (verilog-axi `axi_dma` style): read descriptors are
//!   served in order after `dma_latency` cycles as ceil(len/8) beats with
//!   `tlast`; with probability `dma_err` a read has one beat flagged
//!   (`tuser`). Write descriptors are taken in order and their c2h beats
//!   accepted only while the descriptor is held (so a completion's entry
//!   is in host memory before its event), written with their `tkeep`.
//! - **Bad host input** (`bad_input`): accesses the NIC must refuse
//!   (read-only and unmapped registers, misaligned addresses, a doorbell
//!   beyond the ring or on an unconfigured flow, a COMMIT of a flow out
//!   of range, a consumer index past the producer index), each expecting
//!   its error answer; bad work requests (opcode, length) expecting their
//!   error completions.
//! - **MAC side**: as the core's host (`core_env::CoreHost`).
//!
//! The NIC's inputs come from the host's state only, so a run's inputs can
//! be recorded and replayed on an RTL engine.

use crate::core_env::{config_script, FlowSpec, Host, HostParams, PlannedWr};
use crate::host::HostMem;
use nic_golden::hostif::{AxilIn, CqEvent};
use nic_golden::nic::nic::{In, Out};
use nic_spec::hostif::{self, cq_reg, cqe, map, resp, wqe};
use nic_spec::regs;
use nic_spec::roce::wr::Status;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::collections::{BTreeMap, BTreeSet, VecDeque};

mod recover;
pub use recover::{Cm, CmLink, CmMsg, Reconnected, Recovery};

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

/// The watchdog of a run ([`drive_pair`] checks it every 2^14 cycles, so
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
/// [`NicHost::stall_max`].
pub const WATCHED_STREAMS: [&str; 2] = ["s_axis_rx", "s_axis_h2c"];

/// How a run resets a NIC in mid-traffic (`sim --reset-at`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResetKind {
    /// The `rst` pin, high for [`RESET_PIN_CYCLES`] cycles. The driver
    /// holds its register accesses around it: it waits for the access in
    /// flight to be answered, starts none while `rst` is high, and goes
    /// on after (the AXI4-Lite slave and the staged registers are reset).
    Pin,
    /// A write of `CONTROL` bit 0 (soft reset), queued next.
    Soft,
    /// A write of `CONTROL` bit 1 (full reset), to both NICs of a run at
    /// the same cycle. Each driver drops the accesses it had queued,
    /// writes it, posts and reaps nothing until it is answered, then
    /// starts again: its rings zeroed, the bring-up again, and every work
    /// request not complete posted again from the start (its data moved
    /// again). A full reset returns every flow to its power-up state, so
    /// the peer's flows (their PSNs, their requests in flight) must
    /// start again too, as RoCE's QPs reconnect after an error.
    Full,
    /// A full reset of this NIC alone, which then stays down (a peer that
    /// died): its driver drops everything and brings nothing up again.
    /// The other NIC's work requests in flight, and those it posts after,
    /// end with `RetryExceeded` (then `Flushed`) within the bound its RTO
    /// and retry limit give (`docs/driver.md` §8).
    Peer,
}

/// A region revoked in mid-traffic (`sim --revoke-at`): the NIC writes
/// `MR_COMMIT` (inactive) for table entry `index` at the first cycle at or
/// after `at` once bring-up is over. Its peer's work requests that need
/// the region end with `RemoteAccess`, and the later ones of their flow
/// `Flushed`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RevokePlan {
    pub at: u64,
    pub index: u32,
}

/// The errors a run allows a NIC's work requests to end with (its peer
/// revokes a region or dies): each flow's first error, then `Flushed`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tolerate {
    /// Flows whose region at the peer is revoked: `RemoteAccess`.
    pub revoked: BTreeSet<u32>,
    /// The peer dies: `RetryExceeded` on any flow.
    pub peer_dies: bool,
}

/// A reset of one NIC in mid-traffic: at the first cycle at or after `at`
/// once bring-up is over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResetPlan {
    pub at: u64,
    pub kind: ResetKind,
}

/// Cycles the driver holds `rst` high for a [`ResetKind::Pin`] reset.
pub const RESET_PIN_CYCLES: u64 = 16;

/// What a reset of [`ResetPlan`] met: the cycle it started (`rst` high,
/// or the `CONTROL` write queued) and the work requests posted and not
/// complete then.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ResetDone {
    pub at: u64,
    pub outstanding: usize,
    /// [`ResetKind::Full`]: the cycle the `CONTROL` write was answered
    /// (the sweep done).
    pub answered_at: Option<u64>,
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

/// The AXI4-Lite master: one access at a time.
#[derive(Clone, Debug, Default)]
struct Master {
    op: Option<RegOp>,
    aw_left: bool,
    w_left: bool,
    ar_left: bool,
    /// Cycles before AW / W / AR are asserted.
    aw_wait: u32,
    w_wait: u32,
    ar_wait: u32,
}

/// A send queue as the driver keeps it.
#[derive(Clone, Debug, Default)]
struct Sq {
    base: u64,
    /// Producer index.
    pi: u16,
    /// Entries posted and not completed.
    outstanding: u32,
    /// Send-queue index → tag of the work request written there.
    tags: BTreeMap<u16, u32>,
}

/// The host side of one `hpcc_nic`.
pub struct NicHost {
    pub p: DriverParams,
    pub mem: HostMem,
    layout: Layout,
    ops: VecDeque<RegOp>,
    master: Master,
    /// Work requests to post, in order.
    wr_q: VecDeque<PlannedWr>,
    /// tag → what its completion must say.
    expect: BTreeMap<u32, PlannedWr>,
    /// tag → cycle of its completion.
    pub done: BTreeMap<u32, u64>,
    /// tag → cycle its entry was first written into its send queue, while
    /// it is not complete.
    posted_at: BTreeMap<u32, u64>,
    /// The longest a work request took, entry written to completion read.
    pub wr_cycles_max: u64,
    /// Per [`WATCHED_STREAMS`]: the current and the longest run of cycles
    /// with a beat offered and not taken.
    stall_run: [u64; 2],
    pub stall_max: [u64; 2],
    sqs: BTreeMap<u32, Sq>,
    /// Per CQ: consumer index.
    cq_ci: Vec<u16>,
    /// CQs with an event not yet served.
    events: VecDeque<u8>,
    // DMA engine.
    rd_desc: VecDeque<(u64, u64, u16, bool)>,
    /// The beats of the read being served: (due, data, keep, (last, flagged)).
    h2c_beats: VecDeque<(u64, u64, u8, (bool, bool))>,
    wr_desc: Option<(u64, u32)>,
    wr_desc_q: VecDeque<(u64, u32)>,
    // MAC side.
    rx_q: VecDeque<Vec<u8>>,
    rx_pos: usize,
    tx_buf: Vec<u8>,
    /// Hold `m_axis_tx` until the last frame's time on the wire (padding,
    /// FCS, preamble and gap at 8 bytes a cycle) is over, as
    /// `CoreHost::pace_wire` does.
    pub pace_wire: bool,
    wire_free: f64,
    rng: StdRng,
    pub errors: Vec<String>,
    /// Register accesses answered, and each answer code seen.
    pub reg_ops: u64,
    pub answers: [u64; 4],
    /// Reads returned: (address, value), in order.
    pub reads: Vec<(u16, u32)>,
    /// Frames the NIC aborted (`m_axis_tx.tuser`).
    pub tx_aborts: u64,
    pub frames_out: u64,
    pub tx_starts: Vec<u64>,
    pub rx_ends: Vec<u64>,
    /// Completions read, events seen, entries posted again (DMA_ERR),
    /// doorbells rung.
    pub cqes: u64,
    pub events_seen: u64,
    pub reposts: u64,
    pub doorbells: u64,
    /// Cycle the bring-up ended (its last access answered).
    pub configured_at: Option<u64>,
    /// Cycle of the first doorbell queued, and the cycles each doorbell
    /// write was put on the bus (for latency figures).
    pub first_doorbell_at: Option<u64>,
    pub doorbells_issued: Vec<u64>,
    /// Cycles of the events seen.
    pub event_cycles: Vec<u64>,
    /// Read and write descriptors taken.
    pub rd_descs: u64,
    pub wr_descs: u64,
    configured: bool,
    /// Accesses of the bring-up still to answer.
    bring_up_left: usize,
    /// The reset to make, and what it met once made.
    pub reset_plan: Option<ResetPlan>,
    pub reset_done: Option<ResetDone>,
    /// `rst` high while `now` is below this.
    rst_until: u64,
    /// A full reset's `CONTROL` write is queued or in flight.
    restarting: bool,
    /// The flows and the work requests, for starting again after a full
    /// reset.
    flows: Vec<FlowSpec>,
    wrs: Vec<PlannedWr>,
    /// The region to revoke, and the cycle its write was queued.
    pub revoke_plan: Option<RevokePlan>,
    pub revoke_done: Option<u64>,
    /// The errors this host's work requests may end with.
    pub tolerate: Tolerate,
    /// Each flow's first error completion: (cycle, status); and the
    /// cycle its work request was written into its send queue.
    pub flow_err: BTreeMap<u32, (u64, Status)>,
    pub err_posted: BTreeMap<u32, u64>,
    /// tag → status of its completion.
    pub status_of: BTreeMap<u32, Status>,
    /// Down for good after a [`ResetKind::Peer`] reset.
    pub dead: bool,
    /// Flows in error are reconnected and their work posted again
    /// (`recover`); `None`: they stay in error.
    pub recovery: Option<Recovery>,
}

impl NicHost {
    /// What the watchdog `w` finds at `now`: the oldest work request not
    /// complete within `w.wr_cycles`, or a stream stalled longer than
    /// `w.stall_cycles`.
    pub fn watchdog(&self, now: u64, w: &Watchdog) -> Option<String> {
        if w.wr_cycles > 0 {
            if let Some((tag, at)) = self.posted_at.iter().min_by_key(|x| *x.1) {
                if now - at > w.wr_cycles {
                    return Some(format!(
                        "watchdog: work request tag {tag}, in its send queue since cycle {at}, not complete at cycle {now} (bound {} cycles)",
                        w.wr_cycles
                    ));
                }
            }
        }
        if w.stall_cycles > 0 {
            for (k, name) in WATCHED_STREAMS.iter().enumerate() {
                if self.stall_run[k] > w.stall_cycles {
                    return Some(format!(
                        "watchdog: {name} stalled (valid, not ready) for {} cycles at cycle {now} (bound {} cycles)",
                        self.stall_run[k], w.stall_cycles
                    ));
                }
            }
        }
        None
    }

    /// A host with `mem` as its data (extended by the rings), its flows,
    /// and the work requests to post.
    pub fn new(
        p: DriverParams,
        mut mem: Vec<u8>,
        flows: &[FlowSpec],
        wrs: &[PlannedWr],
        seed: u64,
    ) -> Self {
        let layout = Layout::new(&p, flows, mem.len() as u64);
        mem.resize(layout.size as usize, 0);
        let mut ops: VecDeque<RegOp> = bring_up(&p, flows, &layout).into();
        let bring_up_left = ops.len();
        if p.bad_input {
            ops.extend(bad_accesses(&p, flows));
        }
        let mut expect = BTreeMap::new();
        for w in wrs {
            assert!(expect.insert(w.wr.tag, *w).is_none(), "tags are unique");
        }
        let sqs = flows
            .iter()
            .map(|f| {
                (
                    f.flow,
                    Sq {
                        base: layout.sq_base[&f.flow],
                        ..Sq::default()
                    },
                )
            })
            .collect();
        Self {
            cq_ci: vec![0; p.cqs as usize],
            p,
            mem: HostMem::new(mem),
            layout,
            ops,
            master: Master::default(),
            wr_q: wrs.iter().copied().collect(),
            expect,
            done: BTreeMap::new(),
            posted_at: BTreeMap::new(),
            wr_cycles_max: 0,
            stall_run: [0; 2],
            stall_max: [0; 2],
            sqs,
            events: VecDeque::new(),
            rd_desc: VecDeque::new(),
            h2c_beats: VecDeque::new(),
            wr_desc: None,
            wr_desc_q: VecDeque::new(),
            rx_q: VecDeque::new(),
            rx_pos: 0,
            tx_buf: Vec::new(),
            pace_wire: false,
            wire_free: 0.0,
            rng: StdRng::seed_from_u64(seed),
            errors: Vec::new(),
            reg_ops: 0,
            answers: [0; 4],
            reads: Vec::new(),
            tx_aborts: 0,
            frames_out: 0,
            tx_starts: Vec::new(),
            rx_ends: Vec::new(),
            cqes: 0,
            events_seen: 0,
            reposts: 0,
            doorbells: 0,
            configured_at: None,
            first_doorbell_at: None,
            doorbells_issued: Vec::new(),
            event_cycles: Vec::new(),
            rd_descs: 0,
            wr_descs: 0,
            configured: false,
            bring_up_left,
            reset_plan: None,
            reset_done: None,
            rst_until: 0,
            restarting: false,
            flows: flows.to_vec(),
            wrs: wrs.to_vec(),
            revoke_plan: None,
            revoke_done: None,
            tolerate: Tolerate::default(),
            flow_err: BTreeMap::new(),
            err_posted: BTreeMap::new(),
            status_of: BTreeMap::new(),
            dead: false,
            recovery: None,
        }
    }

    /// Completions by status: (name, count), in status order.
    pub fn by_status(&self) -> Vec<(&'static str, u64)> {
        Status::ALL
            .iter()
            .filter_map(|&s| {
                let n = self.status_of.values().filter(|&&x| x == s).count() as u64;
                (n > 0).then_some((s.name(), n))
            })
            .collect()
    }

    /// After a full reset's answer: the rings zeroed, the send and
    /// completion queues' indices 0, the bring-up queued, and every work
    /// request not complete queued to be posted again, in plan order.
    fn restart(&mut self, now: u64) {
        self.restarting = false;
        for q in self.sqs.values_mut() {
            *q = Sq {
                base: q.base,
                ..Sq::default()
            };
            self.mem.write(q.base, &vec![0; wqe::SIZE << self.p.sq_log]);
        }
        for &base in &self.layout.cq_base {
            self.mem.write(base, &vec![0; cqe::SIZE << self.p.cq_log]);
        }
        self.cq_ci.iter_mut().for_each(|c| *c = 0);
        self.events.clear();
        self.posted_at.clear();
        self.wr_q = self
            .wrs
            .iter()
            .filter(|w| !self.done.contains_key(&w.wr.tag))
            .copied()
            .collect();
        self.ops = bring_up(&self.p, &self.flows, &self.layout).into();
        self.bring_up_left = self.ops.len();
        self.configured = false;
        if let Some(d) = self.reset_done.as_mut() {
            d.answered_at = Some(now);
        }
    }

    /// The data bytes (without the rings) for comparing with a plan.
    pub fn data(&self, len: usize) -> &[u8] {
        &self.mem.bytes[..len]
    }

    /// Where the rings are.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// Queue register accesses (after the others): e.g. the counter
    /// reads at the end of a run.
    pub fn push_ops(&mut self, ops: impl IntoIterator<Item = RegOp>) {
        self.ops.extend(ops);
    }

    /// Register accesses waiting or in progress.
    pub fn ops_pending(&self) -> usize {
        self.ops.len() + self.master.op.is_some() as usize
    }

    /// The most passes any send queue made (entries posted / entries).
    pub fn sq_passes(&self) -> u32 {
        self.sqs
            .values()
            .map(|q| (q.pi as u32) >> self.p.sq_log)
            .max()
            .unwrap_or(0)
    }

    /// The most passes any completion queue made.
    pub fn cq_passes(&self) -> u32 {
        self.cq_ci
            .iter()
            .map(|&c| (c as u32) >> self.p.cq_log)
            .max()
            .unwrap_or(0)
    }

    /// Work requests not completed yet.
    pub fn outstanding(&self) -> Vec<u32> {
        self.expect
            .keys()
            .copied()
            .filter(|t| !self.done.contains_key(t))
            .collect()
    }

    fn ready(&mut self) -> bool {
        !(self.p.core.stall > 0.0 && self.rng.gen_bool(self.p.core.stall))
    }

    fn pause(&mut self) -> bool {
        self.p.axil_pause > 0.0 && self.rng.gen_bool(self.p.axil_pause)
    }

    /// Post what can be posted: entries into their send queues, a
    /// doorbell per flow run (at most `batch` entries).
    fn post(&mut self, now: u64) {
        if !self.configured
            || self.restarting
            || self.dead
            || now < self.p.core.post_from
            || self.ops.len() > 4
        {
            return;
        }
        let mut rung: Option<u32> = None;
        let mut n = 0;
        while let Some(w) = self.wr_q.front().copied() {
            let f = w.wr.flow;
            // A flow being reconnected posts nothing: kept for after.
            if let Some(r) = self.recovery.as_mut().filter(|r| r.paused(f)) {
                r.hold(w);
                self.wr_q.pop_front();
                continue;
            }
            if rung.is_some_and(|r| r != f) || n >= self.p.batch {
                break;
            }
            let Some(sq) = self.sqs.get_mut(&f) else {
                // No send queue: the doorbell must be refused (an
                // unconfigured flow, or past the NIC's flows).
                self.wr_q.pop_front();
                self.done.insert(w.wr.tag, now);
                let expect = if f >> self.p.flows_log == 0 {
                    resp::SLVERR
                } else {
                    resp::DECERR
                };
                let addr = (map::SQ_DB as u32 + 4 * f.min(0x1FFF)) as u16;
                self.ops.push_back(RegOp::write(addr, 1).expecting(expect));
                continue;
            };
            if sq.outstanding >= 1 << self.p.sq_log {
                break;
            }
            self.wr_q.pop_front();
            let slot = sq.pi as u64 & ((1 << self.p.sq_log) - 1);
            self.mem
                .write(sq.base + slot * wqe::SIZE as u64, &wqe_bytes(&w.wr));
            sq.tags.insert(sq.pi, w.wr.tag);
            self.posted_at.entry(w.wr.tag).or_insert(now);
            sq.pi = sq.pi.wrapping_add(1);
            sq.outstanding += 1;
            rung = Some(f);
            n += 1;
        }
        if let Some(f) = rung {
            let sq = &self.sqs[&f];
            self.ops
                .push_back(RegOp::write(map::SQ_DB + 4 * f as u16, sq.pi as u32));
            self.doorbells += 1;
            self.first_doorbell_at.get_or_insert(now);
        }
    }

    /// Read the completion queues with an event: every entry of this
    /// pass, then the consumer index.
    fn reap(&mut self, now: u64) {
        if self.restarting || self.dead {
            return;
        }
        while let Some(c) = self.events.pop_front() {
            let c = c as usize;
            let log = self.p.cq_log;
            let base = self.layout.cq_base[c];
            let mut ci = self.cq_ci[c];
            loop {
                let slot = ci as u64 & ((1 << log) - 1);
                let e = Cqe::parse(&self.mem.read(base + slot * cqe::SIZE as u64, cqe::SIZE));
                let phase = (ci >> log) & 1 == 0;
                if e.phase != phase {
                    break;
                }
                ci = ci.wrapping_add(1);
                self.cqes += 1;
                self.complete(now, &e);
            }
            if ci != self.cq_ci[c] {
                self.cq_ci[c] = ci;
                self.ops.push_back(RegOp::write(
                    map::CQ + 0x20 * c as u16 + cq_reg::CI,
                    ci as u32,
                ));
            }
        }
    }

    fn complete(&mut self, now: u64, e: &Cqe) {
        let f = e.flow as u32;
        let Some(sq) = self.sqs.get_mut(&f) else {
            self.errors
                .push(format!("cycle {now}: completion of flow {f}: {e:?}"));
            return;
        };
        sq.outstanding = sq.outstanding.saturating_sub(1);
        let tag = if e.status == Status::DmaErr as u8 {
            // The tag is the entry's send-queue index.
            match sq.tags.get(&(e.tag as u16)) {
                Some(&t) => t,
                None => {
                    self.errors
                        .push(format!("cycle {now}: DMA_ERR of an unposted entry {e:?}"));
                    return;
                }
            }
        } else {
            e.tag
        };
        let Some(w) = self.expect.get(&tag).copied() else {
            self.errors
                .push(format!("cycle {now}: completion of unknown tag {e:?}"));
            return;
        };
        if e.status == Status::DmaErr as u8 {
            if self.p.dma_err == 0.0 {
                self.errors.push(format!(
                    "cycle {now}: DMA_ERR without injected errors {e:?}"
                ));
            }
            // Post it again.
            self.reposts += 1;
            self.wr_q.push_front(w);
            return;
        }
        let got = Status::ALL.get(e.status as usize).copied();
        let allowed = |s: Status| {
            (s == Status::RemoteAccess && self.tolerate.revoked.contains(&f))
                || (s == Status::RetryExceeded && self.tolerate.peer_dies)
        };
        // Under recovery, a flow's allowed first error and the flushes
        // after it are not final: kept to post again.
        if let (Some(s), Some(r)) = (got, self.recovery.as_ref()) {
            let erring = r.paused(f);
            if w.status == Status::Ok
                && ((s == Status::Flushed && erring) || (allowed(s) && !erring))
            {
                self.posted_at.remove(&tag);
                self.recover_completion(now, w, s);
                return;
            }
        }
        if self.done.insert(tag, now).is_some() {
            self.errors
                .push(format!("cycle {now}: second completion {e:?}"));
        }
        let posted = self.posted_at.remove(&tag);
        if let Some(at) = posted {
            self.wr_cycles_max = self.wr_cycles_max.max(now - at);
        }
        // A good work request of a flow in error is flushed; a flow's
        // first error is one the run allows (its peer revoked the flow's
        // region, or died).
        let want = match got {
            _ if w.status != Status::Ok => w.status,
            _ if self.flow_err.contains_key(&f) => Status::Flushed,
            Some(s) if allowed(s) => s,
            _ => Status::Ok,
        };
        if let Some(s) = got {
            self.status_of.insert(tag, s);
        }
        if want.errors_flow() && got == Some(want) {
            self.flow_err.insert(f, (now, want));
            self.err_posted.insert(f, posted.unwrap_or(now));
        }
        let bytes = if want == Status::Ok { w.wr.len } else { 0 };
        if f != w.wr.flow || e.status != want as u8 || e.bytes != bytes {
            self.errors.push(format!(
                "cycle {now}: completion {e:?}, expected status {want:?} for {:?}",
                w.wr
            ));
        }
    }
}

impl Host for NicHost {
    type In = In;
    type Out = Out;

    fn inputs(&mut self, now: u64) -> In {
        self.recover_step(now);
        self.post(now);
        self.reap(now);
        // A reset in mid-traffic, once bring-up is over.
        let mut hold = false;
        if let (Some(r), None, true) = (self.reset_plan, self.reset_done, self.configured) {
            if now >= r.at {
                let start = match r.kind {
                    ResetKind::Soft => {
                        self.ops.push_front(RegOp::write(
                            map::CONTROL,
                            nic_spec::hostif::control::SOFT_RESET,
                        ));
                        true
                    }
                    ResetKind::Full | ResetKind::Peer => {
                        self.ops.clear();
                        self.ops.push_back(RegOp::write(
                            map::CONTROL,
                            nic_spec::hostif::control::FULL_RESET,
                        ));
                        self.restarting = true;
                        true
                    }
                    // Wait for the access in flight to be answered.
                    ResetKind::Pin => {
                        hold = true;
                        self.master.op.is_none()
                    }
                };
                if start {
                    self.reset_done = Some(ResetDone {
                        at: now,
                        outstanding: self.posted_at.len(),
                        answered_at: None,
                    });
                    if r.kind == ResetKind::Pin {
                        self.rst_until = now + RESET_PIN_CYCLES;
                    }
                }
            }
        }
        // A region revoked in mid-traffic, once bring-up is over.
        if let (Some(r), None, true) = (self.revoke_plan, self.revoke_done, self.configured) {
            if now >= r.at {
                let w = crate::core_env::RegionSpec::revoke(r.index);
                self.ops.extend(core_write(w.addr, w.data));
                self.revoke_done = Some(now);
            }
        }
        let rst = now < self.rst_until;
        // The next access (none while a pin reset waits or runs).
        if self.master.op.is_none() && !hold && !rst {
            if let Some(op) = self.ops.pop_front() {
                if op.write && op.addr >= map::SQ_DB {
                    self.doorbells_issued.push(now);
                }
                let mut wait = || {
                    let mut k = 0;
                    while k < 8 && self.p.axil_pause > 0.0 && self.rng.gen_bool(self.p.axil_pause) {
                        k += 1;
                    }
                    k
                };
                self.master = Master {
                    op: Some(op),
                    aw_left: op.write,
                    w_left: op.write,
                    ar_left: !op.write,
                    aw_wait: wait(),
                    w_wait: wait(),
                    ar_wait: wait(),
                };
            }
        }
        let m = &self.master;
        let op = m.op.unwrap_or(RegOp::read(0, None));
        let mut i = In {
            axil: AxilIn {
                awaddr: op.addr,
                awprot: 0,
                awvalid: m.aw_left && m.aw_wait == 0,
                wdata: op.data,
                wstrb: op.strb,
                wvalid: m.w_left && m.w_wait == 0,
                bready: false,
                araddr: op.addr,
                arprot: 0,
                arvalid: m.ar_left && m.ar_wait == 0,
                rready: false,
            },
            rst,
            ..Default::default()
        };
        i.axil.bready = !self.pause();
        i.axil.rready = !self.pause();
        i.read_desc_ready = self.ready();
        i.write_desc_ready = self.wr_desc.is_none() || self.ready();
        // h2c: the served reads' beats, after their latency.
        if let Some(&(_, data, keep, (last, flagged))) = self.h2c_front(now) {
            i.h2c_tvalid = true;
            i.h2c_tdata = data;
            i.h2c_tkeep = keep;
            i.h2c_tlast = last;
            i.h2c_tuser = flagged;
        }
        // c2h: only while a write descriptor is held.
        i.c2h_tready = self.wr_desc.is_some() && self.ready();
        i.tx_tready = self.ready() && !(self.pace_wire && (now as f64) < self.wire_free.floor());
        if let Some(f) = self.rx_q.front() {
            let end = (self.rx_pos + 8).min(f.len());
            let mut w = [0u8; 8];
            w[..end - self.rx_pos].copy_from_slice(&f[self.rx_pos..end]);
            i.rx_tvalid = true;
            i.rx_tdata = u64::from_le_bytes(w);
            i.rx_tkeep = ((1u16 << (end - self.rx_pos)) - 1) as u8;
            i.rx_tlast = end == f.len();
        }
        i
    }

    fn take(&mut self, now: u64, i: &In, o: &Out) -> Option<Vec<u8>> {
        // ---- AXI4-Lite.
        let a = &i.axil;
        {
            let m = &mut self.master;
            for w in [&mut m.aw_wait, &mut m.w_wait, &mut m.ar_wait] {
                *w = w.saturating_sub(1);
            }
            if a.awvalid && o.axil.awready {
                m.aw_left = false;
            }
            if a.wvalid && o.axil.wready {
                m.w_left = false;
            }
            if a.arvalid && o.axil.arready {
                m.ar_left = false;
            }
        }
        let answer = if o.axil.bvalid && a.bready {
            Some((o.axil.bresp, None))
        } else if o.axil.rvalid && a.rready {
            Some((o.axil.rresp, Some(o.axil.rdata)))
        } else {
            None
        };
        if let Some((code, data)) = answer {
            match self.master.op.take() {
                None => self
                    .errors
                    .push(format!("cycle {now}: an answer to no access")),
                Some(op) => {
                    self.reg_ops += 1;
                    self.answers[code as usize & 3] += 1;
                    if code != op.expect {
                        self.errors.push(format!(
                            "cycle {now}: {op:?} answered {code}, not {}",
                            op.expect
                        ));
                    }
                    if let (Some(v), Some(d)) = (op.value, data) {
                        if v != d {
                            self.errors
                                .push(format!("cycle {now}: {op:?} read {d:#x}, not {v:#x}"));
                        }
                    }
                    if let Some(d) = data {
                        self.reads.push((op.addr, d));
                    }
                    if !self.configured {
                        self.bring_up_left -= 1;
                        if self.bring_up_left == 0 {
                            self.configured = true;
                            self.configured_at = Some(now);
                        }
                    }
                    if op.write
                        && op.addr == map::CONTROL
                        && op.data & nic_spec::hostif::control::FULL_RESET != 0
                    {
                        if self.reset_plan.is_some_and(|r| r.kind == ResetKind::Peer) {
                            // Down for good: nothing more is posted,
                            // reaped or brought up.
                            self.restarting = false;
                            self.dead = true;
                            self.wr_q.clear();
                            self.events.clear();
                            if let Some(d) = self.reset_done.as_mut() {
                                d.answered_at = Some(now);
                            }
                        } else {
                            self.restart(now);
                        }
                    }
                }
            }
        }
        // ---- Events.
        if o.event_valid {
            self.events_seen += 1;
            self.event_cycles.push(now);
            let CqEvent { cq } = o.event;
            if (cq as u32) < self.p.cqs {
                if !self.events.contains(&cq) {
                    self.events.push_back(cq);
                }
            } else {
                self.errors.push(format!("cycle {now}: event of CQ {cq}"));
            }
        }
        // ---- DMA reads: descriptors, then beats.
        if o.read_desc_valid && i.read_desc_ready {
            self.rd_descs += 1;
            let d = o.read_desc;
            let flagged = self.p.dma_err > 0.0 && self.rng.gen_bool(self.p.dma_err);
            self.rd_desc
                .push_back((now + self.p.core.dma_latency, d.addr, d.len, flagged));
        }
        if i.h2c_tvalid && o.h2c_tready {
            self.h2c_beats.pop_front();
        }
        // ---- DMA writes: descriptors, then their beats.
        if o.write_desc_valid && i.write_desc_ready {
            self.wr_descs += 1;
            self.wr_desc_q
                .push_back((o.write_desc.addr, o.write_desc.len as u32));
        }
        if i.c2h_tready && o.c2h_tvalid {
            let (addr, left) = self.wr_desc.as_mut().unwrap();
            let n = o.c2h_tkeep.count_ones();
            let bytes = o.c2h_tdata.to_le_bytes();
            for (b, byte) in bytes.iter().enumerate() {
                if o.c2h_tkeep >> b & 1 == 1 {
                    self.mem.write(*addr + b as u64, &[*byte]);
                }
            }
            *addr += 8;
            if n > *left {
                self.errors
                    .push(format!("cycle {now}: c2h beat past its descriptor"));
            }
            *left = left.saturating_sub(n);
            if o.c2h_tlast {
                if *left != 0 {
                    self.errors.push(format!(
                        "cycle {now}: c2h burst shorter than its descriptor"
                    ));
                }
                self.wr_desc = None;
            }
        }
        if self.wr_desc.is_none() {
            self.wr_desc = self.wr_desc_q.pop_front();
        }
        // ---- The watchdog's streams.
        for (k, stalled) in [i.rx_tvalid && !o.rx_tready, i.h2c_tvalid && !o.h2c_tready]
            .into_iter()
            .enumerate()
        {
            self.stall_run[k] = if stalled { self.stall_run[k] + 1 } else { 0 };
            self.stall_max[k] = self.stall_max[k].max(self.stall_run[k]);
        }
        // ---- MAC.
        if i.rx_tvalid && o.rx_tready {
            self.rx_pos += 8;
            if i.rx_tlast {
                self.rx_ends.push(now);
                self.rx_q.pop_front();
                self.rx_pos = 0;
            }
        }
        if o.tx_tvalid && i.tx_tready {
            if self.tx_buf.is_empty() {
                self.tx_starts.push(now);
            }
            let n = o.tx_tkeep.count_ones() as usize;
            self.tx_buf
                .extend_from_slice(&o.tx_tdata.to_le_bytes()[..n]);
            if o.tx_tlast {
                let f = std::mem::take(&mut self.tx_buf);
                let start = *self.tx_starts.last().expect("a frame has a start") as f64;
                self.wire_free = self.wire_free.max(start)
                    + nic_spec::mac::wire_bytes(f.len()) as f64
                        / crate::core_env::WIRE_BYTES_PER_CYCLE;
                if o.tx_tuser {
                    self.tx_aborts += 1;
                } else {
                    self.frames_out += 1;
                    return Some(f);
                }
            }
        }
        None
    }

    fn receive(&mut self, frame: Vec<u8>) {
        self.rx_q.push_back(frame);
    }

    fn finished(&self) -> bool {
        if self.dead {
            return self.ops.is_empty() && self.master.op.is_none();
        }
        self.configured
            && self.wr_q.is_empty()
            && self.done.len() == self.expect.len()
            && self.ops.is_empty()
            && self.master.op.is_none()
    }

    fn last_tx_start(&self) -> u64 {
        self.tx_starts.last().copied().unwrap_or(0)
    }
}

impl NicHost {
    /// The h2c beat due now, serving the next read when the last is sent:
    /// (due, data, keep, (last, flagged)).
    fn h2c_front(&mut self, now: u64) -> Option<&(u64, u64, u8, (bool, bool))> {
        if self.h2c_beats.is_empty() {
            if let Some(&(due, addr, len, flagged)) = self.rd_desc.front() {
                if due <= now {
                    self.rd_desc.pop_front();
                    let words = (len as u64).div_ceil(8).max(1);
                    let bad = if flagged {
                        Some(self.rng.gen_range(0..words))
                    } else {
                        None
                    };
                    for k in 0..words {
                        let rest = len as u64 - (8 * k).min(len as u64);
                        let keep = if rest >= 8 {
                            0xFF
                        } else {
                            ((1u16 << rest) - 1) as u8
                        };
                        let d =
                            u64::from_le_bytes(self.mem.read(addr + 8 * k, 8).try_into().unwrap());
                        self.h2c_beats
                            .push_back((due, d, keep, (k + 1 == words, bad == Some(k))));
                    }
                }
            }
        }
        self.h2c_beats.front()
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

/// A two-NIC run through the host interface, as `hpccnic sim` makes it.
#[derive(Clone, Debug, PartialEq)]
pub struct NicSimCfg {
    pub core: crate::core_env::CoreSimCfg,
    /// log2 send-queue and completion-queue entries.
    pub sq_log: u8,
    pub cq_log: u8,
    /// Completion queues used per NIC.
    pub cqs: u32,
    pub mod_count: u16,
    pub mod_time: u32,
    pub batch: u32,
    pub axil_pause: f64,
    pub dma_err: f64,
    pub bad_input: bool,
    /// Ready low on host ports with this probability.
    pub stall: f64,
    pub dma_latency: u64,
    pub watchdog: Watchdog,
    /// A reset of NIC 1 (B) in mid-traffic; NIC 0 is its peer.
    pub reset: Option<ResetPlan>,
    /// A region NIC 1 (B) revokes in mid-traffic: the region of flow
    /// `index` (each flow has its own, `Workload::own_regions`).
    pub revoke: Option<RevokePlan>,
    /// The drivers reconnect a flow in error and post its work again
    /// ([`Recovery`]); not with a peer that dies.
    pub recover: bool,
}

/// What a run gives.
#[derive(Debug, Default)]
pub struct NicSimResult {
    pub cycles: u64,
    pub finished: bool,
    pub completed: usize,
    pub planned: usize,
    /// Work requests of a NIC that died ([`ResetKind::Peer`]) and never
    /// completed (as planned: the NIC is gone).
    pub abandoned: usize,
    pub byte_exact: bool,
    pub errors: Vec<String>,
    /// What the watchdog found (the run stopped there).
    pub watchdog: Vec<String>,
    /// Bytes the completed work requests moved (WRITE and READ payload of
    /// the good ones), and bytes of host memory compared with what each
    /// host must end with (both NICs).
    pub bytes_moved: u64,
    pub bytes_compared: u64,
    pub wire: Vec<crate::core_env::WireFrame>,
    /// Per NIC: (completions read, events, reposts, doorbells, register
    /// accesses, aborted frames, answers by code).
    pub hosts: Vec<HostSummary>,
}

/// One host's figures at the end of a run.
#[derive(Clone, Debug, Default)]
pub struct HostSummary {
    pub cqes: u64,
    pub events: u64,
    pub reposts: u64,
    pub doorbells: u64,
    pub reg_ops: u64,
    pub tx_aborts: u64,
    pub answers: [u64; 4],
    /// Every counter, read over AXI4-Lite at the end: (page, field, value).
    pub counters: Vec<(&'static str, &'static str, u32)>,
    /// Passes over the rings: the most any send queue, and any completion
    /// queue, went round (its last index / its size).
    pub sq_passes: u32,
    pub cq_passes: u32,
    /// The watchdog's figures: the longest a work request took (its entry
    /// written to its completion read) and, per [`WATCHED_STREAMS`], the
    /// longest a beat offered waited, cycles.
    pub wr_cycles_max: u64,
    pub stall_max: [u64; 2],
    /// The reset in mid-traffic made ([`NicSimCfg::reset`]).
    pub reset: Option<ResetDone>,
    /// The cycle the revocation was queued ([`NicSimCfg::revoke`]).
    pub revoked_at: Option<u64>,
    /// Completions by status: (name, count).
    pub by_status: Vec<(&'static str, u64)>,
    /// Each flow's first error completion: (flow, cycle, status).
    pub flow_err: Vec<(u32, u64, Status)>,
    /// The flows reconnected ([`NicSimCfg::recover`]).
    pub reconnected: Vec<Reconnected>,
}

/// The driver's parameters of a run (NIC of 2^`flows_log` flows).
pub fn nic_sim_params(c: &NicSimCfg, flows_log: u32, wr_log: u32) -> DriverParams {
    let mut core = crate::core_env::core_sim_params(&c.core);
    core.stall = c.stall;
    core.dma_latency = c.dma_latency;
    core.ring = 1 << wr_log;
    DriverParams {
        core,
        flows_log,
        sq_log: c.sq_log,
        cq_log: c.cq_log,
        cqs: c.cqs,
        mod_count: c.mod_count,
        mod_time: c.mod_time,
        batch: c.batch,
        axil_pause: c.axil_pause,
        dma_err: c.dma_err,
        bad_input: c.bad_input,
        watchdog: c.watchdog,
    }
}

/// The two hosts of a run and the workload they must end with.
pub fn nic_hosts(c: &NicSimCfg, p: &DriverParams) -> ([NicHost; 2], crate::core_env::Workload) {
    let k = &c.core;
    let w = crate::core_env::plan(
        k.seed,
        k.flows,
        k.messages,
        k.max_size,
        k.read_pct,
        k.bad,
        1 << k.mtu_log2,
    )
    .own_regions();
    let cm = CmLink::default();
    let hosts = [0, 1].map(|n| {
        let mut h = NicHost::new(
            *p,
            w.mem[n].clone(),
            &w.flows[n],
            &w.wrs[n],
            k.seed ^ (n as u64 + 1) * 0x9E37,
        );
        // A full reset restarts both NICs (ResetKind::Full).
        if n == 1 || c.reset.is_some_and(|r| r.kind == ResetKind::Full) {
            h.reset_plan = c.reset;
        }
        if c.recover {
            h.recovery = Some(Recovery::new(n, cm.clone()));
        }
        if n == 1 {
            h.revoke_plan = c.revoke;
        } else {
            // NIC A's flows may end in error when B revokes a flow's
            // region or dies.
            h.tolerate = Tolerate {
                revoked: c.revoke.iter().map(|r| r.index).collect(),
                peer_dies: c.reset.is_some_and(|r| r.kind == ResetKind::Peer),
            };
        }
        h
    });
    (hosts, w)
}

/// Run two NICs (`nics`: the golden twin, or an RTL engine with the twin
/// in lockstep) until every work request completed or `max_cycles`; the
/// counters are read over AXI4-Lite at the end. `progress(cycles,
/// completed, planned)` is called every 2^14 cycles.
pub fn run_nic_sim(
    c: &NicSimCfg,
    p: &DriverParams,
    nics: [crate::core_env::NicFn<'_, In, Out>; 2],
    max_cycles: u64,
    progress: &mut dyn FnMut(u64, usize, usize),
) -> NicSimResult {
    let (hosts, w) = nic_hosts(c, p);
    let mut pair = crate::core_env::Pair::new(
        hosts,
        nics,
        crate::link::LinkCfg {
            delay: c.core.delay,
            loss: c.core.loss,
            ce: 0.0,
            corrupt: c.core.corrupt,
        },
        c.core.seed,
    );
    pair.wire = Some(Vec::new());
    let mut r = drive_pair(&mut pair, &w, max_cycles, progress);
    r.wire = pair.wire.take().unwrap_or_default();
    r
}

/// A host of [`drive_pair`]: the driver, or the driver behind an adapter.
pub trait DriverHost: Host {
    fn driver(&self) -> &NicHost;
    fn driver_mut(&mut self) -> &mut NicHost;
}

impl DriverHost for NicHost {
    fn driver(&self) -> &NicHost {
        self
    }
    fn driver_mut(&mut self) -> &mut NicHost {
        self
    }
}

/// Run `pair` until every work request of `w` completed or `max_cycles`,
/// then read every counter; the result without the wire's frames.
pub fn drive_pair<H: DriverHost>(
    pair: &mut crate::core_env::Pair<'_, H>,
    w: &crate::core_env::Workload,
    max_cycles: u64,
    progress: &mut dyn FnMut(u64, usize, usize),
) -> NicSimResult {
    let planned = w.wrs[0].len() + w.wrs[1].len();
    let mut finished = false;
    let mut barked = Vec::new();
    while !finished && pair.now < max_cycles && barked.is_empty() {
        let to = (pair.now + (1 << 14)).min(max_cycles);
        finished = pair.run(to);
        progress(
            pair.now,
            pair.hosts.iter().map(|h| h.driver().done.len()).sum(),
            planned,
        );
        for (n, h) in pair.hosts.iter().enumerate() {
            let d = h.driver();
            if let Some(e) = d.watchdog(pair.now, &d.p.watchdog) {
                barked.push(format!("NIC {n}: {e}"));
            }
        }
    }
    // Read every counter, then let the reads finish. First the wire
    // drains: acknowledgements and probes can still be on their way when
    // the last work request completes, and a counter read before one
    // arrives would not count it (a damaged frame, say). Drained: no
    // frame sent for a link delay and 1024 cycles (its bytes, its
    // receive path), or 200 000 cycles.
    if finished {
        let quiet = pair.links.iter().map(|l| l.delay()).max().unwrap_or(0) + 1024;
        let until = pair.now + 200_000;
        while pair.now < until {
            let last = pair
                .wire
                .as_ref()
                .and_then(|w| w.last())
                .map_or(0, |f| f.time);
            if pair.now >= last + quiet {
                break;
            }
            pair.step();
        }
        for h in pair.hosts.iter_mut() {
            h.driver_mut().push_ops(counter_reads());
        }
        let until = pair.now + 200_000;
        while pair.hosts.iter().any(|h| h.driver().ops_pending() > 0) && pair.now < until {
            pair.step();
        }
    }
    let mut r = NicSimResult {
        cycles: pair.now,
        finished,
        planned,
        completed: pair.hosts.iter().map(|h| h.driver().done.len()).sum(),
        abandoned: pair
            .hosts
            .iter()
            .map(|h| h.driver())
            .filter(|d| d.dead)
            .map(|d| d.outstanding().len())
            .sum(),
        byte_exact: true,
        watchdog: barked,
        bytes_moved: w
            .wrs
            .iter()
            .zip(pair.hosts.iter())
            .flat_map(|(wrs, h)| {
                wrs.iter()
                    .filter(|x| x.status == Status::Ok && h.driver().done.contains_key(&x.wr.tag))
            })
            .map(|x| x.wr.len as u64)
            .sum(),
        bytes_compared: w.expected_mem.iter().map(|m| m.len() as u64).sum(),
        ..Default::default()
    };
    let recs = nic_spec::records::all();
    // A dead peer ends each flow within (limit + 1) go-backs of 1 to 2
    // RTO after its last progress (at most a round trip after the death,
    // or the work request's posting): checked per flow.
    let d0 = pair.hosts[0].driver();
    if let (true, Some(dead)) = (d0.tolerate.peer_dies, pair.hosts[1].driver().reset_done) {
        let core = &d0.p.core;
        let bound = retry_bound(core.rto as u64, nic_spec::roce::wr::RETRY_LIMIT_MAX);
        for (&f, &(t, s)) in &d0.flow_err {
            let from = dead.at.max(d0.err_posted[&f]);
            if s == Status::RetryExceeded && t > from + bound {
                r.errors.push(format!(
                    "NIC 0: flow {f} ended RetryExceeded at cycle {t}, {} cycles after cycle {from}: past the bound {bound}",
                    t - from
                ));
            }
        }
    }
    // A good work request that did not complete OK (its flow erred, or
    // its NIC died) may have moved all, part or none of its bytes: each
    // byte of its destination is the plan's or the first. Every other
    // byte is the plan's.
    let mut loose: [Vec<(u64, u64)>; 2] = [Vec::new(), Vec::new()];
    for (n, h) in pair.hosts.iter().map(|h| h.driver()).enumerate() {
        for x in w.wrs[n].iter().filter(|x| x.status == Status::Ok) {
            if h.status_of.get(&x.wr.tag) != Some(&Status::Ok) {
                let (m, a) = if x.wr.opcode == nic_spec::roce::wr::READ {
                    (n, x.wr.laddr)
                } else {
                    (1 - n, x.wr.va)
                };
                loose[m].push((a, a + x.wr.len as u64));
            }
        }
    }
    for (n, h) in pair.hosts.iter().map(|h| h.driver()).enumerate() {
        r.errors
            .extend(h.errors.iter().map(|e| format!("NIC {n}: {e}")));
        let exp = &w.expected_mem[n];
        let init = &w.mem[n];
        let wrong = |k: usize| {
            h.mem.bytes[k] != exp[k]
                && !(h.mem.bytes[k] == init[k]
                    && loose[n].iter().any(|&(a, b)| (a..b).contains(&(k as u64))))
        };
        if let Some(k) = (0..exp.len()).find(|&k| wrong(k)) {
            r.byte_exact = false;
            let end = (k..exp.len()).rev().find(|&j| wrong(j)).unwrap_or(k);
            r.errors.push(format!(
                "NIC {n}: host memory differs from the plan in bytes {k}..={end}"
            ));
        }
        let mut counters = Vec::new();
        for page in hostif::STATS_PAGES {
            let rec = recs.iter().find(|x| x.name == page).unwrap();
            for f in rec.fields {
                if let Some(v) = counter(&h.reads, page, f.name) {
                    counters.push((page, f.name, v));
                }
            }
        }
        r.hosts.push(HostSummary {
            cqes: h.cqes,
            events: h.events_seen,
            reposts: h.reposts,
            doorbells: h.doorbells,
            reg_ops: h.reg_ops,
            tx_aborts: h.tx_aborts,
            answers: h.answers,
            counters,
            sq_passes: h.sq_passes(),
            cq_passes: h.cq_passes(),
            wr_cycles_max: h.wr_cycles_max,
            stall_max: h.stall_max,
            reset: h.reset_done,
            revoked_at: h.revoke_done,
            by_status: h.by_status(),
            flow_err: h.flow_err.iter().map(|(&f, &(t, s))| (f, t, s)).collect(),
            reconnected: h.recovery.as_ref().map_or(Vec::new(), |r| r.done.clone()),
        });
    }
    r
}
