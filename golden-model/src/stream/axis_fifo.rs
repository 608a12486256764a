//! Twin of `hdl/src/stream/axis_fifo.rs`: block-RAM stream FIFO with a
//! skid buffer on its output. See the RTL's docs for ports and timing.

use super::axis_skid::SkidState;
use super::{AxisWide, Beat, In};
use crate::Cycle;
use std::collections::VecDeque;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub s_tready: bool,
    pub m: AxisWide,
    pub level: u16,
}

pub struct AxisFifo<const D: usize, const K: usize, const U: usize, const A: usize> {
    ram: VecDeque<Beat>,
    /// The beat read from the RAM last cycle: `oreg` takes it this cycle.
    pending: Option<Beat>,
    /// The RAM's output register: offered to the skid buffer.
    oreg: Option<Beat>,
    out: SkidState,
}

impl<const D: usize, const K: usize, const U: usize, const A: usize> Default
    for AxisFifo<D, K, U, A>
{
    fn default() -> Self {
        Self {
            ram: VecDeque::new(),
            pending: None,
            oreg: None,
            out: SkidState::default(),
        }
    }
}

impl<const D: usize, const K: usize, const U: usize, const A: usize> Cycle
    for AxisFifo<D, K, U, A>
{
    type In = In;
    type Out = Out;
    fn step(&mut self, i: &In) -> Out {
        let depth = 1usize << A;
        let fill = self.ram.len();
        let out = Out {
            s_tready: fill != depth,
            m: AxisWide::from_beat(self.out.main, self.out.main_v),
            level: fill as u16,
        };
        let push = i.s.tvalid && fill != depth;
        // The skid buffer takes the output register's beat if its tready
        // is high; the register then holds the beat read last cycle, or
        // keeps one not taken (never both: a read is issued only when the
        // register will be free or taken as the data arrives).
        let moves = self.oreg.is_some() && self.out.s_tready();
        let ready_next = self.out.step(self.oreg, i.m_tready);
        let held = if moves { None } else { self.oreg };
        debug_assert!(held.is_none() || self.pending.is_none());
        self.oreg = self.pending.or(held);
        let pop = fill > 0 && (self.oreg.is_none() || ready_next);
        self.pending = if pop { self.ram.pop_front() } else { None };
        if push {
            self.ram.push_back(i.beat().masked(D, K, U));
        }
        out
    }
}
