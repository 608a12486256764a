//! An output-queued switch that stamps telemetry, marks ECN and drops or
//! pauses on overflow.
//!
//! - **Forwarding:** by the IPv4 destination to a host (`topo::host_of_ip`);
//!   among several equal-cost egress ports (ECMP) by a hash of the
//!   5-tuple (source and destination IP, protocol, UDP ports) salted
//!   per switch. A frame that is not IPv4/UDP or goes to no host is
//!   dropped and counted (`unroutable`).
//! - **Queues:** one FIFO per egress port, in bytes. The buffer is shared
//!   by all ports (a frame is refused when the switch's total would pass
//!   `buffer`) or split (`per_port`: a port's queue may not pass `buffer`).
//! - **Overflow:** lossy: the frame is dropped and counted on its egress
//!   port. Lossless: PFC-style, per ingress port: when the bytes buffered
//!   that came in on a port pass `xoff`, the switch sends a pause to the
//!   port's upstream (a NIC's MAC Tx ready goes low; a switch port stops
//!   sending), and a resume when they fall to `xon`. A frame that still
//!   finds the buffer full is dropped and counted (the headroom was too
//!   small: a figure of the configuration, not silent loss).
//! - **ECN:** RED at enqueue on the egress queue: no mark below `kmin`,
//!   probability `pmax`·(q − kmin)/(kmax − kmin) between, always above
//!   `kmax`; only ECN-capable frames (ECT) are marked CE, and the IPv4
//!   checksum is rewritten (the ICRC masks the ECN bits).
//! - **Telemetry:** at dequeue, a frame with a telemetry area gets this
//!   port's ns-3 hop (`crate::bottleneck::stamp`): rate code, time in ns,
//!   bytes the port sent before it, bytes left in the port's queue, in
//!   units of 128·multi and 80·multi bytes. A full area passes unstamped.
//!
//! Time is in cycles of the NICs' clock; a port moves `bytes_per_cycle`
//! (fractional). A frame takes its size on the wire
//! (`nic_spec::mac::wire_bytes`: padded to 64 bytes with its FCS, plus
//! preamble, SFD and the 12-byte gap) and arrives `delay` cycles after
//! that time ends. The port's `tx_bytes`, its telemetry and the
//! utilisation count the frames' own bytes, as a switch's counters do: a
//! line full of 1 KB frames reads about 0.98.

use crate::bottleneck::stamp;
use crate::net::topo::host_of_ip;
use nic_golden::cc::int_ns3::HopFields;
use nic_spec::mac::wire_bytes;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::collections::VecDeque;

/// RED marking thresholds of a port, bytes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ecn {
    pub kmin: u64,
    pub kmax: u64,
    pub pmax: f64,
}

/// PFC thresholds per ingress port, bytes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pfc {
    pub xoff: u64,
    pub xon: u64,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SwitchCfg {
    /// Buffer, bytes: the switch's total (shared) or each port's.
    pub buffer: u64,
    pub per_port: bool,
    pub ecn: Option<Ecn>,
    /// Lossless (PFC) if set, else lossy.
    pub pfc: Option<Pfc>,
    /// The telemetry `multi`.
    pub int_multi: u32,
    pub ns_per_cycle: f64,
}

/// One port's link.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PortCfg {
    pub bytes_per_cycle: f64,
    /// Cycles from a frame's last byte to its arrival.
    pub delay: u64,
    /// The telemetry rate code of the port's line rate.
    pub rate_code: u8,
}

/// A port's counters.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
pub struct PortStats {
    pub tx_frames: u64,
    pub tx_bytes: u64,
    pub drops: u64,
    pub ecn_marks: u64,
    pub stamped: u64,
    /// Pauses this port sent to its upstream (lossless).
    pub pauses_sent: u64,
    /// Cycles this port's egress was paused by its downstream.
    pub paused_cycles: u64,
    pub peak_queue: u64,
}

