//! The transmit side's pause control: the pause timer and the PAUSE-frame
//! inserter, between the frame stream and the transmitter.
//!
//! What it does:
//! - **The pause timer.** A received PAUSE or PFC request
//!   (`rx_pause_valid`, `rx_pause_quanta`, already crossed into this
//!   clock) loads the timer with quanta × 2^`QUANTUM_SHIFT` cycles (a
//!   quantum is 512 bit times: 8 cycles of a 64-bit word at 10G, 64 of a
//!   byte at 1G); a request of 0 quanta resumes at once, a newer request
//!   replaces the timer (802.3x 31B.3.7). While it runs (`paused`), no
//!   new user frame starts; a frame already started goes on.
//! - **Sending a PAUSE or a PFC frame.** `tx_pause_req` (one cycle, with
//!   `tx_pause_quanta` and `tx_pause_cev`) asks for a MAC control frame
//!   from `cfg_src_mac` (0 quanta = XON): an 802.3x PAUSE when
//!   `tx_pause_cev` is 0, else an 802.1Qbb PFC frame whose class-enable
//!   vector is `tx_pause_cev` and whose time for each enabled class is
//!   the quanta (0 for the others). It goes out before the next user frame, whether or
//!   not the timer runs (MAC control frames are not paused). A request
//!   not yet sent is replaced by a newer one (counted in `superseded`):
//!   the newest quanta is what the peer should act on. Refreshing an
//!   XOFF before it expires is the requester's job.
//!
//! Ports (clock `clock`, synchronous active-high `reset`):
//! - `s_axis` (`AxisSink<64, 8, 1>`): the user frames; `m_axis`
//!   (`AxisSource<64, 8, 1>`): to the transmitter. Inside a user frame
//!   the two are joined combinationally (every field, `tready` back); a
//!   PAUSE frame is three beats (18 bytes, `tkeep` 0x03 on the last), a
//!   PFC frame five (34 bytes, the same `tkeep`): the transmitter pads
//!   either to 60 and appends the FCS.
//! - `rx_pause_valid`, `rx_pause_quanta: 16`; `tx_pause_req`,
//!   `tx_pause_quanta: 16`, `tx_pause_cev: 8`; `cfg_src_mac: 48` (first byte on the wire in
//!   bits 47..40).
//! - `paused`: the timer runs (registered).
//! - `m_stats` (`MacPauseStats`): `sent`, `superseded`, `applied`,
//!   `held` (cycles with `paused` high).
//!
//! Latency: a frame boundary (the cycle after a last beat is taken) is
//! one idle cycle in which the next owner of `m_axis` is chosen; the
//! transmitter spends at least that cycle in its inter-frame gap, so the
//! line rate is not touched. A received pause holds off new frames from
//! the cycle after `rx_pause_valid`.
//!
//! Bad input: none is possible on the request ports (every quanta is
//! legal); a stream that underflows inside a user frame is passed through
//! for the transmitter to abort, and the grant ends only at `tlast`.
//!
//! Golden twin: `nic_golden::mac::tx_pause`.

use super::MacPauseStatsSource;
use crate::stream::{AxisSink, AxisSource};
use nic_spec::mac::ctl;
use rust_hdl::prelude::*;
use smart_default::SmartDefault;

const G_IDLE: u64 = 0;
const G_USER: u64 = 1;
const G_PAUSE: u64 = 2;

/// The first PAUSE beat's destination bytes (first byte in bits 7..0).
const DST_LE: u64 = {
    let b = ctl::DST.to_be_bytes();
    u64::from_le_bytes([b[2], b[3], b[4], b[5], b[6], b[7], 0, 0])
};
/// The second beat's bytes 4..7: EtherType and opcode, network order.
const fn type_op_le(op: u16) -> u64 {
    let t = ctl::ETHERTYPE.to_be_bytes();
    let o = op.to_be_bytes();
    u64::from_le_bytes([0, 0, 0, 0, t[0], t[1], o[0], o[1]])
}

