//! The network simulator: switches that stamp telemetry, topologies,
//! workloads, NIC cores per host, and the figures of a run
//! (`hpccnic netsim`; `docs/netsim.md`).
//!
//! - [`switch`]: output-queued switch (ns-3 telemetry hop at egress, RED
//!   ECN, lossy drop or PFC pause);
//! - [`topo`]: incast, dumbbell, leaf-spine with ECMP;
//! - [`cdf`]: flow-size distributions; [`work`]: a host's flows as work
//!   requests;
//! - [`scenario`]: the TOML scenario, checked and resolved;
//! - [`run`]: the network stepped one NIC cycle at a time;
//! - [`results`]: `summary.json` and the CSV series.

pub mod cdf;
pub mod results;
pub mod run;
pub mod scenario;
pub mod switch;
pub mod topo;
pub mod work;
