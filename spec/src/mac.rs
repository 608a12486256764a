//! Ethernet below the frame: the XGMII and GMII characters, the preamble,
//! the FCS residue, frame-length limits and the MAC control (pause / PFC)
//! constants (`docs/mac.md`).
//!
//! The MAC RTL (`hdl/src/mac/`), its twins, the cocotb peers' expectations
//! and the docs take these from here.

/// XGMII control characters (`rxc`/`txc` bit set for the lane).
pub mod xgmii {
    /// Idle, `/I/`.
    pub const IDLE: u8 = 0x07;
    /// Start, `/S/`: lane 0 (or lane 4 on a 64-bit interface).
    pub const START: u8 = 0xFB;
    /// Terminate, `/T/`: the lane after the last FCS byte.
    pub const TERM: u8 = 0xFD;
    /// Error, `/E/`.
    pub const ERROR: u8 = 0xFE;
    /// An idle 64-bit word: `/I/` in every lane.
    pub const IDLE_WORD: u64 = 0x0707_0707_0707_0707;
    /// The first 64-bit word of a frame: `/S/`, six preamble bytes, the SFD
    /// (lane 0 in bits 7..0); control in lane 0 only.
    pub const PREAMBLE_WORD: u64 = 0xD555_5555_5555_55FB;
    pub const PREAMBLE_CTRL: u8 = 0x01;
}

/// A preamble byte and the start frame delimiter, as on GMII.
pub const PREAMBLE_BYTE: u8 = 0x55;
pub const SFD: u8 = 0xD5;
/// Preamble and SFD bytes before the destination address.
pub const PREAMBLE_LEN: usize = 8;
/// FCS length; the running CRC-32 register (reflected, preset to all
/// ones, not complemented) over a frame and its FCS ends at
/// [`FCS_RESIDUE`] exactly when the FCS is right.
pub const FCS_LEN: usize = 4;
pub const FCS_RESIDUE: u32 = 0xDEBB_20E3;
/// The shortest frame on the wire, FCS included; the transmitter pads
/// shorter ones with zeros to [`MIN_FRAME`] − [`FCS_LEN`] bytes, and the
/// receiver counts shorter ones as runts.
pub const MIN_FRAME: usize = 64;
/// The longest frame the receiver takes, FCS included: a VLAN-tagged
/// 1518-byte frame (`mac_10g`, `mac_1g`), and the jumbo limit
/// (`mac_10g_jumbo`): 9000 bytes of payload with Ethernet and VLAN
/// headers and the FCS.
pub const MAX_FRAME: usize = 1522;
pub const MAX_FRAME_JUMBO: usize = 9022;

/// log2 words of `hpcc_nic_10g`'s store-and-forward transmit FIFO
/// (between the core and the MAC): 512 words (4 KiB), room for three
/// frames of the largest MTU (1024 bytes of payload, ~100 of headers).
pub const NIC_10G_TX_FIFO_A: usize = 9;
/// Nominal inter-packet gap in bytes (T and idles included); the 10G
/// transmitter keeps its average with a deficit idle count of at most
/// [`DIC_MAX`] deleted idles.
pub const IFG: usize = 12;
pub const DIC_MAX: usize = 3;

/// Bytes a frame of `len` bytes (from the destination address, FCS not
/// included: what the NIC core sends) takes on the wire: padded to
/// [`MIN_FRAME`] with its FCS, plus preamble, SFD and the inter-packet
/// gap. The network simulator serialises every frame at this size.
pub const fn wire_bytes(len: usize) -> usize {
    let framed = if len + FCS_LEN > MIN_FRAME {
        len + FCS_LEN
    } else {
        MIN_FRAME
    };
    framed + PREAMBLE_LEN + IFG
}

/// MAC control frames (802.3 annex 31B, 802.1Qbb).
pub mod ctl {
    /// Destination of pause and PFC frames.
    pub const DST: u64 = 0x0180_C200_0001;
    /// EtherType of MAC control frames.
    pub const ETHERTYPE: u16 = 0x8808;
    /// 802.3x PAUSE: one 16-bit quanta at frame bytes 16–17.
    pub const OP_PAUSE: u16 = 0x0001;
    /// 802.1Qbb PFC: a class-enable vector at bytes 16–17 (priority i is
    /// bit i of byte 17), then eight 16-bit times at bytes 18 + 2i.
    pub const OP_PFC: u16 = 0x0101;
    /// A quantum is 512 bit times: 8 cycles of a 64-bit word at 10G, 64
    /// cycles of a byte at 1G.
    pub const QUANTUM_BITS: usize = 512;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wire_bytes_pads_and_adds_the_overhead() {
        // A 58-byte ACK pads to 64 with its FCS: 84 on the wire.
        assert_eq!(wire_bytes(58), 84);
        // 1100 bytes + FCS + preamble/SFD + gap.
        assert_eq!(wire_bytes(1100), 1124);
        assert_eq!(wire_bytes(60), 84);
        assert_eq!(wire_bytes(61), 85);
    }
}
