//! `MrCheck`: the memory-region check of the receive path
//! (`docs/roce.md` §8a, `nic_spec::mr`). It stands between the parser and
//! the dispatcher and gives every packet record a verdict (`RxMeta.mr`)
//! before any byte of it moves: a WRITE FIRST/ONLY or a READ REQUEST is
//! granted only if the region its R_Key names allows it.
//!
//! # What it does, per record on `s_meta`
//! A record whose opcode is a WRITE FIRST, WRITE ONLY or READ REQUEST
//! (`nic_spec::roce::has_reth` and a write or a read request) is
//! *checked*; every other record passes with `mr` = 0. The checks, in
//! order; the first that fails gives the verdict and is counted
//! (`nic_spec::mr::reason`):
//! 1. `len` = 0 and `dlen` = 0: granted with no check (a zero-length
//!    WRITE or READ moves no byte; InfiniBand checks no key for it);
//! 2. a WRITE whose payload `len` exceeds the RETH's DMA length `dlen`:
//!    invalid request (`bad_len`);
//! 3. the entry `rkey` names (`nic_spec::mr::key_index`) is not valid or
//!    holds another R_Key: remote access error (`bad_key`);
//! 4. the entry's protection domain is not the flow's (`s_meta.qp`'s, as
//!    last written on `s_pd`; a `qp` ≥ 2^A has none): `bad_pd`;
//! 5. the entry does not grant the right (remote write for a WRITE,
//!    remote read for a READ REQUEST): `bad_right`;
//! 6. [`va`, `va` + `dlen`) is not inside [base, base + len), in exact
//!    arithmetic (no wrap-around at 2^64): `bad_range`;
//! otherwise granted (`granted`). The dispatcher answers a refused
//! in-sequence request with a NAK of the verdict's syndrome and moves
//! nothing.
//!
//! # Ports (clock `clock`)
//! - `reset` (synchronous): the state machine, the output register and
//!   the counters; not the tables. A record in flight is abandoned, as the
//!   parser (reset with it) and the dispatcher abandon theirs.
//! - `s_mr` (`MrWrite`, strobe): writes table entry `index` (a region
//!   with `active`, else an invalidation) two cycles later; with `clear`,
//!   invalidates every entry (a full reset's sweep). Refused and counted
//!   (`bad_mr`): an `index` ≥ 2^R, or a valid region whose base + len
//!   exceeds 2^64.
//! - `s_pd` (`FlowPd<A>`, strobe): the flow's protection domain, written
//!   one cycle later.
//! - `s_meta` (`RxMeta`, from the parser): `ready` = the state register is
//!   `Idle` (never derived from an input).
//! - `m_meta` (`RxMeta`, to the dispatcher): the record with `mr` set;
//!   valid and fields registered (fields 0 while not valid).
//! - `m_stats` (`MrCheckStats`): counters, 32 bits, wrapping.
//!
//! # Timing
//! A record accepted in cycle t is on `m_meta` at t + 2 if it is not
//! checked, at t + 6 if it is: `Read` issues the table reads from the
//! latched record, `Reg` registers the RAM outputs (rule R3) and compares
//! `len` with `dlen`, `Cmp` compares the key, domain and right, computes
//! the request's end `va` + `dlen` and compares `va` with base, `Room`
//! compares that end with the region's end (base + len, stored by the
//! table write; its top 33 bits and low 32 bits side by side, joined in
//! `Fit`), and `Fit` selects the first failing reason from
//! registered flags (one carry chain a cycle: rule R4; in exact
//! arithmetic [`va`, `va` + `dlen`) ⊆ [base, base + len) ⟺ `va` ≥ base
//! and `va` + `dlen` ≤ base + len). The verdict's reason is registered
//! and counted in the next cycle (`m_stats` moves 2 cycles after `Fit`).
//! A table write's end (base + length) is summed and its fit (≤ 2^64)
//! judged as its strobe is registered: the sum's carry, and base +
//! length ≢ 0 (mod 2^64) tested bitwise beside the chain, so one gate
//! follows it. `make synth` (ECP5-85F, out of context): see
//! `docs/roce.md` §8a. The next record is taken in the cycle after the output is taken: an
//! interval of 3 cycles (unchecked) or 7 (checked), under the 10.5 cycles
//! of a minimum frame on a 64-bit line and the 12 of a RETH-bearing one.
//! A table write to the entry or the flow being read in `Read` repeats
//! the read in the next cycle, so a check never sees a half-written
//! region: a write is seen by every record whose `Read` is after it.
//!
//! # Bad input
//! Any R_Key, VA, length or flow id gets a verdict; nothing panics or
//! stalls. Table writes out of range are refused and counted.
//!
//! Golden twin: `nic_golden::roce::mr_check`.

