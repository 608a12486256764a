//! Twin of `hdl/src/mac/tx_pause.rs`: the transmit side's pause control,
//! register for register. It holds new frames off while a received pause
//! runs (the pause timer), and puts an 802.3x PAUSE frame, or an 802.1Qbb
//! PFC frame for the classes the request names, in front of the next
//! frame when the core asks for one. See the RTL's docs for the
//! ports and the behaviour on bad input.

use super::MacPauseStats;
use crate::stream::Axis;
use crate::Cycle;
use nic_spec::mac::ctl;

/// One cycle's inputs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    pub reset: bool,
    pub s: Axis,
    pub m_tready: bool,
    /// A received PAUSE/PFC request (already in this clock domain).
    pub rx_pause_valid: bool,
    pub rx_pause_quanta: u16,
    /// The core asks for a PAUSE frame with this quanta (0 = XON).
    pub tx_pause_req: bool,
    pub tx_pause_quanta: u16,
    /// With the request: the class-enable vector of a PFC frame (bit i =
    /// priority i); 0 asks for an 802.3x PAUSE instead.
    pub tx_pause_cev: u8,
    /// The source address of sent PAUSE frames (first byte on the wire in
    /// bits 47..40).
    pub cfg_src_mac: u64,
}

/// One cycle's outputs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub s_tready: bool,
    pub m: Axis,
    /// The pause timer is running: no new user frame starts.
    pub paused: bool,
    pub stats: MacPauseStats,
}

/// Who owns the output stream.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Grant {
    #[default]
    Idle,
    User,
    Pause,
}

/// The three beats of a PAUSE frame without padding and FCS (18 bytes:
/// destination, source, EtherType 0x8808, opcode 1, quanta; the
/// transmitter pads it to 60): first byte in bits 7..0.
pub fn pause_frame_words(src_mac: u64, quanta: u16) -> [u64; 3] {
    let mut b = Vec::with_capacity(24);
    b.extend_from_slice(&ctl::DST.to_be_bytes()[2..]);
    b.extend_from_slice(&(src_mac & 0xFFFF_FFFF_FFFF).to_be_bytes()[2..]);
    b.extend_from_slice(&ctl::ETHERTYPE.to_be_bytes());
    b.extend_from_slice(&ctl::OP_PAUSE.to_be_bytes());
    b.extend_from_slice(&quanta.to_be_bytes());
    b.resize(24, 0);
    let w = |k: usize| u64::from_le_bytes(b[8 * k..8 * k + 8].try_into().unwrap());
    [w(0), w(1), w(2)]
}

/// The five beats of a PFC frame without padding and FCS (34 bytes:
/// destination, source, EtherType 0x8808, opcode 0x0101, the class-enable
/// vector `cev`, then eight times: `quanta` for each class in `cev`, 0 for
/// the others): first byte in bits 7..0.
pub fn pfc_frame_words(src_mac: u64, cev: u8, quanta: u16) -> [u64; 5] {
    let mut b = Vec::with_capacity(40);
    b.extend_from_slice(&ctl::DST.to_be_bytes()[2..]);
    b.extend_from_slice(&(src_mac & 0xFFFF_FFFF_FFFF).to_be_bytes()[2..]);
    b.extend_from_slice(&ctl::ETHERTYPE.to_be_bytes());
    b.extend_from_slice(&ctl::OP_PFC.to_be_bytes());
    b.extend_from_slice(&(cev as u16).to_be_bytes());
    for class in 0..8 {
        let time = if (cev >> class) & 1 == 1 { quanta } else { 0 };
        b.extend_from_slice(&time.to_be_bytes());
    }
    b.resize(40, 0);
    let w = |k: usize| u64::from_le_bytes(b[8 * k..8 * k + 8].try_into().unwrap());
    [w(0), w(1), w(2), w(3), w(4)]
}

/// The beats of the frame a request of (`cev`, `quanta`) sends: a PAUSE
/// when `cev` is 0, else a PFC frame.
pub fn control_frame_words(src_mac: u64, cev: u8, quanta: u16) -> Vec<u64> {
    if cev == 0 {
        pause_frame_words(src_mac, quanta).to_vec()
    } else {
        pfc_frame_words(src_mac, cev, quanta).to_vec()
    }
}

/// The pause control with `QUANTUM_SHIFT` = log2(cycles per quantum): 3
/// for a 64-bit word at 10G, 6 for a byte at 1G.
#[derive(Clone, Debug, Default)]
pub struct TxPause<const QUANTUM_SHIFT: usize> {
    grant: Grant,
    beat: u8,
    pending: bool,
    pending_quanta: u16,
    pending_cev: u8,
    send_quanta: u16,
    send_cev: u8,
    remaining: u32,
    stats: MacPauseStats,
}

