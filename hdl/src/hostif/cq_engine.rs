//! The completion-queue engine: 2^C completion queues in host memory
//! (`nic_spec::hostif::cqe`), their registers (`nic_spec::hostif::cq_reg`)
//! and their events.
//!
//! Per queue, in registers: base address, log2 entries, producer index
//! `pi` (entries written), consumer index `ci` (the host's), enable, the
//! moderation settings, and the entries written but not yet signalled
//! (`pend`) with the cycles since the first of them (`timer`).
//!
//! - A completion (`s_cqe`, `CqeReq`) is first taken into a holding
//!   register (`s_cqe.ready` is that register being empty: a flop, so the
//!   producer's handshake does not pass through the queue select). Its
//!   queue's registers are selected and registered the next cycle (`hs_*`:
//!   enable, full, base, slot offset, phase), and the decision is made
//!   from that registered view when it is current: the completion was
//!   held in the cycle before and no register access came then (a CI
//!   write can free room, a CTRL write reset the queue). From there, for
//!   an enabled queue with room
//!   (pi − ci < 2^log2 entries) it becomes an entry at base + 16 · (pi mod
//!   2^log2 entries): tag | bytes << 32, then flow | status << 16 |
//!   phase << 31, phase = 1 on the ring's first pass, 0 on the second,
//!   …; pi += 1; it goes to the DMA write packer (`m_write`,
//!   `CqeWrite`). A full queue holds the completion in the register
//!   (`s_cqe.ready` low: back-pressure, nothing lost). A completion for a
//!   disabled queue, or a queue ≥ 2^C, is dropped and counted
//!   (`cqe_drops`).
//! - When the packer has sent an entry's last word (`s_done`), the
//!   queue's `pend` grows; an event (`m_event`, `CqEvent`, a one-cycle
//!   pulse naming the queue) fires when pend ≥ MOD_COUNT (0 counts as
//!   1) or when pend > 0 and the timer ≥ MOD_TIME; pend and the timer go
//!   back to 0. One event per cycle, the lowest queue first; others wait
//!   a cycle. A disabled queue raises none.
//! - Registers (`s_reg`: address = the offset from `map::CQ`, queue in
//!   bits 4+C..5, register in 4..0), one at a time (`s_reg.ready` is low
//!   the cycle after one is taken): taken with its queue's registers
//!   read and registered, then decided and written (byte lanes merged)
//!   the next cycle on those values, answered the cycle after that
//!   (`m_reg`). A CI that is not between
//!   the queue's ci and pi (mod 2^16) is refused (SLVERR) and counted
//!   (`ci_refused`). Writing CTRL's enable bit from 0 to 1 empties the
//!   queue (pi, ci, pend, timer 0). BASE_LO keeps bits 3..0 at 0,
//!   LOG_SIZE saturates at 15. A write to PI is refused (the decoder
//!   refuses it first).
//!
//! Ports (clock `clock`; no reset): as above; counters `cqes`
//! (entries written), `cqe_drops`, `events`, `ci_refused`.
//!
//! Timing: a completion taken in cycle t → held in t + 1 → its queue's
//! view registered, decided in t + 2 → its entry offered in t + 3 (one
//! cycle more after a register access); an entry's notice in t → its
//! event (if due) in t + 1; a register access taken in t → written at
//! the edge of t + 1 → answered in t + 2, one every 2 cycles. Throughput:
//! one completion every 3 cycles (its producer, the send-queue engine,
//! gives at most one every 4). A completion is decided only while the
//! entry register (`m_write`) is empty, so the packer's `ready` reaches
//! no logic but that register's valid (R1). No path runs from the queue select
//! through the 64-bit entry-address add, nor from the register select
//! through the CI check (the timing rules, R4: one wide carry chain a
//! cycle). Selects by queue are an OR of the one match, a tree; the held
//! completion's queue is one-hot in flip-flops (`h_sel`), decoded as it
//! is taken, and a queue's full check and slot mask its indices by a
//! decode of its log2 entries instead of a compare or a subtraction.
//!
//! Golden twin: `nic_golden::hostif::cq_engine`.

use crate::hostif::{
    CqEventSink, CqEventSource, CqeReqSink, CqeWriteSource, RegReqSink, RegRespSource,
};
use nic_spec::hostif::{cq_reg, resp, MAX_LOG_SIZE};
use rust_hdl::prelude::*;
use smart_default::SmartDefault;

