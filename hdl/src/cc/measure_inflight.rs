//! One hop's term of MeasureInflight: **pseudocode lines 4–5** (and
//! line 7's tau candidate). `HpccCc` has five, one per hop.
//!
//! ```text
//! 4:  txRate = (ack.L[i].txBytes − L[i].txBytes) / (ack.L[i].ts − L[i].ts)
//! 5:  u'     = min(ack.L[i].qlen, L[i].qlen) / (ack.L[i].B·T) + txRate / ack.L[i].B
//! ```
//!
//! # Ports (clock `clock`)
//! In, with the hop (stage 0): `in_valid`; the ack's hop `new_ts` (24
//! bits, ns mod 2^24), `new_bytes` (20 bits, units of 128·multi bytes, mod
//! 2^20), `new_qlen` (17 bits, units of 80·multi bytes), `code` (3 bits,
//! line-rate code: B = 25·2^code Gb/s for code ≤ 4); the stored hop
//! `old_ts`, `old_bytes`, `old_qlen`; `active` (the hop is one of the
//! event's hops). Configuration (quasi-static): `cfg_mlog` (log2 multi),
//! `cfg_inv_t_s` (s = 31 + ⌊log2 T⌋), `cfg_uq_m` (⌊2^(s+2)/(5T)⌋).
//!
//! Out: `stale`, `back` at stage 1: the hop is active and its timestamp
//! did not advance or went back (Δts mod 2^24 = 0 or ≥ 2^23) / its bytes
//! went back (Δbytes mod 2^20 ≥ 2^19). `u_prime` (u′, UQ8.24, saturating),
//! `tau` (line 7's candidate, Δts in ns, 24 bits) and `out_valid` at
//! stage [`LATENCY`].
//!
//! # Arithmetic
//! - Line 4 / line 5's second term, txRate/B = Δbytes·2^(mlog − code + 4)
//!   ·2^30 / (25·Δts), UQ8.24: one `Divider<32, 30>` on a = Δbytes ≪
//!   (mlog + 4 − code), d = 25·Δts = (Δts ≪ 4) + (Δts ≪ 3) + Δts.
//! - Line 5's first term, min(qlen)/(B·T) = (qmin · uq_m) ≫ (s − 29 −
//!   mlog + code), UQ8.24: one `WideMul`.
//! - u′ = their sum, saturated to 32 bits.
//!
//! # Timing
//! Latency 38 (`stale`, `back`: 1), II 1. In `HpccCc` stage 0 here is the
//! module's stage 2 (u′ at 40). Stages: 0 the deltas; 1 the tests (kill,
//! qmin, tau, 9·Δts); 2 the divider's operands; 3 into the divider
//! (quotient at 36); 32 into the queue term's multiplier (product at
//! 36); 36 the queue term's shift; 37 the sum; 38 out.
//!
//! # Bad input
//! A hop that is not active, has a stale timestamp or bytes going back
//! gives a tx term of 0 (the divider divides 0 by 1); a stale or
//! inactive hop gives tau 0; an inactive hop gives qmin 0. Every input
//! has a defined result (nothing traps; an unknown rate code gives some
//! value: `HpccCc` drops such events). Between valid hops the divider
//! holds its last valid result, and `u_prime` follows it.
//!
//! Golden twin: `nic_golden::cc::measure_inflight` (`hop_term`).

use crate::arith::{Delay, DelayRam, Divider, WideMul};
use rust_hdl::prelude::*;

/// Cycles from the hop to `u_prime`, `tau`, `out_valid`.
pub const LATENCY: usize = 38;

#[derive(LogicBlock, Default)]
pub struct MeasureInflight {
    pub clock: Signal<In, Clock>,
    pub in_valid: Signal<In, Bit>,
    pub new_ts: Signal<In, Bits<24>>,
    pub new_bytes: Signal<In, Bits<20>>,
    pub new_qlen: Signal<In, Bits<17>>,
    pub code: Signal<In, Bits<3>>,
    pub old_ts: Signal<In, Bits<24>>,
    pub old_bytes: Signal<In, Bits<20>>,
    pub old_qlen: Signal<In, Bits<17>>,
    pub active: Signal<In, Bit>,
    pub cfg_mlog: Signal<In, Bits<3>>,
    pub cfg_inv_t_s: Signal<In, Bits<8>>,
    pub cfg_uq_m: Signal<In, Bits<32>>,
    pub stale: Signal<Out, Bit>,
    pub back: Signal<Out, Bit>,
    pub u_prime: Signal<Out, Bits<32>>,
    pub tau: Signal<Out, Bits<24>>,
    pub out_valid: Signal<Out, Bit>,

