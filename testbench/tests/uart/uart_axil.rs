//! `hdl/src/uart/uart_axil.rs` (the UART register bridge, with its
//! receiver, transmitter and CRC-8 step) against its twin
//! (`nic_golden::uart::uart_axil`), both engines, every port every cycle.
//!
//! The host is the line model here (`super::char_levels`,
//! `super::decode_line`) with requests built from `nic_spec::uart` and
//! the `crc` crate's CRC-8; the AXI4-Lite slave is a register file with
//! random ready and answer delays, written here. Each run sends a random
//! mix of requests and faults (one request at a time) and asserts:
//! - every response decoded from `uart_tx` (strict bit times) is the one
//!   the request asks for: READ returns the value last written (or the
//!   slave's SLVERR/DECERR), WRITE answers OKAY and the slave holds the
//!   value, STATS returns the counter as it stood (page 0) or the
//!   board's counter from the `ext_stat_*` port (a board model here:
//!   the pages and counter counts of `nic_spec::board::STATS_PAGES`, a
//!   value made from the index, answered a cycle after the index), a
//!   wrong CRC answers `BAD_CRC` and accesses nothing;
//! - unknown commands, truncated requests, framing errors, stray bytes
//!   and bytes sent during a response get no response and are counted in
//!   exactly their counter (`m_stats` at the end equals the plan's);
//! - the slave saw exactly the accesses of the good requests.
//!
//! - `uart_axil_matches_golden` (proptest);
//! - `uart_axil_resets_and_noise`: line noise, random resets and random
//!   AXI4-Lite answers, twin against RTL only;
//! - a four-state run.

use super::{char_levels, decode_line, Char};
use crate::common::*;
use nic_golden::hostif::{AxilIn, AxilOut};
use nic_golden::uart::crc8::crc8;
use nic_golden::uart::uart_axil::{In, Out, UartAxil as Golden};
use nic_golden::uart::UartBridgeStats;
use nic_golden::Cycle;
use nic_hdl::uart::UartAxil;
use nic_spec::board::STATS_PAGES;
use nic_spec::uart::{cmd, status, RESP_LEN, STATS_NAMES, SYNC};
use proptest::prelude::*;
use rand::{rngs::StdRng, Rng, SeedableRng};
use std::collections::BTreeMap;

/// What the slave answers for an address (a rule the test owns).
fn slave_resp(addr: u16) -> u8 {
    if addr & 3 != 0 {
        status::SLVERR
    } else if addr >= 0xF000 {
        status::DECERR
    } else {
        status::OKAY
    }
}

/// The board model behind `ext_stat_*`: (hit, value) for a `STATS`
/// address past page 0.
fn board_stat(index: u16) -> (bool, u32) {
    let page = (index >> 8) as usize;
    let k = (index & 0xFF) as usize;
    let hit = page >= 1
        && page < STATS_PAGES.len()
        && k < nic_spec::board::stats_fields(&STATS_PAGES[page]).len();
    (hit, (index as u32).wrapping_mul(0x9E37_79B1) ^ 0xB0A2_D000)
}

/// An AXI4-Lite register file with random ready and answer delays.
#[derive(Default)]
struct Slave {
    mem: BTreeMap<u16, u32>,
    aw: Option<u16>,
    w: Option<u32>,
    b: Option<(u8, u32)>,
    r: Option<(u32, u8, u32)>,
    /// (write?, address, value) of every access, in order.
    log: Vec<(bool, u16, u32)>,
}

impl Slave {
    fn drive(&self, rng: &mut StdRng, p: f64) -> AxilOut {
        AxilOut {
            awready: self.aw.is_none() && rng.gen_bool(p),
            wready: self.w.is_none() && rng.gen_bool(p),
            bresp: self.b.map_or(0, |b| b.0),
            bvalid: matches!(self.b, Some((_, 0))),
            arready: self.r.is_none() && rng.gen_bool(p),
            rdata: self.r.map_or(0, |r| r.0),
            rresp: self.r.map_or(0, |r| r.1),
            rvalid: matches!(self.r, Some((_, _, 0))),
        }
    }

