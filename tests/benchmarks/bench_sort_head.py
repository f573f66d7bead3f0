#!/usr/bin/env python3
"""`sort F | head -n 1` against one pass of awk: the sort PL504 points at.

Generates a file of random lines (a word and two numbers), page-caches it,
then alternates the two forms in one run (A B A B …) and reports median wall
time, median CPU time (user+sys of every process) and their ratios. Both forms
run with LC_ALL=C (byte order, the order the awk line keeps) and write to
/dev/null; a check first asserts that they print the same line.

    python tests/benchmarks/bench_sort_head.py --lines 1000000 --rounds 7
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess

# The same alternating A B A B runs and ratio row as `cat F | c` against `c < F`.
from bench_redirect import compare, require_same_output, scratch_folder, write_word_lines  # noqa: E402  (same folder: run as a script)

AWK_MIN = """awk 'NR == 1 || $0 "" < m { m = $0 "" } END { if (NR) print m }'"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=1_000_000)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    if args.lines < 1 or args.rounds < 1:
        parser.error("--lines and --rounds must be at least 1")
    with scratch_folder("sort-head") as work:
        data = work / "lines.txt"
        write_word_lines(data, args.lines, seed=504)
        subprocess.run(["cat", str(data)], stdout=subprocess.DEVNULL, check=True)  # page-cache it
        sorted_form, one_pass = f"LC_ALL=C sort {data} | head -n 1", f"LC_ALL=C {AWK_MIN} {data}"
        require_same_output("bench_sort_head", sorted_form, one_pass)
        size_mib = data.stat().st_size / (1 << 20)
        print(f"{args.lines} lines ({size_mib:.1f} MiB, page-cached), {args.rounds} alternating rounds, medians (wall / CPU)")
        load = os.getloadavg()[0]  # other jobs on the CPUs stretch both forms' wall time, not their ratio alone
        print(f"LC_ALL=C, {os.cpu_count()} CPUs (load {load:.1f}), {shutil.which('sort')}, {shutil.which('awk')}\n")
        print("| form | `sort F \\| head -n 1` | one awk pass | wall ratio | CPU ratio |")
        print("|---|---|---|---|---|")
        print(compare("smallest line", f"{sorted_form} > /dev/null", f"{one_pass} > /dev/null", args.rounds))


if __name__ == "__main__":
    main()
