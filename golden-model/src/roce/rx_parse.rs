//! Twin of `hdl/src/roce/rx_parse.rs`: the RoCEv2 Rx store-and-forward
//! parser/checker (`docs/roce.md` §7), cycle-exact at the ports.
//!
//! The checks are written here at the byte level ([`check_frame`], on the
//! whole frame when its last word arrives), independently of the RTL's
//! in-stream implementation (header word registers, a pipelined IPv4
//! checksum, the ICRC checked as a CRC residue). What is cycle-exact is
//! what the ports show: the buffer, its pointers, the 16-entry metadata FIFO and the output engine.
//! The buffer write is 4 cycles behind the input: the verdict of a frame
//! whose last word arrived in cycle T applies in T + 4; its record is
//! written and its reason counted in T + 5.

use crate::roce::crc32::crc32;
use crate::roce::{RxMeta, RxParseStats, Telemetry};
use crate::stream::Axis;
use crate::Cycle;

/// log2 of the metadata FIFO's entries.
pub const META_A: usize = nic_spec::roce::RX_META_LOG2 as usize;

/// Reasons, as counter indices (`Out::cnt`'s order).
pub const OK: usize = 0;
pub const BAD_FCS: usize = 1;
pub const TRUNC: usize = 2;
pub const BAD_ETH: usize = 3;
pub const BAD_IP: usize = 4;
pub const BAD_PORT: usize = 5;
pub const BAD_OPCODE: usize = 6;
pub const BAD_LEN: usize = 7;
pub const BAD_TLM: usize = 8;
pub const BAD_ICRC: usize = 9;
pub const DROP_FULL: usize = 10;
/// Names of the reasons, by index.
pub const REASONS: [&str; 11] = [
    "ok",
    "bad_fcs",
    "trunc",
    "bad_eth",
    "bad_ip",
    "bad_port",
    "bad_opcode",
    "bad_len",
    "bad_tlm",
    "bad_icrc",
    "drop_full",
];

pub use nic_spec::roce::{MAX_PAYLOAD, ROCE_PORT};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    pub reset: bool,
    pub rx: Axis,
    pub meta_ready: bool,
    pub pay_tready: bool,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub meta_valid: bool,
    /// The record; all fields 0 while `meta_valid` is low.
    pub meta: RxMeta,
    /// `tuser`: always 0: only checked frames are released.
    pub pay: Axis,
    /// Always 1: the parser never back-pressures the MAC.
    pub rx_tready: bool,
    /// Words the frame buffer holds (committed frames and the one being
    /// written), as of the previous cycle (a register).
    pub buf_fill: u16,
    /// Records waiting in the metadata FIFO, as of the previous cycle.
    pub meta_fill: u8,
    pub stats: RxParseStats,
}

impl Out {
    /// The counters in reason order ([`REASONS`]).
    pub fn cnt(&self) -> [u32; 11] {
        let s = &self.stats;
        [
            s.ok,
            s.bad_fcs,
            s.trunc,
            s.bad_eth,
            s.bad_ip,
            s.bad_port,
            s.bad_opcode,
            s.bad_len,
            s.bad_tlm,
            s.bad_icrc,
            s.drop_full,
        ]
    }
}

/// What §1's opcode table says of an opcode: (has RETH, has AETH,
/// carries payload); `None` if unknown.
pub fn opcode_info(op: u8) -> Option<(bool, bool, bool)> {
    let c = crate::roce::op_decode::decode(op);
    c.known.then_some((c.reth, c.aeth, c.pay))
}

fn be16(b: &[u8]) -> u16 {
    u16::from_be_bytes([b[0], b[1]])
}
fn be24(b: &[u8]) -> u32 {
    u32::from_be_bytes([0, b[0], b[1], b[2]])
}
fn be32(b: &[u8]) -> u32 {
    u32::from_be_bytes(b[..4].try_into().unwrap())
}
fn be64(b: &[u8]) -> u64 {
    u64::from_be_bytes(b[..8].try_into().unwrap())
}

/// Where the TLM area starts in a frame (bytes), given (RETH, AETH).
pub fn tlm_offset(r: bool, a: bool) -> usize {
    54 + if r { 16 } else { 0 } + if a { 4 } else { 0 }
}

