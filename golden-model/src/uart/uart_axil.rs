//! Twin of `hdl/src/uart/uart_axil.rs`: the UART register bridge, built
//! from the receiver and transmitter twins, register for register. See
//! the RTL's docs.

use super::{crc8, uart_rx, uart_tx, UartBridgeStats};
use crate::hostif::{AxilIn, AxilOut};
use crate::stream::Axis;
use crate::Cycle;
use nic_spec::uart::{cmd, status, STATS_NAMES, SYNC};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    pub reset: bool,
    pub uart_rx: bool,
    pub cfg_clks_per_bit: u16,
    pub cfg_timeout: u32,
    /// The slave's side of the AXI4-Lite channels.
    pub axil: AxilOut,
    /// The board's counter at `ext_stat_index`, and whether it names one.
    pub ext_stat_data: u32,
    pub ext_stat_hit: bool,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub uart_tx: bool,
    /// The master's side of the AXI4-Lite channels.
    pub axil: AxilIn,
    pub stats: UartBridgeStats,
    /// The `STATS` address (page << 8 | counter) of the request.
    pub ext_stat_index: u16,
}

/// The first `STATS` address past page 0 (the bridge's own counters).
const EXT_BASE: u16 = 0x100;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum St {
    #[default]
    Idle,
    Recv,
    Discard,
    Exec,
    Resp,
}

#[derive(Clone, Debug, Default)]
pub struct UartAxil {
    rx: uart_rx::UartRx,
    tx: uart_tx::UartTx,
    st: St,
    nrecv: u8,
    need: u8,
    cmd: u8,
    addr: u16,
    wdata: u32,
    crc: u8,
    idle: u32,
    ar_done: bool,
    aw_done: bool,
    w_done: bool,
    resp_status: u8,
    resp_data: u32,
    resp_idx: u8,
    resp_crc: u8,
    n: UartBridgeStats,
}

const IDLE_MAX: u32 = 0xFF_FFFF;

impl UartAxil {
    fn stat(&self, k: u16) -> u32 {
        match k {
            0 => self.n.requests,
            1 => self.n.bad_crc,
            2 => self.n.bad_cmd,
            3 => self.n.truncated,
            4 => self.n.framing,
            5 => self.n.stray,
            _ => self.n.overrun,
        }
    }
}

