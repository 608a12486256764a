//! Two NICs (A = 0, B = 1) joined by a link, each with a requester and a
//! responder over its [`TxPipe`] / [`RxPipe`]; the named scenarios and the
//! end-of-run checks. Event-driven, time in cycles.
//!
//! Requester, per flow (QP):
//! - work requests WRITE(local, remote VA, len) and READ(local, remote VA,
//!   len), all posted at the start, PSNs assigned in order from a per-flow
//!   initial PSN (half the flows start within 64 of the 2^24 wrap);
//! - a WRITE is segmented at the MTU into FIRST/MIDDLE/LAST or ONLY (a
//!   0-byte WRITE is an ONLY without payload); a READ is one READ REQUEST
//!   using ceil(len/MTU) PSNs (min 1);
//! - AckReq on the last packet of a WRITE and on every packet with
//!   telemetry; telemetry (a fresh area) on one WRITE packet in `tlm_every`
//!   (counted per flow, resends included);
//! - at most `window` PSNs in flight (one packet may always be in flight);
//! - fence: nothing after a READ is sent before the READ completed (the
//!   dispatcher has one `rd_addr` / `rd_psn` per flow); before each READ
//!   REQUEST (first send or resend) the requester sets them
//!   ([`RxPipe::set_read`]) to the READ's local address and first PSN;
//! - ACKs are cumulative; a READ completes when its last response (LAST or
//!   ONLY with the READ's last PSN) was accepted; the oldest unacknowledged
//!   PSN never passes an incomplete READ;
//! - NAK with PSN p: everything before p is acknowledged, resend from p
//!   (go-back-N);
//! - retransmission timer: no progress (acknowledgement, READ response
//!   data, NAK) for `rto` cycles while PSNs are in flight: resend from the
//!   oldest unacknowledged PSN;
//! - a READ REQUEST sent again asks only for what has not arrived: from the
//!   first missing response PSN, VA and length advanced by the bytes
//!   accepted so far (the requester sees them as host writes into the
//!   READ's local range; the dispatcher accepts responses in order only, so
//!   they are a prefix), `rd_addr` / `rd_psn` set to match;
//! - probes (0xC0, PSN = next PSN to send, fresh telemetry) once per
//!   `probe_interval` per flow while PSNs are in flight.
//!
//! Responder: ACK/NAK requests of the Rx pipeline are sent first; READ
//! requests become READ RESPONSE FIRST/MIDDLE/LAST/ONLY from host memory
//! (VA = host address, R_Key ignored), served round-robin over the READs
//! being answered, alternating with the requester's packets.
//!
//! Egress of a NIC: one frame at a time on its link direction; the next one
//! is chosen when the port is free (no queue builds up in the NIC).
//!
//! Checks at the end ([`SimResult::errors`]): the run finished within its
//! bound with every work request complete; each NIC's whole memory equals
//! its initial contents with every WRITE into it and every READ it made
//! applied (sources are seeded random bytes, destinations too); every byte
//! of every destination range was written by exactly one host write, and
//! no byte outside them;
//! no frame failed the parser (the link loses frames but never corrupts
//! them), no unknown-flow / bad-PSN packet, no Tx descriptor dropped, no
//! host write outside the memory.

use crate::host::HostMem;
use crate::link::{ser_cycles, Link, LinkCfg};
use nic_golden::roce::packet::{op, Drop};
use nic_golden::roce::txn::{
    FlowCfg, GoldenRx, GoldenTx, RxDrop, RxEvent, RxPipe, TxContext, TxDesc, TxPipe,
};
use nic_spec::roce::{segment_opcode, PSN_MASK};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::collections::VecDeque;

/// The first QP (flow) the scenarios use: QPs 0 and 1 are InfiniBand's
/// special QPs (SMI, GSI), whose packets Wireshark dissects as management
/// datagrams. The requester's flow i is QP `FIRST_QP + i` on both NICs.
pub const FIRST_QP: u32 = 2;

/// The named scenarios.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scenario {
    /// Random-size WRITEs on several flows, both directions, no loss.
    Write,
    /// Random-size READs on several flows, both directions, no loss.
    Read,
    /// As `Write`, with loss (5 % unless set).
    LossyWrite,
}

impl Scenario {
    pub const ALL: [Scenario; 3] = [Scenario::Write, Scenario::Read, Scenario::LossyWrite];
    pub fn name(self) -> &'static str {
        match self {
            Scenario::Write => "write",
            Scenario::Read => "read",
            Scenario::LossyWrite => "lossy-write",
        }
    }
    pub fn from_name(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|x| x.name() == s)
    }
    pub fn default_loss(self) -> f64 {
        match self {
            Scenario::LossyWrite => 0.05,
            _ => 0.0,
        }
    }
    fn reads(self) -> bool {
        self == Scenario::Read
    }
}

/// Parameters of a run. [`SimConfig::new`] gives the defaults; `rto` and
/// `probe_interval` of 0 mean "derived from the others".
#[derive(Clone, Debug)]
pub struct SimConfig {
    pub scenario: Scenario,
    pub seed: u64,
    /// Per-frame loss probability, both directions.
    pub loss: f64,
    /// Work requests posted by each NIC.
    pub messages: usize,
    /// Largest message, bytes (sizes are random in 0..=max_size, with the
    /// edges 0, 1, 7, 8, MTU−1, MTU, MTU+1, 2·MTU, max drawn often).
    pub max_size: u32,
    /// 256, 512, 1024, 2048 or 4096.
    pub mtu: u32,
    /// Flows (QPs) used per NIC, ≤ 2^flow_bits − [`FIRST_QP`].
    pub flows: u32,
    pub flow_bits: u32,
    /// Link delay per direction, cycles.
    pub delay: u64,
    /// PSNs in flight per flow.
    pub window: u32,
    pub tlm_every: u32,
    pub probe_interval: u64,
    pub rto: u64,
    /// Keep every frame ([`SimResult::wire`]) for a pcap.
    pub record: bool,
}

