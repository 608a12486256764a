//! `hdl/src/mem/ram.rs` against `nic_golden::mem::ram`.

use crate::common::*;
use nic_golden::mem::ram::{In, LutRam as GoldenLut, Ram as Golden};
use nic_hdl::mem::{LutRam, Ram};
use proptest::prelude::*;
use rust_hdl::prelude::Bits;

fn stim(len: usize) -> impl Strategy<Value = Vec<In>> {
    prop::collection::vec(
        (0u32..16, 0u32..16, operand(40), chance(50)).prop_map(|(r, w, d, e)| In {
            read_address: r,
            write_address: w,
            write_data: d as u128,
            write_enable: e,
        }),
        1..len,
    )
}

proptest! {
    #![proptest_config(config(64))]
    /// Both engines, random reads and writes (collisions included: their
    /// simulation semantics, read-old, are what the twin models).
    #[test]
    fn ram_matches_golden(s in stim(200)) {
        both::<Ram<Bits<40>, 4>, Golden<40, 4>>("ram40x16", &s)?;
    }

    /// The LUT RAM, both engines: the read is this cycle's address, the
    /// words before this cycle's write (collisions included).
    #[test]
    fn lut_ram_matches_golden(s in stim(200)) {
        both::<LutRam<Bits<40>, 4>, GoldenLut<40, 4>>("lutram40x16", &s)?;
    }
}

/// Four-state: the zero-initialised RAM never shows X.
#[test]
fn ram_no_x_in_four_state_simulation() {
    let s = sample(stim(300));
    four_state::<Ram<Bits<40>, 4>, Golden<40, 4>>("ram40x16", &s);
}

/// Four-state: the zero-initialised LUT RAM never shows X.
#[test]
fn lut_ram_no_x_in_four_state_simulation() {
    let s = sample(stim(300));
    four_state::<LutRam<Bits<40>, 4>, GoldenLut<40, 4>>("lutram40x16", &s);
}