pub struct Port {
    pub cfg: PortCfg,
    queue: VecDeque<(Vec<u8>, usize)>,
    /// Bytes in the egress queue.
    pub queued: u64,
    busy_until: f64,
    /// Frames on the wire: (arrival cycle, frame).
    pub in_flight: VecDeque<(u64, Vec<u8>)>,
    /// Paused by the downstream (PFC).
    pub paused: bool,
    /// Bytes buffered that came in on this port (PFC accounting).
    ingress_bytes: u64,
    /// This port has paused its upstream.
    pausing: bool,
    pub stats: PortStats,
}

/// A pause (`true`) or resume the switch sends out of `port` to its
/// upstream.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PauseOut {
    pub port: usize,
    pub pause: bool,
}

pub struct Switch {
    pub cfg: SwitchCfg,
    pub ports: Vec<Port>,
    /// Egress ports toward each host (several: ECMP).
    pub routes: Vec<Vec<usize>>,
    salt: u64,
    rng: StdRng,
    /// Bytes in all queues.
    pub queued: u64,
    pub unroutable: u64,
}

/// A 64-bit mix (splitmix64's finaliser).
fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// (destination IP, hash of the 5-tuple) of an IPv4/UDP frame.
pub fn five_tuple(frame: &[u8], salt: u64) -> Option<(u32, u64)> {
    if frame.len() < 42 || frame[12..14] != [0x08, 0x00] || frame[14] >> 4 != 4 || frame[23] != 17 {
        return None;
    }
    let be32 = |o: usize| u32::from_be_bytes(frame[o..o + 4].try_into().unwrap());
    let (sip, dip) = (be32(26), be32(30));
    let ports = be32(34);
    let h = mix(salt ^ mix((sip as u64) << 32 | dip as u64) ^ mix((ports as u64) << 8 | 17));
    Some((dip, h))
}

/// Set CE on an ECN-capable IPv4 frame and rewrite its header checksum;
/// returns whether it was ECN-capable (a frame too short for its IPv4
/// header, or not IPv4, is left alone).
pub fn mark_ce(frame: &mut [u8]) -> bool {
    if frame.len() < 34 || frame[12..14] != [0x08, 0x00] || frame[15] & 3 == 0 {
        return false;
    }
    let ihl = (frame[14] & 0xF) as usize * 4;
    if ihl < 20 || frame.len() < 14 + ihl {
        return false;
    }
    frame[15] |= 3;
    frame[24] = 0;
    frame[25] = 0;
    let ihl = (frame[14] & 0xF) as usize * 4;
    let mut sum: u32 = frame[14..14 + ihl]
        .chunks(2)
        .map(|w| u16::from_be_bytes([w[0], w[1]]) as u32)
        .sum();
    while sum > 0xFFFF {
        sum = (sum & 0xFFFF) + (sum >> 16);
    }
    frame[24..26].copy_from_slice(&(!(sum as u16)).to_be_bytes());
    true
}

impl Switch {
    pub fn new(cfg: SwitchCfg, ports: Vec<PortCfg>, routes: Vec<Vec<usize>>, seed: u64) -> Self {
        Self {
            cfg,
            ports: ports
                .into_iter()
                .map(|c| Port {
                    cfg: c,
                    queue: VecDeque::new(),
                    queued: 0,
                    busy_until: 0.0,
                    in_flight: VecDeque::new(),
                    paused: false,
                    ingress_bytes: 0,
                    pausing: false,
                    stats: PortStats::default(),
                })
                .collect(),
            routes,
            salt: mix(seed ^ 0x5EED),
            rng: StdRng::seed_from_u64(seed),
            queued: 0,
            unroutable: 0,
        }
    }

    /// The egress port of `frame`, if it goes to a host this switch
    /// reaches.
    pub fn route(&self, frame: &[u8]) -> Option<usize> {
        let (dip, h) = five_tuple(frame, self.salt)?;
        let ports = self.routes.get(host_of_ip(dip)?)?;
        match ports.len() {
            0 => None,
            1 => Some(ports[0]),
            n => Some(ports[(h % n as u64) as usize]),
        }
    }

