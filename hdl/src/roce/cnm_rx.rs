//! QCN CNM receive tap (IEEE 802.1Qau; `docs/roce.md` §11, wire format
//! in `nic_spec::cnm`).
//!
//! # What it does
//! Watches the MAC's Rx stream beside the RoCE parser (a tap: inputs only,
//! it never back-pressures). A frame is a Congestion Notification Message
//! when, after DA and SA, it has at most an 802.1ad S-TAG (0x88A8), an
//! 802.1Q C-TAG (0x8100) and a CN-TAG (0x22E9 + RPID), each optional and
//! in that order, then the CNM EtherType 0x22E7. Every other frame (IPv4
//! RoCE frames, CN-tagged data frames, anything) is ignored: no record, no
//! counter. For a CNM it captures the PDU's fields in stream and, on the
//! frame's last beat, either offers a [`CnmInfo`](crate::roce::CnmInfoSource)
//! record on `m_cnm` or counts why not. A CNM does not drive any flow's
//! rate in this NIC: the record is for the host and telemetry.
//!
//! # Ports (clock `clock`; no reset: registers start at 0)
//! - `s_axis_rx` ([`AxisTap`]`<64, 8, 1>`: `tdata`, `tkeep`, `tlast`,
//!   `tuser` = 1: bad FCS, read with `tlast`, `tvalid`): the MAC's frames,
//!   byte 0 in lane 0, no FCS. `tkeep` counts on the last beat only (its
//!   highest set lane + 1 bytes); other beats are 8 bytes.
//! - `m_cnm` (`CnmInfo`, valid/ready): `cn_tag`, `rpid` (the CN-TAG's, else
//!   0), `version`, `qntz_fb`, `cpid`, `qoffset`, `qdelta`, `encap_prio`,
//!   `encap_da`, `msdu_len`, and `qp` with `qp_valid` when the encapsulated
//!   MSDU starts with a RoCEv2 frame's headers up to its BTH destination QP
//!   (EtherType 0x0800, IPv4 0x45, protocol 17, UDP port 4791, MSDU ≥ 38
//!   bytes). One slot, registered; all fields 0 while `valid` is low. A good
//!   CNM decided while the slot is full and not being taken is dropped and
//!   counted (`dropped`): the consumer is telemetry, the Rx cannot wait.
//! - `m_stats` (`CnmStats`, 32 bits, wrapping): `cnms` (good CNMs, dropped
//!   ones included), `roce` (good CNMs with `qp_valid`), `bad_fcs`,
//!   `trunc`, `bad_version`, `bad_len`, `dropped`.
//!
//! # Checks of a CNM (the first failing reason is counted)
//! With P the PDU's offset (14, 18, 22 or 26) and `flen` the frame's bytes:
//! 1. `bad_fcs`: `tuser` with the last beat;
//! 2. `trunc`: `flen` < P + 24 (the fixed fields);
//! 3. `bad_version`: version ≠ 0 (the 6 reserved bits are ignored);
//! 4. `bad_len`: MSDU length > 64;
//! 5. `trunc`: `flen` < P + 24 + MSDU length. Bytes after the MSDU
//!    (padding) are ignored.
//!
//! A frame that ends before the end of its 0x22E7 is not a CNM.
//!
//! # Structure
//! - The type chain at bytes 12, 16, 20, 24 (beat 1 lanes 4–5, beat 2 lanes
//!   0–1 and 4–5, beat 3 lanes 0–1) is decided in the beat where each type
//!   arrives, so P (= 8q + s, s ∈ {2, 6}) is known in the beat of the PDU's
//!   first byte.
//! - Captures use the chain's registers only (decided in an earlier beat),
//!   so the type compares are not in front of the capture muxes. Every
//!   field is captured in the beat holding its last byte, from the beat in
//!   network byte order ([`Bswap64`]) at one of two lane offsets (s = 2
//!   or 6); two fields (CPID for s = 2, Encapsulated DA for s = 6) from
//!   that beat and the one before it, and version/QntzFb (in the beat that
//!   decides P) one beat later, from the previous beat. The beat index saturates at 15:
//!   every field lies in beats 1..=10 and every length threshold is ≤ 114
//!   bytes, so longer frames are judged right.
//! - The length thresholds (P, P + 24, P + 24 + MSDU length) and
//!   "MSDU length > 64" are registered as the chain and the length field
//!   arrive. The verdict is taken one cycle after the last beat, from
//!   registers only (the length compares); the next frame's first beat
//!   (DA, SA) changes none of the registers it reads. The verdict, its
//!   reasons and the record it would give are registered (`v_*`), and the
//!   slot and the counters take them the cycle after: the compares drive
//!   no load enable, and the next frame's first beats may change the
//!   capture registers meanwhile (they clear the tag chain), not `v_*`.
//!
//! # Timing
//! - Input: one beat per cycle, any gaps, frames back to back.
//! - Latency: last beat in cycle T → verdict in T + 1, registered → the
//!   slot and the counters load in T + 2 → `m_cnm.valid` and the counters
//!   visible in T + 3.
//! - Throughput: a CNM is at least 5 beats; the slot empties in one cycle
//!   when `ready` is high, so a consumer that is always ready loses none.
//! - ECP5-85F: with its ports registered (`make synth-ports`), see
//!   `docs/figures.md`; before the verdict was registered, 167.36 MHz at
//!   the worst of seeds 1–3, the path the length compares → the slot's
//!   load enable.
//!
//! Golden twin: `nic_golden::roce::cnm_rx` (with the byte-level
//! `parse_cnm` and the encoder `encode_cnm`).

