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

pub const OP_WRITE_FIRST: u8 = 0x06;
pub const OP_WRITE_MIDDLE: u8 = 0x07;
pub const OP_WRITE_LAST: u8 = 0x08;
pub const OP_WRITE_ONLY: u8 = 0x0A;
pub const OP_READ_REQUEST: u8 = 0x0C;
pub const OP_READ_RESP_FIRST: u8 = 0x0D;
pub const OP_READ_RESP_MIDDLE: u8 = 0x0E;
pub const OP_READ_RESP_LAST: u8 = 0x0F;
pub const OP_READ_RESP_ONLY: u8 = 0x10;
pub const OP_ACK: u8 = 0x11;
pub const OP_PROBE: u8 = 0xC0;
pub const OP_NOTIFY: u8 = 0xC1;

/// AETH syndromes.
pub const SYN_ACK: u32 = 0x1F;
pub const SYN_NAK_PSN: u32 = 0x60;
pub const SYN_NAK_INV: u32 = 0x61;

/// A PSN at distance 1 ≤ d < `PSN_WINDOW` ahead of the expected one is
/// out of sequence (a loss); at distance ≥ 2^24 − `PSN_WINDOW`, a duplicate.
pub const PSN_WINDOW: u32 = 1 << 12;
const PSN_MASK: u32 = 0xFF_FFFF;

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

/// One flow's context (the RTL's six RAMs at one address).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Ctx {
    pub valid: bool,
    pub nak_sent: bool,
    pub epsn: u32,
    pub msn: u32,
    pub wr_va: u64,
    pub rd_addr: u64,
    pub rd_psn: u32,
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

/// Counters, as on the ports.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counters {
    pub unknown_flow: u32,
    pub oos: u32,
    pub dup: u32,
    pub bad_psn: u32,
    pub accepted: u32,
    pub bad_va: u32,
    pub bad_op: u32,
}

/// Opcode in the table of docs/roce.md §1 (and, for an ACKNOWLEDGE, a
/// syndrome that is an ACK, 0x00..=0x1F, or a NAK, 0x60..=0x7F).
pub fn op_ok(opcode: u8, aeth: u32) -> bool {
    match opcode {
        0x06 | 0x07 | 0x08 | 0x0A | 0x0C | 0x0D..=0x10 | 0xC0 | 0xC1 => true,
        0x11 => matches!(aeth >> 29, 0 | 3),
        _ => false,
    }
}

/// PSNs a READ REQUEST of `dlen` bytes consumes: ceil(dlen / MTU) mod
/// 2^24, and 1 if that is 0. `mtu_log2` is clamped to 8..=12.
pub fn read_psns(dlen: u32, mtu_log2: u8) -> u32 {
    let m = mtu_log2.clamp(8, 12) as u32;
    let n = ((dlen as u64 + (1u64 << m) - 1) >> m) as u32 & PSN_MASK;
    if n == 0 {
        1
    } else {
        n
    }
}

/// The dispatcher for 2^A flows.
#[derive(Clone, Debug)]
pub struct RoceRxDispatch<const A: usize> {
    pub mem: Vec<Ctx>,
    pub st: State,
    pub m: Meta,
    stale: bool,
    /// ceil(dlen/MTU) computed in `Look`.
    inc: u32,
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
            inc: 0,
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

/// What `Exec` decided for one packet.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Decision {
    ctx: Ctx,
    write: bool,
    ack: Option<(u32, u32)>,
    cc: bool,
    nak: bool,
    rdreq: bool,
    rdreq_msn: u32,
    /// Payload to the host from this address.
    pay_to: Option<u64>,
}

impl<const A: usize> RoceRxDispatch<A> {
    /// A flow's context as the RAM holds it (flows ≥ 2^A: the default).
    pub fn context(&self, flow: usize) -> Ctx {
        self.mem.get(flow).copied().unwrap_or_default()
    }

    fn flow(&self) -> usize {
        (self.m.qp as usize) & ((1usize << A) - 1)
    }

