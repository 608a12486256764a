#!/usr/bin/env bash
# Independent-peer checks on the emitted Verilog (part of `make test`), on
# Icarus Verilog (cocotb 2):
# - cocotbext-axi's AXI4-Stream source and sink against the flat `s_axis_*` /
#   `m_axis_*` ports of the stream tops;
# - cocotbext-eth's XGMII source and sink against `mac_10g` (XGMII pins) with
#   cocotbext-axi on its frame streams (testbench/cocotb/test_xgmii.py);
# - cocotbext-eth's GMII source and sink against `mac_1g`
#   (testbench/cocotb/test_gmii.py), and the RGMII ones against
#   `mac_1g_rgmii` (testbench/cocotb/test_rgmii.py);
# - cocotbext-axi's AXI4-Stream source and sink across the clock-crossing
#   frame FIFOs (`axis_async_fifo_tx`/`_rx`) at unrelated clocks
#   (testbench/cocotb/test_async_fifo.py);
# - cocotbext-axi's AXI4-Stream source and sink on the four streams of the
#   vendor-MAC adapter (`vendor_mac_adapter`) at three unrelated clocks
#   (testbench/cocotb/test_vendor_mac.py);
# - cocotbext-axi's AXI4-Lite master against the register map of `hpcc_nic`
#   (`s_axil_*`), addresses from the generated C header;
# - cocotbext-uart's UART source and sink and cocotbext-axi's AXI4-Lite RAM
#   around the UART register bridge (`uart_axil`), requests framed by the
#   host script (boards/ecpix5/hpcc_uart.py);
# - with COCOTB_FULL=1 only, the ECPIX-5 board top (boards/ecpix5/fpga.v +
#   `ecpix5_core`, a PLL model), quick: the PLL not locking holds it in reset, then a register
#   read and bad UART requests through cocotbext-uart
#   (testbench/cocotb/test_board.py; `make board-sim` runs it whole).
#   scripts/cocotb.sh [verilog dir]     (default build/verilog, from `make verilog`)
#
# COCOTB_FULL=1 (`make test-full`): every frame size 1..1514 on the 10G
# and 1G MACs (about 30 minutes on Icarus); by default (`make test`) the
# runts, every 13th / 23rd size and 1514 (the frame sizes where a lane or
# byte position changes are all covered by the runts and the odd steps).
# COCOTB_FULL=1 also runs the UART bridge at the board's bit time and the
# register map's 200 random rounds (`make test`: 10 cycles a bit, 60).
set -euo pipefail
vdir=${1:-build/verilog}
if [ "${COCOTB_FULL:-0}" = 1 ]; then
  xgmii_step=1 gmii_step=1 rgmii_step=7 uart_clks_per_bit=50 axil_rounds=200
else
  xgmii_step=13 gmii_step=23 rgmii_step=37 uart_clks_per_bit=10 axil_rounds=60
fi
root=$(cd "$(dirname "$0")/.." && pwd)
# run TOP SCRIPT [VAR=value ...]: one cocotb test module on one emitted top,
# its log in build/cocotb/TOP.log; the last line on success, the tail and a
# failure line (exit 1) otherwise.
run() {
  local top=$1 script=$2 start
  shift 2
  local log="$root/build/cocotb/$top.log"
  mkdir -p "$(dirname "$log")"
  start=$(date +%s.%N)
  if env "$@" TOP="$top" VERILOG="$vdir/$top.v" BUILD_DIR="$root/build/cocotb/$top" \
      python3 "$root/testbench/cocotb/$script" >"$log" 2>&1; then
    printf '%s\t%s\t%s\n' "$top" "$start" "$(date +%s.%N)" >>"$times"
    tail -n 1 "$log"
  else
    tail -n 60 "$log"
    echo "cocotb: $top FAILED (log: $log)"
    exit 1
  fi
}

# The board's bring-up (hpccnic board-setup), first: after this line the
# script runs no cargo, so `make test` can compile the test binaries
# alongside it without either waiting on the other's lock.
mkdir -p "$root/build/cocotb"
# Each check's start and end (scripts/test_times.py reads them).
times="$root/build/cocotb/times.tsv"
: >"$times"
# HPCCNIC: the CLI binary to use (scripts/test.sh sets it to the test
# build's); by default `cargo run --profile quick`.
if [ -n "${HPCCNIC:-}" ]; then
  hpccnic() { "$HPCCNIC" "$@"; }
else
  hpccnic() { cargo run -q --profile quick --manifest-path "$root/Cargo.toml" -- "$@"; }
fi
hpccnic board-setup --mtu-log2 8 --out "$root/build/cocotb/board-setup.json" >/dev/null

run axis_skid64 test_axis.py
run axis_fifo64 test_axis.py

# The clock-crossing frame FIFOs: the core's clock (10 ns) into a MAC's
# (6.4 ns) with back-pressure, a MAC's (6.4 ns) into a slower one (9.7 ns)
# dropping whole frames.
run axis_async_fifo_tx test_async_fifo.py S_PS=10000 M_PS=6400
run axis_async_fifo_rx test_async_fifo.py S_PS=6400 M_PS=9700

# cocotbext-eth's XGMII source and sink against the 10G MAC: every frame
# size on mac_10g, a sample of sizes and jumbo frames on mac_10g_jumbo, and
# PAUSE frames sent on request by mac_10g_pause (every top: pause received).
run mac_10g test_xgmii.py XGMII_STEP=$xgmii_step
run mac_10g_jumbo test_xgmii.py XGMII_STEP=97
run mac_10g_pause test_xgmii.py XGMII_STEP=97
# cocotbext-eth's GMII source and sink against the 1G MAC (every frame size
# with COCOTB_FULL=1).
run mac_1g test_gmii.py GMII_STEP=$gmii_step
# cocotbext-eth's RGMII source and sink through the RGMII adapter (a sample
# of sizes; the DDR primitives as behavioural models).
run mac_1g_rgmii test_rgmii.py RGMII_STEP=$rgmii_step

# cocotbext-axi on the vendor-MAC adapter: padding, no underflow toward the
# vendor MAC, whole-frame drops on receive (core 6.4 ns, MAC 6.206 / 6.212 ns).
run vendor_mac_adapter test_vendor_mac.py

# 60 rounds of random SCRATCH accesses (every strobe kind), 200 with
# COCOTB_FULL=1: Icarus runs the whole NIC at about 15 cycles a second.
run hpcc_nic test_axil.py HEADER="$root/include/hpcc_nic.h" AXIL_ROUNDS=$axil_rounds

# cocotbext-uart and cocotbext-axi's AxiLiteRam around the UART register
# bridge; the host script frames the requests. 10 cycles a bit (5 Mbaud at
# 50 MHz); with COCOTB_FULL=1 the board's 50 (1 Mbaud).
run uart_axil test_uart_axil.py UART_CLKS_PER_BIT=$uart_clks_per_bit

# cocotbext-axi's AxiLiteMaster and two AxiLiteRams around the board's
# address split (registers below HOST_MEM_BASE, host memory above).
run axil_split test_axil_split.py

# The ECPIX-5 board top, quick (a full run: `make board-sim`); its bring-up
# JSON was written at the start. `make test-full` only (COCOTB_FULL=1):
# `make test` does not emit ecpix5_core (TEST_SKIP in scripts/test.sh).
if [ "${COCOTB_FULL:-0}" = 1 ]; then
  run ecpix5_core test_board.py BOARD_QUICK=1 BOARD_SETUP="$root/build/cocotb/board-setup.json" \
    HEADER="$root/include/hpcc_nic.h"
fi
