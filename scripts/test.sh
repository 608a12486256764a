#!/usr/bin/env bash
# `make test` and `make test-full`: every check, in phases, timed; the
# time profile (scripts/test_times.py) at the end, pass or fail.
#
#   scripts/test.sh [test|full]
#
# Phases (each line of $BUILD/<run>-phases.tsv, run = test or test-full:
# name, start, end, exit code; the profile in $BUILD/<run>-times.json):
# - installs: scripts/deps.sh sim (apt-get, pip, cargo-nextest if missing),
#   in the background while the compile runs (the compile needs none of it);
# - compile: every test binary and the CLI in one cargo invocation, cargo
#   profile `quick` (Cargo.toml);
# - emit: the Verilog of every top (`make test` leaves out TEST_SKIP, the
#   big variants; `full` emits all);
# - cocotb (scripts/cocotb.sh, Icarus, one core) and lint (scripts/lint.sh),
#   in the background while the tests run;
# - tests: cargo nextest, every test in its own process on both cores, the
#   slowest first (.config/nextest.toml); `full` adds the ignored long runs.
# Logs of the background phases: $BUILD/logs/<phase>.log, printed at the end.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
mode=${1:-test}
BUILD=${BUILD:-build}
VDIR=${VDIR:-$BUILD/verilog}
PROFILE=${CARGO_PROFILE:-quick}
target=${CARGO_TARGET_DIR:-$root/target}
export HPCCNIC="$target/$PROFILE/hpccnic"
# make test: the big variant tops are neither emitted nor linted (each is a
# larger or differently wired instance of tops that are: hpcc_nic,
# hpcc_cc, dcqcn_rp); nor is the ECPIX-5 board core, ecpix5_core (hpcc_nic
# with the UART bridge, the address split and the RGMII MAC, each linted
# and checked by cocotb on its own; its lint and cocotb run took 8.7
# minutes of one core, a third of make test's wall time); make test-full
# does them all.
TEST_SKIP=${TEST_SKIP-hpcc_nic_core hpcc_nic_10g alveo_core hpcc_cc_4096 hpcc_cc_h2 dcqcn_rp_4096 ecpix5_core}
# The tests that are not run by either: the benchmarks (`make bench`) and
# the known gap hop_max_exact_tie_tracks_f64 (docs/status.md). Each is
# matched by its last path segment (a test's name is its module path).
NOT_RUN='test(/(^|::)bench_dcqcn_figures$/) | test(/(^|::)bench_sched_alone$/) | test(/(^|::)bench_requester_alone$/) | test(/(^|::)bench_roce_alone$/) | test(/(^|::)nic_figures$/) | test(/(^|::)core_figures$/) | test(/(^|::)dcqcn_closed_loop_figures$/) | test(/(^|::)hop_max_exact_tie_tracks_f64$/)'

mkdir -p "$BUILD/logs"
. scripts/phases.sh
run=$( [ "$mode" = full ] && echo test-full || echo test )
phases_start "$BUILD/$run-phases.tsv"
failed=()
finish() {
  phases_profile "$BUILD/$run-times.json" --junit "$target/nextest/default/junit.xml" \
    --cocotb "$BUILD/cocotb/times.tsv" --lint "$BUILD/logs/lint.log"
  if [ ${#failed[@]} -gt 0 ]; then
    echo "make $run: FAILED: ${failed[*]}"
    exit 1
  fi
  echo "make $run: every check passed"
}

phase installs scripts/deps.sh sim >"$BUILD/logs/installs.log" 2>&1 &
installs=$!

phase compile cargo test --workspace --profile "$PROFILE" --no-run || failed+=(compile)

wait $installs || failed+=(installs)
cat "$BUILD/logs/installs.log"
[ ${#failed[@]} -gt 0 ] && finish

skip=()
if [ "$mode" != full ]; then
  for t in $TEST_SKIP; do skip+=(--skip "$t"); done
fi
phase emit "$HPCCNIC" verilog --out-dir "$VDIR" "${skip[@]}" >"$BUILD/logs/emit.log" 2>&1 ||
  { cat "$BUILD/logs/emit.log"; failed+=(emit); finish; }

cocotb_full=0
lint_skip=$TEST_SKIP
if [ "$mode" = full ]; then cocotb_full=1 lint_skip=""; fi
phase cocotb env COCOTB_FULL=$cocotb_full scripts/cocotb.sh "$VDIR" >"$BUILD/logs/cocotb.log" 2>&1 &
cocotb=$!
phase lint env LINT_SKIP="$lint_skip" scripts/lint.sh "$VDIR" >"$BUILD/logs/lint.log" 2>&1 &
lint=$!

if [ "$mode" = full ]; then
  ignored=(--run-ignored all -E "not ($NOT_RUN)")
else
  ignored=()
fi
phase tests cargo nextest run --workspace --cargo-profile "$PROFILE" --no-fail-fast "${ignored[@]}" ||
  failed+=(tests)

wait $lint || failed+=(lint)
echo "---- lint ($BUILD/logs/lint.log)"
cat "$BUILD/logs/lint.log"
wait $cocotb || failed+=(cocotb)
echo "---- cocotb ($BUILD/logs/cocotb.log)"
cat "$BUILD/logs/cocotb.log"
finish
