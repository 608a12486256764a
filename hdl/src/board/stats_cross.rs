//! `StatsCross`: a counter read across clocks. The bridge's `STATS`
//! index goes out to the clock the counters live on, the answer for it
//! comes back (`docs/board.md` §2, the `STATS` pages). The ECPIX-5 board
//! core (`NicBoard1g`) has one for each of `rgmii_rxc`, `tx_clk` and
//! `clk100`.
//!
//! How: the index crosses to `src_clk` in a [`ReqSync`]`<16>` and the
//! answer comes back in a [`ReqSync`]`<49>` (bit 48 the hit, bits
//! 47..32 the index it answers, bits 31..0 the counter: one value taken
//! in one `src_clk` cycle, so never half of one count and half of the
//! next). Both resend whenever they are idle, so the answer follows the
//! index within a few cycles of both clocks. An answer is shown only
//! while the index it carries is the current one: when `src_clk` has
//! stopped (a PHY with no receive clock) the read answers no hit, never
//! the value of another counter.
//!
//! Ports:
//! - on `clk`: `rst` (synchronous, active high), `index: Bits<16>` (the
//!   `STATS` address), `data: Bits<32>` and `hit` (the answer for
//!   `index`, from registers and a compare with `index`);
//! - on `src_clk`: `src_rst`, `src_index: Bits<16>` (the index as it
//!   reached this clock, registered), `src_data: Bits<32>` and `src_hit`
//!   (the source's answer for `src_index`, which it may compute
//!   combinationally from it).
//!
//! Latency: after `index` changes, `hit` with the new index's answer
//! rises within about 3 `clk` + 4 `src_clk` cycles for the index's
//! crossing (one in flight may finish first: 2 + 3 more), then the same
//! again for the answer's; `testbench/tests/board/stats_cross.rs`
//! asserts it within 24 cycles of the slower clock.
//!
//! Resets: either side alone, as [`ReqSync`]'s: while a side settles,
//! nothing is delivered, so `hit` is low or answers the current index.
//!
//! Golden twin: `nic_golden::board::stats_cross` (one step per edge of
//! each clock).

use crate::mac::ReqSync;
use rust_hdl::prelude::*;
use smart_default::SmartDefault;

/// The answer's width: hit, index, counter.
pub const ANSWER_W: usize = 49;

#[derive(LogicBlock, SmartDefault)]
pub struct StatsCross {
    pub clk: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    pub index: Signal<In, Bits<16>>,
    pub data: Signal<Out, Bits<32>>,
    pub hit: Signal<Out, Bit>,
    pub src_clk: Signal<In, Clock>,
    pub src_rst: Signal<In, Bit>,
    pub src_index: Signal<Out, Bits<16>>,
    pub src_data: Signal<In, Bits<32>>,
    pub src_hit: Signal<In, Bit>,
    to_src: ReqSync<16>,
    to_clk: ReqSync<ANSWER_W>,
    #[default(Constant::new(Bits::<ANSWER_W>::from(1u64 << 48)))]
    k_hit: Constant<Bits<ANSWER_W>>,
}

impl Logic for StatsCross {
    #[hdl_gen]
    fn update(&mut self) {
        // ---- The index out (clk → src_clk), resent whenever idle.
        self.to_src.clock_in.next = self.clk.val();
        self.to_src.reset_in.next = self.rst.val();
        self.to_src.send.next = !self.to_src.busy.val();
        self.to_src.data.next = self.index.val();
        self.to_src.clock_out.next = self.src_clk.val();
        self.to_src.reset_out.next = self.src_rst.val();
        self.src_index.next = self.to_src.data_out.val();
        // ---- The answer back (src_clk → clk), with the index it answers.
        self.to_clk.clock_in.next = self.src_clk.val();
        self.to_clk.reset_in.next = self.src_rst.val();
        self.to_clk.send.next = !self.to_clk.busy.val();
        self.to_clk.data.next = ((bit_cast::<ANSWER_W, 16>(self.to_src.data_out.val()) << 32)
            | bit_cast::<ANSWER_W, 32>(self.src_data.val()));
        if self.src_hit.val() {
            self.to_clk.data.next = (((bit_cast::<ANSWER_W, 16>(self.to_src.data_out.val())
                << 32)
                | bit_cast::<ANSWER_W, 32>(self.src_data.val()))
                | self.k_hit.val());
        }
        self.to_clk.clock_out.next = self.clk.val();
        self.to_clk.reset_out.next = self.rst.val();
        // ---- The answer, only for the current index.
        self.data.next = self.to_clk.data_out.val().get_bits::<32>(0);
        self.hit.next = (self.to_clk.data_out.val().get_bit(48)
            && (self.to_clk.data_out.val().get_bits::<16>(32) == self.index.val()));
    }
}
