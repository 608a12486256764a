//! `hdl/src/hostif/stats_sel.rs` (one selector per counter record,
//! generated from its field list) against `nic_golden::hostif::stats_sel`:
//! random counters, every index and past the last, both engines; and
//! the page layout is the record's field order.

use crate::common::*;
use nic_golden::hostif::stats_sel::{In, StatsSel};
use nic_golden::roce::TxStats;
use nic_testbench::hostif::*;
use nic_testbench::record::Record;
use proptest::prelude::*;
use rand::{rngs::StdRng, Rng, SeedableRng};

fn stimulus<R: Default>(seed: u64, fill: impl Fn(&mut StdRng) -> R) -> Vec<In<R>> {
    let mut rng = StdRng::seed_from_u64(seed);
    (0..80)
        .map(|k| In {
            stats: fill(&mut rng),
            sel: if k < 70 { k as u8 } else { rng.gen() },
        })
        .collect()
}

macro_rules! sel_test {
    ($($name:ident: $tb:ty, $rec:ty;)*) => {
        proptest! {
            #![proptest_config(config(2))]
            $(
                #[test]
                fn $name(seed in any::<u64>()) {
                    let s = stimulus(seed, |rng| {
                        // Every field a random value, in field order.
                        let v: Vec<u128> = (0..<$rec>::FIELD_NAMES.len())
                            .map(|_| rng.gen::<u32>() as u128)
                            .collect();
                        <$rec as Record>::from_values(&v, &mut 0)
                    });
                    let out = both::<$tb, StatsSel<$rec>>(stringify!($name), &s)?;
                    let n = <$rec>::FIELD_NAMES.len();
                    for (i, o) in s.iter().zip(&out) {
                        prop_assert_eq!(o.hit, (i.sel as usize) < n);
                        if o.hit {
                            prop_assert_eq!(o.data as u64, i.stats.field_values()[i.sel as usize]);
                        }
                    }
                }
            )*
        }
    };
}

// Two of the eight generated selectors on their own (the smallest and
// the largest record); all eight run inside the register decoder, whose
// test reads every page on both engines.
sel_test! {
    tx_stats_sel: TxStatsSelTb, nic_golden::roce::TxStats;
    host_if_stats_sel: HostIfStatsSelTb, nic_golden::hostif::HostIfStats;
}

/// The page's counter k is field k of the record (`nic_spec::records`).
#[test]
fn counter_addresses_follow_the_field_order() {
    let r = TxStats {
        frames: 7,
        bad_req: 9,
        aborted: 1,
    };
    assert_eq!(r.field_values(), vec![7, 9, 1]);
    assert_eq!(
        nic_spec::hostif::stats_addr("TxStats", 1),
        Some(nic_spec::hostif::map::STATS + 2 * 0x100 + 4)
    );
}
