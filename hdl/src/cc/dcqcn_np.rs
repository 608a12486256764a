//! DCQCN notification point (NP): per-flow CNP limiter. The Rx reports
//! every data packet of a DCQCN flow that arrived with ECN CE; the NP asks
//! the Tx for a CNP to the flow's sender at most once per
//! `cfg_interval` cycles per flow (50 µs by default: DCQCN's and the
//! L3QCN draft's NP interval).
//!
//! # Ports (clock `clock`)
//! - `cfg_interval` (24 bits, cycles; 0: a CNP for every mark).
//! - `s_ce` (`CeMark`, strobe): `flow` of a CE-marked data packet. Never
//!   back-pressured: the Rx cannot wait.
//! - `m_cnp` (`CnpReq`, valid/ready): the flow to send a CNP for. One
//!   slot, registered; `flow` is 0 while `valid` is low.
//! - `m_stats` (`NpStats`): `marks`, `cnps`, `suppressed`,
//!   `dropped_busy`, `bad_flow` (32 bits, wrapping).
//!
//! # Timing
//! One mark per cycle, any mix of flows. Mark in cycle t → decided in
//! t + 4 → `m_cnp.valid` in t + 5. State per flow: the cycle stamp of
//! its last CNP (32 bits, kept as stamp − 1) and whether it had one, in
//! one block RAM (33 bits), read in S1, registered in S2 (the block RAM's
//! output is slow on an ECP5), its age taken in S3 (a subtract) and
//! compared with the interval in S4 (a compare): one carry chain a stage
//! (timing rule R4). The RAM is written a cycle after the decision, from
//! registers, so the decision drives no RAM pin. A mark one to four
//! cycles behind a CNP of the same flow cannot use the RAM word (it
//! predates the write): its stamp is `now` − 1 … − 4, so it is
//! suppressed iff `cfg_interval` > 1 … > 4, from four forwarding
//! registers (flows only), each compared with the mark's flow a stage
//! ahead (in S3, against where the registers will be in S4): in S4 the
//! verdict is a select among registered hits and bit tests of the
//! interval, beside the compare, not in front of it.
//!
//! # Bad input
//! - `flow` ≥ 2^A: counted in `bad_flow`, nothing read or written.
//! - A CNP decided while the Tx has not taken the previous request: not
//!   sent, counted in `dropped_busy`; the flow's stamp is not updated, so
//!   its next mark tries again. CNPs are advisory: losing one delays a
//!   cut, it never corrupts a flow.
//! - The stamp is 32 bits (27 s at 156.25 MHz): a flow whose last CNP was
//!   a multiple of 2^32 cycles ago, within one interval, is suppressed once.
//!
//! Golden twin: `nic_golden::cc::dcqcn_np`.

use crate::cc::{CeMarkSink, CnpReqSource, NpStatsSource};
use crate::mem::Ram;
use rust_hdl::prelude::*;
use smart_default::SmartDefault;

