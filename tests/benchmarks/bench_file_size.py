#!/usr/bin/env python3
"""What a large script costs: `pipelint check` against the bare tree-sitter parse, per size.

The file-size limit (`max-file-size`, default 8 MiB) is chosen from this
table: it says how long and how much memory `pipelint check` takes on a
script of 1, 2, 5 and 10 MB, side by side with parsing the same bytes with
tree-sitter-bash alone (the floor no linter built on it can go under). Each
measurement is a fresh process; time is wall time, memory is peak RSS
(`ru_maxrss` of the child). Two kinds of script:

- `fixtures`: the repository's fixtures repeated (functions, loops,
  heredocs, pipelines; a finding every few lines), like a large real script;
- `dense`: two lines repeated, each with a finding (what tests/test_cli.py
  used to lint at 10 MB), the worst case for findings and fixes.

    python tests/benchmarks/bench_file_size.py --corpus fixtures --sizes 1 2 5 10
    python tests/benchmarks/bench_file_size.py --corpus dense --sizes 1 2 5 10
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "fixtures"

PARSE_ONLY = "import sys, tree_sitter, tree_sitter_bash as b; tree_sitter.Parser(tree_sitter.Language(b.language())).parse(open(sys.argv[1], 'rb').read())"


DENSE = b'cat "data.txt" | grep -v foo | sort > out.txt\nif [ -f x ]; then echo "hi" | tr a b; fi\n'


def build_script(path: Path, megabytes: float, corpus: str) -> None:
    body = DENSE if corpus == "dense" else b"".join(p.read_bytes() for p in sorted(FIXTURES.glob("*sh")))
    size = int(megabytes * 1_000_000)
    path.write_bytes((body * (size // len(body) + 1))[:size].rsplit(b"\n", 1)[0] + b"\n")


def measure(command: list[str]) -> tuple[float, float]:
    """(wall seconds, peak RSS in MB) of one run in a fresh child process."""
    env = dict(os.environ, PYTHONPATH=str(REPO))
    start = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    _, _, usage = os.wait4(child.pid, 0)  # this child's own rusage, not the maximum over all children
    elapsed = time.perf_counter() - start
    child.returncode = 0  # reaped by wait4 already
    return elapsed, usage.ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=float, nargs="+", default=[1, 2, 5, 10], help="script sizes in MB, rising")
    parser.add_argument("--corpus", choices=("fixtures", "dense"), default="fixtures")
    parser.add_argument("--extra", nargs="*", default=["--max-file-size", "0"], help="extra `pipelint check` flags")
    args = parser.parse_args()
    print(f"corpus: {args.corpus}")
    print("| size | tree-sitter parse | pipelint check | time ratio | parse RSS | check RSS |")
    print("|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory(prefix="bench-size-") as work:
        for megabytes in sorted(args.sizes):
            script = Path(work) / "big.sh"
            build_script(script, megabytes, args.corpus)
            parse_time, parse_rss = measure([sys.executable, "-c", PARSE_ONLY, str(script)])
            check = [sys.executable, "-m", "pipelint", "check", "--quiet", *args.extra, str(script)]
            check_time, check_rss = measure(check)
            print(
                f"| {megabytes:g} MB | {parse_time:.2f} s | {check_time:.2f} s | {check_time / parse_time:.0f}× "
                f"| {parse_rss:.0f} MB | {check_rss:.0f} MB |"
            )


if __name__ == "__main__":
    main()
