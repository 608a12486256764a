//! `hdl/src/record.rs`'s generated register slices (`<Record>::Slice`)
//! and input stages (`<Record>::Stage`) against their twins,
//! `nic_golden::record::{Slice, Stage}`, on both engines, and against
//! their contract on their own: the records that leave are the records
//! that entered, in order, none lost or repeated; a slice whose consumer
//! is always ready takes a record every cycle, a stage one every two.
//!
//! Two records: `AckInfo<4>` (a generic width and a nested record, the
//! telemetry) and `SchedEvent` (scalar fields only).

use crate::common::*;
use nic_golden::record::{SliceIn, SliceOut};
use nic_golden::roce::{AckInfo, Telemetry};
use nic_golden::sched::SchedEvent;
use proptest::prelude::*;
use rand::{rngs::StdRng, Rng, SeedableRng};

type AckSlice = nic_hdl::roce::AckInfo::Slice<4>;
type EventSlice = nic_hdl::sched::SchedEvent::Slice;
type Golden<T> = nic_golden::record::Slice<T>;
type AckStage = nic_hdl::roce::AckInfo::Stage<4>;
type EventStage = nic_hdl::sched::SchedEvent::Stage;
type GoldenStage<T> = nic_golden::record::Stage<T>;

fn ack(rng: &mut StdRng) -> AckInfo {
    AckInfo {
        flow: rng.gen_range(0..16),
        psn: rng.gen_range(0..1 << 24),
        aeth: rng.gen(),
        tlm: Telemetry {
            present: rng.gen(),
            hdr: rng.gen(),
            hop0: rng.gen(),
            hop1: rng.gen(),
            hop2: rng.gen(),
            hop3: rng.gen(),
            hop4: rng.gen(),
        },
    }
}

fn event(rng: &mut StdRng) -> SchedEvent {
    SchedEvent {
        op: rng.gen_range(0..8),
        flow: rng.gen_range(0..1 << 16),
        a: rng.gen(),
        b: rng.gen(),
    }
}

/// `n` cycles: a record offered with probability `pv`, the consumer ready
/// with probability `pr` (each per run, so runs range from idle to
/// saturated on each side).
fn stimulus<T: Copy>(seed: u64, n: usize, gen: impl Fn(&mut StdRng) -> T) -> Vec<SliceIn<T>> {
    let mut rng = StdRng::seed_from_u64(seed);
    let (pv, pr) = (rng.gen_range(0.05..=1.0), rng.gen_range(0.05..=1.0));
    (0..n)
        .map(|_| SliceIn {
            s_valid: rng.gen_bool(pv),
            s: gen(&mut rng),
            m_ready: rng.gen_bool(pr),
        })
        .collect()
}

/// The records taken on `s` are the records delivered on `m`, in order;
/// at most `inside` are inside the slice (2) or stage (1) at the end.
fn assert_in_order<T: Copy + PartialEq + std::fmt::Debug>(
    s: &[SliceIn<T>],
    o: &[SliceOut<T>],
    inside: usize,
) -> Result<(), TestCaseError> {
    let sent: Vec<T> = (0..s.len())
        .filter(|&t| s[t].s_valid && o[t].s_ready)
        .map(|t| s[t].s)
        .collect();
    let got: Vec<T> = (0..s.len())
        .filter(|&t| o[t].m_valid && s[t].m_ready)
        .map(|t| o[t].m)
        .collect();
    prop_assert!(got.len() <= sent.len() && sent.len() <= got.len() + inside);
    prop_assert_eq!(&sent[..got.len()], &got[..]);
    Ok(())
}

