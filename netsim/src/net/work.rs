//! A host's flows as work requests, made while the run goes.
//!
//! A flow is a transfer from this host to one peer on the QP the host
//! keeps for that peer: a size in bytes (or *long*: no size, it sends
//! until its stop time), a start time. It becomes WRITE work requests of
//! at most `chunk` bytes, posted while the QP's ring (the core's 2^Q work
//! requests per flow) has room. Flows to the same peer share its QP and
//! go in start order, one after the other (a QP is in order), so a flow's
//! completion time includes waiting behind an earlier flow to the same
//! peer. QPs take turns (round robin) on the core's one work-request
//! stream.
//!
//! Every WRITE reads the same `chunk` bytes at host address 0 and lands
//! at the peer's address 0: the network simulator measures time, not
//! data (the two-NIC `sim` checks data byte for byte).
//!
//! Inputs never depend on this cycle's outputs: [`FlowWork::next`] is a
//! function of the state, which [`FlowWork::taken`] and
//! [`FlowWork::completed`] change after the cycle.

use nic_golden::roce::{WorkReq, WrCompletion};
use nic_spec::roce::wr::{self, Status};
use std::collections::BTreeMap;

/// One flow of a host, as the workload plans it.
#[derive(Clone, Debug, PartialEq)]
pub struct FlowPlan {
    /// Index in the run's flow list.
    pub id: usize,
    /// The local QP (the core's flow id).
    pub qp: u32,
    /// Bytes, or `None` for a long flow (until `stop`).
    pub size: Option<u64>,
    /// Cycle it starts.
    pub start: u64,
    /// Cycle a long flow stops posting.
    pub stop: u64,
}

/// A flow's progress.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct FlowState {
    pub posted: u64,
    pub completed: u64,
    pub outstanding: u32,
    /// Cycle its first work request was taken.
    pub first_post: Option<u64>,
    /// Cycle its last completion came.
    pub done_at: Option<u64>,
}

/// The flows of one host.
#[derive(Clone, Debug)]
pub struct FlowWork {
    pub flows: Vec<FlowPlan>,
    pub state: Vec<FlowState>,
    /// Flows per QP, in start order (indices into `flows`).
    per_qp: BTreeMap<u32, Vec<usize>>,
    /// Outstanding work requests per QP.
    in_ring: BTreeMap<u32, u32>,
    /// tag → (flow index, bytes).
    tags: BTreeMap<u32, (usize, u32)>,
    next_tag: u32,
    /// The QP whose turn it is (round robin).
    turn: u32,
    pub chunk: u32,
    pub ring: u32,
}

impl FlowWork {
    pub fn new(mut flows: Vec<FlowPlan>, chunk: u32, ring: u32) -> Self {
        flows.sort_by_key(|f| (f.start, f.id));
        let mut per_qp: BTreeMap<u32, Vec<usize>> = BTreeMap::new();
        for (k, f) in flows.iter().enumerate() {
            per_qp.entry(f.qp).or_default().push(k);
        }
        Self {
            state: vec![FlowState::default(); flows.len()],
            flows,
            per_qp,
            in_ring: BTreeMap::new(),
            tags: BTreeMap::new(),
            next_tag: 0,
            turn: 0,
            chunk: chunk.max(1),
            ring: ring.max(1),
        }
    }

    /// The flow of `qp` that posts next, and the bytes of its next work
    /// request, if it may post at `now`.
    fn postable(&self, qp: u32, now: u64) -> Option<(usize, u32)> {
        if self.in_ring.get(&qp).copied().unwrap_or(0) >= self.ring {
            return None;
        }
        for &k in &self.per_qp[&qp] {
            let (f, s) = (&self.flows[k], &self.state[k]);
            let left = match f.size {
                Some(size) => size - s.posted,
                None if now < f.stop => u64::MAX,
                None => 0,
            };
            if left == 0 {
                continue;
            }
            if f.start > now {
                return None;
            }
            return Some((k, left.min(self.chunk as u64) as u32));
        }
        None
    }

    /// The work request to offer at `now`, if any.
    pub fn next(&mut self, now: u64) -> Option<WorkReq> {
        let qps: Vec<u32> = self.per_qp.keys().copied().collect();
        let first = qps.iter().position(|&q| q >= self.turn).unwrap_or(0);
        for n in 0..qps.len() {
            let qp = qps[(first + n) % qps.len()];
            if let Some((_, len)) = self.postable(qp, now) {
                return Some(WorkReq {
                    flow: qp,
                    opcode: wr::WRITE,
                    laddr: 0,
                    va: 0,
                    rkey: 0,
                    len,
                    tag: self.next_tag,
                });
            }
        }
        None
    }

