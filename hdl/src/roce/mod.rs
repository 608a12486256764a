//! RoCEv2 pipelines: the ICRC block, the Tx frame builder and the two Rx
//! stages (checker, dispatcher), and the QCN CNM receive tap. See
//! `docs/roce.md`.

pub mod bswap;
pub mod cnm_rx;
pub mod crc32;
pub mod dispatch_counters;
pub mod fb_check;
pub mod host_write_skid;
pub mod mr_check;
pub mod op_decode;
pub mod read_psns;
pub mod req_counters;
pub mod req_intake;
pub mod req_state_ram;
pub mod req_timer;
pub mod requester;
pub mod rx_check;
pub mod rx_ctx_store;
pub mod rx_dispatch;
pub mod rx_meta_ram;
pub mod rx_parse;
pub mod rx_verdict;
pub mod segment;
pub mod tx;
pub mod tx_ctx_ram;
pub mod tx_out;
pub mod wr_check;
pub mod wr_ring;

// The records this area's blocks exchange, generated from their one
// declaration in `nic_spec::records` (see `crate::record`).
use crate::hdl_record;
use rust_hdl::prelude::*;
nic_spec::telemetry_record!(hdl_record! {});
nic_spec::rx_meta_record!(hdl_record! {});
nic_spec::ack_record!(hdl_record! {});
nic_spec::cc_feedback_record!(hdl_record! {});
nic_spec::nak_record!(hdl_record! {});
nic_spec::read_req_record!(hdl_record! {});
nic_spec::host_write_record!(hdl_record! {});
nic_spec::host_read_record!(hdl_record! {});
nic_spec::tx_desc_record!(hdl_record! {});
nic_spec::tx_flow_ctx_record!(hdl_record! {});
nic_spec::rx_flow_ctx_record!(hdl_record! {});
nic_spec::mr_write_record!(hdl_record! {});
nic_spec::flow_pd_record!(hdl_record! {});
nic_spec::mr_check_stats_record!(hdl_record! {});
nic_spec::rx_parse_stats_record!(hdl_record! {});
nic_spec::rx_dispatch_stats_record!(hdl_record! {});
nic_spec::tx_stats_record!(hdl_record! {});
nic_spec::work_req_record!(hdl_record! {});
nic_spec::wr_completion_record!(hdl_record! {});
nic_spec::req_flow_ctx_record!(hdl_record! {});
nic_spec::req_stats_record!(hdl_record! {});
nic_spec::cnm_info_record!(hdl_record! {});
nic_spec::cnm_stats_record!(hdl_record! {});
