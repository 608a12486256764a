//! Harnesses of the RTL blocks: which golden port field drives or samples
//! which rust-hdl signal.

use crate::harness;
use nic_golden as golden;
use nic_hdl::arith::{Delay, DelayRam, Divider, MinMax, Normalize, SatAddSub, WideMul};
use nic_hdl::cc::rp_counters::RpCounters;
use nic_hdl::cc::rp_new_state::RpNewState;
use nic_hdl::cc::{
    ComputeWind, DcqcnNp, DcqcnRp, Ewma, HopMax, HpccCc, IncreaseStep, MeasureInflight,
    Ns3HopParse, PeriodEpoch, Rate,
};
use nic_hdl::mem::{Fifo, LutRam, Ram};
use nic_hdl::roce::cnm_rx::CnmRx;
use nic_hdl::sched::lazy_credit::LazyCredit;
use nic_hdl::sched::sched_counters::SchedCounters;
use nic_hdl::sched::{FlowSched, FlowStateRam};
use nic_hdl::stream::{AxisFifo, AxisSkid};
use rust_hdl::prelude::*;

harness! {
    impl<const N: usize> SatAddSub<N> {
        type In = golden::arith::sat_add_sub::In;
        type Out = golden::arith::sat_add_sub::Out;
        clock = clock;
        inputs { a: a, b: b, sub: sub, in_valid: in_valid }
        outputs { y: y, sat: sat, out_valid: out_valid }
    }
}

harness! {
    impl<const N: usize> MinMax<N> {
        type In = golden::arith::min_max::In;
        type Out = golden::arith::min_max::Out;
        clock = clock;
        inputs { a: a, b: b, in_valid: in_valid }
        outputs { min: min, max: max, out_valid: out_valid }
    }
}

harness! {
    impl<const N: usize, const L: usize> Normalize<N, L> {
        type In = golden::arith::normalize::In;
        type Out = golden::arith::normalize::Out;
        clock = clock;
        inputs { x: x, in_valid: in_valid }
        outputs { norm: norm, lz: lz, zero: zero, out_valid: out_valid }
    }
}

harness! {
    impl<> WideMul {
        type In = golden::arith::wide_mul::In;
        type Out = golden::arith::wide_mul::Out;
        clock = clock;
        inputs { a: a, b: b, in_valid: in_valid }
        outputs { p: p, out_valid: out_valid }
    }
}

harness! {
    impl<const N: usize, const F: usize> Divider<N, F> {
        type In = golden::arith::divider::In;
        type Out = golden::arith::divider::Out;
        clock = clock;
        inputs { a: a, d: d, in_valid: in_valid }
        outputs { q: q, sat: sat, out_valid: out_valid }
    }
}

harness! {
    impl<const D: usize, const K: usize, const U: usize> AxisSkid<D, K, U> {
        type In = golden::stream::In;
        type Out = golden::stream::axis_skid::Out;
        clock = clock;
        inputs {
            m_tready: m_axis.tready
        }
        outputs {
            s_tready: s_axis.tready, ready_next: ready_next
        }
        records_in { s: s_axis }
        records_out { m: m_axis }
    }
}

harness! {
    impl<const D: usize, const K: usize, const U: usize, const W: usize, const A: usize> AxisFifo<D, K, U, W, A> {
        type In = golden::stream::In;
        type Out = golden::stream::axis_fifo::Out;
        clock = clock;
        inputs {
            m_tready: m_axis.tready
        }
        outputs {
            s_tready: s_axis.tready, level: level
        }
        records_in { s: s_axis }
        records_out { m: m_axis }
    }
}

harness! {
    impl<const A: usize, const H: usize> HpccCc<A, H> {
        type In = golden::cc::hpcc::In;
        type Out = golden::cc::hpcc::Out;
        clock = clock;
        inputs {
            cfg_t: cfg_t, cfg_inv_t_m: cfg_inv_t_m,
            cfg_inv_t_s: cfg_inv_t_s, cfg_uq_m: cfg_uq_m, cfg_eta: cfg_eta,
            cfg_max_stage: cfg_max_stage, cfg_w_ai: cfg_w_ai, cfg_w_min: cfg_w_min,
            cfg_w_init: cfg_w_init, cfg_mlog: cfg_mlog,
            event_valid: s_event.valid
        }
        outputs { event_ready: s_event.ready, update_valid: m_update.valid }
        records_in { event: s_event }
        records_out { update: m_update, stats: m_stats }
    }
}

harness! {
    impl<> MeasureInflight {
        type In = golden::cc::measure_inflight::In;
        type Out = golden::cc::measure_inflight::Out;
        clock = clock;
        inputs {
            in_valid: in_valid, new_ts: new_ts, new_bytes: new_bytes, new_qlen: new_qlen,
            code: code, old_ts: old_ts, old_bytes: old_bytes, old_qlen: old_qlen,
            active: active, cfg_mlog: cfg_mlog, cfg_inv_t_s: cfg_inv_t_s, cfg_uq_m: cfg_uq_m
        }
        outputs {
            stale: stale, back: back, u_prime: u_prime, tau: tau, out_valid: out_valid
        }
    }
}

