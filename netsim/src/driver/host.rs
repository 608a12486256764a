//! The host model of `hpcc_nic`: the driver, its memory and its DMA
//! engine, stepped against the NIC every cycle (the behaviour is in
//! `crate::driver`'s module comment).

use super::contract::*;
use crate::core_env::{FlowSpec, Host, PlannedWr};
use crate::host::HostMem;
use nic_golden::hostif::{AxilIn, CqEvent};
use nic_golden::nic::nic::{In, Out};
use nic_spec::hostif::{cq_reg, cqe, map, resp, wqe};
use nic_spec::roce::wr::Status;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::collections::{BTreeMap, BTreeSet, VecDeque};

mod recover;
pub use recover::{Cm, CmLink, CmMsg, Reconnected, Recovery};

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

/// The AXI4-Lite master: one access at a time.
#[derive(Clone, Debug, Default)]
pub(super) struct Master {
    pub(super) op: Option<RegOp>,
    pub(super) aw_left: bool,
    pub(super) w_left: bool,
    pub(super) ar_left: bool,
    /// Cycles before AW / W / AR are asserted.
    pub(super) aw_wait: u32,
    pub(super) w_wait: u32,
    pub(super) ar_wait: u32,
}

/// A send queue as the driver keeps it.
#[derive(Clone, Debug, Default)]
pub(super) struct Sq {
    pub(super) base: u64,
    /// Producer index.
    pub(super) pi: u16,
    /// Entries posted and not completed.
    pub(super) outstanding: u32,
    /// Send-queue index → tag of the work request written there.
    pub(super) tags: BTreeMap<u16, u32>,
}