    fn clock(&mut self, rng: &mut StdRng, i: &AxilOut, o: &AxilIn) {
        if let Some(b) = &mut self.b {
            if b.1 > 0 {
                b.1 -= 1;
            } else if o.bready {
                self.b = None;
            }
        }
        if let Some(r) = &mut self.r {
            if r.2 > 0 {
                r.2 -= 1;
            } else if o.rready {
                self.r = None;
            }
        }
        if o.awvalid && i.awready {
            self.aw = Some(o.awaddr);
        }
        if o.wvalid && i.wready {
            assert_eq!(o.wstrb, 0xF);
            self.w = Some(o.wdata);
        }
        if o.arvalid && i.arready {
            let resp = slave_resp(o.araddr);
            let v = if resp == status::OKAY {
                self.mem.get(&o.araddr).copied().unwrap_or(0)
            } else {
                0
            };
            self.log.push((false, o.araddr, 0));
            self.r = Some((v, resp, rng.gen_range(0..5)));
        }
        if let (Some(a), Some(d), None) = (self.aw, self.w, self.b) {
            let resp = slave_resp(a);
            if resp == status::OKAY {
                self.mem.insert(a, d);
            }
            self.log.push((true, a, d));
            self.b = Some((resp, rng.gen_range(0..5)));
            self.aw = None;
            self.w = None;
        }
    }
}

/// One slot of the plan.
#[derive(Clone, Debug)]
enum Slot {
    Read(u16),
    Write(u16, u32),
    Stats(u16),
    /// A READ or WRITE with one bit flipped after the command byte.
    BadCrc(bool, u16, u32, usize, u8),
    BadCmd(u8),
    /// The first k bytes of a WRITE.
    Truncated(usize),
    /// A WRITE whose k-th byte has a stop bit of 0 (the request ends there).
    Framing(usize),
    Stray(u8),
    /// A READ and a byte sent while it is answered.
    Overrun(u16, u8),
}

fn request(c: u8, addr: u16, data: Option<u32>) -> Vec<u8> {
    let mut v = vec![c, (addr >> 8) as u8, addr as u8];
    if let Some(d) = data {
        v.extend_from_slice(&d.to_be_bytes());
    }
    v.push(crc8(&v));
    v.insert(0, SYNC);
    v
}

fn slot(rng: &mut StdRng) -> Slot {
    let addr = |rng: &mut StdRng| -> u16 {
        match rng.gen_range(0..10) {
            0 => rng.gen_range(0xF000..=0xFFFF) & !3,
            1 => rng.gen::<u16>() | 1,
            _ => rng.gen_range(0..8u16) * 4,
        }
    };
    match rng.gen_range(0..20) {
        0..=4 => Slot::Read(addr(rng)),
        5..=9 => Slot::Write(addr(rng), rng.gen()),
        10 => Slot::Stats(rng.gen_range(0..9)),
        11 => Slot::Stats((rng.gen_range(0..9u16) << 8) | rng.gen_range(0..12u16)),
        12 => Slot::BadCrc(
            rng.gen(),
            addr(rng),
            rng.gen(),
            rng.gen(),
            rng.gen_range(0..8),
        ),
        13 => Slot::BadCmd(loop {
            let c: u8 = rng.gen();
            if nic_spec::uart::request_len(c).is_none() {
                break c;
            }
        }),
        14 => Slot::Truncated(rng.gen_range(1..9)),
        15 => Slot::Framing(rng.gen_range(0..9)),
        16 => Slot::Stray(loop {
            let b: u8 = rng.gen();
            if b != SYNC {
                break b;
            }
        }),
        _ => Slot::Overrun(addr(rng), rng.gen()),
    }
}

/// The plan's line, its expected responses and counters.
struct Plan {
    line: Vec<bool>,
    resp: Vec<(u8, u32)>,
    stats: UartBridgeStats,
    /// The good accesses the slave must see: (write?, address, value).
    accesses: Vec<(bool, u16, u32)>,
    cfg_timeout: u32,
}

fn plan(seed: u64, nslots: usize, n: usize) -> Plan {
    plan_with(seed, nslots, n, &[])
}

