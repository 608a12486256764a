//! `hdl/src/hostif/axil_split.rs` against `nic_golden::hostif::axil_split`.
//!
//! A closed loop on the twin records the stimulus: an AXI4-Lite master
//! that offers AW and W independently (either first, or together) and
//! reads, at any address, holding each valid until taken, with random
//! `bready`/`rready`; two slaves, each taking one write and one read at a
//! time with random readiness and latency, answering with a random
//! response code (and, for reads, data made from their name and the
//! address they saw). The loop checks that every access reaches exactly
//! the slave its address selects, with `HOST_MEM_BASE` subtracted for
//! the second, that every access is answered once, in order, with that
//! slave's answer; in one test the master, the slaves and the split are
//! reset together now and then. Replayed on both engines.

use crate::common::*;
use nic_golden::hostif::axil_split::{AxilSplit as Golden, In};
use nic_golden::hostif::{AxilIn, AxilOut};
use nic_golden::Cycle;
use nic_hdl::hostif::axil_split::AxilSplit;
use nic_spec::board::HOST_MEM_BASE;
use proptest::prelude::*;
use rand::{rngs::StdRng, Rng, SeedableRng};
use std::collections::VecDeque;

/// A slave: one write and one read at a time.
#[derive(Default)]
struct Slave {
    aw: Option<(u16, u8)>,
    w: Option<(u32, u8)>,
    /// (cycles to wait, resp) of the B due.
    b: Option<(u32, u8)>,
    ar: Option<u16>,
    r: Option<(u32, u32, u8)>,
    /// What it saw: (write, addr, wdata, wstrb).
    seen: Vec<(bool, u16, u32, u8)>,
    /// Answers it gave, in order: (write, rdata, resp).
    gave: VecDeque<(bool, u32, u8)>,
}

fn data_of(name: u32, addr: u16) -> u32 {
    name.wrapping_mul(0x9E37_79B9) ^ (addr as u32).wrapping_mul(0x85EB_CA6B)
}

impl Slave {
    /// This cycle's outputs (the split's `m_axil_x` inputs).
    fn out(&self, rng: &mut StdRng, p: f64) -> AxilOut {
        AxilOut {
            awready: self.aw.is_none() && self.b.is_none() && rng.gen_bool(p),
            wready: self.w.is_none() && self.b.is_none() && rng.gen_bool(p),
            bvalid: matches!(self.b, Some((0, _))),
            bresp: self.b.map_or(0, |b| b.1),
            arready: self.ar.is_none() && self.r.is_none() && rng.gen_bool(p),
            rvalid: matches!(self.r, Some((0, _, _))),
            rdata: self.r.map_or(0, |r| r.1),
            rresp: self.r.map_or(0, |r| r.2),
        }
    }
    fn step(&mut self, name: u32, rng: &mut StdRng, o: &AxilOut, i: &AxilIn) {
        if let Some((0, resp)) = self.b {
            if i.bready {
                self.b = None;
                self.gave.push_back((true, 0, resp));
            }
        } else if let Some((n, r)) = self.b {
            self.b = Some((n - 1, r));
        }
        if let Some((0, data, resp)) = self.r {
            if i.rready {
                self.r = None;
                self.gave.push_back((false, data, resp));
            }
        } else if let Some((n, d, r)) = self.r {
            self.r = Some((n - 1, d, r));
        }
        if i.awvalid && o.awready {
            self.aw = Some((i.awaddr, i.awprot));
        }
        if i.wvalid && o.wready {
            self.w = Some((i.wdata, i.wstrb));
        }
        if let (Some((a, _)), Some((d, st))) = (self.aw, self.w) {
            self.seen.push((true, a, d, st));
            self.aw = None;
            self.w = None;
            self.b = Some((rng.gen_range(0..4), rng.gen_range(0..4)));
        }
        if i.arvalid && o.arready {
            self.seen.push((false, i.araddr, 0, 0));
            self.r = Some((
                rng.gen_range(0..4),
                data_of(name, i.araddr),
                rng.gen_range(0..4),
            ));
        }
    }
}

