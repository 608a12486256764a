#!/usr/bin/env python3
"""The structural check of the timing rules R1 and R2 (issue 51,
`docs/architecture.md` § Timing rules): no combinational path from a
block's input port to its output port.

For each block module of an emitted NIC (`top$core$<block>` and
`top$host$<block>` in `hpcc_nic.v`: the core's and the host interface's
blocks), yosys flattens the block (`hierarchy; proc; flatten`) and walks
the input cone of its output ports, stopping at flip-flops and at
block-RAM read ports (synchronous in every `Ram` the project emits; the
asynchronous reads of `LutRam`s are mapped to logic first, and crossed). An
input port in that cone (other than the clock, which only reaches
flip-flops) is a combinational path.

A block with a path fails the check unless it is on the allow-list
(`scripts/comb_paths.allow`), where each entry says why:
- `helper`: combinational by design, used inside blocks;
- `rework`: a block still to be reworked under issue 51 (the list of
  what is left; it may only shrink).
A listed block that has no path any more fails too ("remove it"), so
the list stays true.

Usage:
  comb_paths.py FILE.v [--allow scripts/comb_paths.allow] [--report]
                [--lint-top TOP]  (scripts/lint.sh: the lint's yosys check
                                   of the whole design in the same run)
  comb_paths.py --self-test   (a deliberately combinational block must
                               fail, a registered one must pass)
Exit 0 when every block is clean or listed as it is; 1 otherwise.
"""
import argparse
import os
import pathlib
import re
import subprocess
import sys
import tempfile

# Cells the walk does not cross: flip-flops, and RAM read ports (the
# project's `Ram` reads on the clock edge).
STOP = ",".join([
    "$dff", "$adff", "$sdff", "$dffe", "$adffe", "$sdffe", "$sdffce",
    "$dffsr", "$dffsre", "$aldff", "$aldffe",
    "$memrd", "$memrd_v2", "$mem", "$mem_v2",
])
BLOCK = re.compile(r"^module (top\$(?:core|host)\$[A-Za-z0-9_]+)\(", re.M)
CLOCKS = {"clock", "clk"}


# The lint's yosys check (scripts/lint.sh), run on the whole design first
# when `--lint-top` names its top: the design is read and `proc`essed once
# for both checks (on `hpcc_nic` each takes about a minute of a core).
LATCHES = "t:$dlatch t:$adlatch t:$dlatchsr"


def paths(vfile, modules, lint_top=None):
    """{module: (inputs reaching an output, outputs reached)} by yosys;
    with `lint_top`, the lint's check of the whole design first."""
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        script = [f"read_verilog {vfile}"]
        if lint_top:
            script += [f"hierarchy -check -top {lint_top}", "proc", "check -assert",
                       f"select -assert-none {LATCHES}"]
        script += ["design -save all"]
        for k, m in enumerate(modules):
            # The block and its submodules only (rust-hdl names them
            # `<block>$<child>`), not a copy of the whole design.
            script += [
                "design -reset",
                f"design -copy-from all {m} {m}$*",
                f"hierarchy -top {m}",
                "proc",
                "flatten",
                "opt_clean",
                # A LUT RAM's read (`LutRam`) is asynchronous: map those
                # memories to logic, so the walk crosses their reads.
                # `memory_dff` first merges each `Ram`'s read register into
                # its read port, or every RAM would look asynchronous and
                # be mapped to logic (12 minutes on `hpcc_nic`).
                "memory_dff",
                "memory_collect",
                "memory_map t:$mem_v2 r:RD_CLK_ENABLE=1'b0 %i",
                "opt_clean",
                f"tee -q -o {tmp}/{k}.in select -list o:* %ci*:-{STOP} i:* %i",
                f"tee -q -o {tmp}/{k}.out select -list i:* %co*:-{STOP} o:* %i",
            ]
        ys = pathlib.Path(tmp) / "check.ys"
        ys.write_text("\n".join(script) + "\n")
        r = subprocess.run(["yosys", "-q", "-s", str(ys)], capture_output=True, text=True)
        if r.returncode != 0:
            what = f"lint: yosys FAILED on {lint_top} (or the timing rules' check)" \
                if lint_top else "comb_paths: yosys failed"
            sys.exit(f"{what}:\n{r.stderr[-3000:]}")
        for k, m in enumerate(modules):
            def ports(ext):
                text = (pathlib.Path(tmp) / f"{k}.{ext}").read_text()
                names = [ln.split("/", 1)[1] for ln in text.split() if "/" in ln]
                return sorted(n for n in names if n not in CLOCKS)
            out[m] = (ports("in"), ports("out"))
    return out


def load_allow(path):
    allow = {}
    for ln in pathlib.Path(path).read_text().splitlines():
        ln = ln.split("#", 1)[0].strip()
        if not ln:
            continue
        name, kind, *_ = ln.split()
        if kind not in ("helper", "rework"):
            sys.exit(f"comb_paths: {path}: {name}: kind must be helper or rework")
        allow[name] = kind
    return allow


