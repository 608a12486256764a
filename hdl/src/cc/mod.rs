//! Congestion control: the HPCC++ CC module, its blocks and its telemetry
//! parser.
//!
//! # Pseudocode line → code
//!
//! The HPCC++ drafts' algorithm (draft-miao-tsv-hpcc, lines 1–27, and
//! the receiver-based NewINT, lines 28–34; the numbering is the same in
//! every draft), and where each line is done.
//! RTL files are in `hdl/src/cc/`; golden functions in
//! `nic_golden::cc::<same file name>` (the transaction model
//! `nic_golden::cc::hpcc::HpccFixed::process` calls them in this order).
//!
//! | line | pseudocode | RTL (`hdl/src/cc/`) | golden function |
//! |---|---|---|---|
//! | line 1 | `Function MeasureInflight(ack)` | `measure_inflight.rs` ×5, `hop_max.rs` | `HpccFixed::process` (lines 1–7) |
//! | line 2 | `u = 0` | `hop_max.rs` (all u′ = 0: u = 0, tau = 0) | `hop_max::hop_max` |
//! | line 3 | `for each link i on the path` | `hpcc.rs`: `measure[i]`, i < nhops (`active`) | `HpccFixed::process` |
//! | line 4 | `txRate = Δbytes / Δts` | `measure_inflight.rs` (deltas, `Divider<32,30>`) | `measure_inflight::hop_deltas`, `tx_operands`, `u_tx` |
//! | line 5 | `u' = min(qlen)/(B·T) + txRate/B` | `measure_inflight.rs` (`WideMul`, sum) | `measure_inflight::u_q`, `hop_term` |
//! | line 6 | `if u' > u` | `hop_max.rs` | `hop_max::hop_max` |
//! | line 7 | `u = u'; tau = Δts` | `hop_max.rs` (candidate: `measure_inflight.rs`) | `hop_max::hop_max`, `measure_inflight::hop_prep` |
//! | line 8 | `tau = min(tau, T)` | `ewma.rs` | `ewma::tau_weight` |
//! | line 9 | `U = (1 − tau/T)·U + tau/T·u` | `ewma.rs` | `ewma::tau_weight`, `ewma::ewma` |
//! | line 10 | `return U` | `hpcc.rs` (`u_s56`, U RAM write) | `HpccFixed::process` |
//! | line 11 | `Function ComputeWind(U, updateWc)` | `compute_wind.rs` | `compute_wind::compute_wind` |
//! | line 12 | `if U >= eta or incStage >= maxStage` | `compute_wind.rs` | `compute_wind::u_ge_eta`, `md_branch` |
//! | line 13 | `W = Wc/(U/eta) + W_ai` | `compute_wind.rs` (`Divider<32,28>`, `WideMul`) | `compute_wind::eta_over_u`, `line13` |
//! | line 14 | `if updateWc` | `compute_wind.rs` (`update_wc` port) | `compute_wind::update_wc` |
//! | line 15 | `incStage = 0; Wc = W` | `compute_wind.rs` | `compute_wind::update_wc` |
//! | line 16 | `else` | `compute_wind.rs` | `compute_wind::wind` |
//! | line 17 | `W = Wc + W_ai` | `compute_wind.rs` | `compute_wind::line17` |
//! | line 18 | `if updateWc` | `compute_wind.rs` (`update_wc` port) | `compute_wind::update_wc` |
//! | line 19 | `incStage++; Wc = W` | `compute_wind.rs` | `compute_wind::update_wc` |
//! | line 20 | `return W` (clamped to [W_min, W_init]) | `compute_wind.rs` | `compute_wind::clamp_flags`, `clamp_select` |
//! | line 21 | `Procedure NewAck(ack)` | `hpcc.rs` (the flow's `variant` = 0, meta bit 36) | `HpccFixed::process` |
//! | line 22 | `if ack.seq > lastUpdateSeq` | `hpcc.rs` stage 2 (`commit_s3`) | `hpcc::sender_commit` |
//! | line 23 | `W = ComputeWind(MeasureInflight(ack), True)` | `hpcc.rs` (`ctx_s96.commit` → `update_wc`) | `HpccFixed::process` |
//! | line 24 | `lastUpdateSeq = snd_nxt` | `hpcc.rs` stage 3 (`stamp`, meta write) | `HpccFixed::process` |
//! | line 25 | `else` | `hpcc.rs` | `HpccFixed::process` |
//! | line 26 | `W = ComputeWind(MeasureInflight(ack), False)` | `hpcc.rs` (`ctx_s96.commit` → `update_wc`) | `HpccFixed::process` |
//! | line 27 | `R = W/T; L = ack.L` | `rate.rs` (R); `hpcc.rs` stage 3 (hop writes: L) | `rate::rate`; `HpccFixed::process` |
//! | line 28 | `Procedure NewINT(int.L)` | `hpcc.rs` (the flow's `variant` = 1, meta bit 36) | `HpccFixed::process` |
//! | line 29 | `if now > lastUpdateTime + T` | `hpcc.rs` stage 2 (`commit_s3`) | `hpcc::receiver_commit` |
//! | line 30 | `W = ComputeWind(MeasureInflight(int), True)` | `hpcc.rs` (`ctx_s96.commit` → `update_wc`) | `HpccFixed::process` |
//! | line 31 | `send_ack(W)` | `hpcc.rs` (`out_updated_wc`) | `HpccFixed::process` (`updated_wc`) |
//! | line 32 | `lastUpdateTime = now` | `hpcc.rs` stage 3 (`stamp`, meta write) | `HpccFixed::process` |
//! | line 33 | `else` | `hpcc.rs` | `HpccFixed::process` |
//! | line 34 | `W = ComputeWind(MeasureInflight(int), False)` | `hpcc.rs` (`ctx_s96.commit` → `update_wc`) | `HpccFixed::process` |
//!
//! # Blocks
//!
//! | file | block | pseudocode | latency | in `HpccCc` |
//! |---|---|---|---|---|
//! | `measure_inflight.rs` | [`MeasureInflight`] | lines 4–5 (one hop) | 38 (flags 1) | stages 2–40, ×5 |
//! | `hop_max.rs` | [`HopMax`] | lines 6–7 | 3 | 40–43 |
//! | `ewma.rs` | [`Ewma`] | lines 8–9 | 12 (U in at 5) | 43–55 |
//! | `compute_wind.rs` | [`ComputeWind`] | lines 11–20 | 40 (state in at 32) | 56–96 |
//! | `rate.rs` | [`Rate`] | line 27 (R) | 5 | 96–101 |
//! | `hpcc.rs` | [`HpccCc`] | lines 21–26, 28–34; state, interlock | 102 | |
//! | `int_ns3.rs` | [`Ns3HopParse`] | (the telemetry format) | 0 | stage 0, ×5 |
//!
//! Each has II 1 and a golden twin (`nic_golden::cc::<file>`) co-simulated
//! on both engines by `testbench/tests/cc/<file>.rs`.

