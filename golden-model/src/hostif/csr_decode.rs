//! Twin of `hdl/src/hostif/csr_decode.rs`: the register decoder's
//! address decode for 2^A flows and 2^C completion queues, registered
//! when `load` is high. The rules are [`Csr`](super::csr::Csr)'s, in its
//! order, as flags (see the RTL's docs for the ports).

use crate::cc::{CcStats, DcqcnStats, NpStats};
use crate::hostif::stats_sel::Counters;
use crate::hostif::HostIfStats;
use crate::nic::CoreStats;
use crate::roce::{CnmStats, ReqStats, RxDispatchStats, RxParseStats, TxStats};
use crate::sched::SchedStats;
use crate::Cycle;
use nic_spec::hostif::{self, cq_reg, map};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    pub load: bool,
    pub addr: u16,
    pub write: bool,
    /// 4 bits.
    pub strb: u8,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Out {
    pub a_id: bool,
    pub a_version: bool,
    pub a_caps: bool,
    pub a_stats: bool,
    pub a_scratch: bool,
    pub a_control: bool,
    pub a_base_lo: bool,
    pub a_base_hi: bool,
    pub a_log: bool,
    pub a_flow_cq: bool,
    pub g_core: bool,
    pub g_cq: bool,
    pub g_db: bool,
    pub c_ro: bool,
    pub c_slverr: bool,
    pub c_decerr: bool,
    pub is_control: bool,
    pub is_base_lo: bool,
    pub is_base_hi: bool,
    pub is_log: bool,
    pub is_flow_cq: bool,
    pub core_r: u8,
    pub core_hi: bool,
    pub stats_page: u8,
    pub stats_sel: u8,
    pub cq_off: u16,
    pub db_flow: u16,
}

impl Default for Out {
    /// Every flag 0; `cq_off` and `db_flow` their values for address 0.
    fn default() -> Self {
        Out {
            a_id: false,
            a_version: false,
            a_caps: false,
            a_stats: false,
            a_scratch: false,
            a_control: false,
            a_base_lo: false,
            a_base_hi: false,
            a_log: false,
            a_flow_cq: false,
            g_core: false,
            g_cq: false,
            g_db: false,
            c_ro: false,
            c_slverr: false,
            c_decerr: false,
            is_control: false,
            is_base_lo: false,
            is_base_hi: false,
            is_log: false,
            is_flow_cq: false,
            core_r: 0,
            core_hi: false,
            stats_page: 0,
            stats_sel: 0,
            cq_off: 0u16.wrapping_sub(map::CQ),
            db_flow: 0u16.wrapping_sub(map::SQ_DB) >> 2,
        }
    }
}

/// The counter pages' field counts, in `hostif::STATS_PAGES` order.
fn page_fields() -> [usize; 11] {
    [
        RxParseStats::default().values().len(),
        RxDispatchStats::default().values().len(),
        TxStats::default().values().len(),
        SchedStats::default().values().len(),
        CcStats::default().values().len(),
        ReqStats::default().values().len(),
        CoreStats::default().values().len(),
        HostIfStats::default().values().len(),
        DcqcnStats::default().values().len(),
        NpStats::default().values().len(),
        CnmStats::default().values().len(),
    ]
}

/// The decode of one access.
pub fn decode<const A: usize, const C: usize>(addr: u16, write: bool, strb: u8) -> Out {
    let word = addr & 0xFFFC;
    let below = (1u8 << (addr & 3)) - 1;
    let mis = write && strb & 0xF & below != 0;
    let no_strb = write && strb & 0xF == 0;
    let (mut core_mask, mut wide_mask) = (0u64, 0u64);
    for r in nic_spec::regs::ALL {
        core_mask |= 1 << r.addr;
        if r.width > 32 {
            wide_mask |= 1 << r.addr;
        }
    }
    let core_off = word.wrapping_sub(map::CORE);
    let core_r = ((core_off >> 3) & 0x3F) as u8;
    let core_hi = core_off >> 2 & 1 == 1;
    let in_core = (map::CORE..map::CORE + 8 * 64).contains(&word);
    let core_ok = (if core_hi { wide_mask } else { core_mask }) >> core_r & 1 == 1;
    let cq_off = word.wrapping_sub(map::CQ);
    let in_cq = word >= map::CQ && (word as u32) < map::CQ as u32 + (0x20 << C);
    let cq_pi = cq_off & 0x1F == cq_reg::PI as u16;
    let stats_page = ((word >> 8) & 0xF) as u8;
    let stats_sel = ((word >> 2) & 0x3F) as u8;
    let stats_end = map::STATS + 0x100 * hostif::STATS_PAGES.len() as u16;
    let in_stats = word >= map::STATS
        && word < stats_end
        && page_fields()
            .get(stats_page as usize)
            .is_some_and(|&n| (stats_sel as usize) < n);
    let in_db = word >= map::SQ_DB && (word as u32) < map::SQ_DB as u32 + (4 << A);
    let is = |r: u16| word == r;
    let read_only = is(map::ID) || is(map::VERSION) || is(map::CAPS) || in_stats;
    let ro = !mis && write && (read_only || (in_cq && cq_pi));
    let mapped = read_only
        || is(map::SCRATCH)
        || is(map::CONTROL)
        || (in_core && core_ok)
        || is(map::FLOW_SQ_BASE_LO)
        || is(map::FLOW_SQ_BASE_HI)
        || is(map::FLOW_SQ_LOG_SIZE)
        || is(map::FLOW_CQ)
        || in_cq
        || in_db;
    Out {
        a_id: is(map::ID) && !write,
        a_version: is(map::VERSION) && !write,
        a_caps: is(map::CAPS) && !write,
        a_stats: in_stats && !write,
        a_scratch: is(map::SCRATCH) && !mis,
        a_control: is(map::CONTROL) && !mis,
        a_base_lo: is(map::FLOW_SQ_BASE_LO) && !mis,
        a_base_hi: is(map::FLOW_SQ_BASE_HI) && !mis,
        a_log: is(map::FLOW_SQ_LOG_SIZE) && !mis,
        a_flow_cq: is(map::FLOW_CQ) && !mis,
        g_core: in_core && core_ok && !mis && !no_strb,
        g_cq: in_cq && !mis && !(write && cq_pi) && !no_strb,
        g_db: in_db && !mis && !no_strb,
        c_ro: ro,
        c_slverr: mis || ro,
        c_decerr: !mis && !mapped,
        is_control: is(map::CONTROL),
        is_base_lo: is(map::FLOW_SQ_BASE_LO),
        is_base_hi: is(map::FLOW_SQ_BASE_HI),
        is_log: is(map::FLOW_SQ_LOG_SIZE),
        is_flow_cq: is(map::FLOW_CQ),
        core_r,
        core_hi,
        stats_page,
        stats_sel,
        cq_off,
        db_flow: (word.wrapping_sub(map::SQ_DB) >> 2) & 0x3FFF,
    }
}

/// The decode's registers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CsrDecode<const A: usize, const C: usize> {
    out: Out,
}

impl<const A: usize, const C: usize> Cycle for CsrDecode<A, C> {
    type In = In;
    type Out = Out;
    fn step(&mut self, i: &In) -> Out {
        let o = self.out;
        if i.load {
            self.out = decode::<A, C>(i.addr, i.write, i.strb);
        }
        o
    }
}