def short(ports):
    """Ports grouped by their record (`s_ack$flow` → `s_ack`)."""
    return sorted({p.split("$", 1)[0] for p in ports})


def check(vfile, allow, report, lint_top=None):
    text = pathlib.Path(vfile).read_text()
    modules = BLOCK.findall(text)
    if not modules:
        sys.exit(f"comb_paths: no block module (top$core$*, top$host$*) in {vfile}")
    found = paths(vfile, modules, lint_top)
    if lint_top:
        print(f"lint: {lint_top} yosys check -assert, no latch: clean")
    bad = 0
    for m in modules:
        name = m[len("top$"):]
        ins, outs = found[m]
        kind = allow.get(name)
        if ins and kind is None:
            bad += 1
            print(f"comb_paths: FAIL {name}: combinational from {', '.join(short(ins))} "
                  f"to {', '.join(short(outs))} ({len(outs)} output ports); register the "
                  f"outputs (R1), or list it in the allow-list with a reason")
        elif not ins and kind is not None:
            bad += 1
            print(f"comb_paths: FAIL {name}: listed as {kind} but has no combinational "
                  f"path any more: remove it from the allow-list")
        elif report or ins:
            what = f"{kind}: from {', '.join(short(ins))} to {', '.join(short(outs))}" \
                if ins else "clean"
            print(f"comb_paths: {name} {what}")
    for name in sorted(set(allow) - {m[len('top$'):] for m in modules}):
        bad += 1
        print(f"comb_paths: FAIL {name}: on the allow-list but not a block of {vfile}")
    clean = sum(1 for m in modules if not found[m][0])
    print(f"comb_paths: {len(modules)} blocks, {clean} without a combinational port path, "
          f"{len(modules) - clean} with one; {'FAILED' if bad else 'ok'}")
    return bad == 0


SELF_TEST = """
module top(clock, a, b, c, y, z, w, v);
  input clock; input [7:0] a; input [7:0] b; input [3:0] c;
  output [7:0] y; output [7:0] z; output [2:0] w; output [2:0] v;
  top$core$registered r(.clock(clock), .a(a), .y(y));
  top$core$through t(.clock(clock), .a(b), .y(z));
  top$core$lutram l(.clock(clock), .a(c), .y(w));
  top$core$bram m(.clock(clock), .a(c), .y(v));
endmodule
module top$core$lutram(clock, a, y);
  input clock; input [3:0] a; output reg [2:0] y;
  (* ram_style = "distributed" *) reg [2:0] mem[15:0];
  always @(*) y = mem[a];
  always @(posedge clock) mem[a] <= a[2:0];
endmodule
module top$core$bram(clock, a, y);
  input clock; input [3:0] a; output reg [2:0] y;
  reg [2:0] mem[15:0];
  always @(posedge clock) begin y <= mem[a]; mem[a] <= a[2:0]; end
endmodule
module top$core$registered(clock, a, y);
  input clock; input [7:0] a; output reg [7:0] y;
  always @(posedge clock) y <= a + 8'd1;
endmodule
module top$core$through(clock, a, y);
  input clock; input [7:0] a; output [7:0] y;
  reg [7:0] q;
  always @(posedge clock) q <= a;
  assign y = q + a;
endmodule
"""


def self_test():
    with tempfile.TemporaryDirectory() as tmp:
        v = pathlib.Path(tmp) / "self_test.v"
        v.write_text(SELF_TEST)
        found = paths(str(v), ["top$core$registered", "top$core$through",
                               "top$core$lutram", "top$core$bram"])
        ok = (found["top$core$registered"] == ([], [])
              and found["top$core$through"] == (["a"], ["y"])
              and found["top$core$lutram"] == (["a"], ["y"])
              and found["top$core$bram"] == ([], []))
        allow = {"core$through": "rework", "core$lutram": "helper"}
        # The check itself: fails without the list, passes with `through`
        # listed, fails with `registered` listed.
        ok = ok and not check(str(v), {}, False)
        ok = ok and check(str(v), allow, False)
        ok = ok and not check(str(v), {**allow, "core$registered": "helper"}, False)
        # With the lint's check of the whole design in the same run.
        ok = ok and check(str(v), allow, False, lint_top="top")
    print(f"comb_paths: self-test {'ok' if ok else 'FAILED'}")
    return ok


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("verilog", nargs="?")
    ap.add_argument("--allow", default=os.path.join(os.path.dirname(__file__), "comb_paths.allow"))
    ap.add_argument("--report", action="store_true", help="list clean blocks too")
    ap.add_argument("--self-test", action="store_true")
    ap.add_argument("--lint-top", metavar="TOP",
                    help="also run the lint's yosys check (hierarchy -check, proc, "
                         "check -assert, no latch) on the whole design, top TOP")
    a = ap.parse_args()
    if a.self_test:
        sys.exit(0 if self_test() else 1)
    if not a.verilog:
        ap.error("a Verilog file, or --self-test")
    sys.exit(0 if check(a.verilog, load_allow(a.allow), a.report, a.lint_top) else 1)


if __name__ == "__main__":
    main()
