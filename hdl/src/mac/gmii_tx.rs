//! The 1G MAC transmitter: an 8-bit frame stream to GMII.
//!
//! What it does: sends seven preamble bytes (0x55) and the SFD (0xD5)
//! before each frame, pads it with zeros to 60 bytes, appends the FCS,
//! and keeps 12 idle byte times between frames. Back-to-back 64-byte
//! frames go every 84 byte times (8 + 64 + 12), which is line rate.
//!
//! Ports (clock `clock`, 125 MHz at 1 Gb/s; synchronous active-high
//! `reset`):
//! - `s_axis` (`AxisSink<8, 1, 1>`): the frame without FCS, one byte a
//!   beat; `tkeep` is ignored (every beat is one byte: the 64 → 8
//!   converter [`crate::stream::AxisNarrow`] sends only kept bytes);
//!   `tuser` on the last beat asks for the frame to be aborted;
//! - `pause`: hold off new frames (the pause timer); a frame in progress
//!   goes on;
//! - `gmii_txd`, `gmii_tx_en`, `gmii_tx_er`: registers, idle (0, 0, 0)
//!   after reset;
//! - `m_stats` (`MacTxStats`): good frames, their bytes (padding and FCS
//!   included, not the preamble), aborts.
//!
//! States: idle → preamble (8 cycles) → data (one beat a cycle; the
//! stream is read only here, `s_axis.tready` is a decode of the state
//! register) → padding → FCS (4 cycles) → gap (12 cycles) → the next
//! preamble at once if a frame waits, or idle. A beat taken in cycle t is
//! on `gmii_txd` in cycle t + 1; a frame starts (its first preamble byte
//! on the pins) two cycles after `tvalid` is seen in idle, or right after
//! the gap.
//!
//! Bad input: a beat missing inside a frame (underflow): a byte with
//! `gmii_tx_er` set ends the frame on the wire, the rest of it is read
//! and discarded; `tuser` on the last beat: its byte goes with
//! `gmii_tx_er` and the frame ends there, without FCS. Either way the peer
//! drops the frame, and it is counted in `aborts`. No frame is too long
//! to send.
//!
//! Golden twin: `nic_golden::mac::gmii_tx`, held to the byte-level
//! reference `nic_golden::mac::gmii`.

use super::MacTxStatsSource;
use crate::roce::crc32::Crc32x8;
use crate::stream::AxisSink;
use nic_spec::mac::{FCS_LEN, IFG, MIN_FRAME, PREAMBLE_BYTE, PREAMBLE_LEN, SFD};
use rust_hdl::prelude::*;
use smart_default::SmartDefault;

/// Transmitter states (`st`).
const ST_IDLE: u64 = 0;
const ST_PRE: u64 = 1;
const ST_DATA: u64 = 2;
const ST_PAD: u64 = 3;
const ST_FCS: u64 = 4;
const ST_DRAIN: u64 = 5;
const ST_GAP: u64 = 6;

#[derive(LogicBlock, SmartDefault)]
pub struct GmiiTx {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub s_axis: AxisSink<8, 1, 1>,
    pub pause: Signal<In, Bit>,
    pub gmii_txd: Signal<Out, Bits<8>>,
    pub gmii_tx_en: Signal<Out, Bit>,
    pub gmii_tx_er: Signal<Out, Bit>,
    pub m_stats: MacTxStatsSource,
    crc_byte: Crc32x8,
    st: DFF<Bits<3>>,
    /// Byte index in the preamble, the FCS or the gap.
    step: DFF<Bits<4>>,
    /// Bytes of the frame so far (data and padding), saturating.
    len: DFF<Bits<16>>,
    crc: DFF<Bits<32>>,
    txd: DFF<Bits<8>>,
    tx_en: DFF<Bit>,
    tx_er: DFF<Bit>,
    n_frames: DFF<Bits<32>>,
    n_bytes: DFF<Bits<32>>,
    n_aborts: DFF<Bits<32>>,
    #[default(Constant::new(ST_IDLE.into()))]
    k_st_idle: Constant<Bits<3>>,
    #[default(Constant::new(ST_PRE.into()))]
    k_st_pre: Constant<Bits<3>>,
    #[default(Constant::new(ST_DATA.into()))]
    k_st_data: Constant<Bits<3>>,
    #[default(Constant::new(ST_PAD.into()))]
    k_st_pad: Constant<Bits<3>>,
    #[default(Constant::new(ST_FCS.into()))]
    k_st_fcs: Constant<Bits<3>>,
    #[default(Constant::new(ST_DRAIN.into()))]
    k_st_drain: Constant<Bits<3>>,
    #[default(Constant::new(ST_GAP.into()))]
    k_st_gap: Constant<Bits<3>>,
    #[default(Constant::new(((PREAMBLE_LEN - 1) as u64).into()))]
    k_pre_last: Constant<Bits<4>>,
    #[default(Constant::new(((FCS_LEN - 1) as u64).into()))]
    k_fcs_last: Constant<Bits<4>>,
    #[default(Constant::new(((IFG - 1) as u64).into()))]
    k_gap_last: Constant<Bits<4>>,
    #[default(Constant::new((PREAMBLE_BYTE as u64).into()))]
    k_preamble: Constant<Bits<8>>,
    #[default(Constant::new((SFD as u64).into()))]
    k_sfd: Constant<Bits<8>>,
    #[default(Constant::new(((MIN_FRAME - FCS_LEN - 1) as u64).into()))]
    k_pad_last: Constant<Bits<16>>,
    #[default(Constant::new(0xFFFF_FFFFu64.into()))]
    k_crc_init: Constant<Bits<32>>,
    fcs: Signal<Local, Bits<32>>,
    len_inc: Signal<Local, Bits<16>>,
    start: Signal<Local, Bit>,
}

