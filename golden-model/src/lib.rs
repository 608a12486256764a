//! Golden models of the HPCC++ SmartNIC's RTL blocks.
//!
//! Pure Rust, no rust-hdl. Each module here is the bit-exact and
//! cycle-exact twin of the block at the same path under `hdl/src/`: it
//! defines the block's port structs (`In`, `Out`: one clock cycle's values
//! at the ports) and a model implementing [`Cycle`].
//!
//! Cycle semantics (shared with the testbench engines): `step(in)` returns
//! the outputs seen during the cycle in which `in` is applied (registered
//! outputs plus combinational paths from `in`), then advances the state
//! across the rising clock edge.

pub mod arith;
pub mod board;
pub mod cc;
pub mod hostif;
pub mod mac;
pub mod mem;
pub mod nic;
pub mod record;
pub mod roce;
pub mod sched;
pub mod solve;
pub mod stream;
pub mod uart;

/// A synchronous block, one clock cycle per call.
pub trait Cycle {
    type In;
    type Out;
    fn step(&mut self, input: &Self::In) -> Self::Out;
}

/// A 32-bit wrapping counter's step: +1 when `on` (the RTL's counters
/// wrap at 2^32).
#[inline]
pub fn bump(c: &mut u32, on: bool) {
    *c = c.wrapping_add(on as u32);
}

/// All-ones mask of `n` bits (`n` ≤ 128).
#[inline]
pub const fn mask(n: usize) -> u128 {
    if n >= 128 {
        u128::MAX
    } else {
        (1u128 << n) - 1
    }
}

/// A fixed-latency pipeline of values: what goes in at cycle t comes out at
/// cycle t + `LATENCY`. The building block of the arithmetic twins.
#[derive(Clone, Debug)]
pub struct Pipe<T: Clone + Default> {
    stages: std::collections::VecDeque<T>,
}

impl<T: Clone + Default> Pipe<T> {
    pub fn new(latency: usize) -> Self {
        Self {
            stages: std::iter::repeat_with(T::default).take(latency).collect(),
        }
    }
    /// Push this cycle's value, return the value that leaves the pipe now.
    pub fn shift(&mut self, v: T) -> T {
        self.stages.push_back(v);
        self.stages.pop_front().expect("latency >= 1")
    }
}