/// [`HopMax`] takes its hops on array ports; the harness names ports, so
/// the test drives it through this wrapper (wires only).
#[derive(LogicBlock, Default)]
pub struct HopMaxTb {
    pub clock: Signal<In, Clock>,
    pub in_valid: Signal<In, Bit>,
    pub u_hop0: Signal<In, Bits<32>>,
    pub u_hop1: Signal<In, Bits<32>>,
    pub u_hop2: Signal<In, Bits<32>>,
    pub u_hop3: Signal<In, Bits<32>>,
    pub u_hop4: Signal<In, Bits<32>>,
    pub tau_hop0: Signal<In, Bits<24>>,
    pub tau_hop1: Signal<In, Bits<24>>,
    pub tau_hop2: Signal<In, Bits<24>>,
    pub tau_hop3: Signal<In, Bits<24>>,
    pub tau_hop4: Signal<In, Bits<24>>,
    pub u: Signal<Out, Bits<32>>,
    pub tau: Signal<Out, Bits<24>>,
    pub out_valid: Signal<Out, Bit>,
    max: HopMax,
}

impl Logic for HopMaxTb {
    #[hdl_gen]
    fn update(&mut self) {
        self.max.clock.next = self.clock.val();
        self.max.in_valid.next = self.in_valid.val();
        self.max.u_hop[0].next = self.u_hop0.val();
        self.max.u_hop[1].next = self.u_hop1.val();
        self.max.u_hop[2].next = self.u_hop2.val();
        self.max.u_hop[3].next = self.u_hop3.val();
        self.max.u_hop[4].next = self.u_hop4.val();
        self.max.tau_hop[0].next = self.tau_hop0.val();
        self.max.tau_hop[1].next = self.tau_hop1.val();
        self.max.tau_hop[2].next = self.tau_hop2.val();
        self.max.tau_hop[3].next = self.tau_hop3.val();
        self.max.tau_hop[4].next = self.tau_hop4.val();
        self.u.next = self.max.u.val();
        self.tau.next = self.max.tau.val();
        self.out_valid.next = self.max.out_valid.val();
    }
}

harness! {
    impl<> HopMaxTb {
        type In = golden::cc::hop_max::In;
        type Out = golden::cc::hop_max::Out;
        clock = clock;
        inputs {
            in_valid: in_valid, u_hop0: u_hop0, u_hop1: u_hop1, u_hop2: u_hop2,
            u_hop3: u_hop3, u_hop4: u_hop4, tau_hop0: tau_hop0, tau_hop1: tau_hop1,
            tau_hop2: tau_hop2, tau_hop3: tau_hop3, tau_hop4: tau_hop4
        }
        outputs { u: u, tau: tau, out_valid: out_valid }
    }
}

harness! {
    impl<> IncreaseStep {
        type In = golden::cc::increase_step::In;
        type Out = golden::cc::increase_step::Out;
        clock = clock;
        inputs { rt: rt, add: add, r_line: r_line, rc: rc }
        outputs { rt_new: rt_new, rc_new: rc_new }
    }
}

harness! {
    impl<> PeriodEpoch {
        type In = golden::cc::period_epoch::In;
        type Out = golden::cc::period_epoch::Out;
        clock = clock;
        inputs { period: period }
        outputs { epoch: epoch }
    }
}

harness! {
    impl<> Ewma {
        type In = golden::cc::ewma::In;
        type Out = golden::cc::ewma::Out;
        clock = clock;
        inputs {
            in_valid: in_valid, u: u, tau: tau, u_old: u_old, cfg_t: cfg_t,
            cfg_inv_t_m: cfg_inv_t_m, cfg_inv_t_s: cfg_inv_t_s
        }
        outputs { u_new: u_new, u_prev: u_prev, out_valid: out_valid }
    }
}

harness! {
    impl<> ComputeWind {
        type In = golden::cc::compute_wind::In;
        type Out = golden::cc::compute_wind::Out;
        clock = clock;
        inputs {
            in_valid: in_valid, u: u, w_old: w_old, wc_old: wc_old, inc_old: inc_old,
            update_wc: update_wc, cfg_eta: cfg_eta, cfg_max_stage: cfg_max_stage,
            cfg_w_ai: cfg_w_ai, cfg_w_min: cfg_w_min, cfg_w_init: cfg_w_init
        }
        outputs {
            w: w, wc: wc, inc_stage: inc_stage, w_prev: w_prev, inc_prev: inc_prev,
            out_valid: out_valid
        }
    }
}

