//! Twins of the memories (`hdl/src/mem`).

pub mod ram;
pub mod fifo;
