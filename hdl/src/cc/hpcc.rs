//! The HPCC++ congestion-control module: sender-based (NewAck) and
//! receiver-based (NewINT), fixed point, one event per cycle across flows.
//!
//! # Ports (clock `clock`)
//! Configuration (quasi-static; change only while no event is in flight;
//! values from the driver, `nic_golden::cc::params::CcParams::regs`):
//! `cfg_variant` (0 sender, 1 receiver), `cfg_t` (T, ns, 24 bits),
//! `cfg_inv_t_m`/`cfg_inv_t_s` (floor(2^s/T) and s), `cfg_uq_m`
//! (floor(2^(s+2)/(5T))), `cfg_eta` (UQ0.16), `cfg_max_stage` (3 bits),
//! `cfg_w_ai`/`cfg_w_min`/`cfg_w_init` (UQ24.8 bytes), `cfg_mlog`
//! (log2 of the telemetry multi).
//!
//! Event in (valid/ready): `in_op` (0 event, 1 create, 2 destroy),
//! `in_flow` (16 bits), `in_seq`, `in_snd_nxt` (sender, 32 bits, serial
//! arithmetic), `in_now` (receiver, ns mod 2^32), `in_nhops` (4 bits),
//! `in_hop0..4` (ns-3 hop words, parsed by [`Ns3HopParse`]).
//!
//! Update out (valid only; the scheduler takes one per cycle):
//! `out_flow`, `out_status` (see `nic_golden::cc::hpcc::status`),
//! `out_flags` (ts stale, bytes back, qlen saturated), `out_w` (UQ24.8
//! bytes), `out_r` (R = W/T, UQ8.16 bytes/ns), `out_u` (U, UQ8.24),
//! `out_inc_stage`, `out_updated_wc` (Wc committed; for the receiver, the
//! window is to be sent back). Counters `cnt_*` (32 bits, wrapping).
//!
//! # Timing
//! Latency [`LATENCY`] cycles from acceptance to `out_valid`, II 1 for
//! events of different flows. An event whose flow had an event accepted
//! in the last [`HAZARD_WINDOW`] cycles waits (`in_ready` low): each state
//! field's read-modify-write spans at most that many cycles, so events of
//! one flow are processed exactly in order, with no forwarding.
//!
//! Stages (cycle after acceptance):
//! - 0: parse, read the flow's meta (created, hop count, lastUpdate) and
//!   stored hops; 1: RAM outputs registered; 2: the subtractions (hop
//!   deltas, seq − lastUpdateSeq, now − lastUpdateTime).
//! - 3: status, commit decision; meta and hop writes (registered, land at
//!   the end of 4).
//! - 4: divider operands; 5–38: txRate/B per hop (`Divider<32,30>`);
//!   34–38: queue term per hop (`WideMul`).
//! - 38–43: u′ = sum, max over hops (the first wins a tie), tau.
//! - 43–47: tau/T (`WideMul` by 1/T). 47–56: U EWMA (read U at 47, write
//!   at 56).
//! - 56–89: eta/U (`Divider<32,28>`). 87–96: ComputeWind (read W, Wc,
//!   incStage at 87, write at 96). 96–101: R = W/T (`WideMul`), saturated;
//!   102: the output registers.
//!
//! # State
//! Per flow, in block RAM (2^A flows): meta (36 bits), five hops of 61
//! bits, U (32), W/Wc/incStage (67). The meta RAM starts at zero: no flow
//! exists until created.
//!
//! # Bad input
//! Flow id ≥ 2^A, a flow not created, or an unknown op: `DROP_FLOW`. Hop
//! count 0 or > 5: `DROP_HOPS`. An unknown rate code in a used hop:
//! `DROP_RATE`. Dropped events write no state and are counted. A hop
//! whose timestamp did not advance or went back contributes its queue
//! term only (tau 0); tx bytes going back count as 0; a saturated qlen is
//! used as is; each is flagged and counted. Arithmetic saturates.
//!
//! Golden twin: `nic_golden::cc::hpcc` (its `HpccFixed` spells out each
//! step's arithmetic).

use super::int_ns3::Ns3HopParse;
use crate::arith::{Delay, Divider, WideMul};
use crate::mem::Ram;
use rust_hdl::prelude::*;

/// Cycles from acceptance to `out_valid`.
pub const LATENCY: usize = 102;
/// Same-flow events are spaced at least `HAZARD_WINDOW + 1` cycles.
pub const HAZARD_WINDOW: usize = 9;
const HZ: usize = 9;
/// Pipeline context registers, stages 3..=98.
const CTX: usize = 98;

#[derive(LogicBlock)]
pub struct HpccCc<const A: usize> {
    pub clock: Signal<In, Clock>,
    pub cfg_variant: Signal<In, Bit>,
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
    pub in_valid: Signal<In, Bit>,
    pub in_ready: Signal<Out, Bit>,
    pub in_op: Signal<In, Bits<2>>,
    pub in_flow: Signal<In, Bits<16>>,
    pub in_seq: Signal<In, Bits<32>>,
    pub in_snd_nxt: Signal<In, Bits<32>>,
    pub in_now: Signal<In, Bits<32>>,
    pub in_nhops: Signal<In, Bits<4>>,
    pub in_hop0: Signal<In, Bits<64>>,
    pub in_hop1: Signal<In, Bits<64>>,
    pub in_hop2: Signal<In, Bits<64>>,
    pub in_hop3: Signal<In, Bits<64>>,
    pub in_hop4: Signal<In, Bits<64>>,
    pub out_valid: Signal<Out, Bit>,
    pub out_flow: Signal<Out, Bits<16>>,
    pub out_status: Signal<Out, Bits<3>>,
    pub out_flags: Signal<Out, Bits<3>>,
    pub out_w: Signal<Out, Bits<32>>,
    pub out_r: Signal<Out, Bits<24>>,
    pub out_u: Signal<Out, Bits<32>>,
    pub out_inc_stage: Signal<Out, Bits<3>>,
    pub out_updated_wc: Signal<Out, Bit>,
    pub cnt_events: Signal<Out, Bits<32>>,
    pub cnt_drop_flow: Signal<Out, Bits<32>>,
    pub cnt_drop_hops: Signal<Out, Bits<32>>,
    pub cnt_drop_rate: Signal<Out, Bits<32>>,
    pub cnt_ts_stale: Signal<Out, Bits<32>>,
    pub cnt_bytes_back: Signal<Out, Bits<32>>,
    pub cnt_qlen_sat: Signal<Out, Bits<32>>,

    // ---- constants
    k_a: Constant<Bits<8>>,
    /// sh[i] = i: shift amounts and bit offsets.
    sh: [Constant<Bits<8>>; 100],
    five: Constant<Bits<4>>,
    idx: [Constant<Bits<4>>; 5],
    u_one: Constant<Bits<32>>,
    ones32: Constant<Bits<32>>,
    one32: Constant<Bits<32>>,
    r_cap: Constant<Bits<32>>,
    half20: Constant<Bits<64>>,
    half24: Constant<Bits<64>>,
    r_max: Constant<Bits<24>>,
    op_event: Constant<Bits<2>>,
    op_create: Constant<Bits<2>>,
    op_destroy: Constant<Bits<2>>,
    st_update: Constant<Bits<3>>,
    st_init: Constant<Bits<3>>,
    st_created: Constant<Bits<3>>,
    st_destroyed: Constant<Bits<3>>,
    st_drop_flow: Constant<Bits<3>>,
    st_drop_hops: Constant<Bits<3>>,
    st_drop_rate: Constant<Bits<3>>,

    // ---- hazard interlock
    hz_v: [DFF<Bit>; HZ],
    hz_f: [DFF<Bits<16>>; HZ],
    hit: Signal<Local, Bit>,
    accept: Signal<Local, Bit>,