#[derive(LogicBlock, SmartDefault)]
pub struct DcqcnNp<const A: usize> {
    // The parameter check, when the block is built.
    #[default({
        assert!(A <= 16, "DcqcnNp: A <= 16");
        Default::default()
    })]
    pub clock: Signal<In, Clock>,
    pub cfg_interval: Signal<In, Bits<24>>,
    pub s_ce: CeMarkSink,
    pub m_cnp: CnpReqSource,
    pub m_stats: NpStatsSource,
    /// [31:0] the cycle of the flow's last CNP, [32] it had one.
    ram: Ram<Bits<33>, A>,
    now: DFF<Bits<32>>,
    v1: DFF<Bit>,
    ok1: DFF<Bit>,
    flow1: DFF<Bits<16>>,
    v2: DFF<Bit>,
    ok2: DFF<Bit>,
    flow2: DFF<Bits<16>>,
    v3: DFF<Bit>,
    ok3: DFF<Bit>,
    flow3: DFF<Bits<16>>,
    /// The RAM word, registered.
    word3: DFF<Bits<33>>,
    v4: DFF<Bit>,
    ok4: DFF<Bit>,
    flow4: DFF<Bits<16>>,
    /// The RAM word's age at the decision (S4) and whether it had a CNP.
    age4: DFF<Bits<32>>,
    had4: DFF<Bit>,
    /// `now` − 1 (from the first cycle on): the stamp written, so that
    /// S3's `now` less it is the age at S4.
    now_m1: DFF<Bits<32>>,
    /// The writes of the last three cycles (a, b, c); their stamps are
    /// `now` − 1, − 2 and − 3.
    fw_v: DFF<Bit>,
    fw_flow: DFF<Bits<16>>,
    fwb_v: DFF<Bit>,
    fwb_flow: DFF<Bits<16>>,
    fwc_v: DFF<Bit>,
    fwc_flow: DFF<Bits<16>>,
    /// The S4 mark's flow is that of the CNP decided 1, 2, 3 or 4 cycles
    /// before it (`hit_a` is a flow match only: the decision is the
    /// cycle before's `emit`, `fw_v`), compared in S3.
    hit_a: DFF<Bit>,
    hit_b: DFF<Bit>,
    hit_c: DFF<Bit>,
    hit_d: DFF<Bit>,
    /// The RAM write of the last decision (written this cycle).
    wr_v: DFF<Bit>,
    wr_flow: DFF<Bits<16>>,
    wr_stamp: DFF<Bits<32>>,
    out_v: DFF<Bit>,
    out_flow: DFF<Bits<16>>,
    c_marks: DFF<Bits<32>>,
    c_cnps: DFF<Bits<32>>,
    c_suppressed: DFF<Bits<32>>,
    c_dropped_busy: DFF<Bits<32>>,
    c_bad_flow: DFF<Bits<32>>,
    #[default(Constant::new(Bits::<8>::from(A as u64)))]
    k_a: Constant<Bits<8>>,
    /// The RAM word's verdict, and the forwarded ones (age 1, 2 and 3).
    suppress_word: Signal<Local, Bit>,
    interval_gt1: Signal<Local, Bit>,
    interval_gt2: Signal<Local, Bit>,
    interval_gt3: Signal<Local, Bit>,
    interval_gt4: Signal<Local, Bit>,
    suppress: Signal<Local, Bit>,
    slot_free: Signal<Local, Bit>,
    emit: Signal<Local, Bit>,
}

