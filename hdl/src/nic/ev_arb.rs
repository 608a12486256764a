//! The scheduler's event port, shared by the requester and the CC
//! module (draft -00 Figure 4: "Update" into the flow scheduler).
//!
//! - `s_req` (`SchedEvent`, ready): the requester's INIT, DOORBELL, ACK,
//!   REWIND, TRIM, passed as they are, through the record's register
//!   slice (`SchedEvent::Slice`, timing rule R1: `s_req.ready` is its
//!   flip-flop, never `m_ev.ready`); one cycle, one event a cycle.
//! - `s_update` (`CcUpdate`, strobe): a CC update becomes UPDATE(flow,
//!   a = R, b = W) when its status is CREATED (W_init: the flow's first
//!   rate), or UPDATE of a NewAck event (`variant` = 0; with NewINT the
//!   sender's W comes from the receiver, through `s_notify`). R goes from the
//!   CC's UQ8.16 bytes/ns to the scheduler's UQ8.24 bytes/cycle:
//!   a = (R · `cfg_ns_per_cycle`) ≫ 8, `cfg_ns_per_cycle` UQ8.16 ns, a
//!   `WideMul` (4 cycles), saturated to 2^32 − 1, and at least 1 for a
//!   nonzero R (the scheduler drops R = 0). W (UQ24.8 bytes) is passed.
//!   Converted updates wait in a 16-entry block-RAM queue.
//! - `s_notify` (`CcUpdate`, strobe): W and R from a NOTIFY (NewINT's
//!   sender, `NotifyRx`), converted and queued the same way, always. If
//!   it comes in the same cycle as a qualifying `s_update`, the latter
//!   wins and the NOTIFY's update is dropped and counted.
//! - `s_dcqcn` (`CcUpdate`, strobe): the DCQCN reaction point's update
//!   (status UPDATE or CREATED: Rc as R, the configured window as W),
//!   converted and queued the same way. It has the lowest priority: in a
//!   same-cycle tie with either source above it is dropped and counted
//!   (the reaction point's state is right; its next update or timer step
//!   carries the rate).
//! - `m_ev` (`SchedEvent`): the slice's head and the queue's head
//!   alternate when both wait (round robin), so neither starves. A
//!   select of registers (the slice's, the queue's head, the turn): no
//!   path from an input port reaches it (R1).
//!
//! Counters (32 bits, wrapping): `updates` (queued), `update_drops`
//! (a qualifying update found 16 in the queue or the multiplier, or lost
//! a same-cycle tie: dropped; the flow's next update supersedes it). Each
//! counts two cycles after the strobe (the cycle's take and losses are
//! registered first, so the counters' adds follow no other logic).
//!
//! Timing: an update is offered on `m_ev` 7 cycles after its strobe (4
//! in the multiplier, 3 through the queue); test
//! `an_update_reaches_the_scheduler_7_cycles_after_its_strobe`.
//!
//! Golden twin: `nic_golden::nic::ev_arb`.

use crate::arith::{Delay, WideMul};
use crate::cc::CcUpdateSink;
use crate::mem::Fifo;
use crate::sched::{SchedEvent, SchedEventSink, SchedEventSource};
use rust_hdl::prelude::*;
use smart_default::SmartDefault;

/// Updates queued (in the multiplier or the queue) at most.
pub const QUEUE: u64 = 16;

#[derive(LogicBlock, SmartDefault)]
pub struct EvArb {
    pub clock: Signal<In, Clock>,
    pub cfg_ns_per_cycle: Signal<In, Bits<24>>,
    pub s_req: SchedEventSink,
    pub s_update: CcUpdateSink,
    pub s_notify: CcUpdateSink,
    pub s_dcqcn: CcUpdateSink,
    pub m_ev: SchedEventSource,
    pub updates: Signal<Out, Bits<32>>,
    pub update_drops: Signal<Out, Bits<32>>,
    /// The requester's events' register slice.
    slice: SchedEvent::Slice,
    mul: WideMul,
    /// flow (16) and W (32) beside the multiplier.
    carry: Delay<48, 4>,
    queue: Fifo<80, 4>,
    /// Updates in the multiplier or the queue.
    held: DFF<Bits<8>>,
    /// 1: the queue goes first when both wait.
    turn_q: DFF<Bit>,
    n_updates: DFF<Bits<32>>,
    n_drops: DFF<Bits<32>>,
    /// This cycle's update taken and updates lost, counted the next
    /// cycle (so no counter's carry chain follows the qualify logic, R4).
    push_q: DFF<Bit>,
    lost_q: DFF<Bits<2>>,
    #[default(Constant::new(Bits::<3>::from(0u64)))]
    k_update_st: Constant<Bits<3>>,
    #[default(Constant::new(Bits::<3>::from(2u64)))]
    k_created_st: Constant<Bits<3>>,
    #[default(Constant::new(Bits::<3>::from(nic_spec::sched::OP_UPDATE as u64)))]
    k_op_update: Constant<Bits<3>>,
    #[default(Constant::new(Bits::<8>::from(QUEUE)))]
    k_held_max: Constant<Bits<8>>,
    qualify: Signal<Local, Bit>,
    qualify_d: Signal<Local, Bit>,
    nsrc: Signal<Local, Bits<32>>,
    any_upd: Signal<Local, Bit>,
    push_ok: Signal<Local, Bit>,
    pick_q: Signal<Local, Bit>,
    pop: Signal<Local, Bit>,
    r_sched: Signal<Local, Bits<32>>,
}

