#!/usr/bin/env bash
# The ECPIX-5 board co-simulation (`make board-sim`, docs/board.md §6):
# 1. `hpccnic board-setup` writes the bring-up (the Rust driver model's
#    register accesses) for the loopback pair, MTU 256;
# 2. testbench/cocotb/test_board.py runs fpga.v + the emitted board core
#    on Icarus with cocotbext-uart on the UART and cocotbext-eth's RGMII
#    sink and source looping the PHY pins; it writes the frames that
#    crossed the wire to wire.pcap;
# 3. `hpccnic rx-replay --engine golden` feeds those frames to the golden
#    model's receive path: every one must be accepted.
#   scripts/board_sim.sh [verilog dir]     (default build/verilog)
set -euo pipefail
vdir=${1:-build/verilog}
root=$(cd "$(dirname "$0")/.." && pwd)
out="$root/build/cocotb/ecpix5_core"
mkdir -p "$out"
cli() { cargo run -q --profile quick --manifest-path "$root/Cargo.toml" -- "$@"; }
cli board-setup --mtu-log2 8 --out "$out/board-setup.json"
log="$out/board.log"
if ! env TOP=ecpix5_core VERILOG="$vdir/ecpix5_core.v" BUILD_DIR="$out" \
    BOARD_SETUP="$out/board-setup.json" HEADER="$root/include/hpcc_nic.h" \
    python3 "$root/testbench/cocotb/test_board.py" >"$log" 2>&1; then
  tail -n 60 "$log"
  echo "board-sim: FAILED (log: $log)"
  exit 1
fi
grep -E "INFO +cocotb\.fpga +" "$log" | sed -E 's/^ *[0-9.]+ns INFO +cocotb\.fpga +/  /'
tail -n 1 "$log"
cli rx-replay --pcap "$out/wire.pcap" --mtu 256 --engine golden --out "$out/rx-replay.jsonl" \
  | tail -n 3
n=$(grep -c '"verdict":"accepted"' "$out/rx-replay.jsonl" || true)
total=$(grep -c '"frame"' "$out/rx-replay.jsonl" || true)
echo "board-sim: rx-replay (golden): $n of $total frames of the wire accepted"
[ "$n" -gt 0 ] && [ "$n" = "$total" ] || { echo "board-sim: a frame of the wire rejected by the golden model"; exit 1; }
