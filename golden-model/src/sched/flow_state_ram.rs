//! Twin of `hdl/src/sched/flow_state_ram.rs`: the scheduler's per-flow
//! state, 2^A entries, read one cycle after the address. See the RTL's
//! docs for the ports.

use crate::mem::ram::Bank;
use crate::Cycle;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    pub write_address: u32,
    pub write_enable: bool,
    pub w_r: u32,
    pub w_w: u32,
    pub w_una: u32,
    pub w_nxt: u32,
    pub w_seq_end: u32,
    pub w_cr: u64,
    pub w_last: u32,
    pub w_fl: u8,
    pub w_ep: u8,
    pub read_address: u32,
}

/// One entry, also the outputs of a cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub r: u32,
    pub w: u32,
    pub una: u32,
    pub nxt: u32,
    pub seq_end: u32,
    pub cr: u64,
    pub last: u32,
    pub fl: u8,
    pub ep: u8,
}

#[derive(Clone, Debug)]
pub struct FlowStateRam<const A: usize> {
    bank: Bank<Out>,
}

impl<const A: usize> Default for FlowStateRam<A> {
    fn default() -> Self {
        Self { bank: Bank::new(A) }
    }
}

impl<const A: usize> Cycle for FlowStateRam<A> {
    type In = In;
    type Out = Out;
    fn step(&mut self, i: &In) -> Out {
        let o = self.bank.read_data();
        let entry = Out {
            r: i.w_r,
            w: i.w_w & 0xff_ffff,
            una: i.w_una,
            nxt: i.w_nxt,
            seq_end: i.w_seq_end,
            cr: i.w_cr & 0xfff_ffff_ffff,
            last: i.w_last,
            fl: i.w_fl & 0x3,
            ep: i.w_ep,
        };
        self.bank
            .step(i.read_address, i.write_address, i.write_enable, entry);
        o
    }
}
