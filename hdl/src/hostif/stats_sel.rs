//! One counter of a counter record, by index: the register decoder reads
//! the counter pages (`nic_spec::hostif::map::STATS`) through one of
//! these per record.
//!
//! A block per counter record is generated from the record's field list
//! in `nic_spec::records` ([`hdl_stats_sel!`]), so the page layout is the
//! record's field order and no field is listed twice:
//! `RxParseStatsSel`, `RxDispatchStatsSel`, `TxStatsSel`,
//! `SchedStatsSel`, `CcStatsSel`, `ReqStatsSel`, `CoreStatsSel`,
//! `HostIfStatsSel`, `DcqcnStatsSel`, `NpStatsSel`, `CnmStatsSel`.
//!
//! Ports (combinational, no clock): `s_stats` (the record's counters),
//! `sel` (`Bits<8>`, the field index) → `data` (`Bits<32>`, the counter,
//! 0 if none) and `hit` (the index names a field). Latency 0.
//!
//! Bad input: an index past the last field gives `data` 0, `hit` 0.
//!
//! Golden twin: `nic_golden::hostif::stats_sel`.

use crate::cc::{CcStatsSink, DcqcnStatsSink, NpStatsSink};
use crate::hostif::HostIfStatsSink;
use crate::record::host_core::CoreStatsSink;
use crate::roce::{CnmStatsSink, ReqStatsSink, RxDispatchStatsSink, RxParseStatsSink, TxStatsSink};
use crate::sched::SchedStatsSink;
use rust_hdl::prelude::*;

/// Generate the selector block `$block` of a counter record (kind
/// `level`, every field 32 bits); called through the record's macro:
/// `nic_spec::tx_stats_record!(hdl_stats_sel! { TxStatsSel; })`.
/// The constants named after the fields hold their indices.
#[macro_export]
macro_rules! hdl_stats_sel {
    ($block:ident;
     name = $name:ident, sink = $sink:ident, source = $source:ident,
     kind = level, generics = [],
     fields = [ $($f:ident : $w:tt $t:ty),* $(,)? ],
     records = [],
    ) => {
        #[doc = concat!("Counter `sel` of `", stringify!($name), "` (see the module's doc).")]
        #[derive(rust_hdl::prelude::LogicBlock)]
        pub struct $block {
            pub s_stats: $sink,
            pub sel: rust_hdl::prelude::Signal<rust_hdl::prelude::In, rust_hdl::prelude::Bits<8>>,
            pub data: rust_hdl::prelude::Signal<rust_hdl::prelude::Out, rust_hdl::prelude::Bits<32>>,
            pub hit: rust_hdl::prelude::Signal<rust_hdl::prelude::Out, rust_hdl::prelude::Bit>,
            $($f: rust_hdl::prelude::Constant<rust_hdl::prelude::Bits<8>>,)*
        }

        impl Default for $block {
            fn default() -> Self {
                let mut index = 0u64;
                let mut next = || {
                    let c = rust_hdl::prelude::Constant::new(rust_hdl::prelude::Bits::<8>::from(index));
                    index += 1;
                    c
                };
                Self {
                    s_stats: Default::default(),
                    sel: Default::default(),
                    data: Default::default(),
                    hit: Default::default(),
                    $($f: next(),)*
                }
            }
        }

        impl $block {
            /// How many counters the record has: `sel` below it hits.
            pub const FIELDS: usize = [$(stringify!($f)),*].len();
        }

        impl rust_hdl::prelude::Logic for $block {
            #[hdl_gen]
            fn update(&mut self) {
                self.data.next = 0.into();
                self.hit.next = false;
                // At most one field matches, so an OR of the matches is
                // the select: an OR tree the mapper balances, where a
                // chain of `if`s would be a priority chain as deep as the
                // record is long.
                $(
                    if (self.sel.val() == self.$f.val()) {
                        self.data.next = (self.data.val() | self.s_stats.$f.val());
                        self.hit.next = true;
                    }
                )*
            }
        }
    };
}

nic_spec::rx_parse_stats_record!(hdl_stats_sel! { RxParseStatsSel; });
nic_spec::rx_dispatch_stats_record!(hdl_stats_sel! { RxDispatchStatsSel; });
nic_spec::tx_stats_record!(hdl_stats_sel! { TxStatsSel; });
nic_spec::sched_stats_record!(hdl_stats_sel! { SchedStatsSel; });
nic_spec::cc_stats_record!(hdl_stats_sel! { CcStatsSel; });
nic_spec::req_stats_record!(hdl_stats_sel! { ReqStatsSel; });
nic_spec::core_stats_record!(hdl_stats_sel! { CoreStatsSel; });
nic_spec::host_if_stats_record!(hdl_stats_sel! { HostIfStatsSel; });
nic_spec::dcqcn_stats_record!(hdl_stats_sel! { DcqcnStatsSel; });
nic_spec::np_stats_record!(hdl_stats_sel! { NpStatsSel; });
nic_spec::cnm_stats_record!(hdl_stats_sel! { CnmStatsSel; });
