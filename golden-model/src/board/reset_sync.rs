//! Twin of `hdl/src/board/reset_sync.rs`: a reset taken into a clock
//! domain through two flip-flops, both 1 at configuration.

use crate::Cycle;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    pub rst_in: bool,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub rst: bool,
}

#[derive(Clone, Debug)]
pub struct ResetSync {
    meta: bool,
    sync: bool,
}

impl Default for ResetSync {
    fn default() -> Self {
        Self {
            meta: true,
            sync: true,
        }
    }
}

impl Cycle for ResetSync {
    type In = In;
    type Out = Out;
    fn step(&mut self, i: &In) -> Out {
        let out = Out { rst: self.sync };
        self.sync = self.meta;
        self.meta = i.rst_in;
        out
    }
}
