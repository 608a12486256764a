//! `AxisNarrow`: a 64-bit frame stream to an 8-bit one (the 1G MAC's
//! transmit side).
//!
//! What it does: holds one 64-bit beat and sends its bytes one a cycle,
//! byte 0 (`tdata[7:0]`) first. A beat that is not the last sends all
//! eight bytes; the last beat sends the low lanes of `tkeep` set before
//! the first clear one, and carries `tlast` and `tuser` on its last byte.
//!
//! Ports (clock `clock`, synchronous active-high `reset`):
//! - `s_axis` (`AxisSink<64, 8, 1>`): `tready` is high when the register
//!   is empty or its last byte is being taken, so the next beat is loaded
//!   in that same cycle;
//! - `m_axis` (`AxisSource<8, 1, 1>`): `tkeep` is 1, `tuser` only on the
//!   last byte of a frame.
//!
//! Latency: a beat taken in cycle t is on `m_axis` from cycle t + 1.
//! Throughput: one byte per cycle with no bubble between beats or frames
//! (what the GMII transmitter needs inside a frame).
//!
//! Bad input: a last beat with `tkeep[0]` clear sends one byte with
//! `tlast` and `tuser` (the transmitter then aborts the frame).
//!
//! Golden twin: `nic_golden::stream::axis_narrow`.

use crate::stream::KeepCount;
use crate::stream::{AxisSink, AxisSource};
use rust_hdl::prelude::*;

#[derive(LogicBlock, Default)]
pub struct AxisNarrow {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub s_axis: AxisSink<64, 8, 1>,
    pub m_axis: AxisSource<8, 1, 1>,
    keep: KeepCount,
    /// The beat being sent, shifted right a byte at a time.
    hold_d: DFF<Bits<64>>,
    /// Bytes of it still to send, the current one included (1..=8).
    hold_left: DFF<Bits<4>>,
    hold_last: DFF<Bit>,
    hold_user: DFF<Bit>,
    hold_v: DFF<Bit>,
    on_last_byte: Signal<Local, Bit>,
}

impl Logic for AxisNarrow {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, hold_d, hold_left, hold_last, hold_user, hold_v);
        self.keep.keep.next = self.s_axis.tkeep.val();
        self.on_last_byte.next = (self.hold_left.q.val() == 1);
        self.m_axis.tdata.next = self.hold_d.q.val().get_bits::<8>(0);
        self.m_axis.tkeep.next = 1.into();
        self.m_axis.tvalid.next = self.hold_v.q.val();
        self.m_axis.tlast.next = (self.hold_last.q.val() && self.on_last_byte.val());
        self.m_axis.tuser.next = 0.into();
        if (self.hold_user.q.val() && self.on_last_byte.val()) {
            self.m_axis.tuser.next = 1.into();
        }
        self.s_axis.tready.next =
            (!self.hold_v.q.val() || (self.m_axis.tready.val() && self.on_last_byte.val()));

        if (self.hold_v.q.val() && self.m_axis.tready.val()) {
            self.hold_d.d.next = (self.hold_d.q.val() >> 8);
            self.hold_left.d.next = (self.hold_left.q.val() - 1);
            if self.on_last_byte.val() {
                self.hold_v.d.next = false;
            }
        }
        if (self.s_axis.tvalid.val() && self.s_axis.tready.val()) {
            self.hold_v.d.next = true;
            self.hold_d.d.next = self.s_axis.tdata.val();
            self.hold_last.d.next = self.s_axis.tlast.val();
            self.hold_user.d.next = self.s_axis.tuser.val().any();
            self.hold_left.d.next = 8.into();
            if self.s_axis.tlast.val() {
                if self.keep.n.val() == 0 {
                    self.hold_left.d.next = 1.into();
                    self.hold_user.d.next = true;
                } else {
                    self.hold_left.d.next = self.keep.n.val();
                }
            }
        }
        if self.reset.val() {
            self.hold_d.d.next = 0.into();
            self.hold_left.d.next = 0.into();
            self.hold_last.d.next = false;
            self.hold_user.d.next = false;
            self.hold_v.d.next = false;
        }
    }
}
