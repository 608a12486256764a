//! The simulation environment of the HPCC++ SmartNIC.
//!
//! Everything here drives the blocks from outside; nothing here is a twin
//! of an RTL block (those are in `nic-golden`), and every model it runs
//! sits behind a trait so that the RTL on an engine (`nic-testbench`) can
//! stand in for the golden one.
//!
//! - [`host`]: host memory.
//! - [`link`]: one direction of a link (delay, seeded loss, serialization).
//! - [`sim`]: two NICs over a link, each with a requester and a responder
//!   over its Tx / Rx pipelines (`nic_golden::roce::txn::{TxPipe, RxPipe}`);
//!   the named scenarios of `hpccnic sim` and their end-of-run checks.
//! - [`fluid`]: a closed loop for the CC algorithm alone (N flows through
//!   one bottleneck that stamps telemetry).
//! - [`bench`]: the figures of `make bench` that need this environment.
//!
//! Arrows point down: `cli → netsim → testbench → {hdl, golden-model}`.

pub mod bench;
pub mod bottleneck;
pub mod cc_loop;
pub mod core_env;
pub mod fluid;
pub mod host;
pub mod link;
pub mod sim;

pub use host::HostMem;
pub use link::{Link, LinkCfg};
pub use sim::{
    run, run_progress, run_with, run_with_progress, Progress, Scenario, SimConfig, SimResult,
    WireFrame,
};
