//! Receive-path reports (`hpccnic rx-replay`, `hpccnic sim --rx-log`):
//! one JSON line per received frame with its verdict (accepted, or the
//! one drop reason) and the events it caused, and the set-up that lets a
//! capture be replayed through the receive path alone.
//!
//! - [`report`]: one frame's JSON line from the events a receive path
//!   gave for it (a [`RxPipe`] returns them per frame).
//! - [`RxMonitor`]: the same lines from a running NIC core, built from
//!   the receive path's ports cycle by cycle ([`RxView`]): the parser's
//!   verdicts in frame order, the dispatcher's verdicts in packet order,
//!   the events it hands over, and every write of its context port
//!   (flow set-up, and the requester's `rd_addr`/`rd_psn` before each
//!   READ), each placed before the first packet it reached.
//! - [`ReplayCfg`]: the flows (and scheduled context writes) of a replay,
//!   as TOML; [`ReplayCfg::accept_all`] makes one that accepts every QP of
//!   a capture.
//! - [`replay`]: a capture through a [`RxPipe`] (the golden transaction
//!   model, or the RTL parser and dispatcher on an engine with their twins
//!   in lockstep), a report per frame and the totals.
//!
//! Line format (`docs/rx-replay.md`):
//! `{"frame": N, "len": bytes, "verdict": "accepted" | <reason>, "events": [...]}`,
//! `N` the frame's number in the capture (1-based, as Wireshark numbers
//! it). Events, in the order the dispatcher raised them, CE marks last:
//! `host_write` (addr, len, crc32 of the bytes), `ack`, `cc`, `nak`,
//! `read_req`, `cnp`, `ce`.

use nic_engines::roce::pipes::{
    dispatch_events, dispatch_verdicts, normalise, parse_verdicts, push_host_write,
};
use nic_golden::nic::core::RxView;
use nic_golden::roce::packet::{decode, Tlm};
use nic_golden::roce::txn::{FlowCfg, RxEvent, RxPipe};
use nic_golden::roce::RxFlowCtx;
use nic_spec::roce::{is_read_resp, is_write, op};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::collections::BTreeMap;

fn tlm_json(t: &Option<Tlm>) -> Value {
    match t {
        None => Value::Null,
        Some(t) => json!({
            "hdr": format!("{:#018x}", t.hdr),
            "hops": t.hops.iter().map(|h| format!("{h:#018x}")).collect::<Vec<_>>(),
        }),
    }
}

/// One event as JSON.
pub fn event_json(e: &RxEvent) -> Value {
    match e {
        RxEvent::HostWrite { addr, data } => json!({
            "event": "host_write", "addr": addr, "len": data.len(),
            "crc32": crc32fast::hash(data),
        }),
        RxEvent::Ack(a) => json!({
            "event": "ack", "flow": a.flow, "psn": a.psn, "aeth": a.aeth, "tlm": tlm_json(&a.tlm),
        }),
        RxEvent::Cc(c) => json!({
            "event": "cc", "flow": c.flow, "psn": c.psn, "aeth": c.aeth, "opcode": c.opcode,
            "tlm": tlm_json(&c.tlm),
        }),
        RxEvent::Nak {
            flow,
            psn,
            syndrome,
        } => json!({"event": "nak", "flow": flow, "psn": psn, "syndrome": syndrome}),
        RxEvent::ReadReq(r) => json!({
            "event": "read_req", "flow": r.flow, "psn": r.psn, "va": r.va, "rkey": r.rkey,
            "len": r.len, "msn": r.msn,
        }),
        RxEvent::Cnp { flow } => json!({"event": "cnp", "flow": flow}),
        RxEvent::CeMark { flow } => json!({"event": "ce", "flow": flow}),
        RxEvent::Drop(d) => json!({"event": "drop", "reason": d.name()}),
    }
}

