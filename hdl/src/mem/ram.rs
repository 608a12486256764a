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
use smart_default::SmartDefault;
use std::collections::BTreeMap;

#[derive(LogicBlock, SmartDefault)]
pub struct Ram<D: Synth, const N: usize> {
    pub clock: Signal<In, Clock>,
    pub read_address: Signal<In, Bits<N>>,
    pub read_data: Signal<Out, D>,
    pub write_address: Signal<In, Bits<N>>,
    pub write_data: Signal<In, D>,
    pub write_enable: Signal<In, Bit>,
    #[default(Box::default())]
    _sim: Box<BTreeMap<Bits<N>, D>>,
    /// Emit `ram_style = "block"` ([`Ram::block`]).
    #[default(false)]
    _block: bool,
    /// Name the array `mem_oreg` ([`Ram::with_output_register`]).
    #[default(false)]
    _oreg: bool,
    /// 2^`_depth_log2` words ([`Ram::with_depth_log2`]; N by default).
    #[default(N)]
    _depth_log2: usize,
}

impl<D: Synth, const N: usize> Ram<D, N> {
    /// A `Ram` that synthesis must map to block RAM.
    pub fn block() -> Self {
        Self {
            _block: true,
            ..Default::default()
        }
    }

    /// A `Ram` of 2^`k` words (k ≤ N) behind N-bit addresses, whose bits
    /// above k are ignored: for a depth a const expression of the user's
    /// parameters would give (`A + 3`), which stable Rust cannot write
    /// as a type.
    pub fn with_depth_log2(k: usize) -> Self {
        assert!(k >= 1 && k <= N, "Ram depth 2^{k} needs 1 <= {k} <= {N}");
        Self {
            _depth_log2: k,
            ..Default::default()
        }
    }

    /// The register that takes this RAM's `read_data` straight (same
    /// clock, an enable or none, no reset) goes into the block RAM's own
    /// output register on the ECP5 (`boards/ecp5-85f/bram_outreg.py`,
    /// rule R3): the array is named `mem_oreg`, which the flow looks for.
    /// For a read followed by a short path (a compare, a select); the
    /// RTL and its simulation are unchanged.
    pub fn with_output_register(mut self) -> Self {
        self._oreg = true;
        self
    }

    fn word(&self, address: Bits<N>) -> Bits<N> {
        if self._depth_log2 >= N {
            address
        } else {
            address & Bits::<N>::from((1u64 << self._depth_log2) - 1)
        }
    }
}

impl<D: Synth, const N: usize> Logic for Ram<D, N> {
    fn update(&mut self) {
        if self.clock.pos_edge() {
            let read_word = self.word(self.read_address.val());
            self.read_data.next = *self._sim.get(&read_word).unwrap_or(&D::default());
            if self.write_enable.val() {
                let write_word = self.word(self.write_address.val());
                self._sim.insert(write_word, self.write_data.val());
            }
        }
    }

    fn connect(&mut self) {
        self.read_data.connect();
    }

    fn hdl(&self) -> Verilog {
        let k = self._depth_log2;
        let mem = if self._oreg { "mem_oreg" } else { "mem" };
        let init = zero_init(1usize << k, mem);
        let style = if self._block {
            "(* ram_style = \"block\" *)\n"
        } else {
            ""
        };
        let (ra, wa) = if k < N {
            (
                format!("read_address[{}:0]", k - 1),
                format!("write_address[{}:0]", k - 1),
            )
        } else {
            ("read_address".to_string(), "write_address".to_string())
        };
        Verilog::Custom(format!(
            "{style}(* no_rw_check *)\nreg[{d}:0] {mem}[{a}:0];\n{init}\n\
             always @(posedge clock) begin\n   read_data <= {mem}[{ra}];\n   \
             if (write_enable) begin\n      {mem}[{wa}] <= write_data;\n   end\nend\n",
            d = D::BITS - 1,
            a = (1usize << k) - 1,
            init = init
        ))
    }
}

