//! DCQCN reaction point (RP): per-flow rate control from CNPs, for 2^A
//! flows (the L3QCN/DCQCN draft; the Mellanox-style algorithm of the
//! public simulators, `../shared/notes/hpcc-reference.md`).
//!
//! # What it does
//! Each flow has a current rate Rc, a target rate Rt, α, a byte counter
//! and two increase-stage counters (timer, bytes). Its events:
//! - **CNP** (`s_event.op` = 0): on the flow's first CNP (since CREATE or
//!   its last recovery) α = α_init, Rc = min(Rc, R_first), Rt = Rc, the
//!   flow joins the timer list, and Rc is cut at once. A later CNP sets
//!   the α-period's CNP bit and cuts at once if no cut was made in the
//!   current rate-decrease period, else the cut waits for the next period
//!   (status HELD; the flow's next visit makes it).
//!   The cut: Rt = Rc, Rc = max(R_min, Rc·(1 − α/2)), stages and byte
//!   counter to 0, the increase timer restarts.
//! - **SENT** (1, `bytes`): the byte counter; each `cfg.byte_reset` bytes
//!   is an increase step (`cfg.byte_reset` = 0: off).
//! - **CREATE** (2): Rc = Rt = line rate, α = α_init, not reacting.
//!   **DESTROY** (3): the state is cleared.
//! - **Timers**, by *visits*: a reacting flow is in the timer list (a FIFO
//!   of flow ids, one block RAM) and is visited in turn. A visit applies
//!   the α step α = (1 − g)·α + g·[CNP in the period] (α/2^g rounded
//!   half up) if an α period has
//!   passed since the flow's last one, makes a held cut if a decrease
//!   period has passed, else an increase step if an increase period has
//!   passed. The increase step: fast recovery (Rc = (Rc + Rt)/2) for F
//!   stages, then additive (Rt += R_ai), then hyper (Rt += R_hai) increase
//!   (with the byte counter on: fast recovery while both stages < F, hyper
//!   once both > F). A flow whose Rc is back at line rate, with no cut
//!   pending, leaves the list (`flags` RECOVERED); its next CNP is a first
//!   CNP again.
//!
//! # Timers without a scan
//! Three prescalers ([`PeriodEpoch`], `period_epoch.rs`, a block of its
//! own with its twin and test) count the α, decrease and increase periods
//! (`cfg.*_period` cycles) into three global 16-bit *epochs*. Each flow
//! stores the epoch of its last α step, cut and increase step; a visit
//! compares them with the current epochs. Only reacting flows are in the
//! list, so idle flows cost nothing, and a flow is visited at least once
//! per (reacting flows + 12) cycles. A visit that finds more than one
//! period passed applies one step and counts `timer_late` (exact while
//! reacting flows + 12 < the α period in cycles: 156 at 1 µs and
//! 156.25 MHz). The epochs wrap after 2^16 periods (262 ms of decrease
//! periods at 4 µs): a later CNP landing on the same epoch value waits at
//! most one period for its cut.
//!
//! # Ports (clock `clock`)
//! - `cfg` (`DcqcnCfg`, levels; hold constant while flows react): g_log2,
//!   the three periods (cycles, 24 bits, 0: off; a decrease period of 0
//!   cuts on every CNP), byte_reset, F, R_ai, R_hai, R_min, R_line,
//!   R_first (UQ8.24 bytes/ns), α_init (UQ1.20), window (UQ24.8 bytes).
//!   `nic_golden::cc::dcqcn_params::DcqcnParams::regs` computes them.
//! - `s_event` (`RpEvent`, valid/ready): `op` (`nic_spec::dcqcn`), `flow`
//!   (16 bits), `bytes` (SENT).
//! - `m_update` (`CcUpdate`, strobe): `flow`, `status`
//!   (`nic_spec::dcqcn::status`: UPDATE, HELD, CREATED, DESTROYED,
//!   DROP_FLOW), `flags` (bit 0 first CNP, 1 recovered, 2 late), `r` = Rc
//!   in UQ8.16 bytes/ns (HPCC++'s R format), `w` = `cfg.window`, `u` = α
//!   (UQ1.20), `inc_stage` = min(max(stages), 7); `updated_wc` and
//!   `variant` 0. One per CNP, CREATE, DESTROY and dropped event; one per
//!   SENT or visit that changed Rc (or recovered the flow). Every field
//!   is 0 while `valid` is low.
//! - `m_stats` (`DcqcnStats`): 32-bit wrapping counters, kept by
//!   [`RpCounters`] (`rp_counters.rs`, a block with its own twin and
//!   test) from S8's flags.
//!
//! # Timing
//! - `s_event` enters the record's register slice (`RpEvent::Slice`,
//!   timing rule R1: `s_event.ready` is its flip-flop, never the
//!   interlock's flow compare, R2); the interlock decides on its head.
//! - One operation per cycle: an event, else a visit. Events first; a
//!   flow with an operation in S1..S8 is not issued again (interlock: the
//!   head waits in the slice), so no forwarding.
//! - Latency: event accepted at `s_event` in cycle t → its update at the
//!   ports in t + 10 (`UPDATE_LATENCY`: a cycle in the slice, then the
//!   issue and S1..S8). An event waits at most 8 cycles for its flow's
//!   operation in flight; while it waits the slice takes one more.
//! - Pipeline: S0 issue; S1 RAM read; S2 RAM out; S3 decisions, α step,
//!   the cut's product Rc·α into a 32 × 32 multiplier (4 cycles); S4–S6
//!   the increase step's arithmetic ([`IncreaseStep`], a block with its
//!   own twin: Rt and the step in at S4, Rc at S6, Rt' and Rc' out at S7);
//!   S7 the cut and the new state ([`RpNewState`], a block with its
//!   own twin, registered into S8); S8 write back,
//!   timer-list push, update, counters ([`RpCounters`]).
//!
//! # Bad input (defined, counted, no other flow touched)
//! - `flow` ≥ 2^A: accepted at once, no state read; DROP_FLOW update,
//!   `drop_flow`.
//! - CNP or SENT for a flow not created: DROP_FLOW update, `drop_flow`,
//!   nothing written.
//! - A CNP flood: a CNP for a flow whose CNP is still in S1..S8 is
//!   accepted without an issue slot and merged into it (`coalesced`), so
//!   one flow's flood neither stalls `s_event` nor takes the other flows'
//!   visits; the flood's flow is cut at most once per decrease period.
//! - `cfg.alpha_init` above 1.0 reads as 1.0; a stage counter saturates
//!   at 15; a byte counter's remainder past `byte_reset` is dropped.
//!
//! Golden twin: `nic_golden::cc::dcqcn` (and `dcqcn_ref` in f64).

