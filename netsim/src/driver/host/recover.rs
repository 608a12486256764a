//! The driver's recovery of a flow in error (`docs/driver.md` §5a): reap,
//! reconnect, commit again, post again.
//!
//! A flow goes into error at the NIC when its peer refuses a request
//! (`RemoteAccess`, `RemoteInvalid`, `RemoteOp`) or stops answering
//! (`RetryExceeded`); the NIC flushes the rest (`Flushed`). With a
//! [`Recovery`], the driver does not take those completions as final:
//!
//! 1. **Drain.** It stops posting on the flow and keeps each of its work
//!    requests that ended in error or flushed (and those it had still to
//!    post) to post again, in order, until nothing of the flow is
//!    outstanding.
//! 2. **Reconnect.** It sends the peer's driver, out of band (as RDMA's
//!    connection manager does: [`Cm`]), new first PSNs for both
//!    directions. The peer stops posting on the flow, drains it, registers
//!    the flow's region again under a new tag (a new R_Key: an old key
//!    stops matching), commits its side of the flow with the new PSNs and
//!    answers with the key.
//! 3. **Commit.** The driver commits its side (its send queue starts again
//!    at index 0), gives the kept work requests the new key, tells the
//!    peer, and both post again.
//!
//! Every work request of the flow then completes `Ok`, byte-exact: the
//! run's checks are the same as without an error.

use super::NicHost;
use crate::core_env::{config_script, PlannedWr};
use crate::driver::contract::{core_write, RegOp};
use nic_spec::hostif::map;
use nic_spec::regs;
use nic_spec::roce::wr::Status;
use rand::Rng;
use std::collections::{BTreeMap, VecDeque};
use std::sync::{Arc, Mutex};

/// The out-of-band channel between the two drivers of a run: each host's
/// inbox.
#[derive(Debug, Default)]
pub struct Cm {
    inbox: [VecDeque<CmMsg>; 2],
}

/// A [`Cm`] both hosts hold.
pub type CmLink = Arc<Mutex<Cm>>;

/// A message between the drivers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CmMsg {
    /// Reconnect `flow`: the sender's requester starts again at
    /// `psn_out`, the receiver's at `psn_back`.
    Reconnect {
        flow: u32,
        psn_out: u32,
        psn_back: u32,
    },
    /// The receiver's side is committed; `rkey` is the R_Key of its
    /// region for the flow, registered again.
    Ready { flow: u32, rkey: u32 },
    /// The sender's side is committed: post again.
    Done { flow: u32 },
}

/// Where a flow's recovery is, at one host.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// In error: reaping its completions.
    Drain,
    /// Reconnect sent; waiting for Ready.
    AwaitReady { psn_out: u32, psn_back: u32 },
    /// Asked to reconnect: reaping its own completions of the flow.
    PeerDrain { psn_out: u32, psn_in: u32 },
    /// Its commit queued: done when `reg_ops` reaches `until`.
    Committing {
        until: u64,
        initiator: bool,
        rkey: u32,
    },
    /// Committed and Ready sent; waiting for Done.
    AwaitDone,
}

/// A reconnection made: the flow, its first error (cycle, status), the
/// cycle it was posted again, and how many work requests were.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reconnected {
    pub flow: u32,
    pub err_at: u64,
    pub status: Status,
    pub resumed_at: u64,
    pub reposted: usize,
}

/// One host's side of the recovery.
#[derive(Debug)]
pub struct Recovery {
    side: usize,
    cm: CmLink,
    flows: BTreeMap<u32, Phase>,
    /// Per flow: the work requests to post again, in order.
    held: BTreeMap<u32, VecDeque<PlannedWr>>,
    /// Per flow in error: its first error (cycle, status).
    first_err: BTreeMap<u32, (u64, Status)>,
    pub done: Vec<Reconnected>,
}

