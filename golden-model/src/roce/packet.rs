//! The RoCEv2 frame as a value: [`Packet`], its [`Packet::encode`] to the
//! bytes on the wire and [`decode`] back, with the receive checks of
//! `docs/roce.md` §7 in their order of reason ([`Drop`]).
//!
//! This is the transaction-level golden model of the wire format (§1–§3):
//! no cycles, one frame in or out. Ethernet II, IPv4 and UDP are built and
//! sliced with `etherparse` (which also computes the IPv4 header checksum);
//! the ICRC is `crc32fast`'s CRC-32 (the same function as the RTL twin
//! [`crate::roce::crc32`], checked by a unit test) over the masked
//! pseudo-packet of §3, with the telemetry area masked as well (§2).
//!
//! Frames here never include the Ethernet FCS (the MAC adds and checks it;
//! `decode` takes the MAC's verdict as `bad_fcs`). Bytes after the IPv4
//! total length (Ethernet padding) are ignored by `decode`. `decode` never
//! panics, whatever the input.
//!
//! Checks of [`decode`] (the first failing one is the reason; decisions
//! where §7 leaves room are marked *decided*):
//! 1. [`Drop::BadFcs`]: the `bad_fcs` flag.
//! 2. [`Drop::Trunc`]: shorter than Ethernet + IPv4 + UDP + BTH
//!    (54 bytes), or shorter than 14 + the IPv4 total length (bytes 16–17,
//!    read whatever the EtherType: *decided*, so the check needs no state).
//! 3. [`Drop::BadEth`]: EtherType ≠ 0x0800.
//! 4. [`Drop::BadIp`]: first byte ≠ 0x45, MF set or fragment offset ≠ 0
//!    (DF is ignored), protocol ≠ 17, header checksum wrong.
//! 5. [`Drop::BadPort`]: UDP destination port ≠ 4791.
//! 6. [`Drop::BadOpcode`]: opcode not in §1's table, or TVer ≠ 0.
//! 7. [`Drop::BadLen`]: IPv4 total length < 20 + 8 + 12 + 4, UDP length ≠
//!    total length − 20, BTH..pad not a multiple of 4 bytes, fewer bytes than
//!    the opcode's RETH/AETH + TLM + PadCnt need, payload > 4096 bytes, or a
//!    payload on an opcode without payload (READ REQUEST, ACK, PROBE, NOTIFY).
//! 8. [`Drop::BadTlm`]: T = 1 with `ver` ≠ 1, `maxhop` ≠ 5 or `nhop` >
//!    `maxhop`; or T = 0 on PROBE / NOTIFY (*decided*: §1 says they always
//!    carry the area).
//! 9. [`Drop::BadIcrc`].
//!
//! Not checked (accepted as they come): SE, M, BTH reserved bits, the A
//! byte's reserved bits, the pad bytes' values, IP TTL/TOS/id, the IPv4
//! reserved flag bit, UDP checksum.

use etherparse::{
    EtherType, Ethernet2Header, IpDscp, IpEcn, IpNumber, Ipv4Header, Ipv4HeaderSlice, UdpHeader,
};

// The wire constants, the opcode table and the drop reasons are defined once
// in `nic-spec` (shared with the RTL); re-exported here so `packet::op` etc.
// read as before.
pub use nic_spec::roce::*;

/// RDMA extended transport header.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Reth {
    pub va: u64,
    pub rkey: u32,
    pub dlen: u32,
}

/// The 48-byte telemetry area (§2): the header word and 5 hop words, each as
/// a big-endian 64-bit number (the first byte on the wire is the most
/// significant), as on the Tx descriptor and the Rx metadata ports.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tlm {
    pub hdr: u64,
    pub hops: [u64; 5],
}

