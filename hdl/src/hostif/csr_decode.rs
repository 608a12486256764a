//! The register decoder's address decode: which register an access
//! names, and `Decode`'s answer to it, registered as the address loads.
//! A block of [`Csr`](super::csr::Csr) (timing rule R4: its decisions
//! read these flags, not compares of the address).
//!
//! The map is `nic_spec::hostif::map`, for 2^A flows and 2^C completion
//! queues; the rules, in the order [`Csr`](super::csr::Csr) documents
//! them, become flags of which at most one source (`a_*`, `g_*`) or
//! refusal (`c_*`) is set:
//! - misaligned: a write with a strobe on a lane below the address's
//!   byte offset → `c_slverr`;
//! - `a_id`, `a_version`, `a_caps`, `a_stats`: a read of `ID`, `VERSION`,
//!   `CAPS` or a counter (a page with a field at the index);
//! - `a_scratch`, `a_control`, `a_base_lo`, `a_base_hi`, `a_log`,
//!   `a_flow_cq`: an aligned access to `SCRATCH`, `CONTROL` or a staged
//!   send-queue register;
//! - `g_core`, `g_cq`, `g_db`: an aligned access with a strobe (or a
//!   read) that goes on to the shadow (a core register that exists at
//!   that word), the CQ engine (a CQ register, not a write of `PI`) or
//!   the send-queue engine (a doorbell);
//! - `c_ro`: an aligned write to a read-only register (`ID`, `VERSION`,
//!   `CAPS`, a counter, a CQ's `PI`), also in `c_slverr`;
//! - `c_decerr`: an aligned access to no register.
//!
//! # Ports (clock `clock`; no reset)
//! - In: `load` (the parent's `q_addr` loads this cycle), `addr` (16
//!   bits, the byte address it loads), `write`, `strb` (4 bits).
//! - Out, each a flip-flop loaded with `load` and held otherwise: the
//!   flags above; `is_control`, `is_base_lo`, `is_base_hi`, `is_log`,
//!   `is_flow_cq` (the word is that register, whatever the access);
//!   `core_r` (6 bits, the core register at a core-window word) and
//!   `core_hi` (its high word); `stats_page` (4) and `stats_sel` (8, the
//!   field index) of a counter address; `cq_off` (16, the offset from
//!   `CQ`) and `db_flow` (16, the doorbell's flow: the word's offset
//!   from `SQ_DB`). `cq_off` and `db_flow` start at their values for
//!   address 0, as the twin's do; the others at 0.
//!
//! # Timing
//! Latency 1. The word's compares and the windows' bounds side by side,
//! then the rules' ANDs: no carry chain after another. No combinational
//! path from an input to an output (R1).
//!
//! # Bad input
//! None: every 16-bit address decodes to one of the flags above (an
//! address with no register to `c_decerr`).
//!
//! Golden twin: `nic_golden::hostif::csr_decode`.

