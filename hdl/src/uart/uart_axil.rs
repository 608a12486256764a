//! `UartAxil`: the UART register bridge. Requests on a serial line →
//! AXI4-Lite master accesses → responses on the serial line, with the
//! framing, commands, status bytes and CRC-8 of `nic_spec::uart`
//! (`docs/board.md` §2). It is how a board without PCIe (the ECPIX-5
//! top) gives a host the NIC's registers.
//!
//! What it does, one request at a time:
//! - `Idle`: waits for `SYNC`; any other byte is counted `stray`;
//! - `Recv`: takes the command byte (an unknown one is counted
//!   `bad_cmd`, and the rest is dropped: `Discard`), the address, the
//!   value of a WRITE and the CRC-8, keeping the running CRC of every
//!   byte after `SYNC` ([`Crc8Step`]): it is 0 after the last byte
//!   exactly when the CRC is right. A wrong CRC is counted `bad_crc` and
//!   answered `BAD_CRC` with no access. If the next byte does not come
//!   within `cfg_timeout` cycles, the request is counted `truncated` and
//!   dropped (no answer);
//! - `Exec`: READ: AR, then R; WRITE: AW and W (each held until taken,
//!   in either order), then B; STATS: a counter, no access. The address
//!   is `(page << 8) | k` (`nic_spec::board::STATS_PAGES`): page 0 is
//!   the bridge's own counters (DECERR past the last one); another page
//!   is read from the `ext_stat_*` port (DECERR where it has no hit).
//!   The access's `rresp`/`bresp` is the status;
//! - `Resp`: `SYNC`, the status, the value (high byte first), the CRC-8
//!   of those five bytes, back to back on the line; then `Idle`, and
//!   `requests` counts the request.
//!
//! A framing error (stop bit 0) is counted `framing` and drops the
//! request being received; after it, and after an unknown command, the
//! bridge drops bytes until the line has been idle `cfg_timeout` cycles
//! (`Discard`). Bytes and framing errors in `Exec` or `Resp` are
//! counted `overrun` and dropped. So each request and each stray byte
//! counts in exactly one counter (`nic_spec::uart::STATS_NAMES`).
//!
//! Ports (clock `clock`, synchronous active-high `reset`: back to
//! `Idle`, the counters to 0, the line high):
//! - `uart_rx` (the line from the host, asynchronous: synchronised in
//!   [`UartRx`]), `uart_tx` (the line to the host, high when idle);
//! - `cfg_clks_per_bit: Bits<16>`: the bit time in cycles (below 2 act
//!   as 2; 50 MHz / 1 Mbaud = 50);
//! - `cfg_timeout: Bits<24>`: idle cycles that end a request; it must
//!   be more than a character (10 bit times), or every request is
//!   `truncated` (the boards use about 1 ms);
//! - `m_axil` ([`AxiLiteMaster`]): AXI4-Lite master, 16-bit addresses,
//!   32-bit data, `awprot`/`arprot` 0, `wstrb` 0xF; every valid is held
//!   until its ready (`make formal`, `uart_axil`); `bready` rises only
//!   after AW and W were taken and `rready` after AR was, so a slave's
//!   answer before its request is never taken;
//! - `m_stats` (`UartBridgeStats`): the counters, 32 bits, wrapping;
//! - `ext_stat_index: Bits<16>` (out, the request's address register),
//!   `ext_stat_data: Bits<32>` and `ext_stat_hit` (in): the counters
//!   of the pages past 0, the board's (`NicBoard1g`). The bridge reads
//!   `ext_stat_data`/`ext_stat_hit` in the cycle it executes a `STATS`
//!   request; `ext_stat_index` has then held its value since the
//!   address's last byte, one character (10 bit times) earlier, so the
//!   answer may take up to that long to follow the index (the board
//!   carries it across clocks). Tie `ext_stat_hit` low for no pages.
//!
//! Timing: the last request byte's strobe from [`UartRx`] in cycle t →
//! `arvalid`/`awvalid`/`wvalid` in t + 1; the answer (`rvalid`/`bvalid`)
//! in cycle u → the response's first byte taken by [`UartTx`] in u + 1;
//! then 70 bit times on the line. A READ costs 5 + 7 characters on the
//! line plus the access: at 1 Mbaud, about 120 µs.
//!
//! The access is not timed out: the bridge waits for its answer (the
//! NIC's AXI4-Lite slave answers every access: `make formal`,
//! `host_if_axil_live`).
//!
//! Golden twin: `nic_golden::uart::uart_axil`.

