//! Twin of `hdl/src/board/stats_cross.rs`: a counter read across clocks,
//! the index out in one `ReqSync`, the answer (hit, index, counter) back
//! in another, shown only for the current index. Each side is stepped on
//! its own clock's rising edge ([`StatsCross::step_clk`],
//! [`StatsCross::step_src`]); as in `ReqSync`'s twin, a test must never
//! put the two clocks' edges at the same instant.

use crate::mac::req_sync::{InSide, ReqSync};

/// The inputs on `clk`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClkIn {
    pub rst: bool,
    pub index: u16,
}

/// The inputs on `src_clk`: the source's answer for `Out::src_index`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SrcIn {
    pub src_rst: bool,
    pub src_data: u32,
    pub src_hit: bool,
}

/// The outputs: `data`, `hit` (on `clk`; `hit` compares with the
/// current `index`), `src_index` (on `src_clk`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub data: u32,
    pub hit: bool,
    pub src_index: u16,
}

#[derive(Clone, Debug, Default)]
pub struct StatsCross {
    to_src: ReqSync,
    to_clk: ReqSync,
}

const HIT: u64 = 1 << 48;

impl StatsCross {
    /// The outputs now, for the current `index` on `clk`.
    pub fn out(&self, index: u16) -> Out {
        let a = self.to_clk.out().data;
        Out {
            data: a as u32,
            hit: a & HIT != 0 && (a >> 32) as u16 == index,
            src_index: self.to_src.out().data as u16,
        }
    }

    /// A rising edge of `clk`.
    pub fn step_clk(&mut self, i: &ClkIn) {
        let send = !self.to_src.out().busy;
        self.to_src.step_in(&InSide {
            reset: i.rst,
            send,
            data: i.index as u64,
        });
        self.to_clk.step_out(i.rst);
    }

    /// A rising edge of `src_clk`; `i` answers the `src_index` the
    /// registers hold before it.
    pub fn step_src(&mut self, i: &SrcIn) {
        let src_index = self.to_src.out().data;
        let answer = ((i.src_hit as u64) << 48) | ((src_index & 0xFFFF) << 32) | i.src_data as u64;
        let send = !self.to_clk.out().busy;
        self.to_src.step_out(i.src_rst);
        self.to_clk.step_in(&InSide {
            reset: i.src_rst,
            send,
            data: answer,
        });
    }
}
