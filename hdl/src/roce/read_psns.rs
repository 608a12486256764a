//! The PSNs a READ REQUEST consumes: ⌈`dlen` / MTU⌉ mod 2^24, and 1 if
//! that is 0 (docs/roce.md §8; `nic_golden::roce::txn::dispatch::read_psns`
//! states it). A block of [`RoceRxDispatch`](super::rx_dispatch::RoceRxDispatch),
//! in its `Look` state; the responder's expected PSN advances by it.
//!
//! # Ports (clock `clock`; no reset: the output holds a value only while
//! the parent reads it)
//! - In: `cfg_mtu_log2` (4; clamped to 8..=12), `dlen` (32, the RETH's
//!   DMA length).
//! - Out: `psns` (24), a flip-flop: the count for the inputs of the
//!   cycle before.
//!
//! # Timing
//! Latency 1. The MTU's mask (2^m − 1) is a 5-way select of constants,
//! then one 33-bit add and a shift by the clamped m (a 5-way select of
//! fixed shifts), then the zero test.
//!
//! # Bad input
//! None: an MTU outside 8..=12 is clamped, any `dlen` gives a count.
//!
//! Golden twin: `nic_golden::roce::read_psns`.

use rust_hdl::prelude::*;
use smart_default::SmartDefault;

#[derive(LogicBlock, SmartDefault)]
pub struct ReadPsns {
    pub clock: Signal<In, Clock>,
    pub cfg_mtu_log2: Signal<In, Bits<4>>,
    pub dlen: Signal<In, Bits<32>>,
    pub psns: Signal<Out, Bits<24>>,
    psns_r: DFF<Bits<24>>,
    #[default(Constant::new(Bits::<4>::from(8u64)))]
    k_m8: Constant<Bits<4>>,
    #[default(Constant::new(Bits::<4>::from(9u64)))]
    k_m9: Constant<Bits<4>>,
    #[default(Constant::new(Bits::<4>::from(10u64)))]
    k_m10: Constant<Bits<4>>,
    #[default(Constant::new(Bits::<4>::from(11u64)))]
    k_m11: Constant<Bits<4>>,
    #[default(Constant::new(Bits::<4>::from(12u64)))]
    k_m12: Constant<Bits<4>>,
    #[default(Constant::new(Bits::<33>::from(255u64)))]
    k_msk8: Constant<Bits<33>>,
    #[default(Constant::new(Bits::<33>::from(511u64)))]
    k_msk9: Constant<Bits<33>>,
    #[default(Constant::new(Bits::<33>::from(1023u64)))]
    k_msk10: Constant<Bits<33>>,
    #[default(Constant::new(Bits::<33>::from(2047u64)))]
    k_msk11: Constant<Bits<33>>,
    #[default(Constant::new(Bits::<33>::from(4095u64)))]
    k_msk12: Constant<Bits<33>>,
    /// The clamped log2 MTU.
    mlog: Signal<Local, Bits<4>>,
    /// MTU − 1.
    msk: Signal<Local, Bits<33>>,
    sum33: Signal<Local, Bits<33>>,
    q33: Signal<Local, Bits<33>>,
    q24: Signal<Local, Bits<24>>,
}

impl Logic for ReadPsns {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, psns_r);
        if (self.cfg_mtu_log2.val() < self.k_m8.val()) {
            self.mlog.next = self.k_m8.val();
        } else if (self.cfg_mtu_log2.val() > self.k_m12.val()) {
            self.mlog.next = self.k_m12.val();
        } else {
            self.mlog.next = self.cfg_mtu_log2.val();
        }
        if (self.mlog.val() == self.k_m8.val()) {
            self.msk.next = self.k_msk8.val();
        } else if (self.mlog.val() == self.k_m9.val()) {
            self.msk.next = self.k_msk9.val();
        } else if (self.mlog.val() == self.k_m10.val()) {
            self.msk.next = self.k_msk10.val();
        } else if (self.mlog.val() == self.k_m11.val()) {
            self.msk.next = self.k_msk11.val();
        } else {
            self.msk.next = self.k_msk12.val();
        }
        self.sum33.next = (bit_cast::<33, 32>(self.dlen.val()) + self.msk.val());
        self.q33.next = (self.sum33.val() >> self.mlog.val());
        self.q24.next = self.q33.val().get_bits::<24>(0);
        if self.q24.val().any() {
            self.psns_r.d.next = self.q24.val();
        } else {
            self.psns_r.d.next = 1.into();
        }
        self.psns.next = self.psns_r.q.val();
    }
}
