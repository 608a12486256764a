//! RoCEv2 Tx pipeline: the frame builder (`docs/roce.md` §1–§4, §6).
//! One descriptor in, one frame out: Ethernet II, IPv4, UDP, BTH
//! [+ RETH] [+ AETH] [+ TLM], the payload read from host memory, the zero
//! pad and the ICRC.
//!
//! # Ports (clock `clock`)
//! - `reset` (synchronous): empties the pipeline, clears `m_rdq.valid` and
//!   the counters. The context RAM keeps its contents. Reset the host
//!   read-data source with it. A frame of which words were already taken
//!   on `m_axis_tx` is closed rather than left open: from the reset's
//!   first cycle the output holds one closing word (`tdata` 0, `tkeep`
//!   0x01, `tlast`, `tuser` = abort) until it is taken, during the reset
//!   or after it, so the MAC drops the frame instead of joining it to the
//!   next one. A frame none of whose words was taken simply vanishes. The
//!   closing word is not counted. "Taken" here means taken by the output
//!   slice (below): the words of the frame already in it go out first,
//!   then the closing word. A descriptor taken on `s_req` in the cycle a
//!   reset begins (`s_req.ready` is a register, so it can be high then)
//!   is abandoned with the pipeline; `s_req.ready` is low from the
//!   reset's second cycle to the cycle after it ends.
//! - Context write (one cycle): `s_ctx.valid`, `s_ctx.flow: A`, `s_ctx.dmac: 48`,
//!   `s_ctx.smac: 48`, `s_ctx.sip: 32`, `s_ctx.dip: 32`, `s_ctx.sport: 16`,
//!   `s_ctx.dqp: 24`, `s_ctx.pkey: 16`, `s_ctx.tos: 8`. MACs and IPs as numbers
//!   whose most significant byte goes first on the wire. A descriptor of
//!   the same flow accepted in the same cycle reads the old context in
//!   simulation; on the FPGA that read is undefined (the RAM has no
//!   collision bypass).
//! - Descriptor in, valid/ready: `s_req.valid`, `s_req.ready`, `s_req.flow: A`,
//!   `s_req.opcode: 8`, `s_req.psn: 24`, `s_req.ackreq`, `s_req.len: 13` (payload
//!   bytes), `s_req.addr: 64` (host address, 8-aligned), `s_req.va: 64`,
//!   `s_req.rkey: 32`, `s_req.dlen: 32` (RETH), `s_req.aeth: 32` (syndrome << 24 |
//!   MSN), `s_req.tlm.present`, `s_req.tlm.hdr: 64`, `s_req.tlm.hop0..4: 64` (the
//!   telemetry area's six words as on the wire, first byte most significant).
//! - Host read request out, valid/ready: `m_rdq.valid`, `m_rdq.ready`,
//!   `m_rdq.addr: 64`, `m_rdq.len: 13`; one per descriptor with a payload
//!   (len > 0).
//! - Host read data in: `s_axis_rd` ([`AxisSink`]`<64, 8, 1>`, lane k = byte
//!   k): the ceil(len/8) words of each request, in request order. The block
//!   counts words itself; `tlast` and `tkeep` are not used. `tuser` on a
//!   payload word (the host read failed) aborts the frame: its last word
//!   goes out with `m_axis_tx.tuser` set, so the MAC invalidates it, and
//!   it is counted (`m_stats.aborted`); the requester's recovery (NAK or
//!   timeout) sends the data again.
//!   Bytes of the last word past `len` are ignored (sent as pad zeros).
//! - Frame out (§4): `m_axis_tx` ([`AxisSource`]`<64, 8, 1>`; `tuser`
//!   on the last word = abort: a payload word came flagged; a frame once
//!   started is always completed). Every output is a flop of the output
//!   slice; they hold the last word while `tvalid` is low (zero after
//!   configuration).
//! - Counters (32 bits, wrapping): `m_stats.frames` (frames whose last word was
//!   taken by the output slice, aborted ones included), `m_stats.bad_req` (descriptors
//!   dropped), `m_stats.aborted` (frames sent with `tuser`).
//!
//! # Bad descriptors (accepted, dropped, counted in `m_stats.bad_req`)
//! Unknown opcode; `len` > 4096; `len` > 0 on an opcode without payload
//! (READ REQUEST, ACK, PROBE, NOTIFY); `len` = 0 on WRITE/READ RESPONSE
//! FIRST, MIDDLE, LAST; `len` > 0 with `s_req.addr` not 8-aligned; WRITE
//! FIRST/ONLY with RETH DMA length < `len`; ACK with an AETH syndrome other
//! than 0x1F, 0x60, 0x61, 0x62 (`nic_spec::roce::syndrome::sent`); READ RESPONSE FIRST/LAST/ONLY with a syndrome
//! other than 0x1F; PROBE/NOTIFY with `s_req.tlm.present` = 0. A bad descriptor costs
//! one accept cycle and nothing else. The MTU is not known here: lengths up
//! to 4096 are accepted on every payload opcode.
//!
//! # Structure
//! - Prep (one descriptor at a time; `s_req.ready` = a register: nothing
//!   in prep or waiting, and no read request pending): accept (P0: checks, decodes,
//!   descriptor fields registered, context RAM read, host read request
//!   registered), P1 (the context word registered out of the block RAM:
//!   [`TxCtxRam`], `tx_ctx_ram.rs`, holds both), P2 (header words, item words, lengths), P3–P5 (IPv4 header checksum), then the frame waits, complete, until the
//!   generator takes it.
//! - Generator: the frame as 64-bit words. Words 0–4 (bytes 0–39) come from
//!   a shift register of header words; from word 5 on, a stream of 8-byte
//!   "items" (the rest of the header, then the payload words) is realigned
//!   by s = 6 lanes (frames without AETH: the items start at byte 46) or
//!   2 lanes (with AETH: they start at byte 42), the previous item's high
//!   bytes carried over. Bytes after the payload are zeroed (pad). Per
//!   word it also forms the ICRC's masked copy (TOS, TTL, IP and UDP
//!   checksums, BTH byte 4 and the telemetry area as 0xFF; word 0 and the
//!   Ethernet bytes of word 1 left out).
//! - [`TxOut`] (`tx_out.rs`): stage A (the word, its masked copy and
//!   byte count registered), stage B (the CRC register and the word, the
//!   ICRC merged on the way out: lanes 2–5 of the last word, or lanes
//!   6–7 and lanes 0–1 of one more word) and the output slice
//!   ([`AxisSkid`](crate::stream::AxisSkid)): `m_axis_tx` is its
//!   registers, so no input port reaches an output port in the same
//!   cycle (timing rule R1, `docs/architecture.md` §5i).
//! - One enable for generator, A and B (`TxOut`'s `adv`): the output
//!   slice has room (its `tready`, a flop) or B is empty. A payload word
//!   is taken (`rd_tready`) only in a cycle that also moves B; without
//!   `rd_tvalid` the generator inserts a gap (tvalid low) into the frame.
//!
//! # Timing
//! - Throughput: frames back to back, ceil(frame bytes / 8) cycles each,
//!   while `out_tready` is high and host data keeps up (a 62-byte ACK: 8
//!   cycles). The next descriptor is accepted the cycle after the generator
//!   took the previous frame and is complete 6 cycles later, so frames of 8
//!   or more cycles follow each other without an idle cycle.
//! - Latency (idle block): descriptor accepted in cycle t, `m_rdq.valid` from
//!   t + 1, first frame word on `m_axis_tx` in cycle t + 10 (t + 9 before
//!   the output slice).
//!
//! Golden twin: `nic_golden::roce::tx`.