/// The ICRC of a frame's IP packet `ip` (IP header .. pad; the ICRC itself
/// not included), §3.
pub fn icrc_of(ip: &[u8], tlm: Option<usize>) -> u32 {
    let mut m = vec![0xFFu8; 8];
    m.extend_from_slice(ip);
    // Offsets in `m`: IP byte k at 8 + k.
    for k in [1usize, 8, 10, 11, 26, 27, 32] {
        if 8 + k < m.len() {
            m[8 + k] = 0xFF;
        }
    }
    if let Some(off) = tlm {
        // `off` is a frame offset; the IP packet starts at frame byte 14.
        for k in (off - 14)..(off - 14 + 48) {
            if 8 + k < m.len() {
                m[8 + k] = 0xFF;
            }
        }
    }
    crc32(&m)
}

/// Checks 1..9 of §7 on a whole frame (`flen` its length as counted by
/// the block; `frame` holds at least `min(flen, …)` bytes). `Ok` gives the
/// metadata record and the payload's byte offset in the frame.
pub fn check_frame(frame: &[u8], flen: usize, bad_fcs: bool) -> Result<(RxMeta, usize), usize> {
    if bad_fcs {
        return Err(BAD_FCS);
    }
    if flen < 54 {
        return Err(TRUNC);
    }
    let f = frame;
    let iptot = be16(&f[16..]) as usize;
    if flen < 14 + iptot {
        return Err(TRUNC);
    }
    if f[12] != 0x08 || f[13] != 0x00 {
        return Err(BAD_ETH);
    }
    let mut s: u32 = (0..10).map(|k| be16(&f[14 + 2 * k..]) as u32).sum();
    s = (s & 0xFFFF) + (s >> 16);
    s = (s & 0xFFFF) + (s >> 16);
    if f[14] != 0x45 || f[20] & 0x3F != 0 || f[21] != 0 || f[23] != 17 || s != 0xFFFF {
        return Err(BAD_IP);
    }
    if be16(&f[36..]) != ROCE_PORT {
        return Err(BAD_PORT);
    }
    let op = f[42];
    let Some((r, a, pay)) = opcode_info(op) else {
        return Err(BAD_OPCODE);
    };
    if f[43] & 0x0F != 0 {
        return Err(BAD_OPCODE);
    }
    let t = f[46] & 1 != 0;
    let e = if r { 16 } else { 0 } + if a { 4 } else { 0 } + if t { 48 } else { 0 };
    let hdrs = 44 + e;
    let udplen = be16(&f[38..]);
    if udplen != (iptot as u16).wrapping_sub(20) || iptot % 4 != 0 || iptot < hdrs {
        return Err(BAD_LEN);
    }
    let pp = iptot - hdrs;
    let pad = ((f[43] >> 4) & 3) as usize;
    if pay {
        if pp < pad || pp - pad > MAX_PAYLOAD {
            return Err(BAD_LEN);
        }
    } else if pp != 0 || pad != 0 {
        return Err(BAD_LEN);
    }
    let off = tlm_offset(r, a);
    if t {
        if f[off] >> 4 != 1 || f[off + 1] > 5 || f[off + 2] != 5 {
            return Err(BAD_TLM);
        }
    } else if nic_spec::roce::is_hpcc(op) {
        return Err(BAD_TLM);
    }
    let want = icrc_of(&f[14..10 + iptot], t.then_some(off));
    let got = u32::from_le_bytes(f[10 + iptot..14 + iptot].try_into().unwrap());
    if want != got {
        return Err(BAD_ICRC);
    }
    let mut tlm_words = [0u64; 6];
    if t {
        for (i, w) in tlm_words.iter_mut().enumerate() {
            *w = be64(&f[off + 8 * i..]);
        }
    }
    let meta = RxMeta {
        opcode: op,
        qp: be24(&f[47..]),
        psn: be24(&f[51..]),
        ackreq: f[50] & 0x80 != 0,
        len: (pp - pad) as u16,
        va: if r { be64(&f[54..]) } else { 0 },
        rkey: if r { be32(&f[62..]) } else { 0 },
        dlen: if r { be32(&f[66..]) } else { 0 },
        aeth: if a { be32(&f[54..]) } else { 0 },
        ce: f[15] & 3 == 3,
        mr: 0,
        tlm: Telemetry::from_words(t, tlm_words),
    };
    Ok((meta, 54 + e))
}

