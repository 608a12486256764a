//! Twin of `hdl/src/nic/read_queue.rs`: the READ requests the dispatcher
//! accepts wait for the READ responder in a FIFO of 2^L; the dispatcher
//! waits only while 2^L are held.

use crate::mem::fifo::FifoOf;
use crate::roce::ReadReq;
use crate::Cycle;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    pub rdreq_valid: bool,
    pub rdreq: ReadReq,
    pub out_ready: bool,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub rdreq_ready: bool,
    pub out_valid: bool,
    pub out: ReadReq,
}

#[derive(Clone, Debug, Default)]
pub struct ReadQueue<const A: usize, const L: usize> {
    q: FifoOf<ReadReq, L>,
    count: u32,
}

impl<const A: usize, const L: usize> ReadQueue<A, L> {
    /// Requests held (pushed and not yet taken).
    pub fn len(&self) -> usize {
        self.count as usize
    }
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }
}

/// The record at the queue's field widths.
fn masked<const A: usize>(r: &ReadReq) -> ReadReq {
    ReadReq {
        flow: r.flow & ((1 << A) - 1),
        psn: r.psn & 0xFF_FFFF,
        msn: r.msn & 0xFF_FFFF,
        ..*r
    }
}

impl<const A: usize, const L: usize> Cycle for ReadQueue<A, L> {
    type In = In;
    type Out = Out;
    fn step(&mut self, i: &In) -> Out {
        let full = self.count == 1 << L;
        let head = self.q.head();
        let out = Out {
            rdreq_ready: !full,
            out_valid: head.is_some(),
            out: head.unwrap_or_default(),
        };
        let push = i.rdreq_valid && !full;
        let pop = head.is_some() && i.out_ready;
        self.count = self.count + push as u32 - pop as u32;
        self.q.step(push.then(|| masked::<A>(&i.rdreq)), pop);
        out
    }
}