pub use crate::roce::bswap::Bswap64;
use crate::roce::op_decode::OpDecode;
use crate::roce::tx_ctx_ram::TxCtxRam;
use crate::roce::tx_out::TxOut;
use crate::roce::{HostReadReqSource, TxDescSink, TxFlowCtxSink, TxStatsSource};
use crate::stream::{AxisSink, AxisSource};
use nic_spec::roce::{syndrome, ROCE_PORT};
use rust_hdl::prelude::*;
use smart_default::SmartDefault;

pub use crate::roce::tx_out::crc_after_lrh;

/// Byte mask: lane k of `y` is 0xFF if bit k of `m` is set, else 0.
#[derive(LogicBlock, Default)]
pub struct ByteExpand {
    pub m: Signal<In, Bits<8>>,
    pub y: Signal<Out, Bits<64>>,
}

impl Logic for ByteExpand {
    fn update(&mut self) {
        let m = self.m.val().to_u64();
        let mut y = 0u64;
        for k in 0..8 {
            if (m >> k) & 1 != 0 {
                y |= 0xFFu64 << (8 * k);
            }
        }
        self.y.next = Bits::<64>::from(y);
    }
    fn connect(&mut self) {
        self.y.connect();
    }
    fn hdl(&self) -> Verilog {
        let parts: Vec<String> = (0..8).rev().map(|k| format!("{{8{{m[{k}]}}}}")).collect();
        Verilog::Custom(format!("always @(*) y = {{{}}};\n", parts.join(", ")))
    }
}

