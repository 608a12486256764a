//! RTL blocks in lockstep with their golden twins ([`Lockstep`]: any
//! difference at any port on any cycle stops the run with the cycle, the
//! inputs and both outputs; `hpccnic sim --engine verilator|rust-hdl` runs
//! the NIC cores this way), and the RTL Rx pipeline behind the transport's
//! [`RxPipe`] trait ([`RtlRx`], for the receive path's benchmark).

use crate::cosim::EngineKind;
use crate::{Engine, Harness, RustHdlEngine, VerilatorEngine};
use nic_golden::stream::Axis;
use nic_golden::Cycle;
use std::path::Path;

/// Cycles a frame may take before the adapter declares the pipeline stuck.
const STUCK: u64 = 100_000;

/// An engine of `kind` for `H::default()`, writing `vcd` if given.
pub fn engine_for<H: Harness + Default + 'static>(
    kind: EngineKind,
    vcd: Option<&Path>,
) -> Box<dyn Engine<H>> {
    match kind {
        EngineKind::RustHdl => {
            let e = RustHdlEngine::new(H::default());
            Box::new(match vcd {
                Some(p) => e.with_vcd(p),
                None => e,
            })
        }
        EngineKind::Verilator => Box::new(VerilatorEngine::<H>::cached(vcd)),
    }
}

/// An RTL engine and the golden twin, stepped together.
pub struct Lockstep<H: Harness, G: Cycle<In = H::In, Out = H::Out>> {
    pub rtl: Box<dyn Engine<H>>,
    pub golden: G,
    what: &'static str,
}

impl<H: Harness, G: Cycle<In = H::In, Out = H::Out>> Lockstep<H, G> {
    pub fn new(rtl: Box<dyn Engine<H>>, golden: G, what: &'static str) -> Self {
        Self { rtl, golden, what }
    }
    /// One cycle on both; panics on the first difference.
    pub fn step(&mut self, i: &H::In) -> H::Out {
        let want = self.golden.step(i);
        let got = self.rtl.step(i);
        if want != got {
            panic!(
                "{} ({}) != golden at cycle {}\n  input:  {:?}\n  golden: {:?}\n  rtl:    {:?}",
                self.what,
                self.rtl.name(),
                self.rtl.cycles() - 1,
                i,
                want,
                got
            );
        }
        got
    }
    pub fn cycles(&self) -> u64 {
        self.rtl.cycles()
    }
}

use nic_golden::roce::packet::Drop;
use nic_golden::roce::txn::{AckReq, CcEvent, FlowCfg, ReadReq, RxDrop, RxEvent, RxPipe};
use nic_golden::roce::{FlowPd, MrWrite, RxDispatchStats};
use nic_hdl::roce::mr_check::MrCheck;
use nic_hdl::roce::rx_dispatch::RoceRxDispatch;
use nic_hdl::roce::rx_parse::RoceRxParse;
use nic_spec::mr::{Region, MR_LOG2};
use std::collections::VecDeque;

type PIn = nic_golden::roce::rx_parse::In;
type POut = nic_golden::roce::rx_parse::Out;
type DIn = nic_golden::roce::rx_dispatch::In;
type DOut = nic_golden::roce::rx_dispatch::Out;

type MIn = nic_golden::roce::mr_check::In;

/// A packet between the parser and the dispatcher: the parser's record
/// and payload, whether the region check took the record (`checked`) and
/// the dispatcher its verdict (`meta_sent`).
struct Pending {
    meta: POut,
    words: Vec<(u64, u8, bool)>,
    complete: bool,
    checked: bool,
    meta_sent: bool,
    next_word: usize,
}

/// The RTL Rx pipeline (`RoceRxParse<B>`, `MrCheck<A, MR_LOG2>`, then
/// `RoceRxDispatch<A>`, as `hpcc_nic_core` joins them) as an [`RxPipe`].
/// The three stages run on the same engine kind, each with its golden
/// twin in lockstep; after the parser the adapter keeps its records and
/// payload words in a queue (a FIFO in place of the core's wiring): the
/// records go through the region check, its verdicts and the payload to
/// the dispatcher. The MAC side is fed one word per cycle, like a MAC
/// does. No region is registered at first: every request that needs one
/// is refused until [`RxPipe::set_region`] and [`RxPipe::set_pd`] grant it.
pub struct RtlRx<const B: usize, const A: usize> {
    parse: Lockstep<RoceRxParse<B>, nic_golden::roce::rx_parse::RoceRxParse<B>>,
    check: Lockstep<MrCheck<A, MR_LOG2>, nic_golden::roce::mr_check::MrCheck<A, MR_LOG2>>,
    disp: Lockstep<RoceRxDispatch<A>, nic_golden::roce::rx_dispatch::RoceRxDispatch<A>>,
    /// A table write and a domain write for the next cycle.
    mr_write: Option<MrWrite>,
    pd_write: Option<FlowPd>,
    mtu_log2: u8,
    queue: VecDeque<Pending>,
    last_p: POut,
    last_d: DOut,
    xcheck: Option<nic_golden::roce::txn::GoldenRx>,
    /// The host side takes the dispatcher's outputs in one cycle of this
    /// many (1: every cycle).
    ready_every: u64,
}