impl Logic for EvArb {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, held, turn_q, n_updates, n_drops, push_q, lost_q);
        clock!(self, clock, slice, mul, carry, queue);
        SchedEventSink::link(&mut self.s_req, &mut self.slice.s);
        // ---- Updates in: qualify, count, multiply.
        self.qualify.next = (self.s_update.valid.val()
            && ((self.s_update.status.val() == self.k_created_st.val())
                || ((self.s_update.status.val() == self.k_update_st.val())
                    && !self.s_update.variant.val())));
        self.qualify_d.next = (self.s_dcqcn.valid.val()
            && ((self.s_dcqcn.status.val() == self.k_created_st.val())
                || (self.s_dcqcn.status.val() == self.k_update_st.val())));
        self.any_upd.next =
            (self.qualify.val() || self.s_notify.valid.val() || self.qualify_d.val());
        self.push_ok.next = (self.any_upd.val() && (self.held.q.val() < self.k_held_max.val()));
        // Updates offered this cycle (one is taken if there is room).
        if (self.qualify.val() && self.s_notify.valid.val() && self.qualify_d.val()) {
            self.nsrc.next = 3.into();
        } else if ((self.qualify.val() && self.s_notify.valid.val())
            || (self.qualify.val() && self.qualify_d.val())
            || (self.s_notify.valid.val() && self.qualify_d.val()))
        {
            self.nsrc.next = 2.into();
        } else if self.any_upd.val() {
            self.nsrc.next = 1.into();
        } else {
            self.nsrc.next = 0.into();
        }
        // Lost: every update offered but the one taken; counted a cycle later.
        self.push_q.d.next = self.push_ok.val();
        self.lost_q.d.next =
            (self.nsrc.val().get_bits::<2>(0) - bit_cast::<2, 1>(self.push_ok.val().into()));
        self.n_updates.d.next =
            (self.n_updates.q.val() + bit_cast::<32, 1>(self.push_q.q.val().into()));
        self.n_drops.d.next = (self.n_drops.q.val() + bit_cast::<32, 2>(self.lost_q.q.val()));
        self.mul.b.next = bit_cast::<32, 24>(self.cfg_ns_per_cycle.val());
        self.mul.in_valid.next = self.push_ok.val();
        if self.qualify.val() {
            self.mul.a.next = bit_cast::<32, 24>(self.s_update.r.val());
            self.carry.d.next = ((bit_cast::<48, 16>(self.s_update.flow.val()) << 32)
                | bit_cast::<48, 32>(self.s_update.w.val()));
        } else if self.s_notify.valid.val() {
            self.mul.a.next = bit_cast::<32, 24>(self.s_notify.r.val());
            self.carry.d.next = ((bit_cast::<48, 16>(self.s_notify.flow.val()) << 32)
                | bit_cast::<48, 32>(self.s_notify.w.val()));
        } else {
            self.mul.a.next = bit_cast::<32, 24>(self.s_dcqcn.r.val());
            self.carry.d.next = ((bit_cast::<48, 16>(self.s_dcqcn.flow.val()) << 32)
                | bit_cast::<48, 32>(self.s_dcqcn.w.val()));
        }
        // R in bytes per cycle: (R · npc) >> 8, saturated, at least 1.
        self.r_sched.next = self.mul.p.val().get_bits::<32>(8);
        if self.mul.p.val().get_bits::<24>(40).any() {
            self.r_sched.next = 0xFFFF_FFFF_u64.into();
        } else if (!self.mul.p.val().get_bits::<32>(8).any() && self.mul.p.val().any()) {
            self.r_sched.next = 1.into();
        }
        self.queue.push.next = self.mul.out_valid.val();
        self.queue.push_data.next = ((bit_cast::<80, 48>(self.carry.q.val()) << 32)
            | bit_cast::<80, 32>(self.r_sched.val()));
        // ---- Out: round robin between the requester's slice and the queue.
        self.pick_q.next =
            (self.queue.head_valid.val() && (!self.slice.m.valid.val() || self.turn_q.q.val()));
        self.m_ev.valid.next = (self.slice.m.valid.val() || self.queue.head_valid.val());
        self.m_ev.op.next = self.slice.m.op.val();
        self.m_ev.flow.next = self.slice.m.flow.val();
        self.m_ev.a.next = self.slice.m.a.val();
        self.m_ev.b.next = self.slice.m.b.val();
        if self.pick_q.val() {
            self.m_ev.op.next = self.k_op_update.val();
            self.m_ev.flow.next = bit_cast::<16, 80>(self.queue.head_data.val() >> 64);
            self.m_ev.a.next = self.queue.head_data.val().get_bits::<32>(0);
            self.m_ev.b.next = self.queue.head_data.val().get_bits::<32>(32);
        }
        self.slice.m.ready.next = (self.m_ev.ready.val() && !self.pick_q.val());
        self.pop.next = (self.m_ev.ready.val() && self.pick_q.val());
        self.queue.pop.next = self.pop.val();
        if (self.m_ev.ready.val() && self.m_ev.valid.val()) {
            self.turn_q.d.next = !self.pick_q.val();
        }
        // Occupancy: +1 per update taken, −1 per update leaving.
        if (self.push_ok.val() && !self.pop.val()) {
            self.held.d.next = (self.held.q.val() + 1);
        } else if (!self.push_ok.val() && self.pop.val()) {
            self.held.d.next = (self.held.q.val() - 1);
        }
        self.updates.next = self.n_updates.q.val();
        self.update_drops.next = self.n_drops.q.val();
    }
}