impl Tlm {
    /// The header a sender writes: ver 1, flags 0, nhop 0, maxhop 5, W 0.
    pub const FRESH_HDR: u64 = 0x1000_0500_0000_0000;
    /// The area a sender writes on data packets and probes.
    pub fn fresh() -> Self {
        Tlm {
            hdr: Self::FRESH_HDR,
            hops: [0; 5],
        }
    }
    /// Header fields built from their values.
    pub fn header(ver: u8, flags: u8, nhop: u8, maxhop: u8, w: u32) -> u64 {
        ((((ver & 0xF) << 4) | (flags & 0xF)) as u64) << 56
            | (nhop as u64) << 48
            | (maxhop as u64) << 40
            | w as u64
    }
    pub fn ver(&self) -> u8 {
        (self.hdr >> 60) as u8
    }
    pub fn flags(&self) -> u8 {
        ((self.hdr >> 56) & 0xF) as u8
    }
    pub fn nhop(&self) -> u8 {
        (self.hdr >> 48) as u8
    }
    pub fn maxhop(&self) -> u8 {
        (self.hdr >> 40) as u8
    }
    /// Receiver-computed window, UQ24.8 bytes (valid if flags bit 0).
    pub fn w(&self) -> u32 {
        self.hdr as u32
    }
    /// §2's sanity rule (`ver` 1, `maxhop` 5, `nhop` ≤ `maxhop`).
    pub fn is_sane(&self) -> bool {
        self.ver() == 1 && self.maxhop() == 5 && self.nhop() <= self.maxhop()
    }
    pub fn to_bytes(&self) -> [u8; TLM_LEN] {
        let mut b = [0u8; TLM_LEN];
        b[..8].copy_from_slice(&self.hdr.to_be_bytes());
        for (i, h) in self.hops.iter().enumerate() {
            b[8 + 8 * i..16 + 8 * i].copy_from_slice(&h.to_be_bytes());
        }
        b
    }
    /// From the first 48 bytes of `b` (`b.len()` ≥ 48).
    pub fn from_bytes(b: &[u8]) -> Self {
        let w = |o: usize| u64::from_be_bytes(b[o..o + 8].try_into().unwrap());
        Tlm {
            hdr: w(0),
            hops: [w(8), w(16), w(24), w(32), w(40)],
        }
    }
}

/// One RoCEv2 frame (§1), without FCS. The T bit is `tlm.is_some()`; PadCnt,
/// lengths and checksums are computed by [`Packet::encode`]. IPv4 flags are
/// always sent as DF, fragment offset 0.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Packet {
    pub dmac: [u8; 6],
    pub smac: [u8; 6],
    /// DSCP << 2 | ECN.
    pub tos: u8,
    pub ip_id: u16,
    pub ttl: u8,
    pub sip: [u8; 4],
    pub dip: [u8; 4],
    pub sport: u16,
    /// UDP destination port (4791 for RoCEv2).
    pub dport: u16,
    pub opcode: u8,
    /// BTH solicited event and migration request bits.
    pub se: bool,
    pub mig: bool,
    /// BTH byte 4 bit 6, BECN: set in a CNP (as the RoCEv2 annex and
    /// scapy's `cnp()` send it); 0 in every other frame of this NIC.
    pub becn: bool,
    pub pkey: u16,
    /// Destination QP (24 bits).
    pub dqp: u32,
    /// BTH A bit.
    pub ackreq: bool,
    /// PSN (24 bits).
    pub psn: u32,
    pub reth: Option<Reth>,
    /// AETH word: syndrome << 24 | MSN.
    pub aeth: Option<u32>,
    pub tlm: Option<Tlm>,
    pub payload: Vec<u8>,
}

impl Default for Packet {
    fn default() -> Self {
        Packet {
            dmac: [0x02, 0, 0, 0, 0, 2],
            smac: [0x02, 0, 0, 0, 0, 1],
            tos: 0x02,
            ip_id: 0,
            ttl: 64,
            sip: [10, 0, 0, 1],
            dip: [10, 0, 0, 2],
            sport: 0xC000,
            dport: ROCE_PORT,
            opcode: op::ACK,
            se: false,
            mig: false,
            becn: false,
            pkey: 0xFFFF,
            dqp: 0,
            ackreq: false,
            psn: 0,
            reth: None,
            aeth: None,
            tlm: None,
            payload: Vec::new(),
        }
    }
}

impl Packet {
    /// T bit.
    pub fn t(&self) -> bool {
        self.tlm.is_some()
    }

    /// Bytes of the frame `encode` produces.
    pub fn frame_len(&self) -> usize {
        BTH_OFF
            + BTH_LEN
            + self.ext_len()
            + self.payload.len()
            + pad_count(self.payload.len())
            + ICRC_LEN
    }

    fn ext_len(&self) -> usize {
        self.reth.map_or(0, |_| RETH_LEN)
            + self.aeth.map_or(0, |_| AETH_LEN)
            + self.tlm.map_or(0, |_| TLM_LEN)
    }