use crate::hostif::stats_sel::*;
use nic_spec::hostif::{self, cq_reg, map};
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct CsrDecode<const A: usize, const C: usize> {
    pub clock: Signal<In, Clock>,
    pub load: Signal<In, Bit>,
    pub addr: Signal<In, Bits<16>>,
    pub write: Signal<In, Bit>,
    pub strb: Signal<In, Bits<4>>,
    pub a_id: Signal<Out, Bit>,
    pub a_version: Signal<Out, Bit>,
    pub a_caps: Signal<Out, Bit>,
    pub a_stats: Signal<Out, Bit>,
    pub a_scratch: Signal<Out, Bit>,
    pub a_control: Signal<Out, Bit>,
    pub a_base_lo: Signal<Out, Bit>,
    pub a_base_hi: Signal<Out, Bit>,
    pub a_log: Signal<Out, Bit>,
    pub a_flow_cq: Signal<Out, Bit>,
    pub g_core: Signal<Out, Bit>,
    pub g_cq: Signal<Out, Bit>,
    pub g_db: Signal<Out, Bit>,
    pub c_ro: Signal<Out, Bit>,
    pub c_slverr: Signal<Out, Bit>,
    pub c_decerr: Signal<Out, Bit>,
    pub is_control: Signal<Out, Bit>,
    pub is_base_lo: Signal<Out, Bit>,
    pub is_base_hi: Signal<Out, Bit>,
    pub is_log: Signal<Out, Bit>,
    pub is_flow_cq: Signal<Out, Bit>,
    pub core_r: Signal<Out, Bits<6>>,
    pub core_hi: Signal<Out, Bit>,
    pub stats_page: Signal<Out, Bits<4>>,
    pub stats_sel: Signal<Out, Bits<8>>,
    pub cq_off: Signal<Out, Bits<16>>,
    pub db_flow: Signal<Out, Bits<16>>,
    // The registers behind the outputs.
    r_a_id: DFF<Bit>,
    r_a_version: DFF<Bit>,
    r_a_caps: DFF<Bit>,
    r_a_stats: DFF<Bit>,
    r_a_scratch: DFF<Bit>,
    r_a_control: DFF<Bit>,
    r_a_base_lo: DFF<Bit>,
    r_a_base_hi: DFF<Bit>,
    r_a_log: DFF<Bit>,
    r_a_flow_cq: DFF<Bit>,
    r_g_core: DFF<Bit>,
    r_g_cq: DFF<Bit>,
    r_g_db: DFF<Bit>,
    r_c_ro: DFF<Bit>,
    r_c_slverr: DFF<Bit>,
    r_c_decerr: DFF<Bit>,
    r_is_control: DFF<Bit>,
    r_is_base_lo: DFF<Bit>,
    r_is_base_hi: DFF<Bit>,
    r_is_log: DFF<Bit>,
    r_is_flow_cq: DFF<Bit>,
    r_core_r: DFF<Bits<6>>,
    r_core_hi: DFF<Bit>,
    r_stats_page: DFF<Bits<4>>,
    r_stats_sel: DFF<Bits<8>>,
    r_cq_off: DFFWithInit<Bits<16>>,
    r_db_flow: DFFWithInit<Bits<16>>,
    // The word's decode (this cycle's address).
    word: Signal<Local, Bits<16>>,
    core_off: Signal<Local, Bits<16>>,
    core_bits: Signal<Local, Bits<64>>,
    cq_off_w: Signal<Local, Bits<16>>,
    db_off: Signal<Local, Bits<16>>,
    page_hit: Signal<Local, Bit>,
    below: Signal<Local, Bits<4>>,
    mis: Signal<Local, Bit>,
    idle_write: Signal<Local, Bit>,
    is_id: Signal<Local, Bit>,
    is_version: Signal<Local, Bit>,
    is_caps: Signal<Local, Bit>,
    is_scratch: Signal<Local, Bit>,
    is_control_w: Signal<Local, Bit>,
    is_base_lo_w: Signal<Local, Bit>,
    is_base_hi_w: Signal<Local, Bit>,
    is_log_w: Signal<Local, Bit>,
    is_flow_cq_w: Signal<Local, Bit>,
    in_core: Signal<Local, Bit>,
    core_ok: Signal<Local, Bit>,
    in_cq: Signal<Local, Bit>,
    cq_pi: Signal<Local, Bit>,
    in_stats: Signal<Local, Bit>,
    in_db: Signal<Local, Bit>,
    ro: Signal<Local, Bit>,
    mapped: Signal<Local, Bit>,
    k_a_id: Constant<Bits<16>>,
    k_a_version: Constant<Bits<16>>,
    k_a_caps: Constant<Bits<16>>,
    k_a_scratch: Constant<Bits<16>>,
    k_a_control: Constant<Bits<16>>,
    k_flow_base_lo: Constant<Bits<16>>,
    k_flow_base_hi: Constant<Bits<16>>,
    k_flow_log: Constant<Bits<16>>,
    k_flow_cq: Constant<Bits<16>>,
    k_core: Constant<Bits<16>>,
    k_core_end: Constant<Bits<16>>,
    k_core_mask: Constant<Bits<64>>,
    k_wide_mask: Constant<Bits<64>>,
    k_cq: Constant<Bits<16>>,
    k_cq_end: Constant<Bits<16>>,
    k_cq_pi: Constant<Bits<5>>,
    k_stats: Constant<Bits<16>>,
    k_stats_end: Constant<Bits<16>>,
    k_db: Constant<Bits<16>>,
    k_db_end: Constant<Bits<16>>,
    k_page: [Constant<Bits<4>>; 11],
    /// Each counter page's field count.
    k_page_fields: [Constant<Bits<8>>; 11],
    k_word: Constant<Bits<16>>,
    k_off: [Constant<Bits<2>>; 4],
}