/// A plan whose first slots are `forced`, the rest random.
fn plan_with(seed: u64, nslots: usize, n: usize, forced: &[Slot]) -> Plan {
    let mut rng = StdRng::seed_from_u64(seed);
    let timeout = (12 * n + rng.gen_range(0..2 * n)) as u32;
    let mut line = vec![true; 4];
    let mut resp = Vec::new();
    let mut st = UartBridgeStats::default();
    let mut mem: BTreeMap<u16, u32> = BTreeMap::new();
    let mut accesses = Vec::new();
    let send = |line: &mut Vec<bool>, rng: &mut StdRng, bytes: &[u8]| {
        for &b in bytes {
            line.extend(char_levels(b, n, true));
            line.extend(std::iter::repeat_n(true, rng.gen_range(0..=n)));
        }
    };
    for j in 0..nslots {
        let s = match forced.get(j) {
            Some(f) => f.clone(),
            None => slot(&mut rng),
        };
        match s {
            Slot::Read(a) | Slot::Overrun(a, _) => {
                send(&mut line, &mut rng, &request(cmd::READ, a, None));
                let r = slave_resp(a);
                let v = if r == status::OKAY {
                    mem.get(&a).copied().unwrap_or(0)
                } else {
                    0
                };
                resp.push((r, v));
                accesses.push((false, a, 0));
                if let Slot::Overrun(_, b) = s {
                    // Two characters into the 7-character response.
                    line.extend(std::iter::repeat_n(true, 20 * n));
                    send(&mut line, &mut rng, &[b]);
                    st.overrun += 1;
                }
                st.requests += 1;
            }
            Slot::Write(a, d) => {
                send(&mut line, &mut rng, &request(cmd::WRITE, a, Some(d)));
                let r = slave_resp(a);
                if r == status::OKAY {
                    mem.insert(a, d);
                }
                resp.push((r, 0));
                accesses.push((true, a, d));
                st.requests += 1;
            }
            Slot::Stats(k) => {
                send(&mut line, &mut rng, &request(cmd::STATS, k, None));
                let v = [
                    st.requests,
                    st.bad_crc,
                    st.bad_cmd,
                    st.truncated,
                    st.framing,
                    st.stray,
                    st.overrun,
                ];
                let (hit, x) = if k >= 0x100 {
                    board_stat(k)
                } else {
                    ((k as usize) < STATS_NAMES.len(), v[(k as usize).min(6)])
                };
                resp.push(if hit {
                    (status::OKAY, x)
                } else {
                    (status::DECERR, 0)
                });
                st.requests += 1;
            }
            Slot::BadCrc(wr, a, d, pos, bit) => {
                let mut r = if wr {
                    request(cmd::WRITE, a, Some(d))
                } else {
                    request(cmd::READ, a, None)
                };
                // Bytes after the command byte: the address, value, CRC.
                let k = 2 + pos % (r.len() - 2);
                r[k] ^= 1 << bit;
                send(&mut line, &mut rng, &r);
                resp.push((status::BAD_CRC, 0));
                st.bad_crc += 1;
            }
            Slot::BadCmd(c) => {
                let mut r = request(cmd::WRITE, 0, Some(0));
                r[1] = c;
                send(&mut line, &mut rng, &r);
                st.bad_cmd += 1;
            }
            Slot::Truncated(k) => {
                let r = request(cmd::WRITE, 4, Some(rng.gen()));
                send(&mut line, &mut rng, &r[..k]);
                st.truncated += 1;
            }
            Slot::Framing(k) => {
                let r = request(cmd::WRITE, 4, Some(rng.gen()));
                send(&mut line, &mut rng, &r[..k]);
                line.extend(char_levels(r[k], n, false));
                st.framing += 1;
            }
            Slot::Stray(b) => {
                send(&mut line, &mut rng, &[b]);
                st.stray += 1;
            }
        }
        // The response (7 characters), the access, and the idle timeout.
        let gap = 10 * n * RESP_LEN + timeout as usize + 40;
        line.extend(std::iter::repeat_n(true, gap));
    }
    Plan {
        line,
        resp,
        stats: st,
        accesses,
        cfg_timeout: timeout,
    }
}

/// Run the plan on the twin with the slave in the loop: the stimulus.
fn stim(p: &Plan, seed: u64, n: u16, pready: f64) -> (Vec<In>, Slave) {
    let mut rng = StdRng::seed_from_u64(seed ^ 0x5A5A);
    let mut g = Golden::default();
    let mut slave = Slave::default();
    let mut s = Vec::with_capacity(p.line.len());
    let mut index = 0u16;
    for &rx in &p.line {
        let (hit, data) = board_stat(index);
        let i = In {
            reset: false,
            uart_rx: rx,
            cfg_clks_per_bit: n,
            cfg_timeout: p.cfg_timeout,
            axil: slave.drive(&mut rng, pready),
            ext_stat_data: data,
            ext_stat_hit: hit,
        };
        let o = g.step(&i);
        index = o.ext_stat_index;
        slave.clock(&mut rng, &i.axil, &o.axil);
        s.push(i);
    }
    (s, slave)
}

/// The responses on `uart_tx`, each checked for its SYNC, length and CRC.
fn responses(o: &[Out], n: usize) -> Vec<(u8, u32)> {
    let line: Vec<bool> = std::iter::once(true)
        .chain(o.iter().map(|x| x.uart_tx))
        .collect();
    let chars = decode_line(&line, n, true);
    let bytes: Vec<u8> = chars
        .iter()
        .map(|c| match c {
            Char::Byte(b) => *b,
            Char::FramingError => panic!("a framing error on uart_tx"),
        })
        .collect();
    assert_eq!(bytes.len() % RESP_LEN, 0, "whole responses: {bytes:02x?}");
    bytes
        .chunks(RESP_LEN)
        .map(|r| {
            assert_eq!(r[0], SYNC);
            assert_eq!(crc8(&r[1..]), 0, "the response's CRC-8: {r:02x?}");
            (r[1], u32::from_be_bytes([r[2], r[3], r[4], r[5]]))
        })
        .collect()
}

