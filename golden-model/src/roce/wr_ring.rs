//! Twin of `hdl/src/roce/wr_ring.rs`: the requester's work-request ring,
//! 2^AQ entries, a read registered twice (the RAM, then its output
//! register). See the RTL's docs for the ports.

use crate::mem::ram::Bank;
use crate::Cycle;

/// One entry (each field cut to its port's width).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Entry {
    pub read: u8,
    pub laddr: u64,
    pub va: u64,
    pub rkey: u32,
    pub len: u32,
    pub tag: u32,
    pub seq_first: u32,
    pub psn_first: u32,
}

impl Entry {
    fn masked(self) -> Entry {
        Entry {
            read: self.read & 0x1f,
            psn_first: self.psn_first & 0xff_ffff,
            ..self
        }
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    pub write_address: u32,
    pub write_enable: bool,
    pub w_read: u8,
    pub w_laddr: u64,
    pub w_va: u64,
    pub w_rkey: u32,
    pub w_len: u32,
    pub w_tag: u32,
    pub w_seq_first: u32,
    pub w_psn_first: u32,
    pub read_address: u32,
}

/// The outputs of a cycle: the entry read.
pub type Out = Entry;

#[derive(Clone, Debug)]
pub struct WrRing<const AQ: usize> {
    /// The RAMs and their read registers.
    bank: Bank<Entry>,
    /// The output registers.
    out_q: Entry,
}

impl<const AQ: usize> Default for WrRing<AQ> {
    fn default() -> Self {
        Self {
            bank: Bank::new(AQ),
            out_q: Entry::default(),
        }
    }
}

impl<const AQ: usize> Cycle for WrRing<AQ> {
    type In = In;
    type Out = Out;
    fn step(&mut self, i: &In) -> Out {
        let o = self.out_q;
        self.out_q = self.bank.read_data();
        let entry = Entry {
            read: i.w_read,
            laddr: i.w_laddr,
            va: i.w_va,
            rkey: i.w_rkey,
            len: i.w_len,
            tag: i.w_tag,
            seq_first: i.w_seq_first,
            psn_first: i.w_psn_first,
        }
        .masked();
        self.bank
            .step(i.read_address, i.write_address, i.write_enable, entry);
        o
    }
}
