//! The send-queue engine: per-flow rings of work requests in host memory
//! (`nic_spec::hostif::wqe`), their doorbells, the fetch schedule, and
//! the completions back to each flow's completion queue.
//!
//! Per flow, in two block RAMs: the ring (active, base address, log2
//! entries, completion queue; written by a COMMIT, `s_commit`), and its
//! indices: `pi` (producer: the last doorbell), `fi` (fetched: the
//! consumer index the host sees), `done` (completed), all mod 2^16, and
//! `queued` (the flow is in the fetch queue). Invariant: done ≤ fi ≤ pi
//! ≤ fi + 2^log2 entries.
//!
//! Events, one at a time, 4 cycles each, no hazard: `Pick` (the event,
//! the RAM reads), `Look` (the words registered), `Calc` (their
//! differences and minima registered: the room is a subtraction from the
//! outstanding count beside bit tests, and min(room, avail, to the
//! ring's end, 16) three compares and three bit tests side by side, so
//! no more than three carry chains follow each other; R4), `Exec` (the
//! decision and the RAM writes: fi + n and the credits left made for
//! both candidates of n = min(that, free credits) beside their compare). Priority: a COMMIT, a register access, then completions and
//! fetches in turn.
//! - COMMIT: the ring's configuration; indices 0 (`queued` kept: a
//!   queued entry finds nothing to fetch and leaves).
//! - Doorbell write (`s_reg`, address = flow): the new producer index p
//!   (bits 15:0, unstrobed bytes from `pi`) is taken if the flow is
//!   active and pi − fi ≤ p − fi ≤ 2^log2 entries (mod 2^16): neither
//!   beyond the ring nor behind the consumer or producer index;
//!   otherwise it is refused (SLVERR) and counted (`db_refused`). A flow
//!   with entries to fetch and room is put in the fetch queue (a FIFO of
//!   flow ids, each flow at most once: no scan of the flows).
//! - Doorbell read: fi << 16 | pi.
//! - Completion (`s_err` first, then `s_cmpl`; taken only when the
//!   completion register `m_cqe` is free): done += 1 (never past fi),
//!   the completion goes to the flow's CQ (`m_cqe`); its freed room may
//!   queue the flow. A completion of a flow ≥ 2^A goes to CQ 255 (the CQ
//!   engine drops and counts it) and touches no flow.
//! - Fetch (the fetch queue's head, while WQE buffer credits are free
//!   and `m_fetch` is empty): n = min(pi − fi, room, entries to the
//!   ring's end, free credits) entries from index fi (`m_fetch`:
//!   address base + 32 · (fi mod 2^log2 entries)); fi += n. Room =
//!   2^Q − (fi − done): the requester's ring never overflows, so no
//!   work request the host posts completes `Full`. The flow goes back
//!   in the queue if it still has entries and room.
//! Credits: 2^W entries of the WQE unpacker's buffer, taken by a fetch,
//! returned by `wqe_freed` (an entry left the buffer), so fetched words
//! always have room and never block the h2c stream.
//!
//! Ports (clock `clock`; no reset: its state lives with the queues it
//! describes, which `rst` does not clear, `docs/driver.md`),
//! `s_reg`/`m_reg` (`RegReq`/`RegResp`, the doorbell window),
//! `s_commit` (`SqCommit`, strobe; held until picked), `s_cmpl` (the
//! requester's `WrCompletion`), `s_err` (the unpacker's `DMA_ERR`
//! completions), `wqe_freed`, `m_fetch` (`WqeFetch`), `m_cqe` (`CqeReq`),
//! counters `db_rings`, `db_refused`, `wqe_fetches`.
//!
//! Throughput: an event every 4 cycles. Latency: doorbell taken → fetch
//! on `m_fetch` in 8 cycles with an idle engine (4 for the doorbell, its
//! flow at the fetch queue's head 3 cycles after its push, whose `Pick`
//! is the doorbell's next free cycle, 4 for the fetch).
//!
//! Golden twin: `nic_golden::hostif::sq_engine`.

