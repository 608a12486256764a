//! Twin of `hdl/src/roce/rx_verdict.rs`: the Rx parser's verdict, its
//! three stages as registers, each the RTL's formula on the frame's
//! words (see the RTL's docs for the ports). The parser's own test checks
//! the verdicts against `rx_parse::check_frame` on whole frames.

use crate::roce::op_decode::decode;
use crate::Cycle;
use nic_spec::mac::FCS_RESIDUE as RESIDUE;
use nic_spec::roce::{Drop, ROCE_PORT};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    /// 20 bits.
    pub ipacc: u32,
    pub fcs_bad: bool,
    /// 20 bits.
    pub flen: u32,
    pub crc: u32,
    pub w1: u64,
    pub w2: u64,
    pub w4: u64,
    pub w5: u64,
    pub w6: u64,
    pub w7: u64,
    pub w8: u64,
    pub w9: u64,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub reason: u8,
    pub pay_len: u16,
    pub pay_w0: u16,
    pub pay_sh: bool,
    pub ce: bool,
    pub reth: bool,
    pub aeth: bool,
    pub tlm: bool,
}

/// Stage A's registers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct StageA {
    fcs: bool,
    trunc: bool,
    eth: bool,
    ip: bool,
    port: bool,
    opc: bool,
    lena: bool,
    tlm_bad: bool,
    pp: u16,
    pad: u16,
    pay: bool,
    r: bool,
    a: bool,
    t: bool,
    p: u8,
    ce: bool,
}

/// Stage B's registers (`Out` without the ICRC's verdict).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RxVerdict {
    a: StageA,
    why: u8,
    b: Out,
    c: Out,
}

/// The byte of word `w` at bit `lo` (its lane is `lo / 8`).
fn byte(w: u64, lo: u32) -> u8 {
    (w >> lo) as u8
}

fn stage_a(i: &In) -> StageA {
    const M20: u32 = (1 << 20) - 1;
    let flen = i.flen & M20;
    let ipacc = i.ipacc & M20;
    let ipsum_ok = (1..=10).any(|n| ipacc == 0xFFFF * n);
    let iptot = u16::from_be_bytes([byte(i.w2, 0), byte(i.w2, 8)]);
    let udpl = u16::from_be_bytes([byte(i.w4, 48), byte(i.w4, 56)]);
    let ipend = iptot as u32 + 14;
    let ipm20 = iptot.wrapping_sub(20);
    let eth_ok = (i.w1 >> 32) as u16 == 0x0008;
    let d = decode(byte(i.w5, 16));
    let t = (i.w5 >> 48) & 1 == 1;
    let hdr1: u16 = if d.reth {
        60
    } else if d.aeth {
        48
    } else {
        44
    };
    let hdrs = if t { hdr1 + 48 } else { hdr1 };
    let pp = (iptot as u32).wrapping_sub(hdrs as u32) & 0x1_FFFF;
    let (tb0, tb1, tb2) = if d.reth {
        (byte(i.w8, 48), byte(i.w8, 56), byte(i.w9, 0))
    } else if d.aeth {
        (byte(i.w7, 16), byte(i.w7, 24), byte(i.w7, 32))
    } else {
        (byte(i.w6, 48), byte(i.w6, 56), byte(i.w7, 0))
    };
    StageA {
        fcs: i.fcs_bad,
        trunc: flen < 54 || flen < ipend,
        eth: !eth_ok,
        ip: byte(i.w1, 48) != 0x45
            || byte(i.w2, 32) & 0x3F != 0
            || byte(i.w2, 40) != 0
            || byte(i.w2, 56) != 17
            || !ipsum_ok,
        port: (i.w4 >> 32) as u16 != ROCE_PORT.swap_bytes(),
        opc: !d.known || (i.w5 >> 24) & 0xF != 0,
        lena: udpl != ipm20 || iptot & 3 != 0 || pp >> 16 & 1 == 1,
        tlm_bad: (t && (tb0 >> 4 != 1 || tb1 > 5 || tb2 != 5)) || (d.hpcc && !t),
        pp: pp as u16,
        pad: ((i.w5 >> 28) & 3) as u16,
        pay: d.pay,
        r: d.reth,
        a: d.aeth,
        t,
        p: (hdrs + 10) as u8,
        ce: flen >= 16 && eth_ok && (i.w1 >> 56) & 3 == 3,
    }
}

/// The reason code of `d`: its index in `Drop::ALL` + 1.
fn code(d: Drop) -> u8 {
    Drop::ALL.iter().position(|&x| x == d).unwrap() as u8 + 1
}

impl Cycle for RxVerdict {
    type In = In;
    type Out = Out;
    fn step(&mut self, i: &In) -> Out {
        let o = self.c;
        // Stage C: the ICRC where nothing failed before it.
        let icrc_bad = i.crc != RESIDUE;
        self.c = Out {
            reason: if self.why != 0 {
                self.why
            } else if icrc_bad {
                code(Drop::BadIcrc)
            } else {
                0
            },
            ..self.b
        };
        // Stage B: the payload's lengths and the first failing reason.
        let a = self.a;
        let plen = a.pp.wrapping_sub(a.pad);
        let lenb = if a.pay {
            a.lena || a.pp < a.pad || plen > 4096
        } else {
            a.lena || a.pp != 0 || a.pad != 0
        };
        self.why = [
            (a.fcs, Drop::BadFcs),
            (a.trunc, Drop::Trunc),
            (a.eth, Drop::BadEth),
            (a.ip, Drop::BadIp),
            (a.port, Drop::BadPort),
            (a.opc, Drop::BadOpcode),
            (lenb, Drop::BadLen),
            (a.tlm_bad, Drop::BadTlm),
        ]
        .iter()
        .find(|(bad, _)| *bad)
        .map_or(0, |&(_, d)| code(d));
        self.b = Out {
            reason: 0,
            pay_len: plen & 0x1FFF,
            pay_w0: (a.p >> 3) as u16 & 0x1F,
            pay_sh: (a.p >> 2) & 1 == 1,
            ce: a.ce,
            reth: a.r,
            aeth: a.a,
            tlm: a.t,
        };
        // Stage A.
        self.a = stage_a(i);
        o
    }
}
