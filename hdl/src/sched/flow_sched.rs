//! Credit-based flow scheduler: rate pacing and window enforcement for
//! 2^A flows ([000] §7.2 "Flow Scheduler"), with probe timers.
//!
//! # What it does
//! Each flow has a rate R and window W (from CC updates), a byte stream
//! with snd_una ≤ snd_nxt ≤ end (doorbells extend `end`, ACKs advance
//! snd_una, a go-back-N rewind moves snd_nxt back), and a credit. Credit
//! accrues at R, capped at max(`cfg_cap`, `cfg_mtu`) bytes, so an idle
//! flow cannot save up a larger burst. A flow sends PktSend(flow, seq,
//! len), len = min(MTU, end − snd_nxt), when credit ≥ len and
//! (snd_nxt − snd_una) + len ≤ W, or nothing is in flight (snd_nxt =
//! snd_una): one packet always goes, so a window under one packet slows
//! a flow to a packet per round trip instead of stalling it for good (no
//! packet, no ACK, no telemetry, no update).
//!
//! # Design: active list plus lazy credit
//! - **Active list**: a FIFO of flow ids ([`Fifo`], one block RAM). A flow
//!   is in it iff it has a rate, data, and window room for its next
//!   packet (the `queued` bit); the scheduler visits its head, sends if
//!   the credit allows, and puts the flow back at the tail if it is still
//!   active. Idle flows (nothing pending, window full, no rate) are not in
//!   the list and cost no cycles; an event that makes a flow active
//!   appends it. A flow waiting for credit stays in the list (round
//!   robin, Corundum-style), so a flow is visited at most once per
//!   max(active flows, 14) cycles: its rate ceiling is MTU per round.
//! - **Lazy credit**: no per-cycle accrual loop over the flows. Each
//!   operation on a flow computes credit ← min(cap, credit + R·(now −
//!   last)) with a 32 × 32 multiplier and stores `last` = now. Exact, so
//!   the achieved rate does not depend on how often a flow is visited.
//!   [`LazyCredit`] (`lazy_credit.rs`, stages S3–S10, a block with its
//!   twin and test) computes it, and the credit after a send or a TRIM.
//! - **Probe timers**: a second FIFO of (flow, time). A flow joins it at
//!   its first send; when the head's time is `cfg_probe_t` old, the flow
//!   is probed (PktSend with `m_send.probe`, len 0) and re-queued if it
//!   still has data in flight, else it leaves. One interval for all flows
//!   makes a FIFO a timer queue: no scan.
//! - **One read-modify-write pipeline**: one operation issues per cycle
//!   (S0): an event, else an expired probe timer, else the active list's
//!   head. It reads the flow's state ([`FlowStateRam`],
//!   `flow_state_ram.rs`: nine RAMs, one word per flow, a block with its
//!   twin and test) in S1, and writes it back in S10. A flow with an
//!   operation in S1..S10 is not
//!   issued (interlock: the event at the input register, and the list
//!   heads, wait), so no forwarding is needed.
//! - **An input register** (timing rules R1, R2): an event is taken into
//!   a register when it is empty, so `s_ev.ready` is a register that
//!   depends on no input, and S0's interlock compares the flow of the
//!   registered event. At most one event every other cycle passes (far
//!   above the NIC's event rate); while one waits for its flow, the next
//!   waits upstream, where `EvMerge` can still merge a flow's events (a
//!   two-register slice took them at once and cost one flow of 64-byte
//!   WRITEs 0.03 of the line that way).
//!
//! # Ports (clock `clock`)
//! - config (hold constant while flows are active): `cfg_mtu` (bytes;
//!   0 sends nothing), `cfg_cap` (bytes, 20 bits), `cfg_probe_t` (cycles,
//!   24 bits; 0 stops probing).
//! - event in, valid/ready: `s_ev.valid`, `s_ev.ready` (a register),
//!   `s_ev.op`, `s_ev.flow` (16 bits), `s_ev.a`, `s_ev.b`:
//!
//!   | op | name | a | b | effect |
//!   |---|---|---|---|---|
//!   | 0 | INIT | start seq | epoch | una = nxt = end = a, R = W = 0, credit 0, epoch = b |
//!   | 1 | DOORBELL | bytes | – | end += a |
//!   | 2 | UPDATE | R, UQ8.24 B/cycle | W, UQ24.8 B | R, W (fraction of W dropped) |
//!   | 3 | ACK | seq | – | una = a (cumulative) |
//!   | 4 | REWIND | seq | epoch | una = nxt = a (NAK: go-back-N from a; an ACK past nxt after a go-back: skip to a), epoch = b |
//!   | 5 | TRIM | seq | epoch | nxt = a, credit += nxt − a (capped), epoch = b |
//!   | 6 | ACK_DB | seq | bytes | una = a and end += b: an ACK and a DOORBELL of the flow merged by `EvMerge` |
//!
//!   TRIM is the requester's: a PktSend that crosses the end of a message
//!   is cut there, and the bytes from the cut on (and every PktSend
//!   decided after it) go back. The epoch (8 bits, in every PktSend)
//!   tells the requester which PktSends were decided before its last
//!   REWIND or TRIM took effect.
//!
//! - PktSend out, valid/ready: `m_send.valid`, `m_send.ready` (Tx
//!   back-pressure), `m_send.flow`, `m_send.seq` (byte sequence number of the
//!   first byte), `m_send.len`, `m_send.probe` (a probe request, len 0),
//!   `m_send.epoch` (the flow's epoch when it was decided).
//! - counters (32 bits, wrapping): `m_stats.events` (accepted), `m_stats.sends`,
//!   `m_stats.probes`, and the drops below.
//!
//! # Timing
//! - Throughput: one operation per cycle; one PktSend per cycle while 14
//!   or more flows are eligible and Tx accepts (the PktSend queue holds 32,
//!   reserved at issue, so back-pressure never stalls the pipeline).
//! - Latency: visit to PktSend 13 cycles (S10 plus the queue's 3).
//! - Events and visits share the issue slot: each accepted event (an ACK,
//!   say) costs one visit. At line rate an ACK per minimum-size packet is
//!   one event per 8 cycles on the 64-bit datapath. Events go first, then
//!   an expired probe, then the active list's head; but a head that lost
//!   the slot to an event goes at its next chance, before events and
//!   probes (`visit_yield`). So a flow's own ACKs and DOORBELLs, each
//!   holding the flow 11 cycles for the interlock, alternate with its
//!   visits instead of keeping them out while they come.
//! - Reaction: an event at the input register issues at most 21
//!   cycles after it got there (up to 10 behind the interlock, one behind
//!   a yielded visit, and 10 more when that visit is of the event's
//!   flow); it gets there the cycle after its handshake. Every operation
//!   issued from 11 cycles after its issue sees it. An UPDATE that opens
//!   a parked flow's window gives its first PktSend 27 cycles after its
//!   handshake (idle scheduler; the register's one, then 26;
//!   `update_takes_effect_in_bounded_cycles`).
//!
//! # Bad input (dropped, counted, nothing written)
//! - `s_ev.flow` ≥ 2^A: `m_stats.bad_flow` (accepted at once, no state read).
//! - `s_ev.op` 7: `m_stats.bad_op`.
//! - UPDATE with R = 0 or W < 1 byte: `m_stats.bad_update`; R and W keep
//!   their values.
//! - ACK or TRIM outside [snd_una, snd_nxt], REWIND outside [snd_una,
//!   end]: `m_stats.bad_ack`, `m_stats.bad_trim`, `m_stats.bad_rewind`.
//! - DOORBELL that would make end − snd_una ≥ 2^31: `m_stats.bad_doorbell`.
//! - ACK_DB (an ACK and a DOORBELL merged by `EvMerge`): each part checked
//!   as its op against the state before the event; if either fails the
//!   whole event is dropped, and each failed part counts in its op's
//!   counter.
//! A dropped event writes nothing, so no flow's state changes.
//!
//! Limits: `last` is 32 bits, so a flow untouched for 2^32 cycles (27 s at
//! 156.25 MHz) accrues credit modulo that time (less burst, never more
//! than the cap).
//!
//! Golden twin: `nic_golden::sched::flow_sched`.

