//! Twin of `hdl/src/stream/axis_narrow.rs`: a 64-bit frame stream to an
//! 8-bit one, register for register. See the RTL's docs.

use super::{Axis, Axis8};
use crate::Cycle;

/// One cycle's inputs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    pub reset: bool,
    pub s: Axis,
    pub m_tready: bool,
}

/// One cycle's outputs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub s_tready: bool,
    pub m: Axis8,
}

#[derive(Clone, Debug, Default)]
pub struct AxisNarrow {
    hold_d: u64,
    /// Bytes still to send, the current one included.
    hold_left: u8,
    hold_last: bool,
    hold_user: bool,
    hold_v: bool,
}

impl Cycle for AxisNarrow {
    type In = In;
    type Out = Out;
    fn step(&mut self, i: &In) -> Out {
        let on_last = self.hold_left == 1;
        let s_tready = !self.hold_v || (i.m_tready && on_last);
        let out = Out {
            s_tready,
            m: Axis {
                tdata: self.hold_d as u8,
                tkeep: true,
                tvalid: self.hold_v,
                tlast: self.hold_last && on_last,
                tuser: self.hold_user && on_last,
            },
        };
        if i.reset {
            *self = Self::default();
            return out;
        }
        if self.hold_v && i.m_tready {
            self.hold_d >>= 8;
            self.hold_left = self.hold_left.wrapping_sub(1) & 15;
            if on_last {
                self.hold_v = false;
            }
        }
        if i.s.tvalid && s_tready {
            self.hold_v = true;
            self.hold_d = i.s.tdata;
            self.hold_last = i.s.tlast;
            self.hold_user = i.s.tuser;
            self.hold_left = 8;
            if i.s.tlast {
                let n = i.s.tkeep.trailing_ones() as u8;
                if n == 0 {
                    self.hold_left = 1;
                    self.hold_user = true;
                } else {
                    self.hold_left = n;
                }
            }
        }
        out
    }
}
