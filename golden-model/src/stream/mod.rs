//! Golden twins of the stream blocks (`hdl/src/stream`).
//!
//! Port structs carry the stream fields as plain integers: `tdata` up to
//! 128 bits, `tkeep` up to 16, `tuser` up to 32. The models mask every
//! field to the block's widths.

pub mod axis_fifo;
pub mod axis_narrow;
pub mod axis_skid;
pub mod axis_widen;

use crate::mask;

/// One beat of a stream.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Beat {
    pub tdata: u128,
    pub tkeep: u16,
    pub tlast: bool,
    pub tuser: u32,
}

impl Beat {
    /// The beat with every field cut to the widths D, K, U.
    pub fn masked(self, d: usize, k: usize, u: usize) -> Beat {
        Beat {
            tdata: self.tdata & mask(d),
            tkeep: (self.tkeep as u128 & mask(k)) as u16,
            tlast: self.tlast,
            tuser: (self.tuser as u128 & mask(u)) as u32,
        }
    }
}

/// A block with one stream in and one stream out: the inputs of a cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    pub s_tdata: u128,
    pub s_tkeep: u16,
    pub s_tlast: bool,
    pub s_tuser: u32,
    pub s_tvalid: bool,
    pub m_tready: bool,
}

impl In {
    pub fn beat(&self) -> Beat {
        Beat {
            tdata: self.s_tdata,
            tkeep: self.s_tkeep,
            tlast: self.s_tlast,
            tuser: self.s_tuser,
        }
    }
}

/// Number of low lanes of `keep` set before the first clear one (the twin
/// of `nic_hdl::stream::KeepCount`'s `n`).
pub fn keep_count(keep: u8) -> u8 {
    keep.trailing_ones() as u8
}
