#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Check that every documentation reference in the tree resolves inside the
# repository (docs/README.md "How references are written"):
#
#   docs/<page>.md §N[.M...]        the page exists and has a heading for N.M
#   docs/<page>.md §A, §B-§C, ...   lists and ranges: every item is checked
#   docs/style.md SN                the rule SN exists
#   §N inside docs/<page>.md        the same page has that heading
#
# and that nothing cites the team's notes outside the repository
# (architecture.md, style.md SN without docs/, tc6-facts, napi-facts,
# host-measurements, enet-facts, "TC6 facts"), or uses a bare §N outside
# docs/ (every reference names its page).
#
# Usage: scripts/check-doc-refs.sh [FILE...]
#   With no FILE, checks every tracked C, header, Python, shell, Markdown
#   and CMake file (git ls-files; a plain tree is walked instead). Prints
#   one "path:line: message" per problem and exits 1 if there is any.
#   Needs python3; no root.
set -euo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
files=()
for f in "$@"; do
	files+=("$(realpath -m -- "$f")")
done
cd "$TOP"

if [ $# -gt 0 ]; then
	:
elif git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	mapfile -t files < <(git ls-files -- '*.c' '*.h' '*.py' '*.sh' '*.md' \
		'CMakeLists.txt' '*/CMakeLists.txt' '*.cmake' 'Makefile' '.clang-format' '.ci/*')
else
	mapfile -t files < <(find . -path ./.git -prune -o -path './build*' -prune -o -type f \
		\( -name '*.[ch]' -o -name '*.py' -o -name '*.sh' -o -name '*.md' \
		-o -name CMakeLists.txt -o -name Makefile \) -print | sed 's|^\./||')
fi

exec python3 - "${files[@]}" <<'PYEOF'
import os
import re
import sys

SELF = "scripts/check-doc-refs.sh"
DOCS = "docs"
ID = r"[0-9]+[a-z]?(?:\.[0-9]+)*"
# One list item: §ID, optionally a range -ID or -§ID.
ITEM = re.compile(r"§\s?(" + ID + r")(?:\s?[-–]\s?§?\s?(" + ID + r"))?")
STYLE_ITEM = re.compile(r"(S[0-9]+)\b(?:\s?[-–]\s?(S[0-9]+)\b)?")
# Between list items: spaces, newlines with comment leaders, commas, "and",
# "or", and short parentheticals such as "(state bits)".
SEP = re.compile(r"(?:\s|[,;*#/`]|\band\b|\bor\b|\([^()§]{0,80}\))*")
PAGE = re.compile(r"docs/([A-Za-z0-9_-]+)\.md")
# A page name right before another page name (only spaces and comment
# leaders between): "docs/a.md docs/b.md §4.1" leaves docs/a.md's section out.
DOUBLE = re.compile(r"(?:\s|[*#/`])*docs/[A-Za-z0-9_-]+\.md[\s`]*§")
GAP = re.compile(r"[\s`]*")
HEADING = re.compile(r"^#{1,6}\s+§?\s?(" + ID + r"|S[0-9]+)\.?(?=\s|$)")
OLD = [
    (re.compile(r"architecture\.md"), "architecture.md is not in the repo: use docs/design.md"),
    (re.compile(r"\barchitecture\s+§"), "architecture §N: use docs/design.md §N"),
    (re.compile(r"(?<!docs/)\bstyle\.md\s+S[0-9]"), "style.md SN: use docs/style.md SN"),
    (re.compile(r"tc6-facts"), "tc6-facts is not in the repo: use docs/tc6.md"),
    (re.compile(r"TC6 facts"), "'TC6 facts': use docs/tc6.md"),
    (re.compile(r"napi-facts"), "napi-facts is not in the repo: use docs/napi.md"),
    (re.compile(r"host-measurements"), "host-measurements is not in the repo: use docs/host.md"),
    (re.compile(r"enet-facts"), "enet-facts is not in the repo: use docs/enet.md"),
    (re.compile(r"\.\./shared/"), "../shared is outside the repo"),
]

_headings = {}


def headings(page):
    """Section ids of docs/<page>.md, or None if the page does not exist."""
    if page not in _headings:
        path = os.path.join(DOCS, page + ".md")
        ids = None
        if os.path.isfile(path):
            ids, fence = set(), False
            with open(path, encoding="utf-8") as f:
                for line in f:
                    if line.startswith("```"):
                        fence = not fence
                    m = None if fence else HEADING.match(line)
                    if m:
                        ids.add(m.group(1))
        _headings[page] = ids
    return _headings[page]


def line_of(text, pos):
    return text.count("\n", 0, pos) + 1


def check_items(page, ids, path, text, start, errors, item_re):
    """Check the list of items after a reference; return where it ends."""
    pos, n = start, 0
    while True:
        q = SEP.match(text, pos).end() if n else pos
        if not n:
            q = GAP.match(text, pos).end()
        m = item_re.match(text, q)
        if not m:
            return pos, n
        for sec in filter(None, m.groups()):
            if ids is not None and sec not in ids:
                errors.append((path, line_of(text, m.start()),
                               f"docs/{page}.md has no section {sec}"))
        pos, n = m.end(), n + 1


def check_file(path, errors):
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except (UnicodeDecodeError, FileNotFoundError, IsADirectoryError):
        return 0
    refs, covered = 0, []
    for pat, msg in OLD:
        for m in pat.finditer(text):
            errors.append((path, line_of(text, m.start()), msg))
    for m in PAGE.finditer(text):
        page = m.group(1)
        ids = headings(page)
        item_re = STYLE_ITEM if page == "style" else ITEM
        q = GAP.match(text, m.end()).end()
        if not item_re.match(text, q):
            if DOUBLE.match(text, m.end()):
                errors.append((path, line_of(text, m.start()),
                               f"docs/{page}.md is followed by another page name before the "
                               "section: each page names its own section"))
            continue  # a mention of the page, not a section reference
        if ids is None:
            errors.append((path, line_of(text, m.start()), f"docs/{page}.md does not exist"))
        end, n = check_items(page, ids, path, text, m.end(), errors, item_re)
        covered.append((m.start(), end))
        refs += n
    own = None
    norm = os.path.normpath(path)
    if os.path.dirname(norm) == DOCS and norm.endswith(".md"):
        own = os.path.basename(norm)[:-3]
    for m in ITEM.finditer(text):
        if any(a <= m.start() < b for a, b in covered):
            continue
        if own is None:
            errors.append((path, line_of(text, m.start()),
                           f"bare §{m.group(1)}: name the page (docs/<page>.md §{m.group(1)})"))
            continue
        refs += 1
        for sec in filter(None, m.groups()):
            if sec not in headings(own):
                errors.append((path, line_of(text, m.start()),
                               f"§{sec}: no such section in docs/{own}.md"))
    return refs


def main(files):
    errors, refs, checked = [], 0, 0
    for path in files:
        if os.path.isabs(path) and not os.path.relpath(path).startswith(".."):
            path = os.path.relpath(path)
        if os.path.normpath(path) == SELF or "/fuzz/corpus/" in path or not os.path.isfile(path):
            continue
        checked += 1
        refs += check_file(path, errors)
    for path, line, msg in sorted(set(errors)):
        print(f"{path}:{line}: {msg}")
    status = "FAIL" if errors else "ok"
    print(f"check-doc-refs: {status}: {checked} files, {refs} references, "
          f"{len(set(errors))} problems", file=sys.stderr)
    return 1 if errors else 0


sys.exit(main(sys.argv[1:]))
PYEOF
