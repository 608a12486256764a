//! The tests, benchmarks, cocotb checks and formal checks of the HPCC++
//! SmartNIC. The engines they run on (rust-hdl's simulator and Verilator,
//! co-simulation, the harnesses of every block) are the crate
//! `nic-engines` (`engines/`), which `netsim` and the CLI use too; this
//! crate re-exports it, so a test names `nic_testbench::cosim::check` as
//! before.
//!
//! - [`bench`]: the benchmarks behind `make bench` (the `nic-bench`
//!   binary);
//! - `tests/`: the `blocks` test binary (every block against its twin on
//!   both engines) and `waveforms`;
//! - `cocotb/`, `formal/`: the independent peers and the formal checks.

pub use nic_engines::*;

pub mod bench;
