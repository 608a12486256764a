//! The Rx parser's verdict: why a frame is dropped, by the first failing
//! check in `nic_spec::roce::Drop`'s order, and where its payload lies. A
//! block of [`RoceRxParse`](super::rx_parse::RoceRxParse), its stages
//! A–C (cycles T+1 to T+3 after a frame's last word, T; `docs/roce.md`
//! §7).
//!
//! - Stage A: the header's checks side by side from the frame's words:
//!   FCS (the MAC's flag), truncation (shorter than 54 bytes or than the
//!   IPv4 total length + 14), EtherType, IPv4 (version and IHL, flags
//!   but the reserved one, fragment offset, protocol UDP, the header
//!   checksum: the ones'-complement accumulator folds to 0xFFFF), the
//!   UDP port, the opcode (known, BTH version 0), the lengths (UDP = IPv4
//!   − 20, IPv4 a multiple of 4, the headers inside it), the telemetry
//!   area (a version 1 header, at most 5 hops of 5 words, present
//!   exactly on the opcodes that carry one); and the payload's
//!   geometry: its bytes before the pad, its pad, its first byte.
//! - Stage B: the payload's length checks (a payload opcode: pad ≤ the
//!   bytes, at most 4096; another: no payload, no pad) and the first
//!   failing reason among the header's.
//! - Stage C: the ICRC (the CRC register's residue, final now) where
//!   nothing failed before it.
//!
//! # Ports (clock `clock`; no reset: the parent reads the outputs only
//! at a frame's T+4)
//! - In, at T+1: `w1`, `w2`, `w4`..`w9` (64 bits: the frame's 64-bit
//!   words 1, 2, 4..9, byte 8k + j in lane j), `flen` (20, the frame's
//!   bytes), `fcs_bad` (the MAC flagged it), `ipacc` (20, the sum of the
//!   IPv4 header's 16-bit words, byte-swapped, unfolded); at T+3: `crc`
//!   (32, the CRC register after the frame).
//! - Out, flip-flops, at T+4: `reason` (4 bits: 0 kept, else
//!   `Drop` index + 1), `pay_len` (13, payload bytes), `pay_w0` (16, the
//!   payload's first word in the frame), `pay_sh` (its first byte is in
//!   the word's high half), `ce` (IPv4 ECN = CE), `reth`, `aeth`, `tlm`
//!   (the packet carries that header).
//!
//! # Timing
//! Latency 3 (T+1 to T+4), a frame every cycle. Stage A is the longest:
//! the header length's select, then the payload's offset and the length
//! compare, two carry chains. No combinational path from an input to an
//! output (R1).
//!
//! # Bad input
//! Any word gives a reason: this block is where bad frames are named.
//!
//! Golden twin: `nic_golden::roce::rx_verdict`.

use crate::roce::op_decode::OpDecode;
use nic_spec::mac::FCS_RESIDUE as RESIDUE;
use nic_spec::roce::Drop;
use rust_hdl::prelude::*;
use smart_default::SmartDefault;

fn k<const N: usize>(v: u64) -> Constant<Bits<N>> {
    Constant::new(Bits::<N>::from(v))
}