use crate::hostif::{CqeReqSource, RegReqSink, RegRespSource, SqCommitSink, WqeFetchSource};
use crate::mem::{Fifo, Ram};
use crate::roce::WrCompletionSink;
use nic_spec::hostif::resp;
use rust_hdl::prelude::*;
use smart_default::SmartDefault;

/// The event an `Exec` cycle decides.
#[derive(Copy, Clone, PartialEq, Debug, LogicState)]
pub enum SqEvent {
    Commit,
    Reg,
    Cmpl,
    Err,
    Fetch,
}

#[derive(LogicBlock, SmartDefault)]
pub struct SqEngine<const A: usize, const Q: usize, const W: usize> {
    // The parameter check, when the block is built.
    #[default({
        assert!((1..=12).contains(&A), "SqEngine: 1 <= A <= 12");
        assert!(
            (1..=8).contains(&Q),
            "SqEngine: 2..=256 work requests per flow, the requester's range (a fetch is <= 16 entries whatever Q)",
        );
        assert!((1..=6).contains(&W), "SqEngine: 2..=64 WQE buffer credits");
        Default::default()
    })]
    pub clock: Signal<In, Clock>,
    pub s_reg: RegReqSink,
    pub m_reg: RegRespSource,
    pub s_commit: SqCommitSink,
    pub s_cmpl: WrCompletionSink,
    pub s_err: WrCompletionSink,
    pub wqe_freed: Signal<In, Bit>,
    pub m_fetch: WqeFetchSource,
    pub m_cqe: CqeReqSource,
    pub db_rings: Signal<Out, Bits<32>>,
    pub db_refused: Signal<Out, Bits<32>>,
    pub wqe_fetches: Signal<Out, Bits<32>>,
    /// {base[63:5], log2 entries, cq, active}.
    ring: Ram<Bits<72>, A>,
    /// {queued, done, fi, pi}.
    index: Ram<Bits<49>, A>,
    fetch_q: Fifo<A, A>,
    /// 0 pick, 1 look (the RAM words), 2 calc (their differences and
    /// minima), 3 exec (the decision and the write).
    stage: DFF<Bits<2>>,
    lk_index: DFF<Bits<49>>,
    lk_ring: DFF<Bits<72>>,
    c_pi: DFF<Bits<16>>,
    c_fi: DFF<Bits<16>>,
    c_done: DFF<Bits<16>>,
    c_queued: DFF<Bit>,
    c_active: DFF<Bit>,
    c_size: DFF<Bits<17>>,
    c_room: DFF<Bits<17>>,
    c_room_new: DFF<Bits<17>>,
    c_done_new: DFF<Bits<16>>,
    c_p_new: DFF<Bits<16>>,
    c_d_new: DFF<Bits<16>>,
    c_d_old: DFF<Bits<16>>,
    c_slot: DFF<Bits<16>>,
    /// min(pi − fi, room, to the ring's end, 16), 0 for an inactive ring.
    c_n2m: DFF<Bits<17>>,
    ev: DFF<SqEvent>,
    ev_flow: DFF<Bits<A>>,
    ev_oor: DFF<Bit>,
    r_write: DFF<Bit>,
    r_wdata: DFF<Bits<16>>,
    r_strb: DFF<Bits<2>>,
    c_pend: DFF<Bit>,
    c_flow: DFF<Bits<A>>,
    c_word: DFF<Bits<72>>,
    turn_fetch: DFF<Bit>,
    /// Free WQE buffer credits (2^W at start): the credit check reads a
    /// register, not credits − used.
    #[default(DFFWithInit::new(Bits::<8>::from(1u64 << W)))]
    free_cr: DFFWithInit<Bits<8>>,
    f_v: DFF<Bit>,
    f_flow: DFF<Bits<A>>,
    f_idx: DFF<Bits<16>>,
    f_count: DFF<Bits<5>>,
    f_addr: DFF<Bits<64>>,
    q_v: DFF<Bit>,
    q_cq: DFF<Bits<8>>,
    q_flow: DFF<Bits<16>>,
    q_tag: DFF<Bits<32>>,
    q_status: DFF<Bits<8>>,
    q_bytes: DFF<Bits<32>>,
    rs_v: DFF<Bit>,
    rs_data: DFF<Bits<32>>,
    rs_code: DFF<Bits<2>>,
    n_rings: DFF<Bits<32>>,
    n_refused: DFF<Bits<32>>,
    n_fetches: DFF<Bits<32>>,
    #[default(Constant::new(Bits::<16>::from(A as u64)))]
    k_a: Constant<Bits<16>>,
    #[default(Constant::new(Bits::<17>::from(1u64 << Q)))]
    k_room: Constant<Bits<17>>,
    #[default(Constant::new(Bits::<17>::from((1u64 << Q) + 1)))]
    k_room_p1: Constant<Bits<17>>,
    #[default(Constant::new(Bits::<16>::from((0xFFFFu64 << Q) & 0xFFFF)))]
    k_outst_hi: Constant<Bits<16>>,
    #[default(Constant::new(Bits::<16>::from(0xFFFFu64)))]
    k_ones16: Constant<Bits<16>>,
    #[default(Constant::new(Bits::<17>::from(16u64)))]
    k_max_fetch: Constant<Bits<17>>,
    #[default(Constant::new(Bits::<17>::from(1u64)))]
    k_one17: Constant<Bits<17>>,
    #[default(Constant::new(Bits::<8>::from(0xFFu64)))]
    k_no_cq: Constant<Bits<8>>,
    #[default(Constant::new(Bits::<2>::from(resp::OKAY as u64)))]
    k_okay: Constant<Bits<2>>,
    #[default(Constant::new(Bits::<2>::from(resp::SLVERR as u64)))]
    k_slverr: Constant<Bits<2>>,
    #[default(Constant::new(Bits::<16>::from(0x00FFu64)))]
    k_lo_byte: Constant<Bits<16>>,
    #[default(Constant::new(Bits::<16>::from(0xFF00u64)))]
    k_hi_byte: Constant<Bits<16>>,
    pick_cmpl: Signal<Local, Bit>,
    pick_fetch: Signal<Local, Bit>,
    cmpl_avail: Signal<Local, Bit>,
    fetch_avail: Signal<Local, Bit>,
    pick_flow: Signal<Local, Bits<16>>,
    pi: Signal<Local, Bits<16>>,
    fi: Signal<Local, Bits<16>>,
    done: Signal<Local, Bits<16>>,
    queued: Signal<Local, Bit>,
    active: Signal<Local, Bit>,
    log_size: Signal<Local, Bits<4>>,
    size: Signal<Local, Bits<17>>,
    avail: Signal<Local, Bits<16>>,
    outst: Signal<Local, Bits<16>>,
    room: Signal<Local, Bits<17>>,
    done_new: Signal<Local, Bits<16>>,
    room_new: Signal<Local, Bits<17>>,
    p_new: Signal<Local, Bits<16>>,
    slot: Signal<Local, Bits<16>>,
    to_end: Signal<Local, Bits<17>>,
    free: Signal<Local, Bits<17>>,
    room_c: Signal<Local, Bits<17>>,
    avail_c: Signal<Local, Bits<17>>,
    end_c: Signal<Local, Bits<17>>,
    free_lt: Signal<Local, Bit>,
    fi_plus_free: Signal<Local, Bits<16>>,
    fi_plus_n2m: Signal<Local, Bits<16>>,
    cr_minus_n2m: Signal<Local, Bits<8>>,
    cr_after: Signal<Local, Bits<8>>,
    cr_base: Signal<Local, Bits<8>>,
    /// `outst` < 2^Q (a bit test), and `outst` = 2^Q.
    outst_small: Signal<Local, Bit>,
    outst_full: Signal<Local, Bit>,
    /// The ring's index mask, 2^log_size − 1, from the size bits (no
    /// subtraction).
    ring_mask: Signal<Local, Bits<16>>,
    avail17: Signal<Local, Bits<17>>,
    /// The three compares of min(room, avail, to_end), side by side.
    room_lt_avail: Signal<Local, Bit>,
    end_lt_room: Signal<Local, Bit>,
    end_lt_avail: Signal<Local, Bit>,
    n2: Signal<Local, Bits<17>>,
    n2m: Signal<Local, Bits<17>>,
    n_lt_avail: Signal<Local, Bit>,
    room_gt_n: Signal<Local, Bit>,
    n: Signal<Local, Bits<17>>,
    fi_new: Signal<Local, Bits<16>>,
    pi_out: Signal<Local, Bits<16>>,
    fi_out: Signal<Local, Bits<16>>,
    done_out: Signal<Local, Bits<16>>,
    queued_out: Signal<Local, Bit>,
    push: Signal<Local, Bit>,
}

