#!/usr/bin/env bash
# Independent-peer checks on the emitted Verilog (part of `make test`), on
# Icarus Verilog (cocotb 2):
# - cocotbext-axi's AXI4-Stream source and sink against the flat `s_axis_*` /
#   `m_axis_*` ports of the stream tops;
# - cocotbext-eth's XGMII source and sink against `mac_10g` (XGMII pins) with
#   cocotbext-axi on its frame streams (testbench/cocotb/test_xgmii.py);
# - cocotbext-axi's AXI4-Stream source and sink across the clock-crossing
#   frame FIFOs (`axis_async_fifo_tx`/`_rx`) at unrelated clocks
#   (testbench/cocotb/test_async_fifo.py);
# - cocotbext-axi's AXI4-Lite master against the register map of `hpcc_nic`
#   (`s_axil_*`), addresses from the generated C header.
#   scripts/cocotb.sh [verilog dir]     (default build/verilog, from `make verilog`)
set -euo pipefail
vdir=${1:-build/verilog}
root=$(cd "$(dirname "$0")/.." && pwd)
for top in axis_skid64 axis_fifo64; do
  log="$root/build/cocotb/$top.log"
  mkdir -p "$(dirname "$log")"
  if TOP=$top VERILOG="$vdir/$top.v" BUILD_DIR="$root/build/cocotb/$top" \
      python3 "$root/testbench/cocotb/test_axis.py" >"$log" 2>&1; then
    tail -n 1 "$log"
  else
    tail -n 40 "$log"
    echo "cocotb: $top FAILED (log: $log)"
    exit 1
  fi
done

# The clock-crossing frame FIFOs: the core's clock (10 ns) into a MAC's
# (6.4 ns) with back-pressure, a MAC's (6.4 ns) into a slower one (9.7 ns)
# dropping whole frames.
for run in "axis_async_fifo_tx 10000 6400" "axis_async_fifo_rx 6400 9700"; do
  set -- $run
  top=$1
  log="$root/build/cocotb/$top.log"
  mkdir -p "$(dirname "$log")"
  if TOP=$top S_PS=$2 M_PS=$3 VERILOG="$vdir/$top.v" BUILD_DIR="$root/build/cocotb/$top" \
      python3 "$root/testbench/cocotb/test_async_fifo.py" >"$log" 2>&1; then
    tail -n 1 "$log"
  else
    tail -n 40 "$log"
    echo "cocotb: $top FAILED (log: $log)"
    exit 1
  fi
done

# cocotbext-eth's XGMII source and sink against the 10G MAC: every frame
# size on mac_10g, a sample of sizes and jumbo frames on mac_10g_jumbo, and
# PAUSE frames sent on request by mac_10g_pause (every top: pause received).
for run in "mac_10g 1" "mac_10g_jumbo 97" "mac_10g_pause 97"; do
  set -- $run
  top=$1
  log="$root/build/cocotb/$top.log"
  mkdir -p "$(dirname "$log")"
  if TOP=$top XGMII_STEP=$2 VERILOG="$vdir/$top.v" BUILD_DIR="$root/build/cocotb/$top" \
      python3 "$root/testbench/cocotb/test_xgmii.py" >"$log" 2>&1; then
    tail -n 1 "$log"
  else
    tail -n 40 "$log"
    echo "cocotb: $top FAILED (log: $log)"
    exit 1
  fi
done

top=hpcc_nic
log="$root/build/cocotb/$top.log"
if TOP=$top VERILOG="$vdir/$top.v" HEADER="$root/include/hpcc_nic.h" BUILD_DIR="$root/build/cocotb/$top" \
    python3 "$root/testbench/cocotb/test_axil.py" >"$log" 2>&1; then
  tail -n 1 "$log"
else
  tail -n 60 "$log"
  echo "cocotb: $top FAILED (log: $log)"
  exit 1
fi