/// Events in a comparable form: CE marks, then drops, after the other
/// events (the RTL counts a drop after it emitted the packet's events, the
/// model before; the RTL's CE strobe comes right after the decision, before
/// a payload's host writes).
pub fn normalise(ev: Vec<RxEvent>) -> Vec<RxEvent> {
    let (mut keep, rest): (Vec<_>, Vec<_>) = ev
        .into_iter()
        .partition(|e| !matches!(e, RxEvent::Drop(_) | RxEvent::CeMark { .. }));
    let (ce, drops): (Vec<_>, Vec<_>) = rest
        .into_iter()
        .partition(|e| matches!(e, RxEvent::CeMark { .. }));
    keep.extend(ce);
    keep.extend(drops);
    keep
}

impl<const B: usize, const A: usize> RtlRx<B, A> {
    /// `vcd`: (parser file, dispatcher file).
    pub fn new(kind: EngineKind, mtu_log2: u32, vcd: Option<(&Path, &Path)>) -> Self {
        let mut r = Self {
            parse: Lockstep::new(
                engine_for::<RoceRxParse<B>>(kind, vcd.map(|v| v.0)),
                Default::default(),
                "roce_rx_parse",
            ),
            check: Lockstep::new(
                engine_for::<MrCheck<A, MR_LOG2>>(kind, None),
                Default::default(),
                "mr_check",
            ),
            disp: Lockstep::new(
                engine_for::<RoceRxDispatch<A>>(kind, vcd.map(|v| v.1)),
                Default::default(),
                "roce_rx_dispatch",
            ),
            mr_write: None,
            pd_write: None,
            mtu_log2: mtu_log2 as u8,
            queue: VecDeque::new(),
            last_p: POut::default(),
            last_d: DOut::default(),
            xcheck: Some(nic_golden::roce::txn::GoldenRx::new(A as u32, mtu_log2)),
            ready_every: 1,
        };
        r.last_p = r.parse.step(&PIn {
            reset: true,
            ..Default::default()
        });
        r.check.step(&MIn {
            reset: true,
            ..Default::default()
        });
        r.last_d = r.disp.step(&DIn {
            reset: true,
            cfg_mtu_log2: r.mtu_log2,
            ..Default::default()
        });
        r
    }

    /// Back-pressure: the host side takes the dispatcher's outputs (host
    /// writes, events) in one cycle of `n` only (1, the default: every
    /// cycle), so a burst can fill the parser's frame buffer.
    pub fn set_ready_every(&mut self, n: u64) {
        self.ready_every = n.max(1);
    }

    /// The dispatcher's context RAM, as its cycle twin (in lockstep with
    /// the RTL, every port every cycle) holds it.
    pub fn contexts(&self) -> &[nic_golden::roce::txn::dispatch::Ctx] {
        &self.disp.golden.mem
    }

    /// After [`RtlRx::receive_burst`] (which the transaction-level
    /// cross-check does not follow: a full buffer drops frames by timing),
    /// give the cross-check the dispatcher's contexts.
    pub fn resync_model(&mut self) {
        let mem = self.disp.golden.mem.clone();
        if let Some(x) = self.xcheck.as_mut() {
            x.dispatch.load_contexts(&mem);
        }
    }

    /// Clock cycles run so far (the parser's; both stages run together).
    pub fn cycles(&self) -> u64 {
        self.parse.cycles()
    }

