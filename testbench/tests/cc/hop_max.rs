//! `hdl/src/cc/hop_max.rs` (pseudocode lines 6–7) against
//! `nic_golden::cc::hop_max`: every port every cycle on both engines
//! (through `HopMaxTb`, which names the array ports), ties included.

use crate::common::*;
use nic_golden::cc::hop_max::{hop_max, HopMax as Golden, In, LATENCY};
use nic_testbench::blocks::HopMaxTb;
use proptest::prelude::*;

/// A u′ from a small set (ties, zeros) or anywhere.
fn u() -> impl Strategy<Value = u32> {
    prop_oneof![
        2 => prop_oneof![Just(0u32), Just(1), Just(1 << 24), Just(u32::MAX)],
        3 => operand(32).prop_map(|x| x as u32),
    ]
}

fn terms() -> impl Strategy<Value = In> {
    (
        prop::collection::vec(u(), 5),
        prop::collection::vec(operand(24), 5),
        chance(80),
    )
        .prop_map(|(u, t, v)| In {
            in_valid: v,
            u_hop0: u[0],
            u_hop1: u[1],
            u_hop2: u[2],
            u_hop3: u[3],
            u_hop4: u[4],
            tau_hop0: t[0] as u32,
            tau_hop1: t[1] as u32,
            tau_hop2: t[2] as u32,
            tau_hop3: t[3] as u32,
            tau_hop4: t[4] as u32,
        })
}

proptest! {
    #![proptest_config(config(64))]
    /// Both engines, every port, every cycle.
    #[test]
    fn hop_max_matches_golden(s in prop::collection::vec(terms(), 1..100)) {
        both::<HopMaxTb, Golden>("cc_hop_max", &s)?;
    }
}

/// Line 6's strict `>`: the first of equal maxima wins, and its tau comes
/// out; no hop above 0 gives (0, 0).
#[test]
fn hop_max_first_maximum_wins() {
    let mk = |u: [u32; 5], t: [u32; 5]| In {
        in_valid: true,
        u_hop0: u[0],
        u_hop1: u[1],
        u_hop2: u[2],
        u_hop3: u[3],
        u_hop4: u[4],
        tau_hop0: t[0],
        tau_hop1: t[1],
        tau_hop2: t[2],
        tau_hop3: t[3],
        tau_hop4: t[4],
    };
    let t = [10, 20, 30, 40, 50];
    let cases = [
        ([0, 0, 0, 0, 0], (0, 0)),
        ([5, 5, 5, 5, 5], (5, 10)),
        ([1, 7, 3, 7, 2], (7, 20)),
        ([1, 2, 3, 4, 9], (9, 50)),
        ([0, 0, 0, 0, 1], (1, 50)),
        ([u32::MAX, 0, u32::MAX, 0, 0], (u32::MAX, 10)),
    ];
    let mut s: Vec<In> = cases.iter().map(|(u, _)| mk(*u, t)).collect();
    s.extend(std::iter::repeat(In::default()).take(LATENCY));
    let outs = both::<HopMaxTb, Golden>("cc_hop_max_ties", &s).unwrap();
    for (k, (u, want)) in cases.iter().enumerate() {
        let o = outs[k + LATENCY];
        assert_eq!((o.u, o.tau), *want, "{u:?}");
        assert_eq!(hop_max(&s[k].terms()), *want);
    }
    assert_eq!(LATENCY, nic_hdl::cc::hop_max::LATENCY);
}
