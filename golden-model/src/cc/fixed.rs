//! Integer helpers with the emitted Verilog's semantics, shared by the
//! CC module's arithmetic (`hpcc`, `measure_inflight`, `ewma`,
//! `compute_wind`, `rate`).

/// x ≫ sh as Verilog computes it for an 8-bit shift amount (0 from 64 on).
pub fn shr(x: u64, sh: u8) -> u64 {
    x.checked_shr(sh as u32).unwrap_or(0)
}

/// (x ≪ sh) mod 2^32, as Verilog computes it for an 8-bit shift amount.
pub fn shl32(x: u64, sh: u8) -> u64 {
    x.checked_shl(sh as u32).unwrap_or(0) & 0xFFFF_FFFF
}

/// x saturated to 32 bits.
pub fn sat32(x: u64) -> u32 {
    x.min(u32::MAX as u64) as u32
}
