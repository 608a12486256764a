//! Twin of `hdl/src/mac/axis_async_fifo.rs`: a frame FIFO between two
//! clocks (store and forward), register for register. Each side is
//! stepped on its own clock's rising edge ([`AxisAsyncFifo::step_s`],
//! [`AxisAsyncFifo::step_m`]); an edge reads the other side's registers
//! as they were before it, so a test must never put the two clocks'
//! edges at the same instant. See the RTL's docs for the ports and the
//! behaviour on bad input.

use super::req_sync::{InSide, ReqSync};
use super::AsyncFifoStats;

use crate::stream::Axis;
/// One beat: the project's one stream beat ([`crate::stream::Beat`]) at
/// 64 bits, `tkeep` 8 bits and a one-bit `tuser` (the frame is bad); its
/// FIFO word is `tdata | tkeep << 64 | tlast << 72 | tuser << 73`.
pub use crate::stream::Beat;

/// A beat as the FIFO RAM's word (the fields cut to 64, 8, 1 and 1 bits).
fn word(b: &Beat) -> u128 {
    (b.tdata as u64 as u128)
        | ((b.tkeep as u8 as u128) << 64)
        | ((b.tlast as u128) << 72)
        | (((b.tuser & 1) as u128) << 73)
}

/// The beat of a FIFO RAM word.
fn beat_of(w: u128) -> Beat {
    Beat {
        tdata: w as u64 as u128,
        tkeep: (w >> 64) as u8 as u16,
        tlast: (w >> 72) & 1 == 1,
        tuser: ((w >> 73) & 1) as u32,
    }
}

/// The write side's inputs at an `s_clk` edge.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SIn {
    pub reset: bool,
    pub beat: Beat,
    pub tvalid: bool,
}

/// The write side's outputs (before the edge, from the inputs held for
/// it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SOut {
    pub tready: bool,
    pub stats: AsyncFifoStats,
}

/// The read side's outputs (registers).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MOut {
    pub beat: Beat,
    pub tvalid: bool,
}

/// The beat that closes a frame cut by a reset: `tlast`, `tuser` (bad),
/// one byte of zero.
pub const TERM_BEAT: Beat = Beat {
    tdata: 0,
    tkeep: 0x01,
    tlast: true,
    tuser: 1,
};

/// Cycles the read side stays flagged in reset after its reset ends
/// (covers the commit crossing's settling, 3 cycles).
pub const HOLD: u8 = 4;

/// Binary to Gray.
pub fn gray(b: u16) -> u16 {
    b ^ (b >> 1)
}

/// Gray to binary.
pub fn ungray(g: u16) -> u16 {
    let mut b = g;
    b ^= b >> 1;
    b ^= b >> 2;
    b ^= b >> 4;
    b ^= b >> 8;
    b
}

/// The FIFO: 2^`A` words; `DROP` = 1 drops a frame that finds no room
/// (`s_axis.tready` always high), 0 back-pressures and drops only a frame
/// longer than the FIFO.
#[derive(Clone, Debug)]
pub struct AxisAsyncFifo<const A: usize, const DROP: usize> {
    ram: Vec<u128>,
    // ---- s_clk
    wr: u16,
    commit: u16,
    dropping: bool,
    s_open: bool,
    rd_s0: u16,
    rd_s1: u16,
    rd_w: u16,
    s_req: bool,
    s_in_rst: bool,
    m_in_rst_s0: bool,
    m_in_rst_s1: bool,
    stats: AsyncFifoStats,
    // ---- m_clk
    rd: u16,
    rd_gray: u16,
    ram_q: u128,
    rv: bool,
    h_v: bool,
    h_d: u128,
    s_v: bool,
    s_d: u128,
    m_open: bool,
    term: bool,
    m_hold: u8,
    m_in_rst: bool,
    m_req: bool,
    s_req_m0: bool,
    s_req_m1: bool,
    s_in_rst_m0: bool,
    s_in_rst_m1: bool,
    // ---- the commit pointer's crossing
    sync: ReqSync,
}

impl<const A: usize, const DROP: usize> Default for AxisAsyncFifo<A, DROP> {
    fn default() -> Self {
        assert!((2..=15).contains(&A), "AxisAsyncFifo: 2 <= A <= 15");
        Self {
            ram: vec![0; 1 << A],
            wr: 0,
            commit: 0,
            dropping: false,
            s_open: false,
            rd_s0: 0,
            rd_s1: 0,
            rd_w: 0,
            s_req: false,
            s_in_rst: false,
            m_in_rst_s0: false,
            m_in_rst_s1: false,
            stats: Default::default(),
            rd: 0,
            rd_gray: 0,
            ram_q: 0,
            rv: false,
            h_v: false,
            h_d: 0,
            s_v: false,
            s_d: 0,
            m_open: false,
            term: false,
            m_hold: 0,
            m_in_rst: false,
            m_req: false,
            s_req_m0: false,
            s_req_m1: false,
            s_in_rst_m0: false,
            s_in_rst_m1: false,
            sync: ReqSync::default(),
        }
    }
}