/// Frame `frame` (capture number) of `len` bytes, and the events the
/// receive path gave for it (a drop among them is the verdict; more than
/// one drop is reported as `"verdict": "multiple"` with every reason in
/// `drops`, which no correct receive path produces).
pub fn report(frame: u64, len: usize, events: Vec<RxEvent>) -> Value {
    let events = normalise(events);
    let drops: Vec<&str> = events
        .iter()
        .filter_map(|e| match e {
            RxEvent::Drop(d) => Some(d.name()),
            _ => None,
        })
        .collect();
    let rest: Vec<Value> = events
        .iter()
        .filter(|e| !matches!(e, RxEvent::Drop(_)))
        .map(event_json)
        .collect();
    let mut v = json!({
        "frame": frame,
        "len": len,
        "verdict": match drops.len() {
            0 => "accepted",
            1 => drops[0],
            _ => "multiple",
        },
        "events": rest,
    });
    if drops.len() > 1 {
        v["drops"] = json!(drops);
    }
    v
}

/// Verdict counts of a list of reports (`verdict` → frames).
pub fn tally(reports: &[Value]) -> BTreeMap<String, u64> {
    let mut t = BTreeMap::new();
    for r in reports {
        let v = r["verdict"].as_str().unwrap_or("?").to_string();
        *t.entry(v).or_insert(0) += 1;
    }
    t
}

/// The dispatcher's counters of decisions: every packet the parser
/// passed on (`ok`) gets exactly one.
pub const DECIDED: [&str; 8] = [
    "accepted",
    "unknown_flow",
    "oos",
    "dup",
    "bad_psn",
    "bad_va",
    "bad_op",
    "refused",
];

/// Each frame counted once: `tally` (verdict → frames) against the
/// receive path's `counters` (`RxPipe::counters`): the parser's passes
/// equal the dispatcher's decisions, every counter but `ok` equals its
/// verdict's count, and no verdict goes uncounted. Returns what differs.
pub fn accounting(tally: &BTreeMap<String, u64>, counters: &[(&str, u64)]) -> Vec<String> {
    let c = |n: &str| counters.iter().find(|x| x.0 == n).map_or(0, |x| x.1);
    let mut bad = Vec::new();
    let decided: u64 = DECIDED.iter().map(|n| c(n)).sum();
    if c("ok") != decided {
        bad.push(format!(
            "the parser passed {} frames, the dispatcher decided {decided}",
            c("ok")
        ));
    }
    for (name, v) in counters {
        let want = tally.get(*name).copied().unwrap_or(0);
        if *name != "ok" && *v != want {
            bad.push(format!("counter {name} = {v}, frames reported so: {want}"));
        }
    }
    for (v, n) in tally {
        if !counters.iter().any(|x| x.0 == v) {
            bad.push(format!("{n} frames reported {v}, which no counter counts"));
        }
    }
    bad
}

/// A context write of the dispatcher (a flow's set-up, or with `rd_only`
/// the requester's landing entry `rd_idx` of one READ: its first
/// response's PSN `rd_psn` and its address `rd_addr`), applied before
/// frame `before_frame` is fed (0: at the start).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FlowWrite {
    pub qp: u32,
    #[serde(default)]
    pub epsn: u32,
    #[serde(default)]
    pub rd_addr: u64,
    #[serde(default)]
    pub rd_psn: u32,
    /// The READ's landing entry (with `rd_only`): READs of the flow so
    /// far, mod 16.
    #[serde(default)]
    pub rd_idx: u32,
    #[serde(default)]
    pub cnp_on_ce: bool,
    /// The flow exists (false: removes it).
    #[serde(default = "yes")]
    pub active: bool,
    /// Only the landing entry `rd_idx` is written (the requester's write).
    #[serde(default)]
    pub rd_only: bool,
    #[serde(default)]
    pub before_frame: u64,
}

fn yes() -> bool {
    true
}

