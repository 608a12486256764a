//! Twins of the flow scheduler (`hdl/src/sched`).

pub mod flow_sched;
