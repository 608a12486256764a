//! The HPCC++ congestion-control module: sender-based (NewAck) and
//! receiver-based (NewINT), fixed point, one event per cycle across flows.
//!
//! This file holds the per-flow state RAMs, the hazard interlock, the
//! event's checks and commit decision (pseudocode lines 21–26, 28–34) and
//! the plumbing between the arithmetic blocks, each in its own file with
//! its pseudocode lines: [`MeasureInflight`] (lines 4–5, one per hop
//! tracked),
//! [`HopMax`] (6–7), [`Ewma`] (8–9), [`ComputeWind`] (11–20), [`Rate`]
//! (27). `super` (`mod.rs`) has the table from pseudocode line to code.
//!
//! # Parameters
//! `A`: 2^A flows. `H` (1..=5, default 5): the hops of telemetry tracked.
//! The events carry up to five hop words; a module built for fewer (a
//! network of one or two switches: `HpccCc<A, 2>`, the ECPIX-5 board's)
//! drops an event of more than H hops as `DROP_HOPS` and has H
//! `MeasureInflight` pipelines and H hop RAMs instead of five (the
//! pipelines are most of its logic). For events of at most H hops it is
//! the five-hop module exactly.
//!
//! # Ports (clock `clock`)
//! Configuration (quasi-static; change only while no event is in flight;
//! values from the driver, `nic_golden::cc::params::CcParams::regs`):
//! `cfg_t` (T, ns, 24 bits),
//! `cfg_inv_t_m`/`cfg_inv_t_s` (floor(2^s/T) and s), `cfg_uq_m`
//! (floor(2^(s+2)/(5T))), `cfg_eta` (UQ0.16), `cfg_max_stage` (3 bits),
//! `cfg_w_ai`/`cfg_w_min`/`cfg_w_init` (UQ24.8 bytes), `cfg_mlog`
//! (log2 of the telemetry multi).
//!
//! Event in, `s_event` ([`CcEventSink`], valid/ready; the `CcEvent`
//! record of `nic_spec::records`): `op` (0 event, 1 create, 2 destroy),
//! `variant` (0 NewAck, 1 NewINT: on create the flow's, kept in its meta;
//! on an event the variant it is for), `flow` (16 bits), `seq`, `snd_nxt` (sender, 32 bits, serial
//! arithmetic), `now` (receiver, ns mod 2^32), `nhops` (4 bits),
//! `hop0..4` (ns-3 hop words, parsed by [`Ns3HopParse`]).
//!
//! Update out, `m_update` ([`CcUpdateSource`], valid only; the scheduler
//! takes one per cycle): `flow`, `status` (see
//! `nic_golden::cc::hpcc::status`), `flags` (ts stale, bytes back, qlen
//! saturated), `w` (UQ24.8 bytes), `r` (R = W/T, UQ8.16 bytes/ns), `u`
//! (U, UQ8.24), `inc_stage`, `updated_wc` (Wc committed; for the
//! receiver, the window is to be sent back), `variant` (the event's).
//! Counters: `m_stats`
//! ([`CcStatsSource`], 32 bits each, wrapping).
//!
//! # Timing
//! `s_event` enters the record's register slice (`CcEvent::Slice`, timing
//! rule R1): `s_event.ready` is its flip-flop, never the interlock's
//! flow compare (R2). The interlock decides on the slice's head.
//! Latency [`LATENCY`] cycles from `s_event`'s handshake to
//! `m_update.valid` for an event not held (one in the slice, 102 from
//! the head's acceptance), II 1 for events of different flows. An event
//! whose flow had an event accepted in the last [`HAZARD_WINDOW`] cycles
//! waits at the head (and the slice, once it holds two, refuses
//! `s_event`): each state field's read-modify-write spans at most that
//! many cycles, so events of one flow are processed exactly in order,
//! with no forwarding.
//!
//! Stages (cycle after the head's acceptance; a register named `x_sN` holds x at
//! stage N; the event's context, [`EventCtx`], travels beside the
//! arithmetic in `ctx_sN`):
//! - 0: interlock, parse, read the flow's meta (created, hop count,
//!   lastUpdate) and stored hops; 1: RAM outputs registered; 2: the
//!   commit decision (seq − lastUpdateSeq, now − lastUpdateTime), the hop
//!   count tests, and the hops into [`MeasureInflight`] (its deltas).
//! - 3: status, flags; meta and hop writes (registered, land at the end
//!   of 4).
//! - 2–40: u′ per hop (lines 4–5; the dividers run 5–38).
//! - 40–43: the maximum over the hops and its tau (lines 6–7).
//! - 43–55: the U EWMA (lines 8–9; read U at 47); 55: U chosen by
//!   status; 56: U written.
//! - 56–96: ComputeWind (lines 11–20; eta/U 56–89, read W, Wc, incStage
//!   at 87); 96: W chosen by status, W, Wc, incStage written.
//! - 96–101: R = W/T (line 27); 101: the output registers (out at 102).
//!
//! # State
//! Per flow, in block RAM (2^A flows): meta (37 bits: variant, created,
//! hop count, lastUpdate), H hops of 61
//! bits (the ns-3 hop word without its rate code), U (32), W/Wc/incStage (67). The meta RAM starts at zero: no flow
//! exists until created.
//!
//! # Bad input
//! Flow id ≥ 2^A, a flow not created, or an unknown op: `DROP_FLOW`. Hop
//! count 0 or > H: `DROP_HOPS`. An unknown rate code in a used hop:
//! `DROP_RATE`. An event whose variant is not its flow's (an ACK's
//! telemetry for a NewINT flow, a data packet's for a NewAck flow):
//! `DROP_VARIANT`. Dropped events write no state and are counted. A hop
//! whose timestamp did not advance or went back contributes its queue
//! term only (tau 0); tx bytes going back count as 0; a saturated qlen is
//! used as is; each is flagged and counted. Arithmetic saturates.
//!
//! Golden twin: `nic_golden::cc::hpcc` (its `HpccFixed` spells out each
//! step, calling the blocks' pure functions).

