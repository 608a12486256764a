//! Twin of `hdl/src/nic/rx_pause.rs`: the receive buffer's fill becomes
//! XOFF and XON requests to the MAC.

use crate::Cycle;
use nic_spec::roce::{RX_META_XOFF, RX_META_XON};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    pub reset: bool,
    pub buf_fill: u16,
    pub meta_fill: u8,
    pub cfg_xoff: u16,
    pub cfg_xon: u16,
    pub cfg_quanta: u16,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub pause_req: bool,
    pub pause_quanta: u16,
    pub paused: bool,
    pub xoffs: u32,
    pub xons: u32,
    pub cycles: u32,
}

#[derive(Clone, Copy, Debug, Default)]
pub struct RxPause {
    above_xoff: bool,
    at_or_below_xon: bool,
    enabled: bool,
    refresh_period: u32,
    on: bool,
    refresh_timer: u32,
    req: bool,
    req_quanta: u16,
    n_xoff: u32,
    n_xon: u32,
    n_cycles: u32,
}

impl RxPause {
    /// `pause_req` and `pause_quanta` this cycle: registers, known before
    /// the cycle's inputs.
    pub fn request(&self) -> (bool, u16) {
        (self.req, self.req_quanta)
    }
}

impl Cycle for RxPause {
    type In = In;
    type Out = Out;
    fn step(&mut self, i: &In) -> Out {
        let o = Out {
            pause_req: self.req,
            pause_quanta: self.req_quanta,
            paused: self.on,
            xoffs: self.n_xoff,
            xons: self.n_xon,
            cycles: self.n_cycles,
        };
        if i.reset {
            *self = Self::default();
            return o;
        }
        // The decision, on last cycle's compares.
        self.req = false;
        if !self.on {
            if self.enabled && self.above_xoff {
                self.req = true;
                self.req_quanta = i.cfg_quanta;
                self.on = true;
                self.refresh_timer = self.refresh_period;
                self.n_xoff = self.n_xoff.wrapping_add(1);
            }
        } else {
            self.n_cycles = self.n_cycles.wrapping_add(1);
            if !self.enabled || (self.at_or_below_xon && !self.above_xoff) {
                self.req = true;
                self.req_quanta = 0;
                self.on = false;
                self.n_xon = self.n_xon.wrapping_add(1);
            } else if self.refresh_timer == 0 {
                self.req = true;
                self.req_quanta = i.cfg_quanta;
                self.refresh_timer = self.refresh_period;
                self.n_xoff = self.n_xoff.wrapping_add(1);
            } else {
                self.refresh_timer -= 1;
            }
        }
        // The compares, for the next cycle.
        let meta = i.meta_fill as u32;
        self.above_xoff = i.buf_fill >= i.cfg_xoff || meta >= RX_META_XOFF;
        self.at_or_below_xon = i.buf_fill <= i.cfg_xon && meta <= RX_META_XON;
        self.enabled = i.cfg_xoff != 0 && i.cfg_quanta != 0;
        self.refresh_period = (i.cfg_quanta as u32) << 2;
        o
    }
}
