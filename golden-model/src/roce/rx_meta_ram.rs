//! Twin of `hdl/src/roce/rx_meta_ram.rs`: the parser's metadata queue
//! storage, 2^MA entries, read one cycle after the address. See the RTL's
//! docs for the ports.

use crate::mem::ram::Bank;
use crate::Cycle;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    pub write_address: u32,
    pub write_enable: bool,
    pub w_op: u8,
    pub w_a: u64,
    pub w_va: u64,
    pub w_rd: u64,
    pub w_aeth: u32,
    pub w_tlm_hdr: u64,
    pub w_tlm_hop0: u64,
    pub w_tlm_hop1: u64,
    pub w_tlm_hop2: u64,
    pub w_tlm_hop3: u64,
    pub w_tlm_hop4: u64,
    pub w_len: u16,
    pub w_ps: u16,
    pub w_pay_end: u16,
    pub w_sh: bool,
    pub w_nz: bool,
    pub w_ce: bool,
    pub read_address: u32,
}

/// One entry, also the outputs of a cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub op: u8,
    pub a: u64,
    pub va: u64,
    pub rd: u64,
    pub aeth: u32,
    pub tlm_hdr: u64,
    pub tlm_hop0: u64,
    pub tlm_hop1: u64,
    pub tlm_hop2: u64,
    pub tlm_hop3: u64,
    pub tlm_hop4: u64,
    pub len: u16,
    pub ps: u16,
    pub pay_end: u16,
    pub sh: bool,
    pub nz: bool,
    pub ce: bool,
}

#[derive(Clone, Debug)]
pub struct RxMetaRam<const MA: usize> {
    bank: Bank<Out>,
}

impl<const MA: usize> Default for RxMetaRam<MA> {
    fn default() -> Self {
        Self {
            bank: Bank::new(MA),
        }
    }
}

impl<const MA: usize> Cycle for RxMetaRam<MA> {
    type In = In;
    type Out = Out;
    fn step(&mut self, i: &In) -> Out {
        let o = self.bank.read_data();
        let entry = Out {
            op: i.w_op,
            a: i.w_a,
            va: i.w_va,
            rd: i.w_rd,
            aeth: i.w_aeth,
            tlm_hdr: i.w_tlm_hdr,
            tlm_hop0: i.w_tlm_hop0,
            tlm_hop1: i.w_tlm_hop1,
            tlm_hop2: i.w_tlm_hop2,
            tlm_hop3: i.w_tlm_hop3,
            tlm_hop4: i.w_tlm_hop4,
            len: i.w_len & 0x1fff,
            ps: i.w_ps,
            pay_end: i.w_pay_end,
            sh: i.w_sh,
            nz: i.w_nz,
            ce: i.w_ce,
        };
        self.bank
            .step(i.read_address, i.write_address, i.write_enable, entry);
        o
    }
}