    /// A frame arrives on port `in_port` at `now`; a pause it causes goes
    /// into `pauses`.
    pub fn receive(&mut self, in_port: usize, mut frame: Vec<u8>, pauses: &mut Vec<PauseOut>) {
        let Some(out) = self.route(&frame) else {
            self.unroutable += 1;
            return;
        };
        let len = frame.len() as u64;
        let full = if self.cfg.per_port {
            self.ports[out].queued + len > self.cfg.buffer
        } else {
            self.queued + len > self.cfg.buffer
        };
        if full {
            self.ports[out].stats.drops += 1;
            return;
        }
        if let Some(e) = self.cfg.ecn {
            let q = self.ports[out].queued;
            let p = if q <= e.kmin {
                0.0
            } else if q >= e.kmax {
                1.0
            } else {
                e.pmax * (q - e.kmin) as f64 / (e.kmax - e.kmin) as f64
            };
            if p > 0.0 && self.rng.gen_bool(p.min(1.0)) && mark_ce(&mut frame) {
                self.ports[out].stats.ecn_marks += 1;
            }
        }
        let port = &mut self.ports[out];
        port.queued += len;
        port.stats.peak_queue = port.stats.peak_queue.max(port.queued);
        port.queue.push_back((frame, in_port));
        self.queued += len;
        if let Some(pfc) = self.cfg.pfc {
            let ing = &mut self.ports[in_port];
            ing.ingress_bytes += len;
            if !ing.pausing && ing.ingress_bytes > pfc.xoff {
                ing.pausing = true;
                ing.stats.pauses_sent += 1;
                pauses.push(PauseOut {
                    port: in_port,
                    pause: true,
                });
            }
        }
    }

    /// Start every transmission due by `now`; pauses and resumes go into
    /// `pauses`.
    pub fn serve(&mut self, now: u64, pauses: &mut Vec<PauseOut>) {
        for p in 0..self.ports.len() {
            if self.ports[p].paused {
                self.ports[p].stats.paused_cycles += 1;
                continue;
            }
            while self.ports[p].busy_until <= now as f64 && !self.ports[p].paused {
                let port = &mut self.ports[p];
                let Some((mut f, in_port)) = port.queue.pop_front() else {
                    break;
                };
                let len = f.len() as u64;
                port.queued -= len;
                self.queued -= len;
                let ts = (now as f64 * self.cfg.ns_per_cycle) as u64;
                let hop = HopFields::quantise(
                    port.cfg.rate_code,
                    ts,
                    port.stats.tx_bytes,
                    port.queued,
                    self.cfg.int_multi,
                )
                .encode();
                if stamp(&mut f, hop) {
                    port.stats.stamped += 1;
                }
                port.stats.tx_frames += 1;
                port.stats.tx_bytes += len;
                let start = port.busy_until.max(now as f64);
                port.busy_until =
                    start + wire_bytes(len as usize) as f64 / port.cfg.bytes_per_cycle;
                let at = port.busy_until.ceil() as u64 + port.cfg.delay;
                port.in_flight.push_back((at, f));
                if let Some(pfc) = self.cfg.pfc {
                    let ing = &mut self.ports[in_port];
                    ing.ingress_bytes -= len;
                    if ing.pausing && ing.ingress_bytes <= pfc.xon {
                        ing.pausing = false;
                        pauses.push(PauseOut {
                            port: in_port,
                            pause: false,
                        });
                    }
                }
            }
        }
    }

