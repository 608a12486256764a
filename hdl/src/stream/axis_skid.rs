//! Register slice (skid buffer) for a stream: breaks every combinational
//! path between its sides, at full throughput.
//!
//! Ports (clock `clock`): `s_axis` ([`AxisSink`]), `m_axis`
//! ([`AxisSource`]), and `ready_next`: the value `s_axis.tready` will
//! have in the next cycle, given this cycle's inputs. A source with one
//! cycle of latency (a block-RAM read) issues a beat only when
//! `ready_next` is set, and presents it the cycle after.
//!
//! Two registers: `main` drives `m_axis`; `skid` catches the beat that
//! arrives in the cycle `m_axis` stalls. `s_axis.tready` = skid empty, a
//! register. `m_axis.*` are registers.
//!
//! Latency 1 cycle, throughput one beat per cycle under any back-pressure
//! pattern. Data registers load only with a valid beat, so the outputs
//! hold the last beat (zero after configuration) and never carry X.
//! Golden twin: `nic_golden::stream::axis_skid`.

use super::{AxisSink, AxisSource};
use rust_hdl::prelude::*;

#[derive(LogicBlock, Default)]
pub struct AxisSkid<const D: usize, const K: usize, const U: usize> {
    pub clock: Signal<In, Clock>,
    pub s_axis: AxisSink<D, K, U>,
    pub m_axis: AxisSource<D, K, U>,
    pub ready_next: Signal<Out, Bit>,
    main_v: DFF<Bit>,
    main_data: DFF<Bits<D>>,
    main_keep: DFF<Bits<K>>,
    main_last: DFF<Bit>,
    main_user: DFF<Bits<U>>,
    skid_v: DFF<Bit>,
    skid_data: DFF<Bits<D>>,
    skid_keep: DFF<Bits<K>>,
    skid_last: DFF<Bit>,
    skid_user: DFF<Bits<U>>,
    accept: Signal<Local, Bit>,
    out_free: Signal<Local, Bit>,
    skid_v_n: Signal<Local, Bit>,
}

impl<const D: usize, const K: usize, const U: usize> Logic for AxisSkid<D, K, U> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, main_v, main_data, main_keep, main_last, main_user, skid_v, skid_data,
            skid_keep, skid_last, skid_user
        );
        self.accept.next = (self.s_axis.tvalid.val() && !self.skid_v.q.val());
        // `main` can take a beat: it is empty or its beat leaves now.
        self.out_free.next = (self.m_axis.tready.val() || !self.main_v.q.val());
        self.skid_v_n.next = self.skid_v.q.val();
        if self.out_free.val() {
            if self.skid_v.q.val() {
                self.main_v.d.next = true;
                self.main_data.d.next = self.skid_data.q.val();
                self.main_keep.d.next = self.skid_keep.q.val();
                self.main_last.d.next = self.skid_last.q.val();
                self.main_user.d.next = self.skid_user.q.val();
                self.skid_v_n.next = false;
            } else {
                self.main_v.d.next = self.accept.val();
                if self.accept.val() {
                    self.main_data.d.next = self.s_axis.tdata.val();
                    self.main_keep.d.next = self.s_axis.tkeep.val();
                    self.main_last.d.next = self.s_axis.tlast.val();
                    self.main_user.d.next = self.s_axis.tuser.val();
                }
            }
        } else if self.accept.val() {
            self.skid_v_n.next = true;
            self.skid_data.d.next = self.s_axis.tdata.val();
            self.skid_keep.d.next = self.s_axis.tkeep.val();
            self.skid_last.d.next = self.s_axis.tlast.val();
            self.skid_user.d.next = self.s_axis.tuser.val();
        }
        self.skid_v.d.next = self.skid_v_n.val();
        self.s_axis.tready.next = !self.skid_v.q.val();
        self.ready_next.next = !self.skid_v_n.val();
        self.m_axis.tvalid.next = self.main_v.q.val();
        self.m_axis.tdata.next = self.main_data.q.val();
        self.m_axis.tkeep.next = self.main_keep.q.val();
        self.m_axis.tlast.next = self.main_last.q.val();
        self.m_axis.tuser.next = self.main_user.q.val();
    }
}