    fn exec(&mut self) -> Decision {
        let m = self.m;
        let c = self.mem[self.flow()];
        let mut d = Decision {
            ctx: c,
            ..Decision::default()
        };
        let cnt = &mut self.cnt;
        if !op_ok(m.opcode, m.aeth) {
            cnt.bad_op = cnt.bad_op.wrapping_add(1);
            return d;
        }
        if (m.qp >> A) != 0 || !c.valid {
            cnt.unknown_flow = cnt.unknown_flow.wrapping_add(1);
            return d;
        }
        d.write = true;
        let aeth = |syn: u32, msn: u32| (syn << 24) | (msn & PSN_MASK);
        let op = m.opcode;
        match op {
            OP_WRITE_FIRST | OP_WRITE_MIDDLE | OP_WRITE_LAST | OP_WRITE_ONLY | OP_READ_REQUEST => {
                let dist = m.psn.wrapping_sub(c.epsn) & PSN_MASK;
                if dist == 0 {
                    let va = if matches!(op, OP_WRITE_FIRST | OP_WRITE_ONLY | OP_READ_REQUEST) {
                        m.va
                    } else {
                        c.wr_va
                    };
                    // The address matters only if data moves.
                    let dlen = if op == OP_READ_REQUEST { m.dlen } else { m.len };
                    if va & 7 != 0 && dlen != 0 {
                        cnt.bad_va = cnt.bad_va.wrapping_add(1);
                        d.ack = Some((m.psn, aeth(SYN_NAK_INV, c.msn)));
                        d.ctx.nak_sent = true;
                        return d;
                    }
                    cnt.accepted = cnt.accepted.wrapping_add(1);
                    d.ctx.nak_sent = false;
                    if matches!(op, OP_WRITE_LAST | OP_WRITE_ONLY | OP_READ_REQUEST) {
                        d.ctx.msn = (c.msn + 1) & PSN_MASK;
                    }
                    if op == OP_READ_REQUEST {
                        d.ctx.epsn = (c.epsn + self.inc) & PSN_MASK;
                        d.rdreq = true;
                        d.rdreq_msn = d.ctx.msn;
                    } else {
                        d.ctx.epsn = (c.epsn + 1) & PSN_MASK;
                        d.ctx.wr_va = va.wrapping_add(m.len as u64);
                        if m.ackreq || m.tlm {
                            d.ack = Some((m.psn, aeth(SYN_ACK, d.ctx.msn)));
                        }
                        if m.len != 0 {
                            d.pay_to = Some(va);
                        }
                    }
                } else if dist < PSN_WINDOW {
                    cnt.oos = cnt.oos.wrapping_add(1);
                    if !c.nak_sent {
                        d.ack = Some((c.epsn, aeth(SYN_NAK_PSN, c.msn)));
                        d.ctx.nak_sent = true;
                    }
                } else if dist >= (1 << 24) - PSN_WINDOW {
                    cnt.dup = cnt.dup.wrapping_add(1);
                    if op == OP_READ_REQUEST {
                        // Executed again (its responses may have been
                        // lost), unless the VA is unaligned.
                        d.rdreq = m.va & 7 == 0 || m.dlen == 0;
                        d.rdreq_msn = c.msn;
                    } else {
                        d.ack = Some(((c.epsn.wrapping_sub(1)) & PSN_MASK, aeth(SYN_ACK, c.msn)));
                    }
                } else {
                    cnt.bad_psn = cnt.bad_psn.wrapping_add(1);
                }
            }
            OP_READ_RESP_FIRST | OP_READ_RESP_MIDDLE | OP_READ_RESP_LAST | OP_READ_RESP_ONLY => {
                if m.psn != c.rd_psn {
                    cnt.oos = cnt.oos.wrapping_add(1);
                } else if c.rd_addr & 7 != 0 && m.len != 0 {
                    cnt.bad_va = cnt.bad_va.wrapping_add(1);
                } else {
                    cnt.accepted = cnt.accepted.wrapping_add(1);
                    d.ctx.rd_addr = c.rd_addr.wrapping_add(m.len as u64);
                    d.ctx.rd_psn = (c.rd_psn + 1) & PSN_MASK;
                    d.cc = op != OP_READ_RESP_MIDDLE;
                    if m.len != 0 {
                        d.pay_to = Some(c.rd_addr);
                    }
                }
            }
            OP_ACK => {
                cnt.accepted = cnt.accepted.wrapping_add(1);
                if m.aeth >> 29 == 0 {
                    d.cc = true;
                } else {
                    d.nak = true;
                }
            }
            OP_NOTIFY => {
                cnt.accepted = cnt.accepted.wrapping_add(1);
                d.cc = true;
            }
            OP_PROBE => {
                cnt.accepted = cnt.accepted.wrapping_add(1);
                d.ack = Some(((c.epsn.wrapping_sub(1)) & PSN_MASK, aeth(SYN_ACK, c.msn)));
            }
            _ => unreachable!(),
        }
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
            cnt_unknown_flow: self.cnt.unknown_flow,
            cnt_oos: self.cnt.oos,
            cnt_dup: self.cnt.dup,
            cnt_bad_psn: self.cnt.bad_psn,
            cnt_accepted: self.cnt.accepted,
            cnt_bad_va: self.cnt.bad_va,
            cnt_bad_op: self.cnt.bad_op,
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
                    self.inc = read_psns(m.dlen, i.cfg_mtu_log2 & 0xF);
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
                        self.rdreq_v |= d.rdreq;
                        if d.rdreq {
                            self.rdreq_msn = d.rdreq_msn;
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