use crate::roce::bswap::Bswap64;
use crate::roce::{CnmInfoSource, CnmStatsSource};
use crate::stream::AxisTap;
use nic_spec::cnm as w;
use rust_hdl::prelude::*;
use smart_default::SmartDefault;

fn k<const N: usize>(v: u64) -> Constant<Bits<N>> {
    Constant::new(Bits::<N>::from(v))
}

#[derive(LogicBlock, SmartDefault)]
pub struct CnmRx {
    pub clock: Signal<In, Clock>,
    pub s_axis_rx: AxisTap<64, 8, 1>,
    pub m_cnm: CnmInfoSource,
    pub m_stats: CnmStatsSource,
    bs: Bswap64,
    // ---- walk
    /// Beat index in the frame, saturating at 15.
    beat: DFF<Bits<4>>,
    /// The previous beat, network byte order.
    prev: DFF<Bits<64>>,
    // ---- type chain
    /// Undecided, and a tag was taken at the last position.
    ch_live: DFF<Bit>,
    ch_s: DFF<Bit>,
    ch_c: DFF<Bit>,
    ch_cn: DFF<Bit>,
    ch_cnm: DFF<Bit>,
    /// P = 8 q + (s6 ? 6 : 2).
    ch_q: DFF<Bits<2>>,
    ch_s6: DFF<Bit>,
    ch_rpid: DFF<Bits<16>>,
    // ---- captured fields
    f_vq: DFF<Bits<16>>,
    f_cpid: DFF<Bits<64>>,
    f_qoff: DFF<Bits<16>>,
    f_qdelta: DFF<Bits<16>>,
    f_eprio: DFF<Bits<16>>,
    f_eda: DFF<Bits<48>>,
    f_mlen: DFF<Bits<16>>,
    f_et: DFF<Bits<16>>,
    f_vihl: DFF<Bits<8>>,
    f_proto: DFF<Bits<8>>,
    f_dport: DFF<Bits<16>>,
    f_qp: DFF<Bits<24>>,
    /// P, P + 24 and P + 24 + MSDU length (bytes), and MSDU length > 64,
    /// registered as the fields arrive (off the verdict's path).
    r_pdu: DFF<Bits<8>>,
    r_fix: DFF<Bits<8>>,
    r_all: DFF<Bits<8>>,
    r_len_bad: DFF<Bit>,
    /// The encapsulated MSDU is long enough to hold a RoCEv2 header
    /// (`f_mlen` ≥ the minimum), registered with `f_mlen` (R4).
    r_mlen_roce: DFF<Bit>,
    // ---- verdict stage
    d_v: DFF<Bit>,
    d_flen: DFF<Bits<8>>,
    d_fcs: DFF<Bit>,
    // ---- output slot
    /// The verdict (`v_good` and the counters' reasons) and the record it
    /// would put in the slot, registered in T + 1 from the frame's
    /// registers; the slot and the counters take them in T + 2, so the
    /// length compares drive no load enable (the next frame's first beats
    /// may change the capture registers meanwhile: these do not).
    v_good: DFF<Bit>,
    v_is_cnm: DFF<Bit>,
    v_fcs: DFF<Bit>,
    v_tr1: DFF<Bit>,
    v_ver: DFF<Bit>,
    v_len: DFF<Bit>,
    v_tr2: DFF<Bit>,
    v_cn_tag: DFF<Bit>,
    v_rpid: DFF<Bits<16>>,
    v_version: DFF<Bits<4>>,
    v_qntz: DFF<Bits<6>>,
    v_cpid: DFF<Bits<64>>,
    v_qoff: DFF<Bits<16>>,
    v_qdelta: DFF<Bits<16>>,
    v_eprio: DFF<Bits<16>>,
    v_eda: DFF<Bits<48>>,
    v_mlen: DFF<Bits<16>>,
    v_qpv: DFF<Bit>,
    v_qp: DFF<Bits<24>>,
    o_v: DFF<Bit>,
    o_cn_tag: DFF<Bit>,
    o_rpid: DFF<Bits<16>>,
    o_version: DFF<Bits<4>>,
    o_qntz: DFF<Bits<6>>,
    o_cpid: DFF<Bits<64>>,
    o_qoff: DFF<Bits<16>>,
    o_qdelta: DFF<Bits<16>>,
    o_eprio: DFF<Bits<16>>,
    o_eda: DFF<Bits<48>>,
    o_mlen: DFF<Bits<16>>,
    o_qpv: DFF<Bit>,
    o_qp: DFF<Bits<24>>,
    // ---- counters
    c_cnms: DFF<Bits<32>>,
    c_roce: DFF<Bits<32>>,
    c_bad_fcs: DFF<Bits<32>>,
    c_trunc: DFF<Bits<32>>,
    c_bad_version: DFF<Bits<32>>,
    c_bad_len: DFF<Bits<32>>,
    c_dropped: DFF<Bits<32>>,
    // ---- constants
    #[default(k(w::ETHERTYPE_CNM as u64))]
    k_cnm: Constant<Bits<16>>,
    #[default(k(w::ETHERTYPE_CN_TAG as u64))]
    k_cntag: Constant<Bits<16>>,
    #[default(k(w::ETHERTYPE_C_TAG as u64))]
    k_ctag: Constant<Bits<16>>,
    #[default(k(w::ETHERTYPE_S_TAG as u64))]
    k_stag: Constant<Bits<16>>,
    #[default(k(w::ETHERTYPE_IPV4 as u64))]
    k_ipv4: Constant<Bits<16>>,
    #[default(k(0x45))]
    k_vihl: Constant<Bits<8>>,
    #[default(k(17))]
    k_udp: Constant<Bits<8>>,
    #[default(k(nic_spec::roce::ROCE_PORT as u64))]
    k_port: Constant<Bits<16>>,
    #[default(k(w::MAX_MSDU as u64))]
    k_max_msdu: Constant<Bits<16>>,
    #[default(k(w::msdu::ROCE_MIN as u64))]
    k_roce_min: Constant<Bits<16>>,
    /// P and P + 24 by the number of tags.
    #[default(std::array::from_fn(|i| k(w::PDU_OFFSETS[i] as u64)))]
    k_p: [Constant<Bits<8>>; 4],
    #[default(std::array::from_fn(|i| k((w::PDU_OFFSETS[i] + w::pdu::FIXED_LEN) as u64)))]
    k_f: [Constant<Bits<8>>; 4],
    #[default(std::array::from_fn(|i| k(i as u64)))]
    k_b: [Constant<Bits<4>>; 4],
    #[default(std::array::from_fn(|i| k(i as u64)))]
    k_r: [Constant<Bits<4>>; 9],
    #[default(std::array::from_fn(|i| k(i as u64)))]
    k_q: [Constant<Bits<2>>; 4],
    // ---- locals
    acc: Signal<Local, Bit>,
    be: Signal<Local, Bits<64>>,
    t_lo: Signal<Local, Bits<16>>,
    t_hi: Signal<Local, Bits<16>>,
    isb: [Signal<Local, Bit>; 4],
    lo_cnm: Signal<Local, Bit>,
    lo_c: Signal<Local, Bit>,
    lo_cn: Signal<Local, Bit>,
    hi_cnm: Signal<Local, Bit>,
    hi_s: Signal<Local, Bit>,
    hi_c: Signal<Local, Bit>,
    hi_cn: Signal<Local, Bit>,
    /// A step at a type in lanes 0–1 (positions 1 and 3), from the registers.
    m1_cnm: Signal<Local, Bit>,
    m1_c: Signal<Local, Bit>,
    m1_cn: Signal<Local, Bit>,
    m1_live: Signal<Local, Bit>,
    s1_c: Signal<Local, Bit>,
    s1_cn: Signal<Local, Bit>,
    /// The step at position 2 (lanes 4–5 of beat 2), after position 1.
    m2_cnm: Signal<Local, Bit>,
    m2_c: Signal<Local, Bit>,
    m2_cn: Signal<Local, Bit>,
    m2_live: Signal<Local, Bit>,
    /// The chain's decision with this beat's step.
    n_cnm: Signal<Local, Bit>,
    n_q: Signal<Local, Bits<2>>,
    n_s6: Signal<Local, Bit>,
    rel: Signal<Local, Bits<4>>,
    isr: [Signal<Local, Bit>; 9],
    cap: Signal<Local, Bit>,
    mlen_in: Signal<Local, Bits<16>>,
    nk: Signal<Local, Bits<4>>,
    is_cnm: Signal<Local, Bit>,
    e_tr1: Signal<Local, Bit>,
    e_ver: Signal<Local, Bit>,
    e_len: Signal<Local, Bit>,
    e_tr2: Signal<Local, Bit>,
    good: Signal<Local, Bit>,
    qpv: Signal<Local, Bit>,
    slot_free: Signal<Local, Bit>,
}

