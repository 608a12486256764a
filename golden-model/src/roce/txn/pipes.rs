//! A NIC's Tx and Rx pipelines behind traits ([`TxPipe`], [`RxPipe`]), so
//! that an environment can run the golden models ([`GoldenTx`], [`GoldenRx`])
//! or the RTL on an engine (`nic_testbench::roce::pipes`).

use super::dispatch::{FlowCfg, RxDispatchModel, RxDrop, RxEvent};
use crate::roce::packet::{self, decode, Drop, Packet, Reth, Tlm, MAX_PAYLOAD};
use nic_spec::mr::Region;
use nic_spec::roce::op;

/// What a Tx pipeline reads its payload from: host memory, byte-addressed.
/// (The environment's host memory implements it: `nic_netsim::HostMem`.)
pub trait HostRead {
    /// `len` bytes from `addr`; bytes outside the memory read as zeros.
    fn read(&self, addr: u64, len: usize) -> Vec<u8>;
}

/// A flow's Tx context (§6 `ctx_*`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TxContext {
    pub dmac: [u8; 6],
    pub smac: [u8; 6],
    pub sip: [u8; 4],
    pub dip: [u8; 4],
    pub sport: u16,
    pub dqp: u32,
    pub pkey: u16,
    pub tos: u8,
}

/// The Tx descriptor is the `TxDesc` record (`nic_spec::records`), the
/// same struct the cycle twin's port carries.
pub use crate::roce::TxDesc;

impl TxDesc {
    /// `tlm` set with a fresh area (data packets and probes).
    pub fn with_fresh_tlm(mut self) -> Self {
        self.tlm = Tlm::fresh().into();
        self
    }
    /// `tlm` set to `t` if any (the responder's echo).
    pub fn with_tlm(mut self, t: Option<Tlm>) -> Self {
        if let Some(t) = t {
            self.tlm = t.into();
        }
        self
    }
}

/// One descriptor in, one frame out (§6).
pub trait TxPipe {
    /// Context write port.
    fn set_context(&mut self, flow: u32, ctx: &TxContext);
    /// The frame for `desc`, its payload read from `host`; `None` when the
    /// descriptor is dropped (`cnt_bad_req`).
    fn build(&mut self, desc: &TxDesc, host: &dyn HostRead) -> Option<Vec<u8>>;
    /// Counters by name (`frames`, `bad_req`).
    fn counters(&self) -> Vec<(&'static str, u64)>;
}

/// The memory-region table of a receive path (`docs/roce.md` §8a): the
/// regions and each flow's protection domain, and the verdict
/// `nic_spec::mr::verdict_of` gives a packet (as `MrCheck` does).
#[derive(Clone, Debug)]
pub struct MrTable {
    regions: Vec<Option<Region>>,
    pds: Vec<u16>,
}

impl MrTable {
    /// 2^`MR_LOG2` regions (none valid) and 2^`flow_bits` domains (0).
    pub fn new(flow_bits: u32) -> Self {
        MrTable {
            regions: vec![None; 1 << nic_spec::mr::MR_LOG2],
            pds: vec![0; 1 << flow_bits.min(16)],
        }
    }

    /// Register (`Some`) or invalidate entry `index`; false (nothing
    /// changes) for an index outside the table or a region past 2^64.
    pub fn set_region(&mut self, index: u32, r: Option<Region>) -> bool {
        match self.regions.get_mut(index as usize) {
            Some(e) if r.map_or(true, |r| r.fits()) => {
                *e = r.map(|r| Region {
                    rights: r.rights & 3,
                    ..r
                });
                true
            }
            _ => false,
        }
    }

    /// The flow's protection domain (flows outside the table ignored).
    pub fn set_pd(&mut self, flow: u32, pd: u16) {
        if let Some(d) = self.pds.get_mut(flow as usize) {
            *d = pd;
        }
    }

    /// The region entry `index` holds, if valid.
    pub fn region(&self, index: u32) -> Option<Region> {
        self.regions.get(index as usize).copied().flatten()
    }

    /// The flow's protection domain, if the flow is in the table.
    pub fn pd(&self, flow: u32) -> Option<u16> {
        self.pds.get(flow as usize).copied()
    }

    /// The verdict on a packet that passed the parser: a WRITE FIRST or
    /// ONLY or a READ REQUEST is checked, anything else granted.
    pub fn verdict(&self, p: &Packet) -> (u8, Option<&'static str>) {
        let write = matches!(p.opcode, op::WRITE_FIRST | op::WRITE_ONLY);
        let Some(reth) = p.reth.filter(|_| write || p.opcode == op::READ_REQ) else {
            return (nic_spec::mr::verdict::GRANTED, None);
        };
        let ix = nic_spec::mr::key_index(reth.rkey, nic_spec::mr::MR_LOG2);
        nic_spec::mr::verdict_of(
            write,
            p.payload.len() as u32,
            reth.va,
            reth.rkey,
            reth.dlen,
            self.pd(p.dqp),
            self.region(ix).as_ref(),
        )
    }
}

/// One frame in, the §8 events out (§7 + §8).
pub trait RxPipe {
    /// Control port of the dispatcher (flow creation / removal).
    fn configure(&mut self, flow: u32, cfg: &FlowCfg);
    /// Requester fields only (see [`RxDispatchModel::set_read`]).
    fn set_read(&mut self, flow: u32, idx: u32, rd_addr: u64, rd_psn: u32);
    /// The memory-region table (`docs/roce.md` §8a): register (`Some`)
    /// or invalidate region `index`.
    fn set_region(&mut self, index: u32, region: Option<Region>);
    /// A flow's protection domain.
    fn set_pd(&mut self, flow: u32, pd: u16);
    fn receive(&mut self, frame: &[u8], bad_fcs: bool) -> Vec<RxEvent>;
    /// Counters by name (`ok`, the §7 reasons, the §8 counters).
    fn counters(&self) -> Vec<(&'static str, u64)>;
}

/// The golden Tx pipeline: [`Packet::encode`].
#[derive(Clone, Debug)]
pub struct GoldenTx {
    ctx: Vec<TxContext>,
    frames: u64,
    bad_req: u64,
}

impl GoldenTx {
    /// `2^flow_bits` contexts (`flow_bits` ≤ 16).
    pub fn new(flow_bits: u32) -> Self {
        GoldenTx {
            ctx: vec![TxContext::default(); 1 << flow_bits.min(16)],
            frames: 0,
            bad_req: 0,
        }
    }

