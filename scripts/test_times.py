#!/usr/bin/env python3
"""The time profile printed at the end of `make test` / `make test-full`.

Reads what scripts/test.sh leaves behind and prints:
- the phases (installs, compile, emit, cocotb, lint, tests), each with its
  start and end counted from the first phase's start, and its time;
- each test binary: its tests, the sum of their times, and the span from
  its first test's start to its last test's end (binaries run interleaved);
- each cocotb check and each lint, slowest first;
- the ten slowest tests;
and writes the same as JSON (`--json`, build/test-times.json).

    python3 scripts/test_times.py --phases build/test-phases.tsv \\
        --junit target/nextest/default/junit.xml --cocotb build/cocotb/times.tsv \\
        --lint build/logs/lint.log --json build/test-times.json

A missing input (a phase that did not run) leaves its part out. Standard
library only.
"""

import argparse
import datetime
import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET


def read_tsv(path):
    try:
        with open(path) as f:
            return [line.rstrip("\n").split("\t") for line in f if line.strip()]
    except OSError:
        return []


def phases_of(path):
    rows = read_tsv(path)
    out = [
        {"name": r[0], "start": float(r[1]), "end": float(r[2]), "status": int(r[3])}
        for r in rows
        if len(r) == 4
    ]
    return out


def junit_tests(path):
    """[(binary, test, start epoch, seconds, outcome)] from nextest's JUnit."""
    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError):
        return []
    tests = []
    for suite in root.iter("testsuite"):
        for case in suite.iter("testcase"):
            ts = case.get("timestamp")
            start = datetime.datetime.fromisoformat(ts).timestamp() if ts else None
            outcome = "pass"
            for tag in ("failure", "error", "skipped"):
                if case.find(tag) is not None:
                    outcome = "fail" if tag != "skipped" else "skipped"
            tests.append((suite.get("name"), case.get("name"), start, float(case.get("time", 0)), outcome))
    return tests


LINT_RE = re.compile(r"^lint: (\S+) clean .* ([0-9.]+) s$")


def lint_times(path):
    try:
        with open(path) as f:
            return sorted(
                ((m.group(1), float(m.group(2))) for m in map(LINT_RE.match, f) if m),
                key=lambda x: -x[1],
            )
    except OSError:
        return []


def fmt(s):
    return f"{s / 60:5.1f} min" if s >= 600 else f"{s:6.1f} s"


def commit():
    try:
        return subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=True
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--phases", required=True)
    ap.add_argument("--junit")
    ap.add_argument("--cocotb")
    ap.add_argument("--lint")
    ap.add_argument("--json")
    a = ap.parse_args()

    phases = phases_of(a.phases)
    if not phases:
        print(f"test_times: no phases in {a.phases}", file=sys.stderr)
        return 1
    t0 = min(p["start"] for p in phases)
    t1 = max(p["end"] for p in phases)
    tests = junit_tests(a.junit) if a.junit else []
    # A JUnit file from an earlier run is not this run's.
    tests = [t for t in tests if t[2] is None or t[2] >= t0 - 1]
    cocotb = [
        (r[0], float(r[2]) - float(r[1]))
        for r in (read_tsv(a.cocotb) if a.cocotb else [])
        if len(r) == 3
    ]
    cocotb.sort(key=lambda x: -x[1])
    lint = lint_times(a.lint) if a.lint else []

    print()
    where = f"; {a.json}" if a.json else ""
    print(f"==== time profile ({fmt(t1 - t0).strip()} wall{where})")
    print(f"{'phase':<34} {'from':>8} {'to':>8} {'time':>10}  status")
    for p in phases:
        status = "ok" if p["status"] == 0 else f"exit {p['status']}"
        print(
            f"{p['name']:<34} {p['start'] - t0:7.0f}s {p['end'] - t0:7.0f}s {fmt(p['end'] - p['start']):>10}  {status}"
        )

    binaries = {}
    for b, _, start, secs, outcome in tests:
        e = binaries.setdefault(b, {"binary": b, "tests": 0, "failed": 0, "test_seconds": 0.0, "first": None, "last": None})
        e["tests"] += 1
        e["failed"] += outcome == "fail"
        e["test_seconds"] += secs
        if start is not None:
            e["first"] = start if e["first"] is None else min(e["first"], start)
            e["last"] = start + secs if e["last"] is None else max(e["last"], start + secs)
    bins = sorted(binaries.values(), key=lambda e: -e["test_seconds"])
    for e in bins:
        e["span_seconds"] = (e["last"] - e["first"]) if e["first"] is not None else None
        e["from_s"] = (e["first"] - t0) if e["first"] is not None else None
    if bins:
        print()
        print(f"{'test binary':<34} {'tests':>6} {'sum of times':>13} {'span':>10}")
        for e in bins:
            span = fmt(e["span_seconds"]) if e["span_seconds"] is not None else "-"
            print(f"{e['binary']:<34} {e['tests']:6d} {fmt(e['test_seconds']):>13} {span:>10}")
    if cocotb:
        print()
        print(f"{'cocotb check (one core)':<34} {'time':>10}")
        for name, secs in cocotb:
            print(f"{name:<34} {fmt(secs):>10}")
    if lint:
        print()
        print(f"{'lint (slowest 8 of ' + str(len(lint)) + ')':<34} {'time':>10}")
        for name, secs in lint[:8]:
            print(f"{name:<34} {fmt(secs):>10}")
    slowest = sorted(tests, key=lambda t: -t[3])[:10]
    if slowest:
        print()
        print("ten slowest tests")
        for b, name, _, secs, outcome in slowest:
            mark = "" if outcome == "pass" else f"  ({outcome})"
            print(f"  {fmt(secs):>10}  {b} {name}{mark}")

    if a.json:
        doc = {
            "commit": commit(),
            "date": datetime.datetime.fromtimestamp(t0, datetime.timezone.utc).isoformat(timespec="seconds"),
            "wall_seconds": round(t1 - t0, 1),
            "phases": [
                {
                    "name": p["name"],
                    "from_s": round(p["start"] - t0, 1),
                    "to_s": round(p["end"] - t0, 1),
                    "seconds": round(p["end"] - p["start"], 1),
                    "status": p["status"],
                }
                for p in phases
            ],
            "binaries": [
                {
                    "binary": e["binary"],
                    "tests": e["tests"],
                    "failed": e["failed"],
                    "test_seconds": round(e["test_seconds"], 1),
                    "span_seconds": None if e["span_seconds"] is None else round(e["span_seconds"], 1),
                }
                for e in bins
            ],
            "tests": [
                {"binary": b, "test": n, "seconds": round(s, 3), "outcome": o}
                for b, n, _, s, o in sorted(tests, key=lambda t: -t[3])
            ],
            "cocotb": [{"top": n, "seconds": round(s, 1)} for n, s in cocotb],
            "lint": [{"top": n, "seconds": s} for n, s in lint],
        }
        os.makedirs(os.path.dirname(os.path.abspath(a.json)), exist_ok=True)
        with open(a.json, "w") as f:
            json.dump(doc, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
