//! Twin of `hdl/src/hostif/stats_sel.rs`: counter `sel` of a counter
//! record (the record's field order, `nic_spec::records`).

use crate::Cycle;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In<R> {
    pub stats: R,
    pub sel: u8,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub data: u32,
    pub hit: bool,
}

/// Counter `sel` of a record's values (`field_values()`): (value, hit).
pub fn select(values: &[u64], sel: u8) -> (u32, bool) {
    match values.get(sel as usize) {
        Some(&v) => (v as u32, true),
        None => (0, false),
    }
}

/// The selector of record `R` (combinational).
#[derive(Clone, Debug, Default)]
pub struct StatsSel<R>(std::marker::PhantomData<R>);

/// A counter record: its values in field order.
pub trait Counters {
    fn values(&self) -> Vec<u64>;
}

macro_rules! counters {
    ($($r:ty),*) => {$(
        impl Counters for $r {
            fn values(&self) -> Vec<u64> {
                self.field_values()
            }
        }
    )*};
}
counters!(
    crate::roce::RxParseStats,
    crate::roce::RxDispatchStats,
    crate::roce::TxStats,
    crate::sched::SchedStats,
    crate::cc::CcStats,
    crate::roce::ReqStats,
    crate::nic::CoreStats,
    crate::hostif::HostIfStats,
    crate::cc::DcqcnStats,
    crate::cc::NpStats,
    crate::roce::CnmStats
);

impl<R: Counters> Cycle for StatsSel<R> {
    type In = In<R>;
    type Out = Out;
    fn step(&mut self, i: &In<R>) -> Out {
        let (data, hit) = select(&i.stats.values(), i.sel);
        Out { data, hit }
    }
}
