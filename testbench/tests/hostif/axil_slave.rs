//! `hdl/src/hostif/axil_slave.rs` against `nic_golden::hostif::axil_slave`:
//! random traffic on all five channels (write address and data in either
//! order or together, reads, back-pressure on B and R, answers at random
//! times, resets), every port every cycle on both engines; and, on the
//! twin in a closed loop with an AXI4-Lite master, every access answered
//! exactly once, in order, with its own answer.

use crate::common::*;
use nic_golden::hostif::axil_slave::{AxilSlave as Golden, In};
use nic_golden::hostif::{AxilIn, RegResp};
use nic_golden::Cycle;
use nic_hdl::hostif::axil_slave::AxilSlave;
use proptest::prelude::*;
use rand::{rngs::StdRng, Rng, SeedableRng};
use std::collections::VecDeque;

fn stimulus(seed: u64, n: usize) -> Vec<In> {
    let mut rng = StdRng::seed_from_u64(seed);
    let p = [
        rng.gen_range(0.1..0.9),
        rng.gen_range(0.1..0.9),
        rng.gen_range(0.1..0.9),
    ];
    (0..n)
        .map(|_| In {
            reset: rng.gen_bool(0.01),
            axil: AxilIn {
                awaddr: rng.gen(),
                awprot: rng.gen_range(0..8),
                awvalid: rng.gen_bool(p[0]),
                wdata: rng.gen(),
                wstrb: rng.gen_range(0..16),
                wvalid: rng.gen_bool(p[1]),
                bready: rng.gen_bool(p[2]),
                araddr: rng.gen(),
                arprot: rng.gen_range(0..8),
                arvalid: rng.gen_bool(p[0]),
                rready: rng.gen_bool(p[2]),
            },
            req_ready: rng.gen_bool(0.7),
            resp_valid: rng.gen_bool(0.3),
            resp: RegResp {
                rdata: rng.gen(),
                resp: rng.gen_range(0..4),
            },
        })
        .collect()
}

proptest! {
    #![proptest_config(config(16))]
    #[test]
    fn axil_slave_matches_golden(seed in any::<u64>(), n in 20usize..400) {
        both::<AxilSlave, Golden>("axil_slave", &stimulus(seed, n))?;
    }
}

/// A closed loop on the twin: a master that holds each channel until its
/// handshake (AW and W in random order and lag), a register client that
/// answers each access after a random delay with a value derived from
/// the access; every B and R must match, in order.
#[test]
fn every_access_is_answered_once_in_order() {
    for seed in 0..20u64 {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut dut = Golden::default();
        let mut i = In::default();
        // (is write, addr, data) still to issue, and the answers expected.
        let mut todo: VecDeque<(bool, u16, u32)> = (0..200)
            .map(|_| (rng.gen(), rng.gen(), rng.gen()))
            .collect();
        let mut aw: Option<(u16, u32)> = None;
        let mut w: Option<u32> = None;
        let mut ar: Option<u16> = None;
        let mut exp_b: VecDeque<u8> = VecDeque::new();
        let mut exp_r: VecDeque<(u32, u8)> = VecDeque::new();
        // The client: the access it is serving, and when it answers.
        let mut serving: Option<(u64, RegResp)> = None;
        let (mut n_b, mut n_r) = (0, 0);
        for cycle in 0..20_000u64 {
            // Master: start the next access when its channels are free.
            if let Some(&(wr, a, d)) = todo.front() {
                if wr && aw.is_none() && w.is_none() {
                    todo.pop_front();
                    aw = Some((a, d));
                    w = Some(d);
                } else if !wr && ar.is_none() {
                    todo.pop_front();
                    ar = Some(a);
                }
            }
            i.axil.awvalid = aw.is_some() && rng.gen_bool(0.6);
            i.axil.awaddr = aw.map_or(0, |x| x.0);
            i.axil.wvalid = w.is_some() && rng.gen_bool(0.6);
            i.axil.wdata = w.unwrap_or(0);
            i.axil.wstrb = 0xF;
            i.axil.arvalid = ar.is_some() && rng.gen_bool(0.6);
            i.axil.araddr = ar.unwrap_or(0);
            i.axil.bready = rng.gen_bool(0.5);
            i.axil.rready = rng.gen_bool(0.5);
            i.req_ready = serving.is_none() && rng.gen_bool(0.7);
            i.resp_valid = matches!(serving, Some((t, _)) if t <= cycle);
            i.resp = serving.map_or(RegResp::default(), |s| s.1);
            let o = dut.step(&i);
            if i.axil.awvalid && o.axil.awready {
                aw = None;
            }
            if i.axil.wvalid && o.axil.wready {
                w = None;
            }
            if i.axil.arvalid && o.axil.arready {
                ar = None;
            }
            if i.resp_valid {
                serving = None;
            }
            if o.req_valid && i.req_ready {
                let r = &o.req;
                let ans = RegResp {
                    rdata: (r.addr as u32) << 8 ^ r.wdata,
                    resp: (r.addr & 3) as u8,
                };
                if r.write {
                    exp_b.push_back(ans.resp);
                } else {
                    exp_r.push_back((ans.rdata, ans.resp));
                }
                serving = Some((cycle + rng.gen_range(1..6), ans));
            }
            if o.axil.bvalid && i.axil.bready {
                assert_eq!(
                    Some(o.axil.bresp),
                    exp_b.pop_front(),
                    "seed {seed} cycle {cycle}"
                );
                n_b += 1;
            }
            if o.axil.rvalid && i.axil.rready {
                assert_eq!(
                    Some((o.axil.rdata, o.axil.rresp)),
                    exp_r.pop_front(),
                    "seed {seed} cycle {cycle}"
                );
                n_r += 1;
            }
        }
        assert!(
            todo.is_empty() && exp_b.is_empty() && exp_r.is_empty(),
            "seed {seed}"
        );
        assert_eq!(n_b + n_r, 200, "seed {seed}");
    }
}