harness! {
    impl<> Rate {
        type In = golden::cc::rate::In;
        type Out = golden::cc::rate::Out;
        clock = clock;
        inputs { in_valid: in_valid, w: w, cfg_inv_t_m: cfg_inv_t_m, cfg_inv_t_s: cfg_inv_t_s }
        outputs { r: r, out_valid: out_valid }
    }
}

/// [`Ns3HopParse`] is combinational; the harness needs a clock, so the
/// test drives it through this wrapper (the clock is unused).
#[derive(LogicBlock, Default)]
pub struct Ns3HopParseTb {
    pub clock: Signal<In, Clock>,
    pub word: Signal<In, Bits<64>>,
    pub rate: Signal<Out, Bits<3>>,
    pub ts: Signal<Out, Bits<24>>,
    pub bytes: Signal<Out, Bits<20>>,
    pub qlen: Signal<Out, Bits<17>>,
    pub rate_ok: Signal<Out, Bit>,
    pub qlen_max: Signal<Out, Bit>,
    parse: Ns3HopParse,
}

impl Logic for Ns3HopParseTb {
    #[hdl_gen]
    fn update(&mut self) {
        self.parse.word.next = self.word.val();
        self.rate.next = self.parse.rate.val();
        self.ts.next = self.parse.ts.val();
        self.bytes.next = self.parse.bytes.val();
        self.qlen.next = self.parse.qlen.val();
        self.rate_ok.next = self.parse.rate_ok.val();
        self.qlen_max.next = self.parse.qlen_max.val();
    }
}

harness! {
    impl<> Ns3HopParseTb {
        type In = golden::cc::int_ns3::In;
        type Out = golden::cc::int_ns3::Out;
        clock = clock;
        inputs { word: word }
        outputs {
            rate: rate, ts: ts, bytes: bytes, qlen: qlen, rate_ok: rate_ok,
            qlen_max: qlen_max
        }
    }
}

harness! {
    impl<const W: usize, const L: usize> Delay<W, L> {
        type In = golden::arith::delay::In;
        type Out = golden::arith::delay::Out;
        clock = clock;
        inputs { d: d }
        outputs { q: q }
    }
}

harness! {
    impl<const L: usize, const A: usize> DelayRam<Bits<40>, L, A> {
        type In = golden::arith::delay::In;
        type Out = golden::arith::delay::Out;
        clock = clock;
        inputs { d: d }
        outputs { q: q }
    }
}

harness! {
    impl<const N: usize> Ram<Bits<40>, N> {
        type In = golden::mem::ram::In;
        type Out = golden::mem::ram::Out;
        clock = clock;
        inputs {
            read_address: read_address, write_address: write_address,
            write_data: write_data, write_enable: write_enable
        }
        outputs { read_data: read_data }
    }
}

harness! {
    impl<const N: usize> LutRam<Bits<40>, N> {
        type In = golden::mem::ram::In;
        type Out = golden::mem::ram::Out;
        clock = clock;
        inputs {
            read_address: read_address, write_address: write_address,
            write_data: write_data, write_enable: write_enable
        }
        outputs { read_data: read_data }
    }
}

harness! {
    impl<const D: usize, const A: usize> Fifo<D, A> {
        type In = golden::mem::fifo::In;
        type Out = golden::mem::fifo::Out;
        clock = clock;
        inputs { push: push, push_data: push_data, pop: pop }
        outputs { head_valid: head_valid, head_data: head_data }
    }
}

harness! {
    impl<const A: usize> FlowStateRam<A> {
        type In = golden::sched::flow_state_ram::In;
        type Out = golden::sched::flow_state_ram::Out;
        clock = clock;
        inputs {
            write_address: write_address, write_enable: write_enable,
            w_r: w_r, w_w: w_w, w_una: w_una, w_nxt: w_nxt, w_seq_end: w_seq_end,
            w_cr: w_cr, w_last: w_last, w_fl: w_fl, w_ep: w_ep, read_address: read_address
        }
        outputs {
            r: r, w: w, una: una, nxt: nxt, seq_end: seq_end, cr: cr, last: last, fl: fl, ep: ep
        }
    }
}

harness! {
    impl<> LazyCredit {
        type In = golden::sched::lazy_credit::In;
        type Out = golden::sched::lazy_credit::Out;
        clock = clock;
        inputs {
            cfg_mtu: cfg_mtu, cfg_cap: cfg_cap, r: r, now: now, last: last, cr: cr, len: len,
            refund: refund
        }
        outputs { cr_acc: cr_acc, cr_short: cr_short, cr_sent: cr_sent, cr_trim: cr_trim }
    }
}

