//! Twin of `hdl/src/mac/req_sync.rs`: a request (a value with a strobe)
//! crossing from one clock to another by a toggle handshake, the newest
//! waiting request winning. Each side is stepped on its own clock's
//! rising edge ([`ReqSync::step_in`], [`ReqSync::step_out`]); an edge
//! reads the other side's registers as they were before it, so a test
//! must never put the two clocks' edges at the same instant.

/// Cycles a side spends after its reset adopting the other side's toggle
/// (two synchroniser stages, plus one).
pub const SETTLE: u8 = 3;

/// The sending side's inputs, at a `clock_in` edge.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct InSide {
    pub reset: bool,
    pub send: bool,
    pub data: u64,
}

/// The outputs: `busy` (sending side), `update` and `data` (receiving
/// side), all registered.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub busy: bool,
    pub update: bool,
    pub data: u64,
}

#[derive(Clone, Debug, Default)]
pub struct ReqSync {
    // sending side
    req_tog: bool,
    hold: u64,
    ack_s0: bool,
    ack_s1: bool,
    pend: bool,
    pend_data: u64,
    settle_in: u8,
    // receiving side
    req_s0: bool,
    req_s1: bool,
    req_seen: bool,
    update: bool,
    out: u64,
    settle_out: u8,
}

impl ReqSync {
    /// The outputs as the registers hold them now.
    pub fn out(&self) -> Out {
        Out {
            busy: self.pend || self.req_tog != self.ack_s1 || self.settle_in != 0,
            update: self.update,
            data: self.out,
        }
    }

    /// A rising edge of `clock_in`.
    pub fn step_in(&mut self, i: &InSide) {
        let ack = self.req_seen;
        if i.reset {
            self.req_tog = false;
            self.hold = 0;
            self.ack_s0 = false;
            self.ack_s1 = false;
            self.pend = false;
            self.pend_data = 0;
            self.settle_in = SETTLE;
            return;
        }
        let (s0, s1) = (self.ack_s0, self.ack_s1);
        self.ack_s0 = ack;
        self.ack_s1 = s0;
        if self.settle_in != 0 {
            // After a reset: take the other side's toggle as ours, so no
            // transfer is seen that was not asked for.
            self.settle_in -= 1;
            self.req_tog = s1;
            if i.send {
                self.pend = true;
                self.pend_data = i.data;
            }
            return;
        }
        let idle = self.req_tog == s1;
        if idle && (i.send || self.pend) {
            self.hold = if i.send { i.data } else { self.pend_data };
            self.req_tog = !self.req_tog;
            self.pend = false;
        } else if i.send {
            self.pend = true;
            self.pend_data = i.data;
        }
    }

    /// A rising edge of `clock_out`, with that side's reset.
    /// One rising edge shared by both clocks (`clock_in` and `clock_out`
    /// tied together, as in a top on one clock): each side samples the
    /// other's registers as they were before the edge, as the RTL's
    /// non-blocking registers do.
    pub fn step_same_clock(&mut self, i: &InSide, reset_out: bool) {
        let seen_before = self.req_seen;
        self.step_out(reset_out);
        let seen_after = self.req_seen;
        // The in side reads the out side's acknowledge before the edge.
        self.req_seen = seen_before;
        self.step_in(i);
        self.req_seen = seen_after;
    }

    /// Take the out side's registers (`clock_out`) from `other`: for a
    /// block that steps its two sides on one edge in turn.
    pub fn take_out_side(&mut self, other: &ReqSync) {
        self.req_s0 = other.req_s0;
        self.req_s1 = other.req_s1;
        self.req_seen = other.req_seen;
        self.update = other.update;
        self.out = other.out;
        self.settle_out = other.settle_out;
    }

    pub fn step_out(&mut self, reset: bool) {
        let req = self.req_tog;
        let hold = self.hold;
        if reset {
            self.req_s0 = false;
            self.req_s1 = false;
            self.req_seen = false;
            self.update = false;
            self.out = 0;
            self.settle_out = SETTLE;
            return;
        }
        let (s0, s1) = (self.req_s0, self.req_s1);
        self.req_s0 = req;
        self.req_s1 = s0;
        self.update = false;
        if self.settle_out != 0 {
            self.settle_out -= 1;
            self.req_seen = s1;
        } else if s1 != self.req_seen {
            self.req_seen = s1;
            self.update = true;
            self.out = hold;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The latency in the docs: with the two clocks interleaved, `update`
    /// is high after the 3rd `clock_out` edge that follows the
    /// `clock_in` edge taking `send`.
    #[test]
    fn send_to_update_is_three_out_edges() {
        let mut r = ReqSync::default();
        r.step_in(&InSide {
            reset: false,
            send: true,
            data: 9,
        });
        let mut edges = 0;
        while !r.out().update {
            r.step_out(false);
            edges += 1;
            r.step_in(&InSide::default());
            assert!(edges < 10);
        }
        assert_eq!((edges, r.out().data), (3, 9));
    }
}
