//! Twin of `hdl/src/nic/int_tap.rs`: NewINT's receiver events, tapped
//! from the ACKs' echoed telemetry; a new event replaces one the CC has
//! not taken (counted in `lost`), so the ACKs never wait. The ACKs pass
//! through the record's register slice ([`crate::record::Slice`]).

use crate::cc::CcEvent;
use crate::record::Slice;
use crate::roce::AckInfo;
use crate::Cycle;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    pub cfg_ns_per_cycle: u32,
    pub ack_valid: bool,
    pub ack: AckInfo,
    pub out_ready: bool,
    pub event_ready: bool,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub ack_ready: bool,
    pub out_valid: bool,
    pub out: AckInfo,
    pub event_valid: bool,
    pub event: CcEvent,
    pub events: u32,
    pub lost: u32,
}

#[derive(Clone, Debug, Default)]
pub struct IntTap<const A: usize> {
    /// UQ32.16 ns, 48 bits.
    ns: u64,
    /// The ACKs' register slice: its head is `m_ack`.
    slice: Slice<AckInfo>,
    ev_v: bool,
    ev: CcEvent,
    events: u32,
    lost: u32,
}

impl<const A: usize> Cycle for IntTap<A> {
    type In = In;
    type Out = Out;
    fn step(&mut self, i: &In) -> Out {
        let a = self.slice.main;
        let want = a.tlm.present && (a.tlm.hdr >> 48) & 0xFF != 0;
        let out = Out {
            ack_ready: self.slice.s_tready(),
            out_valid: self.slice.main_v,
            out: a,
            event_valid: self.ev_v,
            event: CcEvent {
                variant: true,
                ..self.ev
            },
            events: self.events,
            lost: self.lost,
        };
        let take = out.out_valid && i.out_ready && want;
        // A new event replaces one the CC has not taken.
        if take && self.ev_v && !i.event_ready {
            self.lost = self.lost.wrapping_add(1);
        }
        if self.ev_v && i.event_ready {
            self.ev_v = false;
        }
        if take {
            self.ev_v = true;
            self.ev = CcEvent {
                op: 0,
                variant: true,
                flow: a.flow as u16,
                seq: a.psn & 0xFF_FFFF,
                snd_nxt: 0,
                now: (self.ns >> 16) as u32,
                nhops: ((a.tlm.hdr >> 48) & 0xF) as u8,
                hop0: a.tlm.hop0,
                hop1: a.tlm.hop1,
                hop2: a.tlm.hop2,
                hop3: a.tlm.hop3,
                hop4: a.tlm.hop4,
            };
            self.events = self.events.wrapping_add(1);
        }
        self.slice.step(i.ack_valid.then_some(i.ack), i.out_ready);
        self.ns = (self.ns + (i.cfg_ns_per_cycle & 0xFF_FFFF) as u64) & crate::mask(48) as u64;
        out
    }
}
