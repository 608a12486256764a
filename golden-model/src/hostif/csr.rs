//! Twin of `hdl/src/hostif/csr.rs`: the register decoder of the
//! `nic_spec::hostif::map`.

use crate::cc::{CcStats, DcqcnStats, NpStats};
use crate::hostif::stats_sel::{select, Counters};
use crate::hostif::{merge, HostIfStats, RegReq, RegResp, SqCommit};
use crate::mem::ram::{self, Ram};
use crate::nic::{CfgWrite, CoreStats};
use crate::roce::{CnmStats, ReqStats, RxDispatchStats, RxParseStats, TxStats};
use crate::sched::SchedStats;
use crate::Cycle;
use nic_spec::hostif::{self, cq_reg, full_reset, map, resp};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    pub reset: bool,
    pub req_valid: bool,
    pub req: RegReq,
    pub cfg_ready: bool,
    pub sq_ready: bool,
    pub sq_resp_valid: bool,
    pub sq_resp: RegResp,
    pub cq_ready: bool,
    pub cq_resp_valid: bool,
    pub cq_resp: RegResp,
    pub stats_parse: RxParseStats,
    pub stats_dispatch: RxDispatchStats,
    pub stats_tx: TxStats,
    pub stats_sched: SchedStats,
    pub stats_cc: CcStats,
    pub stats_req: ReqStats,
    pub stats_core: CoreStats,
    pub stats_host: HostIfStats,
    pub stats_dcqcn: DcqcnStats,
    pub stats_np: NpStats,
    pub stats_cnm: CnmStats,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub req_ready: bool,
    pub resp_valid: bool,
    pub resp: RegResp,
    pub cfg_valid: bool,
    pub cfg: CfgWrite,
    pub commit_valid: bool,
    pub commit: SqCommit,
    pub sq_valid: bool,
    pub sq: RegReq,
    pub cq_valid: bool,
    pub cq: RegReq,
    pub reads: u32,
    pub writes: u32,
    pub slverr: u32,
    pub decerr: u32,
    pub ro_writes: u32,
    /// High while a soft reset (`CONTROL` bit 0) runs.
    pub soft_reset: bool,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum State {
    #[default]
    Idle,
    Decode,
    Shadow,
    Cfg,
    CfgWait,
    Sub,
    /// A counter read's answer, a cycle after `Decode` (the RTL's `page_q`: each
    /// page's counter registered as `Decode` ends).
    Stats,
}

/// The part of a full reset's sweep (`nic_spec::hostif::full_reset`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum SweepPhase {
    #[default]
    StagedWords,
    Flows,
    CoreWords,
    CqRegs,
}

/// The RTL's registers, one field each.
#[derive(Clone, Debug)]
pub struct Csr<const A: usize, const Q: usize, const C: usize, const H: usize = 5> {
    state: State,
    q_wr: bool,
    q_addr: u16,
    q_wdata: u32,
    q_strb: u8,
    resp_v: bool,
    resp_d: u32,
    resp_c: u8,
    scratch: u32,
    /// Cycles of soft reset left.
    soft_left: u32,
    /// The counter read in `Decode`, answered in `Stats`.
    stats_q: u32,
    /// A full reset's sweep runs: its phase, and the index within it.
    sweep: bool,
    sweep_phase: SweepPhase,
    sweep_index: u16,
    sq_base_lo: u32,
    sq_base_hi: u32,
    sq_log: u8,
    sq_cq: u8,
    shadow: Ram<64, 6>,
    cfg_v: bool,
    cfg_addr: u16,
    cfg_data: u64,
    commit_v: bool,
    commit_flow: u32,
    commit_active: bool,
    sub_v: bool,
    sub_cq: bool,
    n_reads: u32,
    n_writes: u32,
    n_slverr: u32,
    n_decerr: u32,
    n_ro: u32,
    core_mask: u64,
    wide_mask: u64,
}

