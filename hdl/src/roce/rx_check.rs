//! The dispatcher's checks: a record compared with its flow's context
//! words, registered in `Chk` so that `Exec` decides from flip-flops
//! (timing rule R4: the words come through the context store's forward
//! select, and those compares and the decision were one cycle's path).
//! A block of [`RoceRxDispatch`](super::rx_dispatch::RoceRxDispatch).
//!
//! # Ports (clock `clock`; no reset: the registers start at zero)
//! - In, the record (latched by the parent): `qp_high` (its QP is at or
//!   past 2^A), `psn` (24), `len` (13, the payload's bytes), `dlen` (32,
//!   the RETH's DMA length), `va` (64, the RETH's address); its opcode's
//!   class: `is_write` (a WRITE), `has_reth` (FIRST or ONLY),
//!   `is_read_req` (a READ REQUEST).
//! - In, the flow's context words ([`RxCtxStore`](super::rx_ctx_store)):
//!   `fl` (8: bit 0 valid, 1 `nak_sent`, 2 `cnp_on_ce`, 3 `rd_done`, 7
//!   the landing index's lap), `epsn` (24), `wva` (64), `wleft` (32),
//!   `radr` (64), `rpsn` (24), `ent` (89: the landing entry, address
//!   [63:0], first PSN [87:64], lap [88]).
//! - Out, flip-flops, each from the inputs of the cycle before:
//!   - `unk`: the flow is unknown (`qp_high`, or `fl` bit 0 clear);
//!   - `d_zero`, `d_ahead`, `d_dup`: with d = `psn` − `epsn` (mod 2^24),
//!     d = 0, 1 ≤ d < 2^12 (ahead: a loss), d ≥ 2^24 − 2^12 (a duplicate);
//!     none of them: a PSN too far off. `d_zero` is an equality (no
//!     carry chain), the windows d's top twelve bits, never a compare;
//!   - `va_bad`: the address the packet's data goes to (`va` with a
//!     RETH, else `wva`) is not 8-aligned while data moves (`len` ≠ 0, a
//!     READ REQUEST's `dlen` ≠ 0);
//!   - `len_over`: a WRITE without a RETH (MIDDLE or LAST) carries more
//!     than its WRITE may still carry (`len` > `wleft`);
//!   - `rr_match`: a READ RESPONSE's `psn` is the one expected: between
//!     READs (`rd_done`) the landing entry's first PSN, with the entry's
//!     lap equal to `fl` bit 7; inside a READ `rpsn`;
//!   - `ra_bad`: the address that READ RESPONSE lands at (the entry's, or
//!     `radr`) is not 8-aligned while it carries data (`len` ≠ 0);
//!   - `nak_sent`, `cnp_on_ce`: `fl` bits 1 and 2, for the decision.
//!
//! # Timing
//! Latency 1, a result every cycle. The parent feeds it the latched
//! record and the words of every cycle; in `Exec` it reads those made in
//! `Chk`, whose words are `Exec`'s (the store reads the latched flow
//! every cycle, and a cfg write since `Idle` makes the packet stale).
//!
//! # Bad input
//! None of its own: any record and words give the flags above; the
//! parent decides what they condemn.
//!
//! Golden twin: `nic_golden::roce::rx_check`.

use rust_hdl::prelude::*;
use smart_default::SmartDefault;

