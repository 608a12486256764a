//! Twin of `hdl/src/sched/lazy_credit.rs` (`LazyCredit`): the
//! scheduler's lazy credit, register by register (see the RTL's docs for
//! the ports and the stages). The scheduler's own twin
//! (`sched::flow_sched`) states the same credit per operation, as
//! min(cap, credit + R·(now − last)).

use crate::arith::wide_mul::{self, WideMul};
use crate::Cycle;

const M44: u64 = (1 << 44) - 1;
const M45: u64 = (1 << 45) - 1;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    pub cfg_mtu: u16,
    /// 20 bits.
    pub cfg_cap: u32,
    pub r: u32,
    pub now: u32,
    pub last: u32,
    /// 44 bits.
    pub cr: u64,
    pub len: u16,
    pub refund: u32,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub cr_acc: u64,
    pub cr_short: bool,
    pub cr_sent: u64,
    pub cr_trim: u64,
}

/// The effective cap, UQ20.24: max(`cfg_cap`, `cfg_mtu`) bytes.
pub fn cap(cfg_mtu: u16, cfg_cap: u32) -> u64 {
    (cfg_mtu as u64).max((cfg_cap & 0xF_FFFF) as u64) << 24
}

#[derive(Default)]
pub struct LazyCredit {
    mul: WideMul,
    cap: u64,
    sum8: u64,
    cracc9: u64,
    cracc10: u64,
    diff10: u64,
    trim10: u64,
    refund_big10: bool,
}

impl Cycle for LazyCredit {
    type In = In;
    type Out = Out;

    fn step(&mut self, i: &In) -> Out {
        let out = Out {
            cr_acc: self.cracc10,
            cr_short: (self.diff10 >> 44) & 1 != 0,
            cr_sent: self.diff10 & M44,
            cr_trim: if self.refund_big10 || self.trim10 > self.cap {
                self.cap
            } else {
                self.trim10 & M44
            },
        };
        let p = self
            .mul
            .step(&wide_mul::In {
                a: i.r,
                b: i.now.wrapping_sub(i.last),
                in_valid: true,
            })
            .p;
        let psat = if p >> 44 != 0 { M44 } else { p };
        // S9 → S10.
        self.cracc10 = self.cracc9;
        self.trim10 = self.cracc9 + (((i.refund & 0xF_FFFF) as u64) << 24);
        self.refund_big10 = i.refund >> 20 != 0;
        self.diff10 = self.cracc9.wrapping_sub((i.len as u64) << 24) & M45;
        // S8 → S9: the cap.
        self.cracc9 = if self.sum8 > self.cap {
            self.cap
        } else {
            self.sum8 & M44
        };
        // S7 → S8.
        self.sum8 = (i.cr & M44) + psat;
        self.cap = cap(i.cfg_mtu, i.cfg_cap);
        out
    }
}
