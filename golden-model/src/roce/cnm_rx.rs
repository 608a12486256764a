//! Twin of `hdl/src/roce/cnm_rx.rs`: the QCN CNM receive tap
//! (`docs/roce.md` §11), cycle-exact at the ports; plus the byte-level
//! parser [`parse_cnm`] and the encoder [`encode_cnm`] the tests (and the
//! network simulator) use.
//!
//! The checks are written here once, at the byte level, on the whole
//! frame ([`parse_cnm`]), independently of the RTL's in-stream field
//! capture. The twin collects a frame's bytes (8 per beat, the last beat's
//! count its highest `tkeep` lane + 1; `tuser` read with `tlast` only) and
//! parses it when its last beat arrives in cycle T; the verdict is
//! registered in T + 1, applies in T + 2 (a counter, or the record into
//! the one-entry output slot) and is visible at the ports in T + 3.

use crate::roce::{CnmInfo, CnmStats};
use crate::stream::Axis;
use crate::Cycle;
use nic_spec::cnm::{self as w, msdu, pdu};
use nic_spec::roce::ROCE_PORT;

/// Cycles from a CNM's last beat to its record at `m_cnm`.
pub const LATENCY: usize = 3;

/// Why a frame gave no record. [`CnmDrop::NotCnm`] is not counted (the tap
/// ignores other frames); the others are, in this order of priority.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CnmDrop {
    /// Not a CNM: no 0x22E7 after the accepted tags (`nic_spec::cnm`), or
    /// the frame ends before it.
    NotCnm,
    /// `tuser` (bad FCS) on the last beat.
    BadFcs,
    /// The frame ends before the PDU's fixed fields, or before the MSDU
    /// length it announces.
    Trunc,
    /// Version ≠ 0.
    BadVersion,
    /// MSDU length > 64.
    BadLen,
}

fn be16(b: &[u8], at: usize) -> u16 {
    u16::from_be_bytes([b[at], b[at + 1]])
}

/// Walk the tags of a frame: the PDU's offset and the CN-TAG's RPID, if
/// the frame is a CNM (its bytes reach the end of 0x22E7).
pub fn cnm_pdu_offset(frame: &[u8]) -> Option<(usize, Option<u16>)> {
    let (mut s, mut c, mut cn) = (false, false, false);
    let mut rpid = None;
    let mut pos = w::TYPE_OFF;
    loop {
        if frame.len() < pos + 2 {
            return None;
        }
        match be16(frame, pos) {
            w::ETHERTYPE_CNM => return Some((pos + 2, rpid)),
            w::ETHERTYPE_S_TAG if !s && !c && !cn => s = true,
            w::ETHERTYPE_C_TAG if !c && !cn => c = true,
            w::ETHERTYPE_CN_TAG if !cn => {
                cn = true;
                // Past the frame's end: the next type is too, so the frame
                // is no CNM and the RPID is never used.
                rpid = frame.get(pos + 2..pos + 4).map(|b| be16(b, 0));
            }
            _ => return None,
        }
        pos += w::TAG_LEN;
    }
}

