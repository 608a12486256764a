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
