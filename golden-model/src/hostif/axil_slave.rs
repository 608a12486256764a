//! Twin of `hdl/src/hostif/axil_slave.rs`: AXI4-Lite → one register
//! access at a time, and its answer back on B or R.

use crate::hostif::{AxilIn, AxilOut, RegReq, RegResp};
use crate::Cycle;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    pub reset: bool,
    pub axil: AxilIn,
    pub req_ready: bool,
    pub resp_valid: bool,
    pub resp: RegResp,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub axil: AxilOut,
    pub req_valid: bool,
    pub req: RegReq,
}

/// The RTL's registers, one field each: the channel registers keep their
/// last values when emptied.
#[derive(Clone, Debug, Default)]
pub struct AxilSlave {
    aw_v: bool,
    aw_a: u16,
    w_v: bool,
    w_d: u32,
    w_s: u8,
    ar_v: bool,
    ar_a: u16,
    busy: bool,
    busy_wr: bool,
    turn_rd: bool,
    b_v: bool,
    b_r: u8,
    r_v: bool,
    r_d: u32,
    r_r: u8,
}

impl Cycle for AxilSlave {
    type In = In;
    type Out = Out;
    fn step(&mut self, i: &In) -> Out {
        let a = &i.axil;
        let s = self.clone();
        let can_issue = !s.busy && !s.b_v && !s.r_v;
        let pick_wr = s.aw_v && s.w_v && (!s.ar_v || !s.turn_rd);
        let req_valid = can_issue && ((s.aw_v && s.w_v) || s.ar_v);
        let out = Out {
            axil: AxilOut {
                awready: !s.aw_v,
                wready: !s.w_v,
                bresp: s.b_r,
                bvalid: s.b_v,
                arready: !s.ar_v,
                rdata: s.r_d,
                rresp: s.r_r,
                rvalid: s.r_v,
            },
            req_valid,
            req: RegReq {
                write: pick_wr,
                addr: if pick_wr { s.aw_a } else { s.ar_a },
                wdata: s.w_d,
                wstrb: s.w_s,
            },
        };
        if a.awvalid && !s.aw_v {
            self.aw_v = true;
            self.aw_a = a.awaddr;
        }
        if a.wvalid && !s.w_v {
            self.w_v = true;
            self.w_d = a.wdata;
            self.w_s = a.wstrb & 0xF;
        }
        if a.arvalid && !s.ar_v {
            self.ar_v = true;
            self.ar_a = a.araddr;
        }
        if req_valid && i.req_ready {
            self.busy = true;
            self.busy_wr = pick_wr;
            self.turn_rd = pick_wr;
            if pick_wr {
                self.aw_v = false;
                self.w_v = false;
            } else {
                self.ar_v = false;
            }
        }
        if i.resp_valid && s.busy {
            self.busy = false;
            if s.busy_wr {
                self.b_v = true;
                self.b_r = i.resp.resp & 3;
            } else {
                self.r_v = true;
                self.r_d = i.resp.rdata;
                self.r_r = i.resp.resp & 3;
            }
        }
        if s.b_v && a.bready {
            self.b_v = false;
        }
        if s.r_v && a.rready {
            self.r_v = false;
        }
        if i.reset {
            self.aw_v = false;
            self.w_v = false;
            self.ar_v = false;
            self.busy = false;
            self.turn_rd = false;
            self.b_v = false;
            self.r_v = false;
        }
        out
    }
}
