//! The WQE unpacker: the words of fetched send-queue entries
//! (`s_beat`, `WqeBeat`, from the DMA read mux) → work requests for the
//! requester (`m_wr`, `WorkReq`), through a buffer of 2^W entries.
//!
//! An entry is four words in order (`nic_spec::hostif::wqe`: local
//! address, VA, length | R_Key << 32, tag | opcode << 32); word 0 starts
//! an entry, word 3 completes it and puts it in the buffer with its flow,
//! its send-queue index and whether any of its words was flagged
//! (`err`: the DMA engine's h2c `tuser`, or padding of a short read).
//! From the buffer's head, a good entry goes to the requester as a
//! `WorkReq` (its contents unchecked here: a bad opcode or length is the
//! requester's to complete with an error); a flagged one becomes a
//! completion on `m_err` (status `DMA_ERR`, tag = its send-queue index,
//! 0 bytes), so a failed fetch sends nothing and is reported.
//!
//! Ports (clock `clock`; no reset): `s_beat` (ready while the buffer
//! has room; the send-queue engine's credits keep it so), `m_wr`
//! (`WorkReq`), `m_err` (`WrCompletion`), `wqe_freed` (an entry left the
//! buffer in the cycle before: a credit back to the send-queue engine; a
//! register, so no path runs from `m_wr.ready`/`m_err.ready` to it),
//! counters `wqes` (work requests handed
//! on), `wqe_dma_err` (completed with `DMA_ERR`).
//!
//! Latency: the last word in cycle t → the work request offered in
//! t + 3. Throughput: one entry every 4 beats in, one out per cycle.
//!
//! Golden twin: `nic_golden::hostif::wqe_unpack`.

use crate::hostif::WqeBeatSink;
use crate::mem::Fifo;
use crate::roce::{WorkReqSource, WrCompletionSource};
use nic_spec::roce::wr::Status;
use rust_hdl::prelude::*;
use smart_default::SmartDefault;

/// Bits of a buffered entry: the four words, flow 16, index 16, err 1.
pub const ENTRY_BITS: usize = 4 * 64 + 16 + 16 + 1;

#[derive(LogicBlock, SmartDefault)]
pub struct WqeUnpack<const W: usize> {
    // The parameter check, when the block is built.
    #[default({
        assert!((1..=6).contains(&W), "WqeUnpack: 2..=64 entries");
        Default::default()
    })]
    pub clock: Signal<In, Clock>,
    pub s_beat: WqeBeatSink,
    pub m_wr: WorkReqSource,
    pub m_err: WrCompletionSource,
    pub wqe_freed: Signal<Out, Bit>,
    pub wqes: Signal<Out, Bits<32>>,
    pub wqe_dma_err: Signal<Out, Bits<32>>,
    w0: DFF<Bits<64>>,
    w1: DFF<Bits<64>>,
    w2: DFF<Bits<64>>,
    err_acc: DFF<Bit>,
    freed: DFF<Bit>,
    entries: Fifo<ENTRY_BITS, W>,
    held: DFF<Bits<8>>,
    n_wqes: DFF<Bits<32>>,
    n_err: DFF<Bits<32>>,
    #[default(Constant::new(Bits::<8>::from(1u64 << W)))]
    k_cap: Constant<Bits<8>>,
    #[default(Constant::new(Bits::<8>::from(Status::DmaErr as u64)))]
    k_dma_err: Constant<Bits<8>>,
    take: Signal<Local, Bit>,
    push: Signal<Local, Bit>,
    head_err: Signal<Local, Bit>,
    pop: Signal<Local, Bit>,
    w3: Signal<Local, Bits<64>>,
}

