//! Twins of the memories (`hdl/src/mem`).

pub mod fifo;
pub mod ram;