impl<const A: usize, const C: usize> Default for CsrDecode<A, C> {
    fn default() -> Self {
        let k16 = |v: u16| Constant::new(Bits::<16>::from(v as u64));
        let mut core_mask = 0u64;
        let mut wide_mask = 0u64;
        for r in nic_spec::regs::ALL {
            core_mask |= 1 << r.addr;
            if r.width > 32 {
                wide_mask |= 1 << r.addr;
            }
        }
        Self {
            clock: Default::default(),
            load: Default::default(),
            addr: Default::default(),
            write: Default::default(),
            strb: Default::default(),
            a_id: Default::default(),
            a_version: Default::default(),
            a_caps: Default::default(),
            a_stats: Default::default(),
            a_scratch: Default::default(),
            a_control: Default::default(),
            a_base_lo: Default::default(),
            a_base_hi: Default::default(),
            a_log: Default::default(),
            a_flow_cq: Default::default(),
            g_core: Default::default(),
            g_cq: Default::default(),
            g_db: Default::default(),
            c_ro: Default::default(),
            c_slverr: Default::default(),
            c_decerr: Default::default(),
            is_control: Default::default(),
            is_base_lo: Default::default(),
            is_base_hi: Default::default(),
            is_log: Default::default(),
            is_flow_cq: Default::default(),
            core_r: Default::default(),
            core_hi: Default::default(),
            stats_page: Default::default(),
            stats_sel: Default::default(),
            cq_off: Default::default(),
            db_flow: Default::default(),
            r_a_id: Default::default(),
            r_a_version: Default::default(),
            r_a_caps: Default::default(),
            r_a_stats: Default::default(),
            r_a_scratch: Default::default(),
            r_a_control: Default::default(),
            r_a_base_lo: Default::default(),
            r_a_base_hi: Default::default(),
            r_a_log: Default::default(),
            r_a_flow_cq: Default::default(),
            r_g_core: Default::default(),
            r_g_cq: Default::default(),
            r_g_db: Default::default(),
            r_c_ro: Default::default(),
            r_c_slverr: Default::default(),
            r_c_decerr: Default::default(),
            r_is_control: Default::default(),
            r_is_base_lo: Default::default(),
            r_is_base_hi: Default::default(),
            r_is_log: Default::default(),
            r_is_flow_cq: Default::default(),
            r_core_r: Default::default(),
            r_core_hi: Default::default(),
            r_stats_page: Default::default(),
            r_stats_sel: Default::default(),
            r_cq_off: DFFWithInit::new(Bits::<16>::from(
                0u64.wrapping_sub(map::CQ as u64) & 0xFFFF,
            )),
            r_db_flow: DFFWithInit::new(Bits::<16>::from(
                (0u64.wrapping_sub(map::SQ_DB as u64) & 0xFFFF) >> 2,
            )),
            word: Default::default(),
            core_off: Default::default(),
            core_bits: Default::default(),
            cq_off_w: Default::default(),
            db_off: Default::default(),
            page_hit: Default::default(),
            below: Default::default(),
            mis: Default::default(),
            idle_write: Default::default(),
            is_id: Default::default(),
            is_version: Default::default(),
            is_caps: Default::default(),
            is_scratch: Default::default(),
            is_control_w: Default::default(),
            is_base_lo_w: Default::default(),
            is_base_hi_w: Default::default(),
            is_log_w: Default::default(),
            is_flow_cq_w: Default::default(),
            in_core: Default::default(),
            core_ok: Default::default(),
            in_cq: Default::default(),
            cq_pi: Default::default(),
            in_stats: Default::default(),
            in_db: Default::default(),
            ro: Default::default(),
            mapped: Default::default(),
            k_a_id: k16(map::ID),
            k_a_version: k16(map::VERSION),
            k_a_caps: k16(map::CAPS),
            k_a_scratch: k16(map::SCRATCH),
            k_a_control: k16(map::CONTROL),
            k_flow_base_lo: k16(map::FLOW_SQ_BASE_LO),
            k_flow_base_hi: k16(map::FLOW_SQ_BASE_HI),
            k_flow_log: k16(map::FLOW_SQ_LOG_SIZE),
            k_flow_cq: k16(map::FLOW_CQ),
            k_core: k16(map::CORE),
            k_core_end: k16(map::CORE + 8 * 64),
            k_core_mask: Constant::new(core_mask.into()),
            k_wide_mask: Constant::new(wide_mask.into()),
            k_cq: k16(map::CQ),
            k_cq_end: k16(map::CQ + (0x20 << C)),
            k_cq_pi: Constant::new(Bits::<5>::from(cq_reg::PI as u64)),
            k_stats: k16(map::STATS),
            k_stats_end: k16(map::STATS + 0x100 * hostif::STATS_PAGES.len() as u16),
            k_db: k16(map::SQ_DB),
            k_db_end: Constant::new(Bits::<16>::from(map::SQ_DB as u64 + (4u64 << A))),
            k_page: std::array::from_fn(|i| Constant::new(Bits::<4>::from(i as u64))),
            k_page_fields: [
                RxParseStatsSel::FIELDS,
                RxDispatchStatsSel::FIELDS,
                TxStatsSel::FIELDS,
                SchedStatsSel::FIELDS,
                CcStatsSel::FIELDS,
                ReqStatsSel::FIELDS,
                CoreStatsSel::FIELDS,
                HostIfStatsSel::FIELDS,
                DcqcnStatsSel::FIELDS,
                NpStatsSel::FIELDS,
                CnmStatsSel::FIELDS,
            ]
            .map(|n| Constant::new(Bits::<8>::from(n as u64))),
            k_word: Constant::new(Bits::<16>::from(0xFFFCu64)),
            k_off: [0, 1, 2, 3].map(|i| Constant::new(Bits::<2>::from(i as u64))),
        }
    }
}