fn closed_loop(seed: u64, n: usize, resets: bool) -> (Vec<In>, [usize; 2]) {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut dut = Golden::default();
    let (p_req, p_ready, p_slave) = (
        rng.gen_range(0.05..0.6),
        rng.gen_range(0.3..1.0),
        rng.gen_range(0.3..1.0),
    );
    let mut slaves = [Slave::default(), Slave::default()];
    // The master: AW and W offered (each held until taken), AR offered.
    let mut aw: Option<(u16, u8)> = None;
    let mut w: Option<(u32, u8)> = None;
    let mut ar: Option<(u16, u8)> = None;
    // Accesses issued, in order per direction: (slave, its address, data, strobes).
    let mut writes: VecDeque<(usize, u16, u32, u8)> = VecDeque::new();
    let mut reads: VecDeque<(usize, u16)> = VecDeque::new();
    let mut done = [0usize; 2];
    let mut rec = Vec::with_capacity(n + 200);
    let route = |addr: u16| {
        if addr >= HOST_MEM_BASE {
            (1, addr - HOST_MEM_BASE)
        } else {
            (0, addr)
        }
    };
    let any_addr = |rng: &mut StdRng| match rng.gen_range(0..4) {
        0 => HOST_MEM_BASE
            .wrapping_add(rng.gen_range(0..4))
            .wrapping_sub(2),
        1 => rng.gen(),
        2 => rng.gen_range(HOST_MEM_BASE..=0xFFFF),
        _ => rng.gen_range(0..HOST_MEM_BASE),
    };
    for cycle in 0..(n as u64 + 200) {
        let drain = cycle >= n as u64;
        if drain
            && aw.is_none()
            && w.is_none()
            && ar.is_none()
            && writes.is_empty()
            && reads.is_empty()
        {
            break;
        }
        let reset = resets && !drain && rng.gen_bool(0.01);
        // A new write: its AW and W become valid in either order.
        if !drain && aw.is_none() && w.is_none() && rng.gen_bool(p_req) {
            let (a, d, st) = (any_addr(&mut rng), rng.gen(), rng.gen_range(0..16));
            aw = Some((a, rng.gen_range(0..8)));
            w = Some((d, st));
            let (k, local) = route(a);
            writes.push_back((k, local, d, st));
            // Sometimes one of them a few cycles late: held back below.
        }
        if !drain && ar.is_none() && rng.gen_bool(p_req) {
            let a = any_addr(&mut rng);
            ar = Some((a, rng.gen_range(0..8)));
            reads.push_back(route(a));
        }
        let hold_aw = rng.gen_bool(0.2);
        let hold_w = rng.gen_bool(0.2);
        let s_in = AxilIn {
            awaddr: aw.map_or(0, |x| x.0),
            awprot: aw.map_or(0, |x| x.1),
            awvalid: aw.is_some() && !hold_aw,
            wdata: w.map_or(0, |x| x.0),
            wstrb: w.map_or(0, |x| x.1),
            wvalid: w.is_some() && !hold_w,
            bready: rng.gen_bool(p_ready),
            araddr: ar.map_or(0, |x| x.0),
            arprot: ar.map_or(0, |x| x.1),
            arvalid: ar.is_some(),
            rready: rng.gen_bool(p_ready),
        };
        // A valid, once raised, stays until taken (the AXI rule): hold
        // back only a channel that was not valid last cycle.
        let last = rec.last().map(|i: &In| i.s).unwrap_or_default();
        let s_in = AxilIn {
            awvalid: s_in.awvalid || (last.awvalid && aw.is_some()),
            wvalid: s_in.wvalid || (last.wvalid && w.is_some()),
            ..s_in
        };
        let i = In {
            reset,
            s: s_in,
            a: slaves[0].out(&mut rng, p_slave),
            b: slaves[1].out(&mut rng, p_slave),
        };
        rec.push(i);
        let o = dut.step(&i);
        if reset {
            // Everyone is reset together.
            slaves = [Slave::default(), Slave::default()];
            aw = None;
            w = None;
            ar = None;
            writes.clear();
            reads.clear();
            continue;
        }
        // The slaves see only their own accesses, in their own addresses.
        for (k, s) in slaves.iter_mut().enumerate() {
            let (so, si) = if k == 0 { (&i.a, &o.a) } else { (&i.b, &o.b) };
            s.step(k as u32, &mut rng, so, si);
        }
        if s_in.awvalid && o.s.awready {
            aw = None;
        }
        if s_in.wvalid && o.s.wready {
            w = None;
        }
        if s_in.arvalid && o.s.arready {
            ar = None;
        }
        if o.s.bvalid && s_in.bready {
            let (k, local, d, st) = writes.pop_front().expect("a B with no write");
            let seen = slaves[k]
                .seen
                .iter()
                .position(|x| x.0)
                .expect("the slave saw it");
            assert_eq!(
                slaves[k].seen.remove(seen),
                (true, local, d, st),
                "seed {seed} cycle {cycle}: write at slave {k}"
            );
            let g = slaves[k]
                .gave
                .iter()
                .position(|x| x.0)
                .expect("the slave answered");
            let (_, _, resp) = slaves[k].gave.remove(g).unwrap();
            assert_eq!(o.s.bresp, resp, "seed {seed} cycle {cycle}: bresp");
            done[0] += 1;
        }
        if o.s.rvalid && s_in.rready {
            let (k, local) = reads.pop_front().expect("an R with no read");
            let seen = slaves[k]
                .seen
                .iter()
                .position(|x| !x.0)
                .expect("the slave saw it");
            assert_eq!(
                slaves[k].seen.remove(seen),
                (false, local, 0, 0),
                "seed {seed} cycle {cycle}: read at slave {k}"
            );
            let g = slaves[k]
                .gave
                .iter()
                .position(|x| !x.0)
                .expect("the slave answered");
            let (_, data, resp) = slaves[k].gave.remove(g).unwrap();
            assert_eq!(
                (o.s.rdata, o.s.rresp, data),
                (data_of(k as u32, local), resp, data_of(k as u32, local)),
                "seed {seed} cycle {cycle}: R"
            );
            done[1] += 1;
        }
    }
    if !resets {
        assert!(
            writes.is_empty() && reads.is_empty(),
            "seed {seed}: not drained"
        );
        for s in &slaves {
            assert!(
                s.seen.is_empty() && s.gave.is_empty(),
                "seed {seed}: an access no one asked for"
            );
        }
    }
    (rec, done)
}