impl<const A: usize, const DROP: usize> AxisAsyncFifo<A, DROP> {
    const CAP: u16 = 1 << A;

    /// The write side's effective reset: its own, its request not yet
    /// seen by the read side, or the read side in reset (synchronised).
    fn rst_s(&self, i: &SIn) -> bool {
        i.reset || self.s_req || self.m_in_rst_s1
    }

    /// The write side's outputs for inputs `i` (before the edge).
    pub fn s_out(&self, i: &SIn) -> SOut {
        let rd_w = self.rd_w;
        let room = self.wr.wrapping_sub(rd_w) != Self::CAP;
        let tready = !self.rst_s(i) && (DROP == 1 || room || self.dropping || self.commit == rd_w);
        SOut {
            tready,
            stats: self.stats,
        }
    }

    /// The read side's outputs (registers).
    pub fn m_out(&self) -> MOut {
        if self.term {
            MOut {
                beat: TERM_BEAT,
                tvalid: true,
            }
        } else if self.h_v {
            MOut {
                beat: beat_of(self.h_d),
                tvalid: true,
            }
        } else {
            MOut::default()
        }
    }

    /// A rising edge of `s_clk`.
    pub fn step_s(&mut self, i: &SIn) {
        let o = self.s_out(i);
        let rst = self.rst_s(i);
        let rd_w = self.rd_w;
        let room = self.wr.wrapping_sub(rd_w) != Self::CAP;
        // The commit pointer goes to the read side on every commit.
        let mut send = false;
        self.s_req = i.reset || (self.s_req && !self.m_in_rst_s1);
        self.s_in_rst = rst;
        self.m_in_rst_s1 = self.m_in_rst_s0;
        self.m_in_rst_s0 = self.m_in_rst;
        self.rd_w = ungray(self.rd_s1);
        self.rd_s1 = self.rd_s0;
        self.rd_s0 = self.rd_gray;
        if rst {
            self.wr = 0;
            self.commit = 0;
            // A frame cut on s_axis by a reset its source does not share
            // (the read side's): the rest of it is discarded.
            self.dropping = !i.reset && (self.dropping || self.s_open);
            self.s_open = false;
            self.stats = AsyncFifoStats::default();
        } else if i.tvalid && o.tready {
            self.s_open = !i.beat.tlast;
            if self.dropping {
                self.dropping = !i.beat.tlast;
            } else if room {
                self.ram[(self.wr as usize) & (Self::CAP as usize - 1)] = word(&i.beat);
                self.wr = self.wr.wrapping_add(1);
                if i.beat.tlast {
                    self.commit = self.wr;
                    self.stats.frames = self.stats.frames.wrapping_add(1);
                    send = true;
                }
            } else {
                self.wr = self.commit;
                self.stats.dropped = self.stats.dropped.wrapping_add(1);
                self.dropping = !i.beat.tlast;
            }
        }
        self.sync.step_in(&InSide {
            reset: rst,
            send,
            data: self.wr as u64,
        });
    }

    /// One rising edge shared by both clocks (`s_clk` and `m_clk` tied
    /// together, as in a top on one clock): each side samples the other's
    /// registers as they were before the edge, as the RTL does. The read
    /// side goes first (its RAM read sees the RAM before this edge's
    /// write); the write side then sees the read side's registers as they
    /// were.
    pub fn step_same_clock(&mut self, i: &SIn, m_reset: bool, m_tready: bool) {
        let (m_in_rst, rd_gray, sync) = (self.m_in_rst, self.rd_gray, self.sync.clone());
        self.step_m(m_reset, m_tready);
        let sync_m = std::mem::replace(&mut self.sync, sync);
        let (m_in_rst_next, rd_gray_next) = (self.m_in_rst, self.rd_gray);
        self.m_in_rst = m_in_rst;
        self.rd_gray = rd_gray;
        self.step_s(i);
        self.m_in_rst = m_in_rst_next;
        self.rd_gray = rd_gray_next;
        self.sync.take_out_side(&sync_m);
    }

