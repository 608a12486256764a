//! `AxisPad`: pads a frame stream to Ethernet's minimum and puts it in the
//! shape a vendor MAC's AXI4-Stream transmit port requires (the
//! vendor-MAC adapter's transmit side, [`super::VendorMacAdapter`]).
//!
//! Vendor MACs that own the FCS (Xilinx's 10G/25G subsystem, CMAC, and
//! others) take frames without FCS on a 64-bit AXI4-Stream, but some do
//! not pad a short frame (CMAC does not), and all of them require `tkeep`
//! to be all ones on every beat but the last and contiguous from lane 0
//! on the last. This block makes every frame so:
//!
//! - a frame shorter than 60 bytes (`nic_spec::mac::MIN_FRAME` less the
//!   FCS) is padded with zero bytes to 60: its last beat is sent with
//!   `tlast` clear and zero lanes above its bytes, then zero beats follow
//!   to the 8th, which carries 4 bytes (`tkeep` = 0x0F), `tlast` and the
//!   frame's `tuser`;
//! - a beat that is not the last is sent with `tkeep` = 0xFF and
//!   `tuser` = 0 (`tkeep` and `tuser` are only read on a last beat, as
//!   the MACs of this crate read them);
//! - a last beat carries the lanes of `tkeep` set below its first clear
//!   one (`n` bytes, as `XgmiiTx` counts them); the lanes above are sent
//!   as zero bytes with `tkeep` clear.
//!
//! Ports (clock `clock`, synchronous active-high `reset`):
//! - `s_axis` (`AxisSink<64, 8, 1>`): frames without FCS, first byte in
//!   `tdata[7:0]`; `tuser` on the last beat = abort (the vendor MAC sends
//!   the frame with a bad FCS or drops it);
//! - `m_axis` (`AxisSource<64, 8, 1>`, registered): the same frames,
//!   padded and with `tkeep` as above;
//! - `m_stats` (`TxPadStats`): frames passed (`frames`), those padded
//!   (`padded`), and last beats with `tkeep[0]` clear (`bad_keep`).
//!
//! Latency: a beat taken in cycle t is on `m_axis` in cycle t + 1.
//! Throughput: one beat per cycle (II 1) while `m_axis.tready` is high,
//! plus one cycle per pad beat (a short frame always takes 8 cycles).
//! `s_axis.tready` = (`m_axis.tready` or the output register empty) and
//! not padding: a combinational path from `m_axis.tready`.
//!
//! Bad input: a last beat with `tkeep[0]` clear (no byte) is counted in
//! `bad_keep` and sent with `tuser` set, as one zero byte
//! (`tkeep` = 0x01) or padded; the frame is then aborted by the MAC and
//! the next frame is not touched. Lanes of `tkeep` above the first clear
//! one are ignored. Nothing here waits for anything but `m_axis.tready`.
//!
//! Golden twin: `nic_golden::mac::axis_pad`.

use super::TxPadStatsSource;
use crate::stream::KeepCount;
use crate::stream::{AxisSink, AxisSource};
use rust_hdl::prelude::*;

#[derive(LogicBlock, Default)]
pub struct AxisPad {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub s_axis: AxisSink<64, 8, 1>,
    pub m_axis: AxisSource<64, 8, 1>,
    pub m_stats: TxPadStatsSource,
    keep: KeepCount,
    /// The index of the next beat in the frame, held at 8 from the 9th on.
    word: DFF<Bits<4>>,
    /// Zero beats are being sent up to beat 7.
    padding: DFF<Bit>,
    /// The `tuser` the padded frame ends with.
    pad_user: DFF<Bit>,
    out_v: DFF<Bit>,
    out_d: DFF<Bits<64>>,
    out_keep: DFF<Bits<8>>,
    out_last: DFF<Bit>,
    out_user: DFF<Bit>,
    n_frames: DFF<Bits<32>>,
    n_padded: DFF<Bits<32>>,
    n_bad_keep: DFF<Bits<32>>,
    /// The output register is free this cycle (empty, or being taken).
    load: Signal<Local, Bit>,
    /// The last beat's lanes below the first clear `tkeep` bit.
    keep_n: Signal<Local, Bits<8>>,
    /// The last beat has no byte (`tkeep[0]` clear).
    no_byte: Signal<Local, Bit>,
}