/// The host side of one `hpcc_nic`.
pub struct NicHost {
    pub p: DriverParams,
    pub mem: HostMem,
    pub(super) layout: Layout,
    pub(super) ops: VecDeque<RegOp>,
    pub(super) master: Master,
    /// Work requests to post, in order.
    pub(super) wr_q: VecDeque<PlannedWr>,
    /// tag → what its completion must say.
    pub(super) expect: BTreeMap<u32, PlannedWr>,
    /// tag → cycle of its completion.
    pub done: BTreeMap<u32, u64>,
    /// tag → cycle its entry was first written into its send queue, while
    /// it is not complete.
    pub(super) posted_at: BTreeMap<u32, u64>,
    /// The longest a work request took, entry written to completion read.
    pub wr_cycles_max: u64,
    /// Per [`WATCHED_STREAMS`]: the current and the longest run of cycles
    /// with a beat offered and not taken.
    pub(super) stall_run: [u64; 2],
    pub stall_max: [u64; 2],
    pub(super) sqs: BTreeMap<u32, Sq>,
    /// Per CQ: consumer index.
    pub(super) cq_ci: Vec<u16>,
    /// CQs with an event not yet served.
    pub(super) events: VecDeque<u8>,
    // DMA engine.
    pub(super) rd_desc: VecDeque<(u64, u64, u16, bool)>,
    /// The beats of the read being served: (due, data, keep, (last, flagged)).
    pub(super) h2c_beats: VecDeque<(u64, u64, u8, (bool, bool))>,
    pub(super) wr_desc: Option<(u64, u32)>,
    pub(super) wr_desc_q: VecDeque<(u64, u32)>,
    // MAC side.
    pub(super) rx_q: VecDeque<Vec<u8>>,
    pub(super) rx_pos: usize,
    pub(super) tx_buf: Vec<u8>,
    /// Hold `m_axis_tx` until the last frame's time on the wire (padding,
    /// FCS, preamble and gap at 8 bytes a cycle) is over, as
    /// `CoreHost::pace_wire` does.
    pub pace_wire: bool,
    pub(super) wire_free: f64,
    pub(super) rng: StdRng,
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
    pub(super) configured: bool,
    /// Accesses of the bring-up still to answer.
    pub(super) bring_up_left: usize,
    /// The reset to make, and what it met once made.
    pub reset_plan: Option<ResetPlan>,
    pub reset_done: Option<ResetDone>,
    /// `rst` high while `now` is below this.
    pub(super) rst_until: u64,
    /// A full reset's `CONTROL` write is queued or in flight.
    pub(super) restarting: bool,
    /// The flows and the work requests, for starting again after a full
    /// reset.
    pub(super) flows: Vec<FlowSpec>,
    pub(super) wrs: Vec<PlannedWr>,
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
    pub(super) fn restart(&mut self, now: u64) {
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

    pub(super) fn ready(&mut self) -> bool {
        !(self.p.core.stall > 0.0 && self.rng.gen_bool(self.p.core.stall))
    }

    pub(super) fn pause(&mut self) -> bool {
        self.p.axil_pause > 0.0 && self.rng.gen_bool(self.p.axil_pause)
    }

    /// Post what can be posted: entries into their send queues, a
    /// doorbell per flow run (at most `batch` entries).
    pub(super) fn post(&mut self, now: u64) {
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
    pub(super) fn reap(&mut self, now: u64) {
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

    pub(super) fn complete(&mut self, now: u64, e: &Cqe) {
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
            i.h2c.tvalid = true;
            i.h2c.tdata = data;
            i.h2c.tkeep = keep;
            i.h2c.tlast = last;
            i.h2c.tuser = flagged;
        }
        // c2h: only while a write descriptor is held.
        i.c2h_tready = self.wr_desc.is_some() && self.ready();
        i.tx_tready = self.ready() && !(self.pace_wire && (now as f64) < self.wire_free.floor());
        if let Some(f) = self.rx_q.front() {
            let end = (self.rx_pos + 8).min(f.len());
            let mut w = [0u8; 8];
            w[..end - self.rx_pos].copy_from_slice(&f[self.rx_pos..end]);
            i.rx.tvalid = true;
            i.rx.tdata = u64::from_le_bytes(w);
            i.rx.tkeep = ((1u16 << (end - self.rx_pos)) - 1) as u8;
            i.rx.tlast = end == f.len();
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
        if i.h2c.tvalid && o.h2c_tready {
            self.h2c_beats.pop_front();
        }
        // ---- DMA writes: descriptors, then their beats.
        if o.write_desc_valid && i.write_desc_ready {
            self.wr_descs += 1;
            self.wr_desc_q
                .push_back((o.write_desc.addr, o.write_desc.len as u32));
        }
        if i.c2h_tready && o.c2h.tvalid {
            let (addr, left) = self.wr_desc.as_mut().unwrap();
            let n = o.c2h.tkeep.count_ones();
            let bytes = o.c2h.tdata.to_le_bytes();
            for (b, byte) in bytes.iter().enumerate() {
                if o.c2h.tkeep >> b & 1 == 1 {
                    self.mem.write(*addr + b as u64, &[*byte]);
                }
            }
            *addr += 8;
            if n > *left {
                self.errors
                    .push(format!("cycle {now}: c2h beat past its descriptor"));
            }
            *left = left.saturating_sub(n);
            if o.c2h.tlast {
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
        for (k, stalled) in [i.rx.tvalid && !o.rx_tready, i.h2c.tvalid && !o.h2c_tready]
            .into_iter()
            .enumerate()
        {
            self.stall_run[k] = if stalled { self.stall_run[k] + 1 } else { 0 };
            self.stall_max[k] = self.stall_max[k].max(self.stall_run[k]);
        }
        // ---- MAC.
        if i.rx.tvalid && o.rx_tready {
            self.rx_pos += 8;
            if i.rx.tlast {
                self.rx_ends.push(now);
                self.rx_q.pop_front();
                self.rx_pos = 0;
            }
        }
        if o.tx.tvalid && i.tx_tready {
            if self.tx_buf.is_empty() {
                self.tx_starts.push(now);
            }
            let n = o.tx.tkeep.count_ones() as usize;
            self.tx_buf
                .extend_from_slice(&o.tx.tdata.to_le_bytes()[..n]);
            if o.tx.tlast {
                let f = std::mem::take(&mut self.tx_buf);
                let start = *self.tx_starts.last().expect("a frame has a start") as f64;
                self.wire_free = self.wire_free.max(start)
                    + nic_spec::mac::wire_bytes(f.len()) as f64
                        / crate::core_env::WIRE_BYTES_PER_CYCLE;
                if o.tx.tuser {
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
    pub(super) fn h2c_front(&mut self, now: u64) -> Option<&(u64, u64, u8, (bool, bool))> {
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
