//! The dispatcher's host write port: its output register and a skid
//! register behind it, so a payload word a cycle passes while the host
//! takes one a cycle, none is lost when it stops, and the payload's
//! `tready` is a flip-flop (timing rules R1, R2). A block of
//! [`RoceRxDispatch`](super::rx_dispatch::RoceRxDispatch).
//!
//! # Ports (clock `clock`)
//! - `reset` (synchronous): both registers empty.
//! - In: `push` (a payload word taken this cycle), the word: `addr` (64,
//!   its host address), `data` (64), `strb` (8), `last` (its packet's
//!   last word).
//! - Out: `m_wr` ([`HostWriteSource`], valid/ready; `addr`, `data`,
//!   `strb` zero while not valid), `ready` (the skid register empty: a
//!   word may be pushed), `wr_last` (the word on `m_wr` is its packet's
//!   last). Every output is a flip-flop's.
//!
//! # Timing
//! A word pushed goes to the output register when that is empty or
//! taken this cycle (on `m_wr` the next cycle), else to the skid
//! register, which moves up when the output register's word is taken.
//! One word a cycle while `m_wr.ready` stays high; in order, none lost
//! or repeated.
//!
//! # Bad input
//! A push while `ready` is low is ignored (the word is not taken); the
//! dispatcher pushes only while it is high.
//!
//! Golden twin: `nic_golden::roce::host_write_skid`.

use crate::roce::HostWriteSource;
use rust_hdl::prelude::*;
use smart_default::SmartDefault;

#[derive(LogicBlock, SmartDefault)]
pub struct HostWriteSkid {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub push: Signal<In, Bit>,
    pub addr: Signal<In, Bits<64>>,
    pub data: Signal<In, Bits<64>>,
    pub strb: Signal<In, Bits<8>>,
    pub last: Signal<In, Bit>,
    pub m_wr: HostWriteSource,
    pub ready: Signal<Out, Bit>,
    pub wr_last: Signal<Out, Bit>,
    // The output register.
    wr_v: DFF<Bit>,
    wr_addr: DFF<Bits<64>>,
    wr_data: DFF<Bits<64>>,
    wr_strb: DFF<Bits<8>>,
    wr_last_r: DFF<Bit>,
    // The skid register.
    wr2_v: DFF<Bit>,
    wr2_addr: DFF<Bits<64>>,
    wr2_data: DFF<Bits<64>>,
    wr2_strb: DFF<Bits<8>>,
    wr2_last: DFF<Bit>,
    /// The host takes the output register's word this cycle.
    wr_take: Signal<Local, Bit>,
}

impl Logic for HostWriteSkid {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, wr_v, wr_addr, wr_data, wr_strb, wr_last_r, wr2_v, wr2_addr, wr2_data,
            wr2_strb, wr2_last
        );
        self.wr_take.next = (self.wr_v.q.val() && self.m_wr.ready.val());
        if self.reset.val() {
            self.wr_v.d.next = false;
            self.wr2_v.d.next = false;
        } else if self.wr2_v.q.val() {
            if self.wr_take.val() {
                self.wr2_v.d.next = false;
                self.wr_addr.d.next = self.wr2_addr.q.val();
                self.wr_data.d.next = self.wr2_data.q.val();
                self.wr_strb.d.next = self.wr2_strb.q.val();
                self.wr_last_r.d.next = self.wr2_last.q.val();
            }
        } else if self.push.val() {
            if (!self.wr_v.q.val() || self.wr_take.val()) {
                self.wr_v.d.next = true;
                self.wr_addr.d.next = self.addr.val();
                self.wr_data.d.next = self.data.val();
                self.wr_strb.d.next = self.strb.val();
                self.wr_last_r.d.next = self.last.val();
            } else {
                self.wr2_v.d.next = true;
                self.wr2_addr.d.next = self.addr.val();
                self.wr2_data.d.next = self.data.val();
                self.wr2_strb.d.next = self.strb.val();
                self.wr2_last.d.next = self.last.val();
            }
        } else if self.wr_take.val() {
            self.wr_v.d.next = false;
        }
        self.m_wr.valid.next = self.wr_v.q.val();
        if self.wr_v.q.val() {
            self.m_wr.addr.next = self.wr_addr.q.val();
            self.m_wr.data.next = self.wr_data.q.val();
            self.m_wr.strb.next = self.wr_strb.q.val();
        } else {
            self.m_wr.addr.next = 0.into();
            self.m_wr.data.next = 0.into();
            self.m_wr.strb.next = 0.into();
        }
        self.ready.next = !self.wr2_v.q.val();
        self.wr_last.next = self.wr_last_r.q.val();
    }
}
