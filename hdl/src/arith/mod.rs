//! Fixed-point building blocks for the congestion-control datapath.
//!
//! All are pipelined with an initiation interval of one: a new operation
//! may enter every cycle with `in_valid`, and its result leaves, with
//! `out_valid`, a fixed number of cycles later. Formats are unsigned
//! (UQm.n); see each block.
//!
//! | block | function | latency |
//! |---|---|---|
//! | [`SatAddSub`] | a ± b, clamped to [0, 2^N − 1] | 1 |
//! | [`MinMax`] | min(a, b), max(a, b) | 1 |
//! | [`Normalize`] | leading zeros, x << lz | 2 |
//! | [`WideMul`] | 32 × 32 → 64 | 4 |
//! | [`Divider`] | floor(a·2^F / d), saturating | N + 1 |
//! | [`Delay`] | d from L cycles ago, in registers | L |
//! | [`DelayRam`] | d from L cycles ago, in a block RAM | L |

pub mod delay;
pub mod divider;
pub mod min_max;
pub mod normalize;
pub mod sat_add_sub;
pub mod wide_mul;

pub use delay::{Delay, DelayRam};
pub use divider::Divider;
pub use min_max::MinMax;
pub use normalize::Normalize;
pub use sat_add_sub::SatAddSub;
pub use wide_mul::WideMul;