impl<const A: usize, const Q: usize, const C: usize, const H: usize> Csr<A, Q, C, H> {
    /// The registers a reset and a full reset's start both clear
    /// (SCRATCH, the staged send-queue registers, the counters).
    fn clear_regs(&mut self) {
        self.scratch = 0;
        self.sq_base_lo = 0;
        self.sq_base_hi = 0;
        self.sq_log = 0;
        self.sq_cq = 0;
        self.n_reads = 0;
        self.n_writes = 0;
        self.n_slverr = 0;
        self.n_decerr = 0;
        self.n_ro = 0;
    }
}

impl<const A: usize, const Q: usize, const C: usize, const H: usize> Default for Csr<A, Q, C, H> {
    fn default() -> Self {
        let mut core_mask = 0u64;
        let mut wide_mask = 0u64;
        for r in nic_spec::regs::ALL {
            core_mask |= 1 << r.addr;
            if r.width > 32 {
                wide_mask |= 1 << r.addr;
            }
        }
        Self {
            state: State::Idle,
            q_wr: false,
            q_addr: 0,
            q_wdata: 0,
            q_strb: 0,
            resp_v: false,
            resp_d: 0,
            resp_c: 0,
            scratch: 0,
            soft_left: 0,
            stats_q: 0,
            sweep: false,
            sweep_phase: SweepPhase::StagedWords,
            sweep_index: 0,
            sq_base_lo: 0,
            sq_base_hi: 0,
            sq_log: 0,
            sq_cq: 0,
            shadow: Ram::default(),
            cfg_v: false,
            cfg_addr: 0,
            cfg_data: 0,
            commit_v: false,
            commit_flow: 0,
            commit_active: false,
            sub_v: false,
            sub_cq: false,
            n_reads: 0,
            n_writes: 0,
            n_slverr: 0,
            n_decerr: 0,
            n_ro: 0,
            core_mask,
            wide_mask,
        }
    }
}