/// A committed packet in the metadata FIFO.
#[derive(Clone, Copy, Debug, Default)]
struct Rec {
    meta: RxMeta,
    /// Buffer address of the word holding payload byte 0.
    ps: u16,
    /// Buffer address after the frame's last word.
    end: u16,
    /// Payload byte 0 is in lane 6 (else lane 2).
    sh6: bool,
}

/// A word in the 4-cycle write delay line; the last word of a frame
/// carries the frame's verdict.
#[derive(Clone, Copy, Debug, Default)]
struct Dl {
    v: bool,
    last: bool,
    d: u64,
    verdict: Option<Result<(RxMeta, usize), usize>>,
    /// The frame is IPv4-CE ([`ipv4_ce`]; with the verdict).
    ce: bool,
}

/// A frame of at least 16 bytes with EtherType IPv4 and ECN = CE: what
/// `ce_dropped` counts when the parser drops it.
pub fn ipv4_ce(frame: &[u8], flen: usize) -> bool {
    flen >= 16 && frame.len() >= 16 && frame[12] == 0x08 && frame[13] == 0 && frame[15] & 3 == 3
}

/// The parser with a buffer of 2^B words.
#[derive(Clone, Debug)]
pub struct RoceRxParse<const B: usize> {
    wcnt: u16,
    cur: Vec<u8>,
    dl: [Dl; 4],
    mem: Vec<u64>,
    wp: u16,
    fstart: u16,
    rp: u16,
    /// The most words the buffer held (model only, for monitors).
    peak: u16,
    /// `buf_fill` and `meta_fill` (registers).
    fill_q: u16,
    mfill_q: u8,
    ovf: bool,
    /// Room in the buffer and record FIFO full, as registers (computed
    /// from the previous cycle's pointers).
    room_q: bool,
    mfull_q: bool,
    /// The decision of the previous cycle: the record to write and the
    /// reason to count (cycle T+4).
    pending: Option<Rec>,
    pending_cnt: Option<usize>,
    pending_ce_drop: bool,
    ce_dropped: u32,
    meta_mem: Vec<Rec>,
    mw: u8,
    mr: u8,
    mv: bool,
    busy: bool,
    primed: bool,
    rd: u16,
    hold: u64,
    bram_out: u64,
    pcnt: u16,
    psh: bool,
    pkeep: u8,
    pmask: u64,
    pend: u16,
    cnt: [u32; 11],
}

impl<const B: usize> Default for RoceRxParse<B> {
    fn default() -> Self {
        assert!((4..=15).contains(&B));
        Self {
            wcnt: 0,
            cur: Vec::new(),
            dl: Default::default(),
            mem: vec![0; 1 << B],
            wp: 0,
            fstart: 0,
            rp: 0,
            peak: 0,
            fill_q: 0,
            mfill_q: 0,
            ovf: false,
            room_q: false,
            mfull_q: false,
            pending: None,
            pending_cnt: None,
            pending_ce_drop: false,
            ce_dropped: 0,
            meta_mem: vec![Rec::default(); 1 << META_A],
            mw: 0,
            mr: 0,
            mv: false,
            busy: false,
            primed: false,
            rd: 0,
            hold: 0,
            bram_out: 0,
            pcnt: 0,
            psh: false,
            pkeep: 0,
            pmask: 0,
            pend: 0,
            cnt: [0; 11],
        }
    }
}

/// Bytes in a last word: highest kept lane + 1.
pub fn keep_bytes(keep: u8) -> usize {
    8 - keep.leading_zeros() as usize
}

impl<const B: usize> RoceRxParse<B> {
    /// The most words the frame buffer has held (committed frames and
    /// the one arriving), for monitors: a receive buffer's high-water
    /// mark, out of 2^B − 1.
    pub fn buffer_peak(&self) -> u16 {
        self.peak
    }
    /// The counters, in reason order.
    pub fn counters(&self) -> [u32; 11] {
        self.cnt
    }
}