impl<const A: usize> Logic for DcqcnNp<A> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            now,
            v1,
            ok1,
            flow1,
            v2,
            ok2,
            flow2,
            v3,
            ok3,
            flow3,
            word3,
            v4,
            ok4,
            flow4,
            age4,
            had4,
            now_m1,
            fw_v,
            fw_flow,
            fwb_v,
            fwb_flow,
            fwc_v,
            fwc_flow,
            hit_a,
            hit_b,
            hit_c,
            hit_d,
            wr_v,
            wr_flow,
            wr_stamp,
            out_v,
            out_flow,
            c_marks,
            c_cnps,
            c_suppressed,
            c_dropped_busy,
            c_bad_flow
        );
        self.ram.clock.next = self.clock.val();
        self.now.d.next = (self.now.q.val() + 1);
        self.now_m1.d.next = self.now.q.val();
        self.m_cnp.valid.next = self.out_v.q.val();
        self.m_cnp.flow.next = self.out_flow.q.val();
        self.m_stats.marks.next = self.c_marks.q.val();
        self.m_stats.cnps.next = self.c_cnps.q.val();
        self.m_stats.suppressed.next = self.c_suppressed.q.val();
        self.m_stats.dropped_busy.next = self.c_dropped_busy.q.val();
        self.m_stats.bad_flow.next = self.c_bad_flow.q.val();

        // ---- S0: take the mark
        self.v1.d.next = self.s_ce.valid.val();
        self.flow1.d.next = self.s_ce.flow.val();
        self.ok1.d.next = !(self.s_ce.flow.val() >> self.k_a.val()).any();

        // ---- S1: read the flow's stamp
        self.ram.read_address.next = bit_cast::<A, 16>(self.flow1.q.val());
        self.v2.d.next = self.v1.q.val();
        self.ok2.d.next = self.ok1.q.val();
        self.flow2.d.next = self.flow1.q.val();

        // ---- S2: register the RAM word
        self.v3.d.next = self.v2.q.val();
        self.ok3.d.next = self.ok2.q.val();
        self.flow3.d.next = self.flow2.q.val();
        self.word3.d.next = self.ram.read_data.val();

        // ---- S3: the RAM word's age at S4 (its stamp is kept as stamp - 1)
        self.v4.d.next = self.v3.q.val();
        self.ok4.d.next = self.ok3.q.val();
        self.flow4.d.next = self.flow3.q.val();
        self.age4.d.next = (self.now.q.val() - self.word3.q.val().get_bits::<32>(0));
        self.had4.d.next = self.word3.q.val().get_bit(32);
        // Where the forwarding registers will be when this mark is in S4:
        // `fw` the decision now in S4; the second, third and fourth back
        // today's `fw`, `fwb` and `fwc`.
        self.hit_a.d.next = (self.flow3.q.val() == self.flow4.q.val());
        self.hit_b.d.next = (self.fw_v.q.val() && (self.fw_flow.q.val() == self.flow3.q.val()));
        self.hit_c.d.next = (self.fwb_v.q.val() && (self.fwb_flow.q.val() == self.flow3.q.val()));
        self.hit_d.d.next = (self.fwc_v.q.val() && (self.fwc_flow.q.val() == self.flow3.q.val()));

        // ---- S4: decide (a stamp decided in the last four cycles, if the
        // same flow: the RAM word predates it, and the stamp is now - 1
        // ... now - 4)
        self.suppress_word.next = (self.had4.q.val()
            && (self.age4.q.val() < bit_cast::<32, 24>(self.cfg_interval.val())));
        self.interval_gt1.next = self.cfg_interval.val().get_bits::<23>(1).any();
        self.interval_gt3.next = self.cfg_interval.val().get_bits::<22>(2).any();
        self.interval_gt2.next = (self.interval_gt3.val()
            || (self.cfg_interval.val().get_bit(1) && self.cfg_interval.val().get_bit(0)));
        self.interval_gt4.next = (self.cfg_interval.val().get_bits::<21>(3).any()
            || (self.cfg_interval.val().get_bit(2)
                && (self.cfg_interval.val().get_bit(1) || self.cfg_interval.val().get_bit(0))));
        if (self.fw_v.q.val() && self.hit_a.q.val()) {
            self.suppress.next = self.interval_gt1.val();
        } else if self.hit_b.q.val() {
            self.suppress.next = self.interval_gt2.val();
        } else if self.hit_c.q.val() {
            self.suppress.next = self.interval_gt3.val();
        } else if self.hit_d.q.val() {
            self.suppress.next = self.interval_gt4.val();
        } else {
            self.suppress.next = self.suppress_word.val();
        }
        self.slot_free.next = (!self.out_v.q.val() || self.m_cnp.ready.val());
        self.emit.next =
            (self.v4.q.val() && self.ok4.q.val() && !self.suppress.val() && self.slot_free.val());
        if self.emit.val() {
            self.out_v.d.next = true;
            self.out_flow.d.next = self.flow4.q.val();
        } else if (self.out_v.q.val() && self.m_cnp.ready.val()) {
            self.out_v.d.next = false;
            self.out_flow.d.next = 0.into();
        }
        self.wr_v.d.next = self.emit.val();
        self.wr_flow.d.next = self.flow4.q.val();
        self.wr_stamp.d.next = self.now_m1.q.val();
        self.ram.write_enable.next = self.wr_v.q.val();
        self.ram.write_address.next = bit_cast::<A, 16>(self.wr_flow.q.val());
        self.ram.write_data.next =
            ((bit_cast::<33, 1>(true.into()) << 32) | bit_cast::<33, 32>(self.wr_stamp.q.val()));
        self.fw_v.d.next = self.emit.val();
        self.fw_flow.d.next = self.flow4.q.val();
        self.fwb_v.d.next = self.fw_v.q.val();
        self.fwb_flow.d.next = self.fw_flow.q.val();
        self.fwc_v.d.next = self.fwb_v.q.val();
        self.fwc_flow.d.next = self.fwb_flow.q.val();

        // ---- counters
        if self.v4.q.val() {
            self.c_marks.d.next = (self.c_marks.q.val() + 1);
            if !self.ok4.q.val() {
                self.c_bad_flow.d.next = (self.c_bad_flow.q.val() + 1);
            } else if self.suppress.val() {
                self.c_suppressed.d.next = (self.c_suppressed.q.val() + 1);
            } else if !self.slot_free.val() {
                self.c_dropped_busy.d.next = (self.c_dropped_busy.q.val() + 1);
            }
        }
        if self.emit.val() {
            self.c_cnps.d.next = (self.c_cnps.q.val() + 1);
        }
    }
}