proptest! {
    #![proptest_config(config(8))]
    #[test]
    fn axil_split_matches_golden(seed in any::<u64>()) {
        let (s, done) = closed_loop(seed, 2000, false);
        prop_assert!(done[0] > 20 && done[1] > 20, "{done:?}");
        both::<AxilSplit, Golden>("axil_split", &s)?;
    }

    #[test]
    fn axil_split_with_resets_matches_golden(seed in any::<u64>()) {
        let (s, _) = closed_loop(seed, 2000, true);
        both::<AxilSplit, Golden>("axil_split_reset", &s)?;
    }
}

/// Both slaves are reached, and the boundary goes the right way.
#[test]
fn axil_split_routes_by_host_mem_base() {
    let mut dut = Golden::default();
    let mut seen = Vec::new();
    for (addr, want) in [
        (HOST_MEM_BASE - 4, (0, HOST_MEM_BASE - 4)),
        (HOST_MEM_BASE, (1, 0)),
        (0xFFFC, (1, 0xFFFC - HOST_MEM_BASE)),
    ] {
        for t in 0..3 {
            let o = dut.step(&In {
                s: AxilIn {
                    araddr: addr,
                    arvalid: t == 0,
                    ..Default::default()
                },
                ..Default::default()
            });
            if o.a.arvalid {
                seen.push((0, o.a.araddr));
            }
            if o.b.arvalid {
                seen.push((1, o.b.araddr));
            }
        }
        assert_eq!(seen.pop(), Some(want), "{addr:#x}");
        dut = Golden::default();
    }
}

#[test]
fn axil_split_no_x_in_four_state_simulation() {
    let (s, _) = closed_loop(3, 1000, true);
    four_state::<AxilSplit, Golden>("axil_split_4state", &s);
}