pub mod compute_wind;
pub mod dcqcn;
pub mod dcqcn_np;
pub mod ewma;
pub mod hop_max;
pub mod hpcc;
pub mod increase_step;
pub mod int_ns3;
pub mod measure_inflight;
pub mod period_epoch;
pub mod rate;
pub mod rp_counters;
pub mod rp_new_state;

pub use compute_wind::ComputeWind;
pub use dcqcn::DcqcnRp;
pub use dcqcn_np::DcqcnNp;
pub use ewma::Ewma;
pub use hop_max::HopMax;
pub use hpcc::HpccCc;
pub use increase_step::IncreaseStep;
pub use int_ns3::Ns3HopParse;
pub use measure_inflight::MeasureInflight;
pub use period_epoch::PeriodEpoch;
pub use rate::Rate;
pub use rp_counters::RpCounters;
pub use rp_new_state::RpNewState;

// The records this area's blocks exchange, generated from their one
// declaration in `nic_spec::records` (see `crate::record`).
use crate::hdl_record;
use rust_hdl::prelude::*;
nic_spec::cc_event_record!(hdl_record! {});
nic_spec::cc_update_record!(hdl_record! {});
nic_spec::cc_stats_record!(hdl_record! {});
nic_spec::rp_event_record!(hdl_record! {});
nic_spec::dcqcn_cfg_record!(hdl_record! {});
nic_spec::dcqcn_stats_record!(hdl_record! {});
nic_spec::ce_mark_record!(hdl_record! {});
nic_spec::cnp_req_record!(hdl_record! {});
nic_spec::np_stats_record!(hdl_record! {});
