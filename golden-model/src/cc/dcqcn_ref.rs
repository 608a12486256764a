//! The DCQCN reaction point in f64: the algorithm of `dcqcn` (the
//! twin of `hdl/src/cc/dcqcn.rs`) with real numbers and the physical
//! parameters ([`DcqcnParams`], not their quantised registers), for
//! measuring the fixed point's error.
//!
//! It is driven by the operations the cycle twin applied
//! ([`Applied`]: the op, its flow and the timer epochs at its issue), so
//! both see the same events at the same epochs, and the difference is the
//! arithmetic. One decision is taken from the twin: recovery (Rc back at
//! line rate), which in f64 is only approached, never reached, by the
//! halving average; everything else (the first CNP, cuts, holds, the
//! stages, the byte counter) the reference decides itself.
//!
//! Units: rates in bytes/ns, α in [0, 1].

use crate::cc::dcqcn::{Applied, Epochs, Kind, OP_CNP, OP_CREATE, OP_DESTROY, STAGE_MAX};
use crate::cc::dcqcn_params::DcqcnParams;

/// One flow in f64.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RefFlow {
    pub rc: f64,
    pub rt: f64,
    pub alpha: f64,
    pub bcount: u64,
    pub created: bool,
    pub armed: bool,
    pub cnp_a: bool,
    pub cnp_d: bool,
    pub t_stage: u8,
    pub b_stage: u8,
    pub ep: Epochs,
}

/// The reference for any number of flows.
#[derive(Clone, Debug)]
pub struct DcqcnRef {
    pub p: DcqcnParams,
    pub flows: Vec<RefFlow>,
}

impl DcqcnRef {
    pub fn new(p: DcqcnParams, flows: usize) -> Self {
        Self {
            p,
            flows: vec![RefFlow::default(); flows],
        }
    }

    fn line(&self) -> f64 {
        self.p.line_rate_gbps / 8.0
    }

    fn cut(&self, s: &mut RefFlow, ep: Epochs) {
        s.rt = s.rc;
        s.rc = (s.rc * (1.0 - s.alpha / 2.0)).max(self.p.r_min_mbps / 8000.0);
        s.t_stage = 0;
        s.b_stage = 0;
        s.bcount = 0;
        s.ep.i = ep.i;
        s.ep.d = ep.d;
        s.cnp_d = false;
    }

    fn increase(&self, s: &mut RefFlow, bc_on: bool) {
        let (hi, lo) = if bc_on {
            (s.t_stage.max(s.b_stage), s.t_stage.min(s.b_stage))
        } else {
            (s.t_stage, s.t_stage)
        };
        let add = if hi < self.p.f {
            0.0
        } else if lo > self.p.f {
            self.p.r_hai_mbps / 8000.0
        } else {
            self.p.r_ai_mbps / 8000.0
        };
        s.rt = (s.rt + add).min(self.line());
        s.rc = (s.rc + s.rt) / 2.0;
    }

    /// Apply one operation; returns the flow's Rc after it (bytes/ns), or
    /// `None` for a flow out of range.
    pub fn apply(&mut self, a: &Applied) -> Option<f64> {
        if a.kind == Kind::Kill || a.flow as usize >= self.flows.len() {
            return None;
        }
        let g = (-(self.p.g_log2 as f64)).exp2();
        let alpha_init = self.p.alpha_init.clamp(0.0, 1.0);
        let bc_on = self.p.byte_reset != 0;
        let dec_off = self.p.dec_period_us <= 0.0;
        let mut s = self.flows[a.flow as usize];
        match a.kind {
            Kind::Event => match a.op {
                OP_CREATE => {
                    s = RefFlow {
                        rc: self.line(),
                        rt: self.line(),
                        alpha: alpha_init,
                        created: true,
                        ep: a.ep,
                        ..RefFlow::default()
                    }
                }
                OP_DESTROY => s = RefFlow::default(),
                _ if !s.created => {}
                OP_CNP => {
                    let first = !s.armed;
                    if first {
                        s.alpha = alpha_init;
                        s.rc = s.rc.min(self.p.r_first_cnp_gbps / 8.0);
                        s.rt = s.rc;
                        s.armed = true;
                        s.cnp_a = false;
                        s.ep.a = a.ep.a;
                        s.ep.i = a.ep.i;
                        s.t_stage = 0;
                        s.b_stage = 0;
                        s.bcount = 0;
                    } else {
                        s.cnp_a = true;
                    }
                    if first || dec_off || s.ep.d != a.ep.d {
                        self.cut(&mut s, a.ep);
                    } else {
                        s.cnp_d = true;
                    }
                }
                _ => {
                    if s.armed && bc_on {
                        s.bcount += a.bytes as u64;
                        if s.bcount >= self.p.byte_reset as u64 {
                            self.increase(&mut s, true);
                            s.bcount = 0;
                            s.b_stage = (s.b_stage + 1).min(STAGE_MAX);
                        }
                    }
                }
            },
            Kind::Visit => {
                if s.created && s.armed {
                    if s.ep.a != a.ep.a {
                        s.alpha = (1.0 - g) * s.alpha + if s.cnp_a { g } else { 0.0 };
                        s.cnp_a = false;
                        s.ep.a = a.ep.a;
                    }
                    if s.cnp_d && (dec_off || s.ep.d != a.ep.d) {
                        self.cut(&mut s, a.ep);
                    } else if s.ep.i != a.ep.i {
                        self.increase(&mut s, bc_on);
                        s.t_stage = (s.t_stage + 1).min(STAGE_MAX);
                        s.ep.i = a.ep.i;
                    }
                    if a.recovered {
                        s.armed = false;
                    }
                }
            }
            Kind::Kill => unreachable!(),
        }
        self.flows[a.flow as usize] = s;
        Some(s.rc)
    }
}