harness! {
    impl<> RpNewState {
        type In = golden::cc::rp_new_state::In;
        type Out = golden::cc::rp_new_state::Out;
        clock = clock;
        inputs {
            rate: rate, ab: ab, meta: meta, create: create, destroy: destroy, cnp: cnp,
            first: first, cnp_cut: cnp_cut, sent_acc: sent_acc, byte_pass: byte_pass,
            vis_live: vis_live, vis_astep: vis_astep, vis_inc: vis_inc, vis_cut: vis_cut,
            alpha_use: alpha_use, rc_base: rc_base, cut_d: cut_d, bc33: bc33, inc_rc: inc_rc,
            inc_rt: inc_rt, cur_a: cur_a, cur_d: cur_d, cur_i: cur_i, r_line: r_line,
            r_min: r_min
        }
        outputs {
            rc: rc, rt: rt, alpha: alpha, bcount: bcount, t_stage: t_stage, b_stage: b_stage,
            created: created, armed: armed, cnp_a: cnp_a, cnp_d: cnp_d, ep_a: ep_a, ep_d: ep_d,
            ep_i: ep_i, stage_max: stage_max, increased: increased
        }
    }
}

harness! {
    impl<> RpCounters {
        type In = golden::cc::rp_counters::In;
        type Out = golden::cc::rp_counters::Out;
        clock = clock;
        inputs {
            ev: ev, coalesced: coalesced, cnp: cnp, sent: sent, visit: visit, cut: cut,
            increase: increase, held: held, recovered: recovered, drop_flow: drop_flow,
            late: late
        }
        outputs {}
        records_out { stats: m_stats }
    }
}

harness! {
    impl<> SchedCounters {
        type In = golden::sched::sched_counters::In;
        type Out = golden::sched::sched_counters::Out;
        clock = clock;
        inputs {
            ev: ev, kill: kill, rejected: rejected, op: op, ack_ok: ack_ok, db_ok: db_ok,
            sent: sent, probed: probed
        }
        outputs {}
        records_out { stats: m_stats }
    }
}

harness! {
    impl<const A: usize> FlowSched<A> {
        type In = golden::sched::flow_sched::In;
        type Out = golden::sched::flow_sched::Out;
        clock = clock;
        inputs {
            cfg_mtu: cfg_mtu, cfg_cap: cfg_cap, cfg_probe_t: cfg_probe_t,
            ev_valid: s_ev.valid, send_ready: m_send.ready
        }
        outputs { ev_ready: s_ev.ready, send_valid: m_send.valid }
        records_in { ev: s_ev }
        records_out { send: m_send, stats: m_stats }
    }
}

harness! {
    impl<const A: usize> DcqcnRp<A> {
        type In = golden::cc::dcqcn::In;
        type Out = golden::cc::dcqcn::Out;
        clock = clock;
        inputs { ev_valid: s_event.valid }
        outputs { ev_ready: s_event.ready, update_valid: m_update.valid }
        records_in { cfg: cfg, ev: s_event }
        records_out { update: m_update, stats: m_stats }
    }
}

harness! {
    impl<const A: usize> DcqcnNp<A> {
        type In = golden::cc::dcqcn_np::In;
        type Out = golden::cc::dcqcn_np::Out;
        clock = clock;
        inputs { cfg_interval: cfg_interval, ce_valid: s_ce.valid, cnp_ready: m_cnp.ready }
        outputs { cnp_valid: m_cnp.valid }
        records_in { ce: s_ce }
        records_out { cnp: m_cnp, stats: m_stats }
    }
}

harness! {
    impl<> CnmRx {
        type In = golden::roce::cnm_rx::In;
        type Out = golden::roce::cnm_rx::Out;
        clock = clock;
        inputs {
            cnm_ready: m_cnm.ready
        }
        outputs { cnm_valid: m_cnm.valid }
        records_in { rx: s_axis_rx }
        records_out { cnm: m_cnm, stats: m_stats }
    }
}

/// Test fixture: [`nic_hdl::mac::Mac10g`] with `rx_clk` and `tx_clk`
/// tied to one clock (as `hpcc_nic_10g` has it), for the twin
/// `nic_golden::mac::mac_10g`; both resets are inputs, every other port
/// is `Mac10g`'s.
#[derive(LogicBlock, Default)]
pub struct Mac10gOneClock<const MAX_LEN: usize> {
    pub clock: Signal<In, Clock>,
    pub rx_rst: Signal<In, Bit>,
    pub tx_rst: Signal<In, Bit>,
    pub tx_axis: nic_hdl::stream::AxisSink<64, 8, 1>,
    pub rx_axis: nic_hdl::stream::AxisSource<64, 8, 1>,
    pub xgmii_rxd: Signal<In, Bits<64>>,
    pub xgmii_rxc: Signal<In, Bits<8>>,
    pub xgmii_txd: Signal<Out, Bits<64>>,
    pub xgmii_txc: Signal<Out, Bits<8>>,
    pub rx_error_bad_frame: Signal<Out, Bit>,
    pub rx_error_bad_fcs: Signal<Out, Bit>,
    pub rx_pause_valid: Signal<Out, Bit>,
    pub rx_pause_quanta: Signal<Out, Bits<16>>,
    pub tx_paused: Signal<Out, Bit>,
    pub tx_pause_req: Signal<In, Bit>,
    pub tx_pause_quanta: Signal<In, Bits<16>>,
    pub tx_pause_cev: Signal<In, Bits<8>>,
    pub cfg_src_mac: Signal<In, Bits<48>>,
    pub m_stats_tx: nic_hdl::mac::MacTxStatsSource,
    pub m_stats_rx: nic_hdl::mac::MacRxStatsSource,
    pub m_stats_pause: nic_hdl::mac::MacPauseStatsSource,
    mac: nic_hdl::mac::Mac10g<MAX_LEN>,
}