impl<const QUANTUM_SHIFT: usize> Cycle for TxPause<QUANTUM_SHIFT> {
    type In = In;
    type Out = Out;

    fn step(&mut self, i: &In) -> Out {
        let paused = self.remaining != 0;
        let mut out = Out {
            paused,
            stats: self.stats,
            ..Default::default()
        };
        match self.grant {
            Grant::Idle => {}
            Grant::User => {
                out.s_tready = i.m_tready;
                out.m.tdata = i.s.tdata;
                out.m.tkeep = i.s.tkeep;
                out.m.tvalid = i.s.tvalid;
                out.m.tlast = i.s.tlast;
                out.m.tuser = i.s.tuser;
            }
            Grant::Pause => {
                let w = control_frame_words(i.cfg_src_mac, self.send_cev, self.send_quanta);
                let last = self.beat as usize + 1 == w.len();
                out.m.tdata = w[self.beat as usize];
                out.m.tkeep = if last { 0x03 } else { 0xFF };
                out.m.tvalid = true;
                out.m.tlast = last;
            }
        }
        if i.reset {
            *self = Self::default();
            return out;
        }
        // ---- The pause timer
        if paused {
            self.stats.held = self.stats.held.wrapping_add(1);
        }
        if i.rx_pause_valid {
            self.remaining = (i.rx_pause_quanta as u32) << QUANTUM_SHIFT;
            self.stats.applied = self.stats.applied.wrapping_add(1);
        } else if paused {
            self.remaining -= 1;
        }
        // ---- Who sends next
        match self.grant {
            Grant::Idle => {
                if self.pending {
                    self.grant = Grant::Pause;
                    self.beat = 0;
                    self.send_quanta = self.pending_quanta;
                    self.send_cev = self.pending_cev;
                    self.pending = false;
                } else if i.s.tvalid && !paused {
                    self.grant = Grant::User;
                }
            }
            Grant::User => {
                if i.s.tvalid && i.m_tready && i.s.tlast {
                    self.grant = Grant::Idle;
                }
            }
            Grant::Pause => {
                if i.m_tready {
                    let last_beat = if self.send_cev == 0 { 2 } else { 4 };
                    if self.beat == last_beat {
                        self.grant = Grant::Idle;
                        self.stats.sent = self.stats.sent.wrapping_add(1);
                    } else {
                        self.beat += 1;
                    }
                }
            }
        }
        // ---- The core's request: the newest wins
        if i.tx_pause_req {
            if self.pending {
                self.stats.superseded = self.stats.superseded.wrapping_add(1);
            }
            self.pending = true;
            self.pending_quanta = i.tx_pause_quanta;
            self.pending_cev = i.tx_pause_cev;
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pause_frame_bytes() {
        let w = pause_frame_words(0x02_00_00_00_00_07, 0x1234);
        let b: Vec<u8> = w.iter().flat_map(|x| x.to_le_bytes()).collect();
        assert_eq!(
            &b[..18],
            &[
                0x01, 0x80, 0xC2, 0x00, 0x00, 0x01, 0x02, 0, 0, 0, 0, 0x07, 0x88, 0x08, 0x00, 0x01,
                0x12, 0x34
            ]
        );
        assert!(b[18..].iter().all(|&x| x == 0));
    }

    #[test]
    fn pfc_frame_bytes() {
        let w = pfc_frame_words(0x02_00_00_00_00_07, 0b0000_1001, 0x1234);
        let b: Vec<u8> = w.iter().flat_map(|x| x.to_le_bytes()).collect();
        assert_eq!(&b[12..18], &[0x88, 0x08, 0x01, 0x01, 0x00, 0x09]);
        // class 0 and class 3 carry the quanta, the others 0
        assert_eq!(&b[18..20], &[0x12, 0x34]);
        assert_eq!(&b[24..26], &[0x12, 0x34]);
        for class in [1, 2, 4, 5, 6, 7] {
            assert_eq!(&b[18 + 2 * class..20 + 2 * class], &[0, 0], "class {class}");
        }
        assert!(b[34..].iter().all(|&x| x == 0));
    }

    #[test]
    fn a_quantum_is_eight_cycles_at_10g() {
        let mut p = TxPause::<3>::default();
        p.step(&In {
            rx_pause_valid: true,
            rx_pause_quanta: 2,
            ..Default::default()
        });
        let held = (0..40).filter(|_| p.step(&In::default()).paused).count();
        assert_eq!(held, 16);
    }
}
