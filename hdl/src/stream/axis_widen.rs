//! `AxisWiden`: an 8-bit frame stream to a 64-bit one (the 1G MAC's
//! receive side).
//!
//! What it does: gathers bytes into a 64-bit beat, byte 0 in
//! `tdata[7:0]`, and sends the beat when it has eight bytes or the byte
//! has `tlast`. The last beat's `tkeep` holds its bytes (the low lanes);
//! its `tuser` is the last byte's.
//!
//! Ports (clock `clock`, synchronous active-high `reset`):
//! - `s_axis` (`AxisSink<8, 1, 1>`): `tkeep` is ignored (every beat is a
//!   byte), `tuser` is read on the last byte only; `tready` is low only
//!   while a full output beat waits for `m_axis.tready`;
//! - `m_axis` (`AxisSource<64, 8, 1>`): registers.
//!
//! Latency: the beat is on `m_axis` the cycle after its eighth (or last)
//! byte is taken. Throughput: one byte per cycle, never stalled by a
//! consumer that is always ready (the MAC's receive FIFO).
//!
//! Bad input: none to define: any byte sequence is a frame sequence; a
//! frame cut by a reset is lost whole.
//!
//! Golden twin: `nic_golden::stream::axis_widen`.

use crate::stream::{AxisSink, AxisSource};
use rust_hdl::prelude::*;

#[derive(LogicBlock, Default)]
pub struct AxisWiden {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub s_axis: AxisSink<8, 1, 1>,
    pub m_axis: AxisSource<64, 8, 1>,
    /// The beat being gathered, its bytes so far (`acc_n`, 0..=7) and their
    /// lanes (`acc_k`).
    acc_d: DFF<Bits<64>>,
    acc_n: DFF<Bits<3>>,
    acc_k: DFF<Bits<8>>,
    out_d: DFF<Bits<64>>,
    out_k: DFF<Bits<8>>,
    out_last: DFF<Bit>,
    out_user: DFF<Bit>,
    out_v: DFF<Bit>,
    shift: Signal<Local, Bits<6>>,
    with_byte: Signal<Local, Bits<64>>,
}

impl Logic for AxisWiden {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, acc_d, acc_n, acc_k, out_d, out_k, out_last, out_user, out_v);
        self.m_axis.tdata.next = self.out_d.q.val();
        self.m_axis.tkeep.next = self.out_k.q.val();
        self.m_axis.tlast.next = self.out_last.q.val();
        self.m_axis.tuser.next = 0.into();
        if self.out_user.q.val() {
            self.m_axis.tuser.next = 1.into();
        }
        self.m_axis.tvalid.next = self.out_v.q.val();
        self.s_axis.tready.next = (!self.out_v.q.val() || self.m_axis.tready.val());

        self.shift.next = (bit_cast::<6, 3>(self.acc_n.q.val()) << 3);
        self.with_byte.next =
            (self.acc_d.q.val() | (bit_cast::<64, 8>(self.s_axis.tdata.val()) << self.shift.val()));
        if (self.out_v.q.val() && self.m_axis.tready.val()) {
            self.out_v.d.next = false;
        }
        if (self.s_axis.tvalid.val() && self.s_axis.tready.val()) {
            if ((self.acc_n.q.val() == 7) || self.s_axis.tlast.val()) {
                self.out_v.d.next = true;
                self.out_d.d.next = self.with_byte.val();
                self.out_k.d.next = ((self.acc_k.q.val() << 1) | 1);
                self.out_last.d.next = self.s_axis.tlast.val();
                self.out_user.d.next = (self.s_axis.tlast.val() && self.s_axis.tuser.val().any());
                self.acc_d.d.next = 0.into();
                self.acc_n.d.next = 0.into();
                self.acc_k.d.next = 0.into();
            } else {
                self.acc_d.d.next = self.with_byte.val();
                self.acc_n.d.next = (self.acc_n.q.val() + 1);
                self.acc_k.d.next = ((self.acc_k.q.val() << 1) | 1);
            }
        }
        if self.reset.val() {
            self.acc_d.d.next = 0.into();
            self.acc_n.d.next = 0.into();
            self.acc_k.d.next = 0.into();
            self.out_d.d.next = 0.into();
            self.out_k.d.next = 0.into();
            self.out_last.d.next = false;
            self.out_user.d.next = false;
            self.out_v.d.next = false;
        }
    }
}