impl Recovery {
    /// Host `side` (0 or 1) of a run, on channel `cm`.
    pub fn new(side: usize, cm: CmLink) -> Self {
        Self {
            side,
            cm,
            flows: BTreeMap::new(),
            held: BTreeMap::new(),
            first_err: BTreeMap::new(),
            done: Vec::new(),
        }
    }

    fn send(&self, m: CmMsg) {
        self.cm.lock().unwrap().inbox[1 - self.side].push_back(m);
    }

    /// The flow posts nothing now.
    pub fn paused(&self, flow: u32) -> bool {
        self.flows.contains_key(&flow)
    }

    /// Keep `w` to post again after the reconnection.
    pub fn hold(&mut self, w: PlannedWr) {
        self.held.entry(w.wr.flow).or_default().push_back(w);
    }
}

impl NicHost {
    /// A completion of a good work request with `status`, an error or
    /// `Flushed`, under recovery: kept to post again (the flow's recovery
    /// starts at its first error). False if there is no recovery.
    pub(super) fn recover_completion(&mut self, now: u64, w: PlannedWr, status: Status) -> bool {
        let Some(r) = self.recovery.as_mut() else {
            return false;
        };
        let f = w.wr.flow;
        if !r.flows.contains_key(&f) {
            r.flows.insert(f, Phase::Drain);
            r.first_err.insert(f, (now, status));
        }
        r.hold(w);
        true
    }

    /// One cycle of the recovery: the messages, then each flow's step.
    pub(super) fn recover_step(&mut self, now: u64) {
        let Some(r) = self.recovery.as_mut() else {
            return;
        };
        let msgs: Vec<CmMsg> = r.cm.lock().unwrap().inbox[r.side].drain(..).collect();
        for m in msgs {
            self.recover_msg(now, m);
        }
        let flows: Vec<(u32, Phase)> = match self.recovery.as_ref() {
            Some(r) => r.flows.iter().map(|(&f, &p)| (f, p)).collect(),
            None => return,
        };
        for (f, phase) in flows {
            let idle = self.sqs.get(&f).map_or(true, |q| q.outstanding == 0);
            let next = match phase {
                Phase::Drain if idle => {
                    let (psn_out, psn_back) = (
                        self.rng.gen_range(0..1 << 24),
                        self.rng.gen_range(0..1 << 24),
                    );
                    let r = self.recovery.as_ref().unwrap();
                    r.send(CmMsg::Reconnect {
                        flow: f,
                        psn_out,
                        psn_back,
                    });
                    Some(Phase::AwaitReady { psn_out, psn_back })
                }
                Phase::PeerDrain { psn_out, psn_in } if idle => {
                    let rkey = self.commit_flow_again(f, psn_out, psn_in, true);
                    Some(Phase::Committing {
                        until: self.reg_target(),
                        initiator: false,
                        rkey,
                    })
                }
                Phase::Committing {
                    until,
                    initiator,
                    rkey,
                } if self.reg_ops >= until => {
                    let r = self.recovery.as_ref().unwrap();
                    if initiator {
                        r.send(CmMsg::Done { flow: f });
                        self.resume(now, f);
                        None
                    } else {
                        r.send(CmMsg::Ready { flow: f, rkey });
                        Some(Phase::AwaitDone)
                    }
                }
                _ => Some(phase),
            };
            if let (Some(p), Some(r)) = (next, self.recovery.as_mut()) {
                if r.flows.contains_key(&f) {
                    r.flows.insert(f, p);
                }
            }
        }
    }