    /// One cycle of both stages; events appended to `ev`.
    fn cycle(
        &mut self,
        word: Option<(u64, u8, bool, bool)>,
        cfg: Option<(u32, FlowCfg, bool, u32)>,
        ev: &mut Vec<RxEvent>,
    ) {
        let (d, k, l, u) = word.unwrap_or_default();
        let p0 = self.last_p;
        // With a slow host (`ready_every` > 1) the queue between the
        // stages holds two packets at most, so the back-pressure reaches
        // the parser (as the NIC top's wiring passes it); otherwise it
        // takes everything.
        let room = self.ready_every == 1 || self.queue.len() < 2;
        let po = self.parse.step(&PIn {
            rx: Axis {
                tdata: d,
                tkeep: k,
                tlast: l,
                tvalid: word.is_some(),
                tuser: u,
            },
            meta_ready: room,
            pay_tready: room,
            ..Default::default()
        });
        // Drops by the parser, from its counters.
        let (c0, c1) = (p0.cnt(), po.cnt());
        for (r, drop) in Drop::ALL.iter().enumerate() {
            for _ in c0[r + 1]..c1[r + 1] {
                ev.push(RxEvent::Drop(RxDrop::Parse(*drop)));
            }
        }
        self.last_p = po;

        // Dispatcher inputs from the head of the queue.
        let ready = self.parse.cycles() % self.ready_every == 0;
        let mut di = DIn {
            cfg_mtu_log2: self.mtu_log2,
            wr_ready: ready,
            ack_ready: ready,
            cc_ready: ready,
            nak_ready: ready,
            rdreq_ready: ready,
            cnp_ready: ready,
            ..Default::default()
        };
        if let Some((flow, c, rd_only, rd_idx)) = cfg {
            di.ctx_valid = true;
            di.ctx.rd_only = rd_only;
            di.ctx.rd_idx = rd_idx & 15;
            di.ctx.flow = flow;
            di.ctx.active = c.valid;
            di.ctx.epsn = c.epsn;
            di.ctx.rd_addr = c.rd_addr;
            di.ctx.rd_psn = c.rd_psn;
            di.ctx.cnp_on_ce = c.cnp_on_ce;
        }
        // The region check's verdict (its output is registers only), and
        // the head's payload once its record went to the dispatcher.
        let (mr_valid, mr_meta) = self.check.golden.out_now();
        di.meta_valid = mr_valid;
        di.meta = mr_meta;
        if let Some(h) = self.queue.front() {
            if h.meta_sent {
                if let Some(&(wd, wk, wl)) = h.words.get(h.next_word) {
                    di.pay.tvalid = true;
                    di.pay.tdata = wd;
                    di.pay.tkeep = wk;
                    di.pay.tlast = wl;
                }
            }
        }
        let d0 = self.last_d;
        let o = self.disp.step(&di);
        self.last_d = o;
        // The region check: the oldest record it has not taken, and the
        // table writes.
        let unchecked = self.queue.iter().position(|p| !p.checked);
        let mut mi = MIn {
            meta_valid: unchecked.is_some(),
            meta: unchecked.map_or(Default::default(), |k| self.queue[k].meta.meta),
            out_ready: o.meta_ready,
            ..Default::default()
        };
        if let Some(w) = self.mr_write.take() {
            mi.mr_valid = true;
            mi.mr = w;
        }
        if let Some(p) = self.pd_write.take() {
            mi.pd_valid = true;
            mi.pd = p;
        }
        let mo = self.check.step(&mi);
        assert_eq!(
            (mo.out_valid, mo.out),
            (mr_valid, mr_meta),
            "roce_rx: the region check's output is not its registers"
        );
        if let (Some(k), true) = (unchecked, mo.meta_ready) {
            self.queue[k].checked = true;
        }
        if di.meta_valid && o.meta_ready {
            let h = self
                .queue
                .iter_mut()
                .find(|p| p.checked && !p.meta_sent)
                .expect("a verdict without a record");
            h.meta_sent = true;
        }
        if let Some(h) = self.queue.front_mut() {
            if di.pay.tvalid && o.pay_tready {
                h.next_word += 1;
            }
            if h.meta_sent && h.complete && h.next_word == h.words.len() {
                self.queue.pop_front();
            }
        }
        // The parser's outputs go into the queue (after the dispatcher
        // took this cycle's head, as a FIFO would).
        if po.meta_valid && room {
            let complete = po.meta.len == 0;
            self.queue.push_back(Pending {
                meta: po,
                words: Vec::new(),
                complete,
                checked: false,
                meta_sent: false,
                next_word: 0,
            });
        }
        if po.pay.tvalid && room {
            let h = self
                .queue
                .iter_mut()
                .rev()
                .find(|p| !p.complete)
                .expect("payload without a record");
            h.words.push((po.pay.tdata, po.pay.tkeep, po.pay.tlast));
            h.complete = po.pay.tlast;
        }
        // Events, then the dispatcher's drops (as the RTL counts them).
        dispatch_events(&di, &o, ev);
        for r in dispatch_verdicts(&d0.stats, &o.stats).into_iter().flatten() {
            ev.push(RxEvent::Drop(r));
        }
    }

