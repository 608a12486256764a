//! The 1G MAC receiver: GMII to an 8-bit frame stream without the FCS.
//!
//! What it does: takes the preamble (one or more 0x55 bytes, since PHYs
//! may shorten it) and the SFD (0xD5), checks the FCS (the CRC register
//! over the frame and its FCS must end at the residue 0xDEBB20E3), the
//! length (runts under 64 bytes, oversize over `cfg_max_len`, FCS
//! included) and `gmii_rx_er` inside the frame, strips the FCS, and flags
//! a bad frame on `tuser` of its last beat, as the NIC's receive path
//! expects. MAC control frames (EtherType 0x8808 to 01-80-C2-00-00-01)
//! are never passed on; a good PAUSE or PFC frame raises `pause_valid`
//! with its quanta (PFC: the largest time among the priorities it
//! enables: the NIC has one transmit queue). Same rules and counters as
//! the 10G receiver (`docs/mac.md`).
//!
//! Ports (clock `clock`, 125 MHz at 1 Gb/s; synchronous active-high
//! `reset`):
//! - `gmii_rxd`, `gmii_rx_dv`, `gmii_rx_er`: registered on the way in;
//! - `cfg_max_len`: the longest frame taken, FCS included (a constant in
//!   the tops: `nic_spec::mac::MAX_FRAME`);
//! - `m_axis` (`AxisSource<8, 1, 1>`, `tready` ignored: a MAC cannot
//!   stall the wire; `tkeep` is 1): one byte a beat, `tuser` on the last
//!   beat = bad frame;
//! - `bad_frame`, `bad_fcs`: one-cycle pulses when a frame ends;
//! - `pause_valid`, `pause_quanta`: a good PAUSE/PFC frame's request;
//! - `m_stats` (`MacRxStats`): each frame that starts counts once.
//!
//! Pipeline: the input registers, then a delay line of [`LINE`] bytes
//! (`line_d`, with a valid, last and user bit per byte) that the frame's
//! bytes enter one a cycle. Its far end is `m_axis`. The line is what
//! lets the receiver take back bytes it has not yet passed on: when the
//! frame ends (`gmii_rx_dv` falls, or it is cut as oversize), its last
//! four bytes (the FCS) are cleared and the byte before them is tagged
//! last, with `tuser` if the frame is bad; when byte 13 shows the frame
//! is a MAC control frame (destination and EtherType), all its bytes are
//! cleared, and the rest of it does not enter. The line is 14 bytes long
//! so that byte 0 has not left when byte 13 arrives.
//!
//! Latency: a byte on the pins in cycle t is on `m_axis` in cycle t + 15;
//! the counters and the pulses come 2 cycles after `gmii_rx_dv` falls,
//! before the last beat. Throughput: one byte per cycle, always.
//!
//! Bad input: a start whose first bytes are not 0x55… then 0xD5 (a
//! missing SFD): nothing is passed on, counted in `bad_preamble` and
//! pulsed on `bad_frame` (the rest is ignored until `gmii_rx_dv` falls);
//! `gmii_rx_er` outside a frame is ignored. `gmii_rx_er` inside the frame
//! (`errors`), a runt, an oversize frame (cut at the limit, the rest
//! ignored until `gmii_rx_dv` falls; a frame that never ends is cut so),
//! or a bad FCS: the frame's bytes less its last four are passed on with
//! `tuser` on the last; a frame of 4 bytes or fewer passes no beat and is
//! only counted.
//!
//! Golden twin: `nic_golden::mac::gmii_rx`, held to the byte-level
//! reference `nic_golden::mac::gmii::decode`.

use super::MacRxStatsSource;
use crate::roce::crc32::Crc32x8;
use crate::stream::AxisSource;
use nic_spec::mac::{ctl, FCS_RESIDUE, MIN_FRAME, PREAMBLE_BYTE, SFD};
use rust_hdl::prelude::*;
use smart_default::SmartDefault;

/// Bytes in the delay line: byte 0 of a frame must still be in it when
/// byte 13 (the end of the EtherType) arrives.
pub const LINE: usize = 14;