    fn recover_msg(&mut self, now: u64, m: CmMsg) {
        match m {
            CmMsg::Reconnect {
                flow,
                psn_out,
                psn_back,
            } => {
                // The peer's requester starts at psn_out (what this side
                // expects), this side's at psn_back.
                let r = self.recovery.as_mut().unwrap();
                r.flows.insert(
                    flow,
                    Phase::PeerDrain {
                        psn_out: psn_back,
                        psn_in: psn_out,
                    },
                );
            }
            CmMsg::Ready { flow, rkey } => {
                let Some(Phase::AwaitReady { psn_out, psn_back }) = self
                    .recovery
                    .as_ref()
                    .and_then(|r| r.flows.get(&flow).copied())
                else {
                    self.errors.push(format!(
                        "cycle {now}: recovery: Ready for flow {flow}, not asked"
                    ));
                    return;
                };
                self.commit_flow_again(flow, psn_out, psn_back, false);
                // The peer's region for the flow has a new key.
                let r = self.recovery.as_mut().unwrap();
                for w in r.held.entry(flow).or_default().iter_mut() {
                    w.wr.rkey = rkey;
                }
                for w in self.wr_q.iter_mut().filter(|w| w.wr.flow == flow) {
                    w.wr.rkey = rkey;
                }
                let until = self.reg_target();
                self.recovery.as_mut().unwrap().flows.insert(
                    flow,
                    Phase::Committing {
                        until,
                        initiator: true,
                        rkey,
                    },
                );
            }
            CmMsg::Done { flow } => self.resume(now, flow),
        }
    }

    /// The register accesses answered once every access queued now is.
    fn reg_target(&self) -> u64 {
        self.reg_ops + self.ops_pending() as u64
    }

    /// Queue the commit of `flow` with new first PSNs (`send`: this side's
    /// requester, `recv`: what it expects), and, with `rekey`, the flow's
    /// region registered again under a new tag. Its send queue starts
    /// again at index 0. Returns the region's R_Key (0 if it has none).
    fn commit_flow_again(&mut self, flow: u32, send: u32, recv: u32, rekey: bool) -> u32 {
        let Some(k) = self.flows.iter().position(|s| s.flow == flow) else {
            return 0;
        };
        let mut spec = self.flows[k];
        spec.send_psn = send;
        spec.recv_psn = recv;
        if rekey {
            if let Some(reg) = spec.region.as_mut() {
                let tag = (reg.rkey as u8).wrapping_add(1);
                reg.rkey = nic_spec::mr::rkey(reg.index, tag);
                for (addr, data) in reg.script() {
                    self.ops.extend(core_write(addr, data));
                }
            }
        }
        self.flows[k] = spec;
        for w in config_script(&self.p.core, &[spec]) {
            // Its flow writes only (the globals and regions come first).
            if w.addr < regs::FLOW_DMAC {
                continue;
            }
            if w.addr == regs::COMMIT {
                let base = self.layout.sq_base[&flow];
                self.ops.extend([
                    RegOp::write(map::FLOW_SQ_BASE_LO, base as u32),
                    RegOp::write(map::FLOW_SQ_BASE_HI, (base >> 32) as u32),
                    RegOp::write(map::FLOW_SQ_LOG_SIZE, self.p.sq_log as u32),
                    RegOp::write(map::FLOW_CQ, flow % self.p.cqs),
                ]);
            }
            self.ops.extend(core_write(w.addr, w.data));
        }
        if let Some(q) = self.sqs.get_mut(&flow) {
            q.pi = 0;
            q.outstanding = 0;
            q.tags.clear();
        }
        spec.region.map_or(0, |r| r.rkey)
    }

    /// Post the flow again: its kept work requests first, in order.
    fn resume(&mut self, now: u64, flow: u32) {
        let Some(r) = self.recovery.as_mut() else {
            return;
        };
        r.flows.remove(&flow);
        // In plan order (a work request of the flow still to post may
        // have been kept before the flushed ones were reaped).
        let mut held: Vec<PlannedWr> = r.held.remove(&flow).unwrap_or_default().into();
        held.sort_by_key(|w| w.wr.tag);
        if let Some((err_at, status)) = r.first_err.remove(&flow) {
            r.done.push(Reconnected {
                flow,
                err_at,
                status,
                resumed_at: now,
                reposted: held.len(),
            });
        }
        for w in held.into_iter().rev() {
            self.wr_q.push_front(w);
        }
    }
}
