//! Twin of `hdl/src/stream/axis_widen.rs`: an 8-bit frame stream to a
//! 64-bit one, register for register. See the RTL's docs.

use super::{Axis, Axis8};
use crate::Cycle;

/// One cycle's inputs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    pub reset: bool,
    /// Its `tkeep` is ignored (every beat is one byte).
    pub s: Axis8,
    pub m_tready: bool,
}

/// One cycle's outputs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub s_tready: bool,
    pub m: Axis,
}

#[derive(Clone, Debug, Default)]
pub struct AxisWiden {
    acc_d: u64,
    acc_n: u8,
    acc_k: u8,
    out_d: u64,
    out_k: u8,
    out_last: bool,
    out_user: bool,
    out_v: bool,
}

impl Cycle for AxisWiden {
    type In = In;
    type Out = Out;
    fn step(&mut self, i: &In) -> Out {
        let s_tready = !self.out_v || i.m_tready;
        let out = Out {
            s_tready,
            m: Axis {
                tdata: self.out_d,
                tkeep: self.out_k,
                tvalid: self.out_v,
                tlast: self.out_last,
                tuser: self.out_user,
            },
        };
        if i.reset {
            *self = Self::default();
            return out;
        }
        if self.out_v && i.m_tready {
            self.out_v = false;
        }
        if i.s.tvalid && s_tready {
            let with = self.acc_d | ((i.s.tdata as u64) << (8 * self.acc_n));
            let k = (self.acc_k << 1) | 1;
            if self.acc_n == 7 || i.s.tlast {
                self.out_v = true;
                self.out_d = with;
                self.out_k = k;
                self.out_last = i.s.tlast;
                self.out_user = i.s.tlast && i.s.tuser;
                self.acc_d = 0;
                self.acc_n = 0;
                self.acc_k = 0;
            } else {
                self.acc_d = with;
                self.acc_n += 1;
                self.acc_k = k;
            }
        }
        out
    }
}