/// A 64-bit value in TOML, whose integers stop at 2^63 − 1: an integer,
/// or a string (`"0xffff_ffff_ffff_f000"`, or decimal) for any value;
/// written as an integer when it fits, else as a hex string.
mod u64_any {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(v: &u64, s: S) -> Result<S::Ok, S::Error> {
        if *v <= i64::MAX as u64 {
            s.serialize_u64(*v)
        } else {
            s.serialize_str(&format!("{v:#x}"))
        }
    }

    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Any {
        Int(u64),
        Text(String),
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
        match Any::deserialize(d)? {
            Any::Int(v) => Ok(v),
            Any::Text(t) => {
                let t = t.replace('_', "");
                let r = match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
                    Some(h) => u64::from_str_radix(h, 16),
                    None => t.parse(),
                };
                r.map_err(|_| serde::de::Error::custom(format!("{t:?}: not a 64-bit number")))
            }
        }
    }
}

/// A write of the memory-region table (`docs/roce.md` §8a): register
/// entry `index` (`active`) with the bytes [base, base + len) it grants,
/// its R_Key, protection domain and rights, or invalidate it; applied
/// before frame `before_frame` is fed. `base` and `len` take an integer
/// or, past 2^63 − 1 (TOML's largest integer), a string
/// (`"0xffff_ffff_ffff_f000"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RegionWrite {
    pub index: u32,
    #[serde(default, with = "u64_any")]
    pub base: u64,
    #[serde(default, with = "u64_any")]
    pub len: u64,
    #[serde(default)]
    pub rkey: u32,
    #[serde(default)]
    pub pd: u16,
    /// Remote write granted.
    #[serde(default = "yes")]
    pub write: bool,
    /// Remote read granted.
    #[serde(default = "yes")]
    pub read: bool,
    #[serde(default = "yes")]
    pub active: bool,
    #[serde(default)]
    pub before_frame: u64,
}

impl RegionWrite {
    /// The region it registers (`None`: it invalidates the entry).
    pub fn region(&self) -> Option<nic_spec::mr::Region> {
        use nic_spec::mr::right;
        self.active.then_some(nic_spec::mr::Region {
            base: self.base,
            len: self.len,
            rkey: self.rkey,
            pd: self.pd,
            rights: if self.write { right::REMOTE_WRITE } else { 0 }
                | if self.read { right::REMOTE_READ } else { 0 },
        })
    }
}

/// A flow's protection domain (the regions its peer may use), set before
/// frame `before_frame` is fed. A flow with none is in domain 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DomainWrite {
    pub qp: u32,
    pub pd: u16,
    #[serde(default)]
    pub before_frame: u64,
}

/// The set-up of a replay (TOML).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReplayCfg {
    /// The MTU the dispatcher counts READ lengths in (256 ..= 4096).
    pub mtu: u32,
    /// Feed only the frames whose Ethernet destination is this MAC
    /// (`aa:bb:cc:dd:ee:ff`); every frame if absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dst_mac: Option<String>,
    /// Capture numbers of frames not to feed (lost on the link).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub skip: Vec<u64>,
    /// Capture numbers of frames that found the receive buffer full in
    /// the run the capture comes from (a drop of timing, not of content,
    /// which a replay fed one frame at a time cannot meet): reported as
    /// `drop_full`, not fed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub full: Vec<u64>,
    /// Capture numbers of frames the run delivered that its receive path
    /// had not yet decided when the run ended (in the parser, the
    /// region check or the dispatcher): not fed, as the run's log has no
    /// line for them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pending: Vec<u64>,
    /// Context writes, in the order they are applied.
    #[serde(default, rename = "flow")]
    pub flows: Vec<FlowWrite>,
    /// Region-table writes, in the order they are applied. With none, no
    /// request that needs a region is granted.
    #[serde(default, rename = "region", skip_serializing_if = "Vec::is_empty")]
    pub regions: Vec<RegionWrite>,
    /// Flows' protection domains.
    #[serde(default, rename = "domain", skip_serializing_if = "Vec::is_empty")]
    pub domains: Vec<DomainWrite>,
}

