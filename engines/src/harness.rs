//! Mapping between a rust-hdl block's ports and its golden twin's port structs.

use rust_hdl::prelude::*;

pub use crate::value::{HdlValue, PortValue};

/// A rust-hdl block wired to its golden twin's port structs.
///
/// Implement it with [`harness!`](crate::harness!).
pub trait Harness: Block + Sized {
    /// The golden model's input port struct (one cycle's inputs).
    type In: Clone + std::fmt::Debug;
    /// The golden model's output port struct (one cycle's outputs).
    type Out: Clone + std::fmt::Debug + PartialEq;
    /// Verilog names of the input ports, in the order of [`Harness::in_values`].
    fn input_names() -> Vec<String>;
    /// Verilog names of the output ports, in the order of [`Harness::out_from_values`].
    fn output_names() -> Vec<String>;
    /// The Verilog name of the clock input.
    fn clock_name() -> String;
    fn set_clock(&mut self, high: bool);
    fn drive(&mut self, i: &Self::In);
    fn sample(&self) -> Self::Out;
    /// Input values, one per input port, appended to `v` (cleared first).
    fn in_values(i: &Self::In, v: &mut Vec<u128>);
    /// Output struct from values, one per output port.
    fn out_from_values(v: &[u128]) -> Self::Out;
}

#[doc(hidden)]
pub fn join_path(parts: &[&str]) -> String {
    parts.join("$")
}

/// Implement [`Harness`] for a rust-hdl block.
///
/// ```ignore
/// harness! {
///     impl<const N: usize> SatAddSub<N> {
///         type In = golden::sat_add_sub::In;
///         type Out = golden::sat_add_sub::Out;
///         clock = clock;
///         inputs { a: a, b: b, sub: sub, in_valid: in_valid }
///         outputs { y: y, sat: sat, out_valid: out_valid }
///         records_in { meta: s_meta }
///         records_out { stats: m_stats }
///     }
/// }
/// ```
/// Each entry is `golden_field: hdl.signal.path`. Dotted paths reach into
/// rust-hdl interfaces; their Verilog names join the parts with `$`.
/// `records_in` / `records_out` map a whole record bundle
/// ([`crate::record`]) by its prefix: the golden field holds the record's
/// struct, the path names the bundle, and its fields are not listed again
/// (the handshake, `valid`/`ready`, is listed under inputs/outputs).
#[macro_export]
macro_rules! harness {
    (impl<$($gp:ident $gn:ident : $gt:ty),*> $blk:ty {
        type In = $in:ty;
        type Out = $out:path;
        clock = $($clk:ident).+;
        inputs { $($if:ident : $($ip:ident).+),* $(,)? }
        outputs { $($of:ident : $($op:ident).+),* $(,)? }
        $(records_in { $($rif:ident : $($rip:ident).+),* $(,)? })?
        $(records_out { $($rof:ident : $($rop:ident).+),* $(,)? })?
    }) => {
        impl<$($gp $gn: $gt),*> $crate::harness::Harness for $blk {
            type In = $in;
            type Out = $out;
            #[allow(unused_mut)]
            fn input_names() -> Vec<String> {
                let mut v: Vec<String> = vec![$($crate::harness::join_path(&[$(stringify!($ip)),+])),*];
                $($(v.extend($crate::record::record_names(|i: &$in| &i.$rif,
                    &$crate::harness::join_path(&[$(stringify!($rip)),+])));)*)?
                v
            }
            #[allow(unused_mut)]
            fn output_names() -> Vec<String> {
                let mut v: Vec<String> = vec![$($crate::harness::join_path(&[$(stringify!($op)),+])),*];
                $($(v.extend($crate::record::record_names(|o: &$out| &o.$rof,
                    &$crate::harness::join_path(&[$(stringify!($rop)),+])));)*)?
                v
            }
            fn clock_name() -> String {
                $crate::harness::join_path(&[$(stringify!($clk)),+])
            }
            #[inline]
            fn set_clock(&mut self, high: bool) {
                self.$($clk).+.next = rust_hdl::prelude::Clock { clk: high };
            }
            #[inline]
            fn drive(&mut self, i: &Self::In) {
                $(
                    self.$($ip).+.next = $crate::harness::HdlValue::from_u128(
                        $crate::harness::PortValue::to_u128(i.$if));
                )*
                $($($crate::record::DriveRecord::drive(&i.$rif, &mut self.$($rip).+);)*)?
            }
            #[inline]
            fn sample(&self) -> Self::Out {
                $out {
                    $($of: $crate::harness::PortValue::from_u128(
                        $crate::harness::HdlValue::to_u128(self.$($op).+.val())),)*
                    $($($rof: $crate::record::SampleRecord::sample(&self.$($rop).+),)*)?
                }
            }
            fn in_values(i: &Self::In, v: &mut Vec<u128>) {
                v.clear();
                $(v.push($crate::harness::PortValue::to_u128(i.$if));)*
                $($($crate::record::Record::push_values(&i.$rif, v);)*)?
            }
            #[allow(unused_assignments, unused_mut, unused_variables)]
            fn out_from_values(v: &[u128]) -> Self::Out {
                let mut k = 0usize;
                $out {
                    $($of: { let x = $crate::harness::PortValue::from_u128(v[k]); k += 1; x },)*
                    $($($rof: $crate::record::Record::from_values(v, &mut k),)*)?
                }
            }
        }
    };
}
