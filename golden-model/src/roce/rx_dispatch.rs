//! Twin of `hdl/src/roce/rx_dispatch.rs`: the RoCEv2 Rx dispatcher
//! (docs/roce.md §8), cycle-exact at the ports.
//!
//! One packet at a time, a sequential state machine:
//!
//! | state | cycles | what happens |
//! |---|---|---|
//! | `Idle` | 1 | `meta_ready` high (if every pending event is free or taken this cycle); the record is latched, the flow's context read is issued |
//! | `Look` | 1 | the context words arrive (registered by the RTL); opcode decoded, ceil(dlen/MTU) computed |
//! | `Exec` | 1 | decision: counters, one event, the context written back |
//! | `PayWr` / `PayDrop` | 1 per word | payload to the host write port, or discarded, until `pay_tlast` |
//! | `Retry` | 1 | re-issue the context read after a `cfg_*` write raced it |
//!
//! A packet takes 3 cycles plus one per payload word when every ready is
//! high (the next record is accepted in the cycle after `Exec` or after
//! the last payload word).
//!
//! `cfg_*` writes go to the context RAM at once (priority over the state
//! machine); with `cfg_rd_only` only `rd_addr` and `rd_psn` are written.
//! A cfg write in the cycle a packet is accepted, in its `Look`
//! cycle or in its `Exec` cycle makes the packet's context read stale: the
//! packet does nothing in `Exec` and goes through `Retry`, `Look`, `Exec`
//! again (3 cycles). So a packet always sees every cfg write made before
//! its (last) `Exec`, and a cfg write is never lost.
//!
//! Events (`ack`, `cc`, `nak`, `rdreq`): one per packet at most, held in a
//! valid/ready register until taken. The event of a packet whose payload
//! goes to the host (an ACK of a WRITE, the `cc` of a READ RESPONSE
//! FIRST/LAST/ONLY) is raised in the cycle its last payload word appears
//! on `wr_*`; the others in the cycle after `Exec`.
//!
//! `reset` returns to `Idle` and clears the events, the host write
//! register and the counters; a packet in flight is abandoned without
//! writing its context (the RAM is not cleared).
//!
//! This model reads the context at `Exec` from its memory: with the
//! interlock above, that is the word the RTL read.

use crate::Cycle;

use super::txn::dispatch::{decide, Decision, RxHeader};
pub use super::txn::dispatch::{op_ok, read_psns, Ctx, DispatchCounters as Counters};
use nic_spec::roce::PSN_MASK;

/// Packets take `OVERHEAD` cycles plus one per payload word.
pub const OVERHEAD: u64 = 3;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    /// Synchronous reset: state machine, events, host write register and
    /// counters (not the context RAM).
    pub reset: bool,
    /// log2 MTU, 8..=12 (clamped into that range); hold constant.
    pub cfg_mtu_log2: u8,
    pub cfg_we: bool,
    pub cfg_flow: u32,
    pub cfg_valid: bool,
    pub cfg_epsn: u32,
    pub cfg_rd_addr: u64,
    pub cfg_rd_psn: u32,
    /// With `cfg_we`: write only `rd_addr` and `rd_psn` of the flow.
    pub cfg_rd_only: bool,
    pub meta_valid: bool,
    pub meta_opcode: u8,
    pub meta_qp: u32,
    pub meta_psn: u32,
    pub meta_ackreq: bool,
    pub meta_len: u32,
    pub meta_va: u64,
    pub meta_rkey: u32,
    pub meta_dlen: u32,
    pub meta_aeth: u32,
    pub meta_tlm: bool,
    pub meta_tlm_hdr: u64,
    pub meta_tlm_hop0: u64,
    pub meta_tlm_hop1: u64,
    pub meta_tlm_hop2: u64,
    pub meta_tlm_hop3: u64,
    pub meta_tlm_hop4: u64,
    pub pay_tdata: u64,
    pub pay_tkeep: u8,
    pub pay_tlast: bool,
    pub pay_tvalid: bool,
    /// Ignored: the parser releases only checked frames.
    pub pay_tuser: bool,
    pub wr_ready: bool,
    pub ack_ready: bool,
    pub cc_ready: bool,
    pub nak_ready: bool,
    pub rdreq_ready: bool,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub meta_ready: bool,
    pub pay_tready: bool,
    pub wr_valid: bool,
    pub wr_addr: u64,
    pub wr_data: u64,
    pub wr_strb: u8,
    pub ack_valid: bool,
    pub ack_flow: u32,
    pub ack_psn: u32,
    pub ack_aeth: u32,
    pub ack_tlm: bool,
    pub ack_tlm_hdr: u64,
    pub ack_tlm_hop0: u64,
    pub ack_tlm_hop1: u64,
    pub ack_tlm_hop2: u64,
    pub ack_tlm_hop3: u64,
    pub ack_tlm_hop4: u64,
    pub cc_valid: bool,
    pub cc_flow: u32,
    pub cc_psn: u32,
    pub cc_aeth: u32,
    pub cc_opcode: u8,
    pub cc_tlm: bool,
    pub cc_tlm_hdr: u64,
    pub cc_tlm_hop0: u64,
    pub cc_tlm_hop1: u64,
    pub cc_tlm_hop2: u64,
    pub cc_tlm_hop3: u64,
    pub cc_tlm_hop4: u64,
    pub nak_valid: bool,
    pub nak_flow: u32,
    pub nak_psn: u32,
    pub rdreq_valid: bool,
    pub rdreq_flow: u32,
    pub rdreq_psn: u32,
    pub rdreq_va: u64,
    pub rdreq_rkey: u32,
    pub rdreq_len: u32,
    /// The responder's MSN for the READ RESPONSEs' AETH: after the
    /// increment for a new READ REQUEST, the current one for a duplicate.
    pub rdreq_msn: u32,
    pub cnt_unknown_flow: u32,
    pub cnt_oos: u32,
    pub cnt_dup: u32,
    pub cnt_bad_psn: u32,
    pub cnt_accepted: u32,
    pub cnt_bad_va: u32,
    pub cnt_bad_op: u32,
}

