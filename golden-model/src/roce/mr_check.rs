//! Twin of `hdl/src/roce/mr_check.rs`: the memory-region check between
//! the parser and the dispatcher. The verdict is `nic_spec::mr::verdict_of`
//! (exact arithmetic) on the entry and the flow's domain as the table
//! held them when the record's `Read` cycle read them; the cycles are the
//! RTL's.

use crate::roce::op_decode::decode;
use crate::roce::{FlowPd, MrCheckStats, MrWrite, RxMeta};
use crate::Cycle;
use nic_spec::mr::{self, reason, verdict, Region};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    /// Synchronous reset: the state machine, the output and the counters.
    pub reset: bool,
    pub mr_valid: bool,
    pub mr: MrWrite,
    pub pd_valid: bool,
    pub pd: FlowPd,
    pub meta_valid: bool,
    pub meta: RxMeta,
    pub out_ready: bool,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub meta_ready: bool,
    pub out_valid: bool,
    /// The record with its verdict (`mr`); all 0 while not valid.
    pub out: RxMeta,
    pub stats: MrCheckStats,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum State {
    #[default]
    Idle,
    Read,
    Reg,
    Cmp,
    Room,
    Fit,
    Out,
}

/// A table entry as stored.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Entry {
    active: bool,
    region: Region,
}

/// The check for 2^A flows and 2^R regions.
#[derive(Clone, Debug)]
pub struct MrCheck<const A: usize, const R: usize> {
    table: Vec<Entry>,
    flow_pd: Vec<u16>,
    st: State,
    m: RxMeta,
    /// The registered strobes (written in the next cycle).
    w: Option<MrWrite>,
    p: Option<FlowPd>,
    /// The RAMs' read outputs (the entry and domain read last cycle).
    rd_entry: Entry,
    rd_pd: u16,
    /// The entry and domain registered in `Reg`.
    e_entry: Entry,
    e_pd: u16,
    mr: u8,
    /// The last `Fit`'s reason, counted in the cycle after it.
    count: Option<Option<&'static str>>,
    stats: MrCheckStats,
}

impl<const A: usize, const R: usize> Default for MrCheck<A, R> {
    fn default() -> Self {
        Self {
            table: vec![Entry::default(); 1 << R],
            flow_pd: vec![0; 1 << A],
            st: State::Idle,
            m: RxMeta::default(),
            w: None,
            p: None,
            rd_entry: Entry::default(),
            rd_pd: 0,
            e_entry: Entry::default(),
            e_pd: 0,
            mr: 0,
            count: None,
            stats: MrCheckStats::default(),
        }
    }
}

impl<const A: usize, const R: usize> MrCheck<A, R> {
    /// The region entry `index` holds, if it is valid.
    pub fn region(&self, index: usize) -> Option<Region> {
        self.table.get(index).filter(|e| e.active).map(|e| e.region)
    }
    /// The protection domain of `flow`.
    pub fn flow_pd(&self, flow: usize) -> u16 {
        self.flow_pd[flow & ((1 << A) - 1)]
    }
    pub fn stats(&self) -> MrCheckStats {
        self.stats
    }
    /// The output record this cycle's step will show (valid, record):
    /// registers only, so an environment can offer it downstream before
    /// it steps the block.
    pub fn out_now(&self) -> (bool, RxMeta) {
        let v = self.st == State::Out;
        let m = if v {
            RxMeta {
                mr: self.mr,
                ..self.m
            }
        } else {
            RxMeta::default()
        };
        (v, m)
    }
}

/// The record at its port widths.
fn masked(m: &RxMeta) -> RxMeta {
    RxMeta {
        qp: m.qp & 0xFF_FFFF,
        psn: m.psn & 0xFF_FFFF,
        len: m.len & 0x1FFF,
        mr: 0,
        ..*m
    }
}

/// The write a table write strobe makes: the entry's index and contents,
/// or `None` if it is refused (`bad_mr`).
fn write_of<const R: usize>(w: &MrWrite) -> Option<(usize, Entry)> {
    let region = Region {
        base: w.base,
        len: w.len,
        rkey: w.rkey,
        pd: w.pd,
        rights: w.rights & 3,
    };
    let ok = (w.index as usize) < 1 << R && (!w.active || region.fits());
    ok.then_some((
        w.index as usize,
        Entry {
            active: w.active,
            region,
        },
    ))
}