/// 2^C completion queues (`N` = 2^C).
#[derive(LogicBlock, SmartDefault)]
pub struct CqEngine<const C: usize, const N: usize> {
    // The parameter check, when the block is built.
    #[default({
        assert!(C <= 4 && N == 1 << C, "CqEngine: N = 2^C queues, C <= 4");
        Default::default()
    })]
    pub clock: Signal<In, Clock>,
    pub s_reg: RegReqSink,
    pub m_reg: RegRespSource,
    pub s_cqe: CqeReqSink,
    pub m_write: CqeWriteSource,
    pub s_done: CqEventSink,
    pub m_event: CqEventSource,
    pub cqes: Signal<Out, Bits<32>>,
    pub cqe_drops: Signal<Out, Bits<32>>,
    pub events: Signal<Out, Bits<32>>,
    pub ci_refused: Signal<Out, Bits<32>>,
    #[default(std::array::from_fn(|_| Default::default()))]
    base_lo: [DFF<Bits<32>>; N],
    #[default(std::array::from_fn(|_| Default::default()))]
    base_hi: [DFF<Bits<32>>; N],
    #[default(std::array::from_fn(|_| Default::default()))]
    log_size: [DFF<Bits<4>>; N],
    #[default(std::array::from_fn(|_| Default::default()))]
    pi: [DFF<Bits<16>>; N],
    #[default(std::array::from_fn(|_| Default::default()))]
    ci: [DFF<Bits<16>>; N],
    #[default(std::array::from_fn(|_| Default::default()))]
    mod_count: [DFF<Bits<16>>; N],
    #[default(std::array::from_fn(|_| Default::default()))]
    mod_time: [DFF<Bits<24>>; N],
    #[default(std::array::from_fn(|_| Default::default()))]
    en: [DFF<Bit>; N],
    #[default(std::array::from_fn(|_| Default::default()))]
    pend: [DFF<Bits<16>>; N],
    #[default(std::array::from_fn(|_| Default::default()))]
    timer: [DFF<Bits<24>>; N],
    h_v: DFF<Bit>,
    h_cq: DFF<Bits<8>>,
    /// The held completion's queue, one-hot (`h_sel[i]`: it names queue
    /// i), and `h_oor` (it names a queue ≥ 2^C): decoded as `h_cq` loads,
    /// so the queue selects below start at one flip-flop per queue, not
    /// at `h_cq`'s compares and its fan-out to every queue (R1).
    #[default(std::array::from_fn(|_| Default::default()))]
    h_sel: [DFF<Bit>; N],
    h_oor: DFF<Bit>,
    h_flow: DFF<Bits<16>>,
    h_tag: DFF<Bits<32>>,
    h_status: DFF<Bits<8>>,
    h_bytes: DFF<Bits<32>>,
    /// The held completion's queue, registered a cycle after the select
    /// (`hs_ok`: nothing has changed it since).
    hs_ok: DFF<Bit>,
    hs_oor: DFF<Bit>,
    hs_en: DFF<Bit>,
    hs_full: DFF<Bit>,
    hs_base: DFF<Bits<64>>,
    hs_off: DFF<Bits<64>>,
    hs_phase: DFF<Bit>,
    w_v: DFF<Bit>,
    w_addr: DFF<Bits<64>>,
    w_lo: DFF<Bits<64>>,
    w_hi: DFF<Bits<64>>,
    w_cq: DFF<Bits<8>>,
    ev_v: DFF<Bit>,
    ev_cq: DFF<Bits<8>>,
    /// A register access, taken and its queue's registers read
    /// (`ra_old`: the addressed one; for the CI check, `ra_ci_adv` = the
    /// written CI − CI and `ra_ci_room` = PI − CI, subtracted as they are
    /// registered, so the decision is one compare; `ra_ci_adv` is merged
    /// from the queue's CI, not from `ra_old`'s select, and means
    /// something only for an access to CI):
    /// decided and written the cycle after, answered the cycle after that.
    ra_v: DFF<Bit>,
    ra_write: DFF<Bit>,
    ra_cq: DFF<Bits<8>>,
    ra_reg: DFF<Bits<5>>,
    ra_wdata: DFF<Bits<32>>,
    ra_mask: DFF<Bits<32>>,
    ra_old: DFF<Bits<32>>,
    ra_ci_adv: DFF<Bits<16>>,
    ra_ci_room: DFF<Bits<16>>,
    rs_v: DFF<Bit>,
    rs_d: DFF<Bits<32>>,
    rs_c: DFF<Bits<2>>,
    n_cqes: DFF<Bits<32>>,
    n_drops: DFF<Bits<32>>,
    n_events: DFF<Bits<32>>,
    n_ci: DFF<Bits<32>>,
    #[default(std::array::from_fn(|i| Constant::new(Bits::<8>::from(i as u64))))]
    k_idx: [Constant<Bits<8>>; N],
    #[default(Constant::new(Bits::<8>::from(C as u64)))]
    k_c: Constant<Bits<8>>,
    /// All ones: shifted left by a queue's log2 entries it is the mask
    /// of the bits at or above its size, a decode of the 4-bit log (no
    /// carry chain).
    #[default(Constant::new(Bits::<16>::from(0xFFFFu64)))]
    k_ones16: Constant<Bits<16>>,
    #[default(Constant::new(Bits::<16>::from(0xFFFFu64)))]
    k_pend_max: Constant<Bits<16>>,
    #[default(Constant::new(Bits::<24>::from(0xFF_FFFFu64)))]
    k_timer_max: Constant<Bits<24>>,
    #[default([0, 1, 2, 3].map(|i| Constant::new(Bits::<32>::from(0xFFu64 << (8 * i)))))]
    k_lane: [Constant<Bits<32>>; 4],
    #[default(Constant::new(Bits::<32>::from(0xFFFF_FFF0u64)))]
    k_base_align: Constant<Bits<32>>,
    #[default(Constant::new(Bits::<32>::from(MAX_LOG_SIZE as u64)))]
    k_log_max: Constant<Bits<32>>,
    #[default(Constant::new(Bits::<2>::from(resp::OKAY as u64)))]
    k_okay: Constant<Bits<2>>,
    #[default(Constant::new(Bits::<2>::from(resp::SLVERR as u64)))]
    k_slverr: Constant<Bits<2>>,
    #[default(Constant::new(Bits::<5>::from(cq_reg::BASE_LO as u64)))]
    k_r_base_lo: Constant<Bits<5>>,
    #[default(Constant::new(Bits::<5>::from(cq_reg::BASE_HI as u64)))]
    k_r_base_hi: Constant<Bits<5>>,
    #[default(Constant::new(Bits::<5>::from(cq_reg::LOG_SIZE as u64)))]
    k_r_log: Constant<Bits<5>>,
    #[default(Constant::new(Bits::<5>::from(cq_reg::CI as u64)))]
    k_r_ci: Constant<Bits<5>>,
    #[default(Constant::new(Bits::<5>::from(cq_reg::PI as u64)))]
    k_r_pi: Constant<Bits<5>>,
    #[default(Constant::new(Bits::<5>::from(cq_reg::MOD_COUNT as u64)))]
    k_r_mcount: Constant<Bits<5>>,
    #[default(Constant::new(Bits::<5>::from(cq_reg::MOD_TIME as u64)))]
    k_r_mtime: Constant<Bits<5>>,
    #[default(Constant::new(Bits::<5>::from(cq_reg::CTRL as u64)))]
    k_r_ctrl: Constant<Bits<5>>,
    #[default(std::array::from_fn(|_| Default::default()))]
    full: [Signal<Local, Bit>; N],
    #[default(std::array::from_fn(|_| Default::default()))]
    fire: [Signal<Local, Bit>; N],
    #[default(std::array::from_fn(|_| Default::default()))]
    inc: [Signal<Local, Bit>; N],
    c_oor: Signal<Local, Bit>,
    c_en: Signal<Local, Bit>,
    c_full: Signal<Local, Bit>,
    c_base: Signal<Local, Bits<64>>,
    c_pi: Signal<Local, Bits<16>>,
    c_log: Signal<Local, Bits<4>>,
    c_slot: Signal<Local, Bits<16>>,
    c_pass: Signal<Local, Bits<16>>,
    c_phase: Signal<Local, Bit>,
    w_free: Signal<Local, Bit>,
    take: Signal<Local, Bit>,
    found: Signal<Local, Bit>,
    r_cq: Signal<Local, Bits<8>>,
    r_reg: Signal<Local, Bits<5>>,
    r_old: Signal<Local, Bits<32>>,
    mask: Signal<Local, Bits<32>>,
    merged: Signal<Local, Bits<32>>,
    merged_now: Signal<Local, Bits<32>>,
    r_base_lo: Signal<Local, Bits<32>>,
    r_base_hi: Signal<Local, Bits<32>>,
    r_log: Signal<Local, Bits<4>>,
    r_ci: Signal<Local, Bits<16>>,
    r_pi: Signal<Local, Bits<16>>,
    r_mcount: Signal<Local, Bits<16>>,
    r_mtime: Signal<Local, Bits<24>>,
    r_en: Signal<Local, Bit>,
    c_base_lo: Signal<Local, Bits<32>>,
    c_base_hi: Signal<Local, Bits<32>>,
}

