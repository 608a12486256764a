//! RTL blocks of the HPCC++ SmartNIC, written in rust-hdl 0.46.
//!
//! Each block has a golden twin at the same path in `nic-golden` and a
//! co-simulation test at `testbench/tests/<area>/<block>.rs`. Inside
//! `#[hdl_gen]`, every binary operation is parenthesised: rust-hdl prints
//! operators without parentheses and Verilog's precedence differs from
//! Rust's.

// Parentheses around every binary operation are deliberate (see above).
#![allow(unused_parens)]

pub mod arith;
pub mod board;
pub mod cc;
pub mod hostif;
pub mod mac;
pub mod mem;
pub mod nic;
pub mod record;
pub mod roce;
pub mod sched;
pub mod stream;
pub mod top;
pub mod uart;
pub mod verilog;
