//! HPCC++ congestion control: parameters, the telemetry format, the f64
//! reference (`hpcc_ref`, line for line with the draft's pseudocode) and
//! the bit-exact, cycle-exact twin of the RTL CC module (`hpcc`).

pub mod hpcc;
pub mod hpcc_ref;
pub mod int_ns3;
pub mod params;
