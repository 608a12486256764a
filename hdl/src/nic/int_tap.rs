//! The receiver side of NewINT (pseudocode line 28, `NewINT(int.L)`): a
//! data packet's telemetry, on its way back as the ACK's echo, also goes
//! to the receiver's CC module.
//!
//! - `s_ack` → `m_ack` (`AckInfo`, from the dispatcher to the ACK
//!   slots): through the record's register slice (`AckInfo::Slice`,
//!   timing rule R1: every output a flip-flop, `s_ack.ready` the slice's
//!   own), one cycle, one ACK a cycle, never held by the event.
//! - `m_event` (`CcEvent`): every `AckInfo` leaving on `m_ack` whose telemetry area has hops
//!   (`nhop` ≠ 0) also becomes a CC event: op EVENT, variant 1 (NewINT;
//!   the CC module drops it for a NewAck flow), the flow, seq = the PSN, `now` = the core's time
//!   in ns (mod 2^32: a counter of `cfg_ns_per_cycle`, UQ8.16 ns, per
//!   cycle), `nhops` and the five hop words. The event waits in a
//!   one-entry register for the CC arbiter. A new event that finds the
//!   register full (and not taken in that cycle) replaces the waiting
//!   one, whose telemetry the newer one supersedes (the CC compares each
//!   event with the flow's last, so it spans the longer interval): the
//!   ACK path never waits on the CC (issue 50).
//!
//! Counters `events` and `lost` (the events replaced before the CC took
//! them; 32 bits each, wrapping; `CoreStats.int_events`,
//! `CoreStats.int_lost`). Golden twin: `nic_golden::nic::int_tap`.

use crate::cc::CcEventSource;
use crate::roce::{AckInfo, AckInfoSink, AckInfoSource};
use rust_hdl::prelude::*;

#[derive(LogicBlock, Default)]
pub struct IntTap<const A: usize> {
    pub clock: Signal<In, Clock>,
    pub cfg_ns_per_cycle: Signal<In, Bits<24>>,
    pub s_ack: AckInfoSink<A>,
    pub m_ack: AckInfoSource<A>,
    pub m_event: CcEventSource,
    pub events: Signal<Out, Bits<32>>,
    pub lost: Signal<Out, Bits<32>>,
    /// The ACKs' register slice: `m_ack` is its output.
    slice: AckInfo::Slice<A>,
    /// Time, UQ32.16 ns.
    ns: DFF<Bits<48>>,
    ev_v: DFF<Bit>,
    ev_flow: DFF<Bits<16>>,
    ev_seq: DFF<Bits<32>>,
    ev_now: DFF<Bits<32>>,
    ev_nhops: DFF<Bits<4>>,
    ev_hop0: DFF<Bits<64>>,
    ev_hop1: DFF<Bits<64>>,
    ev_hop2: DFF<Bits<64>>,
    ev_hop3: DFF<Bits<64>>,
    ev_hop4: DFF<Bits<64>>,
    n_events: DFF<Bits<32>>,
    n_lost: DFF<Bits<32>>,
    want: Signal<Local, Bit>,
    take: Signal<Local, Bit>,
}

impl<const A: usize> Logic for IntTap<A> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, ns, ev_v, ev_flow, ev_seq, ev_now, ev_nhops, ev_hop0, ev_hop1, ev_hop2,
            ev_hop3, ev_hop4, n_events, n_lost
        );
        self.ns.d.next = (self.ns.q.val() + bit_cast::<48, 24>(self.cfg_ns_per_cycle.val()));
        self.slice.clock.next = self.clock.val();
        // AckInfo through the slice, never held by the event.
        AckInfoSink::<A>::link(&mut self.s_ack, &mut self.slice.s);
        AckInfoSource::<A>::link(&mut self.m_ack, &mut self.slice.m);
        // (`m_ack` is read for the tap: a linked child output has no wire
        // of its own in rust-hdl's Verilog.)
        self.want.next =
            (self.m_ack.tlm.present.val() && self.m_ack.tlm.hdr.val().get_bits::<8>(48).any());
        self.take.next = (self.m_ack.valid.val() && self.m_ack.ready.val() && self.want.val());
        if (self.ev_v.q.val() && self.m_event.ready.val()) {
            self.ev_v.d.next = false;
        }
        if self.take.val() {
            self.ev_v.d.next = true;
            self.ev_flow.d.next = bit_cast::<16, A>(self.m_ack.flow.val());
            self.ev_seq.d.next = bit_cast::<32, 24>(self.m_ack.psn.val());
            self.ev_now.d.next = self.ns.q.val().get_bits::<32>(16);
            self.ev_nhops.d.next = self.m_ack.tlm.hdr.val().get_bits::<4>(48);
            self.ev_hop0.d.next = self.m_ack.tlm.hop0.val();
            self.ev_hop1.d.next = self.m_ack.tlm.hop1.val();
            self.ev_hop2.d.next = self.m_ack.tlm.hop2.val();
            self.ev_hop3.d.next = self.m_ack.tlm.hop3.val();
            self.ev_hop4.d.next = self.m_ack.tlm.hop4.val();
            self.n_events.d.next = (self.n_events.q.val() + 1);
            if (self.ev_v.q.val() && !self.m_event.ready.val()) {
                self.n_lost.d.next = (self.n_lost.q.val() + 1);
            }
        }
        self.m_event.valid.next = self.ev_v.q.val();
        self.m_event.op.next = 0.into();
        self.m_event.variant.next = true;
        self.m_event.flow.next = self.ev_flow.q.val();
        self.m_event.seq.next = self.ev_seq.q.val();
        self.m_event.snd_nxt.next = 0.into();
        self.m_event.now.next = self.ev_now.q.val();
        self.m_event.nhops.next = self.ev_nhops.q.val();
        self.m_event.hop0.next = self.ev_hop0.q.val();
        self.m_event.hop1.next = self.ev_hop1.q.val();
        self.m_event.hop2.next = self.ev_hop2.q.val();
        self.m_event.hop3.next = self.ev_hop3.q.val();
        self.m_event.hop4.next = self.ev_hop4.q.val();
        self.events.next = self.n_events.q.val();
        self.lost.next = self.n_lost.q.val();
    }
}
