//! RoCEv2: the wire format (`packet`, `crc32`), the twins of the Tx and Rx
//! pipelines (`tx`, `rx_parse`, `rx_dispatch`) and their transaction-level
//! models (`txn`: the receive rules, the Tx and Rx paths frame by frame). See `docs/roce.md`.

pub mod bswap;
pub mod crc32;
pub mod op_decode;
pub mod packet;
pub mod rx_dispatch;
pub mod rx_parse;
pub mod tx;
pub mod txn;

// The records this area's blocks exchange, generated from their one
// declaration in `nic_spec::records` (see `crate::record`).
use crate::golden_record;
nic_spec::telemetry_record!(golden_record! {});
nic_spec::rx_meta_record!(golden_record! {});
nic_spec::ack_record!(golden_record! {});
nic_spec::cc_feedback_record!(golden_record! {});
nic_spec::nak_record!(golden_record! {});
nic_spec::read_req_record!(golden_record! {});
nic_spec::host_write_record!(golden_record! {});
nic_spec::host_read_record!(golden_record! {});
nic_spec::tx_desc_record!(golden_record! {});
nic_spec::tx_flow_ctx_record!(golden_record! {});
nic_spec::rx_flow_ctx_record!(golden_record! {});
nic_spec::rx_parse_stats_record!(golden_record! {});
nic_spec::rx_dispatch_stats_record!(golden_record! {});
nic_spec::tx_stats_record!(golden_record! {});
