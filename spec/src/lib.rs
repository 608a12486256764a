//! One source of truth for what the RTL, the golden models, the
//! environment and the docs must agree on: wire constants, opcodes and
//! their classes, and drop reasons.
//!
//! No dependencies, no logic beyond `const fn` tables, so every crate of
//! the workspace (`nic-hdl` included) can use it.

pub mod board;
pub mod cnm;
pub mod dcqcn;
pub mod hostif;
pub mod mac;
pub mod mr;
pub mod records;
pub mod regs;
pub mod roce;
pub mod sched;
pub mod uart;
