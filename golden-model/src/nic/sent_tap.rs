//! Twin of `hdl/src/nic/sent_tap.rs`: the bytes DCQCN flows send, as
//! SENT events for the reaction point's byte counter.

use crate::cc::RpEvent;
use crate::Cycle;
use nic_spec::dcqcn::{OP_CREATE, OP_SENT};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    pub cfg_on: bool,
    pub ctl_taken: bool,
    pub ctl_op: u8,
    pub ctl_flow: u32,
    pub desc_taken: bool,
    pub desc_flow: u32,
    pub desc_len: u16,
    pub sent_ready: bool,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub sent_valid: bool,
    pub sent: RpEvent,
    pub sent_pkts: u32,
    pub sent_drops: u32,
}

#[derive(Clone, Debug)]
pub struct SentTap<const A: usize> {
    /// One bit per flow: a DCQCN flow.
    is_dcqcn: Vec<bool>,
    /// The RAM's registered read (the word at the last cycle's address,
    /// before that cycle's write).
    read_bit: bool,
    look_v: bool,
    look_flow: u32,
    look_len: u16,
    bypass_v: bool,
    bypass_bit: bool,
    pend_v: bool,
    pend_flow: u32,
    pend_bytes: u16,
    pkts: u32,
    drops: u32,
}

impl<const A: usize> Default for SentTap<A> {
    fn default() -> Self {
        Self {
            is_dcqcn: vec![false; 1 << A],
            read_bit: false,
            look_v: false,
            look_flow: 0,
            look_len: 0,
            bypass_v: false,
            bypass_bit: false,
            pend_v: false,
            pend_flow: 0,
            pend_bytes: 0,
            pkts: 0,
            drops: 0,
        }
    }
}

impl<const A: usize> Cycle for SentTap<A> {
    type In = In;
    type Out = Out;
    fn step(&mut self, i: &In) -> Out {
        let mask = (1u32 << A) - 1;
        let (ctl_flow, desc_flow) = (i.ctl_flow & mask, i.desc_flow & mask);
        let desc_len = i.desc_len & 0x1FFF;
        let out = Out {
            sent_valid: self.pend_v,
            sent: RpEvent {
                op: OP_SENT,
                flow: self.pend_flow as u16,
                bytes: self.pend_bytes as u32,
            },
            sent_pkts: self.pkts,
            sent_drops: self.drops,
        };
        // The pending SENT, from the lookup of the last cycle.
        let bit = if self.bypass_v {
            self.bypass_bit
        } else {
            self.read_bit
        };
        let dcqcn_pkt = self.look_v && bit;
        let taken = self.pend_v && i.sent_ready;
        if taken {
            self.pend_v = false;
        }
        if dcqcn_pkt {
            self.pkts = self.pkts.wrapping_add(1);
            if self.pend_v && self.pend_flow == self.look_flow {
                // (`pend_v` is still set here only if not taken.)
                self.pend_bytes =
                    (self.pend_bytes as u32 + self.look_len as u32).min(0xFFFF) as u16;
            } else if !self.pend_v {
                self.pend_v = true;
                self.pend_flow = self.look_flow;
                self.pend_bytes = self.look_len;
            } else {
                self.drops = self.drops.wrapping_add(1);
            }
        }
        // This cycle's lookup: the RAM reads before it writes.
        self.read_bit = self.is_dcqcn[desc_flow as usize];
        if i.ctl_taken {
            self.is_dcqcn[ctl_flow as usize] = (i.ctl_op & 3) == OP_CREATE;
        }
        self.look_v = i.cfg_on && i.desc_taken && desc_len != 0;
        self.look_flow = desc_flow;
        self.look_len = desc_len;
        self.bypass_v = i.ctl_taken && ctl_flow == desc_flow;
        self.bypass_bit = (i.ctl_op & 3) == OP_CREATE;
        out
    }
}