    // ---- stage 0..2
    parse: [Ns3HopParse; 5],
    meta_ram: Ram<Bits<36>, A>,
    meta_wa: DFF<Bits<A>>,
    meta_we: DFF<Bit>,
    meta_wd: DFF<Bits<36>>,
    hop_wa: [DFF<Bits<A>>; 5],
    hop_we: [DFF<Bit>; 5],
    hop_wd: [DFF<Bits<61>>; 5],
    hop_ram: [Ram<Bits<61>, A>; 5],
    v1: DFF<Bit>,
    op1: DFF<Bits<2>>,
    flow1: DFF<Bits<16>>,
    seq1: DFF<Bits<32>>,
    snd1: DFF<Bits<32>>,
    now1: DFF<Bits<32>>,
    nh1: DFF<Bits<4>>,
    oor1: DFF<Bit>,
    hw1: [DFF<Bits<64>>; 5],
    rok1: [DFF<Bit>; 5],
    qmx1: [DFF<Bit>; 5],
    v2: DFF<Bit>,
    op2: DFF<Bits<2>>,
    flow2: DFF<Bits<16>>,
    seq2: DFF<Bits<32>>,
    snd2: DFF<Bits<32>>,
    now2: DFF<Bits<32>>,
    nh2: DFF<Bits<4>>,
    oor2: DFF<Bit>,
    hw2: [DFF<Bits<64>>; 5],
    rok2: [DFF<Bit>; 5],
    qmx2: [DFF<Bit>; 5],
    meta2: DFF<Bits<36>>,
    old2: [DFF<Bits<61>>; 5],
    // stage-3 registers: stage 2's subtractions and the event
    v2b: DFF<Bit>,
    op2b: DFF<Bits<2>>,
    flow2b: DFF<Bits<16>>,
    snd2b: DFF<Bits<32>>,
    now2b: DFF<Bits<32>>,
    nh2b: DFF<Bits<4>>,
    oor2b: DFF<Bit>,
    meta2b: DFF<Bits<36>>,
    commit2b: DFF<Bit>,
    nhbad2b: DFF<Bit>,
    nhmis2b: DFF<Bit>,
    bad_rate2b: DFF<Bit>,
    qmx2b: [DFF<Bit>; 5],
    stale2b: [DFF<Bit>; 5],
    back2b: [DFF<Bit>; 5],
    active2b: [DFF<Bit>; 5],
    hw2b: [DFF<Bits<64>>; 5],
    dts2b: [DFF<Bits<24>>; 5],
    db2b: [DFF<Bits<20>>; 5],
    oql2b: [DFF<Bits<17>>; 5],
    // stage-2 combinational
    created2: Signal<Local, Bit>,
    last2: Signal<Local, Bits<32>>,
    active2: [Signal<Local, Bit>; 5],
    n_ts: [Signal<Local, Bits<24>>; 5],
    n_by: [Signal<Local, Bits<20>>; 5],
    n_ql: [Signal<Local, Bits<17>>; 5],
    o_ql: [Signal<Local, Bits<17>>; 5],
    dts2: [Signal<Local, Bits<24>>; 5],
    db2: [Signal<Local, Bits<20>>; 5],
    stale2: [Signal<Local, Bit>; 5],
    back2: [Signal<Local, Bit>; 5],
    bad_rate2: Signal<Local, Bit>,
    flags2: Signal<Local, Bits<3>>,
    status2: Signal<Local, Bits<3>>,
    commit2: Signal<Local, Bit>,
    dseq2: Signal<Local, Bits<32>>,
    dnow2: Signal<Local, Bits<32>>,
    stamp2: Signal<Local, Bits<32>>,
    meta_new2: Signal<Local, Bits<36>>,
    // ---- context, stages 3..=98: [23:8] flow, [7:5] status,
    // [4:2] flags, [1] commit, [0] valid
    ctx: [DFF<Bits<24>>; CTX],
    // ---- stages 3..5: divider operands
    db4: [DFF<Bits<20>>; 5],
    dts4: [DFF<Bits<24>>; 5],
    code4: [DFF<Bits<3>>; 5],
    qmin4: [DFF<Bits<17>>; 5],
    kill4: [DFF<Bit>; 5],
    tau4: [DFF<Bits<24>>; 5],
    d9_4: [DFF<Bits<32>>; 5],
    sh4: [Signal<Local, Bits<8>>; 5],
    d25: [Signal<Local, Bits<32>>; 5],
    a5: [DFF<Bits<32>>; 5],
    d5: [DFF<Bits<32>>; 5],
    div: [Divider<32, 30>; 5],
    qmin_d: [Delay<17, 30>; 5],
    code_d: [Delay<8, 34>; 5],
    tau_d: [Delay<24, 38>; 5],
    uq_mul: [WideMul; 5],
    // ---- stages 38..43
    sh38: [Signal<Local, Bits<8>>; 5],
    psh38: [Signal<Local, Bits<64>>; 5],
    uq39: [DFF<Bits<64>>; 5],
    utx39: [DFF<Bits<32>>; 5],
    sum39: [Signal<Local, Bits<64>>; 5],
    up40: [DFF<Bits<32>>; 5],
    c41: [DFF<Bit>; 10],
    z41: DFF<Bit>,
    up41: [DFF<Bits<32>>; 5],
    win42: [DFF<Bit>; 5],
    z42: DFF<Bit>,
    up42: [DFF<Bits<32>>; 5],
    u43: DFF<Bits<32>>,
    tau43: DFF<Bits<24>>,
    // ---- stages 43..56: tau/T and the U EWMA
    tau_mul: WideMul,
    utge_d: Delay<33, 4>,
    fsh47: Signal<Local, Bits<8>>,
    fp47: Signal<Local, Bits<64>>,
    f48: DFF<Bits<32>>,
    u48: DFF<Bits<32>>,
    u_ram: Ram<Bits<32>, A>,
    f49: DFF<Bits<32>>,
    u49: DFF<Bits<32>>,
    uold49: DFF<Bits<32>>,
    f50: DFF<Bits<32>>,
    diffa50: DFF<Bits<32>>,
    diffb50: DFF<Bits<32>>,
    ge50: DFF<Bit>,
    geu_d: Delay<33, 6>,
    uu_mul: WideMul,
    delta55: DFF<Bits<32>>,
    unew55: Signal<Local, Bits<32>>,
    u56: DFF<Bits<32>>,
    eta32: Signal<Local, Bits<32>>,
    eta_div: Divider<32, 28>,
    mdu_d: Delay<1, 33>,
    uout_d: Delay<32, 45>,
    // ---- stages 87..102: ComputeWind and R
    w_ram: Ram<Bits<67>, A>,
    wold89: DFF<Bits<32>>,
    wcold89: DFF<Bits<32>>,
    inc89: DFF<Bits<3>>,
    md89: Signal<Local, Bit>,
    r89: Signal<Local, Bits<32>>,
    wp93: Signal<Local, Bits<64>>,
    wai33: Signal<Local, Bits<33>>,
    bundle89: Signal<Local, Bits<101>>,
    wb: [DFF<Bits<101>>; 7],
    w_mul: WideMul,
    wmd94: DFF<Bits<43>>,
    wsel95: DFF<Bits<44>>,
    chi96: DFF<Bit>,
    clo96: DFF<Bit>,
    wsel96: DFF<Bits<32>>,
    wmin95: Signal<Local, Bits<32>>,
    wnew96: Signal<Local, Bits<32>>,
    wout96: Signal<Local, Bits<32>>,
    incout96: Signal<Local, Bits<3>>,
    wc96: Signal<Local, Bits<32>>,
    incnew96: Signal<Local, Bits<3>>,
    r_mul: WideMul,
    winc_d: Delay<35, 5>,
    rsh100: Signal<Local, Bits<8>>,
    rp101: DFF<Bits<64>>,
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
    c_events: DFF<Bits<32>>,
    c_drop_flow: DFF<Bits<32>>,
    c_drop_hops: DFF<Bits<32>>,
    c_drop_rate: DFF<Bits<32>>,
    c_ts_stale: DFF<Bits<32>>,
    c_bytes_back: DFF<Bits<32>>,
    c_qlen_sat: DFF<Bits<32>>,
}

fn k<const N: usize>(v: u64) -> Constant<Bits<N>> {
    Constant::new(v.to_bits())
}