    // ---- stage 0: line 4's deltas
    dts: Signal<Local, Bits<24>>,
    dbytes: Signal<Local, Bits<20>>,
    // ---- stage 1
    dts_s1: DFF<Bits<24>>,
    dbytes_s1: DFF<Bits<20>>,
    stale_s1: DFF<Bit>,
    back_s1: DFF<Bit>,
    active_s1: DFF<Bit>,
    code_s1: DFF<Bits<3>>,
    new_qlen_s1: DFF<Bits<17>>,
    old_qlen_s1: DFF<Bits<17>>,
    // ---- stage 2
    dts_s2: DFF<Bits<24>>,
    /// 9·Δts, for 25·Δts at stage 2.
    dts9_s2: DFF<Bits<32>>,
    dbytes_s2: DFF<Bits<20>>,
    code_s2: DFF<Bits<3>>,
    /// No tx term: stale, bytes back, or not active.
    kill_s2: DFF<Bit>,
    /// Line 5's min(ack.L[i].qlen, L[i].qlen); 0 if not active.
    qmin_s2: DFF<Bits<17>>,
    /// Line 7's candidate: Δts, 0 if stale or not active.
    tau_s2: DFF<Bits<24>>,
    tx_shift: Signal<Local, Bits<8>>,
    dts25: Signal<Local, Bits<32>>,
    // ---- stage 3..: the divider (line 4, txRate/B)
    div_a_s3: DFF<Bits<32>>,
    div_d_s3: DFF<Bits<32>>,
    valid_s3: Delay<1, 3>,
    div: Divider<32, 30>,
    // ---- alongside: the queue term (line 5), multiply at 32
    qmin_s32: DelayRam<Bits<17>, 30, 5>,
    q_mul: WideMul,
    /// s − 29 − mlog + code, the queue term's shift, for stage 36.
    q_shift_s36: DelayRam<Bits<8>, 34, 6>,
    tau_s38: DelayRam<Bits<24>, 36, 6>,
    // ---- stages 36..38: the terms, their sum, saturated
    u_q: Signal<Local, Bits<64>>,
    u_q_s37: DFF<Bits<64>>,
    u_tx_s37: DFF<Bits<32>>,
    valid_s37: DFF<Bit>,
    sum: Signal<Local, Bits<64>>,
    u_prime_s38: DFF<Bits<32>>,
    valid_s38: DFF<Bit>,
}

