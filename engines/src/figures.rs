//! The benchmarks' figures: a flat map of named numbers, each with its
//! unit in the name, that `make bench` writes to `build/bench.json`. Its
//! own module so that every benchmark (`crate::bench`,
//! `crate::roce::bench`, `nic_netsim::bench`) imports it from one place
//! and none imports another.

use std::collections::BTreeMap;

pub type Figures = BTreeMap<String, f64>;

/// An empty set of figures, for a benchmark: from here on the process
/// builds its Verilator models for simulation speed
/// ([`crate::verilator::build_for_speed`]), as the figures of
/// `docs/figures.md` were.
pub fn figures() -> Figures {
    crate::verilator::build_for_speed();
    Figures::new()
}