impl<const A: usize, const C: usize> Logic for CsrDecode<A, C> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            r_a_id,
            r_a_version,
            r_a_caps,
            r_a_stats,
            r_a_scratch,
            r_a_control,
            r_a_base_lo,
            r_a_base_hi,
            r_a_log,
            r_a_flow_cq,
            r_g_core,
            r_g_cq,
            r_g_db,
            r_c_ro,
            r_c_slverr,
            r_c_decerr,
            r_is_control,
            r_is_base_lo,
            r_is_base_hi,
            r_is_log,
            r_is_flow_cq,
            r_core_r,
            r_core_hi,
            r_stats_page,
            r_stats_sel,
            r_cq_off,
            r_db_flow
        );
        self.a_id.next = self.r_a_id.q.val();
        self.a_version.next = self.r_a_version.q.val();
        self.a_caps.next = self.r_a_caps.q.val();
        self.a_stats.next = self.r_a_stats.q.val();
        self.a_scratch.next = self.r_a_scratch.q.val();
        self.a_control.next = self.r_a_control.q.val();
        self.a_base_lo.next = self.r_a_base_lo.q.val();
        self.a_base_hi.next = self.r_a_base_hi.q.val();
        self.a_log.next = self.r_a_log.q.val();
        self.a_flow_cq.next = self.r_a_flow_cq.q.val();
        self.g_core.next = self.r_g_core.q.val();
        self.g_cq.next = self.r_g_cq.q.val();
        self.g_db.next = self.r_g_db.q.val();
        self.c_ro.next = self.r_c_ro.q.val();
        self.c_slverr.next = self.r_c_slverr.q.val();
        self.c_decerr.next = self.r_c_decerr.q.val();
        self.is_control.next = self.r_is_control.q.val();
        self.is_base_lo.next = self.r_is_base_lo.q.val();
        self.is_base_hi.next = self.r_is_base_hi.q.val();
        self.is_log.next = self.r_is_log.q.val();
        self.is_flow_cq.next = self.r_is_flow_cq.q.val();
        self.core_r.next = self.r_core_r.q.val();
        self.core_hi.next = self.r_core_hi.q.val();
        self.stats_page.next = self.r_stats_page.q.val();
        self.stats_sel.next = self.r_stats_sel.q.val();
        self.cq_off.next = self.r_cq_off.q.val();
        self.db_flow.next = self.r_db_flow.q.val();

        // The register is the word's.
        self.word.next = (self.addr.val() & self.k_word.val());
        self.core_off.next = (self.word.val() - self.k_core.val());
        self.core_bits.next =
            (self.k_core_mask.val() >> bit_cast::<64, 6>(self.core_off.val().get_bits::<6>(3)));
        if self.core_off.val().get_bit(2) {
            self.core_bits.next =
                (self.k_wide_mask.val() >> bit_cast::<64, 6>(self.core_off.val().get_bits::<6>(3)));
        }
        self.cq_off_w.next = (self.word.val() - self.k_cq.val());
        self.db_off.next = (self.word.val() - self.k_db.val());
        // Whether the address's page has a counter at its index: a
        // compare with each page's field count.
        self.page_hit.next = false;
        for p in 0..11 {
            if ((self.word.val().get_bits::<4>(8) == self.k_page[p].val())
                && (bit_cast::<8, 6>(self.word.val().get_bits::<6>(2))
                    < self.k_page_fields[p].val()))
            {
                self.page_hit.next = true;
            }
        }
        // A write with a strobe below the address's byte offset is
        // misaligned; a write with no strobe changes nothing.
        self.below.next = 0.into();
        if (self.addr.val().get_bits::<2>(0) == self.k_off[1].val()) {
            self.below.next = 0b0001.into();
        } else if (self.addr.val().get_bits::<2>(0) == self.k_off[2].val()) {
            self.below.next = 0b0011.into();
        } else if (self.addr.val().get_bits::<2>(0) == self.k_off[3].val()) {
            self.below.next = 0b0111.into();
        }
        self.mis.next = (self.write.val() && (self.strb.val() & self.below.val()).any());
        self.idle_write.next = (self.write.val() && !self.strb.val().any());
        // The word against each register and window.
        self.is_id.next = (self.word.val() == self.k_a_id.val());
        self.is_version.next = (self.word.val() == self.k_a_version.val());
        self.is_caps.next = (self.word.val() == self.k_a_caps.val());
        self.is_scratch.next = (self.word.val() == self.k_a_scratch.val());
        self.is_control_w.next = (self.word.val() == self.k_a_control.val());
        self.is_base_lo_w.next = (self.word.val() == self.k_flow_base_lo.val());
        self.is_base_hi_w.next = (self.word.val() == self.k_flow_base_hi.val());
        self.is_log_w.next = (self.word.val() == self.k_flow_log.val());
        self.is_flow_cq_w.next = (self.word.val() == self.k_flow_cq.val());
        self.in_core.next =
            ((self.word.val() >= self.k_core.val()) && (self.word.val() < self.k_core_end.val()));
        self.core_ok.next = self.core_bits.val().get_bit(0);
        self.in_cq.next =
            ((self.word.val() >= self.k_cq.val()) && (self.word.val() < self.k_cq_end.val()));
        self.cq_pi.next = (self.cq_off_w.val().get_bits::<5>(0) == self.k_cq_pi.val());
        self.in_stats.next = ((self.word.val() >= self.k_stats.val())
            && (self.word.val() < self.k_stats_end.val())
            && self.page_hit.val());
        self.in_db.next =
            ((self.word.val() >= self.k_db.val()) && (self.word.val() < self.k_db_end.val()));
        self.ro.next = (!self.mis.val()
            && self.write.val()
            && (self.is_id.val()
                || self.is_version.val()
                || self.is_caps.val()
                || self.in_stats.val()
                || (self.in_cq.val() && self.cq_pi.val())));
        self.mapped.next = (self.is_id.val()
            || self.is_version.val()
            || self.is_caps.val()
            || self.is_scratch.val()
            || self.is_control_w.val()
            || (self.in_core.val() && self.core_ok.val())
            || self.is_base_lo_w.val()
            || self.is_base_hi_w.val()
            || self.is_log_w.val()
            || self.is_flow_cq_w.val()
            || self.in_cq.val()
            || self.in_stats.val()
            || self.in_db.val());
        if self.load.val() {
            self.r_is_control.d.next = self.is_control_w.val();
            self.r_is_base_lo.d.next = self.is_base_lo_w.val();
            self.r_is_base_hi.d.next = self.is_base_hi_w.val();
            self.r_is_log.d.next = self.is_log_w.val();
            self.r_is_flow_cq.d.next = self.is_flow_cq_w.val();
            self.r_core_r.d.next = self.core_off.val().get_bits::<6>(3);
            self.r_core_hi.d.next = self.core_off.val().get_bit(2);
            self.r_cq_off.d.next = self.cq_off_w.val();
            self.r_db_flow.d.next = bit_cast::<16, 14>(self.db_off.val().get_bits::<14>(2));
            self.r_stats_page.d.next = self.word.val().get_bits::<4>(8);
            self.r_stats_sel.d.next = bit_cast::<8, 6>(self.word.val().get_bits::<6>(2));
            // `Decode`'s answer, by the rules in order (misaligned first;
            // the registers' addresses do not overlap).
            self.r_a_id.d.next = (self.is_id.val() && !self.write.val());
            self.r_a_version.d.next = (self.is_version.val() && !self.write.val());
            self.r_a_caps.d.next = (self.is_caps.val() && !self.write.val());
            self.r_a_stats.d.next = (self.in_stats.val() && !self.write.val());
            self.r_a_scratch.d.next = (self.is_scratch.val() && !self.mis.val());
            self.r_a_control.d.next = (self.is_control_w.val() && !self.mis.val());
            self.r_a_base_lo.d.next = (self.is_base_lo_w.val() && !self.mis.val());
            self.r_a_base_hi.d.next = (self.is_base_hi_w.val() && !self.mis.val());
            self.r_a_log.d.next = (self.is_log_w.val() && !self.mis.val());
            self.r_a_flow_cq.d.next = (self.is_flow_cq_w.val() && !self.mis.val());
            self.r_g_core.d.next = (self.in_core.val()
                && self.core_ok.val()
                && !self.mis.val()
                && !self.idle_write.val());
            self.r_g_cq.d.next = (self.in_cq.val()
                && !self.mis.val()
                && !(self.write.val() && self.cq_pi.val())
                && !self.idle_write.val());
            self.r_g_db.d.next = (self.in_db.val() && !self.mis.val() && !self.idle_write.val());
            self.r_c_ro.d.next = self.ro.val();
            self.r_c_slverr.d.next = (self.mis.val() || self.ro.val());
            self.r_c_decerr.d.next = (!self.mis.val() && !self.mapped.val());
        }
    }
}
