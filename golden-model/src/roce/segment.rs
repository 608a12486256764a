//! Twin of `hdl/src/roce/segment.rs`: the requester's segmentation, one
//! register stage, each output the RTL's formula on the inputs of the
//! cycle before, for any input. For an entry the requester wrote and a
//! cursor inside it these are [`segment`](super::requester::segment)'s
//! values (the block's test checks it). See the RTL's docs for the ports.

use crate::Cycle;
use nic_spec::roce::segment_opcode;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    /// 4 bits.
    pub mlog: u8,
    pub mtu: u32,
    pub cur: u32,
    pub rem: u16,
    pub read: bool,
    pub len: u32,
    pub ext: u32,
    pub last_k: u32,
    pub seq_first: u32,
    pub seq_end: u32,
    /// 24 bits.
    pub psn_first: u32,
    pub laddr: u64,
    pub va: u64,
    /// 24 bits.
    pub rd_k: u32,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub seg: u32,
    pub seg_eq_left: bool,
    pub trim: bool,
    pub opcode: u8,
    pub psn: u32,
    pub last: bool,
    pub wr_addr: u64,
    pub rd_va: u64,
    pub rd_dlen: u32,
    pub rd_psn: u32,
    pub psn_next: u32,
    pub cur_new: u32,
    pub rem_new: u16,
}

const PSN: u32 = (1 << 24) - 1;

/// The output registers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Segment {
    out: Out,
}

/// The registers' next values from one cycle's inputs (the RTL's
/// formulas, widths as its signals').
fn next(i: &In) -> Out {
    let mlog = (i.mlog & 0xF) as u32;
    let psn_first = i.psn_first & PSN;
    let rd_k = i.rd_k & PSN;
    let off = i.cur.wrapping_sub(i.seq_first);
    let k = off >> mlog;
    let left = i.ext.wrapping_sub(off);
    let left_lt_mtu = left < i.mtu;
    let rem = i.rem as u32;
    let opcode = segment_opcode(false, k == 0, k == i.last_k);
    let off_r = (rd_k as u64) << mlog;
    let k_next = if i.read { i.last_k } else { k } & PSN;
    Out {
        seg: if left_lt_mtu { left } else { i.mtu },
        seg_eq_left: left_lt_mtu || left == i.mtu,
        trim: left > rem && i.mtu > rem,
        opcode,
        psn: psn_first.wrapping_add(k) & PSN,
        last: k == i.last_k,
        wr_addr: i.laddr.wrapping_add(off as u64),
        rd_va: i.va.wrapping_add(off_r),
        rd_dlen: i.len.wrapping_sub(off_r as u32),
        rd_psn: psn_first.wrapping_add(rd_k) & PSN,
        psn_next: (psn_first + 1).wrapping_add(k_next) & PSN,
        cur_new: if left_lt_mtu {
            i.seq_end
        } else {
            i.cur.wrapping_add(i.mtu)
        },
        rem_new: if left_lt_mtu {
            i.rem
                .wrapping_add(i.cur as u16)
                .wrapping_sub(i.seq_end as u16)
        } else {
            i.rem.wrapping_sub(i.mtu as u16)
        },
    }
}

impl Cycle for Segment {
    type In = In;
    type Out = Out;
    fn step(&mut self, i: &In) -> Out {
        let o = self.out;
        self.out = next(i);
        o
    }
}