impl<const MAX_LEN: usize> Logic for Mac10gOneClock<MAX_LEN> {
    #[hdl_gen]
    fn update(&mut self) {
        self.mac.rx_clk.next = self.clock.val();
        self.mac.tx_clk.next = self.clock.val();
        self.mac.rx_rst.next = self.rx_rst.val();
        self.mac.tx_rst.next = self.tx_rst.val();
        nic_hdl::stream::AxisSink::<64, 8, 1>::link(&mut self.tx_axis, &mut self.mac.tx_axis);
        nic_hdl::stream::AxisSource::<64, 8, 1>::link(&mut self.rx_axis, &mut self.mac.rx_axis);
        self.mac.xgmii_rxd.next = self.xgmii_rxd.val();
        self.mac.xgmii_rxc.next = self.xgmii_rxc.val();
        self.xgmii_txd.next = self.mac.xgmii_txd.val();
        self.xgmii_txc.next = self.mac.xgmii_txc.val();
        self.rx_error_bad_frame.next = self.mac.rx_error_bad_frame.val();
        self.rx_error_bad_fcs.next = self.mac.rx_error_bad_fcs.val();
        self.rx_pause_valid.next = self.mac.rx_pause_valid.val();
        self.rx_pause_quanta.next = self.mac.rx_pause_quanta.val();
        self.tx_paused.next = self.mac.tx_paused.val();
        self.mac.tx_pause_req.next = self.tx_pause_req.val();
        self.mac.tx_pause_quanta.next = self.tx_pause_quanta.val();
        self.mac.tx_pause_cev.next = self.tx_pause_cev.val();
        self.mac.cfg_src_mac.next = self.cfg_src_mac.val();
        nic_hdl::mac::MacTxStatsSource::link(&mut self.m_stats_tx, &mut self.mac.m_stats_tx);
        nic_hdl::mac::MacRxStatsSource::link(&mut self.m_stats_rx, &mut self.mac.m_stats_rx);
        nic_hdl::mac::MacPauseStatsSource::link(
            &mut self.m_stats_pause,
            &mut self.mac.m_stats_pause,
        );
    }
}

harness! {
    impl<const MAX_LEN: usize> Mac10gOneClock<MAX_LEN> {
        type In = golden::mac::mac_10g::In;
        type Out = golden::mac::mac_10g::Out;
        clock = clock;
        inputs {
            rx_rst: rx_rst, tx_rst: tx_rst, xgmii_rxd: xgmii_rxd, xgmii_rxc: xgmii_rxc, tx_pause_req: tx_pause_req,
            tx_pause_quanta: tx_pause_quanta, tx_pause_cev: tx_pause_cev,
            cfg_src_mac: cfg_src_mac, rx_tready: rx_axis.tready
        }
        outputs {
            tx_tready: tx_axis.tready, xgmii_txd: xgmii_txd, xgmii_txc: xgmii_txc,
            rx_error_bad_frame: rx_error_bad_frame, rx_error_bad_fcs: rx_error_bad_fcs,
            rx_pause_valid: rx_pause_valid, rx_pause_quanta: rx_pause_quanta,
            tx_paused: tx_paused
        }
        records_in { tx: tx_axis }
        records_out { stats_tx: m_stats_tx, stats_rx: m_stats_rx, stats_pause: m_stats_pause, rx: rx_axis }
    }
}