impl<const B: usize> Cycle for RoceRxParse<B> {
    type In = In;
    type Out = Out;
    fn step(&mut self, i: &In) -> Out {
        let bmask = (1usize << B) - 1;
        let mmask = (1usize << META_A) - 1;
        let fill_next = self.wp.wrapping_sub(self.rp);
        let mfill_next = self.mw.wrapping_sub(self.mr);
        // ---- Outputs (registers and RAM outputs).
        let mval = self.mv && !self.busy;
        let rec = self.meta_mem[self.mr as usize & mmask];
        let pval = self.busy && self.primed;
        let plast = self.pcnt == 1;
        let word = if self.psh {
            (self.hold >> 48) | (self.bram_out << 16)
        } else {
            (self.hold >> 16) | (self.bram_out << 48)
        };
        let mut o = Out {
            rx_tready: true,
            buf_fill: self.fill_q,
            meta_fill: self.mfill_q,
            pay: Axis {
                tuser: false,
                tvalid: pval,
                tlast: pval && plast,
                tdata: match (pval, plast) {
                    (false, _) => 0,
                    (true, true) => word & self.pmask,
                    (true, false) => word,
                },
                tkeep: match (pval, plast) {
                    (false, _) => 0,
                    (true, true) => self.pkeep,
                    (true, false) => 0xFF,
                },
            },
            meta_valid: mval,
            stats: RxParseStats {
                ok: self.cnt[0],
                bad_fcs: self.cnt[1],
                trunc: self.cnt[2],
                bad_eth: self.cnt[3],
                bad_ip: self.cnt[4],
                bad_port: self.cnt[5],
                bad_opcode: self.cnt[6],
                bad_len: self.cnt[7],
                bad_tlm: self.cnt[8],
                bad_icrc: self.cnt[9],
                drop_full: self.cnt[10],
                ce_dropped: self.ce_dropped,
            },
            ..Default::default()
        };
        if mval {
            o.meta = rec.meta;
        }

        // ---- Output side.
        let mhs = mval && i.meta_ready;
        let phs = pval && i.pay_tready;
        let adv = self.busy && (!self.primed || phs);
        let mrn = self.mr.wrapping_add(mhs as u8);
        let ra = if mhs && rec.meta.len > 0 {
            rec.ps
        } else if adv {
            self.rd.wrapping_add(1)
        } else {
            self.rd
        };
        // The RAM reads before this edge's write (read-old).
        let new_bram_out = self.mem[ra as usize & bmask];
        if adv {
            self.hold = self.bram_out;
        }
        if self.busy && !self.primed {
            self.primed = true;
        }
        let old_mr = self.mr;
        let old_rp = self.rp;
        if mhs {
            let len = rec.meta.len;
            if len > 0 {
                self.busy = true;
                self.primed = false;
                self.pcnt = (len + 7) >> 3;
                self.psh = rec.sh6;
                self.pend = rec.end;
                // The header words before the payload are free.
                self.rp = rec.ps;
                let r = (len & 7) as u32;
                self.pkeep = if r == 0 { 0xFF } else { (1u8 << r) - 1 };
                self.pmask = if r == 0 {
                    u64::MAX
                } else {
                    (1u64 << (8 * r)) - 1
                };
            } else {
                self.rp = rec.end;
            }
        }
        if phs {
            self.pcnt -= 1;
            if plast {
                self.busy = false;
                self.rp = self.pend;
            } else {
                // Space is freed as words leave: the words before the one
                // being read are in the output registers or gone.
                self.rp = self.rd;
            }
        }
        self.rd = ra;
        self.bram_out = new_bram_out;
        self.mv = self.mw != mrn;
        self.mr = mrn;

        // ---- Buffer write and decision (the word that arrived 4 cycles ago).
        let w = self.dl[3];
        let cap = 1u16 << B;
        let room = self.room_q;
        let mfull = self.mfull_q;
        let new_room_q = self.wp.wrapping_sub(old_rp) < cap - 1;
        let new_mfull_q = self.mw.wrapping_sub(old_mr) as usize == 1 << META_A;
        // Last cycle's decision: the record written, the reason counted.
        if let Some(rec) = self.pending.take() {
            self.meta_mem[self.mw as usize & mmask] = rec;
            self.mw = self.mw.wrapping_add(1);
        }
        if let Some(r) = self.pending_cnt.take() {
            self.cnt[r] = self.cnt[r].wrapping_add(1);
        }
        if std::mem::take(&mut self.pending_ce_drop) {
            self.ce_dropped = self.ce_dropped.wrapping_add(1);
        }
        let wen = w.v && room && !self.ovf;
        let dec = w.v && w.last;
        if wen {
            self.mem[self.wp as usize & bmask] = w.d;
        }
        let wp1 = self.wp.wrapping_add(1);
        if dec {
            let verdict = w.verdict.expect("last word carries a verdict");
            let rsn = match verdict {
                Err(r) => r,
                Ok(_) if self.ovf || !room || mfull => DROP_FULL,
                Ok(_) => OK,
            };
            self.pending_cnt = Some(rsn);
            self.pending_ce_drop = rsn != OK && w.ce;
            if rsn == OK {
                let (meta, p) = verdict.unwrap();
                self.pending = Some(Rec {
                    meta,
                    ps: self.fstart.wrapping_add((p >> 3) as u16),
                    end: wp1,
                    sh6: p & 7 == 6,
                });
                self.wp = wp1;
                self.fstart = wp1;
            } else {
                self.wp = self.fstart;
            }
        } else if wen {
            self.wp = wp1;
        }
        if w.v {
            self.ovf = if w.last { false } else { self.ovf || !room };
        }
        self.room_q = new_room_q;
        self.mfull_q = new_mfull_q;

        // ---- Input side.
        self.dl[3] = self.dl[2];
        self.dl[2] = self.dl[1];
        self.dl[1] = self.dl[0];
        self.dl[0] = Dl {
            v: i.rx.tvalid && !i.reset,
            last: i.rx.tlast,
            d: i.rx.tdata,
            verdict: None,
            ce: false,
        };
        if i.rx.tvalid {
            let bytes = i.rx.tdata.to_le_bytes();
            if i.rx.tlast {
                let nb = keep_bytes(i.rx.tkeep);
                self.cur.extend_from_slice(&bytes[..nb]);
                let flen = 8 * self.wcnt as usize + nb;
                self.dl[0].verdict = Some(check_frame(&self.cur, flen, i.rx.tuser));
                self.dl[0].ce = ipv4_ce(&self.cur, flen);
                self.cur.clear();
                self.wcnt = 0;
            } else {
                self.cur.extend_from_slice(&bytes);
                self.wcnt = self.wcnt.saturating_add(1);
            }
        }

        if i.reset {
            self.wcnt = 0;
            self.cur.clear();
            for d in self.dl.iter_mut() {
                d.v = false;
            }
            self.wp = 0;
            self.fstart = 0;
            self.rp = 0;
            self.ovf = false;
            self.room_q = true;
            self.mfull_q = false;
            self.pending = None;
            self.pending_cnt = None;
            self.pending_ce_drop = false;
            self.ce_dropped = 0;
            self.mw = 0;
            self.mr = 0;
            self.mv = false;
            self.busy = false;
            self.primed = false;
            self.cnt = [0; 11];
        }
        self.peak = self.peak.max(self.wp.wrapping_sub(self.rp));
        (self.fill_q, self.mfill_q) = if i.reset {
            (0, 0)
        } else {
            (fill_next, mfill_next)
        };
        o
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::roce::crc32::{step, INIT};
    use crate::roce::packet as pk;
    use nic_spec::roce::{IP_OFF, UDP_OFF};

    /// The RTL checks the ICRC as the CRC register's residue after the
    /// ICRC bytes themselves.
    #[test]
    fn residue() {
        let data = b"some bytes of a packet";
        let c = crc32(data);
        let mut r = INIT;
        for &b in data.iter().chain(c.to_le_bytes().iter()) {
            r = step(r, b as u64, 1);
        }
        assert_eq!(r, 0xDEBB_20E3);
    }

    /// `RxMeta.ce` is the IPv4 ECN field's CE mark, and the CE of a dropped
    /// IPv4 frame is seen by `ipv4_ce`.
    #[test]
    fn ce_mark() {
        use crate::roce::packet::Packet;
        for tos in [0u8, 1, 2, 3, 0xFE, 0xFF] {
            let f = Packet {
                tos,
                opcode: nic_spec::roce::op::CNP,
                reth: Some(Default::default()),
                ..Default::default()
            }
            .encode();
            let (m, _) = check_frame(&f, f.len(), false).expect("a good CNP");
            assert_eq!(m.ce, tos & 3 == 3, "tos {tos:#x}");
            assert_eq!(ipv4_ce(&f, f.len()), tos & 3 == 3);
            assert!(!ipv4_ce(&f[..15], 15));
        }
    }

    /// An opcode without payload whose PadCnt is not 0 is `bad_len`, as
    /// the transaction-level `decode` has it (found by `rx-fuzz`: the
    /// cycle twin and the RTL checked only the payload bytes, and passed
    /// the frame on to the ICRC check).
    #[test]
    fn pad_on_an_opcode_without_payload_is_bad_len() {
        use crate::roce::packet::{decode, icrc, Packet, Reth, Tlm};
        use nic_spec::roce::{op, Drop, BTH_OFF};
        for (opcode, reth, tlm) in [
            (op::READ_REQ, true, false),
            (op::READ_REQ, true, true),
            (op::ACK, false, false),
            (op::PROBE, false, true),
        ] {
            let mut f = Packet {
                opcode,
                reth: reth.then(|| Reth {
                    va: 8,
                    rkey: 1,
                    dlen: 64,
                }),
                aeth: (opcode == op::ACK).then_some(0x1F00_0001),
                tlm: tlm.then(Tlm::fresh),
                ..Default::default()
            }
            .encode();
            for pad in 1..4u8 {
                f[BTH_OFF + 1] = (f[BTH_OFF + 1] & 0xCF) | (pad << 4);
                let n = f.len();
                let c = icrc(&f).to_le_bytes();
                f[n - 4..].copy_from_slice(&c);
                assert_eq!(
                    decode(&f, false).err(),
                    Some(Drop::BadLen),
                    "{opcode:#x} pad {pad}"
                );
                assert_eq!(
                    check_frame(&f, f.len(), false).err(),
                    Some(BAD_LEN),
                    "{opcode:#x} pad {pad}"
                );
            }
        }
    }

    #[test]
    fn keep_bytes_counts_to_the_highest_lane() {
        assert_eq!(keep_bytes(0), 0);
        assert_eq!(keep_bytes(1), 1);
        assert_eq!(keep_bytes(0x0F), 4);
        assert_eq!(keep_bytes(0xFF), 8);
        assert_eq!(keep_bytes(0x80), 8);
    }

    /// The IPv4 reserved flag bit is not checked (§7 lists what is): with
    /// a right checksum the frame is good, in this model and in the cycle
    /// twin's check (found by `rx-fuzz`: etherparse's header drops the
    /// bit, and its recomputed checksum then disagreed).
    #[test]
    fn the_reserved_ip_flag_is_not_checked() {
        let mut f = pk::Packet {
            opcode: pk::op::ACK,
            aeth: Some(0x1F00_0001),
            ..Default::default()
        }
        .encode();
        f[IP_OFF + 6] |= 0x80;
        f[IP_OFF + 10] = 0;
        f[IP_OFF + 11] = 0;
        let mut s: u32 = f[IP_OFF..UDP_OFF]
            .chunks(2)
            .map(|w| u16::from_be_bytes([w[0], w[1]]) as u32)
            .sum();
        while s > 0xFFFF {
            s = (s & 0xFFFF) + (s >> 16);
        }
        f[IP_OFF + 10..IP_OFF + 12].copy_from_slice(&(!(s as u16)).to_be_bytes());
        let n = f.len();
        let c = pk::icrc(&f).to_le_bytes(); // the flags are under the ICRC
        f[n - 4..].copy_from_slice(&c);
        assert!(pk::decode(&f, false).is_ok());
        assert!(check_frame(&f, f.len(), false).is_ok());
        f[IP_OFF + 11] ^= 1;
        assert_eq!(pk::decode(&f, false).err(), Some(pk::Drop::BadIp));
    }
}
