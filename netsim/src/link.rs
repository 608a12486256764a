//! One direction of the link between two NICs: the sender's port
//! serializes a frame in ceil(bytes / 8) cycles (64-bit datapath, one word
//! a cycle, no inter-frame gap), the frame arrives `delay` cycles after its
//! last word left, or is lost (Bernoulli, probability `loss`, seeded RNG).
//! A frame that is not lost may arrive damaged (probability `corrupt`,
//! [`damage`]): a fault the receiver must catch and drop. Frames arrive in
//! the order they were sent.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::collections::VecDeque;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LinkCfg {
    /// Cycles from the end of serialization to the arrival.
    pub delay: u64,
    /// Probability that a frame is lost (0..=1).
    pub loss: f64,
    /// Probability that an ECN-capable IPv4 frame (ECT) arrives CE-marked
    /// (0..=1; its IPv4 checksum rewritten, as a switch does): drives
    /// DCQCN's notification point without a switch.
    pub ce: f64,
    /// Probability that a frame that is not lost arrives damaged
    /// ([`damage`]; 0..=1): the soak's bad frames (`hpccnic sim --corrupt`).
    pub corrupt: f64,
}

/// How [`damage`] hurt a frame. Each one must make the receiver drop it:
/// the ICRC covers every bit it touches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Damage {
    /// One bit of the ICRC flipped (`bad_icrc`).
    IcrcBit,
    /// One bit of the BTH flipped, outside `resv8a` (the one BTH byte the
    /// ICRC masks): `bad_icrc`, or an earlier check's reason.
    BthBit,
    /// Cut short, keeping at least its Ethernet header (so that a capture
    /// still tells whose it is): `trunc`, `bad_len`, `bad_ip` or
    /// `bad_icrc`.
    Cut,
}

/// Damage `frame` (a RoCEv2 frame of at least `MIN_FRAME` bytes; shorter
/// frames are cut) one of the three ways, drawn from `rng`.
pub fn damage(frame: &mut Vec<u8>, rng: &mut StdRng) -> Damage {
    use nic_spec::roce::{BTH_LEN, BTH_OFF, ETH_LEN, ICRC_LEN, MIN_FRAME};
    let kind = if frame.len() < MIN_FRAME {
        2
    } else {
        rng.gen_range(0..3)
    };
    match kind {
        0 => {
            let at = frame.len() - ICRC_LEN + rng.gen_range(0..ICRC_LEN);
            frame[at] ^= 1 << rng.gen_range(0..8);
            Damage::IcrcBit
        }
        1 => {
            // Byte 4 of the BTH is resv8a (masked by the ICRC).
            let mut k = rng.gen_range(0..BTH_LEN - 1);
            if k >= 4 {
                k += 1;
            }
            frame[BTH_OFF + k] ^= 1 << rng.gen_range(0..8);
            Damage::BthBit
        }
        _ => {
            // (A frame no longer than its header loses its last byte.)
            let lo = ETH_LEN.min(frame.len().saturating_sub(1));
            let keep = rng.gen_range(lo..frame.len().max(lo + 1));
            frame.truncate(keep);
            Damage::Cut
        }
    }
}

/// One direction.
#[derive(Clone, Debug)]
pub struct Link {
    pub cfg: LinkCfg,
    rng: StdRng,
    /// The sender's port is busy until this cycle.
    pub busy_until: u64,
    in_flight: VecDeque<(u64, Vec<u8>)>,
    pub frames: u64,
    pub bytes: u64,
    pub lost: u64,
    /// Frames marked CE (`ce`).
    pub marked: u64,
    /// Frames damaged (`corrupt`), by [`Damage`] in declaration order.
    pub damaged: [u64; 3],
    /// The frame of the last `send` as it will arrive, if it was damaged.
    last_damaged: Option<Vec<u8>>,
}

/// Cycles to serialize `bytes` on a 64-bit datapath.
pub fn ser_cycles(bytes: usize) -> u64 {
    (bytes as u64).div_ceil(8)
}

impl Link {
    pub fn new(cfg: LinkCfg, seed: u64) -> Self {
        Link {
            cfg,
            rng: StdRng::seed_from_u64(seed),
            busy_until: 0,
            in_flight: VecDeque::new(),
            frames: 0,
            bytes: 0,
            lost: 0,
            marked: 0,
            damaged: [0; 3],
            last_damaged: None,
        }
    }