use crate::mem::Fifo;
use crate::sched::lazy_credit::LazyCredit;
use crate::sched::sched_counters::SchedCounters;
use crate::sched::{FlowStateRam, PktSendSource, SchedEventSink, SchedStatsSource};
use rust_hdl::prelude::*;
use smart_default::SmartDefault;

/// log2 of the PktSend queue's RAM words.
pub const OUT_A: usize = 5;
/// PktSend slots reserved by visits in flight or queued.
pub const OUT_CAP: u64 = 1 << OUT_A;

#[derive(LogicBlock, SmartDefault)]
pub struct FlowSched<const A: usize> {
    // The parameter check, when the block is built.
    #[default({
        assert!(A <= 15, "FlowSched: A <= 15");
        Default::default()
    })]
    pub clock: Signal<In, Clock>,
    pub cfg_mtu: Signal<In, Bits<16>>,
    pub cfg_cap: Signal<In, Bits<20>>,
    pub cfg_probe_t: Signal<In, Bits<24>>,
    pub s_ev: SchedEventSink,
    pub m_send: PktSendSource,
    pub m_stats: SchedStatsSource,
    /// The input register (timing rules R1, R2): `s_ev.ready` is "empty",
    /// and S0's interlock compares the flow of the registered event.
    h_v: DFF<Bit>,
    h_op: DFF<Bits<3>>,
    h_flow: DFF<Bits<16>>,
    h_a: DFF<Bits<32>>,
    h_b: DFF<Bits<32>>,
    active: Fifo<16, A>,
    probes: Fifo<48, A>,
    out: Fifo<72, OUT_A>,
    /// The lazy credit: accrued, capped, after a send or a TRIM (S3–S10).
    credit: LazyCredit,
    /// The counters (`m_stats`), from S10's flags.
    counters: SchedCounters,
    /// The per-flow state (read at S1, written back at S10).
    state: FlowStateRam<A>,
    now: DFF<Bits<32>>,
    used: DFF<Bits<8>>,
    last3: DFF<Bits<32>>,
    /// S4: end − una (REWIND's bound); S5: REWIND's a within [una, end].
    dspan: DFF<Bits<32>>,
    rew_ok: DFF<Bit>,
    p_exp: DFF<Bit>,
    /// The active list's head lost the issue slot to an event: it goes at
    /// its next chance, the input register held that cycle.
    visit_yield: DFF<Bit>,
    // Stage registers: index k holds the value registered into stage k.
    v: [DFF<Bit>; 11],
    kind: [DFF<Bits<2>>; 11],
    flow: [DFF<Bits<16>>; 11],
    tnow: [DFF<Bits<32>>; 11],
    op: [DFF<Bits<3>>; 11],
    a: [DFF<Bits<32>>; 11],
    b: [DFF<Bits<32>>; 11],
    /// The DOORBELL bytes: `a` of a DOORBELL, `b` of an ACK_DB.
    dbb: [DFF<Bits<32>>; 11],
    r: [DFF<Bits<32>>; 11],
    w: [DFF<Bits<24>>; 11],
    una: [DFF<Bits<32>>; 11],
    nxt: [DFF<Bits<32>>; 11],
    endq: [DFF<Bits<32>>; 11],
    cr: [DFF<Bits<44>>; 11],
    queued: [DFF<Bit>; 11],
    probing: [DFF<Bit>; 11],
    inflight: [DFF<Bits<32>>; 11],
    pending: [DFF<Bits<32>>; 11],
    dack: [DFF<Bits<32>>; 11],
    dtot: [DFF<Bits<33>>; 11],
    len: [DFF<Bits<16>>; 11],
    ack_ok: [DFF<Bit>; 11],
    db_ok: [DFF<Bit>; 11],
    upd_ok: [DFF<Bit>; 11],
    ev_ok: [DFF<Bit>; 11],
    una_e: [DFF<Bits<32>>; 11],
    nxt_e: [DFF<Bits<32>>; 11],
    end_e: [DFF<Bits<32>>; 11],
    r_e: [DFF<Bits<32>>; 11],
    w_e: [DFF<Bits<24>>; 11],
    inflight_s: [DFF<Bits<33>>; 11],
    pending_s: [DFF<Bits<32>>; 11],
    nxt_s: [DFF<Bits<32>>; 11],
    fit: [DFF<Bit>; 11],
    inflight_e: [DFF<Bits<32>>; 11],
    pending_e: [DFF<Bits<32>>; 11],
    len_s: [DFF<Bits<16>>; 11],
    len_e: [DFF<Bits<16>>; 11],
    tot_s: [DFF<Bits<33>>; 11],
    tot_e: [DFF<Bits<33>>; 11],
    fit_s2: [DFF<Bit>; 11],
    act_e: [DFF<Bit>; 11],
    act_s: [DFF<Bit>; 11],
    act_ns: [DFF<Bit>; 11],
    /// S10's decisions' terms, registered from S9 (R4): a visit
    /// (`sched10`), a visit whose packet has a length and fits
    /// (`cs_pre10`; it sends if its credit suffices too), an accepted
    /// event that makes an idle flow active (`push_ev10`). So the active
    /// list's push is two gates after flip-flops.
    sched10: DFF<Bit>,
    cs_pre10: DFF<Bit>,
    push_ev10: DFF<Bit>,
    ep: [DFF<Bits<8>>; 11],
    ep_e: [DFF<Bits<8>>; 11],
    refund: [DFF<Bits<32>>; 11],
    #[default(Constant::new(Bits::<8>::from((A as u64) as u64)))]
    k_a: Constant<Bits<8>>,
    #[default(Constant::new(Bits::<8>::from((OUT_CAP) as u64)))]
    k_cap: Constant<Bits<8>>,
    #[default(Constant::new(Bits::<3>::from(nic_spec::sched::OP_INIT as u64)))]
    op_init: Constant<Bits<3>>,
    #[default(Constant::new(Bits::<3>::from(nic_spec::sched::OP_DOORBELL as u64)))]
    op_db: Constant<Bits<3>>,
    #[default(Constant::new(Bits::<3>::from(nic_spec::sched::OP_UPDATE as u64)))]
    op_upd: Constant<Bits<3>>,
    #[default(Constant::new(Bits::<3>::from(nic_spec::sched::OP_ACK as u64)))]
    op_ack: Constant<Bits<3>>,
    #[default(Constant::new(Bits::<3>::from(nic_spec::sched::OP_REWIND as u64)))]
    op_rew: Constant<Bits<3>>,
    #[default(Constant::new(Bits::<3>::from(nic_spec::sched::OP_TRIM as u64)))]
    op_trim: Constant<Bits<3>>,
    #[default(Constant::new(Bits::<3>::from(nic_spec::sched::OP_ACK_DB as u64)))]
    op_ack_db: Constant<Bits<3>>,
    #[default(Constant::new(Bits::<2>::from((0) as u64)))]
    k_ev: Constant<Bits<2>>,
    #[default(Constant::new(Bits::<2>::from((1) as u64)))]
    k_sched: Constant<Bits<2>>,
    #[default(Constant::new(Bits::<2>::from((2) as u64)))]
    k_probe: Constant<Bits<2>>,
    #[default(Constant::new(Bits::<2>::from((3) as u64)))]
    k_kill: Constant<Bits<2>>,
    #[default(Constant::new(Bits::<8>::from((32) as u64)))]
    k32: Constant<Bits<8>>,
    #[default(Constant::new(Bits::<8>::from((48) as u64)))]
    k48: Constant<Bits<8>>,
    #[default(Constant::new(Bits::<2>::from((1) as u64)))]
    fl1: Constant<Bits<2>>,
    #[default(Constant::new(Bits::<2>::from((2) as u64)))]
    fl2: Constant<Bits<2>>,
    #[default(Constant::new(Bits::<2>::from((3) as u64)))]
    fl3: Constant<Bits<2>>,
    #[default(Constant::new(Bits::<72>::from((1u64 << 63) as u64)))]
    k_probe_bit: Constant<Bits<72>>,
    #[default(Constant::new(Bits::<8>::from((64) as u64)))]
    k64: Constant<Bits<8>>,
    in_range: Signal<Local, Bit>,
    hit_ev: Signal<Local, Bit>,
    hit_p: Signal<Local, Bit>,
    hit_s: Signal<Local, Bit>,
    accept: Signal<Local, Bit>,
    room: Signal<Local, Bit>,
    visit_can: Signal<Local, Bit>,
    probe_go: Signal<Local, Bit>,
    sched_go: Signal<Local, Bit>,
    pop_go: Signal<Local, Bit>,
    p_flow: Signal<Local, Bits<16>>,
    p_t0: Signal<Local, Bits<32>>,
    s_flow: Signal<Local, Bits<16>>,
    iss_flow: Signal<Local, Bits<16>>,
    can_send: Signal<Local, Bit>,
    no_send: Signal<Local, Bit>,
    handshake: Signal<Local, Bit>,
    act: Signal<Local, Bit>,
    probe_t_on: Signal<Local, Bit>,
    pr_live: Signal<Local, Bit>,
    q_new: Signal<Local, Bit>,
    p_new: Signal<Local, Bit>,
    wen: Signal<Local, Bit>,
    u1: Signal<Local, Bits<8>>,
    u2: Signal<Local, Bits<8>>,
    span: Signal<Local, Bits<32>>,
}

