//! Twin of `hdl/src/nic/notify_rx.rs`: NewINT's sender takes a NOTIFY's W
//! and paces at R = W/T. The feedback enters the record's register slice
//! ([`crate::record::Slice`]) and is decided at its head.

use crate::cc::rate::{self, Rate};
use crate::cc::CcUpdate;
use crate::record::Slice;
use crate::roce::CcFeedback;
use crate::{Cycle, Pipe};
use nic_spec::roce::op;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    pub cfg_inv_t_m: u32,
    pub cfg_inv_t_s: u8,
    pub fb_valid: bool,
    pub fb: CcFeedback,
    pub out_ready: bool,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub fb_ready: bool,
    pub out_valid: bool,
    pub out: CcFeedback,
    pub update_valid: bool,
    pub update: CcUpdate,
    pub applied: u32,
    pub bad: u32,
}

#[derive(Clone)]
pub struct NotifyRx<const A: usize> {
    /// The feedback's register slice: its head is decided here.
    slice: Slice<CcFeedback>,
    rate: Rate,
    /// (flow, W) beside the rate, every cycle.
    carry: Pipe<(u32, u32)>,
    applied: u32,
    bad: u32,
}

impl<const A: usize> Default for NotifyRx<A> {
    fn default() -> Self {
        Self {
            slice: Slice::default(),
            rate: Rate::default(),
            carry: Pipe::new(rate::LATENCY),
            applied: 0,
            bad: 0,
        }
    }
}

impl<const A: usize> Cycle for NotifyRx<A> {
    type In = In;
    type Out = Out;
    fn step(&mut self, i: &In) -> Out {
        let f = self.slice.main;
        let head_v = self.slice.main_v;
        let is_notify = f.opcode == op::NOTIFY;
        let w = f.tlm.hdr as u32;
        let good = (f.tlm.hdr >> 56) & 1 == 1 && w != 0;
        let r = self.rate.step(&rate::In {
            in_valid: head_v && is_notify && good,
            w,
            cfg_inv_t_m: i.cfg_inv_t_m,
            cfg_inv_t_s: i.cfg_inv_t_s,
        });
        let (flow, cw) = self.carry.shift((f.flow & crate::mask(A) as u32, w));
        let out = Out {
            fb_ready: self.slice.s_tready(),
            out_valid: head_v && !is_notify,
            out: f,
            update_valid: r.out_valid,
            update: CcUpdate {
                flow: (flow & 0xFFFF) as u16,
                status: 0,
                flags: 0,
                w: cw,
                r: r.r,
                u: 0,
                inc_stage: 0,
                updated_wc: true,
                variant: false,
            },
            applied: self.applied,
            bad: self.bad,
        };
        if head_v && is_notify {
            if good {
                self.applied = self.applied.wrapping_add(1);
            } else {
                self.bad = self.bad.wrapping_add(1);
            }
        }
        self.slice
            .step(i.fb_valid.then_some(i.fb), is_notify || i.out_ready);
        out
    }
}