/// Parse one frame (without FCS; `bad_fcs`: the MAC flagged it): the CNM's
/// record, or why there is none. Never panics.
pub fn parse_cnm(frame: &[u8], bad_fcs: bool) -> Result<CnmInfo, CnmDrop> {
    let (p, rpid) = cnm_pdu_offset(frame).ok_or(CnmDrop::NotCnm)?;
    if bad_fcs {
        return Err(CnmDrop::BadFcs);
    }
    if frame.len() < p + pdu::FIXED_LEN {
        return Err(CnmDrop::Trunc);
    }
    let d = &frame[p..];
    let vq = be16(d, pdu::VER_QNTZ);
    let version = (vq >> 12) as u8;
    if version != w::VERSION {
        return Err(CnmDrop::BadVersion);
    }
    let msdu_len = be16(d, pdu::MSDU_LEN);
    if msdu_len as usize > w::MAX_MSDU {
        return Err(CnmDrop::BadLen);
    }
    if d.len() < pdu::FIXED_LEN + msdu_len as usize {
        return Err(CnmDrop::Trunc);
    }
    let m = &d[pdu::MSDU..pdu::MSDU + msdu_len as usize];
    let qp_valid = m.len() >= msdu::ROCE_MIN
        && be16(m, msdu::ETHERTYPE) == w::ETHERTYPE_IPV4
        && m[msdu::IP_VER_IHL] == 0x45
        && m[msdu::IP_PROTO] == 17
        && be16(m, msdu::UDP_DPORT) == ROCE_PORT;
    let qp = if qp_valid {
        u32::from_be_bytes([
            0,
            m[msdu::BTH_DQP],
            m[msdu::BTH_DQP + 1],
            m[msdu::BTH_DQP + 2],
        ])
    } else {
        0
    };
    let mut cpid = [0u8; 8];
    cpid.copy_from_slice(&d[pdu::CPID..pdu::CPID + 8]);
    let mut da = [0u8; 8];
    da[2..].copy_from_slice(&d[pdu::ENCAP_DA..pdu::ENCAP_DA + 6]);
    Ok(CnmInfo {
        cn_tag: rpid.is_some(),
        rpid: rpid.unwrap_or(0),
        version,
        qntz_fb: (vq & 0x3F) as u8,
        cpid: u64::from_be_bytes(cpid),
        qoffset: be16(d, pdu::QOFFSET),
        qdelta: be16(d, pdu::QDELTA),
        encap_prio: be16(d, pdu::ENCAP_PRIO),
        encap_da: u64::from_be_bytes(da),
        msdu_len,
        qp_valid,
        qp,
    })
}

/// A CNM to encode: every field as it goes on the wire, so tests can
/// build malformed ones (a version ≠ 0, an MSDU length that is not the
/// MSDU's).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cnm {
    pub dmac: [u8; 6],
    pub smac: [u8; 6],
    /// 802.1ad S-TAG (its TCI), first if present.
    pub s_tag: Option<u16>,
    /// 802.1Q C-TAG (its TCI).
    pub c_tag: Option<u16>,
    /// The CN-TAG's RPID, last before 0x22E7.
    pub rpid: Option<u16>,
    /// 4 bits (0).
    pub version: u8,
    /// 6 bits, ignored by the receiver.
    pub reserved: u8,
    /// 6 bits.
    pub qntz_fb: u8,
    pub cpid: u64,
    pub qoffset: u16,
    pub qdelta: u16,
    pub encap_prio: u16,
    pub encap_da: [u8; 6],
    /// The MSDU length field as sent (normally `msdu.len()`).
    pub msdu_len: u16,
    pub msdu: Vec<u8>,
}

impl Default for Cnm {
    fn default() -> Self {
        Cnm {
            dmac: [0x02, 0, 0, 0, 0, 1],
            smac: [0x02, 0, 0, 0, 0, 0xCC],
            s_tag: None,
            c_tag: None,
            rpid: None,
            version: 0,
            reserved: 0,
            qntz_fb: 0,
            cpid: 0x0200_0000_00CC_0001,
            qoffset: 0,
            qdelta: 0,
            encap_prio: 0,
            encap_da: [0x02, 0, 0, 0, 0, 2],
            msdu_len: 0,
            msdu: Vec::new(),
        }
    }
}

impl Cnm {
    /// The CNM a congestion point `cp_mac` sends for a sampled frame
    /// (without FCS, untagged): back to its source (DA = the sample's SA),
    /// with the sample's DA and the first 64 bytes of its MSDU (from its
    /// EtherType on), `encap_prio` from `prio` (bits 15..13).
    pub fn for_sample(sampled: &[u8], cp_mac: [u8; 6], prio: u8, qntz_fb: u8) -> Cnm {
        let mut dmac = [0u8; 6];
        let mut encap_da = [0u8; 6];
        if sampled.len() >= 12 {
            dmac.copy_from_slice(&sampled[6..12]);
            encap_da.copy_from_slice(&sampled[0..6]);
        }
        let rest = sampled.get(12..).unwrap_or(&[]);
        let msdu = rest[..rest.len().min(w::MAX_MSDU)].to_vec();
        let mut cpid = [0u8; 8];
        cpid[..6].copy_from_slice(&cp_mac);
        Cnm {
            dmac,
            smac: cp_mac,
            qntz_fb: qntz_fb & 0x3F,
            cpid: u64::from_be_bytes(cpid) | prio as u64,
            encap_prio: ((prio & 7) as u16) << 13,
            encap_da,
            msdu_len: msdu.len() as u16,
            msdu,
            ..Cnm::default()
        }
    }
}

