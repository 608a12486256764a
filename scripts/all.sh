#!/usr/bin/env bash
# `make`: the Verilog of every top, linted, and the NIC's synthesis figures,
# in timed phases (a profile at the end, also in $BUILD/make-times.json):
# - installs: scripts/deps.sh synth, in the background while the CLI
#   compiles (cargo profile `quick`);
# - emit: every top into $VDIR;
# - lint (scripts/lint.sh, one job) and the NIC's synthesis (yosys
#   synth_ecp5 of hpcc_nic, boards/ecp5-85f/synth.py --synth-only: about 15
#   minutes) side by side on the two cores.
# It ends with the NIC's cells after synthesis. Place and route of the NIC
# (its Fmax) takes over an hour: `make synth`.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
BUILD=${BUILD:-build}
VDIR=${VDIR:-$BUILD/verilog}
CORE=${CORE:-hpcc_nic}
PROFILE=${CARGO_PROFILE:-quick}
target=${CARGO_TARGET_DIR:-$root/target}
hpccnic="$target/$PROFILE/hpccnic"
mkdir -p "$BUILD/logs" "$BUILD/synth"
. scripts/phases.sh
phases_start "$BUILD/make-phases.tsv"
failed=()
finish() {
  phases_profile "$BUILD/make-times.json" --lint "$BUILD/logs/lint.log"
  if [ ${#failed[@]} -gt 0 ]; then
    echo "make: FAILED: ${failed[*]}"
    exit 1
  fi
}

phase installs scripts/deps.sh synth >"$BUILD/logs/installs.log" 2>&1 &
installs=$!
phase compile cargo build --profile "$PROFILE" -p nic-cli || failed+=(compile)
wait $installs || failed+=(installs)
cat "$BUILD/logs/installs.log"
[ ${#failed[@]} -gt 0 ] && finish

phase emit "$hpccnic" verilog --out-dir "$VDIR" || { failed+=(emit); finish; }

line="$BUILD/synth/$CORE.yosys.line"
phase synthesis python3 boards/ecp5-85f/synth.py --verilog "$VDIR/$CORE.v" --name "$CORE" \
  --top "$CORE" --synth-only --json-summary "$BUILD/synth/yosys-summary.json" --merge \
  >"$line" 2>&1 &
synthesis=$!
phase lint env LINT_JOBS=1 scripts/lint.sh "$VDIR" 2>&1 | tee "$BUILD/logs/lint.log"
[ "${PIPESTATUS[0]}" -eq 0 ] || failed+=(lint)
wait $synthesis || failed+=(synthesis)
echo "---- the NIC, $CORE (ECP5-85F, yosys synth_ecp5; place and route and Fmax: make synth)"
cat "$line"
finish