use crate::mem::Ram;
use crate::roce::op_decode::OpDecode;
use crate::roce::{FlowPdSink, MrCheckStatsSource, MrWriteSink, RxMetaSink, RxMetaSource};
use nic_spec::mr::{right, verdict, KEY_INDEX_SHIFT};
use rust_hdl::prelude::*;
use smart_default::SmartDefault;

#[derive(Copy, Clone, PartialEq, Debug, LogicState)]
pub enum MrState {
    Idle,
    Read,
    Reg,
    Cmp,
    Room,
    Fit,
    Out,
}

#[derive(LogicBlock, SmartDefault)]
pub struct MrCheck<const A: usize, const R: usize> {
    // The parameter check, when the block is built.
    #[default({
        assert!(
            (1..=16).contains(&A) && (1..=7).contains(&R),
            "MrCheck: 1 <= A <= 16, 1 <= R <= 7",
        );
        Default::default()
    })]
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub s_mr: MrWriteSink,
    pub s_pd: FlowPdSink<A>,
    pub s_meta: RxMetaSink,
    pub m_meta: RxMetaSource,
    pub m_stats: MrCheckStatsSource,
    /// Entry: rkey (32) | pd (16) << 32 | rights (2) << 48.
    ram_key: Ram<Bits<50>, R>,
    /// The entries' valid bits (bit i: entry i), flops so that `clear`
    /// takes one cycle; read like a RAM (`rd_vld`, one cycle).
    vld: DFF<Bits<128>>,
    rd_vld: DFF<Bit>,
    e_vld: DFF<Bit>,
    ram_base: Ram<Bits<64>, R>,
    /// The region's end, base + len (≤ 2^64: 65 bits), summed as the
    /// table write is registered.
    ram_end: Ram<Bits<65>, R>,
    /// The flows' domains; its read register's register (`e_flow_pd`)
    /// goes into the DP16KD's output register on the ECP5 (R3).
    #[default(Ram::default().with_output_register())]
    ram_pd: Ram<Bits<16>, A>,
    st: DFF<MrState>,
    // The latched record.
    m_opcode: DFF<Bits<8>>,
    m_qp: DFF<Bits<24>>,
    m_psn: DFF<Bits<24>>,
    m_ackreq: DFF<Bit>,
    m_len: DFF<Bits<13>>,
    m_va: DFF<Bits<64>>,
    m_rkey: DFF<Bits<32>>,
    m_dlen: DFF<Bits<32>>,
    m_aeth: DFF<Bits<32>>,
    m_ce: DFF<Bit>,
    m_tlm: DFF<Bit>,
    m_hdr: DFF<Bits<64>>,
    m_hop0: DFF<Bits<64>>,
    m_hop1: DFF<Bits<64>>,
    m_hop2: DFF<Bits<64>>,
    m_hop3: DFF<Bits<64>>,
    m_hop4: DFF<Bits<64>>,
    op_class: OpDecode,
    // Pending table writes (the strobes, registered).
    w_v: DFF<Bit>,
    w_index: DFF<Bits<8>>,
    w_valid: DFF<Bit>,
    w_clear: DFF<Bit>,
    w_rights: DFF<Bits<2>>,
    w_pd: DFF<Bits<16>>,
    w_rkey: DFF<Bits<32>>,
    w_base: DFF<Bits<64>>,
    w_end: DFF<Bits<65>>,
    /// The strobe's entry is in the table, and its region (if active)
    /// ends past 2^64: judged as the strobe is registered, so the write
    /// enable is two flops and a few gates (the 65-bit sum is the only
    /// carry chain of its cycle).
    w_in_table: DFF<Bit>,
    w_past: DFF<Bit>,
    p_v: DFF<Bit>,
    p_flow: DFF<Bits<A>>,
    p_pd: DFF<Bits<16>>,
    // The entry and the flow's domain (registered RAM outputs, `Reg`).
    e_key: DFF<Bits<50>>,
    e_base: DFF<Bits<64>>,
    e_end: DFF<Bits<65>>,
    e_flow_pd: DFF<Bits<16>>,
    // The decision's steps.
    d_checked: DFF<Bit>,
    d_write: DFF<Bit>,
    d_zero: DFF<Bit>,
    d_len_bad: DFF<Bit>,
    d_key_bad: DFF<Bit>,
    d_pd_bad: DFF<Bit>,
    d_right_bad: DFF<Bit>,
    /// va + dlen (`Cmp`), the request's end.
    d_vend: DFF<Bits<65>>,
    /// va < base (`Cmp`) and va + dlen > base + len (`Room`): the range
    /// check as two compares in two cycles, registered for `Fit`.
    d_lo_bad: DFF<Bit>,
    /// va + dlen > base + len as two 33- and 32-bit compares side by
    /// side (`Room`), joined in `Fit`: its top part greater, its top part
    /// equal, its low 32 bits greater.
    d_end_gt_hi: DFF<Bit>,
    d_end_eq_hi: DFF<Bit>,
    d_end_gt_lo: DFF<Bit>,
    mr_r: DFF<Bits<2>>,
    /// The verdict's reason, counted the cycle after `Fit` (so the
    /// compare does not drive the counters' enables): 0 granted, 1
    /// `bad_len`, 2 `bad_key`, 3 `bad_pd`, 4 `bad_right`, 5 `bad_range`.
    why_r: DFF<Bits<3>>,
    count_r: DFF<Bit>,
    c_granted: DFF<Bits<32>>,
    c_bad_len: DFF<Bits<32>>,
    c_bad_key: DFF<Bits<32>>,
    c_bad_pd: DFF<Bits<32>>,
    c_bad_right: DFF<Bits<32>>,
    c_bad_range: DFF<Bits<32>>,
    c_bad_mr: DFF<Bits<32>>,
    #[default(Constant::new(Bits::<8>::from(1u64 << R)))]
    k_nreg: Constant<Bits<8>>,
    #[default(Constant::new(Bits::<24>::from(1u64 << A)))]
    k_nflows: Constant<Bits<24>>,
    #[default(Constant::new(Bits::<128>::from(1u64)))]
    k_bit0: Constant<Bits<128>>,
    #[default(Constant::new(Bits::<2>::from(verdict::GRANTED as u64)))]
    k_granted: Constant<Bits<2>>,
    #[default(Constant::new(Bits::<2>::from(verdict::ACCESS as u64)))]
    k_access: Constant<Bits<2>>,
    #[default(Constant::new(Bits::<2>::from(verdict::INVALID as u64)))]
    k_invalid: Constant<Bits<2>>,
    #[default(Constant::new(Bits::<2>::from(right::REMOTE_WRITE as u64)))]
    k_rw: Constant<Bits<2>>,
    #[default(Constant::new(Bits::<2>::from(right::REMOTE_READ as u64)))]
    k_rr: Constant<Bits<2>>,
    // Combinational.
    rd_index: Signal<Local, Bits<R>>,
    w_addr: Signal<Local, Bits<R>>,
    w_bit: Signal<Local, Bits<128>>,
    vld_at: Signal<Local, Bits<128>>,
    w_go: Signal<Local, Bit>,
    w_sum: Signal<Local, Bits<65>>,
    /// base + len ≡ 0 (mod 2^64), found without the carry chain:
    /// a + b ≡ 0 ⟺ a ^ b = (a | b) << 1 (mod 2^n).
    w_wraps_to_zero: Signal<Local, Bit>,
    collide: Signal<Local, Bit>,
    e_rights: Signal<Local, Bits<2>>,
    need: Signal<Local, Bits<2>>,
    out_v: Signal<Local, Bit>,
}