#[derive(LogicBlock, SmartDefault)]
pub struct RoceTx<const A: usize> {
    // The parameter check, when the block is built.
    #[default({
        assert!((1..=16).contains(&A), "RoceTx: 1 <= A <= 16");
        Default::default()
    })]
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub s_ctx: TxFlowCtxSink<A>,
    pub s_req: TxDescSink<A>,
    pub s_axis_rd: AxisSink<64, 8, 1>,
    pub m_rdq: HostReadReqSource,
    pub m_axis_tx: AxisSource<64, 8, 1>,
    pub m_stats: TxStatsSource,
    /// Stages A and B (the ICRC) and the output slice: `m_axis_tx` is
    /// its flops, and `adv` a function of its flops.
    out: TxOut,
    /// `s_req.ready`, a register: no descriptor in prep or waiting next
    /// cycle, and no reset this cycle.
    rdy_q: DFF<Bit>,
    /// The flow contexts (four block RAMs) and their read register (P1).
    ctx_ram: TxCtxRam<A>,
    bs_base: Bswap64,
    bs_item: Bswap64,
    ex_keep: ByteExpand,
    ex_mask: ByteExpand,
    // Prep: stage flags (one descriptor in flight), descriptor registers.
    p1v: DFF<Bit>,
    p2v: DFF<Bit>,
    p3v: DFF<Bit>,
    p4v: DFF<Bit>,
    p5v: DFF<Bit>,
    sv: DFF<Bit>,
    d_opcode: DFF<Bits<8>>,
    d_psn: DFF<Bits<24>>,
    d_ack: DFF<Bit>,
    d_tlm: DFF<Bit>,
    /// A CNP: BECN (BTH byte 4 bit 6) set.
    d_becn: DFF<Bit>,
    /// The opcode has no AETH: the payload starts in byte lane 6 of its
    /// first word (lane 2 with the 4-byte AETH).
    d_no_aeth: DFF<Bit>,
    d_reth: DFF<Bit>,
    d_pay_len: DFF<Bits<13>>,
    /// Payload length rounded up to 4 bytes (payload + pad).
    d_len_pad4: DFF<Bits<13>>,
    /// Payload words, ceil(len / 8).
    d_pay_words: DFF<Bits<10>>,
    d_pad_cnt: DFF<Bits<2>>,
    /// IPv4 total length without the payload and pad: IP + UDP + BTH +
    /// ICRC (44) + RETH/AETH + TLM.
    d_ip_len_base: DFF<Bits<8>>,
    /// Frame bytes before the payload: Ethernet + IP + UDP + BTH (54) +
    /// RETH/AETH + TLM.
    d_hdr_len: DFF<Bits<8>>,
    /// Header items to emit: Y or Z, then VA and RD (RETH) or PA (AETH),
    /// then the 6 TLM words.
    d_hdr_items: DFF<Bits<4>>,
    d_item1: DFF<Bits<64>>,
    d_rd: DFF<Bits<64>>,
    x: [DFF<Bits<64>>; 6],
    // P2 results.
    n_b0: DFF<Bits<64>>,
    n_b1: DFF<Bits<64>>,
    n_b3: DFF<Bits<64>>,
    n_b4: DFF<Bits<64>>,
    n_b5: DFF<Bits<64>>,
    n_item0: DFF<Bits<64>>,
    ck_a: DFF<Bits<17>>,
    ck_b: DFF<Bits<17>>,
    ck_c: DFF<Bits<17>>,
    iplen: DFF<Bits<16>>,
    tprime: DFF<Bits<14>>,
    hn: DFF<Bits<14>>,
    // P3..P5.
    ck_ab: DFF<Bits<18>>,
    ck_ci: DFF<Bits<18>>,
    udplen: DFF<Bits<16>>,
    ck_x: DFF<Bits<19>>,
    ck_f: DFF<Bits<17>>,
    // Host read request.
    rdq_v: DFF<Bit>,
    rdq_a: DFF<Bits<64>>,
    rdq_l: DFF<Bits<13>>,
    // Generator.
    g_act: DFF<Bit>,
    base: [DFF<Bits<64>>; 6],
    item: [DFF<Bits<64>>; 9],
    g_j: DFF<Bits<3>>,
    g_hl: DFF<Bits<4>>,
    g_pl: DFF<Bits<10>>,
    g_rdat: DFF<Bits<14>>,
    g_rcrc: DFF<Bits<14>>,
    g_no_aeth: DFF<Bit>,
    g_tlm: DFF<Bit>,
    g_i0: DFF<Bit>,
    carry: DFF<Bits<64>>,
    cmask: DFF<Bits<8>>,
    // Registered tests of the counters (the generator's enables start
    // from these): g_j >= 5, g_hl == 0, g_pl == 0, g_pl == 1, last word.
    f_ge5: DFF<Bit>,
    f_hl0: DFF<Bit>,
    f_pl0: DFF<Bit>,
    f_pl1: DFF<Bit>,
    f_last: DFF<Bit>,
    // need_rd and cons_h of the next cycle, registered.
    f_nrd: DFF<Bit>,
    f_ch: DFF<Bit>,
    /// The frame's payload so far came flagged.
    g_err: DFF<Bit>,
    w_err: Signal<Local, Bit>,
    c_bad: DFF<Bits<32>>,
    #[default(Constant::new(Bits::<8>::from(0xFFu64)))]
    k_ff: Constant<Bits<8>>,
    /// The opcode table's classes of `s_req.opcode`.
    req_class: OpDecode,
    #[default(Constant::new(Bits::<8>::from(syndrome::ACK as u64)))]
    k_syn_ack: Constant<Bits<8>>,
    #[default(Constant::new(Bits::<8>::from(syndrome::NAK_SEQ as u64)))]
    k_syn_nak_seq: Constant<Bits<8>>,
    #[default(Constant::new(Bits::<8>::from(syndrome::NAK_INVALID as u64)))]
    k_syn_nak_invalid: Constant<Bits<8>>,
    #[default(Constant::new(Bits::<8>::from(syndrome::NAK_ACCESS as u64)))]
    k_syn_nak_access: Constant<Bits<8>>,
    /// The UDP destination port (4791) where it sits in header word 4.
    #[default(Constant::new(Bits::<64>::from((ROCE_PORT as u64) << 16)))]
    k_dport_word: Constant<Bits<64>>,
    // Locals.
    busy: Signal<Local, Bit>,
    rdy: Signal<Local, Bit>,
    accept: Signal<Local, Bit>,
    o_known: Signal<Local, Bit>,
    o_pay: Signal<Local, Bit>,
    o_need1: Signal<Local, Bit>,
    o_reth: Signal<Local, Bit>,
    o_aeth: Signal<Local, Bit>,
    o_wreth: Signal<Local, Bit>,
    o_rraeth: Signal<Local, Bit>,
    o_ack: Signal<Local, Bit>,
    o_probe: Signal<Local, Bit>,
    len0: Signal<Local, Bit>,
    len_big: Signal<Local, Bit>,
    syn: Signal<Local, Bits<8>>,
    dlen_lt: Signal<Local, Bit>,
    bad: Signal<Local, Bit>,
    l7: Signal<Local, Bits<13>>,
    l3: Signal<Local, Bits<13>>,
    ext: Signal<Local, Bits<8>>,
    flags: Signal<Local, Bits<8>>,
    f2: Signal<Local, Bits<16>>,
    /// !f2, 16 bits, before its cast (the width traps,
    /// docs/architecture.md §6).
    f2_inv: Signal<Local, Bits<16>>,
    adv: Signal<Local, Bit>,
    g_last: Signal<Local, Bit>,
    in_items: Signal<Local, Bit>,
    cons_h: Signal<Local, Bit>,
    need_rd: Signal<Local, Bit>,
    produce: Signal<Local, Bit>,
    take: Signal<Local, Bit>,
    item_le: Signal<Local, Bits<64>>,
    imask: Signal<Local, Bits<8>>,
    bmask: Signal<Local, Bits<8>>,
    keep8: Signal<Local, Bits<8>>,
    rneg: Signal<Local, Bit>,
    raw: Signal<Local, Bits<64>>,
    word: Signal<Local, Bits<64>>,
    crcm: Signal<Local, Bits<64>>,
    n_act: Signal<Local, Bit>,
    n_ge5: Signal<Local, Bit>,
    n_hl0: Signal<Local, Bit>,
    n_pl0: Signal<Local, Bit>,
    base_le: Signal<Local, Bits<64>>,
}

