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
//! - [`RxDispatchModel::set_read`] writes only the requester fields
//!   (`rd_addr`, `rd_psn`) of a flow: the requester sets them before each
//!   READ while the responder state of the same flow (epsn, msn, …) lives on.
//!   The §8 control port writes all fields at once; the RTL needs a
//!   requester-only write (e.g. a `cfg_rd_only` bit).
//! - ACK syndromes: bits 7..5 = 000 is an ACK (`cc`), 011 a NAK (`nak`);
//!   other classes (RNR, reserved) are counted in `accepted` and ignored.
//! - An ACK or NAK request carries the echo of the packet it answers if
//!   that packet had T = 1 (also for duplicates and for the packet that
//!   triggered a NAK), as the RTL dispatcher does.
//! - `accepted` counts every packet of a known flow that was not dropped
//!   (responder and requester side, ACKs and probes included).

use crate::roce::packet::{self, op, syndrome, Drop, Packet, Tlm};

pub const PSN_MASK: u32 = 0xFF_FFFF;
/// The out-of-sequence window: 1 ≤ d < 2^12 is "ahead".
pub const OOS_WINDOW: u32 = 1 << 12;

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
/// a READ RESPONSE FIRST/LAST/ONLY, or a NOTIFY.
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

/// Why the receive side dropped a frame or packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum RxDrop {
    /// By the parser (§7).
    Parse(Drop),
    UnknownFlow,
    Oos,
    Dup,
    BadPsn,
}

impl RxDrop {
    pub fn name(self) -> &'static str {
        match self {
            RxDrop::Parse(d) => d.name(),
            RxDrop::UnknownFlow => "unknown_flow",
            RxDrop::Oos => "oos",
            RxDrop::Dup => "dup",
            RxDrop::BadPsn => "bad_psn",
        }
    }
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
    /// Go back: resend the flow from `psn` (`nak_*`).
    Nak {
        flow: u32,
        psn: u32,
    },
    ReadReq(ReadReq),
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
}

#[derive(Clone, Copy, Debug, Default)]
struct Flow {
    valid: bool,
    epsn: u32,
    nak_sent: bool,
    wr_va: u64,
    msn: u32,
    rd_addr: u64,
    rd_psn: u32,
}

/// §8's counters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DispatchCounters {
    pub unknown_flow: u64,
    pub oos: u64,
    pub dup: u64,
    pub bad_psn: u64,
    pub accepted: u64,
}

/// The dispatcher: `2^flow_bits` flows, MTU `2^mtu_log2`.
#[derive(Clone, Debug)]
pub struct RxDispatchModel {
    flows: Vec<Flow>,
    mtu_log2: u32,
    pub counters: DispatchCounters,
}

impl RxDispatchModel {
    /// `flow_bits` ≤ 16, `mtu_log2` in 8..=12 (clamped).
    pub fn new(flow_bits: u32, mtu_log2: u32) -> Self {
        RxDispatchModel {
            flows: vec![Flow::default(); 1 << flow_bits.min(16)],
            mtu_log2: mtu_log2.clamp(8, 12),
            counters: DispatchCounters::default(),
        }
    }

    /// Control port: create (`valid`) or remove a flow, all fields written.
    /// `nak_sent`, `wr_va` and `msn` are cleared. Flows out of range ignored.
    pub fn configure(&mut self, flow: u32, c: &FlowCfg) {
        if let Some(f) = self.flows.get_mut(flow as usize) {
            *f = Flow {
                valid: c.valid,
                epsn: c.epsn & PSN_MASK,
                nak_sent: false,
                wr_va: 0,
                msn: 0,
                rd_addr: c.rd_addr,
                rd_psn: c.rd_psn & PSN_MASK,
            };
        }
    }

    /// Requester fields only: where the next READ's responses land and the
    /// PSN of its first response (see the module doc).
    pub fn set_read(&mut self, flow: u32, rd_addr: u64, rd_psn: u32) {
        if let Some(f) = self.flows.get_mut(flow as usize) {
            f.rd_addr = rd_addr;
            f.rd_psn = rd_psn & PSN_MASK;
        }
    }

    /// The responder's expected PSN of a flow (for tests and reports).
    pub fn epsn(&self, flow: u32) -> Option<u32> {
        self.flows.get(flow as usize).map(|f| f.epsn)
    }