impl<const A: usize, const R: usize> Cycle for MrCheck<A, R> {
    type In = In;
    type Out = Out;
    fn step(&mut self, i: &In) -> Out {
        let out_valid = self.st == State::Out;
        let out = Out {
            meta_ready: self.st == State::Idle,
            out_valid,
            out: if out_valid {
                RxMeta {
                    mr: self.mr,
                    ..self.m
                }
            } else {
                RxMeta::default()
            },
            stats: self.stats,
        };
        let w_clear = self.w.map_or(false, |w| w.clear);
        let w_go = self.w.filter(|w| !w.clear).as_ref().and_then(write_of::<R>);
        if self.w.map_or(false, |w| !w.clear) && w_go.is_none() {
            self.stats.bad_mr = self.stats.bad_mr.wrapping_add(1);
        }
        let rd_index = mr::key_index(self.m.rkey, R) as usize;
        let qp_lo = self.m.qp as usize & ((1 << A) - 1);
        let collide = w_go.map_or(false, |(ix, _)| ix == rd_index)
            || w_clear
            || self
                .p
                .map_or(false, |p| p.flow as usize & ((1 << A) - 1) == qp_lo);
        // The RAMs: read (the old word), then write.
        let rd_entry = self.table[rd_index];
        let rd_pd = self.flow_pd[qp_lo];
        if w_clear {
            self.table.iter_mut().for_each(|e| e.active = false);
        } else if let Some((ix, e)) = w_go {
            self.table[ix] = e;
        }
        if let Some(p) = self.p {
            self.flow_pd[p.flow as usize & ((1 << A) - 1)] = p.pd;
        }
        if let Some(why) = self.count.take() {
            let s = &mut self.stats;
            let c = match why {
                None => &mut s.granted,
                Some(reason::LEN) => &mut s.bad_len,
                Some(reason::KEY) => &mut s.bad_key,
                Some(reason::PD) => &mut s.bad_pd,
                Some(reason::RIGHT) => &mut s.bad_right,
                Some(_) => &mut s.bad_range,
            };
            *c = c.wrapping_add(1);
        }
        let class = decode(self.m.opcode);
        let checked = class.reth && (class.write || class.read_req);
        match self.st {
            State::Idle => {
                if i.meta_valid {
                    self.st = State::Read;
                }
            }
            State::Read => {
                if !checked {
                    self.mr = verdict::GRANTED;
                    self.st = State::Out;
                } else if !collide {
                    self.st = State::Reg;
                }
            }
            State::Reg => {
                self.e_entry = self.rd_entry;
                self.e_pd = self.rd_pd;
                self.st = State::Cmp;
            }
            State::Cmp => self.st = State::Room,
            State::Room => self.st = State::Fit,
            State::Fit => {
                let e = self.e_entry;
                let flow_pd = ((self.m.qp as u64) < 1 << A).then_some(self.e_pd);
                let (v, why) = mr::verdict_of(
                    class.write,
                    self.m.len as u32,
                    self.m.va,
                    self.m.rkey,
                    self.m.dlen,
                    flow_pd,
                    e.active.then_some(&e.region),
                );
                self.mr = v;
                // Counted in the next cycle (the RTL registers the reason).
                self.count = Some(why);
                self.st = State::Out;
            }
            State::Out => {
                if i.out_ready {
                    self.st = State::Idle;
                }
            }
        }
        if i.meta_valid && out.meta_ready {
            self.m = masked(&i.meta);
        }
        self.rd_entry = rd_entry;
        self.rd_pd = rd_pd;
        self.w = i.mr_valid.then_some(MrWrite {
            rights: i.mr.rights & 3,
            ..i.mr
        });
        self.p = i.pd_valid.then_some(FlowPd {
            flow: i.pd.flow & ((1 << A) - 1),
            ..i.pd
        });
        if i.reset {
            self.st = State::Idle;
            self.count = None;
            self.stats = MrCheckStats::default();
        }
        out
    }
}
