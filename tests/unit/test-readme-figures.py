#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The README's results and the committed results never disagree.

Every row of the README's "Results at a glance" table (between the
glance:begin and glance:end markers) names a result file under
bench/results/; every number in its "ours" cell must occur in that file as
a number (so a re-run benchmark that changed a figure fails this test until
the README says the same), and its plot must exist. The `make demo` row's
file must exist and state the goodput as a share of the a-priori limit.

usage: test-readme-figures.py [SOURCE_DIR]
"""
import re
import sys
from pathlib import Path

NUM = re.compile(r"(?<![\w.])\d+(?:\.\d+)?(?![\w])")


def numbers(text):
    return set(NUM.findall(text))


def main():
    top = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parents[2])
    readme = (top / "README.md").read_text()
    i, j = readme.find("<!-- glance:begin -->"), readme.find("<!-- glance:end -->")
    if i < 0 or j < i:
        print("FAIL: README.md has no glance:begin/glance:end markers")
        return 1
    rows = [r for r in readme[i:j].splitlines() if r.startswith("| ") and "---" not in r][1:]
    errors, checked = [], 0
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split("|")]
        if len(cells) != 6:
            errors.append(f"row with {len(cells)} cells, want 6: {row}")
            continue
        seed, ours, result, plot = cells[0], cells[3], cells[4], cells[5]
        m = re.search(r"\]\((bench/results/[^)]+\.md)\)", result)
        if not m:
            errors.append(f"seed {seed}: no bench/results/*.md link in '{result}'")
            continue
        path = top / m.group(1)
        if not path.exists():
            errors.append(f"seed {seed}: {m.group(1)} does not exist")
            continue
        have = numbers(path.read_text())
        for n in sorted(numbers(ours)):
            checked += 1
            if n not in have:
                errors.append(f"seed {seed}: README says {n}, {m.group(1)} does not")
        p = re.search(r"\]\((bench/results/[^)]+\.png)\)", plot)
        if p and not (top / p.group(1)).exists():
            errors.append(f"seed {seed}: plot {p.group(1)} does not exist")
        if "demo" in path.name and "% of the a-priori limit" not in path.read_text():
            errors.append(f"{m.group(1)}: no '% of the a-priori limit' line")
    for e in errors:
        print("FAIL:", e)
    print(f"{len(rows)} rows, {checked} figures checked against bench/results/")
    return 1 if errors or not rows else 0


if __name__ == "__main__":
    sys.exit(main())
