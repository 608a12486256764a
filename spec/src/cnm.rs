//! IEEE 802.1Q congestion notification (802.1Qau, QCN) as this NIC reads
//! it: the Congestion Notification Message (CNM) a congestion point sends
//! back to the source of a sampled frame (`docs/roce.md` §11). The RTL
//! tap (`hdl/src/roce/cnm_rx.rs`), its twin and encoder
//! (`nic_golden::roce::cnm_rx`), the tests and the docs take the wire
//! constants from here.
//!
//! # EtherTypes
//! IEEE's EtherType registry has two numbers for congestion notification:
//! 0x22E7, "Congestion Notification Message (CNM) as defined in IEEE Std
//! 802.1Q", and 0x22E9, "Congestion Notification Tag (CN-TAG)". The CN-TAG
//! (0x22E9 and a 2-byte RPID, the reaction point's flow id) is what an
//! 802.1Qau end station puts in its *data* frames; a CNM copies the sampled
//! frame's VLAN tag and CN-TAG and then carries its own EtherType, 0x22E7,
//! and the CNM PDU. (Vendors' manuals agree, e.g. HPE FlexFabric's: "PDU
//! EtherType … 0x22E7", Linux's `ETH_P_CNM` is 0x22E7.) So a frame whose
//! type is 0x22E9 is a CN-tagged frame, and only the type after its tag
//! says whether it is a CNM: a CN-tagged RoCEv2 data frame (0x22E9, RPID,
//! 0x0800, …) is not one. The L3QCN draft's Figure 1 draws the CNM as the
//! CN-TAG followed directly by the payload; that is the tag copied from the
//! sampled frame, and the CNM EtherType (not drawn) follows it.
//!
//! # The frame (no FCS)
//! ```text
//! DA 6 | SA 6 | [0x88A8 S-TAG TCI 2] | [0x8100 C-TAG TCI 2] | [0x22E9 RPID 2] | 0x22E7 | PDU
//! PDU:  version 4 bits | reserved 6 bits | QntzFb 6 bits   (bytes 0..2)
//!       CPID 8 | cnmQOffset 2 | cnmQDelta 2 | Encapsulated priority 2
//!       Encapsulated DA 6 | Encapsulated MSDU length 2 | Encapsulated MSDU 0..=64
//! ```
//! Accepted tags, each optional, in this order only: one 802.1ad S-TAG,
//! one 802.1Q C-TAG, one CN-TAG. Anything else before 0x22E7 (another
//! order, a repeated tag, any other type) is not a CNM. The PDU therefore
//! starts at byte 14, 18, 22 or 26 ([`PDU_OFFSETS`]). Bytes after the
//! MSDU (Ethernet padding to 60 bytes) are ignored. Version 0 is the only
//! version; the reserved bits are ignored. cnmQOffset and cnmQDelta are
//! two's complement on the wire; the record carries their 16 bits as they
//! are.
//!
//! # The encapsulated MSDU
//! The first bytes of the sampled frame's MSDU, which (IEEE 802.1AC's
//! EtherType protocol discrimination) starts with the sampled frame's
//! EtherType, without its VLAN tag. For a RoCEv2 frame of this NIC that is
//! 0x0800, the IPv4 header (20 bytes), UDP (8) and the BTH: the
//! destination QP is MSDU bytes 35..38 ([`msdu`]). A CNM whose MSDU holds
//! those 38 bytes with EtherType 0x0800, IPv4 version/IHL 0x45, protocol 17
//! and UDP destination port 4791 names that QP (`CnmInfo.qp_valid`): the
//! CNM goes back to the sampled frame's source, so it is the *remote* QP of
//! one of our flows. A sampled frame carrying a CN-TAG of its own (this NIC
//! sends none) is not recognised as RoCEv2.

use crate::roce::{IP_LEN, UDP_LEN};

/// The CNM's EtherType.
pub const ETHERTYPE_CNM: u16 = 0x22E7;
/// The CN-TAG's EtherType (followed by the 2-byte RPID).
pub const ETHERTYPE_CN_TAG: u16 = 0x22E9;
/// 802.1Q customer VLAN tag (C-TAG).
pub const ETHERTYPE_C_TAG: u16 = 0x8100;
/// 802.1ad service VLAN tag (S-TAG).
pub const ETHERTYPE_S_TAG: u16 = 0x88A8;
/// IPv4, the sampled RoCEv2 frame's EtherType.
pub const ETHERTYPE_IPV4: u16 = 0x0800;

/// Offset of the first type field (after DA and SA).
pub const TYPE_OFF: usize = 12;
/// Bytes of a tag (its EtherType and 2 bytes).
pub const TAG_LEN: usize = 4;
/// At most this many tags before the CNM EtherType.
pub const MAX_TAGS: usize = 3;
/// Where the PDU starts, by the number of tags before 0x22E7.
pub const PDU_OFFSETS: [usize; MAX_TAGS + 1] = [14, 18, 22, 26];

/// The only CNM version.
pub const VERSION: u8 = 0;
/// The longest encapsulated MSDU.
pub const MAX_MSDU: usize = 64;
/// The shortest Ethernet frame without FCS (the encoder pads to it).
pub const ETH_MIN_FRAME: usize = 60;

/// Field offsets in the CNM PDU (from its first byte, after 0x22E7).
pub mod pdu {
    /// Version (bits 15..12), reserved (11..6), QntzFb (5..0), big-endian.
    pub const VER_QNTZ: usize = 0;
    pub const CPID: usize = 2;
    pub const QOFFSET: usize = 10;
    pub const QDELTA: usize = 12;
    pub const ENCAP_PRIO: usize = 14;
    pub const ENCAP_DA: usize = 16;
    pub const MSDU_LEN: usize = 22;
    pub const MSDU: usize = 24;
    /// Bytes before the MSDU.
    pub const FIXED_LEN: usize = MSDU;
}

/// Offsets in the encapsulated MSDU of a sampled RoCEv2 frame.
pub mod msdu {
    use super::{IP_LEN, UDP_LEN};
    /// The sampled frame's EtherType (0x0800).
    pub const ETHERTYPE: usize = 0;
    /// IPv4 version/IHL (0x45).
    pub const IP_VER_IHL: usize = 2;
    /// IPv4 protocol (17).
    pub const IP_PROTO: usize = IP_VER_IHL + 9;
    /// UDP destination port (4791).
    pub const UDP_DPORT: usize = IP_VER_IHL + IP_LEN + 2;
    /// The BTH.
    pub const BTH: usize = IP_VER_IHL + IP_LEN + UDP_LEN;
    /// The BTH's destination QP (3 bytes).
    pub const BTH_DQP: usize = BTH + 5;
    /// An MSDU at least this long can name the QP.
    pub const ROCE_MIN: usize = BTH_DQP + 3;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_are_consistent() {
        for (k, p) in PDU_OFFSETS.iter().enumerate() {
            assert_eq!(*p, TYPE_OFF + TAG_LEN * k + 2);
        }
        assert_eq!(pdu::FIXED_LEN, 24);
        assert_eq!(msdu::UDP_DPORT, 24);
        assert_eq!(msdu::BTH_DQP, 35);
        assert_eq!(msdu::ROCE_MIN, 38);
        assert!(msdu::ROCE_MIN <= MAX_MSDU);
    }
}
