#!/usr/bin/env python3
"""tree-sitter-bash keeps a second GLR stack version alive after `"`a | b | c`"`: nothing after it is reused.

The reproducer for the upstream report (docs/benchmarks.md, *Large scripts*).
For each first line, a 200-function script after it:

  versions   how many parse steps ran with 1, 2, 3… stack versions (tree-sitter's
             log): with two or more, the nodes made are fragile, and an incremental
             parse reuses no fragile node
  edit       an edit of the last byte, re-parsed from the tree (best of 20)
  fresh      a fresh parse of the whole text (best of 20)

    python tests/benchmarks/bench_reuse_after_backticks.py
"""

from __future__ import annotations

import time
from collections import Counter

import tree_sitter
import tree_sitter_bash

FUNCTIONS = "".join(f"f{n}() {{\n  cat words.txt | wc -l\n  echo {n} | tr 0-9 a-j\n}}\n" for n in range(200))
FIRST_LINES = [
    "",
    'echo "$(a | b | c)"\n',
    'echo "`a | b`"\n',
    'echo "`a | b | c`"\n',
    "echo `a | b | c`\n",
    'x="`grep -i x f | cut -d: -f2 | first_word`"\n',  # as in xdg-utils
]


def _versions(parser: tree_sitter.Parser, source: bytes) -> Counter:
    steps: Counter = Counter()

    def log(kind, message: str) -> None:
        if message.startswith("process version:"):
            steps[int(message.split("version_count:")[1].split(",")[0])] += 1

    parser.logger = log
    parser.parse(source)
    parser.logger = None
    return steps


def _best(run, times: int = 20) -> float:
    best = float("inf")
    for _ in range(times):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best


def _edit_at_end(parser: tree_sitter.Parser, source: bytes) -> float:
    tree = parser.parse(source)
    at = len(source) - 2
    edited = source[:at] + b"e" + source[at + 1 :]
    row, column = source.count(b"\n", 0, at), at - (source.rfind(b"\n", 0, at) + 1)

    def once() -> None:
        copy = tree.copy()
        copy.edit(at, at + 1, at + 1, (row, column), (row, column + 1), (row, column + 1))
        parser.parse(edited, copy)

    return _best(once)


def main() -> None:
    parser = tree_sitter.Parser(tree_sitter.Language(tree_sitter_bash.language()))
    print("| first line | versions per step (count) | edit at the end | fresh parse |")
    print("|---|---|---|---|")
    for line in FIRST_LINES:
        source = (line + FUNCTIONS + "echo end\n").encode()
        versions = ", ".join(f"{n}: {count}" for n, count in sorted(_versions(parser, source).items()))
        edit = _edit_at_end(parser, source)
        fresh = _best(lambda: parser.parse(source))
        shown = line.strip().replace("|", "\\|") or "(none)"
        print(f"| `{shown}` | {versions} | {edit * 1000:.2f} ms | {fresh * 1000:.2f} ms |")


if __name__ == "__main__":
    main()
