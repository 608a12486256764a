#!/usr/bin/env python3
"""The timing gate of issue 51 (`docs/architecture.md` § Timing rules):
a block with a register on every port, placed and routed on the ECP5-85F.

An out-of-context run of a block alone (`synth.py`) does not time the
paths that enter or leave through its ports: inside the NIC those paths
meet the neighbours' logic, so the block looks faster alone than it is.
This script wraps the block's top module in `ported_<top>`: every input
(but the clock) passes a flip-flop before the block, every output a
flip-flop after it. A path from a port to a register, from a register to
a port, or from port to port is then a timed register-to-register path
with one routing hop at each end, as it would be between two blocks that
both register their boundaries (rule R1).

    python3 boards/ecp5-85f/ports.py --verilog build/verilog/TOP.v --top TOP \
        [--seeds 1,2,3] [--freq 200] [--gate 180] [--out build/synth-ports/TOP]

For each seed it runs `synth.py` (yosys once, nextpnr per seed) and
reports the lowest Fmax over the seeds. Exit 0 when that is at least
`--gate` MHz, 3 when it is below, 1 when a tool failed. The summary JSON
(`OUT/summary.json`) has `{top, seeds: {seed: MHz}, fmax_min, gate, pass,
lut4, ff, bram}`. `make synth-ports` runs it on every single-clock block
of `hpcc_nic` and prints the table:

    python3 boards/ecp5-85f/ports.py --table build/synth-ports TOP...

Standard library only.
"""

import argparse
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CLOCKS = {"clock", "clk"}

# `input wire [7:0] name;` / `output reg name;` in rust-hdl's top module.
PORT_RE = re.compile(r"^\s*(input|output)\s+(?:wire|reg)\s*(\[[^\]]+\])?\s*([A-Za-z0-9_$]+)\s*;")


def ports_of(text, top):
    """[(direction, range or '', name)] of module `top`, in order."""
    m = re.search(r"^module\s+" + re.escape(top) + r"\s*\(", text, re.M)
    if not m:
        sys.exit(f"ports.py: no module {top}")
    body = text[m.end():]
    end = body.index("endmodule")
    out = []
    for line in body[:end].splitlines():
        p = PORT_RE.match(line)
        if p:
            out.append((p.group(1), p.group(2) or "", p.group(3)))
    if not out:
        sys.exit(f"ports.py: module {top} has no port declarations")
    return out


def wrapper(top, ports):
    """The Verilog of `ported_<top>`: a flip-flop on every port."""
    clocks = [n for d, _, n in ports if d == "input" and n in CLOCKS]
    if len(clocks) != 1:
        sys.exit(f"ports.py: {top} needs exactly one clock input named clock or clk "
                 f"(found {clocks}); a block with several clocks is not gated here")
    clk = clocks[0]
    names = [n for _, _, n in ports]
    lines = [f"module ported_{top}({', '.join(names)});"]
    body, conns = [], []
    for d, rng, n in ports:
        if n == clk:
            lines.append(f"    input wire {n};")
            conns.append(f".{n}({n})")
        elif d == "input":
            lines.append(f"    input wire {rng} {n};")
            body.append(f"    reg {rng} {n}__q;")
            body.append(f"    always @(posedge {clk}) {n}__q <= {n};")
            conns.append(f".{n}({n}__q)")
        else:
            lines.append(f"    output reg {rng} {n};")
            body.append(f"    wire {rng} {n}__d;")
            body.append(f"    always @(posedge {clk}) {n} <= {n}__d;")
            conns.append(f".{n}({n}__d)")
    lines += body
    lines.append(f"    {top} block({', '.join(conns)});")
    lines.append("endmodule")
    return "\n".join(lines) + "\n"


