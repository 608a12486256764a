//! `ReqSync<W>`: a request (a `W`-bit value with a strobe) crossing from
//! `clock_in` to `clock_out`, by a toggle handshake; the newest waiting
//! request wins. The MAC uses it to carry a received pause (`rx_clk`) to
//! the pause timer (`tx_clk`).
//!
//! How: `send` with `data` latches the value in `hold` and flips
//! `req_tog`; two registers on `clock_out` synchronise the toggle, and on
//! its change the receiving side takes `hold` (stable since the flip: it
//! changes only after the acknowledgement, `req_seen`, has come back
//! through two registers on `clock_in`) into `data_out` and strobes
//! `update` for one cycle. A `send` while a transfer is under way waits
//! in `pend`; a newer one replaces it (what the timer should act on is
//! the newest request). Only single-bit toggles cross; `hold` crosses as
//! a bus that is stable whenever it is read.
//!
//! Ports:
//! - `clock_in`, `reset_in`, `send`, `data: W`, `busy` (a transfer or a
//!   waiting request, registered);
//! - `clock_out`, `reset_out`, `update` (one cycle), `data_out: W`
//!   (registered, held until the next update).
//!
//! Latency: `update` rises 3 or 4 `clock_out` edges after the `clock_in`
//! edge that takes `send`; a new transfer can start about 2 `clock_out`
//! plus 3 `clock_in` cycles after the last one started.
//!
//! Resets: either side may be reset alone (synchronous, active high). It
//! then spends 3 of its cycles adopting the other side's toggle, without
//! starting or delivering anything (`busy` high; a `send` then waits), so
//! a reset never makes a transfer appear. A reset while a transfer is in
//! flight may lose it, or deliver it, or deliver 0 once (the reset value
//! of `hold`).
//!
//! Golden twin: `nic_golden::mac::req_sync` (one step per edge of each
//! clock).

use rust_hdl::prelude::*;
use smart_default::SmartDefault;

#[derive(LogicBlock, SmartDefault)]
pub struct ReqSync<const W: usize> {
    pub clock_in: Signal<In, Clock>,
    pub reset_in: Signal<In, Bit>,
    pub send: Signal<In, Bit>,
    pub data: Signal<In, Bits<W>>,
    pub busy: Signal<Out, Bit>,
    pub clock_out: Signal<In, Clock>,
    pub reset_out: Signal<In, Bit>,
    pub update: Signal<Out, Bit>,
    pub data_out: Signal<Out, Bits<W>>,
    // ---- clock_in
    req_tog: DFF<Bit>,
    hold: DFF<Bits<W>>,
    ack_s0: DFF<Bit>,
    ack_s1: DFF<Bit>,
    pend: DFF<Bit>,
    pend_data: DFF<Bits<W>>,
    settle_in: DFF<Bits<2>>,
    // ---- clock_out
    req_s0: DFF<Bit>,
    req_s1: DFF<Bit>,
    req_seen: DFF<Bit>,
    upd: DFF<Bit>,
    out: DFF<Bits<W>>,
    settle_out: DFF<Bits<2>>,
    idle: Signal<Local, Bit>,
}

impl<const W: usize> Logic for ReqSync<W> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock_in, req_tog, hold, ack_s0, ack_s1, pend, pend_data, settle_in);
        dff_setup!(self, clock_out, req_s0, req_s1, req_seen, upd, out, settle_out);
        // ---- The sending side (clock_in) ----------------------------------
        self.ack_s0.d.next = self.req_seen.q.val();
        self.ack_s1.d.next = self.ack_s0.q.val();
        self.idle.next = (self.req_tog.q.val() == self.ack_s1.q.val());
        if self.settle_in.q.val().any() {
            self.settle_in.d.next = (self.settle_in.q.val() - 1);
            self.req_tog.d.next = self.ack_s1.q.val();
            if self.send.val() {
                self.pend.d.next = true;
                self.pend_data.d.next = self.data.val();
            }
        } else if (self.idle.val() && (self.send.val() || self.pend.q.val())) {
            if self.send.val() {
                self.hold.d.next = self.data.val();
            } else {
                self.hold.d.next = self.pend_data.q.val();
            }
            self.req_tog.d.next = !self.req_tog.q.val();
            self.pend.d.next = false;
        } else if self.send.val() {
            self.pend.d.next = true;
            self.pend_data.d.next = self.data.val();
        }
        if self.reset_in.val() {
            self.req_tog.d.next = false;
            self.hold.d.next = 0.into();
            self.ack_s0.d.next = false;
            self.ack_s1.d.next = false;
            self.pend.d.next = false;
            self.pend_data.d.next = 0.into();
            self.settle_in.d.next = 3.into();
        }
        self.busy.next = (self.pend.q.val() || !self.idle.val() || self.settle_in.q.val().any());
        // ---- The receiving side (clock_out) -------------------------------
        self.req_s0.d.next = self.req_tog.q.val();
        self.req_s1.d.next = self.req_s0.q.val();
        self.upd.d.next = false;
        if self.settle_out.q.val().any() {
            self.settle_out.d.next = (self.settle_out.q.val() - 1);
            self.req_seen.d.next = self.req_s1.q.val();
        } else if (self.req_s1.q.val() != self.req_seen.q.val()) {
            self.req_seen.d.next = self.req_s1.q.val();
            self.upd.d.next = true;
            self.out.d.next = self.hold.q.val();
        }
        if self.reset_out.val() {
            self.req_s0.d.next = false;
            self.req_s1.d.next = false;
            self.req_seen.d.next = false;
            self.upd.d.next = false;
            self.out.d.next = 0.into();
            self.settle_out.d.next = 3.into();
        }
        self.update.next = self.upd.q.val();
        self.data_out.next = self.out.q.val();
    }
}
