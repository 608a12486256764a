//! `hdl/src/hostif/csr_decode.rs` (the register decoder's address
//! decode) against `nic_golden::hostif::csr_decode`: accesses over the
//! whole map (the register decoder's test's addresses), with partial,
//! empty and misaligned strobes, loaded or not; every port every cycle
//! on both engines, and at most one answer per access.

use super::csr::map_addr;
use crate::common::*;
use nic_golden::hostif::csr_decode::{CsrDecode as Golden, In, Out};
use nic_hdl::hostif::csr_decode::CsrDecode;
use proptest::prelude::*;
use rand::{rngs::StdRng, Rng, SeedableRng};

const A: usize = 3;
const C: usize = 2;

fn stim(seed: u64, n: usize) -> Vec<In> {
    let mut rng = StdRng::seed_from_u64(seed);
    (0..n)
        .map(|_| In {
            load: rng.gen_bool(0.7),
            addr: map_addr(&mut rng),
            write: rng.gen_bool(0.5),
            strb: match rng.gen_range(0..4) {
                0 => 0,
                1 => rng.gen_range(0..16),
                _ => 0xF,
            },
        })
        .collect()
}

/// The sources and refusals an answer can come from.
fn answers(o: &Out) -> usize {
    [
        o.a_id,
        o.a_version,
        o.a_caps,
        o.a_stats,
        o.a_scratch,
        o.a_control,
        o.a_base_lo,
        o.a_base_hi,
        o.a_log,
        o.a_flow_cq,
        o.g_core,
        o.g_cq,
        o.g_db,
        o.c_slverr,
        o.c_decerr,
    ]
    .iter()
    .filter(|&&f| f)
    .count()
}

proptest! {
    #![proptest_config(config(32))]
    /// Both engines, every port, every cycle; each access decodes to at
    /// most one source or refusal (none: a write with no strobe to a
    /// register the decoder holds, which changes nothing).
    #[test]
    fn csr_decode_matches_golden(seed in any::<u64>()) {
        let s = stim(seed, 120);
        let out = both::<CsrDecode<A, C>, Golden<A, C>>("hostif_csr_decode", &s)?;
        for (k, o) in out.iter().enumerate() {
            prop_assert!(answers(o) <= 1, "cycle {}: {:?}", k, o);
        }
    }
}
