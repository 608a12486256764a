//! Twin of `hdl/src/stream/axis_skid.rs`: the stream register slice.
//! Latency 1, one beat per cycle; see the RTL's docs for the ports.

use super::{Beat, In};
use crate::Cycle;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub s_tready: bool,
    pub m_tdata: u128,
    pub m_tkeep: u16,
    pub m_tlast: bool,
    pub m_tuser: u32,
    pub m_tvalid: bool,
    pub ready_next: bool,
}

/// The skid buffer's state and transition, shared with [`super::axis_fifo`].
#[derive(Clone, Debug, Default)]
pub struct SkidState {
    pub main_v: bool,
    pub main: Beat,
    pub skid_v: bool,
    pub skid: Beat,
}

impl SkidState {
    pub fn s_tready(&self) -> bool {
        !self.skid_v
    }
    /// Apply one cycle: `input` is the beat offered (if valid), `m_tready`
    /// the downstream ready. Returns `ready_next`.
    pub fn step(&mut self, input: Option<Beat>, m_tready: bool) -> bool {
        let accept = input.is_some() && !self.skid_v;
        let out_free = m_tready || !self.main_v;
        if out_free {
            if self.skid_v {
                self.main_v = true;
                self.main = self.skid;
                self.skid_v = false;
            } else {
                self.main_v = accept;
                if accept {
                    self.main = input.unwrap();
                }
            }
        } else if accept {
            self.skid_v = true;
            self.skid = input.unwrap();
        }
        !self.skid_v
    }
}

pub struct AxisSkid<const D: usize, const K: usize, const U: usize> {
    st: SkidState,
}

impl<const D: usize, const K: usize, const U: usize> Default for AxisSkid<D, K, U> {
    fn default() -> Self {
        Self {
            st: SkidState::default(),
        }
    }
}

impl<const D: usize, const K: usize, const U: usize> Cycle for AxisSkid<D, K, U> {
    type In = In;
    type Out = Out;
    fn step(&mut self, i: &In) -> Out {
        let st = &mut self.st;
        let mut out = Out {
            s_tready: st.s_tready(),
            m_tdata: st.main.tdata,
            m_tkeep: st.main.tkeep,
            m_tlast: st.main.tlast,
            m_tuser: st.main.tuser,
            m_tvalid: st.main_v,
            ready_next: false,
        };
        let beat = i.s_tvalid.then(|| i.beat().masked(D, K, U));
        out.ready_next = st.step(beat, i.m_tready);
        out
    }
}
