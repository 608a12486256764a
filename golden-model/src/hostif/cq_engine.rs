//! Twin of `hdl/src/hostif/cq_engine.rs`: completion queues in host
//! memory, their registers and events.

use crate::hostif::{merge, CqEvent, CqeReq, CqeWrite, RegReq, RegResp};
use crate::Cycle;
use nic_spec::hostif::{cq_reg, resp, MAX_LOG_SIZE};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    pub reg_valid: bool,
    pub reg: RegReq,
    pub cqe_valid: bool,
    pub cqe: CqeReq,
    pub write_ready: bool,
    pub done_valid: bool,
    pub done: CqEvent,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub reg_ready: bool,
    pub resp_valid: bool,
    pub resp: RegResp,
    pub cqe_ready: bool,
    pub write_valid: bool,
    pub write: CqeWrite,
    pub event_valid: bool,
    pub event: CqEvent,
    pub cqes: u32,
    pub cqe_drops: u32,
    pub events: u32,
    pub ci_refused: u32,
}

/// One queue's registers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Queue {
    pub base_lo: u32,
    pub base_hi: u32,
    pub log_size: u8,
    pub pi: u16,
    pub ci: u16,
    pub mod_count: u16,
    pub mod_time: u32,
    pub en: bool,
    pub pend: u16,
    pub timer: u32,
}

impl Queue {
    fn full(&self) -> bool {
        self.pi.wrapping_sub(self.ci) as u32 >= 1 << self.log_size
    }
}

/// The entry of a completion at producer index `pi` of a queue with
/// 2^`log_size` entries: (offset from the base, low word, high word).
pub fn entry(c: &CqeReq, pi: u16, log_size: u8) -> (u64, u64, u64) {
    let slot = pi as u64 & ((1 << log_size) - 1);
    let phase = (pi >> log_size) & 1 == 0;
    (
        slot << 4,
        (c.bytes as u64) << 32 | c.tag as u64,
        (phase as u64) << 31 | (c.status as u64) << 16 | (c.flow & 0xFFFF) as u64,
    )
}

/// The held completion's queue as the RTL registers it (`hs_*`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct View {
    oor: bool,
    en: bool,
    full: bool,
    base: u64,
    off: u64,
    phase: bool,
}

/// A register access taken (`ra_*` in the RTL): the request and its
/// queue's registers as read when it was taken.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Access {
    req: RegReq,
    old: u32,
    ci: u16,
    pi: u16,
}

#[derive(Clone, Debug)]
pub struct CqEngine<const C: usize, const N: usize> {
    q: [Queue; N],
    /// The holding register: the completion taken, not yet written.
    h_v: bool,
    h: CqeReq,
    /// The view of `h`'s queue, and whether it is current.
    hs_ok: bool,
    hs: View,
    w_v: bool,
    w: CqeWrite,
    ev_v: bool,
    ev_cq: u8,
    /// The access taken last cycle, decided and written this one.
    ra: Option<Access>,
    rs_v: bool,
    rs: RegResp,
    n_cqes: u32,
    n_drops: u32,
    n_events: u32,
    n_ci: u32,
}

impl<const C: usize, const N: usize> Default for CqEngine<C, N> {
    fn default() -> Self {
        Self {
            q: [Queue::default(); N],
            h_v: false,
            h: CqeReq::default(),
            hs_ok: false,
            hs: View::default(),
            w_v: false,
            w: CqeWrite::default(),
            ev_v: false,
            ev_cq: 0,
            ra: None,
            rs_v: false,
            rs: RegResp::default(),
            n_cqes: 0,
            n_drops: 0,
            n_events: 0,
            n_ci: 0,
        }
    }
}

impl<const C: usize, const N: usize> CqEngine<C, N> {
    /// Queue `c`'s registers (for monitors).
    pub fn queue(&self, c: usize) -> &Queue {
        &self.q[c]
    }
}