use super::compute_wind::ComputeWind;
use super::ewma::Ewma;
use super::hop_max::HopMax;
use super::int_ns3::Ns3HopParse;
use super::measure_inflight::MeasureInflight;
use super::rate::Rate;
use crate::arith::{Delay, DelayRam};
use crate::cc::{CcEvent, CcEventSink, CcStatsSource, CcUpdateSource};
use crate::mem::Ram;
use rust_hdl::prelude::*;
use smart_default::SmartDefault;

/// Cycles from `s_event`'s handshake (an event not held at the slice's
/// head) to `m_update.valid`: one in the register slice, 102 in the
/// pipeline.
pub const LATENCY: usize = 103;
/// Same-flow events are spaced at least `HAZARD_WINDOW + 1` cycles.
pub const HAZARD_WINDOW: usize = 9;
const HZ: usize = 9;

/// The event's context, carried beside the arithmetic from stage 3 to
/// the output registers.
#[derive(Clone, Copy, Debug, PartialEq, Default, LogicStruct)]
pub struct EventCtx {
    /// An accepted event (not a bubble).
    pub valid: Bit,
    pub flow: Bits<16>,
    /// `nic_golden::cc::hpcc::status`.
    pub status: Bits<3>,
    /// `m_update.flags`: ts stale, bytes back, qlen saturated.
    pub flags: Bits<3>,
    /// Line 22 / 29: commit Wc (updateWc) this time.
    pub commit: Bit,
    /// The event's variant (0 NewAck, 1 NewINT).
    pub variant: Bit,
}

/// [`EventCtx`] from L cycles ago (L ≥ 1 registers, starting at zero):
/// `Delay` for the context.
#[derive(LogicBlock, SmartDefault)]
pub struct CtxDelay<const L: usize> {
    // The parameter check, when the block is built.
    #[default({
        assert!(L >= 1, "CtxDelay needs L >= 1");
        Default::default()
    })]
    pub clock: Signal<In, Clock>,
    pub d: Signal<In, EventCtx>,
    pub q: Signal<Out, EventCtx>,
    #[default(std::array::from_fn(|_| Default::default()))]
    r: [DFF<EventCtx>; L],
}

impl<const L: usize> Logic for CtxDelay<L> {
    #[hdl_gen]
    fn update(&mut self) {
        for i in 0..L {
            self.r[i].clock.next = self.clock.val();
        }
        self.r[0].d.next = self.d.val();
        for i in 1..L {
            self.r[i].d.next = self.r[i - 1].q.val();
        }
        for i in (L - 1)..L {
            self.q.next = self.r[i].q.val();
        }
    }
}

