//! `hdl/src/nic/read_queue.rs` against `nic_golden::nic::read_queue`.

use crate::common::*;
use nic_golden::nic::read_queue::{In, ReadQueue as Golden};
use nic_golden::roce::ReadReq;
use nic_hdl::nic::read_queue::ReadQueue;
use proptest::prelude::*;
use rand::{rngs::StdRng, Rng, SeedableRng};

fn random_read_req(rng: &mut StdRng) -> ReadReq {
    ReadReq {
        flow: rng.gen_range(0..40),
        psn: rng.gen(),
        va: rng.gen(),
        rkey: rng.gen(),
        len: rng.gen(),
        msn: rng.gen(),
    }
}

/// The record as the queue's ports carry it (4 flow bits, 24-bit PSN and
/// MSN).
fn masked(r: &ReadReq) -> ReadReq {
    ReadReq {
        flow: r.flow & 15,
        psn: r.psn & 0xFF_FFFF,
        msn: r.msn & 0xFF_FFFF,
        ..*r
    }
}

proptest! {
    #![proptest_config(config(8))]
    /// Random requests in and a responder that takes them often or
    /// rarely: the queue fills, holds the dispatcher back, and empties;
    /// every field of every request comes out as it went in, in order.
    #[test]
    fn read_queue_matches_golden(
        seed in any::<u64>(), n in 10usize..300, p_in in 0.05f64..1.0, p_out in 0.05f64..1.0,
    ) {
        let mut rng = StdRng::seed_from_u64(seed);
        let s: Vec<In> = (0..n)
            .map(|_| In {
                rdreq_valid: rng.gen_bool(p_in),
                rdreq: random_read_req(&mut rng),
                out_ready: rng.gen_bool(p_out),
            })
            .collect();
        let out = both::<ReadQueue<4, 2>, Golden<4, 2>>("read_queue", &s)?;
        let taken: Vec<ReadReq> = s.iter().zip(&out).filter(|(i, o)| i.rdreq_valid && o.rdreq_ready)
            .map(|(i, _)| masked(&i.rdreq))
            .collect();
        let given: Vec<ReadReq> = s.iter().zip(&out).filter(|(i, o)| o.out_valid && i.out_ready)
            .map(|(_, o)| o.out).collect();
        prop_assert_eq!(&taken[..given.len()], &given[..]);
    }
}

/// Ready until 2^L requests are held, and again once one is taken.
#[test]
fn ready_until_four_requests_are_held() {
    let mut rng = StdRng::seed_from_u64(1);
    let mut s: Vec<In> = (0..6)
        .map(|_| In {
            rdreq_valid: true,
            rdreq: random_read_req(&mut rng),
            out_ready: false,
        })
        .collect();
    s.push(In {
        out_ready: true,
        ..Default::default()
    });
    s.push(In::default());
    let out = both::<ReadQueue<4, 2>, Golden<4, 2>>("read_queue_full", &s).unwrap();
    let ready: Vec<bool> = out.iter().map(|o| o.rdreq_ready).collect();
    assert_eq!(ready, [true, true, true, true, false, false, false, true]);
}
