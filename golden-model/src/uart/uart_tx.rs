//! Twin of `hdl/src/uart/uart_tx.rs`: the 8N1 serial transmitter,
//! register for register. See the RTL's docs.

use crate::stream::Axis8;
use crate::Cycle;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    pub reset: bool,
    pub cfg_clks_per_bit: u16,
    /// `tkeep`: ignored by the block (a byte stream has one lane and no frames).
    pub s: Axis8,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub s_tready: bool,
    pub tx: bool,
}

#[derive(Clone, Debug, Default)]
pub struct UartTx {
    shift: u16,
    left: u8,
    count: u16,
}

impl Cycle for UartTx {
    type In = In;
    type Out = Out;
    fn step(&mut self, i: &In) -> Out {
        let (bit_m1, _) = super::uart_rx::bit_times(i.cfg_clks_per_bit);
        let bit_end = self.count == 0;
        let out = Out {
            tx: self.left == 0 || self.shift & 1 != 0,
            s_tready: self.left == 0 || (self.left == 1 && bit_end),
        };
        let mut n = self.clone();
        if self.left != 0 {
            n.count = self.count.wrapping_sub(1);
            if bit_end {
                n.shift = (self.shift >> 1) | 0x200;
                n.left = self.left - 1;
                n.count = bit_m1;
            }
        }
        if i.s.tvalid && out.s_tready {
            n.shift = ((i.s.tdata as u16) << 1) | 0x200;
            n.left = 10;
            n.count = bit_m1;
        }
        if i.reset {
            n.left = 0;
            n.count = 0;
        }
        *self = n;
        out
    }
}