impl<const W: usize> Logic for WqeUnpack<W> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, w0, w1, w2, err_acc, freed, held, n_wqes, n_err);
        clock!(self, clock, entries);
        // ---- Words in: an entry assembled, then buffered.
        self.s_beat.ready.next = (self.held.q.val() < self.k_cap.val());
        self.take.next = (self.s_beat.valid.val() && (self.held.q.val() < self.k_cap.val()));
        self.push.next = false;
        if self.take.val() {
            match self.s_beat.word.val().index() {
                0 => {
                    self.w0.d.next = self.s_beat.data.val();
                    self.err_acc.d.next = self.s_beat.err.val();
                }
                1 => {
                    self.w1.d.next = self.s_beat.data.val();
                    self.err_acc.d.next = (self.err_acc.q.val() || self.s_beat.err.val());
                }
                2 => {
                    self.w2.d.next = self.s_beat.data.val();
                    self.err_acc.d.next = (self.err_acc.q.val() || self.s_beat.err.val());
                }
                _ => {
                    self.push.next = true;
                }
            }
        }
        self.entries.push.next = self.push.val();
        // {w0, w1, w2, w3, flow, idx, err}, w0 in the top bits.
        self.entries.push_data.next = ((bit_cast::<ENTRY_BITS, 64>(self.w0.q.val()) << 225)
            | (bit_cast::<ENTRY_BITS, 64>(self.w1.q.val()) << 161)
            | (bit_cast::<ENTRY_BITS, 64>(self.w2.q.val()) << 97)
            | (bit_cast::<ENTRY_BITS, 64>(self.s_beat.data.val()) << 33)
            | (bit_cast::<ENTRY_BITS, 16>(self.s_beat.flow.val().get_bits::<16>(0)) << 17)
            | (bit_cast::<ENTRY_BITS, 16>(self.s_beat.idx.val()) << 1)
            | bit_cast::<ENTRY_BITS, 1>((self.err_acc.q.val() || self.s_beat.err.val()).into()));
        // ---- The head: a work request, or a DMA_ERR completion.
        self.head_err.next = self.entries.head_data.val().get_bit(0);
        self.w3.next = self.entries.head_data.val().get_bits::<64>(33);
        self.m_wr.valid.next = (self.entries.head_valid.val() && !self.head_err.val());
        self.m_wr.flow.next = self.entries.head_data.val().get_bits::<16>(17);
        self.m_wr.laddr.next = self.entries.head_data.val().get_bits::<64>(225);
        self.m_wr.va.next = self.entries.head_data.val().get_bits::<64>(161);
        self.m_wr.len.next = self.entries.head_data.val().get_bits::<32>(97);
        self.m_wr.rkey.next = self.entries.head_data.val().get_bits::<32>(129);
        self.m_wr.tag.next = self.w3.val().get_bits::<32>(0);
        self.m_wr.opcode.next = self.w3.val().get_bits::<8>(32);
        self.m_err.valid.next = (self.entries.head_valid.val() && self.head_err.val());
        self.m_err.flow.next = self.entries.head_data.val().get_bits::<16>(17);
        self.m_err.tag.next = bit_cast::<32, 16>(self.entries.head_data.val().get_bits::<16>(1));
        self.m_err.status.next = self.k_dma_err.val();
        self.m_err.bytes.next = 0.into();
        self.pop.next = ((self.m_wr.valid.val() && self.m_wr.ready.val())
            || (self.m_err.valid.val() && self.m_err.ready.val()));
        self.entries.pop.next = self.pop.val();
        self.freed.d.next = self.pop.val();
        self.wqe_freed.next = self.freed.q.val();
        if (self.m_wr.valid.val() && self.m_wr.ready.val()) {
            self.n_wqes.d.next = (self.n_wqes.q.val() + 1);
        }
        if (self.m_err.valid.val() && self.m_err.ready.val()) {
            self.n_err.d.next = (self.n_err.q.val() + 1);
        }
        if (self.push.val() && !self.pop.val()) {
            self.held.d.next = (self.held.q.val() + 1);
        } else if (!self.push.val() && self.pop.val()) {
            self.held.d.next = (self.held.q.val() - 1);
        }
        self.wqes.next = self.n_wqes.q.val();
        self.wqe_dma_err.next = self.n_err.q.val();
    }
}
