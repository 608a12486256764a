#!/usr/bin/env python3
"""Pack the flip-flops that register a DP16KD's read data into the block
RAM's own output register (REGMODE_x = "OUTREG"), on a synth_ecp5 JSON
netlist.

Why: the timing rules (docs/architecture.md, R3) register every block-RAM
read before logic. Yosys maps a RAM's synchronous read to a DP16KD with
REGMODE "NOREG" and leaves the register after it as fabric flip-flops, so
the path from the RAM's clock to those flip-flops is the DP16KD's 4.26 ns
clock-to-out plus a route: alone it leaves under 1.3 ns of a 180 MHz
cycle. The DP16KD's output register does the same job inside the RAM.
Vendor tools pack it on their own (Vivado's DOA_REG); Yosys 0.70 does not
(its brams_16kd.txt has no output-register option), so this pass does it
between yosys and nextpnr. The RTL, its twins and both simulation engines
are unchanged: a RAM read register followed by a register is the same
machine as a DP16KD in OUTREG mode.

Only where the RTL asks: a RAM whose array is named `mem_oreg`
(`nic_hdl::mem::Ram::with_output_register`; its DP16KD cells are
`<path>.mem_oreg.<i>.<j>` after yosys flattens the design). Packed into
the block-RAM site, the register starts every path after it there, and a
route from the RAM to logic far away can cost more than the 3.6 ns saved:
applied to every RAM (`--every`) it made the requester slower (92.32 ->
79.81 MHz at the worst of seeds 1-3). So a block marks a RAM whose
read register is followed by a short path (a compare, a select).

A read port (A or B) is packed when every data-out bit that is used drives
exactly one cell, a TRELLIS_FF's DI, and those flip-flops share one clock
(the port's, not inverted), one clock enable (or none: OCE = 1), and have
no set/reset (LSR constant 0 or unused) and no GSR. Anything else is left
as it is. The flip-flops are removed and their Q nets driven by the RAM.

Usage: bram_outreg.py NETLIST.json [--out OUT.json] (in place by default)
       bram_outreg.py --self-test
Prints one line: how many ports and flip-flops were packed.
"""

import argparse
import json
import os
import re
import sys


def sinks_by_net(cells):
    """{net bit: [(cell name, port)]} for every input port of every cell."""
    sinks = {}
    for cn, c in cells.items():
        dirs = c.get("port_directions", {})
        for port, bits in c["connections"].items():
            if dirs.get(port) == "output":
                continue
            for b in bits:
                if isinstance(b, int):
                    sinks.setdefault(b, []).append((cn, port))
    return sinks


def param(cell):
    """A cell's parameters, stripped (yosys pads string parameters with
    spaces to a whole number of bytes: "1 ")."""
    return {k: v.strip() if isinstance(v, str) else v for k, v in cell["parameters"].items()}


def const0(bits):
    return bits in (["0"], [])


def ff_plain(ff):
    """A TRELLIS_FF with no set/reset and no GSR, clocked on the rising edge."""
    p, conn = param(ff), ff["connections"]
    if p.get("GSR", "DISABLED") != "DISABLED" or p.get("CLKMUX", "CLK") != "CLK":
        return False
    lsrmux = p.get("LSRMUX", "LSR")
    return lsrmux == "0" or const0(conn.get("LSR", []))


def ff_enable(ff):
    """The flip-flop's clock enable as a connection list (["1"]: always)."""
    p, conn = param(ff), ff["connections"]
    mux = p.get("CEMUX", "CE")
    if mux == "1":
        return ["1"]
    if mux == "CE":
        return conn.get("CE", ["1"])
    return None  # "0" or "INV": not packed


# A RAM the RTL marks: its array is named `mem_oreg` (`Ram::
# with_output_register`), so its DP16KD cells are `<path>.mem_oreg.<i>.<j>`.
# (The register's own name is no mark: yosys names a flip-flop's cell and
# net after any of the net's names, often the consumer's.)
MARK = re.compile(r"(^|\.)mem_oreg\.")


