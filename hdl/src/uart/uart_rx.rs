//! `UartRx`: the serial receiver, 8N1 (a start bit, eight data bits LSB
//! first, a stop bit), a bit time of `cfg_clks_per_bit` clock cycles.
//!
//! What it does: the line goes through a two-flip-flop synchroniser (it
//! is asynchronous to `clock`); a falling edge starts a character. The
//! start bit is checked half a bit time later (high again: a glitch,
//! ignored), then each data bit and the stop bit are sampled a whole bit
//! time apart, in the middle of their bit. A stop bit of 1 gives the
//! byte; a stop bit of 0 (a framing error, or a break) gives
//! `frame_err` and no byte, and the next character needs the line to go
//! high and fall again.
//!
//! Ports (clock `clock`, synchronous active-high `reset`):
//! - `rx`: the line (idle high), asynchronous;
//! - `cfg_clks_per_bit: Bits<16>`: cycles per bit; values below
//!   `nic_spec::uart::MIN_CLKS_PER_BIT` (2) act as it;
//! - `data_valid`, `data: Bits<8>`: a byte, strobed for one cycle;
//! - `frame_err`: a character whose stop bit was 0, strobed for one
//!   cycle.
//!
//! Timing: a falling edge on `rx` before the clock edge of cycle t is
//! seen (synchronised) in cycle t + 2; the stop bit is sampled
//! `h + 9·N` cycles later (N the bit time, h = ⌊N/2⌋) and the strobe is
//! out the cycle after. The line's flip-flops hold it inverted, so their
//! power-up value (0) reads as an idle line.
//!
//! Bad input: a glitch shorter than half a bit is ignored; a framing
//! error is reported and its byte dropped; a line held low (a break)
//! gives one `frame_err`. Nothing else is possible.
//!
//! Golden twin: `nic_golden::uart::uart_rx`.

use rust_hdl::prelude::*;
use smart_default::SmartDefault;

/// The least clocks per bit (`nic_spec::uart`), as the counters' width.
const MIN_CLKS: u64 = nic_spec::uart::MIN_CLKS_PER_BIT as u64;

#[derive(Copy, Clone, PartialEq, Debug, LogicState)]
pub enum UartRxState {
    Idle,
    Start,
    Data,
    Stop,
}

#[derive(LogicBlock, SmartDefault)]
pub struct UartRx {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub rx: Signal<In, Bit>,
    pub cfg_clks_per_bit: Signal<In, Bits<16>>,
    pub data_valid: Signal<Out, Bit>,
    pub data: Signal<Out, Bits<8>>,
    pub frame_err: Signal<Out, Bit>,
    /// The line, inverted, through the synchroniser, and one cycle
    /// older (for the falling edge).
    sync1_n: DFF<Bit>,
    sync2_n: DFF<Bit>,
    prev_n: DFF<Bit>,
    st: DFF<UartRxState>,
    /// Cycles to the next sample, counting down.
    count: DFF<Bits<16>>,
    /// Data bits sampled so far in this character.
    nbit: DFF<Bits<3>>,
    shift: DFF<Bits<8>>,
    out_valid: DFF<Bit>,
    out_byte: DFF<Bits<8>>,
    out_err: DFF<Bit>,
    /// The bit time − 1, and half the bit time − 1, after clamping.
    bit_m1: Signal<Local, Bits<16>>,
    half_m1: Signal<Local, Bits<16>>,
    line: Signal<Local, Bit>,
    fall: Signal<Local, Bit>,
    sample: Signal<Local, Bit>,
    /// `nic_spec::uart::MIN_CLKS_PER_BIT`, and the bit time − 1 and half
    /// the bit time − 1 it gives.
    #[default(Constant::new(Bits::<16>::from(MIN_CLKS)))]
    k_min_clks: Constant<Bits<16>>,
    #[default(Constant::new(Bits::<16>::from(MIN_CLKS - 1)))]
    k_min_bit_m1: Constant<Bits<16>>,
    #[default(Constant::new(Bits::<16>::from((MIN_CLKS >> 1) - 1)))]
    k_min_half_m1: Constant<Bits<16>>,
}

impl Logic for UartRx {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, sync1_n, sync2_n, prev_n, st, count, nbit, shift, out_valid, out_byte,
            out_err
        );
        self.sync1_n.d.next = !self.rx.val();
        self.sync2_n.d.next = self.sync1_n.q.val();
        self.prev_n.d.next = self.sync2_n.q.val();
        self.line.next = !self.sync2_n.q.val();
        self.fall.next = (self.sync2_n.q.val() && !self.prev_n.q.val());
        self.bit_m1.next = self.k_min_bit_m1.val();
        self.half_m1.next = self.k_min_half_m1.val();
        if (self.cfg_clks_per_bit.val() > self.k_min_clks.val()) {
            self.bit_m1.next = (self.cfg_clks_per_bit.val() - 1);
            self.half_m1.next = ((self.cfg_clks_per_bit.val() >> 1) - 1);
        }
        self.sample.next = (self.count.q.val() == 0);
        self.data_valid.next = self.out_valid.q.val();
        self.data.next = self.out_byte.q.val();
        self.frame_err.next = self.out_err.q.val();
        self.out_valid.d.next = false;
        self.out_err.d.next = false;
        if ((self.st.q.val() != UartRxState::Idle) && !self.sample.val()) {
            self.count.d.next = (self.count.q.val() - 1);
        }
        match self.st.q.val() {
            UartRxState::Idle => {
                if self.fall.val() {
                    self.st.d.next = UartRxState::Start;
                    self.count.d.next = self.half_m1.val();
                }
            }
            UartRxState::Start => {
                if self.sample.val() {
                    if self.line.val() {
                        self.st.d.next = UartRxState::Idle;
                    } else {
                        self.st.d.next = UartRxState::Data;
                        self.count.d.next = self.bit_m1.val();
                        self.nbit.d.next = 0.into();
                    }
                }
            }
            UartRxState::Data => {
                if self.sample.val() {
                    self.shift.d.next = (self.shift.q.val() >> 1);
                    if self.line.val() {
                        self.shift.d.next = ((self.shift.q.val() >> 1) | 0x80);
                    }
                    self.count.d.next = self.bit_m1.val();
                    self.nbit.d.next = (self.nbit.q.val() + 1);
                    if (self.nbit.q.val() == 7) {
                        self.st.d.next = UartRxState::Stop;
                    }
                }
            }
            UartRxState::Stop => {
                if self.sample.val() {
                    self.st.d.next = UartRxState::Idle;
                    if self.line.val() {
                        self.out_valid.d.next = true;
                        self.out_byte.d.next = self.shift.q.val();
                    } else {
                        self.out_err.d.next = true;
                    }
                }
            }
        }
        if self.reset.val() {
            self.st.d.next = UartRxState::Idle;
            self.count.d.next = 0.into();
            self.nbit.d.next = 0.into();
            self.out_valid.d.next = false;
            self.out_err.d.next = false;
        }
    }
}