    /// The next frame out of port `p` that has arrived by `now`.
    pub fn pop_arrived(&mut self, p: usize, now: u64) -> Option<Vec<u8>> {
        let port = &mut self.ports[p];
        if port.in_flight.front()?.0 <= now {
            port.in_flight.pop_front().map(|f| f.1)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An IPv4/UDP frame to host `dst` of `len` bytes, ECN bits `ecn`.
    fn frame(dst: usize, len: usize, ecn: u8) -> Vec<u8> {
        let mut f = vec![0u8; len];
        f[12] = 0x08;
        f[14] = 0x45;
        f[15] = ecn;
        f[23] = 17;
        f[30..34].copy_from_slice(&crate::net::topo::host_ip(dst).to_be_bytes());
        f
    }

    fn sw(buffer: u64, pfc: Option<Pfc>, ecn: Option<Ecn>) -> Switch {
        let port = PortCfg {
            bytes_per_cycle: 4.0,
            delay: 10,
            rate_code: 1,
        };
        Switch::new(
            SwitchCfg {
                buffer,
                per_port: false,
                ecn,
                pfc,
                int_multi: 1,
                ns_per_cycle: 1.0,
            },
            vec![port; 3],
            vec![vec![0], vec![1], vec![2]],
            1,
        )
    }

    #[test]
    fn queues_serialises_and_drops_when_lossy() {
        let mut s = sw(1000, None, None);
        let mut pauses = Vec::new();
        for _ in 0..3 {
            s.receive(0, frame(2, 400, 0), &mut pauses);
        }
        assert_eq!(s.ports[2].stats.drops, 1, "the third frame does not fit");
        assert_eq!(s.ports[2].queued, 800);
        s.serve(0, &mut pauses);
        // 400 bytes, 424 on the wire, at 4 a cycle: the port is busy
        // 106 cycles.
        assert_eq!(s.ports[2].queued, 400);
        assert_eq!(s.pop_arrived(2, 115), None);
        assert_eq!(s.pop_arrived(2, 116).map(|f| f.len()), Some(400));
        s.serve(105, &mut pauses);
        assert_eq!(s.ports[2].queued, 400);
        s.serve(106, &mut pauses);
        assert_eq!(s.ports[2].queued, 0);
        assert_eq!(s.ports[2].stats.tx_bytes, 800);
        assert!(pauses.is_empty());
        s.receive(0, vec![1, 2, 3], &mut pauses);
        s.receive(0, frame(7, 100, 0), &mut pauses);
        assert_eq!(s.unroutable, 2);
    }

    #[test]
    fn pauses_at_xoff_resumes_at_xon() {
        let mut s = sw(
            10_000,
            Some(Pfc {
                xoff: 1000,
                xon: 500,
            }),
            None,
        );
        let mut pauses = Vec::new();
        for _ in 0..3 {
            s.receive(1, frame(2, 400, 0), &mut pauses);
        }
        assert_eq!(
            pauses,
            vec![PauseOut {
                port: 1,
                pause: true
            }]
        );
        pauses.clear();
        s.serve(0, &mut pauses);
        assert!(pauses.is_empty(), "800 buffered: above xon");
        // 424 bytes on the wire at 4 a cycle.
        s.serve(106, &mut pauses);
        assert_eq!(
            pauses,
            vec![PauseOut {
                port: 1,
                pause: false
            }]
        );
        s.ports[2].paused = true;
        s.serve(200, &mut pauses);
        assert_eq!(s.ports[2].queued, 400, "a paused port sends nothing");
    }

    #[test]
    fn red_marks_ect_only_and_keeps_the_checksum_valid() {
        let e = Ecn {
            kmin: 0,
            kmax: 1,
            pmax: 1.0,
        };
        let mut s = sw(100_000, None, Some(e));
        let mut pauses = Vec::new();
        s.receive(0, frame(2, 100, 2), &mut pauses);
        s.receive(0, frame(2, 100, 2), &mut pauses);
        s.receive(0, frame(2, 100, 0), &mut pauses);
        assert_eq!(
            s.ports[2].stats.ecn_marks, 1,
            "the first sees an empty queue; the third is not ECT"
        );
        s.serve(0, &mut pauses);
        s.serve(1000, &mut pauses);
        let _ = s.pop_arrived(2, 10_000).unwrap();
        let f = s.pop_arrived(2, 10_000).unwrap();
        assert_eq!(f[15] & 3, 3);
        let sum: u32 = f[14..34]
            .chunks(2)
            .map(|w| u16::from_be_bytes([w[0], w[1]]) as u32)
            .sum();
        assert_eq!(
            (sum & 0xFFFF) + (sum >> 16),
            0xFFFF,
            "header checksum verifies"
        );
    }
}