#[derive(LogicBlock, SmartDefault)]
pub struct HpccCc<const A: usize, const H: usize = 5> {
    // The parameter check, when the block is built.
    #[default({
        assert!((2..=16).contains(&A), "HpccCc needs 2 <= A <= 16");
        assert!((1..=5).contains(&H), "HpccCc needs 1 <= H <= 5");
        Default::default()
    })]
    pub clock: Signal<In, Clock>,
    pub cfg_t: Signal<In, Bits<24>>,
    pub cfg_inv_t_m: Signal<In, Bits<32>>,
    pub cfg_inv_t_s: Signal<In, Bits<8>>,
    pub cfg_uq_m: Signal<In, Bits<32>>,
    pub cfg_eta: Signal<In, Bits<16>>,
    pub cfg_max_stage: Signal<In, Bits<3>>,
    pub cfg_w_ai: Signal<In, Bits<32>>,
    pub cfg_w_min: Signal<In, Bits<32>>,
    pub cfg_w_init: Signal<In, Bits<32>>,
    pub cfg_mlog: Signal<In, Bits<3>>,
    pub s_event: CcEventSink,
    pub m_update: CcUpdateSource,
    pub m_stats: CcStatsSource,

    // ---- constants
    /// A, the flow id's width (a flow id ≥ 2^A has a bit set from A on;
    /// hdl_gen cannot print the const generic itself).
    #[default(k(A as u64))]
    k_a: Constant<Bits<8>>,
    /// H, the hops tracked (a hop count above it is `DROP_HOPS`).
    #[default(k(H as u64))]
    k_h: Constant<Bits<4>>,
    /// i, for hop i's test nhops > i.
    #[default(std::array::from_fn(|i| k(i as u64)))]
    hop_index: [Constant<Bits<4>>; H],
    /// 1.0 in UQ8.24.
    #[default(k(1 << 24))]
    u_one: Constant<Bits<32>>,
    #[default(k(0))]
    op_event: Constant<Bits<2>>,
    #[default(k(1))]
    op_create: Constant<Bits<2>>,
    #[default(k(2))]
    op_destroy: Constant<Bits<2>>,
    #[default(k(0))]
    st_update: Constant<Bits<3>>,
    #[default(k(1))]
    st_init: Constant<Bits<3>>,
    #[default(k(2))]
    st_created: Constant<Bits<3>>,
    #[default(k(3))]
    st_destroyed: Constant<Bits<3>>,
    #[default(k(4))]
    st_drop_flow: Constant<Bits<3>>,
    #[default(k(5))]
    st_drop_hops: Constant<Bits<3>>,
    #[default(k(6))]
    st_drop_rate: Constant<Bits<3>>,
    #[default(k(7))]
    st_drop_variant: Constant<Bits<3>>,

    /// The events' register slice (R1): `s_event.ready` is its flip-flop;
    /// the interlock decides on its head.
    slice: CcEvent::Slice,

    // ---- stage 0: hazard interlock (the flows accepted in the last HZ
    // cycles)
    recent_valid: [DFF<Bit>; HZ],
    recent_flow: [DFF<Bits<16>>; HZ],
    /// Whether the slice's head is held (its flow is among the recent
    /// ones): a flip-flop, decided a cycle ahead on the head the slice
    /// will hold (R4), so the slice's load enable starts at a register.
    hit: DFF<Bit>,
    accept: Signal<Local, Bit>,
    /// The flow of the record in the slice's skid: a copy of the slice's
    /// own skid register (synthesis merges the two), loaded from the
    /// slice's ports by its documented rule (a record that arrives in
    /// the cycle the head does not move on).
    skid_flow: DFF<Bits<16>>,
    /// The head moves on this cycle (taken, or the slice empty).
    head_free: Signal<Local, Bit>,
    /// `s_event` is taken this cycle.
    in_take: Signal<Local, Bit>,
    /// The next head is held, for each head it can be: the present one,
    /// the skid's record, `s_event`'s.
    hit_if_head: Signal<Local, Bit>,
    hit_if_skid: Signal<Local, Bit>,
    hit_if_in: Signal<Local, Bit>,

    // ---- stage 0: parse; the event, to stages 2 and 3
    parse: [Ns3HopParse; 5],
    valid_s2: Delay<1, 2>,
    valid_s3: Delay<1, 1>,
    op_s3: Delay<2, 3>,
    variant_s3: Delay<1, 3>,
    flow_s3: Delay<16, 3>,
    /// The flow id is ≥ 2^A.
    flow_oor_s3: Delay<1, 3>,
    seq_s2: Delay<32, 2>,
    snd_nxt_s3: Delay<32, 3>,
    now_s2: Delay<32, 2>,
    now_s3: Delay<32, 1>,
    nhops_s2: Delay<4, 2>,
    nhops_s3: Delay<4, 1>,
    /// The ack's hops (ack.L) as hop words (the ns-3 word's bits 63..3),
    /// and their parsed flags.
    #[default(std::array::from_fn(|_| Default::default()))]
    new_hop_s2: [Delay<61, 2>; H],
    #[default(std::array::from_fn(|_| Default::default()))]
    new_code_s2: [Delay<3, 2>; H],
    #[default(std::array::from_fn(|_| Default::default()))]
    rate_ok_s2: [Delay<1, 2>; H],
    #[default(std::array::from_fn(|_| Default::default()))]
    qlen_max_s3: [Delay<1, 3>; H],

    // ---- per-flow state. Meta word: created [35], hop count [34:32]
    // (written as 4 bits at [35:32], OR created), lastUpdateSeq or
    // lastUpdateTime [31:0]. Hop word (L[i], the ns-3 hop word without its
    // rate code): qlen [60:44], bytes [43:24], ts [23:0]. W word: W
    // [66:35], Wc [34:3], incStage [2:0].
    // Every RAM (`Ram`) starts at zero: no flow exists at power-up
    // (and no X in a 4-state simulation).
    meta_ram: Ram<Bits<37>, A>,
    #[default(std::array::from_fn(|_| Default::default()))]
    hop_ram: [Ram<Bits<61>, A>; H],
    u_ram: Ram<Bits<32>, A>,
    w_ram: Ram<Bits<67>, A>,

    // ---- stage 1: the RAM outputs, registered
    meta_s2: DFF<Bits<37>>,
    #[default(std::array::from_fn(|_| Default::default()))]
    old_hop_s2: [DFF<Bits<61>>; H],

    // ---- stage 2: the commit decision and the hop count tests
    last_update: Signal<Local, Bits<32>>,
    seq_delta: Signal<Local, Bits<32>>,
    now_delta: Signal<Local, Bits<32>>,
    #[default(std::array::from_fn(|_| Default::default()))]
    active: [Signal<Local, Bit>; H],
    bad_rate: Signal<Local, Bit>,
    meta_s3: DFF<Bits<37>>,
    /// Line 22 / 29: commit Wc this time.
    commit_s3: DFF<Bit>,
    /// Hop count 0 or > H.
    nhops_bad_s3: DFF<Bit>,
    /// Hop count differs from the stored one (or none stored).
    nhops_changed_s3: DFF<Bit>,
    bad_rate_s3: DFF<Bit>,
    #[default(std::array::from_fn(|_| Default::default()))]
    active_s3: [DFF<Bit>; H],
    /// The ack's hop words, for the write.
    #[default(std::array::from_fn(|_| Default::default()))]
    new_hop_s3: [DFF<Bits<61>>; H],

    // ---- stages 2..40: lines 4–5, one block per hop
    #[default(std::array::from_fn(|_| Default::default()))]
    measure: [MeasureInflight; H],

    // ---- stage 3: status, flags; meta and hop writes (registered)
    created: Signal<Local, Bit>,
    flags: Signal<Local, Bits<3>>,
    status: Signal<Local, Bits<3>>,
    stamp: Signal<Local, Bits<32>>,
    meta_new: Signal<Local, Bits<37>>,
    wr_flow_s4: DFF<Bits<A>>,
    meta_we_s4: DFF<Bit>,
    meta_wd_s4: DFF<Bits<37>>,
    hop_we_s4: DFF<Bit>,
    #[default(std::array::from_fn(|_| Default::default()))]
    hop_wd_s4: [DFF<Bits<61>>; H],

    // ---- the event's context, from stage 3, at the stages that use it
    ctx: Signal<Local, EventCtx>,
    ctx_s47: DelayRam<EventCtx, 44, 6>,
    ctx_s55: CtxDelay<8>,
    ctx_s56: CtxDelay<1>,
    ctx_s87: DelayRam<EventCtx, 31, 5>,
    ctx_s96: CtxDelay<9>,
    ctx_s101: CtxDelay<5>,

    // ---- stages 40..56: lines 6–7, lines 8–9; U by status, written at 56
    hop_max: HopMax,
    ewma: Ewma,
    u_s56: DFF<Bits<32>>,
    u_out_s101: DelayRam<Bits<32>, 45, 6>,

    // ---- stages 56..96: lines 11–20; W, Wc, incStage by status, written
    // at 96
    compute_wind: ComputeWind,
    w_out: Signal<Local, Bits<32>>,
    inc_out: Signal<Local, Bits<3>>,
    wc_write: Signal<Local, Bits<32>>,
    inc_write: Signal<Local, Bits<3>>,
    w_out_s101: Delay<32, 5>,
    inc_out_s101: Delay<3, 5>,

    // ---- stages 96..101: line 27
    rate: Rate,

    // ---- output registers and counters
    o_valid: DFF<Bit>,
    o_flow: DFF<Bits<16>>,
    o_status: DFF<Bits<3>>,
    o_flags: DFF<Bits<3>>,
    o_w: DFF<Bits<32>>,
    o_r: DFF<Bits<24>>,
    o_u: DFF<Bits<32>>,
    o_inc: DFF<Bits<3>>,
    o_upd: DFF<Bit>,
    o_variant: DFF<Bit>,
    c_events: DFF<Bits<32>>,
    c_drop_flow: DFF<Bits<32>>,
    c_drop_hops: DFF<Bits<32>>,
    c_drop_rate: DFF<Bits<32>>,
    c_drop_variant: DFF<Bits<32>>,
    c_ts_stale: DFF<Bits<32>>,
    c_bytes_back: DFF<Bits<32>>,
    c_qlen_sat: DFF<Bits<32>>,
}

