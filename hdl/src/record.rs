//! The record bundles: rust-hdl `LogicInterface` pairs generated from the
//! field lists in [`nic_spec::records`], so a record's fields are declared
//! once for the RTL, the golden model and the harness.
//!
//! For a record `Name` this generates `NameSink` (the consumer's port:
//! fields `In`) and `NameSource` (the producer's port: fields `Out`), each
//! with the handshake of the record's kind:
//! - `ready`: `valid` (with the fields) and `ready` (back): a record moves
//!   on a rising edge where `valid && ready`; a source may not withdraw or
//!   change a record while `valid && !ready`;
//! - `strobe`: `valid` only: the consumer takes the record in every cycle
//!   where `valid` is high (a write strobe, or an output that cannot be
//!   back-pressured);
//! - `level`: no handshake: values held (counters) or a record nested in
//!   another one.
//!
//! `NameSink::join(&mut sink, &mut source)` wires a producer to a
//! consumer, in simulation and (inside `#[hdl_gen]`, written as
//! `NameSink::join(&mut self.a.m_x, &mut self.b.s_x)`) in Verilog.
//!
//! Workaround, kept here: rust-hdl's `#[join = "…"]` attribute needs a
//! string literal, which a `macro_rules!` generator cannot make from an
//! identifier, so the generator writes the `join` method itself.

/// Generate a record's `Sink`/`Source` bundles; called through a record
/// macro of [`nic_spec::records`], e.g. `nic_spec::rx_meta_record!(hdl_record! {})`.
#[macro_export]
macro_rules! hdl_record {
    (name = $name:ident, sink = $sink:ident, source = $source:ident,
     kind = ready, $($rest:tt)*) => {
        $crate::hdl_record! { @emit $sink $source
            [pub valid: rust_hdl::prelude::Signal<rust_hdl::prelude::In, rust_hdl::prelude::Bit>,
             pub ready: rust_hdl::prelude::Signal<rust_hdl::prelude::Out, rust_hdl::prelude::Bit>,]
            [pub valid: rust_hdl::prelude::Signal<rust_hdl::prelude::Out, rust_hdl::prelude::Bit>,
             pub ready: rust_hdl::prelude::Signal<rust_hdl::prelude::In, rust_hdl::prelude::Bit>,]
            [valid ready] $($rest)* }
    };
    (name = $name:ident, sink = $sink:ident, source = $source:ident,
     kind = strobe, $($rest:tt)*) => {
        $crate::hdl_record! { @emit $sink $source
            [pub valid: rust_hdl::prelude::Signal<rust_hdl::prelude::In, rust_hdl::prelude::Bit>,]
            [pub valid: rust_hdl::prelude::Signal<rust_hdl::prelude::Out, rust_hdl::prelude::Bit>,]
            [valid] $($rest)* }
    };
    (name = $name:ident, sink = $sink:ident, source = $source:ident,
     kind = level, $($rest:tt)*) => {
        $crate::hdl_record! { @emit $sink $source [] [] [] $($rest)* }
    };
    (@emit $sink:ident $source:ident [$($hs_in:tt)*] [$($hs_out:tt)*] [$($hs:ident)*]
     generics = [$($g:ident),*],
     fields = [ $($f:ident : $w:tt $t:ty),* $(,)? ],
     records = [ $($rf:ident : $rn:ident $rs:ident $rsrc:ident),* $(,)? ],
    ) => {
        /// A consumer's port of a record (`nic_spec::records`; fields `In`).
        #[derive(rust_hdl::prelude::LogicInterface, Default)]
        pub struct $sink<$(const $g: usize),*> {
            $($hs_in)*
            $(pub $f: rust_hdl::prelude::Signal<rust_hdl::prelude::In, $crate::hdl_record!(@ty $w)>,)*
            $(pub $rf: $rs,)*
        }

        /// A producer's port of a record (`nic_spec::records`; fields `Out`).
        #[derive(rust_hdl::prelude::LogicInterface, Default)]
        pub struct $source<$(const $g: usize),*> {
            $($hs_out)*
            $(pub $f: rust_hdl::prelude::Signal<rust_hdl::prelude::Out, $crate::hdl_record!(@ty $w)>,)*
            $(pub $rf: $rsrc,)*
        }

        impl<$(const $g: usize),*> $sink<$($g),*> {
            /// Wire this consumer's port to a producer's port.
            pub fn join(&mut self, other: &mut $source<$($g),*>) {
                $(self.$hs.join(&mut other.$hs);)*
                $(self.$f.join(&mut other.$f);)*
                $(self.$rf.join(&mut other.$rf);)*
            }
        }

        impl<$(const $g: usize),*> $source<$($g),*> {
            /// Wire this producer's port to a consumer's port.
            pub fn join(&mut self, other: &mut $sink<$($g),*>) {
                $(self.$hs.join(&mut other.$hs);)*
                $(self.$f.join(&mut other.$f);)*
                $(self.$rf.join(&mut other.$rf);)*
            }
        }
    };
    (@ty 1) => { rust_hdl::prelude::Bit };
    (@ty $w:tt) => { rust_hdl::prelude::Bits<$w> };
}

/// The records between the host interface (`crate::hostif`) and the core
/// (`crate::nic`): configuration writes into the core and the core's
/// counters out of it. Both areas import them from here, so neither
/// imports the other's module (`crate::nic` re-exports them).
pub mod host_core {
    use rust_hdl::prelude::*;
    nic_spec::cfg_write_record!(hdl_record! {});
    nic_spec::core_stats_record!(hdl_record! {});
}
