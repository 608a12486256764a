//! 32 × 32 → 64-bit unsigned multiplier from four 16 × 16 partial
//! products (rust-hdl multiplies only 16 × 16; each maps to one ECP5
//! MULT18X18D).
//!
//! Ports (clock `clock`):
//! - in: `a`, `b`: `Bits<32>`; `in_valid`.
//! - out: `p`: `Bits<64>` = a · b, exact; `out_valid`.
//!
//! Format: UQa.b × UQc.d → UQ(a+c).(b+d); no rounding, no overflow.
//!
//! Pipeline (latency 4, II 1):
//! 1. register the operands;
//! 2. the four partial products al·bl, al·bh, ah·bl, ah·bh (registered
//!    DSP outputs);
//! 3. mid = al·bh + ah·bl (33 bits), and hh:ll concatenated;
//! 4. p = hh:ll + (mid << 16).
//!
//! Every input is in domain. Golden twin: `nic_golden::arith::wide_mul`.

use rust_hdl::prelude::*;

#[derive(LogicBlock, Default)]
pub struct WideMul {
    pub clock: Signal<In, Clock>,
    pub a: Signal<In, Bits<32>>,
    pub b: Signal<In, Bits<32>>,
    pub in_valid: Signal<In, Bit>,
    pub p: Signal<Out, Bits<64>>,
    pub out_valid: Signal<Out, Bit>,
    // Stage 1
    a1: DFF<Bits<32>>,
    b1: DFF<Bits<32>>,
    v1: DFF<Bit>,
    // Stage 2: partial products
    ll2: DFF<Bits<32>>,
    lh2: DFF<Bits<32>>,
    hl2: DFF<Bits<32>>,
    hh2: DFF<Bits<32>>,
    v2: DFF<Bit>,
    // Stage 3
    mid3: DFF<Bits<64>>,
    hhll3: DFF<Bits<64>>,
    v3: DFF<Bit>,
    // Stage 4
    p4: DFF<Bits<64>>,
    v4: DFF<Bit>,
}

impl Logic for WideMul {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, a1, b1, v1, ll2, lh2, hl2, hh2, v2, mid3, hhll3, v3, p4, v4);
        self.a1.d.next = self.a.val();
        self.b1.d.next = self.b.val();
        self.v1.d.next = self.in_valid.val();

        self.ll2.d.next = (self.a1.q.val().get_bits::<16>(0) * self.b1.q.val().get_bits::<16>(0));
        self.lh2.d.next = (self.a1.q.val().get_bits::<16>(0) * self.b1.q.val().get_bits::<16>(16));
        self.hl2.d.next = (self.a1.q.val().get_bits::<16>(16) * self.b1.q.val().get_bits::<16>(0));
        self.hh2.d.next = (self.a1.q.val().get_bits::<16>(16) * self.b1.q.val().get_bits::<16>(16));
        self.v2.d.next = self.v1.q.val();

        self.mid3.d.next =
            (bit_cast::<64, 32>(self.lh2.q.val()) + bit_cast::<64, 32>(self.hl2.q.val()));
        self.hhll3.d.next =
            ((bit_cast::<64, 32>(self.hh2.q.val()) << 32) | bit_cast::<64, 32>(self.ll2.q.val()));
        self.v3.d.next = self.v2.q.val();

        self.p4.d.next = (self.hhll3.q.val() + (self.mid3.q.val() << 16));
        self.v4.d.next = self.v3.q.val();

        self.p.next = self.p4.q.val();
        self.out_valid.next = self.v4.q.val();
    }
}
