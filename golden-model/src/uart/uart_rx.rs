//! Twin of `hdl/src/uart/uart_rx.rs`: the 8N1 serial receiver, register
//! for register. See the RTL's docs.

use crate::Cycle;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    pub reset: bool,
    pub rx: bool,
    pub cfg_clks_per_bit: u16,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub data_valid: bool,
    pub data: u8,
    pub frame_err: bool,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum St {
    #[default]
    Idle,
    Start,
    Data,
    Stop,
}

/// (bit time − 1, half the bit time − 1) after clamping to
/// `nic_spec::uart::MIN_CLKS_PER_BIT` cycles.
pub fn bit_times(cfg: u16) -> (u16, u16) {
    let cfg = cfg.max(nic_spec::uart::MIN_CLKS_PER_BIT);
    (cfg - 1, (cfg >> 1) - 1)
}

#[derive(Clone, Debug, Default)]
pub struct UartRx {
    sync1_n: bool,
    sync2_n: bool,
    prev_n: bool,
    st: St,
    count: u16,
    nbit: u8,
    shift: u8,
    out_valid: bool,
    out_byte: u8,
    out_err: bool,
}

impl Cycle for UartRx {
    type In = In;
    type Out = Out;
    fn step(&mut self, i: &In) -> Out {
        let out = Out {
            data_valid: self.out_valid,
            data: self.out_byte,
            frame_err: self.out_err,
        };
        let line = !self.sync2_n;
        let fall = self.sync2_n && !self.prev_n;
        let (bit_m1, half_m1) = bit_times(i.cfg_clks_per_bit);
        let sample = self.count == 0;
        let mut n = self.clone();
        n.sync1_n = !i.rx;
        n.sync2_n = self.sync1_n;
        n.prev_n = self.sync2_n;
        n.out_valid = false;
        n.out_err = false;
        if self.st != St::Idle && !sample {
            n.count = self.count.wrapping_sub(1);
        }
        match self.st {
            St::Idle => {
                if fall {
                    n.st = St::Start;
                    n.count = half_m1;
                }
            }
            St::Start => {
                if sample {
                    if line {
                        n.st = St::Idle;
                    } else {
                        n.st = St::Data;
                        n.count = bit_m1;
                        n.nbit = 0;
                    }
                }
            }
            St::Data => {
                if sample {
                    n.shift = (self.shift >> 1) | if line { 0x80 } else { 0 };
                    n.count = bit_m1;
                    n.nbit = (self.nbit + 1) & 7;
                    if self.nbit == 7 {
                        n.st = St::Stop;
                    }
                }
            }
            St::Stop => {
                if sample {
                    n.st = St::Idle;
                    if line {
                        n.out_valid = true;
                        n.out_byte = self.shift;
                    } else {
                        n.out_err = true;
                    }
                }
            }
        }
        if i.reset {
            n.st = St::Idle;
            n.count = 0;
            n.nbit = 0;
            n.out_valid = false;
            n.out_err = false;
        }
        *self = n;
        out
    }
}
