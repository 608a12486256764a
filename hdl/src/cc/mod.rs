//! Congestion control: the HPCC++ CC module and its telemetry parser.

pub mod hpcc;
pub mod int_ns3;

pub use hpcc::HpccCc;
pub use int_ns3::Ns3HopParse;