    /// The frame on the wire, ICRC included (no FCS). Headers are written as
    /// present in `self` (RETH, AETH, TLM in that order), whatever the
    /// opcode: tests build malformed frames this way. Lengths wrap at 16 bits
    /// if the payload is absurdly large (no panic).
    pub fn encode(&self) -> Vec<u8> {
        let pad = pad_count(self.payload.len());
        let udp_len = UDP_LEN + BTH_LEN + self.ext_len() + self.payload.len() + pad + ICRC_LEN;
        let mut f = Vec::with_capacity(ETH_LEN + IP_LEN + udp_len);
        Ethernet2Header {
            source: self.smac,
            destination: self.dmac,
            ether_type: EtherType::IPV4,
        }
        .write(&mut f)
        .expect("write to a Vec");
        let mut ip = Ipv4Header {
            dscp: IpDscp::try_new(self.tos >> 2).expect("6 bits"),
            ecn: IpEcn::try_new(self.tos & 3).expect("2 bits"),
            total_len: (IP_LEN + udp_len) as u16,
            identification: self.ip_id,
            dont_fragment: true,
            more_fragments: false,
            fragment_offset: Default::default(),
            time_to_live: self.ttl,
            protocol: IpNumber::UDP,
            header_checksum: 0,
            source: self.sip,
            destination: self.dip,
            options: Default::default(),
        };
        ip.header_checksum = ip.calc_header_checksum();
        ip.write(&mut f).expect("write to a Vec");
        UdpHeader {
            source_port: self.sport,
            destination_port: self.dport,
            length: udp_len as u16,
            checksum: 0,
        }
        .write(&mut f)
        .expect("write to a Vec");
        // BTH
        f.push(self.opcode);
        f.push((self.se as u8) << 7 | (self.mig as u8) << 6 | (pad as u8) << 4);
        f.extend_from_slice(&self.pkey.to_be_bytes());
        f.push(self.t() as u8 | (self.becn as u8) << 6);
        f.extend_from_slice(&(self.dqp & 0xFF_FFFF).to_be_bytes()[1..]);
        f.push((self.ackreq as u8) << 7);
        f.extend_from_slice(&(self.psn & 0xFF_FFFF).to_be_bytes()[1..]);
        if let Some(r) = self.reth {
            f.extend_from_slice(&r.va.to_be_bytes());
            f.extend_from_slice(&r.rkey.to_be_bytes());
            f.extend_from_slice(&r.dlen.to_be_bytes());
        }
        if let Some(a) = self.aeth {
            f.extend_from_slice(&a.to_be_bytes());
        }
        if let Some(t) = self.tlm {
            f.extend_from_slice(&t.to_bytes());
        }
        f.extend_from_slice(&self.payload);
        f.extend(std::iter::repeat(0u8).take(pad));
        let crc = icrc_of(
            &f[IP_OFF..],
            self.tlm
                .map(|_| BTH_OFF + BTH_LEN + self.ext_len() - TLM_LEN - IP_OFF),
        );
        f.extend_from_slice(&crc.to_le_bytes());
        f
    }
}

/// CRC-32 of the masked pseudo-packet (§3): 8 bytes of 0xFF, then `ip`
/// (from the IPv4 header to the byte before the ICRC) with TOS, TTL, IP
/// checksum, UDP checksum, BTH byte 4 and, if `tlm_off` (offset in `ip`),
/// the 48-byte telemetry area set to all ones. Masks past the end of `ip`
/// are ignored.
fn icrc_of(ip: &[u8], tlm_off: Option<usize>) -> u32 {
    let mut m = ip.to_vec();
    let bth = UDP_LEN + IP_LEN;
    for i in [1, 8, 10, 11, IP_LEN + 6, IP_LEN + 7, bth + 4] {
        if let Some(b) = m.get_mut(i) {
            *b = 0xFF;
        }
    }
    if let Some(o) = tlm_off {
        let end = o.saturating_add(TLM_LEN).min(m.len());
        if o < end {
            m[o..end].fill(0xFF);
        }
    }
    let mut h = crc32fast::Hasher::new();
    h.update(&[0xFF; 8]);
    h.update(&m);
    h.finalize()
}

/// The ICRC of a whole frame (the 4 ICRC bytes at its end included, as on
/// the wire, FCS excluded): computed over the bytes from the IPv4 header up
/// to the last 4 bytes of the IPv4 packet (14 + total length if the frame
/// holds that many, else the frame's end), masked as §3, the TLM area
/// masked if the T bit is set and the opcode is known. Its little-endian
/// bytes are what the frame should end with. Never panics.
pub fn icrc(frame: &[u8]) -> u32 {
    let total = frame
        .get(IP_OFF + 2..IP_OFF + 4)
        .map(|b| u16::from_be_bytes([b[0], b[1]]) as usize)
        .filter(|&t| IP_OFF + t <= frame.len() && t >= ICRC_LEN)
        .map_or(frame.len(), |t| IP_OFF + t);
    let end = total.saturating_sub(ICRC_LEN).max(IP_OFF.min(frame.len()));
    let ip = &frame[IP_OFF.min(frame.len())..end];
    icrc_of(ip, tlm_offset(frame).map(|o| o - IP_OFF))
}