proptest! {
    #![proptest_config(config(48))]
    #[test]
    fn ack_info_slice_matches_golden(seed in any::<u64>(), n in 2usize..200) {
        let s = stimulus(seed, n, ack);
        let o = both::<AckSlice, Golden<AckInfo>>("ack_info_slice", &s)?;
        assert_in_order(&s, &o, 2)?;
    }

    #[test]
    fn sched_event_slice_matches_golden(seed in any::<u64>(), n in 2usize..200) {
        let s = stimulus(seed, n, event);
        let o = both::<EventSlice, Golden<SchedEvent>>("sched_event_slice", &s)?;
        assert_in_order(&s, &o, 2)?;
    }

    #[test]
    fn ack_info_stage_matches_golden(seed in any::<u64>(), n in 2usize..200) {
        let s = stimulus(seed, n, ack);
        let o = both::<AckStage, GoldenStage<AckInfo>>("ack_info_stage", &s)?;
        assert_in_order(&s, &o, 1)?;
    }

    #[test]
    fn sched_event_stage_matches_golden(seed in any::<u64>(), n in 2usize..200) {
        let s = stimulus(seed, n, event);
        let o = both::<EventStage, GoldenStage<SchedEvent>>("sched_event_stage", &s)?;
        assert_in_order(&s, &o, 1)?;
    }
}

/// A record every cycle into a consumer that is always ready: every one is
/// taken (`s.ready` stays high) and leaves one cycle later.
#[test]
fn a_slice_takes_a_record_every_cycle() {
    let mut rng = StdRng::seed_from_u64(7);
    let s: Vec<SliceIn<SchedEvent>> = (0..64)
        .map(|_| SliceIn {
            s_valid: true,
            s: event(&mut rng),
            m_ready: true,
        })
        .collect();
    let o = both::<EventSlice, Golden<SchedEvent>>("sched_event_slice_full", &s).unwrap();
    for t in 1..s.len() {
        assert!(o[t].s_ready, "cycle {t}: the slice refused a record");
        assert!(
            o[t].m_valid && o[t].m == s[t - 1].s,
            "cycle {t}: not the record of cycle {}",
            t - 1
        );
    }
}

/// A consumer that stalls: the slice takes two records (main and skid),
/// then refuses, and hands both over in order once the consumer is ready.
#[test]
fn a_stalled_slice_holds_two_records_then_refuses() {
    let mut rng = StdRng::seed_from_u64(11);
    let recs: Vec<SchedEvent> = (0..4).map(|_| event(&mut rng)).collect();
    let mut s: Vec<SliceIn<SchedEvent>> = recs
        .iter()
        .map(|&r| SliceIn {
            s_valid: true,
            s: r,
            m_ready: false,
        })
        .collect();
    s.extend((0..4).map(|_| SliceIn {
        s_valid: false,
        s: SchedEvent::default(),
        m_ready: true,
    }));
    let o = both::<EventSlice, Golden<SchedEvent>>("sched_event_slice_stall", &s).unwrap();
    let taken: Vec<bool> = (0..4).map(|t| o[t].s_ready).collect();
    assert_eq!(taken, [true, true, false, false]);
    let got: Vec<SchedEvent> = (0..s.len())
        .filter(|&t| o[t].m_valid && s[t].m_ready)
        .map(|t| o[t].m)
        .collect();
    assert_eq!(got, recs[..2]);
}

/// A record every cycle into a consumer that is always ready: the stage
/// takes one every two cycles (`s.ready` alternates, a register), and
/// each leaves the cycle after it entered.
#[test]
fn a_stage_takes_a_record_every_two_cycles() {
    let mut rng = StdRng::seed_from_u64(5);
    let s: Vec<SliceIn<SchedEvent>> = (0..64)
        .map(|_| SliceIn {
            s_valid: true,
            s: event(&mut rng),
            m_ready: true,
        })
        .collect();
    let o = both::<EventStage, GoldenStage<SchedEvent>>("sched_event_stage_full", &s).unwrap();
    for t in 1..s.len() {
        assert_eq!(o[t].s_ready, t % 2 == 0, "cycle {t}: s.ready");
        assert_eq!(o[t].m_valid, t % 2 == 1, "cycle {t}: m.valid");
        if o[t].m_valid {
            assert_eq!(
                o[t].m,
                s[t - 1].s,
                "cycle {t}: not the record of cycle {}",
                t - 1
            );
        }
    }
}
