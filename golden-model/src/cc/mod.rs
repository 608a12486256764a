//! HPCC++ congestion control: parameters, the telemetry format, the f64
//! reference (`hpcc_ref`, line for line with the draft's pseudocode) and
//! the bit-exact, cycle-exact twin of the RTL CC module (`hpcc`) and of
//! each of its blocks (`measure_inflight`, `hop_max`, `ewma`,
//! `compute_wind`, `rate`). `nic_hdl::cc` has the table from pseudocode
//! line to block and function.

pub mod compute_wind;
pub mod dcqcn;
pub mod dcqcn_np;
pub mod dcqcn_params;
pub mod dcqcn_ref;
pub mod ewma;
pub mod fixed;
pub mod hop_max;
pub mod hpcc;
pub mod hpcc_ref;
pub mod increase_step;
pub mod int_ns3;
pub mod measure_inflight;
pub mod params;
pub mod period_epoch;
pub mod rate;
pub mod rp_counters;
pub mod rp_new_state;

// The records this area's blocks exchange, generated from their one
// declaration in `nic_spec::records` (see `crate::record`).
use crate::golden_record;
nic_spec::cc_event_record!(golden_record! {});
nic_spec::cc_update_record!(golden_record! {});
nic_spec::cc_stats_record!(golden_record! {});
nic_spec::rp_event_record!(golden_record! {});
nic_spec::dcqcn_cfg_record!(golden_record! {});
nic_spec::dcqcn_stats_record!(golden_record! {});
nic_spec::ce_mark_record!(golden_record! {});
nic_spec::cnp_req_record!(golden_record! {});
nic_spec::np_stats_record!(golden_record! {});