/// The frame on the wire (no FCS), padded with zeros to 60 bytes.
pub fn encode_cnm(c: &Cnm) -> Vec<u8> {
    let mut f = Vec::with_capacity(w::PDU_OFFSETS[3] + pdu::FIXED_LEN + c.msdu.len());
    f.extend_from_slice(&c.dmac);
    f.extend_from_slice(&c.smac);
    for (t, v) in [
        (w::ETHERTYPE_S_TAG, c.s_tag),
        (w::ETHERTYPE_C_TAG, c.c_tag),
        (w::ETHERTYPE_CN_TAG, c.rpid),
    ] {
        if let Some(v) = v {
            f.extend_from_slice(&t.to_be_bytes());
            f.extend_from_slice(&v.to_be_bytes());
        }
    }
    f.extend_from_slice(&w::ETHERTYPE_CNM.to_be_bytes());
    let vq = ((c.version as u16 & 0xF) << 12)
        | ((c.reserved as u16 & 0x3F) << 6)
        | (c.qntz_fb as u16 & 0x3F);
    f.extend_from_slice(&vq.to_be_bytes());
    f.extend_from_slice(&c.cpid.to_be_bytes());
    f.extend_from_slice(&c.qoffset.to_be_bytes());
    f.extend_from_slice(&c.qdelta.to_be_bytes());
    f.extend_from_slice(&c.encap_prio.to_be_bytes());
    f.extend_from_slice(&c.encap_da);
    f.extend_from_slice(&c.msdu_len.to_be_bytes());
    f.extend_from_slice(&c.msdu);
    if f.len() < w::ETH_MIN_FRAME {
        f.resize(w::ETH_MIN_FRAME, 0);
    }
    f
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    /// `tuser`: bad FCS, read with `tlast`.
    pub rx: Axis,
    pub cnm_ready: bool,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub cnm_valid: bool,
    /// The record; all fields 0 while `cnm_valid` is low.
    pub cnm: CnmInfo,
    pub stats: CnmStats,
}

/// Bytes of a frame the twin keeps: every check and field lies in the
/// first 26 + 24 + 64 = 114, so a longer frame parses the same cut here.
const KEEP: usize = 256;

/// The tap.
#[derive(Clone, Debug, Default)]
pub struct CnmRx {
    frame: Vec<u8>,
    /// A verdict for the register stage (last beat in the previous cycle).
    pending: Option<Result<CnmInfo, CnmDrop>>,
    /// The registered verdict, applied this cycle (last beat two cycles
    /// ago).
    registered: Option<Result<CnmInfo, CnmDrop>>,
    out: Option<CnmInfo>,
    cnt: CnmStats,
}