    /// The port is free at `now`.
    pub fn free(&self, now: u64) -> bool {
        self.busy_until <= now
    }

    /// Put `frame` on the wire at `now` (the port must be free); returns
    /// whether it was lost.
    pub fn send(&mut self, now: u64, frame: Vec<u8>) -> bool {
        let start = now.max(self.busy_until);
        self.busy_until = start + ser_cycles(frame.len());
        self.frames += 1;
        self.bytes += frame.len() as u64;
        let lost = self.cfg.loss > 0.0 && self.rng.gen_bool(self.cfg.loss.min(1.0));
        self.last_damaged = None;
        if lost {
            self.lost += 1;
        } else {
            let mut frame = frame;
            if self.cfg.ce > 0.0 && self.rng.gen_bool(self.cfg.ce.min(1.0)) {
                self.marked += crate::net::switch::mark_ce(&mut frame) as u64;
            }
            if self.cfg.corrupt > 0.0 && self.rng.gen_bool(self.cfg.corrupt.min(1.0)) {
                self.damaged[damage(&mut frame, &mut self.rng) as usize] += 1;
                self.last_damaged = Some(frame.clone());
            }
            self.in_flight
                .push_back((self.busy_until + self.cfg.delay, frame));
        }
        lost
    }

    /// Arrival time of the next frame, if any.
    pub fn next_arrival(&self) -> Option<u64> {
        self.in_flight.front().map(|f| f.0)
    }

    /// The next frame if it has arrived by `now`.
    pub fn pop_arrived(&mut self, now: u64) -> Option<Vec<u8>> {
        if self.next_arrival()? <= now {
            self.in_flight.pop_front().map(|f| f.1)
        } else {
            None
        }
    }

    pub fn is_empty(&self) -> bool {
        self.in_flight.is_empty()
    }

    /// The frame of the last [`Link::send`] as it will arrive, if the link
    /// damaged it (taken: `None` afterwards).
    pub fn take_damaged(&mut self) -> Option<Vec<u8>> {
        self.last_damaged.take()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timing_and_loss() {
        let mut l = Link::new(
            LinkCfg {
                delay: 100,
                loss: 0.0,
                ce: 0.0,
                corrupt: 0.0,
            },
            1,
        );
        assert!(!l.send(0, vec![0; 65]));
        assert_eq!(l.busy_until, 9);
        assert!(!l.free(8));
        assert_eq!(l.next_arrival(), Some(109));
        assert_eq!(l.pop_arrived(108), None);
        assert_eq!(l.pop_arrived(109).map(|f| f.len()), Some(65));
        let mut l = Link::new(
            LinkCfg {
                delay: 1,
                loss: 0.25,
                ce: 0.0,
                corrupt: 0.0,
            },
            7,
        );
        for t in 0..4000 {
            l.send(t, vec![0; 8]);
        }
        assert!((800..1200).contains(&l.lost), "{}", l.lost);
    }

    /// Every damaged frame differs from the frame sent where the ICRC
    /// covers it, and keeps its Ethernet header.
    #[test]
    fn damage_is_always_visible() {
        use nic_spec::roce::{BTH_OFF, ETH_LEN};
        let mut rng = StdRng::seed_from_u64(3);
        let mut seen = [0; 3];
        for n in 0..3000 {
            let sent: Vec<u8> = (0..60 + n % 1000).map(|k| (k * 7 + n) as u8).collect();
            let mut f = sent.clone();
            let d = damage(&mut f, &mut rng);
            seen[d as usize] += 1;
            assert_ne!(f, sent, "{d:?}");
            assert!(f.len() >= ETH_LEN && f[..ETH_LEN] == sent[..ETH_LEN]);
            if d != Damage::Cut {
                assert_eq!(f.len(), sent.len());
                assert_eq!(f[BTH_OFF + 4], sent[BTH_OFF + 4], "resv8a untouched");
            }
        }
        assert!(seen.iter().all(|&k| k > 800), "{seen:?}");
        let mut l = Link::new(
            LinkCfg {
                delay: 0,
                loss: 0.0,
                ce: 0.0,
                corrupt: 0.5,
            },
            9,
        );
        let damaged = (0..1000)
            .filter(|&t| {
                l.send(t * 100, vec![1; 80]);
                l.take_damaged().is_some()
            })
            .count();
        assert_eq!(damaged as u64, l.damaged.iter().sum::<u64>());
        assert!((400..600).contains(&damaged), "{damaged}");
    }
}