impl Cycle for UartAxil {
    type In = In;
    type Out = Out;
    fn step(&mut self, i: &In) -> Out {
        let r = self.rx.step(&uart_rx::In {
            reset: i.reset,
            rx: i.uart_rx,
            cfg_clks_per_bit: i.cfg_clks_per_bit,
        });
        let tx_byte = match self.resp_idx {
            0 => SYNC,
            1 => self.resp_status,
            6 => self.resp_crc,
            _ => (self.resp_data >> 24) as u8,
        };
        let tx_valid = self.st == St::Resp;
        let t = self.tx.step(&uart_tx::In {
            reset: i.reset,
            cfg_clks_per_bit: i.cfg_clks_per_bit,
            s: Axis {
                tdata: tx_byte,
                tvalid: tx_valid,
                tkeep: true,
                tlast: self.resp_idx == 6,
                tuser: false,
            },
        });
        let tx_take = tx_valid && t.s_tready;
        let exec = self.st == St::Exec;
        let mut axil = AxilIn {
            awaddr: self.addr,
            wdata: self.wdata,
            wstrb: 0xF,
            araddr: self.addr,
            ..Default::default()
        };
        if exec && self.cmd == cmd::WRITE {
            axil.awvalid = !self.aw_done;
            axil.wvalid = !self.w_done;
            axil.bready = self.aw_done && self.w_done;
        }
        if exec && self.cmd == cmd::READ {
            axil.arvalid = !self.ar_done;
            axil.rready = self.ar_done;
        }
        let out = Out {
            uart_tx: t.tx,
            axil,
            stats: self.n,
            ext_stat_index: self.addr,
        };

        let rx_event = r.data_valid || r.frame_err;
        let last_byte = (self.nrecv + 1) & 15 == self.need;
        let timed_out = !rx_event && self.idle >= i.cfg_timeout;
        let mut n = self.clone();
        n.idle = if rx_event {
            0
        } else {
            (self.idle + 1).min(IDLE_MAX)
        };
        let inc = |x: u32| x.wrapping_add(1);
        match self.st {
            St::Idle => {
                if r.data_valid {
                    if r.data == SYNC {
                        n.st = St::Recv;
                        n.nrecv = 0;
                        n.need = 15;
                        n.crc = 0;
                    } else {
                        n.n.stray = inc(self.n.stray);
                    }
                }
                if r.frame_err {
                    n.n.framing = inc(self.n.framing);
                    n.st = St::Discard;
                }
            }
            St::Recv => {
                if r.data_valid {
                    n.nrecv = (self.nrecv + 1) & 15;
                    let c = crc8::step(self.crc, r.data);
                    n.crc = c;
                    if self.nrecv == 0 {
                        n.cmd = r.data;
                        match r.data {
                            cmd::READ | cmd::STATS => n.need = 4,
                            cmd::WRITE => n.need = 8,
                            _ => {
                                n.n.bad_cmd = inc(self.n.bad_cmd);
                                n.st = St::Discard;
                            }
                        }
                    } else if last_byte {
                        n.ar_done = false;
                        n.aw_done = false;
                        n.w_done = false;
                        if c == 0 {
                            n.st = St::Exec;
                        } else {
                            n.n.bad_crc = inc(self.n.bad_crc);
                            n.st = St::Resp;
                            n.resp_status = status::BAD_CRC;
                            n.resp_data = 0;
                            n.resp_idx = 0;
                            n.resp_crc = 0;
                        }
                    } else if self.nrecv < 3 {
                        n.addr = (self.addr << 8) | r.data as u16;
                    } else {
                        n.wdata = (self.wdata << 8) | r.data as u32;
                    }
                }
                if r.frame_err {
                    n.n.framing = inc(self.n.framing);
                    n.st = St::Discard;
                }
                if timed_out {
                    n.n.truncated = inc(self.n.truncated);
                    n.st = St::Idle;
                }
            }
            St::Discard => {
                if r.frame_err {
                    n.n.framing = inc(self.n.framing);
                }
                if timed_out {
                    n.st = St::Idle;
                }
            }
            St::Exec => {
                if rx_event {
                    n.n.overrun = inc(self.n.overrun);
                }
                n.resp_idx = 0;
                n.resp_crc = 0;
                if axil.arvalid && i.axil.arready {
                    n.ar_done = true;
                }
                if axil.awvalid && i.axil.awready {
                    n.aw_done = true;
                }
                if axil.wvalid && i.axil.wready {
                    n.w_done = true;
                }
                if self.cmd == cmd::STATS {
                    n.st = St::Resp;
                    let (ok, v) = if self.addr >= EXT_BASE {
                        (i.ext_stat_hit, i.ext_stat_data)
                    } else {
                        (
                            (self.addr as usize) < STATS_NAMES.len(),
                            self.stat(self.addr),
                        )
                    };
                    n.resp_status = if ok { status::OKAY } else { status::DECERR };
                    n.resp_data = if ok { v } else { 0 };
                }
                if i.axil.rvalid && axil.rready {
                    n.st = St::Resp;
                    n.resp_status = i.axil.rresp & 3;
                    n.resp_data = i.axil.rdata;
                }
                if i.axil.bvalid && axil.bready {
                    n.st = St::Resp;
                    n.resp_status = i.axil.bresp & 3;
                    n.resp_data = 0;
                }
            }
            St::Resp => {
                if rx_event {
                    n.n.overrun = inc(self.n.overrun);
                }
                if tx_take {
                    n.resp_idx = (self.resp_idx + 1) & 7;
                    if (1..=5).contains(&self.resp_idx) {
                        n.resp_crc = crc8::step(self.resp_crc, tx_byte);
                    }
                    if (2..=5).contains(&self.resp_idx) {
                        n.resp_data = self.resp_data << 8;
                    }
                    if self.resp_idx == 6 {
                        n.st = St::Idle;
                        if self.resp_status != status::BAD_CRC {
                            n.n.requests = inc(self.n.requests);
                        }
                    }
                }
            }
        }
        if i.reset {
            n.st = St::Idle;
            n.ar_done = false;
            n.aw_done = false;
            n.w_done = false;
            n.resp_idx = 0;
            n.n = UartBridgeStats::default();
        }
        *self = n;
        out
    }
}
