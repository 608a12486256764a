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
- `line-rate` (docs/architecture.md §5h): the line-rate runs of `make
  bench` (`nic-bench --group line-rate`), read from `build/bench.json`
  (`--bench`), each row with the commit `nic-bench` recorded for it
  (its `_commit` map). Without that file (a clean clone) the table is
  left as it is, and `--check` says it did not check it.

Usage:
    scripts/figures.py [--cli PATH] [--bench JSON] [--check] [DOC ...]

`--check` rewrites nothing: it runs the commands and fails (exit 1),
naming the table and the first row that differs, when a doc's table is not
what the commands give now (the commit column is not compared). `make test`
runs it on the `quick` CLI. Exit 2 on a bad option or a missing marker.
"""

import argparse
import json
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
    "mixed --dma-err 0.05 --seed 3",
]

# The runs of `sim-interop`: (options, what carries the telemetry area).
INTEROP_RUNS = [
    ("mixed --loss 0.01 --telemetry probe", "probes and their answers only"),
    ("mixed --loss 0.01", "every data packet (the default)"),
]


# The rows of `line-rate`: (the run's key in `build/bench.json` after
# `line_rate_`, messages, flows).
LINE_RATE_ROWS = [
    ("64B_64flows", "64 B", "64"),
    ("64B_8flows", "64 B", "8"),
    ("64B_1flows", "64 B", "1"),
    ("256B_64flows", "256 B", "64"),
    ("256B_8flows", "256 B", "8"),
    ("256B_1flows", "256 B", "1"),
    ("1KB_64flows", "1 KiB", "64"),
    ("1KB_8flows", "1 KiB", "8"),
    ("1KB_1flows", "1 KiB", "1"),
    ("mix_64flows", "mix (64 B, 1 KiB, 256 B, 16 KiB)", "64"),
    ("mix_8flows", "mix", "8"),
    ("mix_1flows", "mix", "1"),
    ("64B_oneway_64flows", "64 B one way", "64"),
    ("64B_oneway_1flows", "64 B one way", "1"),
    ("64B_oneway_1flows_ring16", "64 B one way, 16 work requests a flow (the default before)", "1"),
    ("64B_1flows_ring16", "64 B, 16 work requests a flow (the default before)", "1"),
    ("mix_8flows_host_half", "mix, hosts taking DMA writes in half the cycles, no pause", "8"),
    ("mix_8flows_host_half_pause", "the same with the link pause", "8"),
    ("mix_6flows_rtl", "mix, the RTL cores on Verilator, twins in lockstep", "6"),
    ("nic_mix_8flows", "whole NIC (`hpcc_nic`, host interface): mix", "8"),
    ("nic_mix_6flows_rtl", "whole NIC: mix, the emitted `hpcc_nic` on Verilator, twins in lockstep", "6"),
    ("nic_64B_64flows", "whole NIC: 64 B", "64"),
]


def line_rate(bench):
    """The `line-rate` table from `bench` (the figures of
    `build/bench.json`), or None when a run is missing from it."""
    commits = bench.get("_commit", {})
    rows = [
        "| run (`line_rate_…`) | messages | flows | wire | data | `drop_full` | timeouts and NAKs | PAUSE frames | measured at |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for key, messages, flows in LINE_RATE_ROWS:
        k = f"line_rate_{key}"
        if f"{k}_data_fill" not in bench:
            return None
        f = lambda name: bench[f"{k}_{name}"]
        rows.append(
            f"| `{key}` | {messages} | {flows} | {f('wire_fill'):.3f} | **{f('data_fill'):.3f}** | "
            f"{f('drop_full'):.0f} | {f('timeouts_naks'):.0f} | {f('pauses'):.0f} | "
            f"{commits.get(f'{k}_data_fill', 'unrecorded')} |"
        )
    return rows


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
        # `make test` checks an aborted frame and its resend through this
        # run (cli/tests/sim.rs): a change that moves its seed off them
        # must pick another seed, not lose the case.
        if "--dma-err" in opts and not f["aborted"]:
            sys.exit(f"figures: `sim {opts}` aborts no frame any more: choose another seed")
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
# Tables made from `make bench`'s figures (`--bench`), not by running.
BENCH_TABLES = {"line-rate": line_rate}
DOCS = ["docs/sim.md", "docs/architecture.md"]


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
    ap.add_argument("--bench", default=os.path.join(ROOT, "build/bench.json"))
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--self-test", action="store_true", help="a doc with one figure changed must fail --check")
    ap.add_argument("docs", nargs="*", default=DOCS)
    a = ap.parse_args(argv)
    if not os.access(a.cli, os.X_OK):
        print(f"figures: --cli {a.cli}: not an executable (build it first)", file=sys.stderr)
        return 2
    if a.self_test:
        return self_test(a.cli)
    try:
        bench = json.load(open(a.bench))
    except (OSError, ValueError):
        bench = None
    stale, unchecked = [], []
    for rel in a.docs:
        path = os.path.join(ROOT, rel)
        text = open(path).read()
        found = blocks(text)
        if not found:
            print(f"figures: {rel}: no generated table", file=sys.stderr)
            return 2
        out, last = [], 0
        for name, s, e in found:
            had = text[s:e].rstrip("\n").split("\n")
            if name in BENCH_TABLES:
                made = BENCH_TABLES[name](bench) if bench is not None else None
                if made is None:
                    unchecked.append(f"{rel}: table {name} (no line-rate figures in {a.bench}: `make bench` writes them)")
                    made = had
                else:
                    # A row is checked against the figures when both name
                    # the same commit (a hand edit shows); a row measured
                    # at another commit is only reported.
                    for x, y in zip(had, made):
                        if x == y or not y.startswith("| `"):
                            continue
                        if x.split("|")[-2:] == y.split("|")[-2:]:
                            stale.append(f"{rel}: table {name}:\n  doc: {x}\n  {a.bench}: {y}")
                        else:
                            unchecked.append(f"{rel}: table {name}, `{y.split('|')[1].strip().strip('`')}` ({a.bench} is at {y.split('|')[-2].strip()})")
                    if len(had) != len(made):
                        stale.append(f"{rel}: table {name}: {len(had)} rows in the doc, {len(made)} made")
                out.append(text[last:s] + "\n".join(made) + "\n")
                last = e
                continue
            if name not in TABLES:
                print(f"figures: {rel}: unknown table {name}", file=sys.stderr)
                return 2
            made = TABLES[name](a.cli)
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
    for u in unchecked:
        print(f"figures: not checked: {u}")
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
