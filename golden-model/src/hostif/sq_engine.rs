//! Twin of `hdl/src/hostif/sq_engine.rs`: per-flow send queues in host
//! memory, doorbells, the fetch schedule, completions to their queues.

use crate::hostif::{merge, CqeReq, RegReq, RegResp, SqCommit, WqeFetch};
use crate::mem::fifo::{self, Fifo};
use crate::mem::ram::{self, Ram};
use crate::roce::WrCompletion;
use crate::Cycle;
use nic_spec::hostif::resp;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    pub reg_valid: bool,
    pub reg: RegReq,
    pub commit_valid: bool,
    pub commit: SqCommit,
    pub cmpl_valid: bool,
    pub cmpl: WrCompletion,
    pub err_valid: bool,
    pub err: WrCompletion,
    pub wqe_freed: bool,
    pub fetch_ready: bool,
    pub cqe_ready: bool,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub reg_ready: bool,
    pub resp_valid: bool,
    pub resp: RegResp,
    pub cmpl_ready: bool,
    pub err_ready: bool,
    pub fetch_valid: bool,
    pub fetch: WqeFetch,
    pub cqe_valid: bool,
    pub cqe: CqeReq,
    pub db_rings: u32,
    pub db_refused: u32,
    pub wqe_fetches: u32,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Ev {
    #[default]
    Commit,
    Reg,
    Cmpl,
    Err,
    Fetch,
}

/// A flow's ring word: {base[63:5], log2 entries, cq, active}.
pub fn ring_word(c: &SqCommit) -> u128 {
    ((c.base >> 5) as u128) << 13
        | ((c.log_size & 0xF) as u128) << 9
        | (c.cq as u128) << 1
        | c.active as u128
}

/// The RTL's registers, RAMs and fetch queue.
#[derive(Clone, Debug)]
pub struct SqEngine<const A: usize, const Q: usize, const W: usize> {
    ring: Ram<72, A>,
    index: Ram<49, A>,
    fetch_q: Fifo<A, A>,
    /// 0 pick, 1 look, 2 calc, 3 exec.
    stage: u8,
    lk_index: u128,
    lk_ring: u128,
    c: Calc,
    ev: Ev,
    ev_flow: u32,
    ev_oor: bool,
    r_write: bool,
    r_wdata: u16,
    r_strb: u8,
    c_pend: bool,
    c_flow: u32,
    c_word: u128,
    turn_fetch: bool,
    used: u8,
    f_v: bool,
    f: WqeFetch,
    q_v: bool,
    q: CqeReq,
    rs_v: bool,
    rs: RegResp,
    n_rings: u32,
    n_refused: u32,
    n_fetches: u32,
}

impl<const A: usize, const Q: usize, const W: usize> Default for SqEngine<A, Q, W> {
    fn default() -> Self {
        Self {
            ring: Ram::default(),
            index: Ram::default(),
            fetch_q: Fifo::default(),
            stage: 0,
            lk_index: 0,
            lk_ring: 0,
            c: Calc::default(),
            ev: Ev::Commit,
            ev_flow: 0,
            ev_oor: false,
            r_write: false,
            r_wdata: 0,
            r_strb: 0,
            c_pend: false,
            c_flow: 0,
            c_word: 0,
            turn_fetch: false,
            used: 0,
            f_v: false,
            f: WqeFetch::default(),
            q_v: false,
            q: CqeReq::default(),
            rs_v: false,
            rs: RegResp::default(),
            n_rings: 0,
            n_refused: 0,
            n_fetches: 0,
        }
    }
}

/// What `Calc` registers: a flow's words, their differences and minima.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Calc {
    pi: u16,
    fi: u16,
    done: u16,
    queued: bool,
    active: bool,
    size: u32,
    room: u32,
    room_new: u32,
    done_new: u16,
    p_new: u16,
    d_new: u16,
    d_old: u16,
    slot: u32,
    /// min(pi − fi, room, entries to the ring's end).
    n2: u32,
}

