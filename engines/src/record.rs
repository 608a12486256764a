//! The harness side of the record bundles: how a golden record struct
//! (`nic_golden::record`) drives or samples its rust-hdl bundle
//! (`nic_hdl::record`) and lists its Verilog port names, generated from
//! the one field list in `nic_spec::records`. [`harness!`](crate::harness!)
//! uses it to map a bundle by its prefix (`records_in { meta: s_meta }`).

use crate::value::{HdlValue, PortValue};

/// A golden record's ports, flattened in declaration order (scalar fields,
/// then nested records).
pub trait Record: Copy + Default + std::fmt::Debug + PartialEq {
    /// Verilog names of the fields under `prefix` (`s_meta$opcode`, …).
    fn names(prefix: &str, v: &mut Vec<String>);
    /// Field values, appended in [`Record::names`] order.
    fn push_values(&self, v: &mut Vec<u128>);
    /// The record from values in [`Record::names`] order, from `v[*k]` on.
    fn from_values(v: &[u128], k: &mut usize) -> Self;
}

/// A golden record that drives the fields of its rust-hdl sink bundle.
pub trait DriveRecord<H> {
    fn drive(&self, h: &mut H);
}

/// A golden record sampled from the fields of its rust-hdl source bundle.
pub trait SampleRecord<H>: Sized {
    fn sample(h: &H) -> Self;
}

/// The Verilog names of the record a closure selects from a port struct
/// (the closure only names the type).
pub fn record_names<S, R: Record>(_select: impl Fn(&S) -> &R, prefix: &str) -> Vec<String> {
    let mut v = Vec::new();
    R::names(prefix, &mut v);
    v
}

#[doc(hidden)]
#[inline]
pub fn to_hdl<P: PortValue, H: HdlValue>(p: P) -> H {
    H::from_u128(p.to_u128())
}

#[doc(hidden)]
#[inline]
pub fn from_hdl<H: HdlValue, P: PortValue>(h: H) -> P {
    P::from_u128(h.to_u128())
}

macro_rules! tb_record {
    (name = $name:ident, sink = $sink:ident, source = $source:ident,
     kind = $kind:ident, generics = [$($g:ident),*],
     fields = [ $($f:ident : $w:tt $t:ty),* $(,)? ],
     records = [ $($rf:ident : $rn:ident $rs:ident $rsrc:ident),* $(,)? ],
    ) => {
        impl $crate::record::Record for golden::$name {
            fn names(prefix: &str, v: &mut Vec<String>) {
                $(v.push(format!("{}${}", prefix, stringify!($f)));)*
                $(<golden::$rn as $crate::record::Record>::names(&format!("{}${}", prefix, stringify!($rf)), v);)*
            }
            fn push_values(&self, v: &mut Vec<u128>) {
                $(v.push($crate::value::PortValue::to_u128(self.$f));)*
                $($crate::record::Record::push_values(&self.$rf, v);)*
            }
            #[allow(unused_variables)]
            fn from_values(v: &[u128], k: &mut usize) -> Self {
                Self {
                    $($f: { let x = $crate::value::PortValue::from_u128(v[*k]); *k += 1; x },)*
                    $($rf: <golden::$rn as $crate::record::Record>::from_values(v, k),)*
                }
            }
        }

        impl<$(const $g: usize),*> $crate::record::DriveRecord<$sink<$($g),*>> for golden::$name {
            #[inline]
            fn drive(&self, h: &mut $sink<$($g),*>) {
                $(h.$f.next = $crate::record::to_hdl(self.$f);)*
                $($crate::record::DriveRecord::drive(&self.$rf, &mut h.$rf);)*
            }
        }

        impl<$(const $g: usize),*> $crate::record::SampleRecord<$source<$($g),*>> for golden::$name {
            #[inline]
            fn sample(h: &$source<$($g),*>) -> Self {
                Self {
                    $($f: $crate::record::from_hdl(h.$f.val()),)*
                    $($rf: $crate::record::SampleRecord::sample(&h.$rf),)*
                }
            }
        }
    };
}

mod roce {
    use nic_golden::roce as golden;
    use nic_hdl::roce::*;
    nic_spec::telemetry_record!(tb_record! {});
    nic_spec::rx_meta_record!(tb_record! {});
    nic_spec::ack_record!(tb_record! {});
    nic_spec::cc_feedback_record!(tb_record! {});
    nic_spec::nak_record!(tb_record! {});
    nic_spec::read_req_record!(tb_record! {});
    nic_spec::host_write_record!(tb_record! {});
    nic_spec::host_read_record!(tb_record! {});
    nic_spec::tx_desc_record!(tb_record! {});
    nic_spec::tx_flow_ctx_record!(tb_record! {});
    nic_spec::rx_flow_ctx_record!(tb_record! {});
    nic_spec::mr_write_record!(tb_record! {});
    nic_spec::flow_pd_record!(tb_record! {});
    nic_spec::mr_check_stats_record!(tb_record! {});
    nic_spec::rx_parse_stats_record!(tb_record! {});
    nic_spec::rx_dispatch_stats_record!(tb_record! {});
    nic_spec::tx_stats_record!(tb_record! {});
    nic_spec::work_req_record!(tb_record! {});
    nic_spec::wr_completion_record!(tb_record! {});
    nic_spec::req_flow_ctx_record!(tb_record! {});
    nic_spec::req_stats_record!(tb_record! {});
    nic_spec::cnm_info_record!(tb_record! {});
    nic_spec::cnm_stats_record!(tb_record! {});
}

mod sched {
    use nic_golden::sched as golden;
    use nic_hdl::sched::*;
    nic_spec::sched_event_record!(tb_record! {});
    nic_spec::pkt_send_record!(tb_record! {});
    nic_spec::sched_stats_record!(tb_record! {});
}

