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
        $crate::hdl_record! { @emit $name $sink $source
            [pub valid: rust_hdl::prelude::Signal<rust_hdl::prelude::In, rust_hdl::prelude::Bit>,
             pub ready: rust_hdl::prelude::Signal<rust_hdl::prelude::Out, rust_hdl::prelude::Bit>,]
            [pub valid: rust_hdl::prelude::Signal<rust_hdl::prelude::Out, rust_hdl::prelude::Bit>,
             pub ready: rust_hdl::prelude::Signal<rust_hdl::prelude::In, rust_hdl::prelude::Bit>,]
            [valid ready] [fields slice] $($rest)* }
    };
    (name = $name:ident, sink = $sink:ident, source = $source:ident,
     kind = strobe, $($rest:tt)*) => {
        $crate::hdl_record! { @emit $name $sink $source
            [pub valid: rust_hdl::prelude::Signal<rust_hdl::prelude::In, rust_hdl::prelude::Bit>,]
            [pub valid: rust_hdl::prelude::Signal<rust_hdl::prelude::Out, rust_hdl::prelude::Bit>,]
            [valid] [fields] $($rest)* }
    };
    (name = $name:ident, sink = $sink:ident, source = $source:ident,
     kind = level, $($rest:tt)*) => {
        $crate::hdl_record! { @emit $name $sink $source [] [] [] [] $($rest)* }
    };
    (@emit $name:ident $sink:ident $source:ident [$($hs_in:tt)*] [$($hs_out:tt)*] [$($hs:ident)*]
     [$($extra:ident)*]
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

        #[doc = concat!("Blocks generated from the `", stringify!($name),
            "` record's fields: its register pair ([`Hold`](self::", stringify!($name),
            "::Hold)), its select and, for a record with `ready`, its register slice and input stage.")]
        #[allow(non_snake_case)]
        pub mod $name {
            use super::*;
            #[allow(unused_imports)]
            use rust_hdl::prelude::*;
            $crate::hdl_record! { @extra [$($extra)*] $sink $source
                generics = [$($g),*],
                fields = [ $($f : $w $t),* ],
                records = [ $($rf : $rn $rs $rsrc),* ],
            }
            $crate::hdl_record! { @hold $sink $source
                generics = [$($g),*],
                fields = [ $($f : $w $t),* ],
                records = [ $($rf : $rn $rs $rsrc),* ],
            }
        }
    };
    // A level record's bundles are its fields: they are `Fields*` as they are.
    (@extra [] $sink:ident $source:ident generics = [$($g:ident),*], $($rest:tt)*) => {
        /// The record's fields, in (a level record's sink).
        pub type FieldsIn<$(const $g: usize),*> = super::$sink<$($g),*>;
        /// The record's fields, out (a level record's source).
        pub type FieldsOut<$(const $g: usize),*> = super::$source<$($g),*>;
    };
    (@extra [fields $($slice:ident)?] $sink:ident $source:ident
     generics = [$($g:ident),*],
     fields = [ $($f:ident : $w:tt $t:ty),* $(,)? ],
     records = [ $($rf:ident : $rn:ident $rs:ident $rsrc:ident),* $(,)? ],
    ) => {
        /// The record's fields without the handshake, in.
        #[derive(rust_hdl::prelude::LogicInterface, Default)]
        pub struct FieldsIn<$(const $g: usize),*> {
            $(pub $f: Signal<In, $crate::hdl_record!(@ty $w)>,)*
            $(pub $rf: $rs,)*
        }
        /// The record's fields without the handshake, out.
        #[derive(rust_hdl::prelude::LogicInterface, Default)]
        pub struct FieldsOut<$(const $g: usize),*> {
            $(pub $f: Signal<Out, $crate::hdl_record!(@ty $w)>,)*
            $(pub $rf: $rsrc,)*
        }
        impl<$(const $g: usize),*> FieldsIn<$($g),*> {
            /// Wire these inputs to a sibling's outputs.
            pub fn join(&mut self, other: &mut FieldsOut<$($g),*>) {
                $(self.$f.join(&mut other.$f);)*
                $(self.$rf.join(&mut other.$rf);)*
            }
        }
        impl<$(const $g: usize),*> FieldsOut<$($g),*> {
            /// Wire these outputs to a sibling's inputs.
            pub fn join(&mut self, other: &mut FieldsIn<$($g),*>) {
                $(self.$f.join(&mut other.$f);)*
                $(self.$rf.join(&mut other.$rf);)*
            }
        }
        $crate::hdl_record! { @slice_if [$($slice)?] $sink $source
            generics = [$($g),*],
            fields = [ $($f : $w $t),* ],
            records = [ $($rf : $rn $rs $rsrc),* ],
        }
    };
    (@slice_if [] $($rest:tt)*) => {};
    (@slice_if [slice] $($rest:tt)*) => {
        $crate::hdl_record! { @slice $($rest)* }
        $crate::hdl_record! { @stage $($rest)* }
    };
    (@hold $sink:ident $source:ident
     generics = [$($g:ident),*],
     fields = [ $($f:ident : $w:tt $t:ty),* $(,)? ],
     records = [ $($rf:ident : $rn:ident $rs:ident $rsrc:ident),* $(,)? ],
    ) => {
        /// The record's fields in flip-flops: `q` takes `d` at a rising
        /// edge where `load` is high and holds otherwise (zero after
        /// configuration). Latency 1; no path from `d` to `q`.
        #[derive(LogicBlock, Default)]
        pub struct Hold<$(const $g: usize),*> {
            pub clock: Signal<In, Clock>,
            pub load: Signal<In, Bit>,
            pub d: FieldsIn<$($g),*>,
            pub q: FieldsOut<$($g),*>,
            $($f: DFF<$crate::hdl_record!(@ty $w)>,)*
            $($rf: $rn::Hold,)*
        }
        impl<$(const $g: usize),*> Logic for Hold<$($g),*> {
            #[hdl_gen]
            fn update(&mut self) {
                $(
                    self.$f.clock.next = self.clock.val();
                    self.$f.d.next = self.$f.q.val();
                )*
                if self.load.val() {
                    $(self.$f.d.next = self.d.$f.val();)*
                }
                $(self.q.$f.next = self.$f.q.val();)*
                $(
                    self.$rf.clock.next = self.clock.val();
                    self.$rf.load.next = self.load.val();
                    $rs::link(&mut self.d.$rf, &mut self.$rf.d);
                    $rsrc::link(&mut self.q.$rf, &mut self.$rf.q);
                )*
            }
        }

        /// A two-way select of the record's fields: `y` = `b` when `sel`,
        /// else `a`. Combinational (a helper inside a block).
        #[derive(LogicBlock, Default)]
        pub struct Mux<$(const $g: usize),*> {
            pub sel: Signal<In, Bit>,
            pub a: FieldsIn<$($g),*>,
            pub b: FieldsIn<$($g),*>,
            pub y: FieldsOut<$($g),*>,
            $($rf: $rn::Mux,)*
        }
        impl<$(const $g: usize),*> Logic for Mux<$($g),*> {
            #[hdl_gen]
            fn update(&mut self) {
                $(self.y.$f.next = self.a.$f.val();)*
                if self.sel.val() {
                    $(self.y.$f.next = self.b.$f.val();)*
                }
                $(
                    self.$rf.sel.next = self.sel.val();
                    $rs::link(&mut self.a.$rf, &mut self.$rf.a);
                    $rs::link(&mut self.b.$rf, &mut self.$rf.b);
                    $rsrc::link(&mut self.y.$rf, &mut self.$rf.y);
                )*
            }
        }
    };
    (@slice $sink:ident $source:ident
     generics = [$($g:ident),*],
     fields = [ $($f:ident : $w:tt $t:ty),* $(,)? ],
     records = [ $($rf:ident : $rn:ident $rs:ident $rsrc:ident),* $(,)? ],
    ) => {
        /// The record's register slice (skid buffer): breaks every
        /// combinational path between its sides, at full throughput
        /// (timing rule R1), generated from the record's declaration.
        ///
        /// Ports (clock `clock`): `s` (the record's sink), `m` (its
        /// source). Two registers: `main` drives `m`; `skid` catches the
        /// record that arrives in the cycle `m` stalls. `s.ready` = skid
        /// empty and `m.valid` = main full, both flip-flops, and `m`'s
        /// fields are `main`'s flip-flops. Latency 1 cycle; one record a
        /// cycle under any back-pressure pattern; records leave in the
        /// order they came, none lost or repeated. Fields load only with a
        /// valid record, so `m` holds the last record (zero after
        /// configuration) and never carries X. Golden twin:
        /// `nic_golden::record::Slice`.
        #[derive(LogicBlock, Default)]
        pub struct Slice<$(const $g: usize),*> {
            pub clock: Signal<In, Clock>,
            pub s: super::$sink<$($g),*>,
            pub m: super::$source<$($g),*>,
            main_v: DFF<Bit>,
            skid_v: DFF<Bit>,
            main: Hold<$($g),*>,
            skid: Hold<$($g),*>,
            /// `s`, or the skid's record when it holds one: what `main`
            /// and `skid` load (the skid loads only when it is empty, so
            /// then `s`).
            pick: Mux<$($g),*>,
            accept: Signal<Local, Bit>,
            out_free: Signal<Local, Bit>,
        }
        impl<$(const $g: usize),*> Logic for Slice<$($g),*> {
            #[hdl_gen]
            fn update(&mut self) {
                dff_setup!(self, clock, main_v, skid_v);
                self.main.clock.next = self.clock.val();
                self.skid.clock.next = self.clock.val();
                self.accept.next = (self.s.valid.val() && !self.skid_v.q.val());
                // `main` can take a record: it is empty or its record leaves now.
                self.out_free.next = (self.m.ready.val() || !self.main_v.q.val());
                self.pick.sel.next = self.skid_v.q.val();
                $(
                    self.pick.a.$f.next = self.s.$f.val();
                    self.pick.b.$f.next = self.skid.q.$f.val();
                    self.main.d.$f.next = self.pick.y.$f.val();
                    self.skid.d.$f.next = self.pick.y.$f.val();
                    self.m.$f.next = self.main.q.$f.val();
                )*
                $(
                    $rs::link(&mut self.s.$rf, &mut self.pick.a.$rf);
                    $rs::join(&mut self.pick.b.$rf, &mut self.skid.q.$rf);
                    $rs::join(&mut self.main.d.$rf, &mut self.pick.y.$rf);
                    $rs::join(&mut self.skid.d.$rf, &mut self.pick.y.$rf);
                    $rsrc::link(&mut self.m.$rf, &mut self.main.q.$rf);
                )*
                self.main.load.next =
                    (self.out_free.val() && (self.skid_v.q.val() || self.accept.val()));
                self.skid.load.next = (!self.out_free.val() && self.accept.val());
                if self.out_free.val() {
                    self.main_v.d.next = (self.skid_v.q.val() || self.accept.val());
                    self.skid_v.d.next = false;
                } else if self.accept.val() {
                    self.skid_v.d.next = true;
                }
                self.s.ready.next = !self.skid_v.q.val();
                self.m.valid.next = self.main_v.q.val();
            }
        }
    };
    (@stage $sink:ident $source:ident
     generics = [$($g:ident),*],
     fields = [ $($f:ident : $w:tt $t:ty),* $(,)? ],
     records = [ $($rf:ident : $rn:ident $rs:ident $rsrc:ident),* $(,)? ],
    ) => {
        /// The record's input stage: one register on a block's input,
        /// for a consumer that takes at most one record every two cycles
        /// (a state machine whose operations last two cycles or more).
        /// Half a [`Slice`]'s flip-flops: it breaks every combinational
        /// path between its sides (timing rule R1) with no skid.
        ///
        /// Ports (clock `clock`): `s` (the record's sink), `m` (its
        /// source). `s.ready` = the register empty and `m.valid` = full,
        /// both flip-flops; `m`'s fields are the register's flip-flops.
        /// Latency 1 cycle. A record taken in cycle t frees the register
        /// at t + 1 and the next one is at `m` at t + 2, so a consumer
        /// that takes one every two cycles or slower never waits on it;
        /// a consumer taking every cycle gets one every two. Records
        /// leave in the order they came, none lost or repeated; fields
        /// load only with a valid record, so `m` holds the last record
        /// (zero after configuration) and never carries X. Golden twin:
        /// `nic_golden::record::Stage`.
        #[derive(LogicBlock, Default)]
        pub struct Stage<$(const $g: usize),*> {
            pub clock: Signal<In, Clock>,
            pub s: super::$sink<$($g),*>,
            pub m: super::$source<$($g),*>,
            full: DFF<Bit>,
            held: Hold<$($g),*>,
            accept: Signal<Local, Bit>,
        }
        impl<$(const $g: usize),*> Logic for Stage<$($g),*> {
            #[hdl_gen]
            fn update(&mut self) {
                dff_setup!(self, clock, full);
                self.held.clock.next = self.clock.val();
                self.accept.next = (self.s.valid.val() && !self.full.q.val());
                $(
                    self.held.d.$f.next = self.s.$f.val();
                    self.m.$f.next = self.held.q.$f.val();
                )*
                $(
                    $rs::link(&mut self.s.$rf, &mut self.held.d.$rf);
                    $rsrc::link(&mut self.m.$rf, &mut self.held.q.$rf);
                )*
                self.held.load.next = self.accept.val();
                self.full.d.next =
                    ((self.full.q.val() && !self.m.ready.val()) || self.accept.val());
                self.s.ready.next = !self.full.q.val();
                self.m.valid.next = self.full.q.val();
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