def pack_port(cells, sinks, cn, side, every=False):
    """Pack RAM `cn`'s read port `side` ("A" or "B"); the FFs packed, or 0.
    Only a RAM the RTL marks (`MARK`), unless `every`."""
    ram = cells[cn]
    p, conn = ram["parameters"], ram["connections"]
    if p.get(f"REGMODE_{side}", "NOREG") != "NOREG":
        return 0
    if not every and not MARK.search(cn):
        return 0
    clk = conn.get(f"CLK{side}")
    plan = []  # (DO port, FF name)
    enable = None
    for i in range(18):
        port = f"DO{side}{i}"
        bits = conn.get(port)
        if not bits or not isinstance(bits[0], int):
            continue
        users = sinks.get(bits[0], [])
        if not users:
            continue
        if len(users) != 1 or users[0][1] != "DI":
            return 0
        ff = cells[users[0][0]]
        if ff["type"] != "TRELLIS_FF" or not ff_plain(ff):
            return 0
        if ff["connections"].get("CLK") != clk:
            return 0
        en = ff_enable(ff)
        if en is None or (enable is not None and en != enable):
            return 0
        enable = en
        plan.append((port, users[0][0]))
    if not plan:
        return 0
    for port, ffn in plan:
        conn[port] = cells[ffn]["connections"]["Q"]
        del cells[ffn]
    conn[f"OCE{side}"] = enable
    p[f"REGMODE_{side}"] = "OUTREG"
    return len(plan)


def pack(doc, every=False):
    ports = ffs = 0
    for m in doc["modules"].values():
        cells = m.get("cells", {})
        rams = [cn for cn, c in cells.items() if c["type"] == "DP16KD"]
        if not rams:
            continue
        sinks = sinks_by_net(cells)
        for cn in rams:
            for side in ("A", "B"):
                n = pack_port(cells, sinks, cn, side, every)
                if n:
                    ports += 1
                    ffs += n
    return ports, ffs


def registered(doc):
    """DP16KD read ports in OUTREG mode in a netlist, whoever packed them
    (a run given an earlier run's netlist packs nothing more)."""
    n = 0
    for m in doc["modules"].values():
        for c in m.get("cells", {}).values():
            if c["type"] == "DP16KD":
                p = param(c)
                n += sum(p.get(f"REGMODE_{side}", "NOREG") == "OUTREG" for side in ("A", "B"))
    return n


def synth_ecp5(verilog, top, tmp, who):
    """The synth_ecp5 JSON netlist of `verilog` (system yosys), written and
    read in the directory `tmp`; for the packing passes' self-tests."""
    import subprocess
    with open(os.path.join(tmp, f"{top}.v"), "w") as f:
        f.write(verilog)
    r = subprocess.run(["yosys", "-q", "-p", f"read_verilog {top}.v; synth_ecp5 -top {top} -json {top}.json"],
                       cwd=tmp, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"{who} self-test: yosys failed: " + r.stderr[-500:])
    with open(os.path.join(tmp, f"{top}.json")) as f:
        return json.load(f)


def synthetic(ff_params=None, ff_conn=None, second_ff=None):
    """A netlist of one DP16KD whose DOB0..1 each drive a TRELLIS_FF."""
    cells = {"r.mem_oreg.0.0": {"type": "DP16KD", "parameters": {"REGMODE_A": "NOREG", "REGMODE_B": "NOREG"},
                     "port_directions": {"DOB0": "output", "DOB1": "output", "CLKB": "input"},
                     "connections": {"CLKB": [2], "DOB0": [10], "DOB1": [11], "OCEB": ["1"]}}}
    for i in range(2):
        params = {"CEMUX": "CE", "CLKMUX": "CLK", "GSR": "DISABLED", "LSRMUX": "LSR"}
        conn = {"CLK": [2], "CE": [5], "LSR": ["0"], "DI": [10 + i], "Q": [20 + i]}
        if i == 1 or not second_ff:
            params.update(ff_params or {})
            conn.update(ff_conn or {})
        cells[f"r.x.q_TRELLIS_FF_Q_{i}"] = {"type": "TRELLIS_FF", "parameters": params,
                           "port_directions": {"CLK": "input", "CE": "input", "LSR": "input",
                                               "DI": "input", "Q": "output"},
                           "connections": conn}
    return {"modules": {"top": {"cells": cells}}}