/// Test fixture: [`nic_hdl::mac::Mac1g`] with `rx_clk` and `tx_clk`
/// tied to one clock, for the twin `nic_golden::mac::mac_1g`; both
/// resets are inputs, every other port is `Mac1g`'s.
#[derive(LogicBlock, Default)]
pub struct Mac1gOneClock {
    pub clock: Signal<In, Clock>,
    pub rx_rst: Signal<In, Bit>,
    pub tx_rst: Signal<In, Bit>,
    pub tx_axis: nic_hdl::stream::AxisSink<64, 8, 1>,
    pub rx_axis: nic_hdl::stream::AxisSource<64, 8, 1>,
    pub gmii_rxd: Signal<In, Bits<8>>,
    pub gmii_rx_dv: Signal<In, Bit>,
    pub gmii_rx_er: Signal<In, Bit>,
    pub gmii_txd: Signal<Out, Bits<8>>,
    pub gmii_tx_en: Signal<Out, Bit>,
    pub gmii_tx_er: Signal<Out, Bit>,
    pub rx_error_bad_frame: Signal<Out, Bit>,
    pub rx_error_bad_fcs: Signal<Out, Bit>,
    pub rx_pause_valid: Signal<Out, Bit>,
    pub rx_pause_quanta: Signal<Out, Bits<16>>,
    pub tx_paused: Signal<Out, Bit>,
    pub tx_pause_req: Signal<In, Bit>,
    pub tx_pause_quanta: Signal<In, Bits<16>>,
    pub tx_pause_cev: Signal<In, Bits<8>>,
    pub cfg_src_mac: Signal<In, Bits<48>>,
    pub m_stats_tx: nic_hdl::mac::MacTxStatsSource,
    pub m_stats_rx: nic_hdl::mac::MacRxStatsSource,
    pub m_stats_pause: nic_hdl::mac::MacPauseStatsSource,
    mac: nic_hdl::mac::Mac1g,
}

impl Logic for Mac1gOneClock {
    #[hdl_gen]
    fn update(&mut self) {
        self.mac.rx_clk.next = self.clock.val();
        self.mac.tx_clk.next = self.clock.val();
        self.mac.rx_rst.next = self.rx_rst.val();
        self.mac.tx_rst.next = self.tx_rst.val();
        nic_hdl::stream::AxisSink::<64, 8, 1>::link(&mut self.tx_axis, &mut self.mac.tx_axis);
        nic_hdl::stream::AxisSource::<64, 8, 1>::link(&mut self.rx_axis, &mut self.mac.rx_axis);
        self.mac.gmii_rxd.next = self.gmii_rxd.val();
        self.mac.gmii_rx_dv.next = self.gmii_rx_dv.val();
        self.mac.gmii_rx_er.next = self.gmii_rx_er.val();
        self.gmii_txd.next = self.mac.gmii_txd.val();
        self.gmii_tx_en.next = self.mac.gmii_tx_en.val();
        self.gmii_tx_er.next = self.mac.gmii_tx_er.val();
        self.rx_error_bad_frame.next = self.mac.rx_error_bad_frame.val();
        self.rx_error_bad_fcs.next = self.mac.rx_error_bad_fcs.val();
        self.rx_pause_valid.next = self.mac.rx_pause_valid.val();
        self.rx_pause_quanta.next = self.mac.rx_pause_quanta.val();
        self.tx_paused.next = self.mac.tx_paused.val();
        self.mac.tx_pause_req.next = self.tx_pause_req.val();
        self.mac.tx_pause_quanta.next = self.tx_pause_quanta.val();
        self.mac.tx_pause_cev.next = self.tx_pause_cev.val();
        self.mac.cfg_src_mac.next = self.cfg_src_mac.val();
        nic_hdl::mac::MacTxStatsSource::link(&mut self.m_stats_tx, &mut self.mac.m_stats_tx);
        nic_hdl::mac::MacRxStatsSource::link(&mut self.m_stats_rx, &mut self.mac.m_stats_rx);
        nic_hdl::mac::MacPauseStatsSource::link(
            &mut self.m_stats_pause,
            &mut self.mac.m_stats_pause,
        );
    }
}

harness! {
    impl<> Mac1gOneClock {
        type In = golden::mac::mac_1g::In;
        type Out = golden::mac::mac_1g::Out;
        clock = clock;
        inputs {
            rx_rst: rx_rst, tx_rst: tx_rst, gmii_rxd: gmii_rxd, gmii_rx_dv: gmii_rx_dv,
            gmii_rx_er: gmii_rx_er, tx_pause_req: tx_pause_req,
            tx_pause_quanta: tx_pause_quanta, tx_pause_cev: tx_pause_cev,
            cfg_src_mac: cfg_src_mac, rx_tready: rx_axis.tready
        }
        outputs {
            tx_tready: tx_axis.tready, gmii_txd: gmii_txd, gmii_tx_en: gmii_tx_en,
            gmii_tx_er: gmii_tx_er,
            rx_error_bad_frame: rx_error_bad_frame, rx_error_bad_fcs: rx_error_bad_fcs,
            rx_pause_valid: rx_pause_valid, rx_pause_quanta: rx_pause_quanta,
            tx_paused: tx_paused
        }
        records_in { tx: tx_axis }
        records_out { stats_tx: m_stats_tx, stats_rx: m_stats_rx, stats_pause: m_stats_pause, rx: rx_axis }
    }
}

