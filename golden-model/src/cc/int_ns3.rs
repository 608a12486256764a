//! Twin of `hdl/src/cc/int_ns3.rs`: the compact per-hop telemetry format
//! of the public ns-3 HPCC simulator, 8 bytes a hop.
//!
//! One hop is a 64-bit word (the bit positions of ns-3's `IntHop`
//! bit-field, most significant first on the wire):
//!
//! | bits | field | unit |
//! |---|---|---|
//! | 63..47 | qlen | egress queue bytes / (80 · multi), 17 bits |
//! | 46..27 | bytes | cumulative tx bytes / (128 · multi) mod 2^20 |
//! | 26..3 | ts | egress timestamp, ns mod 2^24 |
//! | 2..0 | rate | line-rate code (0 = 25G … 4 = 400G; 5–7 unknown) |
//!
//! [`HopFields::quantise`] fills a hop from absolute values exactly as a
//! switch does (truncating division, wrap of ts and bytes, saturation of
//! qlen at its maximum).

use crate::Cycle;

pub const TS_BITS: u32 = 24;
pub const BYTES_BITS: u32 = 20;
pub const QLEN_BITS: u32 = 17;
pub const QLEN_MAX: u32 = (1 << QLEN_BITS) - 1;
/// Rate codes 0..=4 are known.
pub const RATE_MAX_CODE: u8 = 4;

/// One hop's decoded fields.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HopFields {
    pub rate: u8,
    pub ts: u32,
    pub bytes: u32,
    pub qlen: u32,
}

impl HopFields {
    pub fn decode(w: u64) -> Self {
        Self {
            rate: (w & 7) as u8,
            ts: ((w >> 3) & ((1 << TS_BITS) - 1)) as u32,
            bytes: ((w >> 27) & ((1 << BYTES_BITS) - 1)) as u32,
            qlen: ((w >> 47) & ((1 << QLEN_BITS) - 1)) as u32,
        }
    }

    pub fn encode(&self) -> u64 {
        (self.rate as u64 & 7)
            | ((self.ts as u64 & ((1 << TS_BITS) - 1)) << 3)
            | ((self.bytes as u64 & ((1 << BYTES_BITS) - 1)) << 27)
            | ((self.qlen as u64 & ((1 << QLEN_BITS) - 1)) << 47)
    }

    /// What a switch writes for absolute values: `rate` is the code (an
    /// unknown rate may be passed as 5..7).
    pub fn quantise(rate: u8, ts_ns: u64, tx_bytes: u64, qlen_bytes: u64, multi: u32) -> Self {
        let multi = multi.max(1) as u64;
        Self {
            rate: rate & 7,
            ts: (ts_ns & ((1 << TS_BITS) - 1)) as u32,
            bytes: ((tx_bytes / (128 * multi)) & ((1 << BYTES_BITS) - 1)) as u32,
            qlen: (qlen_bytes / (80 * multi)).min(QLEN_MAX as u64) as u32,
        }
    }

    pub fn rate_ok(&self) -> bool {
        self.rate <= RATE_MAX_CODE
    }
}

/// Port structs of the RTL parser (combinational).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    pub word: u64,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub rate: u8,
    pub ts: u32,
    pub bytes: u32,
    pub qlen: u32,
    pub rate_ok: bool,
    pub qlen_max: bool,
}

#[derive(Default)]
pub struct Ns3HopParse;

impl Cycle for Ns3HopParse {
    type In = In;
    type Out = Out;
    fn step(&mut self, i: &In) -> Out {
        let h = HopFields::decode(i.word);
        Out {
            rate: h.rate,
            ts: h.ts,
            bytes: h.bytes,
            qlen: h.qlen,
            rate_ok: h.rate_ok(),
            qlen_max: h.qlen == QLEN_MAX,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roundtrip_and_quantise() {
        let h = HopFields {
            rate: 2,
            ts: 0xABCDEF,
            bytes: 0xFFFFF,
            qlen: 0x1FFFF,
        };
        assert_eq!(HopFields::decode(h.encode()), h);
        let q = HopFields::quantise(2, (1 << 24) + 5, 128 * 4 * 10 + 3, 80 * 4 * 1000000, 4);
        assert_eq!(q.ts, 5);
        assert_eq!(q.bytes, 10);
        assert_eq!(q.qlen, QLEN_MAX);
    }
}