impl Calc {
    /// From the flow's RAM words and the latched doorbell value.
    fn of(iw: u128, rw: u128, wdata: u16, strb: u8, q: usize) -> Self {
        let pi = iw as u16;
        let fi = (iw >> 16) as u16;
        let done = (iw >> 32) as u16;
        let log_size = (rw >> 9 & 0xF) as u8;
        let size = 1u32 << log_size;
        let done_new = if done != fi {
            done.wrapping_add(1)
        } else {
            done
        };
        let p_new = merge(pi as u32, wdata as u32, strb) as u16;
        let slot = fi as u32 & (size - 1);
        let rm = room(fi, done, q);
        Calc {
            pi,
            fi,
            done,
            queued: iw >> 48 & 1 == 1,
            active: rw & 1 == 1,
            size,
            room: rm,
            room_new: room(fi, done_new, q),
            done_new,
            p_new,
            d_new: p_new.wrapping_sub(fi),
            d_old: pi.wrapping_sub(fi),
            slot,
            n2: (pi.wrapping_sub(fi) as u32).min(rm).min(size - slot),
        }
    }
}

/// Room at the requester: 2^q − (fi − done), 0 if that is negative.
pub fn room(fi: u16, done: u16, q: usize) -> u32 {
    let outst = fi.wrapping_sub(done) as u32;
    (1u32 << q).saturating_sub(outst)
}

