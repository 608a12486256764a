//! Twin of `hdl/src/nic/ev_merge.rs`: the requester's scheduler events,
//! merged per flow while the scheduler holds them, register for register.
//! See the RTL's docs for the ports, the merge rules and the timing.

use crate::sched::SchedEvent;
use crate::Cycle;
use nic_spec::sched::{OP_ACK, OP_ACK_DB, OP_DOORBELL};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    pub req_valid: bool,
    pub req: SchedEvent,
    pub ev_ready: bool,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub req_ready: bool,
    pub ev_valid: bool,
    pub ev: SchedEvent,
    pub merged: u32,
}

/// An event's ACK part (the new snd_una) and DOORBELL part (bytes), if
/// it is one of the three ops that merge.
fn parts(e: &SchedEvent) -> Option<(Option<u32>, Option<u32>)> {
    match e.op {
        OP_DOORBELL => Some((None, Some(e.a))),
        OP_ACK => Some((Some(e.a), None)),
        OP_ACK_DB => Some((Some(e.a), Some(e.b))),
        _ => None,
    }
}

/// `held` and then `new` as one event, if they merge: the same flow, each
/// a DOORBELL, an ACK or an ACK_DB. The newer ACK wins (ACKs are
/// cumulative); DOORBELL bytes add (wrapping, as the scheduler's `end`).
pub fn merge(held: &SchedEvent, new: &SchedEvent) -> Option<SchedEvent> {
    if held.flow != new.flow {
        return None;
    }
    let (h_ack, h_db) = parts(held)?;
    let (n_ack, n_db) = parts(new)?;
    let ack = n_ack.or(h_ack);
    let db = match (h_db, n_db) {
        (None, None) => None,
        (h, n) => Some(h.unwrap_or(0).wrapping_add(n.unwrap_or(0))),
    };
    Some(match (ack, db) {
        (Some(una), Some(bytes)) => SchedEvent {
            op: OP_ACK_DB,
            flow: new.flow,
            a: una,
            b: bytes,
        },
        (Some(una), None) => SchedEvent {
            op: OP_ACK,
            a: una,
            ..*new
        },
        (None, Some(bytes)) => SchedEvent {
            op: OP_DOORBELL,
            a: bytes,
            ..*new
        },
        (None, None) => unreachable!("every merging op has a part"),
    })
}

#[derive(Clone, Debug, Default)]
pub struct EvMerge {
    /// The event offered to the scheduler (its fields stay when it goes).
    held_v: bool,
    held: SchedEvent,
    /// An event that merges with nothing held, waiting for `held` to go.
    wait_v: bool,
    wait: SchedEvent,
    merged: u32,
}

impl Cycle for EvMerge {
    type In = In;
    type Out = Out;

    fn step(&mut self, i: &In) -> Out {
        let out = Out {
            req_ready: !self.wait_v,
            ev_valid: self.held_v,
            ev: self.held,
            merged: self.merged,
        };
        let taken = self.held_v && i.ev_ready;
        let held_free = !self.held_v || taken;
        if self.wait_v {
            if held_free {
                self.held_v = true;
                self.held = self.wait;
                self.wait_v = false;
            }
        } else {
            if taken {
                self.held_v = false;
            }
            if i.req_valid {
                if held_free {
                    self.held_v = true;
                    self.held = i.req;
                } else if let Some(m) = merge(&self.held, &i.req) {
                    self.held = m;
                    self.merged = self.merged.wrapping_add(1);
                } else {
                    self.wait_v = true;
                    self.wait = i.req;
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nic_spec::sched::{OP_INIT, OP_TRIM};

    fn ev(op: u8, flow: u32, a: u32, b: u32) -> SchedEvent {
        SchedEvent { op, flow, a, b }
    }

    #[test]
    fn merge_rules() {
        let db = |f, n| ev(OP_DOORBELL, f, n, 7);
        let ack = |f, u| ev(OP_ACK, f, u, 9);
        assert_eq!(
            merge(&db(1, 100), &db(1, 28)),
            Some(ev(OP_DOORBELL, 1, 128, 7))
        );
        assert_eq!(
            merge(&ack(1, 100), &ack(1, 164)),
            Some(ev(OP_ACK, 1, 164, 9))
        );
        assert_eq!(
            merge(&ack(1, 100), &db(1, 64)),
            Some(ev(OP_ACK_DB, 1, 100, 64))
        );
        assert_eq!(
            merge(&db(1, 64), &ack(1, 100)),
            Some(ev(OP_ACK_DB, 1, 100, 64))
        );
        let both = ev(OP_ACK_DB, 1, 100, 64);
        assert_eq!(merge(&both, &db(1, 64)), Some(ev(OP_ACK_DB, 1, 100, 128)));
        assert_eq!(merge(&both, &ack(1, 200)), Some(ev(OP_ACK_DB, 1, 200, 64)));
        assert_eq!(merge(&db(1, 64), &db(2, 64)), None);
        assert_eq!(merge(&db(1, 64), &ev(OP_TRIM, 1, 0, 0)), None);
        assert_eq!(merge(&ev(OP_INIT, 1, 0, 0), &db(1, 64)), None);
    }

    #[test]
    fn a_held_event_absorbs_the_flow_s_next_ones() {
        let mut m = EvMerge::default();
        let offer = |m: &mut EvMerge, e: SchedEvent, ready: bool| {
            m.step(&In {
                req_valid: true,
                req: e,
                ev_ready: ready,
            })
        };
        offer(&mut m, ev(OP_DOORBELL, 3, 64, 0), false);
        offer(&mut m, ev(OP_ACK, 3, 1000, 0), false);
        let o = offer(&mut m, ev(OP_DOORBELL, 3, 64, 0), false);
        assert!(o.ev_valid && o.req_ready);
        let o = m.step(&In::default());
        assert_eq!(o.ev, ev(OP_ACK_DB, 3, 1000, 128));
        assert_eq!(o.merged, 2);
        // Another flow waits behind it, and ready falls.
        offer(&mut m, ev(OP_DOORBELL, 4, 64, 0), false);
        let o = m.step(&In::default());
        assert!(!o.req_ready);
        let o = m.step(&In {
            ev_ready: true,
            ..Default::default()
        });
        assert_eq!(o.ev, ev(OP_ACK_DB, 3, 1000, 128));
        let o = m.step(&In::default());
        assert_eq!(o.ev, ev(OP_DOORBELL, 4, 64, 0));
        assert!(o.req_ready);
    }
}
