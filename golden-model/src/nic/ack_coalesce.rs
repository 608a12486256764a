//! Twin of `hdl/src/nic/ack_coalesce.rs`: the responder's ACKs wait for
//! the Tx in one slot per flow; a newer ACK of a flow replaces the one
//! waiting (ACKs and NAKs are cumulative).

use crate::mem::fifo::FifoOf;
use crate::roce::AckInfo;
use crate::Cycle;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    pub ack_valid: bool,
    pub ack: AckInfo,
    pub out_ready: bool,
    /// The Tx arbiter's control budget lets an ACK go (`TxArb::ctl_open`):
    /// the head is read into the output register only then.
    pub open: bool,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub ack_ready: bool,
    pub out_valid: bool,
    pub out: AckInfo,
    pub coalesced: u32,
}

#[derive(Clone, Debug)]
pub struct AckCoalesce<const A: usize> {
    /// The input register.
    input: Option<AckInfo>,
    /// Each flow's slot (block RAM) and whether the flow is queued.
    slots: Vec<AckInfo>,
    queued: Vec<bool>,
    /// The queued flows, oldest first.
    order: FifoOf<u32, A>,
    /// The slot read in flight (the RAM's registered output).
    read: Option<AckInfo>,
    out_valid: bool,
    out: AckInfo,
    coalesced: u32,
}

impl<const A: usize> Default for AckCoalesce<A> {
    fn default() -> Self {
        Self {
            input: None,
            slots: vec![AckInfo::default(); 1 << A],
            queued: vec![false; 1 << A],
            order: FifoOf::default(),
            read: None,
            out_valid: false,
            out: AckInfo::default(),
            coalesced: 0,
        }
    }
}

/// The record as the RTL's input register holds it (fields at their
/// port widths).
fn masked<const A: usize>(a: &AckInfo) -> AckInfo {
    AckInfo {
        flow: a.flow & ((1 << A) - 1),
        psn: a.psn & 0xFF_FFFF,
        ..*a
    }
}

impl<const A: usize> AckCoalesce<A> {
    /// Flows with an ACK waiting in their slot.
    pub fn waiting(&self) -> usize {
        self.queued.iter().filter(|q| **q).count()
    }
}

impl<const A: usize> Cycle for AckCoalesce<A> {
    type In = In;
    type Out = Out;
    fn step(&mut self, i: &In) -> Out {
        let out = Out {
            ack_ready: true,
            out_valid: self.out_valid,
            out: self.out,
            coalesced: self.coalesced,
        };
        let head = self.order.head();
        let hit = self.input.is_some_and(|a| self.queued[a.flow as usize]);
        // A record in the input register writes a slot this cycle (maybe
        // the head's, and the RAM has no read-during-write bypass): no pop.
        let writes_slot = self.input.is_some();
        let pop =
            head.is_some() && self.read.is_none() && !self.out_valid && !writes_slot && i.open;
        // The RAM read (no read-during-write of the same slot: see `pop`).
        let read_next = head.filter(|_| pop).map(|h| AckInfo {
            flow: h,
            ..self.slots[h as usize]
        });
        if self.out_valid && i.out_ready {
            self.out_valid = false;
        }
        if let Some(r) = self.read {
            self.out_valid = true;
            self.out = r;
        }
        let mut push = None;
        if let Some(a) = self.input {
            self.slots[a.flow as usize] = a;
            if hit {
                self.coalesced = self.coalesced.wrapping_add(1);
            } else {
                self.queued[a.flow as usize] = true;
                push = Some(a.flow);
            }
        }
        if let (true, Some(h)) = (pop, head) {
            self.queued[h as usize] = false;
        }
        self.order.step(push, pop);
        self.read = read_next;
        self.input = i.ack_valid.then(|| masked::<A>(&i.ack));
        out
    }
}
