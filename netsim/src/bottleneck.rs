//! A bottleneck link with a one-hop telemetry stamp: the minimal switch
//! that puts the CC in the loop (the network-simulator issue replaces it
//! with real switches).
//!
//! Frames queue (FIFO, unbounded, its length traced) in front of a port
//! of `bytes_per_cycle` (slower than the NIC's 8 bytes a cycle), then take
//! `delay` cycles to arrive. When a frame with the T bit starts its
//! transmission, the port writes its hop into the telemetry area as an
//! ns-3 switch does (`docs/roce.md` §2): hop `nhop` = (rate code, now in
//! ns, bytes sent by the port so far, bytes queued behind the frame), in
//! the units of `int_multi`, and `nhop` + 1. The area is outside the
//! ICRC and no length changes, so the frame stays valid. A frame whose
//! area is full (`nhop` = `maxhop`) passes unstamped. Loss (seeded) is
//! applied at the queue's input.

use nic_golden::cc::int_ns3::HopFields;
use nic_golden::roce::packet::tlm_offset;
use nic_spec::roce::{BTH_OFF, TLM_LEN};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::collections::VecDeque;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BottleneckCfg {
    /// The port's rate, bytes per cycle.
    pub bytes_per_cycle: f64,
    /// Cycles from the end of a frame's transmission to its arrival.
    pub delay: u64,
    pub loss: f64,
    /// The telemetry rate code of the port (`nic_golden::cc::params::rate_code`).
    pub rate_code: u8,
    /// The telemetry `multi` (units of 128·multi and 80·multi bytes).
    pub int_multi: u32,
    /// ns per cycle, for the hop's timestamp.
    pub ns_per_cycle: f64,
}

pub struct Bottleneck {
    pub cfg: BottleneckCfg,
    rng: StdRng,
    queue: VecDeque<Vec<u8>>,
    /// Bytes in `queue`.
    pub queued: u64,
    /// The port is busy until this (fractional) cycle.
    busy_until: f64,
    /// Bytes the port has sent.
    pub tx_bytes: u64,
    in_flight: VecDeque<(u64, Vec<u8>)>,
    pub lost: u64,
    pub stamped: u64,
    /// (cycle, bytes queued behind it, frame bytes) at every departure.
    pub queue_trace: Vec<(u64, u64, u32)>,
}

/// Write one hop into `frame`'s telemetry area, if it has one with room
/// and travels forward (`nic_spec::roce::stamped_on_path`: not an HPCC ACK
/// echo or a NOTIFY).
/// Returns whether it did.
pub fn stamp(frame: &mut [u8], hop: u64) -> bool {
    let Some(off) = tlm_offset(frame) else {
        return false;
    };
    if !nic_spec::roce::stamped_on_path(frame[BTH_OFF]) {
        return false;
    }
    if frame.len() < off + TLM_LEN {
        return false;
    }
    let (nhop, maxhop) = (frame[off + 1] as usize, frame[off + 2] as usize);
    if nhop >= maxhop || nhop >= 5 {
        return false;
    }
    frame[off + 8 + 8 * nhop..off + 16 + 8 * nhop].copy_from_slice(&hop.to_be_bytes());
    frame[off + 1] = nhop as u8 + 1;
    true
}

impl Bottleneck {
    pub fn new(cfg: BottleneckCfg, seed: u64) -> Self {
        Self {
            cfg,
            rng: StdRng::seed_from_u64(seed),
            queue: VecDeque::new(),
            queued: 0,
            busy_until: 0.0,
            tx_bytes: 0,
            in_flight: VecDeque::new(),
            lost: 0,
            stamped: 0,
            queue_trace: Vec::new(),
        }
    }

    /// A frame enters the queue at `now`; returns whether it was lost.
    pub fn send(&mut self, now: u64, frame: Vec<u8>) -> bool {
        if self.cfg.loss > 0.0 && self.rng.gen_bool(self.cfg.loss.min(1.0)) {
            self.lost += 1;
            return true;
        }
        self.queued += frame.len() as u64;
        self.queue.push_back(frame);
        self.serve(now);
        false
    }

    /// Start every transmission due by `now`.
    fn serve(&mut self, now: u64) {
        while self.busy_until <= now as f64 {
            let Some(mut f) = self.queue.pop_front() else {
                break;
            };
            self.queued -= f.len() as u64;
            let ts = (now as f64 * self.cfg.ns_per_cycle) as u64;
            let hop = HopFields::quantise(
                self.cfg.rate_code,
                ts,
                self.tx_bytes,
                self.queued,
                self.cfg.int_multi,
            )
            .encode();
            if stamp(&mut f, hop) {
                self.stamped += 1;
            }
            self.queue_trace.push((now, self.queued, f.len() as u32));
            self.tx_bytes += f.len() as u64;
            let start = self.busy_until.max(now as f64);
            self.busy_until = start + f.len() as f64 / self.cfg.bytes_per_cycle;
            self.in_flight
                .push_back((self.busy_until.ceil() as u64 + self.cfg.delay, f));
        }
    }

    /// The next frame if it has arrived by `now`.
    pub fn pop_arrived(&mut self, now: u64) -> Option<Vec<u8>> {
        self.serve(now);
        if self.in_flight.front()?.0 <= now {
            self.in_flight.pop_front().map(|f| f.1)
        } else {
            None
        }
    }
}