/// Receiver states (`st`).
const ST_IDLE: u64 = 0;
const ST_PRE: u64 = 1;
const ST_DATA: u64 = 2;
const ST_DISCARD: u64 = 3;

#[derive(LogicBlock, SmartDefault)]
pub struct GmiiRx {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub gmii_rxd: Signal<In, Bits<8>>,
    pub gmii_rx_dv: Signal<In, Bit>,
    pub gmii_rx_er: Signal<In, Bit>,
    pub cfg_max_len: Signal<In, Bits<16>>,
    pub m_axis: AxisSource<8, 1, 1>,
    pub bad_frame: Signal<Out, Bit>,
    pub bad_fcs: Signal<Out, Bit>,
    pub pause_valid: Signal<Out, Bit>,
    pub pause_quanta: Signal<Out, Bits<16>>,
    pub m_stats: MacRxStatsSource,
    crc_byte: Crc32x8,
    in_d: DFF<Bits<8>>,
    in_dv: DFF<Bit>,
    in_er: DFF<Bit>,
    st: DFF<Bits<2>>,
    /// Bytes of the frame taken so far, FCS included.
    cnt: DFF<Bits<16>>,
    crc: DFF<Bits<32>>,
    /// `gmii_rx_er` seen inside the frame.
    err: DFF<Bit>,
    is_ctl: DFF<Bit>,
    ctl_op: DFF<Bits<16>>,
    /// PAUSE: the quanta; PFC: the largest enabled time so far.
    ctl_quanta: DFF<Bits<16>>,
    /// PFC's class-enable vector, shifted right as each time passes.
    pfc_en: DFF<Bits<8>>,
    line_d: DFF<Bits<112>>,
    line_v: DFF<Bits<14>>,
    line_last: DFF<Bits<14>>,
    line_user: DFF<Bits<14>>,
    o_bad_frame: DFF<Bit>,
    o_bad_fcs: DFF<Bit>,
    o_pause_valid: DFF<Bit>,
    o_pause_quanta: DFF<Bits<16>>,
    n_frames: DFF<Bits<32>>,
    n_bytes: DFF<Bits<32>>,
    n_bad_preamble: DFF<Bits<32>>,
    n_errors: DFF<Bits<32>>,
    n_oversize: DFF<Bits<32>>,
    n_runts: DFF<Bits<32>>,
    n_bad_fcs: DFF<Bits<32>>,
    n_pause: DFF<Bits<32>>,
    n_ctl_other: DFF<Bits<32>>,
    #[default(Constant::new(ST_IDLE.into()))]
    k_st_idle: Constant<Bits<2>>,
    #[default(Constant::new(ST_PRE.into()))]
    k_st_pre: Constant<Bits<2>>,
    #[default(Constant::new(ST_DATA.into()))]
    k_st_data: Constant<Bits<2>>,
    #[default(Constant::new(ST_DISCARD.into()))]
    k_st_discard: Constant<Bits<2>>,
    #[default(Constant::new((PREAMBLE_BYTE as u64).into()))]
    k_preamble: Constant<Bits<8>>,
    #[default(Constant::new((SFD as u64).into()))]
    k_sfd: Constant<Bits<8>>,
    #[default(Constant::new(0xFFFF_FFFFu64.into()))]
    k_crc_init: Constant<Bits<32>>,
    #[default(Constant::new((FCS_RESIDUE as u64).into()))]
    k_residue: Constant<Bits<32>>,
    #[default(Constant::new((MIN_FRAME as u64).into()))]
    k_min: Constant<Bits<16>>,
    #[default(Constant::new(ctl::DST.into()))]
    k_dst: Constant<Bits<48>>,
    #[default(Constant::new((ctl::ETHERTYPE as u64).into()))]
    k_ethertype: Constant<Bits<16>>,
    #[default(Constant::new((ctl::OP_PAUSE as u64).into()))]
    k_op_pause: Constant<Bits<16>>,
    #[default(Constant::new((ctl::OP_PFC as u64).into()))]
    k_op_pfc: Constant<Bits<16>>,
    /// The line's bits 1..=4: where the FCS is once shifted.
    #[default(Constant::new(0b11110u64.into()))]
    k_fcs_slots: Constant<Bits<14>>,
    /// The line's bit 5: where the last data byte is once shifted.
    #[default(Constant::new(0b100000u64.into()))]
    k_last_slot: Constant<Bits<14>>,
    // ---- Locals
    in_frame: Signal<Local, Bit>,
    pair: Signal<Local, Bits<16>>,
    shifted_v: Signal<Local, Bits<14>>,
    shifted_last: Signal<Local, Bits<14>>,
    shifted_user: Signal<Local, Bits<14>>,
    take: Signal<Local, Bit>,
    cut: Signal<Local, Bit>,
    frame_end: Signal<Local, Bit>,
    kill: Signal<Local, Bit>,
    v_err: Signal<Local, Bit>,
    v_over: Signal<Local, Bit>,
    v_runt: Signal<Local, Bit>,
    v_fcs: Signal<Local, Bit>,
    v_bad: Signal<Local, Bit>,
}