/// Test fixture: [`nic_hdl::mac::VendorMacAdapter`] with `core_clk`,
/// `tx_clk` and `rx_clk` tied to one clock, for the twin
/// `nic_golden::mac::vendor_mac`; the three resets are inputs, every
/// other port is the adapter's.
#[derive(LogicBlock, Default)]
pub struct VendorMacOneClock<const A: usize> {
    pub clock: Signal<In, Clock>,
    pub core_rst: Signal<In, Bit>,
    pub tx_rst: Signal<In, Bit>,
    pub rx_rst: Signal<In, Bit>,
    pub s_axis_tx: nic_hdl::stream::AxisSink<64, 8, 1>,
    pub m_axis_rx: nic_hdl::stream::AxisSource<64, 8, 1>,
    pub m_axis_mac_tx: nic_hdl::stream::AxisSource<64, 8, 1>,
    pub s_axis_mac_rx: nic_hdl::stream::AxisSink<64, 8, 1>,
    pub m_stats_pad: nic_hdl::mac::TxPadStatsSource,
    pub m_stats_tx_fifo: nic_hdl::mac::AsyncFifoStatsSource,
    pub m_stats_rx_fifo: nic_hdl::mac::AsyncFifoStatsSource,
    adapter: nic_hdl::mac::VendorMacAdapter<A>,
}

impl<const A: usize> Logic for VendorMacOneClock<A> {
    #[hdl_gen]
    fn update(&mut self) {
        self.adapter.core_clk.next = self.clock.val();
        self.adapter.tx_clk.next = self.clock.val();
        self.adapter.rx_clk.next = self.clock.val();
        self.adapter.core_rst.next = self.core_rst.val();
        self.adapter.tx_rst.next = self.tx_rst.val();
        self.adapter.rx_rst.next = self.rx_rst.val();
        nic_hdl::stream::AxisSink::<64, 8, 1>::link(
            &mut self.s_axis_tx,
            &mut self.adapter.s_axis_tx,
        );
        nic_hdl::stream::AxisSource::<64, 8, 1>::link(
            &mut self.m_axis_rx,
            &mut self.adapter.m_axis_rx,
        );
        nic_hdl::stream::AxisSource::<64, 8, 1>::link(
            &mut self.m_axis_mac_tx,
            &mut self.adapter.m_axis_mac_tx,
        );
        nic_hdl::stream::AxisSink::<64, 8, 1>::link(
            &mut self.s_axis_mac_rx,
            &mut self.adapter.s_axis_mac_rx,
        );
        nic_hdl::mac::TxPadStatsSource::link(&mut self.m_stats_pad, &mut self.adapter.m_stats_pad);
        nic_hdl::mac::AsyncFifoStatsSource::link(
            &mut self.m_stats_tx_fifo,
            &mut self.adapter.m_stats_tx_fifo,
        );
        nic_hdl::mac::AsyncFifoStatsSource::link(
            &mut self.m_stats_rx_fifo,
            &mut self.adapter.m_stats_rx_fifo,
        );
    }
}

harness! {
    impl<const A: usize> VendorMacOneClock<A> {
        type In = golden::mac::vendor_mac::In;
        type Out = golden::mac::vendor_mac::Out;
        clock = clock;
        inputs {
            core_rst: core_rst, tx_rst: tx_rst, rx_rst: rx_rst,
            mac_tx_tready: m_axis_mac_tx.tready, rx_tready: m_axis_rx.tready
        }
        outputs { tx_tready: s_axis_tx.tready, mac_rx_tready: s_axis_mac_rx.tready }
        records_in { tx: s_axis_tx, mac_rx: s_axis_mac_rx }
        records_out {
            mac_tx: m_axis_mac_tx, rx: m_axis_rx, stats_pad: m_stats_pad,
            stats_tx_fifo: m_stats_tx_fifo, stats_rx_fifo: m_stats_rx_fifo
        }
    }
}

/// Test fixture: [`nic_hdl::mac::AxisAsyncFifo`] with `s_clk` and
/// `m_clk` tied to one clock and one reset (as `hpcc_nic_10g`'s transmit
/// FIFO), for the twin `nic_golden::mac::axis_async_fifo::OneClock`.
#[derive(LogicBlock, Default)]
pub struct AxisAsyncFifoOneClock<const A: usize, const DROP: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub s_axis: nic_hdl::stream::AxisSink<64, 8, 1>,
    pub m_axis: nic_hdl::stream::AxisSource<64, 8, 1>,
    pub m_stats: nic_hdl::mac::AsyncFifoStatsSource,
    fifo: nic_hdl::mac::AxisAsyncFifo<A, DROP>,
}

impl<const A: usize, const DROP: usize> Logic for AxisAsyncFifoOneClock<A, DROP> {
    #[hdl_gen]
    fn update(&mut self) {
        self.fifo.s_clk.next = self.clock.val();
        self.fifo.m_clk.next = self.clock.val();
        self.fifo.s_rst.next = self.reset.val();
        self.fifo.m_rst.next = self.reset.val();
        nic_hdl::stream::AxisSink::<64, 8, 1>::link(&mut self.s_axis, &mut self.fifo.s_axis);
        nic_hdl::stream::AxisSource::<64, 8, 1>::link(&mut self.m_axis, &mut self.fifo.m_axis);
        nic_hdl::mac::AsyncFifoStatsSource::link(&mut self.m_stats, &mut self.fifo.m_stats);
    }
}

