//! Twin of `hdl/src/nic/read_resp.rs`: a READ request becomes its READ
//! RESPONSE descriptors, one per MTU (a register of the configured one).

use crate::roce::{ReadReq, TxDesc};
use crate::Cycle;
use nic_spec::roce::{segment_opcode, syndrome};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    pub cfg_mtu_log2: u8,
    pub rdreq_valid: bool,
    pub rdreq: ReadReq,
    pub desc_ready: bool,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub rdreq_ready: bool,
    pub desc_valid: bool,
    pub desc: TxDesc,
    pub reads: u32,
    pub resps: u32,
}

#[derive(Clone, Debug, Default)]
pub struct ReadResp<const A: usize> {
    busy: bool,
    first: bool,
    flow: u32,
    psn: u32,
    addr: u64,
    left: u32,
    msn: u32,
    reads: u32,
    resps: u32,
    /// The MTU, registered from `cfg_mtu_log2` (0 before the first cycle).
    mtu: u32,
}

impl<const A: usize> Cycle for ReadResp<A> {
    type In = In;
    type Out = Out;
    fn step(&mut self, i: &In) -> Out {
        let mtu = self.mtu;
        let last = self.left <= mtu;
        let out = Out {
            rdreq_ready: !self.busy,
            desc_valid: self.busy,
            desc: TxDesc {
                flow: self.flow,
                opcode: segment_opcode(true, self.first, last),
                psn: self.psn,
                len: (if last { self.left } else { mtu } & 0x1FFF) as u16,
                addr: self.addr,
                aeth: ((syndrome::ACK as u32) << 24) | self.msn,
                ..Default::default()
            },
            reads: self.reads,
            resps: self.resps,
        };
        let send = self.busy && i.desc_ready;
        if !self.busy && i.rdreq_valid {
            let r = &i.rdreq;
            self.busy = true;
            self.first = true;
            self.flow = r.flow & crate::mask(A) as u32;
            self.psn = r.psn & 0xFF_FFFF;
            self.addr = r.va;
            self.left = r.len;
            self.msn = r.msn & 0xFF_FFFF;
            self.reads = self.reads.wrapping_add(1);
        }
        if send {
            self.resps = self.resps.wrapping_add(1);
            self.first = false;
            self.psn = (self.psn + 1) & 0xFF_FFFF;
            self.addr = self.addr.wrapping_add(mtu as u64);
            self.left = self.left.wrapping_sub(mtu);
            if last {
                self.busy = false;
            }
        }
        self.mtu = 1u32 << (i.cfg_mtu_log2 & 0xF).clamp(8, 12);
        out
    }
}