impl Cycle for CnmRx {
    type In = In;
    type Out = Out;
    fn step(&mut self, i: &In) -> Out {
        let o = Out {
            cnm_valid: self.out.is_some(),
            cnm: self.out.unwrap_or_default(),
            stats: self.cnt,
        };
        let taken = self.out.is_some() && i.cnm_ready;
        let slot_free = self.out.is_none() || taken;
        if taken {
            self.out = None;
        }
        if let Some(v) = std::mem::replace(&mut self.registered, self.pending.take()) {
            let c = &mut self.cnt;
            match v {
                Ok(info) => {
                    c.cnms = c.cnms.wrapping_add(1);
                    if info.qp_valid {
                        c.roce = c.roce.wrapping_add(1);
                    }
                    if slot_free {
                        self.out = Some(info);
                    } else {
                        c.dropped = c.dropped.wrapping_add(1);
                    }
                }
                Err(CnmDrop::NotCnm) => {}
                Err(CnmDrop::BadFcs) => c.bad_fcs = c.bad_fcs.wrapping_add(1),
                Err(CnmDrop::Trunc) => c.trunc = c.trunc.wrapping_add(1),
                Err(CnmDrop::BadVersion) => c.bad_version = c.bad_version.wrapping_add(1),
                Err(CnmDrop::BadLen) => c.bad_len = c.bad_len.wrapping_add(1),
            }
        }
        if i.rx.tvalid {
            let n = if i.rx.tlast {
                (8 - i.rx.tkeep.leading_zeros()) as usize
            } else {
                8
            };
            let room = KEEP.saturating_sub(self.frame.len()).min(n);
            self.frame
                .extend_from_slice(&i.rx.tdata.to_le_bytes()[..room]);
            if i.rx.tlast {
                self.pending = Some(parse_cnm(&self.frame, i.rx.tuser));
                self.frame.clear();
            }
        }
        o
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cnm_round_trips() {
        let c = Cnm {
            c_tag: Some(0xA00A),
            rpid: Some(0x1234),
            qntz_fb: 0x2A,
            reserved: 0x3F,
            qoffset: 0xFFF0,
            qdelta: 0x8001,
            encap_prio: 0x6000,
            msdu_len: 3,
            msdu: vec![1, 2, 3],
            ..Cnm::default()
        };
        let f = encode_cnm(&c);
        assert_eq!(f.len(), 60);
        assert_eq!(&f[12..14], &[0x81, 0x00]);
        assert_eq!(&f[16..18], &[0x22, 0xE9]);
        assert_eq!(&f[20..22], &[0x22, 0xE7]);
        let r = parse_cnm(&f, false).unwrap();
        assert!(r.cn_tag);
        assert_eq!(r.rpid, 0x1234);
        assert_eq!(r.qntz_fb, 0x2A);
        assert_eq!(r.cpid, c.cpid);
        assert_eq!(r.qoffset, 0xFFF0);
        assert_eq!(r.qdelta, 0x8001);
        assert_eq!(r.encap_prio, 0x6000);
        assert_eq!(r.encap_da, 0x0200_0000_0002);
        assert_eq!(r.msdu_len, 3);
        assert!(!r.qp_valid);
        assert_eq!(parse_cnm(&f, true), Err(CnmDrop::BadFcs));
        assert_eq!(parse_cnm(&f[..45], false), Err(CnmDrop::Trunc));
        assert_eq!(parse_cnm(&f[..22], false), Err(CnmDrop::Trunc));
        assert_eq!(parse_cnm(&f[..21], false), Err(CnmDrop::NotCnm));
    }

    #[test]
    fn a_cn_tagged_data_frame_is_not_a_cnm() {
        let mut f = vec![0u8; 80];
        f[12..14].copy_from_slice(&[0x22, 0xE9]);
        f[16..18].copy_from_slice(&[0x08, 0x00]);
        assert_eq!(parse_cnm(&f, false), Err(CnmDrop::NotCnm));
        // Tags out of order, or twice.
        for types in [[0x8100u16, 0x88A8], [0x22E9, 0x8100], [0x8100, 0x8100]] {
            let mut f = vec![0u8; 80];
            f[12..14].copy_from_slice(&types[0].to_be_bytes());
            f[16..18].copy_from_slice(&types[1].to_be_bytes());
            f[20..22].copy_from_slice(&[0x22, 0xE7]);
            assert_eq!(parse_cnm(&f, false), Err(CnmDrop::NotCnm), "{types:x?}");
        }
    }

    #[test]
    fn never_panics_on_short_or_odd_frames() {
        let mut x = 1u64;
        for n in 0..200 {
            for _ in 0..50 {
                let f: Vec<u8> = (0..n)
                    .map(|k| {
                        x = x
                            .wrapping_mul(6364136223846793005)
                            .wrapping_add(1442695040888963407);
                        // Bias toward the tag and CNM types.
                        match (x >> 60, k % 4) {
                            (0..=3, 0) => 0x22,
                            (4..=5, 1) => 0xE7,
                            (6, 1) => 0xE9,
                            (7, 0) => 0x81,
                            _ => (x >> 33) as u8,
                        }
                    })
                    .collect();
                let _ = parse_cnm(&f, false);
            }
        }
    }
}