const _: () = assert!(
    KEY_INDEX_SHIFT == 8,
    "MrCheck reads the index from rkey bit 8"
);

impl<const A: usize, const R: usize> Logic for MrCheck<A, R> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            vld,
            rd_vld,
            e_vld,
            w_clear,
            st,
            m_opcode,
            m_qp,
            m_psn,
            m_ackreq,
            m_len,
            m_va,
            m_rkey,
            m_dlen,
            m_aeth,
            m_ce,
            m_tlm,
            m_hdr,
            m_hop0,
            m_hop1,
            m_hop2,
            m_hop3,
            m_hop4,
            w_v,
            w_index,
            w_valid,
            w_rights,
            w_pd,
            w_rkey,
            w_base,
            w_end,
            w_in_table,
            w_past,
            p_v,
            p_flow,
            p_pd,
            e_key,
            e_base,
            e_end,
            e_flow_pd,
            d_checked,
            d_write,
            d_zero,
            d_len_bad,
            d_key_bad,
            d_pd_bad,
            d_right_bad,
            d_vend,
            d_lo_bad,
            d_end_gt_hi,
            d_end_eq_hi,
            d_end_gt_lo,
            mr_r,
            why_r,
            count_r,
            c_granted,
            c_bad_len,
            c_bad_key,
            c_bad_pd,
            c_bad_right,
            c_bad_range,
            c_bad_mr
        );
        clock!(self, clock, ram_key, ram_base, ram_end, ram_pd);
        self.op_class.op.next = self.m_opcode.q.val();
        // Table writes: each strobe registered, then written (a valid
        // region only if it ends at or below 2^64).
        self.w_v.d.next = self.s_mr.valid.val();
        self.w_index.d.next = self.s_mr.index.val();
        self.w_valid.d.next = (self.s_mr.valid.val() && self.s_mr.active.val());
        self.w_clear.d.next = (self.s_mr.valid.val() && self.s_mr.clear.val());
        self.w_rights.d.next = self.s_mr.rights.val();
        self.w_pd.d.next = self.s_mr.pd.val();
        self.w_rkey.d.next = self.s_mr.rkey.val();
        self.w_base.d.next = self.s_mr.base.val();
        self.w_sum.next =
            (bit_cast::<65, 64>(self.s_mr.base.val()) + bit_cast::<65, 64>(self.s_mr.len.val()));
        self.w_wraps_to_zero.next = ((self.s_mr.base.val() ^ self.s_mr.len.val())
            == ((self.s_mr.base.val() | self.s_mr.len.val()) << 1));
        // Past 2^64: the sum's carry, and not exactly 2^64. The equality
        // runs beside the chain, so one gate follows the chain.
        self.w_past.d.next =
            (self.s_mr.active.val() && self.w_sum.val().get_bit(64) && !self.w_wraps_to_zero.val());
        self.w_end.d.next = self.w_sum.val();
        self.w_in_table.d.next = (self.s_mr.index.val() < self.k_nreg.val());

        self.p_v.d.next = self.s_pd.valid.val();
        self.p_flow.d.next = self.s_pd.flow.val();
        self.p_pd.d.next = self.s_pd.pd.val();
        self.w_go.next = (self.w_v.q.val()
            && !self.w_clear.q.val()
            && self.w_in_table.q.val()
            && !self.w_past.q.val());
        if ((self.w_v.q.val() && !self.w_clear.q.val()) && !self.w_go.val()) {
            self.c_bad_mr.d.next = (self.c_bad_mr.q.val() + 1);
        }
        self.w_addr.next = self.w_index.q.val().get_bits::<R>(0);
        self.ram_key.write_address.next = self.w_addr.val();
        self.ram_base.write_address.next = self.w_addr.val();
        self.ram_end.write_address.next = self.w_addr.val();
        self.ram_key.write_data.next = ((bit_cast::<50, 32>(self.w_rkey.q.val())
            | (bit_cast::<50, 16>(self.w_pd.q.val()) << 32))
            | (bit_cast::<50, 2>(self.w_rights.q.val()) << 48));
        self.w_bit.next = (self.k_bit0.val() << self.w_addr.val());
        if (self.w_v.q.val() && self.w_clear.q.val()) {
            self.vld.d.next = 0.into();
        } else if (self.w_go.val() && self.w_valid.q.val()) {
            self.vld.d.next = (self.vld.q.val() | self.w_bit.val());
        } else if self.w_go.val() {
            self.vld.d.next = (self.vld.q.val() & !self.w_bit.val());
        }
        self.ram_base.write_data.next = self.w_base.q.val();
        self.ram_end.write_data.next = self.w_end.q.val();
        self.ram_key.write_enable.next = self.w_go.val();
        self.ram_base.write_enable.next = self.w_go.val();
        self.ram_end.write_enable.next = self.w_go.val();
        self.ram_pd.write_address.next = self.p_flow.q.val();
        self.ram_pd.write_data.next = self.p_pd.q.val();
        self.ram_pd.write_enable.next = self.p_v.q.val();
        // Table reads, from the latched record.
        self.rd_index.next = self.m_rkey.q.val().get_bits::<R>(8);
        self.ram_key.read_address.next = self.rd_index.val();
        self.ram_base.read_address.next = self.rd_index.val();
        self.ram_end.read_address.next = self.rd_index.val();
        self.ram_pd.read_address.next = self.m_qp.q.val().get_bits::<A>(0);
        self.vld_at.next = (self.vld.q.val() >> self.rd_index.val());
        self.rd_vld.d.next = self.vld_at.val().get_bit(0);
        self.collide.next = ((self.w_go.val() && (self.w_addr.val() == self.rd_index.val()))
            || (self.w_v.q.val() && self.w_clear.q.val())
            || (self.p_v.q.val() && (self.p_flow.q.val() == self.m_qp.q.val().get_bits::<A>(0))));
        self.e_rights.next = self.e_key.q.val().get_bits::<2>(48);
        self.need.next = self.k_rr.val();
        if self.d_write.q.val() {
            self.need.next = self.k_rw.val();
        }
        self.s_meta.ready.next = (self.st.q.val() == MrState::Idle);
        match self.st.q.val() {
            MrState::Idle => {
                if self.s_meta.valid.val() {
                    self.st.d.next = MrState::Read;
                }
            }
            MrState::Read => {
                self.d_checked.d.next = (self.op_class.reth.val()
                    && (self.op_class.write.val() || self.op_class.read_req.val()));
                self.d_write.d.next = self.op_class.write.val();
                self.d_zero.d.next = (!self.m_len.q.val().any() && !self.m_dlen.q.val().any());
                if !(self.op_class.reth.val()
                    && (self.op_class.write.val() || self.op_class.read_req.val()))
                {
                    self.mr_r.d.next = self.k_granted.val();
                    self.st.d.next = MrState::Out;
                } else if !self.collide.val() {
                    self.st.d.next = MrState::Reg;
                }
            }
            MrState::Reg => {
                self.e_key.d.next = self.ram_key.read_data.val();
                self.e_vld.d.next = self.rd_vld.q.val();
                self.e_base.d.next = self.ram_base.read_data.val();
                self.e_end.d.next = self.ram_end.read_data.val();
                self.e_flow_pd.d.next = self.ram_pd.read_data.val();
                self.d_len_bad.d.next = (self.d_write.q.val()
                    && (bit_cast::<32, 13>(self.m_len.q.val()) > self.m_dlen.q.val()));
                self.st.d.next = MrState::Cmp;
            }
            MrState::Cmp => {
                self.d_key_bad.d.next = (!self.e_vld.q.val()
                    || (self.e_key.q.val().get_bits::<32>(0) != self.m_rkey.q.val()));
                self.d_pd_bad.d.next = ((self.e_key.q.val().get_bits::<16>(32)
                    != self.e_flow_pd.q.val())
                    || (self.m_qp.q.val() >= self.k_nflows.val()));
                self.d_right_bad.d.next = !(self.e_rights.val() & self.need.val()).any();
                self.d_vend.d.next = (bit_cast::<65, 64>(self.m_va.q.val())
                    + bit_cast::<65, 32>(self.m_dlen.q.val()));
                self.d_lo_bad.d.next = (self.m_va.q.val() < self.e_base.q.val());
                self.st.d.next = MrState::Room;
            }
            MrState::Room => {
                self.d_end_gt_hi.d.next = (self.d_vend.q.val().get_bits::<33>(32)
                    > self.e_end.q.val().get_bits::<33>(32));
                self.d_end_eq_hi.d.next = (self.d_vend.q.val().get_bits::<33>(32)
                    == self.e_end.q.val().get_bits::<33>(32));
                self.d_end_gt_lo.d.next =
                    (self.d_vend.q.val().get_bits::<32>(0) > self.e_end.q.val().get_bits::<32>(0));
                self.st.d.next = MrState::Fit;
            }
            MrState::Fit => {
                self.st.d.next = MrState::Out;
                self.count_r.d.next = true;
                if self.d_zero.q.val() {
                    self.mr_r.d.next = self.k_granted.val();
                    self.why_r.d.next = 0.into();
                } else if self.d_len_bad.q.val() {
                    self.mr_r.d.next = self.k_invalid.val();
                    self.why_r.d.next = 1.into();
                } else if self.d_key_bad.q.val() {
                    self.mr_r.d.next = self.k_access.val();
                    self.why_r.d.next = 2.into();
                } else if self.d_pd_bad.q.val() {
                    self.mr_r.d.next = self.k_access.val();
                    self.why_r.d.next = 3.into();
                } else if self.d_right_bad.q.val() {
                    self.mr_r.d.next = self.k_access.val();
                    self.why_r.d.next = 4.into();
                } else if (self.d_lo_bad.q.val()
                    || self.d_end_gt_hi.q.val()
                    || (self.d_end_eq_hi.q.val() && self.d_end_gt_lo.q.val()))
                {
                    self.mr_r.d.next = self.k_access.val();
                    self.why_r.d.next = 5.into();
                } else {
                    self.mr_r.d.next = self.k_granted.val();
                    self.why_r.d.next = 0.into();
                }
            }
            MrState::Out => {
                if self.m_meta.ready.val() {
                    self.st.d.next = MrState::Idle;
                }
            }
        }
        // The record latched every cycle in `Idle`, taken or not (its
        // registers are read only after `Idle`, and `m_meta` shows them
        // only while valid): the latch's enable is the state's decode,
        // not `s_meta.valid` through it.
        if (self.st.q.val() == MrState::Idle) {
            self.m_opcode.d.next = self.s_meta.opcode.val();
            self.m_qp.d.next = self.s_meta.qp.val();
            self.m_psn.d.next = self.s_meta.psn.val();
            self.m_ackreq.d.next = self.s_meta.ackreq.val();
            self.m_len.d.next = self.s_meta.len.val();
            self.m_va.d.next = self.s_meta.va.val();
            self.m_rkey.d.next = self.s_meta.rkey.val();
            self.m_dlen.d.next = self.s_meta.dlen.val();
            self.m_aeth.d.next = self.s_meta.aeth.val();
            self.m_ce.d.next = self.s_meta.ce.val();
            self.m_tlm.d.next = self.s_meta.tlm.present.val();
            self.m_hdr.d.next = self.s_meta.tlm.hdr.val();
            self.m_hop0.d.next = self.s_meta.tlm.hop0.val();
            self.m_hop1.d.next = self.s_meta.tlm.hop1.val();
            self.m_hop2.d.next = self.s_meta.tlm.hop2.val();
            self.m_hop3.d.next = self.s_meta.tlm.hop3.val();
            self.m_hop4.d.next = self.s_meta.tlm.hop4.val();
        }
        // The verdict of the last `Fit`, counted.
        if self.count_r.q.val() {
            if (self.why_r.q.val() == 1) {
                self.c_bad_len.d.next = (self.c_bad_len.q.val() + 1);
            } else if (self.why_r.q.val() == 2) {
                self.c_bad_key.d.next = (self.c_bad_key.q.val() + 1);
            } else if (self.why_r.q.val() == 3) {
                self.c_bad_pd.d.next = (self.c_bad_pd.q.val() + 1);
            } else if (self.why_r.q.val() == 4) {
                self.c_bad_right.d.next = (self.c_bad_right.q.val() + 1);
            } else if (self.why_r.q.val() == 5) {
                self.c_bad_range.d.next = (self.c_bad_range.q.val() + 1);
            } else {
                self.c_granted.d.next = (self.c_granted.q.val() + 1);
            }
        }
        if (self.st.q.val() != MrState::Fit) {
            self.count_r.d.next = false;
        }
        if self.reset.val() {
            self.st.d.next = MrState::Idle;
            self.count_r.d.next = false;
            self.c_granted.d.next = 0.into();
            self.c_bad_len.d.next = 0.into();
            self.c_bad_key.d.next = 0.into();
            self.c_bad_pd.d.next = 0.into();
            self.c_bad_right.d.next = 0.into();
            self.c_bad_range.d.next = 0.into();
            self.c_bad_mr.d.next = 0.into();
        }
        // Out: the record with its verdict, 0 while not valid.
        self.out_v.next = (self.st.q.val() == MrState::Out);
        self.m_meta.valid.next = self.out_v.val();
        self.m_meta.opcode.next = 0.into();
        self.m_meta.qp.next = 0.into();
        self.m_meta.psn.next = 0.into();
        self.m_meta.ackreq.next = false;
        self.m_meta.len.next = 0.into();
        self.m_meta.va.next = 0.into();
        self.m_meta.rkey.next = 0.into();
        self.m_meta.dlen.next = 0.into();
        self.m_meta.aeth.next = 0.into();
        self.m_meta.ce.next = false;
        self.m_meta.mr.next = 0.into();
        self.m_meta.tlm.present.next = false;
        self.m_meta.tlm.hdr.next = 0.into();
        self.m_meta.tlm.hop0.next = 0.into();
        self.m_meta.tlm.hop1.next = 0.into();
        self.m_meta.tlm.hop2.next = 0.into();
        self.m_meta.tlm.hop3.next = 0.into();
        self.m_meta.tlm.hop4.next = 0.into();
        if self.out_v.val() {
            self.m_meta.opcode.next = self.m_opcode.q.val();
            self.m_meta.qp.next = self.m_qp.q.val();
            self.m_meta.psn.next = self.m_psn.q.val();
            self.m_meta.ackreq.next = self.m_ackreq.q.val();
            self.m_meta.len.next = self.m_len.q.val();
            self.m_meta.va.next = self.m_va.q.val();
            self.m_meta.rkey.next = self.m_rkey.q.val();
            self.m_meta.dlen.next = self.m_dlen.q.val();
            self.m_meta.aeth.next = self.m_aeth.q.val();
            self.m_meta.ce.next = self.m_ce.q.val();
            self.m_meta.mr.next = self.mr_r.q.val();
            self.m_meta.tlm.present.next = self.m_tlm.q.val();
            self.m_meta.tlm.hdr.next = self.m_hdr.q.val();
            self.m_meta.tlm.hop0.next = self.m_hop0.q.val();
            self.m_meta.tlm.hop1.next = self.m_hop1.q.val();
            self.m_meta.tlm.hop2.next = self.m_hop2.q.val();
            self.m_meta.tlm.hop3.next = self.m_hop3.q.val();
            self.m_meta.tlm.hop4.next = self.m_hop4.q.val();
        }
        self.m_stats.granted.next = self.c_granted.q.val();
        self.m_stats.bad_len.next = self.c_bad_len.q.val();
        self.m_stats.bad_key.next = self.c_bad_key.q.val();
        self.m_stats.bad_pd.next = self.c_bad_pd.q.val();
        self.m_stats.bad_right.next = self.c_bad_right.q.val();
        self.m_stats.bad_range.next = self.c_bad_range.q.val();
        self.m_stats.bad_mr.next = self.c_bad_mr.q.val();
    }
}