fn k<const N: usize>(v: u64) -> Constant<Bits<N>> {
    Constant::new(v.to_bits())
}

impl<const A: usize, const H: usize> Logic for HpccCc<A, H> {
    #[hdl_gen]
    fn update(&mut self) {
        // ---- clocks
        dff_setup!(
            self,
            clock,
            hit,
            skid_flow,
            meta_s2,
            meta_s3,
            commit_s3,
            nhops_bad_s3,
            nhops_changed_s3,
            bad_rate_s3,
            wr_flow_s4,
            meta_we_s4,
            meta_wd_s4,
            hop_we_s4,
            u_s56,
            o_valid,
            o_flow,
            o_status,
            o_flags,
            o_w,
            o_r,
            o_u,
            o_inc,
            o_upd,
            o_variant,
            c_events,
            c_drop_flow,
            c_drop_hops,
            c_drop_rate,
            c_drop_variant,
            c_ts_stale,
            c_bytes_back,
            c_qlen_sat
        );
        clock!(
            self,
            clock,
            meta_ram,
            u_ram,
            w_ram,
            valid_s2,
            valid_s3,
            op_s3,
            variant_s3,
            flow_s3,
            flow_oor_s3,
            seq_s2,
            snd_nxt_s3,
            now_s2,
            now_s3,
            nhops_s2,
            nhops_s3,
            ctx_s47,
            ctx_s55,
            ctx_s56,
            ctx_s87,
            ctx_s96,
            ctx_s101,
            hop_max,
            ewma,
            u_out_s101,
            compute_wind,
            w_out_s101,
            inc_out_s101,
            rate
        );
        for i in 0..HZ {
            self.recent_valid[i].clock.next = self.clock.val();
            self.recent_flow[i].clock.next = self.clock.val();
        }
        for i in 0..H {
            self.hop_ram[i].clock.next = self.clock.val();
            self.new_hop_s2[i].clock.next = self.clock.val();
            self.new_code_s2[i].clock.next = self.clock.val();
            self.rate_ok_s2[i].clock.next = self.clock.val();
            self.qlen_max_s3[i].clock.next = self.clock.val();
            self.old_hop_s2[i].clock.next = self.clock.val();
            self.active_s3[i].clock.next = self.clock.val();
            self.new_hop_s3[i].clock.next = self.clock.val();
            self.hop_wd_s4[i].clock.next = self.clock.val();
            self.measure[i].clock.next = self.clock.val();
        }

        // ---- the events' register slice; its head is stage 0's event
        self.slice.clock.next = self.clock.val();
        CcEventSink::link(&mut self.s_event, &mut self.slice.s);

        // ---- stage 0: hazard interlock on the slice's head, accept.
        // `hit` is registered: it is computed here for the head the slice
        // holds next cycle, against the recent flows as they will stand.
        self.slice.m.ready.next = !self.hit.q.val();
        self.accept.next = (self.slice.m.valid.val() && !self.hit.q.val());
        self.recent_valid[0].d.next = self.accept.val();
        self.recent_flow[0].d.next = self.slice.m.flow.val();
        for i in 1..HZ {
            self.recent_valid[i].d.next = self.recent_valid[i - 1].q.val();
            self.recent_flow[i].d.next = self.recent_flow[i - 1].q.val();
        }
        // The slice's moves, read from its ports: `s_event.ready` is its
        // skid empty, `m.valid` its head full.
        self.head_free.next = (!self.hit.q.val() || !self.slice.m.valid.val());
        self.in_take.next = (self.s_event.valid.val() && self.s_event.ready.val());
        if (!self.head_free.val() && self.in_take.val()) {
            self.skid_flow.d.next = self.s_event.flow.val();
        } else {
            self.skid_flow.d.next = self.skid_flow.q.val();
        }
        // Entry 0 next cycle is the head if it is accepted now.
        self.hit_if_head.next = self.accept.val();
        self.hit_if_skid.next =
            (self.accept.val() && (self.slice.m.flow.val() == self.skid_flow.q.val()));
        self.hit_if_in.next =
            (self.accept.val() && (self.slice.m.flow.val() == self.s_event.flow.val()));
        for i in 1..HZ {
            if self.recent_valid[i - 1].q.val() {
                if (self.recent_flow[i - 1].q.val() == self.slice.m.flow.val()) {
                    self.hit_if_head.next = true;
                }
                if (self.recent_flow[i - 1].q.val() == self.skid_flow.q.val()) {
                    self.hit_if_skid.next = true;
                }
                if (self.recent_flow[i - 1].q.val() == self.s_event.flow.val()) {
                    self.hit_if_in.next = true;
                }
            }
        }
        // The head next cycle: the skid's record, else `s_event`'s, when
        // the head moves on and one is there; else the present head.
        self.hit.d.next = self.hit_if_head.val();
        if self.head_free.val() {
            if !self.s_event.ready.val() {
                self.hit.d.next = self.hit_if_skid.val();
            } else if self.s_event.valid.val() {
                self.hit.d.next = self.hit_if_in.val();
            }
        }

        // ---- stage 0: parse the hops; read the flow's meta and stored hops
        self.parse[0].word.next = self.slice.m.hop0.val();
        self.parse[1].word.next = self.slice.m.hop1.val();
        self.parse[2].word.next = self.slice.m.hop2.val();
        self.parse[3].word.next = self.slice.m.hop3.val();
        self.parse[4].word.next = self.slice.m.hop4.val();
        for i in 0..H {
            self.new_hop_s2[i].d.next = self.parse[i].word.val().get_bits::<61>(3);
            self.new_code_s2[i].d.next = self.parse[i].rate.val();
            self.rate_ok_s2[i].d.next = self.parse[i].rate_ok.val().into();
            self.qlen_max_s3[i].d.next = self.parse[i].qlen_max.val().into();
            self.hop_ram[i].read_address.next = bit_cast::<A, 16>(self.slice.m.flow.val());
        }
        self.meta_ram.read_address.next = bit_cast::<A, 16>(self.slice.m.flow.val());
        self.valid_s2.d.next = self.accept.val().into();
        self.op_s3.d.next = self.slice.m.op.val();
        self.variant_s3.d.next = bit_cast::<1, 1>(self.slice.m.variant.val().into());
        self.flow_s3.d.next = self.slice.m.flow.val();
        self.flow_oor_s3.d.next = (self.slice.m.flow.val() >> self.k_a.val()).any().into();
        self.seq_s2.d.next = self.slice.m.seq.val();
        self.snd_nxt_s3.d.next = self.slice.m.snd_nxt.val();
        self.now_s2.d.next = self.slice.m.now.val();
        self.nhops_s2.d.next = self.slice.m.nhops.val();

        // ---- stage 1: register the RAM outputs
        self.meta_s2.d.next = self.meta_ram.read_data.val();
        for i in 0..H {
            self.old_hop_s2[i].d.next = self.hop_ram[i].read_data.val();
        }

        // ---- stage 2: the commit decision, the hop count tests, registered
        self.last_update.next = self.meta_s2.q.val().get_bits::<32>(0);
        self.seq_delta.next = (self.seq_s2.q.val() - self.last_update.val());
        self.now_delta.next = (self.now_s2.q.val() - self.last_update.val());
        // Line 22 (sender): ack.seq > lastUpdateSeq, serial arithmetic.
        self.commit_s3.d.next = (self.seq_delta.val().any() && !self.seq_delta.val().get_bit(31));
        // Line 29 (receiver): now > lastUpdateTime + T.
        if self.meta_s2.q.val().get_bit(36) {
            self.commit_s3.d.next = ((self.now_delta.val() > bit_cast::<32, 24>(self.cfg_t.val()))
                && !self.now_delta.val().get_bit(31));
        }
        self.valid_s3.d.next = self.valid_s2.q.val();
        self.now_s3.d.next = self.now_s2.q.val();
        self.nhops_s3.d.next = self.nhops_s2.q.val();
        self.meta_s3.d.next = self.meta_s2.q.val();
        self.nhops_bad_s3.d.next =
            ((!self.nhops_s2.q.val().any()) || (self.nhops_s2.q.val() > self.k_h.val()));
        self.nhops_changed_s3.d.next =
            (bit_cast::<4, 3>(self.meta_s2.q.val().get_bits::<3>(32)) != self.nhops_s2.q.val());
        self.bad_rate.next = false;
        for i in 0..H {
            self.active[i].next = (self.nhops_s2.q.val() > self.hop_index[i].val());
            if (self.active[i].val() && !self.rate_ok_s2[i].q.val().any()) {
                self.bad_rate.next = true;
            }
            self.active_s3[i].d.next = self.active[i].val();
        }
        self.bad_rate_s3.d.next = self.bad_rate.val();
        // The ack's hop words, for the write.
        for i in 0..H {
            self.new_hop_s3[i].d.next = self.new_hop_s2[i].q.val();
        }

        // ---- stages 2..40: lines 4–5 per hop: ack.L[i] against L[i]
        for i in 0..H {
            self.measure[i].in_valid.next = self.valid_s2.q.val().any();
            self.measure[i].new_ts.next = self.new_hop_s2[i].q.val().get_bits::<24>(0);
            self.measure[i].new_bytes.next = self.new_hop_s2[i].q.val().get_bits::<20>(24);
            self.measure[i].new_qlen.next = self.new_hop_s2[i].q.val().get_bits::<17>(44);
            self.measure[i].code.next = self.new_code_s2[i].q.val();
            self.measure[i].old_ts.next = self.old_hop_s2[i].q.val().get_bits::<24>(0);
            self.measure[i].old_bytes.next = self.old_hop_s2[i].q.val().get_bits::<20>(24);
            self.measure[i].old_qlen.next = self.old_hop_s2[i].q.val().get_bits::<17>(44);
            self.measure[i].active.next = self.active[i].val();
            self.measure[i].cfg_mlog.next = self.cfg_mlog.val();
            self.measure[i].cfg_inv_t_s.next = self.cfg_inv_t_s.val();
            self.measure[i].cfg_uq_m.next = self.cfg_uq_m.val();
        }

        // ---- stage 3: flags, status; meta and hop writes
        self.created.next = self.meta_s3.q.val().get_bit(35);
        // The anomaly flags of the used hops.
        self.flags.next = 0.into();
        for i in 0..H {
            if self.measure[i].stale.val() {
                self.flags.next = self.flags.val().replace_bit(0, true);
            }
            if self.measure[i].back.val() {
                self.flags.next = self.flags.val().replace_bit(1, true);
            }
            if (self.active_s3[i].q.val() && self.qlen_max_s3[i].q.val().any()) {
                self.flags.next = self.flags.val().replace_bit(2, true);
            }
        }
        // Line 24 / 32: lastUpdateSeq = snd_nxt, lastUpdateTime = now.
        self.stamp.next = self.snd_nxt_s3.q.val();
        if self.meta_s3.q.val().get_bit(36) {
            self.stamp.next = self.now_s3.q.val();
        }
        // Status, in priority order.
        if self.flow_oor_s3.q.val().any() {
            self.status.next = self.st_drop_flow.val();
        } else if (self.op_s3.q.val() == self.op_create.val()) {
            self.status.next = self.st_created.val();
        } else if (self.op_s3.q.val() == self.op_destroy.val()) {
            self.status.next = self.st_destroyed.val();
        } else if ((self.op_s3.q.val() != self.op_event.val()) || !self.created.val()) {
            self.status.next = self.st_drop_flow.val();
        } else if (self.variant_s3.q.val().any() != self.meta_s3.q.val().get_bit(36)) {
            self.status.next = self.st_drop_variant.val();
        } else if self.nhops_bad_s3.q.val() {
            self.status.next = self.st_drop_hops.val();
        } else if self.bad_rate_s3.q.val() {
            self.status.next = self.st_drop_rate.val();
        } else if self.nhops_changed_s3.q.val() {
            self.status.next = self.st_init.val();
        } else {
            self.status.next = self.st_update.val();
        }
        if (self.status.val() != self.st_update.val()) {
            self.flags.next = 0.into();
        }
        // Meta and hop writes (line 27: L = ack.L), registered.
        self.wr_flow_s4.d.next = bit_cast::<A, 16>(self.flow_s3.q.val());
        self.meta_new.next = self.meta_s3.q.val();
        if (self.status.val() == self.st_created.val()) {
            self.meta_new.next = ((bit_cast::<37, 1>(self.variant_s3.q.val()) << 36)
                | (bit_cast::<37, 1>(1.into()) << 35));
        }
        if (self.status.val() == self.st_destroyed.val()) {
            self.meta_new.next = self.meta_s3.q.val().replace_bit(35, false);
        }
        if ((self.status.val() == self.st_init.val())
            || ((self.status.val() == self.st_update.val()) && self.commit_s3.q.val()))
        {
            self.meta_new.next = ((bit_cast::<37, 2>(self.meta_s3.q.val().get_bits::<2>(35))
                << 35)
                | ((bit_cast::<37, 4>(self.nhops_s3.q.val()) << 32)
                    | bit_cast::<37, 32>(self.stamp.val())));
        }
        self.meta_we_s4.d.next = false;
        if (self.valid_s3.q.val().any()
            && ((self.status.val() == self.st_created.val())
                || ((self.status.val() == self.st_destroyed.val())
                    || ((self.status.val() == self.st_init.val())
                        || (self.status.val() == self.st_update.val())))))
        {
            self.meta_we_s4.d.next = true;
        }
        self.meta_wd_s4.d.next = self.meta_new.val();
        self.hop_we_s4.d.next = (self.valid_s3.q.val().any()
            && ((self.status.val() == self.st_init.val())
                || (self.status.val() == self.st_update.val())));
        for i in 0..H {
            self.hop_wd_s4[i].d.next = self.new_hop_s3[i].q.val();
        }
        // The event's context, on to the stages that use it.
        self.ctx.next.valid = self.valid_s3.q.val().any();
        self.ctx.next.flow = self.flow_s3.q.val();
        self.ctx.next.status = self.status.val();
        self.ctx.next.flags = self.flags.val();
        self.ctx.next.commit = self.commit_s3.q.val();
        self.ctx.next.variant = self.variant_s3.q.val().any();
        self.ctx_s47.d.next = self.ctx.val();

        // ---- stage 4: the meta and hop writes land
        self.meta_ram.write_address.next = self.wr_flow_s4.q.val();
        self.meta_ram.write_enable.next = self.meta_we_s4.q.val();
        self.meta_ram.write_data.next = self.meta_wd_s4.q.val();
        for i in 0..H {
            self.hop_ram[i].write_address.next = self.wr_flow_s4.q.val();
            self.hop_ram[i].write_enable.next = self.hop_we_s4.q.val();
            self.hop_ram[i].write_data.next = self.hop_wd_s4[i].q.val();
        }

        // ---- stages 40..43: lines 6–7, the hop maximum and its tau
        self.hop_max.in_valid.next = self.measure[0].out_valid.val();
        for i in 0..H {
            self.hop_max.u_hop[i].next = self.measure[i].u_prime.val();
            self.hop_max.tau_hop[i].next = self.measure[i].tau.val();
        }
        // The hops not tracked (H < 5) as inactive ones: u′ 0, tau 0.
        for i in H..5 {
            self.hop_max.u_hop[i].next = 0.into();
            self.hop_max.tau_hop[i].next = 0.into();
        }

        // ---- stages 43..55: lines 8–9 (U read at 47, in at 48)
        self.ewma.in_valid.next = self.hop_max.out_valid.val();
        self.ewma.u.next = self.hop_max.u.val();
        self.ewma.tau.next = self.hop_max.tau.val();
        self.ewma.cfg_t.next = self.cfg_t.val();
        self.ewma.cfg_inv_t_m.next = self.cfg_inv_t_m.val();
        self.ewma.cfg_inv_t_s.next = self.cfg_inv_t_s.val();
        self.u_ram.read_address.next = bit_cast::<A, 16>(self.ctx_s47.q.val().flow);
        self.ewma.u_old.next = self.u_ram.read_data.val();
        self.ctx_s55.d.next = self.ctx_s47.q.val();

        self.ctx_s56.d.next = self.ctx_s55.q.val();
        // ---- stage 55: U by status: the EWMA (UPDATE), unchanged (INIT),
        // 1.0 (CREATED), 0 (dropped)
        self.u_s56.d.next = 0.into();
        if (self.ctx_s55.q.val().status == self.st_update.val()) {
            self.u_s56.d.next = self.ewma.u_new.val();
        }
        if (self.ctx_s55.q.val().status == self.st_init.val()) {
            self.u_s56.d.next = self.ewma.u_prev.val();
        }
        if (self.ctx_s55.q.val().status == self.st_created.val()) {
            self.u_s56.d.next = self.u_one.val();
        }

        // ---- stage 56: write U; into ComputeWind (lines 11–20)
        self.u_ram.write_address.next = bit_cast::<A, 16>(self.ctx_s56.q.val().flow);
        self.u_ram.write_data.next = self.u_s56.q.val();
        self.u_ram.write_enable.next = (self.ctx_s56.q.val().valid
            && ((self.ctx_s56.q.val().status == self.st_update.val())
                || (self.ctx_s56.q.val().status == self.st_created.val())));
        self.compute_wind.in_valid.next = self.ctx_s56.q.val().valid;
        self.compute_wind.u.next = self.u_s56.q.val();
        self.compute_wind.cfg_eta.next = self.cfg_eta.val();
        self.compute_wind.cfg_max_stage.next = self.cfg_max_stage.val();
        self.compute_wind.cfg_w_ai.next = self.cfg_w_ai.val();
        self.compute_wind.cfg_w_min.next = self.cfg_w_min.val();
        self.compute_wind.cfg_w_init.next = self.cfg_w_init.val();
        self.u_out_s101.d.next = self.u_s56.q.val();
        self.ctx_s87.d.next = self.ctx_s56.q.val();

        // ---- stage 87: read W, Wc, incStage; in at 88
        self.w_ram.read_address.next = bit_cast::<A, 16>(self.ctx_s87.q.val().flow);
        self.compute_wind.w_old.next = self.w_ram.read_data.val().get_bits::<32>(35);
        self.compute_wind.wc_old.next = self.w_ram.read_data.val().get_bits::<32>(3);
        self.compute_wind.inc_old.next = self.w_ram.read_data.val().get_bits::<3>(0);
        self.ctx_s96.d.next = self.ctx_s87.q.val();

        // ---- stage 96: updateWc (lines 23, 26 / 30, 34); W by status;
        // write W, Wc, incStage
        self.compute_wind.update_wc.next = self.ctx_s96.q.val().commit;
        self.w_out.next = 0.into();
        self.inc_out.next = 0.into();
        self.wc_write.next = self.compute_wind.wc.val();
        self.inc_write.next = self.compute_wind.inc_stage.val();
        if (self.ctx_s96.q.val().status == self.st_update.val()) {
            self.w_out.next = self.compute_wind.w.val();
            self.inc_out.next = self.compute_wind.inc_stage.val();
        }
        if (self.ctx_s96.q.val().status == self.st_init.val()) {
            self.w_out.next = self.compute_wind.w_prev.val();
            self.inc_out.next = self.compute_wind.inc_prev.val();
        }
        if (self.ctx_s96.q.val().status == self.st_created.val()) {
            self.w_out.next = self.cfg_w_init.val();
            self.wc_write.next = self.cfg_w_init.val();
            self.inc_write.next = 0.into();
        }
        self.w_ram.write_address.next = bit_cast::<A, 16>(self.ctx_s96.q.val().flow);
        self.w_ram.write_data.next = ((bit_cast::<67, 32>(self.w_out.val()) << 35)
            | ((bit_cast::<67, 32>(self.wc_write.val()) << 3)
                | bit_cast::<67, 3>(self.inc_write.val())));
        self.w_ram.write_enable.next = (self.ctx_s96.q.val().valid
            && ((self.ctx_s96.q.val().status == self.st_update.val())
                || (self.ctx_s96.q.val().status == self.st_created.val())));
        // Line 27: R = W/T, out at 101.
        self.rate.in_valid.next = self.ctx_s96.q.val().valid;
        self.rate.w.next = self.w_out.val();
        self.rate.cfg_inv_t_m.next = self.cfg_inv_t_m.val();
        self.rate.cfg_inv_t_s.next = self.cfg_inv_t_s.val();
        self.w_out_s101.d.next = self.w_out.val();
        self.inc_out_s101.d.next = self.inc_out.val();
        self.ctx_s101.d.next = self.ctx_s96.q.val();

        // ---- stage 101: the output registers (zero between updates)
        self.o_valid.d.next = self.ctx_s101.q.val().valid;
        self.o_flow.d.next = self.ctx_s101.q.val().flow;
        self.o_status.d.next = self.ctx_s101.q.val().status;
        self.o_flags.d.next = self.ctx_s101.q.val().flags;
        self.o_variant.d.next = self.ctx_s101.q.val().variant;
        self.o_upd.d.next = (self.ctx_s101.q.val().commit
            && (self.ctx_s101.q.val().status == self.st_update.val()));
        self.o_w.d.next = self.w_out_s101.q.val();
        self.o_inc.d.next = self.inc_out_s101.q.val();
        self.o_u.d.next = self.u_out_s101.q.val();
        self.o_r.d.next = self.rate.r.val();
        if !self.ctx_s101.q.val().valid {
            self.o_flow.d.next = 0.into();
            self.o_status.d.next = 0.into();
            self.o_flags.d.next = 0.into();
            self.o_upd.d.next = false;
            self.o_variant.d.next = false;
            self.o_w.d.next = 0.into();
            self.o_inc.d.next = 0.into();
            self.o_u.d.next = 0.into();
            self.o_r.d.next = 0.into();
        }
        self.m_update.valid.next = self.o_valid.q.val();
        self.m_update.flow.next = self.o_flow.q.val();
        self.m_update.status.next = self.o_status.q.val();
        self.m_update.flags.next = self.o_flags.q.val();
        self.m_update.w.next = self.o_w.q.val();
        self.m_update.r.next = self.o_r.q.val();
        self.m_update.u.next = self.o_u.q.val();
        self.m_update.inc_stage.next = self.o_inc.q.val();
        self.m_update.updated_wc.next = self.o_upd.q.val();
        self.m_update.variant.next = self.o_variant.q.val();

        // ---- counters, on the output register
        if self.o_valid.q.val() {
            if ((self.o_status.q.val() == self.st_update.val())
                || (self.o_status.q.val() == self.st_init.val()))
            {
                self.c_events.d.next = (self.c_events.q.val() + 1);
            }
            if (self.o_status.q.val() == self.st_drop_flow.val()) {
                self.c_drop_flow.d.next = (self.c_drop_flow.q.val() + 1);
            }
            if (self.o_status.q.val() == self.st_drop_hops.val()) {
                self.c_drop_hops.d.next = (self.c_drop_hops.q.val() + 1);
            }
            if (self.o_status.q.val() == self.st_drop_rate.val()) {
                self.c_drop_rate.d.next = (self.c_drop_rate.q.val() + 1);
            }
            if (self.o_status.q.val() == self.st_drop_variant.val()) {
                self.c_drop_variant.d.next = (self.c_drop_variant.q.val() + 1);
            }
            if self.o_flags.q.val().get_bit(0) {
                self.c_ts_stale.d.next = (self.c_ts_stale.q.val() + 1);
            }
            if self.o_flags.q.val().get_bit(1) {
                self.c_bytes_back.d.next = (self.c_bytes_back.q.val() + 1);
            }
            if self.o_flags.q.val().get_bit(2) {
                self.c_qlen_sat.d.next = (self.c_qlen_sat.q.val() + 1);
            }
        }
        self.m_stats.events.next = self.c_events.q.val();
        self.m_stats.drop_flow.next = self.c_drop_flow.q.val();
        self.m_stats.drop_hops.next = self.c_drop_hops.q.val();
        self.m_stats.drop_rate.next = self.c_drop_rate.q.val();
        self.m_stats.drop_variant.next = self.c_drop_variant.q.val();
        self.m_stats.ts_stale.next = self.c_ts_stale.q.val();
        self.m_stats.bytes_back.next = self.c_bytes_back.q.val();
        self.m_stats.qlen_sat.next = self.c_qlen_sat.q.val();
    }
}