harness! {
    impl<const A: usize, const DROP: usize> AxisAsyncFifoOneClock<A, DROP> {
        type In = golden::mac::axis_async_fifo::OneClockIn;
        type Out = golden::mac::axis_async_fifo::OneClockOut;
        clock = clock;
        inputs {
            reset: reset, m_tready: m_axis.tready
        }
        outputs {
            s_tready: s_axis.tready
        }
        records_in { s: s_axis }
        records_out { stats: m_stats, m: m_axis }
    }
}

harness! {
    impl<> nic_hdl::mac::XgmiiTx {
        type In = golden::mac::xgmii_tx::In;
        type Out = golden::mac::xgmii_tx::Out;
        clock = clock;
        inputs {
            reset: reset, pause: pause
        }
        outputs { s_tready: s_axis.tready, txd: xgmii_txd, txc: xgmii_txc }
        records_in { s: s_axis }
        records_out { stats: m_stats }
    }
}

harness! {
    impl<> nic_hdl::mac::XgmiiRx {
        type In = golden::mac::xgmii_rx::In;
        type Out = golden::mac::xgmii_rx::Out;
        clock = clock;
        inputs {
            reset: reset, rxd: xgmii_rxd, rxc: xgmii_rxc, cfg_max_len: cfg_max_len,
            m_tready: m_axis.tready
        }
        outputs {
            bad_frame: bad_frame,
            bad_fcs: bad_fcs, pause_valid: pause_valid, pause_quanta: pause_quanta
        }
        records_out { stats: m_stats, m: m_axis }
    }
}

harness! {
    impl<> nic_hdl::mac::GmiiTx {
        type In = golden::mac::gmii_tx::In;
        type Out = golden::mac::gmii_tx::Out;
        clock = clock;
        inputs {
            reset: reset, pause: pause
        }
        outputs { s_tready: s_axis.tready, txd: gmii_txd, tx_en: gmii_tx_en, tx_er: gmii_tx_er }
        records_in { s: s_axis }
        records_out { stats: m_stats }
    }
}

harness! {
    impl<> nic_hdl::mac::GmiiRx {
        type In = golden::mac::gmii_rx::In;
        type Out = golden::mac::gmii_rx::Out;
        clock = clock;
        inputs {
            reset: reset, rxd: gmii_rxd, rx_dv: gmii_rx_dv, rx_er: gmii_rx_er,
            cfg_max_len: cfg_max_len, m_tready: m_axis.tready
        }
        outputs {
            bad_frame: bad_frame,
            bad_fcs: bad_fcs, pause_valid: pause_valid, pause_quanta: pause_quanta
        }
        records_out { stats: m_stats, m: m_axis }
    }
}

harness! {
    impl<> nic_hdl::mac::AxisPad {
        type In = golden::mac::axis_pad::In;
        type Out = golden::mac::axis_pad::Out;
        clock = clock;
        inputs {
            reset: reset, m_tready: m_axis.tready
        }
        outputs {
            s_tready: s_axis.tready
        }
        records_in { s: s_axis }
        records_out { stats: m_stats, m: m_axis }
    }
}

harness! {
    impl<> nic_hdl::stream::AxisNarrow {
        type In = golden::stream::axis_narrow::In;
        type Out = golden::stream::axis_narrow::Out;
        clock = clock;
        inputs {
            reset: reset, m_tready: m_axis.tready
        }
        outputs {
            s_tready: s_axis.tready
        }
        records_in { s: s_axis }
        records_out { m: m_axis }
    }
}

harness! {
    impl<> nic_hdl::stream::AxisWiden {
        type In = golden::stream::axis_widen::In;
        type Out = golden::stream::axis_widen::Out;
        clock = clock;
        inputs {
            reset: reset, m_tready: m_axis.tready
        }
        outputs {
            s_tready: s_axis.tready
        }
        records_in { s: s_axis }
        records_out { m: m_axis }
    }
}

harness! {
    impl<> nic_hdl::mac::TxPause<3> {
        type In = golden::mac::tx_pause::In;
        type Out = golden::mac::tx_pause::Out;
        clock = clock;
        inputs {
            reset: reset, m_tready: m_axis.tready,
            rx_pause_valid: rx_pause_valid, rx_pause_quanta: rx_pause_quanta,
            tx_pause_req: tx_pause_req, tx_pause_quanta: tx_pause_quanta,
            tx_pause_cev: tx_pause_cev, cfg_src_mac: cfg_src_mac
        }
        outputs {
            s_tready: s_axis.tready, paused: paused
        }
        records_in { s: s_axis }
        records_out { stats: m_stats, m: m_axis }
    }
}
