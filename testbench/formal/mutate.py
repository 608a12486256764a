#!/usr/bin/env python3
"""Copy emitted Verilog with one deliberate bug: replace the one
occurrence of FROM (exactly one must exist) by TO. The formal checks must
catch the mutant (scripts/formal.sh).

    mutate.py IN OUT FROM TO
"""
import sys

src, dst, old, new = sys.argv[1:5]
text = open(src).read()
n = text.count(old)
if n != 1:
    sys.exit(f"mutate.py: {old!r} occurs {n} times in {src}, not once")
open(dst, "w").write(text.replace(old, new))