impl<const A: usize> Default for HpccCc<A> {
    fn default() -> Self {
        assert!((2..=16).contains(&A), "HpccCc needs 2 <= A <= 16");
        Self {
            clock: Default::default(),
            cfg_variant: Default::default(),
            cfg_t: Default::default(),
            cfg_inv_t_m: Default::default(),
            cfg_inv_t_s: Default::default(),
            cfg_uq_m: Default::default(),
            cfg_eta: Default::default(),
            cfg_max_stage: Default::default(),
            cfg_w_ai: Default::default(),
            cfg_w_min: Default::default(),
            cfg_w_init: Default::default(),
            cfg_mlog: Default::default(),
            in_valid: Default::default(),
            in_ready: Default::default(),
            in_op: Default::default(),
            in_flow: Default::default(),
            in_seq: Default::default(),
            in_snd_nxt: Default::default(),
            in_now: Default::default(),
            in_nhops: Default::default(),
            in_hop0: Default::default(),
            in_hop1: Default::default(),
            in_hop2: Default::default(),
            in_hop3: Default::default(),
            in_hop4: Default::default(),
            out_valid: Default::default(),
            out_flow: Default::default(),
            out_status: Default::default(),
            out_flags: Default::default(),
            out_w: Default::default(),
            out_r: Default::default(),
            out_u: Default::default(),
            out_inc_stage: Default::default(),
            out_updated_wc: Default::default(),
            cnt_events: Default::default(),
            cnt_drop_flow: Default::default(),
            cnt_drop_hops: Default::default(),
            cnt_drop_rate: Default::default(),
            cnt_ts_stale: Default::default(),
            cnt_bytes_back: Default::default(),
            cnt_qlen_sat: Default::default(),
            k_a: k(A as u64),
            sh: std::array::from_fn(|i| k(i as u64)),
            five: k(5),
            idx: std::array::from_fn(|i| k(i as u64)),
            u_one: k(1 << 24),
            ones32: k(0xFFFF_FFFF),
            one32: k(1),
            r_cap: k(0x7FFF_FFFF),
            half20: k(1 << 20),
            half24: k(1 << 23),
            r_max: k(0xFF_FFFF),
            op_event: k(0),
            op_create: k(1),
            op_destroy: k(2),
            st_update: k(0),
            st_init: k(1),
            st_created: k(2),
            st_destroyed: k(3),
            st_drop_flow: k(4),
            st_drop_hops: k(5),
            st_drop_rate: k(6),
            hz_v: std::array::from_fn(|_| Default::default()),
            hz_f: std::array::from_fn(|_| Default::default()),
            hit: Default::default(),
            accept: Default::default(),
            parse: std::array::from_fn(|_| Default::default()),
            // Every RAM (`Ram`) starts at zero: no flow exists at power-up
            // (and no X in a 4-state simulation).
            meta_ram: Default::default(),
            hop_ram: std::array::from_fn(|_| Default::default()),
            meta_wa: Default::default(),
            meta_we: Default::default(),
            meta_wd: Default::default(),
            hop_wa: std::array::from_fn(|_| Default::default()),
            hop_we: std::array::from_fn(|_| Default::default()),
            hop_wd: std::array::from_fn(|_| Default::default()),
            v1: Default::default(),
            op1: Default::default(),
            flow1: Default::default(),
            seq1: Default::default(),
            snd1: Default::default(),
            now1: Default::default(),
            nh1: Default::default(),
            oor1: Default::default(),
            hw1: std::array::from_fn(|_| Default::default()),
            rok1: std::array::from_fn(|_| Default::default()),
            qmx1: std::array::from_fn(|_| Default::default()),
            v2: Default::default(),
            op2: Default::default(),
            flow2: Default::default(),
            seq2: Default::default(),
            snd2: Default::default(),
            now2: Default::default(),
            nh2: Default::default(),
            oor2: Default::default(),
            hw2: std::array::from_fn(|_| Default::default()),
            rok2: std::array::from_fn(|_| Default::default()),
            qmx2: std::array::from_fn(|_| Default::default()),
            meta2: Default::default(),
            old2: std::array::from_fn(|_| Default::default()),
            v2b: Default::default(),
            op2b: Default::default(),
            flow2b: Default::default(),
            snd2b: Default::default(),
            now2b: Default::default(),
            nh2b: Default::default(),
            oor2b: Default::default(),
            meta2b: Default::default(),
            commit2b: Default::default(),
            nhbad2b: Default::default(),
            nhmis2b: Default::default(),
            bad_rate2b: Default::default(),
            qmx2b: std::array::from_fn(|_| Default::default()),
            stale2b: std::array::from_fn(|_| Default::default()),
            back2b: std::array::from_fn(|_| Default::default()),
            active2b: std::array::from_fn(|_| Default::default()),
            hw2b: std::array::from_fn(|_| Default::default()),
            dts2b: std::array::from_fn(|_| Default::default()),
            db2b: std::array::from_fn(|_| Default::default()),
            oql2b: std::array::from_fn(|_| Default::default()),
            created2: Default::default(),
            last2: Default::default(),
            active2: std::array::from_fn(|_| Default::default()),
            n_ts: std::array::from_fn(|_| Default::default()),
            n_by: std::array::from_fn(|_| Default::default()),
            n_ql: std::array::from_fn(|_| Default::default()),
            o_ql: std::array::from_fn(|_| Default::default()),
            dts2: std::array::from_fn(|_| Default::default()),
            db2: std::array::from_fn(|_| Default::default()),
            stale2: std::array::from_fn(|_| Default::default()),
            back2: std::array::from_fn(|_| Default::default()),
            bad_rate2: Default::default(),
            flags2: Default::default(),
            status2: Default::default(),
            commit2: Default::default(),
            dseq2: Default::default(),
            dnow2: Default::default(),
            stamp2: Default::default(),
            meta_new2: Default::default(),
            ctx: std::array::from_fn(|_| Default::default()),
            db4: std::array::from_fn(|_| Default::default()),
            dts4: std::array::from_fn(|_| Default::default()),
            code4: std::array::from_fn(|_| Default::default()),
            qmin4: std::array::from_fn(|_| Default::default()),
            kill4: std::array::from_fn(|_| Default::default()),
            tau4: std::array::from_fn(|_| Default::default()),
            d9_4: std::array::from_fn(|_| Default::default()),
            sh4: std::array::from_fn(|_| Default::default()),
            d25: std::array::from_fn(|_| Default::default()),
            a5: std::array::from_fn(|_| Default::default()),
            d5: std::array::from_fn(|_| Default::default()),
            div: std::array::from_fn(|_| Default::default()),
            qmin_d: std::array::from_fn(|_| Default::default()),
            code_d: std::array::from_fn(|_| Default::default()),
            tau_d: std::array::from_fn(|_| Default::default()),
            uq_mul: std::array::from_fn(|_| Default::default()),
            sh38: std::array::from_fn(|_| Default::default()),
            psh38: std::array::from_fn(|_| Default::default()),
            uq39: std::array::from_fn(|_| Default::default()),
            utx39: std::array::from_fn(|_| Default::default()),
            sum39: std::array::from_fn(|_| Default::default()),
            up40: std::array::from_fn(|_| Default::default()),
            c41: std::array::from_fn(|_| Default::default()),
            z41: Default::default(),
            up41: std::array::from_fn(|_| Default::default()),
            win42: std::array::from_fn(|_| Default::default()),
            z42: Default::default(),
            up42: std::array::from_fn(|_| Default::default()),
            u43: Default::default(),
            tau43: Default::default(),
            tau_mul: Default::default(),
            utge_d: Default::default(),
            fsh47: Default::default(),
            fp47: Default::default(),
            f48: Default::default(),
            u48: Default::default(),
            u_ram: Default::default(),
            f49: Default::default(),
            u49: Default::default(),
            uold49: Default::default(),
            f50: Default::default(),
            diffa50: Default::default(),
            diffb50: Default::default(),
            ge50: Default::default(),
            geu_d: Default::default(),
            uu_mul: Default::default(),
            delta55: Default::default(),
            unew55: Default::default(),
            u56: Default::default(),
            eta32: Default::default(),
            eta_div: Default::default(),
            mdu_d: Default::default(),
            uout_d: Default::default(),
            w_ram: Default::default(),
            wold89: Default::default(),
            wcold89: Default::default(),
            inc89: Default::default(),
            md89: Default::default(),
            r89: Default::default(),
            wp93: Default::default(),
            wai33: Default::default(),
            bundle89: Default::default(),
            wb: std::array::from_fn(|_| Default::default()),
            w_mul: Default::default(),
            wmd94: Default::default(),
            wsel95: Default::default(),
            chi96: Default::default(),
            clo96: Default::default(),
            wsel96: Default::default(),
            wmin95: Default::default(),
            wnew96: Default::default(),
            wout96: Default::default(),
            incout96: Default::default(),
            wc96: Default::default(),
            incnew96: Default::default(),
            r_mul: Default::default(),
            winc_d: Default::default(),
            rsh100: Default::default(),
            rp101: Default::default(),
            o_valid: Default::default(),
            o_flow: Default::default(),
            o_status: Default::default(),
            o_flags: Default::default(),
            o_w: Default::default(),
            o_r: Default::default(),
            o_u: Default::default(),
            o_inc: Default::default(),
            o_upd: Default::default(),
            c_events: Default::default(),
            c_drop_flow: Default::default(),
            c_drop_hops: Default::default(),
            c_drop_rate: Default::default(),
            c_ts_stale: Default::default(),
            c_bytes_back: Default::default(),
            c_qlen_sat: Default::default(),
        }
    }
}

