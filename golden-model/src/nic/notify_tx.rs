//! Twin of `hdl/src/nic/notify_tx.rs`: NewINT's committed updates become
//! NOTIFY descriptors carrying W.

use crate::cc::hpcc::status;
use crate::cc::CcUpdate;
use crate::mem::fifo::{self, Fifo};
use crate::roce::{Telemetry, TxDesc};
use crate::Cycle;
use nic_spec::roce::op;

/// Entries at most in the queue.
pub const QUEUE: u32 = 16;
/// The NOTIFY's telemetry header without W: ver 1, flags 1 (W valid),
/// nhop 0, maxhop 5.
pub const HDR: u64 = 0x1100_0500_0000_0000;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    pub update_valid: bool,
    pub update: CcUpdate,
    pub desc_ready: bool,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub desc_valid: bool,
    pub desc: TxDesc,
    pub notifies: u32,
    pub drops: u32,
}

#[derive(Clone, Debug, Default)]
pub struct NotifyTx<const A: usize> {
    queue: Fifo<48, 4>,
    held: u32,
    notifies: u32,
    drops: u32,
}

impl<const A: usize> Cycle for NotifyTx<A> {
    type In = In;
    type Out = Out;
    fn step(&mut self, i: &In) -> Out {
        let u = &i.update;
        let qualify = u.variant && i.update_valid && u.status == status::UPDATE && u.updated_wc;
        let push_ok = qualify && self.held < QUEUE;
        let head = self.queue.head();
        let h = head.unwrap_or(0);
        let out = Out {
            desc_valid: head.is_some(),
            desc: TxDesc {
                flow: ((h >> 32) as u32) & crate::mask(A) as u32,
                opcode: op::NOTIFY,
                tlm: Telemetry {
                    present: true,
                    hdr: HDR | (h as u32) as u64,
                    ..Default::default()
                },
                ..Default::default()
            },
            notifies: self.notifies,
            drops: self.drops,
        };
        let pop = head.is_some() && i.desc_ready;
        self.queue.step(&fifo::In {
            push: push_ok,
            push_data: ((u.flow as u128) << 32) | u.w as u128,
            pop,
        });
        if push_ok {
            self.notifies = self.notifies.wrapping_add(1);
        } else if qualify {
            self.drops = self.drops.wrapping_add(1);
        }
        match (push_ok, pop) {
            (true, false) => self.held += 1,
            (false, true) => self.held -= 1,
            _ => {}
        }
        out
    }
}