impl Logic for MeasureInflight {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            dts_s1,
            dbytes_s1,
            stale_s1,
            back_s1,
            active_s1,
            code_s1,
            new_qlen_s1,
            old_qlen_s1,
            dts_s2,
            dts9_s2,
            dbytes_s2,
            code_s2,
            kill_s2,
            qmin_s2,
            tau_s2,
            div_a_s3,
            div_d_s3,
            u_q_s37,
            u_tx_s37,
            valid_s37,
            u_prime_s38,
            valid_s38
        );
        clock!(
            self,
            clock,
            valid_s3,
            div,
            qmin_s32,
            q_mul,
            q_shift_s36,
            tau_s38
        );

        // ---- stage 0: line 4's deltas (mod 2^24 and 2^20) and their tests
        self.dts.next = (self.new_ts.val() - self.old_ts.val());
        self.dbytes.next = (self.new_bytes.val() - self.old_bytes.val());
        self.dts_s1.d.next = self.dts.val();
        self.dbytes_s1.d.next = self.dbytes.val();
        self.stale_s1.d.next = ((!self.dts.val().any()) || self.dts.val().get_bit(23));
        self.back_s1.d.next = self.dbytes.val().get_bit(19);
        self.active_s1.d.next = self.active.val();
        self.code_s1.d.next = self.code.val();
        self.new_qlen_s1.d.next = self.new_qlen.val();
        self.old_qlen_s1.d.next = self.old_qlen.val();
        self.valid_s3.d.next = self.in_valid.val().into();

        // ---- stage 1: the flags out; kill, qmin, tau; 9·Δts
        self.stale.next = (self.stale_s1.q.val() && self.active_s1.q.val());
        self.back.next = (self.back_s1.q.val() && self.active_s1.q.val());
        self.dts_s2.d.next = self.dts_s1.q.val();
        self.dts9_s2.d.next = ((bit_cast::<32, 24>(self.dts_s1.q.val()) << 3)
            + bit_cast::<32, 24>(self.dts_s1.q.val()));
        self.dbytes_s2.d.next = self.dbytes_s1.q.val();
        self.code_s2.d.next = self.code_s1.q.val();
        self.kill_s2.d.next =
            ((self.stale_s1.q.val() || self.back_s1.q.val()) || !self.active_s1.q.val());
        // Line 5: min(ack.L[i].qlen, L[i].qlen); 0 for an unused hop.
        self.qmin_s2.d.next = 0.into();
        if self.active_s1.q.val() {
            self.qmin_s2.d.next = self.new_qlen_s1.q.val();
            if (self.old_qlen_s1.q.val() < self.new_qlen_s1.q.val()) {
                self.qmin_s2.d.next = self.old_qlen_s1.q.val();
            }
        }
        // Line 7's tau candidate: 0 for a stale or unused hop.
        self.tau_s2.d.next = self.dts_s1.q.val();
        if (self.stale_s1.q.val() || !self.active_s1.q.val()) {
            self.tau_s2.d.next = 0.into();
        }

        // ---- stage 2: the divider's operands, a = Δbytes ≪ (mlog + 4 −
        // code), d = 25·Δts; the queue term's shift
        self.tx_shift.next =
            ((bit_cast::<8, 3>(self.cfg_mlog.val()) + 4) - bit_cast::<8, 3>(self.code_s2.q.val()));
        self.dts25.next = ((bit_cast::<32, 24>(self.dts_s2.q.val()) << 4) + self.dts9_s2.q.val());
        self.div_a_s3.d.next = (bit_cast::<32, 20>(self.dbytes_s2.q.val()) << self.tx_shift.val());
        self.div_d_s3.d.next = self.dts25.val();
        if self.kill_s2.q.val() {
            self.div_a_s3.d.next = 0.into();
            self.div_d_s3.d.next = 1.into();
        }
        self.qmin_s32.d.next = self.qmin_s2.q.val();
        self.q_shift_s36.d.next = (((self.cfg_inv_t_s.val() - 29)
            - bit_cast::<8, 3>(self.cfg_mlog.val()))
            + bit_cast::<8, 3>(self.code_s2.q.val()));
        self.tau_s38.d.next = self.tau_s2.q.val();

        // ---- stage 3: txRate/B = a·2^30/d (lines 4–5), out at 36
        self.div.a.next = self.div_a_s3.q.val();
        self.div.d.next = self.div_d_s3.q.val();
        self.div.in_valid.next = self.valid_s3.q.val().any();

        // ---- stage 32: qmin · uq_m, out at 36
        self.q_mul.a.next = bit_cast::<32, 17>(self.qmin_s32.q.val());
        self.q_mul.b.next = self.cfg_uq_m.val();
        // The product is taken every cycle, beside the divider's quotient,
        // whose valid is the one that counts: the multiplier's own valid
        // flag is not used.
        self.q_mul.in_valid.next = true;

        // ---- stage 36: the queue term (qmin · uq_m) ≫ (s − 29 − mlog + code)
        self.u_q.next = (self.q_mul.p.val() >> self.q_shift_s36.q.val());
        self.u_q_s37.d.next = self.u_q.val();
        self.u_tx_s37.d.next = self.div.q.val();
        self.valid_s37.d.next = self.div.out_valid.val();

        // ---- stage 37: u' = the sum (line 5), saturated. The queue term's
        // saturation folds into the sum's: it is below 2^49.
        self.sum.next = (self.u_q_s37.q.val() + bit_cast::<64, 32>(self.u_tx_s37.q.val()));
        self.u_prime_s38.d.next = bit_cast::<32, 64>(self.sum.val());
        if (self.sum.val() >> 32).any() {
            self.u_prime_s38.d.next = 0xFFFF_FFFFu64.into();
        }
        self.valid_s38.d.next = self.valid_s37.q.val();

        // ---- stage 38: out
        self.u_prime.next = self.u_prime_s38.q.val();
        self.tau.next = self.tau_s38.q.val();
        self.out_valid.next = self.valid_s38.q.val();
    }
}
