//! [`RxDispatchModel`]: the receiving side's per-flow transport state and the
//! dispatch rules of `docs/roce.md` §8, one checked packet at a time (the
//! transaction-level twin of `hdl/src/roce/rx_dispatch.rs`: same state, same
//! decisions, same counters; events instead of ports, whole payloads instead
//! of 64-bit words).
//!
//! Decisions where §8 leaves room or cannot work as written:
//! - A *duplicate READ REQUEST* (2^24 − 2^12 ≤ d) is re-executed: a
//!   [`ReadReq`] with the request's own PSN / VA / length (epsn and MSN
//!   unchanged), no ACK, counted in `dup`. §8 as written only re-acknowledges
//!   duplicates, and then a READ whose responses were lost could never be
//!   completed (the requester's retransmission re-sends the READ REQUEST with
//!   its old PSN, which is a duplicate by then). This is InfiniBand's rule too.
//! - [`ReadReq`] carries the responder's MSN (after the request), which the
//!   READ RESPONSE's AETH needs: a `rdreq_msn: 24` port the contract lacks.
//! - READ tracking, up to [`READS_IN_FLIGHT`] READs per flow: the requester
//!   writes one landing entry per READ ([`RxDispatchModel::set_read`], the
//!   RTL's `rd_only` write: entry `idx` mod 8, lap `idx` bit 3, the READ's
//!   first response PSN and local address) before its first REQUEST, while
//!   the responder state of the same flow (epsn, msn, …) lives on. The
//!   flow's position (`rd_psn`, `rd_addr`, `rd_done`, `rd_idx`) is the
//!   dispatcher's own: inside a READ (`rd_done` clear) the response at
//!   `rd_psn` lands at `rd_addr`; between READs (`rd_done` set) the
//!   response whose PSN is entry `rd_idx`'s (and whose lap matches) lands
//!   at the entry's address, and `rd_idx` moves on. A LAST or ONLY
//!   response sets `rd_done`. A whole-context write (flow set-up) starts
//!   between READs at entry 0; the entries are not cleared (the lap and
//!   the PSN reject an old one).
//! - ACK syndromes: bits 7..5 = 000 is an ACK (`cc`), 011 a NAK (`nak`);
//!   other classes (RNR, reserved) are dropped as `bad_op`, as the RTL does.
//! - An ACK or NAK request carries the echo of the packet it answers if
//!   that packet had T = 1 (also for duplicates and for the packet that
//!   triggered a NAK), as the RTL dispatcher does.
//! - `accepted` counts every packet of a known flow that was not dropped
//!   (responder and requester side, ACKs and probes included).
//! - A CNP (0x81) of a known flow is accepted and becomes a [`RxEvent::Cnp`]
//!   for the flow's DCQCN reaction point; it changes no transport state and
//!   takes no PSN (its BTH PSN is ignored). A CNP of an unknown QP is
//!   `unknown_flow`, like any packet.
//! - A packet of a known DCQCN flow (`cnp_on_ce` in its context) whose
//!   IPv4 ECN field is CE (and that is not a CNP) also gives a
//!   [`RxEvent::CeMark`] for the notification point, whatever its PSN
//!   decision (a duplicate or a loss was congested too). An HPCC++ flow's
//!   CE marks are ignored (HPCC++ reads telemetry, not ECN).
//! - The rules are [`decide`], written once: this model and the RTL
//!   dispatcher's cycle twin both call it.

use crate::roce::packet::{op, syndrome, Packet, Tlm};
use crate::roce::{RxMeta, Telemetry};
use nic_spec::roce::{aeth, aeth_class, AETH_CLASS_ACK, AETH_CLASS_NAK, READS_IN_FLIGHT};
pub use nic_spec::roce::{RxDrop, PSN_MASK, PSN_WINDOW};

/// An ACK or NAK the Tx side is asked to send (`ack_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AckReq {
    pub flow: u32,
    pub psn: u32,
    /// syndrome << 24 | MSN.
    pub aeth: u32,
    /// The echoed telemetry area (T = 1), if any.
    pub tlm: Option<Tlm>,
}

/// A congestion-control event for the requester's CC (`cc_*`): an ACK,
/// a READ RESPONSE (any: the requester counts them), or a NOTIFY.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CcEvent {
    pub flow: u32,
    pub psn: u32,
    pub aeth: u32,
    pub opcode: u8,
    pub tlm: Option<Tlm>,
}

