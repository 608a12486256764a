//! Pipelined unsigned fixed-point divider (restoring, one quotient bit per
//! stage).
//!
//! Ports (clock `clock`):
//! - in: `a` (dividend), `d` (divisor): `Bits<N>` unsigned; `in_valid`.
//! - out: `q`: `Bits<N>` = floor(a · 2^F / d), truncated toward zero;
//!   `sat`: the result saturated; `out_valid`. `q` and `sat` hold the
//!   last valid result between results (0 after configuration).
//!
//! Format: if `a` has y fraction bits and `d` has v, `q` has y − v + F.
//! A reciprocal is a = 2^k.
//!
//! Bad input: if d = 0, or the true quotient does not fit in N bits,
//! q = 2^N − 1 and `sat` = 1 (no X, no trap).
//!
//! Pipeline (latency N + 1, II 1): stage 0 registers the operands split as
//! the (N+F)-bit dividend a·2^F = hi:lo with hi = a >> (N − F), and
//! decides overflow (hi ≥ d, which includes d = 0: then the quotient needs
//! more than N bits). Stages 1..N each produce one quotient bit, MSB
//! first: the partial remainder r < d shifts in the next dividend bit and
//! d is subtracted when it fits. The remaining dividend bits and the
//! quotient bits share one shift register (`lq`). The N-th stage writes
//! the output register.
//!
//! Requires 1 ≤ F < N ≤ 64. Golden twin: `nic_golden::arith::divider`.

use rust_hdl::prelude::*;
use smart_default::SmartDefault;

#[derive(LogicBlock, SmartDefault)]
pub struct Divider<const N: usize, const F: usize> {
    // The parameter check, when the block is built.
    #[default({
        assert!(1 <= F && F < N && N <= 64, "Divider needs 1 <= F < N <= 64");
        Default::default()
    })]
    pub clock: Signal<In, Clock>,
    pub a: Signal<In, Bits<N>>,
    pub d: Signal<In, Bits<N>>,
    pub in_valid: Signal<In, Bit>,
    pub q: Signal<Out, Bits<N>>,
    pub sat: Signal<Out, Bit>,
    pub out_valid: Signal<Out, Bit>,
    /// N − F: a >> shift_hi is the dividend's high half.
    #[default(Constant::new(((N - F) as u64).to_bits()))]
    shift_hi: Constant<Bits<8>>,
    /// F: a << shift_lo is the dividend's low half.
    #[default(Constant::new((F as u64).to_bits()))]
    shift_lo: Constant<Bits<8>>,
    /// 2^(N−1): x ≥ half tests the MSB.
    #[default(Constant::new((1u64 << (N - 1)).to_bits()))]
    half: Constant<Bits<N>>,
    #[default(Constant::new(1u64.to_bits()))]
    one: Constant<Bits<N>>,
    #[default(Constant::new(!Bits::<N>::default()))]
    ones: Constant<Bits<N>>,
    hi: Signal<Local, Bits<N>>,
    // Stage registers: [0] is the operand stage, [k] holds k quotient bits.
    #[default(std::array::from_fn(|_| Default::default()))]
    st_r: [DFF<Bits<N>>; N],
    #[default(std::array::from_fn(|_| Default::default()))]
    st_lq: [DFF<Bits<N>>; N],
    #[default(std::array::from_fn(|_| Default::default()))]
    st_d: [DFF<Bits<N>>; N],
    #[default(std::array::from_fn(|_| Default::default()))]
    st_sat: [DFF<Bit>; N],
    #[default(std::array::from_fn(|_| Default::default()))]
    st_v: [DFF<Bit>; N],
    // One iteration's combinational results, per stage.
    #[default(std::array::from_fn(|_| Default::default()))]
    rs: [Signal<Local, Bits<N>>; N],
    #[default(std::array::from_fn(|_| Default::default()))]
    ge: [Signal<Local, Bit>; N],
    #[default(std::array::from_fn(|_| Default::default()))]
    nr: [Signal<Local, Bits<N>>; N],
    #[default(std::array::from_fn(|_| Default::default()))]
    nlq: [Signal<Local, Bits<N>>; N],
    // Output register.
    q_r: DFF<Bits<N>>,
    sat_r: DFF<Bit>,
    v_r: DFF<Bit>,
}

impl<const N: usize, const F: usize> Logic for Divider<N, F> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, q_r, sat_r, v_r);
        for i in 0..N {
            self.st_r[i].clock.next = self.clock.val();
            self.st_lq[i].clock.next = self.clock.val();
            self.st_d[i].clock.next = self.clock.val();
            self.st_sat[i].clock.next = self.clock.val();
            self.st_v[i].clock.next = self.clock.val();
        }
        // Stage 0: split the dividend, detect overflow / divide by zero.
        self.hi.next = (self.a.val() >> self.shift_hi.val());
        self.st_r[0].d.next = self.hi.val();
        self.st_lq[0].d.next = (self.a.val() << self.shift_lo.val());
        self.st_d[0].d.next = self.d.val();
        self.st_sat[0].d.next = (self.hi.val() >= self.d.val());
        self.st_v[0].d.next = self.in_valid.val();
        // One restoring step per stage.
        for i in 0..N {
            self.rs[i].next = (self.st_r[i].q.val() << 1);
            if (self.st_lq[i].q.val() >= self.half.val()) {
                self.rs[i].next = ((self.st_r[i].q.val() << 1) | self.one.val());
            }
            // r < d < 2^N, so (r << 1 | bit) ≥ 2^N exactly when r's MSB is
            // set; then it certainly exceeds d, and the N-bit wrapping
            // difference is the true remainder.
            self.ge[i].next = ((self.st_r[i].q.val() >= self.half.val())
                || (self.rs[i].val() >= self.st_d[i].q.val()));
            self.nr[i].next = self.rs[i].val();
            self.nlq[i].next = (self.st_lq[i].q.val() << 1);
            if self.ge[i].val() {
                self.nr[i].next = (self.rs[i].val() - self.st_d[i].q.val());
                self.nlq[i].next = ((self.st_lq[i].q.val() << 1) | self.one.val());
            }
        }
        for i in 1..N {
            self.st_r[i].d.next = self.nr[i - 1].val();
            self.st_lq[i].d.next = self.nlq[i - 1].val();
            self.st_d[i].d.next = self.st_d[i - 1].q.val();
            self.st_sat[i].d.next = self.st_sat[i - 1].q.val();
            self.st_v[i].d.next = self.st_v[i - 1].q.val();
        }
        // The last step writes the output register. (A one-trip loop: the
        // index must be a loop variable or a literal for rust-hdl's
        // Verilog generator.)
        for i in (N - 1)..N {
            if self.st_v[i].q.val() {
                self.q_r.d.next = self.nlq[i].val();
                if self.st_sat[i].q.val() {
                    self.q_r.d.next = self.ones.val();
                }
                self.sat_r.d.next = self.st_sat[i].q.val();
            }
            self.v_r.d.next = self.st_v[i].q.val();
        }
        self.q.next = self.q_r.q.val();
        self.sat.next = self.sat_r.q.val();
        self.out_valid.next = self.v_r.q.val();
    }
}
