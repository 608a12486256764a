//! Twin of `hdl/src/nic/desc_queue.rs`: the requester's Tx descriptors
//! wait for the Tx arbiter in a FIFO of 2^L; `desc_full` tells the
//! requester to cut its PktSend.

use crate::mem::fifo::FifoOf;
use crate::roce::TxDesc;
use crate::Cycle;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    pub desc_valid: bool,
    pub desc: TxDesc,
    pub out_ready: bool,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub desc_ready: bool,
    pub out_valid: bool,
    pub out: TxDesc,
    pub desc_full: bool,
}

#[derive(Clone, Debug, Default)]
pub struct DescQueue<const A: usize, const L: usize> {
    q: FifoOf<TxDesc, L>,
    count: u32,
}

impl<const A: usize, const L: usize> DescQueue<A, L> {
    /// Records held (pushed and not yet taken).
    pub fn len(&self) -> usize {
        self.count as usize
    }
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }
}

/// The record at the queue's field widths.
fn masked<const A: usize>(d: &TxDesc) -> TxDesc {
    TxDesc {
        flow: d.flow & ((1 << A) - 1),
        psn: d.psn & 0xFF_FFFF,
        len: d.len & 0x1FFF,
        ..*d
    }
}

impl<const A: usize, const L: usize> Cycle for DescQueue<A, L> {
    type In = In;
    type Out = Out;
    fn step(&mut self, i: &In) -> Out {
        let full = self.count == 1 << L;
        let head = self.q.head();
        let out = Out {
            desc_ready: !full,
            out_valid: head.is_some(),
            out: head.unwrap_or_default(),
            desc_full: full,
        };
        let push = i.desc_valid && !full;
        let pop = head.is_some() && i.out_ready;
        self.count = self.count + push as u32 - pop as u32;
        self.q.step(push.then(|| masked::<A>(&i.desc)), pop);
        out
    }
}
