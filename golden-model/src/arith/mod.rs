//! Golden twins of the fixed-point building blocks (`hdl/src/arith`).
//!
//! Each block takes `in_valid` with its operands and presents `out_valid`
//! with its result a fixed number of cycles later (initiation interval 1).
//! Result ports hold their pipeline contents whatever `valid` says, so the
//! twins model the data path even for invalid slots.

pub mod delay;
pub mod divider;
pub mod min_max;
pub mod normalize;
pub mod sat_add_sub;
pub mod wide_mul;
