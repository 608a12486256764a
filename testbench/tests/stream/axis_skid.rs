//! `hdl/src/stream/axis_skid.rs` against `nic_golden::stream::axis_skid`.

use crate::common::*;
use nic_golden::stream::axis_skid::AxisSkid as Golden;
use nic_golden::stream::Axis;
use nic_golden::stream::{Beat, In};
use nic_hdl::stream::AxisSkid;
use proptest::prelude::*;

/// Random beats; `tvalid` and `tready` each asserted with their own
/// probability per run, so runs range from idle to saturated on each side.
pub fn stream_stim(len: usize) -> impl Strategy<Value = Vec<In>> {
    (5u32..=100, 5u32..=100).prop_flat_map(move |(pv, pr)| {
        prop::collection::vec(
            (
                any::<u64>(),
                any::<u8>(),
                any::<bool>(),
                any::<bool>(),
                chance(pv),
                chance(pr),
            )
                .prop_map(|(d, k, l, u, v, r)| In {
                    s: Axis {
                        tdata: d as u128,
                        tkeep: k as u16,
                        tlast: l,
                        tuser: u as u32,
                        tvalid: v,
                    },
                    m_tready: r,
                }),
            1..len,
        )
    })
}

/// The stream property, independent of any golden model: the beats that
/// leave are the beats that entered, in order, none lost or duplicated.
pub fn assert_in_order(
    s: &[In],
    accepted: impl Fn(usize) -> bool,
    out: impl Fn(usize) -> Option<Beat>,
) -> Result<(), TestCaseError> {
    let sent: Vec<Beat> = (0..s.len())
        .filter(|&t| s[t].s.tvalid && accepted(t))
        .map(|t| s[t].beat())
        .collect();
    let got: Vec<Beat> = (0..s.len()).filter_map(out).collect();
    prop_assert!(got.len() <= sent.len());
    prop_assert_eq!(&sent[..got.len()], &got[..]);
    Ok(())
}

proptest! {
    #![proptest_config(config(256))]
    #[test]
    fn axis_skid64_matches_golden(s in stream_stim(200)) {
        let o = both::<AxisSkid<64, 8, 1>, Golden<64, 8, 1>>("axis_skid64", &s)?;
        let s1: Vec<In> = s.iter().map(|i| In { s: Axis { tuser: i.s.tuser & 1, ..i.s }, ..*i }).collect();
        assert_in_order(&s1, |t| o[t].s_tready, |t| {
            (o[t].m.tvalid && s[t].m_tready).then(|| Beat {
                tdata: o[t].m.tdata, tkeep: o[t].m.tkeep, tlast: o[t].m.tlast, tuser: o[t].m.tuser,
            })
        })?;
    }

    /// A narrow configuration with a wide tuser.
    #[test]
    fn axis_skid16_matches_golden(s in stream_stim(120)) {
        both::<AxisSkid<16, 2, 7>, Golden<16, 2, 7>>("axis_skid16", &s)?;
    }
}

/// Full throughput: with tvalid and tready held high, a beat moves every
/// cycle after the first.
#[test]
fn axis_skid_full_throughput() {
    let s: Vec<In> = (0..100u64)
        .map(|k| In {
            s: Axis {
                tdata: k as u128,
                tvalid: true,
                ..Default::default()
            },
            m_tready: true,
            ..In::default()
        })
        .collect();
    let o = both::<AxisSkid<64, 8, 1>, Golden<64, 8, 1>>("axis_skid_throughput", &s).unwrap();
    for (t, out) in o.iter().enumerate().skip(1) {
        assert!(out.m.tvalid && out.s_tready);
        assert_eq!(out.m.tdata, (t - 1) as u128);
    }
}