/// The latched metadata record.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Meta {
    pub opcode: u8,
    pub qp: u32,
    pub psn: u32,
    pub ackreq: bool,
    pub len: u32,
    pub va: u64,
    pub rkey: u32,
    pub dlen: u32,
    pub aeth: u32,
    pub tlm: bool,
    pub tlm_words: [u64; 6],
}

impl Meta {
    pub fn of(i: &In) -> Self {
        Meta {
            opcode: i.meta_opcode,
            qp: i.meta_qp & 0xFF_FFFF,
            psn: i.meta_psn & PSN_MASK,
            ackreq: i.meta_ackreq,
            len: i.meta_len & 0x1FFF,
            va: i.meta_va,
            rkey: i.meta_rkey,
            dlen: i.meta_dlen,
            aeth: i.meta_aeth,
            tlm: i.meta_tlm,
            tlm_words: [
                i.meta_tlm_hdr,
                i.meta_tlm_hop0,
                i.meta_tlm_hop1,
                i.meta_tlm_hop2,
                i.meta_tlm_hop3,
                i.meta_tlm_hop4,
            ],
        }
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum State {
    #[default]
    Idle,
    Look,
    Exec,
    Retry,
    PayWr,
    PayDrop,
}

/// The dispatcher for 2^A flows.
#[derive(Clone, Debug)]
pub struct RoceRxDispatch<const A: usize> {
    pub mem: Vec<Ctx>,
    pub st: State,
    pub m: Meta,
    stale: bool,
    /// log2 MTU latched in `Look` (the RTL computes ceil(dlen/MTU) there).
    mtu_log2: u8,
    ack_v: bool,
    ack_psn: u32,
    ack_aeth: u32,
    arm_ack: bool,
    cc_v: bool,
    arm_cc: bool,
    nak_v: bool,
    rdreq_v: bool,
    rdreq_msn: u32,
    wr_v: bool,
    wr_addr: u64,
    wr_data: u64,
    wr_strb: u8,
    /// Host address of the next payload word.
    pa: u64,
    pub cnt: Counters,
}

impl<const A: usize> Default for RoceRxDispatch<A> {
    fn default() -> Self {
        Self {
            mem: vec![Ctx::default(); 1 << A],
            st: State::Idle,
            m: Meta::default(),
            stale: false,
            mtu_log2: 0,
            ack_v: false,
            ack_psn: 0,
            ack_aeth: 0,
            arm_ack: false,
            cc_v: false,
            arm_cc: false,
            nak_v: false,
            rdreq_v: false,
            rdreq_msn: 0,
            wr_v: false,
            wr_addr: 0,
            wr_data: 0,
            wr_strb: 0,
            pa: 0,
            cnt: Counters::default(),
        }
    }
}

impl<const A: usize> RoceRxDispatch<A> {
    /// A flow's context as the RAM holds it (flows ≥ 2^A: the default).
    pub fn context(&self, flow: usize) -> Ctx {
        self.mem.get(flow).copied().unwrap_or_default()
    }

    fn flow(&self) -> usize {
        (self.m.qp as usize) & ((1usize << A) - 1)
    }

    /// `Exec`: the transaction-level rules ([`decide`]) on the latched
    /// record and the flow's context word, counted.
    fn exec(&mut self) -> Decision {
        let m = self.m;
        let h = RxHeader {
            opcode: m.opcode,
            qp: m.qp,
            psn: m.psn,
            ackreq: m.ackreq,
            len: m.len,
            va: m.va,
            rkey: m.rkey,
            dlen: m.dlen,
            aeth: m.aeth,
            tlm: m.tlm,
        };
        let d = decide(A as u32, self.mtu_log2, &self.mem[self.flow()], &h);
        self.cnt.count(d.drop);
        d
    }
}

impl<const A: usize> Cycle for RoceRxDispatch<A> {
    type In = In;
    type Out = Out;
    fn step(&mut self, i: &In) -> Out {
        let fm = (1u32 << A) - 1;
        let m = self.m;
        let flow = m.qp & fm;
        let ev_free = (!self.ack_v || i.ack_ready)
            && (!self.cc_v || i.cc_ready)
            && (!self.nak_v || i.nak_ready)
            && (!self.rdreq_v || i.rdreq_ready);
        let meta_ready = !i.reset && self.st == State::Idle && ev_free;
        let pay_tready = !i.reset
            && match self.st {
                State::PayDrop => true,
                State::PayWr => !self.wr_v || i.wr_ready,
                _ => false,
            };
        let tlm = |v: bool, k: usize| if v && m.tlm { m.tlm_words[k] } else { 0 };
        let (av, cv) = (self.ack_v, self.cc_v);
        let o = Out {
            meta_ready,
            pay_tready,
            wr_valid: self.wr_v,
            wr_addr: if self.wr_v { self.wr_addr } else { 0 },
            wr_data: if self.wr_v { self.wr_data } else { 0 },
            wr_strb: if self.wr_v { self.wr_strb } else { 0 },
            ack_valid: av,
            ack_flow: if av { flow } else { 0 },
            ack_psn: if av { self.ack_psn } else { 0 },
            ack_aeth: if av { self.ack_aeth } else { 0 },
            ack_tlm: av && m.tlm,
            ack_tlm_hdr: tlm(av, 0),
            ack_tlm_hop0: tlm(av, 1),
            ack_tlm_hop1: tlm(av, 2),
            ack_tlm_hop2: tlm(av, 3),
            ack_tlm_hop3: tlm(av, 4),
            ack_tlm_hop4: tlm(av, 5),
            cc_valid: cv,
            cc_flow: if cv { flow } else { 0 },
            cc_psn: if cv { m.psn } else { 0 },
            cc_aeth: if cv { m.aeth } else { 0 },
            cc_opcode: if cv { m.opcode } else { 0 },
            cc_tlm: cv && m.tlm,
            cc_tlm_hdr: tlm(cv, 0),
            cc_tlm_hop0: tlm(cv, 1),
            cc_tlm_hop1: tlm(cv, 2),
            cc_tlm_hop2: tlm(cv, 3),
            cc_tlm_hop3: tlm(cv, 4),
            cc_tlm_hop4: tlm(cv, 5),
            nak_valid: self.nak_v,
            nak_flow: if self.nak_v { flow } else { 0 },
            nak_psn: if self.nak_v { m.psn } else { 0 },
            rdreq_valid: self.rdreq_v,
            rdreq_flow: if self.rdreq_v { flow } else { 0 },
            rdreq_psn: if self.rdreq_v { m.psn } else { 0 },
            rdreq_va: if self.rdreq_v { m.va } else { 0 },
            rdreq_rkey: if self.rdreq_v { m.rkey } else { 0 },
            rdreq_len: if self.rdreq_v { m.dlen } else { 0 },
            rdreq_msn: if self.rdreq_v { self.rdreq_msn } else { 0 },
            cnt_unknown_flow: self.cnt.unknown_flow as u32,
            cnt_oos: self.cnt.oos as u32,
            cnt_dup: self.cnt.dup as u32,
            cnt_bad_psn: self.cnt.bad_psn as u32,
            cnt_accepted: self.cnt.accepted as u32,
            cnt_bad_va: self.cnt.bad_va as u32,
            cnt_bad_op: self.cnt.bad_op as u32,
        };

        // The next state (every register, from this cycle's values).
        let stale_in = self.stale;
        self.stale = i.cfg_we || (self.st == State::Look && stale_in);
        if i.reset {
            self.st = State::Idle;
            self.ack_v = false;
            self.arm_ack = false;
            self.cc_v = false;
            self.arm_cc = false;
            self.nak_v = false;
            self.rdreq_v = false;
            self.wr_v = false;
            self.cnt = Counters::default();
        } else {
            // Events taken this cycle (none is set while valid).
            if self.ack_v && i.ack_ready {
                self.ack_v = false;
            }
            if self.cc_v && i.cc_ready {
                self.cc_v = false;
            }
            if self.nak_v && i.nak_ready {
                self.nak_v = false;
            }
            if self.rdreq_v && i.rdreq_ready {
                self.rdreq_v = false;
            }
            let pay_hs = pay_tready && i.pay_tvalid;
            if self.wr_v && i.wr_ready {
                self.wr_v = false;
            }
            match self.st {
                State::Idle => {
                    if meta_ready && i.meta_valid {
                        self.m = Meta::of(i);
                        self.st = State::Look;
                    }
                }
                State::Retry => self.st = State::Look,
                State::Look => {
                    self.mtu_log2 = i.cfg_mtu_log2 & 0xF;
                    self.st = State::Exec;
                }
                State::Exec => {
                    if stale_in || i.cfg_we {
                        self.st = State::Retry;
                    } else {
                        let d = self.exec();
                        if d.write {
                            let f = self.flow();
                            self.mem[f] = d.ctx;
                        }
                        if let Some((psn, aeth)) = d.ack {
                            self.ack_psn = psn;
                            self.ack_aeth = aeth;
                        }
                        // Every event register is free here: the record
                        // was accepted only when each was free or taken.
                        let defer = d.pay_to.is_some();
                        self.ack_v |= d.ack.is_some() && !defer;
                        self.arm_ack = d.ack.is_some() && defer;
                        self.cc_v |= d.cc && !defer;
                        self.arm_cc = d.cc && defer;
                        self.nak_v |= d.nak;
                        self.rdreq_v |= d.rdreq.is_some();
                        if let Some(msn) = d.rdreq {
                            self.rdreq_msn = msn;
                        }
                        self.pa = d.pay_to.unwrap_or(0);
                        self.st = if m.len == 0 {
                            State::Idle
                        } else if defer {
                            State::PayWr
                        } else {
                            State::PayDrop
                        };
                    }
                }
                State::PayWr => {
                    if pay_hs {
                        self.wr_v = true;
                        self.wr_addr = self.pa;
                        self.wr_data = i.pay_tdata;
                        self.wr_strb = i.pay_tkeep;
                        self.pa = self.pa.wrapping_add(8);
                        if i.pay_tlast {
                            self.ack_v |= self.arm_ack;
                            self.cc_v |= self.arm_cc;
                            self.arm_ack = false;
                            self.arm_cc = false;
                            self.st = State::Idle;
                        }
                    }
                }
                State::PayDrop => {
                    if pay_hs && i.pay_tlast {
                        self.st = State::Idle;
                    }
                }
            }
        }
        if i.cfg_we && i.cfg_rd_only {
            let c = &mut self.mem[(i.cfg_flow & fm) as usize];
            c.rd_addr = i.cfg_rd_addr;
            c.rd_psn = i.cfg_rd_psn & PSN_MASK;
        } else if i.cfg_we {
            self.mem[(i.cfg_flow & fm) as usize] = Ctx {
                valid: i.cfg_valid,
                nak_sent: false,
                epsn: i.cfg_epsn & PSN_MASK,
                msn: 0,
                wr_va: 0,
                rd_addr: i.cfg_rd_addr,
                rd_psn: i.cfg_rd_psn & PSN_MASK,
            };
        }
        o
    }
}