impl<const C: usize, const N: usize> Logic for CqEngine<C, N> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, h_v, h_cq, h_oor, h_flow, h_tag, h_status, h_bytes, hs_ok, hs_oor, hs_en,
            hs_full, hs_base, hs_off, hs_phase, w_v, w_addr, w_lo, w_hi, w_cq, ev_v, ev_cq, ra_v,
            ra_write, ra_cq, ra_reg, ra_wdata, ra_mask, ra_old, ra_ci_adv, ra_ci_room, rs_v, rs_d,
            rs_c, n_cqes, n_drops, n_events, n_ci
        );
        for i in 0..N {
            self.base_lo[i].clock.next = self.clock.val();
            self.base_hi[i].clock.next = self.clock.val();
            self.log_size[i].clock.next = self.clock.val();
            self.pi[i].clock.next = self.clock.val();
            self.ci[i].clock.next = self.clock.val();
            self.mod_count[i].clock.next = self.clock.val();
            self.mod_time[i].clock.next = self.clock.val();
            self.en[i].clock.next = self.clock.val();
            self.pend[i].clock.next = self.clock.val();
            self.timer[i].clock.next = self.clock.val();
            self.base_lo[i].d.next = self.base_lo[i].q.val();
            self.base_hi[i].d.next = self.base_hi[i].q.val();
            self.log_size[i].d.next = self.log_size[i].q.val();
            self.pi[i].d.next = self.pi[i].q.val();
            self.ci[i].d.next = self.ci[i].q.val();
            self.mod_count[i].d.next = self.mod_count[i].q.val();
            self.mod_time[i].d.next = self.mod_time[i].q.val();
            self.en[i].d.next = self.en[i].q.val();
            self.pend[i].d.next = self.pend[i].q.val();
            self.timer[i].d.next = self.timer[i].q.val();
            self.h_sel[i].clock.next = self.clock.val();
            self.h_sel[i].d.next = self.h_sel[i].q.val();
            // pi − ci ≥ 2^log2 entries, as a bit of pi − ci at or above
            // the size: one carry chain, no compare after it (R4).
            self.full[i].next = ((self.pi[i].q.val() - self.ci[i].q.val())
                & (self.k_ones16.val() << self.log_size[i].q.val()))
            .any();
        }
        // ---- A completion: held, then the queue it names.
        self.s_cqe.ready.next = !self.h_v.q.val();
        if (self.s_cqe.valid.val() && !self.h_v.q.val()) {
            self.h_v.d.next = true;
            self.h_cq.d.next = self.s_cqe.cq.val();
            self.h_oor.d.next = (self.s_cqe.cq.val() >> self.k_c.val()).any();
            for i in 0..N {
                self.h_sel[i].d.next = (self.s_cqe.cq.val() == self.k_idx[i].val());
            }
            self.h_flow.d.next = self.s_cqe.flow.val();
            self.h_tag.d.next = self.s_cqe.tag.val();
            self.h_status.d.next = self.s_cqe.status.val();
            self.h_bytes.d.next = self.s_cqe.bytes.val();
        }
        self.c_oor.next = self.h_oor.q.val();
        self.c_en.next = false;
        self.c_full.next = false;
        self.c_base_lo.next = 0.into();
        self.c_base_hi.next = 0.into();
        self.c_pi.next = 0.into();
        self.c_log.next = 0.into();
        // The queue's registers: an OR of the (at most one) match, an OR
        // tree rather than a priority chain of N compares.
        for i in 0..N {
            if self.h_sel[i].q.val() {
                self.c_en.next = (self.c_en.val() | self.en[i].q.val());
                self.c_full.next = (self.c_full.val() | self.full[i].val());
                self.c_base_lo.next = (self.c_base_lo.val() | self.base_lo[i].q.val());
                self.c_base_hi.next = (self.c_base_hi.val() | self.base_hi[i].q.val());
                self.c_pi.next = (self.c_pi.val() | self.pi[i].q.val());
                self.c_log.next = (self.c_log.val() | self.log_size[i].q.val());
            }
        }
        self.c_base.next = ((bit_cast::<64, 32>(self.c_base_hi.val()) << 32)
            | bit_cast::<64, 32>(self.c_base_lo.val()));
        self.c_slot.next =
            (self.c_pi.val() & !(self.k_ones16.val() << bit_cast::<16, 4>(self.c_log.val())));
        self.c_pass.next = (self.c_pi.val() >> bit_cast::<16, 4>(self.c_log.val()));
        self.c_phase.next = !self.c_pass.val().get_bit(0);
        self.hs_oor.d.next = self.c_oor.val();
        self.hs_en.d.next = self.c_en.val();
        self.hs_full.d.next = self.c_full.val();
        self.hs_base.d.next = self.c_base.val();
        self.hs_off.d.next = (bit_cast::<64, 16>(self.c_slot.val()) << 4);
        self.hs_phase.d.next = self.c_phase.val();
        // ---- The decision, from the registered view.
        // The entry register is free when it is empty: not when the
        // packer takes its entry this cycle, so the packer's `ready` does
        // not reach `take`, the queue's `pi` and the holding register
        // (R1; a completion waits a cycle more only where the packer
        // takes the entry in the cycle it is decided).
        self.w_free.next = !self.w_v.q.val();
        self.take.next = (self.h_v.q.val()
            && self.hs_ok.q.val()
            && self.w_free.val()
            && (self.hs_oor.q.val() || !self.hs_en.q.val() || !self.hs_full.q.val()));
        // The view is good next cycle if the completion stays and no
        // register access (CI, CTRL, BASE, LOG_SIZE) is taken or written
        // now.
        self.hs_ok.d.next =
            (self.h_v.q.val() && !self.take.val() && !self.s_reg.valid.val() && !self.ra_v.q.val());
        if (self.w_v.q.val() && self.m_write.ready.val()) {
            self.w_v.d.next = false;
        }
        if self.take.val() {
            self.h_v.d.next = false;
            if (self.hs_oor.q.val() || !self.hs_en.q.val()) {
                self.n_drops.d.next = (self.n_drops.q.val() + 1);
            } else {
                self.n_cqes.d.next = (self.n_cqes.q.val() + 1);
                self.w_v.d.next = true;
                self.w_addr.d.next = (self.hs_base.q.val() + self.hs_off.q.val());
                self.w_lo.d.next = ((bit_cast::<64, 32>(self.h_bytes.q.val()) << 32)
                    | bit_cast::<64, 32>(self.h_tag.q.val()));
                self.w_hi.d.next = ((bit_cast::<64, 1>(self.hs_phase.q.val().into()) << 31)
                    | (bit_cast::<64, 8>(self.h_status.q.val()) << 16)
                    | bit_cast::<64, 16>(self.h_flow.q.val()));
                self.w_cq.d.next = self.h_cq.q.val();
                for i in 0..N {
                    if self.h_sel[i].q.val() {
                        self.pi[i].d.next = (self.pi[i].q.val() + 1);
                    }
                }
            }
        }
        self.m_write.valid.next = self.w_v.q.val();
        self.m_write.addr.next = self.w_addr.q.val();
        self.m_write.lo.next = self.w_lo.q.val();
        self.m_write.hi.next = self.w_hi.q.val();
        self.m_write.cq.next = self.w_cq.q.val();
        // ---- Entries sent: pending counts, timers, events.
        self.found.next = false;
        self.ev_v.d.next = false;
        for i in 0..N {
            self.inc[i].next =
                (self.s_done.valid.val() && (self.s_done.cq.val() == self.k_idx[i].val()));
            if (self.inc[i].val() && (self.pend[i].q.val() != self.k_pend_max.val())) {
                self.pend[i].d.next = (self.pend[i].q.val() + 1);
            }
            if (self.pend[i].q.val().any() && (self.timer[i].q.val() != self.k_timer_max.val())) {
                self.timer[i].d.next = (self.timer[i].q.val() + 1);
            }
            self.fire[i].next = (self.en[i].q.val()
                && self.pend[i].q.val().any()
                && ((self.pend[i].q.val() >= self.mod_count[i].q.val())
                    || (self.timer[i].q.val() >= self.mod_time[i].q.val())));
            if (self.fire[i].val() && !self.found.val()) {
                self.found.next = true;
                self.ev_v.d.next = true;
                self.ev_cq.d.next = self.k_idx[i].val();
                self.n_events.d.next = (self.n_events.q.val() + 1);
                self.pend[i].d.next = 0.into();
                if self.inc[i].val() {
                    self.pend[i].d.next = 1.into();
                }
                self.timer[i].d.next = 0.into();
            }
        }
        self.m_event.valid.next = self.ev_v.q.val();
        self.m_event.cq.next = self.ev_cq.q.val();
        // ---- Registers.
        // Taken (one at a time), its queue's registers read: the access
        // is registered with them (`ra_*`).
        self.s_reg.ready.next = !self.ra_v.q.val();
        self.r_cq.next = self.s_reg.addr.val().get_bits::<8>(5);
        self.r_reg.next = self.s_reg.addr.val().get_bits::<5>(0);
        // The addressed queue's registers, then the addressed one.
        self.r_base_lo.next = 0.into();
        self.r_base_hi.next = 0.into();
        self.r_log.next = 0.into();
        self.r_ci.next = 0.into();
        self.r_pi.next = 0.into();
        self.r_mcount.next = 0.into();
        self.r_mtime.next = 0.into();
        self.r_en.next = false;
        for i in 0..N {
            if (self.r_cq.val() == self.k_idx[i].val()) {
                self.r_base_lo.next = (self.r_base_lo.val() | self.base_lo[i].q.val());
                self.r_base_hi.next = (self.r_base_hi.val() | self.base_hi[i].q.val());
                self.r_log.next = (self.r_log.val() | self.log_size[i].q.val());
                self.r_ci.next = (self.r_ci.val() | self.ci[i].q.val());
                self.r_pi.next = (self.r_pi.val() | self.pi[i].q.val());
                self.r_mcount.next = (self.r_mcount.val() | self.mod_count[i].q.val());
                self.r_mtime.next = (self.r_mtime.val() | self.mod_time[i].q.val());
                self.r_en.next = (self.r_en.val() | self.en[i].q.val());
            }
        }
        // The register (an OR of the one match).
        self.r_old.next = 0.into();
        if (self.r_reg.val() == self.k_r_base_lo.val()) {
            self.r_old.next = (self.r_old.val() | self.r_base_lo.val());
        }
        if (self.r_reg.val() == self.k_r_base_hi.val()) {
            self.r_old.next = (self.r_old.val() | self.r_base_hi.val());
        }
        if (self.r_reg.val() == self.k_r_log.val()) {
            self.r_old.next = (self.r_old.val() | bit_cast::<32, 4>(self.r_log.val()));
        }
        if (self.r_reg.val() == self.k_r_ci.val()) {
            self.r_old.next = (self.r_old.val() | bit_cast::<32, 16>(self.r_ci.val()));
        }
        if (self.r_reg.val() == self.k_r_pi.val()) {
            self.r_old.next = (self.r_old.val() | bit_cast::<32, 16>(self.r_pi.val()));
        }
        if (self.r_reg.val() == self.k_r_mcount.val()) {
            self.r_old.next = (self.r_old.val() | bit_cast::<32, 16>(self.r_mcount.val()));
        }
        if (self.r_reg.val() == self.k_r_mtime.val()) {
            self.r_old.next = (self.r_old.val() | bit_cast::<32, 24>(self.r_mtime.val()));
        }
        if (self.r_reg.val() == self.k_r_ctrl.val()) {
            self.r_old.next = (self.r_old.val() | bit_cast::<32, 1>(self.r_en.val().into()));
        }
        self.mask.next = 0.into();
        for i in 0..4 {
            if self.s_reg.wstrb.val().get_bit(i) {
                self.mask.next = (self.mask.val() | self.k_lane[i].val());
            }
        }
        // The CI a write to CI would leave, for the CI check's
        // subtraction: merged from the queue's CI itself, not from the
        // register select `r_old` (equal when the access is to CI, the
        // only case `ra_ci_adv` is used), so the subtraction starts two
        // selects earlier.
        self.merged_now.next = ((bit_cast::<32, 16>(self.r_ci.val()) & !self.mask.val())
            | (self.s_reg.wdata.val() & self.mask.val()));
        self.ra_v.d.next = (self.s_reg.valid.val() && !self.ra_v.q.val());
        if (self.s_reg.valid.val() && !self.ra_v.q.val()) {
            self.ra_write.d.next = self.s_reg.write.val();
            self.ra_cq.d.next = self.r_cq.val();
            self.ra_reg.d.next = self.r_reg.val();
            self.ra_wdata.d.next = self.s_reg.wdata.val();
            self.ra_mask.d.next = self.mask.val();
            self.ra_old.d.next = self.r_old.val();
            self.ra_ci_adv.d.next = (self.merged_now.val().get_bits::<16>(0) - self.r_ci.val());
            self.ra_ci_room.d.next = (self.r_pi.val() - self.r_ci.val());
        }
        // ---- The access registered last cycle: decided, written, and
        // answered next cycle.
        self.merged.next = ((self.ra_old.q.val() & !self.ra_mask.q.val())
            | (self.ra_wdata.q.val() & self.ra_mask.q.val()));
        self.rs_v.d.next = self.ra_v.q.val();
        self.rs_d.d.next = 0.into();
        self.rs_c.d.next = self.k_okay.val();
        if self.ra_v.q.val() {
            if !self.ra_write.q.val() {
                self.rs_d.d.next = self.ra_old.q.val();
            } else if (self.ra_reg.q.val() == self.k_r_pi.val()) {
                self.rs_c.d.next = self.k_slverr.val();
            } else if ((self.ra_reg.q.val() == self.k_r_ci.val())
                && (self.ra_ci_adv.q.val() > self.ra_ci_room.q.val()))
            {
                self.rs_c.d.next = self.k_slverr.val();
                self.n_ci.d.next = (self.n_ci.q.val() + 1);
            } else {
                for i in 0..N {
                    if (self.ra_cq.q.val() == self.k_idx[i].val()) {
                        if (self.ra_reg.q.val() == self.k_r_base_lo.val()) {
                            self.base_lo[i].d.next = (self.merged.val() & self.k_base_align.val());
                        } else if (self.ra_reg.q.val() == self.k_r_base_hi.val()) {
                            self.base_hi[i].d.next = self.merged.val();
                        } else if (self.ra_reg.q.val() == self.k_r_log.val()) {
                            self.log_size[i].d.next = self.merged.val().get_bits::<4>(0);
                            if (self.merged.val() > self.k_log_max.val()) {
                                self.log_size[i].d.next = self.k_log_max.val().get_bits::<4>(0);
                            }
                        } else if (self.ra_reg.q.val() == self.k_r_ci.val()) {
                            self.ci[i].d.next = self.merged.val().get_bits::<16>(0);
                        } else if (self.ra_reg.q.val() == self.k_r_mcount.val()) {
                            self.mod_count[i].d.next = self.merged.val().get_bits::<16>(0);
                        } else if (self.ra_reg.q.val() == self.k_r_mtime.val()) {
                            self.mod_time[i].d.next = self.merged.val().get_bits::<24>(0);
                        } else if (self.ra_reg.q.val() == self.k_r_ctrl.val()) {
                            self.en[i].d.next = self.merged.val().get_bit(0);
                            if (self.merged.val().get_bit(0) && !self.en[i].q.val()) {
                                self.pi[i].d.next = 0.into();
                                self.ci[i].d.next = 0.into();
                                self.pend[i].d.next = 0.into();
                                self.timer[i].d.next = 0.into();
                            }
                        }
                    }
                }
            }
        }
        self.m_reg.valid.next = self.rs_v.q.val();
        self.m_reg.rdata.next = self.rs_d.q.val();
        self.m_reg.resp.next = self.rs_c.q.val();
        self.cqes.next = self.n_cqes.q.val();
        self.cqe_drops.next = self.n_drops.q.val();
        self.events.next = self.n_events.q.val();
        self.ci_refused.next = self.n_ci.q.val();
    }
}