proptest! {
    #![proptest_config(config(12))]
    #[test]
    fn uart_axil_matches_golden(seed in any::<u64>(), nslots in 1usize..14, n in 2u16..=6, pready in 0.2f64..1.0) {
        let p = plan(seed, nslots, n as usize);
        let (s, slave) = stim(&p, seed, n, pready);
        let o = both::<UartAxil, Golden>("uart_axil", &s)?;
        prop_assert_eq!(responses(&o, n as usize), p.resp.clone());
        prop_assert_eq!(o.last().unwrap().stats, p.stats);
        prop_assert_eq!(&slave.log, &p.accesses);
    }
}

/// Every kind of slot at least once, at a realistic ratio of clock to
/// bit time (50 MHz / 1 Mbaud = 50 cycles a bit), on both engines.
#[test]
fn uart_axil_every_fault_at_50_cycles_a_bit() {
    let mut found = None;
    for seed in 0..200u64 {
        let p = plan(seed, 24, 50);
        let s = &p.stats;
        if s.bad_crc > 0
            && s.bad_cmd > 0
            && s.truncated > 0
            && s.framing > 0
            && s.stray > 0
            && s.overrun > 0
        {
            found = Some((seed, p));
            break;
        }
    }
    let (seed, p) = found.expect("a seed with every fault");
    let (s, slave) = stim(&p, seed, 50, 0.5);
    let o = both::<UartAxil, Golden>("uart_axil_50", &s).unwrap();
    assert_eq!(responses(&o, 50), p.resp);
    assert_eq!(o.last().unwrap().stats, p.stats);
    assert_eq!(slave.log, p.accesses);
}

/// Every board page's first and last counter, one past the last, a
/// page past the last, and page 0's last and first-past-last, at the
/// board's bit time (42 cycles): the page decode and the DECERRs.
#[test]
fn uart_axil_reads_board_pages() {
    let mut slots = vec![Slot::Stats(6), Slot::Stats(7), Slot::Stats(0xFF)];
    for (p, page) in STATS_PAGES.iter().enumerate().skip(1) {
        let n = nic_spec::board::stats_fields(page).len() as u16;
        let base = (p as u16) << 8;
        slots.extend([
            Slot::Stats(base),
            Slot::Stats(base + n - 1),
            Slot::Stats(base + n),
        ]);
    }
    slots.push(Slot::Stats((STATS_PAGES.len() as u16) << 8));
    slots.push(Slot::Stats(0xFFFF));
    let p = plan_with(5, slots.len(), 42, &slots);
    let oks = p.resp.iter().filter(|r| r.0 == status::OKAY).count();
    assert_eq!(oks, 1 + 2 * (STATS_PAGES.len() - 1));
    let (s, _) = stim(&p, 5, 42, 0.5);
    let o = both::<UartAxil, Golden>("uart_axil_pages", &s).unwrap();
    assert_eq!(responses(&o, 42), p.resp);
}

/// Line noise, random resets, random AXI4-Lite answers: the RTL and
/// the twin agree on every cycle.
#[test]
fn uart_axil_resets_and_noise() {
    let mut rng = StdRng::seed_from_u64(11);
    let p = plan(11, 10, 3);
    let mut s = Vec::new();
    for (k, &rx) in p.line.iter().enumerate() {
        s.push(In {
            reset: rng.gen_bool(0.002),
            uart_rx: if rng.gen_bool(0.01) { !rx } else { rx },
            cfg_clks_per_bit: 3,
            cfg_timeout: if k % 2000 < 1000 {
                p.cfg_timeout
            } else {
                rng.gen_range(0..64)
            },
            axil: AxilOut {
                awready: rng.gen(),
                wready: rng.gen(),
                bresp: rng.gen_range(0..4),
                bvalid: rng.gen(),
                arready: rng.gen(),
                rdata: rng.gen(),
                rresp: rng.gen_range(0..4),
                rvalid: rng.gen(),
            },
            ext_stat_data: rng.gen(),
            ext_stat_hit: rng.gen(),
        });
    }
    both::<UartAxil, Golden>("uart_axil_noise", &s).unwrap();
}

#[test]
fn uart_axil_no_x_in_four_state_simulation() {
    let p = plan(3, 4, 3);
    four_state::<UartAxil, Golden>("uart_axil_x", &stim(&p, 3, 3, 0.7).0);
}