/// Where `frame`'s telemetry area starts (from the frame's first byte),
/// if the T bit is set and the opcode is known (`docs/roce.md` §2: after
/// BTH, RETH and AETH). The frame may be shorter than the area; callers
/// that write it check the length. Never panics.
pub fn tlm_offset(frame: &[u8]) -> Option<usize> {
    match (frame.get(BTH_OFF), frame.get(BTH_OFF + 4)) {
        (Some(&opc), Some(&b4)) if b4 & 1 == 1 && known_opcode(opc) => Some(
            BTH_OFF
                + BTH_LEN
                + if has_reth(opc) { RETH_LEN } else { 0 }
                + if has_aeth(opc) { AETH_LEN } else { 0 },
        ),
        _ => None,
    }
}

/// The IPv4 header checksum of the header bytes as they are (the
/// one's-complement sum of its 16-bit words is 0xFFFF). Not through
/// etherparse's header, which drops the reserved flag bit and so would
/// reject a header that carries it with a right checksum (found by
/// `rx-fuzz`).
fn ipv4_checksum_ok(h: &[u8]) -> bool {
    let mut s: u32 = h
        .chunks(2)
        .map(|w| u16::from_be_bytes([w[0], *w.get(1).unwrap_or(&0)]) as u32)
        .sum();
    while s > 0xFFFF {
        s = (s & 0xFFFF) + (s >> 16);
    }
    s == 0xFFFF
}