mod cc {
    use nic_golden::cc as golden;
    use nic_hdl::cc::*;
    nic_spec::cc_event_record!(tb_record! {});
    nic_spec::cc_update_record!(tb_record! {});
    nic_spec::cc_stats_record!(tb_record! {});
    nic_spec::rp_event_record!(tb_record! {});
    nic_spec::dcqcn_cfg_record!(tb_record! {});
    nic_spec::dcqcn_stats_record!(tb_record! {});
    nic_spec::ce_mark_record!(tb_record! {});
    nic_spec::cnp_req_record!(tb_record! {});
    nic_spec::np_stats_record!(tb_record! {});
}

mod nic {
    use nic_golden::nic as golden;
    use nic_hdl::nic::*;
    nic_spec::cfg_write_record!(tb_record! {});
    nic_spec::core_stats_record!(tb_record! {});
}

mod hostif {
    use nic_golden::hostif as golden;
    use nic_hdl::hostif::*;
    nic_spec::axil_in_record!(tb_record! {});
    nic_spec::axil_out_record!(tb_record! {});
    nic_spec::reg_req_record!(tb_record! {});
    nic_spec::reg_resp_record!(tb_record! {});
    nic_spec::dma_desc_record!(tb_record! {});
    nic_spec::wqe_fetch_record!(tb_record! {});
    nic_spec::wqe_beat_record!(tb_record! {});
    nic_spec::sq_commit_record!(tb_record! {});
    nic_spec::cqe_req_record!(tb_record! {});
    nic_spec::cqe_write_record!(tb_record! {});
    nic_spec::cq_event_record!(tb_record! {});
    nic_spec::host_if_stats_record!(tb_record! {});
    nic_spec::bram_dma_stats_record!(tb_record! {});
}

mod mac {
    use nic_golden::mac as golden;
    use nic_hdl::mac::*;
    nic_spec::mac_tx_stats_record!(tb_record! {});
    nic_spec::mac_rx_stats_record!(tb_record! {});
    nic_spec::mac_pause_stats_record!(tb_record! {});
    nic_spec::async_fifo_stats_record!(tb_record! {});
    nic_spec::tx_pad_stats_record!(tb_record! {});
}

mod uart {
    use nic_golden::uart as golden;
    use nic_hdl::uart::*;
    nic_spec::uart_bridge_stats_record!(tb_record! {});
}

/// A stream's forward half (`nic_golden::stream::Axis`) as a record of the
/// rust-hdl stream bundle: `tdata`, `tkeep`, `tlast`, `tuser`, `tvalid`
/// (the bundle's `tready` runs the other way and is mapped as a port).
mod stream {
    use super::{from_hdl, to_hdl, DriveRecord, Record, SampleRecord};
    use crate::value::PortValue;
    use nic_golden::stream::Axis;
    use nic_hdl::stream::{AxisSink, AxisSource, AxisTap};
    use std::fmt::Debug;

    /// A field type of [`Axis`].
    pub trait AxisField: PortValue + Default + Debug + PartialEq {}
    impl<T: PortValue + Default + Debug + PartialEq> AxisField for T {}

    impl<D: AxisField, K: AxisField, U: AxisField> Record for Axis<D, K, U> {
        fn names(prefix: &str, v: &mut Vec<String>) {
            for f in ["tdata", "tkeep", "tlast", "tuser", "tvalid"] {
                v.push(format!("{prefix}${f}"));
            }
        }
        fn push_values(&self, v: &mut Vec<u128>) {
            v.extend([
                self.tdata.to_u128(),
                self.tkeep.to_u128(),
                self.tlast.to_u128(),
                self.tuser.to_u128(),
                self.tvalid.to_u128(),
            ]);
        }
        fn from_values(v: &[u128], k: &mut usize) -> Self {
            let x = &v[*k..*k + 5];
            *k += 5;
            Axis {
                tdata: D::from_u128(x[0]),
                tkeep: K::from_u128(x[1]),
                tlast: bool::from_u128(x[2]),
                tuser: U::from_u128(x[3]),
                tvalid: bool::from_u128(x[4]),
            }
        }
    }

    /// The bundles a stream drives: a sink port and a tap (`AxisTap`, a
    /// sink without `tready`).
    macro_rules! drive_axis {
        ($($bundle:ident),*) => {$(
            impl<const DW: usize, const KW: usize, const UW: usize, D, K, U>
                DriveRecord<$bundle<DW, KW, UW>> for Axis<D, K, U>
            where
                D: AxisField,
                K: AxisField,
                U: AxisField,
            {
                #[inline]
                fn drive(&self, h: &mut $bundle<DW, KW, UW>) {
                    h.tdata.next = to_hdl(self.tdata);
                    h.tkeep.next = to_hdl(self.tkeep);
                    h.tlast.next = to_hdl(self.tlast);
                    h.tuser.next = to_hdl(self.tuser);
                    h.tvalid.next = to_hdl(self.tvalid);
                }
            }
        )*};
    }
    drive_axis!(AxisSink, AxisTap);

    impl<const DW: usize, const KW: usize, const UW: usize, D, K, U>
        SampleRecord<AxisSource<DW, KW, UW>> for Axis<D, K, U>
    where
        D: AxisField,
        K: AxisField,
        U: AxisField,
    {
        #[inline]
        fn sample(h: &AxisSource<DW, KW, UW>) -> Self {
            Axis {
                tdata: from_hdl(h.tdata.val()),
                tkeep: from_hdl(h.tkeep.val()),
                tlast: from_hdl(h.tlast.val()),
                tuser: from_hdl(h.tuser.val()),
                tvalid: from_hdl(h.tvalid.val()),
            }
        }
    }
}