impl<const A: usize> Logic for FlowSched<A> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            sched10,
            cs_pre10,
            push_ev10,
            now,
            used,
            last3,
            dspan,
            rew_ok,
            p_exp,
            visit_yield,
            h_v,
            h_op,
            h_flow,
            h_a,
            h_b
        );
        self.active.clock.next = self.clock.val();
        self.probes.clock.next = self.clock.val();
        self.out.clock.next = self.clock.val();
        clock!(self, clock, credit, counters);
        SchedStatsSource::link(&mut self.m_stats, &mut self.counters.m_stats);
        self.state.clock.next = self.clock.val();
        for i in 0..11 {
            self.v[i].clock.next = self.clock.val();
            self.v[i].d.next = self.v[i].q.val();
            self.kind[i].clock.next = self.clock.val();
            self.kind[i].d.next = self.kind[i].q.val();
            self.flow[i].clock.next = self.clock.val();
            self.flow[i].d.next = self.flow[i].q.val();
            self.tnow[i].clock.next = self.clock.val();
            self.tnow[i].d.next = self.tnow[i].q.val();
            self.op[i].clock.next = self.clock.val();
            self.op[i].d.next = self.op[i].q.val();
            self.a[i].clock.next = self.clock.val();
            self.a[i].d.next = self.a[i].q.val();
            self.b[i].clock.next = self.clock.val();
            self.b[i].d.next = self.b[i].q.val();
            self.dbb[i].clock.next = self.clock.val();
            self.dbb[i].d.next = self.dbb[i].q.val();
            self.r[i].clock.next = self.clock.val();
            self.r[i].d.next = self.r[i].q.val();
            self.w[i].clock.next = self.clock.val();
            self.w[i].d.next = self.w[i].q.val();
            self.una[i].clock.next = self.clock.val();
            self.una[i].d.next = self.una[i].q.val();
            self.nxt[i].clock.next = self.clock.val();
            self.nxt[i].d.next = self.nxt[i].q.val();
            self.endq[i].clock.next = self.clock.val();
            self.endq[i].d.next = self.endq[i].q.val();
            self.cr[i].clock.next = self.clock.val();
            self.cr[i].d.next = self.cr[i].q.val();
            self.queued[i].clock.next = self.clock.val();
            self.queued[i].d.next = self.queued[i].q.val();
            self.probing[i].clock.next = self.clock.val();
            self.probing[i].d.next = self.probing[i].q.val();
            self.inflight[i].clock.next = self.clock.val();
            self.inflight[i].d.next = self.inflight[i].q.val();
            self.pending[i].clock.next = self.clock.val();
            self.pending[i].d.next = self.pending[i].q.val();
            self.dack[i].clock.next = self.clock.val();
            self.dack[i].d.next = self.dack[i].q.val();
            self.dtot[i].clock.next = self.clock.val();
            self.dtot[i].d.next = self.dtot[i].q.val();
            self.len[i].clock.next = self.clock.val();
            self.len[i].d.next = self.len[i].q.val();
            self.ack_ok[i].clock.next = self.clock.val();
            self.ack_ok[i].d.next = self.ack_ok[i].q.val();
            self.db_ok[i].clock.next = self.clock.val();
            self.db_ok[i].d.next = self.db_ok[i].q.val();
            self.upd_ok[i].clock.next = self.clock.val();
            self.upd_ok[i].d.next = self.upd_ok[i].q.val();
            self.ev_ok[i].clock.next = self.clock.val();
            self.ev_ok[i].d.next = self.ev_ok[i].q.val();
            self.una_e[i].clock.next = self.clock.val();
            self.una_e[i].d.next = self.una_e[i].q.val();
            self.nxt_e[i].clock.next = self.clock.val();
            self.nxt_e[i].d.next = self.nxt_e[i].q.val();
            self.end_e[i].clock.next = self.clock.val();
            self.end_e[i].d.next = self.end_e[i].q.val();
            self.r_e[i].clock.next = self.clock.val();
            self.r_e[i].d.next = self.r_e[i].q.val();
            self.w_e[i].clock.next = self.clock.val();
            self.w_e[i].d.next = self.w_e[i].q.val();
            self.inflight_s[i].clock.next = self.clock.val();
            self.inflight_s[i].d.next = self.inflight_s[i].q.val();
            self.pending_s[i].clock.next = self.clock.val();
            self.pending_s[i].d.next = self.pending_s[i].q.val();
            self.nxt_s[i].clock.next = self.clock.val();
            self.nxt_s[i].d.next = self.nxt_s[i].q.val();
            self.fit[i].clock.next = self.clock.val();
            self.fit[i].d.next = self.fit[i].q.val();
            self.inflight_e[i].clock.next = self.clock.val();
            self.inflight_e[i].d.next = self.inflight_e[i].q.val();
            self.pending_e[i].clock.next = self.clock.val();
            self.pending_e[i].d.next = self.pending_e[i].q.val();
            self.len_s[i].clock.next = self.clock.val();
            self.len_s[i].d.next = self.len_s[i].q.val();
            self.len_e[i].clock.next = self.clock.val();
            self.len_e[i].d.next = self.len_e[i].q.val();
            self.tot_s[i].clock.next = self.clock.val();
            self.tot_s[i].d.next = self.tot_s[i].q.val();
            self.tot_e[i].clock.next = self.clock.val();
            self.tot_e[i].d.next = self.tot_e[i].q.val();
            self.fit_s2[i].clock.next = self.clock.val();
            self.fit_s2[i].d.next = self.fit_s2[i].q.val();
            self.act_e[i].clock.next = self.clock.val();
            self.act_e[i].d.next = self.act_e[i].q.val();
            self.act_s[i].clock.next = self.clock.val();
            self.act_s[i].d.next = self.act_s[i].q.val();
            self.act_ns[i].clock.next = self.clock.val();
            self.act_ns[i].d.next = self.act_ns[i].q.val();
            self.ep[i].clock.next = self.clock.val();
            self.ep[i].d.next = self.ep[i].q.val();
            self.ep_e[i].clock.next = self.clock.val();
            self.ep_e[i].d.next = self.ep_e[i].q.val();
            self.refund[i].clock.next = self.clock.val();
            self.refund[i].d.next = self.refund[i].q.val();
        }
        // Carry every stage value to the next stage.
        for i in 2..11 {
            self.v[i].d.next = self.v[i - 1].q.val();
            self.kind[i].d.next = self.kind[i - 1].q.val();
            self.flow[i].d.next = self.flow[i - 1].q.val();
            self.tnow[i].d.next = self.tnow[i - 1].q.val();
            self.op[i].d.next = self.op[i - 1].q.val();
            self.a[i].d.next = self.a[i - 1].q.val();
            self.b[i].d.next = self.b[i - 1].q.val();
            self.dbb[i].d.next = self.dbb[i - 1].q.val();
        }
        for i in 4..11 {
            self.r[i].d.next = self.r[i - 1].q.val();
            self.w[i].d.next = self.w[i - 1].q.val();
            self.una[i].d.next = self.una[i - 1].q.val();
            self.nxt[i].d.next = self.nxt[i - 1].q.val();
            self.endq[i].d.next = self.endq[i - 1].q.val();
            self.cr[i].d.next = self.cr[i - 1].q.val();
            self.queued[i].d.next = self.queued[i - 1].q.val();
            self.probing[i].d.next = self.probing[i - 1].q.val();
        }
        for i in 5..11 {
            self.inflight[i].d.next = self.inflight[i - 1].q.val();
            self.pending[i].d.next = self.pending[i - 1].q.val();
            self.dack[i].d.next = self.dack[i - 1].q.val();
            self.dtot[i].d.next = self.dtot[i - 1].q.val();
        }
        for i in 6..11 {
            self.len[i].d.next = self.len[i - 1].q.val();
            self.ack_ok[i].d.next = self.ack_ok[i - 1].q.val();
            self.db_ok[i].d.next = self.db_ok[i - 1].q.val();
            self.upd_ok[i].d.next = self.upd_ok[i - 1].q.val();
        }
        for i in 7..11 {
            self.ev_ok[i].d.next = self.ev_ok[i - 1].q.val();
            self.una_e[i].d.next = self.una_e[i - 1].q.val();
            self.nxt_e[i].d.next = self.nxt_e[i - 1].q.val();
            self.end_e[i].d.next = self.end_e[i - 1].q.val();
            self.r_e[i].d.next = self.r_e[i - 1].q.val();
            self.w_e[i].d.next = self.w_e[i - 1].q.val();
            self.inflight_s[i].d.next = self.inflight_s[i - 1].q.val();
            self.pending_s[i].d.next = self.pending_s[i - 1].q.val();
            self.nxt_s[i].d.next = self.nxt_s[i - 1].q.val();
        }
        for i in 8..11 {
            self.fit[i].d.next = self.fit[i - 1].q.val();
            self.inflight_e[i].d.next = self.inflight_e[i - 1].q.val();
            self.pending_e[i].d.next = self.pending_e[i - 1].q.val();
            self.len_s[i].d.next = self.len_s[i - 1].q.val();
        }
        for i in 9..11 {
            self.len_e[i].d.next = self.len_e[i - 1].q.val();
            self.tot_s[i].d.next = self.tot_s[i - 1].q.val();
        }
        for i in 10..11 {
            self.tot_e[i].d.next = self.tot_e[i - 1].q.val();
            self.fit_s2[i].d.next = self.fit_s2[i - 1].q.val();
        }
        for i in 4..11 {
            self.ep[i].d.next = self.ep[i - 1].q.val();
        }
        for i in 7..11 {
            self.ep_e[i].d.next = self.ep_e[i - 1].q.val();
            self.refund[i].d.next = self.refund[i - 1].q.val();
        }

        // ---- outputs
        self.m_send.valid.next = self.out.head_valid.val();
        self.m_send.flow.next = bit_cast::<16, 15>(self.out.head_data.val().get_bits::<15>(48));
        self.m_send.seq.next = self.out.head_data.val().get_bits::<32>(0);
        self.m_send.len.next = self.out.head_data.val().get_bits::<16>(32);
        self.m_send.probe.next = self.out.head_data.val().get_bit(63);
        self.m_send.epoch.next = self.out.head_data.val().get_bits::<8>(64);
        self.now.d.next = (self.now.q.val() + 1);
        self.credit.cfg_mtu.next = self.cfg_mtu.val();
        self.credit.cfg_cap.next = self.cfg_cap.val();

        // ---- S0: interlock and issue
        self.in_range.next = !(self.h_flow.q.val() >> self.k_a.val()).any();
        self.p_flow.next = self.probes.head_data.val().get_bits::<16>(32);
        self.p_t0.next = self.probes.head_data.val().get_bits::<32>(0);
        self.s_flow.next = self.active.head_data.val().get_bits::<16>(0);
        self.hit_ev.next = false;
        self.hit_p.next = false;
        self.hit_s.next = false;
        for i in 1..11 {
            if (self.v[i].q.val() && (self.kind[i].q.val() != self.k_kill.val())) {
                if (self.flow[i].q.val() == self.h_flow.q.val()) {
                    self.hit_ev.next = true;
                }
                if (self.flow[i].q.val() == self.p_flow.val()) {
                    self.hit_p.next = true;
                }
                if (self.flow[i].q.val() == self.s_flow.val()) {
                    self.hit_s.next = true;
                }
            }
        }
        self.room.next = (self.used.q.val() < self.k_cap.val());
        // The active list's head could issue this cycle. When it lost the
        // slot to an event before (`visit_yield`), events wait this cycle:
        // a flow's own ACKs and DOORBELLs, each holding the flow for the
        // interlock, would otherwise keep its visit out for as long as
        // they come.
        self.visit_can.next =
            (self.room.val() && self.active.head_valid.val() && !self.hit_s.val());
        self.accept.next = (self.h_v.q.val()
            && !(self.in_range.val() && self.hit_ev.val())
            && !(self.visit_yield.q.val() && self.visit_can.val()));
        // The input register: takes an event when empty (so `s_ev.ready`
        // is a register; one event every other cycle at most, and while
        // one waits for its flow the next waits upstream, where `EvMerge`
        // can still merge it), empties when its event issues.
        self.s_ev.ready.next = !self.h_v.q.val();
        if self.h_v.q.val() {
            self.h_v.d.next = !self.accept.val();
        } else {
            self.h_v.d.next = self.s_ev.valid.val();
            self.h_op.d.next = self.s_ev.op.val();
            self.h_flow.d.next = self.s_ev.flow.val();
            self.h_a.d.next = self.s_ev.a.val();
            self.h_b.d.next = self.s_ev.b.val();
        }
        self.probe_t_on.next = self.cfg_probe_t.val().any();
        // The probe head's expiry is registered (p_exp: the head was
        // already there last cycle and was `cfg_probe_t` old then), off
        // the issue path; a probe goes at least T + 1 cycles after its
        // time stamp.
        self.probe_go.next = (!self.accept.val()
            && !(self.visit_yield.q.val() && self.visit_can.val())
            && self.room.val()
            && self.probe_t_on.val()
            && self.p_exp.q.val()
            && !self.hit_p.val());
        self.p_exp.d.next = (self.probes.head_valid.val()
            && !self.probe_go.val()
            && ((self.now.q.val() - self.p_t0.val())
                >= bit_cast::<32, 24>(self.cfg_probe_t.val())));
        self.sched_go.next = (!self.accept.val() && !self.probe_go.val() && self.visit_can.val());
        self.visit_yield.d.next = (!self.sched_go.val()
            && (self.visit_yield.q.val() || (self.accept.val() && self.visit_can.val())));
        self.pop_go.next = (self.probe_go.val() || self.sched_go.val());
        self.active.pop.next = self.sched_go.val();
        self.probes.pop.next = self.probe_go.val();
        self.iss_flow.next = self.s_flow.val();
        self.kind[1].d.next = self.k_sched.val();
        if self.accept.val() {
            self.iss_flow.next = self.h_flow.q.val();
            if self.in_range.val() {
                self.kind[1].d.next = self.k_ev.val();
            } else {
                self.kind[1].d.next = self.k_kill.val();
            }
        } else if self.probe_go.val() {
            self.iss_flow.next = self.p_flow.val();
            self.kind[1].d.next = self.k_probe.val();
        }
        self.v[1].d.next = (self.accept.val() || self.pop_go.val());
        self.flow[1].d.next = self.iss_flow.val();
        self.tnow[1].d.next = self.now.q.val();
        self.op[1].d.next = self.h_op.q.val();
        self.a[1].d.next = self.h_a.q.val();
        self.b[1].d.next = self.h_b.q.val();
        self.dbb[1].d.next = self.h_a.q.val();
        if (self.h_op.q.val() == self.op_ack_db.val()) {
            self.dbb[1].d.next = self.h_b.q.val();
        }
        // ---- S1: read the state (the address comes from a register: eight
        // RAMs hang on it)
        self.state.read_address.next = bit_cast::<A, 16>(self.flow[1].q.val());

        // ---- S2: register the state words
        self.r[3].d.next = self.state.r.val();
        self.w[3].d.next = self.state.w.val();
        self.una[3].d.next = self.state.una.val();
        self.nxt[3].d.next = self.state.nxt.val();
        self.endq[3].d.next = self.state.seq_end.val();
        self.cr[3].d.next = self.state.cr.val();
        self.last3.d.next = self.state.last.val();
        self.queued[3].d.next = self.state.fl.val().get_bit(0);
        self.probing[3].d.next = self.state.fl.val().get_bit(1);
        self.ep[3].d.next = self.state.ep.val();

        // ---- S3: the credit's operands into `credit` (its product takes 4
        // cycles); differences
        self.credit.r.next = self.r[3].q.val();
        self.credit.now.next = self.tnow[3].q.val();
        self.credit.last.next = self.last3.q.val();
        self.inflight[4].d.next = (self.nxt[3].q.val() - self.una[3].q.val());
        self.pending[4].d.next = (self.endq[3].q.val() - self.nxt[3].q.val());
        self.dack[4].d.next = (self.a[3].q.val() - self.una[3].q.val());
        // The 32-bit difference goes through a local: inside a wider
        // expression Verilog would evaluate it at 33 bits (no wrap).
        self.span.next = (self.endq[3].q.val() - self.una[3].q.val());
        self.dspan.d.next = self.span.val();
        self.dtot[4].d.next =
            (bit_cast::<33, 32>(self.span.val()) + bit_cast::<33, 32>(self.dbb[3].q.val()));

        // ---- S4: packet length, event checks
        if (self.pending[4].q.val() < bit_cast::<32, 16>(self.cfg_mtu.val())) {
            self.len[5].d.next = self.pending[4].q.val().get_bits::<16>(0);
        } else {
            self.len[5].d.next = self.cfg_mtu.val();
        }
        self.ack_ok[5].d.next = (self.dack[4].q.val() <= self.inflight[4].q.val());
        self.rew_ok.d.next = (self.dack[4].q.val() <= self.dspan.q.val());
        self.db_ok[5].d.next =
            !(self.dtot[4].q.val().get_bit(32) || self.dtot[4].q.val().get_bit(31));
        self.upd_ok[5].d.next =
            (self.a[4].q.val().any() && self.b[4].q.val().get_bits::<24>(8).any());

        // ---- S5: the event's new state; the send's new state
        self.una_e[6].d.next = self.una[5].q.val();
        self.nxt_e[6].d.next = self.nxt[5].q.val();
        self.end_e[6].d.next = self.endq[5].q.val();
        self.r_e[6].d.next = self.r[5].q.val();
        self.w_e[6].d.next = self.w[5].q.val();
        self.ep_e[6].d.next = self.ep[5].q.val();
        // TRIM's refund: the bytes from a to nxt (decided, not sent).
        self.refund[6].d.next = (self.inflight[5].q.val() - self.dack[5].q.val());
        self.ev_ok[6].d.next = false;
        if (self.op[5].q.val() == self.op_init.val()) {
            self.ev_ok[6].d.next = true;
            self.ep_e[6].d.next = self.b[5].q.val().get_bits::<8>(0);
            self.una_e[6].d.next = self.a[5].q.val();
            self.nxt_e[6].d.next = self.a[5].q.val();
            self.end_e[6].d.next = self.a[5].q.val();
            self.r_e[6].d.next = 0.into();
            self.w_e[6].d.next = 0.into();
        } else if (self.op[5].q.val() == self.op_db.val()) {
            self.ev_ok[6].d.next = self.db_ok[5].q.val();
            self.end_e[6].d.next = (self.endq[5].q.val() + self.dbb[5].q.val());
        } else if (self.op[5].q.val() == self.op_ack_db.val()) {
            // Both parts checked against the state before the event.
            self.ev_ok[6].d.next = (self.ack_ok[5].q.val() && self.db_ok[5].q.val());
            self.una_e[6].d.next = self.a[5].q.val();
            self.end_e[6].d.next = (self.endq[5].q.val() + self.dbb[5].q.val());
        } else if (self.op[5].q.val() == self.op_upd.val()) {
            self.ev_ok[6].d.next = self.upd_ok[5].q.val();
            self.r_e[6].d.next = self.a[5].q.val();
            self.w_e[6].d.next = self.b[5].q.val().get_bits::<24>(8);
        } else if (self.op[5].q.val() == self.op_ack.val()) {
            self.ev_ok[6].d.next = self.ack_ok[5].q.val();
            self.una_e[6].d.next = self.a[5].q.val();
        } else if (self.op[5].q.val() == self.op_rew.val()) {
            self.ev_ok[6].d.next = self.rew_ok.q.val();
            self.una_e[6].d.next = self.a[5].q.val();
            self.nxt_e[6].d.next = self.a[5].q.val();
            self.ep_e[6].d.next = self.b[5].q.val().get_bits::<8>(0);
        } else if (self.op[5].q.val() == self.op_trim.val()) {
            self.ev_ok[6].d.next = self.ack_ok[5].q.val();
            self.nxt_e[6].d.next = self.a[5].q.val();
            self.ep_e[6].d.next = self.b[5].q.val().get_bits::<8>(0);
        }
        self.inflight_s[6].d.next = (bit_cast::<33, 32>(self.inflight[5].q.val())
            + bit_cast::<33, 16>(self.len[5].q.val()));
        self.pending_s[6].d.next =
            (self.pending[5].q.val() - bit_cast::<32, 16>(self.len[5].q.val()));
        self.nxt_s[6].d.next = (self.nxt[5].q.val() + bit_cast::<32, 16>(self.len[5].q.val()));

        // ---- S6: window fit of this packet; the event's in-flight and pending
        // (Nothing in flight: one packet goes whatever W.)
        self.fit[7].d.next = ((self.inflight_s[6].q.val()
            <= bit_cast::<33, 24>(self.w[6].q.val()))
            || !self.inflight[6].q.val().any());
        self.inflight_e[7].d.next = (self.nxt_e[6].q.val() - self.una_e[6].q.val());
        self.pending_e[7].d.next = (self.end_e[6].q.val() - self.nxt_e[6].q.val());
        if (self.pending_s[6].q.val() < bit_cast::<32, 16>(self.cfg_mtu.val())) {
            self.len_s[7].d.next = self.pending_s[6].q.val().get_bits::<16>(0);
        } else {
            self.len_s[7].d.next = self.cfg_mtu.val();
        }

        // ---- S7: the stored credit into `credit`
        self.credit.cr.next = self.cr[7].q.val();
        if (self.pending_e[7].q.val() < bit_cast::<32, 16>(self.cfg_mtu.val())) {
            self.len_e[8].d.next = self.pending_e[7].q.val().get_bits::<16>(0);
        } else {
            self.len_e[8].d.next = self.cfg_mtu.val();
        }
        self.tot_s[8].d.next =
            (self.inflight_s[7].q.val() + bit_cast::<33, 16>(self.len_s[7].q.val()));

        // ---- S8: the next packet's fit
        self.tot_e[9].d.next = (bit_cast::<33, 32>(self.inflight_e[8].q.val())
            + bit_cast::<33, 16>(self.len_e[8].q.val()));
        self.fit_s2[9].d.next = (self.tot_s[8].q.val() <= bit_cast::<33, 24>(self.w[8].q.val()));

        // ---- S9: the packet and TRIM's refund into `credit`; activity
        self.credit.len.next = self.len[9].q.val();
        self.credit.refund.next = self.refund[9].q.val();
        self.act_e[10].d.next = (self.r_e[9].q.val().any()
            && self.len_e[9].q.val().any()
            && ((self.tot_e[9].q.val() <= bit_cast::<33, 24>(self.w_e[9].q.val()))
                || !self.inflight_e[9].q.val().any()));
        self.act_s[10].d.next =
            (self.r[9].q.val().any() && self.len_s[9].q.val().any() && self.fit_s2[9].q.val());
        self.act_ns[10].d.next =
            (self.r[9].q.val().any() && self.len[9].q.val().any() && self.fit[9].q.val());

        self.sched10.d.next = (self.v[9].q.val() && (self.kind[9].q.val() == self.k_sched.val()));
        self.cs_pre10.d.next = (self.v[9].q.val()
            && (self.kind[9].q.val() == self.k_sched.val())
            && self.len[9].q.val().any()
            && self.fit[9].q.val());
        self.push_ev10.d.next = (self.v[9].q.val()
            && (self.kind[9].q.val() == self.k_ev.val())
            && self.ev_ok[9].q.val()
            && !self.queued[9].q.val()
            && self.act_e[10].d.val());

        // ---- S10: decide, write back, queue
        self.can_send.next = (self.cs_pre10.q.val() && !self.credit.cr_short.val());
        self.pr_live.next = self.inflight[10].q.val().any();
        self.handshake.next = (self.out.head_valid.val() && self.m_send.ready.val());
        self.out.pop.next = self.m_send.ready.val();
        self.no_send.next = false;
        self.act.next = self.act_ns[10].q.val();
        if self.can_send.val() {
            self.act.next = self.act_s[10].q.val();
        }
        // Defaults: write the state as read, with the accrued credit.
        self.state.w_r.next = self.r[10].q.val();
        self.state.w_w.next = self.w[10].q.val();
        self.state.w_una.next = self.una[10].q.val();
        self.state.w_nxt.next = self.nxt[10].q.val();
        self.state.w_seq_end.next = self.endq[10].q.val();
        self.state.w_cr.next = self.credit.cr_acc.val();
        self.state.w_last.next = self.tnow[10].q.val();
        self.state.w_ep.next = self.ep[10].q.val();
        self.q_new.next = self.queued[10].q.val();
        self.p_new.next = self.probing[10].q.val();
        self.wen.next = false;
        self.active.push_data.next = self.flow[10].q.val();
        self.probes.push.next = false;
        self.probes.push_data.next = ((bit_cast::<48, 16>(self.flow[10].q.val())
            << self.k32.val())
            | bit_cast::<48, 32>(self.tnow[10].q.val()));
        self.out.push.next = false;
        self.out.push_data.next = ((bit_cast::<72, 8>(self.ep[10].q.val()) << self.k64.val())
            | (bit_cast::<72, 16>(self.flow[10].q.val()) << self.k48.val())
            | (bit_cast::<72, 16>(self.len[10].q.val()) << self.k32.val())
            | bit_cast::<72, 32>(self.nxt[10].q.val()));
        if self.v[10].q.val() {
            if (self.kind[10].q.val() == self.k_ev.val()) {
                if self.ev_ok[10].q.val() {
                    self.wen.next = true;
                    self.state.w_r.next = self.r_e[10].q.val();
                    self.state.w_w.next = self.w_e[10].q.val();
                    self.state.w_una.next = self.una_e[10].q.val();
                    self.state.w_nxt.next = self.nxt_e[10].q.val();
                    self.state.w_seq_end.next = self.end_e[10].q.val();
                    self.state.w_ep.next = self.ep_e[10].q.val();
                    if (self.op[10].q.val() == self.op_init.val()) {
                        self.state.w_cr.next = 0.into();
                    }
                    if (self.op[10].q.val() == self.op_trim.val()) {
                        self.state.w_cr.next = self.credit.cr_trim.val();
                    }
                    if (!self.queued[10].q.val() && self.act_e[10].q.val()) {
                        self.q_new.next = true;
                    }
                }
            } else if (self.kind[10].q.val() == self.k_sched.val()) {
                self.wen.next = true;
                self.q_new.next = self.act.val();
                if self.can_send.val() {
                    self.state.w_nxt.next = self.nxt_s[10].q.val();
                    self.state.w_cr.next = self.credit.cr_sent.val();
                    self.out.push.next = true;
                    if (self.probe_t_on.val() && !self.probing[10].q.val()) {
                        self.p_new.next = true;
                        self.probes.push.next = true;
                    }
                } else {
                    self.no_send.next = true;
                }
            } else if (self.kind[10].q.val() == self.k_probe.val()) {
                self.wen.next = true;
                if self.pr_live.val() {
                    self.out.push.next = true;
                    self.out.push_data.next = (self.k_probe_bit.val()
                        | (bit_cast::<72, 8>(self.ep[10].q.val()) << self.k64.val())
                        | (bit_cast::<72, 16>(self.flow[10].q.val()) << self.k48.val())
                        | bit_cast::<72, 32>(self.nxt[10].q.val()));
                    self.probes.push.next = true;
                } else {
                    self.p_new.next = false;
                    self.no_send.next = true;
                }
            }
        }
        // The list's push, from S9's registered terms: the same as the
        // branches above (an event's or a visit's), two gates deep.
        self.active.push.next =
            (self.push_ev10.q.val() || (self.sched10.q.val() && self.act.val()));
        if (self.q_new.val() && self.p_new.val()) {
            self.state.w_fl.next = self.fl3.val();
        } else if self.q_new.val() {
            self.state.w_fl.next = self.fl1.val();
        } else if self.p_new.val() {
            self.state.w_fl.next = self.fl2.val();
        } else {
            self.state.w_fl.next = 0.into();
        }
        self.state.write_enable.next = self.wen.val();
        self.state.write_address.next = bit_cast::<A, 16>(self.flow[10].q.val());

        // Reserved PktSend slots: + a visit issued, − a visit that sent
        // nothing, − a PktSend taken by Tx.
        // (The decrements are known early; the issue decision only muxes.)
        if (self.no_send.val() && self.handshake.val()) {
            self.u1.next = (self.used.q.val() - 2);
        } else if (self.no_send.val() || self.handshake.val()) {
            self.u1.next = (self.used.q.val() - 1);
        } else {
            self.u1.next = self.used.q.val();
        }
        self.u2.next = (self.u1.val() + 1);
        if self.pop_go.val() {
            self.used.d.next = self.u2.val();
        } else {
            self.used.d.next = self.u1.val();
        }

        // ---- counters: each retired operation's flags
        self.counters.ev.next = (self.v[10].q.val()
            && ((self.kind[10].q.val() == self.k_ev.val())
                || (self.kind[10].q.val() == self.k_kill.val())));
        self.counters.kill.next =
            (self.v[10].q.val() && (self.kind[10].q.val() == self.k_kill.val()));
        self.counters.rejected.next = (self.v[10].q.val()
            && (self.kind[10].q.val() == self.k_ev.val())
            && !self.ev_ok[10].q.val());
        self.counters.op.next = self.op[10].q.val();
        self.counters.ack_ok.next = self.ack_ok[10].q.val();
        self.counters.db_ok.next = self.db_ok[10].q.val();
        self.counters.sent.next = self.can_send.val();
        self.counters.probed.next = (self.v[10].q.val()
            && (self.kind[10].q.val() == self.k_probe.val())
            && self.pr_live.val());
    }
}
