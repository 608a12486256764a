#!/usr/bin/env python3
"""`make figures`: the docs' figure tables that a command can make, made
by running it, so that a row cannot go stale by hand.

Each generated table sits in a doc between two markers:

    <!-- figures:NAME begin: `make figures` writes this table; do not edit -->
    ...
    <!-- figures:NAME end -->

and names the command of every row and the commit it was measured on
(HEAD, `-dirty` if code other than the docs differs from it). The tables:

- `sim-runs` (docs/sim.md): `hpccnic sim` runs on the golden NIC, their
  frames, losses, packets sent again, host side and result;
- `sim-interop` (docs/sim.md): the same sim's frames checked as a standard
  RoCEv2 receiver checks them (scripts/icrc_scapy.py --standard), with
  telemetry in probes only and in every data packet.

Usage:
    scripts/figures.py [--cli PATH] [--check] [DOC ...]

`--check` rewrites nothing: it runs the commands and fails (exit 1),
naming the table and the first row that differs, when a doc's table is not
what the commands give now (the commit column is not compared). `make test`
runs it on the `quick` CLI. Exit 2 on a bad option or a missing marker.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The runs of `sim-runs`: the options after `sim`.
SIM_RUNS = [
    "write",
    "read --seed 2 --mtu 256",
    "mixed --loss 0.01",
    "write --loss 0.01 --seed 3",
    "write --loss 0.1 --mtu 512 --max-size 20000",
    "mixed --loss 0.1 --sq-log 0 --cq-log 0 --cqs 4 --batch 1",
    "mixed --dma-err 0.05 --seed 4",
]

# The runs of `sim-interop`: (options, what carries the telemetry area).
INTEROP_RUNS = [
    ("mixed --loss 0.01 --telemetry probe", "probes and their answers only"),
    ("mixed --loss 0.01", "every data packet (the default)"),
]


def commit():
    """HEAD, with `-dirty` when files other than the docs differ from it
    (the figures then come from code no commit holds)."""
    git = lambda *a: subprocess.run(["git", *a], cwd=ROOT, capture_output=True, text=True)
    head = git("rev-parse", "--short", "HEAD").stdout.strip()
    code_changed = git("diff", "--quiet", "HEAD", "--", ".", ":(exclude)docs", ":(exclude)README.md").returncode != 0
    return head + ("-dirty" if code_changed else "")


def sim(cli, opts, pcap=None):
    """The summary `hpccnic sim OPTS` prints, as a dict of figures."""
    args = [cli, "sim"] + opts.split()
    if pcap:
        args += ["--pcap", pcap]
    r = subprocess.run(args, cwd=ROOT, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"figures: `hpccnic sim {opts}` exited {r.returncode}:\n{r.stdout}{r.stderr}")
    out = r.stdout

    def num(pattern):
        m = re.search(pattern, out, re.M)
        if not m:
            sys.exit(f"figures: `hpccnic sim {opts}`: no `{pattern}` in\n{out}")
        return int(m.group(1))

    f = {
        "frames": num(r"^frames (\d+)"),
        "lost": num(r"lost (\d+), probes"),
        "again": num(r"retransmissions (\d+)"),
        "aborted": num(r"frames aborted (\d+)"),
        "done": num(r"work requests completed (\d+)/"),
        "planned": num(r"work requests completed \d+/(\d+)"),
        "slverr": num(r"SLVERR (\d+)"),
        "decerr": num(r"DECERR (\d+)"),
        "doorbells": num(r"doorbells (\d+) \(refused"),
        "refused": num(r"\(refused (\d+)\)"),
        "cqes": num(r"completions (\d+) in \d+ events"),
        "events": num(r"completions \d+ in (\d+) events"),
        "flagged": num(r"h2c beats flagged (\d+)"),
        "exact": "byte-exact: yes" in out,
    }
    return f


def sim_runs(cli):
    head = [
        f"| `hpccnic sim ...` (golden NIC; `make figures` at {commit()}) | frames | lost | data packets sent again | host side | result |",
        "|---|---|---|---|---|---|",
    ]
    rows = []
    for opts in SIM_RUNS:
        f = sim(cli, opts)
        host = [
            f"{f['doorbells']} doorbells ({f['refused']} refused)",
            f"{f['cqes']} completions in {f['events']} events",
        ]
        if f["slverr"] or f["decerr"]:
            host.append(f"{f['slverr']} SLVERR, {f['decerr']} DECERR")
        if f["flagged"]:
            host.append(f"{f['flagged']} flagged h2c beats, {f['aborted']} frames aborted")
        result = f"{f['done']}/{f['planned']} completed, " + (
            "byte-exact" if f["exact"] else "NOT byte-exact"
        )
        rows.append(
            f"| `{opts}` | {f['frames']} | {f['lost']} | {f['again']} | {'; '.join(host)} | {result} |"
        )
    return head + rows


def sim_interop(cli):
    head = [
        f"| `hpccnic sim ...` (golden NIC; `make figures` at {commit()}), then `scripts/icrc_scapy.py --standard` | telemetry area in | standard-opcode frames | their ICRC verifies as standard |",
        "|---|---|---|---|",
    ]
    rows = []
    with tempfile.TemporaryDirectory() as d:
        for opts, where in INTEROP_RUNS:
            pcap = os.path.join(d, "x.pcap")
            sim(cli, opts, pcap)
            r = subprocess.run(
                [sys.executable, os.path.join(ROOT, "scripts/icrc_scapy.py"), "--standard", pcap],
                capture_output=True,
                text=True,
            )
            m = re.search(r"(\d+) standard-opcode frames.*?(\d+) ICRCs match, (\d+) do not", r.stdout)
            if not m:
                sys.exit(f"figures: icrc_scapy on `sim {opts}`:\n{r.stdout}{r.stderr}")
            rows.append(f"| `{opts}` | {where} | {m.group(1)} | {m.group(2)} |")
    return head + rows


TABLES = {"sim-runs": sim_runs, "sim-interop": sim_interop}
DOCS = ["docs/sim.md"]


def blocks(text):
    """(name, start, end) of each generated block: the lines between its
    markers."""
    found = []
    for m in re.finditer(r"<!-- figures:([\w-]+) begin[^>]*-->\n(.*?)<!-- figures:\1 end -->", text, re.S):
        found.append((m.group(1), m.start(2), m.end(2)))
    return found


def without_commit(lines):
    return [re.sub(r"at [0-9a-f]{7,}(-dirty)?\)", "at …)", l) for l in lines]


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cli", default=os.path.join(ROOT, "target/release/hpccnic"))
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--self-test", action="store_true", help="a doc with one figure changed must fail --check")
    ap.add_argument("docs", nargs="*", default=DOCS)
    a = ap.parse_args(argv)
    if not os.access(a.cli, os.X_OK):
        print(f"figures: --cli {a.cli}: not an executable (build it first)", file=sys.stderr)
        return 2
    if a.self_test:
        return self_test(a.cli)
    stale = []
    for rel in a.docs:
        path = os.path.join(ROOT, rel)
        text = open(path).read()
        found = blocks(text)
        if not found:
            print(f"figures: {rel}: no generated table", file=sys.stderr)
            return 2
        out, last = [], 0
        for name, s, e in found:
            if name not in TABLES:
                print(f"figures: {rel}: unknown table {name}", file=sys.stderr)
                return 2
            made = TABLES[name](a.cli)
            had = text[s:e].rstrip("\n").split("\n")
            if without_commit(had) != without_commit(made):
                diff = next(
                    (i for i, (x, y) in enumerate(zip(without_commit(had), without_commit(made))) if x != y),
                    min(len(had), len(made)),
                )
                stale.append(
                    f"{rel}: table {name}, row {diff}:\n  doc: {had[diff] if diff < len(had) else '(none)'}\n  now: {made[diff] if diff < len(made) else '(none)'}"
                )
            out.append(text[last:s] + "\n".join(made) + "\n")
            last = e
        out.append(text[last:])
        if not a.check:
            open(path, "w").write("".join(out))
            print(f"figures: {rel}: {len(found)} tables written")
    if a.check and stale:
        print("figures: stale (run `make figures`):\n" + "\n".join(stale), file=sys.stderr)
        return 1
    if a.check:
        print(f"figures: {', '.join(a.docs)} current")
    return 0


def self_test(cli):
    """`--check` must fail on a doc whose table has one figure changed,
    and pass on the doc as it is."""
    text = open(os.path.join(ROOT, "docs/sim.md")).read()
    name, s, e = next(b for b in blocks(text) if b[0] == "sim-runs")
    row = text[s:e].split("\n")[2]
    cells = row.split(" | ")
    cells[1] = str(int(cells[1]) + 1)
    bad = text[:s] + text[s:e].replace(row, " | ".join(cells), 1) + text[e:]
    print("figures: self-test: a copy of docs/sim.md with one figure changed (reported stale next):")
    with tempfile.NamedTemporaryFile("w", suffix=".md", delete=False) as f:
        f.write(bad)
    try:
        r = main(["--cli", cli, "--check", f.name])
    finally:
        os.unlink(f.name)
    if r != 1:
        print("figures: self-test: a changed figure passed --check", file=sys.stderr)
        return 1
    print("figures: self-test: a changed figure fails --check")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
