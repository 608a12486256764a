//! Twin of `hdl/src/stream/axis_skid.rs`: the stream register slice.
//! Latency 1, one beat per cycle; see the RTL's docs for the ports.

use super::{AxisWide, Beat, In};
use crate::Cycle;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub s_tready: bool,
    pub m: AxisWide,
    pub ready_next: bool,
}

/// The skid buffer's state and transition, shared with [`super::axis_fifo`]:
/// the record slice's twin, for stream beats.
pub type SkidState = crate::record::Slice<Beat>;

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
            m: AxisWide::from_beat(st.main, st.main_v),
            ready_next: false,
        };
        let beat = i.s.tvalid.then(|| i.beat().masked(D, K, U));
        out.ready_next = st.step(beat, i.m_tready);
        out
    }
}
