#!/usr/bin/env python3
"""The widening-cast width trap (docs/architecture.md §6): no
`bit_cast::<W, N>(…)` with W > N whose argument computes (`+`, `-`, `*`,
`<<`, `!`).

rust-hdl emits `bit_cast::<33, 32>((a - b))` as `((a - b) & 33'h1ffffffff)`:
Verilog takes the difference at the cast's width, so a borrow, a carry,
a shifted-out bit or an inverted upper bit lands in the new upper bits,
where rust-hdl's simulation and the golden twins wrap at N. The FPGA
then differs from every simulation of the same block but Verilator's,
and only where the value wraps (met in the requester: a room check at
2^32 bytes, an epoch at 256, a deadline at 2^32 cycles). Put the value
in a `Local` of its own width first and cast the signal.

A narrowing or same-width cast (W ≤ N) is not flagged: Verilog's width
is then the argument's own. W and N that are not both numbers (a const
generic) are flagged when the argument computes: compute it into a
signal first there too.

Usage: cast_widths.py [ROOT=hdl/src]   exit 1 and a line per cast found
       cast_widths.py --self-test     the check flags what it must and
                                      passes what it may
"""
import pathlib
import re
import sys

CAST = re.compile(r"bit_cast::<\s*([0-9A-Za-z_ +]+?)\s*,\s*([0-9A-Za-z_ +]+?)\s*>\(")
COMPUTES = re.compile(r"\+|(?<![-=])-(?!>)|\*|<<|!(?!=)")


def argument(text, start):
    """The text of the call's argument, from just after its `(`."""
    depth, i = 1, start
    while depth:
        depth += {"(": 1, ")": -1}.get(text[i], 0)
        i += 1
    return text[start : i - 1]


def widening(w, n):
    try:
        return int(w) > int(n)
    except ValueError:
        return True


def scan_text(text):
    """(line, W, N, argument) of each widening cast that computes."""
    found = []
    for m in CAST.finditer(text):
        arg = argument(text, m.end())
        bare = re.sub(r"::<[^>]*>", "", arg)  # turbofish generics
        if widening(m.group(1), m.group(2)) and COMPUTES.search(bare):
            found.append((text.count("\n", 0, m.start()) + 1, m.group(1), m.group(2), arg))
    return found


def self_test():
    bad = [
        "x = bit_cast::<33, 32>((self.a.val() - self.b.val()));",
        "x = bit_cast::<32, 8>((self.e.q.val() + 1));",
        "x = bit_cast::<64, 16>(!self.f.val()) << 48;",
        "x = bit_cast::<16, 8>((self.a.val() << 2));",
        "x = bit_cast::<W, 8>((self.a.val() + 1));",
    ]
    good = [
        "x = bit_cast::<33, 32>(self.d.val()) + bit_cast::<33, 32>(self.e.q.val());",
        "x = bit_cast::<10, 13>((self.m.val() + self.k.val()) >> 3);",
        "x = bit_cast::<16, 4>(self.v.val().get_bits::<4>(0));",
        "x = bit_cast::<32, 32>((self.a.val() - 1));",
        "x = bit_cast::<64, 1>(self.b.val().into());",
    ]
    for t in bad:
        assert scan_text(t), f"self-test: not flagged: {t}"
    for t in good:
        assert not scan_text(t), f"self-test: flagged: {t}"
    print("cast_widths: self-test passed")


def main():
    if sys.argv[1:] == ["--self-test"]:
        self_test()
        return 0
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "hdl/src")
    found = 0
    for path in sorted(root.rglob("*.rs")):
        for line, w, n, arg in scan_text(path.read_text()):
            found += 1
            print(f"{path}:{line}: bit_cast::<{w}, {n}> of a computed value: "
                  f"{' '.join(arg.split())[:90]} (compute it into a signal of {n} bits first)")
    if found:
        print(f"cast_widths: {found} widening cast(s) of a computed value "
              "(docs/architecture.md §6, the width traps)")
        return 1
    print("cast_widths: no widening cast of a computed value")
    return 0


if __name__ == "__main__":
    sys.exit(main())
