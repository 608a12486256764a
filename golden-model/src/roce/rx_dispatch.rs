//! Twin of `hdl/src/roce/rx_dispatch.rs`: the RoCEv2 Rx dispatcher
//! (docs/roce.md §8), cycle-exact at the ports.
//!
//! One packet at a time, a sequential state machine:
//!
//! | state | cycles | what happens |
//! |---|---|---|
//! | `Idle` | 1 | `meta_ready` high (every event register empty, no undo armed, no reset last cycle: registers only); the record is latched, the flow's context read is issued |
//! | `Look` | 1 | the context words arrive (registered by the RTL); opcode decoded, ceil(dlen/MTU) computed |
//! | `Land` | 1 | READ RESPONSE only: its landing entry arrives (the RTL reads it a cycle after the words) |
//! | `Chk` | 1 | the RTL compares the record with the words (PSN windows, the WRITE's room, the READ RESPONSE's match, the address checks) and registers the results for `Exec` |
//! | `Exec` | 1 | decision: counters (on `stats` two cycles later), one event, the context written back (the RTL's store writes it a cycle later and forwards it to a read in between) |
//! | `PayWr` / `PayDrop` | 1 per word | payload to the host write port, or discarded, until `pay.tlast` |
//! | `Retry` | 1 | re-issue the context read after a `cfg_*` write raced it |
//!
//! A packet takes 4 cycles (a READ RESPONSE 5) plus one per payload word
//! when every ready is high, plus one when it raised an event or wrote
//! to the host (the next
//! record is accepted once the event register is empty, or the last
//! payload word is taken on `wr`). The host write has a skid register, so
//! `pay_tready` is a register's too.
//!
//! `cfg_*` writes go to the context RAM at once (priority over the state
//! machine); with `cfg_rd_only` only the READ landing entry `rd_idx` is
//! written (`txn::dispatch`'s module doc has the READ tracking).
//! A cfg write in the cycle a packet is accepted, in its `Look`, `Land`
//! or `Chk` cycle or in its `Exec` cycle makes the packet's context read
//! stale: the packet does nothing in `Exec` and goes through `Retry`,
//! `Look`, (`Land`,) `Chk`, `Exec` again (4 or 5 cycles). So a packet always sees every cfg write made before
//! its (last) `Exec`, and a cfg write is never lost.
//!
//! Events (`ack`, `cc`, `nak`, `rdreq`, `cnp`): one per packet at most,
//! held in a valid/ready register until taken. A CE-marked packet of a
//! known flow (not a CNP) also gives a one-cycle `ce` strobe in the cycle
//! after `Exec` (the notification point never back-pressures). The event of a packet whose payload
//! goes to the host (an ACK of a WRITE, the `cc` of any READ RESPONSE)
//! is raised in the cycle its last payload word appears
//! on `wr_*`; the others in the cycle after `Exec`.
//!
//! `reset` returns to `Idle` and clears the events, the host write
//! register and the counters (the RAM is not cleared); a packet in flight
//! is abandoned. One abandoned after its decision, whose payload goes to
//! the host and whose last word was not taken, is undone: its flow's
//! context from before it is written back in the reset cycle or the first
//! later cycle without a cfg write (a whole-context cfg write of the flow
//! cancels it); until then no record is taken. While a payload packet's
//! last word waits in the host write register, no record is taken.
//!
//! This model reads the context at `Exec` from its memory: with the
//! interlock above, that is the word the RTL read.

use crate::stream::Axis;
use crate::Cycle;

use super::txn::dispatch::{decide, Decision, FlowCfg};
pub use super::txn::dispatch::{op_ok, read_psns, Ctx, DispatchCounters as Counters};
use crate::cc::{CeMark, RpEvent};
use crate::roce::{
    AckInfo, CcFeedback, HostWrite, NakReq, ReadReq, RxDispatchStats, RxFlowCtx, RxMeta,
};
use nic_spec::roce::PSN_MASK;

