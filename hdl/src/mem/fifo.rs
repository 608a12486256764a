//! Block-RAM FIFO with a first-word-fall-through head: the queue of the
//! flow scheduler's active list and probe timers, and its PktSend queue.
//!
//! Ports (clock `clock`):
//! - in: `push`, `push_data` (`Bits<D>`); `pop` (takes the head if
//!   `head_valid`; ignored otherwise).
//! - out: `head_valid`, `head_data` (both flip-flops; the head register
//!   holds zero while not valid).
//!
//! Structure: 2^A words in a [`Ram`] (one clock, synchronous read), a
//! head register and two skid registers, filled in order (head, skid 1,
//! skid 2). A read is issued when at most two words are held outside the
//! RAM (head, skids and the read in flight), whatever `pop` does, so the
//! RAM output is never held and never lost, and `pop` reaches only the
//! head and skid registers' selects: the read, the pointers and the
//! counts are decided from flip-flops (R4; with one skid the read had to
//! wait for `pop`, which then fanned out to every count of a parent's
//! FIFOs in lockstep). Likewise the RAM is written at `wr` in every cycle
//! it is not full, a push or not (the word there is not the FIFO's until
//! a push moves `wr` past it), so its write enable is `!full`, a
//! flip-flop, and `push` reaches only `wr` and the counts: a wide FIFO's
//! many LUT-RAM write enables are not on the push's path.
//!
//! Timing: a word pushed into an empty FIFO in cycle t is at the head in
//! cycle t + 3; a pop every cycle is sustained (II 1). The ports are the
//! same as with one skid register: a second skid only holds a word read
//! early, which the head would have had in time anyway. Capacity 2^A + 3
//! words (RAM plus head and skids; with a read in flight, the RAM holds
//! one fewer). A push while the RAM holds 2^A words is ignored: the users
//! bound their occupancy (each flow is queued at most once), so it does
//! not happen in the NIC. `A` ≤ 15.
//!
//! Golden twin: `nic_golden::mem::fifo`.

use crate::mem::Ram;
use rust_hdl::prelude::*;
use smart_default::SmartDefault;

#[derive(LogicBlock, SmartDefault)]
pub struct Fifo<const D: usize, const A: usize> {
    // The parameter check, when the block is built.
    #[default({
        assert!(A <= 15, "Fifo: A <= 15");
        Default::default()
    })]
    pub clock: Signal<In, Clock>,
    pub push: Signal<In, Bit>,
    pub push_data: Signal<In, Bits<D>>,
    pub pop: Signal<In, Bit>,
    pub head_valid: Signal<Out, Bit>,
    pub head_data: Signal<Out, Bits<D>>,
    ram: Ram<Bits<D>, A>,
    wr: DFF<Bits<16>>,
    rd: DFF<Bits<16>>,
    rv: DFF<Bit>,
    h_v: DFF<Bit>,
    h_d: DFF<Bits<D>>,
    s1_v: DFF<Bit>,
    s1_d: DFF<Bits<D>>,
    s2_v: DFF<Bit>,
    s2_d: DFF<Bits<D>>,
    #[default(Constant::new(Bits::<16>::from((1u64 << A) - 1)))]
    k_cap_m1: Constant<Bits<16>>,
    /// `used`'s live bits (A + 1: it never exceeds 2^A). Every read of the
    /// count is masked with it, so synthesis drops the bits above and the
    /// count's fan-out is A + 1 flip-flops, not 16.
    #[default(Constant::new(Bits::<16>::from((2u64 << A) - 1)))]
    k_used_mask: Constant<Bits<16>>,
    consume: Signal<Local, Bit>,
    issue: Signal<Local, Bit>,
    /// Words in the RAM (= wr − rd), kept as a register: its compares
    /// are off the read/write-enable paths.
    used: DFF<Bits<16>>,
    /// The RAM holds 2^A words (`used` = 2^A), kept as a register, so a
    /// push reaches the RAM's write enable through one gate.
    full: DFF<Bit>,
    push_ok: Signal<Local, Bit>,
}

