//! Twin of `hdl/src/roce/read_psns.rs`: the PSNs a READ REQUEST
//! consumes ([`read_psns`], the transaction model's statement),
//! registered.

pub use super::txn::dispatch::read_psns;
use crate::Cycle;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    /// log2 MTU (4 bits; clamped to 8..=12).
    pub cfg_mtu_log2: u8,
    pub dlen: u32,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub psns: u32,
}

#[derive(Clone, Debug, Default)]
pub struct ReadPsns {
    psns: u32,
}

impl Cycle for ReadPsns {
    type In = In;
    type Out = Out;
    fn step(&mut self, i: &In) -> Out {
        let o = Out { psns: self.psns };
        self.psns = read_psns(i.dlen, i.cfg_mtu_log2 & 0xF);
        o
    }
}