impl<const A: usize> Logic for RoceTx<A> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            p1v,
            p2v,
            p3v,
            p4v,
            p5v,
            sv,
            rdy_q,
            d_opcode,
            d_psn,
            d_ack,
            d_tlm,
            d_becn,
            d_no_aeth,
            d_reth,
            d_pay_len,
            d_len_pad4,
            d_pay_words,
            d_pad_cnt,
            d_ip_len_base,
            d_hdr_len,
            d_hdr_items,
            d_item1,
            d_rd,
            n_b0,
            n_b1,
            n_b3,
            n_b4,
            n_b5,
            n_item0,
            ck_a,
            ck_b,
            ck_c,
            iplen,
            tprime,
            hn,
            ck_ab,
            ck_ci,
            udplen,
            ck_x,
            ck_f,
            rdq_v,
            rdq_a,
            rdq_l,
            g_act,
            g_j,
            g_hl,
            g_pl,
            g_rdat,
            g_rcrc,
            g_no_aeth,
            g_tlm,
            g_i0,
            carry,
            cmask,
            f_ge5,
            f_hl0,
            f_pl0,
            f_pl1,
            f_last,
            f_nrd,
            f_ch,
            g_err,
            c_bad
        );
        for i in 0..6 {
            self.x[i].clock.next = self.clock.val();
            self.x[i].d.next = self.x[i].q.val();
            self.base[i].clock.next = self.clock.val();
            self.base[i].d.next = self.base[i].q.val();
        }
        for i in 0..9 {
            self.item[i].clock.next = self.clock.val();
            self.item[i].d.next = self.item[i].q.val();
        }
        clock!(self, clock, out, ctx_ram);
        AxisSource::<64, 8, 1>::link(&mut self.m_axis_tx, &mut self.out.m_axis_tx);

        // ---- Context writes; the read at the descriptor's flow --------------
        TxFlowCtxSink::<A>::link(&mut self.s_ctx, &mut self.ctx_ram.s_ctx);
        self.ctx_ram.rd_flow.next = self.s_req.flow.val();

        // ---- P0: accept and check a descriptor ------------------------------
        self.busy.next = (self.p1v.q.val()
            || self.p2v.q.val()
            || self.p3v.q.val()
            || self.p4v.q.val()
            || self.p5v.q.val()
            || self.sv.q.val()
            || self.rdq_v.q.val());
        self.rdy.next = self.rdy_q.q.val();
        self.s_req.ready.next = self.rdy.val();
        self.accept.next = (self.rdy.val() && self.s_req.valid.val());

        self.req_class.op.next = self.s_req.opcode.val();
        self.o_wreth.next = (self.req_class.reth.val() && !self.req_class.read_req.val());
        self.o_rraeth.next = (self.req_class.read_resp.val() && self.req_class.aeth.val());
        self.o_ack.next = self.req_class.ack.val();
        self.o_probe.next = self.req_class.hpcc.val();
        self.o_need1.next = (self.req_class.pay.val() && !self.req_class.only.val());
        self.o_pay.next = self.req_class.pay.val();
        self.o_reth.next = self.req_class.reth.val();
        self.o_aeth.next = self.req_class.aeth.val();
        self.o_known.next = self.req_class.known.val();
        self.len0.next = !self.s_req.len.val().any();
        self.len_big.next =
            (self.s_req.len.val().get_bit(12) && self.s_req.len.val().get_bits::<12>(0).any());
        self.syn.next = self.s_req.aeth.val().get_bits::<8>(24);
        self.dlen_lt.next = (self.s_req.dlen.val() < bit_cast::<32, 13>(self.s_req.len.val()));
        self.bad.next = (!self.o_known.val()
            || self.len_big.val()
            || (!self.o_pay.val() && !self.len0.val())
            || (self.o_need1.val() && self.len0.val())
            || (!self.len0.val() && self.s_req.addr.val().get_bits::<3>(0).any())
            || (self.o_wreth.val() && self.dlen_lt.val())
            || (self.o_ack.val()
                && !((self.syn.val() == self.k_syn_ack.val())
                    || (self.syn.val() == self.k_syn_nak_seq.val())
                    || (self.syn.val() == self.k_syn_nak_invalid.val())
                    || (self.syn.val() == self.k_syn_nak_access.val())))
            || (self.o_rraeth.val() && (self.syn.val() != self.k_syn_ack.val()))
            || (self.o_probe.val() && !self.s_req.tlm.present.val()));

        self.l7.next = (self.s_req.len.val() + 7);
        self.l3.next = (self.s_req.len.val() + 3);
        if self.o_reth.val() {
            self.ext.next = 16.into();
        } else if self.o_aeth.val() {
            self.ext.next = 4.into();
        } else {
            self.ext.next = 0.into();
        }
        // Every accepted descriptor's fields load, a bad one's too (it
        // starts no prep stage, so nothing reads them): `bad`, a compare's
        // carry chain, is on no register's enable but `p1v`'s, `rdq_v`'s and
        // the bad-descriptor counter's.
        if self.accept.val() {
            self.d_opcode.d.next = self.s_req.opcode.val();
            self.d_psn.d.next = self.s_req.psn.val();
            self.d_ack.d.next = self.s_req.ackreq.val();
            self.d_tlm.d.next = self.s_req.tlm.present.val();
            self.d_becn.d.next = self.req_class.cnp.val();
            self.d_no_aeth.d.next = !self.o_aeth.val();
            self.d_reth.d.next = self.o_reth.val();
            self.d_pay_len.d.next = self.s_req.len.val();
            self.d_len_pad4.d.next = (self.l3.val() & 0x1FFC);
            self.d_pay_words.d.next = self.l7.val().get_bits::<10>(3);
            self.d_pad_cnt.d.next = (0 - self.s_req.len.val().get_bits::<2>(0));
            if self.s_req.tlm.present.val() {
                self.d_ip_len_base.d.next = (self.ext.val() + 92);
                self.d_hdr_len.d.next = (self.ext.val() + 102);
            } else {
                self.d_ip_len_base.d.next = (self.ext.val() + 44);
                self.d_hdr_len.d.next = (self.ext.val() + 54);
            }
            // Header items: Y or Z, then VA+RD (RETH) or PA (AETH), then TLM.
            if self.o_aeth.val() {
                if self.s_req.tlm.present.val() {
                    self.d_hdr_items.d.next = 8.into();
                } else {
                    self.d_hdr_items.d.next = 2.into();
                }
            } else if self.o_reth.val() {
                if self.s_req.tlm.present.val() {
                    self.d_hdr_items.d.next = 9.into();
                } else {
                    self.d_hdr_items.d.next = 3.into();
                }
            } else if self.s_req.tlm.present.val() {
                self.d_hdr_items.d.next = 7.into();
            } else {
                self.d_hdr_items.d.next = 1.into();
            }
            if self.o_reth.val() {
                self.d_item1.d.next = self.s_req.va.val();
            } else {
                self.d_item1.d.next = ((bit_cast::<64, 1>(self.s_req.ackreq.val().into()) << 63)
                    | (bit_cast::<64, 24>(self.s_req.psn.val()) << 32)
                    | bit_cast::<64, 32>(self.s_req.aeth.val()));
            }
            self.d_rd.d.next = ((bit_cast::<64, 32>(self.s_req.rkey.val()) << 32)
                | bit_cast::<64, 32>(self.s_req.dlen.val()));
            self.x[0].d.next = self.s_req.tlm.hdr.val();
            self.x[1].d.next = self.s_req.tlm.hop0.val();
            self.x[2].d.next = self.s_req.tlm.hop1.val();
            self.x[3].d.next = self.s_req.tlm.hop2.val();
            self.x[4].d.next = self.s_req.tlm.hop3.val();
            self.x[5].d.next = self.s_req.tlm.hop4.val();
        }
        if (self.accept.val() && self.bad.val()) {
            self.c_bad.d.next = (self.c_bad.q.val() + 1);
        }
        // Host read request (one per descriptor with payload).
        self.m_rdq.valid.next = self.rdq_v.q.val();
        self.m_rdq.addr.next = self.rdq_a.q.val();
        self.m_rdq.len.next = self.rdq_l.q.val();
        if self.accept.val() {
            self.rdq_v.d.next = (!self.bad.val() && !self.len0.val());
            self.rdq_a.d.next = self.s_req.addr.val();
            self.rdq_l.d.next = self.s_req.len.val();
        } else if self.m_rdq.ready.val() {
            self.rdq_v.d.next = false;
        }

        // ---- P1: the context read, registered (in `ctx_ram`) ---------------
        self.ctx_ram.load.next = self.p1v.q.val();
        // ---- P2: context fields; header words, lengths ----------------------
        self.flags.next = (bit_cast::<8, 2>(self.d_pad_cnt.q.val()) << 4);
        if self.p2v.q.val() {
            self.n_b0.d.next = ((bit_cast::<64, 48>(self.ctx_ram.dmac.val()) << 16)
                | bit_cast::<64, 16>(self.ctx_ram.smac.val().get_bits::<16>(32)));
            self.n_b1.d.next = ((bit_cast::<64, 32>(self.ctx_ram.smac.val().get_bits::<32>(0))
                << 32)
                | 0x0800_4500
                | bit_cast::<64, 8>(self.ctx_ram.tos.val()));
            self.n_b3.d.next = ((bit_cast::<64, 32>(self.ctx_ram.sip.val()) << 16)
                | bit_cast::<64, 16>(self.ctx_ram.dip.val().get_bits::<16>(16)));
            self.n_b4.d.next = ((bit_cast::<64, 16>(self.ctx_ram.dip.val().get_bits::<16>(0))
                << 48)
                | (bit_cast::<64, 16>(self.ctx_ram.sport.val()) << 32)
                | self.k_dport_word.val());
            if self.d_no_aeth.q.val() {
                self.n_b5.d.next = ((bit_cast::<64, 8>(self.d_opcode.q.val()) << 40)
                    | (bit_cast::<64, 8>(self.flags.val()) << 32)
                    | (bit_cast::<64, 16>(self.ctx_ram.pkey.val()) << 16));
                self.n_item0.d.next = ((bit_cast::<64, 1>(self.d_becn.q.val().into()) << 62)
                    | (bit_cast::<64, 1>(self.d_tlm.q.val().into()) << 56)
                    | (bit_cast::<64, 24>(self.ctx_ram.dqp.val()) << 32)
                    | (bit_cast::<64, 1>(self.d_ack.q.val().into()) << 31)
                    | bit_cast::<64, 24>(self.d_psn.q.val()));
            } else {
                self.n_b5.d.next = 0.into();
                self.n_item0.d.next = ((bit_cast::<64, 8>(self.d_opcode.q.val()) << 56)
                    | (bit_cast::<64, 8>(self.flags.val()) << 48)
                    | (bit_cast::<64, 16>(self.ctx_ram.pkey.val()) << 32)
                    | (bit_cast::<64, 1>(self.d_tlm.q.val().into()) << 24)
                    | bit_cast::<64, 24>(self.ctx_ram.dqp.val()));
            }
            self.ck_a.d.next = (bit_cast::<17, 16>(self.ctx_ram.sip.val().get_bits::<16>(16))
                + bit_cast::<17, 16>(self.ctx_ram.sip.val().get_bits::<16>(0)));
            self.ck_b.d.next = (bit_cast::<17, 16>(self.ctx_ram.dip.val().get_bits::<16>(16))
                + bit_cast::<17, 16>(self.ctx_ram.dip.val().get_bits::<16>(0)));
            self.ck_c.d.next = (bit_cast::<17, 8>(self.ctx_ram.tos.val()) + 0xC511);
            self.iplen.d.next = (bit_cast::<16, 13>(self.d_len_pad4.q.val())
                + bit_cast::<16, 8>(self.d_ip_len_base.q.val()));
            self.tprime.d.next = (bit_cast::<14, 13>(self.d_len_pad4.q.val())
                + bit_cast::<14, 8>(self.d_hdr_len.q.val()));
            self.hn.d.next = (bit_cast::<14, 13>(self.d_pay_len.q.val())
                + bit_cast::<14, 8>(self.d_hdr_len.q.val()));
        }
        // ---- P3..P5: IPv4 header checksum (ones' complement sum) ------------
        if self.p3v.q.val() {
            self.ck_ab.d.next =
                (bit_cast::<18, 17>(self.ck_a.q.val()) + bit_cast::<18, 17>(self.ck_b.q.val()));
            self.ck_ci.d.next =
                (bit_cast::<18, 17>(self.ck_c.q.val()) + bit_cast::<18, 16>(self.iplen.q.val()));
            self.udplen.d.next = (self.iplen.q.val() - 20);
        }
        if self.p4v.q.val() {
            self.ck_x.d.next =
                (bit_cast::<19, 18>(self.ck_ab.q.val()) + bit_cast::<19, 18>(self.ck_ci.q.val()));
        }
        if self.p5v.q.val() {
            self.ck_f.d.next = (bit_cast::<17, 16>(self.ck_x.q.val().get_bits::<16>(0))
                + bit_cast::<17, 3>(self.ck_x.q.val().get_bits::<3>(16)));
        }
        self.f2.next = (self.ck_f.q.val().get_bits::<16>(0)
            + bit_cast::<16, 1>(self.ck_f.q.val().get_bits::<1>(16)));
        self.f2_inv.next = !self.f2.val();

        // ---- Generator -------------------------------------------------------
        self.adv.next = self.out.adv.val();
        self.g_last.next = self.f_last.q.val();
        self.in_items.next = self.f_ge5.q.val();
        self.cons_h.next = self.f_ch.q.val();
        self.need_rd.next = self.f_nrd.q.val();
        self.produce.next =
            (self.g_act.q.val() && (!self.need_rd.val() || self.s_axis_rd.tvalid.val()));
        self.take.next = (self.sv.q.val()
            && (!self.g_act.q.val()
                || (self.adv.val() && self.produce.val() && self.g_last.val())));
        self.s_axis_rd.tready.next = (self.adv.val() && self.need_rd.val());

        // The item of this word (lane order) and its ICRC mask.
        self.bs_item.x.next = self.item[0].q.val();
        self.bs_base.x.next = self.base[0].q.val();
        if self.cons_h.val() {
            self.item_le.next = self.bs_item.y.val();
            if self.g_i0.q.val() {
                if self.g_no_aeth.q.val() {
                    self.imask.next = 0x01.into();
                } else {
                    self.imask.next = 0x10.into();
                }
            } else if (self.g_tlm.q.val() && (self.g_hl.q.val() <= 6)) {
                self.imask.next = 0xFF.into();
            } else {
                self.imask.next = 0.into();
            }
        } else if self.need_rd.val() {
            self.item_le.next = self.s_axis_rd.tdata.val();
            self.imask.next = 0.into();
        } else {
            self.item_le.next = 0.into();
            self.imask.next = 0.into();
        }
        // Fixed masks of words 1, 2, 3, 5: TOS, TTL, IP checksum, UDP checksum.
        if (self.g_j.q.val() == 1) {
            self.bmask.next = 0x80.into();
        } else if (self.g_j.q.val() == 2) {
            self.bmask.next = 0x40.into();
        } else if ((self.g_j.q.val() == 3) || (self.g_j.q.val() == 5)) {
            self.bmask.next = 0x03.into();
        } else {
            self.bmask.next = 0.into();
        }
        // Lanes before the end of the payload are kept; later ones are pad.
        self.rneg.next = self.g_rdat.q.val().get_bit(13);
        if self.rneg.val() {
            self.keep8.next = 0.into();
        } else if self.g_rdat.q.val().get_bits::<10>(3).any() {
            self.keep8.next = 0xFF.into();
        } else {
            self.keep8.next = !(self.k_ff.val() << self.g_rdat.q.val().get_bits::<3>(0));
        }
        self.ex_keep.m.next = self.keep8.val();
        if (self.g_j.q.val() <= 5) {
            self.base_le.next = self.bs_base.y.val();
        } else {
            self.base_le.next = 0.into();
        }
        if self.g_no_aeth.q.val() {
            self.raw.next = (self.base_le.val() | self.carry.q.val() | (self.item_le.val() << 48));
            self.ex_mask.m.next = (self.bmask.val() | self.cmask.q.val() | (self.imask.val() << 6));
        } else {
            self.raw.next = (self.base_le.val() | self.carry.q.val() | (self.item_le.val() << 16));
            self.ex_mask.m.next = (self.bmask.val() | self.cmask.q.val() | (self.imask.val() << 2));
        }
        self.word.next = (self.raw.val() & self.ex_keep.y.val());
        self.crcm.next = (self.word.val() | self.ex_mask.y.val());

        // A flagged payload word marks the frame (sticky until the next).
        self.w_err.next = (self.g_err.q.val()
            || (self.need_rd.val()
                && self.s_axis_rd.tvalid.val()
                && self.s_axis_rd.tuser.val().any()));
        if (self.reset.val() || self.take.val()) {
            self.g_err.d.next = false;
        } else if (self.adv.val() && self.produce.val()) {
            self.g_err.d.next = self.w_err.val();
        }
        if self.reset.val() {
            self.g_act.d.next = false;
        } else if self.take.val() {
            self.g_act.d.next = true;
            self.base[0].d.next = self.n_b0.q.val();
            self.base[1].d.next = self.n_b1.q.val();
            self.base[2].d.next = ((bit_cast::<64, 16>(self.iplen.q.val()) << 48) | 0x4000_4011);
            self.base[3].d.next =
                (self.n_b3.q.val() | (bit_cast::<64, 16>(self.f2_inv.val()) << 48));
            self.base[4].d.next = (self.n_b4.q.val() | bit_cast::<64, 16>(self.udplen.q.val()));
            self.base[5].d.next = self.n_b5.q.val();
            self.item[0].d.next = self.n_item0.q.val();
            if !self.d_no_aeth.q.val() {
                // AETH: Z, PA, X0..X5.
                self.item[1].d.next = self.d_item1.q.val();
                self.item[2].d.next = self.x[0].q.val();
                self.item[3].d.next = self.x[1].q.val();
                self.item[4].d.next = self.x[2].q.val();
                self.item[5].d.next = self.x[3].q.val();
                self.item[6].d.next = self.x[4].q.val();
                self.item[7].d.next = self.x[5].q.val();
                self.item[8].d.next = 0.into();
            } else if self.d_reth.q.val() {
                // RETH: Y, VA, RD, X0..X5.
                self.item[1].d.next = self.d_item1.q.val();
                self.item[2].d.next = self.d_rd.q.val();
                self.item[3].d.next = self.x[0].q.val();
                self.item[4].d.next = self.x[1].q.val();
                self.item[5].d.next = self.x[2].q.val();
                self.item[6].d.next = self.x[3].q.val();
                self.item[7].d.next = self.x[4].q.val();
                self.item[8].d.next = self.x[5].q.val();
            } else {
                // Y, X0..X5.
                self.item[1].d.next = self.x[0].q.val();
                self.item[2].d.next = self.x[1].q.val();
                self.item[3].d.next = self.x[2].q.val();
                self.item[4].d.next = self.x[3].q.val();
                self.item[5].d.next = self.x[4].q.val();
                self.item[6].d.next = self.x[5].q.val();
                self.item[7].d.next = 0.into();
                self.item[8].d.next = 0.into();
            }
            self.g_j.d.next = 0.into();
            self.g_hl.d.next = self.d_hdr_items.q.val();
            self.g_pl.d.next = self.d_pay_words.q.val();
            self.g_rdat.d.next = self.hn.q.val();
            self.g_rcrc.d.next = self.tprime.q.val();
            self.g_no_aeth.d.next = self.d_no_aeth.q.val();
            self.g_tlm.d.next = self.d_tlm.q.val();
            self.g_i0.d.next = true;
            self.f_ge5.d.next = false;
            self.f_hl0.d.next = !self.d_hdr_items.q.val().any();
            self.f_pl0.d.next = !self.d_pay_words.q.val().any();
            self.f_pl1.d.next = (self.d_pay_words.q.val() == 1);
            self.f_last.d.next = ((self.tprime.q.val() == 2) || (self.tprime.q.val() == 0x3FFE));
            self.carry.d.next = 0.into();
            self.cmask.d.next = 0.into();
        } else if (self.adv.val() && self.produce.val()) {
            if self.g_last.val() {
                self.g_act.d.next = false;
            }
            if !self.in_items.val() {
                self.g_j.d.next = (self.g_j.q.val() + 1);
            } else {
                self.g_j.d.next = 6.into();
            }
            self.f_ge5.d.next = (self.g_j.q.val() >= 4);
            self.f_last.d.next = ((self.g_rcrc.q.val() == 10) || (self.g_rcrc.q.val() == 6));
            // (The last words shift in their own values: base words are
            // not used from word 6 on, items only while some are left.)
            for i in 0..5 {
                self.base[i].d.next = self.base[i + 1].q.val();
            }
            if self.cons_h.val() {
                for i in 0..8 {
                    self.item[i].d.next = self.item[i + 1].q.val();
                }
                self.g_hl.d.next = (self.g_hl.q.val() - 1);
                self.f_hl0.d.next = (self.g_hl.q.val() == 1);
                self.g_i0.d.next = false;
            } else if self.need_rd.val() {
                self.g_pl.d.next = (self.g_pl.q.val() - 1);
                self.f_pl0.d.next = self.f_pl1.q.val();
                self.f_pl1.d.next = (self.g_pl.q.val() == 2);
            }
            self.g_rdat.d.next = (self.g_rdat.q.val() - 8);
            self.g_rcrc.d.next = (self.g_rcrc.q.val() - 8);
            if self.g_no_aeth.q.val() {
                self.carry.d.next = (self.item_le.val() >> 16);
                self.cmask.d.next = (self.imask.val() >> 2);
            } else {
                self.carry.d.next = (self.item_le.val() >> 48);
                self.cmask.d.next = (self.imask.val() >> 6);
            }
        }

        // The next cycle's need_rd and cons_h, from the next flag values.
        if self.reset.val() {
            self.n_act.next = false;
            self.n_ge5.next = self.f_ge5.q.val();
            self.n_hl0.next = self.f_hl0.q.val();
            self.n_pl0.next = self.f_pl0.q.val();
        } else if self.take.val() {
            self.n_act.next = true;
            self.n_ge5.next = false;
            self.n_hl0.next = !self.d_hdr_items.q.val().any();
            self.n_pl0.next = !self.d_pay_words.q.val().any();
        } else if (self.adv.val() && self.produce.val()) {
            self.n_act.next = !self.g_last.val();
            self.n_ge5.next = (self.g_j.q.val() >= 4);
            if self.cons_h.val() {
                self.n_hl0.next = (self.g_hl.q.val() == 1);
            } else {
                self.n_hl0.next = self.f_hl0.q.val();
            }
            if self.need_rd.val() {
                self.n_pl0.next = self.f_pl1.q.val();
            } else {
                self.n_pl0.next = self.f_pl0.q.val();
            }
        } else {
            self.n_act.next = self.g_act.q.val();
            self.n_ge5.next = self.f_ge5.q.val();
            self.n_hl0.next = self.f_hl0.q.val();
            self.n_pl0.next = self.f_pl0.q.val();
        }
        self.f_nrd.d.next =
            (self.n_act.val() && self.n_ge5.val() && self.n_hl0.val() && !self.n_pl0.val());
        self.f_ch.d.next = (self.n_ge5.val() && !self.n_hl0.val());

        // ---- Stages A and B: the ICRC, the output slice ----------------------
        self.out.reset.next = self.reset.val();
        self.out.produce.next = self.produce.val();
        self.out.word.next = self.word.val();
        self.out.crcm.next = self.crcm.val();
        self.out.word_j.next = self.g_j.q.val();
        self.out.rcrc.next = self.g_rcrc.q.val();
        self.out.err.next = self.w_err.val();
        self.m_stats.frames.next = self.out.frames.val();
        self.m_stats.bad_req.next = self.c_bad.q.val();
        self.m_stats.aborted.next = self.out.aborted.val();

        // ---- Prep stage flags and reset --------------------------------------
        if self.reset.val() {
            self.p1v.d.next = false;
            self.p2v.d.next = false;
            self.p3v.d.next = false;
            self.p4v.d.next = false;
            self.p5v.d.next = false;
            self.sv.d.next = false;
            self.rdq_v.d.next = false;
            self.c_bad.d.next = 0.into();
        } else {
            self.p1v.d.next = (self.accept.val() && !self.bad.val());
            self.p2v.d.next = self.p1v.q.val();
            self.p3v.d.next = self.p2v.q.val();
            self.p4v.d.next = self.p3v.q.val();
            self.p5v.d.next = self.p4v.q.val();
            if self.p5v.q.val() {
                self.sv.d.next = true;
            } else if self.take.val() {
                self.sv.d.next = false;
            }
        }
        // `s_req.ready` next cycle: nothing in prep or waiting then, and
        // no reset now (a descriptor taken in a reset's first cycle is
        // abandoned with the pipeline).
        self.rdy_q.d.next = (!(self.p1v.d.val()
            || self.p2v.d.val()
            || self.p3v.d.val()
            || self.p4v.d.val()
            || self.p5v.d.val()
            || self.sv.d.val()
            || self.rdq_v.d.val())
            && !self.reset.val());
    }
}
