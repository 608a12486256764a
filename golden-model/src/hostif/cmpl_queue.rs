//! Twin of `hdl/src/hostif/cmpl_queue.rs`: the core's completions wait in
//! a FIFO of 2^L records for the send-queue engine; the requester waits
//! only while 2^L are held.

use crate::mem::fifo::FifoOf;
use crate::roce::WrCompletion;
use crate::Cycle;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    pub cmpl_valid: bool,
    pub cmpl: WrCompletion,
    pub out_ready: bool,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub cmpl_ready: bool,
    pub out_valid: bool,
    pub out: WrCompletion,
}

#[derive(Clone, Debug, Default)]
pub struct CmplQueue<const L: usize> {
    q: FifoOf<WrCompletion, L>,
    count: u32,
}

impl<const L: usize> CmplQueue<L> {
    /// Completions held (taken and not yet given).
    pub fn len(&self) -> usize {
        self.count as usize
    }
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }
}

impl<const L: usize> Cycle for CmplQueue<L> {
    type In = In;
    type Out = Out;
    fn step(&mut self, i: &In) -> Out {
        let full = self.count == 1 << L;
        let head = self.q.head();
        let out = Out {
            cmpl_ready: !full,
            out_valid: head.is_some(),
            out: head.unwrap_or_default(),
        };
        let push = i.cmpl_valid && !full;
        let pop = head.is_some() && i.out_ready;
        self.count = self.count + push as u32 - pop as u32;
        self.q.step(push.then_some(i.cmpl), pop);
        out
    }
}
