//! Co-simulation tests of every RTL block against its golden twin, on both
//! engines (rust-hdl's simulator and Verilator on the emitted Verilog).
//!
//! One test binary (rust-hdl links slowly); the tests mirror the source
//! tree: `arith/wide_mul.rs` tests `hdl/src/arith/wide_mul.rs`.

mod common;

mod arith;
mod board;
mod cc;
mod hostif;
mod mac;
mod mem;
mod nic;
mod record;
mod roce;
mod sched;
mod stream;
mod top;
mod uart;
mod verilog;