/// A READ to execute at the responder (`rdreq_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReadReq {
    pub flow: u32,
    /// PSN of the first response.
    pub psn: u32,
    pub va: u64,
    pub rkey: u32,
    pub len: u32,
    /// The responder's MSN for the responses' AETH (see the module doc).
    pub msn: u32,
}

/// What the receive side produces for one frame.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RxEvent {
    /// Payload to host memory (`wr_*`): `data` at `addr` (8-aligned when
    /// the senders keep the design restriction of 8-aligned VAs).
    HostWrite {
        addr: u64,
        data: Vec<u8>,
    },
    Ack(AckReq),
    Cc(CcEvent),
    /// A NAK from the peer (`nak_*`): a PSN sequence error goes back to
    /// `psn`; any other syndrome ends the flow's work request with an
    /// error (`nic_spec::roce::wr::Status::of_nak`).
    Nak {
        flow: u32,
        psn: u32,
        syndrome: u8,
    },
    ReadReq(ReadReq),
    /// A CNP for the flow: its reaction point cuts its rate (`m_cnp`).
    Cnp {
        flow: u32,
    },
    /// The packet arrived with ECN = CE: the notification point may send
    /// the flow's sender a CNP (`m_ce`).
    CeMark {
        flow: u32,
    },
    /// The frame or packet was dropped (a duplicate may also produce an
    /// [`RxEvent::Ack`]).
    Drop(RxDrop),
}

/// Control-port write of one flow (§8 `cfg_*`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FlowCfg {
    pub valid: bool,
    pub epsn: u32,
    pub rd_addr: u64,
    pub rd_psn: u32,
    /// The flow runs DCQCN: its CE-marked packets give a [`RxEvent::CeMark`].
    pub cnp_on_ce: bool,
}

/// One flow's receive context: what the RTL's context RAM holds at the
/// flow's address.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Ctx {
    /// The flow exists (created by a control write).
    pub valid: bool,
    /// A NAK (sequence error) was sent and no packet accepted since.
    pub nak_sent: bool,
    /// Expected PSN.
    pub epsn: u32,
    /// Message sequence number (24 bits).
    pub msn: u32,
    /// Host address of the next WRITE MIDDLE/LAST payload.
    pub wr_va: u64,
    /// The bytes the WRITE in progress may still carry: its FIRST's RETH
    /// DMA length less the payload accepted since (0 if the FIRST was
    /// longer), 0 after a LAST or ONLY and at set-up. A MIDDLE or LAST
    /// longer than this is refused (invalid request): it would land past
    /// the range the FIRST was granted.
    pub wr_left: u32,
    /// Requester side: where the next READ RESPONSE payload lands (inside
    /// a READ).
    pub rd_addr: u64,
    /// Requester side: the PSN of the next READ RESPONSE expected (inside
    /// a READ).
    pub rd_psn: u32,
    /// Requester side: between READs (the last response taken was a LAST
    /// or ONLY, or none since set-up): the next response starts the READ
    /// of entry `rd_idx`.
    pub rd_done: bool,
    /// Requester side: READs started, mod 16 (entry = bits 2..0, lap = bit 3).
    pub rd_idx: u32,
    /// The flow runs DCQCN (CE marks go to the notification point).
    pub cnp_on_ce: bool,
    /// The READ landing entries, written by the requester (`rd_only`);
    /// the RTL keeps them in RAMs of their own, which nothing but that
    /// write changes.
    pub rd_tab: [RdEntry; READS_IN_FLIGHT as usize],
}

/// One READ's landing entry: the PSN of its first response and where its
/// data goes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RdEntry {
    /// Bit 3 of the requester's READ counter when it wrote the entry.
    pub lap: bool,
    pub psn: u32,
    pub addr: u64,
}

impl Ctx {
    /// The flow set-up's context (a whole-context write): `nak_sent`,
    /// `msn` and `wr_va` cleared, between READs at entry 0, the landing
    /// entries kept.
    pub fn set_up(&mut self, c: &FlowCfg) {
        *self = Ctx {
            valid: c.valid,
            epsn: c.epsn & PSN_MASK,
            nak_sent: false,
            wr_va: 0,
            wr_left: 0,
            msn: 0,
            rd_addr: c.rd_addr,
            rd_psn: c.rd_psn & PSN_MASK,
            rd_done: true,
            rd_idx: 0,
            cnp_on_ce: c.cnp_on_ce,
            rd_tab: self.rd_tab,
        };
    }