    /// A rising edge of `m_clk`, with that side's reset and `m_axis.tready`.
    pub fn step_m(&mut self, reset: bool, tready: bool) {
        let rst = reset || self.m_req || self.s_req_m1;
        self.m_req = reset || (self.m_req && !self.s_in_rst_m1);
        self.s_req_m1 = self.s_req_m0;
        self.s_req_m0 = self.s_req;
        self.s_in_rst_m1 = self.s_in_rst_m0;
        self.s_in_rst_m0 = self.s_in_rst;
        self.m_in_rst = rst || self.m_hold != 0;
        self.m_hold = if rst {
            HOLD
        } else {
            self.m_hold.saturating_sub(1)
        };
        let shown = self.m_out();
        let taken = tready && shown.tvalid;
        let m_open = if taken {
            !shown.beat.tlast
        } else {
            self.m_open
        };
        let term = self.term && !tready;
        let commit_m = self.sync.out().data as u16;
        let ram_out = self.ram_q;
        // The RAM's read register (its address is `rd` before this edge).
        self.ram_q = self.ram[(self.rd as usize) & (Self::CAP as usize - 1)];
        let consume = tready && self.h_v && !self.term;
        let keep = self.h_v && !consume;
        let issue = commit_m != self.rd
            && !(keep && self.s_v)
            && !(keep && self.rv)
            && !(self.s_v && self.rv);
        if keep {
            if !self.s_v {
                self.s_v = self.rv;
                self.s_d = ram_out;
            }
        } else if self.s_v {
            self.h_v = true;
            self.h_d = self.s_d;
            self.s_v = self.rv;
            self.s_d = ram_out;
        } else {
            self.h_v = self.rv;
            self.h_d = ram_out;
            self.s_v = false;
        }
        self.rv = issue;
        if issue {
            self.rd = self.rd.wrapping_add(1);
        }
        self.m_open = m_open;
        self.term = term;
        if rst {
            self.rd = 0;
            self.rv = false;
            self.h_v = false;
            self.s_v = false;
            // A frame cut on m_axis by a reset the consumer does not share
            // (the write side's) is closed by a bad last beat.
            self.term = !reset && (term || m_open);
            self.m_open = false;
        }
        self.rd_gray = gray(self.rd);
        self.sync.step_out(rst);
    }
}

/// One cycle's inputs of the FIFO with both clocks tied to one
/// ([`OneClock`]): one reset for both sides.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OneClockIn {
    pub reset: bool,
    pub s: Axis,
    pub m_tready: bool,
}

/// One cycle's outputs of [`OneClock`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OneClockOut {
    pub s_tready: bool,
    pub m: Axis,
    pub stats: AsyncFifoStats,
}

/// The FIFO with `s_clk` and `m_clk` tied to one clock and one reset
/// (as `hpcc_nic_10g`'s transmit FIFO): [`AxisAsyncFifo::step_same_clock`]
/// each cycle.
#[derive(Clone, Debug, Default)]
pub struct OneClock<const A: usize, const DROP: usize> {
    pub fifo: AxisAsyncFifo<A, DROP>,
}

impl<const A: usize, const DROP: usize> crate::Cycle for OneClock<A, DROP> {
    type In = OneClockIn;
    type Out = OneClockOut;
    fn step(&mut self, i: &OneClockIn) -> OneClockOut {
        let s = SIn {
            reset: i.reset,
            beat: Beat {
                tdata: i.s.tdata as u128,
                tkeep: i.s.tkeep as u16,
                tlast: i.s.tlast,
                tuser: i.s.tuser as u32,
            },
            tvalid: i.s.tvalid,
        };
        let so = self.fifo.s_out(&s);
        let mo = self.fifo.m_out();
        self.fifo.step_same_clock(&s, i.reset, i.m_tready);
        OneClockOut {
            s_tready: so.tready,
            m: Axis {
                tdata: mo.beat.tdata as u64,
                tkeep: mo.beat.tkeep as u8,
                tlast: mo.beat.tlast,
                tuser: mo.beat.tuser != 0,
                tvalid: mo.tvalid,
            },
            stats: so.stats,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The latency in the docs: a one-beat frame written on an `s_clk`
    /// edge is on `m_axis` after the 5th `m_clk` edge that follows (equal
    /// clocks, interleaved).
    #[test]
    fn last_beat_to_m_axis_is_five_m_clk_edges() {
        let mut f = AxisAsyncFifo::<4, 0>::default();
        for _ in 0..10 {
            f.step_s(&SIn::default());
            f.step_m(false, true);
        }
        let beat = Beat {
            tdata: 7,
            tkeep: 0xFF,
            tlast: true,
            tuser: 0,
        };
        f.step_s(&SIn {
            reset: false,
            beat,
            tvalid: true,
        });
        let mut edges = 0;
        while !f.m_out().tvalid {
            f.step_m(false, true);
            edges += 1;
            f.step_s(&SIn::default());
            assert!(edges < 20);
        }
        assert_eq!(edges, 5);
        assert_eq!(f.m_out().beat, beat);
    }
}