#[derive(LogicBlock, SmartDefault)]
pub struct RxVerdict {
    pub clock: Signal<In, Clock>,
    pub ipacc: Signal<In, Bits<20>>,
    pub fcs_bad: Signal<In, Bit>,
    pub flen: Signal<In, Bits<20>>,
    pub crc: Signal<In, Bits<32>>,
    pub w1: Signal<In, Bits<64>>,
    pub w2: Signal<In, Bits<64>>,
    pub w4: Signal<In, Bits<64>>,
    pub w5: Signal<In, Bits<64>>,
    pub w6: Signal<In, Bits<64>>,
    pub w7: Signal<In, Bits<64>>,
    pub w8: Signal<In, Bits<64>>,
    pub w9: Signal<In, Bits<64>>,
    pub reason: Signal<Out, Bits<4>>,
    pub pay_len: Signal<Out, Bits<13>>,
    pub pay_w0: Signal<Out, Bits<16>>,
    pub pay_sh: Signal<Out, Bit>,
    pub ce: Signal<Out, Bit>,
    pub reth: Signal<Out, Bit>,
    pub aeth: Signal<Out, Bit>,
    pub tlm: Signal<Out, Bit>,
    dec_a: OpDecode,
    a_fcs: DFF<Bit>,
    a_trunc: DFF<Bit>,
    a_eth: DFF<Bit>,
    a_ip: DFF<Bit>,
    a_port: DFF<Bit>,
    a_opc: DFF<Bit>,
    a_lena: DFF<Bit>,
    a_tlm: DFF<Bit>,
    a_pp: DFF<Bits<16>>,
    a_pad: DFF<Bits<16>>,
    a_pay: DFF<Bit>,
    a_r: DFF<Bit>,
    a_a: DFF<Bit>,
    a_t: DFF<Bit>,
    a_p: DFF<Bits<8>>,
    a_ce: DFF<Bit>,
    b_ce: DFF<Bit>,
    c_ce: DFF<Bit>,
    why: DFF<Bits<4>>,
    b_len: DFF<Bits<13>>,
    b_w0: DFF<Bits<16>>,
    b_sh: DFF<Bit>,
    b_r: DFF<Bit>,
    b_a: DFF<Bit>,
    b_t: DFF<Bit>,
    why_c: DFF<Bits<4>>,
    c_len: DFF<Bits<13>>,
    c_w0: DFF<Bits<16>>,
    c_sh: DFF<Bit>,
    c_r: DFF<Bit>,
    c_a: DFF<Bit>,
    c_t: DFF<Bit>,
    #[default(std::array::from_fn(|i| { k(if i == 0 { 0 } else { Drop::ALL[i - 1] as u64 + 1 }) }))]
    k_rsn: [Constant<Bits<4>>; 10],
    #[default(std::array::from_fn(|i| k(0xFFFF * (i as u64 + 1))))]
    k_cs: [Constant<Bits<20>>; 10],
    #[default(k(RESIDUE as u64))]
    k_res: Constant<Bits<32>>,
    #[default(k(54))]
    k_54: Constant<Bits<20>>,
    #[default(k(16))]
    k_16: Constant<Bits<20>>,
    #[default(k(14))]
    k_14: Constant<Bits<20>>,
    #[default(k(0x0008))]
    k_eth: Constant<Bits<16>>,
    #[default(k(0x45))]
    k_45: Constant<Bits<8>>,
    #[default(k(0x3F))]
    k_3f: Constant<Bits<8>>,
    #[default(k(17))]
    k_17: Constant<Bits<8>>,
    #[default(k(nic_spec::roce::ROCE_PORT.swap_bytes() as u64))]
    k_port: Constant<Bits<16>>,
    #[default(k(20))]
    k_20: Constant<Bits<16>>,
    #[default(k(3))]
    k_3: Constant<Bits<16>>,
    #[default(k(60))]
    k_h_r: Constant<Bits<16>>,
    #[default(k(48))]
    k_h_a: Constant<Bits<16>>,
    #[default(k(44))]
    k_h_n: Constant<Bits<16>>,
    #[default(k(48))]
    k_48: Constant<Bits<16>>,
    #[default(k(10))]
    k_10: Constant<Bits<16>>,
    #[default(k(4096))]
    k_4096: Constant<Bits<16>>,
    #[default(k(5))]
    k_5: Constant<Bits<8>>,
    #[default(k(1))]
    k_1: Constant<Bits<4>>,
    ipsum_ok: Signal<Local, Bit>,
    iptot: Signal<Local, Bits<16>>,
    ipend: Signal<Local, Bits<20>>,
    udpl: Signal<Local, Bits<16>>,
    ipm20: Signal<Local, Bits<16>>,
    hdr1: Signal<Local, Bits<16>>,
    hdrs: Signal<Local, Bits<16>>,
    pp: Signal<Local, Bits<17>>,
    t_bit: Signal<Local, Bit>,
    tb0: Signal<Local, Bits<8>>,
    tb1: Signal<Local, Bits<8>>,
    tb2: Signal<Local, Bits<8>>,
    plen: Signal<Local, Bits<16>>,
    lenb: Signal<Local, Bit>,
    icrc_bad: Signal<Local, Bit>,
    pbyte: Signal<Local, Bits<16>>,
}