impl Logic for GmiiRx {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            in_d,
            in_dv,
            in_er,
            st,
            cnt,
            crc,
            err,
            is_ctl,
            ctl_op,
            ctl_quanta,
            pfc_en,
            line_d,
            line_v,
            line_last,
            line_user,
            o_bad_frame,
            o_bad_fcs,
            o_pause_valid,
            o_pause_quanta,
            n_frames,
            n_bytes,
            n_bad_preamble,
            n_errors,
            n_oversize,
            n_runts,
            n_bad_fcs,
            n_pause,
            n_ctl_other
        );
        self.in_d.d.next = self.gmii_rxd.val();
        self.in_dv.d.next = self.gmii_rx_dv.val();
        self.in_er.d.next = self.gmii_rx_er.val();

        // ---- Outputs: the far end of the line, and registers ---------------
        self.m_axis.tdata.next = self.line_d.q.val().get_bits::<8>(104);
        self.m_axis.tkeep.next = 1.into();
        self.m_axis.tvalid.next = self.line_v.q.val().get_bit(13);
        self.m_axis.tlast.next = self.line_last.q.val().get_bit(13);
        self.m_axis.tuser.next = self.line_user.q.val().get_bits::<1>(13);
        self.bad_frame.next = self.o_bad_frame.q.val();
        self.bad_fcs.next = self.o_bad_fcs.q.val();
        self.pause_valid.next = self.o_pause_valid.q.val();
        self.pause_quanta.next = self.o_pause_quanta.q.val();
        self.m_stats.frames.next = self.n_frames.q.val();
        self.m_stats.bytes.next = self.n_bytes.q.val();
        self.m_stats.bad_preamble.next = self.n_bad_preamble.q.val();
        self.m_stats.errors.next = self.n_errors.q.val();
        self.m_stats.oversize.next = self.n_oversize.q.val();
        self.m_stats.runts.next = self.n_runts.q.val();
        self.m_stats.bad_fcs.next = self.n_bad_fcs.q.val();
        self.m_stats.pause.next = self.n_pause.q.val();
        self.m_stats.ctl_other.next = self.n_ctl_other.q.val();

        self.o_bad_frame.d.next = false;
        self.o_bad_fcs.d.next = false;
        self.o_pause_valid.d.next = false;

        // ---- This cycle's byte ----------------------------------------------
        self.crc_byte.crc_in.next = self.crc.q.val();
        self.crc_byte.data.next = self.in_d.q.val();
        // The byte before this one, and this one: a big-endian pair.
        self.pair.next = ((bit_cast::<16, 8>(self.line_d.q.val().get_bits::<8>(0)) << 8)
            | bit_cast::<16, 8>(self.in_d.q.val()));
        self.shifted_v.next = (self.line_v.q.val() << 1);
        self.shifted_last.next = (self.line_last.q.val() << 1);
        self.shifted_user.next = (self.line_user.q.val() << 1);
        self.in_frame.next = (self.st.q.val() == self.k_st_data.val());
        self.cut.next = (self.in_frame.val()
            && self.in_dv.q.val()
            && (self.cnt.q.val() == self.cfg_max_len.val()));
        self.take.next = (self.in_frame.val() && self.in_dv.q.val() && !self.cut.val());
        self.frame_end.next = (self.in_frame.val() && (!self.in_dv.q.val() || self.cut.val()));
        self.kill.next = (self.take.val()
            && (self.cnt.q.val() == 13)
            && (self.line_d.q.val().get_bits::<48>(56) == self.k_dst.val())
            && (self.pair.val() == self.k_ethertype.val()));
        self.line_d.d.next = ((self.line_d.q.val() << 8) | bit_cast::<112, 8>(self.in_d.q.val()));
        self.line_v.d.next = self.shifted_v.val();
        if (self.take.val() && !self.is_ctl.q.val() && !self.kill.val()) {
            self.line_v.d.next = (self.shifted_v.val() | 1);
        }
        self.line_last.d.next = self.shifted_last.val();
        self.line_user.d.next = self.shifted_user.val();

        if self.take.val() {
            self.cnt.d.next = (self.cnt.q.val() + 1);
            self.crc.d.next = self.crc_byte.crc_out.val();
            if self.in_er.q.val() {
                self.err.d.next = true;
            }
            if self.kill.val() {
                self.is_ctl.d.next = true;
                self.line_v.d.next = 0.into();
            }
            if (self.is_ctl.q.val() && (self.cnt.q.val() == 15)) {
                self.ctl_op.d.next = self.pair.val();
            }
            if (self.is_ctl.q.val() && (self.cnt.q.val() == 17)) {
                self.pfc_en.d.next = self.in_d.q.val();
                if self.ctl_op.q.val() == self.k_op_pause.val() {
                    self.ctl_quanta.d.next = self.pair.val();
                }
            }
            if (self.is_ctl.q.val()
                && (self.ctl_op.q.val() == self.k_op_pfc.val())
                && self.cnt.q.val().get_bit(0)
                && (self.cnt.q.val() >= 19)
                && (self.cnt.q.val() <= 33))
            {
                self.pfc_en.d.next = (self.pfc_en.q.val() >> 1);
                if (self.pfc_en.q.val().get_bit(0) && (self.pair.val() > self.ctl_quanta.q.val())) {
                    self.ctl_quanta.d.next = self.pair.val();
                }
            }
        }

        // ---- The end of a frame: judged from the registers -----------------
        self.v_err.next = self.err.q.val();
        self.v_over.next = self.cut.val();
        self.v_runt.next = (self.cnt.q.val() < self.k_min.val());
        self.v_fcs.next = (self.crc.q.val() != self.k_residue.val());
        self.v_bad.next = (self.v_err.val() || self.v_over.val() || self.v_runt.val());
        if self.frame_end.val() {
            if self.v_err.val() {
                self.n_errors.d.next = (self.n_errors.q.val() + 1);
            } else if self.v_over.val() {
                self.n_oversize.d.next = (self.n_oversize.q.val() + 1);
            } else if self.v_runt.val() {
                self.n_runts.d.next = (self.n_runts.q.val() + 1);
            } else if self.v_fcs.val() {
                self.n_bad_fcs.d.next = (self.n_bad_fcs.q.val() + 1);
            } else if self.is_ctl.q.val() {
                if ((self.ctl_op.q.val() == self.k_op_pause.val())
                    || (self.ctl_op.q.val() == self.k_op_pfc.val()))
                {
                    self.n_pause.d.next = (self.n_pause.q.val() + 1);
                    self.o_pause_valid.d.next = true;
                    self.o_pause_quanta.d.next = self.ctl_quanta.q.val();
                } else {
                    self.n_ctl_other.d.next = (self.n_ctl_other.q.val() + 1);
                }
            } else {
                self.n_frames.d.next = (self.n_frames.q.val() + 1);
                self.n_bytes.d.next = (self.n_bytes.q.val() + bit_cast::<32, 16>(self.cnt.q.val()));
            }
            self.o_bad_frame.d.next = self.v_bad.val();
            self.o_bad_fcs.d.next = (!self.v_bad.val() && self.v_fcs.val());
            // Take back the FCS; tag the byte before it.
            self.line_v.d.next = (self.shifted_v.val() & !self.k_fcs_slots.val());
            if ((self.cnt.q.val() > 4) && !self.is_ctl.q.val()) {
                self.line_last.d.next = (self.shifted_last.val() | self.k_last_slot.val());
                if (self.v_bad.val() || self.v_fcs.val()) {
                    self.line_user.d.next = (self.shifted_user.val() | self.k_last_slot.val());
                }
            }
        }

        // ---- States -----------------------------------------------------------
        if self.st.q.val() == self.k_st_idle.val() {
            if self.in_dv.q.val() {
                if self.in_d.q.val() == self.k_preamble.val() {
                    self.st.d.next = self.k_st_pre.val();
                } else {
                    self.n_bad_preamble.d.next = (self.n_bad_preamble.q.val() + 1);
                    self.o_bad_frame.d.next = true;
                    self.st.d.next = self.k_st_discard.val();
                }
            }
        } else if self.st.q.val() == self.k_st_pre.val() {
            if !self.in_dv.q.val() {
                self.n_bad_preamble.d.next = (self.n_bad_preamble.q.val() + 1);
                self.o_bad_frame.d.next = true;
                self.st.d.next = self.k_st_idle.val();
            } else if self.in_d.q.val() == self.k_sfd.val() {
                self.st.d.next = self.k_st_data.val();
                self.cnt.d.next = 0.into();
                self.crc.d.next = self.k_crc_init.val();
                self.err.d.next = false;
                self.is_ctl.d.next = false;
                self.ctl_op.d.next = 0.into();
                self.ctl_quanta.d.next = 0.into();
                self.pfc_en.d.next = 0.into();
            } else if self.in_d.q.val() != self.k_preamble.val() {
                self.n_bad_preamble.d.next = (self.n_bad_preamble.q.val() + 1);
                self.o_bad_frame.d.next = true;
                self.st.d.next = self.k_st_discard.val();
            }
        } else if self.st.q.val() == self.k_st_data.val() {
            if self.cut.val() {
                self.st.d.next = self.k_st_discard.val();
            } else if !self.in_dv.q.val() {
                self.st.d.next = self.k_st_idle.val();
            }
        } else if !self.in_dv.q.val() {
            self.st.d.next = self.k_st_idle.val();
        }

        if self.reset.val() {
            self.in_d.d.next = 0.into();
            self.in_dv.d.next = false;
            self.in_er.d.next = false;
            self.st.d.next = self.k_st_idle.val();
            self.cnt.d.next = 0.into();
            self.crc.d.next = 0.into();
            self.err.d.next = false;
            self.is_ctl.d.next = false;
            self.ctl_op.d.next = 0.into();
            self.ctl_quanta.d.next = 0.into();
            self.pfc_en.d.next = 0.into();
            self.line_d.d.next = 0.into();
            self.line_v.d.next = 0.into();
            self.line_last.d.next = 0.into();
            self.line_user.d.next = 0.into();
            self.o_bad_frame.d.next = false;
            self.o_bad_fcs.d.next = false;
            self.o_pause_valid.d.next = false;
            self.o_pause_quanta.d.next = 0.into();
            self.n_frames.d.next = 0.into();
            self.n_bytes.d.next = 0.into();
            self.n_bad_preamble.d.next = 0.into();
            self.n_errors.d.next = 0.into();
            self.n_oversize.d.next = 0.into();
            self.n_runts.d.next = 0.into();
            self.n_bad_fcs.d.next = 0.into();
            self.n_pause.d.next = 0.into();
            self.n_ctl_other.d.next = 0.into();
        }
    }
}
