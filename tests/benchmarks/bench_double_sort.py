#!/usr/bin/env python3
"""`sort F | sort -r` against `sort -r F`: the sort PL505 removes.

Generates a file of random lines (a word and two numbers, so keys and ties
occur as in a log), page-caches it, then alternates the two forms in one run
(A B A B …) and reports median wall time, median CPU time (user+sys of every
process) and their ratios. Both forms run under the caller's locale and write
to /dev/null; a check first asserts that they print the same bytes.

    python tests/benchmarks/bench_double_sort.py --lines 1000000 --rounds 7
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess

# The same alternating A B A B runs and ratio row as `cat F | c` against `c < F`.
from bench_redirect import compare, require_same_output, scratch_folder, write_word_lines  # noqa: E402  (same folder: run as a script)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=1_000_000)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    if args.lines < 1 or args.rounds < 1:
        parser.error("--lines and --rounds must be at least 1")
    with scratch_folder("double-sort") as work:
        data = work / "lines.txt"
        write_word_lines(data, args.lines, seed=505)
        subprocess.run(["cat", str(data)], stdout=subprocess.DEVNULL, check=True)  # page-cache it
        pairs = [
            ("`sort F \\| sort -r` vs `sort -r F`", f"sort {data} | sort -r", f"sort -r {data}"),
            ("`sort F \\| sort -n -k2` vs `sort -n -k2 F`", f"sort {data} | sort -n -k2", f"sort -n -k2 {data}"),
        ]
        for _, twice, once in pairs:
            require_same_output("bench_double_sort", twice, once)
        size_mib = data.stat().st_size / (1 << 20)
        print(f"{args.lines} lines ({size_mib:.1f} MiB, page-cached), {args.rounds} alternating rounds, medians (wall / CPU)")
        load = os.getloadavg()[0]  # other jobs on the CPUs stretch both forms' wall time, not their ratio alone
        locale = f"LC_ALL={os.environ.get('LC_ALL', '')} LANG={os.environ.get('LANG', '')}"
        print(f"{locale}, {os.cpu_count()} CPUs (load {load:.1f}), {shutil.which('sort')}\n")
        print("| forms | sorted twice | sorted once | wall ratio | CPU ratio |")
        print("|---|---|---|---|---|")
        for name, twice, once in pairs:
            print(compare(name, f"{twice} > /dev/null", f"{once} > /dev/null", args.rounds))


if __name__ == "__main__":
    main()