/// Parse `aa:bb:cc:dd:ee:ff`.
pub fn parse_mac(s: &str) -> Result<[u8; 6], String> {
    let parts: Vec<&str> = s.split(':').collect();
    if parts.len() != 6 {
        return Err(format!("{s:?}: a MAC is six hex bytes joined by ':'"));
    }
    let mut m = [0u8; 6];
    for (k, p) in parts.iter().enumerate() {
        m[k] = u8::from_str_radix(p, 16).map_err(|_| format!("{s:?}: {p:?} is not a hex byte"))?;
    }
    Ok(m)
}

pub fn mac_string(m: &[u8]) -> String {
    m.iter()
        .map(|b| format!("{b:02x}"))
        .collect::<Vec<_>>()
        .join(":")
}

impl ReplayCfg {
    /// Check the values a receive path of 2^`flow_bits` flows takes.
    pub fn check(&self, flow_bits: u32) -> Result<(), String> {
        if !(256..=4096).contains(&self.mtu) || !self.mtu.is_power_of_two() {
            return Err(format!("mtu = {}: 256, 512, 1024, 2048 or 4096", self.mtu));
        }
        if let Some(m) = &self.dst_mac {
            parse_mac(m)?;
        }
        for f in &self.flows {
            if f.qp >= 1 << flow_bits {
                return Err(format!(
                    "flow qp = {}: the receive path has QPs 0 ..= {}",
                    f.qp,
                    (1u32 << flow_bits) - 1
                ));
            }
            if f.epsn > nic_spec::roce::PSN_MASK || f.rd_psn > nic_spec::roce::PSN_MASK {
                return Err(format!("flow qp = {}: a PSN has 24 bits", f.qp));
            }
            if f.rd_idx > 15 {
                return Err(format!("flow qp = {}: rd_idx has 4 bits", f.qp));
            }
        }
        // An entry past the table (16 entries), or a region past 2^64, is
        // refused by the table as the NIC refuses it (`bad_mr`); the
        // index has 8 bits.
        for r in &self.regions {
            if r.index > 255 {
                return Err(format!("region index = {}: an index has 8 bits", r.index));
            }
        }
        for d in &self.domains {
            if d.qp >= 1 << flow_bits {
                return Err(format!(
                    "domain qp = {}: the receive path has QPs 0 ..= {}",
                    d.qp,
                    (1u32 << flow_bits) - 1
                ));
            }
        }
        Ok(())
    }