impl Logic for AxisPad {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, word, padding, pad_user, out_v, out_d, out_keep, out_last, out_user,
            n_frames, n_padded, n_bad_keep
        );
        self.keep.keep.next = self.s_axis.tkeep.val();
        // Trailing ones of tkeep: keep & !(keep + 1).
        self.keep_n.next = (self.s_axis.tkeep.val() & (!(self.s_axis.tkeep.val() + 1)));
        self.no_byte.next = !self.s_axis.tkeep.val().get_bit(0);
        self.load.next = (!self.out_v.q.val() || self.m_axis.tready.val());

        self.m_axis.tdata.next = self.out_d.q.val();
        self.m_axis.tkeep.next = self.out_keep.q.val();
        self.m_axis.tlast.next = self.out_last.q.val();
        self.m_axis.tuser.next = 0.into();
        if self.out_user.q.val() {
            self.m_axis.tuser.next = 1.into();
        }
        self.m_axis.tvalid.next = self.out_v.q.val();
        self.s_axis.tready.next = (self.load.val() && !self.padding.q.val());
        self.m_stats.frames.next = self.n_frames.q.val();
        self.m_stats.padded.next = self.n_padded.q.val();
        self.m_stats.bad_keep.next = self.n_bad_keep.q.val();

        if (self.out_v.q.val() && self.m_axis.tready.val()) {
            self.out_v.d.next = false;
        }
        if self.load.val() {
            if self.padding.q.val() {
                self.out_v.d.next = true;
                self.out_d.d.next = 0.into();
                self.out_keep.d.next = 0xFF.into();
                self.out_last.d.next = false;
                self.out_user.d.next = false;
                self.word.d.next = (self.word.q.val() + 1);
                if (self.word.q.val() == 7) {
                    self.out_keep.d.next = 0x0F.into();
                    self.out_last.d.next = true;
                    self.out_user.d.next = self.pad_user.q.val();
                    self.padding.d.next = false;
                    self.word.d.next = 0.into();
                }
            } else if self.s_axis.tvalid.val() {
                self.out_v.d.next = true;
                self.out_d.d.next = self.s_axis.tdata.val();
                self.out_keep.d.next = 0xFF.into();
                self.out_last.d.next = false;
                self.out_user.d.next = false;
                if (self.word.q.val() != 8) {
                    self.word.d.next = (self.word.q.val() + 1);
                }
                if self.s_axis.tlast.val() {
                    self.n_frames.d.next = (self.n_frames.q.val() + 1);
                    if self.no_byte.val() {
                        self.n_bad_keep.d.next = (self.n_bad_keep.q.val() + 1);
                    }
                    self.out_d.d.next = (self.s_axis.tdata.val() & self.keep.mask.val());
                    self.word.d.next = 0.into();
                    if (self.word.q.val() < 7) {
                        // Short: this beat goes whole, zero beats follow.
                        self.n_padded.d.next = (self.n_padded.q.val() + 1);
                        self.padding.d.next = true;
                        self.pad_user.d.next =
                            (self.s_axis.tuser.val().any() || self.no_byte.val());
                        self.word.d.next = (self.word.q.val() + 1);
                    } else if ((self.word.q.val() == 7) && !self.keep_n.val().get_bit(3)) {
                        // The 8th beat with fewer than 4 bytes: made 4.
                        self.n_padded.d.next = (self.n_padded.q.val() + 1);
                        self.out_keep.d.next = 0x0F.into();
                        self.out_last.d.next = true;
                        self.out_user.d.next =
                            (self.s_axis.tuser.val().any() || self.no_byte.val());
                    } else {
                        self.out_keep.d.next = self.keep_n.val();
                        if self.no_byte.val() {
                            self.out_keep.d.next = 0x01.into();
                        }
                        self.out_last.d.next = true;
                        self.out_user.d.next =
                            (self.s_axis.tuser.val().any() || self.no_byte.val());
                    }
                }
            }
        }
        if self.reset.val() {
            self.word.d.next = 0.into();
            self.padding.d.next = false;
            self.pad_user.d.next = false;
            self.out_v.d.next = false;
            self.out_d.d.next = 0.into();
            self.out_keep.d.next = 0.into();
            self.out_last.d.next = false;
            self.out_user.d.next = false;
            self.n_frames.d.next = 0.into();
            self.n_padded.d.next = 0.into();
            self.n_bad_keep.d.next = 0.into();
        }
    }
}
