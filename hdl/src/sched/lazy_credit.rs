//! The scheduler's lazy credit: a flow's credit accrued since its last
//! operation, capped, and what is left of it after a send or a TRIM. A
//! block of [`FlowSched`](super::flow_sched::FlowSched), its stages S3 to
//! S10 ("Lazy credit" in its docs).
//!
//! Per operation, with the flow's rate R (UQ8.24 bytes a cycle), its
//! stored credit and the cycle of its last operation:
//! - S3–S7: the product R·(now − last) ([`WideMul`], four cycles),
//!   saturated to 44 bits;
//! - S7: credit + product (45 bits); S8: capped at the effective cap,
//!   max(`cfg_cap`, `cfg_mtu`) bytes (UQ20.24): the accrued credit;
//! - S9: the accrued credit less the packet's length (the borrow says
//!   there is not enough), and the accrued credit plus a TRIM's refund.
//!
//! # Ports (clock `clock`; no reset: every output follows its inputs)
//! - `cfg_mtu` (16 bits, bytes), `cfg_cap` (20 bits, bytes): the cap,
//!   registered (hold them while flows are active, as the scheduler says).
//! - In at S3 (cycle t): `r` (32, UQ8.24 bytes a cycle), `now` (32, the
//!   operation's cycle), `last` (32, the flow's last operation's).
//! - In at S7 (t + 4): `cr` (44, UQ20.24 bytes: the stored credit).
//! - In at S9 (t + 6): `len` (16, the packet's bytes), `refund` (32, the
//!   TRIM's bytes).
//! - Out at S10 (t + 7), flip-flops: `cr_acc` (44: the accrued credit),
//!   `cr_short` (the accrued credit is under `len`), `cr_sent` (44: the
//!   accrued credit less `len`, meaningful where `cr_short` is low);
//!   `cr_trim` (44: the accrued credit plus the refund, capped; a refund
//!   of 2^20 bytes or more gives the cap) is the select of its sum
//!   register and the cap register by their compare.
//!
//! # Timing
//! Latency 7 (S3 to S10), an operation every cycle. One carry chain a
//! stage: the sum (S7), its compare with the cap (S8), the difference or
//! the TRIM's sum (S9), the TRIM's compare (S10).
//!
//! # Bad input
//! None is refused: a product past 44 bits saturates, every sum past the
//! cap is capped, and `now` − `last` wraps (a flow untouched for 2^32
//! cycles accrues modulo that time, never more than the cap).
//!
//! Golden twin: `nic_golden::sched::lazy_credit`.

use crate::arith::WideMul;
use rust_hdl::prelude::*;
use smart_default::SmartDefault;

#[derive(LogicBlock, SmartDefault)]
pub struct LazyCredit {
    pub clock: Signal<In, Clock>,
    pub cfg_mtu: Signal<In, Bits<16>>,
    pub cfg_cap: Signal<In, Bits<20>>,
    pub r: Signal<In, Bits<32>>,
    pub now: Signal<In, Bits<32>>,
    pub last: Signal<In, Bits<32>>,
    pub cr: Signal<In, Bits<44>>,
    pub len: Signal<In, Bits<16>>,
    pub refund: Signal<In, Bits<32>>,
    pub cr_acc: Signal<Out, Bits<44>>,
    pub cr_short: Signal<Out, Bit>,
    pub cr_sent: Signal<Out, Bits<44>>,
    pub cr_trim: Signal<Out, Bits<44>>,
    mul: WideMul,
    /// The effective cap, UQ20.24: max(`cfg_cap`, `cfg_mtu`) bytes.
    cap: DFF<Bits<44>>,
    /// S8: credit + the saturated product.
    sum8: DFF<Bits<45>>,
    /// S9, S10: the accrued credit (capped).
    cracc9: DFF<Bits<44>>,
    cracc10: DFF<Bits<44>>,
    /// S10: the accrued credit less the packet (bit 44: the borrow).
    diff10: DFF<Bits<45>>,
    /// S10: the accrued credit plus the refund's low 20 bits of bytes,
    /// and whether the refund has more.
    trim10: DFF<Bits<45>>,
    refund_big10: DFF<Bit>,
    #[default(Constant::new(Bits::<8>::from(24u64)))]
    k24: Constant<Bits<8>>,
    #[default(Constant::new(Bits::<44>::from((1u64 << 44) - 1)))]
    ones44: Constant<Bits<44>>,
    psat: Signal<Local, Bits<44>>,
}

impl Logic for LazyCredit {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            cap,
            sum8,
            cracc9,
            cracc10,
            diff10,
            trim10,
            refund_big10
        );
        clock!(self, clock, mul);
        if (bit_cast::<20, 16>(self.cfg_mtu.val()) > self.cfg_cap.val()) {
            self.cap.d.next = (bit_cast::<44, 16>(self.cfg_mtu.val()) << self.k24.val());
        } else {
            self.cap.d.next = (bit_cast::<44, 20>(self.cfg_cap.val()) << self.k24.val());
        }
        // S3: the product R·(now − last), four cycles.
        self.mul.a.next = self.r.val();
        self.mul.b.next = (self.now.val() - self.last.val());
        self.mul.in_valid.next = true;
        // S7: credit + product (saturated to 44 bits).
        self.psat.next = self.mul.p.val().get_bits::<44>(0);
        if self.mul.p.val().get_bits::<20>(44).any() {
            self.psat.next = self.ones44.val();
        }
        self.sum8.d.next =
            (bit_cast::<45, 44>(self.cr.val()) + bit_cast::<45, 44>(self.psat.val()));
        // S8: the cap.
        if (self.sum8.q.val() > bit_cast::<45, 44>(self.cap.q.val())) {
            self.cracc9.d.next = self.cap.q.val();
        } else {
            self.cracc9.d.next = self.sum8.q.val().get_bits::<44>(0);
        }
        // S9: after the send (borrow = not enough); TRIM's credit (a
        // refund of 2^20 bytes or more is past any cap).
        self.cracc10.d.next = self.cracc9.q.val();
        self.trim10.d.next = (bit_cast::<45, 44>(self.cracc9.q.val())
            + (bit_cast::<45, 20>(self.refund.val().get_bits::<20>(0)) << self.k24.val()));
        self.refund_big10.d.next = self.refund.val().get_bits::<12>(20).any();
        self.diff10.d.next = (bit_cast::<45, 44>(self.cracc9.q.val())
            - (bit_cast::<45, 16>(self.len.val()) << self.k24.val()));
        // S10.
        self.cr_acc.next = self.cracc10.q.val();
        self.cr_short.next = self.diff10.q.val().get_bit(44);
        self.cr_sent.next = self.diff10.q.val().get_bits::<44>(0);
        if (self.refund_big10.q.val()
            || (self.trim10.q.val() > bit_cast::<45, 44>(self.cap.q.val())))
        {
            self.cr_trim.next = self.cap.q.val();
        } else {
            self.cr_trim.next = self.trim10.q.val().get_bits::<44>(0);
        }
    }
}