    /// A set-up that accepts every QP below 2^`flow_bits` found in
    /// `frames` (those that decode): the expected PSN is the first PSN of
    /// a WRITE or READ REQUEST of the QP; each READ RESPONSE FIRST or ONLY
    /// at a PSN not seen before starts a READ, whose landing entry is
    /// written before its frame, and the responses land one after the
    /// other from address 0. Each table entry an R_Key of a WRITE FIRST,
    /// WRITE ONLY or READ REQUEST names is registered with the first such
    /// key: all memory but its last byte, domain 0 (every flow's), remote
    /// write and read. Only frames to `dst_mac` (if given) count.
    pub fn accept_all(
        frames: &[(u64, Vec<u8>)],
        mtu: u32,
        flow_bits: u32,
        dst_mac: Option<&str>,
    ) -> Result<Self, String> {
        let dst = dst_mac.map(parse_mac).transpose()?;
        let mut qps: BTreeMap<u32, FlowWrite> = BTreeMap::new();
        let mut epsn_set = std::collections::BTreeSet::new();
        // Per QP: READ starts seen, response PSNs seen, READs, address.
        let mut rd_starts = std::collections::BTreeSet::new();
        let mut rd_psns = std::collections::BTreeSet::new();
        let mut rd_next: BTreeMap<u32, (u32, u64)> = BTreeMap::new();
        let mut entries = Vec::new();
        let mut regions: BTreeMap<u32, RegionWrite> = BTreeMap::new();
        for (n, f) in frames {
            if dst.is_some_and(|d| f.get(..6) != Some(&d[..])) {
                continue;
            }
            let Ok(p) = decode(f, false) else { continue };
            if p.dqp >= 1 << flow_bits {
                continue;
            }
            let w = qps.entry(p.dqp).or_insert(FlowWrite {
                qp: p.dqp,
                epsn: 0,
                rd_addr: 0,
                rd_psn: 0,
                rd_idx: 0,
                cnp_on_ce: false,
                active: true,
                rd_only: false,
                before_frame: 0,
            });
            if (is_write(p.opcode) || p.opcode == op::READ_REQ) && epsn_set.insert(p.dqp) {
                w.epsn = p.psn;
            }
            if let Some(r) = p
                .reth
                .filter(|_| matches!(p.opcode, op::WRITE_FIRST | op::WRITE_ONLY | op::READ_REQ))
            {
                let index = nic_spec::mr::key_index(r.rkey, nic_spec::mr::MR_LOG2);
                regions.entry(index).or_insert(RegionWrite {
                    index,
                    base: 0,
                    len: u64::MAX,
                    rkey: r.rkey,
                    pd: 0,
                    write: true,
                    read: true,
                    active: true,
                    before_frame: 0,
                });
            }
            if is_read_resp(p.opcode) && rd_psns.insert((p.dqp, p.psn)) {
                let (k, addr) = rd_next.entry(p.dqp).or_insert((0, 0));
                let starts = matches!(p.opcode, op::READ_RESP_FIRST | op::READ_RESP_ONLY);
                if starts && rd_starts.insert((p.dqp, p.psn)) {
                    entries.push(FlowWrite {
                        qp: p.dqp,
                        epsn: 0,
                        rd_addr: *addr,
                        rd_psn: p.psn,
                        rd_idx: *k & 15,
                        cnp_on_ce: false,
                        active: false,
                        rd_only: true,
                        before_frame: *n,
                    });
                    *k += 1;
                }
                *addr += p.payload.len() as u64;
            }
        }
        let mut flows: Vec<FlowWrite> = qps.into_values().collect();
        flows.extend(entries);
        Ok(ReplayCfg {
            mtu,
            dst_mac: dst_mac.map(str::to_string),
            skip: Vec::new(),
            full: Vec::new(),
            pending: Vec::new(),
            flows,
            regions: regions.into_values().collect(),
            domains: Vec::new(),
        })
    }
}

/// The writes of `cfg` due before frame `n` that are not yet applied
/// (from `next`: contexts, regions, domains), applied to `pipe`.
fn apply_writes(cfg: &ReplayCfg, next: &mut [usize; 3], n: u64, pipe: &mut dyn RxPipe) {
    while let Some(r) = cfg.regions.get(next[1]).filter(|r| r.before_frame <= n) {
        pipe.set_region(r.index, r.region());
        next[1] += 1;
    }
    while let Some(d) = cfg.domains.get(next[2]).filter(|d| d.before_frame <= n) {
        pipe.set_pd(d.qp, d.pd);
        next[2] += 1;
    }
    let next = &mut next[0];
    while let Some(w) = cfg.flows.get(*next) {
        if w.before_frame > n {
            break;
        }
        if w.rd_only {
            pipe.set_read(w.qp, w.rd_idx, w.rd_addr, w.rd_psn);
        } else {
            pipe.configure(
                w.qp,
                &FlowCfg {
                    valid: w.active,
                    epsn: w.epsn,
                    rd_addr: w.rd_addr,
                    rd_psn: w.rd_psn,
                    cnp_on_ce: w.cnp_on_ce,
                },
            );
        }
        *next += 1;
    }
}