impl Logic for GmiiTx {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, st, step, len, crc, txd, tx_en, tx_er, n_frames, n_bytes, n_aborts);
        self.s_axis.tready.next = ((self.st.q.val() == self.k_st_data.val())
            || (self.st.q.val() == self.k_st_drain.val()));
        self.gmii_txd.next = self.txd.q.val();
        self.gmii_tx_en.next = self.tx_en.q.val();
        self.gmii_tx_er.next = self.tx_er.q.val();
        self.m_stats.frames.next = self.n_frames.q.val();
        self.m_stats.bytes.next = self.n_bytes.q.val();
        self.m_stats.aborts.next = self.n_aborts.q.val();

        self.fcs.next = !self.crc.q.val();
        self.crc_byte.crc_in.next = self.crc.q.val();
        self.crc_byte.data.next = self.s_axis.tdata.val();
        if self.len.q.val() == 0xFFFF {
            self.len_inc.next = self.len.q.val();
        } else {
            self.len_inc.next = (self.len.q.val() + 1);
        }
        self.start.next = (self.s_axis.tvalid.val() && !self.pause.val());
        self.txd.d.next = 0.into();
        self.tx_en.d.next = false;
        self.tx_er.d.next = false;

        if self.st.q.val() == self.k_st_idle.val() {
            if self.start.val() {
                self.st.d.next = self.k_st_pre.val();
                self.step.d.next = 0.into();
            }
        } else if self.st.q.val() == self.k_st_pre.val() {
            self.tx_en.d.next = true;
            if self.step.q.val() == self.k_pre_last.val() {
                self.txd.d.next = self.k_sfd.val();
                self.st.d.next = self.k_st_data.val();
                self.len.d.next = 0.into();
                self.crc.d.next = self.k_crc_init.val();
            } else {
                self.txd.d.next = self.k_preamble.val();
                self.step.d.next = (self.step.q.val() + 1);
            }
        } else if self.st.q.val() == self.k_st_data.val() {
            self.tx_en.d.next = true;
            if self.s_axis.tvalid.val() {
                self.txd.d.next = self.s_axis.tdata.val();
                self.crc.d.next = self.crc_byte.crc_out.val();
                self.len.d.next = self.len_inc.val();
                if self.s_axis.tlast.val() {
                    if self.s_axis.tuser.val().any() {
                        self.tx_er.d.next = true;
                        self.n_aborts.d.next = (self.n_aborts.q.val() + 1);
                        self.st.d.next = self.k_st_gap.val();
                        self.step.d.next = 0.into();
                    } else if self.len.q.val() < self.k_pad_last.val() {
                        self.st.d.next = self.k_st_pad.val();
                    } else {
                        self.st.d.next = self.k_st_fcs.val();
                        self.step.d.next = 0.into();
                    }
                }
            } else {
                // Underflow: an error byte ends the frame on the wire.
                self.tx_er.d.next = true;
                self.n_aborts.d.next = (self.n_aborts.q.val() + 1);
                self.st.d.next = self.k_st_drain.val();
            }
        } else if self.st.q.val() == self.k_st_pad.val() {
            self.tx_en.d.next = true;
            self.crc_byte.data.next = 0.into();
            self.crc.d.next = self.crc_byte.crc_out.val();
            self.len.d.next = self.len_inc.val();
            if self.len.q.val() == self.k_pad_last.val() {
                self.st.d.next = self.k_st_fcs.val();
                self.step.d.next = 0.into();
            }
        } else if self.st.q.val() == self.k_st_fcs.val() {
            self.tx_en.d.next = true;
            if self.step.q.val() == 0 {
                self.txd.d.next = self.fcs.val().get_bits::<8>(0);
            } else if self.step.q.val() == 1 {
                self.txd.d.next = self.fcs.val().get_bits::<8>(8);
            } else if self.step.q.val() == 2 {
                self.txd.d.next = self.fcs.val().get_bits::<8>(16);
            } else {
                self.txd.d.next = self.fcs.val().get_bits::<8>(24);
            }
            self.step.d.next = (self.step.q.val() + 1);
            if self.step.q.val() == self.k_fcs_last.val() {
                self.st.d.next = self.k_st_gap.val();
                self.step.d.next = 0.into();
                self.n_frames.d.next = (self.n_frames.q.val() + 1);
                self.n_bytes.d.next =
                    ((self.n_bytes.q.val() + bit_cast::<32, 16>(self.len.q.val())) + 4);
            }
        } else if self.st.q.val() == self.k_st_drain.val() {
            if (self.s_axis.tvalid.val() && self.s_axis.tlast.val()) {
                self.st.d.next = self.k_st_gap.val();
                self.step.d.next = 0.into();
            }
        } else {
            // Gap: 12 idle byte times, then the next frame at once.
            self.step.d.next = (self.step.q.val() + 1);
            if self.step.q.val() == self.k_gap_last.val() {
                self.step.d.next = 0.into();
                if self.start.val() {
                    self.st.d.next = self.k_st_pre.val();
                } else {
                    self.st.d.next = self.k_st_idle.val();
                }
            }
        }

        if self.reset.val() {
            self.st.d.next = self.k_st_idle.val();
            self.step.d.next = 0.into();
            self.len.d.next = 0.into();
            self.crc.d.next = 0.into();
            self.txd.d.next = 0.into();
            self.tx_en.d.next = false;
            self.tx_er.d.next = false;
            self.n_frames.d.next = 0.into();
            self.n_bytes.d.next = 0.into();
            self.n_aborts.d.next = 0.into();
        }
    }
}