    /// True when nothing is in flight in either stage (as seen at the
    /// ports: no packet queued between them and no output this cycle).
    fn idle(&self) -> bool {
        let o = &self.last_d;
        self.queue.is_empty()
            && !self.last_p.meta_valid
            && !self.last_p.pay.tvalid
            && !(o.wr_valid
                || o.ack_valid
                || o.cc_valid
                || o.nak_valid
                || o.rdreq_valid
                || o.cnp_valid
                || o.ce_valid)
    }
}

/// A host-write beat (`addr`, `bytes`) into one packet's events `ev`:
/// merged into the packet's last host write when it continues it, else a
/// new write. The last host write, not the last event: while the host
/// holds the payload's beats back, the dispatcher may raise the packet's
/// ACK between them, and the payload is still one write, at its first
/// beat (as on a host that is always ready, which a replay has).
pub fn push_host_write(ev: &mut Vec<RxEvent>, addr: u64, bytes: &[u8]) {
    let last = ev.iter_mut().rev().find_map(|e| match e {
        RxEvent::HostWrite { addr: a, data } => Some((*a, data)),
        _ => None,
    });
    match last {
        Some((a, data)) if a + data.len() as u64 == addr => data.extend_from_slice(bytes),
        _ => ev.push(RxEvent::HostWrite {
            addr,
            data: bytes.to_vec(),
        }),
    }
}

/// The events the dispatcher hands over in one cycle (`o`: its outputs,
/// `i`: its inputs, whose readies say what was taken), appended to `ev`.
/// A host-write beat is merged into `ev`'s host write it continues
/// ([`push_host_write`]), so one packet's payload reads as one write.
pub fn dispatch_events(i: &DIn, o: &DOut, ev: &mut Vec<RxEvent>) {
    if o.wr_valid && i.wr_ready {
        let lanes: Vec<usize> = (0..8).filter(|k| o.wr.strb >> k & 1 != 0).collect();
        if let (Some(&lo), Some(&hi)) = (lanes.first(), lanes.last()) {
            let bytes = o.wr.data.to_le_bytes();
            push_host_write(ev, o.wr.addr + lo as u64, &bytes[lo..=hi]);
        }
    }
    if o.ack_valid && i.ack_ready {
        ev.push(RxEvent::Ack(AckReq {
            flow: o.ack.flow,
            psn: o.ack.psn,
            aeth: o.ack.aeth,
            tlm: o.ack.tlm.to_tlm(),
        }));
    }
    if o.cc_valid && i.cc_ready {
        ev.push(RxEvent::Cc(CcEvent {
            flow: o.cc.flow,
            psn: o.cc.psn,
            aeth: o.cc.aeth,
            opcode: o.cc.opcode,
            tlm: o.cc.tlm.to_tlm(),
        }));
    }
    if o.nak_valid && i.nak_ready {
        ev.push(RxEvent::Nak {
            flow: o.nak.flow,
            psn: o.nak.psn,
            syndrome: o.nak.syndrome,
        });
    }
    if o.rdreq_valid && i.rdreq_ready {
        ev.push(RxEvent::ReadReq(ReadReq {
            flow: o.rdreq.flow,
            psn: o.rdreq.psn,
            va: o.rdreq.va,
            rkey: o.rdreq.rkey,
            len: o.rdreq.len,
            msn: o.rdreq.msn,
        }));
    }
    if o.cnp_valid && i.cnp_ready {
        ev.push(RxEvent::Cnp {
            flow: o.cnp.flow as u32,
        });
    }
    if o.ce_valid {
        ev.push(RxEvent::CeMark {
            flow: o.ce.flow as u32,
        });
    }
}

