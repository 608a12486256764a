//! One direction of a 10G link carrying XGMII words: what `hpccnic sim
//! --top nic-10g` puts between two `hpcc_nic_10g`.
//!
//! The sender's word of cycle t reaches the receiver in cycle
//! t + 1 + `delay` (one word a cycle both ends: one clock). Before the
//! first word arrives, and whenever none is due, the receiver sees idles
//! (`/I/` in every lane).
//!
//! A monitor reads every word sent. It finds each frame (`/S/` in lane 0
//! or 4, six preamble bytes and the SFD, data, `/T/` or another control
//! character), checks its FCS, and records it as a [`WireFrame`] without
//! the FCS (what a pcap of Ethernet holds). A frame the sender got wrong
//! (a bad preamble, FCS or terminator, a runt) is recorded in `errors`.
//! A frame the sender aborted (`/E/`) is not an error: it is counted in
//! `aborted`.
//!
//! Loss: each frame is lost with probability `loss` (seeded): the link
//! flips one bit of its first data byte on the way (the receiving MAC
//! then finds a bad FCS and flags the frame; the NIC drops it), as a bit
//! error on a real wire does. `ce` (ECN marking) is not applied on this
//! link.

use crate::core_env::WireFrame;
use crate::link::LinkCfg;
use nic_golden::mac::xgmii::fcs;
use nic_spec::mac::{xgmii, FCS_LEN, MIN_FRAME, PREAMBLE_BYTE, SFD};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::collections::VecDeque;

/// Where the monitor is in the byte stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mon {
    Idle,
    /// Preamble bytes seen so far after `/S/` (the SFD is the 7th).
    Preamble(u8),
    Data,
    /// After an abort's `/E/`: more `/E/` and a `/T/` may follow.
    Aborted,
}

/// One direction: the sender's words, delayed, and its monitor.
#[derive(Debug)]
pub struct XgmiiLink {
    pub cfg: LinkCfg,
    /// Index of the sending NIC (0 = A, 1 = B), for the records.
    from: usize,
    rng: StdRng,
    /// (cycle sent, word, control) not yet seen by the receiver.
    words: VecDeque<(u64, u64, u8)>,
    mon: Mon,
    start: u64,
    bytes: Vec<u8>,
    /// This frame is lost: its first data byte is flipped on the way.
    lose: bool,
    flipped: bool,
    /// Every frame sent (without FCS), in order.
    pub frames: Vec<WireFrame>,
    /// Frames made bad on the way (lost).
    pub lost: u64,
    /// Frames the sender aborted (`/E/`).
    pub aborted: u64,
    /// Frames on the wire that break the rules of a good sender.
    pub errors: Vec<String>,
    /// The sender's MAC was reset up to this cycle (its `rst`, plus the
    /// words already on their way out): a frame it cut short then is
    /// counted in `cut`, not an error.
    pub sender_reset_until: Option<u64>,
    pub cut: u64,
}

impl XgmiiLink {
    pub fn new(cfg: LinkCfg, from: usize, seed: u64) -> Self {
        Self {
            cfg,
            from,
            rng: StdRng::seed_from_u64(seed),
            words: VecDeque::new(),
            mon: Mon::Idle,
            start: 0,
            bytes: Vec::new(),
            lose: false,
            flipped: false,
            frames: Vec::new(),
            lost: 0,
            aborted: 0,
            errors: Vec::new(),
            sender_reset_until: None,
            cut: 0,
        }
    }

    fn in_sender_reset(&self, now: u64) -> bool {
        self.sender_reset_until.is_some_and(|u| now <= u)
    }

    /// The sender's word of cycle `now`.
    pub fn push(&mut self, now: u64, txd: u64, txc: u8) {
        let mut d = txd;
        for k in 0..8 {
            let b = (txd >> (8 * k)) as u8;
            let ctrl = (txc >> k) & 1 == 1;
            if let Some(lane) = self.monitor(now, k, b, ctrl) {
                d ^= 1 << (8 * lane);
            }
        }
        self.words.push_back((now, d, txc));
    }

    /// The word the receiver sees in cycle `now`: the one sent in cycle
    /// `now − 1 − delay`, else idle.
    pub fn word_at(&mut self, now: u64) -> (u64, u8) {
        let due = |t: u64| t + 1 + self.cfg.delay;
        while let Some(&(t, _, _)) = self.words.front() {
            if due(t) < now {
                self.words.pop_front();
            } else {
                break;
            }
        }
        match self.words.front() {
            Some(&(t, d, c)) if due(t) == now => {
                self.words.pop_front();
                (d, c)
            }
            _ => (xgmii::IDLE_WORD, 0xFF),
        }
    }

