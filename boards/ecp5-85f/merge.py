#!/usr/bin/env python3
"""Merge the per-top JSON summaries of synth.py into one (`make synth`,
which runs tops side by side, each writing its own summary).

    python3 boards/ecp5-85f/merge.py OUT.json IN.json [IN.json ...]

Fails, naming it, if an input is missing or is not a JSON object (a top
whose place and route failed). Standard library only.
"""

import json
import sys


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    merged = {}
    for path in argv[2:]:
        try:
            with open(path) as f:
                doc = json.load(f)
        except (OSError, ValueError) as e:
            print(f"merge.py: {path}: {e}", file=sys.stderr)
            return 1
        if not isinstance(doc, dict):
            print(f"merge.py: {path}: not a JSON object", file=sys.stderr)
            return 1
        merged.update(doc)
    with open(argv[1], "w") as f:
        json.dump(merged, f, indent=2)
        f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