/// The dispatcher's verdicts between two cycles' counters, in counter
/// order: `None` for a packet accepted, the reason for one dropped (one
/// packet is decided per cycle at most).
pub fn dispatch_verdicts(d0: &RxDispatchStats, d1: &RxDispatchStats) -> Vec<Option<RxDrop>> {
    let mut v = Vec::new();
    for _ in d0.accepted..d1.accepted {
        v.push(None);
    }
    for (n0, n1, r) in [
        (d0.unknown_flow, d1.unknown_flow, RxDrop::UnknownFlow),
        (d0.oos, d1.oos, RxDrop::Oos),
        (d0.dup, d1.dup, RxDrop::Dup),
        (d0.bad_psn, d1.bad_psn, RxDrop::BadPsn),
        (d0.bad_va, d1.bad_va, RxDrop::BadVa),
        (d0.bad_op, d1.bad_op, RxDrop::BadOp),
        (d0.refused, d1.refused, RxDrop::Refused),
    ] {
        for _ in n0..n1 {
            v.push(Some(r));
        }
    }
    v
}

/// The parser's verdicts between two cycles' outputs, in reason order:
/// `None` for a frame passed to the dispatcher, the reason's counter name
/// (`nic_golden::roce::rx_parse::REASONS`, `drop_full` included) for one
/// dropped.
pub fn parse_verdicts(p0: &POut, p1: &POut) -> Vec<Option<&'static str>> {
    let (c0, c1) = (p0.cnt(), p1.cnt());
    let mut v = Vec::new();
    for (r, name) in nic_golden::roce::rx_parse::REASONS.iter().enumerate() {
        for _ in c0[r]..c1[r] {
            v.push((r != 0).then_some(*name));
        }
    }
    v
}

impl<const B: usize, const A: usize> RtlRx<B, A> {
    /// `frames` back to back (one word per cycle, no gap between frames,
    /// as a MAC delivers them at line rate), then until idle. Returns the
    /// events and the cycles from the first word to idle.
    pub fn receive_burst(&mut self, frames: &[Vec<u8>]) -> (Vec<RxEvent>, u64) {
        let start = self.cycles();
        let mut ev = Vec::new();
        for frame in frames {
            let n = frame.len().div_ceil(8).max(1);
            for k in 0..n {
                let chunk = &frame[(8 * k).min(frame.len())..(8 * k + 8).min(frame.len())];
                let mut w = [0u8; 8];
                w[..chunk.len()].copy_from_slice(chunk);
                let keep = if chunk.is_empty() {
                    1
                } else {
                    ((1u16 << chunk.len()) - 1) as u8
                };
                self.cycle(
                    Some((u64::from_le_bytes(w), keep, k == n - 1, false)),
                    None,
                    &mut ev,
                );
            }
        }
        // Drained: nothing in flight for 12 cycles in a row (as `receive`);
        // those 12 cycles are not counted.
        let mut quiet = 0;
        let mut guard = 0;
        while quiet < 12 {
            self.cycle(None, None, &mut ev);
            quiet = if self.idle() { quiet + 1 } else { 0 };
            guard += 1;
            assert!(guard < STUCK, "roce_rx: not idle after {STUCK} cycles");
        }
        (ev, self.cycles() - start - 12)
    }
}

impl<const B: usize, const A: usize> RxPipe for RtlRx<B, A> {
    fn configure(&mut self, flow: u32, cfg: &FlowCfg) {
        if let Some(x) = self.xcheck.as_mut() {
            x.configure(flow, cfg);
        }
        let mut ev = Vec::new();
        self.cycle(None, Some((flow, *cfg, false, 0)), &mut ev);
        assert!(ev.is_empty(), "roce_rx: events while configuring: {ev:?}");
    }

    fn set_read(&mut self, flow: u32, idx: u32, rd_addr: u64, rd_psn: u32) {
        // A requester-only control write (`cfg_rd_only`): one READ landing
        // entry; the rest of the flow's state lives on.
        if let Some(x) = self.xcheck.as_mut() {
            x.set_read(flow, idx, rd_addr, rd_psn);
        }
        let cfg = FlowCfg {
            valid: false,
            epsn: 0,
            rd_addr,
            rd_psn,
            cnp_on_ce: false,
        };
        let mut ev = Vec::new();
        self.cycle(None, Some((flow, cfg, true, idx)), &mut ev);
        assert!(ev.is_empty(), "roce_rx: events while configuring: {ev:?}");
    }

    fn set_region(&mut self, index: u32, region: Option<Region>) {
        if let Some(x) = self.xcheck.as_mut() {
            x.set_region(index, region);
        }
        let r = region.unwrap_or_default();
        self.mr_write = Some(MrWrite {
            // An index past the table (refused: `bad_mr`) stays past it.
            index: index.min(255) as u8,
            active: region.is_some(),
            clear: false,
            rights: r.rights & 3,
            pd: r.pd,
            rkey: r.rkey,
            base: r.base,
            len: r.len,
        });
        self.settle_table();
    }

