//! Twins of the flow scheduler (`hdl/src/sched`).

pub mod flow_sched;
pub mod flow_state_ram;
pub mod lazy_credit;
pub mod sched_counters;

// The records this area's blocks exchange, generated from their one
// declaration in `nic_spec::records` (see `crate::record`).
use crate::golden_record;
nic_spec::sched_event_record!(golden_record! {});
nic_spec::pkt_send_record!(golden_record! {});
nic_spec::sched_stats_record!(golden_record! {});
