//! The simulation environment of the HPCC++ SmartNIC.
//!
//! Everything here drives the blocks from outside; nothing here is a twin
//! of an RTL block (those are in `nic-golden`), and every model it runs
//! sits behind a trait so that the RTL on an engine (`nic-testbench`) can
//! stand in for the golden one.
//!
//! - [`host`]: host memory.
//! - [`link`]: one direction of a link (delay, seeded loss, serialization).
//! - [`core_env`]: the host of a NIC core (configuration through the
//!   register map, work requests, completions checked, DMA served with
//!   latency), two cores over a [`Wire`](core_env::Wire), the workloads
//!   and the runs of `hpccnic sim`.
//! - [`driver`]: the host of the whole NIC (`hpcc_nic`): a driver
//!   following `docs/driver.md` over AXI4-Lite, send and completion
//!   queues in host memory, a DMA engine; the runs of `hpccnic sim`.
//! - [`xgmii_link`]: one direction of a 10G link of XGMII words, with a
//!   monitor that checks and records every frame; [`driver_10g`]: the
//!   driver on `hpcc_nic_10g`, two of them over such links.
//! - [`bottleneck`]: a queue that stamps one ns-3 telemetry hop (the
//!   minimal switch); [`cc_loop`]: the CC in the loop through it.
//! - [`fluid`]: a closed loop for the CC algorithm alone (N flows through
//!   one bottleneck that stamps telemetry).
//! - [`fluid_dcqcn`]: the same bottleneck with RED ECN marking, a
//!   notification point and the DCQCN reaction point (twin and f64).
//! - [`net`]: the network simulator (`hpccnic netsim`): switches,
//!   topologies, workloads, scenarios, results.
//! - [`line_rate`]: two cores sending to each other at once, paced by
//!   the wire (the line-rate figures of `make bench`).
//! - [`bench`]: the figures of `make bench` that need this environment.
//!
//! Arrows point down: `cli → netsim → testbench → {hdl, golden-model}`.

pub mod bench;
pub mod bottleneck;
pub mod cc_loop;
pub mod core_env;
pub mod driver;
pub mod driver_10g;
pub mod fluid;
pub mod fluid_dcqcn;
pub mod host;
pub mod line_rate;
pub mod link;
pub mod net;
pub mod rx_fuzz;
pub mod rx_log;
pub mod xgmii_link;

pub use core_env::{WireFrame, FIRST_QP};
pub use host::HostMem;
pub use link::{Link, LinkCfg};
