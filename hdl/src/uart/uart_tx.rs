//! `UartTx`: the serial transmitter, 8N1, a bit time of
//! `cfg_clks_per_bit` clock cycles.
//!
//! What it does: takes a byte and sends a start bit (0), its eight bits
//! LSB first and a stop bit (1), each for exactly one bit time; the next
//! byte can be taken in the stop bit's last cycle, so bytes go back to
//! back with no idle between them.
//!
//! Ports (clock `clock`, synchronous active-high `reset`):
//! - `cfg_clks_per_bit: Bits<16>`: cycles per bit; values below
//!   `nic_spec::uart::MIN_CLKS_PER_BIT` (2) act as it;
//! - `s_axis` (`AxisSink<8, 1, 1>`): the bytes; `tkeep`, `tlast` and
//!   `tuser` are ignored;
//! - `tx`: the line, high when idle (also at power-up, before any
//!   reset): `tx` = idle OR the current bit, both from flip-flops.
//!
//! Timing: a byte taken in cycle t is on the line from cycle t + 1 for
//! 10·N cycles; `tready` is high when idle and in the stop bit's last
//! cycle. Throughput: a byte per 10·N cycles.
//!
//! Bad input: none (every byte is sent). A reset in a character cuts it
//! (the line goes high at once); the receiver sees a framing error or a
//! wrong byte, which the bridge's CRC catches.
//!
//! Golden twin: `nic_golden::uart::uart_tx`.

use crate::stream::AxisSink;
use rust_hdl::prelude::*;
use smart_default::SmartDefault;

/// The least clocks per bit (`nic_spec::uart`), as the counters' width.
const MIN_CLKS: u64 = nic_spec::uart::MIN_CLKS_PER_BIT as u64;

#[derive(LogicBlock, SmartDefault)]
pub struct UartTx {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub cfg_clks_per_bit: Signal<In, Bits<16>>,
    pub s_axis: AxisSink<8, 1, 1>,
    pub tx: Signal<Out, Bit>,
    /// The character still to send, bit 0 on the line: stop, data, start.
    shift: DFF<Bits<10>>,
    /// Bits still to send, the current one included (0: idle).
    left: DFF<Bits<4>>,
    /// Cycles left in the current bit − 1.
    count: DFF<Bits<16>>,
    bit_m1: Signal<Local, Bits<16>>,
    bit_end: Signal<Local, Bit>,
    /// `nic_spec::uart::MIN_CLKS_PER_BIT`, and the bit time − 1 it gives.
    #[default(Constant::new(Bits::<16>::from(MIN_CLKS)))]
    k_min_clks: Constant<Bits<16>>,
    #[default(Constant::new(Bits::<16>::from(MIN_CLKS - 1)))]
    k_min_bit_m1: Constant<Bits<16>>,
}

impl Logic for UartTx {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, shift, left, count);
        self.bit_m1.next = self.k_min_bit_m1.val();
        if (self.cfg_clks_per_bit.val() > self.k_min_clks.val()) {
            self.bit_m1.next = (self.cfg_clks_per_bit.val() - 1);
        }
        self.bit_end.next = (self.count.q.val() == 0);
        self.tx.next = ((self.left.q.val() == 0) || self.shift.q.val().get_bit(0));
        self.s_axis.tready.next =
            ((self.left.q.val() == 0) || ((self.left.q.val() == 1) && self.bit_end.val()));
        if (self.left.q.val() != 0) {
            self.count.d.next = (self.count.q.val() - 1);
            if self.bit_end.val() {
                self.shift.d.next = ((self.shift.q.val() >> 1) | 0x200);
                self.left.d.next = (self.left.q.val() - 1);
                self.count.d.next = self.bit_m1.val();
            }
        }
        if (self.s_axis.tvalid.val() && self.s_axis.tready.val()) {
            self.shift.d.next = ((bit_cast::<10, 8>(self.s_axis.tdata.val()) << 1) | 0x200);
            self.left.d.next = 10.into();
            self.count.d.next = self.bit_m1.val();
        }
        if self.reset.val() {
            self.left.d.next = 0.into();
            self.count.d.next = 0.into();
        }
    }
}