    /// One packet that passed the parser.
    pub fn dispatch(&mut self, p: &Packet) -> Vec<RxEvent> {
        let mut ev = Vec::new();
        let mtu_log2 = self.mtu_log2;
        let c = &mut self.counters;
        let flow = p.dqp;
        let f = match self.flows.get_mut(flow as usize) {
            Some(f) if f.valid => f,
            _ => {
                c.unknown_flow += 1;
                ev.push(RxEvent::Drop(RxDrop::UnknownFlow));
                return ev;
            }
        };
        let psn = p.psn & PSN_MASK;
        let ack = |psn: u32, syn: u8, msn: u32, tlm: Option<Tlm>| {
            RxEvent::Ack(AckReq {
                flow,
                psn: psn & PSN_MASK,
                aeth: (syn as u32) << 24 | (msn & PSN_MASK),
                tlm,
            })
        };
        match p.opcode {
            op::WRITE_FIRST | op::WRITE_MIDDLE | op::WRITE_LAST | op::WRITE_ONLY | op::READ_REQ => {
                let d = psn.wrapping_sub(f.epsn) & PSN_MASK;
                if d == 0 {
                    c.accepted += 1;
                    f.nak_sent = false;
                    if p.opcode == op::READ_REQ {
                        let r = p.reth.unwrap_or_default();
                        f.msn = (f.msn + 1) & PSN_MASK;
                        ev.push(RxEvent::ReadReq(ReadReq {
                            flow,
                            psn,
                            va: r.va,
                            rkey: r.rkey,
                            len: r.dlen,
                            msn: f.msn,
                        }));
                        let span = packet::psn_span(op::READ_REQ, r.dlen, 1 << mtu_log2);
                        f.epsn = (f.epsn + span) & PSN_MASK;
                    } else {
                        let va = match p.reth {
                            Some(r) if packet::has_reth(p.opcode) => r.va,
                            _ => f.wr_va,
                        };
                        if !p.payload.is_empty() {
                            ev.push(RxEvent::HostWrite {
                                addr: va,
                                data: p.payload.clone(),
                            });
                        }
                        f.wr_va = va.wrapping_add(p.payload.len() as u64);
                        f.epsn = (f.epsn + 1) & PSN_MASK;
                        if matches!(p.opcode, op::WRITE_LAST | op::WRITE_ONLY) {
                            f.msn = (f.msn + 1) & PSN_MASK;
                        }
                        if p.ackreq || p.tlm.is_some() {
                            ev.push(ack(psn, syndrome::ACK, f.msn, p.tlm));
                        }
                    }
                } else if d < OOS_WINDOW {
                    c.oos += 1;
                    ev.push(RxEvent::Drop(RxDrop::Oos));
                    if !f.nak_sent {
                        f.nak_sent = true;
                        ev.push(ack(f.epsn, syndrome::NAK_SEQ, f.msn, p.tlm));
                    }
                } else if d >= (1 << 24) - OOS_WINDOW {
                    c.dup += 1;
                    ev.push(RxEvent::Drop(RxDrop::Dup));
                    if p.opcode == op::READ_REQ {
                        let r = p.reth.unwrap_or_default();
                        ev.push(RxEvent::ReadReq(ReadReq {
                            flow,
                            psn,
                            va: r.va,
                            rkey: r.rkey,
                            len: r.dlen,
                            msn: f.msn,
                        }));
                    } else {
                        ev.push(ack(f.epsn.wrapping_sub(1), syndrome::ACK, f.msn, p.tlm));
                    }
                } else {
                    c.bad_psn += 1;
                    ev.push(RxEvent::Drop(RxDrop::BadPsn));
                }
            }
            op::ACK => {
                c.accepted += 1;
                let aeth = p.aeth.unwrap_or(0);
                match aeth >> 29 {
                    0 => ev.push(RxEvent::Cc(CcEvent {
                        flow,
                        psn,
                        aeth,
                        opcode: p.opcode,
                        tlm: p.tlm,
                    })),
                    3 => ev.push(RxEvent::Nak { flow, psn }),
                    _ => {}
                }
            }
            op::NOTIFY => {
                c.accepted += 1;
                ev.push(RxEvent::Cc(CcEvent {
                    flow,
                    psn,
                    aeth: p.aeth.unwrap_or(0),
                    opcode: p.opcode,
                    tlm: p.tlm,
                }));
            }
            op::PROBE => {
                c.accepted += 1;
                ev.push(ack(f.epsn.wrapping_sub(1), syndrome::ACK, f.msn, p.tlm));
            }
            op::READ_RESP_FIRST
            | op::READ_RESP_MIDDLE
            | op::READ_RESP_LAST
            | op::READ_RESP_ONLY => {
                if psn == f.rd_psn {
                    c.accepted += 1;
                    if !p.payload.is_empty() {
                        ev.push(RxEvent::HostWrite {
                            addr: f.rd_addr,
                            data: p.payload.clone(),
                        });
                    }
                    f.rd_addr = f.rd_addr.wrapping_add(p.payload.len() as u64);
                    f.rd_psn = (f.rd_psn + 1) & PSN_MASK;
                    if p.opcode != op::READ_RESP_MIDDLE {
                        ev.push(RxEvent::Cc(CcEvent {
                            flow,
                            psn,
                            aeth: p.aeth.unwrap_or(0),
                            opcode: p.opcode,
                            tlm: p.tlm,
                        }));
                    }
                } else {
                    c.oos += 1;
                    ev.push(RxEvent::Drop(RxDrop::Oos));
                }
            }
            // The parser passes only the opcodes above.
            _ => {}
        }
        ev
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::roce::packet::Reth;

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
            },
        );
        m
    }

    #[test]
    fn write_sequence_nak_dup_and_wrap() {
        let mut m = model();
        let ev = m.dispatch(&pkt(op::WRITE_FIRST, PSN_MASK, 256));
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
                accepted: 3
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
        // Responses to our own READ: in order only.
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
            ev,
            vec![RxEvent::HostWrite {
                addr: 0x900,
                data: vec![7; 256]
            }]
        );
        // ACK and NAK.
        let ev = m.dispatch(&pkt(op::ACK, 9, 0));
        assert!(matches!(ev[0], RxEvent::Cc(c) if c.psn == 9 && c.aeth == 0x1F00_0000));
        let mut nak = pkt(op::ACK, 4, 0);
        nak.aeth = Some(0x6000_0002);
        assert_eq!(m.dispatch(&nak), vec![RxEvent::Nak { flow: 1, psn: 4 }]);
        // set_read leaves the responder state alone.
        m.set_read(1, 0x2000, 40);
        assert_eq!(m.epsn(1), Some(2));
        let ev = m.dispatch(&pkt(op::READ_RESP_ONLY, 40, 0));
        assert!(matches!(ev[0], RxEvent::Cc(c) if c.psn == 40));
    }
}
