//! Memories.

pub mod ram;

pub use ram::Ram;
