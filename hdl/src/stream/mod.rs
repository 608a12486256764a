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

/// A receive-only view of a packet stream (the fields of
/// [`AxisSink`] without `tready`): for blocks that
/// watch a stream another block consumes.
#[derive(LogicInterface, Default)]
pub struct AxisTap<const D: usize, const K: usize, const U: usize> {
    pub tdata: Signal<In, Bits<D>>,
    pub tkeep: Signal<In, Bits<K>>,
    pub tlast: Signal<In, Bit>,
    pub tuser: Signal<In, Bits<U>>,
    pub tvalid: Signal<In, Bit>,
}

/// The bytes of a last beat: `n` = the low lanes of `keep` set before the
/// first clear one (0..=8), `mask` = those lanes' bits (combinational: a
/// helper inside blocks, whose outputs they register). Twin:
/// `nic_golden::stream::keep_count`.
#[derive(LogicBlock, Default)]
pub struct KeepCount {
    pub keep: Signal<In, Bits<8>>,
    pub n: Signal<Out, Bits<4>>,
    pub mask: Signal<Out, Bits<64>>,
}

impl Logic for KeepCount {
    fn update(&mut self) {
        let n = (self.keep.val().to_u64() as u8).trailing_ones() as u64;
        self.n.next = Bits::<4>::from(n);
        let m = if n >= 8 {
            u64::MAX
        } else {
            (1u64 << (8 * n)) - 1
        };
        self.mask.next = Bits::<64>::from(m);
    }
    fn connect(&mut self) {
        self.n.connect();
        self.mask.connect();
    }
    fn hdl(&self) -> Verilog {
        let mut s = String::from("always @(*) begin\n  casez (keep)\n");
        for n in 0..=8u32 {
            let pat: String = (0..8)
                .rev()
                .map(|k| {
                    if k < n {
                        '1'
                    } else if k == n {
                        '0'
                    } else {
                        '?'
                    }
                })
                .collect();
            s += &format!("    8'b{pat}: n = 4'd{n};\n");
        }
        s += "    default: n = 4'd0;\n  endcase\n";
        // Lane by lane (a shifted mask minus one would be a 64-bit carry
        // chain).
        for k in 0..8 {
            s += &format!(
                "  mask[{}:{}] = (n > 4'd{k}) ? 8'hFF : 8'h00;\n",
                8 * k + 7,
                8 * k
            );
        }
        s += "end\n";
        Verilog::Custom(s)
    }
}