/// A small RAM in LUTs with an asynchronous read: `read_data` is the word
/// at `read_address` in the same cycle. For a few bits per flow that
/// must be known in the cycle their flow arrives (the dispatcher's READ
/// landing index, which addresses a block RAM in that cycle).
///
/// Ports (clock `clock`): `read_address` (`Bits<N>`) → `read_data` (`D`),
/// combinational; `write_address`, `write_data`, `write_enable`, written
/// at the clock edge. A read of the word being written shows the old
/// word until the edge, the new one after it (on the FPGA as in every
/// simulation). Every word starts at zero.
///
/// The Verilog carries `ram_style = "distributed"`: yosys maps it to
/// `TRELLIS_DPR16X4` on the ECP5 (2^N / 16 × D / 4 of them, and a
/// 2^N / 16 : 1 select per bit). Keep it small: the read is a LUT path.
/// Golden twin: `nic_golden::mem::ram::LutRam`.
#[derive(LogicBlock, SmartDefault)]
pub struct LutRam<D: Synth, const N: usize> {
    pub clock: Signal<In, Clock>,
    pub read_address: Signal<In, Bits<N>>,
    pub read_data: Signal<Out, D>,
    pub write_address: Signal<In, Bits<N>>,
    pub write_data: Signal<In, D>,
    pub write_enable: Signal<In, Bit>,
    #[default(Box::default())]
    _sim: Box<BTreeMap<Bits<N>, D>>,
}

impl<D: Synth, const N: usize> Logic for LutRam<D, N> {
    fn update(&mut self) {
        if self.clock.pos_edge() && self.write_enable.val() {
            self._sim
                .insert(self.write_address.val(), self.write_data.val());
        }
        self.read_data.next = *self
            ._sim
            .get(&self.read_address.val())
            .unwrap_or(&D::default());
    }

    fn connect(&mut self) {
        self.read_data.connect();
    }

    fn hdl(&self) -> Verilog {
        let words = 1usize << N;
        let chunk = words.min(ZERO_CHUNK);
        Verilog::Custom(format!(
            "(* ram_style = \"distributed\" *)\nreg[{d}:0] mem[{a}:0];\n\
             genvar zero_g;\ngenerate for (zero_g = 0; zero_g < {n}; zero_g = zero_g + 1) begin : zero\n  \
             integer i;\n  initial for (i = 0; i < {chunk}; i = i + 1) mem[zero_g * {chunk} + i] = 0;\nend endgenerate\n\
             always @(*) read_data = mem[read_address];\n\
             always @(posedge clock) begin\n   if (write_enable) begin\n      mem[write_address] <= write_data;\n   end\nend\n",
            d = D::BITS - 1,
            a = words - 1,
            n = words / chunk,
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
#[derive(LogicBlock, SmartDefault)]
pub struct RamBe<const N: usize> {
    pub clock: Signal<In, Clock>,
    pub read_address: Signal<In, Bits<N>>,
    pub read_data: Signal<Out, Bits<64>>,
    pub write_address: Signal<In, Bits<N>>,
    pub write_data: Signal<In, Bits<64>>,
    pub write_enable: Signal<In, Bits<8>>,
    #[default(Box::default())]
    _sim: Box<BTreeMap<Bits<N>, u64>>,
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
            init = zero_init(1usize << N, "mem"),
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
fn zero_init(words: usize, mem: &str) -> String {
    let chunk = words.min(ZERO_CHUNK);
    format!(
        "initial read_data = 0;\ngenvar zero_g;\ngenerate for (zero_g = 0; zero_g < {n}; zero_g = zero_g + 1) begin : zero\n  \
         integer i;\n  initial for (i = 0; i < {chunk}; i = i + 1) {mem}[zero_g * {chunk} + i] = 0;\nend endgenerate\n",
        n = words / chunk,
    )
}
