//! Twin of `hdl/src/cc/dcqcn_np.rs`: the DCQCN notification point's
//! per-flow CNP limiter, cycle-exact at the ports.
//!
//! A CE mark (`s_ce`, strobe) for flow f in cycle t is decided in t + 4
//! from f's state (the cycle stamp of its last CNP, and whether it had
//! one): a CNP request if it had none or its last is `cfg_interval` cycles
//! old or more, else suppressed. A request waits in the one-slot output
//! (`m_cnp`, valid/ready) until the Tx takes it; a request decided while
//! the slot is full and not being taken is dropped (counted) and the flow's
//! state is not changed, so its next mark tries again. Out-of-range flows
//! are counted and touch nothing.

use crate::cc::{CeMark, CnpReq, NpStats};
use crate::Cycle;

/// Cycles from a CE mark to its CNP request at the ports.
pub const LATENCY: usize = 5;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    /// The interval per flow, cycles (24 bits; 0: a CNP for every mark).
    pub cfg_interval: u32,
    pub ce_valid: bool,
    pub ce: CeMark,
    pub cnp_ready: bool,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub cnp_valid: bool,
    pub cnp: CnpReq,
    pub stats: NpStats,
}

/// The limiter for 2^A flows.
#[derive(Clone, Debug)]
pub struct DcqcnNp<const A: usize> {
    /// (stamp of the last CNP, had one) per flow.
    pub flows: Vec<(u32, bool)>,
    /// Marks in S1, S2, S3 and S4: (flow, in range).
    s1: Option<(u16, bool)>,
    s2: Option<(u16, bool)>,
    s3: Option<(u16, bool)>,
    s4: Option<(u16, bool)>,
    now: u32,
    out: Option<u16>,
    cnt: NpStats,
}

impl<const A: usize> Default for DcqcnNp<A> {
    fn default() -> Self {
        Self {
            flows: vec![(0, false); 1 << A],
            s1: None,
            s2: None,
            s3: None,
            s4: None,
            now: 0,
            out: None,
            cnt: NpStats::default(),
        }
    }
}

impl<const A: usize> Cycle for DcqcnNp<A> {
    type In = In;
    type Out = Out;
    fn step(&mut self, i: &In) -> Out {
        let o = Out {
            cnp_valid: self.out.is_some(),
            cnp: CnpReq {
                flow: self.out.unwrap_or(0),
            },
            stats: self.cnt,
        };
        let taken = self.out.is_some() && i.cnp_ready;
        let slot_free = self.out.is_none() || taken;
        if taken {
            self.out = None;
        }
        // S4: decide.
        if let Some((f, ok)) = self.s4 {
            let c = &mut self.cnt;
            c.marks = c.marks.wrapping_add(1);
            if !ok {
                c.bad_flow = c.bad_flow.wrapping_add(1);
            } else {
                let (last, had) = self.flows[f as usize];
                let interval = i.cfg_interval & 0xff_ffff;
                if had && self.now.wrapping_sub(last) < interval {
                    c.suppressed = c.suppressed.wrapping_add(1);
                } else if !slot_free {
                    c.dropped_busy = c.dropped_busy.wrapping_add(1);
                } else {
                    c.cnps = c.cnps.wrapping_add(1);
                    self.flows[f as usize] = (self.now, true);
                    self.out = Some(f);
                }
            }
        }
        self.s4 = self.s3;
        self.s3 = self.s2;
        self.s2 = self.s1;
        self.s1 = i
            .ce_valid
            .then_some((i.ce.flow, (i.ce.flow as u32) >> A == 0));
        self.now = self.now.wrapping_add(1);
        o
    }
}