impl Logic for RxVerdict {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, a_fcs, a_trunc, a_eth, a_ip, a_port, a_opc, a_lena, a_tlm, a_pp, a_pad,
            a_pay, a_r, a_a, a_t, a_p, a_ce, b_ce, c_ce, why, b_len, b_w0, b_sh, b_r, b_a, b_t,
            why_c, c_len, c_w0, c_sh, c_r, c_a, c_t
        );
        self.reason.next = self.why_c.q.val();
        self.pay_len.next = self.c_len.q.val();
        self.pay_w0.next = self.c_w0.q.val();
        self.pay_sh.next = self.c_sh.q.val();
        self.ce.next = self.c_ce.q.val();
        self.reth.next = self.c_r.q.val();
        self.aeth.next = self.c_a.q.val();
        self.tlm.next = self.c_t.q.val();

        // ---------------- Verdict stage A (cycle T+1) ----------------
        self.ipsum_ok.next = ((self.ipacc.val() == self.k_cs[0].val())
            || (self.ipacc.val() == self.k_cs[1].val())
            || (self.ipacc.val() == self.k_cs[2].val())
            || (self.ipacc.val() == self.k_cs[3].val())
            || (self.ipacc.val() == self.k_cs[4].val())
            || (self.ipacc.val() == self.k_cs[5].val())
            || (self.ipacc.val() == self.k_cs[6].val())
            || (self.ipacc.val() == self.k_cs[7].val())
            || (self.ipacc.val() == self.k_cs[8].val())
            || (self.ipacc.val() == self.k_cs[9].val()));
        self.iptot.next = ((bit_cast::<16, 8>(self.w2.val().get_bits::<8>(0)) << 8)
            | bit_cast::<16, 8>(self.w2.val().get_bits::<8>(8)));
        self.udpl.next = ((bit_cast::<16, 8>(self.w4.val().get_bits::<8>(48)) << 8)
            | bit_cast::<16, 8>(self.w4.val().get_bits::<8>(56)));
        self.ipend.next = (bit_cast::<20, 16>(self.iptot.val()) + self.k_14.val());
        self.ipm20.next = (self.iptot.val() - self.k_20.val());
        self.a_fcs.d.next = self.fcs_bad.val();
        self.a_trunc.d.next =
            ((self.flen.val() < self.k_54.val()) || (self.flen.val() < self.ipend.val()));
        self.a_eth.d.next = (self.w1.val().get_bits::<16>(32) != self.k_eth.val());
        // ECN (TOS bits 1..0, byte 15) = CE on an IPv4 EtherType; word 1 is
        // this frame's only if the frame has 16 bytes.
        self.a_ce.d.next = ((self.flen.val() >= self.k_16.val())
            && (self.w1.val().get_bits::<16>(32) == self.k_eth.val())
            && (self.w1.val().get_bits::<2>(56) == 3));
        self.a_ip.d.next = ((self.w1.val().get_bits::<8>(48) != self.k_45.val())
            || ((self.w2.val().get_bits::<8>(32) & self.k_3f.val()).any())
            || self.w2.val().get_bits::<8>(40).any()
            || (self.w2.val().get_bits::<8>(56) != self.k_17.val())
            || !self.ipsum_ok.val());
        self.a_port.d.next = (self.w4.val().get_bits::<16>(32) != self.k_port.val());
        self.dec_a.op.next = self.w5.val().get_bits::<8>(16);
        self.a_opc.d.next = (!self.dec_a.known.val() || self.w5.val().get_bits::<4>(24).any());
        self.t_bit.next = self.w5.val().get_bit(48);
        if self.dec_a.reth.val() {
            self.hdr1.next = self.k_h_r.val();
        } else if self.dec_a.aeth.val() {
            self.hdr1.next = self.k_h_a.val();
        } else {
            self.hdr1.next = self.k_h_n.val();
        }
        if self.t_bit.val() {
            self.hdrs.next = (self.hdr1.val() + self.k_48.val());
        } else {
            self.hdrs.next = self.hdr1.val();
        }
        self.pp.next = (bit_cast::<17, 16>(self.iptot.val()) - bit_cast::<17, 16>(self.hdrs.val()));
        self.a_lena.d.next = ((self.udpl.val() != self.ipm20.val())
            || ((self.iptot.val() & self.k_3.val()).any())
            || self.pp.val().get_bit(16));
        self.a_pp.d.next = self.pp.val().get_bits::<16>(0);
        self.a_pad.d.next = bit_cast::<16, 2>(self.w5.val().get_bits::<2>(28));
        self.a_pay.d.next = self.dec_a.pay.val();
        self.a_r.d.next = self.dec_a.reth.val();
        self.a_a.d.next = self.dec_a.aeth.val();
        self.a_t.d.next = self.t_bit.val();
        self.pbyte.next = (self.hdrs.val() + self.k_10.val());
        self.a_p.d.next = self.pbyte.val().get_bits::<8>(0);
        if self.dec_a.reth.val() {
            self.tb0.next = self.w8.val().get_bits::<8>(48);
            self.tb1.next = self.w8.val().get_bits::<8>(56);
            self.tb2.next = self.w9.val().get_bits::<8>(0);
        } else if self.dec_a.aeth.val() {
            self.tb0.next = self.w7.val().get_bits::<8>(16);
            self.tb1.next = self.w7.val().get_bits::<8>(24);
            self.tb2.next = self.w7.val().get_bits::<8>(32);
        } else {
            self.tb0.next = self.w6.val().get_bits::<8>(48);
            self.tb1.next = self.w6.val().get_bits::<8>(56);
            self.tb2.next = self.w7.val().get_bits::<8>(0);
        }
        self.a_tlm.d.next = ((self.t_bit.val()
            && ((self.tb0.val().get_bits::<4>(4) != self.k_1.val())
                || (self.tb1.val() > self.k_5.val())
                || (self.tb2.val() != self.k_5.val())))
            || (self.dec_a.hpcc.val() && !self.t_bit.val()));

        // ---------------- Verdict stage B (cycle T+2) ----------------
        self.plen.next = (self.a_pp.q.val() - self.a_pad.q.val());
        if self.a_pay.q.val() {
            self.lenb.next = (self.a_lena.q.val()
                || (self.a_pp.q.val() < self.a_pad.q.val())
                || (self.plen.val() > self.k_4096.val()));
        } else {
            self.lenb.next =
                ((self.a_lena.q.val() || self.a_pp.q.val().any()) || self.a_pad.q.val().any());
        }
        self.icrc_bad.next = (self.crc.val() != self.k_res.val());
        if self.a_fcs.q.val() {
            self.why.d.next = self.k_rsn[1].val();
        } else if self.a_trunc.q.val() {
            self.why.d.next = self.k_rsn[2].val();
        } else if self.a_eth.q.val() {
            self.why.d.next = self.k_rsn[3].val();
        } else if self.a_ip.q.val() {
            self.why.d.next = self.k_rsn[4].val();
        } else if self.a_port.q.val() {
            self.why.d.next = self.k_rsn[5].val();
        } else if self.a_opc.q.val() {
            self.why.d.next = self.k_rsn[6].val();
        } else if self.lenb.val() {
            self.why.d.next = self.k_rsn[7].val();
        } else if self.a_tlm.q.val() {
            self.why.d.next = self.k_rsn[8].val();
        } else {
            self.why.d.next = self.k_rsn[0].val();
        }
        // Stage C (cycle T+3): the ICRC (the CRC register is final now).
        if self.why.q.val().any() {
            self.why_c.d.next = self.why.q.val();
        } else if self.icrc_bad.val() {
            self.why_c.d.next = self.k_rsn[9].val();
        } else {
            self.why_c.d.next = self.k_rsn[0].val();
        }
        self.c_len.d.next = self.b_len.q.val();
        self.c_w0.d.next = self.b_w0.q.val();
        self.c_sh.d.next = self.b_sh.q.val();
        self.c_ce.d.next = self.b_ce.q.val();
        self.b_ce.d.next = self.a_ce.q.val();
        self.c_r.d.next = self.b_r.q.val();
        self.c_a.d.next = self.b_a.q.val();
        self.c_t.d.next = self.b_t.q.val();
        self.b_len.d.next = self.plen.val().get_bits::<13>(0);
        self.b_w0.d.next = bit_cast::<16, 5>(self.a_p.q.val().get_bits::<5>(3));
        self.b_sh.d.next = self.a_p.q.val().get_bit(2);
        self.b_r.d.next = self.a_r.q.val();
        self.b_a.d.next = self.a_a.q.val();
        self.b_t.d.next = self.a_t.q.val();
    }
}
