//! The values a harness moves between a golden port struct and a rust-hdl
//! signal: [`PortValue`] (a golden field: integers and `bool`) and
//! [`HdlValue`] (a signal: `Bits<N>` up to 128 bits and `Bit`), both as
//! `u128`. Its own module so that the harness (`crate::harness`) and the
//! record bundles (`crate::record`) both build on it and neither on the
//! other's traits.

use rust_hdl::prelude::*;

/// A plain Rust value carried by a port of a golden model's port struct.
pub trait PortValue: Copy {
    fn to_u128(self) -> u128;
    fn from_u128(v: u128) -> Self;
}

macro_rules! port_value_int {
    ($($t:ty),*) => {$(
        impl PortValue for $t {
            #[inline]
            fn to_u128(self) -> u128 { self as u128 }
            #[inline]
            fn from_u128(v: u128) -> Self { v as $t }
        }
    )*};
}
port_value_int!(u8, u16, u32, u64, u128);

impl PortValue for bool {
    #[inline]
    fn to_u128(self) -> u128 {
        self as u128
    }
    #[inline]
    fn from_u128(v: u128) -> Self {
        v & 1 != 0
    }
}

/// A rust-hdl signal type that a harness can drive and sample.
pub trait HdlValue: Copy {
    fn to_u128(self) -> u128;
    fn from_u128(v: u128) -> Self;
}

impl<const N: usize> HdlValue for Bits<N> {
    #[inline]
    fn to_u128(self) -> u128 {
        assert!(N <= 128, "harness ports are limited to 128 bits");
        self.to_u128()
    }
    #[inline]
    fn from_u128(v: u128) -> Self {
        assert!(N <= 128, "harness ports are limited to 128 bits");
        let v = if N < 128 { v & ((1u128 << N) - 1) } else { v };
        if N <= 64 {
            Bits::<N>::from(v as u64)
        } else {
            Bits::<N>::from(num_bigint::BigUint::from(v))
        }
    }
}

impl HdlValue for bool {
    #[inline]
    fn to_u128(self) -> u128 {
        self as u128
    }
    #[inline]
    fn from_u128(v: u128) -> Self {
        v & 1 != 0
    }
}