use crate::arith::WideMul;
use crate::cc::{CcUpdateSource, DcqcnCfgSink, DcqcnStatsSource, RpEvent, RpEventSink};
use crate::cc::{IncreaseStep, PeriodEpoch, RpCounters, RpNewState};
use crate::mem::{Fifo, Ram};
use rust_hdl::prelude::*;
use smart_default::SmartDefault;

/// Stages after issue (S1..S8).
pub const STAGES: usize = 8;

#[derive(LogicBlock, SmartDefault)]
pub struct DcqcnRp<const A: usize> {
    // The parameter check, when the block is built.
    #[default({
        assert!(A <= 15, "DcqcnRp: A <= 15");
        Default::default()
    })]
    pub clock: Signal<In, Clock>,
    pub cfg: DcqcnCfgSink,
    pub s_event: RpEventSink,
    pub m_update: CcUpdateSource,
    pub m_stats: DcqcnStatsSource,
    /// The events' register slice (R1, R2): `s_event.ready` is its
    /// flip-flop; the interlock decides on its head.
    slice: RpEvent::Slice,
    timers: Fifo<16, A>,
    mul: WideMul,
    /// Rc [31:0], Rt [63:32].
    ram_rate: Ram<Bits<64>, A>,
    /// α [20:0], byte counter [52:21].
    ram_ab: Ram<Bits<53>, A>,
    /// created 0, queued 1, armed 2, cnp_a 3, cnp_d 4, t_stage [8:5],
    /// b_stage [12:9], epochs of the last α step [28:13], cut [44:29],
    /// increase step [60:45].
    ram_meta: Ram<Bits<61>, A>,
    /// The three timers: α, rate-decrease and rate-increase periods.
    epoch_a: PeriodEpoch,
    epoch_d: PeriodEpoch,
    epoch_i: PeriodEpoch,
    /// S4–S6: Rt' = min(Rt + add, R_line), Rc' = ⌈(Rc + Rt') / 2⌉.
    inc: IncreaseStep,
    /// The counters (`m_stats`), from S8's flags.
    counters: RpCounters,
    /// S7: the new state, registered into S8.
    new_state: RpNewState,
    u_valid: DFF<Bit>,
    u_flow: DFF<Bits<16>>,
    u_status: DFF<Bits<3>>,
    u_flags: DFF<Bits<3>>,
    u_w: DFF<Bits<32>>,
    u_r: DFF<Bits<24>>,
    u_u: DFF<Bits<32>>,
    u_inc: DFF<Bits<3>>,
    // Stage registers: index k holds the value registered into stage k.
    v: [DFF<Bit>; 9],
    kind: [DFF<Bits<2>>; 9],
    flow: [DFF<Bits<16>>; 9],
    op: [DFF<Bits<2>>; 9],
    bytes: [DFF<Bits<16>>; 9],
    cur_a: [DFF<Bits<16>>; 9],
    cur_d: [DFF<Bits<16>>; 9],
    cur_i: [DFF<Bits<16>>; 9],
    rate: [DFF<Bits<64>>; 9],
    ab: [DFF<Bits<53>>; 9],
    meta: [DFF<Bits<61>>; 9],
    alpha_use: [DFF<Bits<21>>; 9],
    rc_base: [DFF<Bits<32>>; 9],
    add: [DFF<Bits<32>>; 9],
    bc33: [DFF<Bits<33>>; 9],
    create: [DFF<Bit>; 9],
    destroy: [DFF<Bit>; 9],
    drop: [DFF<Bit>; 9],
    cnp: [DFF<Bit>; 9],
    first: [DFF<Bit>; 9],
    cnp_cut: [DFF<Bit>; 9],
    cnp_held: [DFF<Bit>; 9],
    sent: [DFF<Bit>; 9],
    sent_acc: [DFF<Bit>; 9],
    vis: [DFF<Bit>; 9],
    vis_live: [DFF<Bit>; 9],
    vis_dead: [DFF<Bit>; 9],
    vis_astep: [DFF<Bit>; 9],
    vis_cut: [DFF<Bit>; 9],
    vis_inc: [DFF<Bit>; 9],
    late: [DFF<Bit>; 9],
    byte_pass: [DFF<Bit>; 9],
    #[default(Constant::new(Bits::<8>::from(A as u64)))]
    k_a: Constant<Bits<8>>,
    #[default(Constant::new(Bits::<21>::from(1u64 << 20)))]
    k_one: Constant<Bits<21>>,
    #[default(Constant::new(Bits::<21>::from(1u64)))]
    k_unit: Constant<Bits<21>>,
    half_g: Signal<Local, Bits<21>>,
    alpha_dec: Signal<Local, Bits<21>>,
    in_range: Signal<Local, Bit>,
    /// The head waits (its flow in flight, not a CNP to merge) and the
    /// head is a CNP to merge: flip-flops, decided a cycle ahead for the
    /// head the slice will hold (R2; `docs/architecture.md`, the CC
    /// module's interlock is the same), so the slice's load enable and
    /// the issue start at registers.
    held: DFF<Bit>,
    merge: DFF<Bit>,
    /// The flow and op of the record in the slice's skid: copies of the
    /// slice's own skid register (synthesis merges them), loaded by its
    /// documented rule from its ports.
    skid_flow: DFF<Bits<16>>,
    skid_op: DFF<Bits<2>>,
    head_free: Signal<Local, Bit>,
    in_take: Signal<Local, Bit>,
    /// For each head the slice can hold next (the present one `h`, the
    /// skid's `k`, `s_event`'s `s`): in range, a stage-1..7 operation of
    /// its flow (they are stages 2..8 next cycle), one that is a CNP.
    inr_k: Signal<Local, Bit>,
    inr_s: Signal<Local, Bit>,
    pev_h: Signal<Local, Bit>,
    pev_k: Signal<Local, Bit>,
    pev_s: Signal<Local, Bit>,
    pcnp_h: Signal<Local, Bit>,
    pcnp_k: Signal<Local, Bit>,
    pcnp_s: Signal<Local, Bit>,
    /// The operation entering stage 1 now, against each candidate: of
    /// its flow, and a CNP of its flow.
    e1_ev_h: Signal<Local, Bit>,
    e1_ev_k: Signal<Local, Bit>,
    e1_ev_s: Signal<Local, Bit>,
    e1_cnp_k: Signal<Local, Bit>,
    e1_cnp_s: Signal<Local, Bit>,
    merge_h: Signal<Local, Bit>,
    merge_k: Signal<Local, Bit>,
    merge_s: Signal<Local, Bit>,
    hit_h: Signal<Local, Bit>,
    head_flow: Signal<Local, Bits<16>>,
    coalesce: Signal<Local, Bit>,
    accept: Signal<Local, Bit>,
    issue_ev: Signal<Local, Bit>,
    visit_go: Signal<Local, Bit>,
    rc3: Signal<Local, Bits<32>>,
    rt3: Signal<Local, Bits<32>>,
    al3: Signal<Local, Bits<21>>,
    bcnt3: Signal<Local, Bits<32>>,
    t3: Signal<Local, Bits<4>>,
    b3: Signal<Local, Bits<4>>,
    sepa3: Signal<Local, Bits<16>>,
    sepd3: Signal<Local, Bits<16>>,
    sepi3: Signal<Local, Bits<16>>,
    created3: Signal<Local, Bit>,
    armed3: Signal<Local, Bit>,
    cnpa3: Signal<Local, Bit>,
    cnpd3: Signal<Local, Bit>,
    da3: Signal<Local, Bits<16>>,
    di3: Signal<Local, Bits<16>>,
    a_pass: Signal<Local, Bit>,
    d_pass: Signal<Local, Bit>,
    i_pass: Signal<Local, Bit>,
    is_ev3: Signal<Local, Bit>,
    is_vis3: Signal<Local, Bit>,
    cnp3: Signal<Local, Bit>,
    first3: Signal<Local, Bit>,
    vis_live3: Signal<Local, Bit>,
    vis_astep3: Signal<Local, Bit>,
    vis_cut3: Signal<Local, Bit>,
    alpha_init_c: Signal<Local, Bits<21>>,
    one_g: Signal<Local, Bits<21>>,
    astep: Signal<Local, Bits<21>>,
    /// α + [CNP]·2^−g, beside α/2^g's chain, so the α step is one
    /// subtraction after them (R4).
    al_inc: Signal<Local, Bits<21>>,
    /// α ≫ g and α's bit g − 1 (α & 2^(g−1)): α/2^g rounded half up is
    /// their sum, with no shift after an add.
    al_sh: Signal<Local, Bits<21>>,
    al_round: Signal<Local, Bit>,
    alpha_use3: Signal<Local, Bits<21>>,
    rc_base3: Signal<Local, Bits<32>>,
    bc_on: Signal<Local, Bit>,
    hi3: Signal<Local, Bits<4>>,
    lo3: Signal<Local, Bits<4>>,
    f4: Signal<Local, Bits<4>>,
    queued8: Signal<Local, Bit>,
    recovered: Signal<Local, Bit>,
    rc_changed: Signal<Local, Bit>,
    queued_w: Signal<Local, Bit>,
    armed_w: Signal<Local, Bit>,
    bare: Signal<Local, Bit>,
    uv: Signal<Local, Bit>,
}

