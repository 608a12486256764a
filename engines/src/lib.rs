//! The simulation engines of the HPCC++ SmartNIC, and the harness of
//! every block: used by the tests (`nic-testbench`), the network
//! simulator (`nic-netsim`) and the CLI.
//!
//! One testbench interface, two engines:
//! - [`RustHdlEngine`]: rust-hdl's own simulation kernel, in-process
//!   (`rust_hdl::core::simulate::simulate`, the settle loop that rust-hdl's
//!   `Simulation` runs, without its one-thread-per-testbench scheduler);
//! - [`VerilatorEngine`]: Verilator on the Verilog that rust-hdl emits, the
//!   artifact that goes into the FPGA, built on demand and cached under
//!   `target/verilator/`.
//!
//! A block opts in by implementing [`Harness`] (normally with the
//! [`harness!`] macro), which maps the block's ports to the port structs of
//! its golden twin in `nic-golden`. [`cosim::check`] then drives the golden
//! model and an engine with the same stimulus and compares every output
//! port on every cycle.
//!
//! ## Cycle semantics (both engines, and the golden models)
//! One call of `step(inputs)` is one clock cycle:
//! 1. the inputs are applied while the clock is low and the design settles;
//! 2. the outputs are sampled (registered outputs, and combinational paths
//!    from the inputs);
//! 3. the rising clock edge is applied and the design settles.
//!
//! A golden model is therefore a Mealy machine: `out = f(state, in)`,
//! `state' = g(state, in)`.
//!
//! ## Waveforms
//! With `NIC_VCD=1` (or `NIC_VCD=<dir>`) in the environment, each engine
//! writes `<dir>/<test name>.<engine>.vcd` (default dir `target/vcd`), with
//! the block hierarchy as VCD scopes, and next to it a GTKWave save file
//! `<test name>.<engine>.gtkw` ([`gtkw`]) that opens it with the ports
//! grouped by bundle.
//!
//! Time is real time at the design clock ([`CLOCK_PERIOD_PS`], 156.25 MHz,
//! or `NIC_CLOCK_MHZ`): timescale 1 ps; cycle `n` starts with the clock
//! low at `n * 6400` ps (inputs applied), and its rising edge is at
//! `n * 6400 + 3200` ps.

pub mod board;
pub mod cc;
pub mod cosim;
pub mod dcqcn;
pub mod gtkw;
pub mod harness;
pub mod hostif;
pub mod iverilog;
pub mod nic;
pub mod record;
pub mod roce;
pub mod rusthdl_engine;
pub mod sched;
pub mod slices;
pub mod uart;
pub mod value;
pub mod verilator;

pub use cosim::{check, EngineKind};
pub use harness::{Harness, HdlValue, PortValue};
pub use rusthdl_engine::RustHdlEngine;
pub use verilator::VerilatorEngine;

/// A clocked engine that runs a block cycle by cycle.
pub trait Engine<H: Harness> {
    /// Run one clock cycle (see the crate docs for the semantics).
    fn step(&mut self, input: &H::In) -> H::Out;
    /// Cycles run so far.
    fn cycles(&self) -> u64;
    /// The engine's name, as used in VCD file names and reports.
    fn name(&self) -> &'static str;
}

/// The design clock period, ps: 156.25 MHz (6.4 ns), the clock of the
/// 64-bit datapath at 10 Gb/s. The time axis of every VCD the engines write
/// is real time at this clock (see [`clock_period_ps`]).
pub const CLOCK_PERIOD_PS: u64 = 6400;

/// The clock period used for waveforms: [`CLOCK_PERIOD_PS`], unless
/// `NIC_CLOCK_MHZ` (a positive number of MHz, e.g. `125`) overrides it for
/// the run. Only the time axis changes; the simulation is cycle-based.
pub fn clock_period_ps() -> u64 {
    std::env::var("NIC_CLOCK_MHZ")
        .ok()
        .and_then(|v| v.trim().parse::<f64>().ok())
        .filter(|mhz| mhz.is_finite() && *mhz > 0.0)
        .map(|mhz| ((1e6 / mhz).round() as u64).max(2))
        .unwrap_or(CLOCK_PERIOD_PS)
}

/// Where VCD files go, if waveforms were requested (`NIC_VCD`).
pub fn vcd_path(test: &str, engine: &str) -> Option<std::path::PathBuf> {
    let v = std::env::var("NIC_VCD").ok()?;
    if v.is_empty() || v == "0" {
        return None;
    }
    let dir = if v == "1" {
        workspace_target().join("vcd")
    } else {
        std::path::PathBuf::from(v)
    };
    std::fs::create_dir_all(&dir).ok()?;
    Some(dir.join(format!("{test}.{engine}.vcd")))
}

/// The workspace's `target/` directory (respects `CARGO_TARGET_DIR`).
pub fn workspace_target() -> std::path::PathBuf {
    if let Ok(t) = std::env::var("CARGO_TARGET_DIR") {
        return t.into();
    }
    // engines/ sits one level below the workspace root.
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace root")
        .join("target")
}

/// The stack a thread that builds or simulates the large blocks needs:
/// rust-hdl builds a block's struct on the stack, and the CC module's is
/// larger than a main thread's 8 MiB (`.cargo/config.toml` raises
/// `RUST_MIN_STACK` to the same for test threads).
pub const LARGE_STACK: usize = 256 << 20;

/// Run `f` on a thread of [`LARGE_STACK`] and return what it returns (the
/// binaries' `main`s: `hpccnic`, `nic-bench`). A panic in `f` is resumed.
pub fn on_large_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    match std::thread::Builder::new()
        .stack_size(LARGE_STACK)
        .spawn(f)
        .expect("spawn a thread with a large stack")
        .join()
    {
        Ok(v) => v,
        Err(e) => std::panic::resume_unwind(e),
    }
}

pub mod blocks;
pub mod figures;