/// Feed `frames` ((capture number, bytes), in capture order) through
/// `pipe` as `cfg` says: frames to another MAC and skipped ones are left
/// out, and `full` ones reported as `drop_full`; each frame's writes
/// are applied before it. `fcs`: each frame
/// ends with its Ethernet FCS, which is checked and removed (a bad one
/// gives `bad_fcs`). Returns one report per frame fed.
pub fn replay(
    cfg: &ReplayCfg,
    frames: &[(u64, Vec<u8>)],
    fcs: bool,
    pipe: &mut dyn RxPipe,
) -> Vec<Value> {
    let dst = cfg
        .dst_mac
        .as_deref()
        .map(|m| parse_mac(m).expect("checked"));
    let skip: std::collections::HashSet<u64> =
        cfg.skip.iter().chain(&cfg.pending).copied().collect();
    let full: std::collections::HashSet<u64> = cfg.full.iter().copied().collect();
    let mut sorted = cfg.flows.clone();
    sorted.sort_by_key(|w| w.before_frame);
    let mut regions = cfg.regions.clone();
    regions.sort_by_key(|w| w.before_frame);
    let mut domains = cfg.domains.clone();
    domains.sort_by_key(|w| w.before_frame);
    let cfg = ReplayCfg {
        flows: sorted,
        regions,
        domains,
        ..cfg.clone()
    };
    let mut next = [0; 3];
    let mut out = Vec::new();
    for (n, f) in frames {
        if skip.contains(n) || dst.is_some_and(|d| f.get(..6) != Some(&d[..])) {
            continue;
        }
        if full.contains(n) {
            out.push(json!({"frame": n, "len": f.len(), "verdict": "drop_full", "events": []}));
            continue;
        }
        apply_writes(&cfg, &mut next, *n, pipe);
        let (body, bad) = if fcs && f.len() >= 4 {
            let (b, tail) = f.split_at(f.len() - 4);
            (b, crc32fast::hash(b).to_le_bytes() != tail)
        } else {
            (&f[..], fcs)
        };
        out.push(report(*n, f.len(), pipe.receive(body, bad)));
    }
    out
}

/// The receive path of a running NIC core, observed at its ports cycle
/// by cycle ([`RxMonitor::observe`] after every step), turned into the
/// same reports as [`replay`] gives ([`RxMonitor::finish`]).
#[derive(Default)]
pub struct RxMonitor {
    last: RxView,
    /// The parser's verdicts in frame order (`None`: passed on).
    parsed: Vec<Option<&'static str>>,
    /// The dispatcher's packets in order: verdict and events.
    packets: Vec<Vec<RxEvent>>,
    /// Context writes: (packets decided before the write, the write).
    writes: Vec<(usize, RxFlowCtx)>,
    /// Region-table and domain writes, likewise.
    mr_writes: Vec<(usize, nic_golden::roce::MrWrite)>,
    pd_writes: Vec<(usize, nic_golden::roce::FlowPd)>,
    mtu_log2: u8,
}

impl RxMonitor {
    pub fn new() -> Self {
        Self::default()
    }

    /// One cycle of the core (its [`RxView`] after the step).
    pub fn observe(&mut self, v: &RxView) {
        self.parsed
            .extend(parse_verdicts(&self.last.parse, &v.parse));
        // A packet's counter moves two cycles after its decision, a cycle
        // after its first event can appear (`DispatchCounters` registers
        // the decision's strobes): so this cycle's verdicts come before
        // last cycle's events and writes, which are taken from `last`.
        for d in dispatch_verdicts(&self.last.dispatch.stats, &v.dispatch.stats) {
            let ev = d.map(RxEvent::Drop).into_iter().collect();
            self.packets.push(ev);
        }
        let l = self.last;
        if l.dispatch_in.ctx_valid {
            self.writes.push((self.packets.len(), l.dispatch_in.ctx));
        }
        if l.check_in.mr_valid {
            self.mr_writes.push((self.packets.len(), l.check_in.mr));
        }
        if l.check_in.pd_valid {
            self.pd_writes.push((self.packets.len(), l.check_in.pd));
        }
        self.mtu_log2 = l.dispatch_in.cfg_mtu_log2;
        let mut ev = Vec::new();
        dispatch_events(&l.dispatch_in, &l.dispatch, &mut ev);
        if !ev.is_empty() {
            match self.packets.last_mut() {
                Some(p) => {
                    // Host-write beats of one payload merge across cycles,
                    // and across an ACK raised between them.
                    for e in ev {
                        match e {
                            RxEvent::HostWrite { addr, data } => push_host_write(p, addr, &data),
                            e => p.push(e),
                        }
                    }
                }
                None => panic!("rx monitor: dispatcher events before any packet: {ev:?}"),
            }
        }
        self.last = *v;
    }

