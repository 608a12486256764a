//! Twin of `hdl/src/nic/ev_arb.rs`: the scheduler's event port, shared
//! by the requester and the CC module's updates (R converted to bytes per
//! cycle). The requester's events pass the record's register slice.

use crate::cc::hpcc::status;
use crate::cc::CcUpdate;
use crate::mem::fifo::{self, Fifo};
use crate::record::Slice;
use crate::sched::SchedEvent;
use crate::{Cycle, Pipe};
use nic_spec::sched::OP_UPDATE;

/// Updates queued (in the multiplier or the queue) at most.
pub const QUEUE: u32 = 16;
/// The multiplier's latency.
const MUL: usize = 4;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    pub cfg_ns_per_cycle: u32,
    pub req_valid: bool,
    pub req: SchedEvent,
    pub update_valid: bool,
    pub update: CcUpdate,
    pub notify_valid: bool,
    pub notify: CcUpdate,
    pub dcqcn_valid: bool,
    pub dcqcn: CcUpdate,
    pub ev_ready: bool,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub req_ready: bool,
    pub ev_valid: bool,
    pub ev: SchedEvent,
    pub updates: u32,
    pub update_drops: u32,
}

/// The scheduler's R (UQ8.24 bytes/cycle) for the CC's R (UQ8.16
/// bytes/ns) at `ns_per_cycle` (UQ8.16 ns): (R · npc) ≫ 8, saturated to
/// 32 bits, at least 1 when the product is not 0.
pub fn rate_per_cycle(r: u32, ns_per_cycle: u32) -> u32 {
    let p = (r as u64) * (ns_per_cycle as u64);
    let a = p >> 8;
    if a > u32::MAX as u64 {
        u32::MAX
    } else if a == 0 && p != 0 {
        1
    } else {
        a as u32
    }
}

/// (valid, flow, W, R per cycle) through the multiplier.
type InMul = (bool, u16, u32, u32);

#[derive(Clone, Debug)]
pub struct EvArb {
    /// The requester's events' register slice.
    slice: Slice<SchedEvent>,
    mul: Pipe<InMul>,
    queue: Fifo<80, 4>,
    held: u32,
    turn_q: bool,
    updates: u32,
    drops: u32,
    /// The last cycle's update taken and updates lost, counted now.
    push_q: bool,
    lost_q: u32,
}

impl Default for EvArb {
    fn default() -> Self {
        Self {
            slice: Slice::default(),
            mul: Pipe::new(MUL),
            queue: Fifo::default(),
            held: 0,
            turn_q: false,
            updates: 0,
            drops: 0,
            push_q: false,
            lost_q: 0,
        }
    }
}

impl Cycle for EvArb {
    type In = In;
    type Out = Out;
    fn step(&mut self, i: &In) -> Out {
        let u = &i.update;
        let qualify = i.update_valid
            && (u.status == status::CREATED || (u.status == status::UPDATE && !u.variant));
        let d = &i.dcqcn;
        let qualify_d = i.dcqcn_valid
            && (d.status == nic_spec::dcqcn::status::CREATED
                || d.status == nic_spec::dcqcn::status::UPDATE);
        let nsrc = qualify as u32 + i.notify_valid as u32 + qualify_d as u32;
        let any = nsrc > 0;
        let push_ok = any && self.held < QUEUE;
        let u = if qualify {
            u
        } else if i.notify_valid {
            &i.notify
        } else {
            d
        };
        let head = self.queue.head();
        let (req_v, req) = (self.slice.main_v, self.slice.main);
        let pick_q = head.is_some() && (!req_v || self.turn_q);
        let ev = match head {
            Some(h) if pick_q => SchedEvent {
                op: OP_UPDATE,
                flow: (h >> 64) as u32 & 0xFFFF,
                a: h as u32,
                b: (h >> 32) as u32,
            },
            _ => req,
        };
        let out = Out {
            req_ready: self.slice.s_tready(),
            ev_valid: req_v || head.is_some(),
            ev,
            updates: self.updates,
            update_drops: self.drops,
        };
        let pop = i.ev_ready && pick_q;
        self.slice
            .step(i.req_valid.then_some(i.req), i.ev_ready && !pick_q);
        if i.ev_ready && out.ev_valid {
            self.turn_q = !pick_q;
        }
        let (v, flow, w, r) = self.mul.shift((
            push_ok,
            u.flow,
            u.w,
            rate_per_cycle(u.r & 0xFF_FFFF, i.cfg_ns_per_cycle & 0xFF_FFFF),
        ));
        self.queue.step(&fifo::In {
            push: v,
            push_data: ((flow as u128) << 64) | ((w as u128) << 32) | r as u128,
            pop,
        });
        self.updates = self.updates.wrapping_add(self.push_q as u32);
        self.drops = self.drops.wrapping_add(self.lost_q);
        self.push_q = push_ok;
        self.lost_q = nsrc - push_ok as u32;
        match (push_ok, pop) {
            (true, false) => self.held += 1,
            (false, true) => self.held -= 1,
            _ => {}
        }
        out
    }
}
