//! `hdl/src/stream/axis_fifo.rs` against `nic_golden::stream::axis_fifo`.

use super::axis_skid::{assert_in_order, stream_stim};
use crate::common::*;
use nic_golden::stream::axis_fifo::AxisFifo as Golden;
use nic_golden::stream::Axis;
use nic_golden::stream::{Beat, In};
use nic_hdl::stream::AxisFifo;
use proptest::prelude::*;

/// A small FIFO (16 beats) so random back-pressure fills it often.
type Fifo16 = AxisFifo<64, 8, 1, 74, 4>;
type Gold16 = Golden<64, 8, 1, 4>;

proptest! {
    #![proptest_config(config(128))]
    #[test]
    fn axis_fifo16_matches_golden(s in stream_stim(300)) {
        let o = both::<Fifo16, Gold16>("axis_fifo16", &s)?;
        let s1: Vec<In> = s.iter().map(|i| In { s: Axis { tuser: i.s.tuser & 1, ..i.s }, ..*i }).collect();
        assert_in_order(&s1, |t| o[t].s_tready, |t| {
            (o[t].m.tvalid && s[t].m_tready).then(|| Beat {
                tdata: o[t].m.tdata, tkeep: o[t].m.tkeep, tlast: o[t].m.tlast, tuser: o[t].m.tuser,
            })
        })?;
    }

    /// The default NIC configuration (512 beats), on Verilator, long runs.
    #[test]
    fn axis_fifo512_volume_verilator(s in stream_stim(5000)) {
        verilator::<AxisFifo<64, 8, 1, 74, 9>, Golden<64, 8, 1, 9>>("axis_fifo512", &s)?;
    }
}

/// Latency: a beat written into an empty FIFO in cycle 0 is on `m_axis`
/// from cycle 4 (RAM write, read, its output register, the skid buffer).
#[test]
fn axis_fifo_latency_is_four() {
    let s: Vec<In> = (0..8)
        .map(|t| In {
            s: Axis {
                tdata: 0xAB,
                tvalid: t == 0,
                ..Default::default()
            },
            m_tready: true,
            ..In::default()
        })
        .collect();
    let o = both::<Fifo16, Gold16>("axis_fifo_latency", &s).unwrap();
    let first = o.iter().position(|o| o.m.tvalid);
    assert_eq!(first, Some(4));
    assert_eq!(o[4].m.tdata, 0xAB);
}

/// Fill to capacity with the output stalled, then drain at full rate.
#[test]
fn axis_fifo_fill_and_drain() {
    let mut s = vec![];
    for k in 0..40u64 {
        s.push(In {
            s: Axis {
                tdata: k as u128,
                tvalid: true,
                ..Default::default()
            },
            m_tready: false,
            ..In::default()
        });
    }
    for _ in 0..40 {
        s.push(In {
            m_tready: true,
            ..In::default()
        });
    }
    let o = both::<Fifo16, Gold16>("axis_fifo_fill_drain", &s).unwrap();
    // 16 in RAM + 1 in the RAM's output register + 2 in the skid buffer.
    let accepted = (0..40).filter(|&t| o[t].s_tready).count();
    assert_eq!(accepted, 19);
    assert_eq!(o[39].level, 16);
    let drained: Vec<u128> = (40..80)
        .filter(|&t| o[t].m.tvalid)
        .map(|t| o[t].m.tdata)
        .collect();
    assert_eq!(drained, (0..19).collect::<Vec<u128>>());
    // Drained back to back: one beat per cycle.
    assert!((40..59).all(|t| o[t].m.tvalid));
}

/// Four-state simulation: no X or Z on any output, RAM words never
/// written included (the output holds what the golden model says).
#[test]
fn axis_fifo16_no_x_in_four_state_simulation() {
    let s = sample(stream_stim(400));
    four_state::<Fifo16, Gold16>("axis_fifo16", &s);
}