impl SimConfig {
    pub fn new(scenario: Scenario) -> Self {
        SimConfig {
            scenario,
            seed: 1,
            loss: scenario.default_loss(),
            messages: 32,
            max_size: 8192,
            mtu: 1024,
            flows: 4,
            flow_bits: 4,
            delay: 500,
            window: 16,
            tlm_every: 4,
            probe_interval: 0,
            rto: 0,
            record: false,
        }
    }

    /// Check the parameters; the error says which is wrong.
    pub fn validate(&self) -> Result<(), String> {
        if !(self.mtu.is_power_of_two() && (256..=4096).contains(&self.mtu)) {
            return Err(format!(
                "MTU {} is not one of 256, 512, 1024, 2048, 4096",
                self.mtu
            ));
        }
        if self.flow_bits > 16 || self.flows == 0 || self.flows + FIRST_QP > 1 << self.flow_bits {
            return Err(format!(
                "{} flows (from QP {FIRST_QP}) do not fit in {} flow bits",
                self.flows, self.flow_bits
            ));
        }
        if !(0.0..1.0).contains(&self.loss) {
            return Err(format!("loss {} is not in [0, 1)", self.loss));
        }
        if self.max_size > 1 << 30 || self.messages > 1 << 20 {
            return Err("max size or message count too large".into());
        }
        if self.window == 0 || self.tlm_every == 0 {
            return Err("window and tlm_every must be at least 1".into());
        }
        if self.time_bound_max().is_none() {
            return Err(format!(
                "delay {} cycles with {} messages of up to {} bytes: the run's time bound passes 2^64 cycles",
                self.delay, self.messages, self.max_size
            ));
        }
        Ok(())
    }

    /// The largest time bound of the event loop this configuration can
    /// have (every message of the largest size), computed without
    /// wrapping; `None` if it does not fit 64 bits. [`Self::validate`]
    /// refuses such a configuration, so the run's own arithmetic on
    /// times (timers, the bound) never wraps.
    pub fn time_bound_max(&self) -> Option<u64> {
        let burst = (self.max_size as u64).max((self.window as u64).checked_mul(self.mtu as u64)?);
        let frame = burst.checked_add(burst / 8)?.checked_add(128)?;
        let rto = if self.rto > 0 {
            self.rto
        } else {
            let ser = 4u64
                .checked_mul(self.flows as u64)?
                .checked_mul(ser_cycles(usize::try_from(frame).ok()?))?;
            4u64.checked_mul(self.delay)?.checked_add(ser)?
        };
        let probe = if self.probe_interval > 0 {
            self.probe_interval
        } else {
            2u64.checked_mul(self.delay)?
                .checked_add(4 * ser_cycles(self.mtu as usize + 128))?
        };
        let psns_per_msg = (self.max_size as u64)
            .div_ceil(self.mtu.max(1) as u64)
            .max(1);
        let psns = 2u64
            .checked_mul(self.messages as u64)?
            .checked_mul(psns_per_msg)?
            .checked_add(16)?;
        psns.checked_mul(rto.checked_add(probe)?)?.checked_mul(4)
    }

    fn rto(&self) -> u64 {
        if self.rto > 0 {
            return self.rto;
        }
        let burst = (self.max_size as u64).max(self.window as u64 * self.mtu as u64);
        4 * self.delay + 4 * self.flows as u64 * ser_cycles((burst + burst / 8 + 128) as usize)
    }

    fn probe_interval(&self) -> u64 {
        if self.probe_interval > 0 {
            self.probe_interval
        } else {
            2 * self.delay + 4 * ser_cycles(self.mtu as usize + 128)
        }
    }
}

/// A frame as it went on the wire.
#[derive(Clone, Debug)]
pub struct WireFrame {
    /// Cycle its first byte left the sender.
    pub time: u64,
    /// Sending NIC (0 = A, 1 = B).
    pub from: usize,
    /// Lost on the link (never arrived).
    pub lost: bool,
    pub frame: Vec<u8>,
}