def self_test():
    """Packs the clean case, refuses each case it must not pack, and packs
    a real synth_ecp5 netlist (system yosys) with and without a reset."""
    doc = synthetic()
    assert pack(doc) == (1, 2), "clean case not packed"
    ram = doc["modules"]["top"]["cells"]["r.mem_oreg.0.0"]
    assert ram["parameters"]["REGMODE_B"] == "OUTREG" and ram["connections"]["OCEB"] == [5]
    assert ram["connections"]["DOB0"] == [20] and ram["connections"]["DOB1"] == [21]
    assert "r.x.q_TRELLIS_FF_Q_0" not in doc["modules"]["top"]["cells"]
    assert pack(doc) == (0, 0), "not idempotent"
    assert registered(doc) == 1
    refused = {
        "a reset": dict(ff_conn={"LSR": [7]}),
        "an inverted clock": dict(ff_params={"CLKMUX": "INV"}),
        "another clock": dict(ff_conn={"CLK": [3]}),
        "GSR": dict(ff_params={"GSR": "ENABLED"}),
        "two enables": dict(ff_conn={"CE": [6]}, second_ff=True),
    }
    for what, kw in refused.items():
        assert pack(synthetic(**kw)) == (0, 0), f"packed a register with {what}"
    doc = synthetic()
    cells = doc["modules"]["top"]["cells"]
    cells["r.mem.0.0"] = cells.pop("r.mem_oreg.0.0")
    assert pack(doc) == (0, 0), "packed the register of a RAM the RTL did not mark"
    assert pack(doc, every=True) == (1, 2), "--every did not pack an unmarked register"
    doc = synthetic()
    doc["modules"]["top"]["cells"]["lut"] = {
        "type": "LUT4", "parameters": {}, "port_directions": {"A": "input"},
        "connections": {"A": [11]}}
    assert pack(doc) == (0, 0), "packed a read bit that also drives logic"
    doc = synthetic(ff_params={"CEMUX": "1 "})
    assert pack(doc) == (1, 2)
    assert doc["modules"]["top"]["cells"]["r.mem_oreg.0.0"]["connections"]["OCEB"] == ["1"]

    import shutil
    import tempfile
    if not shutil.which("yosys"):
        print("bram_outreg self-test: synthetic cases pass (no yosys: the synth_ecp5 case skipped)")
        return 0
    verilog = """
module t(input clk, input we, input en, input rst, input [8:0] wa, input [8:0] ra,
         input [15:0] wd, output reg [15:0] q, output reg [15:0] qr, output reg [15:0] qu);
  (* no_rw_check *) reg [15:0] mem_oreg [0:511];
  (* no_rw_check *) reg [15:0] other [0:511];
  reg [15:0] rd; reg [15:0] rd2; reg [15:0] rd3;
  always @(posedge clk) begin
    if (we) begin mem_oreg[wa] <= wd; other[wa] <= wd; end
    rd <= mem_oreg[ra]; rd2 <= mem_oreg[wa ^ ra]; rd3 <= other[ra];
    if (en) q <= rd;
    if (rst) qr <= 0; else qr <= rd2;
    qu <= rd3;
  end
endmodule
"""
    with tempfile.TemporaryDirectory() as tmp:
        doc = synth_ecp5(verilog, "t", tmp, "bram_outreg")
    # Three RAMs (no_rw_check: no read-during-write bypass in the fabric):
    # of the marked array's two reads, the one whose register has an
    # enable is packed, the one whose register has a reset is not; the
    # unmarked array's is not.
    got = pack(doc)
    assert got == (1, 16), f"synth_ecp5 netlist: packed {got}, expected (1, 16)"
    print("bram_outreg self-test: pass (7 refusals, 3 synthetic packs, a synth_ecp5 netlist)")
    return 0


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("netlist")
    ap.add_argument("--out")
    ap.add_argument("--every", action="store_true",
                    help="pack unmarked registers too (measured slower on the requester)")
    a = ap.parse_args()
    with open(a.netlist) as f:
        doc = json.load(f)
    ports, ffs = pack(doc, a.every)
    with open(a.out or a.netlist, "w") as f:
        json.dump(doc, f)
    print(f"bram_outreg: {ports} DP16KD read ports packed, {ffs} flip-flops into OUTREG")
    return 0


if __name__ == "__main__":
    sys.exit(main())