use crate::hostif::AxiLiteMaster;
use crate::uart::{Crc8Step, UartBridgeStatsSource, UartRx, UartTx};
use nic_spec::uart::{cmd, status, STATS_NAMES, SYNC};
use rust_hdl::prelude::*;
use smart_default::SmartDefault;

#[derive(Copy, Clone, PartialEq, Debug, LogicState)]
pub enum BridgeState {
    Idle,
    Recv,
    Discard,
    Exec,
    Resp,
}

#[derive(LogicBlock, SmartDefault)]
pub struct UartAxil {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub uart_rx: Signal<In, Bit>,
    pub uart_tx: Signal<Out, Bit>,
    pub cfg_clks_per_bit: Signal<In, Bits<16>>,
    pub cfg_timeout: Signal<In, Bits<24>>,
    pub m_axil: AxiLiteMaster,
    pub m_stats: UartBridgeStatsSource,
    pub ext_stat_index: Signal<Out, Bits<16>>,
    pub ext_stat_data: Signal<In, Bits<32>>,
    pub ext_stat_hit: Signal<In, Bit>,
    rx: UartRx,
    tx: UartTx,
    crc_rx: Crc8Step,
    crc_tx: Crc8Step,
    st: DFF<BridgeState>,
    /// Bytes received after `SYNC`, and how many the request has (its
    /// command's length − 1).
    nrecv: DFF<Bits<4>>,
    need: DFF<Bits<4>>,
    cmd: DFF<Bits<8>>,
    addr: DFF<Bits<16>>,
    wdata: DFF<Bits<32>>,
    /// The running CRC-8 of the bytes after `SYNC`.
    crc: DFF<Bits<8>>,
    /// Cycles since the last byte or framing error (saturating).
    idle: DFF<Bits<24>>,
    ar_done: DFF<Bit>,
    aw_done: DFF<Bit>,
    w_done: DFF<Bit>,
    resp_status: DFF<Bits<8>>,
    /// The value still to send, its next byte in bits 31..24.
    resp_data: DFF<Bits<32>>,
    /// The response byte on the line's input: 0 `SYNC` … 6 the CRC.
    resp_idx: DFF<Bits<3>>,
    resp_crc: DFF<Bits<8>>,
    n_requests: DFF<Bits<32>>,
    n_bad_crc: DFF<Bits<32>>,
    n_bad_cmd: DFF<Bits<32>>,
    n_truncated: DFF<Bits<32>>,
    n_framing: DFF<Bits<32>>,
    n_stray: DFF<Bits<32>>,
    n_overrun: DFF<Bits<32>>,
    #[default(Constant::new(Bits::<8>::from(SYNC as u64)))]
    k_sync: Constant<Bits<8>>,
    #[default(Constant::new(Bits::<8>::from(cmd::READ as u64)))]
    k_read: Constant<Bits<8>>,
    #[default(Constant::new(Bits::<8>::from(cmd::WRITE as u64)))]
    k_write: Constant<Bits<8>>,
    #[default(Constant::new(Bits::<8>::from(cmd::STATS as u64)))]
    k_stats: Constant<Bits<8>>,
    #[default(Constant::new(Bits::<8>::from(status::BAD_CRC as u64)))]
    k_bad_crc: Constant<Bits<8>>,
    #[default(Constant::new(Bits::<8>::from(status::DECERR as u64)))]
    k_decerr: Constant<Bits<8>>,
    #[default(Constant::new(Bits::<8>::from(status::OKAY as u64)))]
    k_okay: Constant<Bits<8>>,
    #[default(Constant::new(Bits::<16>::from(STATS_NAMES.len() as u64)))]
    k_n_stats: Constant<Bits<16>>,
    /// The first address past page 0 (`STATS`).
    #[default(Constant::new(Bits::<16>::from(0x100u64)))]
    k_ext_base: Constant<Bits<16>>,
    /// A byte or a framing error from the receiver this cycle.
    rx_event: Signal<Local, Bit>,
    last_byte: Signal<Local, Bit>,
    timed_out: Signal<Local, Bit>,
    stat_sel: Signal<Local, Bits<32>>,
    tx_take: Signal<Local, Bit>,
}