def table(out_dir, tops):
    """The markdown table of the tops' summaries under `out_dir`; 0 when
    each was measured and passed."""
    print("| block | Fmax, ports registered (MHz, lowest of the seeds) | seeds | gate | LUT4 | FF | DP16KD |")
    print("|---|---|---|---|---|---|---|")
    bad = 0
    for top in tops:
        path = os.path.join(out_dir, top, "summary.json")
        if not os.path.exists(path):
            print(f"| `{top}` | not measured | | | | | |")
            bad += 1
            continue
        r = json.load(open(path))
        seeds = ", ".join(f"{k}: {v}" for k, v in r["seeds"].items())
        verdict = "pass" if r["pass"] else "**fail**"
        print(f"| `{top}` | {r['fmax_min']} | {seeds} | {verdict} at {r['gate']:g} | "
              f"{r['lut4']} | {r['ff']} | {r['bram']} |")
        bad += 0 if r["pass"] else 1
    return 0 if bad == 0 else 3


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--table":
        sys.exit(table(sys.argv[2], sys.argv[3:]))
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--verilog", required=True)
    ap.add_argument("--top", required=True)
    ap.add_argument("--seeds", default="1,2,3")
    ap.add_argument("--freq", type=float, default=200.0, help="nextpnr's target (MHz)")
    ap.add_argument("--gate", type=float, default=180.0,
                    help="the lowest Fmax over the seeds must reach this (MHz)")
    ap.add_argument("--out", help="default build/synth-ports/TOP")
    ap.add_argument("--bram-outreg-every", action="store_true",
                    help="synth.py --bram-outreg-every: every DP16KD read's register packed")
    ap.add_argument("--no-dsp-regs", action="store_true",
                    help="synth.py --no-dsp-regs: the MULT18X18Ds' registers left in the fabric")
    a = ap.parse_args()
    out = os.path.abspath(a.out or os.path.join(HERE, "..", "..", "build", "synth-ports", a.top))
    os.makedirs(out, exist_ok=True)
    text = open(a.verilog).read()
    vfile = os.path.join(out, f"ported_{a.top}.v")
    with open(vfile, "w") as f:
        f.write(text)
        f.write("\n")
        f.write(wrapper(a.top, ports_of(text, a.top)))
    name = f"ported_{a.top}"
    seeds = [int(s) for s in a.seeds.split(",")]
    fmax, size = {}, {}
    netlist = None
    for seed in seeds:
        run = os.path.join(out, f"seed{seed}")
        cmd = [sys.executable, os.path.join(HERE, "synth.py"), "--verilog", vfile,
               "--name", name, "--top", name, "--freq", str(a.freq), "--seed", str(seed),
               "--out", run]
        if netlist:
            cmd += ["--netlist", netlist]
        if a.bram_outreg_every:
            cmd.append("--bram-outreg-every")
        if a.no_dsp_regs:
            cmd.append("--no-dsp-regs")
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode not in (0, 3):
            sys.stderr.write(r.stdout[-2000:] + r.stderr[-2000:])
            sys.exit(f"ports.py: synth.py failed on {a.top} seed {seed}")
        summary = json.load(open(os.path.join(run, "summary.json")))
        fmax[seed] = summary.get(f"{name}_fmax_mhz")
        size = {k: summary.get(f"{name}_{k}") for k in ("lut4", "ff", "bram")}
        netlist = netlist or os.path.join(run, f"{name}.json")
        print(f"{a.top}: seed {seed}: {fmax[seed]} MHz", flush=True)
    low = min(v for v in fmax.values() if v is not None) if all(fmax.values()) else None
    ok = low is not None and low >= a.gate
    result = {"top": a.top, "seeds": fmax, "fmax_min": low, "gate": a.gate, "pass": ok, **size}
    with open(os.path.join(out, "summary.json"), "w") as f:
        json.dump(result, f, indent=2)
    print(f"{a.top}: ports registered, Fmax {low} MHz over seeds {a.seeds} "
          f"({'PASS' if ok else 'FAIL'} at {a.gate:g} MHz); {size['lut4']} LUT4, "
          f"{size['ff']} FF, {size['bram']} DP16KD")
    sys.exit(0 if ok else 3)


if __name__ == "__main__":
    main()
