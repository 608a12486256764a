//! The RTL pipelines behind the transport's traits: [`RtlTx`] implements
//! [`TxPipe`] and [`RtlRx`] implements [`RxPipe`] by running the blocks on
//! an engine (rust-hdl's simulator or Verilator), cycle by cycle, with the
//! golden twins in lockstep: any difference at any port on any cycle stops
//! the run with the cycle, the inputs and both outputs. This is what
//! `hpccnic sim --engine verilator|rust-hdl` runs.

use crate::cosim::EngineKind;
use crate::{Engine, Harness, RustHdlEngine, VerilatorEngine};
use nic_golden::roce::transport::{HostMem, TxContext, TxDesc, TxPipe};
use nic_golden::Cycle;
use nic_hdl::roce::tx::RoceTx;
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

type TxIn = nic_golden::roce::tx::In;
type TxGolden<const A: usize> = nic_golden::roce::tx::RoceTx<A>;

/// The RTL Tx pipeline (`RoceTx<A>`) as a [`TxPipe`].
pub struct RtlTx<const A: usize> {
    eng: Lockstep<RoceTx<A>, TxGolden<A>>,
    frames: u64,
    bad_req: u64,
}

impl<const A: usize> RtlTx<A> {
    pub fn new(kind: EngineKind, vcd: Option<&Path>) -> Self {
        let mut t = Self {
            eng: Lockstep::new(engine_for::<RoceTx<A>>(kind, vcd), TxGolden::<A>::default(), "roce_tx"),
            frames: 0,
            bad_req: 0,
        };
        // Reset for a cycle: the pipeline starts idle.
        t.eng.step(&TxIn { reset: true, ..Default::default() });
        t
    }
    /// Clock cycles run so far.
    pub fn cycles(&self) -> u64 {
        self.eng.cycles()
    }
}

fn mac48(m: &[u8; 6]) -> u64 {
    m.iter().fold(0u64, |a, &b| (a << 8) | b as u64)
}

impl<const A: usize> TxPipe for RtlTx<A> {
    fn set_context(&mut self, flow: u32, c: &TxContext) {
        self.eng.step(&TxIn {
            ctx_we: true,
            ctx_flow: flow,
            ctx_dmac: mac48(&c.dmac),
            ctx_smac: mac48(&c.smac),
            ctx_sip: u32::from_be_bytes(c.sip),
            ctx_dip: u32::from_be_bytes(c.dip),
            ctx_sport: c.sport,
            ctx_dqp: c.dqp,
            ctx_pkey: c.pkey,
            ctx_tos: c.tos,
            out_tready: true,
            ..Default::default()
        });
    }

    fn build(&mut self, d: &TxDesc, host: &HostMem) -> Option<Vec<u8>> {
        let start = self.eng.cycles();
        let bad0 = self.bad_req_count();
        let mut req_pending = true;
        // Outstanding host reads: (next address, words left).
        let mut rd: Option<(u64, u64)> = None;
        let mut frame = Vec::new();
        loop {
            assert!(
                self.eng.cycles() - start < STUCK,
                "roce_tx: no frame after {STUCK} cycles for {d:?}"
            );
            let (rd_tvalid, rd_tdata, rd_tlast) = match rd {
                Some((a, n)) if n > 0 => {
                    let w = host.read(a, 8);
                    (true, u64::from_le_bytes(w.try_into().unwrap()), n == 1)
                }
                _ => (false, 0, false),
            };
            let i = TxIn {
                req_valid: req_pending,
                req_flow: d.flow,
                req_opcode: d.opcode,
                req_psn: d.psn & 0xFF_FFFF,
                req_ackreq: d.ackreq,
                req_len: d.len as u16,
                req_addr: d.addr,
                req_va: d.va,
                req_rkey: d.rkey,
                req_dlen: d.dlen,
                req_aeth: d.aeth,
                req_tlm: d.tlm,
                req_tlm_hdr: d.tlm_hdr,
                req_tlm_hop0: d.tlm_hop[0],
                req_tlm_hop1: d.tlm_hop[1],
                req_tlm_hop2: d.tlm_hop[2],
                req_tlm_hop3: d.tlm_hop[3],
                req_tlm_hop4: d.tlm_hop[4],
                rd_tdata,
                rd_tlast,
                rd_tvalid,
                rdq_ready: rd.is_none(),
                out_tready: true,
                ..Default::default()
            };
            let o = self.eng.step(&i);
            if req_pending && o.req_ready {
                req_pending = false;
            }
            if rd_tvalid && o.rd_tready {
                let (a, n) = rd.unwrap();
                rd = Some((a + 8, n - 1));
            }
            if rd.is_none() && o.rdq_valid {
                rd = Some((o.rdq_addr, (o.rdq_len as u64).div_ceil(8)));
            }
            if matches!(rd, Some((_, 0))) {
                rd = None;
            }
            if o.out_tvalid {
                let bytes = o.out_tdata.to_le_bytes();
                frame.extend_from_slice(&bytes[..o.out_tkeep.count_ones() as usize]);
                if o.out_tlast {
                    self.frames += 1;
                    return Some(frame);
                }
            }
            if !req_pending && o.cnt_bad_req as u64 != bad0 {
                self.bad_req += 1;
                return None;
            }
        }
    }

    fn counters(&self) -> Vec<(&'static str, u64)> {
        vec![("frames", self.frames), ("bad_req", self.bad_req)]
    }
}

impl<const A: usize> RtlTx<A> {
    /// The RTL's drop counter as last seen (read with an idle cycle).
    fn bad_req_count(&mut self) -> u64 {
        self.eng
            .step(&TxIn { out_tready: true, ..Default::default() })
            .cnt_bad_req as u64
    }
}
