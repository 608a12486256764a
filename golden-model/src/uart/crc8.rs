//! Twin of `hdl/src/uart/crc8.rs`: one byte into a running CRC-8. It is
//! the `crc` crate's CRC-8/SMBUS, not the spec's loop the RTL's network
//! is emitted from, so the two are independent.

use crc::{Crc, CRC_8_SMBUS};

const CRC8: Crc<u8> = Crc::<u8>::new(&CRC_8_SMBUS);

/// The CRC-8 of `bytes` (CRC-8/SMBUS: x^8 + x^2 + x + 1, initial 0).
pub fn crc8(bytes: &[u8]) -> u8 {
    CRC8.checksum(bytes)
}

/// One byte into a running CRC-8 (`crc_out` of the RTL's `Crc8Step`).
pub fn step(crc: u8, byte: u8) -> u8 {
    // With initial value 0 and no reflection or final XOR, the register
    // after byte b from register c is the checksum of the one byte c ^ b.
    CRC8.checksum(&[crc ^ byte])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_crate_agrees_with_the_spec() {
        for c in 0..=255u8 {
            for b in [0u8, 1, 0x5A, 0x80, 0xFF] {
                assert_eq!(step(c, b), nic_spec::uart::crc8_byte(c, b));
            }
        }
        assert_eq!(crc8(b"123456789"), nic_spec::uart::crc8(b"123456789"));
    }
}
