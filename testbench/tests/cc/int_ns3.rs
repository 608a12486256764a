//! `hdl/src/cc/int_ns3.rs` against `nic_golden::cc::int_ns3`.

use crate::common::*;
use nic_golden::cc::int_ns3::{In, Ns3HopParse as Golden};
use nic_testbench::blocks::Ns3HopParseTb;
use proptest::prelude::*;

proptest! {
    #![proptest_config(config(64))]
    #[test]
    fn ns3_hop_parse_matches_golden(words in prop::collection::vec(operand(64), 1..64)) {
        let s: Vec<In> = words.into_iter().map(|word| In { word }).collect();
        both::<Ns3HopParseTb, Golden>("ns3_hop_parse", &s)?;
    }
}