impl<const A: usize, const Q: usize, const W: usize> Logic for SqEngine<A, Q, W> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, stage, lk_index, lk_ring, c_pi, c_fi, c_done, c_queued, c_active, c_size,
            c_room, c_room_new, c_done_new, c_p_new, c_d_new, c_d_old, c_slot, c_n2m, ev, ev_flow,
            ev_oor, r_write, r_wdata, r_strb, c_pend, c_flow, c_word, turn_fetch, free_cr, f_v,
            f_flow, f_idx, f_count, f_addr, q_v, q_cq, q_flow, q_tag, q_status, q_bytes, rs_v,
            rs_data, rs_code, n_rings, n_refused, n_fetches
        );
        clock!(self, clock, ring, index, fetch_q);
        // ---- Pick: one event, its RAM words read.
        self.cmpl_avail.next =
            (!self.q_v.q.val() && (self.s_err.valid.val() || self.s_cmpl.valid.val()));
        self.fetch_avail.next =
            (self.fetch_q.head_valid.val() && self.free_cr.q.val().any() && !self.f_v.q.val());
        self.pick_cmpl.next =
            (self.cmpl_avail.val() && (!self.fetch_avail.val() || !self.turn_fetch.q.val()));
        self.pick_fetch.next =
            (self.fetch_avail.val() && (!self.cmpl_avail.val() || self.turn_fetch.q.val()));
        self.s_reg.ready.next = (!self.stage.q.val().any() && !self.c_pend.q.val());
        self.fetch_q.pop.next = false;
        self.pick_flow.next = bit_cast::<16, A>(self.fetch_q.head_data.val());
        self.stage.d.next = (self.stage.q.val() + 1);
        if !self.stage.q.val().any() {
            self.stage.d.next = 0.into();
            if self.c_pend.q.val() {
                self.stage.d.next = 1.into();
                self.ev.d.next = SqEvent::Commit;
                self.pick_flow.next = bit_cast::<16, A>(self.c_flow.q.val());
            } else if self.s_reg.valid.val() {
                self.stage.d.next = 1.into();
                self.ev.d.next = SqEvent::Reg;
                self.pick_flow.next = self.s_reg.addr.val();
                self.r_write.d.next = self.s_reg.write.val();
                self.r_wdata.d.next = self.s_reg.wdata.val().get_bits::<16>(0);
                self.r_strb.d.next = self.s_reg.wstrb.val().get_bits::<2>(0);
            } else if self.pick_cmpl.val() {
                self.stage.d.next = 1.into();
                self.turn_fetch.d.next = true;
                if self.s_err.valid.val() {
                    self.ev.d.next = SqEvent::Err;
                    self.pick_flow.next = self.s_err.flow.val().get_bits::<16>(0);
                    self.ev_oor.d.next = (self.s_err.flow.val() >> self.k_a.val()).any();
                } else {
                    self.ev.d.next = SqEvent::Cmpl;
                    self.pick_flow.next = self.s_cmpl.flow.val().get_bits::<16>(0);
                    self.ev_oor.d.next = (self.s_cmpl.flow.val() >> self.k_a.val()).any();
                }
            } else if self.pick_fetch.val() {
                self.stage.d.next = 1.into();
                self.turn_fetch.d.next = false;
                self.ev.d.next = SqEvent::Fetch;
                self.fetch_q.pop.next = true;
            }
            self.ev_flow.d.next = self.pick_flow.val().get_bits::<A>(0);
        }
        self.ring.read_address.next = self.pick_flow.val().get_bits::<A>(0);
        self.index.read_address.next = self.pick_flow.val().get_bits::<A>(0);
        // ---- Look: the flow's RAM words, registered.
        if (self.stage.q.val() == 1) {
            self.lk_index.d.next = self.index.read_data.val();
            self.lk_ring.d.next = self.ring.read_data.val();
        }
        // ---- Calc: their fields, differences and minima, registered.
        self.pi.next = self.lk_index.q.val().get_bits::<16>(0);
        self.fi.next = self.lk_index.q.val().get_bits::<16>(16);
        self.done.next = self.lk_index.q.val().get_bits::<16>(32);
        self.queued.next = self.lk_index.q.val().get_bit(48);
        self.active.next = self.lk_ring.q.val().get_bit(0);
        self.log_size.next = self.lk_ring.q.val().get_bits::<4>(9);
        self.size.next = (self.k_one17.val() << bit_cast::<17, 4>(self.log_size.val()));
        self.avail.next = (self.pi.val() - self.fi.val());
        self.outst.next = (self.fi.val() - self.done.val());
        // room = 2^Q − outst, 0 from 2^Q on; room_new the same after the
        // completion of one (done + 1 unless done = fi): 2^Q when none is
        // outstanding, else 2^Q − outst + 1 while outst ≤ 2^Q. Each a
        // subtraction from `outst` beside bit tests, not a chain through
        // `done_new` (R4).
        self.outst_small.next = !(self.outst.val() & self.k_outst_hi.val()).any();
        self.outst_full.next = (bit_cast::<17, 16>(self.outst.val()) == self.k_room.val());
        self.room.next = 0.into();
        if self.outst_small.val() {
            self.room.next = (self.k_room.val() - bit_cast::<17, 16>(self.outst.val()));
        }
        self.done_new.next = self.done.val();
        if (self.done.val() != self.fi.val()) {
            self.done_new.next = (self.done.val() + 1);
        }
        self.room_new.next = 0.into();
        if !self.outst.val().any() {
            self.room_new.next = self.k_room.val();
        } else if (self.outst_small.val() || self.outst_full.val()) {
            self.room_new.next = (self.k_room_p1.val() - bit_cast::<17, 16>(self.outst.val()));
        }
        // Doorbell: the new producer index, unstrobed bytes kept.
        self.p_new.next = self.pi.val();
        if self.r_strb.q.val().get_bit(0) {
            self.p_new.next = ((self.pi.val() & self.k_hi_byte.val())
                | (self.r_wdata.q.val() & self.k_lo_byte.val()));
        }
        if self.r_strb.q.val().get_bit(1) {
            self.p_new.next = ((self.p_new.val() & self.k_lo_byte.val())
                | (self.r_wdata.q.val() & self.k_hi_byte.val()));
        }
        // Fetch: min(pi − fi, room, to the ring's end, 16) here, then
        // free credits in Exec.
        self.ring_mask.next = !(self.k_ones16.val() << bit_cast::<16, 4>(self.log_size.val()));
        self.slot.next = (self.fi.val() & self.ring_mask.val());
        self.to_end.next = (self.size.val() - bit_cast::<17, 16>(self.slot.val()));
        // n2 = min(min(room, avail), to_end), its three compares made side
        // by side and the result selected by them.
        self.avail17.next = bit_cast::<17, 16>(self.avail.val());
        self.room_lt_avail.next = (self.room.val() < self.avail17.val());
        self.end_lt_room.next = (self.to_end.val() < self.room.val());
        self.end_lt_avail.next = (self.to_end.val() < self.avail17.val());
        // Each candidate is clamped to 16 (the most a fetch takes) by a
        // bit test (x > 16: a bit above 4, or bit 4 and one below), beside
        // the compares: min(x, y) clamped is the clamped x or y the same
        // compare picks. So Exec starts from n2m, a register (R4).
        self.room_c.next = self.room.val();
        if (self.room.val().get_bits::<12>(5).any()
            || (self.room.val().get_bit(4) && self.room.val().get_bits::<4>(0).any()))
        {
            self.room_c.next = self.k_max_fetch.val();
        }
        self.avail_c.next = self.avail17.val();
        if (self.avail17.val().get_bits::<12>(5).any()
            || (self.avail17.val().get_bit(4) && self.avail17.val().get_bits::<4>(0).any()))
        {
            self.avail_c.next = self.k_max_fetch.val();
        }
        self.end_c.next = self.to_end.val();
        if (self.to_end.val().get_bits::<12>(5).any()
            || (self.to_end.val().get_bit(4) && self.to_end.val().get_bits::<4>(0).any()))
        {
            self.end_c.next = self.k_max_fetch.val();
        }
        if self.room_lt_avail.val() {
            if self.end_lt_room.val() {
                self.n2.next = self.end_c.val();
            } else {
                self.n2.next = self.room_c.val();
            }
        } else if self.end_lt_avail.val() {
            self.n2.next = self.end_c.val();
        } else {
            self.n2.next = self.avail_c.val();
        }
        if !self.active.val() {
            self.n2.next = 0.into();
        }
        if (self.stage.q.val() == 2) {
            self.c_pi.d.next = self.pi.val();
            self.c_fi.d.next = self.fi.val();
            self.c_done.d.next = self.done.val();
            self.c_queued.d.next = self.queued.val();
            self.c_active.d.next = self.active.val();
            self.c_size.d.next = self.size.val();
            self.c_room.d.next = self.room.val();
            self.c_room_new.d.next = self.room_new.val();
            self.c_done_new.d.next = self.done_new.val();
            self.c_p_new.d.next = self.p_new.val();
            self.c_d_new.d.next = (self.p_new.val() - self.fi.val());
            self.c_d_old.d.next = (self.pi.val() - self.fi.val());
            self.c_slot.d.next = self.slot.val();
            self.c_n2m.d.next = self.n2.val();
        }
        // ---- Exec: the decision, from Calc's registers.
        // n = min(n2, 16, free credits), 0 for an inactive ring. The
        // compares that decide the push are made against n's two
        // candidates in parallel (n < pi − fi and room > n), so one
        // compare, not a chain of them, lies between the registers and
        // the RAM write (docs/architecture.md, the timing rules, R4).
        // n2m (Calc's register) is min(n2, 16), 0 for an inactive ring;
        // n's compare, fi + n and the credits left are made for both of
        // n's candidates side by side and chosen by that compare.
        self.free.next = bit_cast::<17, 8>(self.free_cr.q.val());
        self.n2m.next = self.c_n2m.q.val();
        self.free_lt.next = (self.free.val() < self.n2m.val());
        self.n.next = self.n2m.val();
        if self.free_lt.val() {
            self.n.next = self.free.val();
        }
        self.fi_plus_free.next = (self.c_fi.q.val() + self.free.val().get_bits::<16>(0));
        self.fi_plus_n2m.next = (self.c_fi.q.val() + self.n2m.val().get_bits::<16>(0));
        self.cr_minus_n2m.next = (self.free_cr.q.val() - self.n2m.val().get_bits::<8>(0));
        self.n_lt_avail.next = ((self.n2m.val() < bit_cast::<17, 16>(self.c_d_old.q.val()))
            || (self.free.val() < bit_cast::<17, 16>(self.c_d_old.q.val())));
        self.room_gt_n.next =
            ((self.c_room.q.val() > self.n2m.val()) || (self.c_room.q.val() > self.free.val()));
        self.fi_new.next = self.fi_plus_n2m.val();
        self.cr_after.next = self.cr_minus_n2m.val();
        if self.free_lt.val() {
            self.fi_new.next = self.fi_plus_free.val();
            self.cr_after.next = 0.into();
        }
        // Defaults: nothing changes.
        self.pi_out.next = self.c_pi.q.val();
        self.fi_out.next = self.c_fi.q.val();
        self.done_out.next = self.c_done.q.val();
        self.queued_out.next = self.c_queued.q.val();
        self.push.next = false;
        self.index.write_enable.next = false;
        self.ring.write_enable.next = false;
        self.ring.write_data.next = self.c_word.q.val();
        self.s_cmpl.ready.next = false;
        self.s_err.ready.next = false;
        self.rs_v.d.next = false;
        self.cr_base.next = self.free_cr.q.val();
        if (self.stage.q.val() == 3) {
            match self.ev.q.val() {
                SqEvent::Commit => {
                    self.c_pend.d.next = false;
                    self.ring.write_enable.next = true;
                    self.index.write_enable.next = true;
                    self.pi_out.next = 0.into();
                    self.fi_out.next = 0.into();
                    self.done_out.next = 0.into();
                }
                SqEvent::Reg => {
                    self.rs_v.d.next = true;
                    self.rs_code.d.next = self.k_okay.val();
                    self.rs_data.d.next = ((bit_cast::<32, 16>(self.c_fi.q.val()) << 16)
                        | bit_cast::<32, 16>(self.c_pi.q.val()));
                    if self.r_write.q.val() {
                        self.rs_data.d.next = 0.into();
                        if (self.c_active.q.val()
                            && (bit_cast::<17, 16>(self.c_d_new.q.val()) <= self.c_size.q.val())
                            && (self.c_d_new.q.val() >= self.c_d_old.q.val()))
                        {
                            self.n_rings.d.next = (self.n_rings.q.val() + 1);
                            self.index.write_enable.next = true;
                            self.pi_out.next = self.c_p_new.q.val();
                            if (!self.c_queued.q.val()
                                && (self.c_p_new.q.val() != self.c_fi.q.val())
                                && self.c_room.q.val().any())
                            {
                                self.push.next = true;
                                self.queued_out.next = true;
                            }
                        } else {
                            self.n_refused.d.next = (self.n_refused.q.val() + 1);
                            self.rs_code.d.next = self.k_slverr.val();
                        }
                    }
                }
                SqEvent::Cmpl => {
                    self.s_cmpl.ready.next = true;
                    self.q_v.d.next = true;
                    self.q_flow.d.next = self.s_cmpl.flow.val();
                    self.q_tag.d.next = self.s_cmpl.tag.val();
                    self.q_status.d.next = self.s_cmpl.status.val();
                    self.q_bytes.d.next = self.s_cmpl.bytes.val();
                }
                SqEvent::Err => {
                    self.s_err.ready.next = true;
                    self.q_v.d.next = true;
                    self.q_flow.d.next = self.s_err.flow.val();
                    self.q_tag.d.next = self.s_err.tag.val();
                    self.q_status.d.next = self.s_err.status.val();
                    self.q_bytes.d.next = self.s_err.bytes.val();
                }
                SqEvent::Fetch => {
                    self.index.write_enable.next = true;
                    self.queued_out.next = false;
                    if (self.n2m.val().any() && self.free_cr.q.val().any()) {
                        self.f_v.d.next = true;
                        self.f_flow.d.next = self.ev_flow.q.val();
                        self.f_idx.d.next = self.c_fi.q.val();
                        self.f_count.d.next = self.n.val().get_bits::<5>(0);
                        self.f_addr.d.next =
                            ((bit_cast::<64, 59>(self.lk_ring.q.val().get_bits::<59>(13))
                                + bit_cast::<64, 16>(self.c_slot.q.val()))
                                << 5);
                        self.fi_out.next = self.fi_new.val();
                        self.cr_base.next = self.cr_after.val();
                        self.n_fetches.d.next = (self.n_fetches.q.val() + 1);
                        // pi != fi + n, and n <= pi − fi.
                        if (self.n_lt_avail.val() && self.room_gt_n.val()) {
                            self.push.next = true;
                            self.queued_out.next = true;
                        }
                    }
                }
            }
            // A completion: its CQ, done += 1, and maybe back in the queue.
            if ((self.ev.q.val() == SqEvent::Cmpl) || (self.ev.q.val() == SqEvent::Err)) {
                self.q_cq.d.next = self.lk_ring.q.val().get_bits::<8>(1);
                if self.ev_oor.q.val() {
                    self.q_cq.d.next = self.k_no_cq.val();
                } else {
                    self.index.write_enable.next = true;
                    self.done_out.next = self.c_done_new.q.val();
                    if (!self.c_queued.q.val()
                        && (self.c_pi.q.val() != self.c_fi.q.val())
                        && self.c_room_new.q.val().any())
                    {
                        self.push.next = true;
                        self.queued_out.next = true;
                    }
                }
            }
        }
        self.index.write_address.next = self.ev_flow.q.val();
        self.ring.write_address.next = self.ev_flow.q.val();
        self.index.write_data.next = ((bit_cast::<49, 1>(self.queued_out.val().into()) << 48)
            | (bit_cast::<49, 16>(self.done_out.val()) << 32)
            | (bit_cast::<49, 16>(self.fi_out.val()) << 16)
            | bit_cast::<49, 16>(self.pi_out.val()));
        self.fetch_q.push.next = self.push.val();
        self.fetch_q.push_data.next = self.ev_flow.q.val();
        // ---- A COMMIT waits in a register until it is picked (after
        // the Exec above, so a COMMIT strobed in a COMMIT's Exec is kept).
        if self.s_commit.valid.val() {
            self.c_pend.d.next = true;
            self.c_flow.d.next = self.s_commit.flow.val().get_bits::<A>(0);
            self.c_word.d.next = ((bit_cast::<72, 59>(self.s_commit.base.val().get_bits::<59>(5))
                << 13)
                | (bit_cast::<72, 4>(self.s_commit.log_size.val()) << 9)
                | (bit_cast::<72, 8>(self.s_commit.cq.val()) << 1)
                | bit_cast::<72, 1>(self.s_commit.active.val().into()));
        }
        // ---- Credits: taken by a fetch, returned by the unpacker.
        // (`cr_base` is free_cr less the n a fetch takes: n = min(n2m,
        // free) leaves 0 or free − n2m.)
        if self.wqe_freed.val() {
            self.free_cr.d.next = (self.cr_base.val() + 1);
        } else {
            self.free_cr.d.next = self.cr_base.val();
        }
        // ---- Outputs.
        self.m_fetch.valid.next = self.f_v.q.val();
        self.m_fetch.flow.next = bit_cast::<16, A>(self.f_flow.q.val());
        self.m_fetch.idx.next = self.f_idx.q.val();
        self.m_fetch.count.next = self.f_count.q.val();
        self.m_fetch.addr.next = self.f_addr.q.val();
        if (self.f_v.q.val() && self.m_fetch.ready.val()) {
            self.f_v.d.next = false;
        }
        self.m_cqe.valid.next = self.q_v.q.val();
        self.m_cqe.cq.next = self.q_cq.q.val();
        self.m_cqe.flow.next = self.q_flow.q.val();
        self.m_cqe.tag.next = self.q_tag.q.val();
        self.m_cqe.status.next = self.q_status.q.val();
        self.m_cqe.bytes.next = self.q_bytes.q.val();
        if (self.q_v.q.val() && self.m_cqe.ready.val()) {
            self.q_v.d.next = false;
        }
        self.m_reg.valid.next = self.rs_v.q.val();
        self.m_reg.rdata.next = self.rs_data.q.val();
        self.m_reg.resp.next = self.rs_code.q.val();
        self.db_rings.next = self.n_rings.q.val();
        self.db_refused.next = self.n_refused.q.val();
        self.wqe_fetches.next = self.n_fetches.q.val();
    }
}
