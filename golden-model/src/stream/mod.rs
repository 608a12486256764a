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

/// The forward half of a stream in one cycle: what its source drives, the
/// beat and `tvalid`. It is the one golden stream type: a port struct holds
/// a stream as one field of this type (`s`, `h2c`, `tx`) in the source's
/// direction (`In` for a sink port, `Out` for a source port), and the one
/// wire that runs back, `tready`, as a `bool` beside it (`s_tready`,
/// `h2c_tready`). A harness maps the field onto a rust-hdl `AxisSink` or
/// `AxisSource` bundle in one line (`records_in { h2c: s_axis_h2c }`).
///
/// The types give the widths: `tdata: D`, `tkeep: K` (one bit a byte),
/// `tuser: U`. The default is the NIC's 64-bit stream with a 1-bit tuser;
/// [`Axis8`] is the byte stream of the GMII and UART blocks, [`AxisWide`]
/// the generic stream blocks' port (up to 128 bits, masked by the model).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Axis<D = u64, K = u8, U = bool> {
    pub tdata: D,
    pub tkeep: K,
    pub tlast: bool,
    pub tuser: U,
    pub tvalid: bool,
}

/// The byte stream (GMII, UART): 8 data bits, one keep bit.
pub type Axis8 = Axis<u8, bool, bool>;
/// The generic stream blocks' port: every field at its widest.
pub type AxisWide = Axis<u128, u16, u32>;

impl Axis {
    /// A valid 64-bit beat with tuser clear.
    pub fn word(tdata: u64, tkeep: u8, tlast: bool) -> Axis {
        Axis {
            tdata,
            tkeep,
            tlast,
            tuser: false,
            tvalid: true,
        }
    }
}

impl AxisWide {
    /// The beat this cycle shows (whether valid or not).
    pub fn beat(&self) -> Beat {
        Beat {
            tdata: self.tdata,
            tkeep: self.tkeep,
            tlast: self.tlast,
            tuser: self.tuser,
        }
    }

    /// A beat shown with the given valid.
    pub fn from_beat(b: Beat, tvalid: bool) -> AxisWide {
        Axis {
            tdata: b.tdata,
            tkeep: b.tkeep,
            tlast: b.tlast,
            tuser: b.tuser,
            tvalid,
        }
    }
}

/// A frame as the valid 64-bit beats that carry it: byte 0 in lane 0,
/// `tkeep` all ones but on the last beat, `tlast` on the last.
pub fn frame_beats(frame: &[u8]) -> impl Iterator<Item = Axis> + '_ {
    let n = frame.len().div_ceil(8);
    frame.chunks(8).enumerate().map(move |(k, b)| {
        let mut lanes = [0u8; 8];
        lanes[..b.len()].copy_from_slice(b);
        Axis::word(
            u64::from_le_bytes(lanes),
            ((1u16 << b.len()) - 1) as u8,
            k + 1 == n,
        )
    })
}

/// A block with one stream in and one stream out: the inputs of a cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    pub s: AxisWide,
    pub m_tready: bool,
}

impl In {
    pub fn beat(&self) -> Beat {
        self.s.beat()
    }
}

/// Number of low lanes of `keep` set before the first clear one (the twin
/// of `nic_hdl::stream::KeepCount`'s `n`).
pub fn keep_count(keep: u8) -> u8 {
    keep.trailing_ones() as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frame_beats_keep_and_last() {
        let f: Vec<u8> = (1..=13).collect();
        let b: Vec<Axis> = frame_beats(&f).collect();
        assert_eq!(b.len(), 2);
        assert_eq!(b[0], Axis::word(0x0807_0605_0403_0201, 0xFF, false));
        assert_eq!(b[1], Axis::word(0x0d_0c0b_0a09, 0x1F, true));
        let g: Vec<Axis> = frame_beats(&f[..8]).collect();
        assert_eq!(g, vec![Axis::word(0x0807_0605_0403_0201, 0xFF, true)]);
    }
}