/// Packets take `OVERHEAD` cycles plus one per payload word when every
/// ready is high: `Idle`, `Look`, `Chk`, `Exec`, and the cycle in which the
/// packet's event (or its last host write) is taken, since the next
/// record waits for that register to be empty. (A packet that raises no
/// event and writes nothing to the host takes one cycle less.) A READ
/// RESPONSE takes [`LAND`] more.
pub const OVERHEAD: u64 = 5;

/// The cycle a READ RESPONSE waits in `Land` for its landing entry.
pub const LAND: u64 = 1;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    /// Synchronous reset: state machine, events, host write register and
    /// counters (not the context RAM).
    pub reset: bool,
    /// log2 MTU, 8..=12 (clamped into that range); hold constant.
    pub cfg_mtu_log2: u8,
    /// A flow context write (`RxFlowCtx`): taken in every cycle where
    /// `ctx_valid` is high. With `ctx.rd_only`, only the flow's READ
    /// landing entry `rd_idx` is written.
    pub ctx_valid: bool,
    pub ctx: RxFlowCtx,
    pub meta_valid: bool,
    pub meta: RxMeta,
    /// `tuser`: ignored: the parser releases only checked frames.
    pub pay: Axis,
    pub wr_ready: bool,
    pub ack_ready: bool,
    pub cc_ready: bool,
    pub nak_ready: bool,
    pub rdreq_ready: bool,
    pub cnp_ready: bool,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub meta_ready: bool,
    pub pay_tready: bool,
    pub wr_valid: bool,
    pub wr: HostWrite,
    pub ack_valid: bool,
    pub ack: AckInfo,
    pub cc_valid: bool,
    pub cc: CcFeedback,
    pub nak_valid: bool,
    pub nak: NakReq,
    pub rdreq_valid: bool,
    pub rdreq: ReadReq,
    /// A CNP received for `cnp.flow` (`op` = CNP, `bytes` 0).
    pub cnp_valid: bool,
    pub cnp: RpEvent,
    /// A CE-marked packet of `ce.flow` (strobe).
    pub ce_valid: bool,
    pub ce: CeMark,
    pub stats: RxDispatchStats,
}

