//! Simple dual-port RAM, one clock, synchronous read, for block RAM.
//!
//! Ports (clock `clock`): `read_address` (`Bits<N>`) → `read_data` (`D`)
//! one cycle later; `write_address`, `write_data`, `write_enable`.
//!
//! Like rust-hdl's `RAM` widget, with one clock and the yosys attribute
//! `no_rw_check` on the array: a read and a write of the same address in
//! the same cycle are the caller's to avoid, so yosys adds no
//! collision-bypass logic around the block RAM (that logic was a critical
//! path of the CC module at 4096 flows). In simulation (rust-hdl,
//! Verilator, iverilog) such a read returns the old word; on the FPGA it
//! is undefined. Every word starts at zero (`initial` loops of 64 words,
//! [`zero_init`]: FPGA configuration, and no X in a 4-state simulation).
//!
//! [`Ram::block`] makes one that yosys must put in block RAM (the
//! attribute `ram_style = "block"`): for memories small enough that
//! yosys would otherwise choose LUT RAM, such as the delay lines of
//! [`crate::arith::DelayRam`] on the ECP5, whose LUTs are the scarcer.
//!
//! Latency 1, one read and one write per cycle. Golden twin:
//! `nic_golden::mem::ram`.

use rust_hdl::prelude::*;
use std::collections::BTreeMap;

#[derive(LogicBlock)]
pub struct Ram<D: Synth, const N: usize> {
    pub clock: Signal<In, Clock>,
    pub read_address: Signal<In, Bits<N>>,
    pub read_data: Signal<Out, D>,
    pub write_address: Signal<In, Bits<N>>,
    pub write_data: Signal<In, D>,
    pub write_enable: Signal<In, Bit>,
    _sim: Box<BTreeMap<Bits<N>, D>>,
    /// Emit `ram_style = "block"` ([`Ram::block`]).
    _block: bool,
}

impl<D: Synth, const N: usize> Ram<D, N> {
    /// A `Ram` that synthesis must map to block RAM.
    pub fn block() -> Self {
        Self {
            _block: true,
            ..Default::default()
        }
    }
}

impl<D: Synth, const N: usize> Default for Ram<D, N> {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            read_address: Default::default(),
            read_data: Default::default(),
            write_address: Default::default(),
            write_data: Default::default(),
            write_enable: Default::default(),
            _sim: Box::default(),
            _block: false,
        }
    }
}

impl<D: Synth, const N: usize> Logic for Ram<D, N> {
    fn update(&mut self) {
        if self.clock.pos_edge() {
            self.read_data.next = *self
                ._sim
                .get(&self.read_address.val())
                .unwrap_or(&D::default());
            if self.write_enable.val() {
                self._sim
                    .insert(self.write_address.val(), self.write_data.val());
            }
        }
    }

    fn connect(&mut self) {
        self.read_data.connect();
    }

    fn hdl(&self) -> Verilog {
        let init = zero_init(1usize << N);
        let style = if self._block {
            "(* ram_style = \"block\" *)\n"
        } else {
            ""
        };
        Verilog::Custom(format!(
            "{style}(* no_rw_check *)\nreg[{d}:0] mem[{a}:0];\n{init}\n\
             always @(posedge clock) begin\n   read_data <= mem[read_address];\n   \
             if (write_enable) begin\n      mem[write_address] <= write_data;\n   end\nend\n",
            d = D::BITS - 1,
            a = (1usize << N) - 1,
            init = init
        ))
    }
}

/// Simple dual-port RAM of 64-bit words with a write enable per byte
/// lane, one clock, synchronous read: the host memory of a board
/// (`hostif::bram_dma`), where DMA writes land at any byte alignment.
///
/// Ports (clock `clock`): `read_address` (`Bits<N>`) → `read_data`
/// (`Bits<64>`) one cycle later; `write_address`, `write_data`,
/// `write_enable` (`Bits<8>`: bit k writes byte lane k, bits 8k+7..8k).
///
/// The same rules as [`Ram`]: `no_rw_check` (a read of the word written
/// in the same cycle returns the old word in simulation, is undefined
/// on the FPGA), every word zero at configuration. Yosys maps it to
/// block RAM with byte enables. Latency 1, one read and one write per
/// cycle. Golden twin: `nic_golden::mem::ram::RamBe`.
#[derive(LogicBlock)]
pub struct RamBe<const N: usize> {
    pub clock: Signal<In, Clock>,
    pub read_address: Signal<In, Bits<N>>,
    pub read_data: Signal<Out, Bits<64>>,
    pub write_address: Signal<In, Bits<N>>,
    pub write_data: Signal<In, Bits<64>>,
    pub write_enable: Signal<In, Bits<8>>,
    _sim: Box<BTreeMap<Bits<N>, u64>>,
}

impl<const N: usize> Default for RamBe<N> {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            read_address: Default::default(),
            read_data: Default::default(),
            write_address: Default::default(),
            write_data: Default::default(),
            write_enable: Default::default(),
            _sim: Box::default(),
        }
    }
}

impl<const N: usize> Logic for RamBe<N> {
    fn update(&mut self) {
        if self.clock.pos_edge() {
            let old = *self._sim.get(&self.read_address.val()).unwrap_or(&0);
            self.read_data.next = Bits::<64>::from(old);
            let en = self.write_enable.val().to_u64();
            if en != 0 {
                let addr = self.write_address.val();
                let mut word = *self._sim.get(&addr).unwrap_or(&0);
                let data = self.write_data.val().to_u64();
                for k in 0..8 {
                    if en >> k & 1 == 1 {
                        let lane = 0xFFu64 << (8 * k);
                        word = (word & !lane) | (data & lane);
                    }
                }
                self._sim.insert(addr, word);
            }
        }
    }

    fn connect(&mut self) {
        self.read_data.connect();
    }

    fn hdl(&self) -> Verilog {
        let lanes: String = (0..8)
            .map(|k| {
                format!(
                    "   if (write_enable[{k}]) mem[write_address][{hi}:{lo}] <= write_data[{hi}:{lo}];\n",
                    hi = 8 * k + 7,
                    lo = 8 * k
                )
            })
            .collect();
        Verilog::Custom(format!(
            "(* no_rw_check *)\nreg[63:0] mem[{a}:0];\n{init}\n\
             always @(posedge clock) begin\n   read_data <= mem[read_address];\n{lanes}end\n",
            a = (1usize << N) - 1,
            init = zero_init(1usize << N),
        ))
    }
}

/// Words zeroed by one `initial` loop of [`zero_init`].
const ZERO_CHUNK: usize = 64;

/// The Verilog that starts `read_data` and all `words` words of `mem` at
/// zero (FPGA configuration, and no X in a 4-state simulation): one
/// `initial` loop per 64 words, in a generate loop. Yosys unrolls the
/// statements of one `initial` process in time quadratic in their number:
/// a single loop over a 4096-word RAM took its `read_verilog` 29 s (one
/// 280-bit RAM), 64-word loops 4 s, and the lint of `hpcc_nic`, with eight
/// such RAMs, is minutes shorter (2026-12-01). Every simulator and
/// synthesis tool sees the same zeros.
fn zero_init(words: usize) -> String {
    let chunk = words.min(ZERO_CHUNK);
    format!(
        "initial read_data = 0;\ngenvar zero_g;\ngenerate for (zero_g = 0; zero_g < {n}; zero_g = zero_g + 1) begin : zero\n  \
         integer i;\n  initial for (i = 0; i < {chunk}; i = i + 1) mem[zero_g * {chunk} + i] = 0;\nend endgenerate\n",
        n = words / chunk,
    )
}
