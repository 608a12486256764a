//! The maximum over the hops and its tau: **pseudocode lines 6–7** (with
//! line 2's u = 0).
//!
//! ```text
//! 6:  if u' > u then
//! 7:      u = u'; tau = ack.L[i].ts − L[i].ts;
//! ```
//!
//! # Ports (clock `clock`)
//! In (stage 0): `in_valid`; `u_hop[i]` (u′ of hop i, UQ8.24) and
//! `tau_hop[i]` (its tau candidate, 24 bits ns), i = 0..5, from
//! [`MeasureInflight`](super::MeasureInflight).
//! Out (stage [`LATENCY`]): `u` (UQ8.24), `tau` (24 bits), `out_valid`.
//!
//! # Arithmetic
//! Line 6's strict `>` makes the first hop win a tie: hop i wins if its u′
//! is strictly above every earlier hop's and no later hop's is strictly
//! above its own. Stage 0: the ten comparisons u′_j > u′_i (j > i) and
//! "every u′ is 0"; stage 1: the winner, one-hot; stage 2: select. If
//! every u′ is 0, u = 0 and tau = 0 (line 2: no hop passes line 6).
//!
//! # Timing
//! Latency 3, II 1. In `HpccCc`: stages 40–43.
//!
//! # Bad input
//! None: every input has its result.
//!
//! Golden twin: `nic_golden::cc::hop_max` (`hop_max`).

use rust_hdl::prelude::*;

/// Cycles from the hops' terms to `u`, `tau`.
pub const LATENCY: usize = 3;

#[derive(LogicBlock, Default)]
pub struct HopMax {
    pub clock: Signal<In, Clock>,
    pub in_valid: Signal<In, Bit>,
    pub u_hop: [Signal<In, Bits<32>>; 5],
    pub tau_hop: [Signal<In, Bits<24>>; 5],
    pub u: Signal<Out, Bits<32>>,
    pub tau: Signal<Out, Bits<24>>,
    pub out_valid: Signal<Out, Bit>,
    // ---- stage 1
    /// gt_s1[k]: u′_j > u′_i for the pair k = (j, i): 0 (1,0), 1 (2,0),
    /// 2 (3,0), 3 (4,0), 4 (2,1), 5 (3,1), 6 (4,1), 7 (3,2), 8 (4,2),
    /// 9 (4,3).
    gt_s1: [DFF<Bit>; 10],
    all_zero_s1: DFF<Bit>,
    u_s1: [DFF<Bits<32>>; 5],
    tau_s1: [DFF<Bits<24>>; 5],
    valid_s1: DFF<Bit>,
    // ---- stage 2
    /// Hop i is the first maximum (one-hot).
    win_s2: [DFF<Bit>; 5],
    all_zero_s2: DFF<Bit>,
    u_s2: [DFF<Bits<32>>; 5],
    tau_s2: [DFF<Bits<24>>; 5],
    valid_s2: DFF<Bit>,
    // ---- stage 3: out
    u_s3: DFF<Bits<32>>,
    tau_s3: DFF<Bits<24>>,
    valid_s3: DFF<Bit>,
}

impl Logic for HopMax {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            all_zero_s1,
            valid_s1,
            all_zero_s2,
            valid_s2,
            u_s3,
            tau_s3,
            valid_s3
        );
        for k in 0..10 {
            self.gt_s1[k].clock.next = self.clock.val();
        }
        for i in 0..5 {
            self.u_s1[i].clock.next = self.clock.val();
            self.tau_s1[i].clock.next = self.clock.val();
            self.win_s2[i].clock.next = self.clock.val();
            self.u_s2[i].clock.next = self.clock.val();
            self.tau_s2[i].clock.next = self.clock.val();
        }

        // ---- stage 0: every comparison u'_j > u'_i (j > i); all zero?
        self.gt_s1[0].d.next = (self.u_hop[1].val() > self.u_hop[0].val());
        self.gt_s1[1].d.next = (self.u_hop[2].val() > self.u_hop[0].val());
        self.gt_s1[2].d.next = (self.u_hop[3].val() > self.u_hop[0].val());
        self.gt_s1[3].d.next = (self.u_hop[4].val() > self.u_hop[0].val());
        self.gt_s1[4].d.next = (self.u_hop[2].val() > self.u_hop[1].val());
        self.gt_s1[5].d.next = (self.u_hop[3].val() > self.u_hop[1].val());
        self.gt_s1[6].d.next = (self.u_hop[4].val() > self.u_hop[1].val());
        self.gt_s1[7].d.next = (self.u_hop[3].val() > self.u_hop[2].val());
        self.gt_s1[8].d.next = (self.u_hop[4].val() > self.u_hop[2].val());
        self.gt_s1[9].d.next = (self.u_hop[4].val() > self.u_hop[3].val());
        self.all_zero_s1.d.next = (((!self.u_hop[0].val().any()) && (!self.u_hop[1].val().any()))
            && (((!self.u_hop[2].val().any()) && (!self.u_hop[3].val().any()))
                && (!self.u_hop[4].val().any())));
        for i in 0..5 {
            self.u_s1[i].d.next = self.u_hop[i].val();
            self.tau_s1[i].d.next = self.tau_hop[i].val();
            self.u_s2[i].d.next = self.u_s1[i].q.val();
            self.tau_s2[i].d.next = self.tau_s1[i].q.val();
        }
        self.valid_s1.d.next = self.in_valid.val();

        // ---- stage 1: the winner, one-hot (line 6: the first maximum)
        self.win_s2[0].d.next = (((!self.gt_s1[0].q.val() && !self.gt_s1[1].q.val())
            && !self.gt_s1[2].q.val())
            && !self.gt_s1[3].q.val());
        self.win_s2[1].d.next = (((self.gt_s1[0].q.val() && !self.gt_s1[4].q.val())
            && !self.gt_s1[5].q.val())
            && !self.gt_s1[6].q.val());
        self.win_s2[2].d.next = (((self.gt_s1[1].q.val() && self.gt_s1[4].q.val())
            && !self.gt_s1[7].q.val())
            && !self.gt_s1[8].q.val());
        self.win_s2[3].d.next = (((self.gt_s1[2].q.val() && self.gt_s1[5].q.val())
            && self.gt_s1[7].q.val())
            && !self.gt_s1[9].q.val());
        self.win_s2[4].d.next = (((self.gt_s1[3].q.val() && self.gt_s1[6].q.val())
            && self.gt_s1[8].q.val())
            && self.gt_s1[9].q.val());
        self.all_zero_s2.d.next = self.all_zero_s1.q.val();
        self.valid_s2.d.next = self.valid_s1.q.val();

        // ---- stage 2: line 7, u = u', tau of the winner
        self.u_s3.d.next = 0.into();
        self.tau_s3.d.next = 0.into();
        for i in 0..5 {
            if self.win_s2[i].q.val() {
                self.u_s3.d.next = self.u_s2[i].q.val();
                self.tau_s3.d.next = self.tau_s2[i].q.val();
            }
        }
        // No hop with u' > 0: tau stays 0 (line 2).
        if self.all_zero_s2.q.val() {
            self.tau_s3.d.next = 0.into();
        }
        self.valid_s3.d.next = self.valid_s2.q.val();

        // ---- stage 3: out
        self.u.next = self.u_s3.q.val();
        self.tau.next = self.tau_s3.q.val();
        self.out_valid.next = self.valid_s3.q.val();
    }
}