/// The latched metadata record: the input record with its fields
/// masked to their port widths.
fn latch(i: &In) -> RxMeta {
    let mut m = i.meta;
    m.qp &= 0xFF_FFFF;
    m.psn &= PSN_MASK;
    m.len &= 0x1FFF;
    m.mr &= 3;
    m
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum State {
    #[default]
    Idle,
    Look,
    /// A READ RESPONSE's wait for its landing entry (the RTL's store
    /// reads it a cycle after the context words).
    Land,
    /// The RTL registers the record's compares with its context words.
    Chk,
    Exec,
    Retry,
    PayWr,
    PayDrop,
}

/// The dispatcher for 2^A flows.
#[derive(Clone, Debug)]
pub struct RoceRxDispatch<const A: usize> {
    pub mem: Vec<Ctx>,
    pub st: State,
    pub m: RxMeta,
    stale: bool,
    /// log2 MTU latched in `Chk` (the RTL's ceil(dlen/MTU) register holds
    /// it at `Exec`).
    mtu_log2: u8,
    ack_v: bool,
    ack_psn: u32,
    ack_aeth: u32,
    arm_ack: bool,
    cc_v: bool,
    arm_cc: bool,
    nak_v: bool,
    rdreq_v: bool,
    rdreq_msn: u32,
    cnp_v: bool,
    ce_v: bool,
    wr_v: bool,
    wr_addr: u64,
    wr_data: u64,
    wr_strb: u8,
    /// Host address of the next payload word.
    pa: u64,
    /// The undo of the payload packet in flight: (flow, its context
    /// before the packet), armed from the decision until its last word
    /// is taken; `undo_pending`: a reset came, the write back waits.
    undo: Option<(usize, Ctx)>,
    undo_pending: bool,
    /// The word in the host write register is its packet's last.
    wr_last: bool,
    /// The host write's skid register (a word taken while the write
    /// register waits on `wr_ready`): valid, the word, its last flag.
    wr2: Option<(HostWrite, bool)>,
    /// `reset` last cycle (the readies follow it a cycle late).
    reset_q: bool,
    pub cnt: Counters,
    /// The counters as `m_stats` shows them: the RTL registers each
    /// decision's strobes before adding them, so a count shows two
    /// cycles after its `Exec` (a `reset` still zeroes them at once).
    shown: Counters,
}

impl<const A: usize> Default for RoceRxDispatch<A> {
    fn default() -> Self {
        Self {
            mem: vec![Ctx::default(); 1 << A],
            st: State::Idle,
            m: RxMeta::default(),
            stale: false,
            mtu_log2: 0,
            ack_v: false,
            ack_psn: 0,
            ack_aeth: 0,
            arm_ack: false,
            cc_v: false,
            arm_cc: false,
            nak_v: false,
            rdreq_v: false,
            rdreq_msn: 0,
            cnp_v: false,
            ce_v: false,
            wr_v: false,
            wr_addr: 0,
            wr_data: 0,
            wr_strb: 0,
            pa: 0,
            undo: None,
            undo_pending: false,
            wr_last: false,
            wr2: None,
            reset_q: false,
            cnt: Counters::default(),
            shown: Counters::default(),
        }
    }
}

impl<const A: usize> RoceRxDispatch<A> {
    /// A flow's context as the RAM holds it (flows ≥ 2^A: the default).
    pub fn context(&self, flow: usize) -> Ctx {
        self.mem.get(flow).copied().unwrap_or_default()
    }

    fn flow(&self) -> usize {
        (self.m.qp as usize) & ((1usize << A) - 1)
    }

    /// `Exec`: the transaction-level rules ([`decide`]) on the latched
    /// record and the flow's context word, counted.
    fn exec(&mut self) -> Decision {
        let d = decide(A as u32, self.mtu_log2, &self.mem[self.flow()], &self.m);
        self.cnt.count(d.drop);
        d
    }
}

impl<const A: usize> Cycle for RoceRxDispatch<A> {
    type In = In;
    type Out = Out;
    fn step(&mut self, i: &In) -> Out {
        let fm = (1u32 << A) - 1;
        let m = self.m;
        let flow = m.qp & fm;
        // Every ready from registers only: the event registers empty, the
        // undo disarmed, the skid empty, and last cycle's `reset`.
        let ev_free = !self.ack_v && !self.cc_v && !self.nak_v && !self.rdreq_v && !self.cnp_v;
        let wr_take = self.wr_v && i.wr_ready;
        let last_taken = wr_take && self.wr_last;
        let meta_ready = !self.reset_q && self.st == State::Idle && ev_free && self.undo.is_none();
        let pay_tready = !self.reset_q
            && match self.st {
                State::PayDrop => true,
                State::PayWr => self.wr2.is_none(),
                _ => false,
            };
        let tlm = |v: bool| {
            if v && m.tlm.present {
                m.tlm
            } else {
                Default::default()
            }
        };
        let (av, cv) = (self.ack_v, self.cc_v);
        let o = Out {
            meta_ready,
            pay_tready,
            wr_valid: self.wr_v,
            wr: if self.wr_v {
                HostWrite {
                    addr: self.wr_addr,
                    data: self.wr_data,
                    strb: self.wr_strb,
                }
            } else {
                HostWrite::default()
            },
            ack_valid: av,
            ack: if av {
                AckInfo {
                    flow,
                    psn: self.ack_psn,
                    aeth: self.ack_aeth,
                    tlm: tlm(av),
                }
            } else {
                AckInfo::default()
            },
            cc_valid: cv,
            cc: if cv {
                CcFeedback {
                    flow,
                    psn: m.psn,
                    aeth: m.aeth,
                    opcode: m.opcode,
                    tlm: tlm(cv),
                }
            } else {
                CcFeedback::default()
            },
            nak_valid: self.nak_v,
            nak: if self.nak_v {
                NakReq {
                    flow,
                    psn: m.psn,
                    syndrome: (m.aeth >> 24) as u8,
                }
            } else {
                NakReq::default()
            },
            rdreq_valid: self.rdreq_v,
            rdreq: if self.rdreq_v {
                ReadReq {
                    flow,
                    psn: m.psn,
                    va: m.va,
                    rkey: m.rkey,
                    len: m.dlen,
                    msn: self.rdreq_msn,
                }
            } else {
                ReadReq::default()
            },
            cnp_valid: self.cnp_v,
            cnp: if self.cnp_v {
                RpEvent {
                    op: nic_spec::dcqcn::OP_CNP,
                    flow: flow as u16,
                    bytes: 0,
                }
            } else {
                RpEvent::default()
            },
            ce_valid: self.ce_v,
            ce: if self.ce_v {
                CeMark { flow: flow as u16 }
            } else {
                CeMark::default()
            },
            stats: RxDispatchStats {
                unknown_flow: self.shown.unknown_flow as u32,
                oos: self.shown.oos as u32,
                dup: self.shown.dup as u32,
                bad_psn: self.shown.bad_psn as u32,
                accepted: self.shown.accepted as u32,
                bad_va: self.shown.bad_va as u32,
                bad_op: self.shown.bad_op as u32,
                refused: self.shown.refused as u32,
            },
        };
        // What the counters show next cycle: this cycle's start, a
        // cycle behind the decisions (see `shown`).
        self.shown = if i.reset {
            Counters::default()
        } else {
            self.cnt
        };

        // The undo (see the module doc), from this cycle's values.
        // Armed (the RTL's `undo_v`): an undo held and not yet pending.
        let armed = self.undo.is_some() && !self.undo_pending;
        let undo_want = (armed && !last_taken && i.reset) || self.undo_pending;
        let undo_cancel = i.ctx_valid
            && !i.ctx.rd_only
            && self
                .undo
                .is_some_and(|(f, _)| (i.ctx.flow & fm) as usize == f);
        if undo_want && !i.ctx_valid {
            // The landing entries are not the dispatcher's to write.
            let (f, c) = self.undo.expect("an undo is armed");
            let rd_tab = self.mem[f].rd_tab;
            self.mem[f] = Ctx { rd_tab, ..c };
        }
        self.undo_pending = undo_want && i.ctx_valid && !undo_cancel;
        if !self.undo_pending && (undo_want || i.reset || last_taken) {
            self.undo = None;
        }
        // The next state (every register, from this cycle's values).
        self.reset_q = i.reset;
        let stale_in = self.stale;
        self.stale =
            i.ctx_valid || (matches!(self.st, State::Look | State::Land | State::Chk) && stale_in);
        self.ce_v = false;
        if i.reset {
            self.st = State::Idle;
            self.ack_v = false;
            self.arm_ack = false;
            self.cc_v = false;
            self.arm_cc = false;
            self.nak_v = false;
            self.rdreq_v = false;
            self.cnp_v = false;
            self.wr_v = false;
            self.wr2 = None;
            self.cnt = Counters::default();
        } else {
            // Events taken this cycle (none is set while valid).
            if self.ack_v && i.ack_ready {
                self.ack_v = false;
            }
            if self.cc_v && i.cc_ready {
                self.cc_v = false;
            }
            if self.nak_v && i.nak_ready {
                self.nak_v = false;
            }
            if self.rdreq_v && i.rdreq_ready {
                self.rdreq_v = false;
            }
            if self.cnp_v && i.cnp_ready {
                self.cnp_v = false;
            }
            let pay_hs = pay_tready && i.pay.tvalid;
            // The write register: taken, refilled from the skid.
            if wr_take {
                self.wr_v = false;
                if let Some((w, last)) = self.wr2.take() {
                    self.wr_v = true;
                    (self.wr_addr, self.wr_data, self.wr_strb) = (w.addr, w.data, w.strb);
                    self.wr_last = last;
                }
            }
            match self.st {
                State::Idle => {
                    if meta_ready && i.meta_valid {
                        self.m = latch(i);
                        self.st = State::Look;
                    }
                }
                State::Retry => self.st = State::Look,
                State::Look => {
                    self.st = if nic_spec::roce::is_read_resp(m.opcode) {
                        State::Land
                    } else {
                        State::Chk
                    };
                }
                State::Land => self.st = State::Chk,
                State::Chk => {
                    // The RTL's ceil(dlen/MTU) register holds the last
                    // cycle's MTU at `Exec`.
                    self.mtu_log2 = i.cfg_mtu_log2 & 0xF;
                    self.st = State::Exec;
                }
                State::Exec => {
                    if stale_in || i.ctx_valid {
                        self.st = State::Retry;
                    } else {
                        let d = self.exec();
                        if d.write {
                            let f = self.flow();
                            if d.pay_to.is_some() && m.len != 0 {
                                self.undo = Some((f, self.mem[f]));
                            }
                            self.mem[f] = d.ctx;
                        }
                        if let Some((psn, aeth)) = d.ack {
                            self.ack_psn = psn;
                            self.ack_aeth = aeth;
                        }
                        // Every event register is free here: the record
                        // was accepted only when each was free or taken.
                        let defer = d.pay_to.is_some();
                        self.ack_v |= d.ack.is_some() && !defer;
                        self.arm_ack = d.ack.is_some() && defer;
                        self.cc_v |= d.cc && !defer;
                        self.arm_cc = d.cc && defer;
                        self.nak_v |= d.nak;
                        self.rdreq_v |= d.rdreq.is_some();
                        self.cnp_v |= d.cnp;
                        self.ce_v = d.ce;
                        if let Some(msn) = d.rdreq {
                            self.rdreq_msn = msn;
                        }
                        self.pa = d.pay_to.unwrap_or(0);
                        self.st = if m.len == 0 {
                            State::Idle
                        } else if defer {
                            State::PayWr
                        } else {
                            State::PayDrop
                        };
                    }
                }
                State::PayWr => {
                    if pay_hs {
                        // Into the write register if it is free now, else
                        // into the skid (empty: `pay_tready`).
                        if self.wr_v {
                            let w = HostWrite {
                                addr: self.pa,
                                data: i.pay.tdata,
                                strb: i.pay.tkeep,
                            };
                            self.wr2 = Some((w, i.pay.tlast));
                        } else {
                            self.wr_v = true;
                            self.wr_last = i.pay.tlast;
                            self.wr_addr = self.pa;
                            self.wr_data = i.pay.tdata;
                            self.wr_strb = i.pay.tkeep;
                        }
                        self.pa = self.pa.wrapping_add(8);
                        if i.pay.tlast {
                            self.ack_v |= self.arm_ack;
                            self.cc_v |= self.arm_cc;
                            self.arm_ack = false;
                            self.arm_cc = false;
                            self.st = State::Idle;
                        }
                    }
                }
                State::PayDrop => {
                    if pay_hs && i.pay.tlast {
                        self.st = State::Idle;
                    }
                }
            }
        }
        if i.ctx_valid {
            let c = &mut self.mem[(i.ctx.flow & fm) as usize];
            if i.ctx.rd_only {
                c.set_read(i.ctx.rd_idx & 15, i.ctx.rd_addr, i.ctx.rd_psn);
            } else {
                c.set_up(&FlowCfg {
                    valid: i.ctx.active,
                    epsn: i.ctx.epsn,
                    rd_addr: i.ctx.rd_addr,
                    rd_psn: i.ctx.rd_psn,
                    cnp_on_ce: i.ctx.cnp_on_ce,
                });
            }
        }
        o
    }
}