impl<const A: usize> Logic for DcqcnRp<A> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, held, merge, skid_flow, skid_op, u_valid, u_flow, u_status, u_flags, u_w,
            u_r, u_u, u_inc
        );
        self.timers.clock.next = self.clock.val();
        self.counters.clock.next = self.clock.val();
        self.new_state.clock.next = self.clock.val();
        DcqcnStatsSource::link(&mut self.m_stats, &mut self.counters.m_stats);
        self.mul.clock.next = self.clock.val();
        self.ram_rate.clock.next = self.clock.val();
        self.ram_ab.clock.next = self.clock.val();
        self.ram_meta.clock.next = self.clock.val();
        for i in 0..9 {
            self.v[i].clock.next = self.clock.val();
            self.v[i].d.next = self.v[i].q.val();
            self.kind[i].clock.next = self.clock.val();
            self.kind[i].d.next = self.kind[i].q.val();
            self.flow[i].clock.next = self.clock.val();
            self.flow[i].d.next = self.flow[i].q.val();
            self.op[i].clock.next = self.clock.val();
            self.op[i].d.next = self.op[i].q.val();
            self.bytes[i].clock.next = self.clock.val();
            self.bytes[i].d.next = self.bytes[i].q.val();
            self.cur_a[i].clock.next = self.clock.val();
            self.cur_a[i].d.next = self.cur_a[i].q.val();
            self.cur_d[i].clock.next = self.clock.val();
            self.cur_d[i].d.next = self.cur_d[i].q.val();
            self.cur_i[i].clock.next = self.clock.val();
            self.cur_i[i].d.next = self.cur_i[i].q.val();
            self.rate[i].clock.next = self.clock.val();
            self.rate[i].d.next = self.rate[i].q.val();
            self.ab[i].clock.next = self.clock.val();
            self.ab[i].d.next = self.ab[i].q.val();
            self.meta[i].clock.next = self.clock.val();
            self.meta[i].d.next = self.meta[i].q.val();
            self.alpha_use[i].clock.next = self.clock.val();
            self.alpha_use[i].d.next = self.alpha_use[i].q.val();
            self.rc_base[i].clock.next = self.clock.val();
            self.rc_base[i].d.next = self.rc_base[i].q.val();
            self.add[i].clock.next = self.clock.val();
            self.add[i].d.next = self.add[i].q.val();
            self.bc33[i].clock.next = self.clock.val();
            self.bc33[i].d.next = self.bc33[i].q.val();
            self.create[i].clock.next = self.clock.val();
            self.create[i].d.next = self.create[i].q.val();
            self.destroy[i].clock.next = self.clock.val();
            self.destroy[i].d.next = self.destroy[i].q.val();
            self.drop[i].clock.next = self.clock.val();
            self.drop[i].d.next = self.drop[i].q.val();
            self.cnp[i].clock.next = self.clock.val();
            self.cnp[i].d.next = self.cnp[i].q.val();
            self.first[i].clock.next = self.clock.val();
            self.first[i].d.next = self.first[i].q.val();
            self.cnp_cut[i].clock.next = self.clock.val();
            self.cnp_cut[i].d.next = self.cnp_cut[i].q.val();
            self.cnp_held[i].clock.next = self.clock.val();
            self.cnp_held[i].d.next = self.cnp_held[i].q.val();
            self.sent[i].clock.next = self.clock.val();
            self.sent[i].d.next = self.sent[i].q.val();
            self.sent_acc[i].clock.next = self.clock.val();
            self.sent_acc[i].d.next = self.sent_acc[i].q.val();
            self.vis[i].clock.next = self.clock.val();
            self.vis[i].d.next = self.vis[i].q.val();
            self.vis_live[i].clock.next = self.clock.val();
            self.vis_live[i].d.next = self.vis_live[i].q.val();
            self.vis_dead[i].clock.next = self.clock.val();
            self.vis_dead[i].d.next = self.vis_dead[i].q.val();
            self.vis_astep[i].clock.next = self.clock.val();
            self.vis_astep[i].d.next = self.vis_astep[i].q.val();
            self.vis_cut[i].clock.next = self.clock.val();
            self.vis_cut[i].d.next = self.vis_cut[i].q.val();
            self.vis_inc[i].clock.next = self.clock.val();
            self.vis_inc[i].d.next = self.vis_inc[i].q.val();
            self.late[i].clock.next = self.clock.val();
            self.late[i].d.next = self.late[i].q.val();
            self.byte_pass[i].clock.next = self.clock.val();
            self.byte_pass[i].d.next = self.byte_pass[i].q.val();
        }
        // Carry every stage value to the next stage.
        for i in 2..9 {
            self.v[i].d.next = self.v[i - 1].q.val();
            self.kind[i].d.next = self.kind[i - 1].q.val();
            self.flow[i].d.next = self.flow[i - 1].q.val();
            self.op[i].d.next = self.op[i - 1].q.val();
            self.bytes[i].d.next = self.bytes[i - 1].q.val();
            self.cur_a[i].d.next = self.cur_a[i - 1].q.val();
            self.cur_d[i].d.next = self.cur_d[i - 1].q.val();
            self.cur_i[i].d.next = self.cur_i[i - 1].q.val();
        }
        for i in 4..9 {
            self.rate[i].d.next = self.rate[i - 1].q.val();
            self.ab[i].d.next = self.ab[i - 1].q.val();
            self.meta[i].d.next = self.meta[i - 1].q.val();
        }
        for i in 5..9 {
            self.alpha_use[i].d.next = self.alpha_use[i - 1].q.val();
            self.rc_base[i].d.next = self.rc_base[i - 1].q.val();
            self.add[i].d.next = self.add[i - 1].q.val();
            self.bc33[i].d.next = self.bc33[i - 1].q.val();
            self.create[i].d.next = self.create[i - 1].q.val();
            self.destroy[i].d.next = self.destroy[i - 1].q.val();
            self.drop[i].d.next = self.drop[i - 1].q.val();
            self.cnp[i].d.next = self.cnp[i - 1].q.val();
            self.first[i].d.next = self.first[i - 1].q.val();
            self.cnp_cut[i].d.next = self.cnp_cut[i - 1].q.val();
            self.cnp_held[i].d.next = self.cnp_held[i - 1].q.val();
            self.sent[i].d.next = self.sent[i - 1].q.val();
            self.sent_acc[i].d.next = self.sent_acc[i - 1].q.val();
            self.vis[i].d.next = self.vis[i - 1].q.val();
            self.vis_live[i].d.next = self.vis_live[i - 1].q.val();
            self.vis_dead[i].d.next = self.vis_dead[i - 1].q.val();
            self.vis_astep[i].d.next = self.vis_astep[i - 1].q.val();
            self.vis_cut[i].d.next = self.vis_cut[i - 1].q.val();
            self.vis_inc[i].d.next = self.vis_inc[i - 1].q.val();
            self.late[i].d.next = self.late[i - 1].q.val();
        }
        for i in 6..9 {
            self.byte_pass[i].d.next = self.byte_pass[i - 1].q.val();
        }

        // ---- outputs (registered)
        self.m_update.valid.next = self.u_valid.q.val();
        self.m_update.flow.next = self.u_flow.q.val();
        self.m_update.status.next = self.u_status.q.val();
        self.m_update.flags.next = self.u_flags.q.val();
        self.m_update.w.next = self.u_w.q.val();
        self.m_update.r.next = self.u_r.q.val();
        self.m_update.u.next = self.u_u.q.val();
        self.m_update.inc_stage.next = self.u_inc.q.val();
        self.m_update.updated_wc.next = false;
        self.m_update.variant.next = false;

        // ---- the three timers and their epochs (`PeriodEpoch`)
        self.epoch_a.clock.next = self.clock.val();
        self.inc.clock.next = self.clock.val();
        self.epoch_d.clock.next = self.clock.val();
        self.epoch_i.clock.next = self.clock.val();
        self.epoch_a.period.next = self.cfg.alpha_period.val();
        self.epoch_d.period.next = self.cfg.dec_period.val();
        self.epoch_i.period.next = self.cfg.inc_period.val();

        // ---- S0: interlock and issue (events first, then a visit), on
        // the slice's head.
        self.slice.clock.next = self.clock.val();
        RpEventSink::link(&mut self.s_event, &mut self.slice.s);
        self.in_range.next = !(self.slice.m.flow.val() >> self.k_a.val()).any();
        self.head_flow.next = self.timers.head_data.val();
        self.hit_h.next = false;
        for i in 1..9 {
            if (self.v[i].q.val()
                && (self.kind[i].q.val() != 2)
                && (self.flow[i].q.val() == self.head_flow.val()))
            {
                self.hit_h.next = true;
            }
        }
        self.coalesce.next = self.merge.q.val();
        self.slice.m.ready.next = !self.held.q.val();
        self.accept.next = (self.slice.m.valid.val() && !self.held.q.val());
        self.issue_ev.next = (self.accept.val() && !self.coalesce.val());
        self.visit_go.next =
            (!self.issue_ev.val() && self.timers.head_valid.val() && !self.hit_h.val());
        // `held` and `merge` for next cycle's head. The slice's moves from
        // its ports: `s_event.ready` is its skid empty, `m.valid` its head
        // full; the skid loads a record that comes while the head stays.
        self.head_free.next = (!self.held.q.val() || !self.slice.m.valid.val());
        self.in_take.next = (self.s_event.valid.val() && self.s_event.ready.val());
        if (!self.head_free.val() && self.in_take.val()) {
            self.skid_flow.d.next = self.s_event.flow.val();
            self.skid_op.d.next = self.s_event.op.val();
        }
        self.inr_k.next = !(self.skid_flow.q.val() >> self.k_a.val()).any();
        self.inr_s.next = !(self.s_event.flow.val() >> self.k_a.val()).any();
        // Stages 1..7 now are stages 2..8 next cycle.
        self.pev_h.next = false;
        self.pev_k.next = false;
        self.pev_s.next = false;
        self.pcnp_h.next = false;
        self.pcnp_k.next = false;
        self.pcnp_s.next = false;
        for i in 1..8 {
            if (self.v[i].q.val() && (self.kind[i].q.val() != 2)) {
                if (self.flow[i].q.val() == self.slice.m.flow.val()) {
                    self.pev_h.next = true;
                    if ((self.kind[i].q.val() == 0) && (self.op[i].q.val() == 0)) {
                        self.pcnp_h.next = true;
                    }
                }
                if (self.flow[i].q.val() == self.skid_flow.q.val()) {
                    self.pev_k.next = true;
                    if ((self.kind[i].q.val() == 0) && (self.op[i].q.val() == 0)) {
                        self.pcnp_k.next = true;
                    }
                }
                if (self.flow[i].q.val() == self.s_event.flow.val()) {
                    self.pev_s.next = true;
                    if ((self.kind[i].q.val() == 0) && (self.op[i].q.val() == 0)) {
                        self.pcnp_s.next = true;
                    }
                }
            }
        }
        // Stage 1 next cycle: the event issued now (kind 0 in range, else
        // 2, which holds nothing), else the visit (kind 1, of its flow).
        self.e1_ev_h.next =
            (self.visit_go.val() && (self.head_flow.val() == self.slice.m.flow.val()));
        self.e1_ev_k.next =
            (self.visit_go.val() && (self.head_flow.val() == self.skid_flow.q.val()));
        self.e1_ev_s.next =
            (self.visit_go.val() && (self.head_flow.val() == self.s_event.flow.val()));
        if self.issue_ev.val() {
            self.e1_ev_h.next = self.in_range.val();
            self.e1_ev_k.next =
                (self.in_range.val() && (self.slice.m.flow.val() == self.skid_flow.q.val()));
            self.e1_ev_s.next =
                (self.in_range.val() && (self.slice.m.flow.val() == self.s_event.flow.val()));
        }
        self.e1_cnp_k.next =
            (self.e1_ev_k.val() && self.issue_ev.val() && (self.slice.m.op.val() == 0));
        self.e1_cnp_s.next =
            (self.e1_ev_s.val() && self.issue_ev.val() && (self.slice.m.op.val() == 0));
        self.merge_h.next = (self.in_range.val()
            && (self.slice.m.op.val() == 0)
            && (self.pcnp_h.val()
                || (self.issue_ev.val() && self.in_range.val() && (self.slice.m.op.val() == 0))));
        self.merge_k.next = (self.inr_k.val()
            && (self.skid_op.q.val() == 0)
            && (self.pcnp_k.val() || self.e1_cnp_k.val()));
        self.merge_s.next = (self.inr_s.val()
            && (self.s_event.op.val() == 0)
            && (self.pcnp_s.val() || self.e1_cnp_s.val()));
        // The head next cycle: the skid's record, else `s_event`'s, when
        // the head moves on and one is there; else the present head.
        self.held.d.next = (self.in_range.val()
            && (self.pev_h.val() || self.e1_ev_h.val())
            && !self.merge_h.val());
        self.merge.d.next = self.merge_h.val();
        if self.head_free.val() {
            if !self.s_event.ready.val() {
                self.held.d.next = (self.inr_k.val()
                    && (self.pev_k.val() || self.e1_ev_k.val())
                    && !self.merge_k.val());
                self.merge.d.next = self.merge_k.val();
            } else if self.s_event.valid.val() {
                self.held.d.next = (self.inr_s.val()
                    && (self.pev_s.val() || self.e1_ev_s.val())
                    && !self.merge_s.val());
                self.merge.d.next = self.merge_s.val();
            }
        }
        self.timers.pop.next = self.visit_go.val();
        self.v[1].d.next = (self.issue_ev.val() || self.visit_go.val());
        if self.issue_ev.val() {
            self.flow[1].d.next = self.slice.m.flow.val();
            if self.in_range.val() {
                self.kind[1].d.next = 0.into();
            } else {
                self.kind[1].d.next = 2.into();
            }
        } else {
            self.flow[1].d.next = self.head_flow.val();
            self.kind[1].d.next = 1.into();
        }
        self.op[1].d.next = self.slice.m.op.val();
        self.bytes[1].d.next = self.slice.m.bytes.val();
        self.cur_a[1].d.next = self.epoch_a.epoch.val();
        self.cur_d[1].d.next = self.epoch_d.epoch.val();
        self.cur_i[1].d.next = self.epoch_i.epoch.val();

        // ---- S1: read the state (address from a register)
        self.ram_rate.read_address.next = bit_cast::<A, 16>(self.flow[1].q.val());
        self.ram_ab.read_address.next = bit_cast::<A, 16>(self.flow[1].q.val());
        self.ram_meta.read_address.next = bit_cast::<A, 16>(self.flow[1].q.val());

        // ---- S2: register the state words
        self.rate[3].d.next = self.ram_rate.read_data.val();
        self.ab[3].d.next = self.ram_ab.read_data.val();
        self.meta[3].d.next = self.ram_meta.read_data.val();

        // ---- S3: decisions, the α step, the cut's operands
        self.rc3.next = self.rate[3].q.val().get_bits::<32>(0);
        self.rt3.next = self.rate[3].q.val().get_bits::<32>(32);
        self.al3.next = self.ab[3].q.val().get_bits::<21>(0);
        self.bcnt3.next = self.ab[3].q.val().get_bits::<32>(21);
        self.created3.next = self.meta[3].q.val().get_bit(0);
        self.armed3.next = self.meta[3].q.val().get_bit(2);
        self.cnpa3.next = self.meta[3].q.val().get_bit(3);
        self.cnpd3.next = self.meta[3].q.val().get_bit(4);
        self.t3.next = self.meta[3].q.val().get_bits::<4>(5);
        self.b3.next = self.meta[3].q.val().get_bits::<4>(9);
        self.sepa3.next = self.meta[3].q.val().get_bits::<16>(13);
        self.sepd3.next = self.meta[3].q.val().get_bits::<16>(29);
        self.sepi3.next = self.meta[3].q.val().get_bits::<16>(45);
        self.da3.next = (self.cur_a[3].q.val() - self.sepa3.val());
        self.di3.next = (self.cur_i[3].q.val() - self.sepi3.val());
        self.a_pass.next = (self.sepa3.val() != self.cur_a[3].q.val());
        self.d_pass.next =
            ((self.sepd3.val() != self.cur_d[3].q.val()) || !self.cfg.dec_period.val().any());
        self.i_pass.next = (self.sepi3.val() != self.cur_i[3].q.val());
        self.is_ev3.next = (self.v[3].q.val() && (self.kind[3].q.val() == 0));
        self.is_vis3.next = (self.v[3].q.val() && (self.kind[3].q.val() == 1));
        self.cnp3.next = (self.is_ev3.val() && (self.op[3].q.val() == 0) && self.created3.val());
        self.first3.next = (self.cnp3.val() && !self.armed3.val());
        self.vis_live3.next = (self.is_vis3.val() && self.created3.val() && self.armed3.val());
        self.vis_astep3.next = (self.vis_live3.val() && self.a_pass.val());
        self.vis_cut3.next = (self.vis_live3.val() && self.cnpd3.val() && self.d_pass.val());
        self.create[4].d.next = (self.is_ev3.val() && (self.op[3].q.val() == 2));
        self.destroy[4].d.next = (self.is_ev3.val() && (self.op[3].q.val() == 3));
        self.drop[4].d.next = (self.is_ev3.val()
            && ((self.op[3].q.val() == 0) || (self.op[3].q.val() == 1))
            && !self.created3.val());
        self.cnp[4].d.next = self.cnp3.val();
        self.first[4].d.next = self.first3.val();
        self.cnp_cut[4].d.next = (self.cnp3.val() && (self.first3.val() || self.d_pass.val()));
        self.cnp_held[4].d.next = (self.cnp3.val() && !(self.first3.val() || self.d_pass.val()));
        self.bc_on.next = self.cfg.byte_reset.val().any();
        self.sent[4].d.next =
            (self.is_ev3.val() && (self.op[3].q.val() == 1) && self.created3.val());
        self.sent_acc[4].d.next = (self.is_ev3.val()
            && (self.op[3].q.val() == 1)
            && self.created3.val()
            && self.armed3.val()
            && self.bc_on.val());
        self.vis[4].d.next = self.is_vis3.val();
        self.vis_live[4].d.next = self.vis_live3.val();
        self.vis_dead[4].d.next = (self.is_vis3.val() && !self.vis_live3.val());
        self.vis_astep[4].d.next = self.vis_astep3.val();
        self.vis_cut[4].d.next = self.vis_cut3.val();
        self.vis_inc[4].d.next =
            (self.vis_live3.val() && !self.vis_cut3.val() && self.i_pass.val());
        self.late[4].d.next = ((self.vis_astep3.val() && (self.da3.val() > 1))
            || (self.vis_live3.val()
                && !self.vis_cut3.val()
                && self.i_pass.val()
                && (self.di3.val() > 1)));
        // α_init, clamped to 1.0; the α step α − α/2^g + [CNP]·2^−g.
        if (self.cfg.alpha_init.val() > self.k_one.val()) {
            self.alpha_init_c.next = self.k_one.val();
        } else {
            self.alpha_init_c.next = self.cfg.alpha_init.val();
        }
        self.one_g.next = (self.k_one.val() >> self.cfg.g_log2.val());
        // α / 2^g rounded half up, (α + 2^(g−1)) ≫ g, as (α ≫ g) + α's bit
        // g − 1 (α ≤ 1.0, so α + 2^(g−1) fits 21 bits and the two agree;
        // `half_g` is that bit's mask, 0 for g = 0 and for g ≥ 21).
        self.half_g.next = ((self.k_unit.val() << self.cfg.g_log2.val()) >> 1);
        self.al_sh.next = (self.al3.val() >> self.cfg.g_log2.val());
        self.al_round.next = (self.al3.val() & self.half_g.val()).any();
        self.alpha_dec.next = (self.al_sh.val() + bit_cast::<21, 1>(self.al_round.val().into()));
        // (α + [CNP]·2^−g) − α/2^g: the same sum mod 2^21, one chain less.
        if self.cnpa3.val() {
            self.al_inc.next = (self.al3.val() + self.one_g.val());
        } else {
            self.al_inc.next = self.al3.val();
        }
        self.astep.next = (self.al_inc.val() - self.alpha_dec.val());
        if ((self.is_ev3.val() && (self.op[3].q.val() == 2)) || self.first3.val()) {
            self.alpha_use3.next = self.alpha_init_c.val();
        } else if self.vis_astep3.val() {
            self.alpha_use3.next = self.astep.val();
        } else {
            self.alpha_use3.next = self.al3.val();
        }
        if (self.first3.val() && (self.rc3.val() > self.cfg.r_first.val())) {
            self.rc_base3.next = self.cfg.r_first.val();
        } else {
            self.rc_base3.next = self.rc3.val();
        }
        self.alpha_use[4].d.next = self.alpha_use3.val();
        self.rc_base[4].d.next = self.rc_base3.val();
        // The cut's product Rc·α: out in S7.
        self.mul.a.next = self.rc_base3.val();
        self.mul.b.next = bit_cast::<32, 21>(self.alpha_use3.val());
        self.mul.in_valid.next = true;
        // The increase step's addition.
        self.f4.next = bit_cast::<4, 3>(self.cfg.f.val());
        if (self.bc_on.val() && (self.b3.val() > self.t3.val())) {
            self.hi3.next = self.b3.val();
        } else {
            self.hi3.next = self.t3.val();
        }
        if (self.bc_on.val() && (self.b3.val() < self.t3.val())) {
            self.lo3.next = self.b3.val();
        } else {
            self.lo3.next = self.t3.val();
        }
        if (self.hi3.val() < self.f4.val()) {
            self.add[4].d.next = 0.into();
        } else if (self.lo3.val() > self.f4.val()) {
            self.add[4].d.next = self.cfg.r_hai.val();
        } else {
            self.add[4].d.next = self.cfg.r_ai.val();
        }
        self.bc33[4].d.next =
            (bit_cast::<33, 32>(self.bcnt3.val()) + bit_cast::<33, 16>(self.bytes[3].q.val()));

        // ---- S4–S6: the increase step (`IncreaseStep`): Rt and add in
        // at S4, Rc at S6, Rt' and Rc' out at S7. The byte counter's
        // threshold at S4.
        self.inc.rt.next = self.rate[4].q.val().get_bits::<32>(32);
        self.inc.add.next = self.add[4].q.val();
        self.inc.r_line.next = self.cfg.r_line.val();
        self.inc.rc.next = self.rc_base[6].q.val();
        self.byte_pass[5].d.next =
            (self.bc33[4].q.val() >= bit_cast::<33, 32>(self.cfg.byte_reset.val()));

        // ---- S7: the cut; the new state (`RpNewState`), registered
        // into S8.
        self.new_state.rate.next = self.rate[7].q.val();
        self.new_state.ab.next = self.ab[7].q.val();
        self.new_state.meta.next = self.meta[7].q.val();
        self.new_state.create.next = self.create[7].q.val();
        self.new_state.destroy.next = self.destroy[7].q.val();
        self.new_state.cnp.next = self.cnp[7].q.val();
        self.new_state.first.next = self.first[7].q.val();
        self.new_state.cnp_cut.next = self.cnp_cut[7].q.val();
        self.new_state.sent_acc.next = self.sent_acc[7].q.val();
        self.new_state.byte_pass.next = self.byte_pass[7].q.val();
        self.new_state.vis_live.next = self.vis_live[7].q.val();
        self.new_state.vis_astep.next = self.vis_astep[7].q.val();
        self.new_state.vis_inc.next = self.vis_inc[7].q.val();
        self.new_state.vis_cut.next = self.vis_cut[7].q.val();
        self.new_state.alpha_use.next = self.alpha_use[7].q.val();
        self.new_state.rc_base.next = self.rc_base[7].q.val();
        self.new_state.cut_d.next = self.mul.p.val().get_bits::<32>(21);
        self.new_state.bc33.next = self.bc33[7].q.val();
        self.new_state.inc_rc.next = self.inc.rc_new.val();
        self.new_state.inc_rt.next = self.inc.rt_new.val();
        self.new_state.cur_a.next = self.cur_a[7].q.val();
        self.new_state.cur_d.next = self.cur_d[7].q.val();
        self.new_state.cur_i.next = self.cur_i[7].q.val();
        self.new_state.r_line.next = self.cfg.r_line.val();
        self.new_state.r_min.next = self.cfg.r_min.val();

        // ---- S8: recovery, write back, timer list, update, counters
        self.queued8.next = self.meta[8].q.val().get_bit(1);
        self.recovered.next = (self.vis_live[8].q.val()
            && (self.new_state.rc.val() >= self.cfg.r_line.val())
            && !self.new_state.cnp_d.val());
        self.rc_changed.next = (self.new_state.rc.val() != self.rate[8].q.val().get_bits::<32>(0));
        self.armed_w.next = (self.new_state.armed.val() && !self.recovered.val());
        self.queued_w.next = self.queued8.val();
        self.timers.push.next = false;
        if self.first[8].q.val() {
            self.queued_w.next = true;
            self.timers.push.next = !self.queued8.val();
        } else if self.vis_dead[8].q.val() {
            self.queued_w.next = false;
        } else if self.vis_live[8].q.val() {
            self.queued_w.next = !self.recovered.val();
            self.timers.push.next = !self.recovered.val();
        }
        self.timers.push_data.next = self.flow[8].q.val();
        self.ram_rate.write_data.next = ((bit_cast::<64, 32>(self.new_state.rt.val()) << 32)
            | bit_cast::<64, 32>(self.new_state.rc.val()));
        self.ram_ab.write_data.next = ((bit_cast::<53, 32>(self.new_state.bcount.val()) << 21)
            | bit_cast::<53, 21>(self.new_state.alpha.val()));
        self.ram_meta.write_data.next = ((bit_cast::<61, 16>(self.new_state.ep_i.val()) << 45)
            | (bit_cast::<61, 16>(self.new_state.ep_d.val()) << 29)
            | (bit_cast::<61, 16>(self.new_state.ep_a.val()) << 13)
            | (bit_cast::<61, 4>(self.new_state.b_stage.val()) << 9)
            | (bit_cast::<61, 4>(self.new_state.t_stage.val()) << 5)
            | (bit_cast::<61, 1>(self.new_state.cnp_d.val().into()) << 4)
            | (bit_cast::<61, 1>(self.new_state.cnp_a.val().into()) << 3)
            | (bit_cast::<61, 1>(self.armed_w.val().into()) << 2)
            | (bit_cast::<61, 1>(self.queued_w.val().into()) << 1)
            | bit_cast::<61, 1>(self.new_state.created.val().into()));
        self.ram_rate.write_enable.next = (self.v[8].q.val() && (self.kind[8].q.val() != 2));
        self.ram_ab.write_enable.next = (self.v[8].q.val() && (self.kind[8].q.val() != 2));
        self.ram_meta.write_enable.next = (self.v[8].q.val() && (self.kind[8].q.val() != 2));
        self.ram_rate.write_address.next = bit_cast::<A, 16>(self.flow[8].q.val());
        self.ram_ab.write_address.next = bit_cast::<A, 16>(self.flow[8].q.val());
        self.ram_meta.write_address.next = bit_cast::<A, 16>(self.flow[8].q.val());

        // The update.
        self.bare.next = ((self.v[8].q.val() && (self.kind[8].q.val() == 2))
            || self.drop[8].q.val()
            || self.destroy[8].q.val());
        self.uv.next = ((self.v[8].q.val() && (self.kind[8].q.val() == 2))
            || self.create[8].q.val()
            || self.destroy[8].q.val()
            || self.drop[8].q.val()
            || self.cnp[8].q.val()
            || (self.sent[8].q.val() && self.rc_changed.val())
            || (self.vis_live[8].q.val() && (self.rc_changed.val() || self.recovered.val())));
        self.u_valid.d.next = self.uv.val();
        // Every field is 0 while `m_update.valid` is low.
        if self.uv.val() {
            self.u_flow.d.next = self.flow[8].q.val();
        } else {
            self.u_flow.d.next = 0.into();
        }
        if (self.bare.val() && !self.destroy[8].q.val()) {
            self.u_status.d.next = 4.into();
        } else if self.create[8].q.val() {
            self.u_status.d.next = 2.into();
        } else if self.destroy[8].q.val() {
            self.u_status.d.next = 3.into();
        } else if self.cnp_held[8].q.val() {
            self.u_status.d.next = 1.into();
        } else {
            self.u_status.d.next = 0.into();
        }
        if (self.bare.val() || !self.uv.val()) {
            self.u_flags.d.next = 0.into();
            self.u_w.d.next = 0.into();
            self.u_r.d.next = 0.into();
            self.u_u.d.next = 0.into();
            self.u_inc.d.next = 0.into();
        } else {
            self.u_flags.d.next = ((bit_cast::<3, 1>(self.late[8].q.val().into()) << 2)
                | (bit_cast::<3, 1>(self.recovered.val().into()) << 1)
                | bit_cast::<3, 1>(self.first[8].q.val().into()));
            self.u_w.d.next = self.cfg.window.val();
            self.u_r.d.next = self.new_state.rc.val().get_bits::<24>(8);
            self.u_u.d.next = bit_cast::<32, 21>(self.new_state.alpha.val());
            self.u_inc.d.next = self.new_state.stage_max.val();
        }

        // Counters.
        self.counters.ev.next = (self.v[8].q.val() && (self.kind[8].q.val() != 1));
        self.counters.coalesced.next = (self.accept.val() && self.coalesce.val());
        self.counters.cnp.next = self.cnp[8].q.val();
        self.counters.sent.next = self.sent[8].q.val();
        self.counters.visit.next = self.vis[8].q.val();
        self.counters.cut.next = (self.cnp_cut[8].q.val() || self.vis_cut[8].q.val());
        self.counters.increase.next = self.new_state.increased.val();
        self.counters.held.next = self.cnp_held[8].q.val();
        self.counters.recovered.next = self.recovered.val();
        self.counters.drop_flow.next =
            ((self.v[8].q.val() && (self.kind[8].q.val() == 2)) || self.drop[8].q.val());
        self.counters.late.next = self.late[8].q.val();
    }
}
