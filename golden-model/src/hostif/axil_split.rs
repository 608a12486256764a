//! Twin of `hdl/src/hostif/axil_split.rs`: one AXI4-Lite master onto two
//! slaves by address (`nic_spec::board::HOST_MEM_BASE`).

use crate::hostif::{AxilIn, AxilOut};
use crate::Cycle;
use nic_spec::board::HOST_MEM_BASE;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    pub reset: bool,
    /// The master's side of `s_axil`.
    pub s: AxilIn,
    /// The slaves' answers on `m_axil_a`, `m_axil_b`.
    pub a: AxilOut,
    pub b: AxilOut,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub s: AxilOut,
    pub a: AxilIn,
    pub b: AxilIn,
}

/// The RTL's registers.
#[derive(Clone, Debug, Default)]
pub struct AxilSplit {
    aw_v: bool,
    aw_addr: u16,
    aw_prot: u8,
    w_v: bool,
    w_data: u32,
    w_strb: u8,
    aw_sent: bool,
    w_sent: bool,
    b_v: bool,
    b_resp: u8,
    ar_v: bool,
    ar_addr: u16,
    ar_prot: u8,
    ar_sent: bool,
    r_v: bool,
    r_data: u32,
    r_resp: u8,
}

impl Cycle for AxilSplit {
    type In = In;
    type Out = Out;
    fn step(&mut self, i: &In) -> Out {
        let s = self.clone();
        let live = !i.reset;
        let wr_b = s.aw_addr >= HOST_MEM_BASE;
        let rd_b = s.ar_addr >= HOST_MEM_BASE;
        let wr_offer = s.aw_v && s.w_v && !s.b_v;
        let wr_wait = wr_offer && s.aw_sent && s.w_sent;
        let ar_offer = s.ar_v && !s.ar_sent && !s.r_v;
        let rd_wait = s.ar_v && s.ar_sent;
        let (wsl, rsl) = (
            if wr_b { &i.b } else { &i.a },
            if rd_b { &i.b } else { &i.a },
        );
        let aw_taken = wr_offer && !s.aw_sent && wsl.awready;
        let w_taken = wr_offer && !s.w_sent && wsl.wready;
        let b_in = wr_wait && wsl.bvalid;
        let ar_taken = ar_offer && rsl.arready;
        let r_in = rd_wait && rsl.rvalid;

        let slave = |to_b: bool| AxilIn {
            awaddr: if to_b {
                s.aw_addr.wrapping_sub(HOST_MEM_BASE)
            } else {
                s.aw_addr
            },
            awprot: s.aw_prot,
            awvalid: wr_offer && !s.aw_sent && wr_b == to_b,
            wdata: s.w_data,
            wstrb: s.w_strb,
            wvalid: wr_offer && !s.w_sent && wr_b == to_b,
            bready: wr_wait && wr_b == to_b,
            araddr: if to_b {
                s.ar_addr.wrapping_sub(HOST_MEM_BASE)
            } else {
                s.ar_addr
            },
            arprot: s.ar_prot,
            arvalid: ar_offer && rd_b == to_b,
            rready: rd_wait && rd_b == to_b,
        };
        let out = Out {
            s: AxilOut {
                awready: !s.aw_v && live,
                wready: !s.w_v && live,
                bresp: s.b_resp,
                bvalid: s.b_v,
                arready: !s.ar_v && live,
                rdata: s.r_data,
                rresp: s.r_resp,
                rvalid: s.r_v,
            },
            a: slave(false),
            b: slave(true),
        };

        if aw_taken {
            self.aw_sent = true;
        }
        if w_taken {
            self.w_sent = true;
        }
        if b_in {
            self.aw_v = false;
            self.w_v = false;
            self.aw_sent = false;
            self.w_sent = false;
            self.b_v = true;
            self.b_resp = wsl.bresp;
        }
        if s.b_v && i.s.bready {
            self.b_v = false;
        }
        if i.s.awvalid && !s.aw_v && live {
            self.aw_v = true;
            self.aw_addr = i.s.awaddr;
            self.aw_prot = i.s.awprot;
        }
        if i.s.wvalid && !s.w_v && live {
            self.w_v = true;
            self.w_data = i.s.wdata;
            self.w_strb = i.s.wstrb;
        }
        if ar_taken {
            self.ar_sent = true;
        }
        if r_in {
            self.ar_v = false;
            self.ar_sent = false;
            self.r_v = true;
            self.r_data = rsl.rdata;
            self.r_resp = rsl.rresp;
        }
        if s.r_v && i.s.rready {
            self.r_v = false;
        }
        if i.s.arvalid && !s.ar_v && live {
            self.ar_v = true;
            self.ar_addr = i.s.araddr;
            self.ar_prot = i.s.arprot;
        }
        if i.reset {
            self.aw_v = false;
            self.w_v = false;
            self.aw_sent = false;
            self.w_sent = false;
            self.b_v = false;
            self.ar_v = false;
            self.ar_sent = false;
            self.r_v = false;
        }
        out
    }
}
