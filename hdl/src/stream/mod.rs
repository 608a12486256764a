//! The stream convention shared by every packet block, and its basic
//! blocks.
//!
//! One interface for every packet stream, AXI4-Stream style (the
//! verilog-ethernet naming): `tdata` (D bits, 64 by default), `tkeep` (one
//! bit per byte, K = D/8), `tlast` (last beat of a frame), `tuser` (U
//! bits, per-interface meaning), `tvalid`, `tready`. A beat transfers on a
//! rising edge where `tvalid && tready`. A source may not withdraw a beat
//! or change it while `tvalid && !tready`. A sink port is called `s_axis`
//! ([`AxisSink`]), a source port `m_axis` ([`AxisSource`]); in the emitted
//! Verilog the fields are flattened with `$` (`s_axis$tdata`).
//!
//! Widths are const parameters; K and U are passed explicitly because
//! stable Rust cannot compute D/8 in a type.

pub mod axis_fifo;
pub mod axis_narrow;
pub mod axis_skid;
pub mod axis_widen;

pub use axis_fifo::AxisFifo;
pub use axis_narrow::AxisNarrow;
pub use axis_skid::AxisSkid;
pub use axis_widen::AxisWiden;

use rust_hdl::prelude::*;

/// The sink side of a stream (inputs, plus `tready` out).
#[derive(LogicInterface, Default)]
#[join = "AxisSource"]
pub struct AxisSink<const D: usize, const K: usize, const U: usize> {
    pub tdata: Signal<In, Bits<D>>,
    pub tkeep: Signal<In, Bits<K>>,
    pub tlast: Signal<In, Bit>,
    pub tuser: Signal<In, Bits<U>>,
    pub tvalid: Signal<In, Bit>,
    pub tready: Signal<Out, Bit>,
}

/// The source side of a stream (outputs, plus `tready` in).
#[derive(LogicInterface, Default)]
#[join = "AxisSink"]
pub struct AxisSource<const D: usize, const K: usize, const U: usize> {
    pub tdata: Signal<Out, Bits<D>>,
    pub tkeep: Signal<Out, Bits<K>>,
    pub tlast: Signal<Out, Bit>,
    pub tuser: Signal<Out, Bits<U>>,
    pub tvalid: Signal<Out, Bit>,
    pub tready: Signal<In, Bit>,
}