/// Figures of one NIC.
#[derive(Clone, Debug, Default)]
pub struct NicStats {
    pub frames: u64,
    pub bytes: u64,
    pub lost: u64,
    /// WRITE packets and READ REQUESTs, resends included.
    pub data_packets: u64,
    /// Of which resends.
    pub retransmissions: u64,
    pub timeouts: u64,
    pub naks_received: u64,
    pub probes: u64,
    pub acks_sent: u64,
    pub read_responses: u64,
    pub wrs_posted: u64,
    pub wrs_done: u64,
    pub tx_counters: Vec<(&'static str, u64)>,
    pub rx_counters: Vec<(&'static str, u64)>,
}

impl NicStats {
    pub fn rx(&self, name: &str) -> u64 {
        self.rx_counters
            .iter()
            .find(|c| c.0 == name)
            .map_or(0, |c| c.1)
    }
}

/// What a run did.
#[derive(Clone, Debug)]
pub struct SimResult {
    pub cycles: u64,
    /// Every work request completed within the bound.
    pub finished: bool,
    pub nic: [NicStats; 2],
    /// Every frame on the wire, both directions, in order of time (if
    /// [`SimConfig::record`]).
    pub wire: Vec<WireFrame>,
    /// Failed checks (empty: the data arrived byte-exact, see the module doc).
    pub errors: Vec<String>,
}

impl SimResult {
    pub fn ok(&self) -> bool {
        self.finished && self.errors.is_empty()
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Write,
    Read,
}

#[derive(Clone, Debug)]
struct Wr {
    kind: Kind,
    local: u64,
    remote: u64,
    len: u32,
    /// First PSN, unwrapped (0 = the flow's initial PSN).
    first: u64,
    npsn: u64,
    done: bool,
    /// READ: response bytes accepted so far (in order).
    got: u64,
}

#[derive(Clone, Debug, Default)]
struct ReqFlow {
    base: u32,
    /// Indices into the NIC's work requests, in PSN order.
    wrs: Vec<usize>,
    /// Index into `wrs` of the oldest incomplete one.
    head: usize,
    una: u64,
    nxt: u64,
    end: u64,
    max_sent: u64,
    last_progress: u64,
    last_probe: u64,
    tlm_count: u32,
}

impl ReqFlow {
    fn wire(&self, k: u64) -> u32 {
        ((self.base as u64 + k) & PSN_MASK as u64) as u32
    }
    /// The unwrapped PSN of wire PSN `p`, at or after `una`.
    fn unwrap(&self, p: u32) -> u64 {
        self.una + (p.wrapping_sub(self.wire(self.una)) & PSN_MASK) as u64
    }
    fn in_flight(&self) -> bool {
        self.una < self.nxt
    }
}

#[derive(Clone, Debug)]
struct ReadJob {
    flow: u32,
    psn: u32,
    va: u64,
    len: u32,
    msn: u32,
    /// Packets sent so far.
    i: u32,
    n: u32,
}

struct Nic {
    id: usize,
    mem: HostMem,
    cover: Vec<u8>,
    tx: Box<dyn TxPipe>,
    rx: Box<dyn RxPipe>,
    wrs: Vec<Wr>,
    flows: Vec<ReqFlow>,
    acks: VecDeque<TxDesc>,
    reads: VecDeque<ReadJob>,
    rr: usize,
    toggle: bool,
    mtu: u32,
    window: u64,
    tlm_every: u32,
    rto: u64,
    probe_interval: u64,
    st: NicStats,
    errors: Vec<String>,
}

impl Nic {
    fn receive(&mut self, frame: &[u8], now: u64) {
        for ev in self.rx.receive(frame, false) {
            match ev {
                RxEvent::HostWrite { addr, data } => {
                    if self.mem.write(addr, &data) {
                        for c in &mut self.cover[addr as usize..addr as usize + data.len()] {
                            *c = c.saturating_add(1);
                        }
                        self.on_read_data(addr, data.len() as u64, now);
                    }
                }
                RxEvent::Ack(a) => {
                    self.acks.push_back(
                        TxDesc {
                            flow: a.flow,
                            opcode: op::ACK,
                            psn: a.psn,
                            aeth: a.aeth,
                            ..Default::default()
                        }
                        .with_tlm(a.tlm),
                    );
                }
                RxEvent::Cc(c) => self.on_cc(c.flow, c.psn, c.opcode, now),
                RxEvent::Nak { flow, psn } => self.on_nak(flow, psn, now),
                RxEvent::ReadReq(r) => {
                    let n = (r.len as u64).div_ceil(self.mtu as u64).max(1) as u32;
                    self.reads.push_back(ReadJob {
                        flow: r.flow,
                        psn: r.psn,
                        va: r.va,
                        len: r.len,
                        msn: r.msn,
                        i: 0,
                        n,
                    });
                }
                RxEvent::Drop(_) => {}
            }
        }
    }

    /// The incomplete READ that was sent (at most one per flow: fence).
    fn pending_read(&self, f: usize) -> Option<usize> {
        let fl = &self.flows[f];
        fl.wrs[fl.head..]
            .iter()
            .copied()
            .take_while(|&w| self.wrs[w].first < fl.nxt)
            .find(|&w| self.wrs[w].kind == Kind::Read && !self.wrs[w].done)
    }

    /// A host write of READ response data (recognised by its address, in
    /// the local range of a flow's pending READ): progress for the timer,
    /// and where a re-request starts.
    fn on_read_data(&mut self, addr: u64, len: u64, now: u64) {
        for f in 0..self.flows.len() {
            if let Some(w) = self.pending_read(f) {
                let wr = &mut self.wrs[w];
                if (wr.local..wr.local + wr.len as u64).contains(&addr) {
                    wr.got = wr.got.max(addr + len - wr.local);
                    self.flows[f].last_progress = now;
                    return;
                }
            }
        }
    }

    /// Everything before unwrapped PSN `k` is acknowledged.
    fn ack_to(&mut self, f: usize, k: u64, now: u64) {
        let lim = self.pending_read(f).map(|w| self.wrs[w].first);
        let fl = &mut self.flows[f];
        let k = lim.map_or(k, |l| k.min(l));
        if k > fl.una {
            fl.una = k;
            fl.last_progress = now;
        }
        self.retire(f);
    }

    fn retire(&mut self, f: usize) {
        let fl = &mut self.flows[f];
        while let Some(&w) = fl.wrs.get(fl.head) {
            let wr = &mut self.wrs[w];
            if wr.kind == Kind::Write && wr.first + wr.npsn <= fl.una {
                wr.done = true;
            }
            if !wr.done {
                break;
            }
            self.st.wrs_done += 1;
            fl.head += 1;
        }
    }

    fn on_cc(&mut self, flow: u32, psn: u32, opcode: u8, now: u64) {
        let f = flow.wrapping_sub(FIRST_QP) as usize;
        if f >= self.flows.len() {
            self.errors
                .push(format!("NIC {}: cc event on flow {flow}", self.id));
            return;
        }
        match opcode {
            op::ACK => {
                let k = self.flows[f].unwrap(psn);
                if k < self.flows[f].nxt {
                    self.ack_to(f, k + 1, now);
                }
            }
            op::READ_RESP_FIRST | op::READ_RESP_LAST | op::READ_RESP_ONLY => {
                self.flows[f].last_progress = now;
                if opcode != op::READ_RESP_FIRST {
                    if let Some(w) = self.pending_read(f) {
                        let last = self.wrs[w].first + self.wrs[w].npsn - 1;
                        if self.flows[f].wire(last) == psn {
                            self.wrs[w].done = true;
                            let fl = &mut self.flows[f];
                            fl.una = fl.una.max(last + 1);
                            self.retire(f);
                        }
                    }
                }
            }
            _ => {}
        }
    }

    fn on_nak(&mut self, flow: u32, psn: u32, now: u64) {
        let f = flow.wrapping_sub(FIRST_QP) as usize;
        if f >= self.flows.len() {
            self.errors
                .push(format!("NIC {}: NAK on flow {flow}", self.id));
            return;
        }
        let k = self.flows[f].unwrap(psn);
        if k <= self.flows[f].nxt {
            self.st.naks_received += 1;
            self.ack_to(f, k, now);
            let fl = &mut self.flows[f];
            fl.nxt = k.max(fl.una).min(fl.nxt);
            fl.last_progress = now;
        }
    }

    fn check_timers(&mut self, now: u64) {
        for fl in &mut self.flows {
            if fl.in_flight() && now >= fl.last_progress + self.rto {
                fl.nxt = fl.una;
                fl.last_progress = now;
                self.st.timeouts += 1;
            }
        }
    }

    /// Earliest future timer or probe deadline.
    fn next_deadline(&self, now: u64) -> Option<u64> {
        self.flows
            .iter()
            .filter(|fl| fl.in_flight())
            .flat_map(|fl| {
                [
                    fl.last_progress + self.rto,
                    fl.last_probe + self.probe_interval,
                ]
            })
            .filter(|&t| t > now)
            .min()
    }

    /// Something could be sent now if the port were free.
    fn has_work(&self, now: u64) -> bool {
        !self.acks.is_empty()
            || !self.reads.is_empty()
            || (0..self.flows.len()).any(|f| self.probe_due(f, now) || self.sendable(f).is_some())
    }

    fn probe_due(&self, f: usize, now: u64) -> bool {
        let fl = &self.flows[f];
        fl.in_flight() && now >= fl.last_probe + self.probe_interval
    }

    /// The work request of the next packet of flow `f`, if it may go now.
    fn sendable(&self, f: usize) -> Option<usize> {
        let fl = &self.flows[f];
        if fl.nxt >= fl.end || (fl.nxt - fl.una >= self.window && fl.nxt != fl.una) {
            return None;
        }
        let pos = fl.wrs[fl.head..].partition_point(|&w| self.wrs[w].first <= fl.nxt) + fl.head;
        let idx = pos.checked_sub(1)?;
        // Fence: an earlier READ not yet complete.
        if fl.wrs[fl.head..idx]
            .iter()
            .any(|&w| self.wrs[w].kind == Kind::Read && !self.wrs[w].done)
        {
            return None;
        }
        Some(fl.wrs[idx])
    }

    /// The next descriptor of the requester, round-robin over flows.
    fn requester_desc(&mut self, now: u64) -> Option<TxDesc> {
        let n = self.flows.len();
        for j in 0..n {
            let f = (self.rr + j) % n;
            if self.probe_due(f, now) {
                self.rr = (f + 1) % n;
                let fl = &mut self.flows[f];
                fl.last_probe = now;
                self.st.probes += 1;
                return Some(
                    TxDesc {
                        flow: f as u32 + FIRST_QP,
                        opcode: op::PROBE,
                        psn: fl.wire(fl.nxt),
                        ..Default::default()
                    }
                    .with_fresh_tlm(),
                );
            }
            if let Some(w) = self.sendable(f) {
                self.rr = (f + 1) % n;
                return Some(self.data_desc(f, w, now));
            }
        }
        None
    }

    fn data_desc(&mut self, f: usize, w: usize, now: u64) -> TxDesc {
        let mtu = self.mtu as u64;
        let tlm_every = self.tlm_every;
        let wr = &mut self.wrs[w];
        let fl = &mut self.flows[f];
        let k = fl.nxt;
        if !fl.in_flight() {
            // Timers start with the first packet in flight.
            fl.last_progress = now;
            fl.last_probe = now;
        }
        self.st.data_packets += 1;
        if k < fl.max_sent {
            self.st.retransmissions += 1;
        }
        let d = match wr.kind {
            Kind::Read => {
                // A resend asks for what has not arrived yet (`got` is a
                // multiple of the MTU unless the READ is complete).
                let skip = wr.got / mtu;
                let off = skip * mtu;
                let psn = fl.wire(k + skip);
                self.rx.set_read(f as u32 + FIRST_QP, wr.local + off, psn);
                fl.nxt = k + wr.npsn;
                TxDesc {
                    flow: f as u32 + FIRST_QP,
                    opcode: op::READ_REQ,
                    psn,
                    va: wr.remote + off,
                    dlen: wr.len - off as u32,
                    ..Default::default()
                }
            }
            Kind::Write => {
                let i = k - wr.first;
                let off = i * mtu;
                let len = (wr.len as u64).saturating_sub(off).min(mtu) as u16;
                let last = i + 1 == wr.npsn;
                let opcode = segment_opcode(false, i == 0, last);
                fl.tlm_count += 1;
                let tlm = fl.tlm_count % tlm_every == 0;
                fl.nxt = k + 1;
                let d = TxDesc {
                    flow: f as u32 + FIRST_QP,
                    opcode,
                    psn: fl.wire(k),
                    ackreq: last || tlm,
                    len,
                    addr: wr.local + off,
                    va: wr.remote,
                    dlen: wr.len,
                    ..Default::default()
                };
                if tlm {
                    d.with_fresh_tlm()
                } else {
                    d
                }
            }
        };
        fl.max_sent = fl.max_sent.max(fl.nxt);
        d
    }

    fn read_resp_desc(&mut self) -> Option<TxDesc> {
        let mut j = self.reads.pop_front()?;
        let mtu = self.mtu as u64;
        let off = j.i as u64 * mtu;
        let len = (j.len as u64).saturating_sub(off).min(mtu) as u16;
        let opcode = segment_opcode(true, j.i == 0, j.i + 1 == j.n);
        let d = TxDesc {
            flow: j.flow,
            opcode,
            psn: (j.psn + j.i) & PSN_MASK,
            len,
            addr: j.va + off,
            aeth: (nic_golden::roce::packet::syndrome::ACK as u32) << 24 | j.msn,
            ..Default::default()
        };
        j.i += 1;
        if j.i < j.n {
            self.reads.push_back(j);
        }
        self.st.read_responses += 1;
        Some(d)
    }

    /// The next frame to put on the wire at `now`.
    fn next_frame(&mut self, now: u64) -> Option<Vec<u8>> {
        let d = if let Some(a) = self.acks.pop_front() {
            self.st.acks_sent += 1;
            a
        } else {
            self.toggle = !self.toggle;
            let first = if self.toggle {
                self.read_resp_desc()
            } else {
                self.requester_desc(now)
            };
            match first {
                Some(d) => d,
                None if self.toggle => self.requester_desc(now)?,
                None => self.read_resp_desc()?,
            }
        };
        let f = self.tx.build(&d, &self.mem);
        if f.is_none() {
            self.errors
                .push(format!("NIC {}: Tx dropped descriptor {d:?}", self.id));
        }
        f
    }
}

fn pick_size(rng: &mut StdRng, max: u32, mtu: u32) -> u32 {
    let edges = [0, 1, 7, 8, mtu - 1, mtu, mtu + 1, 2 * mtu, max];
    if max == 0 {
        return 0;
    }
    if rng.gen_bool(0.25) {
        let e: Vec<u32> = edges.into_iter().filter(|&e| e <= max).collect();
        e[rng.gen_range(0..e.len())]
    } else {
        rng.gen_range(1..=max)
    }
}

fn align8(x: u64) -> u64 {
    (x + 7) & !7
}

/// How far a run is, as reported to the `progress` callback of
/// [`run_progress`] / [`run_with_progress`] (every few thousand events,
/// and once at the end).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    /// Work requests completed so far, both NICs.
    pub wrs_done: u64,
    /// Work requests posted, both NICs.
    pub wrs_posted: u64,
    /// The simulated time, cycles.
    pub cycle: u64,
    /// Frames put on the wire so far, both directions.
    pub frames: u64,
}

/// Run with the golden pipelines.
pub fn run(cfg: &SimConfig) -> SimResult {
    run_progress(cfg, &mut |_| {})
}

/// [`run`], reporting its progress to `progress` (which cannot change
/// the run).
pub fn run_progress(cfg: &SimConfig, progress: &mut dyn FnMut(&Progress)) -> SimResult {
    run_with_progress(
        cfg,
        |_| Box::new(GoldenTx::new(cfg.flow_bits)),
        |_| Box::new(GoldenRx::new(cfg.flow_bits, cfg.mtu.trailing_zeros())),
        progress,
    )
}

/// Run with the pipelines `tx(nic)`, `rx(nic)` (nic 0 = A, 1 = B).
/// Panics if `cfg` does not [`SimConfig::validate`].
///
/// The steps, in order (the seeded draws happen in this order, so a seed
/// names one run): [`plan_work`], [`initial_memory`], [`new_nic`] for
/// both NICs, [`connect_flows`], [`post_work`], [`event_loop`], then
/// [`check_nic`] on each NIC and [`finish_stats`].
pub fn run_with(
    cfg: &SimConfig,
    tx: impl FnMut(usize) -> Box<dyn TxPipe>,
    rx: impl FnMut(usize) -> Box<dyn RxPipe>,
) -> SimResult {
    run_with_progress(cfg, tx, rx, &mut |_| {})
}

/// [`run_with`], reporting its progress to `progress` (which cannot
/// change the run).
pub fn run_with_progress(
    cfg: &SimConfig,
    mut tx: impl FnMut(usize) -> Box<dyn TxPipe>,
    mut rx: impl FnMut(usize) -> Box<dyn RxPipe>,
    progress: &mut dyn FnMut(&Progress),
) -> SimResult {
    cfg.validate().expect("valid configuration");
    let mut rng = StdRng::seed_from_u64(cfg.seed);
    let plan = plan_work(cfg, &mut rng);
    let initial = initial_memory(cfg, &plan);
    let mut nics: Vec<Nic> = (0..2)
        .map(|n| new_nic(cfg, n, initial[n].clone(), tx(n), rx(n)))
        .collect();
    connect_flows(cfg, &mut rng, &mut nics);
    post_work(cfg, &plan, &mut nics);
    let mut links = [cfg.seed ^ 0xA, cfg.seed ^ 0xB].map(|seed| {
        Link::new(
            LinkCfg {
                delay: cfg.delay,
                loss: cfg.loss,
            },
            seed,
        )
    });
    let (now, wire, mut errors) = event_loop(cfg, &mut nics, &mut links, progress);
    let finished = all_done(&nics);
    if !finished {
        for (n, nic) in nics.iter().enumerate() {
            errors.push(format!(
                "NIC {n}: {} of {} work requests completed",
                nic.st.wrs_done, nic.st.wrs_posted
            ));
        }
    }
    for n in 0..2 {
        errors.extend(check_nic(n, &nics, &initial));
    }
    SimResult {
        cycles: now,
        finished,
        nic: finish_stats(nics, &links),
        wire,
        errors,
    }
}

/// One work request as planned: its flow, its local and remote address as
/// offsets into the source or destination region of each NIC's memory,
/// and its length.
#[derive(Clone, Copy, Debug)]
struct PlannedWr {
    flow: u32,
    local: u64,
    local_in_dst: bool,
    remote: u64,
    remote_in_dst: bool,
    len: u32,
}

/// The work both NICs post and the memory it needs. Each NIC's memory is
/// a source region (`src_size` bytes) then a destination region; regions
/// hold the messages 8-aligned, 8 bytes apart.
struct WorkPlan {
    kind: Kind,
    wrs: [Vec<PlannedWr>; 2],
    src_size: [u64; 2],
    mem_size: [u64; 2],
}

/// Step 1: `cfg.messages` work requests per NIC (random sizes and flows).
fn plan_work(cfg: &SimConfig, rng: &mut StdRng) -> WorkPlan {
    let kind = if cfg.scenario.reads() {
        Kind::Read
    } else {
        Kind::Write
    };
    let mut src_cur = [0u64; 2];
    let mut dst_cur = [0u64; 2];
    let mut wrs: [Vec<PlannedWr>; 2] = [Vec::new(), Vec::new()];
    for n in 0..2 {
        let peer = 1 - n;
        for _ in 0..cfg.messages {
            let len = pick_size(rng, cfg.max_size, cfg.mtu);
            let flow = rng.gen_range(0..cfg.flows);
            let sz = align8(len as u64) + 8;
            // WRITE: local source, remote destination; READ: the reverse.
            let (local, local_in_dst, remote, remote_in_dst) = match kind {
                Kind::Write => {
                    let l = src_cur[n];
                    src_cur[n] += sz;
                    let r = dst_cur[peer];
                    dst_cur[peer] += sz;
                    (l, false, r, true)
                }
                Kind::Read => {
                    let l = dst_cur[n];
                    dst_cur[n] += sz;
                    let r = src_cur[peer];
                    src_cur[peer] += sz;
                    (l, true, r, false)
                }
            };
            wrs[n].push(PlannedWr {
                flow,
                local,
                local_in_dst,
                remote,
                remote_in_dst,
                len,
            });
        }
    }
    let src_size = [align8(src_cur[0]) + 8, align8(src_cur[1]) + 8];
    WorkPlan {
        kind,
        wrs,
        src_size,
        mem_size: [src_size[0] + dst_cur[0] + 8, src_size[1] + dst_cur[1] + 8],
    }
}

/// Step 2: each NIC's memory before the run, seeded random bytes
/// (destinations too, so a missing write shows).
fn initial_memory(cfg: &SimConfig, plan: &WorkPlan) -> [Vec<u8>; 2] {
    let mut fill = StdRng::seed_from_u64(cfg.seed ^ 0x5EED_F111);
    plan.mem_size
        .map(|size| (0..size).map(|_| fill.gen()).collect())
}

/// Step 3: NIC `id` with its memory and pipelines, no flows yet.
fn new_nic(
    cfg: &SimConfig,
    id: usize,
    memory: Vec<u8>,
    tx: Box<dyn TxPipe>,
    rx: Box<dyn RxPipe>,
) -> Nic {
    Nic {
        id,
        cover: vec![0; memory.len()],
        mem: HostMem::new(memory),
        tx,
        rx,
        wrs: Vec::new(),
        flows: vec![ReqFlow::default(); cfg.flows as usize],
        acks: VecDeque::new(),
        reads: VecDeque::new(),
        rr: 0,
        toggle: false,
        mtu: cfg.mtu,
        window: cfg.window as u64,
        tlm_every: cfg.tlm_every,
        rto: cfg.rto(),
        probe_interval: cfg.probe_interval(),
        st: NicStats::default(),
        errors: Vec::new(),
    }
}

/// Step 4: flow contexts and initial PSNs. NIC n's flow f (QP
/// [`FIRST_QP`] + f) talks to the peer's flow f; even flows start within
/// 64 of the 2^24 PSN wrap.
fn connect_flows(cfg: &SimConfig, rng: &mut StdRng, nics: &mut [Nic]) {
    let mac = |n: usize| [0x02, 0, 0, 0, 0, n as u8 + 1];
    let ip = |n: usize| [10, 0, 0, n as u8 + 1];
    let mut base = [
        vec![0u32; cfg.flows as usize],
        vec![0u32; cfg.flows as usize],
    ];
    for b in base.iter_mut() {
        for (f, x) in b.iter_mut().enumerate() {
            *x = if f % 2 == 0 {
                (1 << 24) - rng.gen_range(1..=64)
            } else {
                rng.gen_range(0..1 << 24)
            };
        }
    }
    for n in 0..2 {
        let peer = 1 - n;
        for f in 0..cfg.flows {
            nics[n].tx.set_context(
                f + FIRST_QP,
                &TxContext {
                    dmac: mac(peer),
                    smac: mac(n),
                    sip: ip(n),
                    dip: ip(peer),
                    sport: 0xC000 | f as u16,
                    dqp: f + FIRST_QP,
                    pkey: 0xFFFF,
                    tos: 0x02,
                },
            );
            nics[n].rx.configure(
                f + FIRST_QP,
                &FlowCfg {
                    valid: true,
                    epsn: base[peer][f as usize],
                    rd_addr: 0,
                    rd_psn: base[n][f as usize],
                },
            );
            nics[n].flows[f as usize].base = base[n][f as usize];
        }
    }
}

/// Step 5: post the planned work requests, with absolute addresses and
/// their PSN ranges (one PSN per MTU, at least one).
fn post_work(cfg: &SimConfig, plan: &WorkPlan, nics: &mut [Nic]) {
    let mtu = cfg.mtu as u64;
    for n in 0..2 {
        let peer = 1 - n;
        let region = |nic: usize, in_dst: bool| if in_dst { plan.src_size[nic] } else { 0 };
        for w in &plan.wrs[n] {
            let npsn = (w.len as u64).div_ceil(mtu).max(1);
            let index = nics[n].wrs.len();
            let fl = &mut nics[n].flows[w.flow as usize];
            fl.wrs.push(index);
            let first = fl.end;
            fl.end += npsn;
            nics[n].wrs.push(Wr {
                kind: plan.kind,
                local: w.local + region(n, w.local_in_dst),
                remote: w.remote + region(peer, w.remote_in_dst),
                len: w.len,
                first,
                npsn,
                done: false,
                got: 0,
            });
            nics[n].st.wrs_posted += 1;
        }
    }
}

fn all_done(nics: &[Nic]) -> bool {
    nics.iter().all(|n| n.st.wrs_done == n.st.wrs_posted)
}

/// Step 6: the event loop, until every work request is complete and the
/// links and queues are empty, or nothing can happen any more, or the
/// time bound passes. Returns the end time, the frames put on the wire
/// (if `cfg.record`) and what went wrong.
fn event_loop(
    cfg: &SimConfig,
    nics: &mut [Nic],
    links: &mut [Link; 2],
    progress: &mut dyn FnMut(&Progress),
) -> (u64, Vec<WireFrame>, Vec<String>) {
    let total_psns: u64 = nics.iter().flat_map(|n| &n.flows).map(|f| f.end).sum();
    let bound = (total_psns + 16) * (cfg.rto() + cfg.probe_interval()) * 4;
    let mut wire = Vec::new();
    let mut now = 0u64;
    let mut errors = Vec::new();
    let report = |now: u64, nics: &[Nic], links: &[Link; 2]| Progress {
        wrs_done: nics.iter().map(|n| n.st.wrs_done).sum(),
        wrs_posted: nics.iter().map(|n| n.st.wrs_posted).sum(),
        cycle: now,
        frames: links.iter().map(|l| l.frames).sum(),
    };
    let mut steps = 0u64;
    loop {
        steps += 1;
        if steps % 4096 == 0 {
            progress(&report(now, nics, links));
        }
        deliver_arrivals(now, nics, links);
        for n in nics.iter_mut() {
            n.check_timers(now);
        }
        send_frames(cfg, now, nics, links, &mut wire);
        let quiet = links.iter().all(|l| l.is_empty())
            && nics.iter().all(|n| n.acks.is_empty() && n.reads.is_empty());
        if all_done(nics) && quiet {
            break;
        }
        let Some(t) = next_event(now, nics, links) else {
            errors.push(format!(
                "stalled at cycle {now}: nothing in flight, work left"
            ));
            break;
        };
        if t > bound {
            errors.push(format!("not finished within {bound} cycles"));
            break;
        }
        now = t.max(now + 1);
    }
    progress(&report(now, nics, links));
    (now, wire, errors)
}

/// Every frame that has arrived by `now` goes into its receiver.
fn deliver_arrivals(now: u64, nics: &mut [Nic], links: &mut [Link; 2]) {
    for d in 0..2 {
        while let Some(f) = links[d].pop_arrived(now) {
            nics[1 - d].receive(&f, now);
        }
    }
}

/// Each NIC whose port is free puts its next frame on its link.
fn send_frames(
    cfg: &SimConfig,
    now: u64,
    nics: &mut [Nic],
    links: &mut [Link; 2],
    wire: &mut Vec<WireFrame>,
) {
    for (n, nic) in nics.iter_mut().enumerate() {
        if !links[n].free(now) {
            continue;
        }
        if let Some(f) = nic.next_frame(now) {
            if cfg.record {
                let lost = links[n].send(now, f.clone());
                wire.push(WireFrame {
                    time: now,
                    from: n,
                    lost,
                    frame: f,
                });
            } else {
                links[n].send(now, f);
            }
        }
    }
}

/// The next time something can happen: an arrival, a free port for a NIC
/// with work, or a timer; `None` when nothing is pending.
fn next_event(now: u64, nics: &[Nic], links: &[Link; 2]) -> Option<u64> {
    let arrivals = links.iter().filter_map(|l| l.next_arrival());
    let sends = nics
        .iter()
        .enumerate()
        .filter(|(_, nic)| nic.has_work(now))
        .map(|(n, _)| links[n].busy_until.max(now + 1));
    let timers = nics.iter().filter_map(|nic| nic.next_deadline(now));
    arrivals.chain(sends).chain(timers).min()
}

/// Step 7: NIC `n`'s checks. Its memory equals its initial contents with
/// the peer's WRITEs and its own READs applied, every destination byte
/// written exactly once and none outside, no frame dropped by the parser
/// or as unknown-flow / bad-PSN, no host write outside memory; plus what
/// the NIC noted during the run.
fn check_nic(n: usize, nics: &[Nic], initial: &[Vec<u8>; 2]) -> Vec<String> {
    let peer = 1 - n;
    let mut errors = Vec::new();
    let mut want = initial[n].clone();
    let mut cover_want = vec![0u8; want.len()];
    let mut apply = |at: u64, from: &[u8]| {
        let r = at as usize..at as usize + from.len();
        want[r.clone()].copy_from_slice(from);
        cover_want[r].fill(1);
    };
    for w in &nics[peer].wrs {
        if w.kind == Kind::Write {
            let src = &initial[peer][w.local as usize..(w.local + w.len as u64) as usize];
            apply(w.remote, src);
        }
    }
    for w in &nics[n].wrs {
        if w.kind == Kind::Read {
            let src = &initial[peer][w.remote as usize..(w.remote + w.len as u64) as usize];
            apply(w.local, src);
        }
    }
    let nic = &nics[n];
    let name = ["A", "B"][n];
    let bad: Vec<usize> = (0..want.len())
        .filter(|&i| nic.mem.bytes[i] != want[i])
        .collect();
    if let Some(&i) = bad.first() {
        errors.push(format!(
            "NIC {name}: {} bytes differ from the expected memory, first at {i:#x}",
            bad.len()
        ));
    }
    let miscount: Vec<usize> = (0..want.len())
        .filter(|&i| nic.cover[i] != cover_want[i])
        .collect();
    if let Some(&i) = miscount.first() {
        errors.push(format!(
            "NIC {name}: {} bytes written a wrong number of times, first at {i:#x} ({} times, expected {})",
            miscount.len(),
            nic.cover[i],
            cover_want[i]
        ));
    }
    if nic.mem.bad_writes > 0 {
        errors.push(format!(
            "NIC {name}: {} host writes outside memory",
            nic.mem.bad_writes
        ));
    }
    let counters = nic.rx.counters();
    for c in Drop::ALL
        .iter()
        .map(|&d| RxDrop::Parse(d))
        .chain([RxDrop::UnknownFlow, RxDrop::BadPsn])
    {
        let v = counters.iter().find(|x| x.0 == c.name()).map_or(0, |x| x.1);
        if v > 0 {
            errors.push(format!("NIC {name}: {v} frames dropped as {}", c.name()));
        }
    }
    errors.extend(nic.errors.iter().cloned());
    errors
}

/// Step 8: each NIC's statistics, with its link's and pipelines' counters.
fn finish_stats(nics: Vec<Nic>, links: &[Link; 2]) -> [NicStats; 2] {
    let mut stats = nics.into_iter().zip(links).map(|(mut nic, link)| {
        nic.st.frames = link.frames;
        nic.st.bytes = link.bytes;
        nic.st.lost = link.lost;
        nic.st.tx_counters = nic.tx.counters();
        nic.st.rx_counters = nic.rx.counters();
        nic.st
    });
    let a = stats.next().expect("NIC A");
    let b = stats.next().expect("NIC B");
    [a, b]
}

#[cfg(test)]
mod tests {
    use super::*;
    use nic_golden::roce::packet::decode;

    fn small(s: Scenario) -> SimConfig {
        SimConfig {
            messages: 12,
            max_size: 3000,
            mtu: 256,
            record: true,
            ..SimConfig::new(s)
        }
    }

    #[test]
    fn scenarios_are_byte_exact() {
        for s in Scenario::ALL {
            for seed in 0..3 {
                let r = run(&SimConfig { seed, ..small(s) });
                assert!(r.ok(), "{} seed {seed}: {:?}", s.name(), r.errors);
                if s != Scenario::LossyWrite {
                    assert_eq!(r.nic[0].retransmissions + r.nic[1].retransmissions, 0);
                }
            }
        }
    }

    #[test]
    fn reads_with_loss_complete() {
        for seed in 0..4 {
            let r = run(&SimConfig {
                seed,
                loss: 0.1,
                ..small(Scenario::Read)
            });
            assert!(r.ok(), "seed {seed}: {:?}", r.errors);
        }
    }

    #[test]
    fn wire_is_time_ordered_and_decodes() {
        let r = run(&SimConfig {
            loss: 0.05,
            ..small(Scenario::LossyWrite)
        });
        assert!(r.ok(), "{:?}", r.errors);
        assert!(r.nic[0].lost + r.nic[1].lost > 0);
        assert!(r.nic[0].retransmissions + r.nic[1].retransmissions > 0);
        assert_eq!(r.wire.len() as u64, r.nic[0].frames + r.nic[1].frames);
        assert!(r.wire.windows(2).all(|w| w[0].time <= w[1].time));
        let mut tlm = 0;
        for w in &r.wire {
            let p = decode(&w.frame, false).expect("every frame decodes");
            tlm += p.t() as u32;
            assert!((FIRST_QP..FIRST_QP + 4).contains(&p.dqp));
        }
        assert!(tlm > 0);
    }

    #[test]
    fn a_time_bound_past_64_bits_is_refused() {
        let cfg = |delay| SimConfig {
            delay,
            ..SimConfig::new(Scenario::Write)
        };
        let e = cfg(u64::MAX).validate().unwrap_err();
        assert!(e.contains("2^64"), "{e}");
        assert!(cfg(u64::MAX / 4).validate().is_err());
        assert!(cfg(1_000_000_000).validate().is_ok());
        // The bound covers what the run computes: the event loop's bound
        // for the default configuration is below it.
        let c = cfg(500);
        let b = c.time_bound_max().unwrap();
        assert!(b >= (2 * 32 * 8 + 16) * (c.rto() + c.probe_interval()) * 4);
    }

    #[test]
    fn progress_is_reported_and_changes_nothing() {
        let cfg = SimConfig {
            loss: 0.05,
            messages: 200,
            ..small(Scenario::LossyWrite)
        };
        let mut seen = Vec::new();
        let r = run_progress(&cfg, &mut |p| seen.push(*p));
        let plain = run(&cfg);
        assert!(r.ok() && plain.ok());
        assert_eq!(r.cycles, plain.cycles);
        assert_eq!(r.wire.len(), plain.wire.len());
        assert!(seen.len() >= 2, "{seen:?}");
        assert!(seen.windows(2).all(|w| w[0].cycle <= w[1].cycle));
        let last = seen.last().unwrap();
        assert_eq!((last.wrs_done, last.wrs_posted), (400, 400));
        assert_eq!(last.cycle, r.cycles);
        assert_eq!(last.frames, r.wire.len() as u64);
    }

    #[test]
    fn the_check_catches_a_corrupting_pipeline() {
        // An Rx pipeline that flips one payload bit in one frame must fail
        // the data check.
        struct Flip(GoldenRx, bool);
        impl RxPipe for Flip {
            fn configure(&mut self, f: u32, c: &FlowCfg) {
                self.0.configure(f, c)
            }
            fn set_read(&mut self, f: u32, a: u64, p: u32) {
                self.0.set_read(f, a, p)
            }
            fn receive(&mut self, frame: &[u8], fcs: bool) -> Vec<RxEvent> {
                let mut ev = self.0.receive(frame, fcs);
                if !self.1 {
                    for e in &mut ev {
                        if let RxEvent::HostWrite { data, .. } = e {
                            data[0] ^= 1;
                            self.1 = true;
                        }
                    }
                }
                ev
            }
            fn counters(&self) -> Vec<(&'static str, u64)> {
                self.0.counters()
            }
        }
        let cfg = small(Scenario::Write);
        let r = run_with(
            &cfg,
            |_| Box::new(GoldenTx::new(cfg.flow_bits)),
            |_| Box::new(Flip(GoldenRx::new(cfg.flow_bits, 8), false)),
        );
        assert!(!r.ok());
        assert!(
            r.errors.iter().any(|e| e.contains("differ")),
            "{:?}",
            r.errors
        );
    }
}