impl<const A: usize> Logic for HpccCc<A> {
    #[hdl_gen]
    fn update(&mut self) {
        // ---- clocks
        dff_setup!(
            self,
            clock,
            v1,
            op1,
            flow1,
            seq1,
            snd1,
            now1,
            nh1,
            oor1,
            v2,
            op2,
            flow2,
            seq2,
            snd2,
            now2,
            nh2,
            oor2,
            meta2,
            v2b,
            op2b,
            flow2b,
            snd2b,
            now2b,
            nh2b,
            oor2b,
            meta2b,
            commit2b,
            nhbad2b,
            nhmis2b,
            bad_rate2b,
            meta_wa,
            meta_we,
            meta_wd,
            u43,
            tau43,
            f48,
            u48,
            f49,
            u49,
            uold49,
            f50,
            diffa50,
            diffb50,
            ge50,
            delta55,
            u56,
            wold89,
            wcold89,
            inc89,
            wmd94,
            wsel95,
            chi96,
            clo96,
            wsel96,
            rp101,
            o_valid,
            o_flow,
            o_status,
            o_flags,
            o_w,
            o_r,
            o_u,
            o_inc,
            o_upd,
            c_events,
            c_drop_flow,
            c_drop_hops,
            c_drop_rate,
            c_ts_stale,
            c_bytes_back,
            c_qlen_sat
        );
        clock!(
            self, clock, tau_mul, utge_d, geu_d, uu_mul, eta_div, mdu_d, uout_d, w_mul, r_mul,
            winc_d
        );
        self.meta_ram.clock.next = self.clock.val();
        self.u_ram.clock.next = self.clock.val();
        self.w_ram.clock.next = self.clock.val();
        for i in 0..9 {
            self.hz_v[i].clock.next = self.clock.val();
            self.hz_f[i].clock.next = self.clock.val();
        }
        for i in 0..98 {
            self.ctx[i].clock.next = self.clock.val();
        }
        for i in 0..7 {
            self.wb[i].clock.next = self.clock.val();
        }
        for i in 0..10 {
            self.c41[i].clock.next = self.clock.val();
        }
        self.z41.clock.next = self.clock.val();
        self.z42.clock.next = self.clock.val();
        for i in 0..5 {
            self.hop_ram[i].clock.next = self.clock.val();
            self.hw1[i].clock.next = self.clock.val();
            self.rok1[i].clock.next = self.clock.val();
            self.qmx1[i].clock.next = self.clock.val();
            self.hw2[i].clock.next = self.clock.val();
            self.rok2[i].clock.next = self.clock.val();
            self.qmx2[i].clock.next = self.clock.val();
            self.old2[i].clock.next = self.clock.val();
            self.hw2b[i].clock.next = self.clock.val();
            self.stale2b[i].clock.next = self.clock.val();
            self.back2b[i].clock.next = self.clock.val();
            self.active2b[i].clock.next = self.clock.val();
            self.qmx2b[i].clock.next = self.clock.val();
            self.dts2b[i].clock.next = self.clock.val();
            self.db2b[i].clock.next = self.clock.val();
            self.oql2b[i].clock.next = self.clock.val();
            self.db4[i].clock.next = self.clock.val();
            self.dts4[i].clock.next = self.clock.val();
            self.code4[i].clock.next = self.clock.val();
            self.qmin4[i].clock.next = self.clock.val();
            self.kill4[i].clock.next = self.clock.val();
            self.tau4[i].clock.next = self.clock.val();
            self.d9_4[i].clock.next = self.clock.val();
            self.hop_wa[i].clock.next = self.clock.val();
            self.hop_we[i].clock.next = self.clock.val();
            self.hop_wd[i].clock.next = self.clock.val();
            self.a5[i].clock.next = self.clock.val();
            self.d5[i].clock.next = self.clock.val();
            self.div[i].clock.next = self.clock.val();
            self.qmin_d[i].clock.next = self.clock.val();
            self.code_d[i].clock.next = self.clock.val();
            self.tau_d[i].clock.next = self.clock.val();
            self.uq_mul[i].clock.next = self.clock.val();
            self.uq39[i].clock.next = self.clock.val();
            self.utx39[i].clock.next = self.clock.val();
            self.up40[i].clock.next = self.clock.val();
            self.up41[i].clock.next = self.clock.val();
            self.up42[i].clock.next = self.clock.val();
            self.win42[i].clock.next = self.clock.val();
        }

        // ---- stage 0: hazard interlock, accept, parse, read meta and hops
        self.hit.next = false;
        for i in 0..9 {
            if (self.hz_v[i].q.val() && (self.hz_f[i].q.val() == self.in_flow.val())) {
                self.hit.next = true;
            }
        }
        self.in_ready.next = !self.hit.val();
        self.accept.next = (self.in_valid.val() && !self.hit.val());
        self.hz_v[0].d.next = self.accept.val();
        self.hz_f[0].d.next = self.in_flow.val();
        for i in 1..9 {
            self.hz_v[i].d.next = self.hz_v[i - 1].q.val();
            self.hz_f[i].d.next = self.hz_f[i - 1].q.val();
        }
        self.parse[0].word.next = self.in_hop0.val();
        self.parse[1].word.next = self.in_hop1.val();
        self.parse[2].word.next = self.in_hop2.val();
        self.parse[3].word.next = self.in_hop3.val();
        self.parse[4].word.next = self.in_hop4.val();
        self.hw1[0].d.next = self.in_hop0.val();
        self.hw1[1].d.next = self.in_hop1.val();
        self.hw1[2].d.next = self.in_hop2.val();
        self.hw1[3].d.next = self.in_hop3.val();
        self.hw1[4].d.next = self.in_hop4.val();
        self.rok1[0].d.next = self.parse[0].rate_ok.val();
        self.qmx1[0].d.next = self.parse[0].qlen_max.val();
        self.hop_ram[0].read_address.next = bit_cast::<A, 16>(self.in_flow.val());

        self.rok1[1].d.next = self.parse[1].rate_ok.val();
        self.qmx1[1].d.next = self.parse[1].qlen_max.val();
        self.hop_ram[1].read_address.next = bit_cast::<A, 16>(self.in_flow.val());

        self.rok1[2].d.next = self.parse[2].rate_ok.val();
        self.qmx1[2].d.next = self.parse[2].qlen_max.val();
        self.hop_ram[2].read_address.next = bit_cast::<A, 16>(self.in_flow.val());

        self.rok1[3].d.next = self.parse[3].rate_ok.val();
        self.qmx1[3].d.next = self.parse[3].qlen_max.val();
        self.hop_ram[3].read_address.next = bit_cast::<A, 16>(self.in_flow.val());

        self.rok1[4].d.next = self.parse[4].rate_ok.val();
        self.qmx1[4].d.next = self.parse[4].qlen_max.val();
        self.hop_ram[4].read_address.next = bit_cast::<A, 16>(self.in_flow.val());

        self.meta_ram.read_address.next = bit_cast::<A, 16>(self.in_flow.val());
        self.v1.d.next = self.accept.val();
        self.op1.d.next = self.in_op.val();
        self.flow1.d.next = self.in_flow.val();
        self.seq1.d.next = self.in_seq.val();
        self.snd1.d.next = self.in_snd_nxt.val();
        self.now1.d.next = self.in_now.val();
        self.nh1.d.next = self.in_nhops.val();
        self.oor1.d.next = (self.in_flow.val() >> self.k_a.val()).any();

        // ---- stage 1: register the RAM outputs
        self.v2.d.next = self.v1.q.val();
        self.op2.d.next = self.op1.q.val();
        self.flow2.d.next = self.flow1.q.val();
        self.seq2.d.next = self.seq1.q.val();
        self.snd2.d.next = self.snd1.q.val();
        self.now2.d.next = self.now1.q.val();
        self.nh2.d.next = self.nh1.q.val();
        self.oor2.d.next = self.oor1.q.val();
        self.meta2.d.next = self.meta_ram.read_data.val();
        for i in 0..5 {
            self.hw2[i].d.next = self.hw1[i].q.val();
            self.rok2[i].d.next = self.rok1[i].q.val();
            self.qmx2[i].d.next = self.qmx1[i].q.val();
            self.old2[i].d.next = self.hop_ram[i].read_data.val();
        }

        // ---- stage 2: the subtractions (hop deltas, serial-number
        // differences) and every test on them, registered
        self.last2.next = self.meta2.q.val().get_bits::<32>(0);
        self.dseq2.next = (self.seq2.q.val() - self.last2.val());
        self.dnow2.next = (self.now2.q.val() - self.last2.val());
        // Line 22 (sender) / 29 (receiver): commit Wc this time?
        self.commit2b.d.next = (self.dseq2.val().any() && !self.dseq2.val().get_bit(31));
        if self.cfg_variant.val() {
            self.commit2b.d.next = ((self.dnow2.val() > bit_cast::<32, 24>(self.cfg_t.val()))
                && !self.dnow2.val().get_bit(31));
        }
        self.v2b.d.next = self.v2.q.val();
        self.op2b.d.next = self.op2.q.val();
        self.flow2b.d.next = self.flow2.q.val();
        self.snd2b.d.next = self.snd2.q.val();
        self.now2b.d.next = self.now2.q.val();
        self.nh2b.d.next = self.nh2.q.val();
        self.oor2b.d.next = self.oor2.q.val();
        self.meta2b.d.next = self.meta2.q.val();
        self.nhbad2b.d.next = ((!self.nh2.q.val().any()) || (self.nh2.q.val() > self.five.val()));
        self.nhmis2b.d.next =
            (bit_cast::<4, 3>(self.meta2.q.val().get_bits::<3>(32)) != self.nh2.q.val());
        self.bad_rate2.next = false;
        for i in 0..5 {
            self.active2[i].next = (self.nh2.q.val() > self.idx[i].val());
            self.dts2[i].next =
                (self.hw2[i].q.val().get_bits::<24>(3) - self.old2[i].q.val().get_bits::<24>(37));
            self.db2[i].next =
                (self.hw2[i].q.val().get_bits::<20>(27) - self.old2[i].q.val().get_bits::<20>(17));
            self.stale2[i].next = ((!self.dts2[i].val().any()) || self.dts2[i].val().get_bit(23));
            self.back2[i].next = self.db2[i].val().get_bit(19);
            if (self.active2[i].val() && !self.rok2[i].q.val()) {
                self.bad_rate2.next = true;
            }
            self.qmx2b[i].d.next = self.qmx2[i].q.val();
            self.dts2b[i].d.next = self.dts2[i].val();
            self.db2b[i].d.next = self.db2[i].val();
            self.stale2b[i].d.next = self.stale2[i].val();
            self.back2b[i].d.next = self.back2[i].val();
            self.active2b[i].d.next = self.active2[i].val();
            self.oql2b[i].d.next = self.old2[i].q.val().get_bits::<17>(0);
            self.hw2b[i].d.next = self.hw2[i].q.val();
        }
        self.bad_rate2b.d.next = self.bad_rate2.val();

        // ---- stage 3: status, meta and hop writes
        self.created2.next = self.meta2b.q.val().get_bit(35);
        // The anomaly flags of the used hops (stage 3, from registered
        // per-hop tests).
        self.flags2.next = 0.into();
        for i in 0..5 {
            if (self.active2b[i].q.val() && self.stale2b[i].q.val()) {
                self.flags2.next = self.flags2.val().replace_bit(0, true);
            }
            if (self.active2b[i].q.val() && self.back2b[i].q.val()) {
                self.flags2.next = self.flags2.val().replace_bit(1, true);
            }
            if (self.active2b[i].q.val() && self.qmx2b[i].q.val()) {
                self.flags2.next = self.flags2.val().replace_bit(2, true);
            }
        }
        self.commit2.next = self.commit2b.q.val();
        self.stamp2.next = self.snd2b.q.val();
        if self.cfg_variant.val() {
            self.stamp2.next = self.now2b.q.val();
        }
        for i in 0..5 {
            self.n_ts[i].next = self.hw2b[i].q.val().get_bits::<24>(3);
            self.n_by[i].next = self.hw2b[i].q.val().get_bits::<20>(27);
            self.n_ql[i].next = self.hw2b[i].q.val().get_bits::<17>(47);
            self.o_ql[i].next = self.oql2b[i].q.val();
        }
        // Status, in priority order.
        if self.oor2b.q.val() {
            self.status2.next = self.st_drop_flow.val();
        } else if (self.op2b.q.val() == self.op_create.val()) {
            self.status2.next = self.st_created.val();
        } else if (self.op2b.q.val() == self.op_destroy.val()) {
            self.status2.next = self.st_destroyed.val();
        } else if ((self.op2b.q.val() != self.op_event.val()) || !self.created2.val()) {
            self.status2.next = self.st_drop_flow.val();
        } else if self.nhbad2b.q.val() {
            self.status2.next = self.st_drop_hops.val();
        } else if self.bad_rate2b.q.val() {
            self.status2.next = self.st_drop_rate.val();
        } else if self.nhmis2b.q.val() {
            self.status2.next = self.st_init.val();
        } else {
            self.status2.next = self.st_update.val();
        }
        if (self.status2.val() != self.st_update.val()) {
            self.flags2.next = 0.into();
        }
        // Meta and hop writes.
        self.meta_wa.d.next = bit_cast::<A, 16>(self.flow2b.q.val());
        self.meta_we.d.next = false;
        self.meta_new2.next = self.meta2b.q.val();
        if (self.status2.val() == self.st_created.val()) {
            self.meta_new2.next = (bit_cast::<36, 1>(1.into()) << self.sh[35].val());
        }
        if (self.status2.val() == self.st_destroyed.val()) {
            self.meta_new2.next = self.meta2b.q.val().replace_bit(35, false);
        }
        if ((self.status2.val() == self.st_init.val())
            || ((self.status2.val() == self.st_update.val()) && self.commit2.val()))
        {
            self.meta_new2.next = ((bit_cast::<36, 1>(1.into()) << self.sh[35].val())
                | ((bit_cast::<36, 4>(self.nh2b.q.val()) << self.sh[32].val())
                    | bit_cast::<36, 32>(self.stamp2.val())));
        }
        if (self.v2b.q.val()
            && ((self.status2.val() == self.st_created.val())
                || ((self.status2.val() == self.st_destroyed.val())
                    || ((self.status2.val() == self.st_init.val())
                        || (self.status2.val() == self.st_update.val())))))
        {
            self.meta_we.d.next = true;
        }
        self.meta_wd.d.next = self.meta_new2.val();
        self.hop_wa[0].d.next = bit_cast::<A, 16>(self.flow2b.q.val());
        self.hop_wd[0].d.next = ((bit_cast::<61, 24>(self.n_ts[0].val()) << self.sh[37].val())
            | ((bit_cast::<61, 20>(self.n_by[0].val()) << self.sh[17].val())
                | bit_cast::<61, 17>(self.n_ql[0].val())));
        self.hop_we[0].d.next = (self.v2b.q.val()
            && ((self.status2.val() == self.st_init.val())
                || (self.status2.val() == self.st_update.val())));

        self.hop_wa[1].d.next = bit_cast::<A, 16>(self.flow2b.q.val());
        self.hop_wd[1].d.next = ((bit_cast::<61, 24>(self.n_ts[1].val()) << self.sh[37].val())
            | ((bit_cast::<61, 20>(self.n_by[1].val()) << self.sh[17].val())
                | bit_cast::<61, 17>(self.n_ql[1].val())));
        self.hop_we[1].d.next = (self.v2b.q.val()
            && ((self.status2.val() == self.st_init.val())
                || (self.status2.val() == self.st_update.val())));

        self.hop_wa[2].d.next = bit_cast::<A, 16>(self.flow2b.q.val());
        self.hop_wd[2].d.next = ((bit_cast::<61, 24>(self.n_ts[2].val()) << self.sh[37].val())
            | ((bit_cast::<61, 20>(self.n_by[2].val()) << self.sh[17].val())
                | bit_cast::<61, 17>(self.n_ql[2].val())));
        self.hop_we[2].d.next = (self.v2b.q.val()
            && ((self.status2.val() == self.st_init.val())
                || (self.status2.val() == self.st_update.val())));

        self.hop_wa[3].d.next = bit_cast::<A, 16>(self.flow2b.q.val());
        self.hop_wd[3].d.next = ((bit_cast::<61, 24>(self.n_ts[3].val()) << self.sh[37].val())
            | ((bit_cast::<61, 20>(self.n_by[3].val()) << self.sh[17].val())
                | bit_cast::<61, 17>(self.n_ql[3].val())));
        self.hop_we[3].d.next = (self.v2b.q.val()
            && ((self.status2.val() == self.st_init.val())
                || (self.status2.val() == self.st_update.val())));

        self.hop_wa[4].d.next = bit_cast::<A, 16>(self.flow2b.q.val());
        self.hop_wd[4].d.next = ((bit_cast::<61, 24>(self.n_ts[4].val()) << self.sh[37].val())
            | ((bit_cast::<61, 20>(self.n_by[4].val()) << self.sh[17].val())
                | bit_cast::<61, 17>(self.n_ql[4].val())));
        self.hop_we[4].d.next = (self.v2b.q.val()
            && ((self.status2.val() == self.st_init.val())
                || (self.status2.val() == self.st_update.val())));

        // The meta and hop writes leave from registers (stage 4).
        self.meta_ram.write_address.next = self.meta_wa.q.val();
        self.meta_ram.write_enable.next = self.meta_we.q.val();
        self.meta_ram.write_data.next = self.meta_wd.q.val();
        for i in 0..5 {
            self.hop_ram[i].write_address.next = self.hop_wa[i].q.val();
            self.hop_ram[i].write_enable.next = self.hop_we[i].q.val();
            self.hop_ram[i].write_data.next = self.hop_wd[i].q.val();
        }
        // 9·Δts, for 25·Δts next stage.
        self.d9_4[0].d.next = ((bit_cast::<32, 24>(self.dts2b[0].q.val()) << self.sh[3].val())
            + bit_cast::<32, 24>(self.dts2b[0].q.val()));
        self.d9_4[1].d.next = ((bit_cast::<32, 24>(self.dts2b[1].q.val()) << self.sh[3].val())
            + bit_cast::<32, 24>(self.dts2b[1].q.val()));
        self.d9_4[2].d.next = ((bit_cast::<32, 24>(self.dts2b[2].q.val()) << self.sh[3].val())
            + bit_cast::<32, 24>(self.dts2b[2].q.val()));
        self.d9_4[3].d.next = ((bit_cast::<32, 24>(self.dts2b[3].q.val()) << self.sh[3].val())
            + bit_cast::<32, 24>(self.dts2b[3].q.val()));
        self.d9_4[4].d.next = ((bit_cast::<32, 24>(self.dts2b[4].q.val()) << self.sh[3].val())
            + bit_cast::<32, 24>(self.dts2b[4].q.val()));
        // Context into the pipeline.
        self.ctx[0].d.next = ((bit_cast::<24, 16>(self.flow2b.q.val()) << self.sh[8].val())
            | ((bit_cast::<24, 3>(self.status2.val()) << self.sh[5].val())
                | ((bit_cast::<24, 3>(self.flags2.val()) << self.sh[2].val())
                    | ((bit_cast::<24, 1>(self.commit2.val().into()) << self.sh[1].val())
                        | bit_cast::<24, 1>(self.v2b.q.val().into())))));
        for i in 1..98 {
            self.ctx[i].d.next = self.ctx[i - 1].q.val();
        }
        for i in 0..5 {
            self.db4[i].d.next = self.db2b[i].q.val();
            self.dts4[i].d.next = self.dts2b[i].q.val();
            self.code4[i].d.next = self.hw2b[i].q.val().get_bits::<3>(0);
            self.kill4[i].d.next =
                ((self.stale2b[i].q.val() || self.back2b[i].q.val()) || !self.active2b[i].q.val());
            // Line 5: min(ack.L[i].qlen, L[i].qlen); 0 for unused hops.
            self.qmin4[i].d.next = 0.into();
            if self.active2b[i].q.val() {
                self.qmin4[i].d.next = self.n_ql[i].val();
                if (self.o_ql[i].val() < self.n_ql[i].val()) {
                    self.qmin4[i].d.next = self.o_ql[i].val();
                }
            }
            // Line 7's tau candidate: 0 for a stale or unused hop.
            self.tau4[i].d.next = self.dts2b[i].q.val();
            if (self.stale2b[i].q.val() || !self.active2b[i].q.val()) {
                self.tau4[i].d.next = 0.into();
            }
        }

        // ---- stage 4: divider operands for txRate/B (line 4)
        // a = Δbytes << (mlog + 4 − code), d = 25·Δts
        self.sh4[0].next = ((bit_cast::<8, 3>(self.cfg_mlog.val()) + self.sh[4].val())
            - bit_cast::<8, 3>(self.code4[0].q.val()));
        self.d25[0].next =
            ((bit_cast::<32, 24>(self.dts4[0].q.val()) << self.sh[4].val()) + self.d9_4[0].q.val());
        self.a5[0].d.next = (bit_cast::<32, 20>(self.db4[0].q.val()) << self.sh4[0].val());
        self.d5[0].d.next = self.d25[0].val();
        if self.kill4[0].q.val() {
            self.a5[0].d.next = 0.into();
            self.d5[0].d.next = 1.into();
        }
        self.qmin_d[0].d.next = self.qmin4[0].q.val();
        // The queue term's shift, s − 29 − mlog + code, used at stage 37.
        self.code_d[0].d.next = (((self.cfg_inv_t_s.val() - self.sh[29].val())
            - bit_cast::<8, 3>(self.cfg_mlog.val()))
            + bit_cast::<8, 3>(self.code4[0].q.val()));
        self.tau_d[0].d.next = self.tau4[0].q.val();

        // a = Δbytes << (mlog + 4 − code), d = 25·Δts
        self.sh4[1].next = ((bit_cast::<8, 3>(self.cfg_mlog.val()) + self.sh[4].val())
            - bit_cast::<8, 3>(self.code4[1].q.val()));
        self.d25[1].next =
            ((bit_cast::<32, 24>(self.dts4[1].q.val()) << self.sh[4].val()) + self.d9_4[1].q.val());
        self.a5[1].d.next = (bit_cast::<32, 20>(self.db4[1].q.val()) << self.sh4[1].val());
        self.d5[1].d.next = self.d25[1].val();
        if self.kill4[1].q.val() {
            self.a5[1].d.next = 0.into();
            self.d5[1].d.next = 1.into();
        }
        self.qmin_d[1].d.next = self.qmin4[1].q.val();
        // The queue term's shift, s − 29 − mlog + code, used at stage 37.
        self.code_d[1].d.next = (((self.cfg_inv_t_s.val() - self.sh[29].val())
            - bit_cast::<8, 3>(self.cfg_mlog.val()))
            + bit_cast::<8, 3>(self.code4[1].q.val()));
        self.tau_d[1].d.next = self.tau4[1].q.val();

        // a = Δbytes << (mlog + 4 − code), d = 25·Δts
        self.sh4[2].next = ((bit_cast::<8, 3>(self.cfg_mlog.val()) + self.sh[4].val())
            - bit_cast::<8, 3>(self.code4[2].q.val()));
        self.d25[2].next =
            ((bit_cast::<32, 24>(self.dts4[2].q.val()) << self.sh[4].val()) + self.d9_4[2].q.val());
        self.a5[2].d.next = (bit_cast::<32, 20>(self.db4[2].q.val()) << self.sh4[2].val());
        self.d5[2].d.next = self.d25[2].val();
        if self.kill4[2].q.val() {
            self.a5[2].d.next = 0.into();
            self.d5[2].d.next = 1.into();
        }
        self.qmin_d[2].d.next = self.qmin4[2].q.val();
        // The queue term's shift, s − 29 − mlog + code, used at stage 37.
        self.code_d[2].d.next = (((self.cfg_inv_t_s.val() - self.sh[29].val())
            - bit_cast::<8, 3>(self.cfg_mlog.val()))
            + bit_cast::<8, 3>(self.code4[2].q.val()));
        self.tau_d[2].d.next = self.tau4[2].q.val();

        // a = Δbytes << (mlog + 4 − code), d = 25·Δts
        self.sh4[3].next = ((bit_cast::<8, 3>(self.cfg_mlog.val()) + self.sh[4].val())
            - bit_cast::<8, 3>(self.code4[3].q.val()));
        self.d25[3].next =
            ((bit_cast::<32, 24>(self.dts4[3].q.val()) << self.sh[4].val()) + self.d9_4[3].q.val());
        self.a5[3].d.next = (bit_cast::<32, 20>(self.db4[3].q.val()) << self.sh4[3].val());
        self.d5[3].d.next = self.d25[3].val();
        if self.kill4[3].q.val() {
            self.a5[3].d.next = 0.into();
            self.d5[3].d.next = 1.into();
        }
        self.qmin_d[3].d.next = self.qmin4[3].q.val();
        // The queue term's shift, s − 29 − mlog + code, used at stage 37.
        self.code_d[3].d.next = (((self.cfg_inv_t_s.val() - self.sh[29].val())
            - bit_cast::<8, 3>(self.cfg_mlog.val()))
            + bit_cast::<8, 3>(self.code4[3].q.val()));
        self.tau_d[3].d.next = self.tau4[3].q.val();

        // a = Δbytes << (mlog + 4 − code), d = 25·Δts
        self.sh4[4].next = ((bit_cast::<8, 3>(self.cfg_mlog.val()) + self.sh[4].val())
            - bit_cast::<8, 3>(self.code4[4].q.val()));
        self.d25[4].next =
            ((bit_cast::<32, 24>(self.dts4[4].q.val()) << self.sh[4].val()) + self.d9_4[4].q.val());
        self.a5[4].d.next = (bit_cast::<32, 20>(self.db4[4].q.val()) << self.sh4[4].val());
        self.d5[4].d.next = self.d25[4].val();
        if self.kill4[4].q.val() {
            self.a5[4].d.next = 0.into();
            self.d5[4].d.next = 1.into();
        }
        self.qmin_d[4].d.next = self.qmin4[4].q.val();
        // The queue term's shift, s − 29 − mlog + code, used at stage 37.
        self.code_d[4].d.next = (((self.cfg_inv_t_s.val() - self.sh[29].val())
            - bit_cast::<8, 3>(self.cfg_mlog.val()))
            + bit_cast::<8, 3>(self.code4[4].q.val()));
        self.tau_d[4].d.next = self.tau4[4].q.val();

        // ---- stage 5: into the dividers; stage 34: queue-term multiply
        self.div[0].a.next = self.a5[0].q.val();
        self.div[0].d.next = self.d5[0].q.val();
        self.div[0].in_valid.next = self.ctx[1].q.val().get_bit(0);
        self.uq_mul[0].a.next = bit_cast::<32, 17>(self.qmin_d[0].q.val());
        self.uq_mul[0].b.next = self.cfg_uq_m.val();
        self.uq_mul[0].in_valid.next = self.ctx[30].q.val().get_bit(0);

        self.div[1].a.next = self.a5[1].q.val();
        self.div[1].d.next = self.d5[1].q.val();
        self.div[1].in_valid.next = self.ctx[1].q.val().get_bit(0);
        self.uq_mul[1].a.next = bit_cast::<32, 17>(self.qmin_d[1].q.val());
        self.uq_mul[1].b.next = self.cfg_uq_m.val();
        self.uq_mul[1].in_valid.next = self.ctx[30].q.val().get_bit(0);

        self.div[2].a.next = self.a5[2].q.val();
        self.div[2].d.next = self.d5[2].q.val();
        self.div[2].in_valid.next = self.ctx[1].q.val().get_bit(0);
        self.uq_mul[2].a.next = bit_cast::<32, 17>(self.qmin_d[2].q.val());
        self.uq_mul[2].b.next = self.cfg_uq_m.val();
        self.uq_mul[2].in_valid.next = self.ctx[30].q.val().get_bit(0);

        self.div[3].a.next = self.a5[3].q.val();
        self.div[3].d.next = self.d5[3].q.val();
        self.div[3].in_valid.next = self.ctx[1].q.val().get_bit(0);
        self.uq_mul[3].a.next = bit_cast::<32, 17>(self.qmin_d[3].q.val());
        self.uq_mul[3].b.next = self.cfg_uq_m.val();
        self.uq_mul[3].in_valid.next = self.ctx[30].q.val().get_bit(0);

        self.div[4].a.next = self.a5[4].q.val();
        self.div[4].d.next = self.d5[4].q.val();
        self.div[4].in_valid.next = self.ctx[1].q.val().get_bit(0);
        self.uq_mul[4].a.next = bit_cast::<32, 17>(self.qmin_d[4].q.val());
        self.uq_mul[4].b.next = self.cfg_uq_m.val();
        self.uq_mul[4].in_valid.next = self.ctx[30].q.val().get_bit(0);

        // ---- stage 38: u_q = (qmin·uq_m) >> (s − 29 − mlog + code), saturated
        self.sh38[0].next = self.code_d[0].q.val();
        self.psh38[0].next = (self.uq_mul[0].p.val() >> self.sh38[0].val());
        self.uq39[0].d.next = self.psh38[0].val();
        self.utx39[0].d.next = self.div[0].q.val();
        // ---- stage 39: u' = u_tx + u_q (line 5), saturated
        // The queue term's saturation folds into the sum's: uq < 2^60.
        self.sum39[0].next = (self.uq39[0].q.val() + bit_cast::<64, 32>(self.utx39[0].q.val()));
        self.up40[0].d.next = bit_cast::<32, 64>(self.sum39[0].val());
        if (self.sum39[0].val() >> self.sh[32].val()).any() {
            self.up40[0].d.next = self.ones32.val();
        }

        self.sh38[1].next = self.code_d[1].q.val();
        self.psh38[1].next = (self.uq_mul[1].p.val() >> self.sh38[1].val());
        self.uq39[1].d.next = self.psh38[1].val();
        self.utx39[1].d.next = self.div[1].q.val();
        // ---- stage 39: u' = u_tx + u_q (line 5), saturated
        // The queue term's saturation folds into the sum's: uq < 2^60.
        self.sum39[1].next = (self.uq39[1].q.val() + bit_cast::<64, 32>(self.utx39[1].q.val()));
        self.up40[1].d.next = bit_cast::<32, 64>(self.sum39[1].val());
        if (self.sum39[1].val() >> self.sh[32].val()).any() {
            self.up40[1].d.next = self.ones32.val();
        }

        self.sh38[2].next = self.code_d[2].q.val();
        self.psh38[2].next = (self.uq_mul[2].p.val() >> self.sh38[2].val());
        self.uq39[2].d.next = self.psh38[2].val();
        self.utx39[2].d.next = self.div[2].q.val();
        // ---- stage 39: u' = u_tx + u_q (line 5), saturated
        // The queue term's saturation folds into the sum's: uq < 2^60.
        self.sum39[2].next = (self.uq39[2].q.val() + bit_cast::<64, 32>(self.utx39[2].q.val()));
        self.up40[2].d.next = bit_cast::<32, 64>(self.sum39[2].val());
        if (self.sum39[2].val() >> self.sh[32].val()).any() {
            self.up40[2].d.next = self.ones32.val();
        }

        self.sh38[3].next = self.code_d[3].q.val();
        self.psh38[3].next = (self.uq_mul[3].p.val() >> self.sh38[3].val());
        self.uq39[3].d.next = self.psh38[3].val();
        self.utx39[3].d.next = self.div[3].q.val();
        // ---- stage 39: u' = u_tx + u_q (line 5), saturated
        // The queue term's saturation folds into the sum's: uq < 2^60.
        self.sum39[3].next = (self.uq39[3].q.val() + bit_cast::<64, 32>(self.utx39[3].q.val()));
        self.up40[3].d.next = bit_cast::<32, 64>(self.sum39[3].val());
        if (self.sum39[3].val() >> self.sh[32].val()).any() {
            self.up40[3].d.next = self.ones32.val();
        }

        self.sh38[4].next = self.code_d[4].q.val();
        self.psh38[4].next = (self.uq_mul[4].p.val() >> self.sh38[4].val());
        self.uq39[4].d.next = self.psh38[4].val();
        self.utx39[4].d.next = self.div[4].q.val();
        // ---- stage 39: u' = u_tx + u_q (line 5), saturated
        // The queue term's saturation folds into the sum's: uq < 2^60.
        self.sum39[4].next = (self.uq39[4].q.val() + bit_cast::<64, 32>(self.utx39[4].q.val()));
        self.up40[4].d.next = bit_cast::<32, 64>(self.sum39[4].val());
        if (self.sum39[4].val() >> self.sh[32].val()).any() {
            self.up40[4].d.next = self.ones32.val();
        }

        // ---- stages 40–42: max over hops, the first wins a tie (line 6).
        // Stage 40: every comparison u'_j > u'_i (j > i); stage 41: the
        // winner, one-hot (i wins if it beats every earlier hop and no
        // later hop beats it); stage 42: select.
        self.c41[0].d.next = (self.up40[1].q.val() > self.up40[0].q.val());
        self.c41[1].d.next = (self.up40[2].q.val() > self.up40[0].q.val());
        self.c41[2].d.next = (self.up40[3].q.val() > self.up40[0].q.val());
        self.c41[3].d.next = (self.up40[4].q.val() > self.up40[0].q.val());
        self.c41[4].d.next = (self.up40[2].q.val() > self.up40[1].q.val());
        self.c41[5].d.next = (self.up40[3].q.val() > self.up40[1].q.val());
        self.c41[6].d.next = (self.up40[4].q.val() > self.up40[1].q.val());
        self.c41[7].d.next = (self.up40[3].q.val() > self.up40[2].q.val());
        self.c41[8].d.next = (self.up40[4].q.val() > self.up40[2].q.val());
        self.c41[9].d.next = (self.up40[4].q.val() > self.up40[3].q.val());
        self.z41.d.next = (((!self.up40[0].q.val().any()) && (!self.up40[1].q.val().any()))
            && (((!self.up40[2].q.val().any()) && (!self.up40[3].q.val().any()))
                && (!self.up40[4].q.val().any())));
        for i in 0..5 {
            self.up41[i].d.next = self.up40[i].q.val();
            self.up42[i].d.next = self.up41[i].q.val();
        }
        self.win42[0].d.next = (((!self.c41[0].q.val() && !self.c41[1].q.val())
            && !self.c41[2].q.val())
            && !self.c41[3].q.val());
        self.win42[1].d.next = (((self.c41[0].q.val() && !self.c41[4].q.val())
            && !self.c41[5].q.val())
            && !self.c41[6].q.val());
        self.win42[2].d.next = (((self.c41[1].q.val() && self.c41[4].q.val())
            && !self.c41[7].q.val())
            && !self.c41[8].q.val());
        self.win42[3].d.next = (((self.c41[2].q.val() && self.c41[5].q.val())
            && self.c41[7].q.val())
            && !self.c41[9].q.val());
        self.win42[4].d.next = (((self.c41[3].q.val() && self.c41[6].q.val())
            && self.c41[8].q.val())
            && self.c41[9].q.val());
        self.z42.d.next = self.z41.q.val();
        self.u43.d.next = 0.into();
        self.tau43.d.next = 0.into();
        for i in 0..5 {
            if self.win42[i].q.val() {
                self.u43.d.next = self.up42[i].q.val();
                self.tau43.d.next = self.tau_d[i].q.val();
            }
        }
        // No hop with u' > 0: tau stays 0 (line 2).
        if self.z42.q.val() {
            self.tau43.d.next = 0.into();
        }

        // ---- stage 43: tau/T = tau · inv_t_m (lines 8–9)
        self.tau_mul.a.next = bit_cast::<32, 24>(self.tau43.q.val());
        self.tau_mul.b.next = self.cfg_inv_t_m.val();
        self.tau_mul.in_valid.next = self.ctx[39].q.val().get_bit(0);
        self.utge_d.d.next = ((bit_cast::<33, 32>(self.u43.q.val()) << self.sh[1].val())
            | bit_cast::<33, 1>((self.tau43.q.val() >= self.cfg_t.val()).into()));

        // ---- stage 47: f = min(tau, T)/T in UQ1.24; read U
        self.fsh47.next = (self.cfg_inv_t_s.val() - self.sh[24].val());
        self.fp47.next = (self.tau_mul.p.val() >> self.fsh47.val());
        self.f48.d.next = bit_cast::<32, 64>(self.fp47.val());
        if self.utge_d.q.val().get_bit(0) {
            self.f48.d.next = self.u_one.val();
        }
        self.u48.d.next = self.utge_d.q.val().get_bits::<32>(1);
        self.u_ram.read_address.next = bit_cast::<A, 16>(self.ctx[43].q.val().get_bits::<16>(8));

        // ---- stage 48: register U_old
        self.f49.d.next = self.f48.q.val();
        self.u49.d.next = self.u48.q.val();
        self.uold49.d.next = self.u_ram.read_data.val();

        // ---- stage 49: |u − U| and its sign
        self.f50.d.next = self.f49.q.val();
        // Both differences and the comparison in parallel; the choice is
        // made next stage, in front of the multiplier.
        self.diffa50.d.next = (self.u49.q.val() - self.uold49.q.val());
        self.diffb50.d.next = (self.uold49.q.val() - self.u49.q.val());
        self.ge50.d.next = (self.u49.q.val() >= self.uold49.q.val());
        self.geu_d.d.next = ((bit_cast::<33, 32>(self.uold49.q.val()) << self.sh[1].val())
            | bit_cast::<33, 1>((self.u49.q.val() >= self.uold49.q.val()).into()));

        // ---- stage 50: f · |u − U|
        self.uu_mul.a.next = self.f50.q.val();
        self.uu_mul.b.next = self.diffb50.q.val();
        if self.ge50.q.val() {
            self.uu_mul.b.next = self.diffa50.q.val();
        }
        self.uu_mul.in_valid.next = self.ctx[46].q.val().get_bit(0);

        // ---- stage 54: round (f·|u − U|) >> 24; stage 55: U ± it (line 9)
        self.delta55.d.next =
            bit_cast::<32, 64>((self.uu_mul.p.val() + self.half24.val()) >> self.sh[24].val());
        // next stage: U ± delta
        self.unew55.next = (self.geu_d.q.val().get_bits::<32>(1) - self.delta55.q.val());
        if self.geu_d.q.val().get_bit(0) {
            self.unew55.next = (self.geu_d.q.val().get_bits::<32>(1) + self.delta55.q.val());
        }
        self.u56.d.next = 0.into();
        if (self.ctx[51].q.val().get_bits::<3>(5) == self.st_update.val()) {
            self.u56.d.next = self.unew55.val();
        }
        if (self.ctx[51].q.val().get_bits::<3>(5) == self.st_init.val()) {
            self.u56.d.next = self.geu_d.q.val().get_bits::<32>(1);
        }
        if (self.ctx[51].q.val().get_bits::<3>(5) == self.st_created.val()) {
            self.u56.d.next = self.u_one.val();
        }

        // ---- stage 56: write U; eta/U; U >= eta
        self.u_ram.write_address.next = bit_cast::<A, 16>(self.ctx[52].q.val().get_bits::<16>(8));
        self.u_ram.write_data.next = self.u56.q.val();
        self.u_ram.write_enable.next = (self.ctx[52].q.val().get_bit(0)
            && ((self.ctx[52].q.val().get_bits::<3>(5) == self.st_update.val())
                || (self.ctx[52].q.val().get_bits::<3>(5) == self.st_created.val())));
        self.eta32.next = (bit_cast::<32, 16>(self.cfg_eta.val()) << self.sh[8].val());
        self.eta_div.a.next = bit_cast::<32, 16>(self.cfg_eta.val());
        self.eta_div.d.next = self.u56.q.val();
        self.eta_div.in_valid.next = self.ctx[52].q.val().get_bit(0);
        self.mdu_d.d.next = bit_cast::<1, 1>((self.u56.q.val() >= self.eta32.val()).into());
        self.uout_d.d.next = self.u56.q.val();

        // ---- stage 87: read W, Wc, incStage; stage 88: register them
        self.w_ram.read_address.next = bit_cast::<A, 16>(self.ctx[83].q.val().get_bits::<16>(8));
        self.wold89.d.next = self.w_ram.read_data.val().get_bits::<32>(35);
        self.wcold89.d.next = self.w_ram.read_data.val().get_bits::<32>(3);
        self.inc89.d.next = self.w_ram.read_data.val().get_bits::<3>(0);

        // ---- stage 89: line 12's test; Wc · eta/U; Wc + W_ai (line 17)
        self.md89.next =
            (self.mdu_d.q.val().any() || (self.inc89.q.val() >= self.cfg_max_stage.val()));
        self.w_mul.a.next = self.wcold89.q.val();
        // b = 2·min(eta/U, 2^31 − 1) + 1: half an LSB back for the
        // divider's floor.
        self.r89.next = self.eta_div.q.val();
        if self.eta_div.q.val().get_bit(31) {
            self.r89.next = self.r_cap.val();
        }
        self.w_mul.b.next = ((self.r89.val() << self.sh[1].val()) | self.one32.val());
        self.w_mul.in_valid.next = self.ctx[85].q.val().get_bit(0);
        self.wai33.next =
            (bit_cast::<33, 32>(self.wcold89.q.val()) + bit_cast::<33, 32>(self.cfg_w_ai.val()));

        self.bundle89.next = ((bit_cast::<101, 32>(self.wold89.q.val()) << self.sh[69].val())
            | ((bit_cast::<101, 32>(self.wcold89.q.val()) << self.sh[37].val())
                | ((bit_cast::<101, 33>(self.wai33.val()) << self.sh[4].val())
                    | ((bit_cast::<101, 3>(self.inc89.q.val()) << self.sh[1].val())
                        | bit_cast::<101, 1>(self.md89.val().into())))));
        self.wb[0].d.next = self.bundle89.val();
        for i in 1..7 {
            self.wb[i].d.next = self.wb[i - 1].q.val();
        }

        // ---- stage 93: Wc·(2r + 1) / 2^21 rounded (line 13), 43 bits. No
        // saturation here or below: the clamp to W_init < 2^32 gives the
        // same result as saturating first, and wide values save the muxes.
        self.wp93.next = (self.w_mul.p.val() + self.half20.val());
        self.wmd94.d.next = bit_cast::<43, 64>(self.wp93.val() >> self.sh[21].val());
        // ---- stage 94: + W_ai (44 bits); pick the branch (line 13 or 17)
        self.wsel95.d.next = bit_cast::<44, 33>(self.wb[4].q.val().get_bits::<33>(4));
        if self.wb[4].q.val().get_bit(0) {
            self.wsel95.d.next =
                (bit_cast::<44, 43>(self.wmd94.q.val()) + bit_cast::<44, 32>(self.cfg_w_ai.val()));
        }
        // ---- stage 95: the clamp's two comparisons, registered
        self.chi96.d.next = (self.wsel95.q.val() > bit_cast::<44, 32>(self.cfg_w_init.val()));
        self.clo96.d.next = (self.wsel95.q.val() < bit_cast::<44, 32>(self.cfg_w_min.val()));
        self.wsel96.d.next = bit_cast::<32, 44>(self.wsel95.q.val());
        // ---- stage 96: max(min(w, W_init), W_min)
        self.wmin95.next = self.cfg_w_init.val();
        if (self.cfg_w_init.val() < self.cfg_w_min.val()) {
            self.wmin95.next = self.cfg_w_min.val();
        }
        self.wnew96.next = self.wsel96.q.val();
        if self.clo96.q.val() {
            self.wnew96.next = self.cfg_w_min.val();
        }
        if self.chi96.q.val() {
            self.wnew96.next = self.wmin95.val();
        }

        // ---- stage 96: commit (lines 14–15, 18–19); write W, Wc, incStage
        self.wc96.next = self.wb[6].q.val().get_bits::<32>(37);
        self.incnew96.next = self.wb[6].q.val().get_bits::<3>(1);
        if self.ctx[92].q.val().get_bit(1) {
            self.wc96.next = self.wnew96.val();
            self.incnew96.next = (self.wb[6].q.val().get_bits::<3>(1) + 1);
            if self.wb[6].q.val().get_bit(0) {
                self.incnew96.next = 0.into();
            }
        }
        self.wout96.next = 0.into();
        self.incout96.next = 0.into();
        if (self.ctx[92].q.val().get_bits::<3>(5) == self.st_update.val()) {
            self.wout96.next = self.wnew96.val();
            self.incout96.next = self.incnew96.val();
        }
        if (self.ctx[92].q.val().get_bits::<3>(5) == self.st_init.val()) {
            self.wout96.next = self.wb[6].q.val().get_bits::<32>(69);
            self.incout96.next = self.wb[6].q.val().get_bits::<3>(1);
        }
        if (self.ctx[92].q.val().get_bits::<3>(5) == self.st_created.val()) {
            self.wout96.next = self.cfg_w_init.val();
            self.wc96.next = self.cfg_w_init.val();
            self.incnew96.next = 0.into();
        }
        self.w_ram.write_address.next = bit_cast::<A, 16>(self.ctx[92].q.val().get_bits::<16>(8));
        self.w_ram.write_data.next = ((bit_cast::<67, 32>(self.wout96.val()) << self.sh[35].val())
            | ((bit_cast::<67, 32>(self.wc96.val()) << self.sh[3].val())
                | bit_cast::<67, 3>(self.incnew96.val())));
        self.w_ram.write_enable.next = (self.ctx[92].q.val().get_bit(0)
            && ((self.ctx[92].q.val().get_bits::<3>(5) == self.st_update.val())
                || (self.ctx[92].q.val().get_bits::<3>(5) == self.st_created.val())));
        // R = W/T = W · inv_t_m (line 27)
        self.r_mul.a.next = self.wout96.val();
        self.r_mul.b.next = self.cfg_inv_t_m.val();
        self.r_mul.in_valid.next = self.ctx[92].q.val().get_bit(0);
        self.winc_d.d.next = ((bit_cast::<35, 32>(self.wout96.val()) << self.sh[3].val())
            | bit_cast::<35, 3>(self.incout96.val()));

        // ---- stage 100: R >> (s − 8); stage 101: saturated to 24 bits, output registers
        self.rsh100.next = (self.cfg_inv_t_s.val() - self.sh[8].val());
        self.rp101.d.next = (self.r_mul.p.val() >> self.rsh100.val());
        // next stage: saturate to 24 bits; output registers
        self.o_r.d.next = bit_cast::<24, 64>(self.rp101.q.val());
        if (self.rp101.q.val() >> self.sh[24].val()).any() {
            self.o_r.d.next = self.r_max.val();
        }
        self.o_valid.d.next = self.ctx[97].q.val().get_bit(0);
        self.o_flow.d.next = self.ctx[97].q.val().get_bits::<16>(8);
        self.o_status.d.next = self.ctx[97].q.val().get_bits::<3>(5);
        self.o_flags.d.next = self.ctx[97].q.val().get_bits::<3>(2);
        self.o_upd.d.next = (self.ctx[97].q.val().get_bit(1)
            && (self.ctx[97].q.val().get_bits::<3>(5) == self.st_update.val()));
        self.o_w.d.next = self.winc_d.q.val().get_bits::<32>(3);
        self.o_inc.d.next = self.winc_d.q.val().get_bits::<3>(0);
        self.o_u.d.next = self.uout_d.q.val();
        if !self.ctx[97].q.val().get_bit(0) {
            self.o_flow.d.next = 0.into();
            self.o_status.d.next = 0.into();
            self.o_flags.d.next = 0.into();
            self.o_upd.d.next = false;
            self.o_w.d.next = 0.into();
            self.o_inc.d.next = 0.into();
            self.o_u.d.next = 0.into();
            self.o_r.d.next = 0.into();
        }
        self.out_valid.next = self.o_valid.q.val();
        self.out_flow.next = self.o_flow.q.val();
        self.out_status.next = self.o_status.q.val();
        self.out_flags.next = self.o_flags.q.val();
        self.out_w.next = self.o_w.q.val();
        self.out_r.next = self.o_r.q.val();
        self.out_u.next = self.o_u.q.val();
        self.out_inc_stage.next = self.o_inc.q.val();
        self.out_updated_wc.next = self.o_upd.q.val();

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
        self.cnt_events.next = self.c_events.q.val();
        self.cnt_drop_flow.next = self.c_drop_flow.q.val();
        self.cnt_drop_hops.next = self.c_drop_hops.q.val();
        self.cnt_drop_rate.next = self.c_drop_rate.q.val();
        self.cnt_ts_stale.next = self.c_ts_stale.q.val();
        self.cnt_bytes_back.next = self.c_bytes_back.q.val();
        self.cnt_qlen_sat.next = self.c_qlen_sat.q.val();
    }
}