    fn set_pd(&mut self, flow: u32, pd: u16) {
        if let Some(x) = self.xcheck.as_mut() {
            x.set_pd(flow, pd);
        }
        // A flow outside the table has no domain (its requests are
        // refused, `bad_pd`): nothing to write.
        if flow < 1 << A {
            self.pd_write = Some(FlowPd { flow, pd });
            self.settle_table();
        }
    }

    fn receive(&mut self, frame: &[u8], bad_fcs: bool) -> Vec<RxEvent> {
        let ev = self.receive_rtl(frame, bad_fcs);
        if let Some(x) = self.xcheck.as_mut() {
            let want = normalise(x.receive(frame, bad_fcs));
            let got = normalise(ev.clone());
            assert_eq!(
                want, got,
                "roce_rx: the RTL's events differ from the transaction-level model's (nic_golden::roce::txn::GoldenRx) for frame {frame:02x?}"
            );
        }
        ev
    }

    fn counters(&self) -> Vec<(&'static str, u64)> {
        self.counters_rtl()
    }
}

impl<const B: usize, const A: usize> RtlRx<B, A> {
    /// The cycles a table write takes to land (it is registered, then
    /// written), with nothing else offered.
    fn settle_table(&mut self) {
        let mut ev = Vec::new();
        for _ in 0..3 {
            self.cycle(None, None, &mut ev);
        }
        assert!(
            ev.is_empty(),
            "roce_rx: events while writing the region table: {ev:?}"
        );
    }

    fn receive_rtl(&mut self, frame: &[u8], bad_fcs: bool) -> Vec<RxEvent> {
        let mut ev = Vec::new();
        let n = frame.len().div_ceil(8).max(1);
        for k in 0..n {
            let chunk = frame
                .get(8 * k..(8 * k + 8).min(frame.len()))
                .unwrap_or(&[]);
            let mut w = [0u8; 8];
            w[..chunk.len()].copy_from_slice(chunk);
            let keep = if chunk.is_empty() {
                1
            } else {
                ((1u16 << chunk.len()) - 1) as u8
            };
            let last = k == n - 1;
            self.cycle(
                Some((u64::from_le_bytes(w), keep, last, last && bad_fcs)),
                None,
                &mut ev,
            );
        }
        // Until the verdict and the dispatch are through: a few idle cycles
        // in a row with nothing in flight.
        let mut quiet = 0;
        let mut guard = 0;
        while quiet < 12 {
            self.cycle(None, None, &mut ev);
            quiet = if self.idle() { quiet + 1 } else { 0 };
            guard += 1;
            assert!(guard < STUCK, "roce_rx: not idle after {STUCK} cycles");
        }
        ev
    }

    fn counters_rtl(&self) -> Vec<(&'static str, u64)> {
        let p = self.last_p.cnt();
        let mut v: Vec<(&'static str, u64)> = nic_golden::roce::rx_parse::REASONS
            .iter()
            .zip(p.iter())
            .map(|(n, &c)| (*n, c as u64))
            .collect();
        let o = &self.last_d;
        v.extend([
            ("unknown_flow", o.stats.unknown_flow as u64),
            ("oos", o.stats.oos as u64),
            ("dup", o.stats.dup as u64),
            ("bad_psn", o.stats.bad_psn as u64),
            ("accepted", o.stats.accepted as u64),
            ("bad_va", o.stats.bad_va as u64),
            ("refused", o.stats.refused as u64),
            ("bad_op", o.stats.bad_op as u64),
        ]);
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ack() -> RxEvent {
        RxEvent::Ack(AckReq {
            flow: 2,
            psn: 7,
            aeth: 1,
            tlm: None,
        })
    }

    /// A payload's beats are one write, across an ACK raised between them;
    /// a beat that does not continue the write starts another.
    #[test]
    fn host_write_beats_merge_across_an_ack() {
        let mut ev = Vec::new();
        push_host_write(&mut ev, 100, &[1; 8]);
        ev.push(ack());
        push_host_write(&mut ev, 108, &[2; 6]);
        assert_eq!(
            ev,
            vec![
                RxEvent::HostWrite {
                    addr: 100,
                    data: [[1u8; 8].as_slice(), &[2; 6]].concat()
                },
                ack()
            ]
        );
        push_host_write(&mut ev, 200, &[3; 4]);
        assert_eq!(ev.len(), 3);
    }
}
