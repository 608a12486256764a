//! Leading-zero count and normalisation.
//!
//! Ports (clock `clock`):
//! - in: `x`: `Bits<N>` unsigned; `in_valid`.
//! - out: `lz`: `Bits<L>`, the number of leading zeros of `x` (N when
//!   x = 0; L must hold N, e.g. L = 6 for N = 32); `norm`: `Bits<N>`,
//!   x << lz, read as UQ1.(N−1) in [1, 2) so that x = norm · 2^(N−1−lz);
//!   `zero`: x = 0 (then norm = 0); `out_valid`.
//!
//! Latency 2 (stage 1 counts, stage 2 shifts), II 1. Every input is in
//! domain. Golden twin: `nic_golden::arith::normalize`.

use rust_hdl::prelude::*;
use smart_default::SmartDefault;

#[derive(LogicBlock, SmartDefault)]
pub struct Normalize<const N: usize, const L: usize> {
    // The parameter check, when the block is built.
    #[default({
        assert!((1usize << L) > N, "L must hold the count N");
        Default::default()
    })]
    pub clock: Signal<In, Clock>,
    pub x: Signal<In, Bits<N>>,
    pub in_valid: Signal<In, Bit>,
    pub norm: Signal<Out, Bits<N>>,
    pub lz: Signal<Out, Bits<L>>,
    pub zero: Signal<Out, Bit>,
    pub out_valid: Signal<Out, Bit>,
    /// N, the count for x = 0.
    #[default(Constant::new((N as u64).to_bits()))]
    width: Constant<Bits<L>>,
    /// `lz_of[i]` = N − 1 − i, the count when bit i is the highest set bit.
    #[default(std::array::from_fn(|i| Constant::new(((N - 1 - i) as u64).to_bits())))]
    lz_of: [Constant<Bits<L>>; N],
    count: Signal<Local, Bits<L>>,
    // Stage 1: the count, with x.
    x1: DFF<Bits<N>>,
    lz1: DFF<Bits<L>>,
    zero1: DFF<Bit>,
    v1: DFF<Bit>,
    // Stage 2: the shifted value.
    norm2: DFF<Bits<N>>,
    lz2: DFF<Bits<L>>,
    zero2: DFF<Bit>,
    v2: DFF<Bit>,
}

impl<const N: usize, const L: usize> Logic for Normalize<N, L> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, x1, lz1, zero1, v1, norm2, lz2, zero2, v2);
        // Priority encoder: the highest set bit wins (later assignments
        // override earlier ones).
        self.count.next = self.width.val();
        for i in 0..N {
            if self.x.val().get_bit(i) {
                self.count.next = self.lz_of[i].val();
            }
        }
        self.x1.d.next = self.x.val();
        self.lz1.d.next = self.count.val();
        self.zero1.d.next = !self.x.val().any();
        self.v1.d.next = self.in_valid.val();
        // Stage 2: shift. For x = 0 the shift amount is N, and the
        // result is 0 either way.
        self.norm2.d.next = (self.x1.q.val() << self.lz1.q.val());
        self.lz2.d.next = self.lz1.q.val();
        self.zero2.d.next = self.zero1.q.val();
        self.v2.d.next = self.v1.q.val();
        self.norm.next = self.norm2.q.val();
        self.lz.next = self.lz2.q.val();
        self.zero.next = self.zero2.q.val();
        self.out_valid.next = self.v2.q.val();
    }
}