    /// The requester's write of READ `idx`'s landing entry.
    pub fn set_read(&mut self, idx: u32, rd_addr: u64, rd_psn: u32) {
        self.rd_tab[(idx % READS_IN_FLIGHT) as usize] = RdEntry {
            lap: (idx >> 3) & 1 == 1,
            psn: rd_psn & PSN_MASK,
            addr: rd_addr,
        };
    }
}

/// What the rules decide for one packet: the verdict, the context to
/// write back, at most one event, and where the payload goes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Decision {
    /// `None`: accepted; otherwise the counted reason.
    pub drop: Option<RxDrop>,
    /// Write `ctx` back (the flow is known and the opcode handled).
    pub write: bool,
    pub ctx: Ctx,
    /// An ACK or NAK to send: (BTH PSN, AETH).
    pub ack: Option<(u32, u32)>,
    /// A CC event (ACK, READ RESPONSE, NOTIFY).
    pub cc: bool,
    /// A NAK received: go back to the packet's PSN.
    pub nak: bool,
    /// A READ to execute, with the responder's MSN for its responses.
    pub rdreq: Option<u32>,
    /// The payload goes to host memory from this address.
    pub pay_to: Option<u64>,
    /// A CNP for the flow (to its reaction point).
    pub cnp: bool,
    /// The packet was CE-marked (to the notification point).
    pub ce: bool,
}

