//! The flow scheduler.

pub mod flow_sched;
pub mod flow_state_ram;
pub mod lazy_credit;
pub mod sched_counters;

pub use flow_sched::FlowSched;
pub use flow_state_ram::FlowStateRam;

// The records this area's blocks exchange, generated from their one
// declaration in `nic_spec::records` (see `crate::record`).
use crate::hdl_record;
use rust_hdl::prelude::*;
nic_spec::sched_event_record!(hdl_record! {});
nic_spec::pkt_send_record!(hdl_record! {});
nic_spec::sched_stats_record!(hdl_record! {});
