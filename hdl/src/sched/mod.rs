//! The flow scheduler.

pub mod flow_sched;

pub use flow_sched::FlowSched;