#[derive(LogicBlock, SmartDefault)]
pub struct RxCheck {
    pub clock: Signal<In, Clock>,
    pub qp_high: Signal<In, Bit>,
    pub psn: Signal<In, Bits<24>>,
    pub len: Signal<In, Bits<13>>,
    pub dlen: Signal<In, Bits<32>>,
    pub va: Signal<In, Bits<64>>,
    pub is_write: Signal<In, Bit>,
    pub has_reth: Signal<In, Bit>,
    pub is_read_req: Signal<In, Bit>,
    pub fl: Signal<In, Bits<8>>,
    pub epsn: Signal<In, Bits<24>>,
    pub wva: Signal<In, Bits<64>>,
    pub wleft: Signal<In, Bits<32>>,
    pub radr: Signal<In, Bits<64>>,
    pub rpsn: Signal<In, Bits<24>>,
    pub ent: Signal<In, Bits<89>>,
    pub unk: Signal<Out, Bit>,
    pub d_zero: Signal<Out, Bit>,
    pub d_ahead: Signal<Out, Bit>,
    pub d_dup: Signal<Out, Bit>,
    pub va_bad: Signal<Out, Bit>,
    pub len_over: Signal<Out, Bit>,
    pub rr_match: Signal<Out, Bit>,
    pub ra_bad: Signal<Out, Bit>,
    pub nak_sent: Signal<Out, Bit>,
    pub cnp_on_ce: Signal<Out, Bit>,
    unk_r: DFF<Bit>,
    d_zero_r: DFF<Bit>,
    d_ahead_r: DFF<Bit>,
    d_dup_r: DFF<Bit>,
    va_bad_r: DFF<Bit>,
    len_over_r: DFF<Bit>,
    rr_match_r: DFF<Bit>,
    ra_bad_r: DFF<Bit>,
    nak_sent_r: DFF<Bit>,
    cnp_on_ce_r: DFF<Bit>,
    /// d = `psn` − `epsn` (mod 2^24).
    dd: Signal<Local, Bits<24>>,
    is_d_zero: Signal<Local, Bit>,
    /// The address the packet's data goes to, and whether data moves.
    va_eff_low: Signal<Local, Bits<3>>,
    len_nz: Signal<Local, Bit>,
    dat_nz: Signal<Local, Bit>,
    len32: Signal<Local, Bits<32>>,
    /// The address a READ RESPONSE lands at (its low bits).
    rbase_low: Signal<Local, Bits<3>>,
}

impl Logic for RxCheck {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            unk_r,
            d_zero_r,
            d_ahead_r,
            d_dup_r,
            va_bad_r,
            len_over_r,
            rr_match_r,
            ra_bad_r,
            nak_sent_r,
            cnp_on_ce_r
        );
        self.unk_r.d.next = (self.qp_high.val() || !self.fl.val().get_bit(0));
        self.nak_sent_r.d.next = self.fl.val().get_bit(1);
        self.cnp_on_ce_r.d.next = self.fl.val().get_bit(2);
        // The PSN's windows.
        self.dd.next = (self.psn.val() - self.epsn.val());
        self.is_d_zero.next = (self.psn.val() == self.epsn.val());
        self.d_zero_r.d.next = self.is_d_zero.val();
        self.d_ahead_r.d.next = (!self.is_d_zero.val() && !self.dd.val().get_bits::<12>(12).any());
        self.d_dup_r.d.next = self.dd.val().get_bits::<12>(12).all();
        // The address's alignment, where data moves.
        if self.has_reth.val() {
            self.va_eff_low.next = self.va.val().get_bits::<3>(0);
        } else {
            self.va_eff_low.next = self.wva.val().get_bits::<3>(0);
        }
        self.len_nz.next = self.len.val().any();
        if self.is_read_req.val() {
            self.dat_nz.next = self.dlen.val().any();
        } else {
            self.dat_nz.next = self.len_nz.val();
        }
        self.va_bad_r.d.next = (self.va_eff_low.val().any() && self.dat_nz.val());
        // A MIDDLE or LAST may not carry more than its WRITE's DMA length
        // left: it would land past the range the FIRST was granted.
        self.len32.next = bit_cast::<32, 13>(self.len.val());
        self.len_over_r.d.next = ((self.is_write.val() && !self.has_reth.val())
            && (self.len32.val() > self.wleft.val()));
        // READ RESPONSE: inside a READ the running position, between
        // READs the landing entry (its lap must be `fl` bit 7).
        if self.fl.val().get_bit(3) {
            self.rbase_low.next = self.ent.val().get_bits::<3>(0);
            self.rr_match_r.d.next = ((self.ent.val().get_bit(88) == self.fl.val().get_bit(7))
                && (self.psn.val() == self.ent.val().get_bits::<24>(64)));
        } else {
            self.rbase_low.next = self.radr.val().get_bits::<3>(0);
            self.rr_match_r.d.next = (self.psn.val() == self.rpsn.val());
        }
        self.ra_bad_r.d.next = (self.rbase_low.val().any() && self.len_nz.val());
        self.unk.next = self.unk_r.q.val();
        self.d_zero.next = self.d_zero_r.q.val();
        self.d_ahead.next = self.d_ahead_r.q.val();
        self.d_dup.next = self.d_dup_r.q.val();
        self.va_bad.next = self.va_bad_r.q.val();
        self.len_over.next = self.len_over_r.q.val();
        self.rr_match.next = self.rr_match_r.q.val();
        self.ra_bad.next = self.ra_bad_r.q.val();
        self.nak_sent.next = self.nak_sent_r.q.val();
        self.cnp_on_ce.next = self.cnp_on_ce_r.q.val();
    }
}