impl<const A: usize, const Q: usize, const C: usize, const H: usize> Cycle for Csr<A, Q, C, H> {
    type In = In;
    type Out = Out;
    fn step(&mut self, i: &In) -> Out {
        let s = self.clone();
        // ---- Decode, from the latched request.
        // The register is the word's; a write with a strobe below the
        // address's byte offset is misaligned.
        let addr = s.q_addr & 0xFFFC;
        let below = (1u8 << (s.q_addr & 3)) - 1;
        let misaligned = s.q_wr && s.q_strb & below != 0;
        let in_core = (map::CORE..map::CORE + 8 * 64).contains(&addr);
        let core_off = addr.wrapping_sub(map::CORE);
        let core_r = ((core_off >> 3) & 0x3F) as u32;
        let core_hi = core_off >> 2 & 1 == 1;
        let core_ok = if core_hi { s.wide_mask } else { s.core_mask } >> core_r & 1 == 1;
        let cq_end = (map::CQ as u32 + (0x20 << C)) as u16;
        let in_cq = addr >= map::CQ && addr < cq_end;
        let cq_off = addr.wrapping_sub(map::CQ);
        let stats_end = map::STATS + 0x100 * hostif::STATS_PAGES.len() as u16;
        let in_stats = addr >= map::STATS && addr < stats_end;
        let in_db = addr >= map::SQ_DB && (addr as u32) < map::SQ_DB as u32 + (4 << A);
        let db_flow = (addr.wrapping_sub(map::SQ_DB) >> 2) & 0x3FFF;
        let no_strb = s.q_strb == 0;
        let k = ((addr >> 2) & 0x3F) as u8;
        let page = (addr >> 8) & 0xF;
        let values: Vec<u64> = match page {
            0 => i.stats_parse.values(),
            1 => i.stats_dispatch.values(),
            2 => i.stats_tx.values(),
            3 => i.stats_sched.values(),
            4 => i.stats_cc.values(),
            5 => i.stats_req.values(),
            6 => i.stats_core.values(),
            7 => i.stats_host.values(),
            8 => i.stats_dcqcn.values(),
            9 => i.stats_np.values(),
            _ => i.stats_cnm.values(),
        };
        let (stats_data, stats_hit) = select(&values, k);
        // The shadow RAM's word (read at the edge into this cycle).
        let shadow_word = s.shadow.read_data() as u64;
        let old_w = if s.state == State::Shadow {
            if core_hi {
                (shadow_word >> 32) as u32
            } else {
                shadow_word as u32
            }
        } else if addr == map::CONTROL {
            0
        } else if addr == map::FLOW_SQ_BASE_LO {
            s.sq_base_lo
        } else if addr == map::FLOW_SQ_BASE_HI {
            s.sq_base_hi
        } else if addr == map::FLOW_SQ_LOG_SIZE {
            s.sq_log as u32
        } else if addr == map::FLOW_CQ {
            s.sq_cq as u32
        } else {
            s.scratch
        };
        let merged = merge(old_w, s.q_wdata, s.q_strb);
        let new_cfg = if core_hi {
            (shadow_word & 0xFFFF_FFFF) | (merged as u64) << 32
        } else {
            (shadow_word & 0xFFFF_FFFF_0000_0000) | merged as u64
        };
        // ---- The outputs, from this cycle's registers.
        let out = Out {
            req_ready: s.state == State::Idle,
            resp_valid: s.resp_v,
            resp: RegResp {
                rdata: s.resp_d,
                resp: s.resp_c,
            },
            cfg_valid: s.cfg_v,
            cfg: CfgWrite {
                addr: s.cfg_addr,
                data: s.cfg_data,
            },
            commit_valid: s.commit_v,
            commit: SqCommit {
                flow: s.commit_flow,
                active: s.commit_active,
                base: (s.sq_base_hi as u64) << 32 | s.sq_base_lo as u64,
                log_size: s.sq_log,
                cq: s.sq_cq,
            },
            sq_valid: s.sub_v && !s.sub_cq,
            sq: RegReq {
                write: s.q_wr,
                addr: db_flow,
                wdata: s.q_wdata,
                wstrb: s.q_strb,
            },
            cq_valid: s.sub_v && s.sub_cq,
            cq: RegReq {
                write: s.q_wr,
                addr: cq_off,
                wdata: s.q_wdata,
                wstrb: s.q_strb,
            },
            reads: s.n_reads,
            writes: s.n_writes,
            slverr: s.n_slverr,
            decerr: s.n_decerr,
            ro_writes: s.n_ro,
            soft_reset: s.soft_left != 0,
        };
        // ---- Take a request.
        if i.req_valid && s.state == State::Idle {
            self.q_wr = i.req.write;
            self.q_addr = i.req.addr;
            self.q_wdata = i.req.wdata;
            self.q_strb = i.req.wstrb & 0xF;
            self.state = State::Decode;
        }
        let mut respond = false;
        let mut code = resp::OKAY;
        let mut data = 0u32;
        let mut shadow_we = false;
        self.commit_v = false;
        let ro_hit = |n: &mut u32| *n = n.wrapping_add(1);
        self.soft_left = s.soft_left.saturating_sub(1);
        match s.state {
            State::Idle => {}
            State::Decode => {
                respond = true;
                if misaligned {
                    code = resp::SLVERR;
                } else if [map::ID, map::VERSION, map::CAPS].contains(&addr) {
                    if s.q_wr {
                        code = resp::SLVERR;
                        ro_hit(&mut self.n_ro);
                    } else if addr == map::ID {
                        data = hostif::ID;
                    } else if addr == map::VERSION {
                        data = hostif::VERSION;
                    } else {
                        data = hostif::caps(A as u32, Q as u32, C as u32, H as u32);
                    }
                } else if addr == map::SCRATCH {
                    data = s.scratch;
                    if s.q_wr {
                        self.scratch = merged;
                    }
                } else if addr == map::CONTROL {
                    data = (s.soft_left != 0) as u32;
                    if s.q_wr && merged & hostif::control::FULL_RESET != 0 {
                        // A full reset: the sweep's first write (the high
                        // word of the first staged register) comes next.
                        let first = full_reset::STAGED_WORDS.0 as u16;
                        respond = false;
                        self.sweep = true;
                        self.sweep_phase = SweepPhase::StagedWords;
                        self.sweep_index = first;
                        self.q_addr = map::CORE + ((first ^ 1) << 2);
                        self.q_wdata = 0;
                        self.q_strb = 0xF;
                        self.state = State::Decode;
                        self.clear_regs();
                    } else if s.q_wr && merged & hostif::control::SOFT_RESET != 0 {
                        self.soft_left = hostif::SOFT_RESET_CYCLES;
                    }
                } else if in_core && core_ok {
                    if !(s.q_wr && no_strb) {
                        respond = false;
                        self.state = State::Shadow;
                    }
                } else if addr == map::FLOW_SQ_BASE_LO {
                    data = s.sq_base_lo;
                    if s.q_wr {
                        self.sq_base_lo = merged & !0x1F;
                    }
                } else if addr == map::FLOW_SQ_BASE_HI {
                    data = s.sq_base_hi;
                    if s.q_wr {
                        self.sq_base_hi = merged;
                    }
                } else if addr == map::FLOW_SQ_LOG_SIZE {
                    data = s.sq_log as u32;
                    if s.q_wr {
                        self.sq_log = merged.min(hostif::MAX_LOG_SIZE) as u8;
                    }
                } else if addr == map::FLOW_CQ {
                    data = s.sq_cq as u32;
                    if s.q_wr {
                        self.sq_cq = merged as u8 & ((1u32 << C) - 1) as u8;
                    }
                } else if in_cq {
                    if s.q_wr && cq_off & 0x1F == cq_reg::PI {
                        code = resp::SLVERR;
                        ro_hit(&mut self.n_ro);
                    } else if !(s.q_wr && no_strb) {
                        respond = false;
                        self.sub_v = true;
                        self.sub_cq = true;
                        self.state = State::Sub;
                    }
                } else if in_stats && stats_hit {
                    if s.q_wr {
                        code = resp::SLVERR;
                        ro_hit(&mut self.n_ro);
                    } else {
                        respond = false;
                        self.stats_q = stats_data;
                        self.state = State::Stats;
                    }
                } else if in_db {
                    if !(s.q_wr && no_strb) {
                        respond = false;
                        self.sub_v = true;
                        self.sub_cq = false;
                        self.state = State::Sub;
                    }
                } else {
                    code = resp::DECERR;
                }
            }
            State::Stats => {
                respond = true;
                data = s.stats_q;
            }
            State::Shadow => {
                if !s.q_wr {
                    respond = true;
                    data = old_w;
                } else if core_hi {
                    respond = true;
                    shadow_we = true;
                } else if core_r == nic_spec::regs::COMMIT as u32 && merged as u64 >= 1u64 << A {
                    respond = true;
                    code = resp::SLVERR;
                } else {
                    shadow_we = true;
                    self.cfg_v = true;
                    self.cfg_addr = core_r as u16;
                    self.cfg_data = new_cfg;
                    if core_r == nic_spec::regs::COMMIT as u32 {
                        self.commit_v = true;
                        self.commit_flow = merged & 0xFFFF;
                        self.commit_active = new_cfg >> 32 & 1 == 1;
                    }
                    self.state = State::Cfg;
                }
            }
            State::Cfg => {
                if i.cfg_ready {
                    self.cfg_v = false;
                    self.state = State::CfgWait;
                }
            }
            State::CfgWait => {
                if i.cfg_ready {
                    respond = true;
                }
            }
            State::Sub => {
                if s.sub_v && s.sub_cq && i.cq_ready {
                    self.sub_v = false;
                }
                if s.sub_v && !s.sub_cq && i.sq_ready {
                    self.sub_v = false;
                }
                if s.sub_cq && i.cq_resp_valid {
                    respond = true;
                    code = i.cq_resp.resp & 3;
                    data = i.cq_resp.rdata;
                }
                if !s.sub_cq && i.sq_resp_valid {
                    respond = true;
                    code = i.sq_resp.resp & 3;
                    data = i.sq_resp.rdata;
                }
            }
        }
        self.shadow.step(&ram::In {
            read_address: core_r,
            write_address: core_r,
            write_data: new_cfg as u128,
            write_enable: shadow_we,
        });
        // ---- A full reset's sweep: the write after the one answered now.
        if s.sweep && respond {
            let flows_last = ((1u32 << A) - 1) as u16;
            let cq_ops_last = ((full_reset::CQ_OPS.len() as u32) << C) as u16 - 1;
            let next = match s.sweep_phase {
                SweepPhase::StagedWords if s.sweep_index == full_reset::STAGED_WORDS.1 as u16 => {
                    Some((SweepPhase::Flows, flows_last))
                }
                SweepPhase::StagedWords => Some((SweepPhase::StagedWords, s.sweep_index + 1)),
                SweepPhase::CoreWords if s.sweep_index == full_reset::CORE_WORDS as u16 - 1 => {
                    Some((SweepPhase::CqRegs, 0))
                }
                SweepPhase::CoreWords => Some((SweepPhase::CoreWords, s.sweep_index + 1)),
                SweepPhase::Flows if s.sweep_index == 0 => Some((SweepPhase::CoreWords, 0)),
                SweepPhase::Flows => Some((SweepPhase::Flows, s.sweep_index - 1)),
                SweepPhase::CqRegs if s.sweep_index == cq_ops_last => None,
                SweepPhase::CqRegs => Some((SweepPhase::CqRegs, s.sweep_index + 1)),
            };
            match next {
                Some((phase, index)) => {
                    // Core words: each register's high word (odd word)
                    // first.
                    let (addr, value) = match phase {
                        SweepPhase::StagedWords | SweepPhase::CoreWords => {
                            (map::CORE + ((index ^ 1) << 2), 0)
                        }
                        SweepPhase::Flows => (map::CORE + 8 * nic_spec::regs::COMMIT, index as u32),
                        SweepPhase::CqRegs => {
                            let (reg, value) = full_reset::CQ_OPS[(index & 7) as usize];
                            (map::CQ + ((index >> 3) << 5) + reg, value)
                        }
                    };
                    respond = false;
                    self.sweep_phase = phase;
                    self.sweep_index = index;
                    self.q_addr = addr;
                    self.q_wdata = value;
                    self.state = State::Decode;
                }
                None => {
                    // The CONTROL write's answer; the pipelines' reset
                    // from it.
                    self.sweep = false;
                    self.soft_left = hostif::SOFT_RESET_CYCLES;
                    code = resp::OKAY;
                    data = 0;
                }
            }
        }
        self.resp_v = respond;
        if respond {
            self.resp_d = data;
            self.resp_c = code;
            self.state = State::Idle;
            if s.q_wr {
                self.n_writes = self.n_writes.wrapping_add(1);
            } else {
                self.n_reads = self.n_reads.wrapping_add(1);
            }
            if code == resp::SLVERR {
                self.n_slverr = self.n_slverr.wrapping_add(1);
            }
            if code == resp::DECERR {
                self.n_decerr = self.n_decerr.wrapping_add(1);
            }
        }
        if i.reset {
            self.state = State::Idle;
            self.resp_v = false;
            self.cfg_v = false;
            self.commit_v = false;
            self.sub_v = false;
            self.soft_left = 0;
            self.sweep = false;
            self.clear_regs();
        }
        out
    }
}