/// The dispatcher's opcode rule: a WRITE, READ REQUEST, READ RESPONSE,
/// PROBE or NOTIFY; or an ACKNOWLEDGE whose syndrome is an ACK or a NAK.
pub fn op_ok(opcode: u8, aeth: u32) -> bool {
    match opcode {
        op::ACK | op::ACK_TLM => matches!(aeth_class(aeth), AETH_CLASS_ACK | AETH_CLASS_NAK),
        _ => nic_spec::roce::known_opcode(opcode),
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

/// The receive rules of §8 for one packet of flow context `c` (the word
/// at `h.qp`'s address; `flow_bits` = A, the flows being 0..2^A): the
/// one place they are written. [`RxDispatchModel`] applies them to
/// decoded packets, and the cycle twin of the RTL dispatcher
/// (`crate::roce::rx_dispatch`) to its latched record.
pub fn decide(flow_bits: u32, mtu_log2: u8, c: &Ctx, h: &RxMeta) -> Decision {
    let mut d = Decision {
        ctx: *c,
        ..Decision::default()
    };
    if !op_ok(h.opcode, h.aeth) {
        d.drop = Some(RxDrop::BadOp);
        return d;
    }
    if (h.qp >> flow_bits) != 0 || !c.valid {
        d.drop = Some(RxDrop::UnknownFlow);
        return d;
    }
    d.write = true;
    let opc = h.opcode;
    d.ce = h.ce && c.cnp_on_ce && opc != op::CNP;
    match opc {
        op::WRITE_FIRST | op::WRITE_MIDDLE | op::WRITE_LAST | op::WRITE_ONLY | op::READ_REQ => {
            let dist = h.psn.wrapping_sub(c.epsn) & PSN_MASK;
            if dist == 0 {
                let va = if nic_spec::roce::has_reth(opc) {
                    h.va
                } else {
                    c.wr_va
                };
                // The address matters only if data moves.
                let dlen = if opc == op::READ_REQ {
                    h.dlen
                } else {
                    u32::from(h.len)
                };
                // A request the memory-region check refused (`h.mr`), a
                // MIDDLE or LAST past its WRITE's DMA length, or data to an
                // unaligned address: a NAK, nothing moves.
                let over = matches!(opc, op::WRITE_MIDDLE | op::WRITE_LAST)
                    && u32::from(h.len) > c.wr_left;
                let refused = h.mr != 0 || over;
                if refused || (va & 7 != 0 && dlen != 0) {
                    let syn = if h.mr == nic_spec::mr::verdict::ACCESS {
                        syndrome::NAK_ACCESS
                    } else {
                        syndrome::NAK_INVALID
                    };
                    d.drop = Some(if refused {
                        RxDrop::Refused
                    } else {
                        RxDrop::BadVa
                    });
                    d.ack = Some((h.psn, aeth(syn, c.msn)));
                    d.ctx.nak_sent = true;
                    return d;
                }
                d.ctx.nak_sent = false;
                if matches!(opc, op::WRITE_LAST | op::WRITE_ONLY | op::READ_REQ) {
                    d.ctx.msn = (c.msn + 1) & PSN_MASK;
                }
                if opc == op::READ_REQ {
                    d.ctx.epsn = (c.epsn + read_psns(h.dlen, mtu_log2)) & PSN_MASK;
                    d.rdreq = Some(d.ctx.msn);
                } else {
                    d.ctx.epsn = (c.epsn + 1) & PSN_MASK;
                    d.ctx.wr_va = va.wrapping_add(u32::from(h.len) as u64);
                    d.ctx.wr_left = match opc {
                        op::WRITE_FIRST => h.dlen.saturating_sub(u32::from(h.len)),
                        op::WRITE_MIDDLE => c.wr_left - u32::from(h.len),
                        _ => 0,
                    };
                    if h.ackreq || h.tlm.present {
                        d.ack = Some((h.psn, aeth(syndrome::ACK, d.ctx.msn)));
                    }
                    if u32::from(h.len) != 0 {
                        d.pay_to = Some(va);
                    }
                }
            } else if dist < PSN_WINDOW {
                d.drop = Some(RxDrop::Oos);
                if !c.nak_sent {
                    d.ack = Some((c.epsn, aeth(syndrome::NAK_SEQ, c.msn)));
                    d.ctx.nak_sent = true;
                }
            } else if dist >= (1 << 24) - PSN_WINDOW {
                d.drop = Some(RxDrop::Dup);
                if opc == op::READ_REQ {
                    // Executed again (its responses may have been lost),
                    // unless the VA is unaligned or the check refused it.
                    if h.mr == 0 && (h.va & 7 == 0 || h.dlen == 0) {
                        d.rdreq = Some(c.msn);
                    }
                } else {
                    d.ack = Some((
                        c.epsn.wrapping_sub(1) & PSN_MASK,
                        aeth(syndrome::ACK, c.msn),
                    ));
                }
            } else {
                d.drop = Some(RxDrop::BadPsn);
            }
        }
        op::READ_RESP_FIRST | op::READ_RESP_MIDDLE | op::READ_RESP_LAST | op::READ_RESP_ONLY => {
            // Inside a READ: the next PSN at the running address;
            // between READs: the next entry's first PSN at its address.
            let e = c.rd_tab[(c.rd_idx % READS_IN_FLIGHT) as usize];
            let (hit, base) = if c.rd_done {
                (
                    e.lap == ((c.rd_idx >> 3) & 1 == 1) && h.psn == e.psn,
                    e.addr,
                )
            } else {
                (h.psn == c.rd_psn, c.rd_addr)
            };
            if !hit {
                d.drop = Some(RxDrop::Oos);
            } else if base & 7 != 0 && u32::from(h.len) != 0 {
                d.drop = Some(RxDrop::BadVa);
            } else {
                d.ctx.rd_addr = base.wrapping_add(u32::from(h.len) as u64);
                d.ctx.rd_psn = (h.psn + 1) & PSN_MASK;
                d.ctx.rd_done = matches!(h.opcode, op::READ_RESP_LAST | op::READ_RESP_ONLY);
                if c.rd_done {
                    d.ctx.rd_idx = (c.rd_idx + 1) & 15;
                }
                d.cc = true;
                if u32::from(h.len) != 0 {
                    d.pay_to = Some(base);
                }
            }
        }
        op::ACK | op::ACK_TLM => {
            if aeth_class(h.aeth) == AETH_CLASS_ACK {
                d.cc = true;
            } else {
                d.nak = true;
            }
        }
        op::NOTIFY => d.cc = true,
        op::CNP => d.cnp = true,
        op::PROBE => {
            d.ack = Some((
                c.epsn.wrapping_sub(1) & PSN_MASK,
                aeth(syndrome::ACK, c.msn),
            ));
        }
        _ => unreachable!("op_ok passed only the opcodes above"),
    }
    d
}

/// §8's counters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DispatchCounters {
    pub unknown_flow: u64,
    pub oos: u64,
    pub dup: u64,
    pub bad_psn: u64,
    pub accepted: u64,
    pub bad_va: u64,
    pub bad_op: u64,
    pub refused: u64,
}

impl DispatchCounters {
    /// Count one decision.
    pub fn count(&mut self, drop: Option<RxDrop>) {
        let c = match drop {
            None => &mut self.accepted,
            Some(RxDrop::UnknownFlow) => &mut self.unknown_flow,
            Some(RxDrop::Oos) => &mut self.oos,
            Some(RxDrop::Dup) => &mut self.dup,
            Some(RxDrop::BadPsn) => &mut self.bad_psn,
            Some(RxDrop::BadVa) => &mut self.bad_va,
            Some(RxDrop::Refused) => &mut self.refused,
            Some(RxDrop::BadOp) | Some(RxDrop::Parse(_)) => &mut self.bad_op,
        };
        *c += 1;
    }
}

/// The dispatcher: `2^flow_bits` flows, MTU `2^mtu_log2`.
#[derive(Clone, Debug)]
pub struct RxDispatchModel {
    flows: Vec<Ctx>,
    flow_bits: u32,
    mtu_log2: u32,
    pub counters: DispatchCounters,
}

impl RxDispatchModel {
    /// `flow_bits` ≤ 16, `mtu_log2` in 8..=12 (clamped).
    pub fn new(flow_bits: u32, mtu_log2: u32) -> Self {
        let flow_bits = flow_bits.min(16);
        RxDispatchModel {
            flows: vec![Ctx::default(); 1 << flow_bits],
            flow_bits,
            mtu_log2: mtu_log2.clamp(8, 12),
            counters: DispatchCounters::default(),
        }
    }

    /// Control port: create (`valid`) or remove a flow, all fields written.
    /// `nak_sent`, `wr_va` and `msn` are cleared. Flows out of range ignored.
    pub fn configure(&mut self, flow: u32, c: &FlowCfg) {
        if let Some(f) = self.flows.get_mut(flow as usize) {
            f.set_up(c);
        }
    }

    /// The requester's landing entry of READ `idx` (mod 16): where its
    /// responses land and the PSN of its first (see the module doc).
    pub fn set_read(&mut self, flow: u32, idx: u32, rd_addr: u64, rd_psn: u32) {
        if let Some(f) = self.flows.get_mut(flow as usize) {
            f.set_read(idx, rd_addr, rd_psn);
        }
    }

    /// Every flow's context (for checks: a dropped packet changes none).
    pub fn contexts(&self) -> &[Ctx] {
        &self.flows
    }

    /// Load every flow's context (`ctx[f]` for flow f; the rest kept):
    /// to follow a cycle-level dispatcher through traffic this model
    /// cannot see frame by frame (frames a full receive buffer dropped).
    pub fn load_contexts(&mut self, ctx: &[Ctx]) {
        for (f, c) in self.flows.iter_mut().zip(ctx) {
            *f = *c;
        }
    }

    /// The responder's expected PSN of a flow (for tests and reports).
    pub fn epsn(&self, flow: u32) -> Option<u32> {
        self.flows.get(flow as usize).map(|f| f.epsn)
    }

    /// One packet that passed the parser: [`decide`], then its events in
    /// this order: the drop (if any), the host write, the ACK/NAK request,
    /// the CC event, the NAK received, the READ to execute, the CNP
    /// received, the CE mark.
    pub fn dispatch(&mut self, p: &Packet) -> Vec<RxEvent> {
        self.dispatch_checked(p, 0)
    }

    /// [`RxDispatchModel::dispatch`] of a packet the memory-region check
    /// judged: `mr` is its verdict (`nic_spec::mr::verdict`; 0 granted).
    pub fn dispatch_checked(&mut self, p: &Packet, mr: u8) -> Vec<RxEvent> {
        let reth = p.reth.unwrap_or_default();
        let h = RxMeta {
            opcode: p.opcode,
            qp: p.dqp,
            psn: p.psn & PSN_MASK,
            ackreq: p.ackreq,
            len: p.payload.len() as u16,
            va: reth.va,
            rkey: reth.rkey,
            dlen: reth.dlen,
            aeth: p.aeth.unwrap_or(0),
            ce: p.tos & 3 == 3,
            mr,
            // Only the T bit is read by the rules.
            tlm: Telemetry {
                present: p.tlm.is_some(),
                ..Default::default()
            },
        };
        let flow = p.dqp;
        let c = self.flows.get(flow as usize).copied().unwrap_or_default();
        let d = decide(self.flow_bits, self.mtu_log2 as u8, &c, &h);
        self.counters.count(d.drop);
        if d.write {
            self.flows[flow as usize] = d.ctx;
        }
        let mut ev = Vec::new();
        if let Some(r) = d.drop {
            ev.push(RxEvent::Drop(r));
        }
        if let Some(addr) = d.pay_to {
            ev.push(RxEvent::HostWrite {
                addr,
                data: p.payload.clone(),
            });
        }
        if let Some((psn, aeth)) = d.ack {
            ev.push(RxEvent::Ack(AckReq {
                flow,
                psn,
                aeth,
                tlm: p.tlm,
            }));
        }
        if d.cc {
            ev.push(RxEvent::Cc(CcEvent {
                flow,
                psn: h.psn,
                aeth: h.aeth,
                opcode: p.opcode,
                tlm: p.tlm,
            }));
        }
        if d.nak {
            ev.push(RxEvent::Nak {
                flow,
                psn: h.psn,
                syndrome: (h.aeth >> 24) as u8,
            });
        }
        if let Some(msn) = d.rdreq {
            ev.push(RxEvent::ReadReq(ReadReq {
                flow,
                psn: h.psn,
                va: h.va,
                rkey: h.rkey,
                len: h.dlen,
                msn,
            }));
        }
        if d.cnp {
            ev.push(RxEvent::Cnp { flow });
        }
        if d.ce {
            ev.push(RxEvent::CeMark { flow });
        }
        ev
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::roce::packet::{self, Reth};

    fn pkt(opcode: u8, psn: u32, len: usize) -> Packet {
        Packet {
            opcode,
            psn,
            dqp: 1,
            reth: packet::has_reth(opcode).then_some(Reth {
                va: 0x100,
                rkey: 0,
                dlen: len as u32,
            }),
            aeth: packet::has_aeth(opcode).then_some(0x1F00_0000),
            payload: if packet::carries_payload(opcode) {
                vec![7; len]
            } else {
                vec![]
            },
            ..Default::default()
        }
    }

    fn model() -> RxDispatchModel {
        let mut m = RxDispatchModel::new(2, 8);
        m.configure(
            1,
            &FlowCfg {
                valid: true,
                epsn: PSN_MASK, // wraps after one packet
                rd_addr: 0x800,
                rd_psn: 5,
                cnp_on_ce: false,
            },
        );
        m
    }

    #[test]
    fn write_sequence_nak_dup_and_wrap() {
        let mut m = model();
        // A WRITE of 515 bytes: FIRST 256, MIDDLE 256, LAST 3.
        let mut first = pkt(op::WRITE_FIRST, PSN_MASK, 256);
        first.reth.as_mut().unwrap().dlen = 515;
        let ev = m.dispatch(&first);
        assert_eq!(
            ev,
            vec![RxEvent::HostWrite {
                addr: 0x100,
                data: vec![7; 256]
            }]
        );
        // Lost PSN 0; PSN 1 is ahead: one NAK for epsn 0, then silence.
        let ev = m.dispatch(&pkt(op::WRITE_MIDDLE, 1, 256));
        assert_eq!(ev[0], RxEvent::Drop(RxDrop::Oos));
        assert_eq!(
            ev[1],
            RxEvent::Ack(AckReq {
                flow: 1,
                psn: 0,
                aeth: 0x6000_0000,
                tlm: None
            })
        );
        assert_eq!(
            m.dispatch(&pkt(op::WRITE_LAST, 2, 3)),
            vec![RxEvent::Drop(RxDrop::Oos)]
        );
        // Go back: 0 accepted at wr_va, LAST with A: ACK with MSN 1.
        let ev = m.dispatch(&pkt(op::WRITE_MIDDLE, 0, 256));
        assert_eq!(
            ev[0],
            RxEvent::HostWrite {
                addr: 0x200,
                data: vec![7; 256]
            }
        );
        let mut last = pkt(op::WRITE_LAST, 1, 3);
        last.ackreq = true;
        let ev = m.dispatch(&last);
        assert_eq!(
            ev[0],
            RxEvent::HostWrite {
                addr: 0x300,
                data: vec![7; 3]
            }
        );
        assert_eq!(
            ev[1],
            RxEvent::Ack(AckReq {
                flow: 1,
                psn: 1,
                aeth: 0x1F00_0001,
                tlm: None
            })
        );
        // A duplicate with T: re-acknowledged with epsn - 1, the area echoed.
        let mut dup = pkt(op::WRITE_ONLY, 0, 4);
        dup.tlm = Some(Tlm::fresh());
        let ev = m.dispatch(&dup);
        assert_eq!(ev[0], RxEvent::Drop(RxDrop::Dup));
        assert_eq!(
            ev[1],
            RxEvent::Ack(AckReq {
                flow: 1,
                psn: 1,
                aeth: 0x1F00_0001,
                tlm: Some(Tlm::fresh())
            })
        );
        // Far away; unknown flows.
        assert_eq!(
            m.dispatch(&pkt(op::WRITE_ONLY, 1 << 20, 4)),
            vec![RxEvent::Drop(RxDrop::BadPsn)]
        );
        let mut other = pkt(op::WRITE_ONLY, 2, 4);
        other.dqp = 2;
        assert_eq!(m.dispatch(&other), vec![RxEvent::Drop(RxDrop::UnknownFlow)]);
        other.dqp = 4;
        assert_eq!(m.dispatch(&other), vec![RxEvent::Drop(RxDrop::UnknownFlow)]);
        assert_eq!(
            m.counters,
            DispatchCounters {
                unknown_flow: 2,
                oos: 2,
                dup: 1,
                bad_psn: 1,
                accepted: 3,
                bad_va: 0,
                bad_op: 0,
                refused: 0,
            }
        );
    }

    #[test]
    fn read_request_response_probe_and_acks() {
        let mut m = model();
        let ev = m.dispatch(&pkt(op::READ_REQ, PSN_MASK, 600));
        assert_eq!(
            ev,
            vec![RxEvent::ReadReq(ReadReq {
                flow: 1,
                psn: PSN_MASK,
                va: 0x100,
                rkey: 0,
                len: 600,
                msn: 1
            })]
        );
        assert_eq!(m.epsn(1), Some(2), "3 PSNs at MTU 256");
        // The duplicate is executed again (module doc).
        let ev = m.dispatch(&pkt(op::READ_REQ, PSN_MASK, 600));
        assert_eq!(ev[0], RxEvent::Drop(RxDrop::Dup));
        assert!(matches!(ev[1], RxEvent::ReadReq(r) if r.psn == PSN_MASK && r.msn == 1));
        // Probe: ACK epsn - 1 with the echo.
        let mut pr = pkt(op::PROBE, 77, 0);
        pr.tlm = Some(Tlm::fresh());
        assert_eq!(
            m.dispatch(&pr),
            vec![RxEvent::Ack(AckReq {
                flow: 1,
                psn: 1,
                aeth: 0x1F00_0001,
                tlm: Some(Tlm::fresh())
            })]
        );
        // Responses to our own READ: in order only, after its entry.
        assert_eq!(
            m.dispatch(&pkt(op::READ_RESP_FIRST, 5, 256)),
            vec![RxEvent::Drop(RxDrop::Oos)],
            "no entry yet"
        );
        m.set_read(1, 0, 0x800, 5);
        assert_eq!(
            m.dispatch(&pkt(op::READ_RESP_MIDDLE, 6, 256)),
            vec![RxEvent::Drop(RxDrop::Oos)]
        );
        let ev = m.dispatch(&pkt(op::READ_RESP_FIRST, 5, 256));
        assert_eq!(
            ev[0],
            RxEvent::HostWrite {
                addr: 0x800,
                data: vec![7; 256]
            }
        );
        assert!(matches!(ev[1], RxEvent::Cc(c) if c.psn == 5 && c.opcode == op::READ_RESP_FIRST));
        let ev = m.dispatch(&pkt(op::READ_RESP_MIDDLE, 6, 256));
        assert_eq!(
            ev[0],
            RxEvent::HostWrite {
                addr: 0x900,
                data: vec![7; 256]
            }
        );
        // Every response is fed back (the requester counts them).
        assert!(matches!(ev[1], RxEvent::Cc(c) if c.psn == 6 && c.opcode == op::READ_RESP_MIDDLE));
        assert_eq!(ev.len(), 2);
        // ACK and NAK.
        let ev = m.dispatch(&pkt(op::ACK, 9, 0));
        assert!(matches!(ev[0], RxEvent::Cc(c) if c.psn == 9 && c.aeth == 0x1F00_0000));
        let mut nak = pkt(op::ACK, 4, 0);
        nak.aeth = Some(0x6000_0002);
        assert_eq!(
            m.dispatch(&nak),
            vec![RxEvent::Nak {
                flow: 1,
                psn: 4,
                syndrome: 0x60
            }]
        );
        // set_read leaves the responder state alone; the next READ's
        // entry waits until this one's LAST.
        m.set_read(1, 1, 0x2000, 40);
        assert_eq!(m.epsn(1), Some(2));
        assert_eq!(
            m.dispatch(&pkt(op::READ_RESP_ONLY, 40, 0)),
            vec![RxEvent::Drop(RxDrop::Oos)]
        );
        let ev = m.dispatch(&pkt(op::READ_RESP_LAST, 7, 8));
        assert!(matches!(ev[0], RxEvent::HostWrite { addr: 0xA00, .. }));
        let ev = m.dispatch(&pkt(op::READ_RESP_ONLY, 40, 0));
        assert!(matches!(ev[0], RxEvent::Cc(c) if c.psn == 40));
    }

    /// Eight READs in flight: each READ's responses land at its own
    /// address, a stale entry (the lap of eight READs before) is refused,
    /// and a READ asked again from its middle goes on where it was.
    #[test]
    fn eight_reads_in_flight_land_at_their_own_addresses() {
        let mut m = model();
        // READs k = 0..8, two responses each, PSNs 100 + 2k.
        for k in 0..8u32 {
            m.set_read(1, k, 0x10_000 * (k as u64 + 1), 100 + 2 * k);
        }
        for k in 0..8u32 {
            let base = 0x10_000 * (k as u64 + 1);
            let ev = m.dispatch(&pkt(op::READ_RESP_FIRST, 100 + 2 * k, 256));
            assert!(matches!(&ev[0], RxEvent::HostWrite { addr, .. } if *addr == base));
            // A duplicate of the first is out of sequence now.
            let ev = m.dispatch(&pkt(op::READ_RESP_FIRST, 100 + 2 * k, 256));
            assert_eq!(ev, vec![RxEvent::Drop(RxDrop::Oos)]);
            let ev = m.dispatch(&pkt(op::READ_RESP_LAST, 101 + 2 * k, 8));
            assert!(matches!(&ev[0], RxEvent::HostWrite { addr, .. } if *addr == base + 256));
        }
        // Entry 0 again (READ 8, lap 1): the old entry (lap 0) is refused
        // even at its own PSN, the new one taken.
        let ev = m.dispatch(&pkt(op::READ_RESP_ONLY, 100, 8));
        assert_eq!(ev, vec![RxEvent::Drop(RxDrop::Oos)]);
        m.set_read(1, 8, 0x90_000, 116);
        let ev = m.dispatch(&pkt(op::READ_RESP_FIRST, 116, 256));
        assert!(matches!(&ev[0], RxEvent::HostWrite { addr: 0x90_000, .. }));
        // Asked again from its second response: a FIRST at PSN 117 goes
        // on at the running address.
        let ev = m.dispatch(&pkt(op::READ_RESP_FIRST, 117, 256));
        assert!(matches!(&ev[0], RxEvent::HostWrite { addr: 0x90_100, .. }));
        assert!(!m.contexts()[1].rd_done);
        let ev = m.dispatch(&pkt(op::READ_RESP_LAST, 118, 8));
        assert!(matches!(&ev[0], RxEvent::HostWrite { addr: 0x90_200, .. }));
        assert!(m.contexts()[1].rd_done);
        assert_eq!(m.contexts()[1].rd_idx, 9);
    }
}
