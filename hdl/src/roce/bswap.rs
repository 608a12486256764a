//! Byte reversal of a 64-bit word: a wire permutation between the
//! streams' lane order (byte 0 in bits 7..0) and the network's big-endian
//! fields. Combinational, no logic; used by the Tx and Rx pipelines.

use rust_hdl::prelude::*;

/// `y` = `x` with its 8 bytes in reverse order.
#[derive(LogicBlock, Default)]
pub struct Bswap64 {
    pub x: Signal<In, Bits<64>>,
    pub y: Signal<Out, Bits<64>>,
}

impl Logic for Bswap64 {
    fn update(&mut self) {
        self.y.next = Bits::<64>::from(self.x.val().to_u64().swap_bytes());
    }
    fn connect(&mut self) {
        self.y.connect();
    }
    fn hdl(&self) -> Verilog {
        let parts: Vec<String> = (0..8)
            .map(|k| format!("x[{}:{}]", 8 * k + 7, 8 * k))
            .collect();
        Verilog::Custom(format!("always @(*) y = {{{}}};\n", parts.join(", ")))
    }
}
