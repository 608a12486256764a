//! The ICRC's CRC-32, eight bytes a step: twin of `hdl/src/roce/crc32.rs`.
//!
//! CRC-32 as in Ethernet's FCS and zlib: reflected, polynomial 0xEDB88320,
//! register starts at 0xFFFFFFFF, the result is its complement. [`step`] is
//! the RTL block's function (the running register, no final complement);
//! [`icrc`] is the RoCEv2 ICRC of a whole frame (`docs/roce.md` §3).

/// Reflected CRC-32 polynomial (IEEE 802.3).
pub const POLY: u32 = 0xEDB8_8320;
/// Register value before the first byte.
pub const INIT: u32 = 0xFFFF_FFFF;

/// One byte into the running register.
#[inline]
pub fn step_byte(mut crc: u32, b: u8) -> u32 {
    crc ^= b as u32;
    for _ in 0..8 {
        crc = if crc & 1 != 0 {
            (crc >> 1) ^ POLY
        } else {
            crc >> 1
        };
    }
    crc
}

/// Lanes `0..nbytes` of `data` (lane k = bits 8k+7..8k) into the running
/// register, lane 0 first; `nbytes` ≥ 8 means all eight, 0 returns `crc`.
pub fn step(mut crc: u32, data: u64, nbytes: u32) -> u32 {
    for k in 0..nbytes.min(8) {
        crc = step_byte(crc, (data >> (8 * k)) as u8);
    }
    crc
}

/// CRC-32 of `bytes` (register complemented at the end), as zlib's crc32.
pub fn crc32(bytes: &[u8]) -> u32 {
    !bytes.iter().fold(INIT, |c, &b| step_byte(c, b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn check_value() {
        // The CRC-32 catalogue's check value.
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
    }

    #[test]
    fn eight_byte_step_equals_byte_steps() {
        let d = 0x0123_4567_89AB_CDEFu64;
        for n in 0..=9u32 {
            let mut c = INIT;
            for k in 0..n.min(8) {
                c = step_byte(c, (d >> (8 * k)) as u8);
            }
            assert_eq!(step(INIT, d, n), c);
        }
    }
}

/// One cycle's inputs of the RTL block `Crc32x64`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    pub crc_in: u32,
    pub data: u64,
    pub nbytes: u8,
}

/// One cycle's outputs of the RTL block `Crc32x64`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub crc_out: u32,
}

/// Twin of `hdl/src/roce/crc32.rs` (combinational: `nbytes` 9..=15 act
/// as 8).
#[derive(Clone, Debug, Default)]
pub struct Crc32x64;

impl crate::Cycle for Crc32x64 {
    type In = In;
    type Out = Out;
    fn step(&mut self, i: &In) -> Out {
        Out {
            crc_out: step(i.crc_in, i.data, (i.nbytes & 0xF) as u32),
        }
    }
}
