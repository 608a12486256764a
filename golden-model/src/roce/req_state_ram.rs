//! Twin of `hdl/src/roce/req_state_ram.rs`: the requester's flow state,
//! 2^A entries, a read registered twice (the RAM, then its output
//! register). See the RTL's docs for the ports and the words.

use crate::mem::ram::Bank;
use crate::Cycle;

/// One entry (each field cut to its port's width).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Entry {
    pub active: bool,
    pub tlm_data: bool,
    pub armed: bool,
    pub rd_open: u8,
    pub rd_post: u8,
    pub err: bool,
    pub retries: u8,
    pub retry_limit: u8,
    pub head: u32,
    pub send_ix: u32,
    pub db: u32,
    pub tail: u32,
    pub gen: u8,
    pub epoch: u8,
    pub seq_tail: u32,
    pub una: u32,
    pub seq_exp: u32,
    pub rd_k: u32,
    pub psn_tail: u32,
    pub psn_next: u32,
    pub psn_max: u32,
}

impl Entry {
    fn masked(self) -> Entry {
        Entry {
            rd_open: self.rd_open & 0xf,
            rd_post: self.rd_post & 0xf,
            retries: self.retries & 0x7,
            retry_limit: self.retry_limit & 0x7,
            head: self.head & 0x1ff,
            send_ix: self.send_ix & 0x1ff,
            db: self.db & 0x1ff,
            tail: self.tail & 0x1ff,
            rd_k: self.rd_k & 0xffffff,
            psn_tail: self.psn_tail & 0xffffff,
            psn_next: self.psn_next & 0xffffff,
            psn_max: self.psn_max & 0xffffff,
            ..self
        }
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    pub write_address: u32,
    pub write_enable: bool,
    pub w_active: bool,
    pub w_tlm_data: bool,
    pub w_armed: bool,
    pub w_rd_open: u8,
    pub w_rd_post: u8,
    pub w_err: bool,
    pub w_retries: u8,
    pub w_retry_limit: u8,
    pub w_head: u32,
    pub w_send_ix: u32,
    pub w_db: u32,
    pub w_tail: u32,
    pub w_gen: u8,
    pub w_epoch: u8,
    pub w_seq_tail: u32,
    pub w_una: u32,
    pub w_seq_exp: u32,
    pub w_rd_k: u32,
    pub w_psn_tail: u32,
    pub w_psn_next: u32,
    pub w_psn_max: u32,
    pub read_address: u32,
}

/// The outputs of a cycle: the entry read.
pub type Out = Entry;

#[derive(Clone, Debug)]
pub struct ReqStateRam<const A: usize> {
    /// The RAMs and their read registers.
    bank: Bank<Entry>,
    /// The output registers.
    out_q: Entry,
}

impl<const A: usize> Default for ReqStateRam<A> {
    fn default() -> Self {
        Self {
            bank: Bank::new(A),
            out_q: Entry::default(),
        }
    }
}

impl<const A: usize> Cycle for ReqStateRam<A> {
    type In = In;
    type Out = Out;
    fn step(&mut self, i: &In) -> Out {
        let o = self.out_q;
        let entry = Entry {
            active: i.w_active,
            tlm_data: i.w_tlm_data,
            armed: i.w_armed,
            rd_open: i.w_rd_open,
            rd_post: i.w_rd_post,
            err: i.w_err,
            retries: i.w_retries,
            retry_limit: i.w_retry_limit,
            head: i.w_head,
            send_ix: i.w_send_ix,
            db: i.w_db,
            tail: i.w_tail,
            gen: i.w_gen,
            epoch: i.w_epoch,
            seq_tail: i.w_seq_tail,
            una: i.w_una,
            seq_exp: i.w_seq_exp,
            rd_k: i.w_rd_k,
            psn_tail: i.w_psn_tail,
            psn_next: i.w_psn_next,
            psn_max: i.w_psn_max,
        }
        .masked();
        self.out_q = self.bank.read_data();
        self.bank
            .step(i.read_address, i.write_address, i.write_enable, entry);
        o
    }
}