impl<const C: usize, const N: usize> Cycle for CqEngine<C, N> {
    type In = In;
    type Out = Out;
    fn step(&mut self, i: &In) -> Out {
        let s = self.clone();
        let cqe_ready = !s.h_v;
        if i.cqe_valid && cqe_ready {
            self.h_v = true;
            self.h = i.cqe;
        }
        let h = s.h;
        let cq = h.cq as usize;
        let oor = cq >= N;
        let sel = if oor { Queue::default() } else { s.q[cq] };
        let (c_en, c_full) = if oor {
            (false, false)
        } else {
            (sel.en, sel.full())
        };
        let (off, _, _) = entry(&h, sel.pi, sel.log_size);
        self.hs = View {
            oor,
            en: c_en,
            full: c_full,
            base: (sel.base_hi as u64) << 32 | sel.base_lo as u64,
            off,
            phase: (sel.pi >> sel.log_size) & 1 == 0,
        };
        let v = s.hs;
        // Free when empty, not when emptied this cycle (the RTL's R1).
        let w_free = !s.w_v;
        let take = s.h_v && s.hs_ok && w_free && (v.oor || !v.en || !v.full);
        self.hs_ok = s.h_v && !take && !i.reg_valid && s.ra.is_none();
        let out = Out {
            reg_ready: s.ra.is_none(),
            resp_valid: s.rs_v,
            resp: s.rs,
            cqe_ready,
            write_valid: s.w_v,
            write: s.w,
            event_valid: s.ev_v,
            event: CqEvent { cq: s.ev_cq },
            cqes: s.n_cqes,
            cqe_drops: s.n_drops,
            events: s.n_events,
            ci_refused: s.n_ci,
        };
        // ---- A completion.
        if s.w_v && i.write_ready {
            self.w_v = false;
        }
        if take {
            self.h_v = false;
            if v.oor || !v.en {
                self.n_drops = self.n_drops.wrapping_add(1);
            } else {
                self.n_cqes = self.n_cqes.wrapping_add(1);
                // The view is current: `sel` is the queue it was taken from.
                let (_, lo, hi) = entry(&h, sel.pi, sel.log_size);
                let hi = (hi & !(1 << 31)) | (v.phase as u64) << 31;
                self.w_v = true;
                self.w = CqeWrite {
                    addr: v.base.wrapping_add(v.off),
                    lo,
                    hi,
                    cq: h.cq,
                };
                self.q[cq].pi = sel.pi.wrapping_add(1);
            }
        }
        // ---- Entries sent, timers, events.
        let mut found = false;
        self.ev_v = false;
        for k in 0..N {
            let o = &s.q[k];
            let inc = i.done_valid && i.done.cq as usize == k;
            if inc && o.pend != 0xFFFF {
                self.q[k].pend = o.pend + 1;
            }
            if o.pend != 0 && o.timer != 0xFF_FFFF {
                self.q[k].timer = o.timer + 1;
            }
            let fire = o.en && o.pend != 0 && (o.pend >= o.mod_count || o.timer >= o.mod_time);
            if fire && !found {
                found = true;
                self.ev_v = true;
                self.ev_cq = k as u8;
                self.n_events = self.n_events.wrapping_add(1);
                self.q[k].pend = inc as u16;
                self.q[k].timer = 0;
            }
        }
        // ---- Registers: taken (one at a time) with its queue's
        // registers read, then decided and written the next cycle,
        // answered the cycle after.
        let r = &i.reg;
        self.ra = None;
        if i.reg_valid && s.ra.is_none() {
            let r_cq = ((r.addr >> 5) & 0xFF) as usize;
            let rq = if r_cq < N {
                s.q[r_cq]
            } else {
                Queue::default()
            };
            let old = match r.addr & 0x1F {
                cq_reg::BASE_LO => rq.base_lo,
                cq_reg::BASE_HI => rq.base_hi,
                cq_reg::LOG_SIZE => rq.log_size as u32,
                cq_reg::CI => rq.ci as u32,
                cq_reg::PI => rq.pi as u32,
                cq_reg::MOD_COUNT => rq.mod_count as u32,
                cq_reg::MOD_TIME => rq.mod_time,
                cq_reg::CTRL => rq.en as u32,
                _ => 0,
            };
            self.ra = Some(Access {
                req: *r,
                old,
                ci: rq.ci,
                pi: rq.pi,
            });
        }
        self.rs_v = s.ra.is_some();
        self.rs = RegResp {
            rdata: 0,
            resp: resp::OKAY,
        };
        if let Some(a) = s.ra {
            let r = &a.req;
            let r_cq = ((r.addr >> 5) & 0xFF) as usize;
            let r_reg = r.addr & 0x1F;
            let merged = merge(a.old, r.wdata, r.wstrb);
            if !r.write {
                self.rs.rdata = a.old;
            } else if r_reg == cq_reg::PI {
                self.rs.resp = resp::SLVERR;
            } else if r_reg == cq_reg::CI
                && (merged as u16).wrapping_sub(a.ci) > a.pi.wrapping_sub(a.ci)
            {
                self.rs.resp = resp::SLVERR;
                self.n_ci = self.n_ci.wrapping_add(1);
            } else if r_cq < N {
                let en_before = s.q[r_cq].en;
                let q = &mut self.q[r_cq];
                match r_reg {
                    cq_reg::BASE_LO => q.base_lo = merged & !0xF,
                    cq_reg::BASE_HI => q.base_hi = merged,
                    cq_reg::LOG_SIZE => q.log_size = merged.min(MAX_LOG_SIZE) as u8,
                    cq_reg::CI => q.ci = merged as u16,
                    cq_reg::MOD_COUNT => q.mod_count = merged as u16,
                    cq_reg::MOD_TIME => q.mod_time = merged & 0xFF_FFFF,
                    cq_reg::CTRL => {
                        q.en = merged & 1 == 1;
                        if merged & 1 == 1 && !en_before {
                            q.pi = 0;
                            q.ci = 0;
                            q.pend = 0;
                            q.timer = 0;
                        }
                    }
                    _ => {}
                }
            }
        }
        out
    }
}