#[derive(LogicBlock, SmartDefault)]
pub struct TxPause<const QUANTUM_SHIFT: usize> {
    // The parameter check, when the block is built.
    #[default({
        assert!(QUANTUM_SHIFT <= 8, "TxPause: QUANTUM_SHIFT <= 8");
        Default::default()
    })]
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub s_axis: AxisSink<64, 8, 1>,
    pub m_axis: AxisSource<64, 8, 1>,
    pub rx_pause_valid: Signal<In, Bit>,
    pub rx_pause_quanta: Signal<In, Bits<16>>,
    pub tx_pause_req: Signal<In, Bit>,
    pub tx_pause_quanta: Signal<In, Bits<16>>,
    pub tx_pause_cev: Signal<In, Bits<8>>,
    pub cfg_src_mac: Signal<In, Bits<48>>,
    pub paused: Signal<Out, Bit>,
    pub m_stats: MacPauseStatsSource,
    grant: DFF<Bits<2>>,
    beat: DFF<Bits<3>>,
    pending: DFF<Bit>,
    pending_quanta: DFF<Bits<16>>,
    pending_cev: DFF<Bits<8>>,
    send_quanta: DFF<Bits<16>>,
    send_cev: DFF<Bits<8>>,
    remaining: DFF<Bits<24>>,
    n_sent: DFF<Bits<32>>,
    n_superseded: DFF<Bits<32>>,
    n_applied: DFF<Bits<32>>,
    n_held: DFF<Bits<32>>,
    #[default(Constant::new(Bits::<2>::from(G_IDLE)))]
    k_idle: Constant<Bits<2>>,
    #[default(Constant::new(Bits::<2>::from(G_USER)))]
    k_user: Constant<Bits<2>>,
    #[default(Constant::new(Bits::<2>::from(G_PAUSE)))]
    k_pause: Constant<Bits<2>>,
    #[default(Constant::new(Bits::<5>::from(QUANTUM_SHIFT as u64)))]
    k_shift: Constant<Bits<5>>,
    #[default(Constant::new(Bits::<64>::from(DST_LE)))]
    k_dst: Constant<Bits<64>>,
    #[default(Constant::new(Bits::<64>::from(type_op_le(ctl::OP_PAUSE))))]
    k_type_op: Constant<Bits<64>>,
    #[default(Constant::new(Bits::<64>::from(type_op_le(ctl::OP_PFC))))]
    k_type_op_pfc: Constant<Bits<64>>,
    is_paused: Signal<Local, Bit>,
    pending_now: Signal<Local, Bit>,
    mac: Signal<Local, Bits<48>>,
    quanta: Signal<Local, Bits<16>>,
    /// The quanta in network order (first byte in bits 7..0).
    quanta_be: Signal<Local, Bits<16>>,
    cev: Signal<Local, Bits<8>>,
    is_pfc: Signal<Local, Bit>,
    /// The PFC time of class i: the quanta if the class is enabled, else 0
    /// (network order).
    t0: Signal<Local, Bits<16>>,
    t1: Signal<Local, Bits<16>>,
    t2: Signal<Local, Bits<16>>,
    t3: Signal<Local, Bits<16>>,
    t4: Signal<Local, Bits<16>>,
    t5: Signal<Local, Bits<16>>,
    t6: Signal<Local, Bits<16>>,
    t7: Signal<Local, Bits<16>>,
    last_beat: Signal<Local, Bits<3>>,
    /// The second beat's EtherType and opcode (PAUSE or PFC).
    type_op: Signal<Local, Bits<64>>,
}

