//! Twin of `hdl/src/roce/wr_check.rs` (`WrCheck`): the requester's
//! work-request checks, registers from the inputs of the cycle before
//! (`is_full` with the extent registered the cycle before that). See the
//! RTL's docs for the ports.

use crate::Cycle;
use nic_spec::roce::wr;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    pub opcode: u8,
    pub len: u32,
    /// 4 bits.
    pub mlog: u8,
    /// 9 bits each.
    pub tail: u32,
    pub head: u32,
    pub seq_tail: u32,
    pub una: u32,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub is_read: bool,
    pub bad_opcode: bool,
    pub bad_len: bool,
    pub ext: u32,
    pub n: u32,
    pub is_full: bool,
}

#[derive(Clone, Debug, Default)]
pub struct WrCheck<const Q: usize> {
    r: Out,
}

impl<const Q: usize> Cycle for WrCheck<Q> {
    type In = In;
    type Out = Out;

    fn step(&mut self, i: &In) -> Out {
        let out = self.r;
        let read = i.opcode == wr::READ;
        let used = i.tail.wrapping_sub(i.head) & ((2 << Q) - 1);
        let window = i.seq_tail.wrapping_sub(i.una) as u64 + self.r.ext as u64;
        self.r = Out {
            is_read: read,
            bad_opcode: i.opcode != wr::WRITE && !read,
            bad_len: i.len == 0 || i.len >> 31 == 1,
            ext: if read { 1 } else { i.len },
            n: if i.len == 0 {
                1
            } else {
                ((i.len - 1) >> (i.mlog & 0xF)).wrapping_add(1)
            },
            is_full: used == 1 << Q || window & (3 << 31) != 0,
        };
        out
    }
}