impl<const D: usize, const A: usize> Logic for Fifo<D, A> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, wr, rd, rv, h_v, h_d, s1_v, s1_d, s2_v, s2_d, used, full);
        self.ram.clock.next = self.clock.val();
        self.head_valid.next = self.h_v.q.val();
        // Zero while empty: no stale word on the ports or in a waveform.
        // The head register is loaded with zero whenever it empties, so the
        // port is the register itself, with no select on `h_v`: a parent's
        // compares on the head (the scheduler's flow interlock) start at a
        // flip-flop (R4).
        self.head_data.next = self.h_d.q.val();

        self.consume.next = (self.pop.val() && self.h_v.q.val());
        // Room for a read whatever `pop` does: at most two words held
        // outside the RAM (they fill head, skid 1, skid 2 in order, so
        // three or more is skid 2 full, or skid 1 full with a read in flight).
        self.issue.next = ((self.used.q.val() & self.k_used_mask.val()).any()
            && !self.s2_v.q.val()
            && !(self.s1_v.q.val() && self.rv.q.val()));

        // Oldest first: head, skid 1, skid 2, RAM output; a pop moves
        // each register to the next older one's word.
        if self.consume.val() {
            self.h_v.d.next = (self.s1_v.q.val() || self.rv.q.val());
            if self.s1_v.q.val() {
                self.h_d.d.next = self.s1_d.q.val();
            } else if self.rv.q.val() {
                self.h_d.d.next = self.ram.read_data.val();
            } else {
                self.h_d.d.next = 0.into();
            }
            self.s1_v.d.next = (self.s2_v.q.val() || (self.s1_v.q.val() && self.rv.q.val()));
            if self.s2_v.q.val() {
                self.s1_d.d.next = self.s2_d.q.val();
            } else {
                self.s1_d.d.next = self.ram.read_data.val();
            }
            self.s2_v.d.next = (self.s2_v.q.val() && self.rv.q.val());
        } else {
            self.h_v.d.next = (self.h_v.q.val() || self.rv.q.val());
            if self.h_v.q.val() {
                self.h_d.d.next = self.h_d.q.val();
            } else if self.rv.q.val() {
                self.h_d.d.next = self.ram.read_data.val();
            } else {
                self.h_d.d.next = 0.into();
            }
            self.s1_v.d.next = (self.s1_v.q.val() || (self.h_v.q.val() && self.rv.q.val()));
            if self.s1_v.q.val() {
                self.s1_d.d.next = self.s1_d.q.val();
            } else {
                self.s1_d.d.next = self.ram.read_data.val();
            }
            self.s2_v.d.next = (self.s2_v.q.val() || (self.s1_v.q.val() && self.rv.q.val()));
        }
        if self.s2_v.q.val() {
            self.s2_d.d.next = self.s2_d.q.val();
        } else {
            self.s2_d.d.next = self.ram.read_data.val();
        }

        self.ram.read_address.next = bit_cast::<A, 16>(self.rd.q.val());
        self.rv.d.next = self.issue.val();
        if self.issue.val() {
            self.rd.d.next = (self.rd.q.val() + 1);
        }
        self.ram.write_address.next = bit_cast::<A, 16>(self.wr.q.val());
        self.ram.write_data.next = self.push_data.val();
        // The word at `wr` is not the FIFO's until a push moves `wr` past
        // it, so the RAM takes `push_data` there in every cycle it has
        // room: its write enable is a flip-flop, and `push` reaches only
        // the pointer and the counts, not the RAM's many write enables.
        self.ram.write_enable.next = !self.full.q.val();
        self.push_ok.next = (self.push.val() && !self.full.q.val());
        if self.push_ok.val() {
            self.wr.d.next = (self.wr.q.val() + 1);
        }
        if (self.push_ok.val() && !self.issue.val()) {
            self.used.d.next = (self.used.q.val() + 1);
            self.full.d.next =
                ((self.used.q.val() & self.k_used_mask.val()) == self.k_cap_m1.val());
        } else if (!self.push_ok.val() && self.issue.val()) {
            self.used.d.next = (self.used.q.val() - 1);
            self.full.d.next = false;
        }
    }
}
