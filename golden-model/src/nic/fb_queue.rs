//! Twin of `hdl/src/nic/fb_queue.rs`: the feedback the dispatcher hands
//! the requester waits in a FIFO of 2^L records; the dispatcher waits only
//! while 2^L are held.

use crate::mem::fifo::FifoOf;
use crate::roce::CcFeedback;
use crate::Cycle;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    pub fb_valid: bool,
    pub fb: CcFeedback,
    pub out_ready: bool,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub fb_ready: bool,
    pub out_valid: bool,
    pub out: CcFeedback,
    /// The most records held at once so far.
    pub high_water: u32,
}

#[derive(Clone, Debug, Default)]
pub struct FbQueue<const A: usize, const L: usize> {
    q: FifoOf<CcFeedback, L>,
    count: u32,
    most: u32,
}

impl<const A: usize, const L: usize> FbQueue<A, L> {
    /// Records held (pushed and not yet taken).
    pub fn len(&self) -> usize {
        self.count as usize
    }
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }
    /// The most records held at once so far.
    pub fn high_water(&self) -> u32 {
        self.most.max(self.count)
    }
}

/// The record at the queue's field widths.
fn masked<const A: usize>(r: &CcFeedback) -> CcFeedback {
    CcFeedback {
        flow: r.flow & ((1 << A) - 1),
        psn: r.psn & 0xFF_FFFF,
        ..*r
    }
}

impl<const A: usize, const L: usize> Cycle for FbQueue<A, L> {
    type In = In;
    type Out = Out;
    fn step(&mut self, i: &In) -> Out {
        let full = self.count == 1 << L;
        let head = self.q.head();
        let out = Out {
            fb_ready: !full,
            out_valid: head.is_some(),
            out: head.unwrap_or_default(),
            high_water: self.most,
        };
        let push = i.fb_valid && !full;
        let pop = head.is_some() && i.out_ready;
        self.most = self.most.max(self.count);
        self.count = self.count + push as u32 - pop as u32;
        self.q.step(push.then(|| masked::<A>(&i.fb)), pop);
        out
    }
}