    /// The reports of the frames the core received (`delivered`: their
    /// (capture number, length), in the order they reached the core) and
    /// the replay set-up that reproduces them (`dst_mac`, `skip` filled
    /// in by the caller). Errors if the core decided more frames than it
    /// was given.
    pub fn finish(self, delivered: &[(u64, usize)]) -> Result<(Vec<Value>, ReplayCfg), String> {
        if self.parsed.len() > delivered.len() {
            return Err(format!(
                "rx monitor: {} parser verdicts for {} frames delivered",
                self.parsed.len(),
                delivered.len()
            ));
        }
        let mut reports = Vec::new();
        let mut first_frame_of_packet = Vec::new();
        let mut packets = self.packets.into_iter();
        for (k, verdict) in self.parsed.iter().enumerate() {
            let (n, len) = delivered[k];
            let ev = match verdict {
                // A parser drop (`drop_full` too: a frame that found the
                // receive buffer full, which a replay never meets).
                Some(name) => {
                    reports.push(json!({"frame": n, "len": len, "verdict": name, "events": []}));
                    continue;
                }
                None => {
                    first_frame_of_packet.push(n);
                    match packets.next() {
                        Some(ev) => ev,
                        None => break, // still in the dispatcher at the end
                    }
                }
            };
            reports.push(report(n, len, ev));
        }
        let flows = self
            .writes
            .iter()
            .filter_map(|&(k, c)| {
                let before_frame = if k == 0 {
                    0
                } else {
                    *first_frame_of_packet.get(k)?
                };
                Some(FlowWrite {
                    qp: c.flow,
                    epsn: c.epsn,
                    rd_addr: c.rd_addr,
                    rd_psn: c.rd_psn,
                    rd_idx: c.rd_idx,
                    cnp_on_ce: c.cnp_on_ce,
                    active: c.active,
                    rd_only: c.rd_only,
                    before_frame,
                })
            })
            .collect();
        let before = |k: usize| -> Option<u64> {
            if k == 0 {
                Some(0)
            } else {
                first_frame_of_packet.get(k).copied()
            }
        };
        // A clear of the whole table becomes an invalidation of each
        // entry.
        let mut regions = Vec::new();
        for &(k, w) in &self.mr_writes {
            let Some(before_frame) = before(k) else {
                continue;
            };
            let one = |index: u32, active: bool| RegionWrite {
                index,
                base: w.base,
                len: w.len,
                rkey: w.rkey,
                pd: w.pd,
                write: w.rights & nic_spec::mr::right::REMOTE_WRITE != 0,
                read: w.rights & nic_spec::mr::right::REMOTE_READ != 0,
                active,
                before_frame,
            };
            if w.clear {
                regions.extend((0..1 << nic_spec::mr::MR_LOG2).map(|i| one(i, false)));
            } else {
                regions.push(one(w.index as u32, w.active));
            }
        }
        let domains = self
            .pd_writes
            .iter()
            .filter_map(|&(k, p)| {
                Some(DomainWrite {
                    qp: p.flow,
                    pd: p.pd,
                    before_frame: before(k)?,
                })
            })
            .collect();
        Ok((
            reports,
            ReplayCfg {
                mtu: 1 << self.mtu_log2.clamp(8, 12),
                dst_mac: None,
                skip: Vec::new(),
                full: Vec::new(),
                pending: Vec::new(),
                flows,
                regions,
                domains,
            },
        ))
    }
}

#[cfg(test)]
mod decided_tests {
    /// Every dispatcher counter of a decision is in [`super::DECIDED`]:
    /// `accepted` and each of the dispatcher's drop reasons.
    #[test]
    fn decided_is_accepted_and_every_dispatcher_drop() {
        let mut want = vec!["accepted"];
        want.extend(nic_spec::roce::RxDrop::DISPATCH.iter().map(|r| r.name()));
        let mut got = super::DECIDED.to_vec();
        want.sort();
        got.sort();
        assert_eq!(got, want);
    }
}
