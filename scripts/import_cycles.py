#!/usr/bin/env python3
"""No circle of imports between the files of a crate (issue 53).

For each crate, every `use crate::…` / `crate::…` path names a module; a
file depends on the file of the longest module prefix that exists. A
circle of such dependencies between files (`a.rs` uses `b.rs`, which uses
`a.rs`) is reported, except between a module and its own parent (a
`mod.rs` or `x.rs` that declares and re-exports its children, and children
that use their parent's items: Rust's tree, not a circle of peers).

Usage: scripts/import_cycles.py [--self-test]
Exit 1 if a circle is found (each printed), 0 otherwise.
"""

import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CRATES = ["spec/src", "hdl/src", "golden-model/src", "engines/src", "testbench/src", "netsim/src", "cli/src"]


def modules(src):
    """module path (tuple) -> file, for every .rs under src."""
    m = {}
    for d, _, files in os.walk(src):
        for f in files:
            if not f.endswith(".rs"):
                continue
            rel = os.path.relpath(os.path.join(d, f), src)[:-3].split(os.sep)
            if rel[-1] == "mod":
                rel = rel[:-1]
            if rel in (["lib"], ["main"]):
                rel = []
            if rel and rel[0] == "bin":
                continue
            m[tuple(rel)] = os.path.join(d, f)
    return m


def strip_comments(text):
    text = re.sub(r"//[^\n]*", "", text)
    return re.sub(r"/\*.*?\*/", "", text, flags=re.S)


def uses(text):
    """Module paths a file names through `crate::` (in `use` trees too)."""
    out = set()
    text = strip_comments(text)
    # `use crate::a::{b, c::d}` trees: expand one level of braces.
    for m in re.finditer(r"crate::((?:\w+::)*)\{([^{}]*)\}", text):
        base = [p for p in m.group(1).split("::") if p]
        for item in m.group(2).split(","):
            item = item.strip().split(" as ")[0]
            if item and item != "self":
                out.add(tuple(base + [p for p in item.split("::") if p]))
            elif item == "self":
                out.add(tuple(base))
    for m in re.finditer(r"crate((?:::\w+)+)", text):
        out.add(tuple(p for p in m.group(1).split("::") if p))
    return out


def graph(src):
    mods = modules(src)
    g = {f: set() for f in mods.values()}
    for path, f in mods.items():
        for u in uses(open(f).read()):
            # the longest prefix that is a module of this crate
            for k in range(len(u), -1, -1):
                if tuple(u[:k]) in mods:
                    target = tuple(u[:k])
                    break
            t = mods[target]
            # parent and child: not a circle of peers
            if t == f or path[: len(target)] == target or target[: len(path)] == path:
                continue
            g[f].add(t)
    return g


def cycles(g):
    """Strongly connected components of more than one file (Tarjan)."""
    index, low, on, stack, out, n = {}, {}, set(), [], [], [0]

    def visit(v):
        index[v] = low[v] = n[0]
        n[0] += 1
        stack.append(v)
        on.add(v)
        for w in g[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in g:
        if v not in index:
            visit(v)
    return out


def self_test():
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        os.makedirs(os.path.join(d, "area"))
        open(os.path.join(d, "lib.rs"), "w").write("pub mod a;\npub mod b;\npub mod area;\n")
        open(os.path.join(d, "a.rs"), "w").write("use crate::b::X;\n")
        open(os.path.join(d, "b.rs"), "w").write("use crate::{a::Y, area::c};\n")
        open(os.path.join(d, "area", "mod.rs"), "w").write("pub mod c;\npub use c::Z;\n")
        open(os.path.join(d, "area", "c.rs"), "w").write("use crate::area::W;\n")
        found = cycles(graph(d))
        names = [sorted(os.path.basename(f) for f in c) for c in found]
        if names != [["a.rs", "b.rs"]]:
            print(f"import_cycles: self-test: found {names}, not [a.rs, b.rs]", file=sys.stderr)
            return 1
    print("import_cycles: self-test: a circle of two peers is found, a parent and its child are not")
    return 0


def main(argv):
    if argv == ["--self-test"]:
        return self_test()
    bad = 0
    for c in CRATES:
        src = os.path.join(ROOT, c)
        for comp in cycles(graph(src)):
            bad += 1
            print(f"import_cycles: {c}: " + " <-> ".join(os.path.relpath(f, ROOT) for f in comp))
    if bad:
        return 1
    print(f"import_cycles: no circle between the files of {len(CRATES)} crates")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
