#!/usr/bin/env bash
# Lint every emitted Verilog file: verilator --lint-only, then yosys
# `hierarchy -check; proc; check -assert`, and no latch after `proc` (a
# combinational block that misses an assignment on some path). Fails on any
# error. Two files at a time (LINT_JOBS), the NIC first; a line per file.
# LINT_SKIP: top names to leave out (`make test` leaves out the big variant
# tops; `make lint` lints every one). Last, the book's check
# (scripts/doc_check.py), which needs no Verilog.
set -euo pipefail
dir=${1:-build/verilog}
skip=" ${LINT_SKIP:-} "
# The NIC first (`make` leads with it).
files=()
[ -f "$dir/hpcc_nic.v" ] && files+=("$dir/hpcc_nic.v")
for f in "$dir"/*.v; do
  [ "$f" = "$dir/hpcc_nic.v" ] && continue
  case "$skip" in *" $(basename "$f" .v) "*) continue ;; esac
  files+=("$f")
done
lint_one() {
  local f=$1 name out start
  name=$(basename "$f" .v)
  start=$(date +%s.%N)
  if ! out=$(verilator --lint-only -Wno-fatal -Wno-lint -Wno-style --top-module "$name" "$f" 2>&1); then
    echo "lint: verilator FAILED on $name"; echo "$out" | grep -E '^%Error' | head -20; return 1
  fi
  # hpcc_nic's yosys check runs in the timing rules' check below, which
  # reads and processes the same design (a minute of a core saved).
  if [ "$name" != hpcc_nic ] &&
    ! out=$(yosys -q -p "read_verilog $f; hierarchy -check -top $name; proc; check -assert; select -assert-none t:\$dlatch t:\$adlatch t:\$dlatchsr" 2>&1); then
    echo "lint: yosys FAILED on $name"; echo "$out" | tail -20; return 1
  fi
  local what="verilator --lint-only, yosys check -assert, no latch"
  [ "$name" = hpcc_nic ] && what="verilator --lint-only; yosys: with the timing rules' check"
  awk -v n="$name" -v w="$what" -v a="$start" -v b="$(date +%s.%N)" \
    'BEGIN { printf "lint: %s clean (%s) %.1f s\n", n, w, b - a }'
}
export -f lint_one
# xargs exits non-zero if any file failed; every file is still linted.
printf '%s\n' "${files[@]}" | xargs -P "${LINT_JOBS:-2}" -I{} bash -c 'lint_one "$1"' _ {}
# The timing rules' structural check (R1, R2; issue 51): no block of the
# NIC has a combinational path from an input port to an output port,
# except those on scripts/comb_paths.allow; its self-test first (a
# deliberately combinational block must fail).
if [ -f "$dir/hpcc_nic.v" ]; then
  python3 "$(dirname "$0")/comb_paths.py" --self-test
  start=$(date +%s.%N)
  python3 "$(dirname "$0")/comb_paths.py" --lint-top hpcc_nic "$dir/hpcc_nic.v"
  awk -v a="$start" -v b="$(date +%s.%N)" \
    'BEGIN { printf "lint: hpcc_nic-yosys clean (yosys check -assert, no latch; the timing rules) %.1f s\n", b - a }'
fi
# The ECP5 flow's block-RAM output-register packing (R3,
# boards/ecp5-85f/bram_outreg.py): its self-test (what it must pack and
# what it must refuse, and a synth_ecp5 netlist).
python3 "$(dirname "$0")/../boards/ecp5-85f/bram_outreg.py" --self-test
# The same for the DSPs' input and output registers (dsp_regs.py).
python3 "$(dirname "$0")/../boards/ecp5-85f/dsp_regs.py" --self-test
# The book's check (issue 53): every relative link of README.md and
# docs/*.md resolves (files and heading anchors), README.md stays at most
# 300 lines, and every figure table names the command that makes it; its
# self-test first (a broken link and a table without a command must fail).
python3 "$(dirname "$0")/doc_check.py" --self-test
python3 "$(dirname "$0")/doc_check.py"
# The widening-cast width trap (docs/architecture.md §6): no
# `bit_cast` to a wider type of a computed value, its self-test first.
python3 "$(dirname "$0")/cast_widths.py" --self-test
python3 "$(dirname "$0")/cast_widths.py" "$(dirname "$0")/../hdl/src"
# No circle of imports between the files of a crate (issue 53), its
# self-test first.
python3 "$(dirname "$0")/import_cycles.py" --self-test
python3 "$(dirname "$0")/import_cycles.py"
# The generated figure tables (`make figures`) are what their commands give
# now: with the CLI of the run (HPCCNIC, set by scripts/test.sh; `make lint`
# builds the release one).
if [ -n "${HPCCNIC:-}" ] && [ -x "$HPCCNIC" ]; then
  python3 "$(dirname "$0")/figures.py" --cli "$HPCCNIC" --self-test
  python3 "$(dirname "$0")/figures.py" --cli "$HPCCNIC" --check
fi