impl Logic for CnmRx {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            beat,
            prev,
            ch_live,
            ch_s,
            ch_c,
            ch_cn,
            ch_cnm,
            ch_q,
            ch_s6,
            ch_rpid,
            f_vq,
            f_cpid,
            f_qoff,
            f_qdelta,
            f_eprio,
            f_eda,
            f_mlen,
            f_et,
            f_vihl,
            f_proto,
            f_dport,
            f_qp,
            r_pdu,
            r_fix,
            r_all,
            r_len_bad,
            r_mlen_roce,
            d_v,
            d_flen,
            d_fcs,
            v_good,
            v_is_cnm,
            v_fcs,
            v_tr1,
            v_ver,
            v_len,
            v_tr2,
            v_cn_tag,
            v_rpid,
            v_version,
            v_qntz,
            v_cpid,
            v_qoff,
            v_qdelta,
            v_eprio,
            v_eda,
            v_mlen,
            v_qpv,
            v_qp,
            o_v,
            o_cn_tag,
            o_rpid,
            o_version,
            o_qntz,
            o_cpid,
            o_qoff,
            o_qdelta,
            o_eprio,
            o_eda,
            o_mlen,
            o_qpv,
            o_qp,
            c_cnms,
            c_roce,
            c_bad_fcs,
            c_trunc,
            c_bad_version,
            c_bad_len,
            c_dropped
        );
        // ---- outputs: registers only
        self.m_cnm.valid.next = self.o_v.q.val();
        self.m_cnm.cn_tag.next = self.o_cn_tag.q.val();
        self.m_cnm.rpid.next = self.o_rpid.q.val();
        self.m_cnm.version.next = self.o_version.q.val();
        self.m_cnm.qntz_fb.next = self.o_qntz.q.val();
        self.m_cnm.cpid.next = self.o_cpid.q.val();
        self.m_cnm.qoffset.next = self.o_qoff.q.val();
        self.m_cnm.qdelta.next = self.o_qdelta.q.val();
        self.m_cnm.encap_prio.next = self.o_eprio.q.val();
        self.m_cnm.encap_da.next = self.o_eda.q.val();
        self.m_cnm.msdu_len.next = self.o_mlen.q.val();
        self.m_cnm.qp_valid.next = self.o_qpv.q.val();
        self.m_cnm.qp.next = self.o_qp.q.val();
        self.m_stats.cnms.next = self.c_cnms.q.val();
        self.m_stats.roce.next = self.c_roce.q.val();
        self.m_stats.bad_fcs.next = self.c_bad_fcs.q.val();
        self.m_stats.trunc.next = self.c_trunc.q.val();
        self.m_stats.bad_version.next = self.c_bad_version.q.val();
        self.m_stats.bad_len.next = self.c_bad_len.q.val();
        self.m_stats.dropped.next = self.c_dropped.q.val();

        // ---- the beat
        self.acc.next = self.s_axis_rx.tvalid.val();
        self.bs.x.next = self.s_axis_rx.tdata.val();
        self.be.next = self.bs.y.val();
        self.t_lo.next = self.be.val().get_bits::<16>(48);
        self.t_hi.next = self.be.val().get_bits::<16>(16);
        for i in 0..4 {
            self.isb[i].next = (self.beat.q.val() == self.k_b[i].val());
        }
        if self.acc.val() {
            self.prev.d.next = self.be.val();
            if self.s_axis_rx.tlast.val() {
                self.beat.d.next = 0.into();
            } else if !self.beat.q.val().all() {
                self.beat.d.next = (self.beat.q.val() + 1);
            }
        }

        // ---- type chain
        self.lo_cnm.next = (self.t_lo.val() == self.k_cnm.val());
        self.lo_c.next = (self.t_lo.val() == self.k_ctag.val());
        self.lo_cn.next = (self.t_lo.val() == self.k_cntag.val());
        self.hi_cnm.next = (self.t_hi.val() == self.k_cnm.val());
        self.hi_s.next = (self.t_hi.val() == self.k_stag.val());
        self.hi_c.next = (self.t_hi.val() == self.k_ctag.val());
        self.hi_cn.next = (self.t_hi.val() == self.k_cntag.val());
        // Positions 1 and 3 (lanes 0-1 of beats 2 and 3), from the registers.
        self.m1_cnm.next = (self.ch_live.q.val() && self.lo_cnm.val());
        self.m1_c.next =
            (self.ch_live.q.val() && self.lo_c.val() && !self.ch_c.q.val() && !self.ch_cn.q.val());
        self.m1_cn.next = (self.ch_live.q.val() && self.lo_cn.val() && !self.ch_cn.q.val());
        self.m1_live.next = (self.m1_c.val() || self.m1_cn.val());
        self.s1_c.next = (self.ch_c.q.val() || self.m1_c.val());
        self.s1_cn.next = (self.ch_cn.q.val() || self.m1_cn.val());
        // Position 2 (lanes 4-5 of beat 2), after position 1.
        self.m2_cnm.next = (self.m1_live.val() && self.hi_cnm.val());
        self.m2_c.next =
            (self.m1_live.val() && self.hi_c.val() && !self.s1_c.val() && !self.s1_cn.val());
        self.m2_cn.next = (self.m1_live.val() && self.hi_cn.val() && !self.s1_cn.val());
        self.m2_live.next = (self.m2_c.val() || self.m2_cn.val());

        self.n_cnm.next = self.ch_cnm.q.val();
        self.n_q.next = self.ch_q.q.val();
        self.n_s6.next = self.ch_s6.q.val();
        if self.acc.val() {
            if self.isb[0].val() {
                self.n_cnm.next = false;
                self.n_q.next = self.k_q[0].val();
                self.n_s6.next = false;
                self.ch_live.d.next = false;
                self.ch_s.d.next = false;
                self.ch_c.d.next = false;
                self.ch_cn.d.next = false;
                self.ch_rpid.d.next = 0.into();
            } else if self.isb[1].val() {
                // Position 0: bytes 12-13.
                self.ch_live.d.next = (self.hi_s.val() || self.hi_c.val() || self.hi_cn.val());
                self.ch_s.d.next = self.hi_s.val();
                self.ch_c.d.next = self.hi_c.val();
                self.ch_cn.d.next = self.hi_cn.val();
                if self.hi_cn.val() {
                    self.ch_rpid.d.next = self.be.val().get_bits::<16>(0);
                }
                if self.hi_cnm.val() {
                    self.n_cnm.next = true;
                    self.n_q.next = self.k_q[1].val();
                    self.n_s6.next = true;
                    self.r_pdu.d.next = self.k_p[0].val();
                    self.r_fix.d.next = self.k_f[0].val();
                }
            } else if self.isb[2].val() {
                // Positions 1 and 2: bytes 16-17 and 20-21.
                self.ch_live.d.next = self.m2_live.val();
                self.ch_c.d.next = (self.s1_c.val() || self.m2_c.val());
                self.ch_cn.d.next = (self.s1_cn.val() || self.m2_cn.val());
                if self.m1_cn.val() {
                    self.ch_rpid.d.next = self.be.val().get_bits::<16>(32);
                }
                if self.m2_cn.val() {
                    self.ch_rpid.d.next = self.be.val().get_bits::<16>(0);
                }
                if self.m1_cnm.val() {
                    self.n_cnm.next = true;
                    self.n_q.next = self.k_q[2].val();
                    self.n_s6.next = false;
                    self.r_pdu.d.next = self.k_p[1].val();
                    self.r_fix.d.next = self.k_f[1].val();
                }
                if self.m2_cnm.val() {
                    self.n_cnm.next = true;
                    self.n_q.next = self.k_q[2].val();
                    self.n_s6.next = true;
                    self.r_pdu.d.next = self.k_p[2].val();
                    self.r_fix.d.next = self.k_f[2].val();
                }
            } else if self.isb[3].val() {
                // Position 3: bytes 24-25 (only 0x22E7 can follow three tags).
                self.ch_live.d.next = false;
                if self.m1_cnm.val() {
                    self.n_cnm.next = true;
                    self.n_q.next = self.k_q[3].val();
                    self.n_s6.next = false;
                    self.r_pdu.d.next = self.k_p[3].val();
                    self.r_fix.d.next = self.k_f[3].val();
                }
            }
        }
        self.ch_cnm.d.next = self.n_cnm.val();
        self.ch_q.d.next = self.n_q.val();
        self.ch_s6.d.next = self.n_s6.val();

        // ---- field capture: PDU byte j of a P = 8q + s frame is in beat
        // q + (s + j) / 8, lane (s + j) % 8.
        self.rel.next = (self.beat.q.val() - bit_cast::<4, 2>(self.ch_q.q.val()));
        for i in 0..9 {
            self.isr[i].next = (self.rel.val() == self.k_r[i].val());
        }
        self.cap.next = (self.acc.val() && self.ch_cnm.q.val());
        if self.ch_s6.q.val() {
            self.mlen_in.next = self.be.val().get_bits::<16>(16);
        } else {
            self.mlen_in.next = self.be.val().get_bits::<16>(48);
        }
        if self.cap.val() {
            if self.ch_s6.q.val() {
                if self.isr[1].val() {
                    self.f_vq.d.next = self.prev.q.val().get_bits::<16>(0);
                    self.f_cpid.d.next = self.be.val();
                }
                if self.isr[2].val() {
                    self.f_qoff.d.next = self.be.val().get_bits::<16>(48);
                    self.f_qdelta.d.next = self.be.val().get_bits::<16>(32);
                    self.f_eprio.d.next = self.be.val().get_bits::<16>(16);
                }
                if self.isr[3].val() {
                    self.f_eda.d.next = ((bit_cast::<48, 16>(self.prev.q.val().get_bits::<16>(0))
                        << 32)
                        | bit_cast::<48, 32>(self.be.val().get_bits::<32>(32)));
                    self.f_mlen.d.next = self.mlen_in.val();
                    self.r_all.d.next = (self.r_fix.q.val() + self.mlen_in.val().get_bits::<8>(0));
                    self.r_len_bad.d.next = (self.mlen_in.val() > self.k_max_msdu.val());
                    self.r_mlen_roce.d.next = (self.mlen_in.val() >= self.k_roce_min.val());
                    self.f_et.d.next = self.be.val().get_bits::<16>(0);
                }
                if self.isr[4].val() {
                    self.f_vihl.d.next = self.be.val().get_bits::<8>(56);
                }
                if self.isr[5].val() {
                    self.f_proto.d.next = self.be.val().get_bits::<8>(48);
                }
                if self.isr[6].val() {
                    self.f_dport.d.next = self.be.val().get_bits::<16>(0);
                }
                if self.isr[8].val() {
                    self.f_qp.d.next = self.be.val().get_bits::<24>(32);
                }
            } else {
                if self.isr[1].val() {
                    self.f_vq.d.next = self.prev.q.val().get_bits::<16>(32);
                    self.f_cpid.d.next =
                        ((bit_cast::<64, 32>(self.prev.q.val().get_bits::<32>(0)) << 32)
                            | bit_cast::<64, 32>(self.be.val().get_bits::<32>(32)));
                    self.f_qoff.d.next = self.be.val().get_bits::<16>(16);
                    self.f_qdelta.d.next = self.be.val().get_bits::<16>(0);
                }
                if self.isr[2].val() {
                    self.f_eprio.d.next = self.be.val().get_bits::<16>(48);
                    self.f_eda.d.next = self.be.val().get_bits::<48>(0);
                }
                if self.isr[3].val() {
                    self.f_mlen.d.next = self.mlen_in.val();
                    self.r_all.d.next = (self.r_fix.q.val() + self.mlen_in.val().get_bits::<8>(0));
                    self.r_len_bad.d.next = (self.mlen_in.val() > self.k_max_msdu.val());
                    self.r_mlen_roce.d.next = (self.mlen_in.val() >= self.k_roce_min.val());
                    self.f_et.d.next = self.be.val().get_bits::<16>(32);
                    self.f_vihl.d.next = self.be.val().get_bits::<8>(24);
                }
                if self.isr[4].val() {
                    self.f_proto.d.next = self.be.val().get_bits::<8>(16);
                }
                if self.isr[6].val() {
                    self.f_dport.d.next = self.be.val().get_bits::<16>(32);
                }
                if self.isr[7].val() {
                    self.f_qp.d.next = self.be.val().get_bits::<24>(0);
                }
            }
        }

        // ---- end of frame: its length and FCS flag, for the verdict
        // Bytes in the last beat: highest kept lane + 1.
        if self.s_axis_rx.tkeep.val().get_bit(7) {
            self.nk.next = 8.into();
        } else if self.s_axis_rx.tkeep.val().get_bit(6) {
            self.nk.next = 7.into();
        } else if self.s_axis_rx.tkeep.val().get_bit(5) {
            self.nk.next = 6.into();
        } else if self.s_axis_rx.tkeep.val().get_bit(4) {
            self.nk.next = 5.into();
        } else if self.s_axis_rx.tkeep.val().get_bit(3) {
            self.nk.next = 4.into();
        } else if self.s_axis_rx.tkeep.val().get_bit(2) {
            self.nk.next = 3.into();
        } else if self.s_axis_rx.tkeep.val().get_bit(1) {
            self.nk.next = 2.into();
        } else if self.s_axis_rx.tkeep.val().get_bit(0) {
            self.nk.next = 1.into();
        } else {
            self.nk.next = 0.into();
        }
        self.d_v.d.next = (self.acc.val() && self.s_axis_rx.tlast.val());
        if (self.acc.val() && self.s_axis_rx.tlast.val()) {
            self.d_flen.d.next =
                ((bit_cast::<8, 4>(self.beat.q.val()) << 3) + bit_cast::<8, 4>(self.nk.val()));
            // `.any()`: a 1-bit `Bits` is a Verilog scalar.
            self.d_fcs.d.next = self.s_axis_rx.tuser.val().any();
        }

        // ---- verdict (registers only)
        self.is_cnm.next = (self.d_v.q.val()
            && self.ch_cnm.q.val()
            && (self.d_flen.q.val() >= self.r_pdu.q.val()));
        self.e_tr1.next = (self.d_flen.q.val() < self.r_fix.q.val());
        self.e_ver.next = self.f_vq.q.val().get_bits::<4>(12).any();
        self.e_len.next = self.r_len_bad.q.val();
        self.e_tr2.next = (self.d_flen.q.val() < self.r_all.q.val());
        self.good.next = (self.is_cnm.val()
            && !self.d_fcs.q.val()
            && !self.e_tr1.val()
            && !self.e_ver.val()
            && !self.e_len.val()
            && !self.e_tr2.val());
        self.qpv.next = (self.r_mlen_roce.q.val()
            && (self.f_et.q.val() == self.k_ipv4.val())
            && (self.f_vihl.q.val() == self.k_vihl.val())
            && (self.f_proto.q.val() == self.k_udp.val())
            && (self.f_dport.q.val() == self.k_port.val()));

        // ---- the verdict and its record, registered (T + 1)
        self.v_good.d.next = self.good.val();
        self.v_is_cnm.d.next = self.is_cnm.val();
        self.v_fcs.d.next = self.d_fcs.q.val();
        self.v_tr1.d.next = self.e_tr1.val();
        self.v_ver.d.next = self.e_ver.val();
        self.v_len.d.next = self.e_len.val();
        self.v_tr2.d.next = self.e_tr2.val();
        self.v_cn_tag.d.next = self.ch_cn.q.val();
        self.v_rpid.d.next = self.ch_rpid.q.val();
        self.v_version.d.next = self.f_vq.q.val().get_bits::<4>(12);
        self.v_qntz.d.next = self.f_vq.q.val().get_bits::<6>(0);
        self.v_cpid.d.next = self.f_cpid.q.val();
        self.v_qoff.d.next = self.f_qoff.q.val();
        self.v_qdelta.d.next = self.f_qdelta.q.val();
        self.v_eprio.d.next = self.f_eprio.q.val();
        self.v_eda.d.next = self.f_eda.q.val();
        self.v_mlen.d.next = self.f_mlen.q.val();
        self.v_qpv.d.next = self.qpv.val();
        self.v_qp.d.next = 0.into();
        if self.qpv.val() {
            self.v_qp.d.next = self.f_qp.q.val();
        }
        self.slot_free.next = (!self.o_v.q.val() || self.m_cnm.ready.val());

        // ---- output slot (T + 2)
        if (self.v_good.q.val() && self.slot_free.val()) {
            self.o_v.d.next = true;
            self.o_cn_tag.d.next = self.v_cn_tag.q.val();
            self.o_rpid.d.next = self.v_rpid.q.val();
            self.o_version.d.next = self.v_version.q.val();
            self.o_qntz.d.next = self.v_qntz.q.val();
            self.o_cpid.d.next = self.v_cpid.q.val();
            self.o_qoff.d.next = self.v_qoff.q.val();
            self.o_qdelta.d.next = self.v_qdelta.q.val();
            self.o_eprio.d.next = self.v_eprio.q.val();
            self.o_eda.d.next = self.v_eda.q.val();
            self.o_mlen.d.next = self.v_mlen.q.val();
            self.o_qpv.d.next = self.v_qpv.q.val();
            self.o_qp.d.next = self.v_qp.q.val();
        } else if (self.o_v.q.val() && self.m_cnm.ready.val()) {
            self.o_v.d.next = false;
            self.o_cn_tag.d.next = false;
            self.o_rpid.d.next = 0.into();
            self.o_version.d.next = 0.into();
            self.o_qntz.d.next = 0.into();
            self.o_cpid.d.next = 0.into();
            self.o_qoff.d.next = 0.into();
            self.o_qdelta.d.next = 0.into();
            self.o_eprio.d.next = 0.into();
            self.o_eda.d.next = 0.into();
            self.o_mlen.d.next = 0.into();
            self.o_qpv.d.next = false;
            self.o_qp.d.next = 0.into();
        }

        // ---- counters (the first failing reason; T + 2)
        if self.v_is_cnm.q.val() {
            if self.v_fcs.q.val() {
                self.c_bad_fcs.d.next = (self.c_bad_fcs.q.val() + 1);
            } else if self.v_tr1.q.val() {
                self.c_trunc.d.next = (self.c_trunc.q.val() + 1);
            } else if self.v_ver.q.val() {
                self.c_bad_version.d.next = (self.c_bad_version.q.val() + 1);
            } else if self.v_len.q.val() {
                self.c_bad_len.d.next = (self.c_bad_len.q.val() + 1);
            } else if self.v_tr2.q.val() {
                self.c_trunc.d.next = (self.c_trunc.q.val() + 1);
            } else {
                self.c_cnms.d.next = (self.c_cnms.q.val() + 1);
                if self.v_qpv.q.val() {
                    self.c_roce.d.next = (self.c_roce.q.val() + 1);
                }
                if !self.slot_free.val() {
                    self.c_dropped.d.next = (self.c_dropped.q.val() + 1);
                }
            }
        }
    }
}
