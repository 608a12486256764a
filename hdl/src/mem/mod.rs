//! Memories.

pub mod fifo;
pub mod ram;

pub use fifo::Fifo;
pub use ram::{LutRam, Ram, RamBe};
