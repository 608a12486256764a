#!/usr/bin/env python3
"""The book's check (issue 53): README.md and docs/*.md.

1. Every relative markdown link, `[text](path)`, `[text](path#anchor)` or
   `[text](#anchor)` (images too), resolves: the path exists, relative to
   the file that links; an anchor into a .md file names a heading of that
   file by its GitHub slug. Links inside code (fenced blocks, `spans`)
   are not links; http(s) and mailto links are not checked.
2. README.md has at most 300 lines (MAX_README_LINES).
3. Every figure table names the command that makes it. A figure table is
   a markdown table in docs/figures.md, or in README.md under its
   "Headline figures" heading. The command is a backticked `make ...`,
   `hpccnic ...`, `cargo ...`, `python3 ...` or `scripts/...`, in the 15
   lines before the table or in the table itself.

Usage: doc_check.py [ROOT]        check ROOT (default: the repository)
       doc_check.py --self-test   check that bad documents fail
Exit status 0 when clean, 1 with one line per problem otherwise.
"""
import os
import re
import sys
import tempfile
import unicodedata

MAX_README_LINES = 300
LOOK_BACK = 15
FIGURE_FILES = ("docs/figures.md",)
README_FIGURE_HEADING = "Headline figures"
COMMAND = re.compile(r"`(?:make|hpccnic|cargo|python3|scripts/)[^`]*`")
LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
FENCE = re.compile(r"^\s*(```|~~~)")
HEADING = re.compile(r"^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
CODE_SPAN = re.compile(r"(`+)(.+?)\1")


def prose_lines(text):
    """(line number, line) outside fenced code blocks."""
    out, fenced = [], False
    for n, line in enumerate(text.split("\n"), 1):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            out.append((n, line))
    return out


def slug(heading):
    """GitHub's anchor for a heading: lower case, markup and punctuation
    dropped (letters, marks, numbers, '_', '-' and spaces kept), spaces to
    '-'."""
    h = CODE_SPAN.sub(lambda m: m.group(2), heading)
    h = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", h)  # links keep their text
    h = h.strip().lower()
    kept = []
    for ch in h:
        cat = unicodedata.category(ch)
        if ch in " -_" or cat[0] in "LMN":
            kept.append(ch)
    return "".join(kept).replace(" ", "-")


_ANCHORS = {}


def anchors(path):
    """Every heading anchor of a markdown file, duplicates numbered -1, -2."""
    cache = _ANCHORS
    if path not in cache:
        seen, out = {}, set()
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for _, line in prose_lines(text):
            m = HEADING.match(line)
            if not m:
                continue
            s = slug(m.group(2))
            k = seen.get(s, 0)
            seen[s] = k + 1
            out.add(s if k == 0 else f"{s}-{k}")
        cache[path] = out
    return cache[path]


def check_links(root, rel):
    problems = []
    path = os.path.join(root, rel)
    with open(path, encoding="utf-8") as f:
        text = f.read()
    for n, line in prose_lines(text):
        for target in LINK.findall(CODE_SPAN.sub("", line)):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):
                continue  # http:, https:, mailto:
            file_part, _, anchor = target.partition("#")
            dest = path if not file_part else os.path.normpath(
                os.path.join(os.path.dirname(path), file_part))
            if not os.path.exists(dest):
                problems.append(f"{rel}:{n}: link to a missing file: {target}")
                continue
            if anchor and dest.endswith(".md") and os.path.isfile(dest):
                if anchor not in anchors(dest):
                    problems.append(f"{rel}:{n}: link to a missing heading: {target}")
    return problems


def tables(lines):
    """(index of the header row, rows) of each markdown table."""
    out, i = [], 0
    while i < len(lines):
        if (lines[i].lstrip().startswith("|") and i + 1 < len(lines)
                and re.match(r"^\s*\|?\s*:?-{3,}", lines[i + 1])):
            j = i + 2
            while j < len(lines) and lines[j].lstrip().startswith("|"):
                j += 1
            out.append((i, lines[i:j]))
            i = j
        else:
            i += 1
    return out


def check_figure_tables(rel, lines, first, last):
    """Tables whose header row lies in lines[first:last] name a command."""
    problems = []
    for h, rows in tables(lines):
        if not first <= h < last:
            continue
        context = lines[max(0, h - LOOK_BACK):h] + rows
        if not any(COMMAND.search(l) for l in context):
            problems.append(f"{rel}:{h + 1}: a figure table with no command "
                            f"(`make ...`, `hpccnic ...`, `cargo ...`) in it "
                            f"or in the {LOOK_BACK} lines before it")
    return problems