/// Parse and check one frame (FCS excluded; `bad_fcs` is the MAC's verdict).
/// See the module doc for the checks. Never panics.
pub fn decode(frame: &[u8], bad_fcs: bool) -> Result<Packet, Drop> {
    if bad_fcs {
        return Err(Drop::BadFcs);
    }
    // Shorter than its headers up to the BTH (54 bytes), as the RTL
    // parser counts it: a frame that holds what its IPv4 total length
    // says but is too short for an ICRC is `bad_len` (found by
    // `rx-fuzz`).
    if frame.len() < BTH_OFF + BTH_LEN {
        return Err(Drop::Trunc);
    }
    let total = u16::from_be_bytes([frame[IP_OFF + 2], frame[IP_OFF + 3]]) as usize;
    if frame.len() < IP_OFF + total {
        return Err(Drop::Trunc);
    }
    let eth = Ethernet2Header::from_bytes(frame[..ETH_LEN].try_into().unwrap());
    if eth.ether_type != EtherType::IPV4 {
        return Err(Drop::BadEth);
    }
    // Only 20 bytes given: IHL > 5 fails as well as version ≠ 4, IHL < 5.
    let ip = Ipv4HeaderSlice::from_slice(&frame[IP_OFF..UDP_OFF]).map_err(|_| Drop::BadIp)?;
    if ip.ihl() != 5
        || ip.more_fragments()
        || ip.fragments_offset().value() != 0
        || ip.protocol() != IpNumber::UDP
        || !ipv4_checksum_ok(&frame[IP_OFF..UDP_OFF])
    {
        return Err(Drop::BadIp);
    }
    let udp = UdpHeader::from_bytes(frame[UDP_OFF..BTH_OFF].try_into().unwrap());
    if udp.destination_port != ROCE_PORT {
        return Err(Drop::BadPort);
    }
    let bth = &frame[BTH_OFF..BTH_OFF + BTH_LEN];
    let opcode = bth[0];
    if !known_opcode(opcode) || bth[1] & 0xF != 0 {
        return Err(Drop::BadOpcode);
    }
    if total < IP_LEN + UDP_LEN + BTH_LEN + ICRC_LEN || udp.length as usize != total - IP_LEN {
        return Err(Drop::BadLen);
    }
    // Bytes between the BTH and the ICRC.
    let body_len = total - IP_LEN - UDP_LEN - BTH_LEN - ICRC_LEN;
    let t = bth[4] & 1 == 1;
    let pad = ((bth[1] >> 4) & 3) as usize;
    let reth_len = if has_reth(opcode) { RETH_LEN } else { 0 };
    let aeth_len = if has_aeth(opcode) { AETH_LEN } else { 0 };
    let tlm_len = if t { TLM_LEN } else { 0 };
    let hdrs = reth_len + aeth_len + tlm_len;
    if (BTH_LEN + body_len) % 4 != 0 || body_len < hdrs + pad {
        return Err(Drop::BadLen);
    }
    let n = body_len - hdrs - pad;
    if n > MAX_PAYLOAD || (n > 0 && !carries_payload(opcode)) {
        return Err(Drop::BadLen);
    }
    let body = &frame[BTH_OFF + BTH_LEN..BTH_OFF + BTH_LEN + body_len];
    let tlm_off = reth_len + aeth_len;
    let tlm = t.then(|| Tlm::from_bytes(&body[tlm_off..tlm_off + TLM_LEN]));
    if let Some(tl) = tlm {
        if !tl.is_sane() {
            return Err(Drop::BadTlm);
        }
    } else if nic_spec::roce::is_hpcc(opcode) {
        return Err(Drop::BadTlm);
    }
    let end = IP_OFF + total;
    let got = u32::from_le_bytes(frame[end - ICRC_LEN..end].try_into().unwrap());
    let want = icrc_of(
        &frame[IP_OFF..end - ICRC_LEN],
        t.then_some(BTH_OFF + BTH_LEN + tlm_off - IP_OFF),
    );
    if got != want {
        return Err(Drop::BadIcrc);
    }
    let be32 = |b: &[u8]| u32::from_be_bytes(b[..4].try_into().unwrap());
    let reth = (reth_len > 0).then(|| Reth {
        va: u64::from_be_bytes(body[..8].try_into().unwrap()),
        rkey: be32(&body[8..]),
        dlen: be32(&body[12..]),
    });
    let aeth = (aeth_len > 0).then(|| be32(&body[reth_len..]));
    let tos = (ip.dcp().value() << 2) | ip.ecn().value();
    Ok(Packet {
        dmac: eth.destination,
        smac: eth.source,
        tos,
        ip_id: ip.identification(),
        ttl: ip.ttl(),
        sip: ip.source(),
        dip: ip.destination(),
        sport: udp.source_port,
        dport: udp.destination_port,
        opcode,
        se: bth[1] & 0x80 != 0,
        mig: bth[1] & 0x40 != 0,
        becn: bth[4] & 0x40 != 0,
        pkey: u16::from_be_bytes([bth[2], bth[3]]),
        dqp: be32(&bth[4..]) & 0xFF_FFFF,
        ackreq: bth[8] & 0x80 != 0,
        psn: be32(&bth[8..]) & 0xFF_FFFF,
        reth,
        aeth,
        tlm,
        payload: body[hdrs..hdrs + n].to_vec(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A well-formed packet of any opcode.
    fn arb_packet() -> impl Strategy<Value = Packet> {
        (
            prop::sample::select(op::ALL.to_vec()),
            any::<[u8; 6]>(),
            any::<[u8; 6]>(),
            any::<u8>(),
            (
                any::<u16>(),
                any::<u8>(),
                any::<[u8; 4]>(),
                any::<[u8; 4]>(),
            ),
            (
                any::<u16>(),
                any::<u16>(),
                0u32..1 << 24,
                any::<bool>(),
                0u32..1 << 24,
            ),
            (any::<u64>(), any::<u32>(), any::<u32>(), any::<u32>()),
            (any::<bool>(), 0u8..=5, any::<u32>(), any::<[u64; 5]>()),
            prop_oneof![
                prop::collection::vec(any::<u8>(), 0..64),
                prop::collection::vec(any::<u8>(), 0..=MAX_PAYLOAD)
            ],
        )
            .prop_map(
                |(
                    opcode,
                    dmac,
                    smac,
                    tos,
                    (id, ttl, sip, dip),
                    (sport, pkey, dqp, a, psn),
                    (va, rkey, dlen, aeth),
                    (t, nhop, w, hops),
                    pay,
                )| {
                    let t = t || nic_spec::roce::is_hpcc(opcode);
                    Packet {
                        dmac,
                        smac,
                        tos,
                        ip_id: id,
                        ttl,
                        sip,
                        dip,
                        sport,
                        dport: ROCE_PORT,
                        opcode,
                        se: false,
                        mig: false,
                        becn: false,
                        pkey,
                        dqp,
                        ackreq: a,
                        psn,
                        reth: has_reth(opcode).then_some(Reth { va, rkey, dlen }),
                        aeth: has_aeth(opcode).then_some(aeth),
                        tlm: t.then_some(Tlm {
                            hdr: Tlm::header(1, w as u8 & 1, nhop, 5, w),
                            hops,
                        }),
                        payload: if carries_payload(opcode) { pay } else { vec![] },
                    }
                },
            )
    }

    /// Recompute the IPv4 header checksum after an edit of the IP header.
    fn fix_ip_csum(f: &mut [u8]) {
        // RFC 1071, independently of etherparse.
        f[IP_OFF + 10] = 0;
        f[IP_OFF + 11] = 0;
        let mut sum: u32 = f[IP_OFF..UDP_OFF]
            .chunks(2)
            .map(|w| u16::from_be_bytes([w[0], w[1]]) as u32)
            .sum();
        while sum > 0xFFFF {
            sum = (sum & 0xFFFF) + (sum >> 16);
        }
        f[IP_OFF + 10..IP_OFF + 12].copy_from_slice(&(!(sum as u16)).to_be_bytes());
    }

    /// Recompute the ICRC after an edit.
    fn fix_icrc(f: &mut [u8]) {
        let c = icrc(f);
        let n = f.len();
        f[n - 4..].copy_from_slice(&c.to_le_bytes());
    }

    fn sample() -> Packet {
        Packet {
            opcode: op::WRITE_FIRST,
            psn: 0xFF_FFFE,
            ackreq: true,
            reth: Some(Reth {
                va: 0x1000,
                rkey: 7,
                dlen: 3000,
            }),
            tlm: Some(Tlm::fresh()),
            payload: (0..1021u32).map(|i| i as u8).collect(),
            ..Default::default()
        }
    }

    #[test]
    fn crc32fast_agrees_with_the_rtl_twin() {
        let mut x = 0x1234_5678_9ABC_DEFu64;
        for len in 0..300usize {
            let bytes: Vec<u8> = (0..len)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    x as u8
                })
                .collect();
            assert_eq!(crc32fast::hash(&bytes), crate::roce::crc32::crc32(&bytes));
            // Eight bytes a step, as the RTL does.
            let mut c = crate::roce::crc32::INIT;
            for ch in bytes.chunks(8) {
                let mut w = [0u8; 8];
                w[..ch.len()].copy_from_slice(ch);
                c = crate::roce::crc32::step(c, u64::from_le_bytes(w), ch.len() as u32);
            }
            assert_eq!(!c, crc32fast::hash(&bytes));
        }
    }

    #[test]
    fn layout_of_a_write_first() {
        let p = sample();
        let f = p.encode();
        assert_eq!(f.len(), p.frame_len());
        assert_eq!(f.len(), 14 + 20 + 8 + 12 + 16 + 48 + 1021 + 3 + 4);
        assert_eq!(&f[12..14], &[0x08, 0x00]);
        assert_eq!(f[14], 0x45);
        assert_eq!(&f[20..22], &[0x40, 0x00], "DF");
        assert_eq!(u16::from_be_bytes([f[16], f[17]]) as usize, f.len() - 14);
        assert_eq!(u16::from_be_bytes([f[38], f[39]]) as usize, f.len() - 34);
        assert_eq!(&f[36..38], &4791u16.to_be_bytes());
        assert_eq!(&f[40..42], &[0, 0], "UDP checksum 0");
        assert_eq!(f[42], 0x06);
        assert_eq!(f[43], 3 << 4, "PadCnt 3");
        assert_eq!(f[46], 1, "T");
        assert_eq!(f[50], 0x80, "A");
        assert_eq!(&f[51..54], &[0xFF, 0xFF, 0xFE]);
        assert_eq!(&f[70..78], &[0x10, 0, 5, 0, 0, 0, 0, 0]);
        assert_eq!(&f[f.len() - 7..f.len() - 4], &[0, 0, 0], "pad");
        assert_eq!(decode(&f, false), Ok(p));
    }

    #[test]
    fn icrc_of_a_known_frame() {
        // ICRC from an independent implementation (scapy's BTH.compute_icrc)
        // of: Ether()/IP(src=10.0.0.1, dst=10.0.0.2, flags=DF, ttl=64, tos=2)
        // /UDP(sport=0xC000, dport=4791, chksum=0)/BTH(opcode=0x11, pkey=0xFFFF,
        // dqpn=5, psn=9)/AETH(syndrome=0x1F, msn=3)
        let p = Packet {
            dqp: 5,
            psn: 9,
            aeth: Some(0x1F00_0003),
            ..Default::default()
        };
        let f = p.encode();
        assert_eq!(icrc(&f), SCAPY_ACK_ICRC);
        assert_eq!(&f[f.len() - 4..], &SCAPY_ACK_ICRC.to_le_bytes());
        // And the whole frame as scapy builds it.
        let hex: String = f.iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(hex, SCAPY_ACK_FRAME);
    }
    const SCAPY_ACK_FRAME: &str =
        "02000000000202000000000108004502003000004000401126b90a0000010a000002\
c00012b7001c00001100ffff00000005000000091f000003b71c6c22";
    /// See `icrc_of_a_known_frame`.
    const SCAPY_ACK_ICRC: u32 = 0x226C_1CB7;

    #[test]
    fn telemetry_and_mutable_fields_are_outside_the_icrc() {
        let mut f = sample().encode();
        // A switch writes hop 0, increments nhop, decrements TTL, fixes the
        // IP checksum: the frame still decodes, with the new telemetry.
        f[14 + 8] -= 1;
        fix_ip_csum(&mut f);
        f[71] = 1;
        f[78..86].copy_from_slice(&0x0123_4567_89AB_CDEFu64.to_be_bytes());
        let p = decode(&f, false).unwrap();
        assert_eq!(p.ttl, 63);
        assert_eq!(p.tlm.unwrap().nhop(), 1);
        assert_eq!(p.tlm.unwrap().hops[0], 0x0123_4567_89AB_CDEF);
        // ECN marked (TOS) as well.
        f[15] |= 3;
        fix_ip_csum(&mut f);
        assert_eq!(decode(&f, false).unwrap().tos & 3, 3);
    }

    #[test]
    fn each_reason_from_its_mutation() {
        let good = sample().encode();
        let ack = Packet {
            aeth: Some(0x1F00_0000),
            ..Default::default()
        }
        .encode();
        let probe = Packet {
            opcode: op::PROBE,
            tlm: Some(Tlm::fresh()),
            ..Default::default()
        }
        .encode();
        let cases: Vec<(Drop, Vec<u8>, bool)> = vec![
            (Drop::BadFcs, good.clone(), true),
            (Drop::Trunc, good[..good.len() - 1].to_vec(), false),
            (Drop::Trunc, good[..MIN_FRAME - 1].to_vec(), false),
            (
                Drop::BadEth,
                {
                    let mut f = good.clone();
                    f[12] = 0x86;
                    f[13] = 0xDD;
                    f
                },
                false,
            ),
            (
                Drop::BadIp,
                {
                    let mut f = good.clone();
                    f[14] = 0x46;
                    fix_ip_csum(&mut f);
                    f
                },
                false,
            ),
            (
                Drop::BadIp,
                {
                    let mut f = good.clone();
                    f[14] = 0x65;
                    fix_ip_csum(&mut f);
                    f
                },
                false,
            ),
            (
                Drop::BadIp,
                {
                    let mut f = good.clone();
                    f[20] |= 0x20;
                    fix_ip_csum(&mut f);
                    f
                },
                false,
            ),
            (
                Drop::BadIp,
                {
                    let mut f = good.clone();
                    f[21] = 1;
                    fix_ip_csum(&mut f);
                    f
                },
                false,
            ),
            (
                Drop::BadIp,
                {
                    let mut f = good.clone();
                    f[23] = 6;
                    fix_ip_csum(&mut f);
                    f
                },
                false,
            ),
            (
                Drop::BadIp,
                {
                    let mut f = good.clone();
                    f[25] ^= 1;
                    f
                },
                false,
            ),
            (
                Drop::BadPort,
                {
                    let mut f = good.clone();
                    f[37] ^= 1;
                    fix_icrc(&mut f);
                    f
                },
                false,
            ),
            (
                Drop::BadOpcode,
                {
                    let mut f = good.clone();
                    f[42] = 0x04;
                    fix_icrc(&mut f);
                    f
                },
                false,
            ),
            (
                Drop::BadOpcode,
                {
                    let mut f = good.clone();
                    f[43] |= 1;
                    fix_icrc(&mut f);
                    f
                },
                false,
            ),
            (
                Drop::BadLen,
                {
                    let mut f = good.clone();
                    f[39] ^= 4;
                    fix_icrc(&mut f);
                    f
                },
                false,
            ),
            (
                // (Another PadCnt on a frame with payload is not detectable but by the ICRC.)
                Drop::BadLen,
                {
                    let mut f = ack.clone();
                    f[43] |= 0x30; // PadCnt 3 but only the AETH after the BTH
                    fix_icrc(&mut f);
                    f
                },
                false,
            ),
            // ACK with T set but no room for the area.
            (
                Drop::BadLen,
                {
                    let mut f = ack.clone();
                    f[46] = 1;
                    fix_icrc(&mut f);
                    f
                },
                false,
            ),
            // ACK with a payload.
            (
                Drop::BadLen,
                {
                    let mut p = decode(&ack, false).unwrap();
                    p.payload = vec![1, 2, 3, 4];
                    p.encode()
                },
                false,
            ),
            // Four more bytes (the IP and UDP lengths say so): not a multiple of 4 would be bad_len too.
            (
                Drop::BadLen,
                {
                    let mut f = ack.clone();
                    f.truncate(f.len() - 4);
                    f.extend_from_slice(&[0, 0]);
                    for (o, d) in [(16usize, 2i32), (38, 2)] {
                        let v = u16::from_be_bytes([f[o], f[o + 1]]) as i32 + d;
                        f[o..o + 2].copy_from_slice(&(v as u16).to_be_bytes());
                    }
                    fix_ip_csum(&mut f);
                    f.extend_from_slice(&[0; 4]);
                    fix_icrc(&mut f);
                    f
                },
                false,
            ),
            (
                Drop::BadTlm,
                {
                    let mut f = good.clone();
                    f[71] = 6;
                    f
                },
                false,
            ),
            (
                Drop::BadTlm,
                {
                    let mut f = good.clone();
                    f[72] = 4;
                    f
                },
                false,
            ),
            (
                Drop::BadTlm,
                {
                    let mut f = good.clone();
                    f[70] = 0x20;
                    f
                },
                false,
            ),
            (
                Drop::BadTlm,
                {
                    let mut f = probe.clone();
                    f[46] = 0;
                    f.drain(54..102);
                    fix_len(&mut f);
                    f
                },
                false,
            ),
            (
                Drop::BadIcrc,
                {
                    let mut f = good.clone();
                    f[200] ^= 0x40;
                    f
                },
                false,
            ),
            (
                Drop::BadIcrc,
                {
                    let mut f = good.clone();
                    let n = f.len();
                    f[n - 1] ^= 1;
                    f
                },
                false,
            ),
            // The pad is covered.
            (
                Drop::BadIcrc,
                {
                    let mut f = good.clone();
                    let n = f.len();
                    f[n - 5] = 1;
                    f
                },
                false,
            ),
        ];
        for (i, (want, f, fcs)) in cases.into_iter().enumerate() {
            assert_eq!(decode(&f, fcs), Err(want), "case {i}");
        }
        // Ethernet padding after the IPv4 packet is ignored.
        let mut f = ack.clone();
        f.extend_from_slice(&[0xAB; 10]);
        assert!(decode(&f, false).is_ok());
        assert!(decode(&probe, false).is_ok());
    }

    /// Fix IP/UDP lengths and checksums after removing bytes of the body.
    fn fix_len(f: &mut [u8]) {
        let total = (f.len() - 14) as u16;
        f[16..18].copy_from_slice(&total.to_be_bytes());
        f[38..40].copy_from_slice(&(total - 20).to_be_bytes());
        fix_ip_csum(f);
        fix_icrc(f);
    }

    #[test]
    fn helpers() {
        assert_eq!(psn_span(op::READ_REQ, 0, 256), 1);
        assert_eq!(psn_span(op::READ_REQ, 256, 256), 1);
        assert_eq!(psn_span(op::READ_REQ, 257, 256), 2);
        assert_eq!(psn_span(op::READ_REQ, u32::MAX, 256), 1 << 24);
        assert_eq!(psn_span(op::ACK, 5, 256), 0);
        assert_eq!(psn_span(op::PROBE, 5, 256), 0);
        assert_eq!(psn_span(op::WRITE_MIDDLE, 5, 256), 1);
        assert_eq!(Tlm::fresh().to_bytes()[..8], [0x10, 0, 5, 0, 0, 0, 0, 0]);
        assert!(Tlm::fresh().is_sane());
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]

        #[test]
        fn good_frames_round_trip(p in arb_packet()) {
            let f = p.encode();
            prop_assert_eq!(f.len(), p.frame_len());
            prop_assert_eq!((f.len() - BTH_OFF - 4) % 4, 0);
            let q = decode(&f, false);
            prop_assert_eq!(q.as_ref(), Ok(&p));
            prop_assert_eq!(q.unwrap().encode(), f.clone());
            prop_assert_eq!(&icrc(&f).to_le_bytes()[..], &f[f.len() - 4..]);
        }

        #[test]
        fn random_bytes_never_panic(f in prop::collection::vec(any::<u8>(), 0..200), fcs in any::<bool>()) {
            let _ = decode(&f, fcs);
            let _ = icrc(&f);
        }

        #[test]
        fn mutated_frames_never_panic(
            p in arb_packet(),
            edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..8),
            cut in any::<prop::sample::Index>(),
            how in 0..3u8,
        ) {
            let mut f = p.encode();
            for (i, v) in &edits {
                let k = i.index(f.len());
                f[k] = *v;
            }
            match how {
                0 => f.truncate(cut.index(f.len() + 1)),
                1 => f.extend(std::iter::repeat(0x5A).take(cut.index(64))),
                _ => {}
            }
            let r = decode(&f, false);
            let _ = icrc(&f);
            // Whatever still decodes obeys the limits the checks promise.
            if let Ok(q) = r {
                prop_assert!(q.payload.len() <= MAX_PAYLOAD);
                prop_assert!(q.tlm.map_or(true, |t| t.is_sane()));
            }
        }
    }
}