impl Logic for UartAxil {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            st,
            nrecv,
            need,
            cmd,
            addr,
            wdata,
            crc,
            idle,
            ar_done,
            aw_done,
            w_done,
            resp_status,
            resp_data,
            resp_idx,
            resp_crc,
            n_requests,
            n_bad_crc,
            n_bad_cmd,
            n_truncated,
            n_framing,
            n_stray,
            n_overrun
        );
        clock!(self, clock, rx, tx);
        self.rx.reset.next = self.reset.val();
        self.rx.rx.next = self.uart_rx.val();
        self.rx.cfg_clks_per_bit.next = self.cfg_clks_per_bit.val();
        self.tx.reset.next = self.reset.val();
        self.tx.cfg_clks_per_bit.next = self.cfg_clks_per_bit.val();
        self.uart_tx.next = self.tx.tx.val();

        // ---- Receive: the running CRC, the idle timer.
        self.rx_event.next = (self.rx.data_valid.val() || self.rx.frame_err.val());
        self.crc_rx.crc_in.next = self.crc.q.val();
        self.crc_rx.data.next = self.rx.data.val();
        self.last_byte.next = ((self.nrecv.q.val() + 1) == self.need.q.val());
        self.idle.d.next = self.idle.q.val();
        if (self.idle.q.val() != 0xFF_FFFF) {
            self.idle.d.next = (self.idle.q.val() + 1);
        }
        if self.rx_event.val() {
            self.idle.d.next = 0.into();
        }
        self.timed_out.next =
            (!self.rx_event.val() && (self.idle.q.val() >= self.cfg_timeout.val()));

        // ---- The counter a STATS request reads.
        self.ext_stat_index.next = self.addr.q.val();
        self.stat_sel.next = self.n_overrun.q.val();
        if (self.addr.q.val() == 0) {
            self.stat_sel.next = self.n_requests.q.val();
        }
        if (self.addr.q.val() == 1) {
            self.stat_sel.next = self.n_bad_crc.q.val();
        }
        if (self.addr.q.val() == 2) {
            self.stat_sel.next = self.n_bad_cmd.q.val();
        }
        if (self.addr.q.val() == 3) {
            self.stat_sel.next = self.n_truncated.q.val();
        }
        if (self.addr.q.val() == 4) {
            self.stat_sel.next = self.n_framing.q.val();
        }
        if (self.addr.q.val() == 5) {
            self.stat_sel.next = self.n_stray.q.val();
        }

        // ---- AXI4-Lite master: valids from registers and the state.
        self.m_axil.awaddr.next = self.addr.q.val();
        self.m_axil.awprot.next = 0.into();
        self.m_axil.wdata.next = self.wdata.q.val();
        self.m_axil.wstrb.next = 0xF.into();
        self.m_axil.araddr.next = self.addr.q.val();
        self.m_axil.arprot.next = 0.into();
        self.m_axil.awvalid.next = false;
        self.m_axil.wvalid.next = false;
        self.m_axil.bready.next = false;
        self.m_axil.arvalid.next = false;
        self.m_axil.rready.next = false;
        if (self.st.q.val() == BridgeState::Exec) {
            if (self.cmd.q.val() == self.k_write.val()) {
                self.m_axil.awvalid.next = !self.aw_done.q.val();
                self.m_axil.wvalid.next = !self.w_done.q.val();
                self.m_axil.bready.next = (self.aw_done.q.val() && self.w_done.q.val());
            }
            if (self.cmd.q.val() == self.k_read.val()) {
                self.m_axil.arvalid.next = !self.ar_done.q.val();
                self.m_axil.rready.next = self.ar_done.q.val();
            }
        }

        // ---- The response onto the line.
        self.tx.s_axis.tvalid.next = (self.st.q.val() == BridgeState::Resp);
        self.tx.s_axis.tkeep.next = 1.into();
        self.tx.s_axis.tlast.next = (self.resp_idx.q.val() == 6);
        self.tx.s_axis.tuser.next = 0.into();
        self.tx.s_axis.tdata.next = self.resp_data.q.val().get_bits::<8>(24);
        if (self.resp_idx.q.val() == 0) {
            self.tx.s_axis.tdata.next = self.k_sync.val();
        }
        if (self.resp_idx.q.val() == 1) {
            self.tx.s_axis.tdata.next = self.resp_status.q.val();
        }
        if (self.resp_idx.q.val() == 6) {
            self.tx.s_axis.tdata.next = self.resp_crc.q.val();
        }
        self.crc_tx.crc_in.next = self.resp_crc.q.val();
        self.crc_tx.data.next = self.tx.s_axis.tdata.val();
        self.tx_take.next = (self.tx.s_axis.tvalid.val() && self.tx.s_axis.tready.val());

        match self.st.q.val() {
            BridgeState::Idle => {
                if self.rx.data_valid.val() {
                    if (self.rx.data.val() == self.k_sync.val()) {
                        self.st.d.next = BridgeState::Recv;
                        self.nrecv.d.next = 0.into();
                        self.need.d.next = 15.into();
                        self.crc.d.next = 0.into();
                    } else {
                        self.n_stray.d.next = (self.n_stray.q.val() + 1);
                    }
                }
                if self.rx.frame_err.val() {
                    self.n_framing.d.next = (self.n_framing.q.val() + 1);
                    self.st.d.next = BridgeState::Discard;
                }
            }
            BridgeState::Recv => {
                if self.rx.data_valid.val() {
                    self.nrecv.d.next = (self.nrecv.q.val() + 1);
                    self.crc.d.next = self.crc_rx.crc_out.val();
                    if (self.nrecv.q.val() == 0) {
                        self.cmd.d.next = self.rx.data.val();
                        if ((self.rx.data.val() == self.k_read.val())
                            || (self.rx.data.val() == self.k_stats.val()))
                        {
                            self.need.d.next = 4.into();
                        } else if (self.rx.data.val() == self.k_write.val()) {
                            self.need.d.next = 8.into();
                        } else {
                            self.n_bad_cmd.d.next = (self.n_bad_cmd.q.val() + 1);
                            self.st.d.next = BridgeState::Discard;
                        }
                    } else if self.last_byte.val() {
                        self.ar_done.d.next = false;
                        self.aw_done.d.next = false;
                        self.w_done.d.next = false;
                        if (self.crc_rx.crc_out.val() == 0) {
                            self.st.d.next = BridgeState::Exec;
                        } else {
                            self.n_bad_crc.d.next = (self.n_bad_crc.q.val() + 1);
                            self.st.d.next = BridgeState::Resp;
                            self.resp_status.d.next = self.k_bad_crc.val();
                            self.resp_data.d.next = 0.into();
                            self.resp_idx.d.next = 0.into();
                            self.resp_crc.d.next = 0.into();
                        }
                    } else if (self.nrecv.q.val() < 3) {
                        self.addr.d.next =
                            ((self.addr.q.val() << 8) | bit_cast::<16, 8>(self.rx.data.val()));
                    } else {
                        self.wdata.d.next =
                            ((self.wdata.q.val() << 8) | bit_cast::<32, 8>(self.rx.data.val()));
                    }
                }
                if self.rx.frame_err.val() {
                    self.n_framing.d.next = (self.n_framing.q.val() + 1);
                    self.st.d.next = BridgeState::Discard;
                }
                if self.timed_out.val() {
                    self.n_truncated.d.next = (self.n_truncated.q.val() + 1);
                    self.st.d.next = BridgeState::Idle;
                }
            }
            BridgeState::Discard => {
                if self.rx.frame_err.val() {
                    self.n_framing.d.next = (self.n_framing.q.val() + 1);
                }
                if self.timed_out.val() {
                    self.st.d.next = BridgeState::Idle;
                }
            }
            BridgeState::Exec => {
                if self.rx_event.val() {
                    self.n_overrun.d.next = (self.n_overrun.q.val() + 1);
                }
                self.resp_idx.d.next = 0.into();
                self.resp_crc.d.next = 0.into();
                if (self.m_axil.arvalid.val() && self.m_axil.arready.val()) {
                    self.ar_done.d.next = true;
                }
                if (self.m_axil.awvalid.val() && self.m_axil.awready.val()) {
                    self.aw_done.d.next = true;
                }
                if (self.m_axil.wvalid.val() && self.m_axil.wready.val()) {
                    self.w_done.d.next = true;
                }
                if (self.cmd.q.val() == self.k_stats.val()) {
                    self.st.d.next = BridgeState::Resp;
                    self.resp_status.d.next = self.k_okay.val();
                    self.resp_data.d.next = self.stat_sel.val();
                    if (self.addr.q.val() >= self.k_n_stats.val()) {
                        self.resp_status.d.next = self.k_decerr.val();
                        self.resp_data.d.next = 0.into();
                    }
                    if (self.addr.q.val() >= self.k_ext_base.val()) {
                        if self.ext_stat_hit.val() {
                            self.resp_status.d.next = self.k_okay.val();
                            self.resp_data.d.next = self.ext_stat_data.val();
                        }
                    }
                }
                if (self.m_axil.rvalid.val() && self.m_axil.rready.val()) {
                    self.st.d.next = BridgeState::Resp;
                    self.resp_status.d.next = bit_cast::<8, 2>(self.m_axil.rresp.val());
                    self.resp_data.d.next = self.m_axil.rdata.val();
                }
                if (self.m_axil.bvalid.val() && self.m_axil.bready.val()) {
                    self.st.d.next = BridgeState::Resp;
                    self.resp_status.d.next = bit_cast::<8, 2>(self.m_axil.bresp.val());
                    self.resp_data.d.next = 0.into();
                }
            }
            BridgeState::Resp => {
                if self.rx_event.val() {
                    self.n_overrun.d.next = (self.n_overrun.q.val() + 1);
                }
                if self.tx_take.val() {
                    self.resp_idx.d.next = (self.resp_idx.q.val() + 1);
                    if ((self.resp_idx.q.val() >= 1) && (self.resp_idx.q.val() <= 5)) {
                        self.resp_crc.d.next = self.crc_tx.crc_out.val();
                    }
                    if ((self.resp_idx.q.val() >= 2) && (self.resp_idx.q.val() <= 5)) {
                        self.resp_data.d.next = (self.resp_data.q.val() << 8);
                    }
                    if (self.resp_idx.q.val() == 6) {
                        self.st.d.next = BridgeState::Idle;
                        if (self.resp_status.q.val() != self.k_bad_crc.val()) {
                            self.n_requests.d.next = (self.n_requests.q.val() + 1);
                        }
                    }
                }
            }
        }

        self.m_stats.requests.next = self.n_requests.q.val();
        self.m_stats.bad_crc.next = self.n_bad_crc.q.val();
        self.m_stats.bad_cmd.next = self.n_bad_cmd.q.val();
        self.m_stats.truncated.next = self.n_truncated.q.val();
        self.m_stats.framing.next = self.n_framing.q.val();
        self.m_stats.stray.next = self.n_stray.q.val();
        self.m_stats.overrun.next = self.n_overrun.q.val();

        if self.reset.val() {
            self.st.d.next = BridgeState::Idle;
            self.ar_done.d.next = false;
            self.aw_done.d.next = false;
            self.w_done.d.next = false;
            self.resp_idx.d.next = 0.into();
            self.n_requests.d.next = 0.into();
            self.n_bad_crc.d.next = 0.into();
            self.n_bad_cmd.d.next = 0.into();
            self.n_truncated.d.next = 0.into();
            self.n_framing.d.next = 0.into();
            self.n_stray.d.next = 0.into();
            self.n_overrun.d.next = 0.into();
        }
    }
}