def check(root):
    problems = []
    docs = os.path.join(root, "docs")
    files = ["README.md"] + sorted(
        os.path.join("docs", f) for f in os.listdir(docs) if f.endswith(".md"))
    for rel in files:
        problems += check_links(root, rel)
    with open(os.path.join(root, "README.md"), encoding="utf-8") as f:
        readme = f.read().split("\n")
    if readme and readme[-1] == "":
        readme = readme[:-1]
    if len(readme) > MAX_README_LINES:
        problems.append(f"README.md: {len(readme)} lines, more than {MAX_README_LINES}")
    for rel in FIGURE_FILES:
        p = os.path.join(root, rel)
        if os.path.exists(p):
            with open(p, encoding="utf-8") as f:
                lines = f.read().split("\n")
            problems += check_figure_tables(rel, lines, 0, len(lines))
    # README: the tables under the headline-figures heading, to the next
    # heading of the same or a higher level.
    fenced = False
    start = end = None
    for i, line in enumerate(readme):
        if FENCE.match(line):
            fenced = not fenced
        m = None if fenced else HEADING.match(line)
        if not m:
            continue
        if start is None and m.group(2).strip() == README_FIGURE_HEADING:
            start, level = i, len(m.group(1))
        elif start is not None and end is None and len(m.group(1)) <= level:
            end = i
    if start is None:
        problems.append(f"README.md: no \"{README_FIGURE_HEADING}\" heading")
    else:
        problems += check_figure_tables("README.md", readme, start, end or len(readme))
    return problems


GOOD_README = """# A NIC

See [the book](docs/index.md) and [its figures](docs/figures.md#measured-figures).

## Headline figures

| figure | value | command |
|---|---|---|
| Fmax | 100 MHz | `make synth` |
"""

GOOD_FIGURES = """# Measured figures

Reproduce with `make bench`.

| top | Fmax |
|---|---|
| `x` | 1 |
"""


def self_test():
    """A clean tree passes; each kind of fault, put in on its own, fails
    with the message it should."""
    failures = []

    def run(files, expect):
        with tempfile.TemporaryDirectory() as root:
            os.makedirs(os.path.join(root, "docs"))
            for rel, text in files.items():
                with open(os.path.join(root, rel), "w", encoding="utf-8") as f:
                    f.write(text)
            _ANCHORS.clear()
            got = check(root)
        if expect is None and got:
            failures.append(f"a clean tree failed: {got}")
        elif expect is not None and not any(expect in p for p in got):
            failures.append(f"expected a problem with {expect!r}, got {got}")

    base = {"README.md": GOOD_README, "docs/figures.md": GOOD_FIGURES,
            "docs/index.md": "# Book\n\n- [`x`: y](figures.md)\n- [up](../README.md#headline-figures)\n"
                             "\n```\n[not a link](nowhere.md)\n```\n"}
    run(base, None)
    run({**base, "docs/index.md": "[broken](nowhere.md)\n"}, "missing file: nowhere.md")
    run({**base, "docs/index.md": "[broken](figures.md#no-such-heading)\n"},
        "missing heading: figures.md#no-such-heading")
    run({**base, "docs/index.md": "[broken](#nothing)\n"}, "missing heading: #nothing")
    run({**base, "docs/figures.md": "# Measured figures\n\n| top | Fmax |\n|---|---|\n| `x` | 1 |\n"},
        "a figure table with no command")
    run({**base, "README.md": GOOD_README.replace("`make synth`", "synth")},
        "a figure table with no command")
    run({**base, "README.md": GOOD_README + "line\n" * MAX_README_LINES}, "more than 300")
    for h, s in [("`cc-replay`: the algorithm on your own telemetry",
                  "cc-replay-the-algorithm-on-your-own-telemetry"),
                 ("Formal checks (`make formal`)", "formal-checks-make-formal"),
                 ("5. Measured runs", "5-measured-runs"),
                 ("In short, with the fuzzer's figures", "in-short-with-the-fuzzers-figures"),
                 ("The host interface and `hpcc_nic`", "the-host-interface-and-hpcc_nic")]:
        if slug(h) != s:
            failures.append(f"slug({h!r}) = {slug(h)!r}, not {s!r}")
    for f in failures:
        print(f"doc_check self-test: FAILED: {f}")
    if not failures:
        print("doc_check self-test: ok (a clean tree passes; a broken link, a broken "
              "anchor, a figure table without a command and a long README fail)")
    return 1 if failures else 0


def main(argv):
    if argv[1:2] == ["--self-test"]:
        return self_test()
    root = argv[1] if len(argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    problems = check(root)
    for p in problems:
        print(f"doc_check: {p}")
    if problems:
        print(f"doc_check: FAILED ({len(problems)} problem(s))")
        return 1
    with open(os.path.join(root, "README.md"), encoding="utf-8") as f:
        n = len(f.read().rstrip("\n").split("\n"))
    print(f"doc_check: README.md and docs/*.md clean (links, anchors, figure tables; README {n} lines)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