impl<const A: usize, const Q: usize, const W: usize> Cycle for SqEngine<A, Q, W> {
    type In = In;
    type Out = Out;
    fn step(&mut self, i: &In) -> Out {
        let s = self.clone();
        let credits = 1u32 << W;
        let head = s.fetch_q.head();
        let out = Out {
            reg_ready: s.stage == 0 && !s.c_pend,
            resp_valid: s.rs_v,
            resp: s.rs,
            cmpl_ready: s.stage == 3 && s.ev == Ev::Cmpl,
            err_ready: s.stage == 3 && s.ev == Ev::Err,
            fetch_valid: s.f_v,
            fetch: s.f,
            cqe_valid: s.q_v,
            cqe: s.q,
            db_rings: s.n_rings,
            db_refused: s.n_refused,
            wqe_fetches: s.n_fetches,
        };
        // ---- Pick.
        let cmpl_avail = !s.q_v && (i.err_valid || i.cmpl_valid);
        let fetch_avail = head.is_some() && (s.used as u32) < credits && !s.f_v;
        let pick_cmpl = cmpl_avail && (!fetch_avail || !s.turn_fetch);
        let pick_fetch = fetch_avail && (!cmpl_avail || s.turn_fetch);
        let mut pop = false;
        let mut pick_flow = head.unwrap_or(0) as u32;
        self.stage = (s.stage + 1) & 3;
        if s.stage == 0 {
            let mut picked = true;
            if s.c_pend {
                self.ev = Ev::Commit;
                pick_flow = s.c_flow;
            } else if i.reg_valid {
                self.ev = Ev::Reg;
                pick_flow = i.reg.addr as u32;
                self.r_write = i.reg.write;
                self.r_wdata = i.reg.wdata as u16;
                self.r_strb = i.reg.wstrb & 3;
            } else if pick_cmpl {
                self.turn_fetch = true;
                let c = if i.err_valid { &i.err } else { &i.cmpl };
                self.ev = if i.err_valid { Ev::Err } else { Ev::Cmpl };
                pick_flow = c.flow & 0xFFFF;
                self.ev_oor = (c.flow & 0xFFFF) >> A != 0;
            } else if pick_fetch {
                self.turn_fetch = false;
                self.ev = Ev::Fetch;
                pop = true;
            } else {
                picked = false;
            }
            self.stage = picked as u8;
            self.ev_flow = pick_flow & ((1 << A) - 1);
        }
        // ---- Look, Calc.
        if s.stage == 1 {
            self.lk_index = s.index.read_data();
            self.lk_ring = s.ring.read_data();
        }
        if s.stage == 2 {
            self.c = Calc::of(s.lk_index, s.lk_ring, s.r_wdata, s.r_strb, Q);
        }
        // ---- Exec, from Calc's registers.
        let c = s.c;
        let rw = s.lk_ring;
        let (pi, fi, done, queued, active) = (c.pi, c.fi, c.done, c.queued, c.active);
        let free = credits - s.used as u32;
        let n = if active { c.n2.min(free).min(16) } else { 0 };
        let fi_new = fi.wrapping_add(n as u16);
        let (rm, room_new, done_new, p_new, d_new, d_old, size, slot) = (
            c.room, c.room_new, c.done_new, c.p_new, c.d_new, c.d_old, c.size, c.slot,
        );
        let (mut pi_out, mut fi_out, mut done_out, mut queued_out) = (pi, fi, done, queued);
        let mut push = false;
        let mut index_we = false;
        let mut ring_we = false;
        let mut taken = 0u32;
        self.rs_v = false;
        if s.stage == 3 {
            match s.ev {
                Ev::Commit => {
                    self.c_pend = false;
                    ring_we = true;
                    index_we = true;
                    pi_out = 0;
                    fi_out = 0;
                    done_out = 0;
                }
                Ev::Reg => {
                    self.rs_v = true;
                    self.rs = RegResp {
                        rdata: (fi as u32) << 16 | pi as u32,
                        resp: resp::OKAY,
                    };
                    if s.r_write {
                        self.rs.rdata = 0;
                        if active && d_new as u32 <= size && d_new >= d_old {
                            self.n_rings = self.n_rings.wrapping_add(1);
                            index_we = true;
                            pi_out = p_new;
                            if !queued && p_new != fi && rm != 0 {
                                push = true;
                                queued_out = true;
                            }
                        } else {
                            self.n_refused = self.n_refused.wrapping_add(1);
                            self.rs.resp = resp::SLVERR;
                        }
                    }
                }
                Ev::Cmpl | Ev::Err => {
                    let c = if s.ev == Ev::Err { &i.err } else { &i.cmpl };
                    self.q_v = true;
                    self.q = CqeReq {
                        cq: if s.ev_oor { 0xFF } else { (rw >> 1) as u8 },
                        flow: c.flow & 0xFFFF,
                        tag: c.tag,
                        status: c.status,
                        bytes: c.bytes,
                    };
                    if !s.ev_oor {
                        index_we = true;
                        done_out = done_new;
                        if !queued && pi != fi && room_new != 0 {
                            push = true;
                            queued_out = true;
                        }
                    }
                }
                Ev::Fetch => {
                    index_we = true;
                    queued_out = false;
                    if n != 0 {
                        self.f_v = true;
                        self.f = WqeFetch {
                            flow: s.ev_flow,
                            idx: fi,
                            count: n as u8,
                            addr: ((rw >> 13) as u64 & ((1 << 59) - 1)).wrapping_add(slot as u64)
                                << 5,
                        };
                        fi_out = fi_new;
                        taken = n;
                        self.n_fetches = self.n_fetches.wrapping_add(1);
                        if pi != fi_new && rm > n {
                            push = true;
                            queued_out = true;
                        }
                    }
                }
            }
        }
        let index_word = (queued_out as u128) << 48
            | (done_out as u128) << 32
            | (fi_out as u128) << 16
            | pi_out as u128;
        self.index.step(&ram::In {
            read_address: pick_flow,
            write_address: s.ev_flow,
            write_data: index_word,
            write_enable: index_we,
        });
        self.ring.step(&ram::In {
            read_address: pick_flow,
            write_address: s.ev_flow,
            write_data: s.c_word,
            write_enable: ring_we,
        });
        self.fetch_q.step(&fifo::In {
            push,
            push_data: s.ev_flow as u128,
            pop,
        });
        if i.commit_valid {
            self.c_pend = true;
            self.c_flow = i.commit.flow & ((1 << A) - 1);
            self.c_word = ring_word(&i.commit);
        }
        self.used = (s.used as u32)
            .wrapping_add(taken)
            .wrapping_sub(i.wqe_freed as u32) as u8;
        if s.f_v && i.fetch_ready {
            self.f_v = false;
        }
        if s.q_v && i.cqe_ready {
            self.q_v = false;
        }
        out
    }
}
