//! Shared test helpers.
#![allow(dead_code)]

use nic_golden::Cycle;
use nic_testbench::{check, EngineKind, Harness};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

/// Run `stimulus` through the golden model and the RTL on both engines,
/// comparing every port every cycle. Returns the outputs (equal on both).
pub fn both<H, G>(test: &str, stimulus: &[H::In]) -> Result<Vec<H::Out>, TestCaseError>
where
    H: Harness + Default + 'static,
    G: Cycle<In = H::In, Out = H::Out> + Default,
{
    let mut outs = None;
    for kind in EngineKind::ALL {
        let o = check::<H, G>(test, kind, G::default(), stimulus)
            .map_err(|m| TestCaseError::fail(m.to_string()))?;
        outs = Some(o);
    }
    Ok(outs.unwrap())
}

/// Verilator only (for volume runs the rust-hdl simulator is too slow for).
pub fn verilator<H, G>(test: &str, stimulus: &[H::In]) -> Result<Vec<H::Out>, TestCaseError>
where
    H: Harness + Default + 'static,
    G: Cycle<In = H::In, Out = H::Out> + Default,
{
    check::<H, G>(test, EngineKind::Verilator, G::default(), stimulus)
        .map_err(|m| TestCaseError::fail(m.to_string()))
}

/// An N-bit operand biased toward the edges of the domain: 0, 1, the
/// maximum, powers of two and their neighbours, else uniform.
pub fn operand(n: usize) -> BoxedStrategy<u64> {
    let max = if n >= 64 { u64::MAX } else { (1u64 << n) - 1 };
    prop_oneof![
        3 => 0..=max,
        1 => Just(0u64),
        1 => Just(1u64),
        1 => Just(max),
        1 => Just(max - 1),
        2 => (0..n as u32).prop_map(|k| 1u64 << k),
        2 => (1..n as u32).prop_map(move |k| ((1u64 << k) - 1) & max),
        2 => (0..n as u32).prop_flat_map(move |k| 0..=((1u64 << k) - 1) & max),
    ]
    .boxed()
}

/// Valid with probability `p` in percent.
pub fn chance(p: u32) -> impl Strategy<Value = bool> {
    (0u32..100).prop_map(move |x| x < p)
}

pub fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases: std::env::var("NIC_PROPTEST_CASES")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(cases),
        max_shrink_iters: 200,
        rng_seed: rng_seed(),
        ..ProptestConfig::default()
    }
}

/// The default proptest seed: `make test` (and CI) draws the same cases on
/// every run, so a run is reproducible and a red CI is never luck.
pub const DEFAULT_SEED: u64 = 0x4850_4343_2b2b;

/// `NIC_PROPTEST_SEED`: a number, or `random` for a fresh seed per run
/// (`make test-long` uses `random`); unset: [`DEFAULT_SEED`].
fn rng_seed() -> proptest::test_runner::RngSeed {
    use proptest::test_runner::RngSeed;
    match std::env::var("NIC_PROPTEST_SEED")
        .ok()
        .as_deref()
        .map(str::trim)
    {
        Some("random") => RngSeed::Random,
        Some(v) => v
            .parse()
            .map(RngSeed::Fixed)
            .unwrap_or(RngSeed::Fixed(DEFAULT_SEED)),
        None => RngSeed::Fixed(DEFAULT_SEED),
    }
}

/// Four-state simulation (Icarus Verilog) of the emitted Verilog: no
/// output port is X or Z on any cycle, and every value equals the golden
/// model's.
pub fn four_state<H, G>(test: &str, stimulus: &[H::In])
where
    H: Harness + Default,
    G: Cycle<In = H::In, Out = H::Out> + Default,
{
    let got = nic_testbench::iverilog::run::<H>(test, stimulus).expect("iverilog run");
    assert_eq!(got.len(), stimulus.len(), "{test}: cycles");
    let mut g = G::default();
    for (c, (i, o)) in stimulus.iter().zip(got.iter()).enumerate() {
        let vals: Vec<u128> = o
            .iter()
            .enumerate()
            .map(|(k, v)| {
                v.unwrap_or_else(|| {
                    panic!("{test}: cycle {c}: output {} is X/Z", H::output_names()[k])
                })
            })
            .collect();
        assert_eq!(H::out_from_values(&vals), g.step(i), "{test}: cycle {c}");
    }
}

/// One sample of a strategy, deterministically.
pub fn sample<S: Strategy>(s: S) -> S::Value {
    use proptest::strategy::ValueTree;
    s.new_tree(&mut proptest::test_runner::TestRunner::deterministic())
        .unwrap()
        .current()
}

/// A telemetry area of random words (`present` at random too).
pub fn random_telemetry<R: rand::Rng>(rng: &mut R) -> nic_golden::roce::Telemetry {
    nic_golden::roce::Telemetry {
        present: rng.gen(),
        hdr: rng.gen(),
        hop0: rng.gen(),
        hop1: rng.gen(),
        hop2: rng.gen(),
        hop3: rng.gen(),
        hop4: rng.gen(),
    }
}

/// A Tx descriptor of random fields, its flow below `flows` (ids past a
/// block's 2^A included when `flows` is larger).
pub fn random_tx_desc<R: rand::Rng>(rng: &mut R, flows: u32) -> nic_golden::roce::TxDesc {
    nic_golden::roce::TxDesc {
        flow: rng.gen_range(0..flows),
        opcode: rng.gen(),
        psn: rng.gen_range(0..1 << 24),
        ackreq: rng.gen(),
        len: rng.gen_range(0..1 << 13),
        addr: rng.gen(),
        va: rng.gen(),
        rkey: rng.gen(),
        dlen: rng.gen(),
        aeth: rng.gen(),
        tlm: random_telemetry(rng),
    }
}