impl<const QUANTUM_SHIFT: usize> Logic for TxPause<QUANTUM_SHIFT> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            grant,
            beat,
            pending,
            pending_quanta,
            pending_cev,
            send_quanta,
            send_cev,
            remaining,
            n_sent,
            n_superseded,
            n_applied,
            n_held
        );
        self.is_paused.next = self.remaining.q.val().any();
        self.mac.next = self.cfg_src_mac.val();
        self.quanta.next = self.send_quanta.q.val();
        self.quanta_be.next = (bit_cast::<16, 8>(self.quanta.val().get_bits::<8>(8))
            | (bit_cast::<16, 8>(self.quanta.val().get_bits::<8>(0)) << 8));
        self.cev.next = self.send_cev.q.val();
        self.is_pfc.next = self.cev.val().any();
        self.last_beat.next = 2.into();
        self.type_op.next = self.k_type_op.val();
        if self.is_pfc.val() {
            self.last_beat.next = 4.into();
            self.type_op.next = self.k_type_op_pfc.val();
        }
        self.t0.next = 0.into();
        self.t1.next = 0.into();
        self.t2.next = 0.into();
        self.t3.next = 0.into();
        self.t4.next = 0.into();
        self.t5.next = 0.into();
        self.t6.next = 0.into();
        self.t7.next = 0.into();
        if self.cev.val().get_bit(0) {
            self.t0.next = self.quanta_be.val();
        }
        if self.cev.val().get_bit(1) {
            self.t1.next = self.quanta_be.val();
        }
        if self.cev.val().get_bit(2) {
            self.t2.next = self.quanta_be.val();
        }
        if self.cev.val().get_bit(3) {
            self.t3.next = self.quanta_be.val();
        }
        if self.cev.val().get_bit(4) {
            self.t4.next = self.quanta_be.val();
        }
        if self.cev.val().get_bit(5) {
            self.t5.next = self.quanta_be.val();
        }
        if self.cev.val().get_bit(6) {
            self.t6.next = self.quanta_be.val();
        }
        if self.cev.val().get_bit(7) {
            self.t7.next = self.quanta_be.val();
        }
        // ---- The output stream -------------------------------------------
        self.s_axis.tready.next = false;
        self.m_axis.tdata.next = 0.into();
        self.m_axis.tkeep.next = 0.into();
        self.m_axis.tvalid.next = false;
        self.m_axis.tlast.next = false;
        self.m_axis.tuser.next = 0.into();
        if self.grant.q.val() == self.k_user.val() {
            self.s_axis.tready.next = self.m_axis.tready.val();
            self.m_axis.tdata.next = self.s_axis.tdata.val();
            self.m_axis.tkeep.next = self.s_axis.tkeep.val();
            self.m_axis.tvalid.next = self.s_axis.tvalid.val();
            self.m_axis.tlast.next = self.s_axis.tlast.val();
            self.m_axis.tuser.next = self.s_axis.tuser.val();
        } else if self.grant.q.val() == self.k_pause.val() {
            self.m_axis.tvalid.next = true;
            self.m_axis.tkeep.next = 0xFF.into();
            if self.beat.q.val() == 0 {
                // destination, then the source's first two bytes
                self.m_axis.tdata.next = (self.k_dst.val()
                    | (bit_cast::<64, 8>(self.mac.val().get_bits::<8>(40)) << 48)
                    | (bit_cast::<64, 8>(self.mac.val().get_bits::<8>(32)) << 56));
            } else if self.beat.q.val() == 1 {
                // the source's last four bytes, EtherType, opcode
                self.m_axis.tdata.next = (bit_cast::<64, 8>(self.mac.val().get_bits::<8>(24))
                    | (bit_cast::<64, 8>(self.mac.val().get_bits::<8>(16)) << 8)
                    | (bit_cast::<64, 8>(self.mac.val().get_bits::<8>(8)) << 16)
                    | (bit_cast::<64, 8>(self.mac.val().get_bits::<8>(0)) << 24)
                    | self.type_op.val());
            } else if !self.is_pfc.val() {
                // PAUSE: the quanta, network order
                self.m_axis.tdata.next = bit_cast::<64, 16>(self.quanta_be.val());
                self.m_axis.tkeep.next = 0x03.into();
                self.m_axis.tlast.next = true;
            } else if self.beat.q.val() == 2 {
                // PFC: the class-enable vector, the times of classes 0..2
                self.m_axis.tdata.next = ((bit_cast::<64, 8>(self.cev.val()) << 8)
                    | (bit_cast::<64, 16>(self.t0.val()) << 16)
                    | (bit_cast::<64, 16>(self.t1.val()) << 32)
                    | (bit_cast::<64, 16>(self.t2.val()) << 48));
            } else if self.beat.q.val() == 3 {
                // PFC: the times of classes 3..6
                self.m_axis.tdata.next = (bit_cast::<64, 16>(self.t3.val())
                    | (bit_cast::<64, 16>(self.t4.val()) << 16)
                    | (bit_cast::<64, 16>(self.t5.val()) << 32)
                    | (bit_cast::<64, 16>(self.t6.val()) << 48));
            } else {
                // PFC: the time of class 7
                self.m_axis.tdata.next = bit_cast::<64, 16>(self.t7.val());
                self.m_axis.tkeep.next = 0x03.into();
                self.m_axis.tlast.next = true;
            }
        }
        // ---- The pause timer ---------------------------------------------
        if self.is_paused.val() {
            self.n_held.d.next = (self.n_held.q.val() + 1);
        }
        if self.rx_pause_valid.val() {
            self.remaining.d.next =
                (bit_cast::<24, 16>(self.rx_pause_quanta.val()) << self.k_shift.val());
            self.n_applied.d.next = (self.n_applied.q.val() + 1);
        } else if self.is_paused.val() {
            self.remaining.d.next = (self.remaining.q.val() - 1);
        }
        // ---- Who sends next ----------------------------------------------
        self.pending_now.next = self.pending.q.val();
        if self.grant.q.val() == self.k_idle.val() {
            if self.pending.q.val() {
                self.grant.d.next = self.k_pause.val();
                self.beat.d.next = 0.into();
                self.send_quanta.d.next = self.pending_quanta.q.val();
                self.send_cev.d.next = self.pending_cev.q.val();
                self.pending_now.next = false;
            } else if (self.s_axis.tvalid.val() && !self.is_paused.val()) {
                self.grant.d.next = self.k_user.val();
            }
        } else if self.grant.q.val() == self.k_user.val() {
            if (self.s_axis.tvalid.val() && self.m_axis.tready.val() && self.s_axis.tlast.val()) {
                self.grant.d.next = self.k_idle.val();
            }
        } else if self.m_axis.tready.val() {
            if self.beat.q.val() == self.last_beat.val() {
                self.grant.d.next = self.k_idle.val();
                self.n_sent.d.next = (self.n_sent.q.val() + 1);
            } else {
                self.beat.d.next = (self.beat.q.val() + 1);
            }
        }
        // ---- The core's request: the newest wins -------------------------
        self.pending.d.next = self.pending_now.val();
        if self.tx_pause_req.val() {
            if self.pending_now.val() {
                self.n_superseded.d.next = (self.n_superseded.q.val() + 1);
            }
            self.pending.d.next = true;
            self.pending_quanta.d.next = self.tx_pause_quanta.val();
            self.pending_cev.d.next = self.tx_pause_cev.val();
        }
        // ---- Reset ---------------------------------------------------------
        if self.reset.val() {
            self.grant.d.next = self.k_idle.val();
            self.beat.d.next = 0.into();
            self.pending.d.next = false;
            self.pending_quanta.d.next = 0.into();
            self.pending_cev.d.next = 0.into();
            self.send_quanta.d.next = 0.into();
            self.send_cev.d.next = 0.into();
            self.remaining.d.next = 0.into();
            self.n_sent.d.next = 0.into();
            self.n_superseded.d.next = 0.into();
            self.n_applied.d.next = 0.into();
            self.n_held.d.next = 0.into();
        }
        self.paused.next = self.is_paused.val();
        self.m_stats.sent.next = self.n_sent.q.val();
        self.m_stats.superseded.next = self.n_superseded.q.val();
        self.m_stats.applied.next = self.n_applied.q.val();
        self.m_stats.held.next = self.n_held.q.val();
    }
}