    /// The core took `w` at `now`.
    pub fn taken(&mut self, now: u64, w: &WorkReq) {
        let (k, len) = self
            .postable(w.flow, now)
            .expect("the work request offered is the one taken");
        debug_assert_eq!(len, w.len);
        self.tags.insert(w.tag, (k, w.len));
        self.next_tag = self.next_tag.wrapping_add(1);
        let s = &mut self.state[k];
        s.posted += w.len as u64;
        s.outstanding += 1;
        s.first_post.get_or_insert(now);
        *self.in_ring.entry(w.flow).or_insert(0) += 1;
        self.turn = w.flow + 1;
    }

    /// A completion came at `now`.
    pub fn completed(&mut self, now: u64, c: &WrCompletion) -> Result<(), String> {
        let Some((k, len)) = self.tags.remove(&c.tag) else {
            return Err(format!("completion of unknown tag {c:?}"));
        };
        let f = &self.flows[k];
        if let Some(r) = self.in_ring.get_mut(&f.qp) {
            *r = r.saturating_sub(1);
        }
        let s = &mut self.state[k];
        s.outstanding -= 1;
        if c.status != Status::Ok as u8 || c.bytes != len || c.flow != f.qp {
            return Err(format!(
                "completion {c:?} of flow {} (QP {}), expected OK for {len} bytes",
                f.id, f.qp
            ));
        }
        s.completed += len as u64;
        let all = match f.size {
            Some(size) => s.completed == size,
            None => now >= f.stop && s.outstanding == 0 && s.completed == s.posted,
        };
        if all {
            s.done_at = Some(now);
        }
        Ok(())
    }

    /// Every flow done: sized ones completed, long ones stopped and
    /// drained (see [`FlowWork::close_long`]).
    pub fn finished(&self) -> bool {
        self.state.iter().all(|s| s.done_at.is_some())
    }

    /// Long flows past their stop with nothing outstanding get their
    /// end time (a long flow's last completion may come before its stop).
    pub fn close_long(&mut self, now: u64) {
        for (f, s) in self.flows.iter().zip(self.state.iter_mut()) {
            if f.size.is_none() && now >= f.stop && s.outstanding == 0 && s.done_at.is_none() {
                s.done_at = Some(now);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cmpl(w: &WorkReq) -> WrCompletion {
        WrCompletion {
            flow: w.flow,
            tag: w.tag,
            status: Status::Ok as u8,
            bytes: w.len,
        }
    }

    #[test]
    fn chunks_rings_and_order() {
        let mut fw = FlowWork::new(
            vec![
                FlowPlan {
                    id: 0,
                    qp: 2,
                    size: Some(10_000),
                    start: 5,
                    stop: 0,
                },
                FlowPlan {
                    id: 1,
                    qp: 2,
                    size: Some(100),
                    start: 0,
                    stop: 0,
                },
                FlowPlan {
                    id: 2,
                    qp: 3,
                    size: None,
                    start: 0,
                    stop: 50,
                },
            ],
            4096,
            2,
        );
        // Flow 1 (QP 2, starts first) and the long flow take turns.
        let a = fw.next(0).unwrap();
        assert_eq!((a.flow, a.len), (2, 100));
        fw.taken(0, &a);
        let b = fw.next(1).unwrap();
        assert_eq!((b.flow, b.len), (3, 4096));
        fw.taken(1, &b);
        // QP 2's next flow starts at 5.
        let c = fw.next(2).unwrap();
        assert_eq!(c.flow, 3);
        fw.taken(2, &c);
        // QP 3's ring (2) is full.
        assert_eq!(fw.next(3), None);
        let d = fw.next(5).unwrap();
        assert_eq!((d.flow, d.len), (2, 4096));
        fw.taken(5, &d);
        assert_eq!(fw.next(6), None, "both rings full");
        fw.completed(8, &cmpl(&a)).unwrap();
        // Sorted by start: flow 1 is index 0, and it is done.
        assert_eq!(fw.flows[0].id, 1);
        assert_eq!(fw.state[0].done_at, Some(8));
        let e = fw.next(9).unwrap();
        assert_eq!((e.flow, e.len), (2, 4096));
        fw.taken(9, &e);
        assert!(fw
            .completed(
                10,
                &WrCompletion {
                    tag: 999,
                    ..cmpl(&d)
                }
            )
            .is_err());
        let bad = WrCompletion {
            bytes: 1,
            ..cmpl(&d)
        };
        assert!(fw.completed(10, &bad).is_err());
        fw.completed(60, &cmpl(&b)).unwrap();
        fw.completed(61, &cmpl(&c)).unwrap();
        // The long flow stopped at 50 and drained at 61.
        assert_eq!(fw.flows[1].id, 2);
        assert_eq!(fw.state[1].done_at, Some(61));
        fw.completed(62, &cmpl(&e)).unwrap();
        // What is left of flow 0 after two chunks.
        let f = fw.next(62).unwrap();
        assert_eq!((f.flow, f.len), (2, 10_000 - 2 * 4096));
        assert!(!fw.finished());
    }
}
