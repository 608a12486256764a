//! `RxPause`: host back-pressure becomes a link pause, not a drop
//! (`docs/architecture.md` §5h).
//!
//! When the host is slower than the wire, the dispatcher waits on its
//! writes and the parser's receive buffer fills. This block watches the
//! buffer and asks the MAC to send an 802.3x PAUSE (XOFF) when the fill
//! reaches `RX_XOFF` words, or [`RX_META_XOFF`] records wait; it sends
//! the XOFF again before it runs out while the fill stays up, and sends
//! an XON (a PAUSE of 0 quanta) once the fill is at or below `RX_XON`
//! words and at most [`RX_META_XON`] records wait.
//!
//! Ports (clock `clock`, synchronous active-high `reset`):
//! - `buf_fill: 16`, `meta_fill: 8`: the parser's words held and records
//!   waiting ([`RoceRxParse`](crate::roce::rx_parse::RoceRxParse),
//!   registered there);
//! - `cfg_xoff`, `cfg_xon`, `cfg_quanta` (16 bits each): the registers
//!   `RX_XOFF`, `RX_XON`, `RX_PAUSE_QUANTA`. The pause is on while both
//!   `RX_XOFF` and `RX_PAUSE_QUANTA` are non-zero;
//! - `pause_req` (one cycle) with `pause_quanta`: to the MAC's
//!   `tx_pause_req`, `tx_pause_quanta` ([`TxPause`](crate::mac::TxPause));
//!   `RX_PAUSE_QUANTA` for an XOFF, 0 for an XON. Both registered;
//! - `paused`: an XOFF is in force (registered);
//! - counters (32 bits, wrapping): `xoffs` (XOFF requests, first ones and
//!   refreshes), `xons`, `cycles` (cycles with `paused` high).
//!
//! Behaviour: the thresholds are compared in one cycle into registers,
//! the decision is taken in the next, so a request leaves two cycles
//! after the fill that caused it. While paused, the XOFF is sent again
//! every `RX_PAUSE_QUANTA` × 4 cycles, half the pause at 10G (a quantum
//! is 8 cycles of 64 bits there); on a slower link that only refreshes
//! more often. An XON is sent when the thresholds allow it, or at once
//! when the pause is switched off while in force. The refresh period is
//! precomputed in a register, so the cycle holds one compare and one
//! decrement.
//!
//! Bad input: every register value is defined. `RX_XON` ≥ `RX_XOFF`
//! releases a pause as soon as the fill drops below `RX_XOFF` (no
//! hysteresis); `RX_XOFF` above the buffer is refused by `CfgRegs`.
//! The headroom above `RX_XOFF` must hold what arrives while the pause
//! takes effect (`nic_spec::roce::rx_pause_headroom_words`); if it does
//! not, the parser drops and counts (`drop_full`).
//!
//! Golden twin: `nic_golden::nic::rx_pause`.

use nic_spec::roce::{RX_META_XOFF, RX_META_XON};
use rust_hdl::prelude::*;
use smart_default::SmartDefault;

#[derive(LogicBlock, SmartDefault)]
pub struct RxPause {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub buf_fill: Signal<In, Bits<16>>,
    pub meta_fill: Signal<In, Bits<8>>,
    pub cfg_xoff: Signal<In, Bits<16>>,
    pub cfg_xon: Signal<In, Bits<16>>,
    pub cfg_quanta: Signal<In, Bits<16>>,
    pub pause_req: Signal<Out, Bit>,
    pub pause_quanta: Signal<Out, Bits<16>>,
    pub paused: Signal<Out, Bit>,
    pub xoffs: Signal<Out, Bits<32>>,
    pub xons: Signal<Out, Bits<32>>,
    pub cycles: Signal<Out, Bits<32>>,
    // The compares, registered.
    above_xoff: DFF<Bit>,
    at_or_below_xon: DFF<Bit>,
    enabled: DFF<Bit>,
    refresh_period: DFF<Bits<18>>,
    // The decision.
    on: DFF<Bit>,
    refresh_timer: DFF<Bits<18>>,
    req: DFF<Bit>,
    req_quanta: DFF<Bits<16>>,
    n_xoff: DFF<Bits<32>>,
    n_xon: DFF<Bits<32>>,
    n_cycles: DFF<Bits<32>>,
    #[default(Constant::new((RX_META_XOFF as u64).into()))]
    k_meta_xoff: Constant<Bits<8>>,
    #[default(Constant::new((RX_META_XON as u64).into()))]
    k_meta_xon: Constant<Bits<8>>,
}

impl Logic for RxPause {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            above_xoff,
            at_or_below_xon,
            enabled,
            refresh_period,
            on,
            refresh_timer,
            req,
            req_quanta,
            n_xoff,
            n_xon,
            n_cycles
        );
        // ---- The compares (cycle 1).
        self.above_xoff.d.next = ((self.buf_fill.val() >= self.cfg_xoff.val())
            || (self.meta_fill.val() >= self.k_meta_xoff.val()));
        self.at_or_below_xon.d.next = ((self.buf_fill.val() <= self.cfg_xon.val())
            && (self.meta_fill.val() <= self.k_meta_xon.val()));
        self.enabled.d.next = (self.cfg_xoff.val().any() && self.cfg_quanta.val().any());
        self.refresh_period.d.next = (bit_cast::<18, 16>(self.cfg_quanta.val()) << 2);
        // ---- The decision (cycle 2).
        self.req.d.next = false;
        if !self.on.q.val() {
            if (self.enabled.q.val() && self.above_xoff.q.val()) {
                self.req.d.next = true;
                self.req_quanta.d.next = self.cfg_quanta.val();
                self.on.d.next = true;
                self.refresh_timer.d.next = self.refresh_period.q.val();
                self.n_xoff.d.next = (self.n_xoff.q.val() + 1);
            }
        } else {
            self.n_cycles.d.next = (self.n_cycles.q.val() + 1);
            if (!self.enabled.q.val() || (self.at_or_below_xon.q.val() && !self.above_xoff.q.val()))
            {
                self.req.d.next = true;
                self.req_quanta.d.next = 0.into();
                self.on.d.next = false;
                self.n_xon.d.next = (self.n_xon.q.val() + 1);
            } else if !self.refresh_timer.q.val().any() {
                self.req.d.next = true;
                self.req_quanta.d.next = self.cfg_quanta.val();
                self.refresh_timer.d.next = self.refresh_period.q.val();
                self.n_xoff.d.next = (self.n_xoff.q.val() + 1);
            } else {
                self.refresh_timer.d.next = (self.refresh_timer.q.val() - 1);
            }
        }
        self.pause_req.next = self.req.q.val();
        self.pause_quanta.next = self.req_quanta.q.val();
        self.paused.next = self.on.q.val();
        self.xoffs.next = self.n_xoff.q.val();
        self.xons.next = self.n_xon.q.val();
        self.cycles.next = self.n_cycles.q.val();
        if self.reset.val() {
            self.above_xoff.d.next = false;
            self.at_or_below_xon.d.next = false;
            self.enabled.d.next = false;
            self.refresh_period.d.next = 0.into();
            self.on.d.next = false;
            self.refresh_timer.d.next = 0.into();
            self.req.d.next = false;
            self.req_quanta.d.next = 0.into();
            self.n_xoff.d.next = 0.into();
            self.n_xon.d.next = 0.into();
            self.n_cycles.d.next = 0.into();
        }
    }
}
