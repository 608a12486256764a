//! Harnesses of the RTL blocks: which golden port field drives or samples
//! which rust-hdl signal.

use crate::harness;
use nic_golden as golden;
use nic_hdl::arith::{Divider, MinMax, Normalize, SatAddSub, WideMul};
use nic_hdl::stream::{AxisFifo, AxisSkid};

harness! {
    impl<const N: usize> SatAddSub<N> {
        type In = golden::arith::sat_add_sub::In;
        type Out = golden::arith::sat_add_sub::Out;
        clock = clock;
        inputs { a: a, b: b, sub: sub, in_valid: in_valid }
        outputs { y: y, sat: sat, out_valid: out_valid }
    }
}

harness! {
    impl<const N: usize> MinMax<N> {
        type In = golden::arith::min_max::In;
        type Out = golden::arith::min_max::Out;
        clock = clock;
        inputs { a: a, b: b, in_valid: in_valid }
        outputs { min: min, max: max, out_valid: out_valid }
    }
}

harness! {
    impl<const N: usize, const L: usize> Normalize<N, L> {
        type In = golden::arith::normalize::In;
        type Out = golden::arith::normalize::Out;
        clock = clock;
        inputs { x: x, in_valid: in_valid }
        outputs { norm: norm, lz: lz, zero: zero, out_valid: out_valid }
    }
}

harness! {
    impl<> WideMul {
        type In = golden::arith::wide_mul::In;
        type Out = golden::arith::wide_mul::Out;
        clock = clock;
        inputs { a: a, b: b, in_valid: in_valid }
        outputs { p: p, out_valid: out_valid }
    }
}

harness! {
    impl<const N: usize, const F: usize> Divider<N, F> {
        type In = golden::arith::divider::In;
        type Out = golden::arith::divider::Out;
        clock = clock;
        inputs { a: a, d: d, in_valid: in_valid }
        outputs { q: q, sat: sat, out_valid: out_valid }
    }
}

harness! {
    impl<const D: usize, const K: usize, const U: usize> AxisSkid<D, K, U> {
        type In = golden::stream::In;
        type Out = golden::stream::axis_skid::Out;
        clock = clock;
        inputs {
            s_tdata: s_axis.tdata, s_tkeep: s_axis.tkeep, s_tlast: s_axis.tlast,
            s_tuser: s_axis.tuser, s_tvalid: s_axis.tvalid, m_tready: m_axis.tready
        }
        outputs {
            s_tready: s_axis.tready, m_tdata: m_axis.tdata, m_tkeep: m_axis.tkeep,
            m_tlast: m_axis.tlast, m_tuser: m_axis.tuser, m_tvalid: m_axis.tvalid,
            ready_next: ready_next
        }
    }
}

harness! {
    impl<const D: usize, const K: usize, const U: usize, const W: usize, const A: usize> AxisFifo<D, K, U, W, A> {
        type In = golden::stream::In;
        type Out = golden::stream::axis_fifo::Out;
        clock = clock;
        inputs {
            s_tdata: s_axis.tdata, s_tkeep: s_axis.tkeep, s_tlast: s_axis.tlast,
            s_tuser: s_axis.tuser, s_tvalid: s_axis.tvalid, m_tready: m_axis.tready
        }
        outputs {
            s_tready: s_axis.tready, m_tdata: m_axis.tdata, m_tkeep: m_axis.tkeep,
            m_tlast: m_axis.tlast, m_tuser: m_axis.tuser, m_tvalid: m_axis.tvalid,
            level: level
        }
    }
}