    /// §6's descriptor rules: unknown opcode, len > 4096, payload on an
    /// opcode without payload, PROBE/NOTIFY without telemetry, flow out of
    /// range.
    pub fn bad(&self, d: &TxDesc) -> bool {
        !packet::known_opcode(d.opcode)
            || d.len as usize > MAX_PAYLOAD
            || (d.len > 0 && !packet::carries_payload(d.opcode))
            || (nic_spec::roce::is_hpcc(d.opcode) && !d.tlm.present)
            || d.flow as usize >= self.ctx.len()
    }
}

impl TxPipe for GoldenTx {
    fn set_context(&mut self, flow: u32, ctx: &TxContext) {
        if let Some(c) = self.ctx.get_mut(flow as usize) {
            *c = *ctx;
        }
    }

    fn build(&mut self, d: &TxDesc, host: &dyn HostRead) -> Option<Vec<u8>> {
        if self.bad(d) {
            self.bad_req += 1;
            return None;
        }
        let c = self.ctx[d.flow as usize];
        let p = Packet {
            dmac: c.dmac,
            smac: c.smac,
            tos: c.tos,
            ip_id: 0,
            ttl: 64,
            sip: c.sip,
            dip: c.dip,
            sport: c.sport,
            dport: packet::ROCE_PORT,
            opcode: d.opcode,
            se: false,
            mig: false,
            becn: nic_spec::roce::is_cnp(d.opcode),
            pkey: c.pkey,
            dqp: c.dqp,
            ackreq: d.ackreq,
            psn: d.psn,
            reth: packet::has_reth(d.opcode).then_some(Reth {
                va: d.va,
                rkey: d.rkey,
                dlen: d.dlen,
            }),
            aeth: packet::has_aeth(d.opcode).then_some(d.aeth),
            tlm: d.tlm.to_tlm(),
            payload: host.read(d.addr, d.len as usize),
        };
        self.frames += 1;
        Some(p.encode())
    }

    fn counters(&self) -> Vec<(&'static str, u64)> {
        vec![("frames", self.frames), ("bad_req", self.bad_req)]
    }
}

/// The golden Rx pipeline: [`decode`] then [`RxDispatchModel`].
#[derive(Clone, Debug)]
pub struct GoldenRx {
    pub dispatch: RxDispatchModel,
    pub mr: MrTable,
    ok: u64,
    parse_drops: [u64; 9],
}

impl GoldenRx {
    /// No region registered: every request that needs one is refused.
    pub fn new(flow_bits: u32, mtu_log2: u32) -> Self {
        GoldenRx {
            dispatch: RxDispatchModel::new(flow_bits, mtu_log2),
            mr: MrTable::new(flow_bits),
            ok: 0,
            parse_drops: [0; 9],
        }
    }
}

impl RxPipe for GoldenRx {
    fn configure(&mut self, flow: u32, cfg: &FlowCfg) {
        self.dispatch.configure(flow, cfg)
    }

    fn set_read(&mut self, flow: u32, idx: u32, rd_addr: u64, rd_psn: u32) {
        self.dispatch.set_read(flow, idx, rd_addr, rd_psn)
    }

    fn set_region(&mut self, index: u32, region: Option<Region>) {
        self.mr.set_region(index, region);
    }

    fn set_pd(&mut self, flow: u32, pd: u16) {
        self.mr.set_pd(flow, pd)
    }

    fn receive(&mut self, frame: &[u8], bad_fcs: bool) -> Vec<RxEvent> {
        match decode(frame, bad_fcs) {
            Ok(p) => {
                self.ok += 1;
                let mr = self.mr.verdict(&p).0;
                self.dispatch.dispatch_checked(&p, mr)
            }
            Err(d) => {
                self.parse_drops[d as usize] += 1;
                vec![RxEvent::Drop(RxDrop::Parse(d))]
            }
        }
    }

    fn counters(&self) -> Vec<(&'static str, u64)> {
        let c = self.dispatch.counters;
        let mut v = vec![("ok", self.ok)];
        v.extend(
            Drop::ALL
                .iter()
                .map(|&d| (d.name(), self.parse_drops[d as usize])),
        );
        v.extend([
            ("unknown_flow", c.unknown_flow),
            ("oos", c.oos),
            ("dup", c.dup),
            ("bad_psn", c.bad_psn),
            ("accepted", c.accepted),
            ("bad_va", c.bad_va),
            ("refused", c.refused),
            ("bad_op", c.bad_op),
        ]);
        v
    }
}