    /// One lane of the stream; returns the lane to flip (the first data
    /// byte of a lost frame).
    fn monitor(&mut self, now: u64, lane: usize, b: u8, ctrl: bool) -> Option<usize> {
        match self.mon {
            Mon::Idle => {
                if ctrl && b == xgmii::START {
                    if lane % 4 != 0 {
                        self.errors.push(format!("cycle {now}: /S/ in lane {lane}"));
                    }
                    self.mon = Mon::Preamble(0);
                    self.start = now;
                } else if !(ctrl && b == xgmii::IDLE) {
                    self.errors.push(format!(
                        "cycle {now}: lane {lane}: {b:#04x} (control {ctrl}) between frames"
                    ));
                }
                None
            }
            Mon::Preamble(n) => {
                let want = if n < 6 { PREAMBLE_BYTE } else { SFD };
                if ctrl || b != want {
                    if self.in_sender_reset(now) {
                        self.cut += 1;
                    } else {
                        self.errors
                            .push(format!("cycle {now}: a bad preamble or SFD"));
                    }
                    self.mon = Mon::Idle;
                } else if n == 6 {
                    self.mon = Mon::Data;
                    self.bytes.clear();
                    self.lose = self.cfg.loss > 0.0 && self.rng.gen_bool(self.cfg.loss.min(1.0));
                    self.flipped = false;
                } else {
                    self.mon = Mon::Preamble(n + 1);
                }
                None
            }
            Mon::Aborted => {
                if ctrl && (b == xgmii::ERROR || b == xgmii::TERM) {
                    return None;
                }
                self.mon = Mon::Idle;
                self.monitor(now, lane, b, ctrl)
            }
            Mon::Data => {
                if !ctrl {
                    self.bytes.push(b);
                    if self.lose && !self.flipped {
                        self.flipped = true;
                        return Some(lane);
                    }
                    return None;
                }
                self.mon = Mon::Idle;
                if b == xgmii::ERROR {
                    self.aborted += 1;
                    self.mon = Mon::Aborted;
                    return None;
                }
                let n = self.bytes.len();
                if b != xgmii::TERM && self.in_sender_reset(now) {
                    self.cut += 1;
                } else if b != xgmii::TERM {
                    self.errors
                        .push(format!("cycle {now}: control {b:#04x} inside a frame"));
                } else if n < MIN_FRAME {
                    self.errors
                        .push(format!("cycle {now}: a runt of {n} bytes"));
                } else if fcs(&self.bytes[..n - FCS_LEN]) != self.bytes[n - FCS_LEN..] {
                    self.errors.push(format!("cycle {now}: a bad FCS"));
                } else {
                    self.lost += self.lose as u64;
                    self.frames.push(WireFrame {
                        time: self.start,
                        from: self.from,
                        lost: self.lose,
                        frame: self.bytes[..n - FCS_LEN].to_vec(),
                        damaged: None,
                    });
                }
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nic_golden::mac::xgmii::schedule;

    fn words(frames: &[Vec<u8>]) -> Vec<(u64, u8)> {
        let mut w = schedule(frames, 8);
        w.extend([(xgmii::IDLE_WORD, 0xFF); 4]);
        w
    }

    #[test]
    fn frames_arrive_delayed_and_recorded() {
        let frames = vec![vec![0x11; 60], vec![0x22; 100]];
        let w = words(&frames);
        let mut l = XgmiiLink::new(
            LinkCfg {
                delay: 3,
                loss: 0.0,
                ce: 0.0,
                corrupt: 0.0,
            },
            1,
            7,
        );
        let mut got = Vec::new();
        for (t, &(d, c)) in w.iter().enumerate() {
            l.push(t as u64, d, c);
            got.push(l.word_at(t as u64));
        }
        for t in w.len()..w.len() + 4 {
            got.push(l.word_at(t as u64));
        }
        // Word t arrives at t + 4; idles before.
        assert!(got[..4].iter().all(|&x| x == (xgmii::IDLE_WORD, 0xFF)));
        assert_eq!(&got[4..4 + w.len()], &w[..]);
        assert!(l.errors.is_empty(), "{:?}", l.errors);
        assert_eq!(l.frames.len(), 2);
        assert_eq!(l.frames[1].frame, frames[1]);
        assert_eq!(l.frames[1].from, 1);
        assert!(!l.frames[0].lost);
    }

    #[test]
    fn a_lost_frame_arrives_with_a_bad_fcs() {
        let frames: Vec<Vec<u8>> = (0..40).map(|k| vec![k as u8; 64]).collect();
        let w = words(&frames);
        let mut l = XgmiiLink::new(
            LinkCfg {
                delay: 0,
                loss: 0.5,
                ce: 0.0,
                corrupt: 0.0,
            },
            0,
            3,
        );
        let mut rx = Vec::new();
        for (t, &(d, c)) in w.iter().enumerate() {
            l.push(t as u64, d, c);
            rx.push(l.word_at(t as u64));
        }
        rx.push(l.word_at(w.len() as u64));
        let (dec, _) = nic_golden::mac::xgmii::decode(&rx, 1522);
        assert_eq!(dec.len(), 40);
        assert!((10..30).contains(&l.lost), "{}", l.lost);
        for (f, rec) in dec.iter().zip(&l.frames) {
            assert_eq!(f.good, !rec.lost);
        }
        assert!(l.errors.is_empty());
    }

    #[test]
    fn a_bad_sender_is_reported() {
        let mut w = words(&[vec![0x33; 64]]);
        // Break the FCS: flip a bit of the frame's last all-data word.
        let k = w.iter().rposition(|&(_, c)| c == 0).unwrap();
        w[k].0 ^= 1 << 9;
        let mut l = XgmiiLink::new(
            LinkCfg {
                delay: 0,
                loss: 0.0,
                ce: 0.0,
                corrupt: 0.0,
            },
            0,
            1,
        );
        for (t, &(d, c)) in w.iter().enumerate() {
            l.push(t as u64, d, c);
        }
        assert_eq!(l.errors.len(), 1, "{:?}", l.errors);
        assert!(l.frames.is_empty());
    }
}
