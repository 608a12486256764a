//! The golden twins of the record bundles: plain structs generated from
//! the field lists in [`nic_spec::records`], one per record, with the
//! field names of the RTL bundle (`hdl/src/record.rs`).
//!
//! A block's port struct holds a record in one field named after the port
//! (`meta: RxMeta` for the port `s_meta`/`m_meta`) and the handshake
//! beside it as plain fields (`meta_valid`, `meta_ready`).

/// Generate a record's golden struct; called through a record macro of
/// [`nic_spec::records`], e.g. `nic_spec::rx_meta_record!(golden_record! {})`.
#[macro_export]
macro_rules! golden_record {
    (name = $name:ident, sink = $sink:ident, source = $source:ident,
     kind = $kind:ident, generics = [$($g:ident),*],
     fields = [ $($f:ident : $w:tt $t:ty),* $(,)? ],
     records = [ $($rf:ident : $rn:ident $rs:ident $rsrc:ident),* $(,)? ],
    ) => {
        #[doc = concat!("Golden twin of the `", stringify!($name), "` record (`nic_spec::records`).")]
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
        pub struct $name {
            $(pub $f: $t,)*
            $(pub $rf: $rn,)*
        }

        impl $name {
            /// The scalar fields' names, in declaration order.
            pub const FIELD_NAMES: &'static [&'static str] = &[$(stringify!($f)),*];
            /// The nested records' field names.
            pub const RECORD_NAMES: &'static [&'static str] = &[$(stringify!($rf)),*];
            /// The scalar fields' values (as `u64`), in [`Self::FIELD_NAMES`] order.
            pub fn field_values(&self) -> Vec<u64> {
                vec![$(self.$f as u64),*]
            }
        }
    };
}

/// Twin of a record's register slice (`hdl_record!`'s `<Record>::Slice`,
/// `hdl/src/record.rs`), for any record `T`: two registers, `main` (on
/// the output) and `skid` (the record that arrived while `main` stalled).
/// Latency 1, one record a cycle; `s_ready` = the skid empty. Also the
/// stream slice's state (`crate::stream::axis_skid::SkidState`).
#[derive(Clone, Debug, Default)]
pub struct Slice<T> {
    pub main_v: bool,
    pub main: T,
    pub skid_v: bool,
    pub skid: T,
}

/// The slice's inputs: the record offered (`s`, taken when `s_valid`)
/// and the consumer's `m_ready`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SliceIn<T> {
    pub s_valid: bool,
    pub s: T,
    pub m_ready: bool,
}

/// The slice's outputs, all registers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SliceOut<T> {
    pub s_ready: bool,
    pub m_valid: bool,
    pub m: T,
}

impl<T: Copy> Slice<T> {
    pub fn s_tready(&self) -> bool {
        !self.skid_v
    }
    /// Apply one cycle: `input` is the record offered (if valid), `m_ready`
    /// the consumer's ready. Returns the next cycle's `s_ready`.
    pub fn step(&mut self, input: Option<T>, m_ready: bool) -> bool {
        let accept = input.is_some() && !self.skid_v;
        let out_free = m_ready || !self.main_v;
        if out_free {
            if self.skid_v {
                self.main_v = true;
                self.main = self.skid;
                self.skid_v = false;
            } else {
                self.main_v = accept;
                if accept {
                    self.main = input.unwrap();
                }
            }
        } else if accept {
            self.skid_v = true;
            self.skid = input.unwrap();
        }
        !self.skid_v
    }
}

impl<T: Copy> crate::Cycle for Slice<T> {
    type In = SliceIn<T>;
    type Out = SliceOut<T>;
    fn step(&mut self, i: &SliceIn<T>) -> SliceOut<T> {
        let out = SliceOut {
            s_ready: !self.skid_v,
            m_valid: self.main_v,
            m: self.main,
        };
        Slice::step(self, i.s_valid.then_some(i.s), i.m_ready);
        out
    }
}

/// Twin of a record's input stage (`hdl_record!`'s `<Record>::Stage`,
/// `hdl/src/record.rs`): one register. `s_ready` = the register empty,
/// `m_valid` = full; a record taken frees it a cycle later. Latency 1,
/// one record every two cycles at most.
#[derive(Clone, Debug, Default)]
pub struct Stage<T> {
    pub full: bool,
    pub reg: T,
}

impl<T: Copy> Stage<T> {
    /// `s_ready` this cycle (a register).
    pub fn s_ready(&self) -> bool {
        !self.full
    }
    /// The record at `m`, if the stage holds one.
    pub fn head(&self) -> Option<T> {
        self.full.then_some(self.reg)
    }
    /// Apply one cycle: `input` is the record offered (if valid),
    /// `m_ready` the consumer's ready (taken when the stage is full).
    pub fn step(&mut self, input: Option<T>, m_ready: bool) {
        if self.full {
            self.full = !m_ready;
        } else if let Some(r) = input {
            self.full = true;
            self.reg = r;
        }
    }
}

impl<T: Copy> crate::Cycle for Stage<T> {
    type In = SliceIn<T>;
    type Out = SliceOut<T>;
    fn step(&mut self, i: &SliceIn<T>) -> SliceOut<T> {
        let out = SliceOut {
            s_ready: !self.full,
            m_valid: self.full,
            m: self.reg,
        };
        Stage::step(self, i.s_valid.then_some(i.s), i.m_ready);
        out
    }
}
