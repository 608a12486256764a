//! Twin of `hdl/src/cc/hop_max.rs`: the maximum over the hops and its
//! tau, **pseudocode lines 6–7** (with line 2's start u = 0).
//!
//! ```text
//! 2:  u = 0;
//! 6:  if u' > u then
//! 7:      u = u'; tau = ack.L[i].ts − L[i].ts;
//! ```
//!
//! Line 6's strict `>` makes the first hop win a tie; if no hop has
//! u′ > 0, u = 0 and tau = 0.

use super::hpcc::HOPS;
use crate::{Cycle, Pipe};

/// Lines 2, 6–7 over the hops' (u′, tau) in path order: (u, tau).
pub fn hop_max(terms: &[(u32, u32)]) -> (u32, u32) {
    let (mut u, mut tau) = (0u32, 0u32);
    for &(up, t) in terms {
        if up > u {
            u = up;
            tau = t;
        }
    }
    (u, tau)
}

/// Ports, one cycle: the five hops' u′ (UQ8.24) and tau (24 bits).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    pub in_valid: bool,
    pub u_hop0: u32,
    pub u_hop1: u32,
    pub u_hop2: u32,
    pub u_hop3: u32,
    pub u_hop4: u32,
    pub tau_hop0: u32,
    pub tau_hop1: u32,
    pub tau_hop2: u32,
    pub tau_hop3: u32,
    pub tau_hop4: u32,
}

impl In {
    pub fn terms(&self) -> [(u32, u32); HOPS] {
        let m = 0xFF_FFFF;
        [
            (self.u_hop0, self.tau_hop0 & m),
            (self.u_hop1, self.tau_hop1 & m),
            (self.u_hop2, self.tau_hop2 & m),
            (self.u_hop3, self.tau_hop3 & m),
            (self.u_hop4, self.tau_hop4 & m),
        ]
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub u: u32,
    pub tau: u32,
    pub out_valid: bool,
}

/// Cycles from the hops' terms to (u, tau).
pub const LATENCY: usize = 3;

pub struct HopMax {
    pipe: Pipe<Out>,
}

impl Default for HopMax {
    fn default() -> Self {
        Self {
            pipe: Pipe::new(LATENCY),
        }
    }
}

impl Cycle for HopMax {
    type In = In;
    type Out = Out;
    fn step(&mut self, i: &In) -> Out {
        let (u, tau) = hop_max(&i.terms());
        self.pipe.shift(Out {
            u,
            tau,
            out_valid: i.in_valid,
        })
    }
}
