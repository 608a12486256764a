//! One direction of the link between two NICs: the sender's port
//! serializes a frame in ceil(bytes / 8) cycles (64-bit datapath, one word
//! a cycle, no inter-frame gap), the frame arrives `delay` cycles after its
//! last word left, or is lost (Bernoulli, probability `loss`, seeded RNG).
//! Frames arrive in the order they were sent.

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
        if lost {
            self.lost += 1;
        } else {
            let mut frame = frame;
            if self.cfg.ce > 0.0 && self.rng.gen_bool(self.cfg.ce.min(1.0)) {
                self.marked += crate::net::switch::mark_ce(&mut frame) as u64;
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
            },
            7,
        );
        for t in 0..4000 {
            l.send(t, vec![0; 8]);
        }
        assert!((800..1200).contains(&l.lost), "{}", l.lost);
    }
}
